// swift-tools-version: 6.1
// Benchmarks live in their own package so that the library's manifest stays free of dependencies.
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(name: "swift-general-observer", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "GeneralObserverBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "GeneralObserver", package: "swift-general-observer"),
            ],
            path: "Benchmarks/GeneralObserverBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "MessagingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "Messaging", package: "swift-general-observer"),
            ],
            path: "Benchmarks/MessagingBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
