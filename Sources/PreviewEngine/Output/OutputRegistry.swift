import PreviewCore

/// The outputs `--output` can name, one entry each (MPD's output plugin table, src/output/Registry.cxx;
/// librespot's `BACKENDS`). Adding an output is one file, holding the `AudioOutput` and its `Entry`,
/// and one line in `entries`.
public enum OutputRegistry {
    /// Makes an output at start, or throws why it cannot start.
    public typealias Make = @Sendable () throws(OutputValueError) -> any AudioOutput

    /// One kind of output: the `--output` values it claims, its checks and its factory.
    public struct Entry: Sendable {
        /// How `--output` spells it in the usage line ("pulse", "pipe:PATH").
        public let usage: String
        /// True when an `--output` value names this kind (it may still be malformed).
        public let claims: @Sendable (String) -> Bool
        /// Reads the options (the `--output` value it claims and those that go with it) and returns
        /// what makes the output, or throws what is wrong with them (an `OutputValueError`). Touches
        /// no device. What it returns may touch one (to learn its format) and throw why it cannot
        /// start (a device that does not exist): previewd then exits as it could not start.
        public let prepare: @Sendable (OutputOptions) throws -> Make

        /// An entry; see the properties.
        public init(usage: String, claims: @escaping @Sendable (String) -> Bool,
                    prepare: @escaping @Sendable (OutputOptions) throws -> Make) {
            self.usage = usage
            self.claims = claims
            self.prepare = prepare
        }
    }

    /// Every output, in the order the usage line lists them.
    static let entries: [Entry] = [.pulse, .alsa, .snapcast, .pipe, .http]

    /// What is wrong with `options`, as previewd prints it; nil when they may work.
    public static func problem(with options: OutputOptions) -> String? {
        do { _ = try prepare(options) } catch { return error.description }
        return nil
    }

    /// The sequencer over the output `options` name, in the format the output chose. Throws what
    /// `problem(with:)` says, or why the output cannot start.
    public static func makeSequencer(_ options: OutputOptions) throws(OutputValueError) -> OutputSequencer {
        OutputSequencer(output: try prepare(options)())
    }

    private static func prepare(_ options: OutputOptions) throws(OutputValueError) -> Make {
        guard let entry = entries.first(where: { $0.claims(options.output) }) else {
            let usages = entries.map(\.usage)
            let listed = usages.dropLast().joined(separator: ", ") + (usages.count > 1 ? " or " : "") + (usages.last ?? "")
            throw OutputValueError("--output must be \(listed) (got \(options.output))")
        }
        let make: Make
        do { make = try entry.prepare(options) } catch { throw (error as? OutputValueError) ?? OutputValueError("--output \(options.output): \(error)") }
        guard (10...2000).contains(options.latencyMs) else { throw OutputValueError("--latency-ms must be 10–2000") }
        return make
    }
}
