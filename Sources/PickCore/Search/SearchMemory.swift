/// The last few searches, for answering a repeated query at once (after a backspace) and
/// for narrowing: a query that narrows a remembered one searches only what it matched.
final class SearchMemory: @unchecked Sendable {
    /// What a remembered search depends on besides its text and its lines.
    struct Options: Equatable {
        var matching: MatchingOptions
        var ranking: RankingOptions
        var skippedLines: Int
        /// What `--remember` knew (SearchEngine.remember): a forget reorders.
        var memoryGeneration = 0
    }

    struct Entry {
        var text: String
        var query: Query
        var count: Int
        var options: Options
        var result: SearchResult
        /// The matched lines.
        var matches: LineBits
    }

    /// A remembered search that a new query narrows: the lines it matched, of the first
    /// `upTo`, and its text.
    struct Narrowed {
        var lines: LineBits
        var upTo: Int
        var text: String
    }

    private let entries = Locked<[Entry]>([])

    /// The engine's `LineBounds`, while no search holds them, and whether they were made:
    /// a search that finds them taken goes without rather than making a second set (six
    /// bytes a line).
    let bounds = Locked<(held: LineBounds?, made: Bool)>((nil, false))

    /// The result of the same text over the same lines, if remembered.
    func recall(text: String, count: Int, options: Options) -> Entry? {
        entries.withLock { list in
            list.last { $0.text == text && $0.count == count && $0.options == options }
        }
    }

    /// The fewest lines that hold every match of `query`: a remembered query it narrows.
    /// The search of `preferred` (the text the engine's bounds are of) is taken instead while
    /// it matched at most twice as many: going on from its bounds costs a fraction of scoring
    /// the fewer lines afresh. (Typed quickly, each first screen cancelled by the next key,
    /// `u` and `us` both match every line: the first of them was taken, and `usr` scored
    /// every line again, bench/NOTES.md.)
    func narrowest(for query: Query, count: Int, options: Options, preferring preferred: String? = nil) -> Narrowed? {
        entries.withLock { list in
            let narrowed = list.filter { $0.count <= count && $0.options == options && !$0.query.isEmpty
                && query.narrows($0.query) }
            guard let fewest = narrowed.min(by: { $0.matches.count < $1.matches.count }) else { return nil }
            var taken = fewest
            if let preferred, let held = narrowed.last(where: { $0.text == preferred }),
               held.matches.count <= fewest.matches.count * 2 {
                taken = held
            }
            return Narrowed(lines: taken.matches, upTo: taken.count, text: taken.text)
        }
    }

    /// Remembers `entry`, within a budget of line indexes that all entries may hold together
    /// (4 bytes each, twice per entry): one per input line, between
    /// `Tunables.Search.leastMemoryBudget` and `memoryBudget`, so that a million-line input
    /// keeps its last query. Proportional, the memory stays below that of the input's own
    /// records, and a small input still keeps its last few queries (bench/NOTES.md). The
    /// last entry always stays: narrowing needs it.
    ///
    /// Past the budget, an older entry of a large input (`trimsFromLines` lines) first keeps
    /// only its first `trimmedRows` lines (a search for its text answers with those at once,
    /// and ranks the rest again; its matches, as bits, still narrow), then goes.
    func remember(_ entry: Entry) {
        let limits = Tunables.Search.self
        let rows = limits.trimmedRows
        entries.withLock { list in
            list.removeAll { $0.text == entry.text }
            list.append(entry)
            while list.count > limits.rememberedSearches { list.removeFirst() }
            var held = list.reduce(0) { $0 + $1.matches.held + $1.result.lines.count }
            let budget = min(limits.memoryBudget, max(limits.leastMemoryBudget, entry.count))
            // (Only on large inputs: on small ones, searching again takes a few milliseconds.)
            var k = entry.count >= limits.trimsFromLines ? 0 : list.count
            while held > budget && k < list.count - 1 {
                let result = list[k].result
                if result.lines.count > rows && result.groups.allSatisfy({ $0.section == 0 }) {
                    held -= result.lines.count - rows
                    list[k].result.lines = Array(result.lines.prefix(rows))
                    list[k].result.groups = result.groups.isEmpty ? [] : [SectionGroup(section: 0, range: 0..<rows)]
                }
                k += 1
            }
            while held > budget && list.count > 1 {
                held -= list[0].matches.held + list[0].result.lines.count
                list.removeFirst()
            }
        }
    }
}

/// Lines of a store as bits (line i: bit i % 64 of word i / 64): the lines a search matched,
/// which a search that narrows it looks at. An eighth of a byte a line, where a list of
/// line numbers took four bytes a match.
final class LineBits: @unchecked Sendable {
    let words: UnsafeMutablePointer<UInt64>
    let wordCount: Int
    /// How many lines are in (set once the search that fills it is done).
    var count = 0

    init(lines: Int) {
        wordCount = (lines + 63) >> 6
        words = .allocate(capacity: max(wordCount, 1))
        words.initialize(repeating: 0, count: max(wordCount, 1))
    }

    deinit { words.deallocate() }

    /// Memory held, in four-byte line numbers (the search memory's unit).
    var held: Int { wordCount * 2 }

    /// Sets line `index`'s bit in `words` (a `LineBits`'s, read without the object: no
    /// reference counting in a hot loop).
    @inline(__always)
    static func insert(_ index: Int, into words: UnsafeMutablePointer<UInt64>) {
        words[index >> 6] |= 1 << UInt64(index & 63)
    }
}
