import PreviewCore

/// Opens the connections previewd will need next while it waits for something else: the preview
/// host's while a catalog call is in flight (so the first preview goes on an open connection), the
/// artwork host's once a preview is asked for, and at a socket-activated start the API's and the
/// preview host's (the first command is usually a search). Which hosts is `WarmPathsCore`' choice;
/// the HTTP client keeps at most one spare connection per host and checks every address it
/// connects to, so a pre-connect never reaches an address previewd may not.
public final class WarmPaths: Sendable {
    private let http: HTTPClient
    private let localOrigin: String?
    private let origins: Locked<WarmPathsCore>

    /// Warm paths for the API at `apiBase` (its previews usually at `previewHost`) through `http`;
    /// `localOrigin` is the one local origin connections may reach (the API's own, when it is local).
    public init(apiBase: String, previewHost: String? = nil, http: HTTPClient, localOrigin: String?) {
        self.http = http
        self.localOrigin = localOrigin
        origins = Locked(WarmPathsCore(apiBase: apiBase, previewHost: previewHost))
    }

    /// A catalog call is going out: open the preview host's connection meanwhile.
    public func catalogCallStarting() {
        if let preview = origins.withLock({ $0.previewToWarm }) { http.preconnect(preview, localOrigin: localOrigin) }
    }

    /// Results arrived: their hosts are the likely next ones.
    public func learn(from tracks: [Track]) {
        origins.withLock { $0.learn(from: tracks) }
    }

    /// A preview is asked for: the artwork of its track follows.
    public func previewRequested() {
        if let artwork = origins.withLock({ $0.artwork }) { http.preconnect(artwork, localOrigin: localOrigin) }
    }

    /// previewd was started by its socket: a command is waiting, most likely a search.
    public func startedBySocket() {
        let (api, preview) = origins.withLock { ($0.api, $0.preview) }
        for origin in [api, preview].compactMap({ $0 }) { http.preconnect(origin, localOrigin: localOrigin) }
    }
}
