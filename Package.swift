// swift-tools-version:6.0
import PackageDescription

// Debian's C libraries, shared, found through pkg-config: one system-library module per library, so
// `apt upgrade` brings their security fixes to previewd. Release builds everywhere are
// `swift build -c release --static-swift-stdlib` (the Swift runtime linked in, the C libraries shared).
let package = Package(
    name: "previewd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "previewd", targets: ["previewd"]),
        .executable(name: "previewctl", targets: ["previewctl"]),
        .executable(name: "itunes-standin", targets: ["itunes-standin"]),
        .library(name: "PreviewCore", targets: ["PreviewCore"]),
        .library(name: "PreviewEngine", targets: ["PreviewEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C libraries; macros and variadic functions Swift cannot import are static inline shims.
        .systemLibrary(name: "CFFmpeg", path: "CModules/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libswscale-dev", "libavutil-dev"])]),
        .systemLibrary(name: "CPulse", path: "CModules/CPulse", pkgConfig: "libpulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CALSA", path: "CModules/CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CCurl", path: "CModules/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEBUR128", path: "CModules/CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CSystemd", path: "CModules/CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // MPRIS2 over sd-bus: the vtables (macros) and message building (variadic) Swift cannot write.
        .target(name: "CMPRIS", path: "CModules/CMPRIS", linkerSettings: [.linkedLibrary("systemd")]),
        // What glibc hides behind _GNU_SOURCE or keeps out of Swift's Glibc module (mallopt,
        // struct ucred, eventfd, signalfd, thread names), and a thread-local label for FFmpeg's log lines.
        .target(name: "CPreviewLinux", path: "CModules/CPreviewLinux", cSettings: [.define("_GNU_SOURCE")]),

        // Pure Swift: models, queue, transport state machine, control protocol. No C, no I/O.
        .target(name: "PreviewCore"),

        // Everything that does I/O: catalog, fetch, FFmpeg, decode, loudness, output, player, control server.
        // Swift 6 mode like every module: state shared between threads sits in a Mutex or an atomic;
        // @unchecked Sendable only on the owners of C objects and on what the engine loop confines,
        // each with its reason beside it.
        .target(name: "PreviewEngine", dependencies: ["PreviewCore", "CFFmpeg", "CPulse", "CALSA", "CCurl", "CEBUR128", "CSystemd", "CMPRIS", "CPreviewLinux"]),

        .executableTarget(name: "previewd", dependencies: [
            "PreviewEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // previewctl links PreviewCore (and the small C shim, for SO_PEERCRED): no FFmpeg, no
        // libpulse, no Foundation. It starts at every key press of a media-key binding, and loading
        // libstdc++.so.6 (for 26 symbols of the static Swift runtime) was 1.6 M of the 2.7 M
        // instructions of `previewctl --version`: its release build links Debian's libstdc++.a
        // instead (CModules/StaticLibstdcxx holds a linker script named libstdc++.so that says so).
        .executableTarget(name: "previewctl", dependencies: [
            "PreviewCore", "CPreviewLinux", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: [
            .unsafeFlags(["-L", Context.packageDirectory + "/CModules/StaticLibstdcxx"], .when(platforms: [.linux], configuration: .release)),
        ]),

        // The project's own stand-in of the iTunes Search API: real HTTP on loopback, with fault injection.
        .target(name: "ITunesStandIn", dependencies: ["PreviewCore"]),
        .executableTarget(name: "itunes-standin", dependencies: ["ITunesStandIn"],
                          ),

        // Shared by the tests and scripts: fixture paths, tone detection, helper processes.
        .target(name: "PreviewTestSupport", dependencies: ["ITunesStandIn", "PreviewCore"]),

        .testTarget(name: "PreviewCoreTests", dependencies: ["PreviewCore"]),
        .testTarget(name: "PreviewEngineTests", dependencies: ["PreviewEngine", "PreviewTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["PreviewCore", "PreviewTestSupport"],
                    ),
    ]
)
