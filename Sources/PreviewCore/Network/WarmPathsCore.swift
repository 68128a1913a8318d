/// The hosts previewd will most likely need next, so their connections can be opened ahead of need:
/// when a catalog call goes out, the host of its previews; when a preview goes out, the host of its
/// artwork. Learned from the last results (the origin most of their URLs share), else the usual
/// ones: `--preview-host` when given, Apple's preview and artwork CDNs for Apple's API, the API's
/// own origin otherwise.
public struct WarmPathsCore: Equatable, Sendable {
    /// The API's origin (`scheme://host:port`).
    public let api: String?
    /// Where the next previews most likely come from, when that is not the API's own origin (whose
    /// connection the catalog call itself opens).
    public var previewToWarm: String? { preview == api ? nil : preview }

    /// Where the next previews most likely come from.
    public private(set) var preview: String?
    /// Where the next artwork most likely comes from.
    public private(set) var artwork: String?

    /// Apple's hosts for its own API: previews and artwork come from these CDNs, not the API's host.
    static let applePreviewOrigin = "https://audio-ssl.itunes.apple.com:443"
    static let appleArtworkOrigin = "https://is1-ssl.mzstatic.com:443"

    /// The usual origins for the API at `apiBase`, previews (and artwork) at `previewHost` when given.
    public init(apiBase: String, previewHost: String? = nil) {
        api = Self.origin(of: apiBase)
        if let host = previewHost.flatMap(Self.origin) {
            preview = host
            artwork = host
        } else if api == "https://itunes.apple.com:443" {
            preview = Self.applePreviewOrigin
            artwork = Self.appleArtworkOrigin
        } else {
            preview = api
            artwork = api
        }
    }

    /// Takes the preview and artwork hosts most of `tracks` use (the usual ones stay when none has a URL).
    public mutating func learn(from tracks: [Track]) {
        if let host = Self.mostCommonOrigin(tracks.compactMap(\.fetchablePreviewURL)) { preview = host }
        if let host = Self.mostCommonOrigin(tracks.compactMap { $0.artworkUrl100 ?? $0.artworkUrl60 }) { artwork = host }
    }

    /// `scheme://host:port` of an http(s) URL, nil for anything else.
    public static func origin(of url: String) -> String? {
        guard let origin = PreviewURLPolicy.origin(of: url) else { return nil }
        return (url.lowercased().hasPrefix("https:") ? "https://" : "http://") + origin
    }

    private static func mostCommonOrigin(_ urls: [String]) -> String? {
        var counts: [String: Int] = [:]
        for url in urls.prefix(200) { if let origin = origin(of: url) { counts[origin, default: 0] += 1 } }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}
