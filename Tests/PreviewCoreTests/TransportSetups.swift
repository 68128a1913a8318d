import PreviewCore

/// How the transport tests reach each state from a new transport; `last` is the queue's last index.
enum TransportSetups {
    static func inputs(last: Int) -> [String: [Transport.Input]] {
        let first = RequestID(1)
        return [
            "idle": [],
            "loading": [.queueReplaced(start: 0)],
            "loadingPaused": [.queueReplaced(start: 0), .pause],
            "playing": [.queueReplaced(start: 0), .trackReady(first)],
            "paused": [.queueReplaced(start: 0), .trackReady(first), .pause],
            "stopped": [.queueReplaced(start: 0), .trackReady(first), .stop],
            "playingLast": [.play(index: last), .trackReady(first)],
        ]
    }
}
