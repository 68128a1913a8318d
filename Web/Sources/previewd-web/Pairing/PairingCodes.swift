#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Pairing by a typed code, for a remote that cannot open the pairing address: a Home Screen copy on
/// an iPhone keeps cookies apart from Safari's and has no address bar. `previewd-web --pair` writes a
/// six-digit code with its end (`CODE EXPIRY`, Unix seconds) to `DIR/web-pair-code` (0600, beside the
/// token); the server, another process, reads it when a code is typed. A right code answers with the
/// pairing cookie (the token, which the code never is) and is spent; five wrong tries in a row lock
/// pairing by code for a minute, for every device, so guessing gets at most five tries a minute;
/// tries while no code is valid do not count.
final class PairingCodes: Sendable {
    /// What a typed code got.
    enum Outcome: Equatable {
        /// Right: the token to set as the cookie.
        case paired(token: String)
        /// Wrong, spent or expired (no difference is told); `triesLeft` before the lock.
        case wrong(triesLeft: Int)
        /// Locked after too many wrong tries, for `seconds` more.
        case locked(seconds: Int)
    }

    /// How long a code lives.
    static let lifetime = 5 * 60
    /// Wrong tries in a row that lock pairing by code.
    static let maxWrong = 5
    /// How long the lock lasts.
    static let lockSeconds = 60
    /// The code's digits.
    static let digits = 6

    /// The code file's path.
    let path: String
    private let tokens: TokenStore

    private struct Tries {
        var wrong = 0
        var lockedUntil: ContinuousClock.Instant?
    }
    private let tries = Mutex(Tries())

    init(tokens: TokenStore) {
        self.tokens = tokens
        path = tokens.directory + "/web-pair-code"
    }

    /// Makes a new code (replacing any other), valid for `lifetime` seconds; returns it.
    func create() throws(PairingError) -> String {
        var rng = SystemRandomNumberGenerator()
        let code = String(UInt32.random(in: 0..<1_000_000, using: &rng))
        let padded = String(repeating: "0", count: Self.digits - code.count) + code
        try tokens.writePrivate("\(padded) \(time(nil) + Self.lifetime)\n", to: path)
        return padded
    }

    /// Checks a typed code. Each call that is not locked out while a code is valid counts: right, or
    /// one more wrong try.
    func redeem(_ candidate: String, now: ContinuousClock.Instant = .now) -> Outcome {
        tries.withLock { tries in
            if let until = tries.lockedUntil, now < until {
                return .locked(seconds: Self.seconds(until - now))
            }
            tries.lockedUntil = nil
            // With no code to guess, a try counts for nothing: otherwise anyone on the network could
            // keep pairing by code locked before the listener even makes a code.
            guard let code = validCode() else { return .wrong(triesLeft: Self.maxWrong - tries.wrong) }
            if TokenStore.sameInConstantTime(code, candidate), let token = tokens.current() {
                unlink(path)   // single use
                tries.wrong = 0
                return .paired(token: token)
            }
            tries.wrong += 1
            if tries.wrong >= Self.maxWrong {
                tries.wrong = 0
                tries.lockedUntil = now + .seconds(Self.lockSeconds)
                return .locked(seconds: Self.lockSeconds)
            }
            return .wrong(triesLeft: Self.maxWrong - tries.wrong)
        }
    }

    /// The code in the file when it is well formed and not past its end (nor implausibly far from it).
    private func validCode() -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let parts = String(decoding: buffer[..<count], as: UTF8.self).trimmingWhitespace.split(separator: " ")
        guard parts.count == 2, parts[0].count == Self.digits, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
              let expiry = Int(parts[1]) else { return nil }
        let now = time(nil)
        return now < expiry && expiry <= now + Self.lifetime ? String(parts[0]) : nil
    }

    private static func seconds(_ duration: Duration) -> Int {
        max(1, Int(duration.components.seconds) + (duration.components.attoseconds > 0 ? 1 : 0))
    }
}
