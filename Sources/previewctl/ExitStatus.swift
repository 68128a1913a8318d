import ArgumentParser
import PreviewCore

/// previewctl's exit statuses: one per kind of failure, so scripts can tell them apart.
enum ExitStatus {
    static let usage: Int32 = 2
    static let noDaemon: Int32 = 3
    static let brokenAnswer: Int32 = 4

    /// The status for an error previewd answered with: 1 in general, a distinct one for each
    /// catalog failure.
    static func forError(_ code: ControlError.Code?) -> Int32 {
        switch code {
        case .noResults?: return 5
        case .offline?: return 6
        case .timeout?: return 7
        case .httpStatus?: return 8
        case .rateLimited?: return 9
        case .invalidData?: return 10
        case .stopping?: return noDaemon
        default: return 1
        }
    }

    /// The table printed by `previewctl --help`.
    static let help = """
        Exit status: 0 done; 1 previewd refused the command (the message says why); 2 bad usage; \
        3 previewd is not running or not reachable (or is stopping: a search cut short); 4 previewd's answer was broken; 5 nothing found \
        (or nothing playable); 6 the iTunes API is unreachable (offline); 7 it timed out; 8 it answered \
        an HTTP error; 9 rate limited; 10 it answered something that is not its JSON.
        """
}
