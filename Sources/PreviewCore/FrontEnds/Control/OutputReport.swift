/// One of previewd's outputs as `status` lists it (`outputs`): MPD's `outputs` fields.
public struct OutputReport: Codable, Equatable, Sendable {
    /// MPD's `outputid`: its place in the order `--output` gave.
    public var id: Int
    /// MPD's `outputname` (`name=`, else the `--output` value).
    public var name: String
    /// MPD's `plugin`: `pulse`, `alsa`, `fifo`, `snapcast`, `httpd`.
    public var plugin: String
    /// MPD's `outputenabled`: fed, or not.
    public var enabled: Bool
    /// True for the one whose clock the position follows.
    public var clock: Bool

    /// A report with every field given.
    public init(id: Int, name: String, plugin: String, enabled: Bool, clock: Bool) {
        self.id = id
        self.name = name
        self.plugin = plugin
        self.enabled = enabled
        self.clock = clock
    }
}
