import CPreviewLinux

/// Gives freed heap memory back to the system. Each decoder runs on its own thread, so glibc spreads
/// a track's buffers over several malloc arenas; once a decoder is gone (parked after a neighbour's
/// head, finished, or dropped with its track) its free pages stay resident until trimmed. A few
/// trims per track, each well under a millisecond, called from the player.
public enum MemoryTrim {
    /// Makes glibc serve every allocation of 128 KiB or more (preview bodies, PCM rings, decoder
    /// tables) with its own mmap, and unmap it on free, so a dropped track's memory leaves at once.
    /// A fixed threshold also stops glibc from raising it after the first such free, which would
    /// move the next tracks' buffers into the heap, where freed pages stay resident. Call once at start.
    public static func unmapLargeBuffersOnFree() {
        _ = cpl_set_mmap_threshold(128 << 10)
    }

    /// Gives the free pages of every malloc arena back (malloc_trim).
    static func afterRelease() {
        _ = cpl_malloc_trim()
    }
}
