import CSQLite
import Foundation
import XCTest

/// `--remember NAME`'s store, through the real binary and a real SQLite file: recording,
/// forgetting and listing, many writers at once, a writer killed mid-write, the bound on
/// its size, and a store that cannot be used.
final class RememberStoreTests: XCTestCase {
    private var state: URL!

    override func setUpWithError() throws {
        state = FileManager.default.temporaryDirectory.appendingPathComponent("pick-remember-\(getpid())-\(Int.random(in: 0..<1_000_000_000))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: state)
    }

    private var environment: [String: String] { ["XDG_STATE_HOME": state.path] }
    private var storePath: String { state.path + "/pick/memory.sqlite" }

    private func pick(_ args: [String], _ lines: [String] = [], environment extra: [String: String] = [:]) throws -> PickRun {
        try runPick(args, lines: lines, environment: environment.merging(extra) { $1 })
    }

    /// `--list` as (weight, line, queries) rows.
    private func list(_ name: String) throws -> [(weight: Double, line: String, queries: String)] {
        let run = try pick(["--remember", name, "--list"])
        XCTAssertEqual(run.status, 0, run.stderr)
        return run.lines.map { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return (Double(fields[0]) ?? -1, fields[1], fields.count > 2 ? fields[2] : "")
        }
    }

    private let project = ["src/main.c", "src/mw.c", "src/app/mainwindow.cpp", "Makefile", "README.md"]

    /// With `--with-nth`/`--nth` the engine searches derived text; memory is of the line
    /// as read, what `--record` takes and what pick prints.
    func testMemoryIsOfTheLineAsReadWithWithNth() throws {
        let lines = ["1 same", "2 same", "3 other"]
        let picked = try pick(["--remember", "n", "--with-nth", "2", "--select-1", "--query", "oth"], lines)
        XCTAssertEqual(picked.lines, ["3 other"], picked.stderr)
        XCTAssertEqual(try list("n").map(\.line), ["3 other"])
        XCTAssertEqual(try pick(["--filter", "same", "--remember", "n", "--with-nth", "2"], lines).lines,
                       ["1 same", "2 same"])
        XCTAssertEqual(try pick(["--remember", "n", "--record"], ["2 same"]).status, 0)
        XCTAssertEqual(try pick(["--filter", "same", "--remember", "n", "--with-nth", "2"], lines).lines,
                       ["2 same", "1 same"], "the remembered line as read goes first")
    }

    func testRecordedPicksRankFirstAndListSaysWhy() throws {
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project).lines.first, "src/mw.c")
        for _ in 0..<10 {
            XCTAssertEqual(try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp"]).status, 0)
        }
        XCTAssertEqual(try pick(["--remember", "files", "--record"], ["Makefile"]).status, 0)
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project).lines,
                       ["src/app/mainwindow.cpp", "src/mw.c"])
        // A clearly better match for another query stays first.
        XCTAssertEqual(try pick(["--filter", "main.c", "--remember", "files"], project).lines.first, "src/main.c")
        // No query: remembered lines first, most weighted first, then input order.
        XCTAssertEqual(try pick(["--filter", "", "--remember", "files"], project).lines,
                       ["src/app/mainwindow.cpp", "Makefile", "src/main.c", "src/mw.c", "README.md"])
        let listed = try list("files")
        XCTAssertEqual(listed.map(\.line), ["src/app/mainwindow.cpp", "Makefile"])
        XCTAssertEqual(listed[0].weight, 10, accuracy: 0.01)
        XCTAssertEqual(listed[0].queries, "'mw' 10.00")
        XCTAssertEqual(listed[1].queries, "(no query) 1.00")
        // Names are separate memories.
        XCTAssertEqual(try list("dirs").count, 0)
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "dirs"], project).lines.first, "src/mw.c")
    }

    func testALargeRecordDropsItsOwnRowsBeforeWhatWasLearned() throws {
        let learned = (0..<100).map { "learned/file-\($0).txt" }
        XCTAssertEqual(try pick(["--remember", "files", "--record"], learned).status, 0)
        // A name's worth of new lines: 10,100 rows, pruned to 9,000.
        let bulk = (0..<10_000).map { "bulk/line-\($0)" }
        XCTAssertEqual(try pick(["--remember", "files", "--record"], bulk).status, 0)
        let listed = try list("files").map(\.line)
        XCTAssertLessThanOrEqual(listed.count, 10_000)
        XCTAssertTrue(Set(learned).isSubset(of: Set(listed)), "every learned line stays")
    }

    func testARecordOfMoreLinesThanANameKeepsIsRefusedWhole() throws {
        let run = try pick(["--remember", "files", "--record"], (0..<10_001).map { "line-\($0)" })
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("nothing recorded"), run.stderr)
        XCTAssertEqual(try list("files").count, 0)
        XCTAssertLessThan(try storeBytes(), 200_000, "the store did not grow with the refused lines")
    }

    // MARK: A store that is not pick's own

    /// `--filter` still answers, with one line on stderr; `--record` fails in one line.
    private func assertNotUsed(_ why: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let filter = try pick(["--filter", "mw", "--remember", "files"], project)
        XCTAssertEqual(filter.status, 0, why, file: file, line: line)
        XCTAssertEqual(filter.lines.first, "src/mw.c", why, file: file, line: line)
        XCTAssertEqual(filter.stderr.split(separator: "\n").count, 1, "\(why): \(filter.stderr)", file: file, line: line)
        XCTAssertTrue(filter.stderr.hasPrefix("pick: memory store"), "\(why): \(filter.stderr)", file: file, line: line)
        let record = try pick(["--remember", "files", "--record"], ["x"])
        XCTAssertEqual(record.status, 2, why, file: file, line: line)
        XCTAssertEqual(record.stderr.split(separator: "\n").count, 1, "\(why): \(record.stderr)", file: file, line: line)
    }

    private var folder: String { state.path + "/pick" }

    private func makeFolder() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
    }

    func testADanglingSymbolicLinkIsNotFollowed() throws {
        try makeFolder()
        let target = state.path + "/elsewhere.sqlite"
        XCTAssertEqual(symlink(target, storePath), 0)
        try assertNotUsed("a dangling link")
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "the link's target was created")
        // A link to a real store is not followed either.
        XCTAssertEqual(try runPick(["--remember", "files", "--record"], lines: ["x"],
                                   environment: ["XDG_STATE_HOME": state.path + "/real"]).status, 0)
        unlink(storePath)
        XCTAssertEqual(symlink(state.path + "/real/pick/memory.sqlite", storePath), 0)
        try assertNotUsed("a link to a store")
        // Nor a linked folder.
        try FileManager.default.removeItem(atPath: folder)
        XCTAssertEqual(symlink(state.path + "/real/pick", folder), 0)
        try assertNotUsed("a linked folder")
    }

    func testAnEmptyFileOfOneselfBecomesAPrivateStore() throws {
        try makeFolder()
        XCTAssertTrue(FileManager.default.createFile(atPath: storePath, contents: Data(), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(try pick(["--remember", "files", "--record"], ["x"]).status, 0)
        XCTAssertEqual(try mode(storePath), 0o600)
        XCTAssertEqual(try list("files").map(\.line), ["x"])
    }

    func testAnotherProgramsDatabaseGetsNoTable() throws {
        try makeFolder()
        var db: OpaquePointer? = nil
        XCTAssertEqual(sqlite3_open_v2(storePath, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), SQLITE_OK)
        XCTAssertEqual(sqlite3_exec(db, "CREATE TABLE moz_places(url TEXT)", nil, nil, nil), SQLITE_OK)
        sqlite3_close_v2(db)
        chmod(storePath, 0o600)
        try assertNotUsed("another program's database")
        XCTAssertEqual(try tables(), ["moz_places"])
    }

    func testAFolderOrFileOthersCanWriteIsNotUsed() throws {
        XCTAssertEqual(try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp"]).status, 0)
        chmod(folder, 0o777)
        try assertNotUsed("a folder anyone can write")
        chmod(folder, 0o700)
        chmod(storePath, 0o666)
        try assertNotUsed("a file anyone can write")
        chmod(storePath, 0o600)
        XCTAssertEqual(try list("files").map(\.line), ["src/app/mainwindow.cpp"], "the store itself is untouched")
    }

    func testAFolderOrFileOfAnotherUserIsNotUsed() throws {
        guard geteuid() == 0 else { throw XCTSkip("changing a file's owner needs root") }
        XCTAssertEqual(try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp"]).status, 0)
        let nobody: uid_t = 65534
        XCTAssertEqual(chown(storePath, nobody, gid_t(nobody)), 0)
        try assertNotUsed("another user's file")
        XCTAssertEqual(chown(storePath, 0, 0), 0)
        XCTAssertEqual(chown(folder, nobody, gid_t(nobody)), 0)
        try assertNotUsed("another user's folder")
        XCTAssertEqual(chown(folder, 0, 0), 0)
    }

    func testAReadOnlyStoreIsReadAndNothingIsWritten() throws {
        // As an ordinary user: root reads and writes whatever the mode says.
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") else {
            throw XCTSkip("running pick as an ordinary user needs root and runuser")
        }
        let user = "pick-test-ro"
        if try TmuxPick.shell(["id", "-u", user]).status != 0 {
            let made = try TmuxPick.shell(["useradd", "--no-create-home", "--shell", "/bin/sh", user])
            XCTAssertEqual(made.status, 0, made.output)
        }
        for _ in 0..<10 {
            XCTAssertEqual(try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp"]).status, 0)
        }
        let input = try write("input", project)
        let binary = state.path + "/pick-as-user"
        try FileManager.default.copyItem(atPath: pickBinaryPath(), toPath: binary)
        XCTAssertEqual(chmod(state.path, 0o755), 0)
        XCTAssertEqual(chmod(input, 0o644), 0)
        XCTAssertEqual(try TmuxPick.shell(["chown", "-R", user, folder]).status, 0)
        XCTAssertEqual(chmod(storePath, 0o400), 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: storePath))
        func asUser(_ args: String) throws -> (output: String, status: Int32) {
            try TmuxPick.shell(["runuser", "-u", user, "--", "sh", "-c",
                                "XDG_STATE_HOME='\(state.path)' exec '\(binary)' \(args) < '\(input)' 2>&1"])
        }
        let filter = try asUser("--filter mw --remember files")
        XCTAssertEqual(filter.status, 0, filter.output)
        let rows = filter.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.filter { !$0.hasPrefix("pick:") }.first, "src/app/mainwindow.cpp", "memory ranks: \(filter.output)")
        XCTAssertEqual(rows.filter { $0.hasPrefix("pick:") }.count, 1, "said once: \(filter.output)")
        XCTAssertTrue(filter.output.contains("read-only"), filter.output)
        let listed = try asUser("--list --remember files")
        XCTAssertEqual(listed.status, 0, listed.output)
        XCTAssertTrue(listed.output.contains("10.00\tsrc/app/mainwindow.cpp"), listed.output)
        let record = try asUser("--record --remember files")
        XCTAssertEqual(record.status, 2, record.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), before, "no file beside it")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: storePath)), bytes, "the store is unchanged")
    }

    private func tables() throws -> [String] {
        var db: OpaquePointer? = nil
        guard sqlite3_open_v2(storePath, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db else { return [] }
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer? = nil
        guard sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1,
                                 &statement, nil) == SQLITE_OK else { return [] }
        defer { sqlite3_finalize(statement) }
        var names: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { names.append(String(cString: sqlite3_column_text(statement, 0))) }
        return names
    }

    func testAMemoryOfTenThousandLinesIsReadWhole() throws {
        // (Its cost at start-up is measured by bench/remember, not asserted here.)
        let lines = (0..<10_000).map { "src/module-\($0 / 100)/file-\($0).swift" }
        XCTAssertEqual(try pick(["--remember", "big", "--record", "--query", "fi"], lines).status, 0)
        for _ in 0..<3 {
            _ = try pick(["--remember", "big", "--record", "--query", "fi"], ["src/module-99/file-9999.swift"])
        }
        XCTAssertEqual(try list("big").count, 10_000)
        XCTAssertEqual(try list("big").first?.line, "src/module-99/file-9999.swift")
        let input = lines.reversed() + ["docs/file.md"]
        XCTAssertEqual(try pick(["--filter", "fi", "--remember", "big"], Array(input)).lines.first,
                       "src/module-99/file-9999.swift")
    }

    func testLinesWithNewlinesAreRememberedWithRead0() throws {
        let command = Data("git commit -m 'one\ntwo'\0ls\0".utf8)
        let run = try runPick(["--remember", "commands", "--record", "--read0"], input: command, environment: environment)
        XCTAssertEqual(run.status, 0, run.stderr)
        let listed = try runPick(["--remember", "commands", "--list", "--print0"], environment: environment)
        let entries = listed.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(Set(entries.map { $0.split(separator: "\t", maxSplits: 1)[1].split(separator: "\t")[0] }),
                       ["git commit -m 'one\ntwo'", "ls"])
    }

    func testForgetUndoesAPick() throws {
        for _ in 0..<5 {
            _ = try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp", "Makefile"])
        }
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project).lines.first, "src/app/mainwindow.cpp")
        let forget = try pick(["--remember", "files", "--forget"], ["src/app/mainwindow.cpp"])
        XCTAssertEqual(forget.status, 0, forget.stderr)
        XCTAssertEqual(try list("files").map(\.line), ["Makefile"])
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project).lines.first, "src/mw.c")
    }

    func testFilterRanksWithMemoryButRecordsNothing() throws {
        _ = try pick(["--filter", "mw", "--remember", "files"], project)
        XCTAssertEqual(try list("files").count, 0)
    }

    func testPickNoRememberTurnsMemoryOff() throws {
        for _ in 0..<5 { _ = try pick(["--remember", "files", "--record", "--query", "mw"], ["src/app/mainwindow.cpp"]) }
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project).lines.first, "src/app/mainwindow.cpp")
        XCTAssertEqual(try pick(["--filter", "mw", "--remember", "files"], project,
                                environment: ["PICK_NO_REMEMBER": "1"]).lines.first, "src/mw.c")
    }

    func testTheStoreIsPrivate() throws {
        let nested = state.appendingPathComponent("a/b")
        let run = try runPick(["--remember", "files", "--record"], lines: ["x"],
                              environment: ["XDG_STATE_HOME": nested.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        for dir in [state.appendingPathComponent("a").path, nested.path, nested.path + "/pick"] {
            XCTAssertEqual(try mode(dir), 0o700, dir)
        }
        XCTAssertEqual(try mode(nested.path + "/pick/memory.sqlite"), 0o600)
    }

    private func mode(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as! NSNumber).intValue
    }

    func testAStoreThatCannotBeOpenedIsOneLineAndPickStillPicks() throws {
        // XDG_STATE_HOME is a file: no directory can be made under it.
        let file = state.appendingPathComponent("not-a-directory")
        try Data("x".utf8).write(to: file)
        let broken = ["XDG_STATE_HOME": file.path]
        let filter = try runPick(["--filter", "mw", "--remember", "files"], lines: project, environment: broken)
        XCTAssertEqual(filter.status, 0)
        XCTAssertEqual(filter.lines.first, "src/mw.c")
        XCTAssertEqual(filter.stderr.split(separator: "\n").count, 1, filter.stderr)
        XCTAssertTrue(filter.stderr.hasPrefix("pick: memory store"), filter.stderr)
        // Scripting the store itself fails, in one line.
        let record = try runPick(["--remember", "files", "--record"], lines: ["x"], environment: broken)
        XCTAssertEqual(record.status, 2)
        XCTAssertEqual(record.stderr.split(separator: "\n").count, 1, record.stderr)
    }

    func testAStoreThatIsNotADatabaseIsOneLineAndPickStillPicks() throws {
        try FileManager.default.createDirectory(atPath: state.path + "/pick", withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: storePath))
        let filter = try pick(["--filter", "mw", "--remember", "files"], project)
        XCTAssertEqual(filter.status, 0)
        XCTAssertEqual(filter.lines.first, "src/mw.c")
        XCTAssertEqual(filter.stderr.split(separator: "\n").count, 1, filter.stderr)
    }

    func testBadNamesAndMisusedCommandsAreRefused() throws {
        for args in [["--remember", "a/b", "--list"], ["--remember", "", "--list"], ["--record"],
                     ["--remember", "x", "--record", "--forget"], ["--remember", "x", "--list", "--filter", "a"]] {
            let run = try pick(args, [])
            XCTAssertEqual(run.status, 2, "\(args)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(args): \(run.stderr)")
        }
    }

    // MARK: Many writers, killed writers, size

    /// Starts pick with `args` and stdin from `input`, not waiting for it.
    private func launch(_ args: [String], input: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: pickBinaryPath())
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "PICK_DEFAULT_OPTS")
        env["XDG_STATE_HOME"] = state.path
        process.environment = env
        process.standardInput = FileHandle(forReadingAtPath: input)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    private func write(_ name: String, _ lines: [String]) throws -> String {
        let path = state.appendingPathComponent(name).path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTwentyConcurrentRecordsLoseNothing() throws {
        // Three rounds of twenty processes started at once, the first on no store at all.
        for round in 0..<3 {
            var writers: [Process] = []
            for w in 0..<20 {
                let input = try write("in-\(round)-\(w)", ["shared", "own-\(round)-\(w)"])
                writers.append(try launch(["--remember", "files", "--record", "--query", "q"], input: input))
            }
            for w in writers {
                w.waitUntilExit()
                XCTAssertEqual(w.terminationStatus, 0)
            }
        }
        let listed = try list("files")
        XCTAssertEqual(listed.count, 61)
        XCTAssertEqual(listed.first?.line, "shared")
        XCTAssertEqual(listed.first?.weight ?? 0, 60, accuracy: 0.01)
        XCTAssertEqual(Set(listed.dropFirst().map(\.line)).count, 60)
        XCTAssertEqual(try integrity(), "ok")
    }

    func testKillNineInTheMiddleOfWritesNeverCorrupts() throws {
        // A large record is one transaction: killed, it leaves all of it or none. Killed at
        // tenths of the time a whole one takes, some kills land while it writes.
        let many = (0..<8000).map { "line-\($0)" }
        let input = try write("many", many)
        let started = Date()
        let whole = try launch(["--remember", "whole", "--record"], input: input)
        whole.waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        XCTAssertEqual(try list("whole").count, many.count)
        for k in 1...10 {
            let name = "big-\(k)"
            let writer = try launch(["--remember", name, "--record"], input: input)
            usleep(useconds_t(duration * Double(k) / 10 * 1_000_000))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            XCTAssertEqual(try integrity(), "ok", "killed after \(k)0% of a record")
            let rows = try list(name).count
            XCTAssertTrue(rows == 0 || rows == many.count, "\(rows) rows after a kill at \(k)0%")
        }
        // Small records one after another, killed at once.
        let loop = try write("loop.sh", ["for i in $(seq 400); do echo \"x$i\" | '\(pickBinaryPath())' --remember small --record || exit 1; done"])
        for delayMillis in stride(from: 20, through: 290, by: 30) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec sh '\(loop)'"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            try process.run()
            usleep(useconds_t(delayMillis * 1000))
            // The pick the loop runs now, then the loop (stopped first: it starts no other).
            kill(process.processIdentifier, SIGSTOP)
            _ = try? TmuxPick.shell(["pkill", "-KILL", "-P", "\(process.processIdentifier)"])
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(try integrity(), "ok")
        }
        // Later records work.
        XCTAssertEqual(try pick(["--remember", "after", "--record"], ["still here"]).status, 0)
        XCTAssertEqual(try list("after").map(\.line), ["still here"])
    }

    func testTheStoreStaysBounded() throws {
        for _ in 0..<3 { _ = try pick(["--remember", "files", "--record", "--query", "k"], ["keeper"]) }
        var sizes: [Int] = []
        for round in 0..<5 {
            let lines = (0..<6000).map { "round-\(round)/file-\($0)" }
            XCTAssertEqual(try pick(["--remember", "files", "--record"], lines).status, 0)
            let listed = try list("files")
            XCTAssertLessThanOrEqual(listed.count, 10_000)
            XCTAssertTrue(listed.contains { $0.line == "keeper" }, "the heaviest line stays")
            sizes.append(try storeBytes())
        }
        // Once full, the file stops growing.
        XCTAssertLessThanOrEqual(sizes[4], sizes[2] * 5 / 4, "\(sizes)")
        XCTAssertEqual(try integrity(), "ok")
    }

    private func storeBytes() throws -> Int {
        let fm = FileManager.default
        return try [storePath, storePath + "-wal"].filter { fm.fileExists(atPath: $0) }.reduce(0) {
            $0 + ((try fm.attributesOfItem(atPath: $1)[.size]) as! NSNumber).intValue
        }
    }

    /// SQLite's own check of the store file.
    private func integrity() throws -> String {
        var db: OpaquePointer? = nil
        guard sqlite3_open_v2(storePath, &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else {
            return "cannot open"
        }
        defer { sqlite3_close_v2(db) }
        sqlite3_busy_timeout(db, 5000)
        var statement: OpaquePointer? = nil
        guard sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nil) == SQLITE_OK else {
            return String(cString: sqlite3_errmsg(db))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { rows.append(String(cString: sqlite3_column_text(statement, 0))) }
        return rows.joined(separator: "; ")
    }
}
