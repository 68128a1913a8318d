/// The artwork around the current track: the URLs of the current track's, the next one's and the
/// previous one's pictures (fetched by the engine as a window, as the loads are), the cached paths
/// of those that arrived, and the path subscribers were last told of. A path outside the window is
/// let go with it, so what is kept stays as small as the window.
public struct ArtworkWindow: Equatable, Sendable {
    /// The artwork URLs wanted, current track's first (empty: none wanted yet).
    public internal(set) var urls: [String] = []
    /// The cached file of each URL of the window that arrived.
    public internal(set) var paths: [String: String] = [:]
    /// The path of the current track's artwork subscribers were told of, if any.
    public internal(set) var announced: String?

    /// An empty window.
    public init() {}

    /// The window becomes `wanted`; the paths outside it are forgotten. False when it was
    /// already `wanted` (nothing to fetch).
    mutating func move(to wanted: [String]) -> Bool {
        guard wanted != urls else { return false }
        urls = wanted
        paths = paths.filter { wanted.contains($0.key) }
        return true
    }

    /// The artwork at `url` is cached at `path`; false (and forgotten) when it left the window meanwhile.
    mutating func arrived(_ url: String, path: String) -> Bool {
        guard urls.contains(url) else { return false }
        paths[url] = path
        return true
    }

    /// Subscribers were told of `path` (nil: of no artwork yet, a new current track).
    mutating func announce(_ path: String?) { announced = path }
}
