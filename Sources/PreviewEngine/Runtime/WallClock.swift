import Glibc

/// CLOCK_REALTIME in milliseconds since 1970 (UTC): when something happened, for a listener ("since 0:12").
public enum WallClock {
    /// Milliseconds since 1970, UTC.
    public static func unixMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
