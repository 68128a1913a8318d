import CPreviewLinux

/// Gives freed heap memory back to the system. Each decoder runs on its own thread, so glibc spreads
/// a track's buffers over several malloc arenas; once a track is gone their free pages stay resident
/// until trimmed. Called when the current track changes, at most every `interval` seconds.
public enum MemoryTrim {
    nonisolated(unsafe) private static var last: UInt64 = 0   // touched only from the player actor
    static let interval: UInt64 = 5_000_000_000

    /// Makes glibc serve every allocation of 128 KiB or more (preview bodies, PCM rings, decoder
    /// tables) with its own mmap, and unmap it on free, so a dropped track's memory leaves at once.
    /// A fixed threshold also stops glibc from raising it after the first such free, which would
    /// move the next tracks' buffers into the heap, where freed pages stay resident. Call once at start.
    public static func unmapLargeBuffersOnFree() {
        _ = cpl_set_mmap_threshold(128 << 10)
    }

    /// Trims the heap when the last trim is older than `interval`.
    static func afterTrackChange() {
        let now = MonotonicClock.nanoseconds()
        guard now - last >= interval else { return }
        last = now
        _ = cpl_malloc_trim()
    }
}
