// swift-tools-version:6.1
import PackageDescription

// previewd-web: a web remote for previewd, in a package of its own so that Hummingbird is built once,
// in release, and never in the main package's debug and sanitizer passes. It is a client of previewd's
// control socket like previewctl; the daemon gains no HTTP code.
let package = Package(
    name: "previewd-web",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "previewd-web", targets: ["previewd-web"]),
    ],
    dependencies: [
        .package(name: "previewd", path: ".."),
        // Without its default traits: "FullFoundation" (form dates through DateFormatter) and
        // "ConfigurationSupport" (swift-configuration, which imports Foundation) would link the whole of
        // Foundation and ICU's 34 MB of data into previewd-web, for nothing it uses.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Debian's libqrencode, for the pairing QR code drawn in the terminal.
        .systemLibrary(name: "CQREncode", path: "CModules/CQREncode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        // Swift Concurrency's global-executor hooks, set from C (see Main.swift), and struct ucred.
        .target(name: "CWebShim", path: "CModules/CWebShim", cSettings: [.define("_GNU_SOURCE")]),
        .executableTarget(
            name: "previewd-web",
            dependencies: [
                "CQREncode",
                "CWebShim",
                .product(name: "PreviewCore", package: "previewd"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The pages live in the binary: nothing beside it to find or lose.
            resources: [
                .embedInCode("Pages/index.html"),
                .embedInCode("Pages/app.css"),
                .embedInCode("Pages/app.js"),
                .embedInCode("Pages/manifest.webmanifest"),
                .embedInCode("Pages/icon.svg"),
                .embedInCode("Pages/icon-192.png"),
                .embedInCode("Pages/icon-512.png"),
                .embedInCode("Pages/pair.html"),
                .embedInCode("Pages/pair.js"),
                .embedInCode("Pages/modules/dom.js"),
                .embedInCode("Pages/modules/events.js"),
                .embedInCode("Pages/modules/format.js"),
                .embedInCode("Pages/modules/gapless.js"),
                .embedInCode("Pages/modules/link.js"),
                .embedInCode("Pages/modules/mp4.js"),
                .embedInCode("Pages/modules/loudness.js"),
                .embedInCode("Pages/modules/network.js"),
                .embedInCode("Pages/modules/outputs.js"),
                .embedInCode("Pages/modules/player.js"),
                .embedInCode("Pages/modules/playhere.js"),
                .embedInCode("Pages/modules/queue.js"),
                .embedInCode("Pages/modules/radio.js"),
                .embedInCode("Pages/modules/remote.js"),
                .embedInCode("Pages/modules/search.js"),
                .embedInCode("Pages/modules/share.js"),
                .embedInCode("Pages/modules/state.js"),
                .embedInCode("Pages/modules/ui.js"),
            ]
        ),
    ]
)
