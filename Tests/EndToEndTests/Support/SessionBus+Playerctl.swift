import Foundation
import PreviewTestSupport
import XCTest

// Desktop clients' view of previewd's MPRIS2 object, through Debian's `playerctl` on the bus.
extension SessionBus {
    /// Waits until `playerctl -p previewd ARGUMENTS` prints something `accepted` (asked every
    /// 50 ms, at most 10 s times the patience); returns it, or fails the test with what it printed.
    @discardableResult
    func waitForPlayerctl(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line,
                          until accepted: (String) -> Bool) -> String {
        var seen = ""
        let reached = eventually(timeout: 10, interval: 0.05) { () -> String? in
            seen = (try? run("playerctl", ["-p", "previewd"] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? ""
            return accepted(seen) ? seen : nil
        }
        if let reached { return reached }
        XCTFail("playerctl \(arguments.joined(separator: " ")): got \(seen)", file: file, line: line)
        return seen
    }

    /// Waits until `playerctl -p previewd ARGUMENTS` prints `expected`.
    func expectPlayerctl(_ expected: String, _ arguments: String..., file: StaticString = #filePath, line: UInt = #line) {
        waitForPlayerctl(arguments, file: file, line: line) { $0 == expected }
    }
}
