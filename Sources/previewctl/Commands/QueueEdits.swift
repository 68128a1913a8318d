import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl clear`.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the queue (playback stops).")
        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.clear)
        }
    }

    /// `previewctl remove INDEX`.
    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", 
            abstract: "Remove a queue item; removing the one playing plays the next.",
            discussion: "Examples:\n  previewctl remove 3\n  previewctl remove --id 17")
        @ParentCommand var root: Previewctl

        @OptionGroup var item: ItemSelection

        func validate() throws {
            guard item.ref != nil else { throw ValidationError("give the item: INDEX or --id ID") }
        }

        func run() throws {
            try root.options.run(.remove(item.ref!), as: StatusReport.self, human: Output.status)
        }
    }

    /// `previewctl move FROM TO`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", 
            abstract: "Move a queue item; the track playing keeps playing.",
            discussion: "Examples:\n  previewctl move 5 0\n  previewctl move --id 17 0")
        @ParentCommand var root: Previewctl

        @Argument(help: "FROM TO: the index of the item to move and its new index; with --id, only TO.")
        var indices: [Int] = []
        @Option(help: ArgumentHelp("The id of the item to move instead of its index (see previewctl --json queue).", valueName: "ID"))
        var id: Int?

        func validate() throws {
            guard indices.count == (id == nil ? 2 : 1) else {
                throw ValidationError(id == nil ? "give FROM and TO" : "with --id, give only TO")
            }
            guard indices.allSatisfy({ $0 >= 0 }) else { throw ValidationError("indices must be 0 or more") }
            if let id, id <= 0 { throw ValidationError("--id must be 1 or more") }
        }

        func run() throws {
            let from = id.map(QueueRef.id) ?? .index(indices[0])
            try root.options.run(.move(from: from, to: .index(indices.last!)), as: StatusReport.self, human: Output.status)
        }
    }

    /// `previewctl info [INDEX]`.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", 
            abstract: "Show a queue item's details (the current one by default) and its artist's.",
            discussion: "Examples:\n  previewctl info\n  previewctl info --art\n  previewctl --json info 2")
        @ParentCommand var root: Previewctl

        @OptionGroup var item: ItemSelection

        @Flag(help: "Draw the track's artwork beside the text (a terminal with 256 or 24-bit colours).")
        var art = false

        func run() throws {
            var invocation = root.options.invocation
            if art { invocation.art = ArtworkPanel(item: item.ref) }
            try invocation.run(.info(item.ref), human: Output.info)
        }
    }

    /// `previewctl share`.
    struct Share: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "share", 
            abstract: "Print a ready-to-post line about what is playing.",
            discussion: "Examples:\n  previewctl share\n  previewctl --json share")
        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(PlainCommand.share)
        }
    }

    /// `previewctl watch`.
    struct Watch: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "watch", 
            abstract: "Print previewd's events as they happen, one line each, until interrupted.",
            discussion: """
                Examples:
                  previewctl watch
                  previewctl watch --position
                  previewctl --json watch
                """)
        @ParentCommand var root: Previewctl

        @Flag(help: "Also print the position every second.")
        var position = false

        func run() throws {
            try root.options.watch(position: position)
        }
    }
}
