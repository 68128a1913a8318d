import PreviewCore

/// What engine threads and the player's own tasks report to the player (`Player.post`).
enum PlayerEvent: Sendable {
    case decoder(slot: UInt64, PreviewDecoder.Event)
    case output(OutputEvent)
    /// A download ended: complete, or failed (the neighbours may start theirs once the current one's has).
    /// `download`: the one that ended (nil: let go since), so the end of one cancelled is not taken
    /// for that of a later download of the same URL.
    case downloadEnded(url: String, complete: Bool, download: PreviewDownload?)
    /// A head's range has arrived; its download waits there until the head is played.
    case headFetched(url: String, download: PreviewDownload?)
    /// The whole-clip loudness of the preview at `url` (kept under `key`); nil when silent or undecodable.
    case measured(url: String, key: String, Loudness?)
    /// The estimate of a cold-started slot's first seconds; nil when too little had arrived.
    case estimated(slot: UInt64, Loudness?)
    /// The artwork at `url` was fetched into `path`.
    case artworkArrived(url: String, path: String)
}
