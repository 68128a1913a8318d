import PreviewCore

/// What engine threads and the player's own tasks report to the player (`Player.post`).
enum PlayerEvent: Sendable {
    case decoder(slot: UInt64, PreviewDecoder.Event)
    case output(OutputEvent)
    /// A download ended: complete, or failed (the neighbours may start theirs once the current one's has).
    case downloadEnded(url: String, complete: Bool, download: ObjectIdentifier)
    /// A head's range has arrived; its download waits there until the head is played.
    case headFetched(url: String, download: ObjectIdentifier)
    /// The whole-clip loudness of the preview at `url` (kept under `key`); nil when silent or undecodable.
    case measured(url: String, key: String, Loudness?)
    /// The estimate of a cold-started slot's first seconds; nil when too little had arrived.
    case estimated(slot: UInt64, Loudness?)
    /// The artwork at `url` was fetched into `path`.
    case artworkArrived(url: String, path: String)
}
