import Foundation

/// Records a sink's monitor with `parec` (mono float32 at 48 kHz) for a test to check what was heard.
/// The sample count is the timeline: note `sampleCount` before a command, then look after it.
public final class MonitorRecorder: @unchecked Sendable {
    /// The recording's rate.
    public let sampleRate = 48_000
    private let process: ChildProcess
    private let lock = NSLock()
    private var samples: [Float] = []          // protected by lock
    private var carry = Data()                 // reader thread only

    /// Starts recording `sink`'s monitor (on `server`, or the default server).
    public init(sink: String, server: String? = nil) throws {
        guard let parec = ProcessRunner.which("parec") else { throw TestSupportError("parec not found (pulseaudio-utils)") }
        process = try ChildProcess(parec, (server.map { ["--server", $0] } ?? []) + ["-d", "\(sink).monitor", "--raw",
                                   "--format=float32le", "--channels=1", "--rate=\(sampleRate)", "--latency-msec=10"],
                                   captureStdout: true)
        let handle = process.stdout!
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                append(chunk)
            }
        }.start()
    }

    private func append(_ chunk: Data) {
        carry.append(chunk)
        let whole = carry.count / 4 * 4
        guard whole > 0 else { return }
        let floats = carry.prefix(whole).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        carry.removeFirst(whole)
        lock.lock(); samples += floats; lock.unlock()
    }

    /// Samples recorded so far.
    public var sampleCount: Int {
        lock.lock(); defer { lock.unlock() }
        return samples.count
    }

    /// A copy of samples `range` (clamped).
    public func samples(in range: Range<Int>) -> [Float] {
        lock.lock(); defer { lock.unlock() }
        let r = max(0, range.lowerBound)..<min(samples.count, range.upperBound)
        return r.isEmpty ? [] : Array(samples[r])
    }

    /// Waits until, after sample `start`, a 50 ms window satisfies `test` (given the window's start, its
    /// dominant tone or nil for silence/unclear, and its RMS); returns that window's start sample.
    /// `timeout` is a hang guard only, never a speed check.
    public func waitFor(after start: Int, timeout: TimeInterval = 15, _ test: (Int, Double?, Float) -> Bool) -> Int? {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        var position = start
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            while position + window <= sampleCount {
                let slice = samples(in: position..<position + window)[...]
                if test(position, detector.dominantTone(in: slice), ToneDetector.rms(slice)) { return position }
                position += window / 2
            }
            usleep(20_000)
        }
        return nil
    }

    /// Samples in one analysis window (50 ms).
    public var window: Int { sampleRate / 20 }

    /// Windows of `size` samples from `start` to `end` whose RMS is below the silence threshold.
    public func silentWindows(from start: Int, to end: Int, size: Int) -> [Int] {
        let threshold = ToneDetector(frequencies: [], sampleRate: Double(sampleRate)).silenceRMS
        return stride(from: start, to: end - size, by: size).filter {
            ToneDetector.rms(samples(in: $0..<$0 + size)[...]) < threshold
        }
    }

    /// Waits for `hz` to sound after `start`; returns where.
    public func waitForTone(_ hz: Double, after start: Int, timeout: TimeInterval = 15) -> Int? {
        waitFor(after: start, timeout: timeout) { _, tone, _ in tone == hz }
    }

    /// Waits for `seconds` of unbroken silence after `start`; returns where the silence began.
    public func waitForSilence(lasting seconds: Double, after start: Int, timeout: TimeInterval = 15) -> Int? {
        let needed = Int(seconds * Double(sampleRate))
        let threshold = ToneDetector(frequencies: [], sampleRate: Double(sampleRate)).silenceRMS
        var silentSince: Int?
        let found = waitFor(after: start, timeout: timeout) { position, _, rms in
            guard rms < threshold else { silentSince = nil; return false }
            if silentSince == nil { silentSince = position }
            return position + window - silentSince! >= needed
        }
        return found == nil ? nil : silentSince
    }

    /// The tones heard in order after `start` (each run of one tone once), for messages and checks.
    public func toneSequence(after start: Int) -> [Double] {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        var sequence: [Double] = []
        var position = start
        while position + window <= sampleCount {
            if let tone = detector.dominantTone(in: samples(in: position..<position + window)[...]), tone != sequence.last {
                sequence.append(tone)
            }
            position += window
        }
        return sequence
    }

    /// The RMS in dBFS of each 50 ms window after `start` in which `hz` dominates, in order (for
    /// loudness checks).
    public func levelsDB(of hz: Double, after start: Int) -> [Double] {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        return stride(from: start, to: sampleCount - window, by: window).compactMap { position in
            let slice = samples(in: position..<position + window)[...]
            return detector.dominantTone(in: slice) == hz ? 20 * log10(Double(max(ToneDetector.rms(slice), 1e-9))) : nil
        }
    }

    /// The highest absolute sample in dBFS from the first to the last window after `start` in which
    /// `hz` dominates (a burst's own window may not be dominated by one tone: its edges spread it).
    public func peakDB(of hz: Double, after start: Int) -> Double {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        let heard = stride(from: start, to: sampleCount - window, by: window).filter {
            detector.dominantTone(in: samples(in: $0..<$0 + window)[...]) == hz
        }
        guard let first = heard.first, let last = heard.last else { return -.infinity }
        return 20 * log10(Double(max(samples(in: first..<last + window).map(abs).max() ?? 0, 1e-9)))
    }

    /// Stops recording.
    public func stop() {
        process.signal(SIGTERM)
        process.wait(timeout: 10)
    }
}
