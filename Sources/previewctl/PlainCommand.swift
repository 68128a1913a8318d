import PreviewCore

/// The commands that take no arguments: what each sends and how its answer is shown. Both their
/// ArgumentParser subcommands and the fast path (`QuickPath`) read this table, so they cannot differ.
enum PlainCommand: String, CaseIterable {
    case status, queue, next, prev, pause, resume, toggle, stop, clear, share, memory, retry

    /// The request sent to previewd.
    var request: ControlCommand {
        switch self {
        case .status: return .status
        case .queue: return .queue(since: nil)
        case .next: return .next
        case .prev: return .prev
        case .pause: return .pause
        case .resume: return .resume
        case .toggle: return .toggle
        case .stop: return .stop
        case .clear: return .clear
        case .share: return .share
        case .memory: return .memory
        case .retry: return .clearError
        }
    }

    /// Sends the command and prints previewd's answer (JSON with --json, else the human form).
    func run(_ invocation: Invocation) throws {
        switch self {
        case .queue: try invocation.run(request, as: QueueReport.self, human: Output.queue)
        case .share: try invocation.run(request, as: ShareReport.self, human: Output.share)
        case .memory: try invocation.run(request, as: MemoryReport.self, human: Output.memory)
        default: try invocation.run(request, as: StatusReport.self, human: Output.status)
        }
    }
}
