#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The answer to `artwork`: the current (or asked for) track's artwork as a small RGB picture, for
/// a client to draw without decoding images itself. On the wire `rgb` is base64 of `width` ×
/// `height` × 3 bytes, rows top to bottom, each pixel red, green, blue.
public struct ArtworkReport: Codable, Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// The pixels (decoded).
    public var rgb: [UInt8]

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    private enum CodingKeys: String, CodingKey { case width, height, rgb }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        guard let pixels = Data(base64Encoded: try c.decode(String.self, forKey: .rgb)),
              width > 0, height > 0, pixels.count == width * height * 3 else {
            throw DecodingError.dataCorruptedError(forKey: .rgb, in: c, debugDescription: "rgb is not width × height × 3 bytes of base64")
        }
        rgb = [UInt8](pixels)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(Data(rgb).base64EncodedString(), forKey: .rgb)
    }

    /// The pixel at column `x`, row `y`.
    public func pixel(_ x: Int, _ y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = (y * width + x) * 3
        return (rgb[i], rgb[i + 1], rgb[i + 2])
    }
}

/// Bounds of the `artwork` command.
public enum ArtworkRequest {
    /// The largest width or height a client may ask for, in pixels.
    public static let maxSide = 160
}
