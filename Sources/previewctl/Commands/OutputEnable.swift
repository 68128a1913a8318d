import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl output [N] [on|off]`: output N (every output without N) sounds or stops; with
    /// every output off, the one keeping the clock plays silently, the position running.
    struct OutputEnable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "output",
            abstract: "Turn an output, or every output, on or off, playback going on (toggles when no on/off is given).",
            discussion: """
                MPD's enableoutput and disableoutput: N is an output's id (previewctl outputs lists them); without N
                it acts on every output. With every output off the position runs on, silent; volume and mute are kept.
                Examples:
                  previewctl output off
                  previewctl output 1 on
                  previewctl output
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: ArgumentHelp("An output's id (none: every output), then on or off.", valueName: "N] [on|off"))
        var words: [String] = []

        func validate() throws { _ = try request() }

        func run() throws {
            try root.options.run(try request(), as: StatusReport.self, human: Output.status)
        }

        /// `[N] [on|off]` as a request.
        private func request() throws -> ControlCommand {
            var rest = words[...]
            let id = rest.first.flatMap { Int($0) }
            if id != nil { rest = rest.dropFirst() }
            if let id, id < 0 { throw ValidationError("an output's id is 0 or more (got \(id))") }
            var state: Switch?
            if let word = rest.first {
                guard let parsed = Switch(rawValue: word) else { throw ValidationError("expected [N] [on|off] (got \(words.joined(separator: " ")))") }
                state = parsed
                rest = rest.dropFirst()
            }
            guard rest.isEmpty else { throw ValidationError("expected [N] [on|off] (got \(words.joined(separator: " ")))") }
            let enabled = state.map { $0 == .on }
            return id.map { .switchOutput(id: $0, enabled: enabled) } ?? .setOutput(enabled: enabled)
        }
    }

    /// `previewctl outputs`: every output, its id, name, kind and switch.
    struct Outputs: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the outputs: id, on or off, kind (MPD's plugin name), name; * keeps the clock.")

        @ParentCommand var root: Previewctl

        func run() throws {
            try root.options.run(.status, as: StatusReport.self, human: Output.outputs)
        }
    }
}
