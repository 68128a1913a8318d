import ArgumentParser
import PreviewCore

/// previewctl: every command a listener needs, talking to previewd over its control socket.
@main
struct Previewctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previewctl",
        abstract: "Control previewd, the iTunes preview player.",
        discussion: """
            Exit status: 0 done, 1 previewd refused the command (the message says why), \
            3 previewd is not running or not reachable, 4 previewd's answer was broken, 64 bad usage.

            Examples:
              previewctl search "jack johnson"
              previewctl next
              previewctl --json status
            """,
        version: PreviewVersion.string,
        subcommands: [Search.self, Play.self, Pause.self, Resume.self, Toggle.self, Stop.self,
                      Next.self, Prev.self, Seek.self, Volume.self, Mute.self, Repeat.self,
                      Shuffle.self, Status.self, Queue.self])

    /// --socket and --json, given before the command (or after it).
    @OptionGroup var options: ClientOptions
}
