#if canImport(Glibc)
import Glibc
#endif
import CSQLite
import PickCore

// The store behind `--remember NAME`: one SQLite file, `$XDG_STATE_HOME/pick/memory.sqlite`
// (`~/.local/state/pick/` by default), shared by every name and every shell.
//
// - WAL mode: readers never wait for a writer, and a writer killed mid-write (kill -9)
//   leaves the last committed state; `synchronous=NORMAL` is WAL's safe setting (a power
//   cut may lose the last pick, never the file).
// - One row per name, line and query (folded: RememberedPicks.fold): `weight` as of `at`
//   (Unix seconds). A pick decays the row's weight to now (`pick_decayed`, the half-life
//   of Tunables.Memory) and adds 1, in one UPSERT, so many shells recording at once lose
//   nothing: each write is a transaction of its own, and a writer that finds the file
//   locked waits (busy timeout).
// - Bounded: a write drops the name's rows that have faded below `forgottenWeight`, and
//   past `rowsPerName` rows the least valuable (the rows it just added, then the
//   lightest), down to `rowsAfterPruning`; a write of more lines than that is refused.
//   The picker records no accept of more than `linesPerPick` lines (Remember.swift).
// - Trusted only when it is this user's own: the folder and the file are opened without
//   following symbolic links, must belong to this user and be writable by no one else,
//   and a database holding other tables (another program's) is left alone. A store this
//   user can read but not write is read: ranking and --list work, nothing is written.
// - Private: the directories pick creates are 0700 and the file 0600 (SQLite gives its
//   -wal and -shm files the file's mode).
// pick never fails for the store's sake: a store that cannot be opened or written is one
// line on stderr and a pick without memory (Remember.swift).

/// The memory store: open it, read a name's picks, record and forget.
final class MemoryStore {
    /// Why the store cannot be used: one line, naming the file.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let path: String
    private let db: OpaquePointer

    /// The store's directory, from `XDG_STATE_HOME` (when absolute, as the XDG spec asks)
    /// or `HOME`.
    static func directory() throws(Failure) -> String {
        if let state = getenv("XDG_STATE_HOME").map({ String(cString: $0) }), state.hasPrefix("/") {
            return state + "/pick"
        }
        guard let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty else {
            throw Failure(description: "memory store: neither XDG_STATE_HOME nor HOME is set")
        }
        return home + "/.local/state/pick"
    }

    /// Opens (creating if need be) the store; a write waits at most `busyMillis` for
    /// another process's. A store this user may read but not write opens read-only
    /// (`isReadOnly`): it ranks and lists, and records nothing.
    init(busyMillis: Int32) throws(Failure) {
        let directory = try Self.directory()
        path = directory + "/memory.sqlite"
        try Self.makeDirectories(directory)
        try Self.checkPrivate(directory, kind: "folder")
        // Created private before SQLite opens it (SQLite would make it 0644), never through
        // a symbolic link (a dangling one would have its target created).
        var fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        var writable = true
        if fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM) {
            fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            writable = false
        }
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "a symbolic link, not followed" : String(cString: strerror(errno))
            throw Failure(description: "memory store \(path): \(reason)")
        }
        var info = stat()
        let checked: Failure? = fstat(fd, &info) != 0 ? Failure(description: "memory store \(path): \(String(cString: strerror(errno)))")
            : Self.trustProblem(info, path: path, kind: "file", regular: true)
        // A file of this user's that others may read (made by hand, or by another tool) is
        // made private, as pick would have created it.
        if checked == nil && writable && info.st_mode & 0o077 != 0 { fchmod(fd, info.st_mode & 0o700) }
        close(fd)
        if let checked { throw checked }
        isReadOnly = !writable
        var handle: OpaquePointer? = nil
        var flags = (writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        var name = path
        var wal = stat()
        if !writable && lstat(path + "-wal", &wal) != 0 && errno == ENOENT {
            // Read-only, with no write-ahead log: nothing but the file holds the picks, and
            // SQLite is told so, so that reading creates no -wal and -shm beside it.
            flags |= SQLITE_OPEN_URI
            name = "file:" + path.map { c in c == "%" ? "%25" : c == "?" ? "%3f" : c == "#" ? "%23" : String(c) }.joined()
                + "?immutable=1"
        }
        let status = sqlite3_open_v2(name, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw Failure(description: "memory store \(path): \(message)")
        }
        db = handle
        sqlite3_busy_timeout(db, busyMillis)
        sqlite3_create_function_v2(db, "pick_decayed", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, _, values in
            let weight = sqlite3_value_double(values![0])
            let age = sqlite3_value_double(values![1])
            sqlite3_result_double(context, RememberedPicks.decayed(weight, age: age))
        }, nil, nil, nil)
        do throws(Failure) {
            // Another program's database at this path is left as it is: pick adds no table
            // to it.
            var tables: [String] = []
            try retryingWhileBusy(for: busyMillis) { () throws(Failure) in
                tables = []
                try query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
                          bind: { _ in }, row: { tables.append(String(cString: sqlite3_column_text($0, 0))) })
            }
            let others = tables.filter { $0 != "picks" }
            hasTable = tables.contains("picks")
            if !others.isEmpty {
                throw Failure(description: "memory store \(path): another program's database (its tables: \(others.prefix(3).joined(separator: ", ")))")
            }
            guard writable else { return }
            hasTable = true
            // Processes opening a new store at once race to switch it to WAL and to create
            // the table; SQLite answers some of those races with SQLITE_BUSY at once, without
            // its busy handler, so the set-up is retried for as long as a write would wait.
            try retryingWhileBusy(for: busyMillis) { () throws(Failure) in
                try execute("PRAGMA journal_mode=WAL")
                try execute("PRAGMA synchronous=NORMAL")
                try transaction { () throws(Failure) in
                    try execute("""
                        CREATE TABLE IF NOT EXISTS picks(
                          name TEXT NOT NULL, line BLOB NOT NULL, query TEXT NOT NULL,
                          weight REAL NOT NULL, at REAL NOT NULL,
                          PRIMARY KEY(name, line, query)) WITHOUT ROWID
                        """)
                }
            }
        } catch {
            sqlite3_close_v2(db)
            throw error
        }
    }

    /// The store could be read but not written (its file or folder is read-only to this
    /// user): it ranks and lists; recording and forgetting fail.
    let isReadOnly: Bool
    /// Whether the file holds pick's table (a new read-only file does not).
    private var hasTable = false

    /// Why a store folder or file with status `info` is not to be trusted, if it is not:
    /// a symbolic link, not a folder (a regular file), another user's, or writable by
    /// others (who could then change what pick ranks first, or replace the file).
    private static func trustProblem(_ info: stat, path: String, kind: String, regular: Bool) -> Failure? {
        let type = info.st_mode & S_IFMT
        let problem: String? =
            type == S_IFLNK ? "a symbolic link, not followed"
            : type != (regular ? S_IFREG : S_IFDIR) ? "not a \(regular ? "regular file" : "directory")"
            : info.st_uid != geteuid() ? "owned by another user (uid \(info.st_uid))"
            : info.st_mode & 0o022 != 0 ? "writable by others (mode \(String(info.st_mode & 0o777, radix: 8)))"
            : nil
        return problem.map { Failure(description: "memory store \(kind) \(path): \($0)") }
    }

    /// Throws unless the store's folder is this user's own, private to writing.
    private static func checkPrivate(_ directory: String, kind: String) throws(Failure) {
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw Failure(description: "memory store: \(directory): \(String(cString: strerror(errno)))")
        }
        if let problem = trustProblem(info, path: directory, kind: kind, regular: false) { throw problem }
    }

    deinit { sqlite3_close_v2(db) }

    /// Creates `directory` and any missing parent, each 0700 (the XDG spec's mode).
    private static func makeDirectories(_ directory: String) throws(Failure) {
        var built = ""
        for part in directory.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o700) != 0 && errno != EEXIST {
                throw Failure(description: "memory store: cannot create \(built): \(String(cString: strerror(errno)))")
            }
        }
    }

    // MARK: Reading

    /// What `name` remembers, weights decayed to `now`; rows faded below
    /// `forgottenWeight` count as forgotten.
    func picks(of name: String, now: Double) throws(Failure) -> RememberedPicks {
        var picks = RememberedPicks()
        guard hasTable else { return picks }
        // (In the table's order, a line's rows together: RememberedPicks.add looks each line up once.)
        try query("SELECT line, query, weight, at FROM picks WHERE name = ?1 ORDER BY line",
                  bind: { statement in bindText(statement, 1, name) }, row: { statement in
                      let weight = RememberedPicks.decayed(sqlite3_column_double(statement, 2),
                                                           age: now - sqlite3_column_double(statement, 3))
                      guard weight >= Tunables.Memory.forgottenWeight else { return }
                      let line = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, 0),
                                                        count: Int(sqlite3_column_bytes(statement, 0)))
                      let text = sqlite3_column_text(statement, 1).map { String(cString: $0) } ?? ""
                      picks.add(line: line, foldedQuery: text, weight: weight)
                  })
        return picks
    }

    // MARK: Writing

    /// Records `lines` as picked after typing `query`, at `now`, in one transaction, and
    /// keeps the name's rows bounded. Empty lines and lines longer than `longestLine` are
    /// not remembered; more lines than a name keeps (`rowsPerName`) are refused whole.
    func record(_ lines: [[UInt8]], query typed: String, name: String, now: Double) throws(Failure) {
        try checkWritable()
        guard lines.count <= Tunables.Memory.rowsPerName else {
            throw Failure(description: "memory store: \(lines.count) lines are more than a name keeps (\(Tunables.Memory.rowsPerName)); nothing recorded")
        }
        let kept = lines.filter { !$0.isEmpty && $0.count <= Tunables.Memory.longestLine }
        guard !kept.isEmpty else { return }
        // Kept folded, as memory compares queries (reading it then folds nothing).
        let typedQuery = RememberedPicks.fold(String(String.UnicodeScalarView(
            typed.unicodeScalars.prefix(Tunables.Memory.longestQuery))))
        try transaction { () throws(Failure) in
            for line in kept {
                try query("""
                    INSERT INTO picks(name, line, query, weight, at) VALUES(?1, ?2, ?3, 1, ?4)
                    ON CONFLICT(name, line, query)
                    DO UPDATE SET weight = pick_decayed(weight, ?4 - at) + 1, at = max(at, ?4)
                    """, bind: { statement in
                        bindText(statement, 1, name)
                        bindBlob(statement, 2, line)
                        bindText(statement, 3, typedQuery)
                        sqlite3_bind_double(statement, 4, now)
                    })
            }
            try prune(name, now: now)
        }
    }

    /// Forgets `lines` of `name` (every query they were picked with).
    func forget(_ lines: [[UInt8]], name: String) throws(Failure) {
        try checkWritable()
        try transaction { () throws(Failure) in
            for line in lines {
                try query("DELETE FROM picks WHERE name = ?1 AND line = ?2", bind: { statement in
                    bindText(statement, 1, name)
                    bindBlob(statement, 2, line)
                })
            }
        }
    }

    private func checkWritable() throws(Failure) {
        if isReadOnly { throw Failure(description: "memory store \(path): read-only, nothing written") }
    }

    /// Drops the name's faded rows and, past `rowsPerName`, the least valuable: first the
    /// rows this write added (a row picked for the first time just now, weight 1 at `now`),
    /// then the lightest. A large write so never evicts what was learned before it.
    private func prune(_ name: String, now: Double) throws(Failure) {
        try query("DELETE FROM picks WHERE name = ?1 AND pick_decayed(weight, ?2 - at) < ?3", bind: { statement in
            bindText(statement, 1, name)
            sqlite3_bind_double(statement, 2, now)
            sqlite3_bind_double(statement, 3, Tunables.Memory.forgottenWeight)
        })
        var rows = 0
        try query("SELECT count(*) FROM picks WHERE name = ?1", bind: { bindText($0, 1, name) },
                  row: { rows = Int(sqlite3_column_int64($0, 0)) })
        guard rows > Tunables.Memory.rowsPerName else { return }
        try query("""
            DELETE FROM picks WHERE name = ?1 AND (line, query) IN (
              SELECT line, query FROM picks WHERE name = ?1
              ORDER BY (weight = 1 AND at = ?2) DESC, pick_decayed(weight, ?2 - at) LIMIT ?3)
            """, bind: { statement in
                bindText(statement, 1, name)
                sqlite3_bind_double(statement, 2, now)
                sqlite3_bind_int64(statement, 3, Int64(rows - Tunables.Memory.rowsAfterPruning))
            })
    }

    /// Runs `body` in a write transaction (taken at once: a reader's snapshot never has to
    /// be upgraded), committed if it returns, rolled back if it throws.
    private func transaction(_ body: () throws(Failure) -> Void) throws(Failure) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` again while it fails with SQLITE_BUSY, for at most `millis`.
    private func retryingWhileBusy(for millis: Int32, _ body: () throws(Failure) -> Void) throws(Failure) {
        var waited: Int32 = 0
        while true {
            do {
                return try body()
            } catch {
                guard sqlite3_errcode(db) & 0xFF == SQLITE_BUSY, waited < millis else { throw error }
                usleep(2_000)
                waited += 2
            }
        }
    }

    // MARK: Statements

    private func execute(_ sql: String) throws(Failure) {
        try query(sql, bind: { _ in })
    }

    /// Runs one statement: `bind` binds its parameters, `row` reads each row it returns.
    private func query(_ sql: String, bind: (OpaquePointer) -> Void,
                       row: (OpaquePointer) -> Void = { _ in }) throws(Failure) {
        var prepared: OpaquePointer? = nil
        guard sqlite3_prepare_v2(db, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            throw failure()
        }
        defer { sqlite3_finalize(statement) }
        bind(statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(statement)
            case SQLITE_DONE: return
            default: throw failure()
            }
        }
    }

    private func failure() -> Failure {
        Failure(description: "memory store \(path): \(String(cString: sqlite3_errmsg(db)))")
    }
}

private func bindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
    sqlite3_bind_text(statement, index, text, -1, pick_sqlite_transient())
}

private func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        // (An empty blob still needs a pointer: NULL would bind SQL NULL.)
        _ = sqlite3_bind_blob(statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count),
                              pick_sqlite_transient())
    }
}
