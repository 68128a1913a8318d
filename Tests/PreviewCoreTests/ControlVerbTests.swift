import PreviewCore
import XCTest

/// The verb table (`ControlVerb.all`): one sorted row per wire verb, and what is derived from it.
final class ControlVerbTests: XCTestCase {
    /// At least one command of every verb, as previewctl and the front-ends send them.
    private let samples: [ControlCommand] = [
        .hello, .search(CatalogQuery(term: "x"), Enqueue()), .lookup(LookupQuery(ids: [5], entity: "song"), Enqueue(queue: false)),
        .top(ChartQuery(limit: 10), Enqueue()), .more(queue: false), .add(.trackIds([7, 8]), Enqueue(play: false, at: .next)),
        .visible([1, 2]), .info(.id(2)), .artwork(.index(1), width: 24, height: 12), .artworkFile(nil, offset: 4),
        .trackArtworkFile(trackId: 1001, small: true, offset: 0), .share, .clear, .swap(.index(0), .id(3)),
        .setPriority(9, [.id(1), .id(2)]), .clearError, .setOutput(enabled: false), .switchOutput(id: 1, enabled: nil), .switchOutput(id: 0, enabled: true),
        .setNormalization(.track),
        .shuffleQueue(1..<4), .remove(.index(0)), .move(from: .id(4), to: .index(0)), .subscribe(position: true),
        .play(.id(4), startMs: 4_250, paused: true), .pause, .resume, .toggle, .stop, .next, .prev,
        .seek(.relative(ms: -5_000)), .volume(.set(40)), .mute(nil), .crossfade(3), .setRepeat(.all), .setShuffle(true),
        .shuffleOrder([3, 1, 2]), .setSingle(.oneshot), .setConsume(true), .setRadio(false), .setRadio(true, skips: ["artist:5": 2]), .status, .queue(since: 41), .memory, .library,
        .save(try! ListName("evening"), mode: .append), .load(try! ListName("evening"), Enqueue(at: .next)), .lists(.marked),
        .forget(try! ListName("a")), .rename(try! ListName("a"), to: try! ListName("b")),
        .listAdd(try! ListName("a"), .trackIds([5])), .listMove(try! ListName("a"), from: 2, to: 0),
        .listRemove(try! ListName("a"), index: nil), .mark(nil), .unmark(.index(2)), .history(limit: 5),
        .audioFile(item: 3, offset: 65_536), .playHere(.claim(page: "p1", hereOnly: false)), .playHere(.release(page: "p1")),
        .playHere(.report(page: "p1", item: 3, positionMs: 5_230, playing: true)), .playHere(.ended(page: "p1", item: 3)),
    ]

    func testTheTableHasOneSortedRowPerName() {
        let names = ControlVerb.all.map(\.name.rawValue)
        XCTAssertEqual(names, names.sorted(), "sorted by name")
        XCTAssertEqual(Set(names).count, names.count, "one row per name")
        XCTAssertEqual(names, ControlVerb.Name.allCases.map(\.rawValue), "every name has its row")
        for verb in ControlVerb.all { XCTAssertEqual(ControlVerb.named(verb.name.rawValue)?.name, verb.name) }
        XCTAssertNil(ControlVerb.named("launch"))
        XCTAssertNil(ControlVerb.named("Status"))
    }

    func testEveryRowParsesWhatTheRequestWriterWrites() throws {
        XCTAssertEqual(Set(samples.map { $0.request(id: 1).cmd }).sorted(), ControlVerb.Name.allCases.map(\.rawValue),
                       "a sample for every verb, and no name outside the table")
        for command in samples {
            let request = command.request(id: 1)
            let verb = try XCTUnwrap(ControlVerb.named(request.cmd), request.cmd)
            XCTAssertEqual(try verb.parse(request.args ?? [:]), command, request.cmd)
            XCTAssertEqual(try ControlCommand(request), command, request.cmd)
        }
    }

    /// previewd-web's allow-list, as it was written out before the table.
    func testTheWebRowsAreTheWebRemotesAllowList() {
        let web = ControlVerb.all.filter { $0.access == .web }.map(\.name.rawValue)
        XCTAssertEqual(Set(web), [
            "search", "lookup", "top", "more", "add", "play", "pause", "resume", "toggle", "stop", "next", "prev",
            "seek", "volume", "mute", "repeat", "shuffle", "single", "consume", "status", "queue", "clear", "remove",
            "move", "share", "info", "mark", "unmark", "save", "load", "lists", "history", "visible", "radio", "playhere",
            "output",   // the page lists the outputs and switches each (issue 54)
        ], "\(web)")
    }

    func testOnlyTheseVerbsOnlyRead() {
        let reads = ControlVerb.all.filter { $0.effect == .reads }.map(\.name.rawValue)
        XCTAssertEqual(reads, ["artwork", "audio", "hello", "history", "info", "library", "lists", "memory", "queue", "share", "status", "subscribe"])
    }

    func testAnUnknownVerbKeepsItsError() {
        XCTAssertThrowsError(try ControlCommand(ControlRequest(cmd: String(repeating: "x", count: 100)))) {
            XCTAssertEqual($0 as? ControlError, ControlError(.unknownCommand, "unknown command \"\(String(repeating: "x", count: 64))\""))
        }
    }

    /// docs/PROTOCOL.md has a `### ` heading naming every verb, and names no other.
    func testTheProtocolDocumentNamesEveryVerb() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let commands = try XCTUnwrap(text.components(separatedBy: "\n## Commands\n").last?.components(separatedBy: "\n## ").first)
        let headed = commands.split(separator: "\n").filter { $0.hasPrefix("### ") }
            .flatMap { $0.dropFirst(4).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        XCTAssertEqual(headed.sorted(), ControlVerb.Name.allCases.map(\.rawValue))
    }
}
