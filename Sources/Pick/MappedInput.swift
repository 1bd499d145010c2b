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
    /// (`helpLoading`; with `helpAtOnce`, from the start): a second thread then takes the
    /// second half of what is left, into a store of its own, handed over at the end. The
    /// picker asks once its own start-up is done: a second thread started at once shared a
    /// core with it, and its first screen came a millisecond later (paths 1M: 3.1 -> 5.0
    /// ms, after fzf's 4.4), where the half left then is scanned as soon.
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
        // Help only for a file that starts a line and is large enough to be worth a thread.
        var helpable = store.endsAtLineEnd && bytes.count >= splitSize
        var helper: Helper? = nil
        var pieces: [Piece] = []
        var at = 0
        var limit = bytes.count
        while at < limit {
            if helpable && helpWanted.load(ordering: .relaxed) {
                helpable = false
                if limit - at >= splitSize / 2, let split = lineEnd(in: bytes, from: at + (limit - at) / 2, to: limit,
                                                                     separator: store.separator), split < limit {
                    helper = Helper(UnsafeRawBufferPointer(rebasing: bytes[split..<limit]), like: store)
                    limit = split
                }
            }
            let end = min(at + piece, limit) == limit ? limit
                : lineEnd(in: bytes, from: at + piece, to: limit, separator: store.separator) ?? limit
            let part = UnsafeRawBufferPointer(rebasing: bytes[at..<end])
            pieces.append(Piece(bytes: part, checksum: checksum(part, 0)))
            store.adopt(part, chunk: part.count, release: at == 0 ? { munmap(memory, length) } : {})
            onChunk()
            at = end
        }
        if let helper { pieces += helper.handOver(to: store) }
        mapped = Mapping(fd: fd, identity: Identity(st), pieces: pieces)
        return true
    }

    /// Asks the load of a mapped file, running or about to, to go on on two threads.
    static func helpLoading() {
        helpWanted.store(true, ordering: .relaxed)
    }

    private static let helpWanted = Atomic<Bool>(false)

    /// Bytes scanned between looks at `helpWanted`.
    private static let piece = 256 << 10

    /// The end of the line that holds byte `from` (just past its separator), if it ends
    /// before `to`.
    private static func lineEnd(in bytes: UnsafeRawBufferPointer, from: Int, to: Int, separator: UInt8) -> Int? {
        guard from < to, let hit = memchr(bytes.baseAddress! + from, Int32(separator), to - from) else { return nil }
        return UnsafeRawPointer(hit) - bytes.baseAddress! + 1
    }

    /// The thread that scans the end of a mapped file into a store of its own, which the
    /// loading thread takes over when both are done. It also makes that store, and frees it
    /// once handed over: unmapping its arrays took the loading thread 0.1 ms.
    private final class Helper: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let handedOver = DispatchSemaphore(value: 0)
        private var store: LineStore? = nil
        private var pieces: [Piece] = []

        init(_ bytes: UnsafeRawBufferPointer, like main: LineStore) {
            let separator = main.separator, parsesFields = main.parsesFields
            spawnThread { [self] in
                // Its records start in the large regions only when it is large enough to
                // fill them (a small store's pages are given back to malloc, which keeps
                // them, as it is copied).
                let own = LineStore(separator: separator, parsesFields: parsesFields, large: bytes.count >= 16 << 20)
                own.adopt(bytes, chunk: MappedInput.piece, beforeChunk: { part in
                    self.pieces.append(Piece(bytes: part, checksum: MappedInput.checksum(part, 0)))
                }, release: {})
                store = own
                done.signal()
                handedOver.wait()
            }
        }

        /// Waits for the helper, appends its lines to `main`, and returns its pieces.
        func handOver(to main: LineStore) -> [Piece] {
            done.wait()
            main.appendLines(of: store!)
            store = nil
            handedOver.signal()
            return pieces
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

    /// A piece scanned, with the checksum of its bytes as they were scanned. (A struct: an
    /// array of tuples has its type made from its mangled name at first use, 0.1 ms of
    /// loading.)
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
