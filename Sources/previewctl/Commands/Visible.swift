import ArgumentParser
import PreviewCore

extension Previewctl {
    /// `previewctl visible [ID…]`: the tracks a screen shows, whose first seconds previewd keeps ready.
    struct Visible: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "visible",
            abstract: "Tell previewd which tracks are on screen (iTunes track ids, in screen order): it keeps their first seconds ready for a tap.",
            discussion: "With no ids, nothing is on screen: the heads of the last answer are let go.\nExamples:\n  previewctl visible 1440857781 1440818839\n  previewctl visible")
        @ParentCommand var root: Previewctl

        @Argument(help: "iTunes track ids, at most 200.")
        var ids: [Int] = []

        func validate() throws {
            guard ids.count <= 200, ids.allSatisfy({ $0 > 0 }) else { throw ValidationError("visible takes at most 200 positive track ids") }
        }

        func run() throws {
            try root.options.run(.visible(ids), as: StatusReport.self, human: Output.status)
        }
    }
}
