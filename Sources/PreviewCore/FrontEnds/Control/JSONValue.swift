#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any JSON value: the `args` of a request and the `result` of a response.
public enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 1e15 { try c.encode(Int64(n)) } else { try c.encode(n) }
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The JSON form of any Encodable value (a status report, a track list).
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes this JSON value as `type`.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
    }

    /// The string, if this is one.
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    /// The number as an Int, if this is an integral number a double holds exactly (|n| ≤ 2^53 − 1;
    /// iTunes ids pass 2^31).
    public var intValue: Int? {
        if case .number(let n) = self, n.rounded() == n, abs(n) <= JSONValue.maxExactInteger { return Int(n) }
        return nil
    }
    /// The largest integer JSON numbers carry exactly.
    public static let maxExactInteger: Double = 9_007_199_254_740_991

    /// The Bool, if this is one.
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    /// The member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}
