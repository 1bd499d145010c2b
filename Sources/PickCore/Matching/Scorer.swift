import CPickScan
// How pick scores a match.
//
// A term's score rewards what a person means when they type a few letters, and penalises
// what they would not have meant. Every matched character earns `match` (16). On top:
//
// - Word starts. A character earns a bonus from what stands before it: after a space
//   `boundaryWhite` (10), after `/ , : ; |` `boundaryDelimiter` (9), after other punctuation
//   such as `_ - .` `boundary` (8), a camelCase hump or the first digit of a number
//   `camel` (7). The first character of the text counts as after a space. Punctuation
//   itself, when typed, earns `nonWord` (8).
// - The first query character's bonus is doubled (`firstCharMultiplier`): what the person
//   typed first is what they are surest of ("amo" wants "app/models", not "app/m/foo").
// - Consecutive runs. A character right after the previous match earns at least
//   `consecutive` (4), and inherits the bonus of the run's first character, so "make"
//   typed against "Makefile" beats "m/a/k/e" whose letters each start a word.
// - The file name. When the last character of the query's last term lands after the
//   title's last `/` (or anywhere in a title with no `/`), the match earns
//   `lastComponent` (8) more: people type a path's folders first and the file's name
//   last ("liblib" for lib/…/libbsd.pc, "pycache 312" for …/__pycache__/x.cpython-312.pyc).
//   Only the last term's last character counts, so a first term that names a folder is not
//   pulled towards file names. On /usr paths this lifts the mean reciprocal rank of
//   shared/bench/rankq.py above fzf's; rewarding every character of the file name instead
//   lowered it, by pulling folder words into file names (bench/NOTES.md).
// - Gaps. Skipping text between two matched characters costs `gapStart` (3) for the first
//   skipped character and `gapExtension` (1) for each further one. After a few characters
//   of gap, the penalty outweighs a word-start bonus, so tight matches win.
//
// The best placement is found by dynamic programming over the window between the first
// greedy match and the last occurrence of the query's last character (as fzf's v2 does):
// H[i][j] is the best score of the first i+1 query characters placed within text[...j].
// Only the cells where query character i occurs are computed (the cells between follow from
// them), within a band past which the rest of the query no longer fits; ASCII text is read
// where it lies. Windows too large for that (m × w > `dynamicLimit`) are scored by a greedy
// placement. Where most lines match, ASCII lines are scored column by column instead, from
// where each parts from the line before (SharedPrefixScorer.swift): the same table, the
// same scores.
// Exact, prefix and suffix terms earn the same bonuses over their run; a `'word'` term earns
// what fzf's exact-boundary match earns for the boundary around it, under the `--scheme`
// (`LineMatcher.exactAtBoundary`).
// Ties between equal scores go to the shorter title, then to input order (Ranking.swift).

/// The weights of the scorer, in one place.
public enum ScoreWeights {
    public static let match: Int32 = 16
    public static let gapStart: Int32 = -3
    public static let gapExtension: Int32 = -1
    public static let boundary: Int32 = 8
    public static let boundaryWhite: Int32 = 10
    public static let boundaryDelimiter: Int32 = 9
    public static let camel: Int32 = 7
    public static let nonWord: Int32 = 8
    public static let consecutive: Int32 = 4
    public static let firstCharMultiplier: Int32 = 2
    public static let lastComponent: Int32 = 8
    /// The most a character added at the end of a fuzzy term adds to a line's score before
    /// `lastComponent`: a match and the highest bonus (no bonus exceeds `boundaryWhite`,
    /// and only the first character's is multiplied). See `LineBounds`.
    static let extensionGain: Int32 = match + boundaryWhite
    static let dynamicLimit = 1 << 20
}

extension Scheme {
    /// What the first character of a `'word'` term earns after white space (or at the start
    /// of the text) and after a delimiter, and which ASCII characters are delimiters, as fzf's
    /// scheme sets them: the path scheme ranks a word after `/` first, history ranks every
    /// boundary alike. After any other punctuation a word earns `ScoreWeights.boundary`.
    var wordBonuses: (white: Int32, delimiter: Int32, delimiters: [UInt8]) {
        switch self {
        case .default: return (ScoreWeights.boundaryWhite, ScoreWeights.boundaryDelimiter, Array("/,:;|".utf8))
        case .path: return (ScoreWeights.boundary, ScoreWeights.boundaryDelimiter, [0x2F])
        case .history: return (ScoreWeights.boundary, ScoreWeights.boundary, Array("/,:;|".utf8))
        }
    }
}

/// Character classes that decide word-start bonuses.
enum CharClass: UInt8 {
    case white, delimiter, nonWord, lower, upper, letter, digit

    @inline(__always)
    static func of(_ byte: UInt8) -> CharClass {
        switch byte {
        case 0x61...0x7A: return .lower
        case 0x41...0x5A: return .upper
        case 0x30...0x39: return .digit
        case 0x80...0xFF: return .letter
        case 0x20, 0x09, 0x0A, 0x0D: return .white
        case 0x2F, 0x2C, 0x3A, 0x3B, 0x7C: return .delimiter
        default: return .nonWord
        }
    }

    var isWord: Bool { rawValue >= CharClass.lower.rawValue }
}

/// The bonus of a character of class `current` that follows one of class `previous`.
@inline(__always)
func bonus(previous: CharClass, current: CharClass) -> Int32 {
    if current.isWord {
        switch previous {
        case .white: return ScoreWeights.boundaryWhite
        case .delimiter: return ScoreWeights.boundaryDelimiter
        case .nonWord: return ScoreWeights.boundary
        case .lower where current == .upper: return ScoreWeights.camel
        case .lower, .upper, .letter:
            return current == .digit ? ScoreWeights.camel : 0
        default: return 0
        }
    }
    return current == .white ? ScoreWeights.boundaryWhite : ScoreWeights.nonWord
}

/// `CharClass.of` and `bonus(previous:current:)` as tables, for the scorer's per-byte loop:
/// a byte's class is `classes[byte]`, and the bonus of class c after class p is
/// `bonuses[p << 3 | c]`.
enum BonusTables {
    static let classes: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for b in 0..<256 { table[b] = CharClass.of(UInt8(b)).rawValue }
        return UnsafePointer(table)
    }()
    static let bonuses: UnsafePointer<Int32> = {
        let table = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        table.initialize(repeating: 0, count: 64)
        for p in 0..<7 {
            for c in 0..<7 {
                table[p << 3 | c] = bonus(previous: CharClass(rawValue: UInt8(p))!, current: CharClass(rawValue: UInt8(c))!)
            }
        }
        return UnsafePointer(table)
    }()
}

/// The bits the SSE2 byte searches or into each byte (`pick_find_byte`, `pick_last_byte`)
/// to find `c` in text that folds ASCII case: 0x20 for a lower-case letter, else none.
@inline(__always)
func foldBits(for c: UInt8, folds: Bool) -> UInt8 { folds && c &- 0x61 < 26 ? 0x20 : 0 }

enum Scorer {
    /// Loads text[from..<to] as scalars with their bonuses into the scratch; returns the count.
    @inline(__always)
    static func load(_ text: ScoredText, from: Int, to: Int, into s: ScoringScratch) -> Int {
        s.reserve(to - from + 1)
        // Locals, not the scratch's fields: stores through them cannot change them.
        let units = s.units, bonuses = s.bonuses
        let classes = BonusTables.classes, bonusTable = BonusTables.bonuses
        let bytes = text.bytes
        var previous = CharClass.white.rawValue
        if from > 0 {
            // Class of the scalar before the window (scan back over continuation bytes).
            var k = from - 1
            while k > 0 && bytes[k] & 0xC0 == 0x80 { k -= 1 }
            previous = classes[Int(bytes[k])]
        }
        // Where the last path component starts (after the last `/`); a title with no `/` is all
        // last component. Recorded as a scalar index of the window in `s.nameStart`.
        let lastComponent = text.nameStart
        var nameStart = Int.max
        let folds = text.foldsASCII
        var n = 0
        var i = from
        while i < to {
            let b = bytes[i]
            let cls = classes[Int(b)]
            var unit = UInt32(b)
            var width = 1
            if b >= 0x80 {
                (unit, width) = UTF8Codec.decode(bytes, i, text.count)
            } else if folds {
                unit = UInt32(lowerASCII(b))
            }
            if i >= lastComponent && nameStart == Int.max { nameStart = n }
            units[n] = unit
            bonuses[n] = bonusTable[Int(previous) << 3 | Int(cls)]
            previous = cls
            n &+= 1
            i &+= width
        }
        s.nameStart = nameStart
        s.loadedBytes = to &- from
        return n
    }

    /// The byte index of the next occurrence of `needle` (one scalar's UTF-8) at or after `from`.
    /// Hot path: scans sixteen bytes at a time for the first byte (`pick_find_byte`),
    /// folding ASCII case by or-ing 0x20 when the needle is a lower-case letter.
    @inline(__always)
    static func find(_ text: ScoredText, _ needle: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let first = needle[0]
        let end = text.count &- needle.count
        let fold = foldBits(for: first, folds: text.foldsASCII)
        var i = from
        while i <= end {
            // Candidates for the first byte sixteen at a time; the rest compared here.
            i = pick_find_byte(text.bytes, i, end &+ 1, first, fold)
            guard i >= 0 else { return nil }
            var k = 1
            while k < needle.count && text.bytes[i &+ k] == needle[k] { k &+= 1 }
            if k == needle.count { return i }
            i &+= 1
        }
        return nil
    }

    /// Whether `query`'s characters occur in order in `text` (the greedy check, no score).
    @inline(__always)
    static func isSubsequence(_ text: ScoredText, _ query: borrowing PreparedTerm) -> Bool {
        if hasOneByteCharacters(query) { return withOneBytePlaces(text, query) { _ in true } ?? false }
        var pos = 0
        for k in 0..<query.scalars.count {
            let needle = query.needle(k)
            guard let at = find(text, needle, from: pos) else { return false }
            pos = at &+ needle.count
        }
        return true
    }

    /// Greedy left-most placement scored straight from the bytes (no window loaded): for
    /// fields that are searched but not shown, and for windows too large for the dynamic
    /// programming. Nil when `query` is not a subsequence.
    static func greedy(_ text: ScoredText, _ query: borrowing PreparedTerm) -> TermScore? {
        let starts = query.scalarStarts
        if hasOneByteCharacters(query) {
            return withOneBytePlaces(text, query) { greedyScore(text, $0, scalarStarts: starts) }
        }
        let m = query.scalars.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: m) { places -> TermScore? in
            var pos = 0
            for k in 0..<m {
                let needle = query.needle(k)
                guard let at = find(text, needle, from: pos) else { return nil }
                places[k] = at
                pos = at &+ needle.count
            }
            return greedyScore(text, UnsafeBufferPointer(places), scalarStarts: starts)
        }
    }

    /// Whether every character of `query` is one byte: `withOneBytePlaces` places them.
    @inline(__always)
    private static func hasOneByteCharacters(_ query: borrowing PreparedTerm) -> Bool {
        query.scalars.count > 0 && query.bytes.count == query.scalars.count
    }

    /// `body` of the greedy left-most places of `query`'s one-byte characters in `text`,
    /// found in C sixty-four bytes a step (`pick_greedy_places`); nil when it is not a
    /// subsequence.
    @inline(__always)
    private static func withOneBytePlaces<R>(_ text: ScoredText, _ query: borrowing PreparedTerm,
                                             _ body: (UnsafeBufferPointer<Int>) -> R) -> R? {
        let m = query.scalars.count
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: m) { places -> R? in
            guard pick_greedy_places(text.bytes, text.count, query.bytes.baseAddress!, m, text.foldsASCII ? 1 : 0,
                                     places.baseAddress!) != 0 else { return nil }
            return body(UnsafeBufferPointer(places))
        }
    }

    /// `greedy`'s score of the term's characters placed at `places`, character k
    /// `scalarStarts[k + 1] - scalarStarts[k]` bytes long.
    @inline(__always)
    private static func greedyScore(_ text: ScoredText, _ places: UnsafeBufferPointer<Int>,
                                    scalarStarts: UnsafeBufferPointer<Int>) -> TermScore {
        var score: Int32 = 0
        var last = -2
        var runBonus: Int32 = 0
        let bytes = text.bytes
        for k in 0..<places.count {
            let at = places[k]
            let previous = at == 0 ? CharClass.white : CharClass.of(bytes[at &- 1])
            var b = bonus(previous: previous, current: CharClass.of(bytes[at]))
            if k == 0 {
                runBonus = b
                b &*= ScoreWeights.firstCharMultiplier
            } else if at == last {
                b = max(b, max(ScoreWeights.consecutive, runBonus))
            } else {
                runBonus = b
                score &+= ScoreWeights.gapStart &+ ScoreWeights.gapExtension &* Int32(min(at &- last &- 1, 1 << 16))
            }
            score &+= ScoreWeights.match &+ b
            last = at &+ scalarStarts[k &+ 1] &- scalarStarts[k]
        }
        if last &- 1 >= text.nameStart { score &+= ScoreWeights.lastComponent }
        return TermScore(score: max(score, 1), begin: places.isEmpty ? 0 : places[0], end: last)
    }

    /// Fuzzy score of `query` (UTF-8, pre-folded) in `text`, or nil when it is not a subsequence.
    static func fuzzy(_ text: ScoredText, _ query: borrowing PreparedTerm, scratch s: ScoringScratch) -> TermScore? {
        let m = query.scalars.count
        if text.ascii && text.likelyMatch && m > 1 && query.bytes.count == m {
            // ASCII text and query, and most lines match: one backward pass both tells
            // whether the query is a subsequence and gives the dynamic programming its band
            // (the last place each character can take); the forward pass would only be
            // repeated by it. (Where most lines do not match, the forward pass gives up
            // sooner: swiftcore on paths fails at its w, from the front.)
            let bytes = text.bytes, folds = text.foldsASCII
            let band = s.reserveBand(m)
            var back = text.count
            var i = m &- 1
            while i >= 0 {
                let c = query.bytes[i]
                let at = pick_last_byte(bytes, back, c, foldBits(for: c, folds: folds))
                if at < 0 { return nil }
                band[i] = at
                back = at
                i &-= 1
            }
            let c0 = query.bytes[0]
            let firstStart = pick_find_byte(bytes, 0, band[0] &+ 1, c0, foldBits(for: c0, folds: folds))
            let windowEnd = band[m &- 1] &+ 1
            if m * (windowEnd - firstStart) > ScoreWeights.dynamicLimit { return greedy(text, query) }
            for k in 0..<m { band[k] &-= firstStart }
            return bytesScore(text, query, from: firstStart, to: windowEnd, scratch: s, bandReady: true)
        }
        // Greedy forward pass: is it a subsequence, and where does it first fit? (One-byte
        // characters placed in C, sixty-four bytes a step.)
        var pos = 0
        var firstStart = 0
        if m > 1 && hasOneByteCharacters(query) {
            guard let (first, end) = withOneBytePlaces(text, query, { ($0[0], $0[m &- 1] &+ 1) }) else { return nil }
            firstStart = first
            pos = end
        } else {
            for k in 0..<m {
                let needle = query.needle(k)
                guard let at = find(text, needle, from: pos) else { return nil }
                if k == 0 { firstStart = at }
                pos = at + needle.count
            }
        }
        let last = query.needle(query.scalars.count - 1)
        if query.scalars.count == 1 { return singleCharacter(text, last, first: firstStart, windowEnd: text.count) }
        // Backward: the last occurrence of the last character bounds the window.
        var windowEnd = pos
        if last.count == 1 {
            let c = last[0]
            windowEnd = pick_last_byte(text.bytes, text.count, c, foldBits(for: c, folds: text.foldsASCII)) &+ 1
        } else {
            var probe = pos
            while let at = find(text, last, from: probe) {
                windowEnd = at + last.count
                probe = at + 1
            }
        }
        // A window too large for the dynamic programming (a line of megabytes) is scored
        // greedily, before loading it costs memory in proportion.
        if m * (windowEnd - firstStart) > ScoreWeights.dynamicLimit { return greedy(text, query) }
        if text.ascii { return bytesScore(text, query, from: firstStart, to: windowEnd, scratch: s) }
        let w = load(text, from: firstStart, to: windowEnd, into: s)
        return dynamicScore(query, count: w, offset: firstStart, text: text, scratch: s)
    }

    /// The dynamic programming over ASCII text[from..<to], read where it lies (`ByteWindow`).
    /// `bandReady`: the scratch's band already holds, in window indexes, the last place of
    /// each query character.
    @inline(__always)
    private static func bytesScore(_ text: ScoredText, _ query: borrowing PreparedTerm, from firstStart: Int, to windowEnd: Int,
                                   scratch s: ScoringScratch, bandReady: Bool = false) -> TermScore {
        let lastComponent = text.nameStart
        let before = firstStart == 0 ? CharClass.white.rawValue : BonusTables.classes[Int(text.bytes[firstStart &- 1])]
        let window = ByteWindow(bytes: text.bytes + firstStart, before: before, folds: text.foldsASCII)
        return dynamicScore(query, count: windowEnd &- firstStart, offset: firstStart, window: window,
                            nameStart: lastComponent == Int.max ? Int.max : max(0, lastComponent &- firstStart),
                            scratch: s, bandReady: bandReady) { offset, index in offset &+ index }
    }

    /// The first keystroke's case, on every line: one character scores its best occurrence
    /// (what the dynamic programming would find, without loading the window).
    static func singleCharacter(_ text: ScoredText, _ needle: UnsafeBufferPointer<UInt8>,
                                first: Int, windowEnd: Int) -> TermScore {
        let nameStart = text.nameStart
        // In the file name, an occurrence at any boundary outscores every occurrence before
        // the name (which lacks `lastComponent`): look there first, and often only there.
        if nameStart > first && nameStart < windowEnd, let inName = find(text, needle, from: nameStart) {
            let (score, at) = bestOccurrence(text, needle, from: inName, windowEnd: windowEnd, nameStart: nameStart)
            if score > ScoreWeights.match &+ ScoreWeights.boundaryWhite &* ScoreWeights.firstCharMultiplier {
                return TermScore(score: score, begin: first, end: at &+ needle.count)
            }
        }
        let (score, at) = bestOccurrence(text, needle, from: first, windowEnd: windowEnd, nameStart: nameStart)
        return TermScore(score: max(score, 1), begin: first, end: at &+ needle.count)
    }

    /// The best-scoring occurrence of a one-character needle from `from` on (the first of equals).
    @inline(__always)
    private static func bestOccurrence(_ text: ScoredText, _ needle: UnsafeBufferPointer<UInt8>, from: Int,
                                       windowEnd: Int, nameStart: Int) -> (score: Int32, at: Int) {
        var best = Int32.min
        var bestAt = from
        var at = from
        while true {
            var previous = CharClass.white
            if at > 0 {
                var k = at &- 1
                while k > 0 && text.bytes[k] & 0xC0 == 0x80 { k &-= 1 }
                previous = CharClass.of(text.bytes[k])
            }
            var score = ScoreWeights.match &+ bonus(previous: previous, current: CharClass.of(text.bytes[at]))
                &* ScoreWeights.firstCharMultiplier
            if at >= nameStart { score &+= ScoreWeights.lastComponent }
            if score > best {
                best = score
                bestAt = at
            }
            guard at &+ needle.count < windowEnd, let next = find(text, needle, from: at &+ 1) else { break }
            at = next
        }
        return (best, bestAt)
    }

    /// Smith-Waterman style best placement over the window loaded by `load` (see the essay
    /// above). Computed at the match points only (the generic version below).
    static func dynamicScore(_ query: borrowing PreparedTerm, count w: Int, offset: Int, text: ScoredText, scratch s: ScoringScratch) -> TermScore {
        // A window of one-byte scalars (every ASCII line) maps indexes to offsets as they are.
        let oneByte = s.loadedBytes == w
        return dynamicScore(query, count: w, offset: offset, window: LoadedWindow(units: s.units, bonuses: s.bonuses),
                            nameStart: s.nameStart, scratch: s) { offset, index in
            oneByte ? offset &+ index : byteOffset(ofScalar: index, from: offset, in: text)
        }
    }

    /// The dynamic programming over any window, at its match points only: a row's cells
    /// between two of its matches only lose `gapExtension` per column, so each row keeps,
    /// for each column where its character occurs, the cell's value H, its run length C
    /// (0: the cell continues a gap), and the column; any other cell's value follows from
    /// the nearest match point to its left. A path has a few occurrences of each query
    /// character, where full rows would have dozens of cells. `byteOffset` maps a scalar
    /// index of the window (which starts at byte `offset`) to a byte offset of the text.
    @inline(__always)
    static func dynamicScore<W: ScoringWindow>(_ query: borrowing PreparedTerm, count w: Int, offset: Int, window: W, nameStart: Int,
                                               scratch s: ScoringScratch, bandReady: Bool = false,
                                               byteOffset: (_ offset: Int, _ index: Int) -> Int) -> TermScore {
        s.reserve(w &+ 1)
        let m = query.scalars.count
        var prevH = s.prevH, prevC = s.prevC, curH = s.rowH, curC = s.rowC
        var prevPos = s.prevPos, curPos = s.rowPos
        let invalid: Int32 = -(1 << 29)
        let gapStart = ScoreWeights.gapStart, gapExtension = ScoreWeights.gapExtension
        var firstIndex = 0
        var rowStart = 0
        var rowEnd = 0
        // The band: row i can only take part in a whole match up to the last place where
        // character i+1 still has the rest of the query after it (greedy from the end).
        // (`bandReady`: the caller found it, in window indexes.)
        let lastMatch = s.reserveBand(m)
        if !bandReady {
            var back = w
            for i in stride(from: m &- 1, through: 0, by: -1) {
                let q = query.scalars[i]
                back = window.previous(q, before: back)
                lastMatch[i] = back
            }
        }
        var previousEnd = 0
        var previousCount = 0
        var count = 0
        for i in 0..<m {
            let q = query.scalars[i]
            let j0 = window.next(q, from: rowStart, to: w)
            if i == 0 { firstIndex = j0 }
            rowEnd = i == m &- 1 ? w : lastMatch[i &+ 1]
            count = 0
            // The row's value and gap state at its last match point (none yet: invalid).
            var left = invalid
            var leftAt = j0 &- 1
            var inGap = false
            // The previous row's last match point at or before the column being looked at.
            var k = -1
            var j = j0
            while j < rowEnd {
                var b = window.bonus(j)
                var diagonal = invalid
                var run: Int32 = 1
                if i == 0 {
                    diagonal = ScoreWeights.match &+ b &* ScoreWeights.firstCharMultiplier
                    if m == 1 && j >= nameStart { diagonal &+= ScoreWeights.lastComponent }
                } else if j &- 1 < previousEnd {
                    while k &+ 1 < previousCount && Int(prevPos[k &+ 1]) <= j &- 1 { k &+= 1 }
                    if k >= 0 {
                        // The previous row's cell j-1: its match point, or the gap after one.
                        let at = Int(prevPos[k])
                        var up = prevH[k]
                        var upRun: Int32 = prevC[k]
                        if at < j &- 1 {
                            up = max(up &+ (upRun == 0 ? gapExtension : gapStart)
                                        &+ gapExtension &* Int32(j &- 2 &- at), invalid)
                            upRun = 0
                        }
                        if up > invalid / 2 {
                            run = upRun &+ 1
                            if run > 1 {
                                let runBonus = window.bonus(j &- Int(run) &+ 1)
                                if b >= ScoreWeights.boundary && b > runBonus {
                                    run = 1
                                } else {
                                    b = max(b, max(ScoreWeights.consecutive, runBonus))
                                }
                            }
                            diagonal = up &+ ScoreWeights.match &+ b
                            if i == m &- 1 && j >= nameStart { diagonal &+= ScoreWeights.lastComponent }
                        } else {
                            run = 1
                        }
                    }
                }
                // This row's cell j-1 continues the gap after its last match point.
                var gap = left
                if j &- 1 > leftAt {
                    gap = max(left &+ (inGap ? gapExtension : gapStart) &+ gapExtension &* Int32(j &- 2 &- leftAt), invalid)
                }
                gap &+= j &- 1 > leftAt || inGap ? gapExtension : gapStart
                if diagonal > invalid / 2 && diagonal >= gap {
                    left = diagonal
                    curC[count] = run
                    inGap = false
                } else {
                    left = max(gap, invalid)
                    curC[count] = 0
                    inGap = true
                }
                leftAt = j
                curH[count] = left
                curPos[count] = Int32(truncatingIfNeeded: j)
                count &+= 1
                j = window.next(q, from: j &+ 1, to: rowEnd)
            }
            rowStart = j0 &+ 1
            previousEnd = rowEnd
            previousCount = count
            if i < m - 1 {
                swap(&prevH, &curH)
                swap(&prevC, &curC)
                swap(&prevPos, &curPos)
            }
        }
        // The best cell of the last row that ends on a match.
        var best: Int32 = invalid
        var bestEnd = 0
        for p in 0..<count where curC[p] > 0 && curH[p] > best {
            best = curH[p]
            bestEnd = Int(curPos[p])
        }
        best = max(best, 1)
        return TermScore(score: best, begin: byteOffset(offset, firstIndex), end: byteOffset(offset, bestEnd &+ 1))
    }

    /// Score of a contiguous run of `length` scalars starting at scalar `start` of the loaded window.
    static func runScore(bonuses: UnsafeMutablePointer<Int32>, start: Int, length: Int) -> Int32 {
        var score: Int32 = 0
        var first: Int32 = 0
        for k in 0..<length {
            var b = bonuses[start + k]
            if k == 0 {
                first = b
                b &*= ScoreWeights.firstCharMultiplier
            } else {
                if b >= ScoreWeights.boundary && b > first { first = b }
                b = max(b, max(ScoreWeights.consecutive, first))
            }
            score &+= ScoreWeights.match &+ b
        }
        return score
    }

    @inline(__always)
    static func byteOffset(ofScalar index: Int, from offset: Int, in text: ScoredText) -> Int {
        var i = offset
        var k = 0
        while k < index && i < text.count {
            let b = text.bytes[i]
            i += b < 0x80 ? 1 : UTF8Codec.decode(text.bytes, i, text.count).1
            k += 1
        }
        return i
    }
}
