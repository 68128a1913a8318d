/// The modes that decide what plays after what: repeat, shuffle, single and consume.
public struct PlaybackModes: Equatable, Sendable {
    /// End-of-track and end-of-queue behaviour.
    public var `repeat`: RepeatMode
    /// The play order is shuffled.
    public var shuffle: Bool
    /// Stop (or repeat) at the end of the current track.
    public var single: SingleMode
    /// An item that has played leaves the queue when the next one starts.
    public var consume: Bool

    /// Modes as given; all off by default.
    public init(repeat: RepeatMode = .off, shuffle: Bool = false, single: SingleMode = .off, consume: Bool = false) {
        self.repeat = `repeat`
        self.shuffle = shuffle
        self.single = single
        self.consume = consume
    }
}
