// pick's tunables: every threshold, limit and size that a decision depends on, named for
// what it means, in one place (as fzy keeps its own in config.h). A figure that means two
// things is two constants, even when they are equal today.
//
// One nested enum per part of pick. Each constant says what it governs and why it has the
// value it has; measurements behind a value are in bench/NOTES.md, not here.

/// pick's tunables, grouped by the part of pick they govern.
public enum Tunables {
    /// The search engine: how a search splits its work, what it keeps for the next one.
    public enum Search {
        /// Inputs with at least this many lines keep `LineBounds` (6 bytes a line), which
        /// let a keystroke rank its first screen without scoring every line. Below it a
        /// search is quick anyway.
        public static let boundsFromLines = 1 << 18

        /// The most lines a worker claims at once. Each worker sorts its chunk's hits, and
        /// the sorted chunks are merged at the end.
        static let chunkLines = 1 << 15
        /// A search over fewer lines is cut in about this many chunks (but no smaller than
        /// `leastChunkLines`), so that the last chunk claimed leaves the other cores idle
        /// only briefly. More chunks cost more in merging their runs than they win in balance
        /// (bench/NOTES.md).
        static let chunksPerSearch = 16
        static let leastChunkLines = 1 << 11

        /// Hits from which the merge of the sorted chunks runs in two halves at once (on
        /// two cores), split at a pivot.
        static let halvedMergeFromHits = 1 << 16

        /// How many earlier searches are remembered (for a backspace, and for narrowing).
        static let rememberedSearches = 8
        /// The most line indexes (4 bytes each) all remembered searches may hold together,
        /// and the least: the budget is one index per input line between the two.
        static let memoryBudget = 1_500_000
        static let leastMemoryBudget = 1 << 16
        /// On an input of at least `trimsFromLines` lines, a remembered search over the
        /// budget first keeps only its first `trimmedRows` rows (answering a repeated
        /// query's first screen at once) before it is forgotten. On smaller inputs, searching
        /// again takes a few milliseconds, and old searches are simply forgotten.
        static let trimsFromLines = 1 << 18
        static let trimmedRows = 512
    }

    /// The line store: how input is held in memory.
    public enum Store {
        /// Input is read into blocks of this size, the first `smallBlocks` of them; later
        /// blocks are `largeBlockBytes`, on huge pages, which cuts the page faults of
        /// loading a large input.
        static let blockBytes = 1 << 20
        static let largeBlockBytes = 1 << 23
        static let smallBlocks = 4
        /// The least free space a read is given (`LineStore.writableSpace`).
        static let leastFreeBytes = 1 << 16

        /// `PagedArray` (the records of lines, among others): elements per page, as a
        /// power of two. A page is the unit of growth: growth never copies.
        static let pageShift = 14
        /// The most pages an array can have: its directory, mapped and filled on demand,
        /// has a slot for each. With `pageShift` this caps an array, and so an input, at
        /// 2^32 lines.
        static let maxPages = 1 << 18
        /// The first pages of an array are allocated alone, so that small inputs stay
        /// small; the rest are carved from regions of `regionBytes`.
        static let smallPages = 8
        static let regionBytes = 1 << 23
    }
}
