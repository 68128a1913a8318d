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
/// (its media element). previewd answers a chunk as soon as it holds its first bytes and knows the
/// preview's size (a head's, or a download's announced length), so the answer starts at once: the
/// status and headers from the first chunk (byte ranges as `ByteRange` reads them, WebKit's first
/// `bytes=0-1` costs one chunk), then the body streamed chunk by chunk as previewd gets the bytes.
/// A preview that fails mid-way ends the body short (the element errors; the page asks previewd to
/// go on). Memory: one chunk per request at a time.
struct AudioFetcher: Sendable {
    /// The largest preview taken (previewd keeps previews to a few MB).
    static let maxSize = 16 << 20

    let link: DaemonLink

    func response(item: Int, range header: String?) async -> Response {
        let args: [String: JSONValue] = ["id": .number(Double(item))]
        // The first chunk says the size (and the type).
        let first: Chunk
        switch await chunk(args, at: 0, size: nil) {
        case .failure(let answer): return answer.response
        case .success(let chunk): first = chunk
        }
        let size = first.size
        let from, to: Int
        switch ByteRange(header: header, size: size) {
        case .unsatisfiable:
            return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)", .acceptRanges: "bytes"])
        case .whole: (from, to) = (0, size - 1)
        case .part(let first, let last): (from, to) = (first, last)
        }
        var headers: HTTPFields = [.contentType: first.mime, .acceptRanges: "bytes", .cacheControl: "no-store"]
        let partial = ByteRange(header: header, size: size) != .whole
        if partial { headers[.contentRange] = "bytes \(from)-\(to)/\(size)" }
        let body = ResponseBody(contentLength: to - from + 1) { [self] writer in
            var held = first   // the chunk in hand: only the ones the range covers are asked for
            var position = from
            while position <= to {
                if position < held.offset || position >= held.offset + held.bytes.count {
                    switch await chunk(args, at: position, size: size) {
                    case .failure(let ended): throw ended   // the body ends short: the element errors
                    case .success(let next): held = next
                    }
                    guard !held.bytes.isEmpty else { throw Refusal(.badGateway, "the preview ended early") }
                }
                let end = min(to + 1, held.offset + held.bytes.count)
                let start = held.bytes.startIndex + (position - held.offset)
                try await writer.write(ByteBuffer(bytes: held.bytes[start ..< start + (end - position)]))
                position = end
            }
            try await writer.finish(nil)
        }
        return Response(status: partial ? .partialContent : .ok, headers: headers, body: body)
    }

    /// One chunk of the preview: its type, the preview's size, where it starts and its bytes.
    private struct Chunk: Sendable {
        let mime: String
        let size: Int
        let offset: Int
        let bytes: Data
    }

    /// What previewd's refusal (or a malformed answer) is answered with.
    private struct Refusal: Error {
        let status: HTTPResponse.Status
        let message: String
        init(_ status: HTTPResponse.Status, _ message: String) { (self.status, self.message) = (status, message) }
        var response: Response { Routes.text(status, message + "\n") }
    }

    /// The chunk at `offset`; when the size is known already (`size`), a chunk that says another is malformed.
    private func chunk(_ args: [String: JSONValue], at offset: Int, size: Int?) async -> Result<Chunk, Refusal> {
        switch await DaemonFileChunk.fetch(link, "audio", args, offset: offset) {
        case .refused(let code, let message):
            switch code {
            case "rejected"?, "bad-argument"?: return .failure(Refusal(.notFound, message))
            case "unavailable"?: return .failure(Refusal(.serviceUnavailable, "previewd is not running"))
            default: return .failure(Refusal(.badGateway, message))
            }
        case .malformed:
            return .failure(Refusal(.badGateway, "a malformed audio answer"))
        case .chunk(let mime, let total, let bytes):
            guard total <= Self.maxSize, offset + bytes.count <= total, size == nil || size == total else {
                return .failure(Refusal(.badGateway, "a malformed audio answer"))
            }
            return .success(Chunk(mime: mime, size: total, offset: offset, bytes: bytes))
        }
    }
}
