import PreviewCore

extension MPDCommands {
    static func ping(_ call: MPDCall) async throws(MPDError) {}

    /// `commands`: what this client may run, from the table.
    static func commands(_ call: MPDCall) async throws(MPDError) {
        for command in MPDCommandTable.all where call.session.may(command.permission) { call.response.add("command", command.name) }
    }

    /// `notcommands`: what it may not (yet: before the password).
    static func notcommands(_ call: MPDCall) async throws(MPDError) {
        for command in MPDCommandTable.all where !call.session.may(command.permission) { call.response.add("command", command.name) }
    }

    /// `password SECRET`.
    static func password(_ call: MPDCall) async throws(MPDError) {
        guard let secret = call.server.password, call.argument(0) == secret else {
            throw MPDError(.password, "incorrect password")
        }
        call.session.authorized = true
    }

    /// `tagtypes` lists the client's tags; `all`, `clear`, `enable TAG…`, `disable TAG…`, `reset TAG…` change them.
    static func tagtypes(_ call: MPDCall) async throws(MPDError) {
        guard let sub = call.argument(0)?.lowercased() else {
            for tag in MPDTag.allCases where call.session.tags.contains(tag) { call.response.add("tagtype", tag.rawValue) }
            return
        }
        var tags: [MPDTag] = []
        for name in call.arguments.dropFirst() {
            if let tag = MPDTag(named: name) { tags.append(tag); continue }
            guard MPDTag.mpdNames.contains(name.lowercased()) else { throw MPDError(.arg, "Unknown tag type: \(name.prefix(64))") }
        }
        switch sub {
        case "all": call.session.tags = Set(MPDTag.allCases)
        case "clear": call.session.tags = []
        case "enable", "disable", "reset":
            guard call.arguments.count > 1 || sub == "reset" else { throw MPDError(.arg, "Not enough arguments") }
            switch sub {
            case "enable": call.session.tags.formUnion(tags)
            case "disable": call.session.tags.subtract(tags)
            default: call.session.tags = Set(tags)
            }
        default: throw MPDError(.arg, "Unknown sub command")
        }
    }

    /// `urlhandlers`: what `add` takes.
    static func urlhandlers(_ call: MPDCall) async throws(MPDError) {
        for scheme in ["http://", "https://", "itunes:"] { call.response.add("handler", scheme) }
    }

    /// `decoders`: FFmpeg, for the previews' formats.
    static func decoders(_ call: MPDCall) async throws(MPDError) {
        call.response.add("plugin", "ffmpeg")
        for suffix in ["m4a", "mp4", "aac", "mp3"] { call.response.add("suffix", suffix) }
        for mime in ["audio/mp4", "audio/aac", "audio/mpeg"] { call.response.add("mime_type", mime) }
    }

    /// `outputs`: every output in the order `--output` gave them, with MPD's attributes in MPD
    /// 0.23's order (src/command/OutputCommands.cxx: `outputid`, `outputname`, `plugin`,
    /// `outputenabled`); previewd's outputs have no runtime attributes, so no `attribute:` lines.
    static func outputs(_ call: MPDCall) async throws(MPDError) {
        for output in call.status().outputs {
            call.response.add("outputid", output.id)
            call.response.add("outputname", output.name)
            call.response.add("plugin", output.plugin)
            call.response.add("outputenabled", output.enabled ? 1 : 0)
        }
    }

    /// `enableoutput N`, `disableoutput N`, `toggleoutput N`: the engine's `output` for that id;
    /// the others play on.
    static func enableoutput(_ call: MPDCall) async throws(MPDError) { try await setOutput(call, true) }
    static func disableoutput(_ call: MPDCall) async throws(MPDError) { try await setOutput(call, false) }
    static func toggleoutput(_ call: MPDCall) async throws(MPDError) { try await setOutput(call, nil) }

    /// `outputset N NAME VALUE`: MPD sets a plugin's runtime attribute (ALSA's `dop`,
    /// `allowed_formats`); previewd's outputs have none, so the answer is MPD's for an output
    /// without that attribute, after the same check of the id.
    static func outputset(_ call: MPDCall) async throws(MPDError) {
        _ = try output(call)
        throw MPDError(.arg, "Unsupported attribute")
    }

    private static func setOutput(_ call: MPDCall, _ enabled: Bool?) async throws(MPDError) {
        _ = try await call.perform(.switchOutput(id: try output(call), enabled: enabled))
    }

    /// The output named by the first argument, or MPD's `No such audio output`.
    private static func output(_ call: MPDCall) throws(MPDError) -> Int {
        let id = try call.int(0, in: 0...Int(UInt32.max))
        guard call.status().outputs.contains(where: { $0.id == id }) else { throw MPDError(.noExist, "No such audio output") }
        return id
    }

    /// `listpartitions`: previewd is one player, MPD's `default` partition (ncmpc's outputs page asks).
    static func listpartitions(_ call: MPDCall) async throws(MPDError) {
        call.response.add("partition", "default")
    }

    /// `partition NAME`: only `default` exists.
    static func partition(_ call: MPDCall) async throws(MPDError) {
        guard call.argument(0) == "default" else { throw MPDError(.noExist, "partition does not exist") }
    }

    /// `config`: MPD gives local clients its music folder; previewd has none to give.
    static func config(_ call: MPDCall) async throws(MPDError) {
        throw MPDError(.permission, "config: previewd has no music directory to share")
    }

    /// `binarylimit SIZE`: the largest binary chunk this client takes: 64 bytes to MPD's output
    /// buffer (8 MiB) less 4 KiB, with MPD's words (src/command/ClientCommands.cxx).
    static func binarylimit(_ call: MPDCall) async throws(MPDError) {
        let most = (8 << 20) - 4096
        guard let text = call.argument(0), let value = UInt64(text) else { throw MPDError(.arg, "Integer expected: \((call.argument(0) ?? "").prefix(32))") }
        guard value <= most else { throw MPDError(.arg, "Number too large: \(text.prefix(32))") }
        guard value >= 64 else { throw MPDError(.arg, "Value too small") }
        call.session.binaryLimit = Int(value)
    }
}
