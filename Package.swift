// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pick",
    products: [
        .executable(name: "pick", targets: ["Pick"]),
        .library(name: "PickCore", targets: ["PickCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]
        ),
        .target(name: "CLibEditShim", dependencies: ["CLibEdit"]),
        .target(
            name: "PickCore"
        ),
        .executableTarget(
            name: "Pick",
            dependencies: ["PickCore", "CLibEdit", "CLibEditShim"]
        ),
        .testTarget(name: "PickCoreTests", dependencies: ["PickCore"]),
        .testTarget(name: "PickEndToEndTests", dependencies: ["PickCore"]),
    ],
    swiftLanguageModes: [.v5]
)
