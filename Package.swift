// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-general-observer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GeneralObserver", targets: ["GeneralObserver"]),
        .library(name: "Messaging", targets: ["Messaging"]),
    ],
    targets: [
        .target(name: "GeneralObserver"),
        .target(name: "_MessagingShims"),
        .target(name: "Messaging", dependencies: ["GeneralObserver", "_MessagingShims"]),
        .testTarget(name: "GeneralObserverTests", dependencies: ["GeneralObserver"]),
        .testTarget(name: "MessagingTests", dependencies: ["Messaging"]),
        .executableTarget(name: "DeviceMonitor", dependencies: ["GeneralObserver"], path: "Examples/DeviceMonitor"),
        .executableTarget(name: "TaskBoard", dependencies: ["Messaging"], path: "Examples/TaskBoard"),
    ],
    swiftLanguageModes: [.v6]
)
