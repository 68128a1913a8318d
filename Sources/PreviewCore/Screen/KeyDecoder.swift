/// The keys of a terminal in raw mode, from the bytes it sends.
public enum Key: Equatable, Sendable {
    case character(Character)
    case left, right, up, down
    case pageUp, pageDown, home, end
    /// A mouse button pressed at a cell (1-based column and row), in the SGR form terminals send
    /// once asked (`ESC [ ? 1000 h`, `ESC [ ? 1006 h`): 0 left, 1 middle, 2 right, 64 wheel up,
    /// 65 wheel down.
    case mouse(button: Int, column: Int, row: Int)
    case enter, backspace, escape, tab
    /// Ctrl and a letter (Ctrl-C is `.control("c")`).
    case control(Character)
}

/// Turns bytes read from a raw terminal into keys: printable UTF-8 characters, Enter, Backspace,
/// Escape, Ctrl-letters and the arrow keys' escape sequences (`ESC [ A`…, and the `ESC O A` form).
/// A sequence split across reads is kept until its end arrives; a lone ESC at the end of a read is
/// the Escape key (a terminal sends a sequence in one write).
public struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []
    /// More bytes than any key's escape sequence takes.
    private static let longestSequence = 16

    /// A decoder with nothing pending.
    public init() {}

    /// The keys in `bytes` (after what an earlier call left pending).
    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        var input = pending + bytes
        pending = []
        var keys: [Key] = []
        var i = 0
        while i < input.count {
            let byte = input[i]
            switch byte {
            case 0x1B:
                guard i + 1 < input.count else { keys.append(.escape); i += 1; continue }
                let next = input[i + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else { keys.append(.escape); i += 1; continue }
                // CSI: parameters, then one final byte in 0x40…0x7E.
                var end = i + 2
                while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
                guard end < input.count else {
                    // Unfinished: kept for the next read, unless longer than any key's (then garbage).
                    if input.count - i <= Self.longestSequence { pending = Array(input[i...]) }
                    return keys
                }
                let parameters = String(decoding: input[(i + 2)..<end], as: UTF8.self)
                switch input[end] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                case UInt8(ascii: "H"): keys.append(.home)
                case UInt8(ascii: "F"): keys.append(.end)
                case UInt8(ascii: "~"):
                    switch parameters {
                    case "1", "7": keys.append(.home)
                    case "4", "8": keys.append(.end)
                    case "5": keys.append(.pageUp)
                    case "6": keys.append(.pageDown)
                    default: break
                    }
                case UInt8(ascii: "M") where parameters.hasPrefix("<"):   // a press; `m`, a release, means nothing here
                    let numbers = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
                    if numbers.count == 3 { keys.append(.mouse(button: numbers[0], column: numbers[1], row: numbers[2])) }
                default: break   // other keys (F-keys…) mean nothing here
                }
                i = end + 1
            case 0x0D, 0x0A: keys.append(.enter); i += 1
            case 0x7F, 0x08: keys.append(.backspace); i += 1
            case 0x09: keys.append(.tab); i += 1
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60)))); i += 1
            case 0x00..<0x20: i += 1
            default:
                // One UTF-8 character: its length from the lead byte.
                let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard i + length <= input.count else { pending = Array(input[i...]); return keys }
                if let text = String(validating: input[i..<i + length], as: UTF8.self), let c = text.first { keys.append(.character(c)) }
                i += length
            }
        }
        input.removeAll()
        return keys
    }
}
