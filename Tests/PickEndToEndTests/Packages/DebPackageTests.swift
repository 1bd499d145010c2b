import Foundation
import XCTest

/// `make deb`'s packages installed on this machine for real with dpkg, used as a user
/// would (pick by name, `man pick`, the shells' completion and key bindings), then removed.
/// The tests leave the machine as they found it; they step aside when it already has a
/// pick or an fzf in /usr/bin of its own, which installing would replace.
final class DebPackageTests: XCTestCase {
    private var lock: MachineLock!
    private var temp: URL!
    private var version = ""

    override func setUpWithError() throws {
        lock = MachineLock("pick-deb-tests")
        for path in ["/usr/bin/pick", "/usr/bin/fzf"] where FileManager.default.fileExists(atPath: path) {
            let owner = try runTool(["dpkg-query", "-S", path]).output
            throw XCTSkip("\(path) is already on this machine (\(owner.trimmingCharacters(in: .whitespacesAndNewlines))): installing the .deb would replace it, so the test leaves it alone")
        }
        temp = FileManager.default.temporaryDirectory.appendingPathComponent("pick-deb-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        version = try pickVersion()
        if DebPackageTests.built == nil {
            let make = try runTool(["make", "deb", "PACKAGE_BIN=\(try releaseBinaryForPackages())"])
            DebPackageTests.built = make
        }
        let make = try XCTUnwrap(DebPackageTests.built)
        XCTAssertEqual(make.status, 0, make.output)
    }

    /// `make deb` runs once for the class: packing 12 MB with xz takes a while.
    nonisolated(unsafe) private static var built: (status: Int32, output: String)?

    override func tearDown() {
        // Whatever a failed test left installed goes.
        _ = try? runTool(["dpkg", "--purge", "pick-fzf", "pick-picker"])
        if let temp { try? FileManager.default.removeItem(at: temp) }
        lock = nil
    }

    private func deb(_ name: String) -> String {
        let arch = name == "pick-fzf" ? "all" : (try? runTool(["dpkg", "--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? "amd64"
        return repositoryRoot.appendingPathComponent(".build/packages/\(name)_\(version)_\(arch).deb").path
    }

    /// What dpkg says it installed for `package`: files and links, no directories.
    private func installedPaths(_ package: String) throws -> [String] {
        let list = try runTool(["dpkg-query", "-L", package])
        XCTAssertEqual(list.status, 0, list.output)
        return list.output.split(separator: "\n").map(String.init).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
                || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
        }
    }

    private func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path) || (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// A shell started interactively (no terminal: it binds keys but draws nothing), with a
    /// home of its own so that no startup file of the machine's takes part.
    private func interactiveShell(_ shell: String, _ script: String) throws -> String {
        let home = temp.appendingPathComponent("home-\(shell)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let args: [String]
        switch shell {
        case "bash": args = ["bash", "--norc", "--noprofile", "-ic", script]
        case "zsh": args = ["zsh", "-f", "-ic", script]
        default: args = ["fish", "-ic", script]  // --no-config would empty its completion path
        }
        return try runTool(args, environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]).output
    }

    /// One install and one removal for everything a user does with the two packages (each
    /// dpkg run costs seconds, man-db's trigger most of them). Debian's own package pick
    /// (unrelated, also /usr/bin/pick) is there first and is not overwritten in silence:
    /// dpkg removes it in the open, as Conflicts/Replaces ask. pick is then on PATH with its
    /// manual, completion and key bindings; pick-fzf makes `fzf` run pick; removing pick-fzf
    /// leaves pick installed, and removing pick-picker leaves none of its files.
    func testTheDebsReplaceDebiansPickWorkAsInstalledAndRemoveEveryFile() throws {
        let standIn = try debianPickStandIn()
        defer { _ = try? runTool(["dpkg", "--purge", "pick"]) }
        XCTAssertEqual(try runTool(["dpkg", "-i", standIn]).status, 0)

        let install = try runTool(["dpkg", "-i", deb("pick-picker"), deb("pick-fzf")])
        XCTAssertEqual(install.status, 0, install.output)
        XCTAssertTrue(install.output.contains("removing pick in favour of pick-picker"), install.output)
        XCTAssertNotEqual(try runTool(["dpkg-query", "-W", "-f=${Status}", "pick"]).output, "install ok installed")

        XCTAssertEqual(try runTool(["pick", "--version"], environment: ["PATH": "/usr/bin:/bin"]).output, "pick \(version)\n")
        let filter = try runTool(["/usr/bin/pick", "--filter", "nan"], input: "apple\nbanana\ncherry\n")
        XCTAssertEqual(filter.output, "banana\n")
        XCTAssertEqual(try runTool(["man", "-w", "pick"]).output, "/usr/share/man/man1/pick.1.gz\n")
        let page = try runTool(["man", "-P", "cat", "pick"], environment: ["MANWIDTH": "80"])
        XCTAssertTrue(page.output.contains("SHELL INTEGRATION"), page.output)

        // Completion where each shell looks for it: bash-completion's folder, a folder of
        // Debian's zsh's $fpath, fish's vendor folder (fish completes from it for real).
        let bash = "/usr/share/bash-completion/completions/pick"
        XCTAssertEqual(try String(contentsOfFile: bash, encoding: .utf8), try runPick(["--completion", "bash"]).text)
        let fpath = try runTool(["zsh", "-fc", "print -l $fpath"]).output.split(separator: "\n").map(String.init)
        let zsh = fpath.map { $0 + "/_pick" }.filter { FileManager.default.fileExists(atPath: $0) }
        XCTAssertEqual(zsh, ["/usr/share/zsh/vendor-completions/_pick"], "zsh's fpath: \(fpath)")
        XCTAssertTrue(try interactiveShell("fish", "complete -C 'pick --layo'").contains("--layout"))

        // The key bindings, sourced as the README says, bind pick's widgets.
        XCTAssertTrue(try interactiveShell("bash", "source /usr/share/pick/key-bindings.bash; bind -X").contains("__pick_ctrl_r"))
        XCTAssertTrue(try interactiveShell("zsh", "source /usr/share/pick/key-bindings.zsh; bindkey '^T'").contains("pick-file-widget"))
        XCTAssertTrue(try interactiveShell("fish", "source /usr/share/pick/key-bindings.fish; bind \\ct").contains("pick-file-widget"))

        // pick-fzf: fzf is pick, by name and by manual.
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/usr/bin/fzf"), "pick")
        let fzf = try runTool(["fzf", "--filter", "nan"], environment: ["PATH": "/usr/bin:/bin"], input: "apple\nbanana\ncherry\n")
        XCTAssertEqual(fzf.output, "banana\n")
        XCTAssertTrue(try runTool(["/usr/bin/fzf", "--version"]).output.contains("pick"))
        let fzfPage = try runTool(["man", "-P", "cat", "fzf"], environment: ["MANWIDTH": "80"])
        XCTAssertTrue(fzfPage.output.contains("FZF COMPATIBILITY"), "man fzf shows pick's manual: \(fzfPage.output.prefix(500))")

        let installed = try installedPaths("pick-picker")
        XCTAssertTrue(installed.contains("/usr/bin/pick"), "\(installed)")
        XCTAssertTrue(installed.contains("/usr/share/doc/pick-picker/copyright"), "\(installed)")

        let removeFzf = try runTool(["dpkg", "-r", "pick-fzf"])
        XCTAssertEqual(removeFzf.status, 0, removeFzf.output)
        XCTAssertFalse(exists("/usr/bin/fzf"))
        XCTAssertFalse(exists("/usr/share/man/man1/fzf.1.gz"))
        XCTAssertEqual(try runTool(["/usr/bin/pick", "--version"]).output, "pick \(version)\n")

        let remove = try runTool(["dpkg", "-r", "pick-picker"])
        XCTAssertEqual(remove.status, 0, remove.output)
        XCTAssertEqual(installed.filter(exists), [], "left after dpkg -r")
        XCTAssertFalse(exists("/usr/share/pick"))
        XCTAssertNotEqual(try runTool(["dpkg-query", "-W", "-f=${Status}", "pick-picker"]).output, "install ok installed")
    }

    /// A stand-in for Debian's package pick: a real package of that name, built here, since
    /// the test must not need Debian's mirror.
    private func debianPickStandIn() throws -> String {
        let root = temp.appendingPathComponent("debian-pick")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("usr/bin"), withIntermediateDirectories: true)
        try "Package: pick\nVersion: 2.0.2-1.1\nArchitecture: all\nMaintainer: test <test@example.org>\nDescription: stand-in for Debian's pick\n stand-in\n"
            .write(to: root.appendingPathComponent("DEBIAN/control"), atomically: true, encoding: .utf8)
        try "#!/bin/sh\necho debian pick\n".write(to: root.appendingPathComponent("usr/bin/pick"), atomically: true, encoding: .utf8)
        chmod(root.appendingPathComponent("usr/bin/pick").path, 0o755)
        let standIn = temp.appendingPathComponent("pick_2.0.2-1.1_all.deb").path
        XCTAssertEqual(try runTool(["dpkg-deb", "--root-owner-group", "--build", root.path, standIn]).status, 0)
        return standIn
    }

    func testLintianFindsNoErrorInEitherPackage() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian"), "no lintian: make test-deps installs it")
        let lintian = try runTool(["lintian", "--tag-display-limit", "0", deb("pick-picker"), deb("pick-fzf")])
        let errors = lintian.output.split(separator: "\n").filter { $0.hasPrefix("E:") }
        XCTAssertEqual(errors, [], lintian.output)
        XCTAssertEqual(lintian.status, 0, lintian.output)
    }
}
