import CALSA
import CPreviewLinux
import Glibc
import PreviewCore

/// Plays PCM straight to an ALSA device (`--output alsa[:DEVICE]`): for boxes with no sound server.
///
/// The device is opened at start, so its format is known before anything is decoded: the rate and
/// channels it takes (44.1 kHz, the previews' own rate, preferred: then nothing is resampled
/// anywhere) become the engine's. It stays open, paused or idle.
///
/// One thread, "previewd.alsa", writes to it and sleeps in `poll` on the PCM's descriptors and an
/// eventfd. Playing, it wakes once per period (half the buffer) to pull frames from the
/// `OutputSequencer`; paused, idle, or with a feed run dry (its producer kicks), it polls the eventfd
/// alone and does not wake. A skip drops what the device holds (`snd_pcm_drop`) and refills at once;
/// a pause is `snd_pcm_pause` where the device can, else a drop whose unheard frames are written
/// again on resume. Underruns and suspends are recovered in place; a device that is busy, missing or
/// gone (`-ENODEV`: a USB DAC pulled) is reported to the sequencer (`.lost` with what was heard) and
/// opened again on the shared back-off (`.restored`). Volume is applied to the samples
/// (`SoftwareVolume`), or set on a mixer control (`--alsa-mixer`).
///
/// Every field below `lock` is touched only holding it; the thread holds it except in `poll`. It is
/// the output's lock (`withLock`): the sequencer's state is guarded by it too.
public final class ALSAOutput: AudioOutput, @unchecked Sendable {
    public let format: PCMFormat
    let request: ALSADevice.Request
    let mixer: ALSAMixer?
    let lock = Lock()
    let wakeFD: Int32

    enum Link { case ready(ALSADevice), waitingToRetry(UInt64) }
    var link: Link
    var backoff = ReconnectBackoff()
    weak var source: (any OutputSource)?
    var closed = false
    /// What the sequencer asked for, and what the device was last told.
    var paused = true
    var devicePaused = false
    /// A skip or stop: what the device holds is dropped before the next write.
    var dropPending = false
    /// A pause asked while the device still plays what it holds (the sequencer's fade-out): when
    /// that has been heard (the device's own delay from when it was asked), and who waits for it.
    var pauseAt: UInt64?
    var heardWaiters: [@Sendable () -> Void] = []
    var volumePercent = 100
    var muted = false
    /// The gain the last frames were written with (a change ramps from it).
    var appliedGain: Float = 1

    /// Float frames pulled before encoding, and the encoded frames not yet taken by the device:
    /// `outgoing[pendingStart..<pendingEnd]`, in frames of `frameBytes`.
    let capacityFrames: Int
    let scratch: UnsafeMutablePointer<Float>
    let outgoing: UnsafeMutableRawPointer
    var pendingStart = 0
    var pendingEnd = 0
    /// The last `capacityFrames` frames written (a ring ending at `historyEnd`, `historyCount` valid):
    /// what a device that cannot pause still had unheard, written again on resume.
    let history: UnsafeMutableRawPointer
    var historyEnd = 0
    var historyCount = 0
    /// The encoding of the open device (a reopen may choose another; never another rate).
    var encoding: SampleEncoding
    var frameBytes: Int { format.channels * encoding.bytesPerSample }

    /// An output on `device` (opened at start), or, when the device was busy then, one that opens it
    /// on its thread in `format`.
    init(request: ALSADevice.Request, device: ALSADevice?, format: PCMFormat, mixer: ALSAMixer?) {
        self.request = request
        self.format = format
        self.mixer = mixer
        encoding = device?.encoding ?? .s32
        link = device.map { .ready($0) } ?? .waitingToRetry(0)
        wakeFD = cpl_eventfd()
        // Room for the device's whole buffer twice over (a reopen may get a larger one: pulls are
        // clipped to this).
        capacityFrames = max(4_096, 2 * (device?.bufferFrames ?? format.frames(milliseconds: request.bufferMs)))
        let widest = format.channels * 4
        scratch = .allocate(capacity: capacityFrames * format.channels)
        outgoing = .allocate(byteCount: 2 * capacityFrames * widest, alignment: 8)
        history = .allocate(byteCount: capacityFrames * widest, alignment: 8)
        startThread(named: "previewd.alsa") { [self] in serve() }
    }

    deinit {
        scratch.deallocate()
        outgoing.deallocate()
        history.deallocate()
        Glibc.close(wakeFD)
    }

    public func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }

    public func attach(_ source: any OutputSource) {
        lock.withLock { self.source = source }
    }

    public func kick() {
        cpl_eventfd_signal(wakeFD)
    }

    public func setPaused(_ paused: Bool) {
        self.paused = paused
        cpl_eventfd_signal(wakeFD)
    }

    /// Forgets what was not heard yet; the device's part is dropped by the thread before it writes again.
    public func cancel() {
        dropPending = true
        pendingStart = 0
        pendingEnd = 0
        historyCount = 0
        cpl_eventfd_signal(wakeFD)
    }

    /// Frames waiting here plus those the device holds.
    public var delayFrames: Int {
        guard !dropPending, case .ready(let device) = link else { return 0 }
        return pendingEnd - pendingStart + (devicePaused && !device.canPause ? 0 : device.delay)
    }

    public func setVolume(_ percent: Int, muted: Bool) {
        changing {
            volumePercent = percent
            self.muted = muted
            mixer?.set(percent: percent, muted: muted)
        }
    }

    public func close() {
        changing {
            closed = true
            heardLocked()   // nothing more will be heard
        }
    }

    /// Lock held: `done` once what the device holds has been heard (the fade-out at exit), at once
    /// when it holds nothing or is not playing.
    public func whenHeard(_ done: @escaping @Sendable () -> Void) {
        guard !closed, case .ready = link, !devicePaused || pauseAt != nil else { return done() }
        heardWaiters.append(done)
        cpl_eventfd_signal(wakeFD)
    }

    /// Lock held: tells whoever waited for the device to play out.
    func heardLocked() {
        let waiters = heardWaiters
        heardWaiters = []
        waiters.forEach { $0() }
    }

    /// Changes state holding the lock, then wakes the thread to act on it.
    func changing(_ body: () -> Void) {
        lock.withLock(body)
        cpl_eventfd_signal(wakeFD)
    }

    /// The gain written into the samples: none with a hardware mixer (the mixer has the volume).
    var softwareGain: Float { mixer == nil ? SoftwareVolume.gain(percent: volumePercent, muted: muted) : 1 }
}

extension OutputRegistry.Entry {
    /// `--output alsa[:DEVICE]`: an ALSA device (default `default`); `--alsa-mixer` and
    /// `--alsa-format` apply. The device is opened at start: one that does not exist stops previewd
    /// there; one that is busy is tried again on the back-off.
    /// Per output: `,mixer=CONTROL` and `,format=RATE:BITS:CHANNELS` (the options apply to the first).
    static let alsa = OutputRegistry.Entry(usage: "alsa[:DEVICE]", mpdPlugin: "alsa", playsToDevice: true, claims: ALSADeviceSpec.claims) { options in
        try options.acceptSettings(["mixer", "format"])
        let mixerName = options.settings["mixer"] ?? options.alsaMixer
        let spec = try ALSADeviceSpec(output: options.output, format: options.settings["format"] ?? options.alsaFormat)
        try options.refusePulseOptions()
        if let control = mixerName, control.isEmpty || control.contains("\0") {
            throw OutputValueError("--alsa-mixer needs a control name, as in --alsa-mixer PCM")
        }
        let request = ALSADevice.Request(name: spec.device, rate: spec.rate, channels: spec.channels,
                                         encoding: spec.encoding, bufferMs: options.latencyMs)
        return { [mixerName] () throws(OutputValueError) -> any AudioOutput in
            var device: ALSADevice?
            do throws(ALSADevice.Failure) {
                device = try ALSADevice(request)
            } catch {
                // Busy: another program has it now; played once it lets go. Anything else: previewd stops.
                guard [-EBUSY, -EAGAIN].contains(error.code) else { throw OutputValueError(error.reason) }
            }
            let format = device?.format ?? PCMFormat(sampleRate: spec.rate ?? PCMFormat.preferred.sampleRate,
                                                     channels: spec.channels ?? PCMFormat.preferred.channels)
            var mixer: ALSAMixer?
            if let mixerName {
                do throws(ALSADevice.Failure) { mixer = try ALSAMixer(control: mixerName, device: spec.device, card: device?.card ?? -1) }
                catch { throw OutputValueError(error.reason) }
            }
            return ALSAOutput(request: request, device: device, format: format, mixer: mixer)
        }
    }
}
