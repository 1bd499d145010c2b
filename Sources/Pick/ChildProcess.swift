#if canImport(Glibc)
import Glibc
#endif
import PickCore

// TEMPORARY stand-in with the shared API (helper `fields` writes the real one): replaced
// by main's on merge.

/// A command pick starts: `/bin/sh -c COMMAND` in a process group of its own, so that
/// killing it kills everything it started (no process outlives pick).
final class ChildProcess {
    enum Output { case pipe, discard, terminal }
    enum Input { case null, terminal }

    let pid: pid_t
    /// The read end of its stdout and stderr (non-blocking), -1 unless `.pipe`.
    let output: Int32
    private var reaped = false
    private var status: Int32 = 0
    private static let lock = Lock()
    nonisolated(unsafe) private static var live: Set<pid_t> = []

    private init(pid: pid_t, output: Int32) {
        self.pid = pid
        self.output = output
    }

    static func spawn(_ command: [UInt8], environment extra: [(String, String)], stdin: Input = .null,
                      output: Output) throws -> ChildProcess {
        var fds: [Int32] = [-1, -1]
        if output == .pipe {
            guard pipe(&fds) == 0 else { throw SpawnError() }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if output == .pipe {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        } else if output == .discard {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGWINCH, SIGCONT] { sigaddset(&defaults, s) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var environment = ProcessEnvironment.current(adding: extra)
        var commandZ = command + [0]
        var pid: pid_t = 0
        let result = commandZ.withUnsafeMutableBufferPointer { c -> Int32 in
            let shell = strdup("/bin/sh"), dashC = strdup("-c")
            defer { free(shell); free(dashC) }
            var argv: [UnsafeMutablePointer<CChar>?] = [shell, dashC,
                UnsafeMutableRawPointer(c.baseAddress!).assumingMemoryBound(to: CChar.self), nil]
            return environment.withUnsafeMutableBufferPointer { env in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, env.baseAddress)
            }
        }
        for p in environment { free(p) }
        if output == .pipe { close(fds[1]) }
        guard result == 0 else {
            if output == .pipe { close(fds[0]) }
            throw SpawnError()
        }
        if output == .pipe { _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK) }
        lock.locked { _ = live.insert(pid) }
        return ChildProcess(pid: pid, output: output == .pipe ? fds[0] : -1)
    }

    struct SpawnError: Error {}

    /// SIGTERM to the group, SIGKILL after a short grace, reaps; idempotent.
    func terminate() {
        guard !reaped else { return }
        kill(-pid, SIGTERM)
        for _ in 0..<Tunables.Preview.terminateGraceMillis {
            if waitpid(pid, &status, WNOHANG) == pid { finish(); kill(-pid, SIGKILL); return }
            usleep(1000)
        }
        kill(-pid, SIGKILL)
        _ = waitpid(pid, &status, 0)
        finish()
    }

    func wait() -> Int32 {
        guard !reaped else { return status }
        _ = waitpid(pid, &status, 0)
        finish()
        return status
    }

    private func finish() {
        reaped = true
        if output >= 0 { close(output) }
        Self.lock.locked { _ = Self.live.remove(pid) }
    }

    /// Every live child's group: called on every exit path of pick.
    static func terminateAll() {
        for pid in lock.locked({ live }) { kill(-pid, SIGKILL) }
    }
}

/// The environment a child gets: pick's, with `extra` set.
enum ProcessEnvironment {
    static func current(adding extra: [(String, String)]) -> [UnsafeMutablePointer<CChar>?] {
        var out: [UnsafeMutablePointer<CChar>?] = []
        let names = Set(extra.map(\.0))
        var p = environ
        while let entry = p.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            if !names.contains(name) { out.append(strdup(entry)) }
            p += 1
        }
        for (name, value) in extra { out.append(strdup("\(name)=\(value)")) }
        out.append(nil)
        return out
    }
}
