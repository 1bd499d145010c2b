import CPickScan
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the parts of one piece of work on every core at once, on threads kept for it.
///
/// `run(parts) { part in … }` calls the body for each part in 0..<parts, the calling thread
/// taking parts too, and returns when all are done. The threads (one per core but one) wait
/// on a condition variable between calls. Dispatch's `concurrentPerform` did the same, but
/// its second thread often started milliseconds after the first, so that many keystrokes
/// were matched on one core (bench/NOTES.md): woken onto its waker's CPU, it waited there
/// while the other CPU idled (see `keepOffCaller`), and Dispatch gives no say in where its
/// threads run.
///
/// One piece of work at a time: a call made while another runs (another thread's search, a
/// body that itself runs parts) does its parts itself, one after the other.
public enum Parallel {
    /// The processors online.
    public static let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    public static func run(_ parts: Int, _ body: (Int) -> Void) {
        guard parts > 1, cores > 1, Pool.shared.tryBegin() else {
            for part in 0..<parts { body(part) }
            return
        }
        withoutActuallyEscaping(body) { body in
            Pool.shared.run(parts, body)
        }
    }

    /// The threads and the one piece of work they share.
    private final class Pool: @unchecked Sendable {
        static let shared = Pool()

        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let wake = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        /// Set while a call runs; taken with a compare-and-exchange, so a second caller never waits.
        private let busy = Atomic<Bool>(false)
        // Under the mutex:
        private var generation = 0
        private var body: ((Int) -> Void)? = nil
        private var parts = 0
        private var done = 0
        /// Pool threads that took the current work and may still run a part of it.
        private var active = 0
        private var started = 0
        /// The next part to claim.
        private let next = Atomic<Int>(0)
        private var threads: [pthread_t] = []
        /// The CPUs this process may run on (a cpu_set_t), and the one the pool threads were
        /// last kept off.
        private let allowed = UnsafeMutableRawPointer.allocate(byteCount: Pool.maskBytes, alignment: 8)
        private let mask = UnsafeMutableRawPointer.allocate(byteCount: Pool.maskBytes, alignment: 8)
        private var excluded: Int32 = -1
        private static let maskBytes = 128

        private init() {
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(wake, nil)
            pthread_cond_init(finished, nil)
            allowed.initializeMemory(as: UInt8.self, repeating: 0, count: Pool.maskBytes)
            if pick_allowed_cpus(allowed, Pool.maskBytes) != 0 {
                allowed.initializeMemory(as: UInt8.self, repeating: 0xFF, count: Pool.maskBytes)
            }
        }

        /// Keeps the pool threads off the calling thread's CPU for the work about to start.
        ///
        /// Woken, a thread is placed on its waker's CPU when the kernel sees no idle CPU
        /// that shares a cache with it (two virtual CPUs often do not): there it preempts the
        /// waker, which then waits, the other CPU idle, until the next load-balancing tick,
        /// milliseconds later.
        private func keepOffCaller() {
            let cpu = pick_current_cpu()
            guard cpu >= 0, cpu < Int32(Pool.maskBytes * 8), cpu != excluded else { return }
            let byte = Int(cpu) / 8, bit = UInt8(1) << UInt8(cpu % 8)
            guard allowed.load(fromByteOffset: byte, as: UInt8.self) & bit != 0 else { return }
            mask.copyMemory(from: allowed, byteCount: Pool.maskBytes)
            mask.storeBytes(of: mask.load(fromByteOffset: byte, as: UInt8.self) & ~bit, toByteOffset: byte, as: UInt8.self)
            // Some other CPU must remain.
            var others = 0
            for k in 0..<Pool.maskBytes { others += mask.load(fromByteOffset: k, as: UInt8.self).nonzeroBitCount }
            guard others > 0 else { return }
            excluded = cpu
            for thread in threads { _ = pick_set_thread_cpus(thread, mask, Pool.maskBytes) }
        }

        func tryBegin() -> Bool {
            busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }

        func run(_ parts: Int, _ body: @escaping (Int) -> Void) {
            pthread_mutex_lock(mutex)
            // Threads are started on first use, as many as the cores but this one.
            while started < Parallel.cores - 1 {
                started += 1
                startThread()
            }
            keepOffCaller()
            self.body = body
            self.parts = parts
            done = 0
            next.store(0, ordering: .relaxed)
            generation &+= 1
            pthread_cond_broadcast(wake)
            pthread_mutex_unlock(mutex)

            let mine = work(body, parts)
            pthread_mutex_lock(mutex)
            done += mine
            // Every part done, and no thread still holding the body: a thread that took it
            // late must not outlive this call with it.
            while done < parts || active > 0 { pthread_cond_wait(finished, mutex) }
            self.body = nil
            pthread_mutex_unlock(mutex)
            busy.store(false, ordering: .releasing)
        }

        /// Claims and runs parts until none is left; returns how many it ran.
        private func work(_ body: (Int) -> Void, _ parts: Int) -> Int {
            var ran = 0
            while true {
                let part = next.add(1, ordering: .relaxed).oldValue
                if part >= parts { return ran }
                body(part)
                ran += 1
            }
        }

        private func startThread() {
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                Unmanaged<Pool>.fromOpaque(raw!).takeUnretainedValue().serve()
            }, Unmanaged.passUnretained(self).toOpaque())
            precondition(status == 0, "cannot start a thread")
            pthread_detach(thread)
            threads.append(thread)
            excluded = -1
        }

        /// Takes the body (the mutex held), lets the mutex go and runs parts. The body is
        /// let go of when this returns, before the thread reports its parts done: the caller's
        /// closure must not outlive its call. (A local set to nil in `serve` was not enough in
        /// debug builds.)
        @inline(never) private func takeWork() -> Int {
            let body = self.body!
            let parts = self.parts
            pthread_mutex_unlock(mutex)
            return work(body, parts)
        }

        private func serve() -> Never {
            var seen = 0
            pthread_mutex_lock(mutex)
            while true {
                while generation == seen || body == nil { pthread_cond_wait(wake, mutex) }
                seen = generation
                let parts = self.parts
                active += 1
                let ran = takeWork()
                pthread_mutex_lock(mutex)
                done += ran
                active -= 1
                if done >= parts && active == 0 { pthread_cond_signal(finished) }
            }
        }
    }
}
