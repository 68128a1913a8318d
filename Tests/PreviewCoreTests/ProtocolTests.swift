import Foundation
import PreviewCore
import XCTest

final class ProtocolTests: XCTestCase {
    private func request(_ json: String) throws -> ControlRequest {
        try JSONDecoder().decode(ControlRequest.self, from: Data(json.utf8))
    }

    func testParsesEveryCommand() throws {
        let cases: [(String, ControlCommand)] = [
            (#"{"id":1,"cmd":"hello"}"#, .hello),
            (#"{"id":2,"cmd":"search","args":{"term":"jack johnson","limit":10}}"#, .search(CatalogQuery(term: "jack johnson", limit: 10), Enqueue())),
            (#"{"cmd":"search","args":{"term":"x"}}"#, .search(CatalogQuery(term: "x"), Enqueue())),
            (#"{"cmd":"play"}"#, .play(nil)),
            (#"{"cmd":"play","args":{"index":3}}"#, .play(.index(3))),
            (#"{"cmd":"play","args":{"id":17}}"#, .play(.id(17))),
            (#"{"cmd":"play","args":{"index":null}}"#, .play(nil)),
            (#"{"cmd":"remove","args":{"id":4}}"#, .remove(.id(4))),
            (#"{"cmd":"move","args":{"fromId":4,"to":0}}"#, .move(from: .id(4), to: .index(0))),
            (#"{"cmd":"info","args":{"id":2}}"#, .info(.id(2))),
            (#"{"cmd":"pause"}"#, .pause), (#"{"cmd":"resume"}"#, .resume), (#"{"cmd":"toggle"}"#, .toggle),
            (#"{"cmd":"stop"}"#, .stop), (#"{"cmd":"next"}"#, .next), (#"{"cmd":"prev"}"#, .prev),
            (#"{"cmd":"status"}"#, .status), (#"{"cmd":"queue"}"#, .queue(since: nil)),
            (#"{"cmd":"queue","args":{"since":41}}"#, .queue(since: 41)),
            (#"{"cmd":"search","args":{"term":"x","queue":false}}"#, .search(CatalogQuery(term: "x"), Enqueue(queue: false))),
            (#"{"cmd":"add","args":{"trackIds":[7,8],"at":"next"}}"#, .add(.trackIds([7, 8]), Enqueue(play: false, at: .next))),
            (#"{"cmd":"add","args":{"tracks":[{"trackId":7,"trackName":"t"}],"at":2,"play":true}}"#,
             .add(.tracks([Track(trackId: 7, trackName: "t")]), Enqueue(play: true, at: .index(2)))),
            (#"{"cmd":"add","args":{"trackIds":[7]}}"#, .add(.trackIds([7]), Enqueue(play: false, at: .end))),
            // A tap: the queue becomes the list and its track 1 plays.
            (#"{"cmd":"add","args":{"trackIds":[7,8],"replace":true,"play":1}}"#, .add(.trackIds([7, 8]), { var e = Enqueue(); e.start = 1; return e }())),
            (#"{"cmd":"add","args":{"trackIds":[7,8],"replace":true}}"#, .add(.trackIds([7, 8]), Enqueue(play: false))),
            (#"{"cmd":"visible","args":{"trackIds":[7,8]}}"#, .visible([7, 8])),
            (#"{"cmd":"visible","args":{"trackIds":[]}}"#, .visible([])),
            (#"{"cmd":"single","args":{"mode":"oneshot"}}"#, .setSingle(.oneshot)),
            (#"{"cmd":"consume","args":{"on":true}}"#, .setConsume(true)),
            (#"{"cmd":"crossfade","args":{"seconds":3}}"#, .crossfade(3)),
            (#"{"cmd":"crossfade"}"#, .crossfade(nil)),
            (#"{"cmd":"artwork","args":{"original":true,"id":3,"offset":100}}"#, .artworkFile(.id(3), offset: 100)),
            (#"{"cmd":"artwork","args":{"original":true,"trackId":1001,"small":true}}"#, .trackArtworkFile(trackId: 1001, small: true, offset: 0)),
            (#"{"cmd":"more","args":{"queue":false}}"#, .more(queue: false)),
            (#"{"cmd":"play","args":{"id":4,"position":4.25,"paused":true}}"#, .play(.id(4), startMs: 4_250, paused: true)),
            (#"{"cmd":"save","args":{"name":"evening","append":true}}"#, .save(try ListName("evening"), mode: .append)),
            (#"{"cmd":"load","args":{"name":"evening","at":"next"}}"#, .load(try ListName("evening"), Enqueue(at: .next))),
            (#"{"cmd":"lists"}"#, .lists(nil)), (#"{"cmd":"lists","args":{"name":"marked"}}"#, .lists(.marked)),
            (#"{"cmd":"forget","args":{"name":"a b"}}"#, .forget(try ListName("a b"))),
            (#"{"cmd":"rename","args":{"name":"a","to":"b"}}"#, .rename(try ListName("a"), to: try ListName("b"))),
            (#"{"cmd":"listadd","args":{"name":"a","trackIds":[5]}}"#, .listAdd(try ListName("a"), .trackIds([5]))),
            (#"{"cmd":"listremove","args":{"name":"a","index":2}}"#, .listRemove(try ListName("a"), index: 2)),
            (#"{"cmd":"mark"}"#, .mark(nil)), (#"{"cmd":"unmark","args":{"index":2}}"#, .unmark(.index(2))),
            (#"{"cmd":"history","args":{"limit":5}}"#, .history(limit: 5)),
            (#"{"cmd":"shuffle","args":{"on":true,"order":[3,1,2]}}"#, .shuffleOrder([3, 1, 2])),
            (#"{"cmd":"shufflequeue"}"#, .shuffleQueue(nil)), (#"{"cmd":"shufflequeue","args":{"start":1,"end":4}}"#, .shuffleQueue(1..<4)),
            (#"{"cmd":"seek","args":{"position":12.5}}"#, .seek(.absolute(ms: 12_500))),
            (#"{"cmd":"seek","args":{"delta":-5}}"#, .seek(.relative(ms: -5_000))),
        ]
        for (json, expected) in cases {
            XCTAssertEqual(try ControlCommand(request(json)), expected, json)
            // What previewctl sends parses back to the same command.
            XCTAssertEqual(try ControlCommand(expected.request(id: 9)), expected)
        }
    }

    func testBadArgumentsAreTypedErrors() throws {
        let cases: [(String, ControlError.Code)] = [
            (#"{"cmd":"launch"}"#, .unknownCommand),
            (#"{"cmd":"search"}"#, .badArgument),
            (#"{"cmd":"play","args":{"index":1,"id":2}}"#, .badArgument),
            (#"{"cmd":"play","args":{"id":0}}"#, .badArgument),
            (#"{"cmd":"remove","args":{}}"#, .badArgument),
            (#"{"cmd":"add"}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1],"tracks":[]}}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1,"x"]}}"#, .badArgument),
            (#"{"cmd":"add","args":{"tracks":[5]}}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1],"at":-1}}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1],"at":"later"}}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1],"play":0}}"#, .badArgument),                 // a track to play replaces
            (#"{"cmd":"add","args":{"trackIds":[1],"replace":true,"at":0}}"#, .badArgument),
            (#"{"cmd":"add","args":{"trackIds":[1],"replace":true,"play":-1}}"#, .badArgument),
            (#"{"cmd":"visible"}"#, .badArgument),
            (#"{"cmd":"visible","args":{"trackIds":[1,0]}}"#, .badArgument),
            (#"{"cmd":"single","args":{"mode":"twice"}}"#, .badArgument),
            (#"{"cmd":"play","args":{"paused":true}}"#, .badArgument),
            (#"{"cmd":"save","args":{"name":".hidden"}}"#, .badArgument),
            (#"{"cmd":"save","args":{"name":"a/b"}}"#, .badArgument),
            (#"{"cmd":"save","args":{"name":""}}"#, .badArgument),
            (#"{"cmd":"load","args":{"name":"tab\there"}}"#, .badArgument),
            (#"{"cmd":"forget"}"#, .badArgument),
            (#"{"cmd":"history","args":{"limit":0}}"#, .badArgument),
            (#"{"cmd":"shuffle","args":{"on":true,"order":"x"}}"#, .badArgument),
            (#"{"cmd":"consume"}"#, .badArgument),
            (#"{"cmd":"crossfade","args":{"seconds":16}}"#, .badArgument),
            (#"{"cmd":"crossfade","args":{"seconds":2.5}}"#, .badArgument),
            (#"{"cmd":"crossfade","args":{"seconds":"3"}}"#, .badArgument),
            (#"{"cmd":"queue","args":{"since":-1}}"#, .badArgument),
            (#"{"cmd":"artwork","args":{"original":true,"offset":-5}}"#, .badArgument),
            (#"{"cmd":"artwork","args":{"original":true,"trackId":1001,"index":0}}"#, .badArgument),
            (#"{"cmd":"search","args":{"term":"  "}}"#, .badArgument),
            (#"{"cmd":"search","args":{"term":5}}"#, .badArgument),
            (#"{"cmd":"search","args":{"term":"x","limit":0}}"#, .badArgument),
            (#"{"cmd":"search","args":{"term":"x","limit":201}}"#, .badArgument),
            (#"{"cmd":"search","args":{"term":"x","limit":"ten"}}"#, .badArgument),
            (#"{"cmd":"play","args":{"index":-1}}"#, .badArgument),
            (#"{"cmd":"play","args":{"index":1.5}}"#, .badArgument),
            (#"{"cmd":"seek"}"#, .badArgument),
            (#"{"cmd":"seek","args":{"position":-1}}"#, .badArgument),
            (#"{"cmd":"seek","args":{"position":"10"}}"#, .badArgument),
        ]
        for (json, code) in cases {
            XCTAssertThrowsError(try ControlCommand(request(json)), json) {
                XCTAssertEqual(($0 as? ControlError)?.code, code, json)
            }
        }
        XCTAssertThrowsError(try request(#"{"id":"seven","cmd":"next"}"#))
        XCTAssertThrowsError(try request(#"["next"]"#))
    }

    func testResponsesRoundTrip() throws {
        let ok = ControlResponse.success(id: 7, .object(["n": .number(3), "s": .string("x"), "z": .null]))
        let failed = ControlResponse.failure(id: 8, ControlError(.noResults, "no results for \"x\""))
        for response in [ok, failed] {
            XCTAssertEqual(try JSONDecoder().decode(ControlResponse.self, from: JSONEncoder().encode(response)), response)
        }
        let wire = String(decoding: try JSONEncoder().encode(failed), as: UTF8.self)
        XCTAssertTrue(wire.contains(#""code":"no-results""#), wire)
    }

    func testStatusAlwaysCarriesEveryKey() throws {
        let status = StatusReport(state: .idle, index: nil, positionMs: 0, durationMs: nil, queueLength: 0,
                                  track: nil, error: nil, output: "ok")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(status)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["state", "index", "id", "queueVersion", "positionMs", "durationMs", "queueLength", "track", "error", "output",
                                          "buffering", "volume", "muted", "repeat", "shuffle", "slots", "switchMicroseconds", "loudness",
                                          "hasNext", "artwork", "nextId", "nextIndex", "single", "consume", "crossfade", "marked", "audio",
                                          "outputEnabled", "outputs", "normalization", "waiting", "radio", "radioNote", "reason", "radioSkips", "playHere"])
        XCTAssertTrue(object["index"] is NSNull)
        XCTAssertEqual(try JSONDecoder().decode(StatusReport.self, from: JSONEncoder().encode(status)), status)
    }

    func testLineFramerSplitsAndBoundsLines() throws {
        var framer = LineFramer(maxLineLength: 8)
        XCTAssertEqual(try framer.feed(Array("ab\ncd".utf8)), [Array("ab".utf8)])
        XCTAssertEqual(try framer.feed(Array("e\r\n\n".utf8)), [Array("cde".utf8), []])
        XCTAssertEqual(framer.bufferedCount, 0)
        XCTAssertThrowsError(try framer.feed(Array("123456789".utf8))) {
            XCTAssertEqual($0 as? LineFramer.Failure, .lineTooLong(limit: 8))
        }
    }

    func testDefaultSocketPath() {
        XCTAssertEqual(SocketPath.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000),
                       "/run/user/1000/previewd.sock")
        XCTAssertEqual(SocketPath.defaultPath(environment: [:], uid: 1000), "/tmp/previewd-1000/previewd.sock")
    }
}
