// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-general-observer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GeneralObserver", targets: ["GeneralObserver"]),
        .library(name: "Messaging", targets: ["Messaging"]),
        .library(name: "SwiftObserverCompatibility", targets: ["SwiftObserverCompatibility"]),
    ],
    targets: [
        .target(name: "GeneralObserver"),
        .target(name: "_MessagingShims"),
        .target(name: "Messaging", dependencies: ["GeneralObserver", "_MessagingShims"]),
        .target(name: "SwiftObserverCompatibility", dependencies: ["Messaging"]),
        // Helpers that every test target uses (threads, locked state, seeded randomness); it
        // depends on no module of the library.
        .target(name: "SharedTestSupport", path: "Tests/SharedTestSupport"),
        // What the Messaging tests and the compatibility layer's tests share.
        .target(
            name: "MessagingTestSupport",
            dependencies: ["Messaging", "SharedTestSupport"],
            path: "Tests/MessagingTestSupport"
        ),
        .testTarget(name: "GeneralObserverTests", dependencies: ["GeneralObserver", "SharedTestSupport"]),
        .testTarget(name: "MessagingTests", dependencies: ["Messaging", "SharedTestSupport", "MessagingTestSupport"]),
        .testTarget(
            name: "SwiftObserverCompatibilityTests",
            dependencies: ["Messaging", "SwiftObserverCompatibility", "SharedTestSupport", "MessagingTestSupport"]
        ),
        .executableTarget(name: "DeviceMonitor", dependencies: ["GeneralObserver"], path: "Examples/DeviceMonitor"),
        .executableTarget(name: "TaskBoard", dependencies: ["Messaging"], path: "Examples/TaskBoard"),
        .executableTarget(name: "BugTracker", dependencies: ["Messaging"], path: "Examples/BugTracker"),
    ],
    swiftLanguageModes: [.v6]
)
