import PreviewCore

/// MPD's idle subsystems (doc/protocol.rst, `idle`) that previewd's events can change.
public struct MPDSubsystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let database = MPDSubsystems(rawValue: 1 << 0)
    public static let update = MPDSubsystems(rawValue: 1 << 1)
    public static let storedPlaylist = MPDSubsystems(rawValue: 1 << 2)
    public static let playlist = MPDSubsystems(rawValue: 1 << 3)
    public static let player = MPDSubsystems(rawValue: 1 << 4)
    public static let mixer = MPDSubsystems(rawValue: 1 << 5)
    public static let output = MPDSubsystems(rawValue: 1 << 6)
    public static let options = MPDSubsystems(rawValue: 1 << 7)
    public static let partition = MPDSubsystems(rawValue: 1 << 8)
    public static let sticker = MPDSubsystems(rawValue: 1 << 9)
    public static let subscription = MPDSubsystems(rawValue: 1 << 10)
    public static let message = MPDSubsystems(rawValue: 1 << 11)
    public static let neighbor = MPDSubsystems(rawValue: 1 << 12)
    public static let mount = MPDSubsystems(rawValue: 1 << 13)

    /// Every subsystem, with its name, in MPD's order (src/IdleFlags.cxx).
    public static let named: [(String, MPDSubsystems)] = [
        ("database", .database), ("stored_playlist", .storedPlaylist), ("playlist", .playlist), ("player", .player),
        ("mixer", .mixer), ("output", .output), ("options", .options), ("sticker", .sticker), ("update", .update),
        ("subscription", .subscription), ("message", .message), ("neighbor", .neighbor), ("mount", .mount),
        ("partition", .partition),
    ]

    /// Every subsystem.
    public static let all = MPDSubsystems(rawValue: 0x3fff)

    /// The subsystems named `names` (every one when empty), or an error naming the unknown one.
    public init(names: [String]) throws(MPDError) {
        guard !names.isEmpty else { self = .all; return }
        self = []
        for name in names {
            guard let found = Self.named.first(where: { $0.0 == name.lowercased() }) else {
                throw MPDError(.arg, "Unrecognized idle event: \(name.prefix(64))")
            }
            insert(found.1)
        }
    }

    /// What `event` changed in MPD's terms; position ticks, loudness and artwork change nothing a
    /// client asks about.
    public init(_ event: ControlEvent) {
        switch event {
        case .state, .track, .seeked, .error, .waiting: self = .player
        case .queue: self = .playlist
        case .volume: self = .mixer
        case .modes, .crossfade, .normalization: self = .options
        case .outputLost, .outputBack, .outputEnabled, .playHere: self = .output   // a page that plays here is an output
        case .lists: self = .storedPlaylist
        case .loudness, .artwork, .position, .buffering, .library: self = []
        }
    }

    /// `changed: NAME` lines for these subsystems, in MPD's order.
    public var changedLines: MPDResponse {
        var response = MPDResponse()
        for (name, flag) in Self.named where contains(flag) { response.add("changed", name) }
        return response
    }
}
