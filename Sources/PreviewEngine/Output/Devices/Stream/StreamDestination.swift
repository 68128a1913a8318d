import CPreviewLinux
import Glibc
import PreviewCore

/// The far end of a `StreamOutput`: a snapserver's `tcp` source (server mode) or a FIFO. Opening gives
/// a non-blocking descriptor ready to write PCM to, or why there is none yet.
enum StreamDestination: Sendable, CustomStringConvertible {
    case snapcast(host: String, port: UInt16)
    case fifo(path: String)

    /// How an attempt ended.
    enum Opened {
        case ready(Int32)
        case failed(String)
    }

    /// The PCM bytes a FIFO holds, or a socket's send buffer: about 85 ms of s16 stereo at 48 kHz, so
    /// what was written but not yet read stays small (pause and skip are heard soon after the command).
    static let kernelBuffer: Int32 = 16_384

    var description: String {
        switch self {
        case .snapcast(let host, let port): return SnapcastAddress(host: host, port: port).description
        case .fifo(let path): return "pipe:\(path)"
        }
    }

    /// True when writes may raise SIGPIPE (a FIFO; sockets use MSG_NOSIGNAL).
    var isFIFO: Bool { if case .fifo = self { true } else { false } }

    /// Opens the destination. A TCP connection may take until `deadline` (CLOCK_MONOTONIC ns); a
    /// signal on `wakeFD` ends the wait early when `abandoned()` says so (the output is closing).
    func open(deadline: UInt64, wakeFD: Int32, abandoned: () -> Bool) -> Opened {
        switch self {
        case .snapcast(let host, let port): return Self.connect(host: host, port: port, deadline: deadline, wakeFD: wakeFD, abandoned: abandoned)
        case .fifo(let path): return Self.openFIFO(path)
        }
    }

    /// The text of `errno`, for reasons.
    static func errorText() -> String { String(cString: strerror(errno)) }
}
