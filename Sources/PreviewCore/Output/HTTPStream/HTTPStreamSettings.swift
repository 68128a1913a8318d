/// The HTTP stream's own settings, from its `--output` value's `key=value` parts
/// (`--output http://127.0.0.1:8000/previewd.mp3,bitrate=192,listeners=4`). Unknown keys and
/// unusable values are refused at start, each with one line saying what would do.
public struct HTTPStreamSettings: Equatable, Sendable {
    /// Kilobits a second.
    public var bitrate: Int
    /// Listeners served at once; one more is answered 503.
    public var listeners: Int
    /// The secret path element beyond loopback (nil: generated and kept, or none on loopback).
    public var secret: String?
    /// What players show as the stream's name (`icy-name`), and the output's name.
    public var name: String

    /// The keys an http output takes.
    public static let keys = ["bitrate", "listeners", "name", "secret"]
    /// Bitrates libmp3lame takes at constant bitrate (MPEG-1 layer III, 32–48 kHz).
    public static let mp3Bitrates = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    /// libopus's range, kbit/s.
    public static let opusBitrates = 6...510
    /// The most listeners `listeners=` may ask for.
    public static let listenerRange = 1...256

    /// Reads `settings` for a stream in `format`. Throws what is wrong, naming the key.
    public init(_ settings: [String: String], format: HTTPStreamAddress.Format) throws(OutputValueError) {
        for key in settings.keys.sorted() where !Self.keys.contains(key) {
            throw OutputValueError("http: unknown setting \(key) (an http output takes \(Self.keys.joined(separator: ", ")))")
        }
        bitrate = 128
        if let text = settings["bitrate"] {
            guard let value = Int(text), format == .mp3 ? Self.mp3Bitrates.contains(value) : Self.opusBitrates.contains(value) else {
                let allowed = format == .mp3 ? Self.mp3Bitrates.map(String.init).joined(separator: ", ")
                                             : "\(Self.opusBitrates.lowerBound)–\(Self.opusBitrates.upperBound)"
                throw OutputValueError("http: bitrate must be one of \(allowed) kbit/s for \(format == .mp3 ? "MP3" : "Opus") (got \(text))")
            }
            bitrate = value
        }
        listeners = 16
        if let text = settings["listeners"] {
            guard let value = Int(text), Self.listenerRange.contains(value) else {
                throw OutputValueError("http: listeners must be \(Self.listenerRange.lowerBound)–\(Self.listenerRange.upperBound) (got \(text))")
            }
            listeners = value
        }
        secret = settings["secret"]
        if let secret, !Self.isUsableSecret(secret) {
            throw OutputValueError("http: secret must be 16–128 letters, digits, - or _ (it becomes the first part of the stream's path)")
        }
        name = settings["name"] ?? "previewd"
        guard (1...100).contains(name.count), !name.contains(where: { $0.isNewline || $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } }) else {
            throw OutputValueError("http: name must be 1–100 characters on one line")
        }
    }

    /// True for a secret that fits in a path as it is: long enough not to be guessed.
    public static func isUsableSecret(_ text: String) -> Bool {
        (16...128).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
