import PreviewCore

/// previewd's options that belong to outputs, as given on the command line; each `OutputRegistry`
/// entry reads the ones it takes and refuses the others.
public struct OutputOptions: Sendable {
    /// `--output`: which output, and where (`pulse`, `alsa:DEVICE`, `snapcast://HOST:PORT`, `pipe:PATH`,
    /// `http://HOST:PORT/NAME.mp3`), without its settings.
    public var output: String
    /// The pairs after the value (`--output pulse,sink=foo,name=Speakers`): this output's own options
    /// (`OutputOptions+Settings.swift`).
    public var settings: [String: String] = [:]
    /// `--sink`: the PulseAudio sink to play on.
    public var sink: String?
    /// `--pulse-server`: the PulseAudio server.
    public var pulseServer: String?
    /// `--latency-ms`: the output's latency target.
    public var latencyMs: Int
    /// `--alsa-mixer`: the ALSA mixer control that sets the volume (else it is applied to the samples).
    public var alsaMixer: String?
    /// `--alsa-format`: RATE:BITS:CHANNELS asked of the ALSA device.
    public var alsaFormat: String?

    /// Options as given; the defaults are previewd's.
    public init(output: String = "pulse", sink: String? = nil, pulseServer: String? = nil, latencyMs: Int = 100,
                alsaMixer: String? = nil, alsaFormat: String? = nil, settings: [String: String] = [:]) {
        self.output = output
        self.sink = sink
        self.pulseServer = pulseServer
        self.latencyMs = latencyMs
        self.alsaMixer = alsaMixer
        self.alsaFormat = alsaFormat
        self.settings = settings
    }

    /// Throws when PulseAudio's own options were given (for every output but pulse).
    public func refusePulseOptions() throws(OutputValueError) {
        if sink != nil || pulseServer != nil { throw OutputValueError("--sink and --pulse-server apply to --output pulse only") }
    }

    /// Throws when ALSA's own options were given (for every output but alsa).
    public func refuseALSAOptions() throws(OutputValueError) {
        if alsaMixer != nil || alsaFormat != nil { throw OutputValueError("--alsa-mixer and --alsa-format apply to --output alsa only") }
    }
}
