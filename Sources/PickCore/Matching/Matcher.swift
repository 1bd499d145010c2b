import CPickScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a line matched a query: its total score and where the title match lies.
struct LineMatch {
    var score: Int32
    /// Byte offsets in the (possibly folded) title: first matched character, one past the last.
    var begin: Int
    var end: Int
    /// At least the score before `lastComponent` (see `LineBounds`): the score itself where
    /// the scorer does not tell them apart.
    var base: Int32

    init(score: Int32, begin: Int, end: Int, base: Int32? = nil) {
        self.score = score
        self.begin = begin
        self.end = end
        self.base = base ?? score
    }
}

/// Matches one query against lines of a store. Not thread-safe: one per worker thread.
///
/// A term matches a line when it matches the title, the section or the keywords. The
/// score comes from the title; a term found only in the section or keywords scores half
/// as much, so a line whose own name matches stays above one found by its tags.
final class LineMatcher {
    private let store: LineStore
    /// Every term of every group, in order; `groupEnds[g]` is one past group g's last term.
    private let terms: UnsafeMutableBufferPointer<PreparedTerm>
    private let groupEnds: UnsafeMutableBufferPointer<Int>
    /// Whether term t is a `'word'` term (exact, at word boundaries).
    private let boundaries: UnsafeMutableBufferPointer<Bool>
    /// The fuzzy terms that alone make up a group, which a line with fields must contain
    /// as a subsequence somewhere: all are checked over the whole line before any is scored.
    private let wholeLineChecks: UnsafeMutableBufferPointer<Int>
    /// Whether term t is one of `wholeLineChecks`.
    private let checkedOnWholeLine: UnsafeMutableBufferPointer<Bool>
    private let scratch = ScoringScratch()
    /// What `'word'` terms earn for what stands before the word (the query's scheme).
    private let wordBonuses: (white: Int32, delimiter: Int32, delimiters: [UInt8])
    /// Scores ASCII lines from where they part from the line before, for a lone fuzzy term.
    private var sharedPrefix: SharedPrefixScorer
    private let scoresSharedPrefixes: Bool

    /// Whether a fuzzy term's `begin` is where its best placement begins, for the
    /// tiebreaks that read it (`HitKeys.readsMatchBegin`); else where the term's first
    /// character first occurs in the scored window, which costs nothing more.
    private let placesBegin: Bool

    /// `matching`: the lines asked about are known to match (the shared-prefix scorer then
    /// takes them from the first). `placesBegin`: see the property.
    init(store: LineStore, query: Query, matching: Bool = false, placesBegin: Bool = false) {
        self.store = store
        self.placesBegin = placesBegin
        if matching { (tried, matched) = (1, 1) }
        wordBonuses = query.scheme.wordBonuses
        let flat = query.groups.flatMap { $0 }
        terms = .allocate(capacity: max(flat.count, 1))
        for (t, term) in flat.enumerated() { terms.initializeElement(at: t, to: PreparedTerm(term)) }
        termCount = flat.count
        let flags = query.groups.flatMap { $0.map(\.boundary) }
        boundaries = .allocate(capacity: max(flags.count, 1))
        _ = boundaries.initialize(from: flags)
        var ends: [Int] = []
        var total = 0
        for group in query.groups {
            total += group.count
            ends.append(total)
        }
        groupEnds = .allocate(capacity: max(ends.count, 1))
        _ = groupEnds.initialize(from: ends)
        groupCount = ends.count
        var checks: [Int] = []
        var first = 0
        for (g, group) in query.groups.enumerated() {
            if group.count == 1 && group[0].kind == .fuzzy && !group[0].inverse { checks.append(first) }
            first = ends[g]
        }
        wholeLineChecks = .allocate(capacity: max(checks.count, 1))
        _ = wholeLineChecks.initialize(from: checks)
        wholeLineCheckCount = checks.count
        checkedOnWholeLine = .allocate(capacity: max(flat.count, 1))
        checkedOnWholeLine.initialize(repeating: false)
        for t in checks { checkedOnWholeLine[t] = true }
        isLoneFuzzy = flat.count == 1 && flat[0].kind == .fuzzy && !flat[0].inverse && !flags[0]
        scoresSharedPrefixes = isLoneFuzzy && SharedPrefixScorer.scores(terms[0])
        sharedPrefix = scoresSharedPrefixes ? SharedPrefixScorer(terms[0]) : SharedPrefixScorer()
        requiredCharacters = CharacterSets.required(by: query)
        notedLines = requiredCharacters == 0 ? 0 : store.characterSetCount
        characterFilter = CharacterFilter(store: store, required: requiredCharacters)
        let prepared = terms
        orderFilter = OrderFilter(store: store, terms: checks.map { prepared[$0].bytes },
                                  caseSensitive: checks.map { prepared[$0].caseSensitive })
    }

    /// The lines that may hold the whole-line terms in order, 64 at a time (nil: no term
    /// is checked on the whole line).
    let orderFilter: OrderFilter?

    /// The lines that may hold the query's characters, 64 at a time (nil: any may).
    let characterFilter: CharacterFilter?

    /// Characters every matching line holds, and how many lines' characters are noted: a
    /// line below that lacking one is rejected without being read.
    private let requiredCharacters: UInt32
    private let notedLines: Int

    /// Lines this matcher looked at and lines that matched: when most match (a narrowing
    /// search, or a query most lines hold), fuzzy terms on ASCII text are checked from the end.
    private var tried = 0
    private var matched = 0
    @inline(__always) private var likelyMatch: Bool { matched &* 2 > tried }

    /// Whether line `index` is noted to lack a character the query requires.
    @inline(__always)
    private func lacksCharacters(_ index: Int) -> Bool {
        index < notedLines && store.characterSet(of: index) & requiredCharacters != requiredCharacters
    }

    /// Whether the query is one fuzzy term (the common case while typing): ASCII lines
    /// without fields go straight to the scorer.
    private let isLoneFuzzy: Bool

    private let wholeLineCheckCount: Int

    private let groupCount: Int
    private let termCount: Int
    /// Whether the term being matched belongs to the query's last group (see the scorer's essay).
    private var rewardsName = true

    deinit {
        terms.baseAddress!.deinitialize(count: termCount)
        terms.deallocate()
        boundaries.deallocate()
        groupEnds.deallocate()
        wholeLineChecks.deallocate()
        checkedOnWholeLine.deallocate()
    }

    /// A line looked up ahead of its turn: its record, whether its characters already rule
    /// it out (then it has no record), and whether `orderFilter` found the whole-line terms
    /// in it (then `passesWholeLineChecks` would only repeat that pass).
    struct Upcoming {
        var record: LineRecord
        var ruledOut: Bool
        var heldInOrder = false
    }

    private static let noRecord = LineRecord(start: UnsafePointer(bitPattern: 1)!, length: 0, extra: 0)

    /// Looks up line `index`, which `match` will read soon, and starts loading its bytes
    /// unless its characters already rule it out. Lines left after narrowing lie apart in
    /// memory: without this, each waits for its bytes in turn.
    /// `heldInOrder`: the line passed `orderFilter`.
    @inline(__always)
    func lookAhead(_ index: Int, heldInOrder: Bool = false) -> Upcoming {
        if lacksCharacters(index) { return Upcoming(record: Self.noRecord, ruledOut: true) }
        let record = store.record(index)
        pick_prefetch(record.start)
        pick_prefetch(record.start + 64)
        return Upcoming(record: record, ruledOut: false, heldInOrder: heldInOrder)
    }

    /// The match of line `index` (looked up ahead as `line`), or nil when the query rejects
    /// it. `next`: the line that will be asked for next, if known.
    @inline(__always)
    func match(_ index: Int, _ line: Upcoming, next: LineRecord?) -> LineMatch? {
        if line.ruledOut { return nil }
        tried &+= 1
        guard let found = matchRead(index, record: line.record, heldInOrder: line.heldInOrder, next: next)
        else { return nil }
        matched &+= 1
        return found
    }

    @inline(__always)
    private func matchRead(_ index: Int, record: LineRecord, heldInOrder: Bool, next: LineRecord?) -> LineMatch? {
        if record.extra == 0 && isLoneFuzzy {
            // What matchFields would do for this one term on a whole-title line.
            var text = ScoredText(bytes: record.start, count: Int(record.length), foldsASCII: !terms[0].caseSensitive,
                                  rewardsName: true, ascii: true)
            // Where most lines match (narrowing, mostly), from where the line parts from the
            // one before; where most do not, the fuzzy scorer's forward pass rejects sooner.
            if scoresSharedPrefixes && likelyMatch {
                let nameStart = text.nameStart
                if let column = sharedPrefix.resumeColumn(text.bytes, count: text.count, nameStart: nameStart) {
                    var following: (bytes: UnsafePointer<UInt8>, count: Int)? = nil
                    if let after = next, after.extra == 0 { following = (after.start, Int(after.length)) }
                    guard var found = sharedPrefix.score(text.bytes, count: text.count, nameStart: nameStart, from: column,
                                                         next: following)
                    else { return nil }
                    if placesBegin { found.begin = placementBegin(terms[0], text, end: found.end) ?? found.begin }
                    return LineMatch(score: found.score, begin: found.begin, end: found.end, base: sharedPrefix.base)
                }
            }
            text.likelyMatch = likelyMatch
            guard var found = Scorer.fuzzy(text, terms[0], scratch: scratch) else { return nil }
            if placesBegin { found.begin = placementBegin(terms[0], text, end: found.end) ?? found.begin }
            return LineMatch(score: found.score, begin: found.begin, end: found.end)
        }
        if record.extra == 0 {
            let text = record.start
            let n = Int(record.length)
            return matchFields(raw: text, folded: nil, fields: LineFields(title: 0..<n), foldedFields: nil, ascii: true)
        }
        if record.isPacked {
            // (What the order filter passed holds the terms in order: checking again rules
            // out only what scoring the fields would, at the cost of one more pass.)
            if !heldInOrder && !passesWholeLineChecks(raw: record.start, count: Int(record.length), folded: nil) {
                return nil
            }
            return matchFields(raw: record.start, folded: nil, fields: store.fields(of: record), foldedFields: nil,
                               ascii: record.extra & LineRecord.nonASCIIBit == 0)
        }
        let extra = store.extras[Int(record.extra) - 1]
        if extra.titleLength < record.length,
           !passesWholeLineChecks(raw: record.start, count: Int(record.length),
                                  folded: extra.folded.map { ($0, Int(extra.foldedLength)) }) { return nil }
        let fields = store.parsesFields ? LineFields.parse(record.start, count: Int(record.length))
                                        : LineFields(title: 0..<Int(record.length))
        var foldedFields: LineFields? = nil
        if let folded = extra.folded {
            foldedFields = store.parsesFields ? LineFields.parse(folded, count: Int(extra.foldedLength))
                                              : LineFields(title: 0..<Int(extra.foldedLength))
        }
        return matchFields(raw: record.start, folded: extra.folded.map { ($0, Int(extra.foldedLength)) },
                           fields: fields, foldedFields: foldedFields, rawLength: Int(record.length))
    }

    /// A line with fields: one pass over the whole line for each lone fuzzy term rules out
    /// most lines before their fields are even split (a term found in a field is found in
    /// the line). A term that must fold this line on the fly is left to `matchTerm`.
    @inline(__always)
    private func passesWholeLineChecks(raw: UnsafePointer<UInt8>, count: Int,
                                       folded: (UnsafePointer<UInt8>, Int)?) -> Bool {
        for c in 0..<wholeLineCheckCount {
            let t = wholeLineChecks[c]
            let whole: ScoredText
            if let (f, n) = folded {
                guard terms[t].stripsDiacritics && !terms[t].caseSensitive else { continue }
                whole = ScoredText(bytes: f, count: n, foldsASCII: false, rewardsName: false)
            } else {
                whole = ScoredText(bytes: raw, count: count, foldsASCII: !terms[t].caseSensitive, rewardsName: false)
            }
            if !Scorer.isSubsequence(whole, terms[t]) { return false }
        }
        return true
    }

    private func matchFields(raw: UnsafePointer<UInt8>, folded: (UnsafePointer<UInt8>, Int)?,
                             fields: LineFields, foldedFields: LineFields?, rawLength: Int = 0,
                             ascii: Bool = false) -> LineMatch? {
        var total: Int32 = 0
        var begin = Int.max
        var end = 0
        var t = 0
        for g in 0..<groupCount {
            var groupMatched = false
            let groupEnd = groupEnds[g]
            defer { t = groupEnd }
            while t < groupEnd {
                let term = t
                let boundary = boundaries[term]
                // Whether the whole-line check before matchFields already passed for it.
                var checked = checkedOnWholeLine[term]
                t += 1
                // Pick the text this term compares against.
                let text: UnsafePointer<UInt8>
                let textFields: LineFields
                var foldsASCII = false
                if let (f, _) = folded {
                    if terms[term].stripsDiacritics && !terms[term].caseSensitive {
                        text = f
                        textFields = foldedFields!
                    } else {
                        // Rare: a term that is case-sensitive or carries diacritics, on a
                        // non-ASCII line: fold this line for it on the fly.
                        let out = scratch.reserveTransformed(rawLength * 3 + 1)
                        let n = UTF8Codec.transform(raw, from: 0, to: rawLength, into: out,
                                                    caseFold: !terms[term].caseSensitive,
                                                    stripDiacritics: terms[term].stripsDiacritics)
                        text = UnsafePointer(out)
                        textFields = store.parsesFields ? LineFields.parse(text, count: n) : LineFields(title: 0..<n)
                        checked = false
                    }
                } else {
                    text = raw
                    textFields = fields
                    foldsASCII = !terms[term].caseSensitive
                }
                rewardsName = g == groupCount - 1
                let found = matchTerm(terms[term], boundary: boundary, text: text, fields: textFields,
                                      foldsASCII: foldsASCII, ascii: ascii && folded == nil, checkedWholeLine: checked)
                if terms[term].inverse {
                    if found == nil { groupMatched = true; break }
                    continue
                }
                if let found {
                    total &+= found.score
                    if found.end > 0 {
                        begin = min(begin, found.begin)
                        end = max(end, found.end)
                    }
                    groupMatched = true
                    break
                }
            }
            if !groupMatched { return nil }
        }
        return LineMatch(score: total, begin: begin == .max ? 0 : begin, end: end)
    }

    /// The term's score on the title, or half its score on the section or keywords.
    /// `end` is 0 when the match is not in the title.
    @inline(__always)
    private func matchTerm(_ term: borrowing PreparedTerm, boundary: Bool, text: UnsafePointer<UInt8>,
                           fields: LineFields, foldsASCII: Bool, ascii: Bool, checkedWholeLine: Bool) -> TermScore? {
        // A line with fields: one pass over the whole line rules out most lines at once,
        // since a term found in a field is found in the line.
        if term.kind == .fuzzy, !checkedWholeLine, let last = fields.keywords ?? fields.section {
            let whole = ScoredText(bytes: text, count: last.upperBound, foldsASCII: foldsASCII, rewardsName: false)
            if !Scorer.isSubsequence(whole, term) { return nil }
        }
        let titleText = ScoredText(bytes: text, count: fields.title.upperBound, foldsASCII: foldsASCII,
                                   rewardsName: rewardsName, ascii: ascii)
        if let s = score(term, boundary, titleText) { return s }
        if let field = fields.section, let s = scoreField(term, boundary, text, field, foldsASCII) { return s }
        if let field = fields.keywords, let s = scoreField(term, boundary, text, field, foldsASCII) { return s }
        return nil
    }

    @inline(__always)
    private func scoreField(_ term: borrowing PreparedTerm, _ boundary: Bool, _ text: UnsafePointer<UInt8>,
                            _ field: Range<Int>, _ foldsASCII: Bool) -> TermScore? {
        let fieldText = ScoredText(bytes: text + field.lowerBound, count: field.count,
                                   foldsASCII: foldsASCII, rewardsName: false)
        // Sections and keywords are not shown, so their fuzzy matches are scored by the
        // cheap greedy placement: long summaries in the keywords would otherwise cost a
        // full dynamic-programming pass per matching line.
        let found = term.kind == .fuzzy ? Scorer.greedy(fieldText, term) : score(term, boundary, fieldText)
        guard let s = found else { return nil }
        return TermScore(score: max(s.score / 2, 1), begin: 0, end: 0)
    }

    @inline(__always)
    private func score(_ term: borrowing PreparedTerm, _ boundary: Bool, _ text: ScoredText) -> TermScore? {
        switch term.kind {
        case .fuzzy:
            var text = text
            text.likelyMatch = likelyMatch
            guard var found = Scorer.fuzzy(text, term, scratch: scratch) else { return nil }
            if placesBegin { found.begin = placementBegin(term, text, end: found.end) ?? found.begin }
            return found
        case .exact:
            return boundary ? exactAtBoundary(term, text) : exact(term, text)
        case .prefix:
            let start = term.startsWithSpace ? 0 : leadingSpaces(text)
            guard hasBytes(term.bytes, in: text, at: start) else { return nil }
            return scoreRun(text, at: start, length: term.bytes.count)
        case .suffix:
            let end = text.count - (term.endsWithSpace ? 0 : trailingSpaces(text))
            let start = end - term.bytes.count
            guard start >= 0, hasBytes(term.bytes, in: text, at: start) else { return nil }
            return scoreRun(text, at: start, length: term.bytes.count)
        case .equal:
            let start = term.startsWithSpace ? 0 : leadingSpaces(text)
            let end = text.count - (term.endsWithSpace ? 0 : trailingSpaces(text))
            guard end - start == term.bytes.count, hasBytes(term.bytes, in: text, at: start) else { return nil }
            return scoreRun(text, at: start, length: term.bytes.count)
        }
    }

    /// Where the best placement of fuzzy `term` that ends before byte `end` of `text` begins
    /// (the highlight's traceback, `MatchPositions`), as fzf's chunk and pathname tiebreaks
    /// read it: for `ba` in `1 foobarbaz ba`, the trailing `ba`, not `foobarbaz`. Off the hot
    /// path: only those tiebreaks ask.
    @inline(never)
    private func placementBegin(_ term: borrowing PreparedTerm, _ text: ScoredText, end: Int) -> Int? {
        var scalars: [UInt32] = []
        var offsets: [Int] = []
        var i = 0
        while i < end {
            var (scalar, width) = UTF8Codec.decode(text.bytes, i, end)
            if text.foldsASCII && scalar < 0x80 { scalar = UInt32(lowerASCII(UInt8(scalar))) }
            scalars.append(scalar)
            offsets.append(i)
            i &+= width
        }
        guard let first = MatchPositions.fuzzy(Array(term.scalars), scalars)?.first else { return nil }
        return offsets[first]
    }

    /// Exact substring: the occurrence whose first character has the best word-start bonus.
    private func exact(_ term: borrowing PreparedTerm, _ text: ScoredText) -> TermScore? {
        let needle = term.bytes
        var best: (start: Int, bonus: Int32)? = nil
        var from = 0
        do {
            let lead = UnsafeBufferPointer(rebasing: needle[0..<1])
            while let at = Scorer.find(text, lead, from: from), at + needle.count <= text.count {
                if hasBytes(needle, in: text, at: at) {
                    let previous = at == 0 ? CharClass.white : CharClass.of(text.bytes[at - 1])
                    let b = bonus(previous: previous, current: CharClass.of(text.bytes[at]))
                    if best == nil || b > best!.bonus { best = (at, b) }
                    if b >= ScoreWeights.boundaryWhite { break }
                }
                from = at + 1
            }
        }
        guard let best else { return nil }
        return scoreRun(text, at: best.start, length: needle.count)
    }

    /// Exact substring with no letter or digit right before or after it (`'word'`): the
    /// first such occurrence. Classes are Unicode's (a letter or number is a word
    /// character; space, punctuation, symbols, emoji and marks are not), as in fzf.
    ///
    /// Scored as fzf scores its exact-boundary match, so that the kind of boundary ranks
    /// the lines: what stands before the word earns what the scheme gives it
    /// (`Scheme.wordBonuses`: ` xyz ` before `/xyz/` before `-xyz-` by default), and an
    /// underscore on either side costs a point or two (`-xyz-` before `-xyz_` before
    /// `_xyz-` before `_xyz_`: `snake_case` joins words rather than parting them). On top,
    /// a match and a white-space bonus per character and one more, which puts the term on
    /// the scale of the others in an OR group. No `lastComponent`: `/xyz/` would lose it.
    private func exactAtBoundary(_ term: borrowing PreparedTerm, _ text: ScoredText) -> TermScore? {
        let needle = term.bytes
        var from = 0
        let lead = UnsafeBufferPointer(rebasing: needle[0..<1])
        while let at = Scorer.find(text, lead, from: from), at + needle.count <= text.count {
            let end = at + needle.count
            let before: UInt32? = at == 0 ? nil : scalar(before: at, in: text)
            let after: UInt32? = end == text.count ? nil : UTF8Codec.decode(text.bytes, end, text.count).0
            if hasBytes(needle, in: text, at: at) && !(before.map(Folding.isWord) ?? false)
                && !(after.map(Folding.isWord) ?? false) {
                let weights = wordBonuses
                let bonus: Int32
                switch before {
                case nil: bonus = weights.white
                case let b? where Folding.isSpace(b): bonus = weights.white
                case let b? where b < 0x80 && weights.delimiters.contains(UInt8(b)): bonus = weights.delimiter
                default: bonus = ScoreWeights.boundary
                }
                var score = bonus
                var deduct = bonus &- ScoreWeights.boundary &+ 1
                if before == 0x5F {
                    score &-= deduct &+ 1
                    deduct = 1
                }
                if after == 0x5F { score &-= deduct }
                let length = Int32(term.scalars.count)
                score &+= ScoreWeights.match &* length &+ weights.white &* (length &+ 1)
                return TermScore(score: score, begin: at, end: end)
            }
            from = at + 1
        }
        return nil
    }

    /// The scalar that ends just before byte `i` (U+FFFD for an invalid byte, as decoding
    /// forward would give).
    private func scalar(before i: Int, in text: ScoredText) -> UInt32 {
        var k = i - 1
        while k > 0 && i - k < 4 && text.bytes[k] & 0xC0 == 0x80 { k -= 1 }
        let (value, width) = UTF8Codec.decode(text.bytes, k, text.count)
        return k + width == i ? value : 0xFFFD
    }

    private func scoreRun(_ text: ScoredText, at start: Int, length: Int) -> TermScore {
        let n = Scorer.load(text, from: start, to: start + length, into: scratch)
        var score = Scorer.runScore(bonuses: scratch.bonuses, start: 0, length: n)
        if n - 1 >= scratch.nameStart { score &+= ScoreWeights.lastComponent }
        return TermScore(score: score, begin: start, end: start + length)
    }

    @inline(__always)
    private func hasBytes(_ needle: UnsafeBufferPointer<UInt8>, in text: ScoredText, at start: Int) -> Bool {
        guard start >= 0, start + needle.count <= text.count else { return false }
        if text.foldsASCII {
            for k in 0..<needle.count where lowerASCII(text.bytes[start + k]) != needle[k] { return false }
        } else {
            for k in 0..<needle.count where text.bytes[start + k] != needle[k] { return false }
        }
        return true
    }

    /// Bytes of white space at the start of the text (Unicode spaces too, as fzf).
    private func leadingSpaces(_ text: ScoredText) -> Int {
        var i = 0
        while i < text.count {
            let b = text.bytes[i]
            if b < 0x80 {
                guard isSpace(b) else { break }
                i += 1
            } else {
                let (value, width) = UTF8Codec.decode(text.bytes, i, text.count)
                guard Folding.isSpace(value) else { break }
                i += width
            }
        }
        return i
    }

    /// Bytes of white space at the end of the text (Unicode spaces too, as fzf).
    private func trailingSpaces(_ text: ScoredText) -> Int {
        var end = text.count
        while end > 0 {
            let b = text.bytes[end - 1]
            if b < 0x80 {
                guard isSpace(b) else { break }
                end -= 1
            } else {
                var k = end - 1
                while k > 0 && end - k < 4 && text.bytes[k] & 0xC0 == 0x80 { k -= 1 }
                let (value, width) = UTF8Codec.decode(text.bytes, k, text.count)
                guard k + width == end, Folding.isSpace(value) else { break }
                end = k
            }
        }
        return text.count - end
    }
}

@inline(__always)
func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

extension PreparedTerm {
    /// Whether the term's first character is white space (then a prefix or equal term
    /// does not skip the line's leading space), Unicode spaces included.
    var startsWithSpace: Bool { Folding.isSpace(scalars[0]) }
    var endsWithSpace: Bool { Folding.isSpace(scalars[scalars.count - 1]) }
}
