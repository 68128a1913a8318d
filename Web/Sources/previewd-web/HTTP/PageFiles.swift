/// The files of the page, embedded in the binary: each path served, its bytes and its `Content-Type`.
/// The page's script is native ES modules (`/app.js` and `/modules/*.js`, no build step): a module
/// must be served as JavaScript, or the browser refuses to run it.
enum PageFiles {
    static let javaScript = "text/javascript; charset=utf-8"

    /// Every path served as a file, with its bytes and type.
    static let all: [(path: String, bytes: [UInt8], type: String)] = [
        ("/", PackageResources.index_html, "text/html; charset=utf-8"),
        ("/app.js", PackageResources.app_js, javaScript),
        ("/app.css", PackageResources.app_css, "text/css; charset=utf-8"),
        ("/manifest.webmanifest", PackageResources.manifest_webmanifest, "application/manifest+json"),
        ("/icon.svg", PackageResources.icon_svg, "image/svg+xml"),
        ("/icon-192.png", PackageResources.icon_192_png, "image/png"),
        ("/icon-512.png", PackageResources.icon_512_png, "image/png"),
        ("/pair.js", PackageResources.pair_js, javaScript),
    ] + modules.map { ("/modules/\($0.name)", $0.bytes, javaScript) }

    /// The modules `/app.js` imports (Pages/modules/): one line here and one in Package.swift each.
    static let modules: [(name: String, bytes: [UInt8])] = [
        ("dom.js", PackageResources.dom_js),
        ("events.js", PackageResources.events_js),
        ("format.js", PackageResources.format_js),
        ("gapless.js", PackageResources.gapless_js),
        ("link.js", PackageResources.link_js),
        ("mp4.js", PackageResources.mp4_js),
        ("loudness.js", PackageResources.loudness_js),
        ("network.js", PackageResources.network_js),
        ("outputs.js", PackageResources.outputs_js),
        ("player.js", PackageResources.player_js),
        ("playhere.js", PackageResources.playhere_js),
        ("queue.js", PackageResources.queue_js),
        ("radio.js", PackageResources.radio_js),
        ("remote.js", PackageResources.remote_js),
        ("search.js", PackageResources.search_js),
        ("share.js", PackageResources.share_js),
        ("state.js", PackageResources.state_js),
        ("ui.js", PackageResources.ui_js),
    ]
}
