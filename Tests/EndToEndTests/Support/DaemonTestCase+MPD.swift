import Foundation
import PreviewTestSupport
import XCTest

/// previewd serving MPD's protocol in an end-to-end test, and mpc talking to it.
extension DaemonTestCase {
    /// Starts previewd (plus `arguments`) serving MPD on a private socket and on a TCP port of
    /// loopback; returns both once the socket takes connections.
    func startServingMPD(_ arguments: [String] = []) throws -> (socket: String, port: UInt16) {
        let port = try LoopbackPort.free()
        let folder = NSTemporaryDirectory() + "previewd-mpd-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try startOnSharedServer(["--mpd", folder + "/mpd.sock", "--mpd", "127.0.0.1:\(port)"] + arguments)
        let socket = folder + "/mpd.sock"
        // The control socket is announced first; the MPD listeners follow on the loop (a loaded
        // machine shows the gap: a client connecting at once found no socket).
        try waitFor("the MPD socket takes connections") { (try? MPDRawClient(path: socket)) != nil }
        return (socket, port)
    }

    /// `mpc ARGS` through the socket at `socket`, or TCP `port` on loopback; fails the test unless
    /// mpc ends well.
    @discardableResult
    func runMPC(_ arguments: [String], socket: String?, port: UInt16?, file: StaticString = #filePath, line: UInt = #line) throws -> ProcessRunner.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["MPD_HOST"] = socket ?? "127.0.0.1"
        environment["MPD_PORT"] = port.map(String.init)
        let result = try ProcessRunner.run("/usr/bin/mpc", arguments, environment: environment, timeout: 30)
        XCTAssertEqual(result.status, 0, "mpc \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }
}
