/// Which output keeps the clock when several play at once: the one whose pulls pace the sequencer
/// and whose delay the position heard is counted from; the others (followers) play copies of its
/// frames. The one place this is decided (issue 54), so a new kind of clock joins here: a page
/// playing previewd's sound in the browser ("play here") is an output that plays to a device.
public enum OutputClock {
    /// What the election knows of one output, in the order the outputs were given (their ids).
    public struct Candidate: Equatable, Sendable {
        /// Given `enableoutput`, or on since start.
        public var enabled: Bool
        /// Paced by a sound card's clock (PulseAudio, ALSA, a page playing here), not by real time
        /// (a FIFO, Snapcast, an HTTP stream).
        public var playsToDevice: Bool
        /// Not lost (connected, or not yet tried).
        public var reachable: Bool
        /// Takes the sequencer's own format: only such an output can pace it (another is fed
        /// through a converter, at its own pace).
        public var takesSequencerFormat: Bool

        /// A candidate; see the properties.
        public init(enabled: Bool, playsToDevice: Bool, reachable: Bool = true, takesSequencerFormat: Bool = true) {
            self.enabled = enabled
            self.playsToDevice = playsToDevice
            self.reachable = reachable
            self.takesSequencerFormat = takesSequencerFormat
        }

        var eligible: Bool { enabled && reachable && takesSequencerFormat }
    }

    /// The clock: the first eligible output that plays to a device, else the first eligible one
    /// (paced to real time, as the FIFO and Snapcast outputs pace themselves), else `current`, which
    /// plays on silently so the position still runs (as one output disabled does in MPD's
    /// `disableoutput` of previewd's single output).
    public static func elect(_ candidates: [Candidate], current: Int) -> Int {
        candidates.firstIndex { $0.eligible && $0.playsToDevice }
            ?? candidates.firstIndex(where: \.eligible)
            ?? current
    }
}
