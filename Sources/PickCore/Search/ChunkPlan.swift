import CPickScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines a ranking looks at: from `first` to `end` (nil: until the store's input ends,
/// matching the lines already read while the rest arrives), of which, below `upTo`, only
/// those that `previous` (the matches of an earlier search this one narrows) holds.
struct RankScope {
    var first: Int
    var end: Int?
    var previous: LineBits?
    var upTo: Int
}

/// How a ranking's lines are cut into chunks, which the workers claim in order. A chunk is
/// a range of lines in whole words of bits, so that no two chunks share a word of
/// `LineBits`.
struct ChunkPlan {
    private let first: Int
    private let end: Int?
    /// Where the first chunk's word starts.
    private let base: Int
    /// With an end: chunk c is lines boundaries[c]..<boundaries[c + 1], cut where the lines
    /// to look at reach the chunk's share. Without one, chunk c is the
    /// `Tunables.Search.chunkLines` lines from base + c * chunkLines, waited for as input
    /// arrives.
    private let boundaries: [Int]

    init(_ scope: RankScope) {
        first = scope.first
        end = scope.end
        base = scope.first & ~63
        guard let end = scope.end else {
            boundaries = []
            return
        }
        // Chunks hold about `chunkLines` lines to look at; fewer lines are cut in
        // `chunksPerSearch` chunks (of `leastChunkLines` at least).
        let limits = Tunables.Search.self
        let lines = CandidateCursor(previous: scope.previous, upTo: scope.upTo, from: first, to: end)
        let share = min(limits.chunkLines,
                        max(limits.leastChunkLines, (lines.remaining + limits.chunksPerSearch - 1) / limits.chunksPerSearch))
        var boundaries = [first]
        var held = 0
        var start = base
        while start < end {
            held += lines.bits(at: start).nonzeroBitCount
            start += 64
            if held >= share && start < end {
                boundaries.append(start)
                held = 0
            }
        }
        boundaries.append(end)
        self.boundaries = boundaries
    }

    /// How many chunks there are: known for a plan with an end.
    var count: Int? { end == nil ? nil : max(1, boundaries.count - 1) }

    /// The lines of chunk `chunk` (waiting for them while input arrives), or nil past the
    /// last chunk.
    func lines(ofChunk chunk: Int, in store: LineStore) -> Range<Int>? {
        if end != nil {
            guard chunk + 1 < boundaries.count else { return nil }
            return boundaries[chunk]..<boundaries[chunk + 1]
        }
        let chunkLines = Tunables.Search.chunkLines
        let lo = max(first, base + chunk * chunkLines)
        var available: Int
        while true {
            let done = store.isFinished
            available = store.count
            if done || available >= lo + chunkLines { break }
            usleep(200)
        }
        guard lo < available else { return nil }
        return lo..<min(base + (chunk + 1) * chunkLines, available)
    }
}

/// The lines a chunk looks at, in order: those of `previous` below `upTo` (all of them
/// without `previous`), then every line from `upTo`, within `from..<to`; with `characters`,
/// only those of them that may hold the query's characters, and with `order` those that
/// may hold its terms in order (`remaining` counts them all). With `bounds`, the lines that
/// hold an earlier term's values are bounded a word at a time and not given out.
struct CandidateCursor {
    /// The earlier search's bits (not the object: no reference counting in the loop).
    private let previous: UnsafeMutablePointer<UInt64>?
    private let previousWords: Int
    private let upTo: Int
    private let from: Int
    private let to: Int
    /// The word being read, its bits not yet taken, and where the next word starts.
    private var word: UInt64 = 0
    private var wordStart: Int
    private let characters: CharacterFilter?
    /// Asked while most lines it is shown fail it: of the lines of this sample
    /// (`Tunables.Search.orderFilterSample`), how many it was shown and how many passed.
    private var order: OrderFilter?
    private var orderShown = 0
    private var orderPassed = 0
    /// Which body of the order filter runs (`OrderFilter.holding`'s `branchFree`): for a
    /// chunk's first words the two take turns, timed, and the faster takes the rest.
    private var orderTrials = 0
    private var branchyCycles: UInt64 = 0
    private var branchFreeCycles: UInt64 = 0
    private var branchFree = false
    /// Whether the lines of the word being read passed `order` (a packed line's whole-line
    /// terms are then known to be in it: `LineMatcher.Upcoming.heldInOrder`).
    private(set) var heldInOrder = false
    private var bounds: BoundsWords?

    init(previous lines: LineBits?, upTo: Int, from: Int, to: Int, characters: CharacterFilter? = nil,
         order: OrderFilter? = nil, bounds: BoundsWords? = nil) {
        previous = lines?.words
        previousWords = lines?.wordCount ?? 0
        self.upTo = upTo
        self.from = from
        self.to = to
        self.characters = characters
        self.order = order
        self.bounds = bounds
        wordStart = from & ~63
        word = filtered(bits(at: wordStart), at: wordStart)
    }

    /// `word`, the bits of the 64 lines from `start`, without the lines `characters` and
    /// `order` rule out. Once half the lines `order` was shown pass it (a broad query, or a
    /// narrowing one), the scorer's own check is the cheaper: it is no longer asked.
    @inline(__always)
    private mutating func filtered(_ word: UInt64, at start: Int) -> UInt64 {
        guard word != 0 else { return word }
        var word = word
        if let characters { word &= characters.holding(start) }
        if bounds != nil { word = bounds!.leaving(start, word) }
        heldInOrder = false
        guard word != 0, let order else { return word }
        let held: UInt64
        if orderTrials < Self.orderTrialWords && order.choosesBody {
            let free = orderTrials & 1 == 1
            let began = pick_cycles()
            held = order.holding(start, word, branchFree: free)
            let spent = pick_cycles() &- began
            if free { branchFreeCycles &+= spent } else { branchyCycles &+= spent }
            orderTrials &+= 1
            if orderTrials == Self.orderTrialWords { branchFree = branchFreeCycles < branchyCycles }
        } else {
            held = order.holding(start, word, branchFree: branchFree)
        }
        heldInOrder = true
        orderShown &+= word.nonzeroBitCount
        orderPassed &+= held.nonzeroBitCount
        if orderShown >= Tunables.Search.orderFilterSample {
            if orderPassed &* 2 > orderShown { self.order = nil }
            orderShown = 0
            orderPassed = 0
        }
        return held
    }

    /// Words of a chunk checked by each body of the order filter in turn before one is chosen.
    private static let orderTrialWords = 16

    /// How many lines `bounds` bounded (every one a match).
    var bounded: Int { bounds?.bounded ?? 0 }

    /// How many lines there are to look at, from the word being read on.
    var remaining: Int {
        var n = word.nonzeroBitCount
        var start = wordStart + 64
        while start < to {
            n += bits(at: start).nonzeroBitCount
            start += 64
        }
        return n
    }

    /// The bits of the 64 lines from `start` (a multiple of 64) that are looked at.
    @inline(__always)
    func bits(at start: Int) -> UInt64 {
        var word: UInt64 = ~0
        if let previous, start < upTo {
            word = start >> 6 < previousWords ? previous[start >> 6] : 0
            if upTo < start + 64 { word |= ~0 << UInt64(upTo - start) }
        }
        if start < from { word &= from >= start + 64 ? 0 : ~0 << UInt64(from - start) }
        if to < start + 64 { word &= to <= start ? 0 : (1 << UInt64(to - start)) - 1 }
        return word
    }

    /// The next line to look at, or nil after the last.
    @inline(__always)
    mutating func next() -> Int? {
        while word == 0 {
            wordStart += 64
            if wordStart >= to { return nil }
            word = filtered(bits(at: wordStart), at: wordStart)
        }
        let i = wordStart + word.trailingZeroBitCount
        word &= word - 1
        return i
    }
}
