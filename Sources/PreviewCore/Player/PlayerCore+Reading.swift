/// The readings front-ends, the engine and the tests take of the core, by the names they had when
/// the core held every field itself: each is now its owner's (`output`, …), read through here.
extension PlayerCore {
    /// Where playback is.
    public var transport: Transport { playhead.transport }
    /// The load the transport's current item plays from: there exactly while `transport.isActive`,
    /// by the playhead's shape.
    public var current: Slot? { playhead.current }
    /// Seconds consecutive tracks overlap by (0–15; 0: the gapless join).
    public var crossfadeSeconds: Int { output.crossfadeSeconds }
    /// Where the sound stopped when the output went away, while it is away.
    public var heardAtLossMs: Int? { output.heardAtLossMs }
    /// The slot the output is playing (set by `play` and by the output moving on by itself).
    public var outputSlot: SlotID? { output.playing }
    /// The output's volume, 0–100.
    public var volume: Int { output.volume }
    /// The output is muted.
    public var muted: Bool { output.muted }
    /// The output sounds (MPD's `enableoutput`), or plays silently, its clock running (`disableoutput`).
    public var outputEnabled: Bool { output.enabled }

    /// The artwork URLs of the current track and its neighbours (empty: none wanted yet).
    public var artworkWindow: [String] { artwork.urls }
    /// The cached artwork of the window, by URL.
    public var artworkPaths: [String: String] { artwork.paths }

    /// Whole-clip measurements of the previews held, by URL.
    public var measurements: [String: Loudness] { normalizer.measurements }
    /// The gains the last measured tracks needed (the default for a track nothing is known of).
    public var recentGains: [Double] { normalizer.recentGains }

    /// Heads held, by preview URL (never a URL `downloads` holds: a load adopts its head).
    public var heads: [String: Head] { headsState.heads }
    /// The previews of the latest catalog answer, in its order.
    public var shown: [String] { headsState.shown }
    /// The previews a front-end said are on screen (nil: the latest answer's first ones).
    public var visible: [String]? { headsState.visible }
    /// Previews whose head failed, not asked for again until played.
    public var failedHeads: [String] { headsState.failed }

    /// Neighbours decoded ahead of need, by queue item id.
    public var prefetched: [Int: Slot] { window.prefetched }
    /// The prefetched slot handed to the output to follow the current one.
    public var follower: SlotID? { window.follower }
    /// The track before the current one while the output fades it out under it (a crossfade).
    public var fading: Slot? { window.fading }
    /// Downloads held, by URL.
    public var downloads: [String: Download] { window.downloads }
}
