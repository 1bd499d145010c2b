import Foundation
import XCTest

/// `make install` puts pick and pick.1 where `man pick` finds them, under PREFIX and DESTDIR.
/// The tests install the debug build (INSTALL_BIN) rather than build a release one.
final class InstallTests: XCTestCase {
    private var temp: URL!

    override func setUpWithError() throws {
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("pick-install-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: temp)
    }

    private func run(_ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        try runTool(args, environment: environment)
    }

    func testMakeInstallPutsPickAndItsManPageWhereManFindsThem() throws {
        let prefix = temp.appendingPathComponent("usr").path
        let make = try run(["make", "install", "INSTALL_BIN=\(pickBinaryPath())", "PREFIX=\(prefix)"])
        XCTAssertEqual(make.status, 0, make.output)
        let version = try run(["\(prefix)/bin/pick", "--version"])
        XCTAssertEqual(version.output, "pick 0.1.0\n")
        // man-db looks in PREFIX/share/man for a PREFIX/bin on PATH.
        let man = try run(["man", "-w", "pick"], environment: ["PATH": "\(prefix)/bin:/usr/bin:/bin"])
        XCTAssertEqual(man.status, 0, "man (make deps installs man-db): \(man.output)")
        XCTAssertEqual(man.output, "\(prefix)/share/man/man1/pick.1\n")
        let page = try run(["man", "-P", "cat", "pick"], environment: ["PATH": "\(prefix)/bin:/usr/bin:/bin", "MANWIDTH": "80"])
        XCTAssertTrue(page.output.contains("SHELL INTEGRATION"), page.output)
    }

    func testDestdirStagesTheInstallUnderThePrefix() throws {
        let make = try run(["make", "install", "INSTALL_BIN=\(pickBinaryPath())", "PREFIX=/opt/pick", "DESTDIR=\(temp.path)"])
        XCTAssertEqual(make.status, 0, make.output)
        let staged = temp.appendingPathComponent("opt/pick").path
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: staged + "/bin/pick"))
        let man = try run(["man", "-M", staged + "/share/man", "-w", "pick"])
        XCTAssertEqual(man.output, staged + "/share/man/man1/pick.1\n")
    }

    /// Every regular file below `root`, as paths relative to it.
    private func files(under root: URL) -> [String] {
        let base = root.resolvingSymlinksInPath().path
        var found: [String] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                found.append(String(url.resolvingSymlinksInPath().path.dropFirst(base.count + 1)))
            }
        }
        return found.sorted()
    }

    func testInstallPutsCompletionWhereEachShellLooksAndUninstallRemovesExactlyThat() throws {
        let stage = temp.appendingPathComponent("stage")
        // Something of another package's in the same directories stays.
        let other = stage.appendingPathComponent("usr/share/zsh/site-functions/_other")
        try FileManager.default.createDirectory(at: other.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#compdef other\n".utf8).write(to: other)
        let install = try run(["make", "install", "INSTALL_BIN=\(pickBinaryPath())", "PREFIX=/usr", "DESTDIR=\(stage.path)"])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertEqual(files(under: stage), [
            "usr/bin/pick", "usr/share/bash-completion/completions/pick",
            "usr/share/fish/vendor_completions.d/pick.fish", "usr/share/man/man1/pick.1",
            "usr/share/pick/key-bindings.bash", "usr/share/pick/key-bindings.fish", "usr/share/pick/key-bindings.zsh",
            "usr/share/zsh/site-functions/_other", "usr/share/zsh/site-functions/_pick",
        ])
        for (shell, path) in [("bash", "usr/share/bash-completion/completions/pick"),
                              ("zsh", "usr/share/zsh/site-functions/_pick"),
                              ("fish", "usr/share/fish/vendor_completions.d/pick.fish")] {
            let installed = try String(contentsOf: stage.appendingPathComponent(path), encoding: .utf8)
            XCTAssertEqual(installed, try runPick(["--completion", shell]).text, path)
            let integration = try String(contentsOf: stage.appendingPathComponent("usr/share/pick/key-bindings.\(shell)"), encoding: .utf8)
            XCTAssertEqual(integration, try runPick(["--shell", shell]).text, shell)
        }
        let uninstall = try run(["make", "uninstall", "PREFIX=/usr", "DESTDIR=\(stage.path)"])
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        XCTAssertEqual(files(under: stage), ["usr/share/zsh/site-functions/_other"])
    }

    func testMakeInstallBuildsTheReleaseBinaryByDefault() throws {
        let dry = try run(["make", "-n", "install", "PREFIX=/usr/local"])
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.output.contains("build -c release"), dry.output)
        XCTAssertTrue(dry.output.contains("install -m 755 .build/release/pick \"/usr/local/bin/pick\""), dry.output)
        XCTAssertTrue(dry.output.contains("install -m 644 man/pick.1 \"/usr/local/share/man/man1/pick.1\""), dry.output)
    }

    func testInstallFzfLinkMakesFzfRunPickAndUninstallFzfLinkTakesOnlyTheLink() throws {
        let prefix = temp.appendingPathComponent("usr").path
        XCTAssertEqual(try run(["make", "install", "INSTALL_BIN=\(pickBinaryPath())", "PREFIX=\(prefix)"]).status, 0)
        let link = try run(["make", "install-fzf-link", "PREFIX=\(prefix)"])
        XCTAssertEqual(link.status, 0, link.output)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/fzf"), "pick")
        let fzf = try runTool(["fzf", "--filter", "nan"], environment: ["PATH": "\(prefix)/bin:/usr/bin:/bin"], input: "apple\nbanana\n")
        XCTAssertEqual(fzf.output, "banana\n")
        let unlink = try run(["make", "uninstall-fzf-link", "PREFIX=\(prefix)"])
        XCTAssertEqual(unlink.status, 0, unlink.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/bin/fzf"))
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: prefix + "/bin/pick"))
        // make uninstall takes the link too, which would point at nothing once pick is gone.
        XCTAssertEqual(try run(["make", "install-fzf-link", "PREFIX=\(prefix)"]).status, 0)
        XCTAssertEqual(try run(["make", "uninstall", "PREFIX=\(prefix)"]).status, 0)
        XCTAssertEqual(files(under: temp), [])
        XCTAssertNil(try? FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/bin/fzf"))
    }

    func testInstallFzfLinkRefusesInOneLineToReplaceARealFzf() throws {
        let prefix = temp.appendingPathComponent("usr").path
        XCTAssertEqual(try run(["make", "install", "INSTALL_BIN=\(pickBinaryPath())", "PREFIX=\(prefix)"]).status, 0)
        let realFzf = "#!/bin/sh\necho the real fzf\n"
        try realFzf.write(toFile: prefix + "/bin/fzf", atomically: true, encoding: .utf8)
        let link = try run(["make", "--no-print-directory", "install-fzf-link", "PREFIX=\(prefix)"])
        XCTAssertNotEqual(link.status, 0, link.output)
        XCTAssertEqual(link.output.split(separator: "\n").first.map(String.init),
                       "fzf-link: \(prefix)/bin/fzf is another fzf, not a link to pick: left as it is (remove it first to have pick answer as fzf)")
        XCTAssertEqual(try String(contentsOfFile: prefix + "/bin/fzf", encoding: .utf8), realFzf)
        XCTAssertEqual(try run(["make", "uninstall-fzf-link", "PREFIX=\(prefix)"]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: prefix + "/bin/fzf", encoding: .utf8), realFzf)
    }
}
