import CMPRIS
import CPreviewLinux
import Glibc
import PreviewCore

/// previewd on the session bus as an MPRIS2 player (`org.mpris.MediaPlayer2.previewd`), through
/// sd-bus in `CMPRIS`. sd-bus is not thread-safe, so the connection lives on a thread of its own,
/// "previewd.mpris", which sleeps in `poll` on the bus and an eventfd: it wakes when a client calls
/// or the player's state changes, never on a timer of its own. State comes in from the engine
/// (`update`); commands go out through `onCommand`, on this thread, to be handed to the player.
final class MediaPlayerBus: @unchecked Sendable {   // `inbox` locked; the rest belongs to the bus thread
    private struct Inbox {
        var state: MediaPlayerState?
        /// When the state's position was read (CLOCK_MONOTONIC ns).
        var at: UInt64 = 0
        var seeked = false
        var stopping = false
    }
    private let inbox = Locked(Inbox())
    private let wakeFD: Int32
    private let log: Log
    private let onCommand: @Sendable (MediaPlayerCommand) -> Void
    /// What the bus was last told (the thread's own).
    private var shown: MediaPlayerState?

    /// A bus connection that hands clients' commands to `onCommand`; `start` connects.
    init(log: Log, onCommand: @escaping @Sendable (MediaPlayerCommand) -> Void) {
        self.log = log
        self.onCommand = onCommand
        wakeFD = cpl_eventfd()
    }

    deinit { close(wakeFD) }

    /// Connects on the bus thread and serves until `stop`. No session bus is a log line: previewd
    /// plays on without desktop controls.
    func start(name: String = "previewd") {
        startThread(named: "previewd.mpris") { [self] in serve(name: name) }
    }

    /// The player's state changed, as read at `at` (`seeked`: its position jumped). Any thread.
    func update(_ state: MediaPlayerState, at: UInt64, seeked: Bool) {
        inbox.withLock {
            $0.state = state
            $0.at = at
            $0.seeked = $0.seeked || seeked
        }
        cpl_eventfd_signal(wakeFD)
    }

    /// Releases the name and closes the connection. Any thread.
    func stop() {
        inbox.withLock { $0.stopping = true }
        cpl_eventfd_signal(wakeFD)
    }

    // MARK: The bus thread

    private func serve(name: String) {
        var error: UnsafePointer<CChar>?
        var code: Int32 = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let bus = cmpris_open(name, { context, command, integer, real in
            let bus = Unmanaged<MediaPlayerBus>.fromOpaque(context!).takeUnretainedValue()
            if let command = MediaPlayerBus.command(command, integer, real) { bus.onCommand(command) }
        }, context, &error, &code) else {
            let why = error.map { String(cString: $0) } ?? "failed"
            log(.info, "MPRIS off: \(why) (\(String(cString: strerror(-code))))")
            return
        }
        defer { cmpris_close(bus) }
        log(.info, "MPRIS: \(String(cString: cmpris_bus_name(bus))) on the session bus")
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0), pollfd()]
        while true {
            guard cmpris_process(bus) >= 0 else {
                log(.warning, "MPRIS off: the session bus went away")
                return
            }
            var events: Int16 = 0
            var timeout: Int32 = -1
            fds[1] = pollfd(fd: cmpris_fd(bus, &events, &timeout), events: events, revents: 0)
            fds[0].revents = 0
            guard poll(&fds, 2, timeout) >= 0 || errno == EINTR else { return }
            guard fds[0].revents != 0 else { continue }
            cpl_eventfd_drain(wakeFD)
            let (state, at, seeked, stopping) = inbox.withLock { inbox in
                defer { inbox.state = nil; inbox.seeked = false }
                return (inbox.state, inbox.at, inbox.seeked, inbox.stopping)
            }
            if stopping { return }
            if let state { show(state, at: at, on: bus) }
            if seeked { cmpris_emit_seeked(bus) }
        }
    }

    /// Hands `state` to the bus, with PropertiesChanged for what differs from what it showed.
    private func show(_ state: MediaPlayerState, at: UInt64, on bus: OpaquePointer) {
        let changed = state.changedProperties(since: shown)
        shown = state
        cmpris_set_position(bus, state.positionMicroseconds, at, state.advancing ? 1 : 0)
        let m = state.metadata
        withStrings([state.playbackStatus, state.loopStatus, m.trackID, m.artURL, m.title, m.artist, m.albumArtist,
                     m.album, m.genre, m.url, m.contentCreated] + changed) { s in
            var status = cmpris_status(playback_status: s[0], loop_status: s[1], shuffle: state.shuffle ? 1 : 0,
                                       volume: state.volume, can_go_next: state.canGoNext ? 1 : 0,
                                       can_go_previous: state.canGoPrevious ? 1 : 0, can_play: state.canPlay ? 1 : 0,
                                       can_pause: state.canPause ? 1 : 0, can_seek: state.canSeek ? 1 : 0)
            var metadata = cmpris_metadata(track_id: s[2], length_us: m.lengthMicroseconds, art_url: s[3], title: s[4],
                                           artist: s[5], album_artist: s[6], album: s[7], genre: s[8], url: s[9],
                                           content_created: s[10], track_number: m.trackNumber, disc_number: m.discNumber)
            var names = Array(s[11...]) + [nil]
            let sent = cmpris_update(bus, &status, &metadata, &names)
            if sent < 0 { log(.debug, "MPRIS: PropertiesChanged not sent (\(String(cString: strerror(-sent))))") }
        }
    }

    /// The command a client's call asks for.
    private static func command(_ command: cmpris_command, _ integer: Int64, _ real: Double) -> MediaPlayerCommand? {
        switch command {
        case CMPRIS_PLAY: return .play
        case CMPRIS_PAUSE: return .pause
        case CMPRIS_PLAY_PAUSE: return .playPause
        case CMPRIS_STOP: return .stop
        case CMPRIS_NEXT: return .next
        case CMPRIS_PREVIOUS: return .previous
        case CMPRIS_SEEK: return .seek(offsetMicroseconds: integer)
        case CMPRIS_SET_POSITION: return .setPosition(microseconds: integer)
        case CMPRIS_QUIT: return .quit
        case CMPRIS_SET_LOOP: return .setLoop(integer == 1 ? .one : integer == 2 ? .all : .off)
        case CMPRIS_SET_SHUFFLE: return .setShuffle(integer != 0)
        case CMPRIS_SET_VOLUME: return .setVolume(real)
        default: return nil
        }
    }
}

/// Runs `body` with C strings for `strings` (NULL for nil), valid during the call.
private func withStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
