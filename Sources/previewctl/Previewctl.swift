import ArgumentParser
import Glibc
import PreviewCore

/// previewctl: every command a listener needs, talking to previewd over its control socket.
@main
struct Previewctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previewctl",
        abstract: "Control previewd, the iTunes preview player.",
        discussion: """
            \(ExitStatus.help)

            Files: the control socket is $XDG_RUNTIME_DIR/previewd.sock (else \
            /tmp/previewd-UID/previewd.sock), or --socket PATH.

            Environment: XDG_RUNTIME_DIR (where the socket is); COLUMNS (the width of result tables \
            when stdout is not a terminal).

            Examples:
              previewctl search "jack johnson"
              previewctl next
              previewctl --json status
              previewctl player
            """,
        version: PreviewVersion.string,
        subcommands: [Search.self, Lookup.self, Top.self, More.self, Add.self,
                      Play.self, Pause.self, Resume.self, Toggle.self, Stop.self, Next.self, Prev.self, Retry.self, Seek.self,
                      Volume.self, Mute.self, OutputEnable.self, Outputs.self, Normalize.self, Repeat.self, Shuffle.self, Single.self, Consume.self, Radio.self, Crossfade.self,
                      Status.self, Queue.self, Info.self, Cover.self, Save.self, Load.self, Lists.self, Forget.self, Mark.self, Unmark.self, History.self, Export.self, Share.self, Memory.self, Visible.self, Open.self, Watch.self, PlayerView.self, Clear.self, Remove.self, Move.self])

    /// --socket and --json, given before the command (or after it).
    @OptionGroup var options: ClientOptions

    /// Runs the command; bad usage exits with 2 (argument-parser's own default is 64). The forms
    /// status bars and media keys run go through `QuickPath` first.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let status = QuickPath.run(arguments) { Glibc.exit(status) }
        // ArgumentParser's `help NAME` shows the overview for a name it does not know, and exits 0.
        var words = arguments[...]   // past --socket PATH and --json
        while let first = words.first, first.hasPrefix("-") { words = words.dropFirst(first == "--socket" ? 2 : 1) }
        if words.first == "help", let name = words.dropFirst().first,
           !configuration.subcommands.contains(where: { $0._commandName == name }) {
            Output.error("no command \"\(name)\"; previewctl --help lists them")
            Glibc.exit(ExitStatus.usage)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                Output.write(fullMessage(for: error) + "\n", to: STDERR_FILENO)
                Glibc.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}
