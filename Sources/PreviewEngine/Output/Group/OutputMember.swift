import PreviewCore

/// One configured output of an `OutputGroup`: its id (the order `--output` gave it, as MPD numbers
/// its configured outputs), its name, its MPD plugin name, its device, and what its device pulls
/// from. While it keeps the clock its pulls go through to the sequencer (`OutputGroup.pullAsClock`);
/// as a follower it plays a copy of the clock's frames from its own bounded queue, converted to its
/// format where it takes another, so a slow or lost follower drops or underruns alone and never
/// holds the clock up.
///
/// Every field below `device` is guarded by the device's lock (`device.withLock`), which the
/// device's thread holds whenever it calls the `OutputSource` members.
public final class OutputMember: OutputSource, @unchecked Sendable {
    /// MPD's `outputid`: the position in the order given.
    public let id: Int
    /// MPD's `outputname` (`name=`, else the `--output` value); the saved state keeps its switch by it.
    public let name: String
    /// MPD's `plugin` (`pulse`, `alsa`, `fifo`, `snapcast`, `httpd`).
    public let plugin: String
    /// Paced by a sound card (a candidate to keep the clock before the real-time ones).
    public let playsToDevice: Bool
    /// A stream listeners open (MPD's httpd), not sound in the room: "here only" leaves it sounding.
    public var servesListeners: Bool { plugin == "httpd" }
    /// The device.
    public let device: any AudioOutput
    unowned let group: OutputGroup

    /// Fed with the group's frames (MPD's `outputenabled`).
    var enabled = true
    /// False from a loss to the restoration.
    var reachable = true
    /// A follower told to pause while frames were queued: it plays them, then pauses.
    var pausing = false
    /// Frames a follower lost because its queue was full (it was slower than the clock).
    var dropped = 0
    private let converter: RateConverter?
    private let queue: UnsafeMutablePointer<Float>
    private let capacity: Int
    private var head = 0
    private(set) var queued = 0

    init(id: Int, name: String, plugin: String, playsToDevice: Bool, device: any AudioOutput, group: OutputGroup,
         sequencerFormat: PCMFormat, queueMilliseconds: Int) throws(OutputValueError) {
        self.id = id
        self.name = name
        self.plugin = plugin
        self.playsToDevice = playsToDevice
        self.device = device
        self.group = group
        if device.format == sequencerFormat {
            converter = nil
        } else {
            guard let made = RateConverter(from: sequencerFormat, to: device.format) else {
                throw OutputValueError("output \(name): cannot convert \(sequencerFormat) to \(device.format)")
            }
            converter = made
        }
        capacity = device.format.frames(milliseconds: queueMilliseconds)
        queue = .allocate(capacity: capacity * device.format.channels)
    }

    deinit { queue.deallocate() }

    /// True when the device takes the sequencer's format (it may keep the clock).
    var takesSequencerFormat: Bool { converter == nil }

    // MARK: OutputSource (device lock held)

    public var hasFeed: Bool { queued > 0 || (group.isClock(self) && group.source?.hasFeed ?? false) }

    public var expectsFrames: Bool { queued > 0 || (group.isClock(self) && group.source?.expectsFrames ?? false) }

    /// A follower reads its queue; the clock too, first (what it had queued as a follower), then
    /// pulls from the sequencer.
    public func pull(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let got = read(into: destination, frames: frames)
        if group.isClock(self) {
            return got + (got < frames ? group.pullAsClock(into: destination + got * device.format.channels, frames: frames - got) : 0)
        }
        if queued == 0, pausing {
            pausing = false
            device.setPaused(true)
        }
        return got
    }

    public func outputLost(_ why: String) {
        let first = reachable
        reachable = false
        if group.isClock(self) { group.clockLost(self, why) } else if first { forget() }
    }

    public func outputRestored() {
        let wasLost = !reachable
        reachable = true
        if group.isClock(self) { group.source?.outputRestored() } else if wasLost { forget() }
    }

    // MARK: The follower's queue (device lock held)

    /// Takes a copy of the clock's `frames` frames: converted, queued, and the device kicked when
    /// it had nothing; what does not fit is dropped (a follower slower than the clock loses frames,
    /// it never slows the clock).
    func receive(_ source: UnsafePointer<Float>, frames: Int) {
        guard enabled else { return }
        let wasEmpty = queued == 0
        if let converter {
            var done = 0
            while done < frames {
                let chunk = min(frames - done, RateConverter.chunkFrames)
                let n = converter.convert(source + done * converter.from.channels, frames: chunk)
                write(converter.scratch, frames: n)
                done += chunk
            }
        } else {
            write(source, frames: frames)
        }
        if wasEmpty, queued > 0 { device.kick() }
    }

    /// Drops what is queued and what the device holds (a skip, a stop, a loss, a disable).
    func forget() {
        head = 0
        queued = 0
        pausing = false
        converter?.reset()
    }

    private func write(_ source: UnsafePointer<Float>, frames: Int) {
        let channels = device.format.channels
        let n = min(frames, capacity - queued)
        dropped += frames - n
        var at = (head + queued) % capacity
        var left = n
        var from = source
        while left > 0 {
            let run = min(left, capacity - at)
            (queue + at * channels).update(from: from, count: run * channels)
            from += run * channels
            left -= run
            at = (at + run) % capacity
        }
        queued += n
    }

    private func read(into destination: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        let channels = device.format.channels
        let n = min(frames, queued)
        var left = n
        var to = destination
        while left > 0 {
            let run = min(left, capacity - head)
            to.update(from: queue + head * channels, count: run * channels)
            to += run * channels
            left -= run
            head = (head + run) % capacity
        }
        queued -= n
        if queued == 0 { head = 0 }
        return n
    }
}
