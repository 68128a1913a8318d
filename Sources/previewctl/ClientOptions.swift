import ArgumentParser
import Foundation
import PreviewCore

/// Flags every previewctl command takes.
struct ClientOptions: ParsableArguments {
    @Option(help: "The control socket (default: $XDG_RUNTIME_DIR/previewd.sock).")
    var socket: String?

    @Flag(help: "Print the daemon's answer as JSON.")
    var json = false

    /// Sends `command` to previewd and prints the answer: as JSON with --json, else through `human`.
    /// Exit status: 0 done, 1 previewd refused, 3 previewd not reachable, 4 broken answer.
    func run(_ command: ControlCommand, human: (JSONValue) throws -> String) throws {
        let path = socket ?? SocketPath.defaultPath()
        let response: ControlResponse
        do {
            response = try ControlClient(path: path).send(command)
        } catch {
            switch error {
            case .unreachable(let path, let reason):
                Output.error("cannot reach previewd at \(path) (\(reason)); is it running? Start it with: previewd")
                throw ExitCode(3)
            case .protocolError(let reason):
                Output.error(reason)
                throw ExitCode(4)
            }
        }
        if json {
            Output.print(Output.json(response.ok ? (response.result ?? .null) : .object([
                "error": .object(["code": .string(response.error?.code.rawValue ?? "internal"),
                                  "message": .string(response.error?.message ?? "")]),
            ])))
        }
        guard response.ok else {
            if !json { Output.error(response.error?.message ?? "previewd refused the command") }
            throw ExitCode(1)
        }
        if !json { Output.print(try human(response.result ?? .null)) }
    }
}
