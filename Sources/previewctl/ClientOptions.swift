import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PreviewCore

/// Flags every previewctl command takes.
struct ClientOptions: ParsableArguments {
    @Option(help: "The control socket (default: $XDG_RUNTIME_DIR/previewd.sock).")
    var socket: String?

    @Flag(help: "Print the daemon's answer as JSON.")
    var json = false

    /// What these flags ask for, outside ArgumentParser's property wrappers.
    var invocation: Invocation { Invocation(socket: socket, json: json) }

    /// Sends `command` to previewd and prints the answer (see `Invocation.run`).
    func run(_ command: ControlCommand, human: (JSONValue) throws -> String) throws {
        try invocation.run(command, human: human)
    }

    /// Sends `command` and prints the answer, its result decoded as `Report` (see `Invocation.run`).
    func run<Report: Decodable>(_ command: ControlCommand, as: Report.Type, human: (Report) -> String,
                                nothingDone: (Report) -> String? = { _ in nil }) throws {
        try invocation.run(command, as: Report.self, human: human, nothingDone: nothingDone)
    }

    /// Sends a plain command and prints the answer.
    func run(_ command: PlainCommand) throws {
        try command.run(invocation)
    }

    /// Subscribes and prints every event (see `Invocation.watch`).
    func watch(position: Bool) throws {
        try invocation.watch(position: position)
    }
}
