import ArgumentParser
import PreviewCore

/// A queue item named on the command line: INDEX, 0-based as `queue` shows it (for people), or
/// `--id ID`, the id it got when it entered the queue (`queue --json`), which stays the same
/// whatever other clients move or remove around it (for scripts).
struct ItemSelection: ParsableArguments {
    @Argument(help: "Queue index, 0-based (see previewctl queue).")
    var index: Int?

    @Option(help: ArgumentHelp("The item's id instead of its index (see previewctl --json queue).", valueName: "ID"))
    var id: Int?

    func validate() throws {
        if index != nil, id != nil { throw ValidationError("give INDEX or --id, not both") }
        if let index, index < 0 { throw ValidationError("INDEX must be 0 or more") }
        if let id, id <= 0 { throw ValidationError("--id must be 1 or more") }
    }

    /// The item named, or nil when neither was given.
    var ref: QueueRef? { id.map(QueueRef.id) ?? index.map(QueueRef.index) }
}
