import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// previewd on a network shaped like the internet: the API and a CDN on two hosts, both over TLS
/// with 40 ms of round trip (`NetworkRig`, in a network namespace of its own). Every check is of
/// what happened on the wire, counted at the TLS terminators, never of how long it took.
final class NetworkEndToEndTests: XCTestCase {
    private var sink: PulseNullSink?
    private var rig: NetworkRig?

    override func setUpWithError() throws {
        if let why = NetworkRig.unavailable { throw XCTSkip(why) }
        guard PulseNullSink.serverReachable else { throw TestSupportError("no PulseAudio server reachable (scripts/test starts one)") }
        sink = try PulseNullSink()
    }

    override func tearDown() {
        if let rig { XCTAssertEqual(rig.stop(), 0, "previewd should end cleanly; it logged:\n\(rig.daemon.log)") }
        sink?.remove()
    }

    private func start(_ arguments: [String] = []) throws -> NetworkRig {
        let rig = try NetworkRig(arguments: ["--sink", sink!.name] + arguments)
        self.rig = rig
        return rig
    }

    /// Waits until previewd has nothing more under way on the wire: every slot holds its whole
    /// preview, no HTTP exchange is alive, and the terminators' counts have stopped changing.
    private func waitUntilTheWireIsQuiet(_ rig: NetworkRig, file: StaticString = #filePath, line: UInt = #line) throws {
        try rig.daemon.waitForStatus(timeout: 20, "the slots' downloads did not end", file: file, line: line) {
            $0.slots.allSatisfy(\.complete)
        }
        var exchanges = -1
        XCTAssertTrue(try eventually(timeout: 20, interval: 0.05) {
            exchanges = try rig.daemon.memoryReport().live.httpExchanges
            return exchanges == 0
        }, "HTTP exchanges still alive: \(exchanges)", file: file, line: line)
        let counts = { () -> String in
            guard let stats = try? rig.stats() else { return "unreadable" }
            return stats.keys.sorted().map { name in
                let host = stats[name]!
                return "\(name): \(host.connections.count) connections, \(host.full ?? 0) full, \(host.resumed ?? 0) resumed, "
                    + "\(host.requests?.count ?? 0) requests, \(host.requests?.filter { $0.answered != nil }.count ?? 0) answered"
            }.joined(separator: "; ")
        }
        XCTAssertNotNil(settled(quiet: 0.5, timeout: 20) { counts() }, "the wire kept changing: \(counts())", file: file, line: line)
    }

    func testAColdStartSendsTheFirstPreviewOnAConnectionOpenedWhileTheSearchWasInFlight() throws {
        let rig = try start(["--preview-host", NetworkRig.cdn])
        XCTAssertEqual(try rig.daemon.ctl("search", "sine waves").status, 0)
        try rig.daemon.waitUntilPlaying()
        let stats = try rig.stats()
        let search = try XCTUnwrap(stats["api"]?.requests?.first { $0.path.hasPrefix("/search") })
        let answered = try XCTUnwrap(search.answered)
        let cdn = try XCTUnwrap(stats["cdn"])
        let preview = try XCTUnwrap(cdn.requests?.first { $0.method == "GET" && $0.path.hasPrefix("/previews/") })
        XCTAssertLessThan(cdn.connections[preview.connection].accepted, answered,
                          "the first preview went on a connection whose handshake began before the search was answered")
        XCTAssertEqual(preview.connection, 0, "the first connection to the CDN, the pre-connected one, carried it")
        XCTAssertEqual(cdn.requests?.first?.method, "HEAD", "opened by the pre-connect's probe")
    }

    func testASecondSearchWithinTheKeepWarmTimeMakesNoNewConnectionAndNoFullHandshake() throws {
        // No heads: the first answer holds both "brief" tones, whose heads are the whole files, so
        // the second search would need nothing from the CDN and this test would show nothing of it.
        let rig = try start(["--preview-host", NetworkRig.cdn, "--prefetch-heads", "0"])
        XCTAssertEqual(try rig.daemon.ctl("search", "sine waves").status, 0)
        try rig.daemon.waitUntilPlaying()
        try waitUntilTheWireIsQuiet(rig)   // the neighbours' downloads end too
        let before = try rig.stats()
        let version = try rig.daemon.statusReport().queueVersion
        XCTAssertEqual(try rig.daemon.ctl("search", "brief").status, 0)
        try rig.daemon.waitUntilPlaying(afterVersion: version)
        let after = try rig.stats()
        for host in ["api", "cdn"] {
            XCTAssertEqual(after[host]?.connections.count, before[host]?.connections.count, "\(host): no new TCP connection")
            XCTAssertEqual(after[host]?.full, before[host]?.full, "\(host): no new full TLS handshake")
        }
        XCTAssertGreaterThan(after["cdn"]?.requests?.count ?? 0, before["cdn"]?.requests?.count ?? 0, "the new previews came from the CDN")
    }

    func testIdleConnectionsCloseAfterTheKeepWarmTime() throws {
        let rig = try start(["--preview-host", NetworkRig.cdn, "--keep-warm", "2"])
        XCTAssertEqual(try rig.daemon.ctl("search", "brief", "--limit", "1").status, 0)
        try rig.daemon.waitUntilPlaying()
        var open = -1
        try eventually(timeout: 20, interval: 0.1) {
            let stats = try rig.stats()
            open = (stats["api"]?.open ?? 0) + (stats["cdn"]?.open ?? 0)
            return open == 0
        }
        XCTAssertEqual(open, 0, "every idle connection closed after --keep-warm 2")
        let stats = try rig.stats()
        XCTAssertTrue((stats["api"]!.connections + stats["cdn"]!.connections).allSatisfy { $0.closed != nil })
    }

    func testAPreconnectNeverReachesARefusedAddress() throws {
        // The usual preview host is a private address: previewd's address check refuses it, for a
        // pre-connect as for any request.
        let rig = try start(["--preview-host", NetworkRig.trap])
        XCTAssertEqual(try rig.daemon.ctl("search", "sine waves").status, 0)
        try rig.daemon.waitUntilPlaying()
        XCTAssertEqual(try rig.daemon.ctl("search", "brief").status, 0)
        try rig.daemon.waitUntilPlaying()
        XCTAssertEqual(try rig.stats()["trap"]?.connections.count, 0, "nothing connected to 10.9.9.9")
    }

    func testACDNThatDoesNotAnswerThePreconnectDoesNotHoldUpOneThatDoes() throws {
        // The usual preview host accepts and never answers; the results' previews are on the CDN.
        let rig = try start(["--preview-host", NetworkRig.mute])
        XCTAssertEqual(try rig.daemon.ctl("search", "sine waves").status, 0)
        try rig.daemon.waitUntilPlaying()
        let stats = try rig.stats()
        XCTAssertEqual(stats["mute"]?.connections.count, 1, "the pre-connect went to the usual host, which never answered")
        XCTAssertNotNil(stats["cdn"]?.requests?.first { $0.path.hasPrefix("/previews/") }, "the previews came from the CDN meanwhile")
    }
}
