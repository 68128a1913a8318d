/// What a command answers, one case per kind of answer: the engine's typed result, which a
/// front-end shows as it likes (the control socket writes it as JSON, MPRIS reads nothing of it).
public enum ControlResult: Equatable, Sendable {
    /// The player's state after the command (every transport and queue-editing command).
    case status(StatusReport)
    /// `queue`.
    case queue(QueueReport)
    /// `queue` with `since`: what changed.
    case queueChanges(QueueChangesReport)
    /// `add`: the new items' ids.
    case added(AddReport)
    /// `artwork` with `original`: a chunk of the image file.
    case artworkFile(ArtworkFileReport)
    /// `audio`: a chunk of a preview's file (the same shape as an artwork file's chunk).
    case audioFile(ArtworkFileReport)
    /// `lists`, `forget`, `rename`: every saved list.
    case lists(ListsReport)
    /// `lists NAME`, `save`, `listadd`, `listremove`: one list.
    case list(ListReport)
    /// `history`.
    case history(HistoryReport)
    /// `mark`, `unmark`: the track and whether it is on the shortlist.
    case mark(MarkReport)
    /// `search`, `lookup`, `top`, `more`: what was found and queued.
    case catalog(CatalogReport)
    /// `info`.
    case info(InfoReport)
    /// `artwork`.
    case artwork(ArtworkReport)
    /// `share`.
    case share(ShareReport)
    /// `hello`.
    case hello(HelloReport)
    /// `memory`.
    case memory(MemoryReport)
    /// `library`.
    case library(LibraryReport)
}

/// Written as its payload alone, so the socket's `result` is the report itself, as clients parse it.
extension ControlResult: Encodable {
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .status(let report): try report.encode(to: encoder)
        case .queue(let report): try report.encode(to: encoder)
        case .queueChanges(let report): try report.encode(to: encoder)
        case .added(let report): try report.encode(to: encoder)
        case .artworkFile(let report), .audioFile(let report): try report.encode(to: encoder)
        case .lists(let report): try report.encode(to: encoder)
        case .list(let report): try report.encode(to: encoder)
        case .history(let report): try report.encode(to: encoder)
        case .mark(let report): try report.encode(to: encoder)
        case .catalog(let report): try report.encode(to: encoder)
        case .info(let report): try report.encode(to: encoder)
        case .artwork(let report): try report.encode(to: encoder)
        case .share(let report): try report.encode(to: encoder)
        case .hello(let report): try report.encode(to: encoder)
        case .memory(let report): try report.encode(to: encoder)
        case .library(let report): try report.encode(to: encoder)
        }
    }
}
