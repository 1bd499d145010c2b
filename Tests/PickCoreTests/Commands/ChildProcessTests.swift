@testable import Pick
import PickCore
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Everything `child` writes until it closes its output (or `seconds` pass).
func readAll(_ child: ChildProcess, seconds: Double = 10) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        var fds = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
        _ = poll(&fds, 1, 100)
        let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
        if n > 0 { out += buffer[..<n] } else if n == 0 { break }
    }
    return out
}

/// Runs `command` with `/bin/sh -c` through ChildProcess and returns its output.
func runShell(_ command: [UInt8]) throws -> [UInt8] {
    let child = try ChildProcess.spawn(command, environment: [], output: .pipe)
    defer { child.terminate() }
    let out = readAll(child)
    _ = child.wait()
    return out
}

/// Whether process `pid` is gone (or a zombie nobody reaps: it runs nothing any more).
func processIsGone(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    guard let close = stat.lastIndex(of: ")") else { return true }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state == "Z" || state == "X"
}

final class ChildProcessTests: XCTestCase {
    func testACommandsOutputAndErrorsArriveThroughThePipe() throws {
        XCTAssertEqual(String(decoding: try runShell(Array("echo out; echo err >&2".utf8)), as: UTF8.self), "out\nerr\n")
    }

    func testTheCommandSeesPicksEnvironmentPlusTheExtras() throws {
        setenv("PICK_TEST_INHERITED", "yes", 1)
        defer { unsetenv("PICK_TEST_INHERITED") }
        let child = try ChildProcess.spawn(Array("printf '%s %s' \"$PICK_TEST_INHERITED\" \"$PICK_PREVIEW_LINES\"".utf8),
                                           environment: [("PICK_PREVIEW_LINES", "42")], output: .pipe)
        XCTAssertEqual(String(decoding: readAll(child), as: UTF8.self), "yes 42")
        child.terminate()
    }

    func testTheCommandReadsNothingFromPicksInput() throws {
        // stdin is /dev/null: `cat` ends at once instead of eating pick's input.
        XCTAssertEqual(try runShell(Array("cat; echo done".utf8)), Array("done\n".utf8))
    }

    func testTheExitStatusIsReported() throws {
        let child = try ChildProcess.spawn(Array("exit 3".utf8), output: .discard)
        let status = child.wait()
        XCTAssertEqual((status >> 8) & 0xFF, 3)
        child.terminate()
    }

    func testTerminateKillsWhatTheCommandStartedInTheBackground() throws {
        // The shell starts `sleep 30 &` and waits; terminating the command must end the
        // sleep too, not only the shell.
        let child = try ChildProcess.spawn(Array("sleep 30 & echo $!; wait".utf8), output: .pipe)
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        let deadline = Date().addingTimeInterval(10)
        while !line.contains(0x0A) && Date() < deadline {
            var fds = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, 100)
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n > 0 { line += buffer[..<n] }
        }
        let sleeper = pid_t(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))!
        XCTAssertFalse(processIsGone(sleeper), "the background sleep should be running before terminate()")
        let started = Date()
        child.terminate()
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        let gone = Date().addingTimeInterval(5)
        while !processIsGone(sleeper) && Date() < gone { usleep(10_000) }
        XCTAssertTrue(processIsGone(sleeper), "sleep \(sleeper) outlived terminate()")
        XCTAssertTrue(child.hasExited)
        child.terminate()   // idempotent
    }

    func testACommandThatIgnoresTermIsKilled() throws {
        let child = try ChildProcess.spawn(Array("trap '' TERM; echo ready; while :; do sleep 1; done".utf8), output: .pipe)
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while !seen.contains(0x0A) {
            var fds = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            _ = poll(&fds, 1, 100)
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n > 0 { seen += buffer[..<n] }
        }
        let pid = child.pid
        child.terminate()
        XCTAssertTrue(processIsGone(pid))
    }

    func testTerminateAllEndsEveryLiveCommand() throws {
        let a = try ChildProcess.spawn(Array("sleep 30".utf8), output: .discard)
        let b = try ChildProcess.spawn(Array("sleep 30 & wait".utf8), output: .discard)
        ChildProcess.terminateAll()
        let deadline = Date().addingTimeInterval(5)
        while !(processIsGone(a.pid) && processIsGone(b.pid)) && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(processIsGone(a.pid))
        XCTAssertTrue(processIsGone(b.pid))
        a.terminate(); b.terminate()
    }

    func testACommandIsCutAtANulByte() throws {
        XCTAssertEqual(try runShell([UInt8]("echo a".utf8) + [0] + Array("; echo b".utf8)), Array("a\n".utf8))
    }
}
