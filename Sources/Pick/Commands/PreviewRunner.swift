#if canImport(Glibc)
import Glibc
#endif
import PickCore

// The preview command's process and output: one command at a time, in a process group of
// its own, read on a thread of its own into a bounded `PreviewText`. The event loop only
// starts, stops and looks: reading never costs it a keystroke.
//
// A stopped command is signalled at once (SIGTERM to its group, from the event loop, which
// never waits); its reader thread sees the pipe close, or notices it is stale within
// `Tunables.Preview.readerPollMillis`, and reaps it (SIGKILL after a grace: `ChildProcess.terminate`).
// A command whose output fills what the pane keeps is ended the same way, its pipe closed:
// once a command has ended or filled its text, nothing of it is polled or read. The command
// of a pane of size 0 (run for what it does) is not signalled when stopped: its reader lets
// it finish, its output dropped, and ends it after `Tunables.Preview.unseenGraceMillis`.

final class PreviewRunner {
    private let lock = Lock()
    /// The text of the command last started, and the text shown before it.
    private var current = PreviewText()
    private var previous = PreviewText()
    private var generation = 0
    private var finished = false
    private var startedAt = 0
    private var running: ChildProcess? = nil
    /// The running command is a pane of size 0's: a stop lets it finish (within a grace).
    private var lingers = false
    /// The new command's text has not been drawn yet.
    private var firstTextPending = false
    /// The last text has been drawn marked as loading (the new command is slow).
    private var loadingDrawn = false

    /// Runs `command` for generation `generation`; the last command is stopped.
    func start(_ command: [UInt8], environment: [(String, String)], generation: Int, follows: Bool,
               unseen: Bool = false, at now: Int) {
        stop()
        let child = try? ChildProcess.spawn(command, environment: environment, output: .pipe)
        lock.locked {
            if current.hasOutput || finished { previous = current }
            current = PreviewText(follows: follows)
            self.generation = generation
            finished = child == nil
            startedAt = now
            running = child
            lingers = unseen
            firstTextPending = true
            loadingDrawn = false
        }
        guard let child else { return }
        spawnThread { [self] in read(child, generation: generation, lingers: unseen) }
    }

    /// Stops the running command: its group is signalled now, and its output is stale.
    func stop() {
        lock.locked {
            // Under the lock: the reader reaps the command only after it has let go of it
            // here, so the group signalled is still the command's (never a reused id).
            if let child = running, !lingers { kill(-child.pid, SIGTERM) }
            running = nil
            generation = -1
        }
    }

    /// Forgets every text (the list is empty: nothing to show).
    func clear() {
        stop()
        lock.locked {
            current = PreviewText()
            previous = PreviewText()
            finished = true
        }
    }

    /// The text the pane shows now: the new command's, once it has written something or
    /// ended, else the last one's.
    func withText<R>(at now: Int, _ body: (PreviewText) -> R) -> R {
        lock.locked {
            body(PreviewPane.showsNewText(hasOutput: current.hasOutput, finished: finished) ? current : previous)
        }
    }

    /// Whether the command last started may still write more (its text is not complete).
    var isStreaming: Bool { lock.locked { !finished } }

    /// Whether the pane shows the last text because the new command, running a while, has
    /// written nothing yet (the pane then says it is loading).
    func isLoading(at now: Int) -> Bool {
        lock.locked {
            PreviewPane.isLoading(hasOutput: current.hasOutput, finished: finished, startedAt: startedAt, at: now)
        }
    }

    /// Once per command, when its first output (or its end) has come: the pane then shows
    /// the new line's text, and is drawn at once rather than at the next frame's time. And
    /// once when a slow command's pane is to be marked as loading.
    func takeFirstText(at now: Int) -> Bool {
        lock.locked {
            guard firstTextPending else { return false }
            if PreviewPane.showsNewText(hasOutput: current.hasOutput, finished: finished) {
                firstTextPending = false
                return true
            }
            guard !loadingDrawn, PreviewPane.isLoading(hasOutput: false, finished: false, startedAt: startedAt,
                                                      at: now) else { return false }
            loadingDrawn = true
            return true
        }
    }

    /// While the pane shows the last command's text, how long until it is marked as
    /// loading (ms; nil: nothing to wait for).
    func waitsForText(at now: Int) -> Int? {
        lock.locked {
            guard firstTextPending, !loadingDrawn else { return nil }
            return max(1, startedAt + Tunables.Preview.staleTextMillis - now)
        }
    }

    /// Reads the command's output until it ends, goes stale or fills its text; then the
    /// pipe is closed and the command ended. A descriptor is only ever polled for input
    /// while it is open and wanted: a hung-up pipe ends the loop (it never spins).
    private func read(_ child: ChildProcess, generation: Int, lingers: Bool) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var staleSince: Int? = nil
        while true {
            var p = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(Tunables.Preview.readerPollMillis))
            if lock.locked({ self.generation != generation }) {
                // Unseen, it may finish: read to its end (dropping the output) or the grace's.
                guard lingers else { break }
                let now = monotonicMillis()
                if now - (staleSince ?? now) >= Tunables.Preview.unseenGraceMillis { break }
                staleSince = staleSince ?? now
                if p.revents == 0 { continue }
                let n = buffer.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress, $0.count) }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 { break }
                continue
            }
            if p.revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            let ended: Bool? = lock.locked {
                guard self.generation == generation else { return nil }
                if n > 0 {
                    buffer.withUnsafeBytes { current.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                }
                // The end of the output, or all pick keeps of it: either way nothing more is read.
                if n <= 0 || current.isFull { finished = true }
                return finished
            }
            guard let ended else { break }
            wakeEventLoop(Wake.preview)
            if ended { break }
        }
        lock.locked { if running === child { running = nil } }
        child.terminate()
    }

    /// Stops whatever runs, at exit.
    func end() {
        stop()
        ChildProcess.terminateAll()
    }
}
