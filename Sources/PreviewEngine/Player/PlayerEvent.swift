/// What the engine reports to the player: decoder events by slot, output events. They travel through
/// one ordered stream, so a slot's `ready` is always handled before its `finished`, and an output's
/// `drained` before the `started` that follows it.
enum PlayerEvent: Sendable {
    case decoder(slot: UInt64, PreviewDecoder.Event)
    case output(OutputEvent)
    /// The current track's download finished: the neighbours may start theirs.
    case downloadComplete(url: String)
}
