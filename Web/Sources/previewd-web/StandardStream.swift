#if canImport(Glibc)
import Glibc
#endif

/// Whole lines to standard output and error, written at once (no stdio buffer: a test or systemd
/// reading the pipe sees "serving" as soon as it is true).
enum StandardStream {
    /// Writes `text` to standard output.
    static func out(_ text: String) { write(1, text) }
    /// Writes `text` to standard error.
    static func error(_ text: String) { write(2, text) }

    private static func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 { if errno == EINTR { continue }; return }
            bytes = bytes.dropFirst(written)
        }
    }
}

extension String {
    /// The text of a NUL-terminated C buffer.
    init(cText buffer: [CChar]) {
        self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
