/// A token bucket: `rate` requests a second, `burst` at once. Refilled from the clock when a request
/// comes, so it costs no timer.
struct RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(rate: Double = 20, burst: Double = 40, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        self.burst = burst
        tokens = burst
        last = now
    }

    /// Takes one token if there is one.
    mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = last.duration(to: now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(burst, tokens + seconds * rate)
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
