import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

// The end-to-end tests' waits, all on PreviewTestSupport's `eventually` and `settled`: every
// timeout is a hang guard (times PREVIEWD_TEST_PATIENCE), never a speed check, and a wait that
// succeeds returns as soon as it does. Programs are asked every 50 ms (each question is a process).

extension DaemonProcess {
    /// `previewctl --json status`, decoded (for a daemon held outside a DaemonTestCase, as
    /// NetworkRig's).
    func statusReport() throws -> StatusReport {
        let result = try ctl("--json", "status")
        guard result.status == 0 else { throw TestSupportError("previewctl status: exit \(result.status): \(result.stderr)") }
        return try JSONDecoder().decode(StatusReport.self, from: Data(result.stdout.utf8))
    }

    /// `previewctl --json memory`, decoded.
    func memoryReport() throws -> MemoryReport {
        let result = try ctl("--json", "memory")
        guard result.status == 0 else { throw TestSupportError("previewctl memory: exit \(result.status): \(result.stderr)") }
        return try JSONDecoder().decode(MemoryReport.self, from: Data(result.stdout.utf8))
    }

    /// Asks for the status until `condition` holds (at most `timeout` seconds, times the patience)
    /// and returns that report; when it never does, fails the test with `what` and the last
    /// report, and returns the last report.
    @discardableResult
    func waitForStatus(timeout: TimeInterval = 10, _ what: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line,
                       _ condition: (StatusReport) -> Bool) throws -> StatusReport {
        var last = try statusReport()
        if condition(last) { return last }
        let reached = try eventually(timeout: timeout, interval: 0.05) { () throws -> StatusReport? in
            last = try statusReport()
            return condition(last) ? last : nil
        }
        if let reached { return reached }
        let said = what()
        XCTFail("\(said.isEmpty ? "" : said + ": ")status never got there: \(last)", file: file, line: line)
        return last
    }

    /// Waits until previewd plays queue item `index` with audio flowing (of a queue newer than
    /// `afterVersion`, when given: the answer to a later search).
    func waitUntilPlaying(index: Int = 0, afterVersion: Int = -1, timeout: TimeInterval = 20,
                          file: StaticString = #filePath, line: UInt = #line) throws {
        try waitForStatus(timeout: timeout, "previewd did not play item \(index); it logged:\n\(log)", file: file, line: line) {
            $0.state == .playing && $0.index == index && $0.positionMs > 0 && $0.queueVersion > afterVersion
        }
    }
}

extension DaemonTestCase {
    /// Asks for the status until `condition` holds (at most `timeout` seconds, times the patience)
    /// and returns that report; when it never does, fails the test with `what` and the last report.
    @discardableResult
    func waitForStatus(timeout: TimeInterval = 10, _ what: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line,
                       _ condition: (StatusReport) -> Bool) throws -> StatusReport {
        try daemon.waitForStatus(timeout: timeout, what(), file: file, line: line, condition)
    }

    /// Waits until `condition` holds (at most `timeout` seconds, times the patience); fails the
    /// test with `what` when it never does.
    func waitFor(_ what: @autoclosure () -> String, timeout: TimeInterval = 15, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: () throws -> Bool) rethrows {
        let reached = try eventually(timeout: timeout, interval: 0.05) { try condition() }
        XCTAssertTrue(reached, what(), file: file, line: line)
    }

    /// Waits until previewd's log contains `text`; false when it never did.
    @discardableResult
    func waitForLog(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let reached = eventually(timeout: timeout) { daemon.log.contains(text) }
        XCTAssertTrue(reached, "previewd never logged \"\(text)\"; it logged:\n\(daemon.log)", file: file, line: line)
        return reached
    }
}

extension MonitorRecorder {
    /// Waits until nothing more is heard after sample `mark`: the recording has gone on in silence
    /// for `quiet` seconds (a running sink's monitor records silence), or it has not grown for
    /// `quiet` seconds (an idle sink's monitor, or a FIFO nobody writes, records nothing). Returns
    /// the sample count then, or nil when sound kept coming.
    func waitUntilQuiet(after mark: Int, quiet: TimeInterval = 0.3, timeout: TimeInterval = 10) -> Int? {
        let needed = Int(quiet * Double(sampleRate)), size = sampleRate / 100
        var count = sampleCount, since = Date()
        return eventually(timeout: timeout) { () -> Int? in
            let now = sampleCount
            if now != count {
                count = now
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return now
            }
            guard now - mark >= needed else { return nil }
            let windows = Array(stride(from: now - needed, to: now - size, by: size))
            return silentWindows(from: now - needed, to: now, size: size) == windows ? now : nil
        }
    }
}

/// Milliseconds from `date` to now: a bound measured in the test itself (a position can grow no
/// faster than the time that passed), never a fixed limit a slow machine could exceed.
func millisecondsSince(_ date: Date) -> Int {
    Int(Date().timeIntervalSince(date) * 1_000)
}
