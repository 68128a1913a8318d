#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Fetches an image file from previewd in its 64 KiB chunks (`artwork {"original": true, ...}`,
/// asked again from `offset + len(data)` until `size` bytes are in, `DaemonFileChunk`) and joins them.
struct ArtworkFetcher: Sendable {
    /// The largest image accepted; previewd keeps originals to 4 MiB.
    static let maxSize = 8 << 20

    /// How fetching ended.
    enum Outcome: Sendable {
        case image(mime: String, bytes: [UInt8])
        /// previewd has no artwork for it (or no such item): 404.
        case none
        /// previewd is not running: 503.
        case unavailable
        /// anything else (a fetch that failed, a malformed answer): 502.
        case failed(String)
    }

    let link: DaemonLink

    /// The image for `selector` (`["id": N]` or `["trackId": N, "small": true]`).
    func fetch(_ selector: [String: JSONValue]) async -> Outcome {
        var bytes: [UInt8] = []
        var mime = "application/octet-stream"
        while true {
            switch await DaemonFileChunk.fetch(link, "artwork", selector.merging(["original": .bool(true)]) { $1 }, offset: bytes.count) {
            case .refused(let code, let message):
                switch code {
                case "rejected"?, "no-results"?, "bad-argument"?: return .none
                case "unavailable"?: return .unavailable
                default: return .failed(message)
                }
            case .malformed: return .failed("a malformed artwork answer")
            case .chunk(let type, let size, let chunk):
                guard size <= Self.maxSize else { return .failed("a malformed artwork answer") }
                mime = type
                bytes.append(contentsOf: chunk)
                guard chunk.isEmpty || bytes.count >= size else { continue }
            }
            break
        }
        guard !bytes.isEmpty else { return .none }
        guard mime == "image/jpeg" || mime == "image/png" else { return .failed("not a JPEG or PNG") }
        return .image(mime: mime, bytes: bytes)
    }
}
