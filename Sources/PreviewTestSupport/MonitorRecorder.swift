import Foundation

/// Records a sink's monitor with `parec` (mono float32, 48 kHz unless told), what a FIFO carries (s16le
/// stereo at 48 kHz, read by `cat`), or an HTTP stream as FFmpeg decodes it, for a test to check what was heard. The sample count is the
/// timeline: note `sampleCount` before a command, then look after it.
public final class MonitorRecorder: @unchecked Sendable {
    /// The recording's rate.
    public let sampleRate: Int
    private let process: ChildProcess
    /// What the reader gets: parec's mono floats, or a FIFO's stereo 16-bit frames (kept as mono floats).
    private let stereoS16: Bool
    private let lock = NSLock()
    private var samples: [Float] = []          // protected by lock
    private var carry = Data()                 // reader thread only

    /// Starts recording `sink`'s monitor (on `server`, or the default server) at `rate`.
    public convenience init(sink: String, server: String? = nil, rate: Int = 48_000) throws {
        guard let parec = ProcessRunner.which("parec") else { throw TestSupportError("parec not found (pulseaudio-utils)") }
        try self.init(parec, (server.map { ["--server", $0] } ?? []) + ["-d", "\(sink).monitor", "--raw",
                      "--format=float32le", "--channels=1", "--rate=\(rate)", "--latency-msec=10"], rate: rate, stereoS16: false)
    }

    /// Starts reading the FIFO at `path` (s16le stereo, as previewd's pipe output writes it); `cat`
    /// waits for a writer.
    public convenience init(fifo path: String) throws {
        try self.init(ProcessRunner.which("cat")!, [path], rate: 48_000, stereoS16: true)
    }

    /// Plays the HTTP stream at `url` with FFmpeg (as a listener's player would) and records what it
    /// decodes: mono float32 at `rate`.
    public convenience init(stream url: String, rate: Int = 48_000) throws {
        guard let ffmpeg = ProcessRunner.which("ffmpeg") else { throw TestSupportError("ffmpeg not found") }
        try self.init(ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", url, "-ac", "1", "-ar", "\(rate)", "-f", "f32le", "-"],
                      rate: rate, stereoS16: false)
    }

    private init(_ program: String, _ arguments: [String], rate: Int, stereoS16: Bool) throws {
        self.stereoS16 = stereoS16
        sampleRate = rate
        process = try ChildProcess(program, arguments, captureStdout: true)
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
        let whole = carry.count / 4 * 4   // one float, or one stereo s16 frame
        guard whole > 0 else { return }
        let floats = carry.prefix(whole).withUnsafeBytes { bytes in
            guard stereoS16 else { return Array(bytes.bindMemory(to: Float.self)) }
            let s16 = bytes.bindMemory(to: Int16.self)
            return (0..<whole / 4).map { (Float(Int16(littleEndian: s16[2 * $0])) + Float(Int16(littleEndian: s16[2 * $0 + 1]))) / 65_536 }
        }
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
        let lower = min(max(0, range.lowerBound), samples.count)
        return Array(samples[lower..<max(lower, min(samples.count, range.upperBound))])
    }

    /// Waits until, after sample `start`, a 50 ms window satisfies `test` (given the window's start, its
    /// dominant tone or nil for silence/unclear, and its RMS); returns that window's start sample.
    /// `timeout` (times the patience) is a hang guard only, never a speed check.
    public func waitFor(after start: Int, timeout: TimeInterval = 15, _ test: (Int, Double?, Float) -> Bool) -> Int? {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        var position = start
        return eventually(timeout: timeout) { () -> Int? in
            while position + window <= sampleCount {
                let slice = samples(in: position..<position + window)[...]
                if test(position, detector.dominantTone(in: slice), ToneDetector.rms(slice)) { return position }
                position += window / 2
            }
            return nil
        }
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

    /// Each 50 ms window's RMS and tone after `start`, for failure messages.
    public func levels(after start: Int) -> String {
        let detector = ToneDetector(frequencies: Fixtures.toneFrequencies, sampleRate: Double(sampleRate))
        return stride(from: start, to: sampleCount - window, by: window * 4).map {
            let slice = samples(in: $0..<$0 + window)[...]
            return "\(ToneDetector.rms(slice))/\(detector.dominantTone(in: slice).map { String(Int($0)) } ?? "-")"
        }.joined(separator: " ")
    }

    /// Stops recording.
    public func stop() {
        process.signal(SIGTERM)
        process.wait(timeout: 10)
    }
}
