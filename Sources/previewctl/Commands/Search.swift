import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl search`: replace the queue with what the iTunes Store finds, and play.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "search", 
            abstract: "Search the iTunes Store, queue the previews and play the first.",
            discussion: """
                The structured fields follow Apple's examples: --artist alone finds the artist's songs \
                (Apple's artistTerm: the name is matched in artist names only); --artist with --albums \
                lists the artist's albums (previewctl lookup ALBUM-ID queues one); --song (with --artist \
                and/or --album) finds songs; --artist with --album (or --album alone, matched in album \
                names: albumTerm) finds the album and queues its songs. Audiobooks, music videos and \
                films play (their sound); podcasts have no preview to play.

                Examples:
                  previewctl search "jack johnson"
                  previewctl search --artist "the rolling stones" --song "under my thumb"
                  previewctl search --artist "the rolling stones" --album "exile on main"
                  previewctl search --artist "the rolling stones" --albums
                  previewctl search amelie --media movie --limit 5
                  previewctl search emily --sort price --desc --no-play
                """)

        @ParentCommand var root: Previewctl
        @OptionGroup var fields: SearchFields
        @OptionGroup var queue: QueueOptions

        func validate() throws {
            if fields.albums, queue.append || queue.noPlay { throw ValidationError("--albums lists albums and queues nothing: drop --append and --no-play") }
        }

        func run() throws {
            var enqueue = queue.enqueue
            if fields.albums { enqueue.queue = false }   // a list of albums: nothing to play until one is chosen
            try root.options.run(.search(fields.query, enqueue), human: Output.catalog)
        }
    }

    /// `previewctl add`: a search added to the queue (at the end, or where --at says), or iTunes
    /// track ids (--ids).
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", 
            abstract: "Search and add the results to the queue (at the end, or --at N|next), or add iTunes track ids (--ids).",
            discussion: """
                Examples:
                  previewctl add "norah jones"
                  previewctl add --artist adele --song hello --at next
                  previewctl add --ids 1469577741 1440818839 --at 0
                """)

        @ParentCommand var root: Previewctl
        @OptionGroup var fields: SearchFields
        @OptionGroup var queue: QueueOptions
        @OptionGroup var insert: InsertOption

        @Flag(name: .customLong("ids"), help: "The words are iTunes track ids (1–200, spaces or commas between), added without a search.")
        var byId = false

        /// The track ids of the words, with --ids.
        var ids: [Int]? { byId ? LookupQuery.ids(fields.term.joined(separator: ",")) : nil }

        func validate() throws {
            if byId, (ids?.count ?? 0) == 0 || ids!.count > 200 { throw ValidationError("--ids takes 1–200 positive track ids") }
            if queue.noQueue || fields.albums { throw ValidationError("add always queues; use search --no-queue (or search --albums) to look") }
        }

        func run() throws {
            var enqueue = queue.enqueue
            enqueue.append = true
            enqueue.at = insert.position
            if let ids {
                try root.options.run(.add(.trackIds(ids), enqueue), as: AddReport.self, human: Output.added) { Output.nothingAdded($0, asked: ids) }
            } else {
                try root.options.run(.search(fields.query, enqueue), human: Output.catalog)
            }
        }
    }

    /// `previewctl lookup ID[,ID…]`.
    struct Lookup: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lookup", 
            abstract: "Queue iTunes ids: an album id its songs, an artist id the artist's songs, a track id that track.",
            discussion: """
                Examples:
                  previewctl lookup 1469577723
                  previewctl lookup 909253 --limit 10 --sort recent
                  previewctl lookup 255470095,204052021 --append
                  previewctl lookup 909253 --entity album --no-queue
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "Comma-separated iTunes ids.")
        var ids: String

        @Option(help: "Apple's entity for the related items (default: song).")
        var entity: String = "song"

        @Option(help: "How many related items (1–200).")
        var limit: Int?

        @Option(help: "recent (Apple's newest-first order), or previewd's: \(TrackSort.Key.allCases.map(\.rawValue).joined(separator: ", ")).")
        var sort: String?

        @Flag(help: "With --sort KEY: largest, latest or Z first.")
        var desc = false

        @Flag(help: "Append to the queue instead of replacing it.")
        var append = false

        @Flag(name: .customLong("no-play"), help: "Only queue; do not start playing.")
        var noPlay = false

        @Flag(name: .customLong("no-queue"), help: "Only show what was found; the queue and playback stay as they are.")
        var noQueue = false

        @Option(help: "Storefront, a two-letter country code.")
        var country: String?

        var command: ControlCommand {
            let recent = sort == "recent"
            let query = LookupQuery(ids: LookupQuery.ids(ids) ?? [], entity: entity, limit: limit,
                                    sort: recent ? "recent" : nil, country: country?.uppercased())
            let order = recent ? nil : sort.flatMap(TrackSort.Key.init(rawValue:)).map { TrackSort($0, descending: desc) }
            return .lookup(query, Enqueue(append: append, play: !noPlay, sort: order, queue: !noQueue))
        }

        func validate() throws {
            if noQueue, append || noPlay { throw ValidationError("--no-queue queues nothing: drop --append and --no-play") }
            guard LookupQuery.ids(ids) != nil else { throw ValidationError("IDS must be positive numbers separated by commas") }
            if let sort, sort != "recent", TrackSort.Key(rawValue: sort) == nil {
                throw ValidationError("--sort must be recent or one of \(TrackSort.Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard case .lookup(let query, _) = command else { return }
            do { try query.validate() } catch { throw ValidationError(error.message) }
        }

        func run() throws {
            try root.options.run(command, human: Output.catalog)
        }
    }

    /// `previewctl top`: the top-songs chart.
    struct Top: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "top", 
            abstract: "Queue the iTunes top-songs chart.",
            discussion: """
                Examples:
                  previewctl top
                  previewctl top --limit 10 --country gb
                  previewctl top --genre 21 --no-play
                """)

        @ParentCommand var root: Previewctl

        @Option(help: "Chart entries (1–200).")
        var limit: Int = 50

        @Option(help: "Storefront, a two-letter country code.")
        var country: String?

        @Option(help: "An iTunes genre id (e.g. 21 Rock, 14 Pop).")
        var genre: Int?

        @OptionGroup var queue: QueueOptions

        var query: ChartQuery { ChartQuery(limit: limit, country: country?.lowercased(), genre: genre) }

        func validate() throws {
            do { try query.validate() } catch { throw ValidationError(error.message) }
        }

        func run() throws {
            try root.options.run(.top(query, queue.enqueue), human: Output.catalog)
        }
    }

    /// `previewctl more`: the next page of the last search.
    struct More: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "more", 
            abstract: "Append the next page of the last search to the queue.",
            discussion: "Example:\n  previewctl more")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(.more(queue: true), human: Output.catalog)
        }
    }
}
