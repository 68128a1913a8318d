// swift-tools-version:6.1
import PackageDescription

// previewd's benchmarks: their own package so the main package depends on swift-argument-parser only.
let package = Package(
    name: "previewd-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "previewd", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "DecodeBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PreviewEngine", package: "previewd"),
                .product(name: "PreviewCore", package: "previewd"),
            ],
            path: "Benchmarks/DecodeBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v5)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // A command-line decoder for scripts/bench-compare: previewd's decode path, timed in-process.
        .executableTarget(
            name: "decode-clip",
            dependencies: [
                .product(name: "PreviewEngine", package: "previewd"),
                .product(name: "PreviewCore", package: "previewd"),
            ],
            path: "Tools/decode-clip",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
