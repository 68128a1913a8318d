/// The commands of the control protocol, parsed and checked. `docs/PROTOCOL.md` shows each on the wire.
public enum ControlCommand: Equatable, Sendable {
    /// Protocol and daemon versions.
    case hello
    /// Search the catalog and queue the playable results (replace or append, play or not, sorted).
    case search(CatalogQuery, Enqueue)
    /// Look up iTunes ids: an album's songs, an artist's songs, a track.
    case lookup(LookupQuery, Enqueue)
    /// The top-songs chart.
    case top(ChartQuery, Enqueue)
    /// The next page of the last search, appended to the queue (`queue` false: the next page of
    /// the last search that queued nothing, only answered).
    case more(queue: Bool)
    /// Tracks into the queue where `Enqueue.at` says: catalog ids (one batched lookup) or track
    /// objects as a search answered them (no network); answers the new items' ids.
    case add(AddSource, Enqueue)
    /// The tracks a front-end shows now (by trackId, in screen order): previewd keeps their heads,
    /// so a tap on any of them starts at once.
    case visible([Int])
    /// Everything known about a queue item (the current one when nil), with its artist's details.
    case info(QueueRef?)
    /// The artwork of a queue item (the current one when nil) as an RGB picture fitting width × height.
    case artwork(QueueRef?, width: Int, height: Int)
    /// The artwork file of a queue item (the current one when nil) as fetched, a chunk from `offset`.
    case artworkFile(QueueRef?, offset: Int)
    /// The artwork file of a track previewd has seen (the engine's track memory) or queued, a chunk from
    /// `offset`; `small`: Apple's 100-pixel image as named, for a results list, not the 600-pixel one.
    case trackArtworkFile(trackId: Int, small: Bool, offset: Int)
    /// Queue item `item`'s preview as previewd holds it (fetched first when it holds none), a chunk
    /// from `offset`: previewd-web serves it to a page that plays here.
    case audioFile(item: Int, offset: Int)
    /// A page's own playback ("Play here"): its claim, its clock, a track's end.
    case playHere(PlayHereCommand)
    /// A ready-to-post line about what is playing.
    case share
    /// Empty the queue (playback stops).
    case clear
    /// Swap two queue items (by index or id); the current track keeps playing.
    case swap(QueueRef, QueueRef)
    /// Give queue items a priority, 0–255 (MPD's `prio`): a shuffled order plays the higher sooner.
    case setPriority(Int, [QueueRef])
    /// Forget the last error and every item's failure, so play and resume try them again.
    case clearError
    /// Make the output sound, or play silently with its clock running (nil toggles).
    case setOutput(enabled: Bool?)
    /// Turn output `id` on or off (nil toggles it); the others play on.
    case switchOutput(id: Int, enabled: Bool?)
    /// Loudness normalisation per track or off, from now on (as `--normalize`).
    case setNormalization(LoudnessNormalization.Mode)
    /// Reorder the queue's items from `start` up to `end` (all when nil) at random, as one change.
    case shuffleQueue(Range<Int>?)
    /// Remove one queue item; removing the current one plays the next.
    case remove(QueueRef)
    /// Move a queue item to where another one is (by index or id); the current track keeps playing.
    case move(from: QueueRef, to: QueueRef)
    /// Turn the connection into an event stream (handled by the socket server); `position` adds a
    /// position event every second.
    case subscribe(position: Bool)
    /// Play the item, or resume / start when nil. An item may start at `startMs`, and be loaded
    /// `paused` there (cued: a restore gives the session back this way, nothing heard).
    case play(QueueRef?, startMs: Int = 0, paused: Bool = false)
    case pause
    case resume
    case toggle
    case stop
    case next
    case prev
    /// Move within the current track.
    case seek(SeekTarget)
    /// Set or change the volume (0–100); nil only reports it.
    case volume(VolumeChange?)
    /// Mute or unmute; nil toggles.
    case mute(Bool?)
    /// Consecutive tracks overlap by this many seconds (0–15; 0: the gapless join); nil only reports it.
    case crossfade(Int?)
    /// End-of-track and end-of-queue behaviour.
    case setRepeat(RepeatMode)
    /// Shuffle the play order or not.
    case setShuffle(Bool)
    /// Shuffle in exactly this order of queue item ids (every item once): a restore gives back the
    /// order it saved.
    case shuffleOrder([Int])
    /// Stop (or repeat) at the end of the current track, always or once.
    case setSingle(SingleMode)
    /// Remove each item from the queue once it has played.
    case setConsume(Bool)
    /// Radio on or off (`PlayerCore+Radio`); `skips`: the quick skips counted against each lead,
    /// as saved before a restart (the state keeper gives them back).
    case setRadio(Bool, skips: [String: Int]? = nil)
    /// State, position and the current track.
    case status
    /// The queue with its current and failed items; with `since`, only the items added, moved or
    /// changed after that version.
    case queue(since: Int?)
    /// What previewd holds in memory: live loads and every store against its bound.
    case memory
    /// Save the queue as list `name`: a new list, or after what it holds, or replacing it.
    case save(ListName, mode: ListSaveMode)
    /// Put list `name`'s tracks in the queue (replacing it, or where `Enqueue.at` says).
    case load(ListName, Enqueue)
    /// Every saved list with its size; with a name, that list's tracks.
    case lists(ListName?)
    /// Delete list `name`.
    case forget(ListName)
    /// Rename a list.
    case rename(ListName, to: ListName)
    /// Add tracks (or catalog ids) to the end of list `name`.
    case listAdd(ListName, AddSource)
    /// Move the track at `from` of list `name` to `to`.
    case listMove(ListName, from: Int, to: Int)
    /// Remove the track at `index` of list `name` (every track when nil).
    case listRemove(ListName, index: Int?)
    /// Add a queue item (the current one when nil) to the shortlist (the list `marked`), or take it off.
    case mark(QueueRef?)
    case unmark(QueueRef?)
    /// The newest `limit` previews heard for five seconds or more.
    case history(limit: Int)
    /// What previewd has met: the tracks it remembers, with the listener's ways to them (the
    /// shortlist, the history, the latest chart, the recent searches). MPD's front-end serves it as
    /// its database.
    case library
}

/// Where a seek goes.
public enum SeekTarget: Equatable, Sendable {
    /// To this position in the track.
    case absolute(ms: Int)
    /// By this much from the current position (negative: back).
    case relative(ms: Int)
}

/// A volume command: to a level, or by a step.
public enum VolumeChange: Equatable, Sendable {
    /// To this level, 0–100.
    case set(Int)
    /// By this much (negative: down); the result is clamped to 0–100.
    case by(Int)
}
