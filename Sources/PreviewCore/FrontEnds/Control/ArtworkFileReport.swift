#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The answer to `artwork` with `original`: a chunk of the image file as it was fetched (JPEG or
/// PNG), so a client reads it in turns, as MPD's `albumart` does. On the wire `data` is base64.
public struct ArtworkFileReport: Codable, Equatable, Sendable {
    /// The most bytes one answer carries.
    public static let maxChunk = 64 << 10

    /// `image/jpeg` or `image/png`.
    public var mime: String
    /// The whole file's size in bytes.
    public var size: Int
    /// Where this chunk starts in the file.
    public var offset: Int
    /// The chunk (decoded); empty at or past the end.
    public var data: [UInt8]

    public init(mime: String, size: Int, offset: Int, data: [UInt8]) {
        self.mime = mime
        self.size = size
        self.offset = offset
        self.data = data
    }

    private enum CodingKeys: String, CodingKey { case mime, size, offset, data }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        mime = try c.decode(String.self, forKey: .mime)
        size = try c.decode(Int.self, forKey: .size)
        offset = try c.decode(Int.self, forKey: .offset)
        guard let bytes = Data(base64Encoded: try c.decode(String.self, forKey: .data)) else {
            throw DecodingError.dataCorruptedError(forKey: .data, in: c, debugDescription: "data is not base64")
        }
        data = [UInt8](bytes)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(mime, forKey: .mime)
        try c.encode(size, forKey: .size)
        try c.encode(offset, forKey: .offset)
        try c.encode(Data(data).base64EncodedString(), forKey: .data)
    }
}
