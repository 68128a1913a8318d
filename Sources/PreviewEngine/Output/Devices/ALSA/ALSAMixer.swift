import CALSA
import Glibc
import PreviewCore

/// A playback mixer control of an ALSA device (`--alsa-mixer NAME`), set instead of scaling the
/// samples: on the same cubic scale as PulseAudio's volume (50 % ≈ −18 dB) where the control gives
/// its range in dB, else linear in its own steps (as PulseAudio's ALSA control plugin is). Owns the
/// `snd_mixer_t`; used with the output's lock held.
final class ALSAMixer {
    private let handle: OpaquePointer
    private let element: OpaquePointer
    /// The control's range in 0.01 dB, when it has one.
    private let decibels: (min: Int, max: Int)?
    private let steps: (min: Int, max: Int)

    /// Finds `control` on the card behind the PCM (`card`), or on the control device named as the PCM
    /// (a plugin's, such as `ctl.NAME { type pulse }`).
    init(control: String, device: String, card: Int32) throws(ALSADevice.Failure) {
        var mixer: OpaquePointer?
        try ALSADevice.check(snd_mixer_open(&mixer, 0), "snd_mixer_open")
        guard let mixer else { throw ALSADevice.Failure(reason: "snd_mixer_open failed", code: -ENOMEM) }
        let attached = card >= 0 ? "hw:\(card)" : device
        do {
            try ALSADevice.check(snd_mixer_attach(mixer, attached), "no mixer on ALSA device \(attached)")
            try ALSADevice.check(snd_mixer_selem_register(mixer, nil, nil), "snd_mixer_selem_register")
            try ALSADevice.check(snd_mixer_load(mixer), "cannot load the mixer of \(attached)")
        } catch {
            snd_mixer_close(mixer)
            throw error
        }
        var id: OpaquePointer?
        snd_mixer_selem_id_malloc(&id)
        defer { snd_mixer_selem_id_free(id) }
        snd_mixer_selem_id_set_index(id, 0)
        snd_mixer_selem_id_set_name(id, control)
        guard let found = snd_mixer_find_selem(mixer, id), snd_mixer_selem_has_playback_volume(found) != 0 else {
            snd_mixer_close(mixer)
            throw ALSADevice.Failure(reason: "ALSA device \(attached) has no playback mixer control \(control)", code: -ENOENT)
        }
        handle = mixer
        element = found
        var low = 0, high = 0
        decibels = snd_mixer_selem_get_playback_dB_range(found, &low, &high) == 0 && high > low ? (low, high) : nil
        snd_mixer_selem_get_playback_volume_range(found, &low, &high)
        steps = (low, high)
    }

    deinit { snd_mixer_close(handle) }

    /// Sets the control to `percent` (0–100) of full, and its switch to `muted` (the lowest step when
    /// it has no switch).
    func set(percent: Int, muted: Bool) {
        let fraction = Double(min(100, max(0, percent))) / 100
        let silent = muted && snd_mixer_selem_has_playback_switch(element) == 0
        if let decibels, !silent, fraction > 0 {
            // The cubic amplitude PulseAudio gives `percent`, below the control's top.
            let level = decibels.max + Int((6_000 * log10(fraction)).rounded())
            snd_mixer_selem_set_playback_dB_all(element, max(decibels.min, level), 0)
        } else {
            let value = silent ? steps.min : steps.min + Int((Double(steps.max - steps.min) * fraction).rounded())
            snd_mixer_selem_set_playback_volume_all(element, value)
        }
        if snd_mixer_selem_has_playback_switch(element) != 0 {
            snd_mixer_selem_set_playback_switch_all(element, muted ? 0 : 1)
        }
    }
}

// Used only with the ALSA output's lock held.
extension ALSAMixer: @unchecked Sendable {}
