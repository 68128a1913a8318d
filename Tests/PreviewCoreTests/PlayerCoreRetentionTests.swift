import PreviewCore
import XCTest

/// Every slot and download the core starts is let go by an effect once the core no longer holds it,
/// whatever the order of commands and engine events: the engine's tables, which only follow the
/// effects, then hold exactly what the core holds. A slot dropped without `.cancelSlot` is a load
/// (its bytes, PCM ring and decoder) the engine would keep for as long as it runs.
final class PlayerCoreRetentionTests: XCTestCase {
    typealias Effect = PlayerCore.Effect

    /// What the engine holds when it carries out the effects, as `Player` does.
    private struct EngineTables {
        var slots = Set<PlayerCore.SlotID>()
        var downloads = Set<String>()
        /// The hold's retry timers running (a timer left running is a wake-up for nothing).
        var timers = Set<NetworkHold.Timer>()

        mutating func carryOut(_ effects: [Effect]) {
            for effect in effects {
                switch effect {
                case .startSlot(let slot, _): XCTAssertTrue(slots.insert(slot.id).inserted, "slot \(slot.id) started twice")
                case .cancelSlot(let id): slots.remove(id)
                case .startDownload(let url, _): XCTAssertTrue(downloads.insert(url).inserted, "\(url) started while held: the old download would be orphaned")
                case .cancelDownload(let url): downloads.remove(url)
                case .startHead(let id, let url, _, _):
                    XCTAssertTrue(slots.insert(id).inserted, "head \(id) started twice")
                    XCTAssertTrue(downloads.insert(url).inserted, "a head of \(url) started while its preview is held")
                case .widenDownload(let url, _): XCTAssertTrue(downloads.contains(url), "\(url) widened but not held")
                case .armRetry(let timer, _): timers.insert(timer)
                case .disarmRetry(let timer): timers.remove(timer)
                default: break
                }
            }
        }
    }

    private static func tracks(_ ids: Range<Int>) -> [Track] {
        ids.map { Track(trackId: $0, previewUrl: "https://example.com/\($0 % 9).m4a") }
    }

    func testRandomCommandsAndEngineEventsLeaveNoSlotOrDownloadBehind() {
        for seed in 0..<150 {
            var random = SplitMix64(seed: UInt64(seed))   // a failing seed can be replayed
            var core = PlayerCore(policy: .init(ahead: 1 + seed % 2, behind: 1, depthMs: 250))
            var engine = EngineTables()
            for step in 0..<250 {
                engine.carryOut(Self.step(&core, &random, &engine))
                let held = Set([core.current?.id, core.fading?.id].compactMap { $0 } + core.prefetched.values.map(\.id))
                XCTAssertEqual(engine.slots, held, "seed \(seed), step \(step): slots the engine holds")
                XCTAssertEqual(engine.downloads, Set(core.downloads.keys), "seed \(seed), step \(step): downloads the engine holds")
                XCTAssertEqual(core.current != nil, core.transport.isActive, "seed \(seed), step \(step): a current load exactly while active")
                Self.checkHold(core, engine, "seed \(seed), step \(step)")
                if engine.slots != held || engine.downloads != Set(core.downloads.keys) { return }
            }
        }
    }

    func testWithHeadsEveryHeadIsAdoptedOrLetGoAndStaysWithinItsBounds() {
        var adopted = 0   // heads a load took: the case this is about
        for seed in 0..<100 {
            var random = SplitMix64(seed: UInt64(seed))
            var policy = PlayerCore.Policy(ahead: 1 + seed % 2, behind: 1, depthMs: 250)
            policy.heads = HeadPlan(perList: 1 + seed % 3, budgetBytes: (7 + seed % 4) << 20, windowLoads: 2 + seed % 2)
            var core = PlayerCore(policy: policy)
            var engine = EngineTables()
            for step in 0..<250 {
                let effects = Self.step(&core, &random, &engine)
                adopted += effects.filter { if case .widenDownload = $0 { true } else { false } }.count
                engine.carryOut(effects)
                let held = Set([core.current?.id, core.fading?.id].compactMap { $0 } + core.prefetched.values.map(\.id) + core.heads.values.map(\.id))
                let where_ = "seed \(seed), step \(step)"
                XCTAssertEqual(engine.slots, held, "\(where_): slots the engine holds")
                XCTAssertEqual(engine.downloads, Set(core.downloads.keys).union(core.heads.keys), "\(where_): downloads the engine holds")
                XCTAssertTrue(Set(core.heads.keys).isDisjoint(with: core.downloads.keys), "\(where_): a head of a preview held whole")
                XCTAssertLessThanOrEqual(core.heads.count, policy.heads.capacity, "\(where_): heads past the budget")
                XCTAssertLessThanOrEqual(core.heads.values.filter(\.fetching).count, policy.heads.maxTransfers, "\(where_): transfers")
                if engine.slots != held { return }
            }
        }
        XCTAssertGreaterThan(adopted, 100, "heads were adopted")
    }

    /// One random command or engine event, as clients and the engine could send them (with heads,
    /// also answers, visible rows, taps and the heads' own events).
    /// The hold's timers run exactly as it says (each armed one once, none while nobody listens), and
    /// a wait is only ever at the track the transport is active at.
    private static func checkHold(_ core: PlayerCore, _ engine: EngineTables, _ where_: String) {
        var armed = Set(core.hold.backoffs.filter { $0.value.timer == .armed }.map { NetworkHold.Timer.prefetch(item: $0.key) })
        if core.hold.waiting?.armed == true { armed.insert(.waiting) }
        XCTAssertEqual(engine.timers, armed, "\(where_): timers running")
        let listening: Bool
        switch core.transport.state {
        case .playing: listening = true
        case .loading(_, let autoplay): listening = autoplay
        default: listening = false
        }
        if !listening { XCTAssertEqual(engine.timers, [], "\(where_): a timer while nobody listens") }
        if let wait = core.hold.waiting {
            XCTAssertTrue(core.transport.isActive && core.transport.item == wait.item, "\(where_): a wait away from the transport's track")
        }
    }

    private static func step(_ core: inout PlayerCore, _ random: inout SplitMix64, _ engine: inout EngineTables) -> [Effect] {
        if core.policy.heads.capacity > 0, Int.random(in: 0..<3, using: &random) == 0 { return headStep(&core, &random) }
        let held = [core.current].compactMap { $0 } + core.prefetched.values.sorted { $0.id < $1.id }
        let slot = held.randomElement(using: &random)
        switch Int.random(in: 0..<26, using: &random) {
        case 0: return core.replaceQueue(with: tracks(0..<Int.random(in: 1...7, using: &random)), play: Bool.random(using: &random))
        case 1: return (try? core.place(tracks(10..<13), at: .end, play: Bool.random(using: &random), morePages: nil).effects) ?? []
        case 2: return (try? core.remove(.index(Int.random(in: 0..<8, using: &random)))) ?? []
        case 3:
            let (from, to) = (Int.random(in: 0..<8, using: &random), Int.random(in: 0..<8, using: &random))
            return (try? core.move(.index(from), to: .id(to))) ?? []
        case 4: return Int.random(in: 0..<10, using: &random) == 0 ? core.clear() : []
        case 5:
            let inputs: [Transport.Input] = [.next, .prev, .pause, .resume, .toggle, .stop, .play(item: nil),
                                             .play(item: Int.random(in: 0..<30, using: &random)), .seek(toMs: 5_000),
                                             .setRepeat([.off, .one, .all].randomElement(using: &random)!),
                                             .setShuffle(Bool.random(using: &random), seed: 7)]
            if Bool.random(using: &random) { return (try? core.seek(.absolute(ms: 29_500), heardMs: 0)) ?? [] }
            return (try? core.apply(inputs.randomElement(using: &random)!)) ?? []
        case 6, 7: return slot.map { core.handle(.ready($0.id, containerMs: 30_000)) } ?? []
        case 8: return slot.map { core.handle(.parked($0.id)) } ?? []
        case 9: return slot.map { core.handle(.finished($0.id, ms: 29_000)) } ?? []
        case 10: return slot.map { core.handle(.failed($0.id, "broken", afterMs: 0)) } ?? []
        case 11: return slot.map { core.handle(.failed($0.id, "cut off", afterMs: 1_200)) } ?? []
        case 12: return slot.map { core.handle(.drained($0.id)) } ?? []
        case 13: return slot.map { core.handle(.started($0.id)) } ?? []
        case 21:
            // A crossfade begins, as the output tells it: the old one fades, the follower starts.
            guard let current = core.current else { return [] }
            var effects = core.handle(.fading(current.id)) + core.handle(.drained(current.id))
            if let follower = core.follower { effects += core.handle(.started(follower)) }
            return effects
        case 22: return core.fading.map { core.handle(.faded($0.id)) } ?? []
        case 23:   // a host that does not answer: the network away, or only it
            let trouble = NetworkTrouble(host: "example.com:443", service: .previews, cause: "connection refused",
                                         othersAnswer: Bool.random(using: &random), atUnixMs: 1)
            return slot.map { core.handle(.unreachable($0.id, trouble)) } ?? []
        case 24:   // a running retry timer fires
            guard let timer = engine.timers.sorted(by: { "\($0)" < "\($1)" }).randomElement(using: &random) else { return [] }
            engine.timers.remove(timer)
            return core.handle(.retryDue(timer))
        case 25: return Int.random(in: 0..<4, using: &random) == 0 ? core.clearError() : []
        case 14: return slot.map { core.handle(.underrun($0.id)) } ?? []
        case 15, 16:
            guard let url = core.downloads.keys.sorted().randomElement(using: &random) else { return [] }
            return core.handle(.downloadEnded(url: url, complete: Int.random(in: 0..<4, using: &random) > 0))
        case 17: return core.handle(.outputLost("gone", heardMs: 700))
        case 18: return core.handle(.outputBack)
        case 19:
            let loudness = Loudness(integratedLUFS: -9, peakDB: -1, isWholeTrack: Bool.random(using: &random))
            if let slot, Bool.random(using: &random) { return core.handle(.estimated(slot.id, loudness)) }
            guard let url = core.downloads.keys.sorted().randomElement(using: &random) else { return [] }
            return core.handle(.measured(url: url, loudness))
        default: return slot.map { core.handle(.refilled($0.id)) } ?? []
        }
    }

    private static func headStep(_ core: inout PlayerCore, _ random: inout SplitMix64) -> [Effect] {
        let head = core.heads.sorted { $0.value.id < $1.value.id }.randomElement(using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return core.answered(tracks(Int.random(in: 0..<20, using: &random)..<20 + Int.random(in: 0..<12, using: &random)))
        case 1: return core.show(trackIds: (0..<Int.random(in: 0..<6, using: &random)).map { _ in Int.random(in: 0..<30, using: &random) })
        case 2:
            let results = tracks(Int.random(in: 0..<20, using: &random)..<26)
            return (try? core.place(results, at: nil, play: false, morePages: false, start: Int.random(in: 0..<8, using: &random)).effects) ?? []
        case 3: return head.map { core.handle(.headFetched(url: $0.key)) } ?? []
        case 4: return head.map { core.handle(.downloadEnded(url: $0.key, complete: Bool.random(using: &random))) } ?? []
        case 5: return head.map { core.handle(.parked($0.value.id)) } ?? []
        case 6: return head.map { core.handle(.ready($0.value.id, containerMs: 30_000)) } ?? []
        case 7: return head.map { core.handle(.failed($0.value.id, "past the head", afterMs: 0)) } ?? []
        default: return head.map { core.handle(.finished($0.value.id, ms: 2_000)) } ?? []
        }
    }

    func testANeighbourThatFailsIsLetGo() {
        var core = PlayerCore(policy: .init(ahead: 1, behind: 1, depthMs: 250))
        _ = core.replaceQueue(with: Self.tracks(0..<3), play: true)
        let current = core.current!.id
        _ = core.handle(.ready(current, containerMs: 30_000))
        _ = core.handle(.downloadEnded(url: core.current!.url, complete: true))
        let neighbour = core.prefetched[2]!.id
        let effects = core.handle(.failed(neighbour, "not an audio file", afterMs: 0))
        XCTAssertTrue(effects.contains(.cancelSlot(neighbour)), "its buffer and download must not outlive it: \(effects)")
        XCTAssertTrue(effects.contains(.notify(.error("track 2: not an audio file"))))
    }
}

/// Queue items keep the id they got when they entered, and every change counts in the version.
final class QueueIdentityTests: XCTestCase {
    func testIdsAreStableAcrossEditsAndNeverReused() throws {
        var core = PlayerCore()
        _ = core.replaceQueue(with: (0..<4).map { Track(trackId: $0, previewUrl: "https://e.example/\($0).m4a") }, play: false)
        XCTAssertEqual(core.queue.items.map(\.id), [1, 2, 3, 4])
        let third = core.queue.items[2].id
        _ = try core.move(.index(2), to: .index(0))
        XCTAssertEqual(core.queue.items[0].id, third, "a moved item keeps its id")
        XCTAssertEqual(core.queue.position(ofID: third), 0)
        _ = try core.remove(.index(1))
        XCTAssertThrowsError(try core.queue.id(of: .id(1))) { XCTAssertEqual(($0 as? ControlError)?.message, "no track with id 1 in the queue") }
        _ = core.replaceQueue(with: [Track(trackId: 9, previewUrl: "https://e.example/9.m4a")], play: false)
        XCTAssertEqual(core.queue.items.map(\.id), [5], "a new queue's items get new ids: none is reused")
        _ = try core.place([Track(trackId: 10, previewUrl: "https://e.example/10.m4a")], at: .end, play: false, morePages: nil)
        XCTAssertEqual(core.queue.items.map(\.id), [5, 6])
        XCTAssertThrowsError(try core.queue.id(of: .index(2))) {
            XCTAssertEqual(($0 as? ControlError)?.message, "no track at index 2 (the queue has 2)")
        }
    }

    func testEveryChangeIncrementsTheVersionOnce() throws {
        var queue = PlayQueue()
        XCTAssertEqual(queue.version, 0)
        queue.replaceAll(with: [Track(trackId: 1), Track(trackId: 2), Track(trackId: 3)])
        XCTAssertEqual(queue.version, 1)
        try queue.append([Track(trackId: 4)])
        XCTAssertEqual(queue.version, 2)
        queue.move(id: 1, to: 3)
        XCTAssertEqual(queue.version, 3)
        queue.remove(id: 2)
        XCTAssertEqual(queue.version, 4)
        queue.markFailed(3, message: "broken")
        XCTAssertEqual(queue.version, 5)
        queue.remove(id: 99)
        queue.move(id: 3, to: 0)
        queue.markFailed(99, message: "ignored")
        XCTAssertEqual(queue.version, 5, "a change that changes nothing counts nothing")
        queue.removeAll()
        XCTAssertEqual(queue.version, 6)
        queue.removeAll()
        XCTAssertEqual(queue.version, 6, "clearing an empty queue changes nothing")
    }
}
