#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// One chunk of a file previewd hands out in 64 KiB turns (`artwork {"original": true}`, `audio`):
/// `{"mime", "size", "offset", "data": base64}`, or previewd's error.
enum DaemonFileChunk {
    case chunk(mime: String, size: Int, bytes: Data)
    /// previewd's error: its code and message.
    case refused(code: String?, message: String)
    /// An answer that is not a chunk.
    case malformed

    /// Asks `link` for the chunk of `cmd` with `args` at `offset`.
    static func fetch(_ link: DaemonLink, _ cmd: String, _ args: [String: JSONValue], offset: Int) async -> DaemonFileChunk {
        var args = args
        args["offset"] = .number(Double(offset))
        let answer = await link.call(cmd, args: args)
        guard answer["ok"]?.boolValue == true else {
            return .refused(code: answer["error"]?["code"]?.stringValue, message: answer["error"]?["message"]?.stringValue ?? "no answer")
        }
        guard let result = answer["result"], let size = result["size"]?.intValue, size >= 0,
              let data = result["data"]?.stringValue, let bytes = Data(base64Encoded: data) else { return .malformed }
        return .chunk(mime: result["mime"]?.stringValue ?? "application/octet-stream", size: size, bytes: bytes)
    }
}
