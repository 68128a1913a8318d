import Foundation
import PreviewCore
import XCTest

/// "Play here": a page's claim and clock (`PageClaim`) and its messages (`playhere`, `audio`).
final class PlayHereTests: XCTestCase {
    private let ms: UInt64 = 1_000_000

    func testThePageClockRunsOnFromItsLastReportWhilePlaying() {
        var claim = PageClaim(page: "a", hereOnly: true)
        XCTAssertNil(claim.clockMs(for: 7, at: 0, durationMs: 30_000), "nothing reported: the box's clock")
        claim.report = .init(item: 7, positionMs: 5_000, playing: true, at: 1_000 * ms)
        // (item asked, now in ms, duration) → the clock
        let cases: [(Int, UInt64, Int?, Int?)] = [
            (7, 1_000, 30_000, 5_000), (7, 1_250, 30_000, 5_250), (7, 900, 30_000, 5_000),   // a report "from the future" does not run back
            (7, 40_000, 30_000, 30_000),   // never past the track's end
            (8, 1_250, 30_000, nil),       // another item: the page said nothing of it
        ]
        for (item, now, duration, expected) in cases {
            XCTAssertEqual(claim.clockMs(for: item, at: now * ms, durationMs: duration), expected, "item \(item) at \(now)")
        }
        claim.report?.playing = false
        XCTAssertEqual(claim.clockMs(for: 7, at: 9_000 * ms, durationMs: 30_000), 5_000, "paused: the clock stands")
    }

    func testHereOnlySilencesTheBoxAndAGonePageIsOneSilentForLongerThanATrack() {
        XCTAssertTrue(PageClaim(page: "a", hereOnly: true).silencesBox)
        XCTAssertFalse(PageClaim(page: "a", hereOnly: false).silencesBox)
        XCTAssertFalse(PageClaim.isGone(lastHeard: 0, now: UInt64(PageClaim.silenceLimitMs) * ms))
        XCTAssertTrue(PageClaim.isGone(lastHeard: 0, now: UInt64(PageClaim.silenceLimitMs + 1) * ms))
        XCTAssertGreaterThan(PageClaim.silenceLimitMs, 30_000, "longer than a preview: a locked phone fetches the next one within a track")
        XCTAssertFalse(PageClaim.isGone(lastHeard: 0, now: 2_500 * ms, limitMs: 2_500), "a limit --page-silence set")
        XCTAssertTrue(PageClaim.isGone(lastHeard: 0, now: 2_501 * ms, limitMs: 2_500))
        XCTAssertFalse(PageClaim.isGone(lastHeard: 5 * ms, now: 4 * ms, limitMs: 2_500), "heard after now: not gone")
        XCTAssertFalse(PageClaim.needsResync(box: 5_000, page: 5_150))
        XCTAssertTrue(PageClaim.needsResync(box: 5_000, page: 5_151))
    }

    func testMessagesParseAndBadOnesSayWhy() throws {
        let good: [(String, ControlCommand)] = [
            (#"{"cmd":"playhere","args":{"page":"p","on":true}}"#, .playHere(.claim(page: "p", hereOnly: true))),
            (#"{"cmd":"playhere","args":{"page":"p","on":true,"hereOnly":false}}"#, .playHere(.claim(page: "p", hereOnly: false))),
            (#"{"cmd":"playhere","args":{"page":"p","on":false}}"#, .playHere(.release(page: "p"))),
            (#"{"cmd":"playhere","args":{"page":"p","id":4,"positionMs":1200}}"#, .playHere(.report(page: "p", item: 4, positionMs: 1_200, playing: true))),
            (#"{"cmd":"playhere","args":{"page":"p","ended":4}}"#, .playHere(.ended(page: "p", item: 4))),
            (#"{"cmd":"playhere","args":{"page":"p","failed":4}}"#, .playHere(.failed(page: "p", item: 4))),
            (#"{"cmd":"audio","args":{"id":4}}"#, .audioFile(item: 4, offset: 0)),
            (#"{"cmd":"audio","args":{"id":4,"offset":65536}}"#, .audioFile(item: 4, offset: 65_536)),
        ]
        for (json, expected) in good {
            XCTAssertEqual(try ControlCommand(JSONDecoder().decode(ControlRequest.self, from: Data(json.utf8))), expected, json)
        }
        let bad = [
            #"{"cmd":"playhere","args":{"on":true}}"#, #"{"cmd":"playhere","args":{"page":""}}"#,
            #"{"cmd":"playhere","args":{"page":"p"}}"#, #"{"cmd":"playhere","args":{"page":"p","id":4}}"#,
            #"{"cmd":"playhere","args":{"page":"p","ended":-1}}"#, #"{"cmd":"audio"}"#, #"{"cmd":"audio","args":{"id":4,"offset":-5}}"#,
        ]
        for json in bad {
            XCTAssertThrowsError(try ControlCommand(JSONDecoder().decode(ControlRequest.self, from: Data(json.utf8))), json) {
                XCTAssertEqual(($0 as? ControlError)?.code, .badArgument, json)
            }
        }
    }

    func testTheStatusAndTheEventSayWhichPagePlays() throws {
        let event = String(decoding: try JSONEncoder().encode(ControlEvent.playHere(PlayHereReport(page: "p", hereOnly: false))), as: UTF8.self)
        XCTAssertTrue(event.contains(#""event":"playhere""#) && event.contains(#""page":"p""#) && event.contains(#""hereOnly":false"#), event)
        let none = String(decoding: try JSONEncoder().encode(ControlEvent.playHere(nil)), as: UTF8.self)
        XCTAssertTrue(none.contains(#""playHere":null"#), none)
        var status = StatusReport(state: .playing, index: 0, positionMs: 0, durationMs: nil, queueLength: 1, track: nil, error: nil, output: "null")
        status.playHere = PlayHereReport(page: "p", hereOnly: true)
        XCTAssertEqual(try JSONDecoder().decode(StatusReport.self, from: JSONEncoder().encode(status)).playHere, status.playHere)
    }
}
