import CPickScan
import Synchronization

// Close matches: lines that would match if one term of the query had one typo.
//
// What "one typo" means for a fuzzy term. A fuzzy term T matches a line that holds T's
// characters in order (a subsequence). Say the person meant M and typed T, one typo away:
//
// - an extra character (T is M with one character more): M is T with one character
//   deleted;
// - a wrong character (T is M with character i replaced): T with character i deleted is M
//   with character i deleted, which every line holding M holds;
// - two adjacent characters swapped (T is M with i and i+1 exchanged): T with one of the
//   two deleted is M with one character deleted, held by every line holding M;
// - a missing character (T is M with one character less): T is already a subsequence of
//   every line holding M. Fuzzy matching forgives it by itself: these are real matches.
//
// So every line that holds some one-typo reading of T holds T with one character deleted;
// and a line holding T with character i deleted holds a one-typo reading of T (that very
// text: T with an extra character). "T less one character is a subsequence of the line"
// is therefore exactly "some one-typo reading of T matches": not a guess that lets more
// through, and nothing missed. One matcher serves all four kinds: a subsequence match that
// may skip one character of the term. It is computed so:
//
// - The definition, which decides: the query's *variants*, each the query with one
//   eligible term replaced by that term less one character (a term of n characters gives
//   at most n, fewer where repeated letters give the same text, as the tt of "settings").
//   A line is a close match when it is not a real match and some variant matches it, by
//   the engine's own `LineMatcher`: fields, folding, smart case and `|` alternatives work
//   as they do for real matches, and a close match scores as its best variant does.
// - A quick check that rules lines out (`OneSkipCheck`): on an ASCII line, each term that
//   must hold alone (a group of one positive fuzzy term) is looked for in the whole line
//   in one pass forward and at most one backward: the greedy earliest placement of its
//   first characters, then the latest placement of its last ones; the term fits with
//   character i skipped when the first i end before the last n-i-1 begin. A line that
//   fails it matches no variant, and on one that passes only the variants that leave out
//   such a character are tried: the search costs a few real searches, not one per
//   variant. Before it,
//   where the picker has noted a line's characters (`CharacterSets`), a line that lacks
//   two of the characters those terms need, or one that a term without a typo needs, is
//   ruled out without being read.
// - While a word is typed after its typo, each keystroke looks only at the lines the
//   previous one found or matched: when the query is one term T that may carry a typo,
//   every close match of T+s (s typed after it) holds T less one character (if the typo
//   is in T) or all of T (if it is in s), so it was a close or a real match of T.
//
// Two refinements of that definition, so that a close match is one a person meant:
//
// - Plausible placement (`isPlausible`): a term less one character is in most long lines
//   when its characters may lie anywhere (`single` in a file list, `tmux` in `ps -ef`).
//   A typo is made in a word typed out, so the variant's characters must lie together:
//   at most one other character among them (where the typo was), separators aside.
// - Exchanged characters a little apart (`ramdon` for `random`, up to
//   `Tunables.Typos.farthestSwap`): leaving one character out does not read them, so they
//   are variants of their own (the term with the two exchanged). They need every
//   character of the term; lines the quick check rules out are tried with them alone.
//
// Which terms may carry the typo: fuzzy, positive terms of at least
// `Tunables.Typos.leastTermCharacters` characters (fewer, and a term less one character,
// two letters, is in nearly every line) and at most `longestTermBytes` bytes. Exact terms
// (`'term`, `'word'`, `^term`, `term$`, every plain term with `--exact`) say "exactly
// this": they get no typo. Neither do negations (`!term`): a typo there would hide lines
// the person did not ask to hide. Only one term carries a typo at a time, as the issue
// has it: "if one term had one typo".
//
// Where they go: after every real match, under a header of their own, ranked among
// themselves by score (then the ranking's tiebreaks, then input order), never grouped by
// section. The picker looks for them only when the real matches leave rows of the list
// empty (`PickSession`), after the real matches are drawn, so a keystroke's answer never
// waits for them; `--filter` only with `--typos`.

/// Close matches of a query (see above).
public enum CloseMatches {
    /// The header row above the close matches in the list.
    public static let header = "close matches"

    /// The query's variants: for each term that may carry a typo, the query with that term
    /// less one character, once per distinct text. Empty when no term may carry one.
    public static func variants(of query: Query) -> [Query] { skipVariants(of: query).map(\.query) }

    /// A variant: the query with term `term` of group `group` less one character, and
    /// which characters of the term leaving out gives it (bit k for character k; every
    /// bit from the 64th character on).
    struct Variant {
        var query: Query
        var group: Int
        var term: Int
        var skips: UInt64
        /// The term with two characters a little apart exchanged (`swapVariants`), not
        /// less one character.
        var swaps = false
        /// The variant's term alone, whose placement in the line must look typed
        /// (`isPlausible`).
        var alone: Query {
            var lone = query
            lone.groups = [[query.groups[group][term]]]
            return lone
        }
    }

    static func skipVariants(of query: Query) -> [Variant] {
        var variants: [Variant] = []
        for (g, group) in query.groups.enumerated() {
            for (t, term) in group.enumerated() where carriesTypo(term) {
                let scalars = MatchPositions.decodeScalars(term.text)
                var made: [[UInt8]: Int] = [:]
                for skipped in scalars.indices {
                    var text: [UInt8] = []
                    for (k, scalar) in scalars.enumerated() where k != skipped {
                        text.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
                    }
                    let bit: UInt64 = skipped < 64 ? 1 << UInt64(skipped) : .max
                    if let v = made[text] {
                        variants[v].skips |= bit
                        continue
                    }
                    var variant = query
                    variant.groups[g][t].text = text
                    made[text] = variants.count
                    variants.append(Variant(query: variant, group: g, term: t, skips: bit))
                }
                // Two characters exchanged a little apart (`ramdon` for `random`): leaving
                // one out does not read them; adjacent ones it does (see above).
                for i in scalars.indices {
                    for j in stride(from: i + 2, through: min(scalars.count - 1, i + Tunables.Typos.farthestSwap), by: 1) {
                        guard scalars[i] != scalars[j] else { continue }
                        var swapped = scalars
                        swapped.swapAt(i, j)
                        var text: [UInt8] = []
                        for scalar in swapped { text.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8) }
                        guard made[text] == nil else { continue }
                        var variant = query
                        variant.groups[g][t].text = text
                        made[text] = variants.count
                        variants.append(Variant(query: variant, group: g, term: t, skips: .max, swaps: true))
                    }
                }
            }
        }
        return variants
    }

    /// Whether a variant's term, placed at title bytes `begin..<end` of a line (`title`,
    /// the line's bytes when ASCII), looks like a word typed with one typo rather than letters
    /// strewn along the line: its characters lie together, with at most one other
    /// character among them (the typo's) besides separators (space, `/ _ - .`). Fuzzy
    /// matching's gaps are for abbreviations, which nobody types with a typo in them;
    /// without this a term of six letters less one is in most long lines (`single` in a
    /// file list, `tmux` in `ps -ef`). A term the scorer placed in the section or keywords
    /// (`end` 0) of a line that is not ASCII is not judged.
    /// On an ASCII title every placement counts (the scorer's may start far off, at a
    /// word start); otherwise the scorer's placement `begin..<end` in the folded text,
    /// with twice the room (bytes, not characters).
    static func isPlausible(term: Term, begin: Int, end: Int, title: UnsafeBufferPointer<UInt8>?) -> Bool {
        guard let title else { return end <= begin || end - begin <= 2 * (term.text.count + 1) }
        let t = term.text
        guard let first = t.first else { return true }
        let folds = !term.caseSensitive
        @inline(__always) func same(_ a: UInt8, _ b: UInt8) -> Bool {
            a == b || folds && (0x41...0x5A).contains(a) && a | 0x20 == b
        }
        @inline(__always) func isSeparator(_ b: UInt8) -> Bool {
            b == 0x20 || b == 0x2F || b == 0x5F || b == 0x2D || b == 0x2E
        }
        for start in title.indices where same(title[start], first) {
            // The nearest placement from here: each next character as early as it comes.
            var k = 1, at = start + 1, others = 0
            while k < t.count && at < title.count {
                if same(title[at], t[k]) { k += 1 } else if !isSeparator(title[at]) { others += 1 }
                if others > 1 { break }
                at += 1
            }
            if k == t.count && others <= 1 { return true }
        }
        return false
    }

    /// Whether some term of `query` may carry a typo.
    public static func apply(to query: Query) -> Bool {
        query.groups.contains { $0.contains(where: carriesTypo) }
    }

    static func carriesTypo(_ term: Term) -> Bool {
        guard term.kind == .fuzzy, !term.inverse, !term.boundary,
              term.text.count <= Tunables.Typos.longestTermBytes else { return false }
        // Characters, not bytes: continuation bytes do not start one.
        return term.text.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } >= Tunables.Typos.leastTermCharacters
    }

    /// What a close-match search leaves for the next: its query's one term, the lines it
    /// looked at (input size, header lines, scope), and every line that was a close or a
    /// real match.
    struct Memory {
        var term: Term
        var count: Int
        var first: Int
        var scope: Int
        var lines: LineBits
    }

    /// The lone term of `query` if a search for it can leave a `Memory`.
    static func loneTerm(_ query: Query) -> Term? {
        guard query.groups.count == 1, query.groups[0].count == 1, carriesTypo(query.groups[0][0]) else { return nil }
        return query.groups[0][0]
    }

    /// Byte offsets of the title characters to highlight in a close match: those of the
    /// variant that places the most characters in the title.
    public static func positions(inTitleOf line: Int, store: LineStore, query: Query) -> [Int] {
        var best: [Int] = []
        for variant in variants(of: query) {
            let found = MatchPositions.inTitle(of: line, store: store, query: variant)
            if found.count > best.count { best = found }
        }
        return best
    }
}

extension SearchEngine {
    /// The close matches of `text` (see CloseMatches.swift), ranked: lines of the store that
    /// are not among `matches` (every real match in the scope) and that some variant of
    /// the query matches. With `scope` > 0, only lines of that section; with `limit`, only
    /// the best `limit`. Empty when no term may carry a typo; nil when cancelled.
    public func closeMatches(_ text: String, excluding matches: [Int32], scope: Int = 0, limit: Int? = nil,
                             cancellation: Cancellation? = nil) -> [Int32]? {
        let query = parse(text)
        let variants = CloseMatches.skipVariants(of: query)
        let total = store.count
        let first = min(skippedLines, total)
        guard !variants.isEmpty, first < total, limit ?? 1 > 0 else { return [] }
        let real = LineBits(lines: total)
        defer { withExtendedLifetime(real) {} }
        let realWords = real.words
        for line in matches where Int(line) < total { LineBits.insert(Int(line), into: realWords) }
        let check = OneSkipCheck(query)
        let noted = store.characterSetCount
        // A query that extends the last one's term looks only at what that one found.
        let lone = CloseMatches.loneTerm(query)
        let previous = closeMemory.withLock { $0 }
        var within: LineBits? = nil
        if let lone, let previous, previous.count == total, previous.first == first, previous.scope == scope,
           previous.term.caseSensitive == lone.caseSensitive, previous.term.stripsDiacritics == lone.stripsDiacritics,
           lone.text.starts(with: previous.term.text) {
            within = previous.lines
        }
        let withinWords = within?.words
        // Every close match found (and the real ones), for the next search.
        let kept = lone != nil ? LineBits(lines: total) : nil
        let keptWords = kept?.words
        defer { withExtendedLifetime((within, kept)) {} }
        let keys = RankKeyMaker(ranking)
        // Chunks of whole words of the bit sets, so that workers write words of their own.
        let chunk = Tunables.Typos.chunkLines
        let chunks = (total + chunk - 1) / chunk
        let nextChunk = Atomic<Int>(0)
        let found = Locked<[RankedHit]>([])
        Parallel.run(min(Parallel.cores, chunks)) { _ in
            let matchers = variants.map { LineMatcher(store: store, query: $0.query, placesBegin: keys.readsMatchBegin) }
            // Each variant's term alone, for where it lies in the line (isPlausible).
            let alone = variants.map { LineMatcher(store: store, query: $0.alone) }
            let terms = variants.map { $0.query.groups[$0.group][$0.term] }
            let hasSwaps = variants.contains(where: \.swaps)
            let allCharacters = check.allCharacters
            // Which quick-checked term each variant changes (-1: none), and which
            // characters it leaves out.
            let checked = variants.map { check.index(ofGroup: $0.group) }
            let skips = variants.map(\.skips)
            let scratch = UnsafeMutablePointer<Int>.allocate(capacity: OneSkipCheck.longestTerm + 1)
            let skippable = UnsafeMutablePointer<UInt64>.allocate(capacity: max(check.count, 1))
            defer {
                scratch.deallocate()
                skippable.deallocate()
            }
            var hits: [RankedHit] = []
            while cancellation?.isCancelled != true {
                let c = nextChunk.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { break }
                for i in max(first, c * chunk)..<min(total, (c + 1) * chunk) {
                    let bit: UInt64 = 1 << UInt64(i & 63)
                    if let withinWords, withinWords[i >> 6] & bit == 0 { continue }
                    if realWords[i >> 6] & bit != 0 { continue }
                    if scope > 0 && store.section(of: i) != scope { continue }
                    // (Exchanged characters need every character of the terms.)
                    var swapsFit = hasSwaps
                    if i < noted {
                        let set = store.characterSet(of: i)
                        if check.lacksCharacters(set) { continue }
                        swapsFit = swapsFit && allCharacters & ~set == 0
                    }
                    let record = store.record(i)
                    let ascii = store.isASCII(i)
                    var onlySwaps = false
                    if ascii && !check.passes(record.start, Int(record.length), scratch: scratch, skippable: skippable) {
                        guard swapsFit else { continue }
                        onlySwaps = true
                    }
                    var best: LineMatch? = nil
                    var matched = false
                    for (v, matcher) in matchers.enumerated() {
                        if onlySwaps && !variants[v].swaps || !swapsFit && variants[v].swaps { continue }
                        // (A variant that leaves out a character the line cannot spare fails.)
                        if ascii, !onlySwaps, checked[v] >= 0, skippable[checked[v]] & skips[v] == 0 { continue }
                        guard let m = matcher.match(i, matcher.lookAhead(i), next: nil) else { continue }
                        matched = true
                        if let b = best, m.score <= b.score { continue }
                        // (The whole line: a term may match in the section or keywords.)
                        let title = ascii ? UnsafeBufferPointer(start: record.start, count: Int(record.length)) : nil
                        var placed = (begin: 0, end: 0)
                        if title == nil {
                            guard let p = alone[v].match(i, alone[v].lookAhead(i), next: nil) else { continue }
                            placed = (p.begin, p.end)
                        }
                        guard CloseMatches.isPlausible(term: terms[v], begin: placed.begin, end: placed.end,
                                                       title: title) else { continue }
                        best = m
                    }
                    // (Kept for the next keystroke whether or not plausible: the next term's
                    // close matches are among what this one's variants matched.)
                    if matched, let keptWords { keptWords[i >> 6] |= bit }
                    guard let best else { continue }
                    hits.append(keys.hit(index: i, match: best, shape: store.titleShape(of: i, record: record)))
                }
                if let limit, hits.count > limit * 4 {
                    hits.sort()
                    hits.removeLast(hits.count - limit)
                }
            }
            found.withLock { $0 += hits }
        }
        if cancellation?.isCancelled == true { return nil }
        if let lone, let kept, let keptWords {
            for w in 0..<kept.wordCount { keptWords[w] |= realWords[w] }
            closeMemory.withLock {
                $0 = CloseMatches.Memory(term: lone, count: total, first: first, scope: scope, lines: kept)
            }
        }
        var hits = found.withLock { $0 }
        if ranking.sorts {
            hits.sort()
        } else {
            // Input order (reversed with --tac), as the real matches keep it.
            hits.sort { ($0.secondary & 0xFFFF_FFFF) < ($1.secondary & 0xFFFF_FFFF) }
        }
        let excludedLines = excluded.withLock { $0 }
        if !excludedLines.isEmpty { hits.removeAll { excludedLines.contains(Int32(truncatingIfNeeded: keys.index(of: $0))) } }
        if let limit, hits.count > limit { hits.removeLast(hits.count - limit) }
        return hits.map { Int32(truncatingIfNeeded: keys.index(of: $0)) }
    }
}

/// The quick check of CloseMatches.swift: whether every term that must hold alone could
/// hold in an ASCII line with at most one of its characters skipped (none for a term that
/// may not carry a typo). A line that fails matches no variant of the query; one that
/// passes may still match none (the variants decide).
///
/// Hot path: it reads every line of the input, so the terms live in one buffer (no
/// reference counting per line).
final class OneSkipCheck: @unchecked Sendable {
    /// Terms longer than this (bytes) are left to the variants (none that carries a typo).
    static let longestTerm = Tunables.Typos.longestTermBytes

    /// How many terms are checked.
    let count: Int
    /// Term c's bytes are `bytes[starts[c]..<starts[c + 1]]`.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let starts: UnsafeMutablePointer<Int>
    /// Whether term c folds ASCII case, and whether it may leave out a character.
    private let folds: UnsafeMutablePointer<Bool>
    private let mayskip: UnsafeMutablePointer<Bool>
    /// The query group each term is.
    private let groups: [Int]
    /// The characters (`CharacterSets` bits) every close match holds, and those of which
    /// it may lack one (a term that may carry the typo needs them).
    private let required: UInt32
    private let spared: UInt32
    /// Every character (`CharacterSets` bits) the terms hold.
    let allCharacters: UInt32

    init(_ query: Query) {
        var required: UInt32 = 0, spared: UInt32 = 0
        for group in query.groups where group.count == 1 && !group[0].inverse {
            var bits: UInt32 = 0
            for byte in group[0].text where byte < 0x80 { bits |= CharacterSets.table[Int(byte)] }
            if CloseMatches.carriesTypo(group[0]) { spared |= bits } else { required |= bits }
        }
        self.required = required
        self.spared = spared & ~required
        allCharacters = required | spared
        var terms: [(group: Int, term: Term)] = []
        for (g, group) in query.groups.enumerated() where group.count == 1 {
            let term = group[0]
            // ASCII terms only: the check reads raw bytes.
            guard term.kind == .fuzzy, !term.inverse, term.text.count <= Self.longestTerm,
                  term.text.allSatisfy({ $0 < 0x80 }) else { continue }
            terms.append((g, term))
        }
        count = terms.count
        groups = terms.map(\.group)
        let all = terms.flatMap(\.term.text)
        bytes = .allocate(capacity: max(all.count, 1))
        bytes.initialize(from: all, count: all.count)
        starts = .allocate(capacity: count + 1)
        folds = .allocate(capacity: max(count, 1))
        mayskip = .allocate(capacity: max(count, 1))
        var at = 0
        for (c, (_, term)) in terms.enumerated() {
            starts[c] = at
            at += term.text.count
            folds[c] = !term.caseSensitive
            mayskip[c] = CloseMatches.carriesTypo(term)
        }
        starts[count] = at
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
        folds.deallocate()
        mayskip.deallocate()
    }

    /// The checked term that is group `group` of the query, or -1.
    func index(ofGroup group: Int) -> Int { groups.firstIndex(of: group) ?? -1 }

    /// Whether a line with the characters `noted` (`CharacterSets`) can be no close match:
    /// it lacks a character that a term without a typo needs, or two that any terms need
    /// (one typo takes away one character).
    @inline(__always)
    func lacksCharacters(_ noted: UInt32) -> Bool {
        let missing = (required | spared) & ~noted
        return missing & required != 0 || missing & (missing &- 1) != 0
    }

    /// Whether the ASCII line `p[0..<n]` passes; `scratch` holds `longestTerm + 1` ints.
    /// `skippable[c]` is set to the characters checked term c may leave out and still fit
    /// (`skippable(_:in:_:folds:ends:)`).
    @inline(__always)
    func passes(_ p: UnsafePointer<UInt8>, _ n: Int, scratch: UnsafeMutablePointer<Int>,
                skippable: UnsafeMutablePointer<UInt64>) -> Bool {
        for c in 0..<count {
            let t = UnsafeBufferPointer(start: bytes + starts[c], count: starts[c + 1] &- starts[c])
            let fits = mayskip[c] ? Self.skippable(t, in: p, n, folds: folds[c], ends: scratch)
                                  : Self.holds(t, in: p, n, folds: folds[c]) ? UInt64.max : 0
            if fits == 0 { return false }
            skippable[c] = fits
        }
        return true
    }

    /// Whether `t` is a subsequence of `p[0..<n]`.
    @inline(__always)
    static func holds(_ t: UnsafeBufferPointer<UInt8>, in p: UnsafePointer<UInt8>, _ n: Int, folds: Bool) -> Bool {
        var from = 0
        for c in t {
            let at = pick_find_byte(p, from, n, c, foldBits(for: c, folds: folds))
            if at < 0 { return false }
            from = at &+ 1
        }
        return true
    }

    /// Which characters of `t` (64 at most) can be left out for the rest to be a
    /// subsequence of `p[0..<n]`: bit i for character i; every bit when all of `t` is one
    /// (leaving out any character still fits); 0 when none can.
    /// `ends[k]`: where the greedy earliest placement of `t[0..<k]` ends.
    static func skippable(_ t: UnsafeBufferPointer<UInt8>, in p: UnsafePointer<UInt8>, _ n: Int, folds: Bool,
                          ends: UnsafeMutablePointer<Int>) -> UInt64 {
        let m = t.count
        ends[0] = 0
        var k = 0
        while k < m {
            let at = pick_find_byte(p, ends[k], n, t[k], foldBits(for: t[k], folds: folds))
            if at < 0 { break }
            k &+= 1
            ends[k] = at &+ 1
        }
        if k == m { return .max }
        // t[k] is not after t[0..<k]: the character left out is one of t[0...k] (the last
        // one, when k is the last). Place the last characters as late as they go; t[i]
        // can be left out when t[0..<i] ends at or before where t[i+1..<m] begins.
        var skippable: UInt64 = k == m - 1 ? 1 << UInt64(m - 1) : 0
        var start = n
        var j = m - 1
        while j >= 1 {
            let at = pick_last_byte_after(p, 0, start, t[j], foldBits(for: t[j], folds: folds))
            if at < 0 { break }
            start = at
            // t[j..<m] begins at `start`: leaving out t[j-1] needs t[0..<j-1] to end by then.
            if j - 1 <= k && ends[j - 1] <= start { skippable |= 1 << UInt64(j - 1) }
            j &-= 1
        }
        return skippable
    }
}
