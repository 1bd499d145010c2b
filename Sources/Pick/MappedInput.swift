#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// Input redirected from a regular file (`pick -f q < file`), mapped instead of read.
///
/// Reading copies every byte into fresh memory the kernel must first zero; on a large
/// file that zeroing is most of the load. A mapping shares the page cache instead. Only
/// for the short-lived filter and completion modes: a file truncated under a mapping
/// faults on access (see `guardAgainstTruncation`), and one rewritten in place would
/// change lines under a picker that stays open.
enum MappedInput {
    /// Smaller files are read: mapping them saves nothing worth a mapping.
    static let minimumSize = 1 << 20

    /// Maps the rest of `fd` into the store when it is a large regular file, leaving the
    /// offset at the end of what was mapped so reading can go on from there (a file that
    /// grows). False when `fd` is not such a file or cannot be mapped.
    static func map(fd: Int32, into store: LineStore, onChunk: () -> Void) -> Bool {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        let offset = lseek(fd, 0, SEEK_CUR)
        guard offset >= 0, Int(st.st_size) - Int(offset) >= minimumSize else { return false }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let alignedOffset = Int(offset) / page * page
        let length = Int(st.st_size) - alignedOffset
        guard let memory = mmap(nil, length, PROT_READ, MAP_PRIVATE, fd, off_t(alignedOffset)),
              memory != MAP_FAILED else { return false }
        _ = madvise(memory, length, MADV_SEQUENTIAL)
        guardAgainstTruncation(memory, length)
        guard lseek(fd, off_t(st.st_size), SEEK_SET) >= 0 else {
            munmap(memory, length)
            return false
        }
        let skip = Int(offset) - alignedOffset
        store.adopt(UnsafeRawBufferPointer(start: memory + skip, count: length - skip), onChunk: onChunk,
                    release: { munmap(memory, length) })
        return true
    }

    /// If the file shrinks while mapped, touching a page past its new end raises SIGBUS.
    /// The handler maps a zero page there instead, so pick reads NUL bytes where the
    /// vanished data was (as a reader racing the truncation would have missed it) and
    /// goes on, where it would otherwise crash.
    private static func guardAgainstTruncation(_ memory: UnsafeMutableRawPointer, _ length: Int) {
        mappedStart = UInt(bitPattern: memory)
        mappedEnd = mappedStart + UInt(length)
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { _, info, _ in
            let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
            let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
            if address >= mappedStart && address < mappedEnd,
               let fixed = UnsafeMutableRawPointer(bitPattern: address / page * page),
               mmap(fixed, Int(page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED {
                return
            }
            signal(SIGBUS, SIG_DFL)
            raise(SIGBUS)
        }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, nil)
    }
}

nonisolated(unsafe) private var mappedStart: UInt = 0
nonisolated(unsafe) private var mappedEnd: UInt = 0
