/// One client's side of MPD's client-to-client messages (src/client/Subscribe.cxx, Message.cxx):
/// the channels it is subscribed to, 16 at most, and the messages sent to them that it has not
/// read, 64 at most as MPD keeps them and 64 KiB at most (a message is a line of up to 16 KiB, and
/// 256 clients each holding 64 of them would be 256 MiB): a message that finds no room is not
/// delivered to that client, as MPD does when its 64 are waiting.
struct MPDMailbox {
    /// Channels one client may hold (MPD's MAX_SUBSCRIPTIONS).
    static let maxChannels = 16
    /// Messages that may wait for one client (MPD's MAX_MESSAGES).
    static let maxMessages = 64
    /// Bytes of messages that may wait for one client.
    static let maxBytes = 64 << 10

    /// The channels it is subscribed to.
    private(set) var channels: Set<String> = []
    /// The messages waiting, oldest first.
    private(set) var messages: [(channel: String, text: String)] = []
    private var bytes = 0

    /// What `subscribe` found.
    enum Subscription { case subscribed, invalid, already, full }

    /// What `deliver` did.
    enum Delivery { case notSubscribed, noRoom, delivered(first: Bool) }

    /// A channel name MPD takes: one or more of letters, digits, `_`, `-`, `.` and `:`.
    static func isValid(_ channel: String) -> Bool {
        !channel.isEmpty && channel.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
    }

    /// Subscribes to `channel` (MPD checks the name, then the count, then whether it is held).
    mutating func subscribe(_ channel: String) -> Subscription {
        guard Self.isValid(channel) else { return .invalid }
        guard channels.count < Self.maxChannels else { return .full }
        return channels.insert(channel).inserted ? .subscribed : .already
    }

    /// Unsubscribes from `channel`; false when it was not subscribed.
    mutating func unsubscribe(_ channel: String) -> Bool {
        channels.remove(channel) != nil
    }

    /// Keeps `text` sent on `channel` if this client is subscribed and has room; `first`: nothing
    /// was waiting (MPD tells a client `message` only then).
    mutating func deliver(_ text: String, on channel: String) -> Delivery {
        guard channels.contains(channel) else { return .notSubscribed }
        let size = channel.utf8.count + text.utf8.count
        guard messages.count < Self.maxMessages, bytes + size <= Self.maxBytes else { return .noRoom }
        messages.append((channel, text))
        bytes += size
        return .delivered(first: messages.count == 1)
    }

    /// The messages waiting, which are then gone.
    mutating func take() -> [(channel: String, text: String)] {
        defer { messages = []; bytes = 0 }
        return messages
    }
}
