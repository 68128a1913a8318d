import PreviewCore
import XCTest

/// The core's side of a crossfade: the setting, and the old track's load kept while the output
/// fades it out under the next (its decoder still writes what the fade reads), let go when the
/// output is done with it or nothing will play it: every way out of an overlap, in one table.
final class PlayerCoreCrossfadeTests: XCTestCase {
    typealias Effect = PlayerCore.Effect
    private static let tracks = (0..<4).map { Track(trackId: $0, previewUrl: "https://example.com/\($0).m4a") }

    func testTheSettingIsCheckedToldAndOnlyAChangeIsCarriedOut() throws {
        var core = PlayerCore()
        XCTAssertEqual(try core.setCrossfade(3), [.setCrossfade(3), .notify(.crossfade(3))])
        XCTAssertEqual(core.crossfadeSeconds, 3)
        XCTAssertEqual(try core.setCrossfade(3), [], "no change, no event")
        XCTAssertThrowsError(try core.setCrossfade(16))
        XCTAssertThrowsError(try core.setCrossfade(-1))
        XCTAssertEqual(try core.setCrossfade(0), [.setCrossfade(0), .notify(.crossfade(0))])
    }

    func testUnderACrossfadeTheFollowerIsDecodedOnAtOnceNotParked() throws {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        _ = try core.setCrossfade(2)
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let first = core.current!
        _ = core.handle(.ready(first.id, containerMs: 30_000))
        let handed = core.handle(.downloadEnded(url: first.url, complete: true))
        let follower = try XCTUnwrap(core.follower)
        XCTAssertTrue(handed.contains(.decodeWhole(follower)), "ready for the whole fade before it begins: \(handed)")

        var gapless = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        _ = gapless.replaceQueue(with: Self.tracks, play: true)
        _ = gapless.handle(.ready(gapless.current!.id, containerMs: 30_000))
        let parked = gapless.handle(.downloadEnded(url: gapless.current!.url, complete: true))
        XCTAssertFalse(parked.contains { if case .decodeWhole = $0 { return true } else { return false } }, "0: parked after its head, as before")
        XCTAssertEqual(try gapless.setCrossfade(3), [.setCrossfade(3), .decodeWhole(gapless.follower!), .notify(.crossfade(3))],
                       "turned on with a follower already handed over")
    }

    /// A core playing track 0, track 1 its follower, `behind` tracks kept behind; then the output
    /// begins the crossfade into track 1 as `OutputSequencer` reports it.
    private func crossfading(behind: Int = 1) -> (core: PlayerCore, old: PlayerCore.Slot, new: PlayerCore.SlotID, effects: [Effect]) {
        var core = PlayerCore(policy: .init(ahead: 1, behind: behind, depthMs: 250))
        _ = core.replaceQueue(with: Self.tracks, play: true)
        let old = core.current!
        _ = core.handle(.ready(old.id, containerMs: 30_000))
        _ = core.handle(.downloadEnded(url: old.url, complete: true))
        let new = core.follower!
        _ = core.handle(.parked(new))
        let effects = core.handle(.fading(old.id)) + core.handle(.drained(old.id)) + core.handle(.started(new))
        return (core, old, new, effects)
    }

    func testTheNextTrackIsCurrentWhenTheFadeBeginsAndTheOldLoadStaysUntilItHasFaded() {
        var (core, old, new, effects) = crossfading(behind: 0)
        XCTAssertEqual(core.current?.id, new)
        XCTAssertEqual(core.fading?.id, old.id)
        XCTAssertTrue(effects.contains {
            if case .notify(.track(let index, _, _, _)) = $0 { return index == 1 } else { return false }
        }, "the track event names the next track at the fade's start: \(effects)")
        XCTAssertFalse(effects.contains(.cancelSlot(old.id)), "its decoder writes the frames the fade reads")
        XCTAssertFalse(effects.contains(.cancelDownload(url: old.url)), "nor its bytes, with nothing behind kept")
        let faded = core.handle(.faded(old.id))
        XCTAssertTrue(faded.contains(.cancelSlot(old.id)))
        XCTAssertTrue(faded.contains(.cancelDownload(url: old.url)), "with nothing behind kept, its bytes go too")
        XCTAssertNil(core.fading)
    }

    /// What each way out of an overlap does with the old load: kept (the output still fades it out
    /// and says `faded` after) or let go at once (nothing will read it again).
    func testEveryWayOutOfAnOverlapKeepsOrLetsGoTheOldLoad() throws {
        let table: [(String, (inout PlayerCore) throws -> [Effect], Bool)] = [
            ("next: the ramp fades both out, then faded", { try $0.apply(.next) }, true),
            ("prev", { try $0.apply(.prev) }, true),
            ("pause: resumed, the fade goes on", { try $0.apply(.pause) }, true),
            ("a seek in the new track", { try $0.seek(.absolute(ms: 5_000), heardMs: 0) }, true),
            ("stop", { try $0.apply(.stop) }, false),
            ("clear", { $0.clear() }, false),
            ("output lost", { $0.handle(.outputLost("gone", heardMs: 100)) }, false),
            ("faded", { core in core.handle(.faded(core.fading!.id)) }, false),
        ]
        for (name, input, kept) in table {
            var (core, old, _, _) = crossfading()
            let effects = try input(&core)
            XCTAssertEqual(!effects.contains(.cancelSlot(old.id)), kept, name)
            XCTAssertEqual(core.fading?.id, kept ? old.id : nil, name)
            if kept { XCTAssertTrue(core.handle(.faded(old.id)).contains(.cancelSlot(old.id)), name) }
        }
    }

    func testAFadeOfALoadThatIsNotCurrentChangesNothing() {
        var (core, old, new, _) = crossfading()
        XCTAssertEqual(core.handle(.fading(old.id)), [], "no longer current")
        XCTAssertEqual(core.fading?.id, old.id)
        XCTAssertEqual(core.handle(.faded(new)), [], "not the fading one")
        XCTAssertEqual(core.fading?.id, old.id)
    }
}

extension PlayerCoreCrossfadeTests {
    /// Whether a track's end can fade: only into a follower. Repeat one fades into the track's own
    /// beginning (as MPD crossfades a song into itself); single and the queue's end stop plainly.
    func testWhatEachModeFadesInto() throws {
        let table: [(String, [Transport.Input], Int?)] = [
            ("on", [], 2),
            ("repeat one: into its own beginning", [.setRepeat(.one)], 1),
            ("single: no follower, a plain end", [.setSingle(.on)], nil),
            ("the last track, repeat off: a plain end", [.play(item: 4)], nil),
            ("the last track, repeat all: into the first", [.setRepeat(.all), .play(item: 4)], 1),
        ]
        for (name, inputs, expected) in table {
            var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
            _ = try core.setCrossfade(2)
            _ = core.replaceQueue(with: Self.tracks, play: true)
            for input in inputs { _ = try core.apply(input) }
            let current = try XCTUnwrap(core.current, name)
            _ = core.handle(.ready(current.id, containerMs: 30_000))
            _ = core.handle(.downloadEnded(url: current.url, complete: true))
            let follower = core.follower.flatMap { id in core.prefetched.values.first { $0.id == id } }
            XCTAssertEqual(follower?.item, expected, name)
        }
    }
}
