#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Fetches an image file from previewd in its 64 KiB chunks (`artwork {"original": true, ...}`,
/// asked again from `offset + len(data)` until `size` bytes are in) and joins them.
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
            var args = selector
            args["original"] = .bool(true)
            args["offset"] = .number(Double(bytes.count))
            let answer = await link.call("artwork", args: args)
            guard answer["ok"]?.boolValue == true else {
                switch answer["error"]?["code"]?.stringValue {
                case "rejected"?, "no-results"?, "bad-argument"?: return .none
                case "unavailable"?: return .unavailable
                default: return .failed(answer["error"]?["message"]?.stringValue ?? "no answer")
                }
            }
            guard let result = answer["result"], let size = result["size"]?.intValue, size <= Self.maxSize,
                  let data = result["data"]?.stringValue, let chunk = Data(base64Encoded: data) else {
                return .failed("a malformed artwork answer")
            }
            mime = result["mime"]?.stringValue ?? mime
            bytes.append(contentsOf: chunk)
            if chunk.isEmpty || bytes.count >= size { break }
        }
        guard !bytes.isEmpty else { return .none }
        guard mime == "image/jpeg" || mime == "image/png" else { return .failed("not a JPEG or PNG") }
        return .image(mime: mime, bytes: bytes)
    }
}
