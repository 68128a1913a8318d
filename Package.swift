// swift-tools-version:6.0
import PackageDescription

// FFmpeg: the project's minimal static build when scripts/build-ffmpeg made one (the scripts export
// its prefix), else Debian's shared libraries through pkg-config. Debian's libavcodec loads every
// codec library it supports, about 20 MiB of resident memory previewd never uses.
let minimalFFmpeg = Context.environment["PREVIEWD_FFMPEG_PREFIX"].flatMap { $0.isEmpty ? nil : $0 }
let ffmpegModule: Target = if minimalFFmpeg != nil {
    .systemLibrary(name: "CFFmpeg", path: "CModules/CFFmpegStatic")
} else {
    .systemLibrary(name: "CFFmpeg", path: "CModules/CFFmpeg", pkgConfig: "libavformat",
                   providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libavutil-dev"])])
}
/// The static archives in link order, and the headers of the same build.
let ffmpegSwiftSettings: [SwiftSetting] = minimalFFmpeg.map { [.unsafeFlags(["-Xcc", "-I\($0)/include"])] } ?? []
let ffmpegLinkerSettings: [LinkerSetting] = minimalFFmpeg.map { prefix in
    [.unsafeFlags(["avformat", "avcodec", "swresample", "avutil"].flatMap { ["-Xlinker", "\(prefix)/lib/lib\($0).a"] }
                  + ["-Xlinker", "-latomic"])]
} ?? []

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
        .systemLibrary(name: "CCurl", path: "CModules/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),

        // Pure Swift: models, queue, transport state machine, control protocol. No C, no I/O.
        .target(name: "PreviewCore"),

        // Everything that does I/O: catalog, fetch, FFmpeg, decode, output, player, control server.
        // Swift 5 mode: the C objects are raw pointers owned by lock-guarded classes (see STYLE.md);
        // their Sendable-ness is stated by hand with @unchecked, once per type.
        .target(name: "PreviewEngine", dependencies: ["PreviewCore", "CFFmpeg", "CPulse", "CCurl"],
                swiftSettings: [.swiftLanguageMode(.v5)] + ffmpegSwiftSettings, linkerSettings: ffmpegLinkerSettings),

        // Release builds link the Swift runtime and FoundationEssentials statically: only the pages
        // previewd touches are resident, not every shared library's relocated data (docs/PERFORMANCE.md).
        .executableTarget(name: "previewd", dependencies: [
            "PreviewEngine", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [.swiftLanguageMode(.v5)],
           linkerSettings: [.unsafeFlags(["-static-stdlib", "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims"],
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
