import PreviewCore
@testable import PreviewEngine

/// An in-memory device for the sequencer's tests: its "device thread" is the test, which pulls
/// frames with `pull(_:)` holding the lock, as a real output's thread does. It records what it was
/// given and told; its delay (frames pulled, not yet heard) is whatever the test sets, and a cancel
/// drops that many of the last frames written (they were never heard).
final class MemoryOutput: AudioOutput, @unchecked Sendable {   // `source` and `state` are touched holding `lock`
    /// What the device was given and told.
    struct State {
        var written: [Float] = []
        var delay = 0
        var kicks = 0
        var cancels = 0
        var paused = true
        var volume = (percent: 100, muted: false)
    }

    let format: PCMFormat
    private let lock = Lock()
    private weak var source: (any OutputSource)?
    private var state = State()
    private var heardWaiters: [@Sendable () -> Void] = []

    /// A device taking `format` (48 kHz mono unless a test needs another).
    init(format: PCMFormat = PCMFormat(sampleRate: 48_000, channels: 1)) { self.format = format }

    func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }
    func attach(_ source: any OutputSource) { lock.withLock { self.source = source } }
    /// Frames a kick pulls at once, as PulseAudio's output writes inside its kick (0: none).
    var pullsOnKick = 0
    func kick() {
        state.kicks += 1
        if pullsOnKick > 0 { pullLocked(pullsOnKick) }
    }
    func setPaused(_ paused: Bool) { state.paused = paused }
    func cancel() {
        state.cancels += 1
        state.written.removeLast(min(state.written.count, state.delay * format.channels))
        state.delay = 0
    }
    var delayFrames: Int { state.delay }
    /// Paused with frames held, it waits, as a real device's drain does, until `playOut`.
    func whenHeard(_ done: @escaping @Sendable () -> Void) {
        if state.paused, state.delay > 0 { heardWaiters.append(done) } else { done() }
    }
    func setVolume(_ percent: Int, muted: Bool) { lock.withLock { state.volume = (percent, muted) } }
    func close() {}

    /// Pulls up to `frames` frames as the device thread would; returns those it got.
    @discardableResult
    func pull(_ frames: Int) -> [Float] {
        lock.withLock { pullLocked(frames) }
    }

    @discardableResult
    private func pullLocked(_ frames: Int) -> [Float] {
        var buffer = [Float](repeating: .nan, count: frames * format.channels)
        let got = buffer.withUnsafeMutableBufferPointer { source?.pull(into: $0.baseAddress!, frames: frames) ?? 0 }
        let taken = Array(buffer.prefix(got * format.channels))
        state.written += taken
        return taken
    }

    /// The device went away (`why`), as a failed connection reports it.
    func lose(_ why: String) { lock.withLock { source?.outputLost(why) } }

    /// The device is ready again.
    func restore() { lock.withLock { source?.outputRestored() } }

    /// The device played all it held.
    func playOut() {
        lock.withLock {
            state.delay = 0
            let waiters = heardWaiters
            heardWaiters = []
            waiters.forEach { $0() }
        }
    }

    /// Frames pulled but not heard yet.
    func setDelay(_ frames: Int) { lock.withLock { state.delay = frames } }

    /// What the device was given and told so far.
    var recorded: State { lock.withLock { state } }
}
