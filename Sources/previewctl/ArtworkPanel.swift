#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore

/// `--art`: a command's text with the track's artwork drawn on its left in half blocks, when the
/// terminal shows colours. previewd decodes and scales the image (`artwork`); previewctl only draws
/// the pixels it is sent. No artwork, a broken one, or a terminal without colours: the text alone.
struct ArtworkPanel {
    /// The queue item whose artwork is drawn; nil: the current one.
    var item: QueueRef?

    /// The widest picture drawn, in cells, and the most text rows it may take.
    static let maxColumns = 32
    static let maxRows = 16

    /// `text` with the artwork beside it, or `text` alone.
    func decorate(_ text: String, socket: String) -> String {
        guard let colors = HalfBlockImage.colors(environment: ProcessInfo.processInfo.environment,
                                                 isTerminal: isatty(STDOUT_FILENO) == 1) else { return text }
        let terminal = TerminalSize.current()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let textWidth = lines.map(DisplayText.cells).max() ?? 0
        // The picture takes what the text leaves, keeping it a readable size or leaving it out.
        let columns = min(Self.maxColumns, terminal.columns - textWidth - 2)
        let rows = min(Self.maxRows, max(lines.count, terminal.rows - 2))
        guard columns >= 8, rows >= 4 else { return text }
        let command = ControlCommand.artwork(item, width: columns, height: 2 * rows)
        guard let response = try? ControlClient(path: socket).send(command, as: Invocation.TypedResponse<ArtworkReport>.self),
              response.ok, let image = response.result else { return text }
        return HalfBlockImage.beside(HalfBlockImage.lines(image, colors: colors), width: image.width, lines).joined(separator: "\n")
    }
}
