import PreviewCore

/// The handlers of `MPDCommandTable`, one static function per command, grouped by file:
/// `+Status`, `+Playback`, `+Queue`, `+Catalog`, `+Artwork`, `+Reflection`, `+Stored`.
public enum MPDCommands {
    /// For the commands the protocol carries out itself (idle, noidle, the command lists, close):
    /// listed in the table so `commands` shows them; never reached.
    static func handledByProtocol(_ call: MPDCall) async throws(MPDError) {
        throw MPDError(.unknown, "\"\(call.name)\" is not allowed here")
    }

    /// MPD's state name for previewd's.
    static func state(_ state: PlaybackState) -> String {
        switch state {
        case .playing, .loading: return "play"
        case .paused: return "pause"
        case .idle, .stopped: return "stop"
        }
    }
}
