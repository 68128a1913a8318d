import CALSA
import Glibc
import PreviewCore

/// One open ALSA playback PCM (`snd_pcm_t`), non-blocking, its hardware and software parameters
/// set; closed when released. Only `ALSAOutput` uses it, holding its lock.
final class ALSADevice {
    /// What to ask the device for.
    struct Request: Sendable {
        /// The PCM's name (`default`, `hw:1,0`, a name from an asoundrc).
        var name = "default"
        /// `--alsa-format` parts; nil: the device's choice, 44.1 kHz and stereo preferred.
        var rate: Int?
        var channels: Int?
        var encoding: SampleEncoding?
        /// The device buffer, in milliseconds; refilled half at a time.
        var bufferMs = 100
    }

    /// Why a device could not be opened: its message, and errno's value (negative, as ALSA gives it).
    struct Failure: Error {
        let reason: String
        let code: Int32
    }

    let handle: OpaquePointer
    let format: PCMFormat
    let encoding: SampleEncoding
    let bufferFrames: Int
    let periodFrames: Int
    /// The device can stop and go on where it was (`snd_pcm_pause`); else a pause drops and refills.
    let canPause: Bool
    /// The sound card behind the PCM (for its mixer), or -1 for a plugin with none.
    let card: Int32

    /// Encodings tried in this order when none is asked for: the engine's floats untouched where a
    /// plugin takes them, else the widest integers (headroom for the software volume).
    static let encodings: [SampleEncoding] = [.float32, .s32, .s24in3, .s16]

    /// Opens `request.name` and sets it up. With `exactly`, the device must take that format (a
    /// reopen after a loss: the decoded audio is already in it); else it is chosen from what the
    /// device takes.
    init(_ request: Request, exactly: PCMFormat? = nil) throws(Failure) {
        calsa_quiet_errors()
        var pcm: OpaquePointer?
        let opened = snd_pcm_open(&pcm, request.name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
        guard opened >= 0, let pcm else { throw Self.failure(opened, "cannot open ALSA device \(request.name)") }
        handle = pcm
        do throws(Failure) {
            var chosen: (PCMFormat, SampleEncoding, Int, Int, Bool)?
            var why = Failure(reason: "", code: 0)
            // The device's own rates first (no resampling in ALSA); a reopen may need ALSA's.
            for resample in exactly == nil ? [false] : [false, true] {
                do throws(Failure) {
                    chosen = try Self.configure(pcm, request, exactly: exactly, resample: resample)
                    break
                } catch { why = error }
            }
            guard let chosen else { throw why }
            (format, encoding, bufferFrames, periodFrames, canPause) = chosen
            try Self.check(snd_pcm_prepare(pcm), "cannot prepare \(request.name)")
        } catch {
            snd_pcm_close(pcm)
            throw error
        }
        var info: OpaquePointer?
        snd_pcm_info_malloc(&info)
        card = info.map { snd_pcm_info(pcm, $0) == 0 ? snd_pcm_info_get_card($0) : -1 } ?? -1
        snd_pcm_info_free(info)
    }

    deinit { snd_pcm_close(handle) }

    /// Sets hardware and software parameters; returns what was chosen.
    private static func configure(_ pcm: OpaquePointer, _ request: Request, exactly: PCMFormat?,
                                  resample: Bool) throws(Failure) -> (PCMFormat, SampleEncoding, Int, Int, Bool) {
        var hw: OpaquePointer?
        try check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc")
        defer { snd_pcm_hw_params_free(hw) }
        let name = request.name
        try check(snd_pcm_hw_params_any(pcm, hw), "\(name) has no configuration")
        try check(snd_pcm_hw_params_set_rate_resample(pcm, hw, resample ? 1 : 0), "snd_pcm_hw_params_set_rate_resample")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "\(name) takes no interleaved frames")
        let candidates = request.encoding.map { [$0] } ?? encodings
        guard let encoding = candidates.first(where: { snd_pcm_hw_params_test_format(pcm, hw, alsaFormat($0)) == 0 }) else {
            throw Failure(reason: "\(name) takes none of \(candidates.map(\.description).joined(separator: ", "))", code: -EINVAL)
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, alsaFormat(encoding)), "snd_pcm_hw_params_set_format")
        let wantedChannels = exactly?.channels ?? request.channels ?? PCMFormat.preferred.channels
        if exactly != nil || request.channels != nil {
            try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(wantedChannels)), "\(name) does not take \(wantedChannels) channels")
        } else {
            var channels = UInt32(wantedChannels)
            try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "\(name) takes no channel count near \(wantedChannels)")
        }
        if let rate = exactly?.sampleRate ?? request.rate {
            try check(snd_pcm_hw_params_set_rate(pcm, hw, UInt32(rate), 0), "\(name) does not take \(rate) Hz")
        } else if let rate = [PCMFormat.preferred.sampleRate, 48_000].first(where: { snd_pcm_hw_params_test_rate(pcm, hw, UInt32($0), 0) == 0 }) {
            try check(snd_pcm_hw_params_set_rate(pcm, hw, UInt32(rate), 0), "snd_pcm_hw_params_set_rate")
        } else {
            var rate = UInt32(PCMFormat.preferred.sampleRate)
            try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, nil), "\(name) takes no rate near 44.1 kHz")
        }
        var bufferUs = UInt32(request.bufferMs * 1_000)
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferUs, nil), "\(name) takes no \(request.bufferMs) ms buffer")
        var periodUs = bufferUs / 2
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodUs, nil), "\(name) takes no \(periodUs / 1_000) ms period")
        try check(snd_pcm_hw_params(pcm, hw), "cannot set up \(name)")

        var rate: UInt32 = 0
        var channels: UInt32 = 0
        var buffer: snd_pcm_uframes_t = 0
        var period: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_rate(hw, &rate, nil)
        snd_pcm_hw_params_get_channels(hw, &channels)
        snd_pcm_hw_params_get_buffer_size(hw, &buffer)
        snd_pcm_hw_params_get_period_size(hw, &period, nil)
        let canPause = snd_pcm_hw_params_can_pause(hw) == 1

        var sw: OpaquePointer?
        try check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc")
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        // Woken once a period has room; started by the first frames written (a skip's refill is
        // heard at once, not after a period).
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params_set_start_threshold(pcm, sw, 1), "snd_pcm_sw_params_set_start_threshold")
        try check(snd_pcm_sw_params(pcm, sw), "cannot set up \(name)")
        return (PCMFormat(sampleRate: Int(rate), channels: Int(channels)), encoding, Int(buffer), max(1, Int(period)), canPause)
    }

    // MARK: Playing (the output's lock held)

    var state: snd_pcm_state_t { snd_pcm_state(handle) }

    /// Frames the device has room for, or a negative errno.
    func available() -> Int { Int(snd_pcm_avail_update(handle)) }

    /// Writes up to `frames` encoded frames; returns how many it took, or a negative errno.
    func write(_ bytes: UnsafeRawPointer, frames: Int) -> Int {
        Int(snd_pcm_writei(handle, bytes, snd_pcm_uframes_t(frames)))
    }

    /// Frames written and not yet heard; 0 when it cannot say (stopped, run dry).
    var delay: Int {
        var frames: snd_pcm_sframes_t = 0
        return snd_pcm_delay(handle, &frames) == 0 ? max(0, Int(frames)) : 0
    }

    /// Recovers in place from an underrun (-EPIPE) or a suspend (-ESTRPIPE); false when `error` is
    /// something else (the device went away).
    func recover(_ error: Int) -> Bool {
        guard error == -Int(EPIPE) || error == -Int(ESTRPIPE) || error == -Int(EINTR) else { return false }
        return snd_pcm_recover(handle, Int32(error), 1) >= 0
    }

    /// Drops what the device holds and makes it ready for new frames.
    func dropAndPrepare() -> Int32 {
        snd_pcm_drop(handle)
        return snd_pcm_prepare(handle)
    }

    func pause(_ on: Bool) -> Int32 { snd_pcm_pause(handle, on ? 1 : 0) }

    /// The descriptors to poll for room (at most `space`); how many were filled.
    func pollDescriptors(_ fds: UnsafeMutablePointer<pollfd>, space: Int) -> Int {
        Int(max(0, snd_pcm_poll_descriptors(handle, fds, UInt32(space))))
    }

    /// What happened on the descriptors `poll` returned, as POLLOUT/POLLERR bits.
    func events(_ fds: UnsafeMutablePointer<pollfd>, count: Int) -> Int16 {
        var revents: UInt16 = 0
        return snd_pcm_poll_descriptors_revents(handle, fds, UInt32(count), &revents) < 0 ? Int16(POLLERR) : Int16(bitPattern: revents)
    }

    var descriptorCount: Int { Int(max(0, snd_pcm_poll_descriptors_count(handle))) }

    // MARK: Helpers

    static func alsaFormat(_ encoding: SampleEncoding) -> snd_pcm_format_t {
        switch encoding {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24in3: SND_PCM_FORMAT_S24_3LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    static func check(_ result: Int32, _ what: String) throws(Failure) {
        if result < 0 { throw failure(result, what) }
    }

    static func failure(_ code: Int32, _ what: String) -> Failure {
        Failure(reason: "\(what): \(text(code))", code: code)
    }

    /// ALSA's text for a negative error code.
    static func text(_ code: Int32) -> String { String(cString: snd_strerror(code)) }
}

// Used only by the ALSA output's thread or with its lock held (see `ALSAOutput`).
extension ALSADevice: @unchecked Sendable {}
