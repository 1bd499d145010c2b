import CPickScan

// Scoring a line from where it parts from the line before.
//
// A sorted file list repeats most of each line in the next: on paths 1M a line is 74 bytes
// long and shares 61 of them with the line before (81 of 102 among the lines usrlibpython
// matches). The scorer's dynamic programming (Scorer.swift) reads each line whole. This
// scorer fills the same table column by column, left to right, and logs each cell it
// changes; the next line undoes the cells past the prefix the two lines share and goes on
// from there. A line equal to the one before costs the comparison alone.
//
// A column is a byte: ASCII lines and an ASCII query of at least two characters, scored
// as `Scorer.fuzzy` scores them, with the same score, begin and end (ScorerTests compare
// both with the whole table). Each row keeps only its last cell that a diagonal won (a
// match that continues the row above): the cells after it, gaps, follow from it, as in
// Scorer.dynamicScore.

/// Scores one fuzzy term against ASCII lines given one after another, resuming each line
/// after the prefix it shares with the line scored before it. Not thread-safe: one per
/// `LineMatcher`, which calls `release()`. (A struct in the matcher, not a class of its own:
/// the hot path then takes no reference to it.)
struct SharedPrefixScorer {
    /// A cell a column changed, with what it replaced: undone when a later line parts
    /// from this one before `column`. `row` -1 is the best last-row cell (h: score, at: column).
    private struct Change {
        var row: Int32
        var column: Int32
        var h: Int32
        var at: Int32
        var run: Int32
    }

    private let m: Int
    /// For each byte, the rows (query characters) it matches, folded as the term folds.
    private let rowsOf: UnsafeMutablePointer<UInt64>
    /// Most rows one byte matches, plus one for the best cell: log room per column.
    private let changesPerColumn: Int
    /// Each row's last cell that a diagonal won: its value, column and run of consecutive
    /// matches. `at` -1: the row has none yet. Rows 0..<active have one.
    private let h: UnsafeMutablePointer<Int32>
    private let at: UnsafeMutablePointer<Int32>
    private let run: UnsafeMutablePointer<Int32>
    private var active = 0
    /// Column of the first cell of row 0 (the match's begin) while row 0 has one.
    private var first = -1
    private var best = SharedPrefixScorer.invalid
    private var bestEnd = -1
    private var log: UnsafeMutablePointer<Change>
    private var logCount = 0
    private var logCapacity = 0
    /// The line the table holds (its columns up to its end), and its file name's start.
    private var scored: UnsafePointer<UInt8>? = nil
    private var scoredCount = 0
    private var scoredNameStart = 0
    /// The line looked at last, scored here or not.
    private var seen: UnsafePointer<UInt8>? = nil
    private var seenCount = 0

    private static let invalid: Int32 = -(1 << 29)
    /// Lines this long or longer go to `Scorer.fuzzy`, which bounds the table's size.
    private let maxCount: Int

    /// A scorer for `term`, or nil when it does not qualify (see the essay above).
    init?(_ term: PreparedTerm) {
        let m = term.scalars.count
        guard term.kind == .fuzzy, !term.inverse, m >= 2, m <= 63, term.bytes.count == m else { return nil }
        self.m = m
        rowsOf = .allocate(capacity: 256)
        rowsOf.initialize(repeating: 0, count: 256)
        for byte in 0..<256 {
            let unit = term.caseSensitive ? UInt8(byte) : lowerASCII(UInt8(byte))
            for i in 0..<m where term.bytes[i] == unit { rowsOf[byte] |= 1 << UInt64(i) }
        }
        var most = 0
        for byte in 0..<256 { most = max(most, rowsOf[byte].nonzeroBitCount) }
        changesPerColumn = most + 1
        h = .allocate(capacity: m)
        at = .allocate(capacity: m)
        at.initialize(repeating: -1, count: m)
        run = .allocate(capacity: m)
        h.initialize(repeating: Self.invalid, count: m)
        run.initialize(repeating: 0, count: m)
        logCapacity = 1024
        log = .allocate(capacity: logCapacity)
        maxCount = min(ScoreWeights.dynamicLimit / m, Int(Int32.max))
    }

    /// Frees what `init` allocated.
    func release() {
        rowsOf.deallocate()
        h.deallocate()
        at.deallocate()
        run.deallocate()
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
        let shared = pick_common_prefix(seen, text, min(seenCount, n))
        guard shared &* 2 >= n else { return nil }
        // The line before was not scored here: start afresh, for the lines after this one.
        guard scored == seen && scoredCount == seenCount else { return 0 }
        // The last row's cells earn `lastComponent` from the file name on: where the two
        // names start differently, only the columns before both names carry over.
        if nameStart != scoredNameStart { return min(shared, nameStart, scoredNameStart) }
        return shared
    }

    /// The score of `text` (ASCII), resuming at `column` (from `resumeColumn`); nil when
    /// the term is not a subsequence of it.
    @inline(__always)
    mutating func score(_ text: UnsafePointer<UInt8>, count n: Int, nameStart: Int, from column: Int) -> TermScore? {
        undo(to: column)
        scored = text
        scoredCount = n
        scoredNameStart = nameStart
        let needed = logCount &+ (n &- column) &* changesPerColumn
        if needed > logCapacity { growLog(to: needed) }
        // Locals, not fields, in the loop: stores through the pointers cannot change them.
        let rowsOf = self.rowsOf, h = self.h, at = self.at, run = self.run, log = self.log
        let classes = BonusTables.classes, bonuses = BonusTables.bonuses
        let invalid = Self.invalid, last = m &- 1
        let match = ScoreWeights.match, gapStart = ScoreWeights.gapStart, gapExtension = ScoreWeights.gapExtension
        var logCount = self.logCount, active = self.active, first = self.first
        var best = self.best, bestEnd = self.bestEnd
        var previousClass = column == 0 ? CharClass.white.rawValue : classes[Int(text[column &- 1])]
        var j = column
        while j < n {
            let cls = classes[Int(text[j])]
            let b = bonuses[Int(previousClass) << 3 | Int(cls)]
            previousClass = cls
            // Rows 0...active: a row below `active` has no cell above it to continue.
            var rows = rowsOf[Int(text[j])] & (active >= 63 ? ~0 : (2 << UInt64(active)) &- 1)
            // Highest row first: a row reads the row above as it stood before this column.
            while rows != 0 {
                let i = 63 &- rows.leadingZeroBitCount
                rows &= ~(1 << UInt64(i))
                var diagonal = invalid
                var cellRun: Int32 = 1
                if i == 0 {
                    diagonal = match &+ b &* ScoreWeights.firstCharMultiplier
                } else {
                    let upAt = Int(at[i &- 1])
                    var up = h[i &- 1]
                    var upRun = run[i &- 1]
                    if upAt < j &- 1 {
                        up = max(up &+ (upRun == 0 ? gapExtension : gapStart) &+ gapExtension &* Int32(j &- 2 &- upAt),
                                 invalid)
                        upRun = 0
                    }
                    if up > invalid / 2 {
                        cellRun = upRun &+ 1
                        var bonus = b
                        if cellRun > 1 {
                            let start = j &- Int(cellRun) &+ 1
                            let before = start == 0 ? CharClass.white.rawValue : classes[Int(text[start &- 1])]
                            let runBonus = bonuses[Int(before) << 3 | Int(classes[Int(text[start])])]
                            if b >= ScoreWeights.boundary && b > runBonus {
                                cellRun = 1
                            } else {
                                bonus = max(b, max(ScoreWeights.consecutive, runBonus))
                            }
                        }
                        diagonal = up &+ match &+ bonus
                        if i == last && j >= nameStart { diagonal &+= ScoreWeights.lastComponent }
                    }
                }
                guard diagonal > invalid / 2 else { continue }
                // The row's own cell j-1, continued: the gap after its last cell.
                let leftAt = Int(at[i])
                if leftAt >= 0 {
                    let gap = h[i] &+ (run[i] == 0 ? gapExtension : gapStart) &+ gapExtension &* Int32(j &- 1 &- leftAt)
                    if diagonal < gap { continue }
                }
                log[logCount] = Change(row: Int32(truncatingIfNeeded: i), column: Int32(truncatingIfNeeded: j),
                                       h: h[i], at: at[i], run: run[i])
                logCount &+= 1
                if leftAt < 0 {
                    active = i &+ 1
                    if i == 0 { first = j }
                }
                h[i] = diagonal
                at[i] = Int32(truncatingIfNeeded: j)
                run[i] = cellRun
                if i == last && diagonal > best {
                    log[logCount] = Change(row: -1, column: Int32(truncatingIfNeeded: j), h: best,
                                           at: Int32(truncatingIfNeeded: bestEnd), run: 0)
                    logCount &+= 1
                    best = diagonal
                    bestEnd = j
                }
            }
            j &+= 1
        }
        self.logCount = logCount
        self.active = active
        self.first = first
        self.best = best
        self.bestEnd = bestEnd
        guard best > invalid / 2 else { return nil }
        return TermScore(score: max(best, 1), begin: first, end: bestEnd &+ 1)
    }

    /// Takes back every change made at `column` or after.
    private mutating func undo(to column: Int) {
        while logCount > 0 && Int(log[logCount &- 1].column) >= column {
            logCount &-= 1
            let change = log[logCount]
            if change.row < 0 {
                best = change.h
                bestEnd = Int(change.at)
                continue
            }
            let i = Int(change.row)
            h[i] = change.h
            at[i] = change.at
            run[i] = change.run
            // (Row 0's first cell sets `first` again when it comes.)
            if change.at < 0 { active = i }
        }
    }

    private mutating func growLog(to needed: Int) {
        var capacity = logCapacity
        while capacity < needed { capacity *= 2 }
        let grown = UnsafeMutablePointer<Change>.allocate(capacity: capacity)
        grown.moveInitialize(from: log, count: logCount)
        log.deallocate()
        log = grown
        logCapacity = capacity
    }
}
