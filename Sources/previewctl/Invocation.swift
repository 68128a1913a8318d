import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// One call of previewd: where its socket is and how to print its answer. A plain value, so the
/// fast path (`QuickPath`) uses it without ArgumentParser's property wrappers.
struct Invocation {
    /// The control socket; nil for the default path.
    var socket: String?
    /// Print previewd's answer as JSON.
    var json = false
    /// Draw the artwork beside the human answer (`--art`).
    var art: ArtworkPanel?

    /// The control socket's path.
    var socketPath: String { socket ?? SocketPath.defaultPath() }

    /// Sends `command` to previewd and prints the answer: as JSON with --json, else its result
    /// decoded straight into `Report` (one pass over the line) through `human`. When `nothingDone`
    /// names what was not found in an answer that changed nothing (an add of unknown ids), that
    /// is said on stderr and the exit status is 5, as for a search that finds nothing.
    func run<Report: Decodable>(_ command: ControlCommand, as: Report.Type, human: (Report) -> String,
                                nothingDone: (Report) -> String? = { _ in nil }) throws {
        if json { return try run(command, human: { _ in "" }, nothingDone: { (try? $0.decode(as: Report.self)).flatMap(nothingDone) }) }
        let response: TypedResponse<Report>
        do {
            response = try ControlClient(path: socketPath).send(command, as: TypedResponse<Report>.self)
        } catch {
            throw Self.exit(error)
        }
        guard response.ok, let result = response.result else {
            Output.error(response.error?.message ?? "previewd refused the command")
            throw ExitCode(ExitStatus.forError(response.error?.code))
        }
        Output.print(decorated(human(result)))
        try Self.fail(nothingDone(result))
    }

    /// Exit 5 with `nothing` on stderr, when something was not found.
    private static func fail(_ nothing: String?) throws {
        guard let nothing else { return }
        Output.error(nothing)
        throw ExitCode(ExitStatus.forError(.noResults))
    }

    /// `text` with the artwork beside it when asked for.
    private func decorated(_ text: String) -> String {
        art?.decorate(text, socket: socketPath) ?? text
    }

    /// previewd's answer with its result decoded as `Report`.
    struct TypedResponse<Report: Decodable>: Decodable {
        var ok: Bool
        var result: Report?
        var error: ControlError?
    }

    /// Sends `command` to previewd and prints the answer: as JSON with --json, else through `human`.
    /// Exit status: see `ExitStatus`; `nothingDone` as above.
    func run(_ command: ControlCommand, human: (JSONValue) throws -> String, nothingDone: (JSONValue) -> String? = { _ in nil }) throws {
        let path = socketPath
        let response: ControlResponse
        do {
            response = try ControlClient(path: path).send(command, whileWaiting: json ? nil : Self.waitingText(command))
        } catch {
            throw Self.exit(error)
        }
        if json {
            Output.print(Output.json(response.ok ? (response.result ?? .null) : .object([
                "error": .object(["code": .string(response.error?.code.rawValue ?? "internal"),
                                  "message": .string(response.error?.message ?? "")]),
            ])))
        }
        guard response.ok else {
            if !json { Output.error(response.error?.message ?? "previewd refused the command") }
            throw ExitCode(ExitStatus.forError(response.error?.code))
        }
        if !json { Output.print(decorated(try human(response.result ?? .null))) }
        // A catalog command that found results but none it could queue has not done what was asked.
        if response.result?["results"] != nil, let report = try? response.result?.decode(as: CatalogReport.self),
           report.queued, report.firstQueueIndex == nil, Output.lookupHints(report) == nil {
            try Self.fail((report.previewSentence ?? "none of the results has a playable preview") + "; the queue is unchanged")
        }
        try Self.fail(response.result.flatMap(nothingDone))
    }

    /// Subscribes and prints every event until the connection ends or previewctl is interrupted.
    func watch(position: Bool) throws {
        let path = socketPath
        do {
            // On standard error, so the events alone are on standard output: a script (or a test)
            // knows from this line that every event from now on reaches it.
            try ControlClient(path: path).stream(.subscribe(position: position), onSubscribed: {
                Output.error("watching previewd's events (Ctrl-C stops)")
            }) { line in
                if json {
                    Output.print(TerminalText.escapedJSON(String(decoding: line, as: UTF8.self)))
                } else if let event = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) {
                    Output.print(Output.event(event))
                }
            }
        } catch {
            throw Self.exit(error)
        }
        Output.error("previewd closed the connection")
        throw ExitCode(ExitStatus.brokenAnswer)
    }

    /// What a terminal shows while previewd asks the catalog (nil: the command answers at once).
    private static func waitingText(_ command: ControlCommand) -> String? {
        switch command {
        case .search, .more: return "searching…"
        case .lookup: return "looking up…"
        case .top: return "fetching the chart…"
        default: return nil
        }
    }

    /// The command that starts a previewd this previewctl would reach: with `--socket` when the
    /// socket is not the default one (quoted for a shell when it must be).
    static func startCommand(socket path: String) -> String {
        guard path != SocketPath.defaultPath() else { return "previewd" }
        let plain = path.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+,:@%".contains($0)) }
        return "previewd --socket " + (plain ? path : "'" + path.replacing("'", with: "'\\''") + "'")
    }

    /// The failure's message on stderr, and its exit status.
    static func exit(_ error: ControlClient.Failure) -> ExitCode {
        switch error {
        case .unreachable(let path, let reason):
            Output.error("cannot reach previewd at \(path) (\(reason)); is it running? Start it with: " + startCommand(socket: path))
            return ExitCode(ExitStatus.noDaemon)
        case .untrusted(let path, let reason):
            Output.error("refusing to talk to \(path): \(reason)")
            return ExitCode(ExitStatus.noDaemon)
        case .protocolError(let reason):
            Output.error(reason)
            return ExitCode(ExitStatus.brokenAnswer)
        case .refused(let error):
            Output.error(error.message)
            return ExitCode(ExitStatus.forError(error.code))
        }
    }
}
