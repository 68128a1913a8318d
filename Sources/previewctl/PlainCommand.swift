import PreviewCore

/// The commands that take no arguments: what each sends and how its answer is shown. Both their
/// ArgumentParser subcommands and the fast path (`QuickPath`) read this table, so they cannot differ.
enum PlainCommand: String, CaseIterable {
    case status, queue, next, prev, pause, resume, toggle, stop, clear, share

    /// The request sent to previewd.
    var request: ControlCommand {
        switch self {
        case .status: return .status
        case .queue: return .queue
        case .next: return .next
        case .prev: return .prev
        case .pause: return .pause
        case .resume: return .resume
        case .toggle: return .toggle
        case .stop: return .stop
        case .clear: return .clear
        case .share: return .share
        }
    }

    /// The human form of previewd's answer.
    var human: (JSONValue) throws -> String {
        switch self {
        case .queue: return Output.queue
        case .share: return Output.share
        default: return Output.status
        }
    }
}
