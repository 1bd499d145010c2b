#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// Buffered writes to a file descriptor. A reader that went away (EPIPE) is not an error:
/// pick stops writing and exits quietly, as a filter in a pipeline should.
final class Output {
    private let fd: Int32
    private static let capacity = 1 << 16
    /// Hot path (a million lines printed): a raw buffer filled with memcpy.
    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: Output.capacity)
    private var count = 0
    private(set) var closed = false

    init(fd: Int32) {
        self.fd = fd
    }

    deinit { buffer.deallocate() }

    /// Writes `bytes` (a line, say) through the buffer.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !closed, let base = bytes.baseAddress else { return }
        if count + bytes.count > Self.capacity {
            flush()
            if bytes.count > Self.capacity {
                send(UnsafeRawPointer(base), bytes.count)
                return
            }
        }
        (buffer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Writes one byte (a line's terminator).
    func write(byte: UInt8) {
        guard !closed else { return }
        if count == Self.capacity { flush() }
        buffer[count] = byte
        count += 1
    }

    /// Writes lines of `store` in the order of `lines`, each followed by `terminator`. Many
    /// lines are copied on every core a round at a time and then written in order: lines in
    /// ranked order lie all over memory, and copying each waits for its cache misses.
    func write(lines: UnsafeBufferPointer<Int32>, of store: LineStore, terminator: UInt8) {
        let parts = Parallel.cores
        guard lines.count >= Self.copiedInParallelFrom, parts > 1 else {
            for k in lines.indices {
                store.prefetch(lines, at: k)
                write(store.bytes(of: Int(lines[k])))
                write(byte: terminator)
                if closed { return }
            }
            return
        }
        let copies = (0..<parts).map { _ in LineCopy() }
        defer { for copy in copies { copy.free() } }
        var start = 0
        while start < lines.count && !closed {
            Parallel.run(parts) { part in
                let from = min(start + part * Self.linesPerCopy, lines.count)
                copies[part].fill(lines, from..<min(from + Self.linesPerCopy, lines.count), of: store,
                                  terminator: terminator)
            }
            flush()
            for copy in copies where copy.count > 0 { send(UnsafeRawPointer(copy.bytes), copy.count) }
            start += parts * Self.linesPerCopy
        }
    }

    /// From how many lines `write(lines:)` copies on every core, and how many a core copies a
    /// round (about 150 KB of paths: a round's copies stay in the caches until written).
    private static let copiedInParallelFrom = 8192
    private static let linesPerCopy = 2048

    func write<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        let array = Array(bytes)
        array.withUnsafeBufferPointer { write($0) }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func flush() {
        guard !closed, count > 0 else { return }
        send(UnsafeRawPointer(buffer), count)
        count = 0
    }

    private func send(_ bytes: UnsafeRawPointer, _ n: Int) {
        var offset = 0
        while offset < n && !closed {
            let written = Glibc.write(fd, bytes + offset, n - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { waitUntilReady(fd, for: POLLOUT); continue }
                if errno == EPIPE { closed = true; return }
                fail("cannot write output: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// The bytes of some lines, each followed by its terminator, copied for `Output.write(lines:)`.
private final class LineCopy: @unchecked Sendable {
    private(set) var bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 18)
    private var capacity = 1 << 18
    private(set) var count = 0

    func fill(_ lines: UnsafeBufferPointer<Int32>, _ range: Range<Int>, of store: LineStore, terminator: UInt8) {
        count = store.copyLines(lines, range, terminator: terminator, into: &bytes, capacity: &capacity)
    }

    func free() { bytes.deallocate() }
}

/// Prints `pick: message` on stderr and exits with `status`.
func fail(_ message: String, status: Int32 = 2) -> Never {
    let line = "pick: \(message)\n"
    _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    exit(status)
}

/// Why the history file `path` cannot be kept, or nil. Checked before the picker starts, as
/// fzf does: a mistyped directory is an error at once, not a history that is silently never
/// saved. Saving writes a new file next to `path` and renames it over, so the directory must
/// be writable; a file that exists must be a readable regular file, or saving would drop
/// what it holds.
func historyProblem(_ path: String) -> String? {
    func reason() -> String { String(cString: strerror(errno)) }
    let shown = OptionError.quote(path)
    var info = stat()
    if lstat(path, &info) == 0 {
        let kind = info.st_mode & S_IFMT
        if kind == S_IFDIR { return "\(shown) is a directory" }
        // A FIFO would hang the read at start; a device (/dev/null) would be replaced by the
        // rename. A symbolic link is fine: it is replaced, never followed.
        if kind != S_IFREG && kind != S_IFLNK { return "\(shown) is not a regular file" }
        if kind == S_IFREG && access(path, R_OK) != 0 { return "cannot read \(shown): \(reason())" }
    } else if errno != ENOENT {
        return "cannot use \(shown): \(reason())"
    }
    let directory: String
    if let slash = path.lastIndex(of: "/") {
        directory = slash == path.startIndex ? "/" : String(path[..<slash])
    } else {
        directory = "."
    }
    if access(directory, W_OK | X_OK) != 0 { return "cannot write \(shown): \(reason())" }
    return nil
}
