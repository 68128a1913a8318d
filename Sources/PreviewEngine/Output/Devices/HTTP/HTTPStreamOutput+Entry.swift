import PreviewCore

extension OutputRegistry.Entry {
    /// `--output http://HOST:PORT/NAME.mp3` (or `.ogg`, `.opus`), with `bitrate=`, `listeners=`,
    /// `name=` and `secret=`: an HTTP stream, as MPD's httpd output. Beyond loopback it serves only
    /// the secret path: the one given, else one generated once and kept (`StreamSecret`).
    static let http = OutputRegistry.Entry(usage: "http://HOST:PORT/NAME.mp3", mpdPlugin: "httpd", playsToDevice: false, claims: { $0.hasPrefix(HTTPStreamAddress.scheme) }) { options in
        try options.acceptSettings(HTTPStreamSettings.keys)
        let address = try HTTPStreamAddress(parsing: options.output)
        let given = try HTTPStreamSettings(options.settings, format: address.format)
        try options.refusePulseOptions()
        try options.refuseALSAOptions()
        let loopback = MPDListenPlan.isLoopback(host: address.host)
        let latencyMs = options.latencyMs
        return { () throws(OutputValueError) -> any AudioOutput in
            var settings = given
            var plan = HTTPStreamOutput.Plan(address: address, settings: settings)
            if !loopback {
                if settings.secret == nil { settings.secret = try StreamSecret.keep() }
                plan.settings = settings
                plan.secretPath = "/" + settings.secret! + address.path
            }
            plan.latencyMs = latencyMs
            return try HTTPStreamOutput(plan: plan, format: HTTPStreamOutput.preferredFormat)
        }
    }
}

extension HTTPStreamOutput {
    /// The rate the stream takes when it is previewd's only output: Opus's, and one MP3 has.
    static let preferredFormat = PCMFormat(sampleRate: 48_000, channels: 2)
}
