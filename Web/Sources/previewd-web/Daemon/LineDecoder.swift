import NIOCore

/// Splits previewd's stream into lines (without the `\n`, a `\r` before it dropped), each at most
/// `maxLength` bytes: a longer one is an error that closes the link, so no buffer grows without bound.
struct LineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    /// The longest line accepted: above previewd's largest answer (a queue of 10,000 tracks, a
    /// history of 10,000 entries: a few KiB each at most). previewd is this user's own (SO_PEERCRED).
    let maxLength: Int
    private var scanned = 0

    init(maxLength: Int = 64 << 20) { self.maxLength = maxLength }

    struct LineTooLong: Error {}

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.startIndex + scanned
        guard let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = view.count
            if scanned > maxLength { throw LineTooLong() }
            return .needMoreData
        }
        let length = newline - view.startIndex
        scanned = 0
        if length > maxLength { throw LineTooLong() }
        var line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line = line.getSlice(at: line.readerIndex, length: length - 1)! }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A line cut off by the close is dropped: previewd ends every line it sends.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
