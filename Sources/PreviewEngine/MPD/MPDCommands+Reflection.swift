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

    /// `outputs`: previewd's one output, always on.
    static func outputs(_ call: MPDCall) async throws(MPDError) {
        call.response.add("outputid", 0)
        call.response.add("outputname", "previewd")
        call.response.add("plugin", "previewd")
        call.response.add("outputenabled", 1)
    }

    /// `enableoutput 0`: it is on already.
    static func enableoutput(_ call: MPDCall) async throws(MPDError) {
        guard try call.int(0) == 0 else { throw MPDError(.noExist, "No such audio output") }
    }

    /// `config`: MPD gives local clients its music folder; previewd has none to give.
    static func config(_ call: MPDCall) async throws(MPDError) {
        throw MPDError(.permission, "config: previewd has no music directory to share")
    }

    /// `binarylimit SIZE`: the largest binary chunk this client takes (at least 64, as MPD).
    static func binarylimit(_ call: MPDCall) async throws(MPDError) {
        call.session.binaryLimit = try call.int(0, in: 64...(1 << 20))
    }
}
