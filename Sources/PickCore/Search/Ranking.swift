/// What breaks a tie between two lines of equal score (fzf's `--tiebreak`).
public enum Tiebreak: String, Sendable, CaseIterable {
    /// The shorter title first.
    case length
    /// The match that begins earlier first.
    case begin
    /// The match that ends closer to the title's end first.
    case end
    /// The shorter run of non-blank text around the match first (fzf's `chunk`).
    case chunk
    /// The match that begins nearer the start of the last path component first (fzf's
    /// `pathname`).
    case pathname
    /// Input order (always the last criterion).
    case index
}

/// How results are ordered.
public struct RankingOptions: Sendable, Equatable {
    /// Sort by score (false: `--no-sort`, input order).
    public var sorts = true
    /// Reverse input order (`--tac`).
    public var reversesInput = false
    /// Up to three criteria before input order.
    public var tiebreaks: [Tiebreak] = [.length]

    public init(sorts: Bool = true, reversesInput: Bool = false, tiebreaks: [Tiebreak] = [.length]) {
        self.sorts = sorts
        self.reversesInput = reversesInput
        self.tiebreaks = tiebreaks
    }
}

/// How a search keys its hits for sorting: the sort key of a matched line, and back.
protocol HitKeys {
    associatedtype Hit: Comparable & BitwiseCopyable
    func hit(index: Int, match: LineMatch, shape: TitleShape) -> Hit
    /// The best key a match of line `index` scoring at most `score` can have (the bound
    /// pass skips a line whose best cannot reach the first screen).
    func best(index: Int, score: Int32, shape: TitleShape) -> Hit
    /// The input position of a hit.
    func index(of hit: Hit) -> Int
    /// Whether, at equal scores, a longer line ranks below a shorter (the first tiebreak is
    /// the length).
    var shorterFirst: Bool { get }
    /// The score of a hit (clamped as the key holds it).
    func score(of hit: Hit) -> Int32
    /// Whether a stable radix sort on `radixKey` alone gives the full order (hits are made
    /// in input order).
    var radixSorts: Bool { get }
    func radixKey(_ hit: Hit) -> UInt64
    /// Whether a tiebreak reads where the match begins (`chunk`, `pathname`): the matcher
    /// then finds where each fuzzy term's best placement begins (`LineMatcher.placesBegin`).
    var readsMatchBegin: Bool { get }
}

extension Tiebreak {
    /// Whether the tiebreak reads where the match begins, as fzf's `chunk` and `pathname`
    /// read the best placement's start (`begin` reads where it ends).
    var readsMatchBegin: Bool { self == .chunk || self == .pathname }
}

/// A matched line with its sort key: compare `primary`, then `secondary` (whose low 32
/// bits are the input position, reversed with `--tac`), smaller first.
struct RankedHit: Comparable {
    var primary: UInt64
    var secondary: UInt64

    static func < (a: RankedHit, b: RankedHit) -> Bool {
        a.primary != b.primary ? a.primary < b.primary : a.secondary < b.secondary
    }
}

/// What the tiebreaks read of a matched line's title (`LineStore.titleShape`).
struct TitleShape {
    /// Characters, without the white space at either end.
    var length: Int
    /// Bytes of white space before the first other character.
    var leadingWhite: Int
    /// The title's bytes, for the tiebreaks that look around the match.
    var text: UnsafePointer<UInt8>
    var count: Int

    @inline(__always)
    static func isWhite(_ byte: UInt8) -> Bool { byte == 0x20 || byte &- 0x09 < 5 }
}

/// A tiebreak's value for a match: smaller sorts first. As fzf's, white space at the start
/// of a line does not count: `length` is the title's without white space at either end;
/// `begin` is where the match ends, from the first other character (so of two equal
/// matches the earlier wins, and the end is where the best placement put it, not where a
/// first letter happened to occur); `end` is how far from the title's end the match
/// ends, as a share of the title (of two matches at the very end, the longer title's wins:
/// `baz` in `/foo/bar/baz` before `/bar/baz`); `chunk` is the length of the blank-separated
/// text the match lies in; `pathname` how far after the last `/` or `\` the match begins
/// (a match that begins before it, last). Values are at most 65535, as fzf's.
@inline(__always)
private func tiebreakValue(_ t: Tiebreak?, _ match: LineMatch, _ shape: TitleShape) -> UInt64 {
    switch t {
    case .length: return UInt64(min(shape.length, 0xFFFF))
    case .begin:
        return UInt64(min(max(match.end &- min(shape.leadingWhite, match.begin), 0), 0xFFFF))
    case .end:
        let reached = max(match.end &- min(shape.leadingWhite, match.begin), 0)
        return UInt64(max(0xFFFF &- 0xFFFF &* min(reached, shape.length &+ 1) / (shape.length &+ 1), 0))
    case .chunk: return chunkLength(match, shape)
    case .pathname: return pathnameDistance(match, shape)
    case .index, nil: return 0
    }
}

/// The least `tiebreakValue` any match in the line can have.
@inline(__always)
private func tiebreakFloor(_ t: Tiebreak?, _ shape: TitleShape) -> UInt64 {
    t == .length ? UInt64(min(shape.length, 0xFFFF)) : 0
}

@inline(never)
private func chunkLength(_ match: LineMatch, _ shape: TitleShape) -> UInt64 {
    var b = min(max(match.begin, 0), shape.count), e = min(max(match.end, b), shape.count)
    while b > 0 && !TitleShape.isWhite(shape.text[b &- 1]) { b &-= 1 }
    while e < shape.count && !TitleShape.isWhite(shape.text[e]) { e &+= 1 }
    return UInt64(min(e &- b, 0xFFFF))
}

@inline(never)
private func pathnameDistance(_ match: LineMatch, _ shape: TitleShape) -> UInt64 {
    var k = shape.count
    while k > 0 && shape.text[k &- 1] != 0x2F && shape.text[k &- 1] != 0x5C { k &-= 1 }
    let lastDelimiter = k &- 1
    return lastDelimiter <= match.begin ? UInt64(min(match.begin &- lastDelimiter, 0xFFFF)) : 0xFFFF
}

/// Keys for any ranking options: two words a hit (the score and two tiebreaks, 32, 16 and
/// 16 bits; a third tiebreak and the input position).
struct RankKeyMaker: HitKeys {
    private let first: Tiebreak?
    private let second: Tiebreak?
    private let third: Tiebreak?
    private let reverses: Bool
    let radixSorts: Bool
    let shorterFirst: Bool

    init(_ options: RankingOptions) {
        let criteria = Array(options.tiebreaks.prefix { $0 != .index })
        first = criteria.first
        second = criteria.dropFirst().first
        third = criteria.dropFirst(2).first
        reverses = options.reversesInput
        shorterFirst = criteria.first == .length
        radixSorts = criteria.count <= 2 && !options.reversesInput
        readsMatchBegin = criteria.prefix(3).contains { $0.readsMatchBegin }
    }

    let readsMatchBegin: Bool

    @inline(__always)
    func hit(index: Int, match: LineMatch, shape: TitleShape) -> RankedHit {
        let invertedScore = UInt64(UInt32(bitPattern: Int32.max &- max(match.score, 0)))
        let position = reverses ? UInt64(UInt32.max) - UInt64(index) : UInt64(index)
        return RankedHit(primary: invertedScore << 32 | tiebreakValue(first, match, shape) << 16
                                  | tiebreakValue(second, match, shape),
                         secondary: tiebreakValue(third, match, shape) << 32 | position)
    }

    @inline(__always)
    func best(index: Int, score: Int32, shape: TitleShape) -> RankedHit {
        let invertedScore = UInt64(UInt32(bitPattern: Int32.max &- max(score, 0)))
        let position = reverses ? UInt64(UInt32.max) - UInt64(index) : UInt64(index)
        return RankedHit(primary: invertedScore << 32 | tiebreakFloor(first, shape) << 16 | tiebreakFloor(second, shape),
                         secondary: tiebreakFloor(third, shape) << 32 | position)
    }

    @inline(__always)
    func score(of hit: RankedHit) -> Int32 { Int32.max &- Int32(bitPattern: UInt32(truncatingIfNeeded: hit.primary >> 32)) }

    @inline(__always)
    func index(of hit: RankedHit) -> Int {
        let position = hit.secondary & 0xFFFF_FFFF
        return Int(reverses ? UInt64(UInt32.max) - position : position)
    }

    @inline(__always)
    func radixKey(_ hit: RankedHit) -> UInt64 { hit.primary }
}

/// Keys in one word a hit, for the usual rankings (at most one tiebreak before input
/// order): score, tiebreak and input position, 16, 16 and 32 bits. Half the memory of
/// `RankedHit` and a total order a radix sort gets right. A score past 65535 or a
/// tiebreak value past 65535 counts as 65535 (such lines then keep input order).
struct CompactKeyMaker: HitKeys {
    private let tiebreak: Tiebreak?
    private let reverses: Bool
    var radixSorts: Bool { true }

    init?(_ options: RankingOptions) {
        let criteria = options.tiebreaks.prefix { $0 != .index }
        guard criteria.count <= 1 else { return nil }
        tiebreak = criteria.first
        reverses = options.reversesInput
    }

    var readsMatchBegin: Bool { tiebreak?.readsMatchBegin ?? false }
    var shorterFirst: Bool { tiebreak == .length }

    @inline(__always)
    func hit(index: Int, match: LineMatch, shape: TitleShape) -> UInt64 {
        let invertedScore = UInt64(0xFFFF - min(max(match.score, 0), 0xFFFF))
        let position = reverses ? UInt64(UInt32.max) - UInt64(index) : UInt64(index)
        return invertedScore << 48 | min(tiebreakValue(tiebreak, match, shape), 0xFFFF) << 32 | position
    }

    @inline(__always)
    func best(index: Int, score: Int32, shape: TitleShape) -> UInt64 {
        let invertedScore = UInt64(0xFFFF - min(max(score, 0), 0xFFFF))
        let position = reverses ? UInt64(UInt32.max) - UInt64(index) : UInt64(index)
        return invertedScore << 48 | tiebreakFloor(tiebreak, shape) << 32 | position
    }

    @inline(__always)
    func score(of hit: UInt64) -> Int32 { 0xFFFF &- Int32(hit >> 48) }

    @inline(__always)
    func index(of hit: UInt64) -> Int {
        let position = hit & 0xFFFF_FFFF
        return Int(reverses ? UInt64(UInt32.max) - position : position)
    }

    /// Score and tiebreak alone when hits come in the order of their positions (made in
    /// input order, not reversed): the stable sort keeps that order among equals, so the
    /// position's bytes need no passes.
    @inline(__always)
    func radixKey(_ hit: UInt64) -> UInt64 { reverses ? hit : hit >> 32 }
}

/// Sorting a chunk's hits. Hits are made in input order, so when one word of the key gives
/// the full order with input order breaking ties (`radixSorts`), a stable
/// least-significant-digit radix sort over the bytes of that word that vary does it: a few
/// linear passes instead of a comparison sort (bench/NOTES.md).
enum HitSorter {
    /// Sorts `hits`; `scratch`, when given, must hold at least `hits.count` hits and is
    /// used in place of a fresh buffer (a worker reuses one for every chunk it sorts, so a
    /// keystroke does not make the kernel zero new pages for copies).
    static func sort<K: HitKeys>(_ hits: inout [K.Hit], keys: K,
                                 scratch: UnsafeMutableBufferPointer<K.Hit>? = nil) {
        guard keys.radixSorts, hits.count > 64 else {
            hits.sort()
            return
        }
        let n = hits.count
        var counts = [Int](repeating: 0, count: 8 * 256)
        hits.withUnsafeBufferPointer { h in
            for hit in h {
                var key = keys.radixKey(hit)
                for byte in 0..<8 {
                    counts[byte &* 256 &+ Int(key & 0xFF)] &+= 1
                    key >>= 8
                }
            }
        }
        let owned = scratch == nil || scratch!.count < n
        let other = owned ? UnsafeMutableBufferPointer<K.Hit>.allocate(capacity: n) : scratch!
        defer { if owned { other.deallocate() } }
        hits.withUnsafeMutableBufferPointer { h in
            var from = UnsafeMutableBufferPointer(rebasing: h[0..<n])
            var to = UnsafeMutableBufferPointer(rebasing: other[0..<n])
            var offsets = [Int](repeating: 0, count: 256)
            for byte in 0..<8 {
                let base = byte * 256
                // A byte that is the same in every key does not reorder anything.
                if counts[base + Int((keys.radixKey(from[0]) >> UInt64(byte * 8)) & 0xFF)] == n { continue }
                var sum = 0
                for b in 0..<256 {
                    offsets[b] = sum
                    sum += counts[base + b]
                }
                let shift = UInt64(byte * 8)
                offsets.withUnsafeMutableBufferPointer { o in
                    for hit in from {
                        let b = Int((keys.radixKey(hit) >> shift) & 0xFF)
                        to[o[b]] = hit
                        o[b] &+= 1
                    }
                }
                swap(&from, &to)
            }
            if from.baseAddress != h.baseAddress {
                _ = UnsafeMutableBufferPointer(rebasing: h[0..<n]).update(fromContentsOf: from)
            }
        }
    }
}
