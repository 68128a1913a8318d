import PreviewCore
import XCTest

/// Radio's decisions with no network or clock: when the core asks for a batch (the queue about to
/// end, radio on, nothing else extending it), what a batch picks and how many calls it makes, and an
/// hour of queue ends played through the real `PlayerCore` against a catalog in memory.
final class RadioTests: XCTestCase {
    typealias Effect = PlayerCore.Effect

    /// A catalog of `artists` artists, each with three albums of ten songs, in `genres` genres;
    /// each genre's chart is its songs in a fixed shuffled order (every artist of the genre in it).
    struct Catalog {
        var tracks: [Track] = []
        var calls: [RadioLead.Call] = []
        var offline = false

        init(artists: Int = 12, genres: Int = 3) {
            for a in 0..<artists {
                for album in 0..<3 {
                    for n in 0..<10 {
                        let id = 1_000_000 + a * 100 + album * 10 + n
                        var t = Track(trackId: id, trackName: "Song \(a)-\(album)-\(n)", artistName: "Artist \(a)",
                                      collectionName: "Album \(a)-\(album)", previewUrl: "https://audio.example/\(id).m4a")
                        t.artistId = 500 + a
                        t.collectionId = 9_000 + a * 10 + album
                        t.primaryGenreId = 20 + a % genres
                        t.primaryGenreName = "Genre \(a % genres)"
                        t.wrapperType = "track"
                        tracks.append(t)
                    }
                }
            }
        }

        /// One call's answer, counted.
        mutating func answer(_ call: RadioLead.Call) -> [Track]? {
            calls.append(call)
            guard !offline else { return nil }
            switch call {
            case .artistSongs(let id): return tracks.filter { $0.artistId == id }
            case .albumSongs(let id): return tracks.filter { $0.collectionId == id }
            case .genreChart(let id):
                var songs = tracks.filter { $0.primaryGenreId == id }
                var rng = SplitMix64(seed: UInt64(id))
                songs.shuffle(using: &rng)
                return Array(songs.prefix(25))
            }
        }
    }

    /// Runs the batch the core asked for against `catalog`, as `Player+Radio` does: the core's input,
    /// the marks, the history's window, the memory; returns the result handed back.
    @discardableResult
    static func runBatch(_ core: inout PlayerCore, _ catalog: inout Catalog, marked: [Track], heard: [Int], memory: inout [Int: Track]) -> RadioPicker.Result {
        var input = core.radioInput()
        input.marked = marked
        input.excluded.formUnion(heard.suffix(RadioState.historyWindow))
        input.memory = Array(memory.values).sorted { $0.trackId! < $1.trackId! }
        var picker = RadioPicker(input)
        while let call = picker.nextCall() {
            if let answer = catalog.answer(call) {
                for t in answer { memory[t.trackId!] = t }
                picker.answered(call, tracks: answer)
            } else {
                picker.failed(call, "offline")
            }
        }
        let result = picker.result
        _ = core.radioEnded(result)
        return result
    }

    private func asksRadio(_ effects: [Effect]) -> Bool { effects.contains(.fetchRadio) }

    /// A core playing the first of `tracks`.
    private func playing(_ tracks: [Track]) -> (PlayerCore, [Effect]) {
        var core = PlayerCore()
        let effects = core.replaceQueue(with: tracks, play: true)
        return (core, effects)
    }

    func testNothingIsAskedWhileRadioIsOffAndABatchIsAskedOnTheLastTwoTracksWhenOn() throws {
        let catalog = Catalog()
        var (core, effects) = playing(Array(catalog.tracks.prefix(3)))
        var all = effects
        for _ in 0..<2 { all += try core.apply(.next) }
        XCTAssertFalse(asksRadio(all), "radio off: no batch, at any position")
        XCTAssertFalse(core.radio.on)

        (core, effects) = playing(Array(catalog.tracks.prefix(3)))
        XCTAssertFalse(asksRadio(core.setRadio(true)), "on the first of three: not yet")
        XCTAssertTrue(asksRadio(try core.apply(.next)), "on the second of three: the queue is about to end")
        XCTAssertEqual(core.radio.phase, .asking)
        XCTAssertFalse(asksRadio(try core.apply(.next)), "one batch at a time")
    }

    func testRepeatSingleAndAPageStillToComeLeaveTheQueueAsItIs() throws {
        let catalog = Catalog()
        var (core, _) = playing(Array(catalog.tracks.prefix(2)))
        _ = try core.apply(.setRepeat(.all))
        XCTAssertFalse(asksRadio(core.setRadio(true)), "repeat all: the queue does not end")
        XCTAssertFalse(asksRadio(try core.apply(.setRepeat(.one))))
        XCTAssertFalse(asksRadio(try core.apply(.setSingle(.on))))
        XCTAssertTrue(asksRadio(try core.apply(.setRepeat(.off)) + core.apply(.setSingle(.off))), "back to a queue that ends")

        var paged = PlayerCore(policy: { var p = PlayerCore.Policy(); p.autopage = true; return p }())
        _ = try paged.place(Array(catalog.tracks.prefix(2)), at: nil, play: true, morePages: true)
        let first = paged.setRadio(true)
        XCTAssertTrue(first.contains(.fetchNextPage), "the search's next page comes first")
        XCTAssertFalse(asksRadio(first))
        paged.pageEnded(morePages: false)
        XCTAssertTrue(asksRadio(paged.settleRadio()), "radio once the pages are exhausted")
    }

    func testABatchAppendsWithReasonsAndTheFollowerIsTheFirstPick() throws {
        var catalog = Catalog()
        var (core, _) = playing([catalog.tracks[0]])
        var memory: [Int: Track] = [:]
        XCTAssertTrue(asksRadio(core.setRadio(true)))
        let result = Self.runBatch(&core, &catalog, marked: [catalog.tracks[0]], heard: [], memory: &memory)
        XCTAssertEqual(result.outcome, .found)
        XCTAssertEqual(result.calls.first, .artistSongs(500), "the marked track's artist first")
        XCTAssertLessThanOrEqual(result.calls.count, 2)
        XCTAssertEqual(core.queue.count, 1 + result.picks.count)
        XCTAssertEqual(core.queue.items[1].reason?.text, "radio: more from Artist 0, whose Song 0-0-0 you marked")
        XCTAssertNil(core.queue.items[0].reason, "the listener's own track has none")
        XCTAssertFalse(core.queue.items.dropFirst().contains { $0.track.trackId == catalog.tracks[0].trackId }, "never a queued track")
        // The next radio track is prefetched as any neighbour, ready to follow without a gap.
        _ = core.handle(.downloadEnded(url: catalog.tracks[0].previewUrl!, complete: true))
        XCTAssertEqual(core.prefetched[core.queue.items[1].id]?.item, core.queue.items[1].id)
    }

    func testATrackQueuedWhileTheBatchWasChosenIsNotAddedTwice() throws {
        var catalog = Catalog()
        var (core, _) = playing([catalog.tracks[0]])
        _ = core.setRadio(true)
        var picker = RadioPicker(core.radioInput())
        let call = try XCTUnwrap(picker.nextCall())
        picker.answered(call, tracks: try XCTUnwrap(catalog.answer(call)))
        let result = picker.result
        let first = try XCTUnwrap(result.picks.first?.track)
        _ = try core.place([first], at: .end, play: false, morePages: nil)   // the listener added it meanwhile
        _ = core.radioEnded(result)
        XCTAssertEqual(core.queue.items.filter { $0.track.trackId == first.trackId }.count, 1)
        XCTAssertEqual(core.queue.count, 1 + result.picks.count, "the others appended")
    }

    func testOfflineTheQueueEndsAsWithoutRadioAndRadioTriesAgainAtTheNextEnd() throws {
        var catalog = Catalog()
        catalog.offline = true
        var (core, _) = playing([catalog.tracks[0]])
        var memory: [Int: Track] = [:]
        _ = core.setRadio(true)
        let failed = Self.runBatch(&core, &catalog, marked: [], heard: [], memory: &memory)
        XCTAssertEqual(failed.outcome, .unavailable("offline"))
        XCTAssertEqual(failed.calls.count, 1, "no second call once the catalog failed")
        XCTAssertEqual(core.queue.count, 1, "the queue ends as it would")
        XCTAssertNotNil(core.radio.note)
        XCTAssertFalse(asksRadio(try core.seek(.absolute(ms: 1000), heardMs: 0)), "not again before the end")
        _ = try core.apply(.stop)   // the queue ended
        catalog.offline = false
        XCTAssertTrue(asksRadio(try core.play(nil)), "the next end asks again")
        XCTAssertEqual(Self.runBatch(&core, &catalog, marked: [], heard: [], memory: &memory).outcome, .found)
    }

    /// A catalog that failed on the second-to-last track is asked again once the last one plays:
    /// a short outage costs one try, not the rest of the session; and nothing is asked while
    /// playback waits for the network (the catalog would not answer either).
    func testAFailedBatchIsAskedAgainOnTheNextTrackAndNeverDuringAHold() throws {
        var catalog = Catalog()
        catalog.offline = true
        var (core, _) = playing(Array(catalog.tracks.prefix(2)))
        var memory: [Int: Track] = [:]
        XCTAssertTrue(asksRadio(core.setRadio(true)), "on the first of two")
        XCTAssertEqual(Self.runBatch(&core, &catalog, marked: [], heard: [], memory: &memory).outcome, .unavailable("offline"))
        XCTAssertFalse(asksRadio(try core.seek(.absolute(ms: 1000), heardMs: 0)), "not again on the same track")
        catalog.offline = false
        XCTAssertTrue(asksRadio(try core.apply(.next)), "the last track: asked again")
        XCTAssertEqual(Self.runBatch(&core, &catalog, marked: [], heard: [], memory: &memory).outcome, .found)

        var (held, _) = playing(Array(catalog.tracks.prefix(2)))
        _ = held.handle(.unreachable(try XCTUnwrap(held.current).id, NetworkTrouble(host: "127.0.0.1:1", service: .previews, cause: "connection refused")))
        XCTAssertNotNil(held.hold.waiting)
        XCTAssertFalse(asksRadio(held.setRadio(true)), "playback waits for the network: no batch")
    }

    func testABatchThatFindsNothingNewWidensToTheGenreChartThenSaysSoAndStops() throws {
        var catalog = Catalog(artists: 1, genres: 1)
        catalog.tracks = Array(catalog.tracks.prefix(3))   // one artist, one album, three songs: all queued
        var (core, _) = playing(catalog.tracks)
        var memory: [Int: Track] = [:]
        _ = core.setRadio(true)
        _ = try core.apply(.next)
        let result = Self.runBatch(&core, &catalog, marked: [], heard: [], memory: &memory)
        XCTAssertEqual(result.calls, [.artistSongs(500), .genreChart(20)], "nothing from the artist: widened to the chart")
        XCTAssertEqual(result.outcome, .nothingNew(widenedTo: "Genre 0"))
        XCTAssertEqual(core.radio.note, "radio: nothing new found, even in the Genre 0 chart; stopped until the queue changes")
        XCTAssertFalse(asksRadio(try core.apply(.next)), "stopped")
    }

    func testAQuickSkipCountsAgainstItsLeadAndMovesItBack() throws {
        var catalog = Catalog()
        var (core, _) = playing([catalog.tracks[0], catalog.tracks[30]])
        var memory: [Int: Track] = [:]
        _ = core.setRadio(true)
        Self.runBatch(&core, &catalog, marked: [catalog.tracks[0]], heard: [], memory: &memory)
        _ = try core.apply(.next)
        _ = try core.apply(.next)   // the first radio track
        let key = try XCTUnwrap(core.queue[id: core.transport.item!]?.reason?.key)
        core.noteSkip(heardMs: 3_000)
        core.noteSkip(heardMs: 12_000)   // past 10 s: not a quick skip
        XCTAssertEqual(core.radio.skips, [key: 1])
        var input = RadioPicker.Input()
        input.marked = [catalog.tracks[0]]
        input.played = [catalog.tracks[30]]
        input.skips = [key: 1]
        XCTAssertEqual(RadioPicker(input).leads.first?.key, "artist:501", "the skipped marked artist steps behind the played one")
        input.skips = [key: 3]
        XCTAssertFalse(RadioPicker(input).leads.contains { $0.key == key }, "three quick skips: no longer followed")
    }

    /// The target: an hour of 30-second previews played through the core with radio on,
    /// the listener marking every fifth radio track and skipping every seventh within 10 s.
    func testAnHourOfQueueEndsHasNoRepeatNoRunOfThreeAndAtMostTwoCallsPerBatch() throws {
        var catalog = Catalog()
        var (core, _) = playing([catalog.tracks[0], catalog.tracks[30]])   // two artists, two genres
        var memory: [Int: Track] = [:]
        var marked: [Track] = []
        var heard: [Int] = []
        var artists: [String] = []
        var batches: [RadioPicker.Result] = []
        var reasons: [String: Int] = [:]
        var texts: [String] = []
        var radioHeard = 0
        var ms = 0
        if core.setRadio(true).contains(.fetchRadio) {
            batches.append(Self.runBatch(&core, &catalog, marked: marked, heard: heard, memory: &memory))
        }
        while ms < 3_600_000 {
            XCTAssertTrue(core.transport.isActive, "the queue ended at \(ms / 1000) s: \(batches.map(\.outcome))")
            guard core.transport.isActive, let item = core.transport.item else { break }
            let entry = try XCTUnwrap(core.queue[id: item])
            heard.append(entry.track.trackId!)
            artists.append(entry.track.artistName!)
            if let reason = entry.reason {
                radioHeard += 1
                if !texts.contains(reason.text) { texts.append(reason.text) }
                reasons[String(reason.text.prefix { $0 != "," })] = (reasons[String(reason.text.prefix { $0 != "," })] ?? 0) + 1
                if radioHeard % 5 == 0 { marked.insert(entry.track, at: 0) }
            }
            let quick = radioHeard % 7 == 0 && entry.reason != nil
            ms += quick ? 4_000 : 30_000
            if quick { core.noteSkip(heardMs: 4_000) }
            let effects = try core.apply(.next)
            if effects.contains(.fetchRadio) {
                batches.append(Self.runBatch(&core, &catalog, marked: marked, heard: heard, memory: &memory))
            }
        }
        let window = RadioState.historyWindow
        let repeats = heard.indices.filter { i in heard[max(0, i - window)..<i].contains(heard[i]) }.count
        let runs = artists.indices.dropFirst(2).filter { artists[$0] == artists[$0 - 1] && artists[$0] == artists[$0 - 2] }.count
        let callsPerBatch = batches.map(\.calls.count)
        let summary = "\(heard.count) previews, \(radioHeard) from radio, \(batches.count) batches, \(catalog.calls.count) calls "
            + "(per batch: max \(callsPerBatch.max() ?? 0), \(callsPerBatch.filter { $0 == 0 }.count) with none), "
            + "\(repeats) repeats within \(window), \(runs) runs of three, skips \(core.radio.skips), reasons \(reasons.sorted { $0.key < $1.key })"
        print("radio hour: " + summary)
        let examples = ["you marked", "you played", "from the album", "chart", "more Genre"].compactMap { kind in texts.first { $0.contains(kind) } }
        print("radio hour: \(texts.count) different reasons, one of each kind: \(examples)")
        XCTAssertEqual(examples.count, 5, "every kind of reason shown: \(texts)")
        XCTAssertGreaterThan(radioHeard, 100, summary)
        XCTAssertEqual(repeats, 0, summary)
        XCTAssertEqual(runs, 0, summary)
        XCTAssertLessThanOrEqual(callsPerBatch.max() ?? 0, 2, summary)
        XCTAssertTrue(batches.allSatisfy { $0.outcome == .found }, summary)
    }
}
