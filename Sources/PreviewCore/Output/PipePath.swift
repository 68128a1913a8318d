/// A FIFO as `--output pipe:PATH` names it (snapserver's `pipe` source, the shape of MPD's fifo
/// output): s16le 48 kHz stereo is written into it.
public struct PipePath: Equatable, Sendable, CustomStringConvertible {
    /// The FIFO's absolute path.
    public let path: String

    /// How an `--output` value for it starts.
    public static let scheme = "pipe:"

    /// A FIFO at `path`.
    public init(path: String) { self.path = path }

    /// Reads `pipe:PATH` (absolute; `pipe:///PATH` too). Throws a message fit for the command line.
    public init(parsing text: String) throws(OutputValueError) {
        var path = text.hasPrefix(Self.scheme) ? text.dropFirst(Self.scheme.count) : ""
        if path.hasPrefix("//") { path = path.dropFirst(2) }
        guard path.hasPrefix("/"), path.count > 1, !path.contains("\0") else {
            throw OutputValueError("pipe: needs an absolute path, as in pipe:/tmp/snapfifo (got \(text))")
        }
        self.path = String(path)
    }

    public var description: String { "pipe:\(path)" }
}
