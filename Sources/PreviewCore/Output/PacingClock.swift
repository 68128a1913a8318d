/// Paces a PCM stream to real time for an output that would take it faster (a socket, a FIFO):
/// the stream stays between `lowWater` and `highWater` frames ahead of the clock. A stream that fell
/// behind (paused, starved, held back by its reader) starts a new run instead of catching up in a
/// burst. Times are CLOCK_MONOTONIC nanoseconds.
public struct PacingClock: Sendable {
    /// Frames per second.
    public let sampleRate: Int
    /// Below this many frames ahead, the stream is topped up.
    public let lowWater: Int
    /// Topped up to this many frames ahead.
    public let highWater: Int
    /// When the run's first frame was due, and frames sent in the run.
    private var epoch: UInt64 = 0
    private var sent = 0

    /// A clock keeping `lowWaterMs`…`highWaterMs` ahead.
    public init(sampleRate: Int, lowWaterMs: Int, highWaterMs: Int) {
        self.sampleRate = sampleRate
        lowWater = sampleRate * lowWaterMs / 1000
        highWater = max(lowWater + 1, sampleRate * highWaterMs / 1000)
    }

    /// Frames of the run due by `now`.
    private func due(at now: UInt64) -> Int {
        now <= epoch ? 0 : Int((now - epoch) / 1000) * sampleRate / 1_000_000
    }

    /// Frames sent that are not due yet: handed over, not yet heard (as far as this side knows).
    public func ahead(at now: UInt64) -> Int { max(0, sent - due(at: now)) }

    /// How many frames to send at `now`: none while more than `lowWater` are ahead, else enough to be
    /// `highWater` ahead. A stream that fell behind starts a new run at `now`.
    public mutating func framesWanted(at now: UInt64) -> Int {
        if due(at: now) >= sent { epoch = now; sent = 0 }
        let ahead = ahead(at: now)
        return ahead <= lowWater ? highWater - ahead : 0
    }

    /// Counts `frames` handed to the output.
    public mutating func didSend(_ frames: Int) { sent += frames }

    /// When the stream will be down to `lowWater` ahead, and wants more.
    public var nextTopUp: UInt64 {
        epoch + UInt64(max(0, sent - lowWater)) * 1_000_000_000 / UInt64(sampleRate)
    }
}
