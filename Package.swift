// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-general-observer",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "GeneralObserver", targets: ["GeneralObserver"])
    ],
    targets: [
        .target(name: "GeneralObserver"),
        .testTarget(name: "GeneralObserverTests", dependencies: ["GeneralObserver"]),
    ],
    swiftLanguageModes: [.v6]
)
