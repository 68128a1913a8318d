/// What `--output alsa[:DEVICE]` and `--alsa-format RATE:BITS:CHANNELS` ask of an ALSA device. Any
/// part of the format may be `*` (the device's choice: 44.1 kHz and stereo preferred), as in MPD's
/// `format`; BITS is 16, 24 (packed in 3 bytes), 32 or f (float).
public struct ALSADeviceSpec: Equatable, Sendable {
    /// The PCM's name.
    public var device: String
    /// Asked for, or nil for the device's choice.
    public var rate: Int?
    public var encoding: SampleEncoding?
    public var channels: Int?

    /// How an `--output` value for ALSA starts.
    public static let scheme = "alsa"

    /// True when `output` names ALSA (`alsa` or `alsa:DEVICE`).
    public static func claims(_ output: String) -> Bool { output == scheme || output.hasPrefix(scheme + ":") }

    /// Reads `--output alsa[:DEVICE]` (default `default`) and `--alsa-format` (nil: every part `*`).
    public init(output: String, format: String? = nil) throws(OutputValueError) {
        let name = output == Self.scheme ? "default" : String(output.dropFirst(Self.scheme.count + 1))
        guard !name.isEmpty, !name.contains("\0"), name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw OutputValueError("alsa: needs a device name, as in alsa:default or alsa:hw:1,0 (got \(output))")
        }
        device = name
        guard let format else { return }
        let parts = format.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let usage = "--alsa-format must be RATE:BITS:CHANNELS, each a number or *, BITS 16, 24, 32 or f (got \(format))"
        guard parts.count == 3 else { throw OutputValueError(usage) }
        if parts[0] != "*" {
            guard let rate = Int(parts[0]), (8_000...384_000).contains(rate) else { throw OutputValueError(usage) }
            self.rate = rate
        }
        switch parts[1] {
        case "*": break
        case "16": encoding = .s16
        case "24": encoding = .s24in3
        case "32": encoding = .s32
        case "f": encoding = .float32
        default: throw OutputValueError(usage)
        }
        if parts[2] != "*" {
            guard let channels = Int(parts[2]), (1...8).contains(channels) else { throw OutputValueError(usage) }
            self.channels = channels
        }
    }
}
