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

final class PreviewRunner {
    private let lock = Lock()
    /// The text of the command last started, and the text shown before it.
    private var current = PreviewText()
    private var previous = PreviewText()
    private var generation = 0
    private var finished = false
    private var startedAt = 0
    private var running: ChildProcess? = nil
    /// The new command's text has not been drawn yet.
    private var firstTextPending = false

    /// Runs `command` for generation `generation`; the last command is stopped.
    func start(_ command: [UInt8], environment: [(String, String)], generation: Int, follows: Bool, at now: Int) {
        stop()
        let child = try? ChildProcess.spawn(command, environment: environment, output: .pipe)
        lock.locked {
            if current.hasOutput || finished { previous = current }
            current = PreviewText(follows: follows)
            self.generation = generation
            finished = child == nil
            startedAt = now
            running = child
            firstTextPending = true
        }
        guard let child else { return }
        spawnThread { [self] in read(child, generation: generation) }
    }

    /// Stops the running command: its group is signalled now, and its output is stale.
    func stop() {
        lock.locked {
            // Under the lock: the reader reaps the command only after it has let go of it
            // here, so the group signalled is still the command's (never a reused id).
            if let child = running { kill(-child.pid, SIGTERM) }
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
    /// ended (or kept the pane waiting too long), else the last one's.
    func withText<R>(at now: Int, _ body: (PreviewText) -> R) -> R {
        lock.locked {
            let new = PreviewPane.showsNewText(hasOutput: current.hasOutput, finished: finished,
                                               startedAt: startedAt, at: now)
            return body(new ? current : previous)
        }
    }

    /// Once per command, when its first output (or its end) has come: the pane then shows
    /// the new line's text, and is drawn at once rather than at the next frame's time.
    func takeFirstText(at now: Int) -> Bool {
        lock.locked {
            guard firstTextPending, PreviewPane.showsNewText(hasOutput: current.hasOutput, finished: finished,
                                                             startedAt: startedAt, at: now) else { return false }
            firstTextPending = false
            return true
        }
    }

    /// While the pane shows the last command's text, how long until the new one's shows
    /// however little it has (ms; nil: it shows).
    func waitsForText(at now: Int) -> Int? {
        lock.locked {
            guard firstTextPending else { return nil }
            return max(1, startedAt + Tunables.Preview.staleTextMillis - now)
        }
    }

    private func read(_ child: ChildProcess, generation: Int) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var full = false
        loop: while true {
            var p = pollfd(fd: child.output, events: full ? 0 : Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, Int32(Tunables.Preview.readerPollMillis))
            if lock.locked({ self.generation != generation }) { break }
            if full || p.revents == 0 { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            let stillCurrent: Bool = lock.locked {
                guard self.generation == generation else { return false }
                if n > 0 {
                    buffer.withUnsafeBytes { current.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                    full = current.isFull
                } else {
                    finished = true
                }
                return true
            }
            if !stillCurrent { break }
            wakeEventLoop(Wake.preview)
            if n <= 0 { break loop }
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
