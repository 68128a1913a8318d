// swift-tools-version:6.0
import PackageDescription

// FFmpeg and libcurl: the project's minimal static builds when scripts/build-deps made them (the
// scripts export their prefixes), else Debian's shared libraries through pkg-config. Debian's
// libavcodec and libcurl load every library they support, about 25 MiB of resident memory previewd
// never uses (docs/PERFORMANCE.md).
func prefix(_ variable: String) -> String? {
    Context.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
}
let minimalFFmpeg = prefix("PREVIEWD_FFMPEG_PREFIX")
let minimalCurl = prefix("PREVIEWD_CURL_PREFIX")

let ffmpegModule: Target = if minimalFFmpeg != nil {
    .systemLibrary(name: "CFFmpeg", path: "CModules/CFFmpegStatic")
} else {
    .systemLibrary(name: "CFFmpeg", path: "CModules/CFFmpeg", pkgConfig: "libavformat",
                   providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])])
}
let curlModule: Target = if minimalCurl != nil {
    .systemLibrary(name: "CCurl", path: "CModules/CCurlStatic")
} else {
    .systemLibrary(name: "CCurl", path: "CModules/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])])
}

/// The headers of the static builds, and their archives in link order (then what they need:
/// Debian's static OpenSSL for libcurl, so no shared libssl/libcrypto is loaded either).
let staticPrefixes = [minimalFFmpeg, minimalCurl].compactMap { $0 }
let staticSwiftSettings: [SwiftSetting] = staticPrefixes.isEmpty ? [] :
    [.unsafeFlags(staticPrefixes.flatMap { ["-Xcc", "-I\($0)/include"] })]
let staticArchives: [String] =
    (minimalFFmpeg.map { p in ["avformat", "avcodec", "swresample", "avutil"].map { "\(p)/lib/lib\($0).a" } + ["-latomic"] } ?? [])
    + (minimalCurl.map { ["\($0)/lib/libcurl.a", "-l:libssl.a", "-l:libcrypto.a", "-lz"] } ?? [])
let staticLinkerSettings: [LinkerSetting] = staticArchives.isEmpty ? [] :
    [.unsafeFlags(staticArchives.flatMap { ["-Xlinker", $0] })]

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
        // C libraries, found through pkg-config; macros Swift cannot import are static inline shims.
        ffmpegModule,
        .systemLibrary(name: "CPulse", path: "CModules/CPulse", pkgConfig: "libpulse",
                       providers: [.apt(["libpulse-dev"])]),
        curlModule,

        // Pure Swift: models, queue, transport state machine, control protocol. No C, no I/O.
        .target(name: "PreviewCore"),

        // Everything that does I/O: catalog, fetch, FFmpeg, decode, output, player, control server.
        // Swift 5 mode: the C objects are raw pointers owned by lock-guarded classes (see STYLE.md);
        // their Sendable-ness is stated by hand with @unchecked, once per type.
        .target(name: "PreviewEngine", dependencies: ["PreviewCore", "CFFmpeg", "CPulse", "CCurl"],
                swiftSettings: [.swiftLanguageMode(.v5)] + staticSwiftSettings, linkerSettings: staticLinkerSettings),

        // Release builds link the Swift runtime and FoundationEssentials statically: only the pages
        // previewd touches are resident, not every shared library's relocated data (docs/PERFORMANCE.md).
        .executableTarget(name: "previewd", dependencies: [
            "PreviewEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [.swiftLanguageMode(.v5)],
           linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
                                          "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                                          .when(configuration: .release))]),
        // previewctl links PreviewCore only: no FFmpeg, no libpulse.
        .executableTarget(name: "previewctl", dependencies: [
            "PreviewCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        // The project's own stand-in of the iTunes Search API: real HTTP on loopback, with fault injection.
        .target(name: "ITunesStandIn", dependencies: ["PreviewCore"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .executableTarget(name: "itunes-standin", dependencies: ["ITunesStandIn"],
                          swiftSettings: [.swiftLanguageMode(.v5)]),

        // Shared by the tests and scripts: fixture paths, tone detection, helper processes.
        .target(name: "PreviewTestSupport", dependencies: ["ITunesStandIn", "PreviewCore"],
                swiftSettings: [.swiftLanguageMode(.v5)]),

        .testTarget(name: "PreviewCoreTests", dependencies: ["PreviewCore"]),
        .testTarget(name: "PreviewEngineTests", dependencies: ["PreviewEngine", "PreviewTestSupport"], swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "EndToEndTests", dependencies: ["PreviewCore", "PreviewTestSupport"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
