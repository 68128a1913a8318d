/// How the stand-in answers a `HEAD /` (previewd's pre-connect probes its host's root with one), as
/// edges in the wild do.
public enum StandInProbeAnswer: Equatable, Sendable {
    /// 200, keep-alive (the default).
    case ok
    /// 404, keep-alive: an edge with nothing at its root.
    case notFound
    /// 501 and `Connection: close`, then the connection closed: Python's and some other servers'
    /// answer to a method they do not implement.
    case closeWith501
    /// Nothing, ever: the connection stays open and silent until the client gives up.
    case silent
    /// The connection reset (RST), no answer.
    case reset
}
