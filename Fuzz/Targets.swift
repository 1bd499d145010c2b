import PickCore

// MARK: The line parser

/// LineStore fed in random chunks: every line comes back byte for byte, the line count is
/// the separator count (plus one for a last line without a separator), fields split as
/// DESIGN.md says, and sections name what the line's section field holds.
///
/// Input: flags (bit 0 NUL separator, bit 1 --plain, bit 2 repeat the body to cross the
/// store's block sizes), a seed, then the bytes.
enum LineParserTarget {
    static func run(_ input: [UInt8]) {
        var header = Header(input)
        let flags = header.byte()
        let seed = header.byte()
        var body = header.rest
        let separator: UInt8 = flags & 1 == 0 ? 0x0A : 0x00
        let parsesFields = flags & 2 == 0
        var largest = 64
        if flags & 4 != 0 && !body.isEmpty {
            let times = min(1 + Int(seed) * 16, 3_000_000 / body.count)
            body = Array([[UInt8]](repeating: body, count: max(times, 1)).joined())
            largest = 300_000
        }
        var dice = Dice(seed)
        let store = feedStore(body, separator: separator, parsesFields: parsesFields, dice: &dice,
                              largestChunk: largest)
        let expected = referenceLines(body, separator: separator)
        check(store.count == expected.count, "\(store.count) lines stored, \(expected.count) in the input")
        check(store.isFinished, "finish() did not mark the store finished")
        checkLines(store, expected: expected, parsesFields: parsesFields)

        // As a mapped file loads: the bytes adopted in place, in two halves split after a
        // separator past the middle, each scanned into a store of its own, the second's
        // lines then appended to the first's (compact records, renumbered sections).
        body.withUnsafeBytes { bytes in
            let middle = bytes.count / 2
            let cut = bytes[middle...].firstIndex(of: separator).map { $0 + 1 } ?? bytes.count
            let first = LineStore(separator: separator, parsesFields: parsesFields)
            let second = LineStore(separator: separator, parsesFields: parsesFields)
            let chunk = 1 + Int(seed) * 37
            first.adopt(UnsafeRawBufferPointer(rebasing: bytes[..<cut]), chunk: chunk, release: {})
            if cut < bytes.count {
                second.adopt(UnsafeRawBufferPointer(rebasing: bytes[cut...]), chunk: chunk, release: {})
                first.appendLines(of: second)
            }
            first.finish()
            checkLines(first, expected: expected, parsesFields: parsesFields)
        }
    }

    /// Every line of `store` is the expected one, byte for byte, with the expected fields
    /// and section.
    static func checkLines(_ store: LineStore, expected: [ArraySlice<UInt8>], parsesFields: Bool) {
        check(store.count == expected.count, "\(store.count) lines stored, \(expected.count) in the input")
        for (i, line) in expected.enumerated() {
            let got = store.bytes(of: i)
            check(got.elementsEqual(line), "line \(i) came back as \(Array(got)), read \(Array(line))")
            let fields = ReferenceFields(store.fields(of: i))
            let want = referenceFields(line, parsesFields: parsesFields)
            check(fields == want, "line \(i) fields \(fields), expected \(want)")
            let section = store.section(of: i)
            if let s = want.section {
                check(section >= 1 && section <= store.sectionCount, "line \(i) has section id \(section)")
                check(store.sectionName(section).elementsEqual(line.dropFirst(s.lowerBound).prefix(s.count)),
                      "line \(i) section name differs from its field")
            } else {
                check(section == 0, "line \(i) has no section field but section id \(section)")
            }
        }
    }
}

// MARK: The query parser and the matcher

/// A query over lines: the search must not crash, every result is a line of the input
/// (past the header lines) exactly once, groups partition the result by section, the
/// order is the same from a fresh engine, from a narrowing engine typing the query a
/// character at a time, and from filter mode; `--no-sort` keeps input order; options that
/// only order lines never change which lines match; and on ASCII lines a query of plain
/// lower-case words finds exactly the lines an obvious implementation finds.
///
/// Input: two flag bytes, then the query, a newline, and the lines.
enum SearchTarget {
    struct Setup {
        var matching: MatchingOptions
        var ranking: RankingOptions
        var parsesFields: Bool
        var skipped: Int
        var queryText: String
        var queryBytes: [UInt8]
        var linesBytes: [UInt8]
    }

    static func setup(_ input: [UInt8]) -> Setup {
        var header = Header(input)
        let a = header.byte(), b = header.byte()
        let rest = header.rest
        let cut = rest.firstIndex(of: 0x0A) ?? rest.count
        let queryBytes = Array(rest[..<cut])
        let linesBytes = cut < rest.count ? Array(rest[(cut + 1)...]) : []
        let caseMode: CaseMode = [.smart, .ignore, .respect, .smart][Int(a >> 2) & 3]
        let matching = MatchingOptions(fuzzy: a & 1 == 0, caseMode: caseMode, normalize: a & 2 == 0)
        let breaks: [[Tiebreak]] = [[.length], [.begin], [.end], [.index], [.length, .begin], [.end, .length],
                                    [.begin, .index], []]
        let ranking = RankingOptions(sorts: a & 16 == 0, reversesInput: a & 32 != 0,
                                     tiebreaks: breaks[Int(b) & 7])
        return Setup(matching: matching, ranking: ranking, parsesFields: a & 64 == 0,
                     skipped: Int(b >> 3) & 3, queryText: String(decoding: queryBytes, as: UTF8.self),
                     queryBytes: queryBytes, linesBytes: linesBytes)
    }

    static func run(_ input: [UInt8]) {
        let s = setup(input)
        var dice = Dice(UInt8(truncatingIfNeeded: input.count))
        let store = feedStore(s.linesBytes, separator: 0x0A, parsesFields: s.parsesFields, dice: &dice)
        let lines = referenceLines(s.linesBytes, separator: 0x0A)
        let engine = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        guard let result = engine.search(s.queryText) else { check(false, "a search with no cancellation returned nil"); return }
        checkWellFormed(result, store: store, skipped: s.skipped)

        // Same answer from a fresh engine, and again from the same one (its memory).
        let fresh = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        check(fresh.search(s.queryText)?.lines == result.lines, "two engines order the same search differently")
        check(engine.search(s.queryText)?.lines == result.lines, "a repeated search answers differently")
        check(fresh.searchAllInput(s.queryText).lines == result.lines, "filter mode orders differently")

        // Typed a character at a time (narrowing on remembered searches), then the same.
        let typing = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        let scalars = Array(s.queryText.unicodeScalars)
        var typed = String.UnicodeScalarView()
        for (k, scalar) in scalars.enumerated() {
            typed.append(scalar)
            if scalars.count > 24 && k % (scalars.count / 12) != 0 && k != scalars.count - 1 { continue }
            _ = typing.search(String(typed))
        }
        check(typing.search(s.queryText)?.lines == result.lines,
              "typing \(s.queryText.debugDescription) a character at a time finds different lines or order")

        // Typed for a screen of a few rows, with bounds kept whatever the input's size: each
        // answer's rows are the whole ranking's first, and its count is the whole count.
        let screen = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        screen.boundsFromLines = 0
        let rows = 1 + Int(input.count % 9)
        // `engine`'s first rows for `text` against a fresh engine's whole ranking (nil: the
        // search returned nil, reported); the whole ranking.
        func checkFirstRows(_ engine: SearchEngine, _ text: String, _ what: String) -> SearchResult? {
            guard let first = engine.search(text, firstRows: rows) else {
                check(false, "a first-rows search with no cancellation returned nil")
                return nil
            }
            let whole = SearchEngine(store: engine.store, matching: s.matching, ranking: s.ranking,
                                     skippedLines: s.skipped).search(text)!
            check(first.matchCount == whole.lines.count, "\(what) counts \(text.debugDescription) differently")
            check(first.lines.count >= min(rows, whole.lines.count)
                    && first.lines == Array(whole.lines.prefix(first.lines.count)),
                  "\(what) ranks \(text.debugDescription)'s first rows differently")
            return whole
        }
        typed = String.UnicodeScalarView()
        for (k, scalar) in scalars.prefix(24).enumerated() {
            typed.append(scalar)
            let text = String(typed)
            guard let whole = checkFirstRows(screen, text, "a first-rows search") else { return }
            if k % 3 == 2 { check(screen.search(text)?.lines == whole.lines, "the whole ranking after first rows differs") }
        }

        // The same over the lines adopted as a mapped file's are, each line's rests noted
        // between most keys (the picker's idle refinement on a large file): keys that add a
        // letter are checked from them (`LineBounds.rests`); then the query emptied and typed
        // again, which must not go on from ends a key left pending.
        let mapped = UnsafeMutableRawBufferPointer.allocate(byteCount: max(s.linesBytes.count, 1), alignment: 64)
        mapped.copyBytes(from: s.linesBytes)
        let adopted = LineStore(separator: 0x0A, parsesFields: s.parsesFields, large: true)
        adopted.adopt(UnsafeRawBufferPointer(start: mapped.baseAddress, count: s.linesBytes.count),
                      release: { mapped.deallocate() })
        adopted.finish()
        let rested = SearchEngine(store: adopted, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        rested.boundsFromLines = 0
        rested.restsFromLines = 0
        while !rested.prepareBounds(lines: 1 + Int(input.count % 50)) {}
        let again = Array(scalars.prefix(24)) + [" "] + Array(scalars.prefix(3))
        typed = String.UnicodeScalarView()
        for (k, scalar) in again.enumerated() {
            if k == min(scalars.count, 24) { typed = String.UnicodeScalarView() } else { typed.append(scalar) }
            let text = String(typed)
            guard let whole = checkFirstRows(rested, text, "a first-rows search from rests") else { return }
            if (k &+ Int(input.count)) % 4 != 3 { rested.refineBounds() }
            if k % 5 == 4 { check(rested.search(text)?.lines == whole.lines, "the whole ranking after rests differs") }
        }

        // Ranking options order lines but never change which lines match.
        let unsorted = SearchEngine(store: store, matching: s.matching,
                                    ranking: RankingOptions(sorts: false, reversesInput: false, tiebreaks: []),
                                    skippedLines: s.skipped).search(s.queryText)!
        check(Set(unsorted.lines) == Set(result.lines), "ranking options changed which lines match")
        // --no-sort: input order inside each section group.
        for group in unsorted.groups {
            let part = unsorted.lines[group.range]
            check(zip(part, part.dropFirst()).allSatisfy { $0 < $1 }, "--no-sort does not keep input order")
        }
        if s.queryText.unicodeScalars.allSatisfy({ $0 == " " }) {
            check(Set(result.lines) == Set((min(s.skipped, store.count)..<store.count).map { Int32($0) }),
                  "an empty query does not list every line")
        }

        checkAgainstOracle(s, store: store, lines: lines, result: result)

        // Once each line's characters are noted (as the picker does between searches, a
        // slice at a time), searches pass over lines lacking a query character: same answer.
        let slice = 1 + Int(input.count % 5)
        while !store.noteCharacters(limit: slice) {}
        let noted = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        check(noted.search(s.queryText)?.lines == result.lines, "noting the lines' characters changed the result")

        // Suggestions: at most the limit, each a piece of a candidate.
        let limit = 1 + Int(input.count % 7)
        let suggestions = Suggestions.suggest(s.queryText, in: store, limit: limit, skipping: s.skipped)
        check(suggestions.count <= limit, "\(suggestions.count) suggestions for a limit of \(limit)")
        for suggestion in suggestions {
            check(lines.contains { contains($0, suggestion) }, "suggestion \(suggestion) is in no line")
        }
    }

    static func checkWellFormed(_ result: SearchResult, store: LineStore, skipped: Int) {
        let first = min(skipped, store.count)
        var seen = Set<Int32>()
        for line in result.lines {
            check(Int(line) >= first && Int(line) < store.count, "result line \(line) is not a candidate")
            check(seen.insert(line).inserted, "line \(line) is listed twice")
        }
        var next = 0
        var sections = Set<Int>()
        for group in result.groups {
            check(group.range.lowerBound == next && !group.range.isEmpty, "groups do not tile the result")
            check(sections.insert(group.section).inserted, "section \(group.section) forms two groups")
            for line in result.lines[group.range] {
                check(store.section(of: Int(line)) == group.section, "line \(line) is grouped under another section")
            }
            next = group.range.upperBound
        }
        check(next == result.lines.count, "groups cover \(next) of \(result.lines.count) lines")
    }

    /// On ASCII lines, a query of lower-case words with fzf's operators (`'` `^` `$` `!`):
    /// a line matches when every term does, a term matches when it matches the title, the
    /// section or the keywords (an inverse term when it matches none of them), case ignored.
    static func checkAgainstOracle(_ s: Setup, store: LineStore, lines: [ArraySlice<UInt8>], result: SearchResult) {
        guard s.matching.caseMode != .respect,
              s.queryBytes.allSatisfy({ $0 == 0x20 || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0)
                                        || $0 == 0x21 || $0 == 0x27 || $0 == 0x5E || $0 == 0x24 })
        else { return }
        var terms: [OracleTerm] = []
        for word in s.queryBytes.split(separator: 0x20) {
            guard let term = OracleTerm(Array(word), fuzzy: s.matching.fuzzy) else { return }
            if !term.text.isEmpty { terms.append(term) }
        }
        guard !terms.isEmpty else { return }
        let found = Set(result.lines)
        for (i, line) in lines.enumerated() where i >= s.skipped && line.allSatisfy({ $0 < 0x80 }) {
            let lowered = line.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
            let f = referenceFields(line, parsesFields: s.parsesFields)
            let searched = [f.title, f.section, f.keywords].compactMap { $0 }.map { Array(lowered[$0]) }
            let wanted = terms.allSatisfy { term in
                let hit = searched.contains { term.matches($0) }
                return term.inverse ? !hit : hit
            }
            check(found.contains(Int32(i)) == wanted,
                  "line \(i) \(String(decoding: line, as: UTF8.self).debugDescription) should \(wanted ? "" : "not ")match \(s.queryText.debugDescription) (fuzzy: \(s.matching.fuzzy))")
        }
    }

    /// One term of the oracle's queries, read as Query.swift's grammar comment says.
    struct OracleTerm {
        enum Kind { case fuzzy, exact, prefix, suffix, equal }
        var kind: Kind
        var inverse = false
        var text: [UInt8]

        /// Nil for what the oracle leaves alone: `'word'` terms and operators inside the text.
        init?(_ word: [UInt8], fuzzy: Bool) {
            var text = word[...]
            kind = fuzzy ? .fuzzy : .exact
            if text.first == 0x21 { inverse = true; kind = .exact; text = text.dropFirst() }
            if text != [0x24] && text.last == 0x24 { kind = .suffix; text = text.dropLast() }
            if text.count >= 2 && text.first == 0x27 && text.last == 0x27 && text.count > 2 { return nil }
            if text.first == 0x27 {
                kind = fuzzy && !inverse ? .exact : .fuzzy
                text = text.dropFirst()
            } else if text.first == 0x5E {
                kind = kind == .suffix ? .equal : .prefix
                text = text.dropFirst()
            }
            guard !text.contains(where: { $0 == 0x21 || $0 == 0x27 || $0 == 0x5E || $0 == 0x24 }) else { return nil }
            self.text = Array(text)
        }

        func matches(_ field: [UInt8]) -> Bool {
            let space: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
            var lo = field.startIndex, hi = field.endIndex
            while lo < hi && space(field[lo]) { lo += 1 }
            while hi > lo && space(field[hi - 1]) { hi -= 1 }
            switch kind {
            case .fuzzy: return SearchTarget.isSubsequence(text, of: field)
            case .exact: return contains(field[...], text)
            case .prefix: return field[lo..<hi].starts(with: text)
            case .suffix: return field[lo..<hi].reversed().starts(with: text.reversed())
            case .equal: return field[lo..<hi].elementsEqual(text)
            }
        }
    }

    static func isSubsequence(_ needle: [UInt8], of text: [UInt8]) -> Bool {
        var k = 0
        for b in text where k < needle.count && b == needle[k] { k += 1 }
        return k == needle.count
    }
}

func contains(_ text: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= text.count else { return false }
    var i = text.startIndex
    while i + needle.count <= text.endIndex {
        if text[i..<i + needle.count].elementsEqual(needle) { return true }
        i += 1
    }
    return false
}

// MARK: Highlight positions

/// MatchPositions on every line (matching or not): offsets inside the title, strictly
/// increasing, each the first byte of a character as the screen draws it.
///
/// Input: the search target's layout.
enum PositionsTarget {
    static func run(_ input: [UInt8]) {
        let s = SearchTarget.setup(input)
        var dice = Dice(UInt8(truncatingIfNeeded: input.count))
        let store = feedStore(s.linesBytes, separator: 0x0A, parsesFields: s.parsesFields, dice: &dice)
        let query = Query(s.queryText, fuzzy: s.matching.fuzzy, caseMode: s.matching.caseMode,
                          normalize: s.matching.normalize)
        var single: SearchTarget.OracleTerm? = nil
        let words = s.queryBytes.split(separator: 0x20)
        if words.count == 1, s.matching.caseMode != .respect,
           words[0].allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x21
                                 || $0 == 0x27 || $0 == 0x5E || $0 == 0x24 }),
           let term = SearchTarget.OracleTerm(Array(words[0]), fuzzy: s.matching.fuzzy), !term.text.isEmpty {
            single = term
        }
        for line in 0..<min(store.count, 64) {
            let positions = MatchPositions.inTitle(of: line, store: store, query: query)
            let title = store.fields(of: line).title
            let starts = Set(TerminalText.glyphs(store.bytes(of: line), range: title).map(\.offset))
            check(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, "positions \(positions) not increasing")
            for p in positions {
                check(title.contains(p), "position \(p) outside the title \(title)")
                check(starts.contains(p), "position \(p) is inside a character")
            }
            // One plain term on an ASCII title: every character of it is marked, or none.
            if let term = single, !term.inverse {
                let raw = store.bytes(of: line)[title]
                guard raw.allSatisfy({ $0 < 0x80 }) else { continue }
                let lowered = raw.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
                let want = term.matches(lowered) ? term.text.count : 0
                check(positions.count == want, "\(positions.count) characters marked for \(s.queryText.debugDescription) in \(String(decoding: raw, as: UTF8.self).debugDescription), expected \(want)")
            }
        }
    }
}

// MARK: Options

/// Options.parse on arbitrary arguments and PICK_DEFAULT_OPTS: an answer or an error, never a crash.
///
/// Input: arguments separated by NUL; after a 0x01 byte, the PICK_DEFAULT_OPTS text.
enum OptionsTarget {
    static func run(_ input: [UInt8]) {
        let cut = input.firstIndex(of: 0x01) ?? input.count
        let arguments = input[..<cut].split(separator: 0, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let defaults = cut < input.count ? String(decoding: input[(cut + 1)...], as: UTF8.self) : nil
        do {
            _ = try Options.parse(arguments: arguments, defaults: defaults)
        } catch let error as OptionError {
            check(!error.message.isEmpty, "an empty error")
            check(error.message.unicodeScalars.allSatisfy(FrameTarget.isSafe),
                  "an error message that is not one plain line: \(error.message.debugDescription)")
        } catch {
            check(false, "Options.parse threw \(error)")
        }
    }
}
