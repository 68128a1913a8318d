import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl output [on|off]`: the output sounds or plays silently, its clock running.
    struct OutputEnable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "output",
            abstract: "Make the output sound or play silently, playback going on (toggles when no argument is given).",
            discussion: """
                MPD's enableoutput and disableoutput: the position runs on while it is silent; volume and mute are kept.
                Examples:
                  previewctl output off
                  previewctl output
                """)

        @ParentCommand var root: Previewctl

        @Argument(help: "on or off.")
        var state: Switch?

        func run() throws {
            try root.options.run(.setOutput(enabled: state.map { $0 == .on }), as: StatusReport.self, human: Output.status)
        }
    }
}
