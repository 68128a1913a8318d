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
            discussion: "Example:\n  previewctl remove 3")
        @ParentCommand var root: Previewctl

        @Argument(help: "Queue index, 0-based (see previewctl queue).")
        var index: Int

        func validate() throws {
            guard index >= 0 else { throw ValidationError("INDEX must be 0 or more") }
        }

        func run() throws {
            try root.options.run(.remove(.index(index)), as: StatusReport.self, human: Output.status)
        }
    }

    /// `previewctl move FROM TO`.
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "move", 
            abstract: "Move a queue item; the track playing keeps playing.",
            discussion: "Example:\n  previewctl move 5 0")
        @ParentCommand var root: Previewctl

        @Argument(help: "Index of the item to move.")
        var from: Int
        @Argument(help: "Its new index.")
        var to: Int

        func validate() throws {
            guard from >= 0, to >= 0 else { throw ValidationError("indices must be 0 or more") }
        }

        func run() throws {
            try root.options.run(.move(from: .index(from), to: .index(to)), as: StatusReport.self, human: Output.status)
        }
    }

    /// `previewctl info [INDEX]`.
    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", 
            abstract: "Show a queue item's details (the current one by default) and its artist's.",
            discussion: "Examples:\n  previewctl info\n  previewctl info --art\n  previewctl --json info 2")
        @ParentCommand var root: Previewctl

        @Argument(help: "Queue index, 0-based.")
        var index: Int?

        @Flag(help: "Draw the track's artwork beside the text (a terminal with 256 or 24-bit colours).")
        var art = false

        func validate() throws {
            if let index, index < 0 { throw ValidationError("INDEX must be 0 or more") }
        }

        func run() throws {
            var invocation = root.options.invocation
            if art { invocation.art = ArtworkPanel(index: index) }
            try invocation.run(.info(index.map(QueueRef.index)), human: Output.info)
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
