import Foundation
import XCTest

/// pick started with stdin from a pipe the test keeps open, to act on it mid-stream:
/// write some lines, close or break the pipe, send a signal, then wait with a deadline.
private final class LivePick {
    let process = Process()
    private let output = Pipe(), errors = Pipe()

    /// Starts pick with `arguments`, stdin read from `stdin` (a descriptor the caller owns),
    /// stdout to `stdout` if given (the caller's too), else to a pipe read by `stdout`.
    init(_ arguments: [String], stdin: Int32, stdout: Int32? = nil) throws {
        process.executableURL = URL(fileURLWithPath: pickBinaryPath())
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PICK_DEFAULT_OPTS")
        process.environment = env
        process.standardInput = FileHandle(fileDescriptor: stdin, closeOnDealloc: false)
        process.standardOutput = stdout.map { FileHandle(fileDescriptor: $0, closeOnDealloc: false) } ?? output
        process.standardError = errors
        signal(SIGPIPE, SIG_IGN)
        try process.run()
    }

    /// Waits up to `seconds` for pick to end; kills it and returns false if it does not.
    func waitForExit(seconds: TimeInterval = 10) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { usleep(10_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// Everything pick wrote (read once it has ended; these tests print little).
    lazy var stdout: Data = output.fileHandleForReading.readDataToEndOfFile()
    lazy var stderr: String = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

    /// CPU seconds pick has used so far (user + system, from /proc).
    var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A pipe whose two ends are closed in child processes (O_CLOEXEC): only the descriptors the
/// test hands over stay open, so closing the test's copies really ends the stream.
private func closeOnExecPipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return (fds[0], fds[1])
}

private func write(_ fd: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    XCTAssertEqual(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }, bytes.count)
}

/// A command line run by bash with pick's path as `$0`, bounded by `timeout`.
private func bash(_ script: String, seconds: Int = 20) throws -> (output: String, status: Int32) {
    try TmuxPick.shell(["timeout", "-s", "KILL", "\(seconds)", "bash", "-c", script, pickBinaryPath()])
}

/// What happens around pick: readers that leave, inputs that break, producers that die,
/// signals, no terminal, and the files it writes.
final class HostileProcessTests: XCTestCase {
    private func assertOneLineError(_ text: String, containing part: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(text.hasPrefix("pick: "), text, file: file, line: line)
        XCTAssertTrue(text.hasSuffix("\n"), text, file: file, line: line)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, "exactly one line: \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(part), "'\(text)' should say \(part)", file: file, line: line)
    }

    // MARK: stdout

    func testAReaderThatReadsNothingEndsPickQuietly() throws {
        // head -0 exits at once: pick's first write meets a closed pipe (EPIPE). As a filter in
        // a pipeline, pick stops and exits 0 without a word (not 141, which would fail
        // `set -o pipefail` scripts for what is the reader's choice). "big": 2 MB of output,
        // far more than a pipe holds (3 million lines took the debug build past the 20 s
        // guard at load 16).
        let result = try bash("""
        seq 1 300000 | "$0" -f '' | head -0; echo "big ${PIPESTATUS[1]}"
        printf 'x\\ny\\n' | "$0" -f x | (exec 0<&-; sleep 0.2); echo "small ${PIPESTATUS[1]}"
        """)
        XCTAssertEqual(result.output, "big 0\nsmall 0\n")
    }

    func testAClosedStdoutIsAOneLineErrorNotACrash() throws {
        let result = try bash(#"printf 'alpha\n' | "$0" -f a 2>&1 >&-; echo "status $?""#)
        XCTAssertTrue(result.output.hasSuffix("status 2\n"), result.output)
        assertOneLineError(String(result.output.dropLast("status 2\n".count)), containing: "cannot write output")
    }

    func testAFullDiskIsAOneLineError() throws {
        let result = try bash("""
        seq 1 100 | "$0" -f '' 2>&1 > /dev/full; echo "filter $?"
        "$0" --help 2>&1 > /dev/full; echo "help $?"
        """)
        XCTAssertEqual(result.output, """
        pick: cannot write output: No space left on device
        filter 2
        pick: cannot write output: No space left on device
        help 2

        """)
    }

    func testANonBlockingStdoutIsWaitedOnNotSpunOn() throws {
        // A reader slow to drain a pipe left non-blocking: write() answers EAGAIN while the
        // pipe is full, and pick must sleep in poll until there is room, then write the rest.
        let dir = try temporaryDirectory()
        let input = dir.appendingPathComponent("input").path
        let lines = (1...200_000).map { "line \($0)" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let inputFD = open(input, O_RDONLY | O_CLOEXEC)
        let (readEnd, writeEnd) = closeOnExecPipe()
        XCTAssertEqual(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK), 0)
        let pick = try LivePick(["-f", ""], stdin: inputFD, stdout: writeEnd)
        close(inputFD)
        close(writeEnd)
        sleep(1)
        let cpu = pick.cpuSeconds
        let output = FileHandle(fileDescriptor: readEnd, closeOnDealloc: true).readDataToEndOfFile()
        XCTAssertTrue(pick.waitForExit())
        XCTAssertLessThan(cpu, 0.6, "pick spun on EAGAIN while the reader was away")
        XCTAssertEqual(pick.process.terminationStatus, 0)
        XCTAssertEqual(pick.stderr, "")
        XCTAssertTrue(output == Data((lines.joined(separator: "\n") + "\n").utf8), "every line, in order")
    }

    // MARK: stdin

    func testStdinThatIsADirectoryIsAOneLineError() throws {
        let result = try bash(#""$0" -f x < /; echo "status $?""#)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.dropLast().last, "status 2", result.output)
        assertOneLineError(lines.dropLast(2).joined(separator: "\n") + "\n", containing: "cannot read input: Is a directory")
    }

    func testAClosedStdinIsAOneLineError() throws {
        let result = try bash(#""$0" -f x <&- 2>&1; echo "status $?""#)
        XCTAssertTrue(result.output.hasSuffix("status 2\n"), result.output)
        assertOneLineError(String(result.output.dropLast("status 2\n".count)), containing: "cannot read input")
    }

    func testAReadErrorMidStreamIsAOneLineErrorAndPrintsNoPartialResult() throws {
        // A Unix socket closed by its peer with data still unread in the peer gives ECONNRESET to
        // the reader, after the data that had arrived: an error in the middle of the input.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds), 0)
        let (ours, theirs) = (fds[0], fds[1])
        write(ours, "alpha\nbeta\n")
        write(theirs, "unread by the producer\n")
        let pick = try LivePick(["-f", "a"], stdin: theirs)
        close(theirs)
        usleep(200_000)
        close(ours)
        XCTAssertTrue(pick.waitForExit(), "pick ends")
        XCTAssertEqual(pick.process.terminationStatus, 2)
        XCTAssertEqual(pick.stdout, Data(), "an input that failed is not a result")
        assertOneLineError(pick.stderr, containing: "cannot read input: Connection reset by peer")
    }

    func testANonBlockingStdinIsWaitedOnNotSpunOn() throws {
        // Another program left the pipe non-blocking (the flag is shared by every descriptor
        // of the pipe): read() answers EAGAIN until data comes, and pick must sleep in poll.
        let (readEnd, writeEnd) = closeOnExecPipe()
        XCTAssertEqual(fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK), 0)
        let pick = try LivePick(["-f", "b"], stdin: readEnd)
        close(readEnd)
        write(writeEnd, "alpha\n")
        sleep(1)
        let cpu = pick.cpuSeconds
        write(writeEnd, "beta\n")
        close(writeEnd)
        XCTAssertTrue(pick.waitForExit())
        XCTAssertLessThan(cpu, 0.5, "pick spun on EAGAIN while waiting for input")
        XCTAssertEqual(pick.stdout, Data("beta\n".utf8))
        XCTAssertEqual(pick.process.terminationStatus, 0)
    }

    func testAProducerKilledMidStreamLeavesWhatItWrote() throws {
        let (readEnd, writeEnd) = closeOnExecPipe()
        let producer = Process()
        producer.executableURL = URL(fileURLWithPath: "/bin/sh")
        producer.arguments = ["-c", "printf 'alpha\\nbeta\\nalpaca'; exec sleep 60"]
        producer.standardOutput = FileHandle(fileDescriptor: writeEnd, closeOnDealloc: false)
        try producer.run()
        let pick = try LivePick(["-f", "alp"], stdin: readEnd)
        close(readEnd)
        close(writeEnd)
        usleep(300_000)
        XCTAssertTrue(pick.process.isRunning, "pick waits while the producer lives")
        kill(producer.processIdentifier, SIGKILL)
        producer.waitUntilExit()
        XCTAssertTrue(pick.waitForExit(seconds: 10), "pick ends once the producer is gone")
        XCTAssertEqual(pick.process.terminationStatus, 0)
        XCTAssertEqual(Set(String(decoding: pick.stdout, as: UTF8.self).split(separator: "\n")), ["alpha", "alpaca"],
                       "the lines read, the unfinished last one too")
        XCTAssertEqual(pick.stderr, "")
    }

    // MARK: Signals

    /// pick -f reading a pipe that never ends is stopped by SIGTERM, SIGINT or SIGHUP at once,
    /// and ends by that signal (a shell reports 128+n: 143, 130, 129), printing nothing.
    func testSignalsEndAFilterWaitingOnInput() throws {
        for signo in [SIGTERM, SIGINT, SIGHUP] {
            let (readEnd, writeEnd) = closeOnExecPipe()
            let pick = try LivePick(["-f", "a"], stdin: readEnd)
            close(readEnd)
            write(writeEnd, "alpha\nbeta\n")
            usleep(200_000)
            let sent = Date()
            kill(pick.process.processIdentifier, signo)
            XCTAssertTrue(pick.waitForExit(seconds: 5), "signal \(signo) ended pick")
            XCTAssertLessThan(Date().timeIntervalSince(sent), 2, "signal \(signo): promptly")
            XCTAssertEqual(pick.process.terminationReason, .uncaughtSignal, "signal \(signo)")
            XCTAssertEqual(pick.process.terminationStatus, signo)
            XCTAssertEqual(pick.stdout, Data())
            close(writeEnd)
        }
    }

    func testAShellSeesOneHundredTwentyEightPlusTheSignal() throws {
        // A FIFO held open by the shell itself: input that never ends, and no process left over.
        // (SIGINT is ignored by background jobs of a script; the test above sends it directly.)
        let result = try bash("""
        d=$(mktemp -d); mkfifo "$d/f"
        for sig in TERM HUP; do
          "$0" -f a < "$d/f" & pid=$!
          exec 3> "$d/f"
          sleep 0.3; kill -$sig $pid; { wait $pid; } 2>/dev/null; echo "$sig $?"
          exec 3>&-
        done
        rm -r "$d"
        """)
        XCTAssertEqual(result.output, "TERM 143\nHUP 129\n")
    }

    // MARK: No terminal

    func testWithoutATerminalAnEndlessInputIsNotReadFirst() throws {
        // setsid: no controlling terminal. pick must say so at once, not read `yes` forever.
        let result = try bash(#"yes 2>/dev/null | setsid "$0" 2>&1; echo "status $?""#, seconds: 10)
        XCTAssertTrue(result.output.hasSuffix("status 2\n"), result.output)
        assertOneLineError(String(result.output.dropLast("status 2\n".count)), containing: "no terminal")
    }

    func testWithoutATerminalSelectOneAndExitZeroStillAnswer() throws {
        // -1 with one match and -0 with none need no terminal, as in fzf; two matches do.
        let result = try bash(#"""
        printf 'apple\nbanana\n' | setsid "$0" -1 -q ban 2>&1; echo "one $?"
        printf 'apple\nbanana\n' | setsid "$0" -0 -q zzz 2>&1; echo "none $?"
        printf 'apple\napricot\n' | setsid "$0" -1 -q ap 2>&1 | cut -c1-17; echo "two ${PIPESTATUS[1]}"
        """#, seconds: 10)
        XCTAssertEqual(result.output, "banana\none 0\nnone 1\npick: no terminal\ntwo 2\n")
    }

    // MARK: History file

    private func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("pick-hostile-\(getpid())-\(Int.random(in: 0..<1_000_000_000))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock {
            _ = try? TmuxPick.shell(["chmod", "-R", "u+rwx", dir.path])
            try? FileManager.default.removeItem(at: dir)
        }
        return dir
    }

    /// Runs pick (interactive, so with --history in use) with no terminal. With `unprivileged`
    /// and the tests running as root (who may write anywhere), as the user nobody; skipped
    /// when that cannot run the binary (no setpriv, or a build directory nobody cannot enter).
    private func runWithoutTerminal(_ args: String, unprivileged: Bool = false) throws -> (output: String, status: Int32) {
        var user = ""
        if unprivileged && getuid() == 0 {
            user = "setpriv --reuid=65534 --regid=65534 --clear-groups "
            guard try bash("\(user)\"$0\" --version").status == 0 else {
                throw XCTSkip("running as root, and the user nobody cannot run \(pickBinaryPath()) through setpriv")
            }
        }
        return try bash("echo apple | setsid \(user)\"$0\" \(args) 2>&1; echo \"status $?\"")
    }

    private func assertHistoryRefused(_ args: String, saying part: String, unprivileged: Bool = false,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runWithoutTerminal(args, unprivileged: unprivileged)
        XCTAssertTrue(result.output.hasSuffix("status 2\n"), result.output, file: file, line: line)
        let message = String(result.output.dropLast("status 2\n".count))
        assertOneLineError(message, containing: "--history", file: file, line: line)
        XCTAssertTrue(message.contains(part), "'\(message)' should say \(part)", file: file, line: line)
    }

    func testAHistoryFileInADirectoryThatDoesNotExistIsRefusedAtStart() throws {
        let dir = try temporaryDirectory()
        try assertHistoryRefused("--history '\(dir.path)/missing/history'",
                                 saying: "cannot write '\(dir.path)/missing/history': No such file or directory")
    }

    func testAHistoryFileInADirectoryPickCannotWriteIsRefusedAtStart() throws {
        let dir = try temporaryDirectory()
        let locked = dir.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        XCTAssertEqual(chmod(dir.path, 0o755), 0)
        XCTAssertEqual(chmod(locked.path, 0o555), 0)
        try assertHistoryRefused("--history '\(locked.path)/history'", saying: "Permission denied", unprivileged: true)
    }

    func testAHistoryFilePickCannotReadIsRefusedNotOverwritten() throws {
        let dir = try temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        let history = dir.appendingPathComponent("history").path
        try Data("secret query\n".utf8).write(to: URL(fileURLWithPath: history))
        XCTAssertEqual(chmod(history, 0o200), 0)
        try assertHistoryRefused("--history '\(history)'", saying: "cannot read", unprivileged: true)
    }

    func testAHistoryPathThatIsADirectoryIsRefused() throws {
        let dir = try temporaryDirectory()
        try assertHistoryRefused("--history '\(dir.path)'", saying: "is a directory")
    }

    func testAHistoryPathThatIsAFifoOrADeviceIsRefusedNotOpened() throws {
        // A FIFO would block the read at start forever; /dev/null would be renamed over.
        let dir = try temporaryDirectory()
        let fifo = dir.appendingPathComponent("history").path
        XCTAssertEqual(mkfifo(fifo, 0o666), 0)
        try assertHistoryRefused("--history '\(fifo)'", saying: "is not a regular file")
        try assertHistoryRefused("--history /dev/null", saying: "'/dev/null' is not a regular file")
    }

    func testAHistoryPathTooLongIsRefusedInOneShortLine() throws {
        let dir = try temporaryDirectory()
        try assertHistoryRefused("--history '\(dir.path)/\(String(repeating: "h", count: 300))'", saying: "File name too long")
    }

    func testAWritableHistoryPathIsNotRefused() throws {
        let dir = try temporaryDirectory()
        XCTAssertEqual(chmod(dir.path, 0o777), 0)
        let result = try runWithoutTerminal("--history '\(dir.path)/new-history'", unprivileged: true)
        XCTAssertTrue(result.output.hasPrefix("pick: no terminal"), "the next problem, not the history: \(result.output)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/new-history"), "nothing written without a pick")
    }
}

/// The history file is created with the person's umask, as any file they make.
final class HostileHistoryUmaskTests: InteractiveTestCase {
    private func historyMode(umask mask: String, existing: mode_t? = nil, name: String = "history") throws -> mode_t? {
        try tmux.file("input.txt", "apple\nbanana\n")
        let history = tmux.dir.appendingPathComponent(name).path
        if let existing {
            try tmux.file(name, "older query\n")
            XCTAssertEqual(chmod(history, existing), 0)
        }
        try tmux.start(input: "cat input.txt", args: "--history '\(history)'", before: "umask \(mask)")
        tmux.waitFor(text: "2/2")
        tmux.type("ban")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
        var info = stat()
        guard stat(history, &info) == 0 else { XCTFail("no history file"); return nil }
        return info.st_mode & 0o777
    }

    func testUmask077MakesAPrivateHistory() throws {
        XCTAssertEqual(try historyMode(umask: "077"), 0o600)
    }

    func testUmask022MakesAReadableHistory() throws {
        XCTAssertEqual(try historyMode(umask: "022"), 0o644)
    }

    func testAPrivateHistoryStaysPrivateWhenSaved() throws {
        // Saving renames a new file over the old one: it takes the old one's mode.
        XCTAssertEqual(try historyMode(umask: "022", existing: 0o600), 0o600)
    }

    func testAHistoryWithALongNameIsStillSaved() throws {
        let name = String(repeating: "h", count: 250)
        _ = try historyMode(umask: "022", name: name)
        let saved = try String(contentsOf: tmux.dir.appendingPathComponent(name), encoding: .utf8)
        XCTAssertEqual(saved, "ban\n")
    }
}
