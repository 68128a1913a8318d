import CPreviewLinux
import Glibc
import PreviewCore

/// An HTTP stream any player can open (`--output http://127.0.0.1:8000/previewd.mp3`), as MPD's httpd
/// output: one encode (`StreamEncoder`: MP3 or Ogg Opus) for every listener, each with a bounded
/// queue of its own (`StreamClient`), ICY titles to those who ask.
///
/// One thread, "previewd.httpd", owns the listening socket, the connections and the encoder, and
/// sleeps in `poll` on them and an eventfd. While a track plays it pulls from the `OutputSequencer`
/// at real time (`PacingClock`, as the Snapcast and pipe outputs: the box may have no sound card),
/// and encodes only while someone listens. Paused or stopped with listeners, it sends silence,
/// encoded once for all, so players keep the stream (as MPD does). With nobody listening and
/// nothing playing it does not wake. The sockets are this thread's, not the engine loop's: the
/// encoded bytes are written where they are made, with no hand-over, and the loop wakes no more
/// than it did before.
///
/// Every field below `lock` is touched only holding it; the thread holds it except while it waits.
public final class HTTPStreamOutput: AudioOutput, @unchecked Sendable {
    /// What the registry entry decided from `--output`.
    public struct Plan: Sendable {
        /// Where to listen, what to serve.
        public var address: HTTPStreamAddress
        /// Bitrate, listeners, name, secret.
        public var settings: HTTPStreamSettings
        /// The path served beyond loopback (`/SECRET/NAME.mp3`); nil on loopback, where any path serves.
        public var secretPath: String?
        /// Audio handed over ahead of real time is kept between a quarter and three quarters of this.
        public var latencyMs = 100
        /// How long a listener may take to send its request head.
        public var headTimeoutSeconds = 5.0
    }

    /// MPD's name for this kind of output (`outputs`' `plugin`).
    public static let mpdPlugin = "httpd"
    /// The PCM the output takes (the engine's); the encoder converts it to what it needs.
    public let format: PCMFormat
    /// The whole URL a listener opens (with the secret beyond loopback): what `previewctl outputs` prints.
    public let url: String
    /// The output's name (`name=`, "previewd" by default).
    public var name: String { plan.settings.name }

    let plan: Plan
    let listenFD: Int32
    let isLoopback: Bool
    let hosts: StreamHostPolicy
    let encoder: StreamEncoder
    let lock = Lock()
    let wakeFD: Int32
    /// Bytes each listener's queue holds: 2 s of the stream, at least 32 KiB.
    let queueBytes: Int

    weak var source: (any OutputSource)?
    var closed = false
    var paused = true
    var clock: PacingClock
    var clients: [StreamClient] = []
    var volumePercent = 100
    var muted = false
    /// Since when the source had nothing while not paused (nil: it has): silence waits `plan.latencyMs`.
    var drySince: UInt64?
    /// The gain the last frames were encoded with (a change ramps from it).
    var appliedGain: Float = 1
    /// The ICY block for the current title, and its version (bumped on every change).
    var titleBlock = IcyMetadata.block(title: "")
    var titleVersion = 0
    let scratch: UnsafeMutablePointer<Float>
    let scratchFrames: Int

    /// Binds the listening socket and opens the encoder, or throws why the stream cannot start.
    init(plan: Plan, format: PCMFormat) throws(OutputValueError) {
        self.plan = plan
        self.format = format
        let address = plan.address
        let listener: Listener
        do throws(ListenerError) { listener = try Listener.bind(.tcp(host: address.host, port: address.port)) } catch {
            throw OutputValueError("--output \(address): \(error.message(naming: "stream"))")
        }
        do throws(FFmpegError) {
            encoder = try StreamEncoder(format: address.format, bitrate: plan.settings.bitrate, input: format)
        } catch {
            Glibc.close(listener.fd)
            throw OutputValueError("--output \(address): cannot open the encoder: \(error)")
        }
        listenFD = listener.fd
        isLoopback = listener.isLoopback
        hosts = StreamHostPolicy(host: address.host, port: address.port, loopback: listener.isLoopback, hostName: Self.hostName())
        let shownHost = ["0.0.0.0", "::"].contains(address.host) ? (Self.hostName() ?? address.host) : address.host
        let origin = shownHost.contains(":") ? "http://[\(shownHost)]:\(address.port)" : "http://\(shownHost):\(address.port)"
        url = origin + (plan.secretPath ?? address.path)
        queueBytes = max(32 << 10, plan.settings.bitrate * 1000 / 8 * 2)
        wakeFD = cpl_eventfd()
        clock = PacingClock(sampleRate: format.sampleRate, lowWaterMs: plan.latencyMs / 4, highWaterMs: plan.latencyMs * 3 / 4)
        scratchFrames = clock.highWater
        scratch = .allocate(capacity: scratchFrames * format.channels)
        startThread(named: "previewd.httpd") { [self] in serve() }
    }

    deinit {
        scratch.deallocate()
        Glibc.close(wakeFD)
    }

    public func withLock<T>(_ body: () -> T) -> T { lock.withLock(body) }

    public func attach(_ source: any OutputSource) {
        lock.withLock { self.source = source }
    }

    public func kick() {
        cpl_eventfd_signal(wakeFD)
    }

    public func setPaused(_ paused: Bool) {
        self.paused = paused
        cpl_eventfd_signal(wakeFD)
    }

    /// Nothing to drop: what was pulled was encoded and handed to the listeners at once.
    public func cancel() {}

    /// Frames handed over ahead of real time.
    public var delayFrames: Int { clock.ahead(at: MonotonicClock.nanoseconds()) }

    /// None: the encoded stream is beyond recall.
    public var cancellableFrames: Int { 0 }

    public func setVolume(_ percent: Int, muted: Bool) {
        changing {
            volumePercent = percent
            self.muted = muted
        }
    }

    /// The ICY title ("Artist - Title"), sent to listeners who asked at their next metadata block.
    public func setMetadata(title: String?, artist: String?) {
        lock.withLock {
            titleBlock = IcyMetadata.block(title: IcyMetadata.streamTitle(title: title, artist: artist))
            titleVersion += 1
        }
    }

    public func close() {
        changing { closed = true }
    }

    /// Changes state holding the lock, then wakes the thread to act on it.
    private func changing(_ body: () -> Void) {
        lock.withLock(body)
        cpl_eventfd_signal(wakeFD)
    }

    private static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
