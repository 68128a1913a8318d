/// Splits a byte stream into lines (`\n`, an optional `\r` before it dropped), refusing lines longer
/// than `maxLineLength` so a client cannot make the daemon buffer without bound.
public struct LineFramer: Sendable {
    /// Why framing stopped.
    public enum Failure: Error, Equatable, Sendable {
        /// A line grew past the limit; the connection should be closed.
        case lineTooLong(limit: Int)
    }

    /// The protocol's limit: 64 KiB per line.
    public static let defaultMaxLineLength = 64 * 1024

    /// The longest line accepted, without its newline.
    public let maxLineLength: Int
    private var pending: [UInt8] = []

    /// A framer with the given limit.
    public init(maxLineLength: Int = LineFramer.defaultMaxLineLength) {
        self.maxLineLength = maxLineLength
    }

    /// Feeds `bytes` and returns the complete lines they finish, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if pending.last == UInt8(ascii: "\r") { pending.removeLast() }
                lines.append(pending)
                pending.removeAll(keepingCapacity: true)
            } else {
                guard pending.count < maxLineLength else { throw .lineTooLong(limit: maxLineLength) }
                pending.append(byte)
            }
        }
        return lines
    }

    /// Bytes received after the last newline.
    public var bufferedCount: Int { pending.count }
}
