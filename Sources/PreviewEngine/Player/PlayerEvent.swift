/// What engine threads report to the player (`Player.post`).
enum PlayerEvent: Sendable {
    case decoder(slot: UInt64, PreviewDecoder.Event)
    case output(OutputEvent)
    /// A download ended: complete, or failed (the neighbours may start theirs once the current one's has).
    case downloadEnded(url: String, complete: Bool)
}
