/// What a key does in `previewctl player`.
public enum PlayerAction: Sendable, Equatable, CaseIterable {
    case toggle, cursorUp, cursorDown, pageUp, pageDown, first, last, playRow, removeRow, moveRowUp, moveRowDown
    case search, switchView, addResult, replaceWithResults, sortNext, sortReverse
    case seekBack, seekOn, next, previous, volumeUp, volumeDown, mark, mute, shuffle, cycleRepeat, open, help, quit
}

/// `previewctl player`'s keys in one table (as MPD keeps its commands): each row as `?`, `--help`,
/// the man page and the README spell it, what it does, and the keys it binds to their actions. The
/// view dispatches through `action(for:)`, so a key cannot be bound without being listed.
public struct PlayerKeys: Sendable {
    /// One row of the table.
    public struct Row: Sendable {
        /// The keys as listed ("↑ ↓ k j"), what they do, and each key's action.
        public let spelled: String
        public let what: String
        public let bindings: [(key: Key, action: PlayerAction)]
    }

    /// The table, in the order `?` lists it.
    public static let table: [Row] = [
        Row(spelled: "space", what: "play / pause", bindings: [(.character(" "), .toggle)]),
        Row(spelled: "↑ ↓ k j", what: "move the cursor",
            bindings: [(.up, .cursorUp), (.down, .cursorDown), (.character("k"), .cursorUp), (.character("j"), .cursorDown)]),
        Row(spelled: "PgUp PgDn Home End", what: "a page, the first, the last row",
            bindings: [(.pageUp, .pageUp), (.pageDown, .pageDown), (.home, .first), (.end, .last)]),
        Row(spelled: "Enter", what: "play the row (a result: after the current track)", bindings: [(.enter, .playRow)]),
        Row(spelled: "d", what: "remove the row from the queue", bindings: [(.character("d"), .removeRow)]),
        Row(spelled: "K J", what: "move the row up / down in the queue", bindings: [(.character("K"), .moveRowUp), (.character("J"), .moveRowDown)]),
        Row(spelled: "/", what: "search into the results (the queue stays)", bindings: [(.character("/"), .search)]),
        Row(spelled: "Tab", what: "queue ⇄ results", bindings: [(.tab, .switchView)]),
        Row(spelled: "a", what: "add the result to the end of the queue", bindings: [(.character("a"), .addResult)]),
        Row(spelled: "R", what: "replace the queue with the results, playing the row", bindings: [(.character("R"), .replaceWithResults)]),
        Row(spelled: "c C", what: "sort the results by the next column / reverse", bindings: [(.character("c"), .sortNext), (.character("C"), .sortReverse)]),
        Row(spelled: "← →", what: "seek 5 s back / on", bindings: [(.left, .seekBack), (.right, .seekOn)]),
        Row(spelled: "n p", what: "next / previous", bindings: [(.character("n"), .next), (.character("p"), .previous)]),
        Row(spelled: "+ -", what: "volume", bindings: [(.character("+"), .volumeUp), (.character("="), .volumeUp), (.character("-"), .volumeDown)]),
        Row(spelled: "m", what: "mark / unmark (the shortlist)", bindings: [(.character("m"), .mark)]),
        Row(spelled: "M", what: "mute", bindings: [(.character("M"), .mute)]),
        Row(spelled: "s", what: "shuffle", bindings: [(.character("s"), .shuffle)]),
        Row(spelled: "r", what: "repeat: off → all → one", bindings: [(.character("r"), .cycleRepeat)]),
        Row(spelled: "o", what: "open the row's store page", bindings: [(.character("o"), .open)]),
        Row(spelled: "?", what: "these keys", bindings: [(.character("?"), .help), (.character("h"), .help)]),
        Row(spelled: "q", what: "quit", bindings: [(.character("q"), .quit), (.character("Q"), .quit)]),
    ]

    /// What `key` does; nil: nothing.
    public static func action(for key: Key) -> PlayerAction? {
        for row in table { for binding in row.bindings where binding.key == key { return binding.action } }
        return nil
    }
}
