#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor. A reader that went away (EPIPE) is not an error:
/// pick stops writing and exits quietly, as a filter in a pipeline should.
final class Output {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var closed = false

    init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    func write<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        guard !closed else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    func flush() {
        guard !closed, !buffer.isEmpty else { return }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    if errno == EPIPE { closed = true; return }
                    fail("cannot write output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Prints `pick: message` on stderr and exits with `status`.
func fail(_ message: String, status: Int32 = 2) -> Never {
    let line = "pick: \(message)\n"
    _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    exit(status)
}
