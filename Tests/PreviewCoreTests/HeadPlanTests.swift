import PreviewCore
import XCTest

/// Which previews get a head and how many the budget holds, from tables.
final class HeadPlanTests: XCTestCase {
    func testTheBudgetHoldsTheWindowFirstThenAtMostTwoListsOfHeads() {
        let mib = 1 << 20
        let rows: [(k: Int, budget: Int, window: Int, headBytes: Int, capacity: Int)] = [
            (8, 16 * mib, 3, 64 << 10, 16),      // the defaults: both lists' heads fit
            (0, 16 * mib, 3, 64 << 10, 0),       // off
            (8, 6 * mib, 3, 64 << 10, 0),        // the window takes it all: no heads
            (8, 2 * mib, 3, 64 << 10, 0),        // less than the window's share: still none, never negative
            (8, 6 * mib + (320 << 10), 3, 64 << 10, 5),  // what is left holds five
            (50, 1024 * mib, 17, 64 << 10, 100), // the most: two lists of 50
            (4, 16 * mib, 1, 1 << 20, 8),
        ]
        for row in rows {
            let plan = HeadPlan(perList: row.k, budgetBytes: row.budget, windowLoads: row.window, headBytes: row.headBytes)
            XCTAssertEqual(plan.capacity, row.capacity, "\(row)")
            XCTAssertEqual(plan.reservedBytes, row.capacity * row.headBytes, "\(row)")
            XCTAssertLessThanOrEqual(plan.reservedBytes + row.window * HeadPlan.windowShareBytes, max(row.budget, row.window * HeadPlan.windowShareBytes), "\(row)")
        }
    }

    func testQueuePositionsAroundTheCurrentOneNearestFirstAfterBeforeBefore() {
        let plan = HeadPlan(perList: 4, budgetBytes: 16 << 20, windowLoads: 3)
        let rows: [(current: Int?, count: Int, positions: [Int])] = [
            (nil, 10, [0, 1, 2, 3]),      // nothing current: the top of the queue
            (nil, 2, [0, 1]),
            (5, 10, [6, 4, 7, 3]),
            (0, 10, [1, 2, 3, 4]),        // at the top: only after it
            (9, 10, [8, 7, 6, 5]),        // at the end: only before it
            (1, 3, [2, 0]),               // fewer than K around it
            (0, 1, []),
            (nil, 0, []),
        ]
        for row in rows {
            XCTAssertEqual(plan.positions(around: row.current, count: row.count), row.positions, "\(row)")
        }
        XCTAssertEqual(HeadPlan().positions(around: 3, count: 10), [], "off: none")
        XCTAssertEqual(plan.positions(around: 5, count: 10, beyond: 2), [6, 4, 7, 3, 8, 2], "and the window's neighbours besides")
        XCTAssertEqual(plan.positions(around: nil, count: 10, beyond: 2), [0, 1, 2, 3, 4, 5])
    }

    func testWantedTakesTheFirstKShownThenTheQueueEachOnceWithinTheCapacity() {
        let shown = ["a", "b", "c", "d", "e", "f"]
        var plan = HeadPlan(perList: 3, budgetBytes: 16 << 20, windowLoads: 3)
        let rows: [(shown: [String], queue: [String], excluded: Set<String>, capacity: Int, wanted: [String])] = [
            (shown, ["q1", "q2", "q3", "q4"], [], 6, ["a", "b", "c", "q1", "q2", "q3"]),
            // A result the window holds whole still counts among the first K on screen.
            (shown, ["q1"], ["b"], 6, ["a", "c", "q1"]),
            // A failed head is not asked for again; a preview in both lists once.
            (shown, ["a", "q1", "c"], ["c"], 6, ["a", "b", "q1"]),
            // The budget cuts the queue's first: what is on screen comes before.
            (shown, ["q1", "q2", "q3"], [], 4, ["a", "b", "c", "q1"]),
            ([], ["q1", "q2"], [], 6, ["q1", "q2"]),
            (shown, [], [], 0, []),
        ]
        for row in rows {
            plan.capacity = row.capacity
            XCTAssertEqual(plan.wanted(shown: row.shown, aroundCurrent: row.queue, excluded: row.excluded), row.wanted, "\(row)")
        }
    }
}
