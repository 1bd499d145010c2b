// What Tab and the ghost text add to the query.
//
// The suggestion ranker (Suggestions.swift) finds titles and keywords that start with the
// query, then those that contain it. In the picker, Tab must only ever extend what was
// typed: the query stays as typed and a rest is appended, the rest the ghost text shows.
// Only a suggestion that starts with the query, white space at its start aside (as fzf's
// `^` reads a line: `  feature/login` from `git branch`), offers a rest: what follows, up
// to a tab or other control character, or through the next `/`, so that a path completes
// a folder at a time:
//
//   dup  → duplicate Line        Sou → Sources/  (then Sources/ → Sources/Pick/)
//   fe   → feature/  in `  feature/login`         a1b → a1b2c3d  in `a1b2c3d<TAB>Ada`
//
// One that holds the query further on (`pyth` in a line of `ls -la`) offers nothing: a
// ghost on every query typed into a list of paths or log lines would be noise, and text
// from the middle of a line is a guess. The query is looked for as the search reads it:
// case folded, and diacritics too unless the query carries some (`é` finds only `é`, `e`
// finds both, `ß` is not the `s` of `straße`). Rests that fold alike are offered once.

//
// What is appended keeps matching the line it came from: under smart case, a rest with a
// capital (`viewController.swift` after `pre`) would make the query case-sensitive and
// match nothing, `PreviewController.swift` included; so while the term being completed has
// no capital, the part of the rest that extends it comes in lower case (`lowercasesRest`);
// words after a space are terms of their own, and keep their capitals, which match.

/// Ways to extend a query, from the suggestions the ranker found for it.
public enum Completion {
    /// Whether the rests for `query` come in lower case: under smart case, while the last
    /// term has no capital (one in the rest would turn its case sensitivity on).
    public static func lowercasesRest(of query: String, caseMode: CaseMode) -> Bool {
        guard caseMode == .smart else { return false }
        let last = query.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? query
        return last.lowercased() == last
    }

    /// The rests that `suggestions` (the ranker's, best first) add to `query`, best first,
    /// distinct (folded), at most `limit`. Appending one to `query` gives the completed query.
    /// With `lowercased`, each rest is in lower case (`lowercasesRest`).
    public static func extensions(of query: String, from suggestions: [[UInt8]], limit: Int,
                                  lowercased: Bool = false) -> [String] {
        // As the search reads a term: one that carries diacritics matches them as typed.
        let strips = !Folding.hasDiacritics(query.unicodeScalars)
        let fold = { (scalar: UInt32) in Folding.fold(scalar, caseFold: true, stripDiacritics: strips) }
        let wanted = query.unicodeScalars.map { fold($0.value) }
        guard !wanted.isEmpty else { return [] }
        var out: [String] = []
        var seen = Set<[UInt32]>()
        for suggestion in suggestions where out.count < limit {
            let rest = rest(of: suggestion, after: wanted, fold: fold)
            guard !rest.isEmpty else { continue }
            let scalars = String(decoding: rest, as: UTF8.self).unicodeScalars
            if seen.insert(scalars.map { fold($0.value) }).inserted {
                out.append(lowercased ? lowercasingTerm(String(decoding: rest, as: UTF8.self)) : String(decoding: rest, as: UTF8.self))
            }
        }
        return out
    }

    /// `rest` with the part that extends the query's last term (up to the first space) in
    /// lower case; words after a space are terms of their own, whose capitals match the
    /// line as they are.
    static func lowercasingTerm(_ rest: String) -> String {
        guard let space = rest.firstIndex(of: " ") else { return rest.lowercased() }
        return rest[..<space].lowercased() + rest[space...]
    }

    /// The bytes of `text` that extend the folded query `wanted` (see the rules above);
    /// none when `text` does not start with it.
    static func rest(of text: [UInt8], after wanted: [UInt32], fold: (UInt32) -> UInt32) -> ArraySlice<UInt8> {
        // Scalars, their folded values and where each starts (invalid bytes are U+FFFD).
        var scalars: [UInt32] = [], offsets: [Int] = []
        text.withUnsafeBufferPointer { bytes in
            var i = 0
            while i < bytes.count {
                let (scalar, width) = UTF8Codec.decode(bytes.baseAddress!, i, bytes.count)
                scalars.append(scalar)
                offsets.append(i)
                i += width
            }
        }
        offsets.append(text.count)
        let folded = scalars.map(fold)
        func matches(at k: Int) -> Bool {
            k + wanted.count <= folded.count && folded[k..<(k + wanted.count)].elementsEqual(wanted)
        }
        var at = 0
        if !matches(at: 0) {
            while at < scalars.count && Folding.isSpace(scalars[at]) { at += 1 }
            guard at > 0, matches(at: at) else { return [] }
        }
        var end = at + wanted.count
        while end < scalars.count {
            let s = scalars[end]
            if s < 0x20 || s == 0x7F { break }
            end += 1
            if s == 0x2F { break }  // through the `/`: one path component at a time
        }
        return text[offsets[at + wanted.count]..<offsets[end]]
    }
}

/// Tab's walk through the completions of a query: the first Tab takes the best, each Tab
/// after it the next (round to the first again), as long as the query is the one Tab gave.
public struct TabCycle {
    private var list: [String] = []
    private var index = 0

    public init() {}

    /// The query Tab gives now: the next completion when `query` is the one Tab gave
    /// last, else the first of `fresh()`; nil when there is none.
    public mutating func next(for query: String, fresh: () -> [String]) -> String? {
        if list.indices.contains(index), list[index] == query {
            index = (index + 1) % list.count
            return list[index]
        }
        list = fresh()
        index = 0
        return list.first
    }

    /// The query changed: the walk goes on only if it is the completion Tab gave.
    public mutating func queryChanged(to text: String) {
        if !(list.indices.contains(index) && list[index] == text) { list = [] }
    }
}
