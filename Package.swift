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
        // `--remember NAME`'s store (Sources/Pick/Memory/MemoryStore.swift); apt provider
        // `libsqlite3-dev`, linked statically in a release build (the Makefile).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CPickScan"),
        .target(name: "CPickSystem"),
        .target(
            name: "PickCore",
            dependencies: ["CPickScan"],
            // Each folder opens with a README.md on what it owns.
            exclude: ["Input/README.md", "Text/README.md", "Matching/README.md", "Search/README.md",
                      "Session/README.md", "View/README.md", "Options/README.md", "Memory/README.md", "Remote/README.md"],
            // The hot loops touch class-owned buffers millions of times a search; release
            // builds skip the run-time exclusivity check on each access (debug keeps it).
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "Pick",
            dependencies: ["PickCore", "CPickScan", "CPickSystem", "CLibEdit", "CLibEditShim", "CSQLite"],
            exclude: ["Terminal/README.md", "Painting/README.md", "Picker/README.md", "Commands/README.md",
                      "Shell/README.md", "Memory/README.md", "Input/README.md"]
        ),
        .testTarget(name: "PickCoreTests", dependencies: ["PickCore", "Pick"]),
        .testTarget(name: "PickEndToEndTests", dependencies: ["PickCore", "CSQLite"]),
    ],
    swiftLanguageModes: [.v5]
)
