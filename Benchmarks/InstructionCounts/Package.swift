// swift-tools-version: 6.0
// A plain program to count instructions with `valgrind --tool=callgrind`; a package of its own,
// since the benchmark plugin takes every executable of the Benchmarks package for a benchmark.
import PackageDescription

let package = Package(
    name: "InstructionCounts",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "swift-general-observer", path: "../..")
    ],
    targets: [
        .target(name: "MallocInfo"),
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [.product(name: "Messaging", package: "swift-general-observer"), "MallocInfo"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
