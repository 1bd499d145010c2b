#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// `--remember NAME` in each of pick's modes: the picker and `--filter` rank with the
/// memory (MemoryRanking.swift); the picker records what is picked; `--record`, `--forget`
/// and `--list` script it. The store (MemoryStore.swift) never makes a pick fail: a store
/// that cannot be opened, read or written is one line on stderr, and pick goes on without.
enum Remember {
    /// `PICK_NO_REMEMBER` set (not empty): the picker and `--filter` neither use nor record
    /// memory, whatever `--remember` says (the shell widgets pass it by default).
    static var isTurnedOff: Bool {
        getenv("PICK_NO_REMEMBER").map { $0.pointee != 0 } ?? false
    }

    /// The name whose memory the picker and `--filter` use, if any.
    static func name(_ options: Options) -> String? {
        isTurnedOff ? nil : options.remember
    }

    /// What the name remembers, for ranking; nil (after one line on stderr when the store
    /// fails) when there is nothing to rank with.
    static func picks(_ options: Options) -> RememberedPicks? {
        guard let name = name(options) else { return nil }
        do {
            let store = try MemoryStore(busyMillis: Tunables.Memory.readBusyMillis)
            if store.isReadOnly {
                warn("memory store \(store.path) is read-only: ranking with it, remembering nothing")
                storeReadOnly = true
            }
            let picks = try store.picks(of: name, now: now())
            return picks.isEmpty ? nil : picks
        } catch {
            warn("\(error); going on without memory")
            storeFailed = true
            return nil
        }
    }

    /// The store failed as pick started (and said so): it is not tried again.
    nonisolated(unsafe) private static var storeFailed = false
    /// The store was read-only as pick started (and said so): nothing is written.
    nonisolated(unsafe) private static var storeReadOnly = false

    /// The picker accepted `count` lines after `query`: `lines` (their bytes) are recorded
    /// under the name (one line on stderr if that fails; the pick stands). An accept of
    /// more than `linesPerPick` lines (a select-all) is no choice of each: it records
    /// nothing, and costs the exit nothing.
    static func recordPick(_ count: Int, lines: () -> [[UInt8]], query: String, options: Options) {
        guard let name = name(options), count > 0, count <= Tunables.Memory.linesPerPick,
              !storeFailed, !storeReadOnly else { return }
        do {
            try MemoryStore(busyMillis: Tunables.Memory.pickerRecordBusyMillis)
                .record(lines(), query: query, name: name, now: now())
        } catch {
            warn("\(error); the pick was not remembered")
        }
    }

    /// The picker's forget key: `line` is forgotten in the store; false when the store
    /// failed (nothing is printed: the picker is on the screen).
    static func forget(_ line: [UInt8], options: Options) -> Bool {
        guard let name = name(options), !storeFailed, !storeReadOnly else { return false }
        do {
            try MemoryStore(busyMillis: Tunables.Memory.pickerRecordBusyMillis).forget([line], name: name)
            return true
        } catch {
            return false
        }
    }

    /// `--record`, `--forget` or `--list` for `--remember NAME`; `lines` reads stdin (for
    /// the first two). Exits 0, or 2 when the store fails (a script asked for this alone).
    static func run(_ command: MemoryCommand, options: Options, lines: () -> [[UInt8]], stdout: Output,
                    terminator: [UInt8]) -> Never {
        let name = options.remember!
        do {
            let busy = command == .list ? Tunables.Memory.readBusyMillis : Tunables.Memory.recordBusyMillis
            let store = try MemoryStore(busyMillis: busy)
            if store.isReadOnly && command == .list { warn("memory store \(store.path) is read-only") }
            switch command {
            case .record: try store.record(lines(), query: options.query, name: name, now: now())
            case .forget: try store.forget(lines(), name: name)
            case .list: list(try store.picks(of: name, now: now()), stdout: stdout, terminator: terminator)
            }
        } catch {
            fail("\(error)")
        }
        stdout.flush()
        exit(0)
    }

    /// `--list`: a line per remembered line, most weighted first: its weight, a tab, the
    /// line, a tab, and the queries it was picked with, each with its weight.
    private static func list(_ picks: RememberedPicks, stdout: Output, terminator: [UInt8]) {
        for line in picks.byWeight {
            stdout.write(Array(format(line.weight).utf8) + [0x09])
            stdout.write(line.text)
            let queries = line.queries.map { q in
                (q.query.isEmpty ? "(no query)" : "'" + q.query + "'") + " " + format(q.weight)
            }
            stdout.write(Array(("\t" + queries.joined(separator: ", ")).utf8))
            stdout.write(terminator)
            if stdout.closed { return }
        }
    }

    /// A weight with two decimals.
    private static func format(_ weight: Double) -> String {
        let hundredths = Int((weight * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    private static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// One line on stderr: pick goes on.
    private static func warn(_ message: String) {
        let line = "pick: \(TerminalText.sanitize(message))\n"
        _ = line.withCString { Glibc.write(2, $0, strlen($0)) }
    }
}
