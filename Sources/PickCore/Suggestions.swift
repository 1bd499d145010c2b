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
/// equals a whole suggestion (there is nothing left to complete).
public enum Suggestions {
    /// Suggestions for `text` among the store's lines, as the candidates' own bytes.
    public static func suggest(_ text: String, in store: LineStore, limit: Int, skipping skipped: Int = 0) -> [[UInt8]] {
        let folded = fold(Array(text.utf8))
        guard !folded.isEmpty, limit > 0 else { return [] }
        var prefixed: [[UInt8]] = []
        var containing: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        var exactHit = false
        let count = store.count
        var line = skipped
        while line < count {
            let bytes = store.bytes(of: line)
            let fields = store.fields(of: line)
            var candidates = [fields.title]
            if let k = fields.keywords { candidates += keywordRanges(bytes, k) }
            for range in candidates where !range.isEmpty {
                let original = Array(bytes[range])
                let key = fold(original)
                if key == folded { exactHit = true; continue }
                guard !seen.contains(key) else { continue }
                if key.starts(with: folded) {
                    seen.insert(key)
                    prefixed.append(original)
                } else if containing.count < limit && key.firstRange(of: folded) != nil {
                    seen.insert(key)
                    containing.append(original)
                }
            }
            line += 1
        }
        if exactHit { return [] }
        return Array((prefixed + containing).prefix(limit))
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

    /// Keywords are separated by commas or spaces.
    static func keywordRanges(_ bytes: UnsafeBufferPointer<UInt8>, _ field: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = field.lowerBound
        for i in field where bytes[i] == 0x2C || bytes[i] == 0x20 {
            if start < i { out.append(start..<i) }
            start = i + 1
        }
        if start < field.upperBound { out.append(start..<field.upperBound) }
        return out
    }
}
