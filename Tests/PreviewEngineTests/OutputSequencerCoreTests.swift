import PreviewCore
@testable import PreviewEngine
import XCTest

/// Every input of the output sequencer's state machine in every state it can be in, from a written
/// table: no device, no thread, no clock. Feeds are mono rings of known values; the ramp is 4
/// frames. A row names the state before (a setup), the input, the state after and the actions in
/// order; `OutputSequencerTests`, `RampTests` and `CrossfadeTests` check the frames heard.
final class OutputSequencerCoreTests: XCTestCase {
    private static let ramp = 4
    private let rampScratch = UnsafeMutablePointer<Float>.allocate(capacity: 4)
    private let overlapScratch = UnsafeMutablePointer<Float>.allocate(capacity: OutputSequencerCore.overlapChunkFrames)
    private let format = PCMFormat(sampleRate: 48_000, channels: 1)

    deinit {
        rampScratch.deallocate()
        overlapScratch.deallocate()
    }

    /// Feeds 1, 2 and 3: 64 frames each, finished; 1 keeps 16 frames of history for rewinds.
    private final class Feeds {
        let one: PCMRing, two: PCMRing, three: PCMRing
        init(format: PCMFormat) {
            func ring(_ id: UInt64, _ value: Float) -> PCMRing {
                let ring = PCMRing(id: id, format: format, capacityFrames: 256, historyFrames: 16)
                let values = [Float](repeating: value, count: 64)
                _ = values.withUnsafeBufferPointer { ring.write($0.baseAddress!, frames: 64) }
                ring.finish()
                return ring
            }
            one = ring(1, 0.5)
            two = ring(2, 0.25)
            three = ring(3, 0.125)
        }
    }

    private func machine() -> OutputSequencerCore {
        OutputSequencerCore(rampFrames: Self.ramp, channels: 1, rampScratch: rampScratch, overlapScratch: overlapScratch)
    }

    /// Pulls `frames` frames; returns how many came, with the actions.
    @discardableResult
    private func pull(_ m: inout OutputSequencerCore, _ frames: Int, _ actions: inout [String]) -> Int {
        var buffer = [Float](repeating: 0, count: frames)
        var out: [SequencerAction] = []
        let got = buffer.withUnsafeMutableBufferPointer {
            m.pull(into: $0.baseAddress!, frames: frames, watch: { _ in true }, &out)
        }
        actions += out.map(Self.describe)
        return got
    }

    /// The states the table starts from, each reached through the machine's own inputs.
    private func setups(_ f: Feeds) -> [(String, () -> OutputSequencerCore)] {
        var ignored: [String] = []
        return [
            ("idle", { self.machine() }),
            ("playing", {
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 16, &ignored)
                return m
            }),
            ("paused", {
                var m = self.machine()
                _ = m.play(f.one, paused: true, cancellable: { 0 })
                return m
            }),
            ("drained", {
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 64, &ignored)
                self.pull(&m, 8, &ignored)   // the drain is seen
                return m
            }),
            ("skipping", {   // 1's fade-out over 2's onset
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 16, &ignored)
                _ = m.play(f.two, paused: false, cancellable: { 0 })
                return m
            }),
            ("pausing", {   // 1's fade-out before the device pauses
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 16, &ignored)
                _ = m.pause(cancellable: { 0 })
                return m
            }),
            ("stopping", {
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 16, &ignored)
                _ = m.stop(cancellable: { 0 })
                return m
            }),
            ("overlapping", {   // 1 under 2 (a crossfade of 16 frames)
                var m = self.machine()
                m.crossfadeFrames = 16
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                _ = m.enqueue(f.two)
                self.pull(&m, 52, &ignored)
                return m
            }),
            ("lost", {
                var m = self.machine()
                _ = m.play(f.one, paused: false, cancellable: { 0 })
                self.pull(&m, 16, &ignored)
                _ = m.outputLost("gone", delay: { 4 })
                return m
            }),
        ]
    }

    /// The inputs, each applied to every setup.
    private func inputs(_ f: Feeds) -> [(String, (inout OutputSequencerCore, inout [String]) -> Void)] {
        func run(_ actions: [SequencerAction], _ into: inout [String]) { into += actions.map(Self.describe) }
        return [
            ("play 3", { m, a in run(m.play(f.three, paused: false, cancellable: { 2 }), &a) }),
            ("play 3 paused", { m, a in run(m.play(f.three, paused: true, cancellable: { 2 }), &a) }),
            ("play 1", { m, a in run(m.play(f.one, paused: false, cancellable: { 2 }), &a) }),
            ("enqueue 3", { m, a in run(m.enqueue(f.three), &a) }),
            ("enqueue nil", { m, a in run(m.enqueue(nil), &a) }),
            ("pause", { m, a in run(m.pause(cancellable: { 2 }), &a) }),
            ("resume", { m, a in run(m.resume(), &a) }),
            ("stop", { m, a in run(m.stop(cancellable: { 2 }), &a) }),
            ("fade and stop", { m, a in run(m.fadeOutAndStop(frames: 8, then: {}, cancellable: { 2 }), &a) }),
            ("lost", { m, a in run(m.outputLost("away", delay: { 2 }), &a) }),
            ("restored", { m, a in run(m.outputRestored(), &a) }),
            ("readable 1", { m, a in run(m.feedBecameReadable(ObjectIdentifier(f.one)), &a) }),
            ("pull 8", { m, a in self.pull(&m, 8, &a) }),
        ]
    }

    /// Every (state, input) pair: the state after and the actions, as written in `expected`.
    func testEveryInputInEveryState() {
        var seen: [String] = []
        var failures = 0
        let count = (setups(Feeds(format: format)).count, inputs(Feeds(format: format)).count)
        for setup in 0..<count.0 {
            for input in 0..<count.1 {
                let f = Feeds(format: format)   // fresh rings for each row
                let (setupName, start) = setups(f)[setup]
                let (inputName, apply) = inputs(f)[input]
                var m = start()
                var actions: [String] = []
                apply(&m, &actions)
                let row = "\(setupName) | \(inputName) -> \(Self.describe(m)) | \(actions.joined(separator: ", "))"
                    .trimmingCharacters(in: .whitespaces)
                seen.append(row)
                if !expected.contains(row) {
                    failures += 1
                    XCTFail("unexpected: \(row)")
                }
            }
        }
        if failures > 0 { print(seen.joined(separator: "\n")) }
        XCTAssertEqual(seen.count, expected.count, "a row for each pair")
    }

    /// A pause's cancel takes back the frames the device would drop before the device's delay says
    /// it holds fewer (PulseAudio's, until its next timing update): what was heard stays heard, so a
    /// pause never answers an earlier position than the status before it (issue 55: 2017 → 1960 ms).
    func testAPauseNeverMovesTheHeardPositionBack() {
        let f = Feeds(format: format)
        var m = machine()
        var ignored: [String] = []
        _ = m.play(f.one, paused: false, cancellable: { 0 })
        pull(&m, 16, &ignored)
        XCTAssertEqual(m.heardFrames(delay: { 4 }), 12)
        _ = m.pause(cancellable: { 4 })   // 4 frames dropped and rewound: taken is 12
        XCTAssertEqual(m.heardFrames(delay: { 4 }), 12, "the stale delay counts the dropped frames twice")
        XCTAssertEqual(m.heardFrames(delay: { 0 }), 12, "then the device says it holds nothing")
        _ = m.play(f.two, paused: false, cancellable: { 0 })
        XCTAssertEqual(m.heardFrames(delay: { 0 }), 0, "a new feed counts from its start")
    }

    /// A state in a few words: the case, the current feed and what surrounds it.
    static func describe(_ m: OutputSequencerCore) -> String {
        var text: String
        switch m.state {
        case .idle(let queued):
            text = "idle" + (queued.map { " queued \($0.id)" } ?? "")
        case .active(let a):
            text = "active \(a.current.feed.id)" + (a.paused ? " paused" : "")
            if a.current.supply != .flowing { text += " \(a.current.supply)" }
            if let q = a.queued { text += " queued \(q.id)" }
            if let fade = a.fadeOut { text += " fading \(fade.feed.id)→\(describe(fade.then))" }
            if let o = a.overlap { text += " over \(o.outgoing.id)" }
        case .stopping(let s):
            text = "stopping \(s.fadeOut.feed.id)→\(describe(s.fadeOut.then))" + (s.paused ? "" : " resumed")
            if let q = s.queued { text += " queued \(q.id)" }
            if let o = s.overlap { text += " over \(o.outgoing.id)" }
        }
        if case .lost = m.link { text += ", lost" }
        return text
    }

    static func describe(_ end: OutputSequencerCore.FadeEnd) -> String {
        switch end {
        case .goOn: "on"
        case .pause: "pause"
        case .stop: "stop"
        }
    }

    static func describe(_ action: SequencerAction) -> String {
        switch action {
        case .cancel: "cancel"
        case .kick: "kick"
        case .setPaused(let paused): paused ? "pause device" : "unpause device"
        case .whenHeard: "when heard"
        case .dropWhenHeard: "drop when heard"
        case .call: "call"
        case .report(let event): "\(event)"
        }
    }

    /// Read and checked by hand, row by row, against the sequencer's documented behaviour.
    private let expected: Set<String> = [
        "idle | play 3 -> active 3 | kick, unpause device",
        "idle | play 3 paused -> active 3 paused | kick, pause device",
        "idle | play 1 -> active 1 | kick, unpause device",
        "idle | enqueue 3 -> idle queued 3 |",
        "idle | enqueue nil -> idle |",
        "idle | pause -> idle | pause device",
        "idle | resume -> idle | unpause device",
        "idle | stop -> idle | cancel, pause device",
        "idle | fade and stop -> idle | cancel, pause device, call",
        "idle | lost -> idle, lost | lost(\"away\", heardFrames: 0)",
        "idle | restored -> idle |",
        "idle | readable 1 -> idle |",
        "idle | pull 8 -> idle |",
        "playing | play 3 -> active 3 fading 1→on | cancel, kick, unpause device",
        "playing | play 3 paused -> active 3 paused fading 1→pause | cancel, kick",
        "playing | play 1 -> active 1 | kick, unpause device",
        "playing | enqueue 3 -> active 1 queued 3 |",
        "playing | enqueue nil -> active 1 |",
        "playing | pause -> active 1 paused fading 1→pause | cancel, kick",
        "playing | resume -> active 1 | kick, unpause device",
        "playing | stop -> stopping 1→stop | cancel, kick",
        "playing | fade and stop -> stopping 1→stop | cancel, kick",
        "playing | lost -> idle, lost | lost(\"away\", heardFrames: 14)",
        "playing | restored -> active 1 |",
        "playing | readable 1 -> active 1 | kick",
        "playing | pull 8 -> active 1 |",
        "paused | play 3 -> active 3 | cancel, kick, unpause device",
        "paused | play 3 paused -> active 3 paused | cancel, kick, pause device",
        "paused | play 1 -> active 1 | kick, unpause device",
        "paused | enqueue 3 -> active 1 paused queued 3 |",
        "paused | enqueue nil -> active 1 paused |",
        "paused | pause -> active 1 paused | pause device",
        "paused | resume -> active 1 | kick, unpause device",
        "paused | stop -> idle | cancel, pause device",
        "paused | fade and stop -> idle | cancel, pause device, call",
        "paused | lost -> idle, lost | lost(\"away\", heardFrames: 0)",
        "paused | restored -> active 1 paused |",
        "paused | readable 1 -> active 1 paused | kick",
        "paused | pull 8 -> active 1 paused |",
        "drained | play 3 -> active 3 | kick, unpause device",
        "drained | play 3 paused -> active 3 paused | kick, pause device",
        "drained | play 1 -> active 1 drained | kick, unpause device",
        "drained | enqueue 3 -> active 1 drained queued 3 | kick",
        "drained | enqueue nil -> active 1 drained |",
        "drained | pause -> active 1 paused drained | pause device",
        "drained | resume -> active 1 drained | kick, unpause device",
        "drained | stop -> idle | pause device, drop when heard",
        "drained | fade and stop -> idle | cancel, pause device, call",
        "drained | lost -> idle, lost | lost(\"away\", heardFrames: 62)",
        "drained | restored -> active 1 drained |",
        "drained | readable 1 -> active 1 drained | kick",
        "drained | pull 8 -> active 1 drained |",
        "skipping | play 3 -> active 3 fading 1→on | kick, unpause device",
        "skipping | play 3 paused -> active 3 paused fading 1→pause | kick",
        "skipping | play 1 -> active 1 fading 1→on | kick, unpause device",
        "skipping | enqueue 3 -> active 2 queued 3 fading 1→on |",
        "skipping | enqueue nil -> active 2 fading 1→on |",
        "skipping | pause -> active 2 paused fading 1→pause | kick",
        "skipping | resume -> active 2 fading 1→on | kick, unpause device",
        "skipping | stop -> stopping 1→stop | kick",
        "skipping | fade and stop -> stopping 1→stop | kick",
        "skipping | lost -> idle, lost | lost(\"away\", heardFrames: 0)",
        "skipping | restored -> active 2 fading 1→on |",
        "skipping | readable 1 -> active 2 fading 1→on |",
        "skipping | pull 8 -> active 2 |",
        "pausing | play 3 -> active 3 fading 1→on | kick, unpause device",
        "pausing | play 3 paused -> active 3 paused fading 1→pause | kick",
        "pausing | play 1 -> active 1 fading 1→on | kick, unpause device",
        "pausing | enqueue 3 -> active 1 paused queued 3 fading 1→pause |",
        "pausing | enqueue nil -> active 1 paused fading 1→pause |",
        "pausing | pause -> active 1 paused fading 1→pause | pause device",
        "pausing | resume -> active 1 fading 1→on | kick, unpause device",
        "pausing | stop -> idle | cancel, pause device",
        "pausing | fade and stop -> idle | cancel, pause device, call",
        "pausing | lost -> idle, lost | lost(\"away\", heardFrames: 14)",
        "pausing | restored -> active 1 paused fading 1→pause |",
        "pausing | readable 1 -> active 1 paused fading 1→pause | kick",
        "pausing | pull 8 -> active 1 paused | pause device",
        "stopping | play 3 -> active 3 fading 1→on | kick, unpause device",
        "stopping | play 3 paused -> active 3 paused fading 1→pause | kick",
        "stopping | play 1 -> active 1 fading 1→on | kick, unpause device",
        "stopping | enqueue 3 -> stopping 1→stop queued 3 |",
        "stopping | enqueue nil -> stopping 1→stop |",
        "stopping | pause -> stopping 1→stop | pause device",
        "stopping | resume -> stopping 1→on resumed | unpause device",
        "stopping | stop -> idle | cancel, pause device",
        "stopping | fade and stop -> idle | cancel, pause device, call",
        "stopping | lost -> idle, lost | lost(\"away\", heardFrames: 0)",
        "stopping | restored -> stopping 1→stop |",
        "stopping | readable 1 -> stopping 1→stop |",
        "stopping | pull 8 -> idle | pause device",
        "overlapping | play 3 -> active 3 fading 2→on over 1 | cancel, kick, unpause device",
        "overlapping | play 3 paused -> active 3 paused fading 2→pause over 1 | cancel, kick",
        "overlapping | play 1 -> active 1 fading 2→on over 1 | cancel, kick, unpause device",
        "overlapping | enqueue 3 -> active 2 queued 3 over 1 |",
        "overlapping | enqueue nil -> active 2 over 1 |",
        "overlapping | pause -> active 2 paused fading 2→pause over 1 | cancel, kick",
        "overlapping | resume -> active 2 over 1 | kick, unpause device",
        "overlapping | stop -> stopping 2→stop over 1 | cancel, kick",
        "overlapping | fade and stop -> stopping 2→stop over 1 | cancel, kick",
        "overlapping | lost -> idle, lost | faded(1), lost(\"away\", heardFrames: 2)",
        "overlapping | restored -> active 2 over 1 |",
        "overlapping | readable 1 -> active 2 over 1 |",
        "overlapping | pull 8 -> active 2 over 1 |",
        "lost | play 3 -> active 3, lost | kick, unpause device",
        "lost | play 3 paused -> active 3 paused, lost | kick, pause device",
        "lost | play 1 -> active 1, lost | kick, unpause device",
        "lost | enqueue 3 -> idle queued 3, lost |",
        "lost | enqueue nil -> idle, lost |",
        "lost | pause -> idle, lost | pause device",
        "lost | resume -> idle, lost | unpause device",
        "lost | stop -> idle, lost | cancel, pause device",
        "lost | fade and stop -> idle, lost | cancel, pause device, call",
        "lost | lost -> idle, lost |",
        "lost | restored -> idle | restored",
        "lost | readable 1 -> idle, lost |",
        "lost | pull 8 -> idle, lost |",
    ]
}
