/// How an output's device or stream takes its samples, and the one place the engine's floats are
/// converted to it (with the software volume applied on the way). The integer conversions are
/// FFmpeg's (swresample's): scaled by 2^(bits−1), rounded to nearest even, clipped, so what an
/// output writes at full volume equals FFmpeg's own decode sample for sample.
public enum SampleEncoding: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Signed 16-bit, little-endian.
    case s16 = "S16_LE"
    /// Signed 24-bit in 3 bytes, little-endian (many USB DACs).
    case s24in3 = "S24_3LE"
    /// Signed 32-bit, little-endian.
    case s32 = "S32_LE"
    /// 32-bit float, little-endian: the engine's own samples.
    case float32 = "FLOAT_LE"

    /// Bytes of one sample.
    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24in3: 3
        case .s32, .float32: 4
        }
    }

    /// The name ALSA and `aplay` use.
    public var description: String { rawValue }

    /// Writes `frames` interleaved frames of `source` into `destination` in this encoding, the gain
    /// moving in a straight line from `from` to `to` across them (a volume change or a fade without
    /// a click). Integer samples beyond full scale are clipped. No allocation.
    public func encode(_ source: UnsafePointer<Float>, frames: Int, channels: Int,
                       into destination: UnsafeMutableRawPointer, from: Float, to: Float) {
        let step = frames > 1 && from != to ? (to - from) / Float(frames) : 0
        var index = 0
        for frame in 0..<frames {
            let gain = step == 0 ? from : from + step * Float(frame)
            for _ in 0..<channels {
                let value = source[index] * gain
                switch self {
                case .s16:
                    let scaled = max(-32_768, min(32_767, (value * 32_768).rounded(.toNearestOrEven)))
                    destination.storeBytes(of: Int16(scaled).littleEndian, toByteOffset: index * 2, as: Int16.self)
                case .s24in3:
                    let scaled = Int32(max(-8_388_608, min(8_388_607, (value * 8_388_608).rounded(.toNearestOrEven))))
                    let bytes = destination + index * 3
                    bytes.storeBytes(of: UInt8(truncatingIfNeeded: scaled), as: UInt8.self)
                    bytes.storeBytes(of: UInt8(truncatingIfNeeded: scaled >> 8), toByteOffset: 1, as: UInt8.self)
                    bytes.storeBytes(of: UInt8(truncatingIfNeeded: scaled >> 16), toByteOffset: 2, as: UInt8.self)
                case .s32:
                    // In Float, as swresample computes it: 2^31 itself clips to Int32.max.
                    let scaled = max(-2_147_483_648, min(2_147_483_648, (value * 2_147_483_648).rounded(.toNearestOrEven)))
                    destination.storeBytes(of: Int32(clamping: Int64(scaled)).littleEndian, toByteOffset: index * 4, as: Int32.self)
                case .float32:
                    destination.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: index * 4, as: UInt32.self)
                }
                index += 1
            }
        }
    }
}
