// swift-tools-version:6.0
// bench/engine - the search engine's time per keystroke, in process: no terminal, no
// harness, so runs differ by a few percent where bench/interactive's differ by tens.
// `swift run -c release --package-path bench/engine engine-keys FILE [QUERY] [REPS]`
import Foundation
import PackageDescription

// The repository, two folders up; SwiftPM names a local package after its folder.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let package = Package(
    name: "engine-bench",
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "CMalloc", path: "CMalloc"),
        .executableTarget(name: "engine-keys",
                          dependencies: ["CMalloc",
                                         .product(name: "PickCore", package: root.lastPathComponent.lowercased())],
                          path: "Sources"),
    ],
    swiftLanguageModes: [.v5]
)
