import Glibc

/// The terminal's size in character cells: stdout's, else $COLUMNS and $LINES, else the fallback.
struct TerminalSize {
    var columns: Int
    var rows: Int

    /// The size now, with `fallback` for what neither the terminal nor the environment says.
    static func current(fallback: TerminalSize = TerminalSize(columns: 80, rows: 24)) -> TerminalSize {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
        }
        func variable(_ name: String) -> Int? { getenv(name).flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil } }
        return TerminalSize(columns: variable("COLUMNS") ?? fallback.columns, rows: variable("LINES") ?? fallback.rows)
    }
}
