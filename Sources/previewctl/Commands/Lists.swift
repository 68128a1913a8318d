import ArgumentParser
import PreviewCore

extension ListName: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(argument) }
}

extension Previewctl {
    /// `previewctl save NAME`.
    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "save",
            abstract: "Save the queue as a new list (in $XDG_DATA_HOME/previewd/lists); an existing list is kept unless --replace or --append says.",
            discussion: "Examples:\n  previewctl save evening\n  previewctl save evening --append\n  previewctl save evening --replace")

        @ParentCommand var root: Previewctl
        @Argument(help: "The list's name (no /, not starting with a dot).") var name: String
        @Flag(help: "Add the queue after what the list holds.") var append = false
        @Flag(help: "Replace what the list holds with the queue.") var replace = false

        func validate() throws {
            _ = try ListNameArgument.check(name)
            if append, replace { throw ValidationError("give --append or --replace, not both") }
        }

        func run() throws {
            let mode: ListSaveMode = append ? .append : replace ? .replace : .create
            try root.options.run(.save(try ListNameArgument.check(name), mode: mode), as: ListReport.self) {
                "saved \"\(TerminalText.sanitized($0.name))\": \($0.count) track\($0.count == 1 ? "" : "s")"
            }
        }
    }

    /// `previewctl load NAME [--append | --at N|next]`.
    struct Load: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "load",
            abstract: "Put a saved list in the queue: replacing it and playing, or added (--append, --at).",
            discussion: "Examples:\n  previewctl load evening\n  previewctl load marked --append --no-play")

        @ParentCommand var root: Previewctl
        @Argument(help: "The list's name.") var name: String
        @Flag(help: "Add to the end of the queue instead of replacing it.") var append = false
        @Flag(name: .customLong("no-play"), help: "Only queue; do not start playing.") var noPlay = false
        @OptionGroup var insert: InsertOption

        func validate() throws { _ = try ListNameArgument.check(name) }

        func run() throws {
            let enqueue = Enqueue(append: append, play: !noPlay, at: insert.position)
            try root.options.run(.load(try ListNameArgument.check(name), enqueue), as: AddReport.self, human: Output.added) {
                Output.nothingAdded($0, empty: "the list \"\(name)\" is empty")
            }
        }
    }

    /// `previewctl lists [NAME]`.
    struct Lists: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "lists",
            abstract: "The saved lists with their sizes; with a name, that list's tracks.",
            discussion: "Examples:\n  previewctl lists\n  previewctl lists marked")

        @ParentCommand var root: Previewctl
        @Argument(help: "A list's name.") var name: String?

        func validate() throws { if let name { _ = try ListNameArgument.check(name) } }

        func run() throws {
            if let name {
                try root.options.run(.lists(try ListNameArgument.check(name)), as: ListReport.self, human: Output.list)
            } else {
                try root.options.run(.lists(nil), as: ListsReport.self, human: Output.lists)
            }
        }
    }

    /// `previewctl forget NAME`.
    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "forget", abstract: "Delete a saved list.",
                                                        discussion: "Example:\n  previewctl forget evening")

        @ParentCommand var root: Previewctl
        @Argument(help: "The list's name.") var name: String

        func validate() throws { _ = try ListNameArgument.check(name) }

        func run() throws {
            try root.options.run(.forget(try ListNameArgument.check(name)), as: ListsReport.self, human: Output.lists)
        }
    }
}

/// A list name typed on the command line, checked as previewd checks it (a bad one is bad usage).
enum ListNameArgument {
    static func check(_ text: String) throws -> ListName {
        do { return try ListName(text) } catch { throw ValidationError(error.message) }
    }
}
