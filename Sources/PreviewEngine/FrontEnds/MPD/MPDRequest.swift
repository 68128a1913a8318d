/// One request line split as MPD's tokenizer does (src/util/Tokenizer.cxx): the command name (a
/// word of letters, digits and `_`), then arguments, each a bare word or a `"quoted string"` in which
/// a backslash takes the next character literally.
public struct MPDRequest: Equatable, Sendable {
    /// The most arguments one request may carry (MPD: COMMAND_ARGV_MAX).
    public static let maxArguments = 4096

    /// The command's name, as sent.
    public var name: String
    /// The arguments, unquoted and unescaped.
    public var arguments: [String]

    /// A request of `name` with `arguments`.
    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// Splits `line` (without its newline; a trailing `\r` is ignored), or says what is wrong.
    public init(parsing line: [UInt8]) throws(MPDError) {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        Self.skipSpace(&bytes)
        guard let first = bytes.first, Self.isLetter(first) else {
            throw MPDError(.unknown, bytes.isEmpty ? "No command given" : "Command name expected")
        }
        let nameBytes = bytes.prefix { Self.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") }
        bytes = bytes.dropFirst(nameBytes.count)
        if let next = bytes.first, !Self.isSpace(next) { throw MPDError(.unknown, "Invalid command name") }
        name = String(decoding: nameBytes, as: UTF8.self)
        arguments = []
        while true {
            Self.skipSpace(&bytes)
            guard let first = bytes.first else { break }
            guard arguments.count < Self.maxArguments else { throw MPDError(.arg, "Too many arguments") }
            if first == UInt8(ascii: "\"") {
                bytes = bytes.dropFirst()
                var value: [UInt8] = []
                var closed = false
                while let byte = bytes.first {
                    bytes = bytes.dropFirst()
                    if byte == UInt8(ascii: "\"") { closed = true; break }
                    if byte == UInt8(ascii: "\\") {
                        guard let escaped = bytes.first else { break }
                        bytes = bytes.dropFirst()
                        value.append(escaped)
                    } else {
                        value.append(byte)
                    }
                }
                guard closed else { throw MPDError(.arg, "Missing closing '\"'") }
                if let next = bytes.first, !Self.isSpace(next) { throw MPDError(.arg, "Space expected after closing '\"'") }
                arguments.append(String(decoding: value, as: UTF8.self))
            } else {
                let word = bytes.prefix { !Self.isSpace($0) }
                guard !word.contains(where: { $0 == UInt8(ascii: "\"") || $0 < 0x20 }) else {
                    throw MPDError(.arg, "Invalid unquoted character")
                }
                bytes = bytes.dropFirst(word.count)
                arguments.append(String(decoding: word, as: UTF8.self))
            }
        }
    }

    /// `value` quoted for a request line (what a client sends): in double quotes, `"` and `\` escaped.
    public static func quoted(_ value: String) -> String {
        var out = "\""
        for c in value {
            if c == "\"" || c == "\\" { out.append("\\") }
            out.append(c)
        }
        return out + "\""
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func skipSpace(_ bytes: inout ArraySlice<UInt8>) {
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
    }
}
