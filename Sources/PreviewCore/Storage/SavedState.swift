/// What previewd keeps of a listening session across restarts and crashes (`state.jsonl`'s first
/// line; the queue's tracks follow it): where playback was, the volume and the modes. Restored
/// paused, through the front-end verbs, with no catalog call.
public struct SavedState: Codable, Equatable, Sendable {
    /// The layout this previewd writes; a file of a later one is moved aside, never misread.
    public static let currentFormat = 1

    /// The file's layout.
    public var format = SavedState.currentFormat
    /// How many tracks follow this line.
    public var count: Int
    /// The current item's queue index, if any.
    public var current: Int?
    /// Where in it playback was, in milliseconds.
    public var positionMs: Int
    public var volume: Int
    public var muted: Bool
    public var `repeat`: RepeatMode
    public var single: SingleMode
    public var consume: Bool
    /// Seconds consecutive tracks overlap by; nil in files written before there was a crossfade.
    public var crossfade: Int?
    /// false: the output was made silent (MPD's `disableoutput`); nil in files written before.
    public var outputEnabled: Bool?
    /// Each output's switch by its name (MPD's state file keeps `audio_device_state:1:NAME`); nil in
    /// files written before there were several.
    public var outputs: [String: Bool]?
    /// The shuffled play order as queue indexes; nil: the queue's own order.
    public var order: [Int]?
    /// Radio was on; nil in files written before there was a radio.
    public var radio: Bool?
    /// The quick skips counted against each radio lead; nil in files written before.
    public var radioSkips: [String: Int]?

    public init(count: Int, current: Int?, positionMs: Int, volume: Int, muted: Bool, repeat: RepeatMode,
                single: SingleMode, consume: Bool, crossfade: Int? = nil, outputEnabled: Bool? = nil, outputs: [String: Bool]? = nil,
                order: [Int]?) {
        self.count = count
        self.current = current
        self.positionMs = positionMs
        self.volume = volume
        self.muted = muted
        self.repeat = `repeat`
        self.single = single
        self.consume = consume
        self.crossfade = crossfade
        self.outputEnabled = outputEnabled
        self.outputs = outputs
        self.order = order
    }
}
