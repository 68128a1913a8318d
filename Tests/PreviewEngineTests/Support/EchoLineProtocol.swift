import Glibc
@testable import PreviewEngine

/// A second line protocol for the connection server's tests, a few lines like MPD's shape: a
/// greeting, `ECHO` answers, `idle` that waits (marked waiting) until `noidle` or `wake` from any
/// client, `slow` answered 200 ms later, `flood N` pushing N lines, `big N` one answer of N bytes.
/// Confined to the loop; `seen` records what the protocol saw and answered, in order.
final class EchoLineProtocol: LineProtocol, @unchecked Sendable {
    let rules: LineRules
    private let loop: EngineLoop
    private(set) var seen: [String] = []
    private(set) var pushed = 0
    private var idlers: [LineConnection] = []
    /// Clients waiting in `idle`.
    var idling: Int { idlers.count }

    init(loop: EngineLoop, rules: LineRules) {
        self.loop = loop
        self.rules = rules
    }

    func greeting(for connection: LineConnection) -> [UInt8] { Array("HELLO echo\n".utf8) }

    func received(_ line: [UInt8], on connection: LineConnection) {
        let text = String(decoding: line, as: UTF8.self)
        seen.append("got \(text)")
        let words = text.split(separator: " ")
        switch words.first {
        case "idle":
            connection.isWaiting = true
            idlers.append(connection)
        case "noidle":
            wake(connection, "interrupted")
            connection.answer([])   // noidle itself has no answer: it ends the idle
        case "wake":
            idlers.forEach { wake($0, "woken") }
            connection.answer(Array("OK\n".utf8))
        case "slow":
            loop.after(0.2) { [self] in
                seen.append("answered slow")
                connection.answer(Array("SLOW\n".utf8))
            }
        case "flood":
            for i in 0..<(Int(words.last ?? "") ?? 0) where connection.isOpen {
                connection.push(Array("line \(i) \(String(repeating: "x", count: 1000))\n".utf8))
                pushed += 1
            }
            connection.answer(Array("FLOODED\n".utf8))
        case "big":
            connection.answer(Array(repeating: UInt8(ascii: "b"), count: Int(words.last ?? "") ?? 0) + [0x0A])
        default:
            connection.answer(Array("ECHO \(text)\n".utf8))
        }
    }

    private func wake(_ connection: LineConnection, _ why: String) {
        guard let i = idlers.firstIndex(where: { $0 === connection }) else { return }
        idlers.remove(at: i)
        connection.isWaiting = false
        seen.append("answered idle")
        connection.answer(Array("IDLE \(why)\n".utf8))
    }

    func farewell(_ reason: LineServer.Closing, for connection: LineConnection) -> [UInt8] {
        switch reason {
        case .tooLong: Array("ERR too long\n".utf8)
        case .stalled: Array("ERR stalled\n".utf8)
        case .full: Array("ERR full\n".utf8)
        }
    }

    func disconnected(_ connection: LineConnection) {
        idlers.removeAll { $0 === connection }
        seen.append("closed")
    }
}
