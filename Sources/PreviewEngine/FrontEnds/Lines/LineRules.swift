/// The bounds a `LineServer` keeps for every client of one protocol, chosen by the protocol.
public struct LineRules: Sendable {
    /// How a client's lines reach the protocol.
    public enum Delivery: Sendable {
        /// One at a time: the next line is handed over once the last is answered, so answers stay in
        /// request order; lines read ahead wait in a bounded queue (the JSON socket).
        case inOrder
        /// In order, except while the connection is marked waiting (`LineConnection.isWaiting`): then
        /// the next line is handed over at once, although the one that made it wait has no answer
        /// yet (MPD's `noidle` interrupting an `idle`).
        case inOrderUnlessWaiting
        /// As soon as they are read, even while earlier ones wait for their answers; at most
        /// `maxQueuedLines` unanswered, and the protocol keeps its answers in order.
        case atOnce
    }

    /// The longest line accepted, without its newline; a longer one ends the connection (the
    /// protocol says its last words: `LineProtocol.farewell`).
    public var maxLineLength: Int
    /// At most this many clients at once; a newcomer takes the place of the idle client heard from
    /// longest ago.
    public var maxClients: Int
    /// Seconds a client may take to finish a line it started.
    public var stallTimeout: Double
    /// Seconds a client may stay connected without sending anything; nil: no limit. A client
    /// waiting for an answer or marked waiting (`LineConnection.isWaiting`) is never idle.
    public var idleTimeout: Double?
    /// Bytes of unasked output (`LineConnection.push`) that may wait for a client that does not read
    /// before it is cut off. Answers are not counted: a client is not read while its output waits, so
    /// it cannot ask for more.
    public var maxPushBacklog: Int
    /// How lines reach the protocol.
    public var delivery: Delivery
    /// Lines read and not yet answered before the client is no longer read.
    public var maxQueuedLines: Int
    /// Output waiting for the client beyond which it is no longer read.
    public var maxReadAheadBacklog: Int

    /// Rules; the defaults are the JSON socket's.
    public init(maxLineLength: Int = 64 << 10, maxClients: Int = 128, stallTimeout: Double = 5,
                idleTimeout: Double? = 120, maxPushBacklog: Int = 256 << 10, delivery: Delivery = .inOrder,
                maxQueuedLines: Int = 16, maxReadAheadBacklog: Int = 64 << 10) {
        self.maxLineLength = maxLineLength
        self.maxClients = maxClients
        self.stallTimeout = stallTimeout
        self.idleTimeout = idleTimeout
        self.maxPushBacklog = maxPushBacklog
        self.delivery = delivery
        self.maxQueuedLines = maxQueuedLines
        self.maxReadAheadBacklog = maxReadAheadBacklog
    }
}
