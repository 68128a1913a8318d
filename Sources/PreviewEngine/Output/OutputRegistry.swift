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
        /// MPD's name for this kind of output (`plugin:` in `outputs`: "pulse", "alsa", "fifo",
        /// "snapcast", "httpd"), what MPD clients look for.
        public let mpdPlugin: String
        /// Paced by a sound card's clock (true) or by real time (a FIFO, Snapcast, a stream):
        /// which outputs keep the clock first (`OutputClock`).
        public let playsToDevice: Bool
        /// True when an `--output` value names this kind (it may still be malformed).
        public let claims: @Sendable (String) -> Bool
        /// Reads the options (the `--output` value it claims and those that go with it) and returns
        /// what makes the output, or throws what is wrong with them (an `OutputValueError`). Touches
        /// no device. What it returns may touch one (to learn its format) and throw why it cannot
        /// start (a device that does not exist): previewd then exits as it could not start.
        public let prepare: @Sendable (OutputOptions) throws -> Make

        /// An entry; see the properties.
        public init(usage: String, mpdPlugin: String, playsToDevice: Bool, claims: @escaping @Sendable (String) -> Bool,
                    prepare: @escaping @Sendable (OutputOptions) throws -> Make) {
            self.usage = usage
            self.mpdPlugin = mpdPlugin
            self.playsToDevice = playsToDevice
            self.claims = claims
            self.prepare = prepare
        }
    }

    /// Every output, in the order the usage line lists them.
    static let entries: [Entry] = [.pulse, .alsa, .snapcast, .pipe, .http]

    /// What is wrong with the outputs `list` names (one `OutputOptions` per `--output`), as
    /// previewd prints it; nil when they may work.
    public static func problem(with list: [OutputOptions]) -> String? {
        do { _ = try prepare(list) } catch { return error.description }
        return nil
    }

    /// The sequencer over every output `list` names, each fed by an `OutputGroup`, in the format
    /// of the output that keeps the clock at start. Throws what `problem(with:)` says, or why an
    /// output cannot start.
    public static func makeSequencer(_ list: [OutputOptions]) throws(OutputValueError) -> OutputSequencer {
        let prepared = try prepare(list)
        var made: [(device: any AudioOutput, name: String, plugin: String, playsToDevice: Bool)] = []
        for (options, entry, make) in prepared {
            do throws(OutputValueError) { made.append((try make(), options.name, entry.mpdPlugin, entry.playsToDevice)) } catch {
                for output in made { output.device.close() }
                throw error
            }
        }
        let latency = list.map(\.latencyMs).max() ?? 100
        return OutputSequencer(output: try OutputGroup(made, queueMilliseconds: max(250, 3 * latency)))
    }

    /// What is wrong with one output's `options`; nil when they may work.
    public static func problem(with options: OutputOptions) -> String? { problem(with: [options]) }

    /// The sequencer over the one output `options` name.
    public static func makeSequencer(_ options: OutputOptions) throws(OutputValueError) -> OutputSequencer {
        try makeSequencer([options])
    }

    /// The `--output` arguments as given (`VALUE[,key=value]...`) with today's single options
    /// (`--sink`, `--pulse-server`, `--alsa-mixer`, `--alsa-format`) given to the first output of
    /// their kind; with no output of that kind they go to the first output, whose entry refuses
    /// them as before. `base` holds those options and the latency.
    public static func outputs(_ arguments: [String], base: OutputOptions) throws(OutputValueError) -> [OutputOptions] {
        var list: [OutputOptions] = []
        for argument in arguments.isEmpty ? [base.output] : arguments {
            let (output, settings) = try OutputOptions.split(argument)
            var options = OutputOptions(output: output, latencyMs: base.latencyMs)
            options.settings = settings
            list.append(options)
        }
        let firstPulse = list.firstIndex { Entry.pulse.claims($0.output) } ?? 0
        list[firstPulse].sink = base.sink
        list[firstPulse].pulseServer = base.pulseServer
        let firstALSA = list.firstIndex { Entry.alsa.claims($0.output) } ?? 0
        list[firstALSA].alsaMixer = base.alsaMixer
        list[firstALSA].alsaFormat = base.alsaFormat
        return list
    }

    private static func prepare(_ list: [OutputOptions]) throws(OutputValueError) -> [(OutputOptions, Entry, Make)] {
        guard !list.isEmpty else { throw OutputValueError("no --output") }
        var names = Set<String>()
        var prepared: [(OutputOptions, Entry, Make)] = []
        for options in list {
            guard names.insert(options.name).inserted else {
                throw OutputValueError("two outputs are named \(options.name): give each its own with ,name=NAME")
            }
            let (entry, make) = try prepare(options)
            prepared.append((options, entry, make))
        }
        return prepared
    }

    private static func prepare(_ options: OutputOptions) throws(OutputValueError) -> (Entry, Make) {
        guard let entry = entries.first(where: { $0.claims(options.output) }) else {
            let usages = entries.map(\.usage)
            let listed = usages.dropLast().joined(separator: ", ") + (usages.count > 1 ? " or " : "") + (usages.last ?? "")
            throw OutputValueError("--output must be \(listed) (got \(options.output))")
        }
        let make: Make
        do { make = try entry.prepare(options) } catch { throw (error as? OutputValueError) ?? OutputValueError("--output \(options.output): \(error)") }
        guard (10...2000).contains(options.latencyMs) else { throw OutputValueError("--latency-ms must be 10–2000") }
        return (entry, make)
    }
}
