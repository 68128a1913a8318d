import PreviewCore
import XCTest

/// The verbs MPD's clients needed, as the core decides them: swap, priority in a shuffled order,
/// the output made silent with its clock running, normalisation switched at run time, and
/// clearing the errors so a failed item may be tried again.
final class PlayerCoreMPDVerbsTests: XCTestCase {
    private let tracks = (0..<6).map { (i: Int) in Track(trackId: i, previewUrl: "https://example.com/\(i).m4a") }

    /// A core playing item 1 of six, its audio heard.
    private func playing() -> PlayerCore {
        var core = PlayerCore()
        _ = core.replaceQueue(with: tracks, play: true)
        _ = core.handle(.ready(core.current!.id, containerMs: 30_000))
        return core
    }

    func testSwapIsOneChangeAndTheCurrentTrackPlaysOn() throws {
        var core = playing()
        let version = core.queue.version
        let effects = try core.swap(.index(0), .id(4))
        XCTAssertEqual(core.queue.ids, [4, 2, 3, 1, 5, 6])
        XCTAssertEqual(core.queue.version, version + 1)
        XCTAssertTrue(PlayerCoreVocabularyTests.events(effects).contains(.queue(length: 6, version: version + 1)))
        XCTAssertEqual(core.transport.state, .playing(item: 1))
        XCTAssertThrowsError(try core.swap(.index(0), .index(9)))
    }

    func testPriorityOrdersWhatAShufflePlaysNext() throws {
        var core = playing()
        _ = try core.apply(.setShuffle(true, seed: 7))
        let following = try XCTUnwrap(core.transport.following(in: core.queue))
        let other = try XCTUnwrap(core.queue.ids.first { $0 != 1 && $0 != following })
        let version = core.queue.version
        _ = try core.setPriority(3, of: [.id(other)])
        XCTAssertEqual(core.transport.following(in: core.queue), other, "the higher priority plays next")
        XCTAssertEqual(core.queue[id: other]?.priority, 3)
        XCTAssertEqual(core.queue.version, version + 1, "a change clients see (plchanges)")
        XCTAssertEqual(core.queue.changes(since: version).map(\.item.id), [other])
        _ = try core.setPriority(5, of: [.id(following)])
        XCTAssertEqual(core.transport.following(in: core.queue), following)
        XCTAssertTrue(try core.setPriority(5, of: [.id(following)]).isEmpty, "no change, nothing to do")
        XCTAssertThrowsError(try core.setPriority(256, of: [.id(1)]))
    }

    func testADisabledOutputIsSilentTheClockRunsAndTheVolumeIsKept() throws {
        var core = playing()
        _ = core.changeVolume(.set(40))
        XCTAssertEqual(core.setOutput(enabled: false), [.setOutputs([false]), .setVolume(40, muted: true), .notify(.outputEnabled(false, id: 0))])
        XCTAssertEqual(core.transport.state, .playing(item: 1), "the clock runs")
        XCTAssertEqual(core.changeVolume(.set(50)), [.setVolume(50, muted: true), .notify(.volume(50, muted: false))], "still silent")
        XCTAssertEqual(core.setOutput(enabled: nil), [.setOutputs([true]), .setVolume(50, muted: false), .notify(.outputEnabled(true, id: 0))],
                       "toggled back")
        XCTAssertTrue(core.setOutput(enabled: true).isEmpty)
        XCTAssertFalse(core.muted)
        // Disabled, the output lost and back (a sound server's restart): it stays silent.
        _ = core.setOutput(enabled: false)
        _ = core.handle(.outputLost("gone", heardMs: 700))
        XCTAssertTrue(core.handle(.outputBack).contains(.setVolume(50, muted: true)))
    }

    /// Several outputs: one switched off leaves the sound on; the last one off silences the clock's.
    func testEachOutputSwitchesAloneAndTheLastOffSilences() throws {
        var core = playing()
        core.configureOutputs(2)
        XCTAssertEqual(try core.setOutput(id: 1, enabled: false), [.setOutputs([true, false]), .notify(.outputEnabled(false, id: 1))])
        XCTAssertEqual(try core.setOutput(id: 0, enabled: nil),
                       [.setOutputs([false, false]), .setVolume(100, muted: true), .notify(.outputEnabled(false, id: 0))])
        XCTAssertEqual(core.setOutput(enabled: true),
                       [.setOutputs([true, true]), .setVolume(100, muted: false), .notify(.outputEnabled(true, id: 0)), .notify(.outputEnabled(true, id: 1))])
        XCTAssertThrowsError(try core.setOutput(id: 2, enabled: true)) { error in
            XCTAssertEqual((error as? ControlError)?.message, "no output 2 (there are 2)")
        }
    }

    func testPriorityInQueueOrderKeepsTheNeighbours() throws {
        var core = playing()
        let effects = try core.setPriority(9, of: [.index(4)])
        XCTAssertFalse(effects.contains { if case .cancelSlot = $0 { true } else { false } }, "nothing that plays changed: \(effects)")
    }

    func testNormalisationSwitchedOffAndOnRegainsTheHeldTracks() throws {
        var core = playing()
        let id = core.current!.id
        let off = core.setNormalization(.off)
        XCTAssertEqual(core.policy.normalization.mode, .off)
        XCTAssertTrue(off.contains(.setGain(id, .off, smoothly: true)), "\(off)")
        XCTAssertEqual(PlayerCoreVocabularyTests.events(off).last, .normalization(.off))
        XCTAssertTrue(core.setNormalization(.off).isEmpty)
        let on = core.setNormalization(.track)
        XCTAssertTrue(on.contains { if case .setGain(id, let gain, true) = $0 { gain != .off } else { false } }, "\(on)")
    }

    func testClearErrorForgetsTheFailuresSoTheyMayBeTriedAgain() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: Array(tracks.prefix(1)), play: true)
        _ = core.handle(.failed(core.current!.id, "404", afterMs: 0))
        XCTAssertNotNil(core.queue[id: 1]?.failure)
        XCTAssertNotNil(core.lastError)
        _ = core.clearError()
        XCTAssertNil(core.queue[id: 1]?.failure)
        XCTAssertNil(core.lastError)
        XCTAssertNoThrow(try core.play(nil), "play tries it again")
    }
}
