import Glibc

/// Gives freed heap memory back to the system. Each decoder runs on its own thread, so glibc spreads
/// a track's buffers over several malloc arenas; once a track is gone their free pages stay resident
/// until trimmed. Called when the current track changes, at most every `interval` seconds.
enum MemoryTrim {
    nonisolated(unsafe) private static var last: UInt64 = 0   // touched only from the player actor
    static let interval: UInt64 = 5_000_000_000

    /// Trims the heap when the last trim is older than `interval`.
    static func afterTrackChange() {
        let now = MonotonicClock.nanoseconds()
        guard now - last >= interval else { return }
        last = now
        _ = glibcMallocTrim(0)
    }
}

/// glibc's `int malloc_trim(size_t pad)` (malloc.h is not part of Swift's Glibc module).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
