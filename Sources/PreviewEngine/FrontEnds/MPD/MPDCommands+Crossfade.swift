import PreviewCore

/// `crossfade`, `mixrampdb` and `mixrampdelay` (MPD's src/command/PlayerCommands.cxx). The crossfade
/// is the engine's (every output, every front-end, saved); MixRamp needs tags previews do not have,
/// so, as MPD without them, its settings are kept and reported and the crossfade applies.
extension MPDCommands {
    /// `crossfade SECONDS`: MPD takes any length; previewd's longest is 15 s.
    static func crossfade(_ call: MPDCall) async throws(MPDError) {
        let seconds = try call.int(0, in: 0...Int(Int32.max))
        _ = try await call.perform(.crossfade(min(seconds, call.engine.crossfadeRange.upperBound)))
    }

    /// `mixrampdb DECIBELS`.
    static func mixrampdb(_ call: MPDCall) async throws(MPDError) {
        call.server.mixRamp.decibels = try call.float(0)
        call.server.changed(.options)
    }

    /// `mixrampdelay SECONDS` (`nan` or a negative number: off).
    static func mixrampdelay(_ call: MPDCall) async throws(MPDError) {
        call.server.mixRamp.delaySeconds = try call.float(0)
        call.server.changed(.options)
    }
}

/// What MPD clients set of MixRamp: one setting for every connection, as MPD's player has.
struct MPDMixRamp {
    /// `mixrampdb`: the level MixRamp would overlap at.
    var decibels: Double = 0
    /// `mixrampdelay`: off when not above 0 (MPD's default, nan).
    var delaySeconds: Double = .nan

    /// The `status` lines MPD writes for these: `mixrampdb` always, `mixrampdelay` when on.
    func add(to r: inout MPDResponse) {
        r.add("mixrampdb", Self.text(decibels))
        if delaySeconds > 0 { r.add("mixrampdelay", Self.text(delaySeconds)) }
    }

    /// As MPD's `{}` writes a float: `0`, `-17.5`.
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
