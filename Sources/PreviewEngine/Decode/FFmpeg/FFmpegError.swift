import CFFmpeg

/// An error code from an FFmpeg call, with the function's name and FFmpeg's own message.
public struct FFmpegError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The negative AVERROR code.
    public let code: Int32
    /// The FFmpeg function that returned it.
    public let function: String
    /// av_strerror's text.
    public let message: String

    /// Describes `code` as returned by `function`.
    public init(code: Int32, function: String) {
        self.code = code
        self.function = function
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) == 0 {
            message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            message = "error \(code)"
        }
    }

    /// True for end of stream.
    public var isEndOfFile: Bool { code == cff_AVERROR_EOF() }
    /// True when the interrupt callback (a cancel) ended the call.
    public var isExit: Bool { code == cff_AVERROR_EXIT() }

    public var description: String { "\(function): \(message)" }

    /// The one path from an FFmpeg return value to a Swift error: negative values throw.
    @discardableResult
    public static func check(_ result: Int32, _ function: String) throws(FFmpegError) -> Int32 {
        guard result >= 0 else { throw FFmpegError(code: result, function: function) }
        return result
    }
}
