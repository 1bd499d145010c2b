import CPickScan

// Scoring a line from where it parts from the line before.
//
// A sorted file list repeats most of each line in the next: a path shares its folders with
// the path before it, and only its file name differs (bench/NOTES.md). The scorer's dynamic programming (Scorer.swift) reads each line whole. This
// scorer fills the same table column by column, left to right, and logs each cell it
// changes; the next line undoes the cells past the prefix the two lines share and goes on
// from there. A line equal to the one before costs the comparison alone.
//
// Past the columns the next line will reuse, a row's cells count only up to the last place
// where its character still has the rest of the query after it (found from the end of the
// line, as Scorer.fuzzy finds its band): a cell further on cannot be part of a whole match,
// nor change one that can. In a file name, where lines differ, most rows are past that
// place, and their cells are not computed.
//
// A column is a byte: ASCII lines and an ASCII query (up to 63 characters), scored
// as `Scorer.fuzzy` scores them, with the same score, begin and end (ScorerTests compare
// both with the whole table). Each row keeps only its last cell that a diagonal won (a
// match that continues the row above): the cells after it, gaps, follow from it, as in
// Scorer.dynamicScore.

/// Scores one fuzzy term against ASCII lines given one after another, resuming each line
/// after the prefix it shares with the line scored before it. Not thread-safe: one per
/// `LineMatcher`. (A struct in the matcher, not a class of its own: the hot path then takes
/// no reference to it.)
struct SharedPrefixScorer: ~Copyable {
    /// A row's last cell that a diagonal won (a match continuing the row above): its value,
    /// its column (-1: the row has none yet) and its run of consecutive matches.
    private struct Cell {
        var h: Int32
        var at: Int32
        var run: Int32
    }

    /// A cell a column changed, with what it replaced: undone when a later line parts from
    /// this one before `column`. Row -1 is the best last-row cell (h: score, at: column,
    /// run: its value without `lastComponent`).
    private struct Change {
        var row: Int32
        var column: Int32
        var old: Cell
    }

    private let m: Int
    /// The query's bytes (folded as the term folds) and, for each, the bits that fold it
    /// in `pick_last_byte`.
    private let query: UnsafeMutablePointer<UInt8>
    private let foldBits: UnsafeMutablePointer<UInt8>
    /// Each row's last useful column in the line being scored (see the essay).
    private let band: UnsafeMutablePointer<Int>
    /// `BonusTables`, held here: reading a static `let` in the hot loop checks that it is
    /// initialised on every call.
    private let classes = BonusTables.classes
    private let bonuses = BonusTables.bonuses
    /// For each byte, the rows (query characters) it matches, folded as the term folds.
    private let rowsOf: UnsafeMutablePointer<UInt64>
    /// Most rows one byte matches, plus one for the best cell: log room per column.
    private let changesPerColumn: Int
    /// Each row's last cell; rows 0..<active have one.
    private let cells: UnsafeMutablePointer<Cell>
    private var active = 0
    /// Column of the first cell of row 0 (the match's begin) while row 0 has one.
    private var first = -1
    private var best = SharedPrefixScorer.invalid
    private var bestEnd = -1
    /// The best last-row cell's value without `lastComponent` (see `base`).
    private var bestBase = SharedPrefixScorer.invalid
    /// Of the line scored last: the highest value a match of the whole term reached before
    /// `lastComponent` was added. A term that extends this one by k characters scores at
    /// most this plus `ScoreWeights.extensionGain` each (plus `lastComponent`): see
    /// `LineBounds`.
    private(set) var base: Int32 = 0
    private var log: UnsafeMutablePointer<Change>
    private var logCount = 0
    private var logCapacity = 0
    /// The line the table holds, the columns of it that hold the whole table (past them,
    /// only the cells its own band kept), and its file name's start.
    private var scored: UnsafePointer<UInt8>? = nil
    private var scoredCount = 0
    private var scoredValid = 0
    private var scoredNameStart = 0
    /// The line looked at last, scored here or not.
    private var seen: UnsafePointer<UInt8>? = nil
    private var seenCount = 0
    /// The line expected after the one scored last, and the prefix the two share.
    private var expected: UnsafePointer<UInt8>? = nil
    private var expectedCount = 0
    private var expectedShared = 0

    private static let invalid: Int32 = -(1 << 29)
    /// Lines this long or longer go to `Scorer.fuzzy`, which bounds the table's size.
    private let maxCount: Int

    /// Whether `term` can be scored here (see the essay above).
    static func scores(_ term: borrowing PreparedTerm) -> Bool {
        let m = term.scalars.count
        return term.kind == .fuzzy && !term.inverse && m >= 1 && m <= 63 && term.bytes.count == m
    }

    /// A scorer for `term`, which `scores(_:)` accepts.
    init(_ term: borrowing PreparedTerm) {
        self.init(bytes: term.bytes, caseSensitive: term.caseSensitive)
    }

    /// An empty scorer, for a matcher that never uses it.
    init() {
        self.init(bytes: UnsafeBufferPointer(start: nil, count: 0), caseSensitive: false)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, caseSensitive: Bool) {
        let m = min(bytes.count, 63)
        self.m = m
        query = .allocate(capacity: max(m, 1))
        foldBits = .allocate(capacity: max(m, 1))
        band = .allocate(capacity: max(m, 1))
        for i in 0..<m {
            query[i] = bytes[i]
            foldBits[i] = PickCore.foldBits(for: bytes[i], folds: !caseSensitive)
        }
        rowsOf = .allocate(capacity: 256)
        rowsOf.initialize(repeating: 0, count: 256)
        for byte in 0..<256 {
            let unit = caseSensitive ? UInt8(byte) : lowerASCII(UInt8(byte))
            for i in 0..<m where bytes[i] == unit { rowsOf[byte] |= 1 << UInt64(i) }
        }
        var most = 0
        for byte in 0..<256 { most = max(most, rowsOf[byte].nonzeroBitCount) }
        changesPerColumn = most + 1
        cells = .allocate(capacity: max(m, 1))
        cells.initialize(repeating: Cell(h: Self.invalid, at: -1, run: 0), count: max(m, 1))
        log = .allocate(capacity: 0)
        maxCount = min(ScoreWeights.dynamicLimit / max(m, 1), Int(Int32.max))
    }

    deinit {
        query.deallocate()
        foldBits.deallocate()
        band.deallocate()
        rowsOf.deallocate()
        cells.deallocate()
        log.deallocate()
    }

    /// The column from which line `text` would be scored here (the prefix it shares with
    /// the line the table holds), or nil when `Scorer.fuzzy` is the cheaper way: a line
    /// that shares less than half of itself with the line before it.
    @inline(__always)
    mutating func resumeColumn(_ text: UnsafePointer<UInt8>, count n: Int, nameStart: Int) -> Int? {
        defer {
            seen = text
            seenCount = n
        }
        guard n < maxCount, let seen else { return nil }
        let shared = text == expected && n == expectedCount ? expectedShared
                                                            : pick_common_prefix(seen, text, min(seenCount, n))
        guard shared &* 2 >= n else { return nil }
        // The line before was not scored here: start afresh, for the lines after this one.
        guard scored == seen && scoredCount == seenCount else { return 0 }
        // The last row's cells earn `lastComponent` from the file name on: where the two
        // names start differently, only the columns before both names carry over.
        let column = min(shared, scoredValid)
        if nameStart != scoredNameStart { return min(column, nameStart, scoredNameStart) }
        return column
    }

    /// The score of `text` (ASCII), resuming at `column` (from `resumeColumn`); nil when
    /// the term is not a subsequence of it. `next` is the line that will most likely be
    /// scored next (nil: none known), whose shared prefix the table then keeps whole.
    @inline(__always)
    mutating func score(_ text: UnsafePointer<UInt8>, count n: Int, nameStart: Int, from column: Int,
                        next: (bytes: UnsafePointer<UInt8>, count: Int)?) -> TermScore? {
        undo(to: column)
        scored = text
        scoredCount = n
        scoredNameStart = nameStart
        // The columns the next line will reuse are computed whole; past them, each row's
        // cells up to its band only.
        var keep = column
        if let next {
            let shared = pick_common_prefix(text, next.bytes, min(n, next.count))
            expected = next.bytes
            expectedCount = next.count
            expectedShared = shared
            keep = max(column, shared)
        } else {
            expected = nil
        }
        // The band, from the end, down to the first row whose band ends before `keep`
        // (it and the rows above it have no cell to compute past `keep`).
        var lowestAlive = 0
        var back = n
        var i = m &- 1
        while i >= 0 {
            let at = pick_last_byte_after(text, keep, back, query[i], foldBits[i])
            if at < 0 {
                lowestAlive = i &+ 1
                break
            }
            band[i] = at
            back = at
            i &-= 1
        }
        // Past its last character's band, no row has a cell left to compute.
        let end = max(keep, m > lowestAlive ? band[m &- 1] &+ 1 : 0)
        scoredValid = keep
        let needed = logCount &+ (end &- column) &* changesPerColumn
        if needed > logCapacity { growLog(to: needed) }
        // Locals, not fields, in the loop: stores through the pointers cannot change them.
        let rowsOf = self.rowsOf, cells = self.cells, log = self.log, band = self.band
        let classes = self.classes, bonuses = self.bonuses
        let invalid = Self.invalid, last = m &- 1
        var logCount = self.logCount, active = self.active
        // Rows 0...active: a row past that has no cell above it to continue.
        var reachable: UInt64 = active >= 63 ? ~0 : (2 << UInt64(active)) &- 1
        // Rows from `lowestAlive` on: past `keep`, the others are past their bands.
        var alive: UInt64 = ~0
        var j = column
        while true {
            // The bytes that no reachable row matches change nothing: pass them by.
            var rows: UInt64 = 0
            let wanted = reachable & alive
            while j < end {
                rows = rowsOf[Int(text[j])] & wanted
                if rows != 0 { break }
                j &+= 1
            }
            if j >= end { break }
            if j >= keep {
                // Rows whose band ends before this column are done.
                while lowestAlive < m && band[lowestAlive] < j { lowestAlive &+= 1 }
                let nowAlive: UInt64 = lowestAlive >= 64 ? 0 : ~0 << UInt64(lowestAlive)
                if nowAlive != alive {
                    alive = nowAlive
                    rows &= alive
                    if rows == 0 {
                        j &+= 1
                        continue
                    }
                }
            }
            let before = j == 0 ? CharClass.white.rawValue : classes[Int(text[j &- 1])]
            let b = bonuses[Int(before) << 3 | Int(classes[Int(text[j])])]
            // Highest row first: a row reads the row above as it stood before this column.
            repeat {
                let i = 63 &- rows.leadingZeroBitCount
                rows &= ~(1 << UInt64(i))
                var diagonal = invalid
                var run: Int32 = 1
                if i == 0 {
                    diagonal = ScoreWeights.match &+ b &* ScoreWeights.firstCharMultiplier
                    if last == 0 && j >= nameStart { diagonal &+= ScoreWeights.lastComponent }
                } else {
                    let above = cells[i &- 1]
                    var up = above.h
                    var upRun = above.run
                    if Int(above.at) < j &- 1 {
                        up = max(up &+ (upRun == 0 ? ScoreWeights.gapExtension : ScoreWeights.gapStart)
                                    &+ ScoreWeights.gapExtension &* Int32(j &- 2 &- Int(above.at)), invalid)
                        upRun = 0
                    }
                    if up > invalid / 2 {
                        run = upRun &+ 1
                        var bonus = b
                        if run > 1 {
                            let start = j &- Int(run) &+ 1
                            let beforeRun = start == 0 ? CharClass.white.rawValue : classes[Int(text[start &- 1])]
                            let runBonus = bonuses[Int(beforeRun) << 3 | Int(classes[Int(text[start])])]
                            if b >= ScoreWeights.boundary && b > runBonus {
                                run = 1
                            } else {
                                bonus = max(b, max(ScoreWeights.consecutive, runBonus))
                            }
                        }
                        diagonal = up &+ ScoreWeights.match &+ bonus
                        if i == last && j >= nameStart { diagonal &+= ScoreWeights.lastComponent }
                    }
                }
                guard diagonal > invalid / 2 else { continue }
                // The row's own cell j-1, continued: the gap after its last cell.
                let old = cells[i]
                if old.at >= 0 {
                    let gap = old.h &+ (old.run == 0 ? ScoreWeights.gapExtension : ScoreWeights.gapStart)
                        &+ ScoreWeights.gapExtension &* Int32(j &- 1 &- Int(old.at))
                    if diagonal < gap { continue }
                }
                log[logCount] = Change(row: Int32(truncatingIfNeeded: i), column: Int32(truncatingIfNeeded: j), old: old)
                logCount &+= 1
                cells[i] = Cell(h: diagonal, at: Int32(truncatingIfNeeded: j), run: run)
                if old.at < 0 {
                    active = i &+ 1
                    reachable = active >= 63 ? ~0 : (2 << UInt64(active)) &- 1
                    if i == 0 { first = j }
                }
                // (A cell that does not beat the best does not beat its base either: columns
                // come in order, and from the name on every cell earns `lastComponent`.)
                if i == last && diagonal > best {
                    log[logCount] = Change(row: -1, column: Int32(truncatingIfNeeded: j),
                                           old: Cell(h: best, at: Int32(truncatingIfNeeded: bestEnd), run: bestBase))
                    logCount &+= 1
                    best = diagonal
                    bestEnd = j
                    bestBase = max(bestBase, j >= nameStart ? diagonal &- ScoreWeights.lastComponent : diagonal)
                }
            } while rows != 0
            j &+= 1
        }
        self.logCount = logCount
        self.active = active
        guard best > invalid / 2 else { return nil }
        base = bestBase
        return TermScore(score: max(best, 1), begin: first, end: bestEnd &+ 1)
    }

    /// Takes back every change made at `column` or after.
    private mutating func undo(to column: Int) {
        while logCount > 0 && Int(log[logCount &- 1].column) >= column {
            logCount &-= 1
            let change = log[logCount]
            if change.row < 0 {
                best = change.old.h
                bestEnd = Int(change.old.at)
                bestBase = change.old.run
                continue
            }
            let i = Int(change.row)
            cells[i] = change.old
            // (Row 0's first cell sets `first` again when it comes.)
            if change.old.at < 0 { active = i }
        }
    }

    private mutating func growLog(to needed: Int) {
        var capacity = max(logCapacity, 1024)
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<Change>.allocate(capacity: capacity)
        grown.moveInitialize(from: log, count: logCount)
        log.deallocate()
        log = grown
        logCapacity = capacity
    }
}
