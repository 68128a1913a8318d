import ArgumentParser
import Glibc
import PreviewCore

extension Previewctl {
    /// `previewctl player`: previewd full screen in the terminal.
    struct PlayerView: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "player",
            abstract: "Show previewd full screen: artwork, details, position, queue; steer it with keys.",
            discussion: """
                Keys: \(keys).

                It redraws when previewd says something changed (and when the terminal is resized), \
                never on a timer. The terminal is put back as it was on q, Ctrl-C, SIGTERM or a crash, and \
                while Ctrl-Z has it stopped (fg brings it back). \
                It needs a terminal: without one it says so and exits 2.
                """)

        @ParentCommand var root: Previewctl

        /// The keys as `?` lists them (`PlayerScreen.keys`), so `--help` and the man page say the same.
        static let keys = PlayerScreen.keys.map { key, what in
            key.split(separator: " ").joined(separator: " or ") + " " + what
        }.joined(separator: " · ")

        func run() throws {
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                Output.error("player needs a terminal (stdin and stdout); for scripts use status, watch and the other commands")
                throw ExitCode(ExitStatus.usage)
            }
            let session: PlayerSession
            do { session = try PlayerSession(socket: root.options.invocation.socketPath) }
            catch { throw Invocation.exit(error) }
            let status = session.run()
            if status != 0 { throw ExitCode(status) }
        }
    }

    /// `previewctl open`: the track's store page in the browser.
    struct Open: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "open",
            abstract: "Open a track's store page (its trackViewUrl) with xdg-open or $BROWSER.",
            discussion: "Without either, it prints the address. INDEX is 0-based as in `queue` (or --id ID); the current track by default.")

        @ParentCommand var root: Previewctl

        @OptionGroup var item: ItemSelection

        func run() throws {
            let invocation = root.options.invocation
            let report: QueueReport
            do {
                let response = try ControlClient(path: invocation.socketPath).send(.queue(since: nil), as: Invocation.TypedResponse<QueueReport>.self)
                guard let result = response.result else { throw ExitCode(ExitStatus.brokenAnswer) }
                report = result
            } catch let failure as ControlClient.Failure {
                throw Invocation.exit(failure)
            }
            let named: Int?
            switch item.ref {
            case .index(let index)?: named = index
            case .id(let id)?:
                guard let found = report.items.firstIndex(where: { $0.id == id }) else {
                    Output.error("no track with id \(id) in the queue")
                    throw ExitCode(1)
                }
                named = found
            case nil: named = nil
            }
            guard let position = named ?? report.index else {
                Output.error("nothing is playing; give an index")
                throw ExitCode(1)
            }
            guard report.items.indices.contains(position) else {
                Output.error("no item \(position) in a queue of \(report.items.count)")
                throw ExitCode(1)
            }
            guard let url = report.items[position].track.trackViewUrl else {
                Output.error("item \(position) has no store page")
                throw ExitCode(1)
            }
            switch StorePage.open(url) {
            case .opened: if invocation.json { Output.print(Output.json(.object(["url": .string(url), "opened": .bool(true)]))) }
            case .noBrowser: Output.print(invocation.json ? Output.json(.object(["url": .string(url), "opened": .bool(false)])) : url)
            case .failed(let why):
                Output.error(why)
                throw ExitCode(1)
            }
        }
    }
}
