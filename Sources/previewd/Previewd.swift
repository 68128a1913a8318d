import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PreviewCore
import PreviewEngine

/// The previewd daemon: runs in the foreground, logs to stderr, serves the control socket until
/// SIGTERM or SIGINT, then stops playback and removes its socket.
@main
struct Previewd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "previewd",
        abstract: "Headless player of iTunes Store previews, steered with previewctl.",
        discussion: """
            Searches the iTunes Search API, queues the 30-second previews, streams and decodes them \
            in memory and plays them through PulseAudio (or PipeWire, Snapcast, a FIFO), each at one gain that evens out loudness. \
            Control it with previewctl. It logs to stderr and runs until SIGTERM or SIGINT.

            Exit status: 0 after SIGTERM or SIGINT; 1 it could not start (the ALSA device does not exist, another previewd answers on \
            the socket, the socket's folder is unsafe, the cache folder is unusable, or systemd passed \
            an unusable socket); 64 bad usage.

            Files: the control socket $XDG_RUNTIME_DIR/previewd.sock (else \
            /tmp/previewd-UID/previewd.sock), or --socket PATH, or the one systemd passes \
            (previewd.socket); with --cache-dir DIR, the previews played (named by the SHA-256 of \
            their URL) and loudness.tsv (the loudness measured, by trackId) in DIR; the artwork fetched in \
            $XDG_CACHE_HOME/previewd/artwork (or --artwork-dir).

            Environment: XDG_RUNTIME_DIR (the socket's folder); DBUS_SESSION_BUS_ADDRESS (the session \
            bus MPRIS2 is offered on, unless --no-mpris); XDG_CACHE_HOME (artwork); PULSE_SERVER (the PulseAudio server, \
            unless --pulse-server); LISTEN_FDS and LISTEN_PID (socket activation, as sd_listen_fds \
            reads them); JOURNAL_STREAM (under systemd, log lines carry syslog priorities instead of \
            times). An --on-event program gets previewd's environment plus PREVIEWD_EVENT (track, \
            state or error), PREVIEWD_INDEX, PREVIEWD_TITLE, PREVIEWD_ARTIST, PREVIEWD_ALBUM, \
            PREVIEWD_TRACK_ID, PREVIEWD_STATE, PREVIEWD_URL (the store page), PREVIEWD_PREVIEW_URL, \
            PREVIEWD_ARTWORK_URL, PREVIEWD_DURATION_MS (the preview's length), PREVIEWD_SONG_MS (the \
            song's) and PREVIEWD_MESSAGE (an error's).

            Examples:
              previewd
              previewd --search "jack johnson"
              previewd --sink alsa_output.usb --api-base http://127.0.0.1:8080
              previewd --pulse-server tcp:192.168.1.20:4713
              previewd --output snapcast://127.0.0.1:4953
              previewd --output pipe:/tmp/snapfifo
              previewd --output alsa:hw:1,0 --alsa-mixer PCM
              previewd --output http://127.0.0.1:8000/previewd.mp3,bitrate=192
              previewd --on-event ~/.config/previewd/notify
              systemctl --user enable --now previewd.socket
            """,
        version: PreviewVersion.string)

    @Option(help: "The control socket (default: $XDG_RUNTIME_DIR/previewd.sock).")
    var socket: String?

    @Option(help: "Root of the iTunes Search API.")
    var apiBase: String = Self.applesAPI

    /// Apple's iTunes Search API, the default --api-base.
    static let applesAPI = "https://itunes.apple.com"

    @Option(help: ArgumentHelp("Root of Apple's marketing-tools RSS, where the top-songs chart's current (v2) form is asked when the legacy feed fails (default: Apple's, or --api-base when that is given).", valueName: "URL"))
    var chartBase: String?

    @Option(help: "Storefront, an ISO 3166-1 two-letter country code (US, GB, JP…).")
    var country: String = "US"

    @Option(help: ArgumentHelp("Where the sound goes: pulse (PulseAudio, or PipeWire through pipewire-pulse; the default), alsa[:DEVICE] (an ALSA device, default: default), snapcast://HOST[:PORT] (a snapserver tcp source in server mode; port 4953 by default) or pipe:PATH (a FIFO, e.g. snapserver's pipe source), the last two carrying s16le 48 kHz stereo; or http://HOST:PORT/NAME.mp3 (or .ogg, .opus: Opus) for an HTTP stream any player can open, as MPD's httpd output. Repeat it to play to several at once (ids 0, 1… in the order given); each may carry its own options after commas: name=NAME (MPD's outputname) for all, sink= and server= for pulse, mixer= and format= for alsa, bitrate=KBIT, listeners=N (16) and secret=TEXT (needed beyond loopback; generated and kept in the config folder when not given) for http, as in --output pulse,sink=NAME,name=Speakers. Previews are decoded at the rate the first device output takes (PulseAudio: the sink's; ALSA: the device's, 44.1 kHz preferred), so one at that rate is not resampled; an output at another rate gets converted copies.",
                               valueName: "OUTPUT[,KEY=VALUE]..."))
    var output: [String] = []

    @Option(help: "PulseAudio sink to play on (default: the server's default sink).")
    var sink: String?

    @Option(help: "PulseAudio server, e.g. unix:/run/user/1000/pulse/native or tcp:HOST:PORT (default: libpulse's usual places, e.g. PULSE_SERVER).")
    var pulseServer: String?

    @Option(help: ArgumentHelp("The ALSA mixer control that sets the volume (e.g. PCM, Master); without it, --output alsa scales the samples.", valueName: "CONTROL"))
    var alsaMixer: String?

    @Option(help: ArgumentHelp("What --output alsa asks of the device, as RATE:BITS:CHANNELS, any part * (the device's choice, 44.1 kHz and stereo preferred); BITS 16, 24 (3 bytes), 32 or f.", valueName: "FORMAT"))
    var alsaFormat: String?

    @Option(help: "Output latency target in milliseconds (PulseAudio's buffer, ALSA's device buffer; for snapcast and pipe, the most previewd hands over ahead of real time, 3/4 of it).")
    var latencyMs: Int = 100

    @Option(help: "Tracks after the current one fetched and decoded ahead.")
    var prefetchAhead: Int = 1

    @Option(help: "Tracks before the current one fetched and decoded ahead (so prev is instant).")
    var prefetchBehind: Int = 1

    @Option(help: "Memory budget in MiB for the previews held (current and prefetched, then the heads).")
    var prefetchMemory: Int = 16

    @Option(help: "Results of the latest answer, and queue items around the current one, whose first seconds are fetched ahead of a tap (0: none, today's traffic on a metered network).")
    var prefetchHeads: Int = 8

    @Option(help: "Seconds a preview's whole download may take before its track fails (a server that trickles bytes).")
    var previewTimeout: Int = 90

    @Option(help: ArgumentHelp("Seconds a page playing the queue itself (previewd-web's Play here) may say nothing, no report and no audio request, while it plays before it is taken for gone: playback pauses, the box's outputs back at the position the page reached. Longer than a preview by default: a locked phone still fetches each next track.",
                               valueName: "S"))
    var pageSilence: Double = Double(PageClaim.silenceLimitMs) / 1000

    @Option(help: "Keep played previews in this folder so a replay costs no download (off by default).")
    var cacheDir: String?

    @Option(help: "Size of the disk cache in MiB.")
    var cacheSize: Int = 200

    @Option(help: "Even out loudness: track (each preview measured, EBU R128, and played at one gain that brings it to the target) or off.")
    var normalize: LoudnessNormalization.Mode = .track

    @Option(help: ArgumentHelp("The loudness every track is brought to, in LUFS; the gain keeps the true peak at or below -1 dBTP.",
                               valueName: "LUFS"))
    var loudnessTarget: Double = LoudnessNormalization.defaultTargetLUFS

    @Option(help: ArgumentHelp("Overlap consecutive tracks by SECONDS (0–15) at the end of each, with an equal-power fade; 0: the gapless join (default: as saved, else 0).",
                               valueName: "SECONDS"))
    var crossfade: Int?

    @Option(help: ArgumentHelp("Run PROGRAM on each track change, state change and error, the details in PREVIEWD_* environment variables (never in arguments: no shell, no injection).",
                               valueName: "PROGRAM"))
    var onEvent: String?

    @Option(help: "Seconds an --on-event run may take before it is ended.")
    var onEventTimeout: Double = 10

    @Flag(help: "Do not appear on the session bus as an MPRIS2 player (media keys, desktop media controls, playerctl).")
    var noMpris = false

    @Option(name: .customLong("mpd"), help: ArgumentHelp("Serve MPD's protocol (mpc, ncmpcpp, phone apps) on a socket PATH or on HOST:PORT (TCP); repeatable; default $XDG_RUNTIME_DIR/previewd/mpd.sock; off: not at all. Beyond loopback only with --mpd-password.", valueName: "ADDRESS"))
    var mpd: [String] = []

    @Option(help: ArgumentHelp("The password MPD clients must give (MPD's password command) before more than ping.", valueName: "SECRET"))
    var mpdPassword: String?

    @Option(help: ArgumentHelp("Keep fetched artwork here (default: $XDG_CACHE_HOME/previewd/artwork).", valueName: "DIR"))
    var artworkDir: String?

    @Option(help: ArgumentHelp("Keep the state (the queue, where playback was, volume, modes) and the history here, restored paused at start (default: $XDG_STATE_HOME/previewd).",
                               valueName: "DIR"))
    var stateDir: String?

    @Flag(help: "Keep no state and no history: start with an empty queue and write nothing there (saved lists stay).")
    var noState = false

    @Option(help: "Search for this at start and play the results (the saved queue is not restored).")
    var search: String?

    @Flag(help: "When playback reaches the last two tracks of a search's results, queue the next page.")
    var autopage = false

    @Option(help: "Catalog calls allowed per minute (Apple allows about 20).")
    var rateLimit: Int = 20

    @Option(help: "Seconds a catalog answer is reused for the same query (0: never).")
    var catalogCacheSeconds: Int = 300

    @Option(help: "Seconds a catalog call may take.")
    var catalogTimeout: Int = 10

    @Option(help: ArgumentHelp("Seconds an idle connection to the API, the preview or the artwork host is kept for the next request (0: closed at once, and nothing is connected ahead of need).",
                               valueName: "SECONDS"))
    var keepWarm: Int = 120

    @Option(help: ArgumentHelp("Where previews usually come from, connected while the first search is in flight (default: Apple's preview CDN for Apple's API, else the API's own host); later, the host of the last results' previews.",
                               valueName: "URL"))
    var previewHost: String?

    @Option(help: ArgumentHelp("Trust the certificate authorities in PATH (PEM) besides the system's: a company's TLS proxy, a private mirror.",
                               valueName: "PATH"))
    var caFile: String?

    @Option(help: "Least important log lines shown: debug, info, warning or error.")
    var logLevel: LogLevelName = .info

    @Flag(help: "Same as --log-level debug.")
    var verbose = false

    func validate() throws {
        guard let url = URL(string: apiBase), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ValidationError("--api-base must be an http or https URL (got \(apiBase))")
        }
        if let chartBase, URL(string: chartBase).map({ ["http", "https"].contains($0.scheme?.lowercased() ?? "") && $0.host != nil }) != true {
            throw ValidationError("--chart-base must be an http or https URL (got \(chartBase))")
        }
        guard CountryCode.isValid(country) else {
            throw ValidationError("--" + CountryCode.problem(country))
        }
        let outputs: [OutputOptions]
        do throws(OutputValueError) { outputs = try outputOptions() } catch { throw ValidationError(error.description) }
        if let problem = OutputRegistry.problem(with: outputs) { throw ValidationError(problem) }
        guard (0...8).contains(prefetchAhead), (0...8).contains(prefetchBehind) else {
            throw ValidationError("--prefetch-ahead and --prefetch-behind must be 0–8")
        }
        guard (2...1024).contains(prefetchMemory) else { throw ValidationError("--prefetch-memory must be 2–1024 MiB") }
        guard (0...50).contains(prefetchHeads) else { throw ValidationError("--prefetch-heads must be 0–50") }
        guard (1...100_000).contains(cacheSize) else { throw ValidationError("--cache-size must be 1–100000 MiB") }
        if let crossfade, !PlayerCore.crossfadeRange.contains(crossfade) { throw ValidationError("--crossfade must be 0–15 seconds") }
        guard (1...600).contains(rateLimit) else { throw ValidationError("--rate-limit must be 1–600 calls a minute") }
        guard (0...86_400).contains(catalogCacheSeconds) else { throw ValidationError("--catalog-cache-seconds must be 0–86400") }
        guard (1...120).contains(catalogTimeout) else { throw ValidationError("--catalog-timeout must be 1–120 s") }
        if let previewHost, WarmPathsCore.origin(of: previewHost) == nil {
            throw ValidationError("--preview-host must be an http or https URL (got \(previewHost))")
        }
        guard (0...3600).contains(keepWarm) else { throw ValidationError("--keep-warm must be 0–3600 s") }
        if let caFile, let problem = HTTPClientSettings.problem(caFile: caFile) { throw ValidationError("--ca-file \(caFile): \(problem)") }
        guard (1...3600).contains(previewTimeout) else { throw ValidationError("--preview-timeout must be 1–3600 s") }
        guard (Double(PageClaim.silenceFloorMs) / 1000...3600).contains(pageSilence) else {
            throw ValidationError("--page-silence must be \(PageClaim.silenceFloorMs / 1000)–3600 s")
        }
        guard (-40...(-5)).contains(loudnessTarget) else { throw ValidationError("--loudness-target must be -40 to -5 LUFS") }
        guard (0.1...3600).contains(onEventTimeout) else { throw ValidationError("--on-event-timeout must be 0.1–3600 s") }
        if let onEvent, onEvent.isEmpty { throw ValidationError("--on-event needs a program") }
        do throws(FrontEndError) { _ = try MPDListenPlan(values: mpd, password: mpdPassword) } catch { throw ValidationError(error.message) }
    }

    func run() throws {
        // Before any thread starts: the signals arrive on the engine loop, every thread blocks them.
        guard let termination = TerminationSignals() else { throw ExitCode(1) }
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)   // a file-size limit fails a write (EFBIG, told and retried), it does not kill previewd
        MemoryTrim.unmapLargeBuffersOnFree()
        let log = Log(minimum: verbose ? .debug : logLevel.level)
        FFmpegLog.install(log)
        StartTimeline.install(log)   // a start's steps at debug level
        // Socket activation: systemd (previewd.socket, or systemd-socket-activate) made the socket.
        let handover = SocketActivation.handover()
        var path = socket ?? SocketPath.defaultPath()
        if case .socket(_, let bound?) = handover { path = bound }
        if case .none = handover {
            do throws(ListenerError) { try Listener.checkNotServed(path) } catch {
                log(.error, error.message)
                throw ExitCode(1)
            }
        }
        let audio: OutputSequencer
        do throws(OutputValueError) { audio = try OutputRegistry.makeSequencer(try outputOptions()) } catch {
            log(.error, "cannot start the output: \(error)")
            throw ExitCode(1)
        }
        log(.info, "output \(output.isEmpty ? "pulse" : output.joined(separator: " + ")): \(audio.format)")
        for member in (audio.output as? OutputGroup)?.members ?? [] {
            if let stream = member.device as? HTTPStreamOutput { log(.info, "stream \(stream.name): \(stream.url)") }
        }
        var policy = FetchPolicy()
        policy.prefetchAhead = prefetchAhead
        policy.prefetchBehind = prefetchBehind
        policy.memoryBudget = prefetchMemory << 20
        policy.prefetchHeads = prefetchHeads
        policy.downloadDeadline = Double(previewTimeout)
        if let cacheDir {
            do {
                policy.cache = try PreviewCache(directory: URL(fileURLWithPath: cacheDir), maxBytes: cacheSize << 20)
            } catch {
                log(.error, "cannot use --cache-dir \(cacheDir): \(error)")
                throw ExitCode(1)
            }
        }
        // One network thread, one connection cache, one DNS and TLS session cache for the catalog,
        // the previews and the artwork; the next host's connection opened while waiting for the last.
        let http = HTTPClient(settings: HTTPClientSettings(keepWarmSeconds: Double(keepWarm), caFile: caFile))
        let warm = WarmPaths(apiBase: apiBase, previewHost: previewHost, http: http, localOrigin: PreviewURLPolicy.origin(of: apiBase))
        // The v2 chart lives on Apple's marketing-tools host; a stand-in given as --api-base serves both.
        let charts = chartBase ?? (URL(string: apiBase)?.host == URL(string: Self.applesAPI)?.host ? "https://rss.applemarketingtools.com" : apiBase)
        let catalog = ITunesClient(base: URL(string: apiBase)!, chartBase: URL(string: charts), country: country.uppercased(), timeout: Double(catalogTimeout),
                                   callsPerMinute: rateLimit, cacheSeconds: Double(catalogCacheSeconds), http: http, warm: warm)
        let fetcher = PreviewFetcher(stallTimeout: policy.stallTimeout, deadline: policy.downloadDeadline,
                                     localOrigin: PreviewURLPolicy.origin(of: apiBase), http: http, warm: warm)
        var artwork: ArtworkStore?
        if let folder = artworkDir ?? ArtworkStore.defaultDirectory() {
            do { artwork = try ArtworkStore(directory: folder, http: http, localOrigin: PreviewURLPolicy.origin(of: apiBase), log: log) }
            catch { log(.warning, "artwork off: \(error)") }
        }
        // What must not be lost: the state and history (unless --no-state), the saved lists.
        let stateFolder = noState ? nil : stateDir ?? StateFolders.state()
        let history = stateFolder.map { HistoryJournal(path: $0 + "/history.jsonl", log: log) }
        var lists: ListStore?
        if let folder = StateFolders.lists() {
            do throws(ControlError) { lists = try ListStore(folder: folder, log: log) } catch { log(.warning, "saved lists off: \(error.message)") }
        }
        let engine = Engine(log: log) { loop, events in
            Player(loop: loop, catalog: catalog, fetcher: fetcher, sequencer: audio, policy: policy,
                   normalization: LoudnessNormalization(mode: normalize, targetLUFS: loudnessTarget),
                   events: events, artwork: artwork, lists: lists, history: history, autopage: autopage,
                   crossfadeSeconds: crossfade ?? 0, pageSilenceMs: Int(pageSilence * 1000), log: log)
        }
        // The front-ends, started in this order after the player and stopped in reverse (the state
        // first: it is given back before anyone steers).
        let restoreQueue = self.search == nil   // a start-up search replaces the queue
        if let stateFolder { engine.add { StateKeeper(folder: stateFolder, restoreQueue: restoreQueue, crossfadeGiven: crossfade != nil,
                                                             history: history, engine: $0) } }
        engine.add { ControlFrontEnd(path: path, handover: handover, engine: $0) }
        if let onEvent { engine.add { EventHook(program: onEvent, engine: $0, timeout: onEventTimeout) } }
        if !noMpris { engine.add { MediaPlayerService(engine: $0) } }
        if let mpdPlan = try? MPDListenPlan(values: mpd, password: mpdPassword) { engine.add { MPDFrontEnd(plan: mpdPlan, engine: $0) } }
        do throws(FrontEndError) {
            try engine.start()
        } catch {
            log(.error, error.message)
            throw ExitCode(1)
        }
        let activated = if case .socket = handover { " (socket activation)" } else { "" }
        if case .socket = handover { warm.startedBySocket() }
        log(.info, "previewd \(PreviewVersion.string) listening on \(path)\(activated); catalog \(apiBase)")

        let (search, handle, loop) = (self.search, engine.handle, engine.loop)
        if let search {
            loop.execute {
                Task(executorPreference: loop) {
                    do throws(ControlError) { _ = try await handle.perform(.search(CatalogQuery(term: search), Enqueue())) }
                    catch { log(.warning, "start-up search failed: \(error.message)") }
                }
            }
        }
        // SIGTERM, SIGINT and MPRIS Quit end previewd the same way.
        termination.watch(on: loop) { engine.shutDown($0) }
        // The engine loop is this thread from here on: the player, the front-ends, the tasks and the signals run there.
        loop.run()
        audio.close()
    }

    /// The options `OutputRegistry` reads, one per `--output` (pulse when none is given).
    private func outputOptions() throws(OutputValueError) -> [OutputOptions] {
        try OutputRegistry.outputs(output, base: OutputOptions(sink: sink, pulseServer: pulseServer, latencyMs: latencyMs,
                                                               alsaMixer: alsaMixer, alsaFormat: alsaFormat))
    }
}

extension LoudnessNormalization.Mode: ExpressibleByArgument {}

/// `--log-level` values.
enum LogLevelName: String, ExpressibleByArgument, CaseIterable {
    case debug, info, warning, error

    var level: Log.Level {
        switch self {
        case .debug: return .debug
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }
}
