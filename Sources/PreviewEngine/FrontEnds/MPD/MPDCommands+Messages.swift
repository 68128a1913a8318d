/// MPD's client-to-client messages (src/command/MessageCommands.cxx): a client subscribes to
/// channels, another sends a line to a channel, each subscriber reads it with `readmessages`.
/// mpdscribble's `love` (channel `mpdscribble`), Cantata's dynamic playlists and myMPD are built
/// on them. Every client's channels and messages are its own (`MPDMailbox`), as in MPD; the
/// `subscription` idle event goes to everyone, `message` to the client a message waits for.
extension MPDCommands {
    /// `subscribe CHANNEL`.
    static func subscribe(_ call: MPDCall) async throws(MPDError) {
        switch call.session.mailbox.subscribe(call.argument(0) ?? "") {
        case .subscribed: call.server.changed(.subscription)
        case .invalid: throw MPDError(.arg, "invalid channel name")
        case .already: throw MPDError(.exist, "already subscribed to this channel")
        case .full: throw MPDError(.exist, "subscription list is full")
        }
    }

    /// `unsubscribe CHANNEL`.
    static func unsubscribe(_ call: MPDCall) async throws(MPDError) {
        guard call.session.mailbox.unsubscribe(call.argument(0) ?? "") else { throw MPDError(.noExist, "not subscribed to this channel") }
        call.server.changed(.subscription)
    }

    /// `channels`: every channel some client is subscribed to, sorted.
    static func channels(_ call: MPDCall) async throws(MPDError) {
        for channel in call.server.channels { call.response.add("channel", channel) }
    }

    /// `readmessages`: this client's messages, oldest first; they are then gone.
    static func readmessages(_ call: MPDCall) async throws(MPDError) {
        for message in call.session.mailbox.take() {
            call.response.add("channel", message.channel)
            call.response.add("message", message.text)
        }
    }

    /// `sendmessage CHANNEL TEXT`: to every client subscribed to CHANNEL (the sender too, if it is).
    static func sendmessage(_ call: MPDCall) async throws(MPDError) {
        let channel = call.argument(0) ?? ""
        guard MPDMailbox.isValid(channel) else { throw MPDError(.arg, "invalid channel name") }
        guard call.server.send(call.argument(1) ?? "", on: channel) else { throw MPDError(.noExist, "nobody is subscribed to this channel") }
    }
}
