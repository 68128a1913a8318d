import PreviewCore

/// How the transport tests reach each state from a new transport, over a queue built with
/// `PlayQueue(tracks:)` whose first item is playable; `lastItem` is the id of the queue's last item
/// (such a queue gives ids 1, 2, 3, … in order, so it is the track count).
enum TransportSetups {
    static func inputs(lastItem: Int) -> [String: [Transport.Input]] {
        [
            "idle": [],
            "loading": [.queueReplaced()],
            "loadingPaused": [.queueReplaced(), .pause],
            "playing": [.queueReplaced(), .trackReady],
            "paused": [.queueReplaced(), .trackReady, .pause],
            "stopped": [.queueReplaced(), .trackReady, .stop],
            "playingLast": [.play(item: lastItem), .trackReady],
        ]
    }
}
