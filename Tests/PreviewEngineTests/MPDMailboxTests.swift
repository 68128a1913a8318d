@testable import PreviewEngine
import XCTest

/// One client's channels and messages, bounded as MPD bounds them (src/client/Subscribe.cxx).
final class MPDMailboxTests: XCTestCase {
    func testChannelNamesAndSubscriptions() {
        for name in ["mpdscribble", "cantata-dynamic-in", "a.b:c_d-1"] { XCTAssertTrue(MPDMailbox.isValid(name), name) }
        for name in ["", "with space", "slash/", "ümlaut", "quote\""] { XCTAssertFalse(MPDMailbox.isValid(name), name) }
        var box = MPDMailbox()
        XCTAssertEqual(box.subscribe("bad name"), .invalid)
        XCTAssertEqual(box.subscribe("mpdscribble"), .subscribed)
        XCTAssertEqual(box.subscribe("mpdscribble"), .already)
        for i in 1..<MPDMailbox.maxChannels { XCTAssertEqual(box.subscribe("c\(i)"), .subscribed) }
        XCTAssertEqual(box.subscribe("one-too-many"), .full)
        XCTAssertEqual(box.subscribe("bad name"), .invalid, "MPD checks the name first")
        XCTAssertTrue(box.unsubscribe("c1"))
        XCTAssertFalse(box.unsubscribe("c1"))
        XCTAssertEqual(box.subscribe("one-more"), .subscribed)
    }

    func testMessagesWaitBoundedAndAreReadOnce() {
        var box = MPDMailbox()
        guard case .notSubscribed = box.deliver("love", on: "mpdscribble") else { return XCTFail("not subscribed") }
        _ = box.subscribe("mpdscribble")
        guard case .delivered(first: true) = box.deliver("love", on: "mpdscribble") else { return XCTFail("the first is told") }
        guard case .delivered(first: false) = box.deliver("love", on: "mpdscribble") else { return XCTFail("the second is not") }
        XCTAssertEqual(box.take().map(\.text), ["love", "love"])
        XCTAssertTrue(box.take().isEmpty, "read once")
        for _ in 0..<MPDMailbox.maxMessages { _ = box.deliver("x", on: "mpdscribble") }
        guard case .noRoom = box.deliver("x", on: "mpdscribble") else { return XCTFail("64 at most") }
        _ = box.take()
        let big = String(repeating: "m", count: 16 << 10)
        var kept = 0
        while case .delivered = box.deliver(big, on: "mpdscribble") { kept += 1 }
        XCTAssertEqual(kept, 3, "64 KiB at most wait for one client")
    }
}
