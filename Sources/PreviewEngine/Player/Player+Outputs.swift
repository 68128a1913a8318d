import PreviewCore

/// The outputs as the player lists them (`status`' `outputs`, MPD's `outputs`) and switches them.
extension Player {
    /// The outputs behind the sequencer, when it feeds a group (previewd always does; a test's
    /// sequencer over one `MemoryOutput` has none, and lists one output).
    nonisolated var outputGroup: OutputGroup? { sequencer.output as? OutputGroup }

    /// Every output with its switch from the core; the clock's marked.
    func outputReports() -> [OutputReport] {
        guard let group = outputGroup else {
            return [OutputReport(id: 0, name: "previewd", plugin: "previewd", enabled: core.outputEnabled, clock: true)]
        }
        let clock = group.clock
        return group.members.map { member in
            OutputReport(id: member.id, name: member.name, plugin: member.plugin,
                         enabled: core.output.switches.indices.contains(member.id) ? core.output.switches[member.id] : true,
                         clock: member === clock)
        }
    }
}
