import Foundation
import XCTest

/// The static release build the packages are made from. `make test` builds it before the
/// suite; run alone, a test builds a missing one with `make release` in a scratch folder
/// of its own (swift test holds .build while it runs), which takes minutes, once.
func releaseBinaryForPackages() throws -> String {
    let built = repositoryRoot.appendingPathComponent(".build/release/pick").path
    if FileManager.default.isExecutableFile(atPath: built) { return built }
    let scratch = ".build/package-tests"
    let own = repositoryRoot.appendingPathComponent(scratch + "/release/pick").path
    let make = try runTool(["make", "release", "SCRATCH=\(scratch)"])
    guard make.status == 0, FileManager.default.isExecutableFile(atPath: own) else {
        throw PackageTestError("no release build of pick to pack, and make release failed: \(make.output.suffix(2000))")
    }
    return own
}

struct PackageTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The version pick reports, as the packages' names carry it ("0.1.0").
func pickVersion() throws -> String {
    let words = try runPick(["--version"]).text.split(separator: " ")
    return words.count >= 2 ? String(words[1]).trimmingCharacters(in: .whitespacesAndNewlines) : ""
}

/// Every file and link below `root`, as paths relative to it (directories left out).
func filesAndLinks(under root: String) -> [String] {
    var found: [String] = []
    let walker = FileManager.default.enumerator(atPath: root)
    while let path = walker?.nextObject() as? String {
        let type = (try? FileManager.default.attributesOfItem(atPath: root + "/" + path))?[.type] as? FileAttributeType
        if type != .typeDirectory { found.append(path) }
    }
    return found.sorted()
}

/// Holds an exclusive lock on a file in /tmp for as long as it lives: the .deb tests
/// install into the machine's own dpkg database, one run at a time across worktrees.
final class MachineLock {
    private let fd: Int32

    init(_ name: String) {
        fd = open("/tmp/\(name).lock", O_CREAT | O_RDWR, 0o644)
        if fd >= 0 { _ = flock(fd, LOCK_EX) }
    }

    deinit {
        if fd >= 0 { close(fd) }
    }
}
