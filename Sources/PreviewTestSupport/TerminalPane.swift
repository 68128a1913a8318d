import Foundation

/// A terminal of a fixed size for driving a full-screen program the way a person does: a tmux
/// server of its own (no user configuration) running `command` in one pane; keys go in with
/// `send-keys`, the screen comes out with `capture-pane`.
public final class TerminalPane {
    private let tmux: String
    private let server: String
    private let environment: [String: String]

    /// Starts `command` (a shell command line) in a `columns`×`rows` pane, with `environment`.
    public init(_ command: String, columns: Int, rows: Int, environment: [String: String]) throws {
        guard let tmux = ProcessRunner.which("tmux") else { throw TestSupportError("tmux not installed (Debian's tmux)") }
        self.tmux = tmux
        server = "previewd-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.environment = environment
        let result = try run(["-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), command])
        guard result.status == 0 else { throw TestSupportError("tmux did not start: \(result.stderr)") }
    }

    /// Quotes `word` for the shell line a pane runs.
    public static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// The screen's text, one line per row (colours left out).
    public func capture() -> String { (try? run(["capture-pane", "-p"]).stdout) ?? "" }

    /// Waits until the screen satisfies `test`; returns that screen, or nil when it never came.
    /// `timeout` (times the patience) is a hang guard, not a speed check.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 15, _ test: (String) -> Bool) -> String? {
        eventually(timeout: timeout, interval: 0.05) { () -> String? in
            let screen = capture()
            return test(screen) ? screen : nil
        }
    }

    /// Waits until `text` is on the screen.
    public func waitFor(_ text: String, timeout: TimeInterval = 15) -> Bool {
        waitFor(timeout: timeout) { $0.contains(text) } != nil
    }

    /// Types `keys` (tmux key names: "Space", "Enter", "Right", or literal text with `literal`).
    public func send(_ keys: String..., literal: Bool = false) {
        _ = try? run(["send-keys"] + (literal ? ["-l"] : []) + keys)
    }

    /// Resizes the pane's window (the program gets SIGWINCH).
    public func resize(columns: Int, rows: Int) {
        _ = try? run(["resize-window", "-x", String(columns), "-y", String(rows)])
    }

    /// A tmux format for the pane: `#{alternate_on}` (1 on the alternate screen), `#{cursor_flag}`
    /// (1 when the cursor shows), `#{pane_pid}`.
    public func value(_ format: String) -> String {
        ((try? run(["display-message", "-p", format]).stdout) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends the tmux server and everything in it.
    public func close() {
        _ = try? run(["kill-server"])
    }

    @discardableResult
    private func run(_ arguments: [String]) throws -> ProcessRunner.Result {
        try ProcessRunner.run(tmux, ["-L", server] + arguments, environment: environment, timeout: 20)
    }
}
