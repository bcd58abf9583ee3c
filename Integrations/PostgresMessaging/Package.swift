// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-general-observer-postgres",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "PostgresMessaging", targets: ["PostgresMessaging"])
    ],
    dependencies: [
        .package(name: "swift-general-observer", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "PostgresMessaging",
            dependencies: [
                .product(name: "Messaging", package: "swift-general-observer"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "PostgresMessagingBenchmark",
            dependencies: [
                "PostgresMessaging",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/PostgresMessagingBenchmark"
        ),
        .executableTarget(
            name: "SharedTaskBoard",
            dependencies: [
                "PostgresMessaging",
                .product(name: "Messaging", package: "swift-general-observer"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/SharedTaskBoard"
        ),
        .testTarget(
            name: "PostgresMessagingTests",
            dependencies: [
                "PostgresMessaging",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
