#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The suggestion ranker behind Tab completion, ghost text and `pick --complete`.
///
/// Over the titles and keywords, folded (case and diacritics): first those that start with
/// the folded text, in input order; then those that contain it; duplicates by folded form
/// dropped; at most `limit`. Nothing for empty text, and nothing once the text already
/// equals a whole suggestion (there is nothing left to complete). `pick --complete` prints
/// these; the picker's Tab and ghost text take from them only what extends the query
/// (Completion.swift).
public enum Suggestions {
    /// Suggestions for `text` among the store's lines, as the candidates' own bytes.
    ///
    /// Runs on every keystroke over the whole input, so it allocates only for the few
    /// suggestions it keeps: ASCII candidates are compared with case folded on the fly,
    /// others through one reused buffer.
    ///
    /// `among`, when given, is the lines to look at, in any order: the picker passes the
    /// lines its list shows (the search's matches in the current scope), so that Tab
    /// completes from what is on screen, and a big input costs a keystroke only its
    /// matches. `parts` sets how many parts the lines are looked at in (default: one per
    /// core from 20,000 lines on); any number gives the same suggestions.
    public static func suggest(_ text: String, in store: LineStore, limit: Int, skipping skipped: Int = 0,
                               among: [Int32]? = nil, parts chosenParts: Int? = nil) -> [[UInt8]] {
        let folded = fold(Array(text.utf8))
        guard !folded.isEmpty, limit > 0 else { return [] }
        let count = store.count
        // Input order: the candidates given, sorted, or every line.
        let order = among.map { inInputOrder($0, count: count, from: skipped) }
        let total = order?.count ?? max(0, count - skipped)
        // Large inputs are looked at in parts on every core, each part keeping its own
        // first suggestions; merged in input order they are the ones a single pass keeps
        // (see `Found.merge`).
        let parts = max(1, min(chosenParts ?? (total >= 20_000 ? Parallel.cores : 1), max(total, 1)))
        let found = UnsafeMutableBufferPointer<Found>.allocate(capacity: parts)
        _ = found.initialize(from: repeatElement(Found(), count: parts))
        defer { found.deinitialize().deallocate() }
        let run = { (part: Int) in
            let lo = total * part / parts, hi = total * (part + 1) / parts
            found[part] = folded.withUnsafeBufferPointer { query in
                collect(query, in: store, limit: limit) { visit in
                    for k in lo..<hi {
                        if !visit(order.map { Int($0[k]) } ?? skipped + k) { return }
                    }
                }
            }
        }
        Parallel.run(parts, run)
        return Found.merge(Array(found), limit: limit)
    }

    /// What one part of the input suggests: its first `limit` distinct prefixes and first
    /// distinct containing candidates (while they and the prefixes are under `limit`), in
    /// input order, and whether a candidate equals the text.
    struct Found {
        var prefixed: [[UInt8]] = []
        var containing: [[UInt8]] = []
        var prefixedKeys: [[UInt8]] = []
        var containingKeys: [[UInt8]] = []
        var equal = false

        /// The parts' suggestions as one pass over all of them would keep. A part keeps
        /// at least `limit` minus its own prefix count of containing candidates once it
        /// stops taking them, and the merged prefixes are at least as many as any part's,
        /// so every containing candidate the merged list needs is there.
        static func merge(_ parts: [Found], limit: Int) -> [[UInt8]] {
            if parts.contains(where: \.equal) { return [] }
            var keys = Set<[UInt8]>()
            var prefixed: [[UInt8]] = [], containing: [[UInt8]] = []
            for part in parts {
                for (key, line) in zip(part.prefixedKeys, part.prefixed) where prefixed.count < limit {
                    if keys.insert(key).inserted { prefixed.append(line) }
                }
            }
            for part in parts {
                for (key, line) in zip(part.containingKeys, part.containing) where prefixed.count + containing.count < limit {
                    if keys.insert(key).inserted { containing.append(line) }
                }
            }
            return prefixed + containing
        }
    }

    /// Looks at the lines `lines` hands to its visitor, in input order, stopping when the
    /// visitor returns false (a candidate equals the text).
    private static func collect(_ query: UnsafeBufferPointer<UInt8>, in store: LineStore, limit: Int,
                                lines: ((Int) -> Bool) -> Void) -> Found {
        var found = Found()
        var scratch = [UInt8](repeating: 0, count: 256)
        /// Looks at one candidate; false (and `found.equal`) when it equals the text: nothing
        /// to complete.
        func consider(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, lineIsASCII: Bool) -> Bool {
            let start = bytes.baseAddress! + range.lowerBound
            let full = found.prefixed.count >= limit
            // Once enough prefixes are found only an equal candidate still matters, and
            // one of another length cannot be equal (folding at most triples a byte).
            if full && (range.count * 3 < query.count || range.count > query.count * 4) { return true }
            var isASCII = lineIsASCII
            if !isASCII {
                isASCII = true
                for i in 0..<range.count where start[i] >= 0x80 { isASCII = false; break }
            }
            if full && isASCII && range.count != query.count { return true }
            var candidate = ScoredText(bytes: start, count: range.count, foldsASCII: true, rewardsName: false)
            if !isASCII {
                if scratch.count < range.count * 3 { scratch = [UInt8](repeating: 0, count: range.count * 3) }
                let n = scratch.withUnsafeMutableBufferPointer { out in
                    UTF8Codec.transform(start, from: 0, to: range.count, into: out.baseAddress!,
                                        caseFold: true, stripDiacritics: true)
                }
                candidate = scratch.withUnsafeBufferPointer {
                    ScoredText(bytes: $0.baseAddress!, count: n, foldsASCII: false, rewardsName: false)
                }
            }
            // `scratch` is not resized below, so the pointer in `candidate` stays valid.
            // Once the list is full, only a candidate that starts with the text can
            // still earn a place: its first bytes say so, without a scan of the rest.
            let taken = found.prefixed.count + found.containing.count
            if isASCII && !(taken < limit ? contains(query, in: candidate) : hasFolded(query, in: candidate, at: 0)) {
                return true
            }
            let isPrefix = hasFolded(query, in: candidate, at: 0)
            if isPrefix && candidate.count == query.count {
                found.equal = true
                return false
            }
            let wanted = isPrefix ? found.prefixed.count < limit
                                  : taken < limit && (isASCII || contains(query, in: candidate))
            guard wanted else { return true }
            let key = UnsafeBufferPointer(start: candidate.bytes, count: candidate.count)
                .map { candidate.foldsASCII ? lowerASCII($0) : $0 }
            if found.prefixedKeys.contains(key) || found.containingKeys.contains(key) { return true }
            if isPrefix {
                found.prefixed.append(Array(bytes[range]))
                found.prefixedKeys.append(key)
            } else {
                found.containing.append(Array(bytes[range]))
                found.containingKeys.append(key)
            }
            return true
        }
        lines { line in
            let bytes = store.bytes(of: line)
            let fields = store.fields(of: line)
            let ascii = store.isASCII(line)
            if !fields.title.isEmpty && !consider(bytes, fields.title, lineIsASCII: ascii) { return false }
            // A keyword can only complete the text if its field contains the text: on
            // ASCII fields one scan rules out most lines before splitting them into words.
            if let k = fields.keywords, !ascii || contains(query, in: ScoredText(
                bytes: bytes.baseAddress! + k.lowerBound, count: k.count, foldsASCII: true, rewardsName: false)) {
                var start = k.lowerBound
                for i in k where bytes[i] == 0x2C || bytes[i] == 0x20 {
                    if start < i && !consider(bytes, start..<i, lineIsASCII: ascii) { return false }
                    start = i + 1
                }
                if start < k.upperBound && !consider(bytes, start..<k.upperBound, lineIsASCII: ascii) { return false }
            }
            return true
        }
        return found
    }

    /// The lines of `lines` in skipped..<count, in input order: marked in a bitmap and read
    /// back, linear where a sort of a few hundred thousand lines is not.
    static func inInputOrder(_ lines: [Int32], count: Int, from skipped: Int) -> [Int32] {
        var bits = [UInt64](repeating: 0, count: (count + 63) / 64)
        var n = 0
        for line in lines where Int(line) >= skipped && Int(line) < count {
            bits[Int(line) >> 6] |= 1 << UInt64(line & 63)
            n += 1
        }
        var out: [Int32] = []
        out.reserveCapacity(n)
        for (w, word) in bits.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                out.append(Int32(w << 6 | rest.trailingZeroBitCount))
                rest &= rest &- 1
            }
        }
        return out
    }

    /// Whether `query` (folded) stands at `at` in the candidate, folding ASCII case on the fly.
    @inline(__always)
    private static func hasFolded(_ query: UnsafeBufferPointer<UInt8>, in text: ScoredText, at: Int) -> Bool {
        guard at + query.count <= text.count else { return false }
        for k in 0..<query.count {
            let b = text.bytes[at + k]
            if (text.foldsASCII ? lowerASCII(b) : b) != query[k] { return false }
        }
        return true
    }

    private static func contains(_ query: UnsafeBufferPointer<UInt8>, in text: ScoredText) -> Bool {
        let lead = UnsafeBufferPointer(rebasing: query[0..<1])
        var from = 0
        while let at = Scorer.find(text, lead, from: from) {
            if hasFolded(query, in: text, at: at) { return true }
            from = at + 1
        }
        return false
    }

    /// Case- and diacritic-folded UTF-8.
    static func fold(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var out = [UInt8](repeating: 0, count: bytes.count * 3)
        let n = bytes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                UTF8Codec.transform(src.baseAddress!, from: 0, to: bytes.count, into: dst.baseAddress!,
                                    caseFold: true, stripDiacritics: true)
            }
        }
        out.removeSubrange(n...)
        return out
    }
}
