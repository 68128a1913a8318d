import ArgumentParser
import PreviewCore

extension PlaylistExport: ExpressibleByArgument {}

extension Previewctl {
    /// `previewctl export [NAME] --format m3u|json|xspf`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export",
            abstract: "Write the queue (or a saved list) to stdout as extended M3U, JSON (every catalog field, with the store links) or XSPF.",
            discussion: "Examples:\n  previewctl export --format m3u > queue.m3u && mpv queue.m3u\n  previewctl export marked --format json")

        @ParentCommand var root: Previewctl
        @Argument(help: "A saved list's name (default: the queue).") var name: String?
        @Option(help: "m3u, json or xspf (default: m3u; json with --json).") var format: PlaylistExport?

        func validate() throws { if let name { _ = try ListNameArgument.check(name) } }

        func run() throws {
            let client = ControlClient(path: root.options.invocation.socketPath)
            let tracks: [Track]
            do {
                if let name {
                    tracks = try Self.result(client.send(.lists(try ListNameArgument.check(name)), as: Invocation.TypedResponse<ListReport>.self)).tracks ?? []
                } else {
                    tracks = try Self.result(client.send(.queue(since: nil), as: Invocation.TypedResponse<QueueReport>.self)).items.map(\.track)
                }
            } catch let error as ControlClient.Failure {
                throw Invocation.exit(error)
            }
            // --json asks for JSON, as of every command; --format, when given, says which.
            let format = format ?? (root.options.json ? .json : .m3u)
            Output.write(format.render(tracks, title: name ?? "previewd queue"), to: 1)
        }

        private static func result<Report>(_ response: Invocation.TypedResponse<Report>) throws -> Report {
            guard response.ok, let result = response.result else {
                Output.error(response.error?.message ?? "previewd refused the command")
                throw ExitCode(ExitStatus.forError(response.error?.code))
            }
            return result
        }
    }
}
