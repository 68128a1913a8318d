/// How long a track plays here: its preview, not the song. The one rule every front-end follows
/// when it reports a playable length (MPD's `Time`/`duration`, MPRIS's `mpris:length`): the decoded
/// preview's length once a decoder has read it whole, before that the store's usual preview length,
/// or the song's when the song is shorter. The song's own length (`trackTimeMillis`) stays what a
/// results table shows, named as the song's.
public enum PreviewLength {
    /// The store's usual preview: 30 seconds.
    public static let usualMs = 30_000

    /// The estimate before the preview is decoded: 30 s, or the song's length when shorter.
    public static func estimateMs(_ track: Track) -> Int {
        guard let song = track.trackTimeMillis, song > 0 else { return usualMs }
        return min(usualMs, song)
    }

    /// What plays: `decodedMs` when a decoder knows it, else the estimate.
    public static func ms(_ track: Track, decodedMs: Int?) -> Int {
        decodedMs ?? estimateMs(track)
    }
}
