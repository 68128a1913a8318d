#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The control protocol's wire form: one JSON object per line, keys sorted, slashes unescaped.
public enum JSONLine {
    /// `value` as one line ending in `\n`, or nil when it cannot be encoded.
    public static func encode(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var bytes = (try? encoder.encode(value)).map({ [UInt8]($0) }) else { return nil }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
