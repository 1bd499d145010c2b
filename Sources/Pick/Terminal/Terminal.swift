#if canImport(Glibc)
import Glibc
#endif
import CPickSystem
import PickCore

// The terminal pick draws on: /dev/tty (stdin and stdout are for data), its termios, its
// size, and the signals that concern it. Signals only write their number to a self-pipe;
// the event loop reads the pipe, so nothing unsafe runs in a handler.

/// Bytes on the self-pipe that are not signal numbers.
enum Wake {
    /// The input reader added lines.
    static let input: UInt8 = 200
    /// A search finished.
    static let search: UInt8 = 201
    /// The preview command wrote something, or ended.
    static let preview: UInt8 = 202
    /// `--listen`'s server has a request for the picker (ListenServer.swift).
    static let remote: UInt8 = 203
}

/// The write end of the self-pipe, for signal handlers and worker threads.
nonisolated(unsafe) var wakePipeWrite: Int32 = -1

/// Wakes the event loop with `byte` (never blocks; a full pipe already means "wake up").
func wakeEventLoop(_ byte: UInt8) {
    var b = byte
    _ = write(wakePipeWrite, &b, 1)
}

/// Set when SIGCONT arrives: tells a suspend that pick was already stopped (by SIGTTOU,
/// when the shell took the terminal back first) and continued.
nonisolated(unsafe) var continuedFlag: sig_atomic_t = 0

private func signalHandler(_ signo: Int32) {
    let saved = errno
    if signo == SIGCONT { continuedFlag = 1 }
    wakeEventLoop(UInt8(truncatingIfNeeded: signo))
    errno = saved
}

// What the fatal-signal handler needs to give the terminal back: set before pick changes
// the terminal, read only in the handler (plain memory, nothing allocated there).
nonisolated(unsafe) private var crashFD: Int32 = -1
nonisolated(unsafe) private var crashMode = termios()
nonisolated(unsafe) private var crashBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
nonisolated(unsafe) private var crashCount = 0
nonisolated(unsafe) private var crashPrevious = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
nonisolated(unsafe) private var crashHandlersInstalled = false
private let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

/// A crash (a trap, a bad access): the screen is left and the settings restored, then
/// what handled the signal before runs (Swift's backtracer), and pick dies of it.
private func fatalSignalHandler(_ signo: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                                _ context: UnsafeMutableRawPointer?) {
    // A truncated input file, not a crash: the mapping answers it and pick goes on.
    if signo == SIGBUS && MappedInput.recovers(info) { return }
    ChildProcess.killAllFromSignalHandler()
    if crashFD >= 0 {
        _ = write(crashFD, crashBytes, crashCount)
        _ = tcsetattr(crashFD, TCSANOW, &crashMode)
        crashFD = -1
    }
    let previous = crashPrevious[Int(signo)]
    if previous.sa_flags & SA_SIGINFO != 0 {
        previous.__sigaction_handler.sa_sigaction?(signo, info, context)
    } else if let handler = previous.__sigaction_handler.sa_handler,
              unsafeBitCast(handler, to: Int.self) > 1 {  // neither SIG_DFL nor SIG_IGN
        handler(signo)
    }
    // Dies as it would have: at once for a signal sent, on the fault again for a real one.
    _ = signal(signo, SIG_DFL)
    _ = raise(signo)
}

/// The controlling terminal, opened on /dev/tty.
final class Terminal {
    let fd: Int32
    /// The termios found at start, restored on every exit path.
    let original: termios
    /// Read end of the self-pipe.
    let wakeRead: Int32

    /// Opens /dev/tty; nil when there is no terminal.
    init?() {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { close(fd); return nil }
        self.fd = fd
        original = t
        var fds: [Int32] = [0, 0]
        guard pick_pipe_cloexec(&fds) == 0 else { close(fd); return nil }
        for f in fds { _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK) }
        wakeRead = fds[0]
        wakePipeWrite = fds[1]
    }

    /// Routes INT, TERM, HUP, QUIT, WINCH, TSTP and CONT to the self-pipe.
    func catchSignals() {
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] {
            signal(s, signalHandler)
        }
    }

    /// Until `releaseSignals`, a crash writes `leaving` (what turns pick's modes and screen
    /// off) and restores the settings found at start before pick dies. Installed once.
    func restoreOnCrash(leaving: String) {
        let bytes = Array(leaving.utf8.prefix(64))
        crashBytes.update(from: bytes, count: bytes.count)
        crashCount = bytes.count
        crashMode = original
        crashFD = fd
        if crashHandlersInstalled { return }
        crashHandlersInstalled = true
        ChildProcess.prepareForSignalHandler()
        for s in fatalSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = fatalSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            _ = sigaction(s, &action, crashPrevious + Int(s))
        }
    }

    /// Gives the signals back their default actions (the screen is restored: nothing to do).
    func releaseSignals() {
        // The crash handlers stay (one installed after them may hand crashes on to them);
        // with the screen restored they only pass the signal on.
        crashFD = -1
        for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT] {
            signal(s, SIG_DFL)
        }
    }

    /// Rows and columns (24×80 when the terminal will not say).
    func size() -> (rows: Int, cols: Int) {
        var ws = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 {
            return (Int(ws.ws_row), Int(ws.ws_col))
        }
        return (24, 80)
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += n
            }
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Puts back the termios found at start.
    func restoreMode() {
        var t = original
        _ = tcsetattr(fd, TCSADRAIN, &t)
    }

    /// Turns off ICRNL and INLCR (libedit's raw mode sets INLCR) so Return (CR) and ctrl-j
    /// (LF) are different keys, IXON so ctrl-s reaches pick, and ISIG so ctrl-c, ctrl-z and
    /// ctrl-\ come as keys (pick cancels and suspends on them itself; `--expect` can name
    /// them). libedit restores its saved settings when it returns, and pick restores the
    /// original ones on exit.
    func separateReturnFromCtrlJ() {
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { return }
        t.c_iflag &= ~tcflag_t(ICRNL | INLCR | IXON)
        t.c_lflag &= ~tcflag_t(ISIG)
        _ = tcsetattr(fd, TCSANOW, &t)
    }

    /// How long pick waits for the terminal to answer where the cursor is: a terminal that
    /// never answers (or a slow link) must not hold up start-up.
    static let cursorReportTimeout = Tunables.Picker.cursorReportMillis

    /// The cursor's row (1-based) and column, asked with DSR; nil if the terminal did not
    /// answer in time (a late answer is then dropped by the key decoder, never shown).
    /// Keys typed before the answer are appended to `typeahead`, not lost. With
    /// `inRawMode` the terminal is already raw (libedit's) and is left as it is.
    func cursorPosition(inRawMode: Bool = false, typeahead: inout [UInt8]) -> (row: Int, col: Int)? {
        if !inRawMode {
            // No echo, no line buffering, and Return kept as CR (typed ahead, it still picks).
            var raw = original
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            raw.c_iflag &= ~tcflag_t(ICRNL | INLCR)
            _ = tcsetattr(fd, TCSANOW, &raw)
        }
        defer { if !inRawMode { restoreMode() } }
        write("\u{1B}[6n")
        var bytes: [UInt8] = []
        let deadline = monotonicMillis() + Self.cursorReportTimeout
        while true {
            if let found = CursorReport.find(in: bytes) {
                bytes.removeSubrange(found.range)
                typeahead.append(contentsOf: bytes)
                return (found.row, found.col)
            }
            let left = deadline - monotonicMillis()
            if left <= 0 { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left)) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &chunk, chunk.count)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) } else if n == 0 { break }
        }
        typeahead.append(contentsOf: bytes)
        return nil
    }

    /// Input unechoed and read byte by byte, until `restoreMode`.
    func silenceInput() {
        var quiet = original
        quiet.c_lflag &= ~tcflag_t(ICANON | ECHO)
        _ = tcsetattr(fd, TCSANOW, &quiet)
    }

    /// Waits up to `milliseconds` for a cursor report still on its way and drops it, so it
    /// never reaches the shell after pick exits. Other bytes read meanwhile are dropped too
    /// (pick is leaving: they were keys for pick).
    func swallowCursorReport(within milliseconds: Int) {
        var bytes: [UInt8] = []
        let deadline = monotonicMillis() + milliseconds
        while CursorReport.find(in: bytes) == nil {
            let left = deadline - monotonicMillis()
            if left <= 0 { return }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(left)) <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 256)
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }

    /// Signals waiting on the self-pipe, and whether workers woke it, drained without blocking.
    /// What waiting for keys gave.
    enum Waited {
        /// Bytes from the terminal.
        case keys(ArraySlice<UInt8>)
        /// A worker or a signal woke the loop (or the wait was interrupted).
        case woken
        case timedOut
        /// The terminal went away.
        case closed
        case failed
    }

    /// Waits up to `timeout` ms (-1: for ever) for keys on the terminal or a wake on the
    /// self-pipe, and reads the keys.
    func waitForKeys(timeout: Int32) -> Waited {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let n = poll(&fds, 2, timeout)
        if n < 0 { return errno == EINTR ? .woken : .failed }
        if n == 0 { return .timedOut }
        guard fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return .woken }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let got = read(fd, &bytes, bytes.count)
        if got > 0 { return .keys(bytes[0..<got]) }
        return got == 0 || (errno != EINTR && errno != EAGAIN) ? .closed : .woken
    }

    func drainWakes() -> (signals: [Int32], input: Bool, search: Bool, preview: Bool) {
        var signals: [Int32] = []
        var input = false, search = false, preview = false
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(wakeRead, &buffer, buffer.count)
            if n <= 0 { break }
            for b in buffer[0..<n] {
                switch b {
                case Wake.input: input = true
                case Wake.search: search = true
                case Wake.preview: preview = true
                case Wake.remote: break  // the loop looks at the server's requests every turn
                default: if !signals.contains(Int32(b)) { signals.append(Int32(b)) }
                }
            }
        }
        return (signals, input, search, preview)
    }
}

/// Milliseconds on a clock that never jumps.
func monotonicMillis() -> Int {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000 + ts.tv_nsec / 1_000_000
}
