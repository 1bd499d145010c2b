import CPickScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Ranking a keystroke's first screen without scoring every line.
//
// Typing a term one character at a time, each keystroke on a million lines scores every
// line the last one matched (hundreds of thousands, well into a word: bench/NOTES.md),
// though the screen shows forty. A line's score for the term with one more character cannot be
// much higher than its score before:
//
// - The scorer's table for the longer term has the shorter term's rows, unchanged, except
//   that the shorter term's last row no longer earns `lastComponent`. Every cell of that row
//   is at most the line's base: the highest value a match of the whole shorter term reached
//   before `lastComponent` (`SharedPrefixScorer.base`; the score itself where a scorer does
//   not tell them apart).
// - A cell of the new last row adds one match and one bonus to a cell of the row above,
//   and a gap subtracts 3 for its first character and 1 for each other. No bonus exceeds 10 (`boundaryWhite`), nor 9
//   in a line with no white space that does not start with a letter or digit (a path):
//   16 + 9 or 16 + 10 each added character, the line's gain.
// - `lastComponent` (8) comes on top only for a match whose last character is in the file
//   name (from the last '/' on). If the new character is there, the row above ended either
//   in the name too, where the old score already held `lastComponent` (at most score +
//   gain), or before it, across a gap at least as long as from the last place the old last
//   character occurs before the name to the name's start (base + gain + 8 - its cost).
//
// So with one character added a line scores at most the highest of: base + gain; and, when
// the new character occurs in the name, score + gain and base + gain + 8 - the gap's cost. (With k
// characters added at once: base + k gains, + 8.) A line whose bound ranks below the
// lines already found for the first screen (score, then the tiebreak, which its record
// gives without reading it: its length, or the best a begin or end can be) cannot be on
// it, and is not scored. Whether it still matches follows from where the shorter term's
// leftmost match ended (the new characters, found after it), kept for each line; its bound
// and base + gain stand in for its score and base at the next keystroke.
//
// The keystroke's result then holds the first screen's lines, ranked, and the count of
// all; the whole ranking follows (the picker asks for it in the background, and at once
// when the person moves past what is ranked). The first key of a term has no bounds to go
// on from. A term of one character notes each line's values without scoring it (its exact
// end, and for score and base the best the character scores at any of its places:
// `BoundsWords`), and only the lines bounded near the top are scored; a longer term scores
// every line, recording them. Either way only the first screen's lines are ranked, which
// spares sorting and merging every match.
//
// Only ASCII lines without fields, scored by one lone fuzzy ASCII term, are bounded; every
// other line is scored as before. Inputs under `SearchEngine.boundsFromLines` keep no bounds.
//
// At ten million lines even the check and the bound cost 20 ns a line, most of a key's time.
// Both depend on the next character only through two bits: whether it occurs after the
// line's end, and whether it occurs in the name; the gap's cost depends on the term already
// typed. So on a large file the idle refinement also notes each line's rest (the letters
// after its end, the gap) and its name's letters (`rests`, `names`), and a key that adds one
// letter checks and bounds a line from them without reading it (`pick_extend_rests64`). It
// cannot tell where the letter lies: the line's end is left pending, one character short,
// and whatever reads it next (the next key's step, a round's record, the refinement) finds
// that character first.

/// For every line a search matched: where the term's leftmost match ended, and at least
/// its score and its base. One per engine, taken by the search that uses it (a concurrent
/// search goes without). Six bytes a line.
final class LineBounds: @unchecked Sendable {
    /// One past the leftmost match's last character (`unknown`: the line is never bounded),
    /// and `whiteBit` when a bonus in the line can reach 10.
    let ends: UnsafeMutablePointer<UInt16>
    /// At least the line's base and its score (see the essay above).
    let bases: UnsafeMutablePointer<Int16>
    let scores: UnsafeMutablePointer<Int16>
    let capacity: Int
    /// The search the values are of: its text, its term's bytes (folded), and its lines.
    var text = ""
    var term: Term? = nil
    var count = 0
    /// Below this line the values of the lines the search matched are exact: their score and
    /// base as the scorer gives them (a whole ranking records them so). A first screen that
    /// bounded lines without scoring them leaves 0; `SearchEngine.refineBounds` raises it.
    var exactBelow = 0
    /// On a large input (`SearchEngine.restsFromLines`), what the idle refinement notes of
    /// each line for the next key (`pick_note_rest`): the letters after its match's end, and
    /// its name's letters and the gap before it. A key that adds one letter checks and bounds
    /// a line from these without reading it (about a fifth of the time at paths 10M:
    /// bench/NOTES.md) and leaves its end pending. Six bytes a line, made by the first
    /// refinement, let go when the query is emptied.
    private(set) var rests: UnsafeMutablePointer<UInt32>? = nil
    private(set) var names: UnsafeMutablePointer<UInt16>? = nil
    /// Below this line every line the search matched holds a fresh rest (`refineBounds`).
    var restsBelow = 0
    /// Whether a line's rest may hold bits: values recorded afresh clear them first.
    private var restsWritten = false
    /// The bytes of the term of the pass that holds the bounds, and for each the bits that
    /// fold it in `pick_find_byte` (`BoundsPass`).
    fileprivate let passBytes: UnsafeMutablePointer<UInt8>
    fileprivate let passFolds: UnsafeMutablePointer<UInt8>

    static let unknown: UInt16 = 0x7FFF
    static let whiteBit: UInt16 = 0x8000
    /// The longest term lines are bounded for.
    static let longestTerm = 63

    init(capacity: Int) {
        self.capacity = capacity
        ends = .allocate(capacity: max(capacity, 1))
        bases = .allocate(capacity: max(capacity, 1))
        // Whole words of 64 lines: a first screen's rounds read a word's scores at once
        // (`pick_scores_at_least64`).
        scores = .allocate(capacity: (max(capacity, 1) + 63) & ~63)
        passBytes = .allocate(capacity: Self.longestTerm)
        passFolds = .allocate(capacity: Self.longestTerm)
    }

    deinit {
        ends.deallocate()
        bases.deallocate()
        scores.deallocate()
        passBytes.deallocate()
        passFolds.deallocate()
        free(rests)
        names?.deallocate()
    }

    /// Lines whose values' memory is touched (`touch`).
    private var touched = 0

    /// Writes the values' memory of up to `lines` more lines (zeros: the values are of no
    /// search yet), so that the first key does not wait for the system to give it pages;
    /// false while some are left.
    func touch(lines: Int) -> Bool {
        let end = min(capacity, touched &+ lines)
        if end > touched {
            (ends + touched).update(repeating: 0, count: end &- touched)
            (bases + touched).update(repeating: 0, count: end &- touched)
            (scores + touched).update(repeating: 0, count: end &- touched)
            touched = end
        }
        return touched == capacity
    }

    /// Makes room for every line's rest and name (cleared), unless there is; the caller
    /// writes rests from now on.
    func makeRests() {
        restsWritten = true
        guard rests == nil else { return }
        // (Zeroed pages from the system: only the lines noted are touched.)
        rests = calloc(max(capacity, 1), 4)?.assumingMemoryBound(to: UInt32.self)
        names = .allocate(capacity: max(capacity, 1))
        restsBelow = 0
    }

    /// Lets the rests and names go (the memory they hold: the query was emptied, or a whole
    /// ranking needs it). Ends left pending cannot be told from others without them: unless a
    /// refinement went over every line (it leaves none pending), the values are then of no
    /// search, and the next one records them afresh.
    func dropRests() {
        guard rests != nil else { return }
        free(rests)
        names?.deallocate()
        rests = nil
        names = nil
        restsWritten = false
        if restsBelow < count {
            text = ""
            term = nil
            count = 0
            exactBelow = 0
        }
        restsBelow = 0
    }

    /// Clears every line's rest, for values recorded afresh (a first key's C step writes
    /// ends without them).
    func clearRests() {
        restsBelow = 0
        guard let rests, restsWritten else { return }
        rests.update(repeating: 0, count: max(capacity, 1))
        restsWritten = false
    }

    /// Notes that rests are being written (a refinement, a key that leaves ends pending).
    func writesRests() { restsWritten = true }

    /// The lone fuzzy ASCII term of `query` that lines can be bounded for, if it has one.
    static func term(of query: Query) -> Term? {
        guard query.groups.count == 1, query.groups[0].count == 1 else { return nil }
        let term = query.groups[0][0]
        guard term.kind == .fuzzy, !term.inverse, !term.boundary, (1...longestTerm).contains(term.text.count),
              term.text.allSatisfy({ $0 < 0x80 }) else { return nil }
        return term
    }

    /// How many characters `term` adds to the term these bounds are of (nil: it does not
    /// extend it).
    func added(by term: Term) -> Int? {
        guard let old = self.term, old.caseSensitive == term.caseSensitive,
              old.stripsDiacritics == term.stripsDiacritics, term.text.count >= old.text.count,
              term.text.starts(with: old.text) else { return nil }
        return term.text.count - old.text.count
    }
}

/// One search's use of `LineBounds`: reads the values of the lines an earlier search matched,
/// checks and bounds them for this search's term, and records the values of the lines it
/// scores. A value type of pointers into the bounds, which the search holds while it runs:
/// the per-line calls take no references, and there is nothing to free.
struct BoundsPass {
    private let ends: UnsafeMutablePointer<UInt16>
    private let bases: UnsafeMutablePointer<Int16>
    private let scores: UnsafeMutablePointer<Int16>
    /// The bounds' rests and names (`LineBounds.rests`), where they are made.
    private let rests: UnsafeMutablePointer<UInt32>?
    private let names: UnsafeMutablePointer<UInt16>?
    /// The term's bytes and fold bits; the first `kept` are the earlier term's.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let folds: UnsafeMutablePointer<UInt8>
    private let m: Int
    private let kept: Int
    /// Lines below this hold the earlier term's values where that search matched them.
    let heldBelow: Int
    private let classes = BonusTables.classes

    /// A pass for `term` (one that `LineBounds.term(of:)` gives) over `bounds`, whose values
    /// hold for lines below `heldBelow` that the earlier term matched, and for the first
    /// `kept` bytes of `term` (0: record only). The term is written into the bounds: one
    /// pass at a time uses them.
    init(_ bounds: LineBounds, term: Term, kept: Int, heldBelow: Int) {
        ends = bounds.ends
        bases = bounds.bases
        scores = bounds.scores
        rests = bounds.rests
        names = bounds.names
        if kept == 0 { bounds.clearRests() }
        if kept > 0 && kept < term.text.count { bounds.writesRests() }
        m = term.text.count
        self.kept = kept
        self.heldBelow = kept > 0 ? heldBelow : 0
        bytes = bounds.passBytes
        folds = bounds.passFolds
        for k in 0..<m {
            bytes[k] = term.text[k]
            folds[k] = foldBits(for: term.text[k], folds: !term.caseSensitive)
        }
    }

    /// Whether this pass adds characters to the earlier term (and can bound lines).
    var extends: Bool { kept > 0 && kept < m }

    /// Whether this pass records the values of a term of one character afresh (a first key:
    /// `BoundsWords` notes them without scoring the lines).
    var recordsOneCharacter: Bool { kept == 0 && m == 1 }

    /// Whether line `index` (a match of the earlier term) holds values to go on from.
    @inline(__always)
    func holds(_ index: Int, _ record: LineRecord) -> Bool {
        index < heldBelow && record.extra == 0 && ends[index] & ~LineBounds.whiteBit != LineBounds.unknown
    }

    /// Whether line `index`'s end lacks the last character of the term its values are of
    /// (a key checked it from its rest: `pick_extend_bound64`).
    @inline(__always)
    private func pends(_ index: Int) -> Bool {
        guard let rests else { return false }
        return rests[index] & PICK_REST_PENDING != 0
    }

    /// For a line that `holds`, whose values are of this pass's term (a refinement, or a
    /// first screen's round after the step bounded it): where its leftmost match ends.
    @inline(__always)
    func end(_ index: Int, _ record: LineRecord) -> Int {
        let at = Int(ends[index] & ~LineBounds.whiteBit)
        guard pends(index) else { return at }
        return pick_find_byte(record.start, at, Int(record.length), bytes[m &- 1], folds[m &- 1]) &+ 1
    }

    /// For a line that `holds`: where this term's leftmost match ends (the added characters
    /// found after the earlier term's), or nil when the line no longer matches.
    @inline(__always)
    func extendedEnd(_ index: Int, _ record: LineRecord) -> Int? {
        var at = Int(ends[index] & ~LineBounds.whiteBit)
        let n = Int(record.length)
        // (A pending end lacks the earlier term's last character.)
        var k = pends(index) ? kept &- 1 : kept
        while k < m {
            let found = pick_find_byte(record.start, at, n, bytes[k], folds[k])
            if found < 0 { return nil }
            at = found &+ 1
            k &+= 1
        }
        return at
    }

    /// The most line `index` (one that `holds`) can score for this term, and its base.
    @inline(__always)
    func bound(_ index: Int, _ record: LineRecord) -> (score: Int32, base: Int32) {
        let gain = ScoreWeights.match &+ (ends[index] & LineBounds.whiteBit != 0 ? ScoreWeights.boundaryWhite
                                                                                  : ScoreWeights.boundaryDelimiter)
        let added = Int32(m &- kept)
        let oldBase = Int32(bases[index])
        let base = oldBase &+ gain &* added
        var score = base
        // Where the name starts, whether the new last character is in it, and where the old
        // last character last occurs before it: for most paths from the line's last bytes.
        let places = pick_name_places_of(record.start, Int(record.length), bytes[m &- 1], folds[m &- 1],
                                         bytes[kept &- 1], folds[kept &- 1], added == 1 ? 1 : 0)
        if places.inName != 0 {
            if added == 1 {
                // Ending in the name, from the row above in the name or before it.
                score = max(score, Int32(scores[index]) &+ gain)
                let nameStart = places.nameStart, before = places.before
                if before >= 0 {
                    // A gap of g characters costs 3 + (g - 1).
                    let gap = Int32(nameStart &- before &- 1)
                    score = max(score, oldBase &+ gain &+ ScoreWeights.lastComponent &- (gap > 0 ? gap &+ 2 : 0))
                }
            } else {
                score = base &+ ScoreWeights.lastComponent
            }
        }
        return (max(score, 1), base)
    }

    /// For a line kept with `keep`: its bound.
    @inline(__always)
    func score(_ index: Int) -> Int { Int(scores[index]) }

    /// The lines of `bits` (word `word`: lines from 64 × word) whose bound is `least` or more.
    @inline(__always)
    func bounded(atLeast least: Int, word: Int, _ bits: UInt64) -> UInt64 {
        pick_scores_at_least64(scores + (word << 6), bits, Int16(clamping: least))
    }

    /// Of the lines of `bits` (word `word`, its records `records` from a mapped file's, the
    /// first line starting at `first`), those a second round ranked by score then length
    /// must look at: not those bounded at `least` without white space and longer than
    /// `longest` (`pick_worth_scoring64`).
    @inline(__always)
    func worthScoring(_ bits: UInt64, word: Int, records: UnsafePointer<UInt32>, first: UInt32, least: Int,
                      longest: Int) -> UInt64 {
        pick_worth_scoring64(scores + (word << 6), ends + (word << 6), records, first, bits, Int16(clamping: least),
                             longest)
    }

    /// Keeps, for a line found to match but not scored, its bound and base. (An end past
    /// what `ends` holds leaves the line unbounded from then on: the matcher checks it whole.)
    @inline(__always)
    func keep(_ index: Int, end: Int, bound: (score: Int32, base: Int32)) {
        rests?[index] = 0
        ends[index] = ends[index] & LineBounds.whiteBit
            | (end < Int(LineBounds.unknown) ? UInt16(truncatingIfNeeded: end) : LineBounds.unknown)
        bases[index] = Int16(clamping: bound.base)
        scores[index] = Int16(clamping: bound.score)
    }

    /// Records line `index`, scored `score` with `base`. `end`: its leftmost match's end,
    /// for a line that held values (nil: found here, from what `recorder` kept of the line
    /// recorded before).
    @inline(__always)
    func record(_ index: Int, _ record: LineRecord, score: Int32, base: Int32, end: Int?,
                recorder: inout BoundsRecorder) {
        rests?[index] = 0
        bases[index] = Int16(clamping: base)
        scores[index] = Int16(clamping: score)
        guard record.extra == 0 else {
            ends[index] = LineBounds.unknown
            return
        }
        if let end {
            ends[index] = ends[index] & LineBounds.whiteBit
                | (end < Int(LineBounds.unknown) ? UInt16(truncatingIfNeeded: end) : LineBounds.unknown)
            return
        }
        // What this line shares with the one recorded before (most of it, in a sorted list)
        // holds the same leftmost characters and the same white space.
        let p = record.start, n = Int(record.length)
        let shared = recorder.line.map { pick_common_prefix($0, p, min(recorder.count, n)) } ?? 0
        let positions = recorder.positions
        var k = 0
        while k < recorder.found && positions[k] < shared { k &+= 1 }
        var at = k > 0 ? positions[k &- 1] &+ 1 : 0
        while k < m {
            let found = pick_find_byte(p, at, n, bytes[k], folds[k])
            if found < 0 { break }
            positions[k] = found
            at = found &+ 1
            k &+= 1
        }
        recorder.found = k
        let white = recorder.whiteAt >= 0 && recorder.whiteAt < shared ? recorder.whiteAt : pick_find_white(p, shared, n)
        recorder.line = p
        recorder.count = n
        recorder.whiteAt = white
        var value = at < Int(LineBounds.unknown) ? UInt16(truncatingIfNeeded: at) : LineBounds.unknown
        // A bonus of 10: after white space, or at the start of a line that starts a word.
        if n > 0 && (white >= 0 || classes[Int(p[0])] >= CharClass.lower.rawValue) { value |= LineBounds.whiteBit }
        ends[index] = value
    }
}

/// `BoundsPass.extendedEnd`, `bound` and `keep` for a word of 64 lines at a time, in C
/// (`pick_extend_bound64`), as a first screen's scan bounds the lines an earlier term matched
/// (`Ranker.scanChunk` with a tally): the lines of a word of adopted memory that hold values
/// are checked, bounded, counted and noted as matches before any is looked up one by one,
/// and the scan sees only the others. What the per-line loop cost for each (the look-ahead
/// ring, the record, the Swift calls) was about as much as the check itself (bench/NOTES.md).
///
/// The first key of a term of one character has no earlier values: it notes each line's
/// (`pick_record_one64`: the exact end, and for score and base the best the character can
/// score at any of its places), and only the lines whose bound reaches the first screen are
/// scored. Scoring every line took about 100 ns a line (bench/NOTES.md).
struct BoundsWords {
    private let store: LineStore
    private var step: pick_bounds_step
    /// Lines below this are bounded (the bounds' lines, or every line for a first key).
    private let heldBelow: Int
    /// Whether this is a first key's step (`pick_record_one64`).
    private let firstKey: Bool
    private let matches: UnsafeMutablePointer<UInt64>
    /// How many lines were bounded (they matched).
    private(set) var bounded = 0

    /// The step of `pass` (one that `extends`, or one that records a term of one character:
    /// `firstKey`), counting bounds in `histogram` (of `levels` levels) and noting the lines
    /// bounded in `matches` (the search's `LineBits` words, of `lines` lines).
    init?(_ pass: BoundsPass, store: LineStore, histogram: UnsafeMutablePointer<Int>, levels: Int,
          matches: UnsafeMutablePointer<UInt64>, lines: Int) {
        guard pass.extends || pass.recordsOneCharacter else { return nil }
        self.store = store
        firstKey = !pass.extends
        heldBelow = firstKey ? lines : pass.heldBelow
        self.matches = matches
        step = pass.step(histogram: histogram, levels: levels)
    }

    /// `word` (bit k: line `start + k`, `start` a multiple of 64) without the lines this step
    /// bounded or found not matching: what is left holds no values, or lies where the step
    /// does not read (past the bounds' lines, or records of their own).
    @inline(__always)
    mutating func leaving(_ start: Int, _ word: UInt64) -> UInt64 {
        guard word != 0, start < heldBelow, start &+ 64 <= store.compact.count, let base = store.compactBase
        else { return word }
        var held = word
        if heldBelow < start &+ 64 { held &= (1 << UInt64(heldBelow &- start)) &- 1 }
        var count = 0
        let firstKey = self.firstKey
        let left = store.withCompactWord(start) { records, first in
            guard firstKey else {
                return pick_extend_bound64(base, records, first, held, start, &step, matches + (start >> 6), &count)
            }
            // (Lines whose characters are noted tell their white space without being read whole.)
            var sets: UnsafePointer<UInt32>? = nil
            if start &+ 64 <= store.characterSetCount {
                let setShift = PagedArray<UInt32>.elementsPerPageShift
                sets = UnsafePointer(store.characterSets.pages[start >> setShift].unsafelyUnwrapped
                                     + (start & ((1 << setShift) &- 1)))
            }
            return pick_record_one64(base, records, first, held, start, &step, matches + (start >> 6), &count,
                                     sets, CharacterSets.white)
        }
        bounded &+= count
        return word & ~held | left
    }
}

extension BoundsPass {
    /// This pass as `pick_extend_bound64` reads it.
    fileprivate func step(histogram: UnsafeMutablePointer<Int>, levels: Int) -> pick_bounds_step {
        pick_bounds_step(ends: ends, bases: bases, scores: scores, bytes: UnsafePointer(bytes), folds: UnsafePointer(folds),
                         m: m, kept: kept,
                         match: ScoreWeights.match, boundaryWhite: ScoreWeights.boundaryWhite,
                         boundaryDelimiter: ScoreWeights.boundaryDelimiter, lastComponent: ScoreWeights.lastComponent,
                         histogram: histogram, levels: levels, classes: BonusTables.classes,
                         bonuses: BonusTables.bonuses, firstCharMultiplier: ScoreWeights.firstCharMultiplier,
                         rests: rests, names: UnsafePointer(names), letter: addedLetter.map { 1 << UInt32($0) } ?? 0,
                         nameLetter: addedLetter.map { pick_name_bit(Int32($0)) } ?? 0)
    }

    /// The one letter this pass adds to a term that folds case ('a' + k; nil: it adds
    /// something else), which lines with fresh rests are checked for (`pick_extend_bound64`).
    private var addedLetter: Int? {
        guard rests != nil, m &- kept == 1, folds[m &- 1] == 0x20,
              (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[m &- 1]) else { return nil }
        return Int(bytes[m &- 1] &- UInt8(ascii: "a"))
    }

    /// Notes line `index`'s rest and name for the next key (`pick_note_rest`): its match of
    /// this pass's term ends at `end`.
    @inline(__always)
    func noteRest(_ index: Int, _ record: LineRecord, end: Int) {
        guard let rests, let names else { return }
        pick_note_rest(record.start, Int(record.length), end, bytes[m &- 1], folds[m &- 1], CharacterSets.table,
                       ScoreWeights.lastComponent, rests + index, names + index)
    }
}

/// One worker's memory of the line it recorded afresh last (`BoundsPass.record`): where the
/// term's characters first occur in it, and its first white space.
struct BoundsRecorder: ~Copyable {
    fileprivate let positions: UnsafeMutablePointer<Int>
    fileprivate var found = 0
    fileprivate var line: UnsafePointer<UInt8>? = nil
    fileprivate var count = 0
    fileprivate var whiteAt = -1

    init() { positions = .allocate(capacity: LineBounds.longestTerm) }

    deinit { positions.deallocate() }
}

extension LineStore {
    /// Calls `body` with the compact records of the 64 lines from `start` (a multiple of 64,
    /// `start + 64` at most `compact.count`), as the C steps read them (end, extra: two words
    /// a line), and where the first of those lines starts in `compactBase`.
    @inline(__always)
    func withCompactWord<R>(_ start: Int, _ body: (UnsafePointer<UInt32>, UInt32) -> R) -> R {
        let shift = PagedArray<CompactRecord>.elementsPerPageShift
        let page = compact.pages[start >> shift].unsafelyUnwrapped + (start & ((1 << shift) &- 1))
        let first = start == 0 ? 0 : compact[start &- 1].end &+ 1
        return page.withMemoryRebound(to: UInt32.self, capacity: 128) { body($0, first) }
    }
}
