#if canImport(Glibc)
import Glibc
#endif
import CPickScan
import Dispatch
import PickCore
import Synchronization

/// Input redirected from a regular file (`pick < file`), mapped instead of read.
///
/// Reading copies every byte into fresh memory the kernel must first zero; on a large
/// file that zeroing is most of the load. A mapping shares the page cache instead.
/// The price: the lines are the file's bytes for as long as pick runs. A file truncated
/// under the mapping would fault on access (see `guardAgainstTruncation`), and one
/// rewritten in place would change lines on screen, so before printing anything pick
/// checks the file is as it was mapped (`failIfChanged`): never a line that was not there.
/// (Editors and most tools replace a file by renaming a new one over it, which leaves the
/// mapped one untouched.)
enum MappedInput {
    /// Smaller files are read: mapping them saves nothing worth a mapping.
    static let minimumSize = 1 << 20

    /// Maps the rest of `fd` into the store when it is a large regular file, leaving the
    /// offset at the end of what was mapped so reading can go on from there (a file that
    /// grows). False when `fd` is not such a file or cannot be mapped.
    ///
    /// The file is scanned a piece at a time, and on two threads once help is asked for
    /// (`helpLoading`; with `helpAtOnce`, from the start): a second thread then takes half
    /// of what is left, and each thread done with its range takes half of what the other
    /// has left (`Scan`). The picker asks once its own start-up is done: a second thread
    /// started at once shares a core with it and delays its first screen, while the half
    /// left by then is scanned as soon.
    static func map(fd: Int32, into store: LineStore, helpAtOnce: Bool, onChunk report: () -> Void) -> Bool {
        // Chunks of a mapping are scanned back to back: reporting each (the picker wakes
        // its event loop) would only take the scanning core from it, as a woken thread tends
        // to run where its waker runs. The screen shows new lines every 16 ms at most.
        var lastReport = 0
        func onChunk() {
            let now = monotonicMillis()
            if now - lastReport >= 15 {
                lastReport = now
                report()
            }
        }
        guard let (st, offset) = regularFile(fd), Int(st.st_size) - offset >= minimumSize else { return false }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let alignedOffset = offset / page * page
        let length = Int(st.st_size) - alignedOffset
        guard let memory = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, off_t(alignedOffset)),
              memory != MAP_FAILED else { return false }
        _ = madvise(memory, length, MADV_SEQUENTIAL)
        guardAgainstTruncation(memory, length)
        guard lseek(fd, off_t(st.st_size), SEEK_SET) >= 0 else {
            munmap(memory, length)
            return false
        }
        let skip = offset - alignedOffset
        let bytes = UnsafeRawBufferPointer(start: memory + skip, count: length - skip)
        if helpAtOnce { helpWanted.store(true, ordering: .relaxed) }
        let scan = Scan(bytes, into: store)
        // Help only for a file that starts a line and is large enough to be worth a thread.
        var helpable = store.endsAtLineEnd && bytes.count >= splitSize
        var lane: Lane? = scan.first
        while let current = lane {
            while let part = scan.claim(in: current) {
                if helpable && helpWanted.load(ordering: .relaxed) {
                    helpable = false
                    if current.left >= splitSize / 2 { scan.startHelper() }
                }
                current.scan(part, release: part.baseAddress == bytes.baseAddress ? { munmap(memory, length) } : {})
                onChunk()
            }
            lane = scan.steal()
        }
        let pieces = scan.finish()
        mapped = Mapping(fd: fd, identity: Identity(st), pieces: pieces)
        return true
    }

    /// Asks the load of a mapped file, running or about to, to go on on two threads.
    static func helpLoading() {
        helpWanted.store(true, ordering: .relaxed)
    }

    private static let helpWanted = Atomic<Bool>(false)

    /// Bytes a thread claims at a time: between looks at `helpWanted`, and the least it
    /// takes from another (half of at least four pieces).
    private static let piece = 256 << 10

    /// The end of the line that holds byte `from` (just past its separator), if it ends
    /// before `to`.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from: Int, to: Int, separator: UInt8) -> Int? {
        guard from < to, let hit = memchr(bytes.baseAddress! + from, Int32(separator), to - from) else { return nil }
        return UnsafeRawPointer(hit) - bytes.baseAddress! + 1
    }

    /// A mapped file being scanned, in lanes: ranges of it, each scanned by one thread a
    /// piece at a time into a store of its own (the first lane into the picker's), appended
    /// in order once all are done. A thread whose lane is done takes the second half of what
    /// is left of the lane with the most left (`steal`): the two threads end together even
    /// when one of them is held up (a core taken for a millisecond by another process).
    private final class Scan: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        let first: Lane
        private let separator: UInt8
        private let parsesFields: Bool
        private let lock = Lock()
        /// By start. (`next` and `limit` of each under the lock.)
        private var lanes: [Lane]
        private var helped = false
        private let helperDone = DispatchSemaphore(value: 0)
        private let handedOver = DispatchSemaphore(value: 0)

        init(_ bytes: UnsafeRawBufferPointer, into store: LineStore) {
            self.bytes = bytes
            separator = store.separator
            parsesFields = store.parsesFields
            first = Lane(start: 0, limit: bytes.count, store: store)
            lanes = [first]
        }

        /// The next piece of `lane` to scan (up to a line's end), or nil when it is done.
        func claim(in lane: Lane) -> UnsafeRawBufferPointer? {
            lock.locked {
                guard lane.next < lane.limit else { return nil }
                let from = lane.next
                let end = from + MappedInput.piece >= lane.limit ? lane.limit
                    : MappedInput.lineEnd(in: bytes, from: from + MappedInput.piece, to: lane.limit,
                                          separator: separator) ?? lane.limit
                lane.next = end
                return UnsafeRawBufferPointer(rebasing: bytes[from..<end])
            }
        }

        /// A new lane, with a store of its own: the second half of what is left of the lane
        /// with the most left, when that is worth it. Nil: every lane is done or nearly.
        func steal() -> Lane? {
            let lane: Lane? = lock.locked {
                guard let victim = lanes.max(by: { $0.limit - $0.next < $1.limit - $1.next }),
                      victim.limit - victim.next >= MappedInput.piece * 4,
                      let split = MappedInput.lineEnd(in: bytes, from: victim.next + (victim.limit - victim.next) / 2,
                                                      to: victim.limit, separator: separator),
                      split < victim.limit else { return nil }
                let stolen = Lane(start: split, limit: victim.limit, store: nil)
                victim.limit = split
                lanes.insert(stolen, at: lanes.firstIndex { $0.start > split } ?? lanes.count)
                return stolen
            }
            // Its records start in the large regions only when it is large enough to fill
            // them (a small store's pages are given back to malloc, which keeps them, as it
            // is copied).
            guard let lane else { return nil }
            lane.store = LineStore(separator: separator, parsesFields: parsesFields,
                                   large: lane.limit - lane.start >= 16 << 20)
            return lane
        }

        /// Starts the helper thread, which steals lanes until none is worth it. It also frees
        /// their stores once handed over, so that unmapping their arrays does not hold up
        /// the loading thread.
        func startHelper() {
            helped = true
            spawnThread { [self] in
                while let lane = steal() {
                    while let part = claim(in: lane) { lane.scan(part) }
                }
                helperDone.signal()
                handedOver.wait()
                for lane in lanes where lane !== first { lane.store = nil }
            }
        }

        /// Waits for the helper, appends every lane's lines to the first's store in order,
        /// and returns the pieces scanned.
        func finish() -> [Piece] {
            if helped { helperDone.wait() }
            var pieces: [Piece] = []
            for lane in lanes {
                pieces += lane.pieces
                if lane !== first { first.store!.appendLines(of: lane.store!) }
            }
            if helped { handedOver.signal() }
            return pieces
        }
    }

    /// A range of a mapped file scanned by one thread: `start..<limit`, scanned up to `next`.
    private final class Lane: @unchecked Sendable {
        let start: Int
        var next: Int
        var limit: Int
        var store: LineStore?
        var pieces: [Piece] = []

        init(start: Int, limit: Int, store: LineStore?) {
            self.start = start
            next = start
            self.limit = limit
            self.store = store
        }

        /// What is left to claim (read by the lane's own thread, before any other can steal).
        var left: Int { limit - next }

        func scan(_ part: UnsafeRawBufferPointer, release: @escaping () -> Void = {}) {
            // (Summed after the scan, which reads the piece from memory: the sum then reads it
            // from the cache.)
            store!.adopt(part, chunk: part.count, release: release)
            pieces.append(Piece(bytes: part, checksum: MappedInput.checksum(part, 0)))
        }
    }

    /// Files at least this large are scanned on two threads.
    static let splitSize = 4 << 20

    /// Whether `fd` is a regular file large enough to be loaded on two cores at once, so
    /// that matching while it loads would only compete with the loading.
    static func loadsOnTwoCores(fd: Int32) -> Bool {
        guard let (st, offset) = regularFile(fd) else { return false }
        return Int(st.st_size) - offset >= splitSize
    }

    /// `fd`'s status and offset when it is a regular file; nil otherwise.
    private static func regularFile(_ fd: Int32) -> (stat, Int)? {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        let offset = lseek(fd, 0, SEEK_CUR)
        return offset >= 0 ? (st, Int(offset)) : nil
    }

    /// What changes when a file is written: its size and modification time.
    private struct Identity: Equatable {
        var size: Int
        var seconds: Int
        var nanoseconds: Int
        init(_ st: stat) {
            size = Int(st.st_size)
            seconds = Int(st.st_mtim.tv_sec)
            nanoseconds = Int(st.st_mtim.tv_nsec)
        }
    }

    /// A piece scanned, with the checksum of its bytes as they were scanned.
    private struct Piece {
        var bytes: UnsafeRawBufferPointer
        var checksum: UInt64
    }

    private struct Mapping {
        var fd: Int32
        var identity: Identity
        var pieces: [Piece]
    }

    nonisolated(unsafe) private static var mapped: Mapping? = nil

    private static func checksum(_ bytes: UnsafeRawBufferPointer, _ sum: UInt64) -> UInt64 {
        pick_checksum(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, sum)
    }

    /// Ends pick with an error if the mapped bytes changed since they were read: the lines
    /// pick would print may no longer be the ones it showed. A file that only grew (a log
    /// still being written) is fine: its first bytes are checked to be as they were.
    static func failIfChanged() {
        guard let mapping = mapped else { return }
        var st = stat()
        guard fstat(mapping.fd, &st) == 0 else { return }
        if Identity(st) == mapping.identity { return }
        var same = Int(st.st_size) >= mapping.identity.size
        for piece in mapping.pieces where same {
            same = checksum(piece.bytes, 0) == piece.checksum
        }
        if !same {
            fail("the input file changed while pick was reading it; nothing was printed")
        }
    }

    /// If the file shrinks while mapped, touching a page past its new end raises SIGBUS.
    /// The handler maps a zero page there instead, so pick reads NUL bytes where the
    /// vanished data was (as a reader racing the truncation would have missed it) and
    /// goes on, where it would otherwise crash.
    /// Whether a bus error was a touch of the mapped file past its new end, now answered
    /// with a zero page (the faulting access then goes on). Safe in a signal handler; the
    /// terminal's crash handler asks this first, whichever handler was installed last.
    static func recovers(_ info: UnsafeMutablePointer<siginfo_t>?) -> Bool {
        let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        guard address >= mappedStart && address < mappedEnd,
              let fixed = UnsafeMutableRawPointer(bitPattern: address / page * page) else { return false }
        return mmap(fixed, Int(page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED
    }

    private static func guardAgainstTruncation(_ memory: UnsafeMutableRawPointer, _ length: Int) {
        mappedStart = UInt(bitPattern: memory)
        mappedEnd = mappedStart + UInt(length)
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signo, info, context in
            if MappedInput.recovers(info) { return }
            // Any other bus error is a crash: whoever handled it before (the terminal's
            // restore, the default action) handles it now.
            let previous = previousBusAction
            if previous.sa_flags & SA_SIGINFO != 0, let handler = previous.__sigaction_handler.sa_sigaction {
                handler(signo, info, context)
                return
            }
            var reset = previous
            sigaction(SIGBUS, &reset, nil)
            raise(SIGBUS)
        }
        action.sa_flags = SA_SIGINFO | SA_ONSTACK
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previousBusAction)
    }
}

nonisolated(unsafe) private var previousBusAction = sigaction()
nonisolated(unsafe) private var mappedStart: UInt = 0
nonisolated(unsafe) private var mappedEnd: UInt = 0
