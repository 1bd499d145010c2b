#if canImport(Glibc)
import Glibc
#endif
import CPickSystem
import PickCore
import Synchronization

/// Reads candidates from a file descriptor into the store, in chunks as they arrive.
enum InputReader {
    /// Reads `fd` to its end; calls `onChunk` after each chunk. Errors go to `onError`
    /// (by default: end pick with status 2); the lines read so far are kept.
    /// With `mapsFile`, a large regular file is mapped rather than read (`MappedInput`), and
    /// scanned on two threads: at once, or without `helpAtOnce` once `MappedInput.helpLoading`
    /// is called.
    /// With `styles` (`--ansi`), lines are stored as their visible text and their colours
    /// go to `styles`.
    static func readAll(fd: Int32, into store: LineStore, mapsFile: Bool = false, helpAtOnce: Bool = true,
                        styles: AnsiStyles? = nil,
                        onChunk: () -> Void = {}, onError: (String) -> Void = { fail($0) }) {
        if let styles {
            readCleaning(fd: fd, into: store, filter: AnsiFilter(separator: store.separator, styles: styles),
                         onChunk: onChunk, onError: onError)
            return
        }
        if mapsFile { _ = MappedInput.map(fd: fd, into: store, helpAtOnce: helpAtOnce, onChunk: onChunk) }
        while let n = readChunk(fd, into: store.writableSpace(), onError: onError) {
            store.commit(n)
            onChunk()
        }
        store.finish()
        onChunk()
    }

    /// Reads `fd` to its end through `filter` (`--ansi`).
    private static func readCleaning(fd: Int32, into store: LineStore, filter: AnsiFilter,
                                     onChunk: () -> Void, onError: (String) -> Void) {
        var filter = filter
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        while let n = readChunk(fd, into: buffer, onError: onError) {
            store.append(filter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])))
            onChunk()
        }
        store.append(filter.finish())
        store.finish()
        onChunk()
    }

    /// The bytes the next read of `fd` put in `space`, waiting out interruptions and a
    /// non-blocking descriptor's EAGAIN; nil at the end, or after an error (reported).
    private static func readChunk(_ fd: Int32, into space: UnsafeMutableRawBufferPointer,
                                  onError: (String) -> Void) -> Int? {
        while true {
            let n = read(fd, space.baseAddress, space.count)
            if n > 0 { return n }
            if n == 0 { return nil }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                waitUntilReady(fd, for: POLLIN)
                continue
            }
            onError("cannot read input: \(String(cString: strerror(errno)))")
            return nil
        }
    }
}

/// Waits until `fd` can be read (`POLLIN`) or written (`POLLOUT`). For a descriptor another
/// program left non-blocking (O_NONBLOCK is shared through a pipe): `read` and `write`
/// answer EAGAIN at once, and retrying without waiting would spin a core at 100%.
func waitUntilReady(_ fd: Int32, for event: Int32) {
    var entry = pollfd(fd: fd, events: Int16(event), revents: 0)
    while poll(&entry, 1, -1) < 0 && errno == EINTR {}
}

/// Lists the files below the walker's roots, as fzf does when nothing is piped in
/// (`WalkerOptions`: what is listed, followed and skipped), one path a line, relative to
/// the root as it was written (`.` gives bare names). In each folder files come first, then
/// folders, each by name; fzf walks in parallel, so only the set of paths is the same.
struct FileWalker {
    let options: WalkerOptions
    let store: LineStore
    let onChunk: () -> Void
    private var pending: [UInt8] = []
    /// The real paths of the roots: a followed symlink that leads to one of them, or above
    /// one, would walk the tree again (a link to `/` the whole disk), so it is not followed.
    private var realRoots: [String] = []
    /// The folders being walked, as device and inode: a symlink back to one is a loop.
    private var ancestors: [(dev_t, ino_t)] = []

    private init(options: WalkerOptions, store: LineStore, onChunk: @escaping () -> Void) {
        self.options = options
        self.store = store
        self.onChunk = onChunk
    }

    static func walk(_ options: WalkerOptions, into store: LineStore, onChunk: @escaping () -> Void = {}) {
        var walker = FileWalker(options: options, store: store, onChunk: onChunk)
        if options.follows {
            walker.realRoots = options.roots.compactMap { root in
                guard let real = realpath(root, nil) else { return nil }
                defer { free(real) }
                return String(cString: real)
            }
        }
        for root in options.roots { walker.walkRoot(root) }
        store.append(walker.pending)
        store.finish()
        onChunk()
    }

    private mutating func walkRoot(_ written: String) {
        var root = written
        while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
        var st = stat()
        // A root is walked through a symlink, followed or not, as fzf's.
        guard stat(root, &st) == 0 else { return }
        let path = WalkerOptions.trimmed(root)
        guard (st.st_mode & S_IFMT) == S_IFDIR else {
            if options.files { emit(path) }
            return
        }
        if path != "." {
            let name = root.split(separator: "/").last.map(String.init) ?? root
            if options.skips(path, name: name) { return }
            if options.directories { emit(path + "/") }
        }
        ancestors = [(st.st_dev, st.st_ino)]
        walkFolder(root, shown: path == "." ? "" : path)
    }

    /// Walks the folder at `dir` (as opened), listed as `shown` (empty for the root `.`).
    private mutating func walkFolder(_ dir: String, shown: String) {
        guard let handle = opendir(dir) else { return }
        var files: [String] = [], folders: [(name: String, isLink: Bool)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." { continue }
            var type = entry.pointee.d_type
            if type == UInt8(DT_UNKNOWN) {
                var st = stat()
                if lstat(dir + "/" + name, &st) == 0 {
                    switch st.st_mode & S_IFMT {
                    case S_IFDIR: type = UInt8(DT_DIR)
                    case S_IFLNK: type = UInt8(DT_LNK)
                    default: type = UInt8(DT_REG)
                    }
                }
            }
            if type == UInt8(DT_DIR) {
                folders.append((name, false))
            } else if type == UInt8(DT_LNK) {
                var st = stat()
                if stat(dir + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                    folders.append((name, true))
                } else {
                    files.append(name)   // a link to a file, or a broken one
                }
            } else {
                files.append(name)
            }
        }
        closedir(handle)
        let prefix = shown.isEmpty ? "" : (shown.hasSuffix("/") ? shown : shown + "/")
        if options.files { for name in files.sorted() { emit(prefix + name) } }
        for (name, isLink) in folders.sorted(by: { $0.name < $1.name }) {
            let path = prefix + name, opened = dir + "/" + name
            var st = stat()
            guard stat(opened, &st) == 0 else { continue }
            if isLink {
                guard options.follows, follows(opened) else { continue }
            }
            if options.skips(path, name: name) { continue }
            if options.directories { emit(path + "/") }
            // A symlink back to a folder being walked is listed, not walked again (fzf's).
            if isLink && ancestors.contains(where: { $0.0 == st.st_dev && $0.1 == st.st_ino }) { continue }
            ancestors.append((st.st_dev, st.st_ino))
            walkFolder(opened, shown: path)
            ancestors.removeLast()
        }
    }

    /// Whether a symlink to the folder at `path` may be walked into: not to `/`, a root, or
    /// a folder above one.
    private func follows(_ path: String) -> Bool {
        guard let real = realpath(path, nil) else { return false }
        defer { free(real) }
        let target = String(cString: real)
        if target == "/" { return false }
        return !realRoots.contains { $0 == target || $0.hasPrefix(target + "/") }
    }

    private mutating func emit(_ path: String) {
        pending.append(contentsOf: path.utf8)
        pending.append(store.separator)
        if pending.count > 1 << 15 {
            store.append(pending)
            pending.removeAll(keepingCapacity: true)
            onChunk()
        }
    }
}

/// Runs `body` on a new detached thread (input reading, so matching never waits on it),
/// started on another core than this one's: each thread pick starts works alongside its
/// starter at once (`pick_spawn_elsewhere`).
func spawnThread(_ body: @escaping () -> Void) {
    final class Box { let body: () -> Void; init(_ b: @escaping () -> Void) { body = b } }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pick_spawn_elsewhere({ raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box)
    guard status == 0 else { fail("cannot start a thread: \(String(cString: strerror(status)))") }
}

/// The input, read on a background thread while the picker runs: whether all of it is in,
/// and the error that ended it, if one did.
final class InputLoad: @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    private let lock = Lock()
    private var failure: String? = nil
    private var failed: String? = nil

    var isLoading: Bool { !done.load(ordering: .acquiring) }
    var error: String? { lock.locked { failure } }
    /// The default command (or a reload's), when it exited with a status other than 0
    /// (fzf's info line says so while nothing was read).
    var failedCommand: String? { lock.locked { failed } }

    /// Input read before the picker started (the demo, --select-1): nothing loads.
    static func alreadyRead() -> InputLoad {
        let load = InputLoad()
        load.done.store(true, ordering: .relaxed)
        return load
    }

    /// Input that a reload bound to `start` replaces before any is read: it stays loading
    /// (no `load` event) until the reload's output takes its place.
    static func replacedOnStart() -> InputLoad {
        InputLoad()
    }

    /// Reads `fd` (a reload's command output) into `store` on a thread of its own; `ended`
    /// runs there once it is read, and gives the command if it failed (fzf's info line says
    /// so while the list is empty). A read error ends the list there (pick goes on).
    static func start(reading fd: Int32, into store: LineStore, styles: AnsiStyles?, fields: FieldView?,
                      ended: @escaping @Sendable () -> String?) -> InputLoad {
        let load = InputLoad()
        spawnThread {
            InputReader.readAll(fd: fd, into: store, styles: styles,
                                onChunk: { fields?.catchUp(); wakeEventLoop(Wake.input) }, onError: { _ in })
            fields?.catchUp(finishing: true)
            let failed = ended()
            load.lock.locked { load.failed = failed }
            load.done.store(true, ordering: .releasing)
            wakeEventLoop(Wake.input)
        }
        return load
    }

    /// Starts reading `store`'s input: stdin, or the files below here when stdin is a
    /// terminal. Started first, before the terminal is opened and the picker built, on a
    /// thread of its own.
    /// With `fields`, each chunk's lines are derived for the search (FieldView) before the
    /// picker hears of them.
    static func start(into store: LineStore, fromTerminal: Bool, walker: WalkerOptions, styles: AnsiStyles?,
                      fields: FieldView? = nil) -> InputLoad {
        let load = InputLoad()
        spawnThread {
            let onChunk = { fields?.catchUp(); wakeEventLoop(Wake.input) }
            if fromTerminal {
                DefaultCommand.list(walker, into: store, onChunk: onChunk,
                                    onFailure: { command in load.lock.locked { load.failed = command } })
            } else {
                InputReader.readAll(fd: 0, into: store, mapsFile: true, helpAtOnce: false, styles: styles,
                                    onChunk: onChunk,
                                    onError: { message in
                    load.lock.locked { load.failure = message }
                })
            }
            fields?.catchUp(finishing: true)
            load.done.store(true, ordering: .releasing)
            wakeEventLoop(Wake.input)
        }
        return load
    }
}
