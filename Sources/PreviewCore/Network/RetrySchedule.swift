/// When a preview that failed for a transient reason is tried again. While the listener waits on
/// the track, tries come at most 2 s apart (0.5 s, 1 s, then every 1.5 s: the track is heard
/// within about 2 s of the network's return, with 40 wake-ups a minute at most); a prefetch no one
/// waits on yet backs off further (2, 4, 8, 16, then every 30 s). A server's Retry-After wins over
/// both. When other hosts answer, the host in trouble is tried `hostRetries` more times (0.5 + 1 +
/// 1.5 s: the track is given up about 3 s after its first failure) and then skipped as failed for now.
public enum RetrySchedule {
    /// Waits after the 1st, 2nd, 3rd… failure while the listener waits (the last repeats).
    public static let waitingMs = [500, 1000, 1500]
    /// Waits after the 1st, 2nd… failure of a prefetch no one waits on yet (the last repeats).
    public static let prefetchMs = [2000, 4000, 8000, 16000, 30000]
    /// Tries after the first failure while other hosts answer, before a track is failed for now.
    public static let hostRetries = 3
    /// The longest Retry-After honoured (a server asking for days is asked again in ten minutes).
    public static let longestRetryAfterMs = 600_000

    /// Milliseconds to wait after the `failures`-th failure (1 for the first).
    public static func delayMs(afterFailure failures: Int, listenerWaits: Bool, retryAfterMs: Int? = nil) -> Int {
        let steps = listenerWaits ? waitingMs : prefetchMs
        let step = steps[min(max(failures, 1), steps.count) - 1]
        guard let retryAfterMs else { return step }
        return max(step, min(retryAfterMs, longestRetryAfterMs))
    }
}
