import Foundation
import XCTest

/// `pick --preview-builtin PATH` (what `--preview builtin` runs) on real files, directories,
/// links, a FIFO, a device and paths it cannot read. Every run is under `timeout`, so a
/// previewer that blocks on a FIFO fails the test instead of hanging it.
final class BuiltinPreviewTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("pick-preview-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let dir {
            _ = try? run(["chmod", "-R", "u+rwx", dir.path])
            try? FileManager.default.removeItem(at: dir)
        }
    }

    private func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    private func write(_ name: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: dir.appendingPathComponent(name))
    }

    /// Runs `command` in the test's directory, with `environment` added, and waits at most 10 s.
    private func run(_ command: [String], environment: [String: String] = [:]) throws -> PickRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "10"] + command
        process.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PICK_PREVIEW_LINES")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 124, "timed out: \(command)")
        return PickRun(stdout: data, stderr: String(decoding: errors, as: UTF8.self), status: process.terminationStatus)
    }

    /// The preview of `target`, which must succeed with nothing on stderr.
    private func preview(_ target: String, environment: [String: String] = [:],
                         file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try run([pickBinaryPath(), "--preview-builtin", target], environment: environment)
        XCTAssertEqual(result.status, 0, "exit status for \(target)", file: file, line: line)
        XCTAssertEqual(result.stderr, "", file: file, line: line)
        return result.text
    }

    func testATextFileShowsItsFirstLinesAsTheyAre() throws {
        let lines = (1...300).map { "line \($0)" }
        try write("notes.txt", Array((lines.joined(separator: "\n") + "\n").utf8))
        XCTAssertEqual(try preview("notes.txt"), (lines.prefix(100).joined(separator: "\n")) + "\n", "relative to the cwd")
        XCTAssertEqual(try preview(path("notes.txt"), environment: ["PICK_PREVIEW_LINES": "120"]).split(separator: "\n").count,
                       120, "a tall pane gets as many lines as it has rows")
        // Escape sequences are passed on: the pane draws them as symbols.
        try write("colors", Array("\u{1B}[31mred\u{1B}[0m\ttab\r\nno newline at the end".utf8))
        XCTAssertEqual(try preview("colors"), "\u{1B}[31mred\u{1B}[0m\ttab\r\nno newline at the end\n")
        try write("empty", [])
        XCTAssertEqual(try preview("empty"), "empty file\n")
    }

    func testAHugeLineIsCutAtTheReadLimit() throws {
        try write("minified.js", [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20))
        let text = try preview("minified.js")
        XCTAssertEqual(text.utf8.count, (64 << 10) + 1, "64 KiB and a newline")
    }

    func testABinaryFileIsOneLine() throws {
        var bytes = [UInt8](repeating: 0x7F, count: 5000)
        bytes[10] = 0
        try write("image.bin", bytes)
        XCTAssertEqual(try preview("image.bin"), "binary file, 5000 bytes\n")
    }

    func testADirectoryListsItsEntriesSortedWithMarks() throws {
        try FileManager.default.createDirectory(atPath: path("d/src"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("d/.git"), withIntermediateDirectories: true)
        for name in ["b.txt", "A.md", ".env"] { try write("d/\(name)", []) }
        try FileManager.default.createSymbolicLink(atPath: path("d/link"), withDestinationPath: "b.txt")
        XCTAssertEqual(try preview("d"), "A.md\nb.txt\nlink@\nsrc/\n.env\n.git/\n")
        XCTAssertEqual(try preview(path("d/src")), "empty directory\n")
    }

    func testABigDirectorySaysHowManyMore() throws {
        try FileManager.default.createDirectory(atPath: path("many"), withIntermediateDirectories: true)
        for i in 0..<250 { try write("many/f\(1000 + i)", []) }
        let lines = try preview("many").split(separator: "\n")
        XCTAssertEqual(lines.count, 100)
        XCTAssertEqual(lines.first, "f1000")
        XCTAssertEqual(lines[98], "f1098")
        XCTAssertEqual(lines.last, "… 151 more")
    }

    func testALinkShowsItsTargetThenTheTargetsPreview() throws {
        try write("real.txt", Array("inside\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: "real.txt")
        try FileManager.default.createSymbolicLink(atPath: path("dangling"), withDestinationPath: "no/such/file")
        try FileManager.default.createSymbolicLink(atPath: path("loop"), withDestinationPath: "loop")
        XCTAssertEqual(try preview("link"), "symbolic link to real.txt\ninside\n")
        XCTAssertEqual(try preview("dangling"), "symbolic link to no/such/file\ncannot read: No such file or directory\n")
        XCTAssertEqual(try preview("loop"), "symbolic link to loop\ncannot read: Too many levels of symbolic links\n")
    }

    /// Opening a FIFO for reading blocks until a writer comes: the previewer must not open it
    /// (`timeout` in `run` turns a hang into a failure), nor a device, nor a link to a FIFO.
    func testAFifoADeviceAndASocketAreNotedNotRead() throws {
        XCTAssertEqual(mkfifo(path("fifo"), 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: path("to-fifo"), withDestinationPath: "fifo")
        XCTAssertEqual(try preview("fifo"), "named pipe (FIFO), not read\n")
        XCTAssertEqual(try preview("to-fifo"), "symbolic link to fifo\nnamed pipe (FIFO), not read\n")
        XCTAssertEqual(try preview("/dev/zero"), "character device, not read\n")
        let socket = try run(["python3", "-c", "import socket; socket.socket(socket.AF_UNIX).bind('sock')"])
        if socket.status == 0 {
            XCTAssertEqual(try preview("sock"), "socket, not read\n")
        }
    }

    /// The tests run as root, who reads a mode-0000 file: the cases here are ones root cannot
    /// read either (a path under a missing directory or under a file, /proc/self/mem's
    /// unmapped first page), and the 0000 file is read as `nobody` through setpriv.
    func testWhatCannotBeReadIsOneLineAndStillSucceeds() throws {
        try write("file", Array("x\n".utf8))
        XCTAssertEqual(try preview("missing/dir/x"), "cannot read: No such file or directory\n")
        XCTAssertEqual(try preview("file/x"), "cannot read: Not a directory\n")
        XCTAssertEqual(try preview(""), "cannot read: No such file or directory\n")
        XCTAssertEqual(try preview("/proc/self/mem"), "cannot read: Input/output error\n")
        try write("secret", Array("s\n".utf8))
        XCTAssertEqual(chmod(path("secret"), 0), 0)
        if getuid() != 0 {
            XCTAssertEqual(try preview("secret"), "cannot read: Permission denied\n")
        } else if FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            XCTAssertEqual(chmod(dir.path, 0o755), 0)
            let result = try run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                  pickBinaryPath(), "--preview-builtin", path("secret")])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.text, "cannot read: Permission denied\n")
        }
    }

    func testNamesWithNewlinesQuotesDashesAndAnyBytesAreTakenAsTheyAre() throws {
        try write("-rf", Array("dash\n".utf8))
        try write("--help", Array("not the help\n".utf8))
        try write("it's \"quoted\"\nand two lines", Array("odd name\n".utf8))
        try write("~", Array("tilde\n".utf8))
        XCTAssertEqual(try preview("-rf"), "dash\n")
        XCTAssertEqual(try preview("--help"), "not the help\n")
        XCTAssertEqual(try preview("it's \"quoted\"\nand two lines"), "odd name\n")
        XCTAssertEqual(try preview("~"), "tilde\n", "no ~ expansion")
        // A name that is not UTF-8: made and previewed by the shell, so that its bytes survive.
        let script = #"n=$(printf 'caf\351\001'); printf 'latin\n' > "$n"; exec "$0" --preview-builtin "$n""#
        let result = try run(["sh", "-c", script, pickBinaryPath()])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.text, "latin\n")
        // A directory's entry with a newline in its name stays one line.
        try FileManager.default.createDirectory(atPath: path("odd"), withIntermediateDirectories: true)
        try write("odd/a\nb", [])
        XCTAssertEqual(try preview("odd"), "a␊b\n")
    }

    func testAUsageErrorIsExitTwo() throws {
        let none = try run([pickBinaryPath(), "--preview-builtin"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.hasPrefix("pick: usage: pick --preview-builtin PATH"), none.stderr)
        let two = try run([pickBinaryPath(), "--preview-builtin", "a", "b"])
        XCTAssertEqual(two.status, 2)
        let late = try run([pickBinaryPath(), "--exact", "--preview-builtin", "a"])
        XCTAssertEqual(late.status, 2)
        XCTAssertEqual(late.stderr, "pick: --preview-builtin must come first, alone with its path: pick --preview-builtin PATH\n")
    }

    /// Neither PICK_DEFAULT_OPTS nor PICK_DEFAULT_OPTS_FILE is read: what pick would refuse
    /// there does not stop a preview.
    func testDefaultOptionsDoNotReachThePreviewer() throws {
        try write("a", Array("a\n".utf8))
        XCTAssertEqual(try preview("a", environment: ["PICK_DEFAULT_OPTS": "--no-such-option"]), "a\n")
        XCTAssertEqual(try preview("a", environment: ["PICK_DEFAULT_OPTS_FILE": path("missing/opts")]), "a\n")
    }
}
