import Foundation
import XCTest

/// The picker under hostile conditions: pasted text, keys typed before the terminal
/// answers, tiny terminals, signal and resize storms, escape sequences in every piece of
/// text it shows, wide characters. Nothing breaks, nothing leaks, the terminal survives.
final class InteractiveHostileTests: InteractiveTestCase {
    let fruits = "apple\nbanana\ncherry\n"

    /// The picker still works as it should: "ban" narrows the fruits to one, Return picks
    /// it, and the terminal is as it was.
    func assertTypingBanPicksBanana(file: StaticString = #filePath, line: UInt = #line) {
        tmux.type("ban")
        tmux.waitFor(text: "1/3", file: file, line: line)
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(file: file, line: line), 0, file: file, line: line)
        XCTAssertEqual(tmux.stdout, "banana\n", file: file, line: line)
        XCTAssertTrue(tmux.terminalRestored, file: file, line: line)
    }

    /// Starts pick with the pane's output logged from before pick writes its first byte.
    func startLogged(input: String?, args: String, width: Int = 80, height: Int = 24,
                     background: Bool = false) throws {
        try tmux.start(input: input, args: args, width: width, height: height,
                       before: "while [ ! -e go ]; do sleep 0.01; done", background: background)
        tmux.logOutput()
        try tmux.file("go", "")
    }

    func log() -> String { String(decoding: tmux.ttyLog, as: UTF8.self) }

    // MARK: Bracketed paste

    func testPastedTextGoesIntoTheQueryAndItsNewlineDoesNotPick() throws {
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "3/3")
        try tmux.paste("ban\n")
        let rows = tmux.waitFor("the pasted text in the query") { $0[row: 0] == "> ban" && $0[row: 1] == tmux.infoRow("1/3") }
        XCTAssertFalse(rows.joined().contains("200~") || rows.joined().contains("201~"), "no paste marker shows")
        try tmux.paste("\tx\u{1B}[31my\r\nz")
        // (tmux pastes each line break as a carriage return.)
        tmux.waitFor("control characters in a paste dropped, line breaks as spaces") { $0[row: 0] == "> ban  x[31my  z" }
        tmux.keys("C-u")
        assertTypingBanPicksBanana()
    }

    func testAPasteOverTheHelpClosesItAndGoesIntoTheQuery() throws {
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "3/3")
        tmux.keys("F1")
        tmux.waitFor(text: "Keys")
        try tmux.paste("cher\n")
        tmux.waitFor("the help closed and the paste in the query") { $0[row: 0] == "> cher" && $0[row: 1] == tmux.infoRow("1/3") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
    }

    // MARK: The cursor-position query (--height)

    func testKeysTypedBeforeTheTerminalAnswersAreKept() throws {
        try tmux.file("input.txt", fruits)
        // The keys arrive while the shell still holds the terminal, before pick asks where
        // the cursor is: they are ahead of the answer in the terminal's input.
        try tmux.start(input: "cat input.txt", args: "--height 6",
                       before: "stty -echo; touch ready; while [ ! -e go ]; do sleep 0.01; done; stty echo")
        let ready = tmux.dir.appendingPathComponent("ready").path
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while !FileManager.default.fileExists(atPath: ready) && Date() < end { usleep(10_000) }
        tmux.type("cher")
        try tmux.file("go", "")
        let rows = tmux.waitFor("the typed-ahead query") { $0[row: 0].hasPrefix("> cher") && $0[row: 1] == tmux.infoRow("1/3") }
        XCTAssertFalse(rows.joined().contains("R"), "no cursor report shows:\n" + rows.joined(separator: "\n"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testHeightPutsTheCursorBackWhereItStarted() throws {
        try tmux.file("input.txt", fruits)
        // A shell widget starts pick with the cursor after the command line.
        try tmux.start(input: "cat input.txt", args: "--height 5",
                       before: "printf 'prompt$ typed' > /dev/tty; touch shown")
        let rows = tmux.waitFor(text: "3/3")
        XCTAssertEqual(rows[row: 0], "prompt$ typed", "the shell's line stays")
        XCTAssertEqual(rows[row: 1], ">", "pick starts on the next row")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        // The script writes nothing after pick: the cursor is where pick left it.
        tmux.waitFor("the region cleared") { !$0.contains { $0.contains("3/3") } }
        let cursor = tmux.cursor()
        XCTAssertEqual(cursor.y, 0, "back on the shell's row")
        XCTAssertEqual(cursor.x, "prompt$ typed".count, "back on the shell's column")
    }

    /// A terminal between tmux and pick that never answers pick's cursor-position query
    /// ("silent"), answers it 400 ms late ("late") or only as pick leaves ("atexit"); it
    /// logs the query, how long pick waited before writing again, when it answered, and
    /// how many bytes pick left unread in the terminal's input.
    static let slowTerminal = #"""
    import fcntl, os, select, signal, sys, termios, time, tty

    mode, log_path, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
    log = open(log_path, "a", buffering=1)
    tty_fd = os.open("/dev/tty", os.O_RDWR)
    master, slave = os.openpty()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        os.close(master)
        os.close(tty_fd)
        os.execvp(argv[0], argv)
    # The parent keeps the slave open: reading the master never fails while pick runs.

    def copy_size(*_):
        fcntl.ioctl(master, termios.TIOCSWINSZ, fcntl.ioctl(tty_fd, termios.TIOCGWINSZ, b"\0" * 8))

    def forward(data):
        global queried, answer_at
        if queried is not None:
            log.write("next %.3f\n" % (time.monotonic() - queried))
            queried = None
        if b"\x1b[6n" in data:
            head, _, tail = data.partition(b"\x1b[6n")
            data = head + tail
            log.write("query\n")
            if tail:
                log.write("next 0.000\n")
            else:
                queried = time.monotonic()
            if mode == "late":
                answer_at = time.monotonic() + 0.4
        if mode == "atexit" and b"\x1b[?2004l" in data:
            answer_at = time.monotonic()
        os.write(tty_fd, data)

    copy_size()
    signal.signal(signal.SIGWINCH, copy_size)
    saved = termios.tcgetattr(tty_fd)
    tty.setraw(tty_fd)
    answer_at = None
    queried = None
    status = None
    try:
        while status is None:
            done, wait_status = os.waitpid(pid, os.WNOHANG)
            if done:
                status = wait_status
                break
            timeout = 0.05 if answer_at is None else min(0.05, max(0.0, answer_at - time.monotonic()))
            try:
                ready, _, _ = select.select([tty_fd, master], [], [], timeout)
            except InterruptedError:
                continue
            if answer_at is not None and time.monotonic() >= answer_at:
                os.write(master, b"\x1b[5;1R")
                answer_at = None
                log.write("answered\n")
            if master in ready:
                forward(os.read(master, 65536))
            if tty_fd in ready:
                os.write(master, os.read(tty_fd, 65536))
        # pick is gone: what it left unread in the terminal's input would reach the shell.
        end = time.monotonic() + 0.2
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.02)
            if master in ready:
                forward(os.read(master, 65536))
        tty.setraw(slave)
        os.set_blocking(slave, False)
        try:
            leftover = os.read(slave, 65536)
        except BlockingIOError:
            leftover = b""
        log.write("leftover %d\n" % len(leftover))
    finally:
        termios.tcsetattr(tty_fd, termios.TCSADRAIN, saved)
    if status is None:
        _, status = os.waitpid(pid, 0)
    sys.exit(os.waitstatus_to_exitcode(status))
    """#

    /// Starts pick behind the slow terminal; false (the test skipped) without python3.
    func startBehindSlowTerminal(_ mode: String, args: String) throws {
        guard (try? TmuxPick.shell(["python3", "-c", "import pty"]))?.status == 0 else {
            throw XCTSkip("python3 is not installed")
        }
        try tmux.file("relay.py", Self.slowTerminal)
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: args, height: 12,
                       wrapper: "python3 '\(tmux.dir.path)/relay.py' \(mode) '\(tmux.dir.path)/relay.log' ")
    }

    var relayLog: String { (try? String(contentsOf: tmux.dir.appendingPathComponent("relay.log"), encoding: .utf8)) ?? "" }

    func testStartUpNeverWaitsLongForATerminalThatDoesNotAnswer() throws {
        try startBehindSlowTerminal("silent", args: "--height 5")
        let rows = tmux.waitFor(text: "3/3")
        let waited = relayLog.split(separator: "\n").first { $0.hasPrefix("next ") }.flatMap { Double($0.dropFirst(5)) }
        XCTAssertNotNil(waited, relayLog)
        XCTAssertLessThan(waited ?? 99, 0.4, "pick waited \(waited ?? 99) s for an answer that never came")
        // Not knowing where the cursor is, pick draws on the last rows.
        XCTAssertEqual(rows[row: 7], ">", rows.joined(separator: "\n"))
        XCTAssertEqual(rows[row: 8], tmux.infoRow("3/3"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testALateAnswerNeverReachesTheQuery() throws {
        try startBehindSlowTerminal("late", args: "--height 5")
        tmux.waitFor(text: "3/3")
        tmux.waitFor("the late answer sent") { _ in self.relayLog.contains("answered") }
        tmux.type("ban")
        let rows = tmux.waitFor("the query typed") { $0.contains { $0.hasPrefix("> ban") } && $0.contains(tmux.infoRow("1/3")) }
        XCTAssertFalse(rows.joined().contains("R"), "no cursor report shows:\n" + rows.joined(separator: "\n"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testAnAnswerArrivingAsPickExitsIsNotLeftForTheShell() throws {
        try startBehindSlowTerminal("atexit", args: "--height 5")
        tmux.waitFor(text: "3/3")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        tmux.waitFor("the relay done") { _ in self.relayLog.contains("leftover") }
        XCTAssertTrue(relayLog.contains("answered"), relayLog)
        XCTAssertTrue(relayLog.contains("leftover 0"), "the answer was left for the shell: " + relayLog)
        XCTAssertFalse(tmux.screen().joined().contains("1R"), tmux.screen().joined(separator: "\n"))
        XCTAssertTrue(tmux.terminalRestored)
    }

    // MARK: Tiny terminals

    func testTinyTerminalsDrawThePromptAndReturnStillPicks() throws {
        for (width, height) in [(1, 10), (2, 10), (3, 6), (40, 1), (1, 1)] {
            tmux.close()
            tmux = try TmuxPick(test: name + "\(width)x\(height)")
            try tmux.file("input.txt", "apple\tFruit\t\tctrl-o\nbanana\tFruit\ncherry\n")
            try startLogged(input: "cat input.txt", args: "--palette", width: width, height: height)
            if width * height > 1 {
                tmux.waitFor("the prompt at \(width)x\(height)") { $0[row: 0].hasPrefix(">") }
            } else {
                // One cell shows only where the cursor is: wait for a frame to be painted.
                tmux.waitFor("a frame painted") { _ in self.log().contains("\u{1B}8") }
            }
            // Wider for a moment, to see the whole input read (a Return before that would
            // find no match yet), then back to the tiny size to pick.
            tmux.resize(width: 40, height: 10)
            tmux.waitFor(text: "3/3")
            tmux.resize(width: width, height: height)
            tmux.waitFor("the tiny size again") { $0.count <= height + 1 && $0.allSatisfy { $0.count <= width } }
            tmux.type("ban")
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0, "\(width)x\(height)")
            XCTAssertEqual(tmux.stdout, "banana\tFruit\n", "\(width)x\(height)")
            XCTAssertTrue(tmux.terminalRestored, "\(width)x\(height)")
        }
    }

    func testNothingIsDrawnWiderThanTheTerminal() throws {
        try tmux.file("input.txt", "apple pie with cream\tDesserts and sweets\tkw\tctrl-o\nbanana\n")
        try startLogged(input: "cat input.txt", args: "--palette --header 'a long header line'", width: 3, height: 8)
        tmux.waitFor("the info line") { $0[row: 1] == "  2" }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        // Every row pick paints goes between a move to its first column and an erase to
        // its end: none may hold more than three columns of text.
        let log = log()
        let rowPattern = try NSRegularExpression(pattern: "\u{1B}\\[\\d+;1H((?:[^\u{1B}]|\u{1B}\\[[0-9;]*m)*)\u{1B}\\[K")
        let painted = rowPattern.matches(in: log, range: NSRange(log.startIndex..., in: log)).map {
            String(log[Range($0.range(at: 1), in: log)!])
        }
        XCTAssertFalse(painted.isEmpty)
        for row in painted {
            let text = row.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            XCTAssertLessThanOrEqual(text.count, 3, "a row wider than the terminal: \(text.debugDescription)")
        }
    }

    // MARK: Signals

    func testStopAndContinueStormsLeavePickWorking() throws {
        try stopAndContinueStorm(args: "")
    }

    func testStopAndContinueStormsLeaveAnInlinePickWorking() throws {
        try stopAndContinueStorm(args: "--height 6")
        tmux.waitFor("the region cleared") { !$0.contains { $0.contains("1/3") || $0.contains("3/3") } }
    }

    func stopAndContinueStorm(args: String) throws {
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: args, background: true)
        tmux.waitFor(text: "3/3")
        guard let pid = tmux.pid else { return XCTFail("no pid") }
        try TmuxPick.shell(["sh", "-c", "for i in $(seq 1 30); do kill -TSTP \(pid); kill -CONT \(pid); done; kill -CONT \(pid)"])
        // Whatever state the storm left it in, one more CONT brings it back.
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while Date() < end && !tmux.screen().contains(where: { $0.contains("3/3") }) {
            try TmuxPick.shell(["kill", "-CONT", "\(pid)"])
            usleep(50_000)
        }
        tmux.type("che")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testCtrlZAndFgManyTimes() throws {
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: "", underJobControl: true)
        tmux.waitFor(text: "3/3")
        for _ in 0..<4 {
            tmux.keys("C-z")
            tmux.waitFor("the screen left") { !$0.contains { $0.contains("3/3") } }
            // (bash's prompt may land on the alternate screen just before pick leaves it.)
            tmux.type("fg")
            tmux.keys("Enter")
            tmux.waitFor(text: "3/3")
        }
        assertTypingBanPicksBanana()
    }

    func testSignalsDuringStartUpWithInputStillStreaming() throws {
        for (signal, status) in [("TERM", Int32(143)), ("HUP", 129), ("INT", 130)] {
            tmux.close()
            tmux = try TmuxPick(test: name + signal)
            // The producer never ends, but dies of SIGPIPE once pick is gone (sh waits for it).
            try tmux.start(input: "(seq 1 200000; while :; do echo more; sleep 0.05; done)", args: "", background: true)
            let end = Date().addingTimeInterval(TmuxPick.deadline)
            while tmux.pid == nil && Date() < end { usleep(5_000) }
            guard let pid = tmux.pid else { XCTFail("no pid"); continue }
            // A background job of sh starts with SIGINT ignored until pick catches it: the
            // signal is sent again until pick is gone.
            let finished = tmux.dir.appendingPathComponent("finished").path
            for _ in 0..<20 where !FileManager.default.fileExists(atPath: finished) {
                try TmuxPick.shell(["kill", "-\(signal)", "\(pid)"])
                usleep(100_000)
            }
            XCTAssertEqual(tmux.exitStatus(), status, signal)
            XCTAssertTrue(tmux.terminalRestored, "stty after SIG\(signal)")
        }
    }

    func testACrashStillGivesTheTerminalBack() throws {
        for (signal, status) in [("SEGV", Int32(139)), ("ABRT", 134), ("ILL", 132)] {
            tmux.close()
            tmux = try TmuxPick(test: name + signal)
            try tmux.file("input.txt", fruits)
            try tmux.start(input: "cat input.txt", args: "", background: true)
            tmux.waitFor(text: "3/3")
            try TmuxPick.shell(["kill", "-\(signal)", "\(tmux.pid ?? 0)"])
            XCTAssertEqual(tmux.exitStatus(), status, signal)
            XCTAssertTrue(tmux.terminalRestored, "stty after SIG\(signal)")
            tmux.waitFor("the alternate screen left after SIG\(signal)") { !$0.contains { $0.contains("3/3") } }
        }
    }

    /// The process state letter from /proc (T: stopped), or nil.
    func processState(_ pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].first { $0 != " " }
    }

    func testAStopDuringStartUpStopsPickAndContinueBringsItBack() throws {
        try tmux.file("input.txt", fruits)
        // Under job control: a shell started by tmux is an orphaned process group, where
        // the kernel discards stops.
        try tmux.start(input: "cat input.txt", args: "--prompt 'early> '", underJobControl: true)
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var pid: Int32? = nil
        while pid == nil && Date() < end {
            pid = (try? TmuxPick.shell(["pgrep", "-n", "-f", "prompt early> "]))?.output
                .split(separator: "\n").first.flatMap { Int32($0) }
            if pid == nil { usleep(2_000) }
        }
        guard let pid else { return XCTFail("no pid") }
        try TmuxPick.shell(["kill", "-TSTP", "\(pid)"])
        while processState(pid) != "T" && Date() < end { usleep(10_000) }
        XCTAssertEqual(processState(pid), "T", "a stop sent during start-up stops pick")
        try TmuxPick.shell(["kill", "-CONT", "\(pid)"])
        tmux.waitFor(text: "3/3")
        assertTypingBanPicksBanana()
    }

    func testResizeStormsWhileInputStreams() throws {
        let producer = "(for i in $(seq 1 40); do printf 'line %s\\t\\t\\tf2\\n' $i; sleep 0.02; done)"
        try tmux.start(input: producer, args: "--palette")
        tmux.waitFor(text: "/")
        for k in 0..<30 {
            tmux.resize(width: [30, 90, 12, 60, 3][k % 5], height: [6, 30, 2, 12, 1][k % 5])
        }
        tmux.resize(width: 50, height: 10)
        let rows = tmux.waitFor("the final screen at 50x10") { rows in
            // The chip a column short of the edge, where the scrollbar's thumb is.
            rows[row: 1] == tmux.infoRow("40/40") && rows[row: 2].hasPrefix("> line 1 ") && rows[row: 2].hasSuffix(" f2 \u{2502}")
                && rows[row: 2].count == 50
        }
        XCTAssertEqual(rows[row: 0], ">")
        XCTAssertEqual(rows.filter { $0.contains("40/40") }.count, 1)
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "line 1\t\t\tf2\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testResizeStormsOfAnInlineRegion() throws {
        try tmux.file("input.txt", fruits)
        // Short rows only: tmux reflows a row wider than the terminal it shrinks to onto more
        // rows, which no program can follow (fzf leaves rows behind too; so does pick with a
        // long line, or with fzf's separator, drawn to a column short of the row's end).
        try tmux.start(input: "cat input.txt", args: "--height 6 --no-separator", height: 20, before: "printf 'kept\\n'")
        tmux.waitFor(text: "3/3")
        for k in 0..<20 {
            tmux.resize(width: [30, 90, 12, 60, 3][k % 5], height: [6, 30, 2, 12, 1][k % 5])
        }
        tmux.resize(width: 40, height: 12)
        let rows = tmux.waitFor("the region redrawn at 40x12") { rows in
            rows.contains("  3/3") && rows.contains { $0.hasPrefix("> apple") }
        }
        XCTAssertEqual(rows.filter { $0.contains("3/3") }.count, 1, "one info line:\n" + rows.joined(separator: "\n"))
        tmux.type("che")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
        tmux.waitFor("the region cleared") { !$0.contains { $0.contains("1/3") || $0.contains("cherry") } }
        XCTAssertTrue(tmux.terminalRestored)
    }

    // MARK: Modes restored on exit

    func testEveryModeTurnedOnIsTurnedOffOnEveryWayOut() throws {
        let ways: [(String, String, Int32)] = [("Enter", "", 0), ("Escape", "", 130), ("C-c", "", 130),
                                               ("TERM", "", 143), ("HUP", "", 129), ("INT", "", 130),
                                               ("Enter", "--height 5", 0), ("TERM", "--height 5", 143)]
        for (way, args, status) in ways {
            tmux.close()
            tmux = try TmuxPick(test: name + way + "\(args.count)")
            try tmux.file("input.txt", fruits)
            // Signals go to a background job (its pid is known); keys to a foreground one
            // (ctrl-c would interrupt the script's `wait` on a background job).
            let signal = way.count <= 4 && way.uppercased() == way
            try startLogged(input: "cat input.txt", args: args, background: signal)
            tmux.waitFor(text: "3/3")
            if signal {
                try TmuxPick.shell(["kill", "-\(way)", "\(tmux.pid ?? 0)"])
            } else {
                tmux.keys(way)
            }
            XCTAssertEqual(tmux.exitStatus(), status, "\(way) \(args)")
            XCTAssertTrue(tmux.terminalRestored, "\(way) \(args)")
            let log = log()
            func last(_ s: String) -> Int { log.range(of: s, options: .backwards).map { log.distance(from: log.startIndex, to: $0.lowerBound) } ?? -1 }
            XCTAssertGreaterThanOrEqual(last("\u{1B}[?2004h"), 0, "bracketed paste turned on (\(way) \(args))")
            var modes = [("\u{1B}[?2004h", "\u{1B}[?2004l"), ("\u{1B}[?25l", "\u{1B}[?25h"),
                         ("\u{1B}[?1h", "\u{1B}[?1l"), ("\u{1B}=", "\u{1B}>")]
            if args.isEmpty { modes.append(("\u{1B}[?1049h", "\u{1B}[?1049l")) }
            for (on, off) in modes where last(on) >= 0 {
                XCTAssertGreaterThan(last(off), last(on), "\(on.debugDescription) turned off after \(way) \(args)")
            }
        }
    }

    // MARK: Escape sequences in the text pick shows

    /// Control sequences a hostile line could carry: window title (OSC 0), clipboard write
    /// (OSC 52), a cursor move, a DCS string, CSI as the C1 control U+009B, and a bell.
    static let payloads = ["\u{1B}]0;pwned\u{7}", "\u{1B}]52;c;cHduZWQ=\u{7}", "\u{1B}[33;44H",
                           "\u{1B}Pq#0\u{1B}\\", "\u{9B}31m", "\u{7}"]

    /// What must never appear in what pick writes (the payloads' introducers and the bell).
    func assertNoPayloadReachedTheTerminal(_ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let log = log()
        for bad in ["\u{1B}]0;", "\u{1B}]52;", "\u{1B}[33;44H", "\u{1B}P", "\u{9B}", "\u{7}"] {
            XCTAssertFalse(log.contains(bad), "\(what): \(bad.debugDescription) reached the terminal", file: file, line: line)
        }
    }

    func injected(_ tag: String) -> String { tag + Self.payloads.joined() + "end" }

    func testEscapeSequencesInLinesAreShownAsSymbols() throws {
        try tmux.file("input.txt", injected("line") + "\nplain\n")
        try startLogged(input: "cat input.txt", args: "")
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.contains("line␛]0;pwned␇␛]52;c;cHduZWQ=␇␛[33;44H␛Pq#0␛\\\u{FFFD}31m␇end") },
                      rows.joined(separator: "\n"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdoutData, Data((injected("line") + "\n").utf8), "printed raw, byte-exact")
        assertNoPayloadReachedTheTerminal("a line")
    }

    func testEscapeSequencesInSectionNamesAreShownAsSymbols() throws {
        try tmux.file("input.txt", "apple\t\(injected("sec"))\nbanana\tFruit\n")
        try startLogged(input: "cat input.txt", args: "--palette")
        tmux.waitFor(text: "2/2")
        tmux.waitFor("the section header and scope") { $0.filter { $0.contains("sec␛]0;pwned") }.count == 2 }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("a section name")
    }

    func testEscapeSequencesInKeywordsNeverShow() throws {
        try tmux.file("input.txt", "apple\t\t\(injected("kw"))\nbanana\n")
        try startLogged(input: "cat input.txt", args: "--palette")
        tmux.waitFor(text: "2/2")
        tmux.type("kw")
        let rows = tmux.waitFor(text: "1/2")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> apple") }, "the keyword finds its line")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("a keyword")
    }

    func testEscapeSequencesInShortcutsAreShownAsSymbols() throws {
        try tmux.file("input.txt", "apple\t\t\t\(injected("key"))\nbanana\t\t\tctrl-o\n")
        try startLogged(input: "cat input.txt", args: "--palette")
        tmux.waitFor(text: "2/2")
        tmux.keys("F1")
        tmux.waitFor(text: "Keys")
        tmux.keys("Escape")
        tmux.waitFor(text: "2/2")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("a shortcut")
    }

    func testEscapeSequencesInTheHeaderAndPromptAreShownAsSymbols() throws {
        try tmux.file("input.txt", fruits)
        let header = injected("head").replacingOccurrences(of: "'", with: "")
        let prompt = injected("ask").replacingOccurrences(of: "'", with: "")
        try startLogged(input: "cat input.txt", args: "--header '\(header)' --prompt '\(prompt)'", width: 120)
        let rows = tmux.waitFor(text: "3/3")
        XCTAssertTrue(rows.contains { $0.hasPrefix("  head␛]0;pwned␇") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows[row: 0].hasPrefix("ask␛]0;pwned␇"), rows[row: 0])
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("--header and --prompt")
    }

    func testEscapeSequencesInTheQueryNeverReachTheTerminal() throws {
        try tmux.file("input.txt", fruits)
        let query = injected("q").replacingOccurrences(of: "'", with: "")
        try startLogged(input: "cat input.txt", args: "--query '\(query)'", width: 120)
        tmux.waitFor(text: "0/3")
        try tmux.paste(injected(" pasted"))
        tmux.waitFor(text: " pasted]0;pwned")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("the query")
    }

    func testWithAnsiOnlyColoursSurvive() throws {
        try tmux.file("input.txt", "\u{1B}[31mred\u{1B}[0m" + injected(" x") + "\nplain\n")
        try startLogged(input: "cat input.txt", args: "--ansi")
        let rows = tmux.waitFor(text: "2/2")
        // The escape sequences are taken out; a C1 control and a bell stay, drawn as symbols.
        XCTAssertTrue(rows.contains { $0.hasPrefix("> red x\u{FFFD}31m␇end") }, rows.joined(separator: "\n"))
        XCTAssertTrue(tmux.screenWithEscapes().contains("\u{1B}[31mred"), "the colour is kept")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        assertNoPayloadReachedTheTerminal("--ansi")
    }

    // MARK: Wide text

    /// Terminal columns of text as tmux counts them here (wide CJK and emoji 2, marks 0).
    func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { n, u in
            switch u.value {
            case 0x0300...0x036F, 0x0591...0x05BD: return n
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF00...0xFF60,
                 0x1F300...0x1F64F, 0x1F900...0x1F9FF: return n + 2
            default: return n + 1
            }
        }
    }

    func testWideCharactersPutTheCursorWhereTheQueryEnds() throws {
        try tmux.file("input.txt", "日本語\n😀 smile\ne\u{301}cole\nשלום\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "4/4")
        for query in ["日本", "😀", "e\u{301}c", "של"] {
            tmux.keys("C-u")
            tmux.type(query)
            tmux.waitFor("the query \(query)") { $0[row: 0].hasPrefix("> " + query) && $0[row: 1] == tmux.infoRow("1/4") }
            tmux.waitFor("the cursor after \(query)") { _ in self.tmux.cursor().x == 2 + self.columns(query) }
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "שלום\n")
    }

    func testWideCharactersKeepEveryChipAtTheRightEdge() throws {
        // Wide CJK and emoji, combining marks (one line of nothing else), right-to-left text.
        let titles = ["日本語のファイル", "😀 smile 🎉", "e\u{301}cole e\u{301}te\u{301}", "שלום עולם", "plain",
                      "\u{301}\u{302}\u{303}"]
        let keys = ["o", "b", "e", "r", "t", "y"]
        try tmux.file("input.txt", titles.enumerated().map { "\($1)\t\t\tctrl-\(keys[$0])" }
            .joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: "--palette", width: 40)
        let rows = tmux.waitFor(text: "6/6")
        for (k, title) in titles.enumerated() {
            let row = rows.first { $0.hasSuffix(" ctrl-\(keys[k])") } ?? ""
            XCTAssertTrue(row.contains(title), "\(title.debugDescription) in \(row.debugDescription)")
            XCTAssertEqual(columns(row), 38, "the chip of \(title) ends a column short of the edge (the scrollbar's): \(row)")
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}
