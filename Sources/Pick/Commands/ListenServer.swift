#if canImport(Glibc)
import Glibc
#endif
import CPickSystem
import PickCore

// `--listen`: the remote control's sockets, served on a thread of their own.
//
// One thread polls the listening socket, its own wake pipe and every connection, each
// with a deadline: a client has `Tunables.Listen.requestMillis` to send its whole request
// (HTTPRequestParser says when it is whole, or what is wrong with it) and as long to read
// the answer. A request that parses is handed to the picker through `mailbox` and the
// picker's self-pipe (Wake.remote); the picker takes it between chains, on its own thread
// (PickerRemote.swift), and leaves the answer in the mailbox. A request the picker does
// not take within `pickerMillis` is withdrawn and answered 503: it changed nothing.
//
// Every descriptor is close-on-exec (no command pick runs inherits the port), and `stop`,
// called on every way out of the picker (and at exit, and before `become`), closes the
// listening socket and removes a Unix socket's file.

final class ListenServer: @unchecked Sendable {
    // @unchecked: `mailbox` is only touched under `lock`; the rest is written before the
    // thread starts, or (connections, the listening socket) only by the thread.

    /// The running server, for the picker's loop and the exit paths.
    nonisolated(unsafe) static var current: ListenServer?

    /// A request the picker has not answered yet.
    struct Pending {
        let id: Int
        let command: RemoteCommand
        var taken = false
        var answer: [UInt8]? = nil
    }

    private let listenFD: Int32
    private let wakeRead: Int32, wakeWrite: Int32
    private let socketPath: String?
    private let parser: HTTPRequestParser
    private let runsCommands: Bool
    private let lock = Lock()
    private var mailbox: [Pending] = []
    private var stopping = false
    private var thread: pthread_t? = nil
    /// The port listened on (a TCP server).
    let port: Int?

    /// Starts listening as `options` say, or fails with a message for stderr.
    static func start(_ address: ListenAddress, unsafe: Bool) -> Result<ListenServer, ListenFailure> {
        let key = ["PICK_API_KEY", "FZF_API_KEY"].compactMap { (name: String) -> String? in
            getenv(name).map { String(cString: $0) }
        }.first { !$0.isEmpty }
        let fd: Int32, port: Int?, path: String?, loopback: Bool
        switch address {
        case .socket(let p):
            guard let made = listenOnSocket(p) else { return .failure(ListenFailure(message: lastError("listen on \(p)"))) }
            (fd, port, path, loopback) = (made, nil, p, true)
        case .tcp(let host, let wanted):
            switch listenOnTCP(host: host, port: wanted) {
            case .failure(let f): return .failure(f)
            case .success(let made): (fd, port, path, loopback) = (made.fd, made.port, nil, made.loopback)
            }
            if !loopback && key == nil {
                close(fd)
                return .failure(ListenFailure(message: "--listen \(host): FZF_API_KEY (or PICK_API_KEY) is required to listen on an address other than loopback"))
            }
        }
        var fds: [Int32] = [0, 0]
        guard pick_pipe_cloexec(&fds) == 0 else { close(fd); return .failure(ListenFailure(message: lastError("pipe"))) }
        for f in fds { _ = fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK) }
        let server = ListenServer(fd: fd, wake: (fds[0], fds[1]), port: port, path: path,
                                  parser: HTTPRequestParser(apiKey: key.map { Array($0.utf8) }),
                                  runsCommands: loopback || unsafe)
        // Commands pick runs find the server (fzf's names, and pick's).
        if let port { setenv("FZF_PORT", String(port), 1); setenv("PICK_PORT", String(port), 1) }
        if let path { setenv("FZF_SOCK", path, 1); setenv("PICK_SOCK", path, 1) }
        current = server
        atexit { ListenServer.current?.stop() }
        server.thread = startThread(server)
        return .success(server)
    }

    private init(fd: Int32, wake: (Int32, Int32), port: Int?, path: String?, parser: HTTPRequestParser, runsCommands: Bool) {
        listenFD = fd
        (wakeRead, wakeWrite) = wake
        self.port = port
        socketPath = path
        self.parser = parser
        self.runsCommands = runsCommands
    }

    /// Stops serving: the thread ends, the listening socket is closed and a socket file
    /// removed. Called on the picker's thread; safe to call again.
    func stop() {
        let wasRunning = lock.locked { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard wasRunning else { return }
        var b: UInt8 = 1
        _ = write(wakeWrite, &b, 1)
        if let thread { pthread_join(thread, nil) }
        close(listenFD)
        close(wakeRead)
        close(wakeWrite)
        if let socketPath { unlink(socketPath) }
        if ListenServer.current === self { ListenServer.current = nil }
    }

    // MARK: The picker's side

    /// The oldest request not yet taken (the picker's thread).
    func take() -> (id: Int, command: RemoteCommand)? {
        lock.locked {
            guard let k = mailbox.firstIndex(where: { !$0.taken }) else { return nil }
            mailbox[k].taken = true
            return (mailbox[k].id, mailbox[k].command)
        }
    }

    /// The answer to request `id` (the picker's thread).
    func answer(_ id: Int, _ bytes: [UInt8]) {
        lock.locked {
            if let k = mailbox.firstIndex(where: { $0.id == id }) { mailbox[k].answer = bytes }
        }
        var b: UInt8 = 0
        _ = write(wakeWrite, &b, 1)
    }

    // MARK: The server's thread

    private final class Connection {
        var fd: Int32
        var received: [UInt8] = []
        var deadline: Int
        var continueSent = false
        /// The request handed to the picker, and until when it may wait there.
        var pending: (id: Int, until: Int)? = nil
        var output: [UInt8] = []
        var written = 0
        /// The answer is written: the rest of the request is read and dropped until then.
        var lingerUntil: Int? = nil

        init(fd: Int32, deadline: Int) {
            self.fd = fd
            self.deadline = deadline
        }
    }

    private var connections: [Connection] = []
    private var nextID = 0

    private static func startThread(_ server: ListenServer) -> pthread_t? {
        var thread = pthread_t()
        let box = Unmanaged.passRetained(server).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            let server = Unmanaged<ListenServer>.fromOpaque(raw!).takeRetainedValue()
            server.serve()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<ListenServer>.fromOpaque(box).release()
            return nil
        }
        return thread
    }

    private func serve() {
        while !lock.locked({ stopping }) {
            let now = monotonicMillis()
            collectAnswers(now: now)
            var fds = [pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            var nearest = Int.max
            for c in connections {
                let writing = c.written < c.output.count
                // A request with the picker is not watched (a client hanging up meanwhile
                // would wake every poll): its answer's write finds out.
                fds.append(pollfd(fd: c.pending == nil ? c.fd : -1, events: Int16(writing ? POLLOUT : POLLIN), revents: 0))
                nearest = min(nearest, c.lingerUntil ?? c.deadline, c.pending?.until ?? Int.max)
            }
            let timeout = nearest == Int.max ? -1 : Int32(max(1, min(nearest - now, 1_000)))
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { drainWakes() }
            let now2 = monotonicMillis()
            for (k, c) in connections.enumerated() where fds[k + 2].revents != 0 {
                serviceConnection(c, revents: fds[k + 2].revents, now: now2)
            }
            if fds[0].revents & Int16(POLLIN) != 0 { acceptConnections(now: now2) }
            expire(now: now2)
            connections.removeAll { $0.fd < 0 }
        }
        // Answers the picker gave before it stopped us (a POST of accept, of become) still
        // go out: small, they fit in the socket's buffer.
        collectAnswers(now: monotonicMillis())
        for c in connections where c.fd >= 0 { close(c.fd) }
        connections = []
    }

    private func drainWakes() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }

    private func acceptConnections(now: Int) {
        while true {
            let fd = pick_accept_cloexec(listenFD)
            if fd < 0 { return }
            if connections.count >= Tunables.Listen.connections {
                // Best effort: the client learns why, without the server waiting for it.
                let bytes = HTTPResponse.bytes(status: 503, body: "too many connections")
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            connections.append(Connection(fd: fd, deadline: now + Tunables.Listen.requestMillis))
        }
    }

    private func serviceConnection(_ c: Connection, revents: Int16, now: Int) {
        if c.written < c.output.count {
            flush(c, now: now)
            return
        }
        guard revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, c.pending == nil else { return }
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        let got = recv(c.fd, &chunk, chunk.count, 0)
        if got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR) {
            // The client went away (or finished sending, a lingering close's end).
            finish(c)
            return
        }
        guard got > 0 else { return }
        if c.lingerUntil != nil { return }  // the rest of a refused request: dropped
        let room = parser.limits.headerBytes + parser.limits.bodyBytes - c.received.count
        c.received += chunk[0..<min(got, max(0, room))]
        switch parser.parse(c.received) {
        case .incomplete(let sendContinue):
            if sendContinue && !c.continueSent {
                c.continueSent = true
                HTTPResponse.continueBytes.withUnsafeBytes { _ = send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        case .failed(let failure):
            respond(c, HTTPResponse.failure(failure), now: now)
        case .complete(let request):
            switch RemoteCommand.decode(request, runsCommands: runsCommands) {
            case .failure(let failure):
                respond(c, HTTPResponse.failure(failure), now: now)
            case .success(let command):
                nextID += 1
                let id = nextID
                lock.locked { mailbox.append(Pending(id: id, command: command)) }
                c.pending = (id, now + Tunables.Listen.pickerMillis)
                wakeEventLoop(Wake.remote)
            }
        }
    }

    /// Answers the picker left: their connections start writing.
    private func collectAnswers(now: Int) {
        let answered: [(Int, [UInt8])] = lock.locked {
            let done = mailbox.compactMap { p in p.answer.map { (p.id, $0) } }
            mailbox.removeAll { $0.answer != nil }
            return done
        }
        for (id, bytes) in answered {
            if let c = connections.first(where: { $0.pending?.id == id }) {
                c.pending = nil
                respond(c, bytes, now: now)
            }
        }
    }

    /// Cuts off a client past its deadline, and withdraws a request the picker did not take.
    private func expire(now: Int) {
        for c in connections where c.fd >= 0 {
            if let pending = c.pending, now >= pending.until {
                let withdrawn = lock.locked { () -> Bool in
                    guard let k = mailbox.firstIndex(where: { $0.id == pending.id }) else { return false }
                    if mailbox[k].taken && mailbox[k].answer == nil { return false }  // being answered now
                    mailbox.remove(at: k)
                    return true
                }
                if withdrawn {
                    c.pending = nil
                    respond(c, HTTPResponse.bytes(status: 503, json: true, body: "{\"error\":\"timeout\"}"), now: now)
                }
            } else if let linger = c.lingerUntil, now >= linger {
                finish(c)
            } else if c.lingerUntil == nil, c.pending == nil, now >= c.deadline {
                if c.output.isEmpty {
                    respond(c, HTTPResponse.failure(HTTPFailure(408, "request not sent in time")), now: now)
                } else {
                    finish(c)  // the answer was not read in time
                }
            }
        }
    }

    private func respond(_ c: Connection, _ bytes: [UInt8], now: Int) {
        c.output = bytes
        c.written = 0
        c.deadline = now + Tunables.Listen.responseMillis
        flush(c, now: now)
    }

    private func flush(_ c: Connection, now: Int) {
        while c.written < c.output.count {
            let n = c.output.withUnsafeBytes { raw in
                send(c.fd, raw.baseAddress! + c.written, raw.count - c.written, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EAGAIN || errno == EINTR { return }
                finish(c)
                return
            }
            c.written += n
        }
        // All written: no more to send; what the client still sends is read and dropped
        // for a moment, so that closing does not reset the connection under its answer.
        shutdown(c.fd, Int32(SHUT_WR))
        c.lingerUntil = now + Tunables.Listen.lingerMillis
    }

    private func finish(_ c: Connection) {
        guard c.fd >= 0 else { return }
        close(c.fd)
        c.fd = -1
    }
}

/// Why the server could not start.
struct ListenFailure: Error {
    let message: String
}

private func lastError(_ what: String) -> String {
    "--listen: cannot \(what): \(String(cString: strerror(errno)))"
}

/// A Unix socket at `path`, mode 0600 from its creation (the umask set around bind). A file
/// already there is replaced if no server answers on it (a crashed pick's), refused otherwise.
private func listenOnSocket(_ path: String) -> Int32? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { errno = ENAMETOOLONG; return nil }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (k, b) in bytes.enumerated() { raw[k] = b }
        raw[bytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return nil }
    func bindIt() -> Int32 {
        let old = umask(0o177)
        defer { umask(old) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
    }
    if bindIt() != 0 {
        guard errno == EADDRINUSE else { close(fd); return nil }
        // Is someone there?
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let answered = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, length) }
        } == 0
        close(probe)
        var info = stat()
        guard !answered, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else {
            close(fd)
            errno = EADDRINUSE
            return nil
        }
        unlink(path)
        guard bindIt() == 0 else { close(fd); return nil }
    }
    chmod(path, 0o600)
    guard listen(fd, 16) == 0 else { close(fd); unlink(path); return nil }
    return fd
}

/// A TCP socket on `host:port` (port 0: one chosen), and whether the address is loopback.
private func listenOnTCP(host: String, port: Int) -> Result<(fd: Int32, port: Int, loopback: Bool), ListenFailure> {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var found: UnsafeMutablePointer<addrinfo>? = nil
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
        return .failure(ListenFailure(message: "--listen: cannot resolve \(OptionError.quote(host))"))
    }
    defer { freeaddrinfo(found) }
    // localhost: its IPv4 address first, where fzf listens (and clients try first).
    var candidates: [UnsafeMutablePointer<addrinfo>] = []
    var p: UnsafeMutablePointer<addrinfo>? = first
    while let a = p { candidates.append(a); p = a.pointee.ai_next }
    candidates.sort { ($0.pointee.ai_family == AF_INET ? 0 : 1) < ($1.pointee.ai_family == AF_INET ? 0 : 1) }
    var lastErrno: Int32 = 0
    for a in candidates {
        let info = a.pointee
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { lastErrno = errno; continue }
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, 16) == 0 else {
            lastErrno = errno
            close(fd)
            continue
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var actualPort = port
        var loopback = false
        withUnsafeMutablePointer(to: &bound) { raw in
            raw.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            if Int32(raw.pointee.ss_family) == AF_INET {
                raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                    actualPort = Int(UInt16(bigEndian: v4.pointee.sin_port))
                    loopback = UInt32(bigEndian: v4.pointee.sin_addr.s_addr) >> 24 == 127
                }
            } else {
                raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    actualPort = Int(UInt16(bigEndian: v6.pointee.sin6_port))
                    var a = v6.pointee.sin6_addr
                    loopback = withUnsafeBytes(of: &a) { bytes in
                        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
                    }
                }
            }
        }
        return .success((fd, actualPort, loopback))
    }
    errno = lastErrno
    return .failure(ListenFailure(message: lastError("listen on \(host):\(port)")))
}
