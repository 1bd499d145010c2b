import Foundation
import XCTest

/// `make dist`'s archive, unpacked as a user unpacks it, installed with its install.sh under
/// a temporary prefix (or the default, ~/.local, with a temporary HOME) and uninstalled.
final class ArchivePackageTests: XCTestCase {
    private var temp: URL!
    private var folder = ""
    private var version = ""

    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("pick-dist-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        version = try pickVersion()
        if ArchivePackageTests.built == nil {
            ArchivePackageTests.built = try runTool(["make", "dist", "PACKAGE_BIN=\(try releaseBinaryForPackages())"])
        }
        let make = try XCTUnwrap(ArchivePackageTests.built)
        XCTAssertEqual(make.status, 0, make.output)
        let name = "pick-\(version)-linux-x86_64"
        let archive = repositoryRoot.appendingPathComponent(".build/packages/\(name).tar.gz").path
        let untar = try runTool(["tar", "-xzf", archive, "-C", temp.path])
        XCTAssertEqual(untar.status, 0, untar.output)
        folder = temp.appendingPathComponent(name).path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: temp)
    }

    /// `make dist` runs once for the class (XCTest runs a class's tests one after another).
    nonisolated(unsafe) private static var built: (status: Int32, output: String)?

    private func installScript(_ args: [String], home: String? = nil) throws -> (status: Int32, output: String) {
        try runTool([folder + "/install.sh"] + args, environment: ["HOME": home ?? temp.appendingPathComponent("home").path])
    }

    func testInstallShPutsPickUnderThePrefixWhereManFindsItAndUninstallLeavesNothing() throws {
        let prefix = temp.appendingPathComponent("prefix").path
        let install = try installScript(["--prefix", prefix])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(install.output.contains("source \(prefix)/share/pick/key-bindings.bash"), install.output)
        XCTAssertEqual(filesAndLinks(under: prefix), [
            "bin/pick", "share/bash-completion/completions/pick", "share/fish/vendor_completions.d/pick.fish",
            "share/man/man1/pick.1", "share/pick/key-bindings.bash", "share/pick/key-bindings.fish",
            "share/pick/key-bindings.zsh", "share/zsh/site-functions/_pick",
        ])
        XCTAssertEqual(try runTool([prefix + "/bin/pick", "--version"]).output, "pick \(version)\n")
        XCTAssertEqual(try runTool([prefix + "/bin/pick", "--filter", "nan"], input: "apple\nbanana\ncherry\n").output, "banana\n")
        let path = "\(prefix)/bin:/usr/bin:/bin"
        XCTAssertEqual(try runTool(["man", "-w", "pick"], environment: ["PATH": path]).output, "\(prefix)/share/man/man1/pick.1\n")
        XCTAssertEqual(try String(contentsOfFile: prefix + "/share/pick/key-bindings.zsh", encoding: .utf8),
                       try runPick(["--shell", "zsh"]).text)

        let uninstall = try installScript(["--prefix", prefix, "--uninstall"])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(filesAndLinks(under: prefix), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/share/pick"))
    }

    func testInstallShDefaultsToDotLocalInHome() throws {
        let home = temp.appendingPathComponent("someone").path
        let install = try installScript([], home: home)
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertEqual(try runTool([home + "/.local/bin/pick", "--version"]).output, "pick \(version)\n")
        XCTAssertEqual(try installScript(["--uninstall"], home: home).status, 0)
        XCTAssertEqual(filesAndLinks(under: home), [])
    }

    func testFzfLinkMakesFzfRunPickAndGoesAwayAlone() throws {
        let prefix = temp.appendingPathComponent("prefix").path
        let install = try installScript(["--prefix", prefix, "--fzf-link"])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/fzf"), "pick")
        let fzf = try runTool(["fzf", "--filter", "nan"], environment: ["PATH": "\(prefix)/bin:/usr/bin:/bin"], input: "apple\nbanana\n")
        XCTAssertEqual(fzf.output, "banana\n")

        let unlink = try installScript(["--prefix", prefix, "--no-fzf-link"])
        XCTAssertEqual(unlink.status, 0, unlink.output)
        XCTAssertFalse(filesAndLinks(under: prefix).contains("bin/fzf"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/pick"))

        XCTAssertEqual(try installScript(["--prefix", prefix, "--fzf-link"]).status, 0)
        XCTAssertEqual(try installScript(["--prefix", prefix, "--uninstall"]).status, 0)
        XCTAssertEqual(filesAndLinks(under: prefix), [])
    }

    func testFzfLinkRefusesInOneLineToReplaceARealFzf() throws {
        let prefix = temp.appendingPathComponent("prefix").path
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        let realFzf = "#!/bin/sh\necho the real fzf\n"
        try realFzf.write(toFile: prefix + "/bin/fzf", atomically: true, encoding: .utf8)
        let install = try installScript(["--prefix", prefix, "--fzf-link"])
        XCTAssertEqual(install.status, 1, install.output)
        let refusal = install.output.split(separator: "\n").filter { $0.contains("fzf-link:") }
        XCTAssertEqual(refusal.count, 1, install.output)
        XCTAssertTrue(refusal.first?.contains("\(prefix)/bin/fzf is another fzf, not a link to pick") == true, install.output)
        XCTAssertEqual(try String(contentsOfFile: prefix + "/bin/fzf", encoding: .utf8), realFzf)

        XCTAssertEqual(try installScript(["--prefix", prefix, "--uninstall"]).status, 0)
        XCTAssertEqual(filesAndLinks(under: prefix), ["bin/fzf"])
        XCTAssertEqual(try String(contentsOfFile: prefix + "/bin/fzf", encoding: .utf8), realFzf)
    }
}
