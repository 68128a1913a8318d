#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HTTPTypes
import Hummingbird
import NIOCore
import PreviewCore

/// `GET /audio/item/{id}`: a queue item's preview as previewd holds it, for a page that plays here
/// (its media element). previewd answers once the whole preview is in (it holds it already when it
/// played, prefetched or keeps its head; else it fetches it first, under its address rules), so every
/// answer knows the size: byte ranges as `ByteRange` reads them, only the chunks a range covers asked
/// for over the socket (WebKit's first `bytes=0-1` costs one).
struct AudioFetcher: Sendable {
    /// The largest preview taken (previewd keeps previews to a few MB).
    static let maxSize = 16 << 20

    let link: DaemonLink

    func response(item: Int, range header: String?) async -> Response {
        let args: [String: JSONValue] = ["id": .number(Double(item))]
        var data = Data()
        var size = 0, mime = "audio/mp4", first = 0, last = 0
        var offset = 0
        // The first chunk says the size; then only the chunks the range covers.
        reading: repeat {
            switch await DaemonFileChunk.fetch(link, "audio", args, offset: offset) {
            case .refused(let code, let message):
                switch code {
                case "rejected"?, "bad-argument"?: return Routes.text(.notFound, message + "\n")
                case "unavailable"?: return Routes.text(.serviceUnavailable, "previewd is not running\n")
                default: return Routes.text(.badGateway, message + "\n")
                }
            case .malformed:
                return Routes.text(.badGateway, "a malformed audio answer\n")
            case .chunk(let type, let total, let chunk):
                guard total <= Self.maxSize, offset + chunk.count <= total else { return Routes.text(.badGateway, "a malformed audio answer\n") }
                if offset == 0 {
                    size = total
                    mime = type
                    switch ByteRange(header: header, size: size) {
                    case .unsatisfiable:
                        return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes"])
                    case .whole: (first, last) = (0, size - 1)
                    case .part(let from, let to): (first, last) = (from, to)
                    }
                    // Straight to the chunk the range starts in.
                    let start = first / ArtworkFileReport.maxChunk * ArtworkFileReport.maxChunk
                    if start > 0 { offset = start; continue }
                    if size == 0 { break reading }
                }
                let from = max(first - offset, 0), to = min(last - offset + 1, chunk.count)
                if from < to { data.append(chunk[chunk.startIndex + from ..< chunk.startIndex + to]) }
                offset += chunk.count
                if chunk.isEmpty { return Routes.text(.badGateway, "the preview ended early\n") }
            }
        } while offset <= last && size > 0
        var headers: HTTPFields = [.contentType: mime, .acceptRanges: "bytes", .cacheControl: "no-store"]
        let partial = ByteRange(header: header, size: size) != .whole
        if partial { headers[.contentRange] = "bytes \(first)-\(last)/\(size)" }
        return Response(status: partial ? .partialContent : .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
