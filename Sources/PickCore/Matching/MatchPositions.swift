// Where a query matched inside a title, for highlighting.
//
// The scorer only reports a score and a span; the screen needs every matched character.
// This places each positive term again on the one title being drawn (a few dozen rows per
// frame, so clarity beats speed here): exact-like terms at the occurrence the matcher
// prefers, fuzzy terms by a small dynamic program over the same bonuses the scorer uses
// (word starts, runs, gaps), with a traceback. It never changes which lines match.

/// The title characters a query matched, as byte offsets into the line.
public enum MatchPositions {
    /// Byte offsets (into `store.bytes(of: line)`) of the first byte of each title
    /// character the query matched, ascending. Terms found only in the section or
    /// keywords highlight nothing.
    public static func inTitle(of line: Int, store: LineStore, query: Query) -> [Int] {
        guard !query.isEmpty else { return [] }
        let bytes = store.bytes(of: line)
        let title = store.fields(of: line).title
        return inText(bytes, range: title, query: query)
    }

    /// The same for any UTF-8 text (`range` of `bytes`).
    public static func inText(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, query: Query) -> [Int] {
        guard !query.isEmpty, !range.isEmpty, let base = bytes.baseAddress else { return [] }
        var scalars: [UInt32] = []
        var offsets: [Int] = []
        scalars.reserveCapacity(range.count)
        offsets.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let (scalar, width) = UTF8Codec.decode(base, i, range.upperBound)
            scalars.append(scalar)
            offsets.append(i)
            i += width
        }
        // (Flags by scalar, not a set: a frame places every row's terms.)
        var marked = [Bool](repeating: false, count: scalars.count)
        for group in query.groups {
            for term in group where !term.inverse {
                let folded = scalars.map {
                    Folding.fold($0, caseFold: !term.caseSensitive, stripDiacritics: term.stripsDiacritics)
                }
                let needle = decodeScalars(term.text)
                guard !needle.isEmpty else { continue }
                if let hits = place(term.kind, needle, in: folded) {
                    for hit in hits { marked[hit] = true }
                    break
                }
            }
        }
        return marked.indices.compactMap { marked[$0] ? offsets[$0] : nil }
    }

    static func decodeScalars(_ bytes: [UInt8]) -> [UInt32] {
        bytes.withUnsafeBufferPointer { buf -> [UInt32] in
            guard let p = buf.baseAddress else { return [] }
            var out: [UInt32] = []
            var i = 0
            while i < buf.count {
                let (s, w) = UTF8Codec.decode(p, i, buf.count)
                out.append(s)
                i += w
            }
            return out
        }
    }

    /// Scalar indexes of `text` where the term lies, or nil when it does not match there.
    static func place(_ kind: TermKind, _ needle: [UInt32], in text: [UInt32]) -> [Int]? {
        // Leading and trailing white space as the matcher sees it (Unicode spaces too).
        let isSpace: (UInt32) -> Bool = Folding.isSpace
        func equal(at start: Int) -> Bool {
            guard start >= 0, start + needle.count <= text.count else { return false }
            for k in 0..<needle.count where text[start + k] != needle[k] { return false }
            return true
        }
        func run(_ start: Int) -> [Int] { Array(start..<start + needle.count) }
        switch kind {
        case .fuzzy:
            return fuzzy(needle, text)
        case .exact:
            var best: (start: Int, bonus: Int32)? = nil
            let classes = text.map(charClass)
            for start in 0...max(0, text.count - needle.count) where equal(at: start) {
                let b = bonusAt(start, classes)
                if best == nil || b > best!.bonus { best = (start, b) }
            }
            return best.map { run($0.start) }
        case .prefix:
            var start = 0
            if !isSpace(needle[0]) { while start < text.count && isSpace(text[start]) { start += 1 } }
            return equal(at: start) ? run(start) : nil
        case .suffix:
            var end = text.count
            if !isSpace(needle[needle.count - 1]) { while end > 0 && isSpace(text[end - 1]) { end -= 1 } }
            return equal(at: end - needle.count) ? run(end - needle.count) : nil
        case .equal:
            // The whole title (white space around it aside), not only its start.
            var start = 0
            if !isSpace(needle[0]) { while start < text.count && isSpace(text[start]) { start += 1 } }
            var end = text.count
            if !isSpace(needle[needle.count - 1]) { while end > start && isSpace(text[end - 1]) { end -= 1 } }
            return end - start == needle.count && equal(at: start) ? run(start) : nil
        }
    }

    // Character classes for word-start bonuses, as the scorer sees them.
    enum Class { case white, delimiter, nonWord, lower, upper, letter, digit }

    static func charClass(_ s: UInt32) -> Class {
        switch s {
        case 0x20, 0x09, 0x0A, 0x0D: return .white
        case 0x2F, 0x2C, 0x3A, 0x3B, 0x7C: return .delimiter
        case 0x61...0x7A: return .lower
        case 0x41...0x5A: return .upper
        case 0x30...0x39: return .digit
        case 0x80...: return .letter
        default: return .nonWord
        }
    }

    static func bonusAt(_ j: Int, _ classes: [Class]) -> Int32 {
        let current = classes[j]
        let previous: Class = j == 0 ? .white : classes[j - 1]
        let isWord: (Class) -> Bool = { [.lower, .upper, .letter, .digit].contains($0) }
        if isWord(current) {
            switch previous {
            case .white: return ScoreWeights.boundaryWhite
            case .delimiter: return ScoreWeights.boundaryDelimiter
            case .nonWord: return ScoreWeights.boundary
            case .lower where current == .upper: return ScoreWeights.camel
            case .lower, .upper, .letter: return current == .digit ? ScoreWeights.camel : 0
            default: return 0
            }
        }
        return current == .white ? ScoreWeights.boundaryWhite : ScoreWeights.nonWord
    }

    /// Best fuzzy placement by dynamic programming with traceback (greedy for huge titles).
    static func fuzzy(_ needle: [UInt32], _ text: [UInt32]) -> [Int]? {
        let m = needle.count, w = text.count
        guard m <= w else { return nil }
        // Subsequence check and greedy fallback.
        var greedy: [Int] = []
        var j = 0
        for q in needle {
            while j < w && text[j] != q { j += 1 }
            if j == w { return nil }
            greedy.append(j)
            j += 1
        }
        if m * w > 1 << 16 { return greedy }
        let classes = text.map(charClass)
        let bonuses = (0..<w).map { bonusAt($0, classes) }
        let invalid: Int32 = -(1 << 28)
        // D: best score with needle[i] matched exactly at j; M: best with needle[...i] within text[...j].
        var D = [Int32](repeating: invalid, count: m * w)
        var M = [Int32](repeating: invalid, count: m * w)
        var fromRun = [Bool](repeating: false, count: m * w)
        for i in 0..<m {
            for j in i..<w {
                let k = i * w + j
                if text[j] == needle[i] {
                    if i == 0 {
                        D[k] = ScoreWeights.match + bonuses[j] * ScoreWeights.firstCharMultiplier
                    } else if j > 0 {
                        let prev = (i - 1) * w + j - 1
                        var best = invalid
                        if D[prev] > invalid / 2 {
                            best = D[prev] + ScoreWeights.match + max(bonuses[j], ScoreWeights.consecutive)
                            fromRun[k] = true
                        }
                        if j >= 2, M[prev - 1] > invalid / 2 {
                            let viaGap = M[prev - 1] + ScoreWeights.gapStart + ScoreWeights.match + bonuses[j]
                            if viaGap > best { best = viaGap; fromRun[k] = false }
                        }
                        D[k] = best
                    }
                }
                let carried = j > 0 && M[k - 1] > invalid / 2 ? M[k - 1] + ScoreWeights.gapExtension : invalid
                M[k] = max(D[k], carried)
            }
        }
        var end = -1
        var bestScore = invalid
        for j in 0..<w where D[(m - 1) * w + j] > bestScore {
            bestScore = D[(m - 1) * w + j]
            end = j
        }
        guard end >= 0, bestScore > invalid / 2 else { return greedy }
        var positions = [Int](repeating: 0, count: m)
        var jj = end
        var i = m - 1
        while true {
            positions[i] = jj
            if i == 0 { break }
            if fromRun[i * w + jj] {
                jj -= 1
            } else {
                // Walk back along the gap to where needle[i-1] was placed.
                var k = jj - 2
                while k > 0 && M[(i - 1) * w + k] != D[(i - 1) * w + k] { k -= 1 }
                jj = k
            }
            i -= 1
        }
        return positions
    }
}
