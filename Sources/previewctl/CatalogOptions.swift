import ArgumentParser
import PreviewCore

/// What to do with found tracks: --append, --no-play, --sort KEY, --desc (search, lookup, top, add).
struct QueueOptions: ParsableArguments {
    @Flag(help: "Append to the queue instead of replacing it.")
    var append = false

    @Flag(name: .customLong("no-play"), help: "Only queue; do not start playing.")
    var noPlay = false

    @Option(help: "Order results and queue by: \(TrackSort.Key.allCases.map(\.rawValue).joined(separator: ", ")).")
    var sort: TrackSort.Key?

    @Flag(help: "With --sort: largest, latest or Z first.")
    var desc = false

    @Flag(name: .customLong("no-queue"), help: "Only show what was found; the queue and playback stay as they are.")
    var noQueue = false

    func validate() throws {
        if desc, sort == nil { throw ValidationError("--desc needs --sort") }
        if noQueue, append || noPlay { throw ValidationError("--no-queue queues nothing: drop --append and --no-play") }
    }

    var enqueue: Enqueue {
        Enqueue(append: append, play: !noPlay, sort: sort.map { TrackSort($0, descending: desc) }, queue: !noQueue)
    }
}

/// Where added tracks go: `--at N` (a queue index) or `--at next` (right after the current track).
struct InsertOption: ParsableArguments {
    @Option(help: ArgumentHelp("Insert at this queue index, or next (right after the current track); default: the end.", valueName: "N|next"))
    var at: String?

    func validate() throws {
        if at != nil, position == nil { throw ValidationError("--at takes a queue index (0 or more) or next") }
    }

    /// The position asked for; nil when none (or not understood).
    var position: InsertPosition? {
        guard let at else { return nil }
        if at == "next" { return .next }
        if at == "end" { return .end }
        return Int(at).flatMap { $0 >= 0 ? .index($0) : nil }
    }
}

extension TrackSort.Key: ExpressibleByArgument {}

/// yes / no arguments.
enum YesNo: String, ExpressibleByArgument, CaseIterable {
    case yes, no
}

/// The fields of a search (search and add).
struct SearchFields: ParsableArguments {
    @Argument(help: "Free search words (artist, song, album…).")
    var term: [String] = []

    @Option(help: "Artist name (alone: the artist's songs, matched in artist names only).")
    var artist: String?

    @Option(help: "Album name (alone: matched in album names only; alone or with --artist: the album's songs are queued).")
    var album: String?

    @Flag(help: "List the albums found (the artist's, with --artist) instead of queueing the first one's songs; implies --no-queue.")
    var albums = false

    @Option(help: "Song title.")
    var song: String?

    @Option(help: "Apple's entity: song, album, musicArtist, musicTrack, movie, musicVideo, …")
    var entity: String?

    @Option(help: "Apple's media: music, movie, musicVideo, podcast, audiobook, all, …")
    var media: String?

    @Option(help: "Apple's attribute: artistTerm, songTerm, albumTerm, …")
    var attribute: String?

    @Option(help: "Results per page (1–200).")
    var limit: Int = CatalogQuery.limits.default

    @Option(help: "Results to skip (paging).")
    var offset: Int = 0

    @Option(help: "Storefront, a two-letter country code (default: previewd's).")
    var country: String?

    @Option(help: "Include explicit results: yes or no.")
    var explicit: YesNo?

    var query: CatalogQuery {
        let words = term.joined(separator: " ")
        return CatalogQuery(term: words.isEmpty ? nil : words, artist: artist, album: album, song: song, media: media,
                            entity: entity, attribute: attribute, limit: limit, offset: offset,
                            country: country?.uppercased(), explicit: explicit.map { $0 == .yes }, albums: albums ? true : nil)
    }

    func validate() throws {
        if albums, song != nil { throw ValidationError("--albums lists albums: drop --song") }
        do { try query.validate() } catch { throw ValidationError(error.message) }
    }
}
