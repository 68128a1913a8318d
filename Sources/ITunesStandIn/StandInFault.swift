import Foundation
import PreviewCore

/// A fault the stand-in server injects into the answers for one path.
public enum StandInFault: Equatable, Sendable {
    /// Answer with this HTTP status and a short HTML body.
    case status(Int)
    /// Wait this long before answering.
    case delay(milliseconds: Int)
    /// Send the headers and this many body bytes, then close the connection; once (the fault is
    /// removed after it fires, so a resumed request succeeds).
    case dropAfter(bytes: Int)
    /// Send the body at this many bytes per second.
    case throttle(bytesPerSecond: Int)
    /// Answer 200 with an HTML page instead of the real body.
    case html
    /// Ignore Range headers (always send the whole body with 200).
    case ignoreRange
    /// Answer a Range request with 206 from this many bytes after the requested start (a broken
    /// cache in between), the Content-Range saying so.
    case shiftedRange(by: Int)
    /// Answer with a redirect to `location` (a path on this server or a full URL).
    case redirect(to: String)
    /// Answer 200 with this body and content type instead of the real answer (truncated or hostile JSON).
    case body([UInt8], contentType: String)
    /// Answer with this status and a `Retry-After` header (rate limiting).
    case retryAfter(status: Int, seconds: Int)
}

extension StandInFault {
    /// Answer 200 with exactly `tracks`, written as the iTunes API writes a search or lookup answer
    /// (a test's own catalog: hostile URLs, wide titles).
    public static func answer(_ tracks: [Track]) -> StandInFault {
        .body(StandInServer.searchBody(tracks), contentType: "text/javascript; charset=utf-8")
    }
}
