import Foundation
import PreviewCore
@testable import PreviewEngine
import PreviewTestSupport
import XCTest

/// The MPD front-end's database renewing itself, in-process: the engine as previewd builds it (its
/// loop on a thread of its own, a memory output) over the iTunes stand-in, MPD's protocol on a
/// socket of its own, its renewal interval made short. A catalog answer brings new tracks, and a
/// client waiting in `idle database` hears it once, with `db_update` moved; a renewal that finds
/// nothing new says nothing.
final class MPDLibraryTests: StandInTestCase {
    private var rig: StandInEngine!
    private var folder = ""
    private var socket: String { folder + "/mpd.sock" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = NSTemporaryDirectory() + "previewd-mpdlib-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        rig = StandInEngine(baseURL: server.baseURL, origin: origin, sequencer: OutputSequencer(output: MemoryOutput()))
        let plan = try MPDListenPlan(values: [socket], password: nil)
        rig.engine.add { MPDFrontEnd(plan: plan, engine: $0, renewalInterval: 0.3) }
        try rig.start(in: self)
        XCTAssertTrue(eventually { (try? LineClient(path: self.socket)) != nil }, "the MPD socket takes connections")
    }

    override func tearDown() {
        rig.stop(in: self)
        rig = nil
        try? FileManager.default.removeItem(atPath: folder)
        super.tearDown()
    }

    /// Sends `command` and reads its answer through `OK` or `ACK`.
    private func ask(_ client: LineClient, _ command: String) throws -> [String] {
        try client.send(command)
        return try answer(client)
    }

    private func answer(_ client: LineClient) throws -> [String] {
        var lines: [String] = []
        while true {
            let line = try client.receiveText()
            lines.append(line)
            if line == "OK" || line.hasPrefix("ACK ") { return lines }
        }
    }

    private func value(_ key: String, in lines: [String]) -> String? {
        lines.first { $0.hasPrefix(key + ": ") }.map { String($0.dropFirst(key.count + 2)) }
    }

    func testACatalogAnswerRenewsTheDatabaseByItselfAndEveryClientHearsItOnce() throws {
        let watcher = try LineClient(path: socket), asker = try LineClient(path: socket)
        _ = try watcher.receiveText(); _ = try asker.receiveText()   // greetings
        let before = try ask(asker, "stats")
        XCTAssertEqual(value("songs", in: before), "0", "nothing met yet")
        XCTAssertEqual(try ask(asker, "list genre"), ["OK"], "Cantata takes an empty `list genre` for a database with nothing")

        try watcher.send("idle database")
        XCTAssertEqual(try ask(asker, "search any \"sine\"").first, "file: itunes:track:1001", "a catalog answer (the database has nothing)")
        XCTAssertEqual(try answer(watcher), ["changed: database", "OK"], "renewed by itself, told once")
        let after = try ask(asker, "stats")
        XCTAssertEqual(value("songs", in: after), "8", "the stand-in's eight songs with `sine`")
        XCTAssertEqual(value("artists", in: after), "2")
        XCTAssertEqual(value("db_playtime", in: after), "52", "six previews of eight seconds, two of two")
        XCTAssertGreaterThan(Int(value("db_update", in: after) ?? "") ?? 0, Int(value("db_update", in: before) ?? "") ?? 0)
        let searches = try ask(asker, "lsinfo \"Searches\"")
        XCTAssertEqual(searches.count, 3, "\(searches)")
        XCTAssertEqual(searches.first, "directory: Searches/sine")
        XCTAssertTrue(searches[1].hasPrefix("Last-Modified: 20"), searches[1])

        // The same answer again (the cache) brings nothing new: no renewal is announced.
        XCTAssertEqual(try ask(asker, "search any \"sine\"").first, "file: itunes:track:1001")
        XCTAssertEqual(try ask(asker, "update"), ["updating_db: 1", "OK"])
        XCTAssertEqual(try ask(watcher, "idle update"), ["changed: update", "OK"])
        XCTAssertTrue(eventually { (try? self.value("updating_db", in: self.ask(asker, "status"))) == nil }, "the renewal is done")
        try watcher.send("idle database")
        XCTAssertEqual(try ask(watcher, "noidle"), ["OK"], "nothing changed: no `database`")
        XCTAssertEqual(value("db_update", in: try ask(asker, "stats")), value("db_update", in: after))
    }
}
