/// Every playback decision, as a value with no I/O, in the swift-nio and librespot manner: the
/// queue, the transport, the loads (which decoding is current, which neighbours are prefetched,
/// which one the output follows gaplessly), the downloads wanted, seeking, volume and mute, the
/// last error, each track's gain, the artwork window and paging. Commands
/// (`PlayerCore+Commands.swift`) and engine events (`PlayerCore+Events.swift`) go in; the effects
/// the engine must carry out come out, in order, with the events subscribers are told
/// (`.notify`) in the order things happened. Engine events name the load they concern by its one
/// id (the slot id, which is also its PCM ring's and the output's), and events of a load no longer
/// held change nothing, so late events cannot disturb anything.
///
/// It is composed of sub-states that own their fields, each tested alone, as `Transport` is: the
/// `playhead` (the transport and its current load), the load `window`, the `headsState`, the
/// `normalizer`, the `artwork` and the `output`. The extensions route inputs to them and keep
/// what spans several (the queue, the last error, paging, what subscribers were told).
public struct PlayerCore: Equatable, Sendable {
    /// Identifies one load: one decoding of one track, end to end (its ring, its output events).
    public typealias SlotID = UInt64

    /// How far ahead and behind to prefetch, how much of a neighbour to decode before parking it,
    /// how loud tracks play, and whether the next page of a search is fetched near the end.
    public struct Policy: Equatable, Sendable {
        /// Upcoming tracks prefetched.
        public var ahead: Int
        /// Previous tracks prefetched.
        public var behind: Int
        /// Milliseconds of a neighbour decoded before its decoder parks.
        public var depthMs: Int
        /// The loudness normalisation asked for.
        public var normalization = LoudnessNormalization()
        /// Queue the next page of a search when playback reaches its last two tracks.
        public var autopage = false
        /// The API's own origin: previews there are refused (`PreviewURLPolicy`).
        public var localOrigin: String?
        /// The heads of what the listener sees (none by default).
        public var heads = HeadPlan()

        /// A policy prefetching `ahead` and `behind` tracks, each decoded `depthMs` deep.
        public init(ahead: Int = 1, behind: Int = 1, depthMs: Int = 250) {
            self.ahead = ahead
            self.behind = behind
            self.depthMs = depthMs
        }
    }

    /// One load: the current track's decoding, or a prefetched neighbour's, with what belongs to
    /// it (its duration once known, its gain once decided), as librespot keeps a track's state
    /// together.
    public struct Slot: Equatable, Sendable {
        /// Unique for the life of the core.
        public let id: SlotID
        /// The queue item it decodes.
        public let item: Int
        /// The preview it decodes.
        public let url: String
        /// Where in the track its audio starts.
        public let startMs: Int
        /// How far its decoder has come.
        public var phase: Phase
        /// The output has started reading it (it followed the previous track gaplessly).
        public var heard = false
        /// The track's real duration, once a decoder knows it.
        public var durationMs: Int?
        /// The gain it plays at, once decided; `provisional` until the loudness of its first
        /// seconds is known (a cold start does not wait for it).
        public var gain: TrackGain?
        public var gainIsProvisional = false

        /// How far a slot's decoder has come.
        public enum Phase: Equatable, Sendable { case decoding, ready, finished, failed }

        /// Audio is in its buffer (or it finished).
        public var hasAudio: Bool { phase == .ready || phase == .finished }
    }

    /// The first seconds of a preview the listener sees but no load holds (`HeadPlan`): a range
    /// request's bytes and a decoder parked after `depthMs`, which become the start of the whole
    /// download and of the load when the track is played or becomes a neighbour.
    public struct Head: Equatable, Sendable {
        /// Its slot's id: kept when a load adopts it (its ring, its decoder events).
        public let id: SlotID
        /// How far its decoder has come (`.failed` never stays: a failed head is let go).
        public var phase: Slot.Phase
        /// Its range request is still arriving.
        public var fetching = true
        /// The whole preview arrived with it (a small one, a server that ignores Range, the disk cache).
        public var complete = false
        /// The container's duration, once its decoder read it.
        public var durationMs: Int?
    }

    /// Where a download is.
    public enum Download: Equatable, Sendable { case arriving, complete, failed }

    /// Whether the last search has another page.
    public enum Paging: Equatable, Sendable {
        /// No search to continue (a lookup, the chart, a cleared queue, the last page).
        case none
        /// Another page may follow.
        case available
        /// `fetchNextPage` was asked for and has not ended.
        case fetching
    }

    /// What the engine must do, in order.
    public enum Effect: Equatable, Sendable {
        /// Download `url` into memory (once per URL; slots share it). The engine reports the
        /// measurement of the track (`trackId`) at once when it has one (`.measured`).
        case startDownload(url: String, trackId: Int?)
        /// Stop downloading `url` and let its bytes go.
        case cancelDownload(url: String)
        /// Start a decoder for the slot over its URL's download: the whole track, or only `depthMs` then park.
        case startSlot(Slot, depthMs: Int?)
        /// Fetch the first `bytes` of `url` by range request (reported as `.headFetched`) and
        /// start slot `id` decoding its first `depthMs`, then parking.
        case startHead(SlotID, url: String, bytes: Int, depthMs: Int)
        /// A head's download goes on to the whole preview, from the first byte it lacks; as with
        /// `startDownload`, the engine reports a measurement of the track it already has.
        case widenDownload(url: String, trackId: Int?)
        /// Continue a parked slot's decoding to the end (it became current).
        case decodeWhole(SlotID)
        /// Stop the slot's decoder and let its audio go.
        case cancelSlot(SlotID)
        /// Play the slot's audio now (flushing what else was playing), corked when `paused`.
        case play(SlotID, paused: Bool, title: String?, artist: String?)
        /// Hand the output the slot to follow the current one without a gap (nil: none).
        case follow(SlotID?)
        /// Cork or uncork the output.
        case pauseOutput, resumeOutput
        /// Flush and cork the output.
        case stopOutput
        /// Play the slot's audio at `gain` from now on; `smoothly`: ramp to it (a provisional
        /// gain corrected), else only if the output has not read it yet.
        case setGain(SlotID, TrackGain, smoothly: Bool)
        /// Measure the loudness of the slot's first seconds (reported as `.estimated`).
        case estimateLoudness(SlotID)
        /// The output's volume and mute.
        case setVolume(Int, muted: Bool)
        /// Consecutive tracks overlap by this many seconds (0: the gapless join).
        case setCrossfade(Int)
        /// Each output fed or not, by id (the engine moves the clock if it must).
        case setOutputs([Bool])
        /// Fetch whatever of these artwork URLs is not cached (reported as `.artworkArrived`).
        case fetchArtwork([String])
        /// Fetch and append the next page of the last search (end with `pageArrived`/`pageFailed`).
        case fetchNextPage
        /// Choose a radio batch (`radioInput`, `RadioPicker`) and end it with `radioEnded`.
        case fetchRadio
        /// A line for the log: a track failed.
        case logFailure(String)
        /// Run the retry timer `timer` for `afterMs` (replacing it if it runs); it ends as `.retryDue`.
        case armRetry(NetworkHold.Timer, afterMs: Int)
        /// Stop the retry timer `timer`.
        case disarmRetry(NetworkHold.Timer)
        /// Tell every front-end.
        case notify(ControlEvent)
    }

    /// The queue.
    public internal(set) var queue = PlayQueue()
    /// Where playback is, and while it is active, the load it plays from (`transport`, `current`).
    public internal(set) var playhead = Playhead()
    /// The neighbours, the follower, the slot fading out, the downloads and the slot ids.
    public internal(set) var window = LoadWindow()
    /// The heads held, what the listener sees, and the heads that failed.
    public internal(set) var headsState = HeadsState()
    /// The output's volume and mute, whether it sounds, the crossfade, the slot it reads and
    /// where the sound stopped while it is away.
    public internal(set) var output = OutputState()
    /// The track playback holds at while the network is away, and the prefetches backing off.
    public internal(set) var hold = NetworkHold()
    /// Whether a page playing here keeps the clock, and the box's end that waits for the page's.
    public internal(set) var pageClock = PageClock()
    /// The last failure the listener should see (a track's, the output's); cleared by what fixes it.
    public internal(set) var lastError: String?
    /// Whether the last search has another page.
    public internal(set) var paging = Paging.none
    /// Radio: on or off, and where it is between batches (`PlayerCore+Radio`).
    public internal(set) var radio = RadioState()
    /// The normalisation asked for, the measurements of the previews held and the recent gains.
    public internal(set) var normalizer: Normalizer
    /// The artwork of the current track and its neighbours, the paths of those here, and what
    /// subscribers were told of.
    public internal(set) var artwork = ArtworkWindow()
    /// The policy as given, but for its normalisation, which is the normalizer's (`policy` reads both).
    var settings: Policy
    /// Transport inputs that carrying out an action gave rise to (a consumed item, a ready
    /// adopted slot), fed once the actions are done.
    var followUps: [Transport.Input] = []
    /// The current track subscribers were told of (its artwork: `artwork.announced`).
    var announcedItem: Int?

    /// An empty, idle core.
    public init(policy: Policy = Policy()) {
        settings = policy
        normalizer = Normalizer(policy.normalization)
    }

    /// How far to prefetch, how loud tracks play, the heads, paging and the API's origin.
    public var policy: Policy {
        var policy = settings
        policy.normalization = normalizer.normalization
        return policy
    }

    /// The current track's queue position, if there is a current track.
    public var position: Int? { transport.item.flatMap(queue.position(ofID:)) }

    /// The cached artwork of the current track, once it is here.
    public var currentArtworkPath: String? { currentArtworkURL.flatMap { artworkPaths[$0] } }

    /// The current track's duration, once known.
    public var currentDurationMs: Int? { current?.durationMs }

    /// The held slot with `id`, if any.
    public func slot(_ id: SlotID) -> Slot? {
        current?.id == id ? current : window.neighbour(id)
    }

    /// The preview whose head is slot `id`, if a head is.
    public func headURL(_ id: SlotID) -> String? { headsState.url(of: id) }

    /// What `status`, `info` and the events say about queue item `item`'s loudness.
    /// `known`: a measurement the engine has of a track the core does not hold.
    public func loudnessReport(item: Int, known: Loudness? = nil) -> LoudnessReport? {
        guard let url = queue[id: item]?.track.fetchablePreviewURL else { return nil }
        let gain = current?.item == item && current?.url == url ? current?.gain : nil
        return normalizer.report(url: url, gain: gain, known: known)
    }
}
