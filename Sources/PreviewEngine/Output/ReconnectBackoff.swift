/// How long an output waits before its next attempt at a device or server that failed: growing
/// waits, the last one repeated, back to the first once an attempt succeeds. Every output that
/// reconnects (PulseAudio, the stream outputs, ALSA) counts its failures here.
public struct ReconnectBackoff: Sendable {
    /// Waits between attempts, in seconds; the last one repeats.
    public var delays: [Double]
    /// Attempts failed since the last success.
    public private(set) var failures = 0

    /// The waits previewd uses: a fifth of a second first, then up to 4 s between attempts.
    public init(delays: [Double] = [0.2, 0.5, 1, 2, 4]) {
        self.delays = delays.isEmpty ? [1] : delays
    }

    /// Counts a failed attempt; returns how long to wait before the next one.
    public mutating func failed() -> Double {
        defer { failures += 1 }
        return delays[min(failures, delays.count - 1)]
    }

    /// An attempt succeeded: the next failure waits the shortest time again.
    public mutating func succeeded() {
        failures = 0
    }
}
