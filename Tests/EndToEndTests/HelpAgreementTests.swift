import Foundation
import PreviewCore
import PreviewTestSupport
import XCTest

/// `--help` (and so the man pages, generated from the same definitions by scripts/install), the
/// README's tables and the player's `?` keys say the same: every option of `previewd --help` is in
/// the README's previewd synopsis and table, every previewctl command and each command's options
/// are in its previewctl section, and every key `?` lists is in `player --help` and the README.
final class HelpAgreementTests: XCTestCase {
    private func help(_ binary: String, _ arguments: [String]) throws -> String {
        guard let path = BuildProducts.path(binary) else { throw TestSupportError("\(binary) not built") }
        let result = try ProcessRunner.run(path, arguments)
        XCTAssertEqual(result.status, 0, "\(binary) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// The README's text from the heading `from` up to the next heading of the same level.
    private func readme(section from: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "\n" + from + "\n"), "README has \(from)")
        let level = from.prefix { $0 == "#" }
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n" + level + " ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    /// The long options an OPTIONS section lists (`  --name <value>   what`), in order.
    static func options(inHelp text: String) -> [String] {
        guard let options = text.range(of: "\nOPTIONS:\n") else { return [] }
        return text[options.upperBound...].split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  -") else { return nil }
            return line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.split(separator: ",")[0]) }
        }
    }

    /// The subcommands a SUBCOMMANDS section lists.
    static func subcommands(inHelp text: String) -> [String] {
        guard let list = text.range(of: "\nSUBCOMMANDS:\n") else { return [] }
        return text[list.upperBound...].split(separator: "\n").prefix { !$0.hasPrefix("  See ") && !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    func testEveryPreviewdOptionIsInTheReadmesSynopsisAndTable() throws {
        let options = Self.options(inHelp: try help("previewd", ["--help"])).filter { !["--help", "--version"].contains($0) }
        XCTAssertGreaterThan(options.count, 30, "the options were read")
        let section = try readme(section: "## previewd")
        let synopsis = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first, "the synopsis block")
        for option in options {
            XCTAssertTrue(synopsis.contains("[" + option + "]") || synopsis.contains("[" + option + " "), "README's previewd synopsis lacks \(option)")
            XCTAssertTrue(section.contains("| `" + option + "`") || section.contains("| `" + option + " "), "README's previewd table lacks \(option)")
        }
    }

    func testEveryPreviewctlCommandAndOptionIsInTheReadmesSection() throws {
        let root = try help("previewctl", ["--help"])
        let commands = Self.subcommands(inHelp: root)
        XCTAssertGreaterThan(commands.count, 40, "the commands were read: \(commands)")
        let section = try readme(section: "## previewctl")
        // The first cell of each row (an escaped `\|` inside a cell is not a border).
        let table = section.replacingOccurrences(of: "\\|", with: "/").split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { $0.split(separator: "|")[0] }.joined(separator: "\n")
        for command in commands {
            XCTAssertTrue(table.contains("`" + command + "`") || table.contains("`" + command + " "), "README's previewctl table lacks \(command)")
            let options = Self.options(inHelp: try help("previewctl", [command, "--help"]))
                .filter { !["--help", "--version", "--socket", "--json"].contains($0) }
            for option in options {
                XCTAssertTrue(Self.names(option, in: section), "README's previewctl section lacks \(command) \(option)")
            }
        }
        for option in Self.options(inHelp: root) where !["--help", "--version"].contains(option) {
            XCTAssertTrue(Self.names(option, in: section), "README's previewctl section lacks \(option)")
        }
    }

    /// `text` names `option` as a whole word (`--id` is not named by `--ids`).
    static func names(_ option: String, in text: String) -> Bool {
        text.range(of: NSRegularExpression.escapedPattern(for: option) + "(?![a-z-])", options: .regularExpression) != nil
    }

    /// Every key `?` lists is in `player --help` (the man page) and in the README, with what it does.
    func testThePlayersKeysAreTheSameInItsHelpTheReadmeAndOnScreen() throws {
        let text = try help("previewctl", ["player", "--help"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let section = try readme(section: "### previewctl player")
        for (keys, what) in PlayerScreen.keys {
            let spelled = keys.split(separator: " ").joined(separator: " or ")
            XCTAssertTrue(text.contains(spelled + " " + what), "player --help says \(spelled) \(what): \(text)")
            for key in keys.split(separator: " ") where key != "space" {
                XCTAssertTrue(section.contains("`" + key + "`") || section.contains(" " + key + " "), "README's player section names the key \(key)")
            }
        }
        XCTAssertTrue(section.contains("`m` mark or unmark") && section.contains("`M` mute"), "m marks, M mutes")
    }

    /// The key table `?` is drawn from (`PlayerKeys.table`, what the view dispatches through) is
    /// what `player --help` lists, row for row and in order, and every row is on the `?` screen.
    func testTheKeysOnTheHelpScreenAreTheKeysOfHelpAndEveryActionHasOne() throws {
        let text = try help("previewctl", ["player", "--help"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var screen = PlayerScreen()
        screen.status = StatusReport(state: .idle, index: nil, positionMs: 0, durationMs: nil, queueLength: 0, track: nil, error: nil, output: "ok")
        screen.showsHelp = true
        let shown = screen.lines(width: 120, height: 40).joined(separator: "\n")
        var at = text.startIndex
        for row in PlayerKeys.table {
            let spelled = row.spelled.split(separator: " ").joined(separator: " or ") + " " + row.what
            let found = try XCTUnwrap(text.range(of: spelled, range: at..<text.endIndex), "player --help lists \(spelled) after the keys before it")
            at = found.upperBound
            XCTAssertTrue(shown.contains(row.what) && shown.contains(row.spelled), "? shows \(row.spelled) \(row.what)")
        }
        let bound = Set(PlayerKeys.table.flatMap { $0.bindings.map { "\($0.action)" } })
        XCTAssertEqual(bound, Set(PlayerAction.allCases.map { "\($0)" }), "every action has a key in the table")
        let keys = PlayerKeys.table.flatMap { $0.bindings.map(\.key) }
        XCTAssertEqual(keys.count, Set(keys.map { "\($0)" }).count, "no key bound twice")
    }
}
