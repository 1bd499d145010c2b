// Commands pick starts (previews, `execute`, …): `$SHELL -c COMMAND` (see `shell`) in a
// process group of its own, so that killing the group kills everything the command started — a pipeline, a
// `sleep 30 &` — and no process pick starts outlives it.

#if canImport(Glibc)
import Glibc
#endif
import CPickSystem
import PickCore

/// A command pick starts: `$SHELL -c COMMAND` (see `shell`) in a process group of its own, so that
/// killing it kills everything it started (no process outlives pick).
final class ChildProcess: @unchecked Sendable {
    /// Where the command's standard input comes from.
    enum Input { case null, terminal }
    /// Where its standard output and error go. `pipe`: both readable at `output`;
    /// `outputPipe`: standard output readable at `output`, errors dropped (as fzf drops a
    /// reload's or a transform's, which would otherwise become lines or a query).
    enum Output { case pipe, outputPipe, discard, terminal }

    struct SpawnError: Error, CustomStringConvertible {
        var description: String
    }

    /// The shell's process id, which is also its group's id.
    let pid: pid_t
    /// The read end of the output pipe (non-blocking, close-on-exec), -1 unless `.pipe`.
    /// Closed by `terminate()`.
    private(set) var output: Int32
    private var status: Int32?
    private var ended = false
    private let lock = Lock()

    private init(pid: pid_t, output: Int32) {
        self.pid = pid
        self.output = output
    }

    deinit { terminate() }

    /// Starts `$SHELL -c command` (see `shell`) with pick's environment plus `extra` (which wins over a
    /// variable of the same name). The command is cut at a NUL byte, which no argument can hold.
    static func spawn(_ command: [UInt8], environment extra: [(String, String)] = [],
                      stdin: Input = .null, output: Output) throws -> ChildProcess {
        var fds: [Int32] = [-1, -1]
        if output == .pipe || output == .outputPipe {
            guard pick_pipe_cloexec(&fds) == 0 else { throw SpawnError(description: "pipe: \(errorText())") }
            _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin == .terminal ? "/dev/tty" : "/dev/null", O_RDWR, 0)
        switch output {
        case .pipe:
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        case .outputPipe:
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .terminal:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/tty", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A group of its own (id = its pid); signals pick ignores or catches back to default,
        // none blocked, so the command runs as it would from a shell.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH] {
            sigaddset(&defaults, s)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var commandText = CommandTemplate.cutAtNul(command)
        commandText.append(0)
        let arguments: [[UInt8]] = shellWords.map { Array($0.utf8) + [0] } + [commandText]
        let environment = mergedEnvironment(extra)

        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                posix_spawnp(&pid, shell, &actions, &attributes, argv, envp)
            }
        }
        if fds[1] >= 0 { close(fds[1]) }
        guard result == 0 else {
            if fds[0] >= 0 { close(fds[0]) }
            throw SpawnError(description: "cannot start \(shell): \(String(cString: strerror(result)))")
        }
        let child = ChildProcess(pid: pid, output: fds[0])
        registry.locked {
            live.insert(pid)
            if let slot = (0..<slotCount).first(where: { crashSlots[$0] == 0 }) { crashSlots[slot] = pid }
        }
        _ = exitHook
        return child
    }

    /// Waits for the shell to exit and returns its status (as `waitpid` gives it). Processes
    /// it left running in its group stay until `terminate()`.
    func wait() -> Int32 {
        if let status = lock.locked({ status }) { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        lock.locked { status = raw }
        return raw
    }

    /// The shell's status (as `waitpid` gives it) if it exits within `millis` ms, else nil.
    func exitStatus(within millis: Int) -> Int32? {
        var waited = 0
        while !hasExited && waited < millis {
            usleep(1000)
            waited += 1
        }
        return lock.locked { status }
    }

    /// Whether the shell has exited (reaping it if so), without waiting.
    var hasExited: Bool {
        if lock.locked({ status != nil }) { return true }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == 0 || (r < 0 && errno != ECHILD) { return false }
        lock.locked { status = r == pid ? raw : 0 }   // ECHILD: already reaped (terminateAll)
        return true
    }

    /// Sends `signal` to the command's group, unless `terminate()` has begun (it may have
    /// reaped the shell, and the id be another's by now): for another thread than the one
    /// that terminates it.
    func signalGroup(_ signal: Int32) {
        lock.locked { if !ended { _ = kill(-pid, signal) } }
    }

    /// Ends the command and everything it started: SIGTERM to its group, SIGKILL after
    /// `Tunables.Children.terminateGraceMillis`, the shell reaped, the pipe closed. Idempotent.
    func terminate() {
        let first = lock.locked { () -> Bool in
            defer { ended = true }
            return !ended
        }
        guard first else { return }
        ChildProcess.endGroup(pid) { self.hasExited }
        if output >= 0 { close(output); output = -1 }
        ChildProcess.forget(pid)
    }

    private static func forget(_ pid: pid_t) {
        registry.locked {
            live.remove(pid)
            if let slot = (0..<slotCount).first(where: { crashSlots[$0] == pid }) { crashSlots[slot] = 0 }
        }
    }

    /// Ends every command pick started and has not ended yet: called on every exit path.
    static func terminateAll() {
        let groups = registry.locked { () -> [pid_t] in
            defer {
                live.removeAll()
                crashSlots.update(repeating: 0, count: slotCount)
            }
            return Array(live)
        }
        for group in groups { _ = kill(-group, SIGTERM) }
        for group in groups {
            endGroup(group, signalled: true) {
                var raw: Int32 = 0
                let r = waitpid(group, &raw, WNOHANG)
                return r == group || (r < 0 && errno == ECHILD)
            }
        }
    }

    /// TERM to group `group`, up to the grace period for `exited()`, then KILL to whatever
    /// of the group is left, and the leader reaped.
    private static func endGroup(_ group: pid_t, signalled: Bool = false, exited: () -> Bool) {
        if !signalled { _ = kill(-group, SIGTERM) }
        var waited = 0
        while !exited() && waited < Tunables.Children.terminateGraceMillis {
            usleep(1000)
            waited += 1
        }
        // The leader may be gone while something it started still runs in its group.
        _ = kill(-group, SIGKILL)
        if !exited() {
            var raw: Int32 = 0
            while waitpid(group, &raw, 0) < 0 && errno == EINTR {}
        }
    }

    /// Makes the table `killAllFromSignalHandler` reads: called before the crash handler is
    /// installed, so that the handler never runs the table's lazy initialiser (a malloc in a
    /// signal handler, maybe inside a crashed malloc) when no command was started yet.
    static func prepareForSignalHandler() { _ = crashSlots }

    /// Kills every live command's group at once, taking no lock and allocating nothing: for
    /// a crash handler, where `terminateAll` cannot run.
    static func killAllFromSignalHandler() {
        for slot in 0..<slotCount where crashSlots[slot] > 0 { _ = kill(-crashSlots[slot], SIGKILL) }
    }

    /// `terminateAll` runs when pick calls exit(), whichever path it leaves by.
    private static let exitHook: Void = { _ = atexit { ChildProcess.terminateAll() } }()

    private static let registry = Lock()
    /// The live groups again, as a fixed table a signal handler may read.
    private static let slotCount = Tunables.Children.crashTableSlots
    nonisolated(unsafe) private static var crashSlots: UnsafeMutablePointer<pid_t> = {
        let p = UnsafeMutablePointer<pid_t>.allocate(capacity: slotCount)
        p.initialize(repeating: 0, count: slotCount)
        return p
    }()
    nonisolated(unsafe) private static var live: Set<pid_t> = []

    /// pick's environment with `extra` set (replacing a variable of the same name), each
    /// entry NUL-terminated.
    /// The shell and its arguments that run a command, the command last: `--with-shell`'s
    /// words, or `$SHELL -c` as fzf does, whatever the shell (fish too: placeholders are
    /// quoted for it, `quoting`), and `sh -c` with no `$SHELL`. Set once by main.swift from
    /// the options, before any thread starts; read-only after that.
    nonisolated(unsafe) static var shellWords: [String] = {
        guard let value = getenv("SHELL").map({ String(cString: $0) }), !value.isEmpty else { return ["sh", "-c"] }
        return [value, "-c"]
    }()

    /// The program that runs commands (a path, or a name looked up in PATH).
    static var shell: String { shellWords[0] }

    /// How placeholders are quoted for `shell`.
    static var quoting: ShellQuoting { ShellQuoting(shell: shell) }

    private static func mergedEnvironment(_ extra: [(String, String)]) -> [[UInt8]] {
        let names = Set(extra.map { $0.0 })
        var result: [[UInt8]] = []
        var p = environ
        while let entry = p.pointee {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self),
                                                  count: strlen(entry)))
            let name = bytes.firstIndex(of: UInt8(ascii: "=")).map { String(decoding: bytes[..<$0], as: UTF8.self) }
            if name.map({ !names.contains($0) }) ?? true { result.append(bytes + [0]) }
            p += 1
        }
        for (name, value) in extra {
            result.append(CommandTemplate.cutAtNul(Array("\(name)=\(value)".utf8)) + [0])
        }
        return result
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// This executable's path (`/proc/self/exe`), or how it was called: for a command that runs
/// pick again (`--preview builtin`, the `--tmux` popup).
func executablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Calls `body` with a NULL-terminated array of pointers to `strings` (each NUL-terminated).
private func withCStrings<R>(_ strings: [[UInt8]], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { bytes in
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBytes { raw in
            UnsafeMutableRawPointer(p).copyMemory(from: raw.baseAddress!, byteCount: bytes.count)
        }
        return p
    }
    pointers.append(nil)
    defer { for p in pointers { p?.deallocate() } }
    return body(pointers)
}
