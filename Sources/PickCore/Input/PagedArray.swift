import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only array of trivial values in fixed pages that never move.
///
/// One thread appends; any thread may read elements below `count` (an acquire load),
/// so a search can run while input is still arriving. Growth never copies, which keeps
/// peak memory at the size of the data rather than twice it.
public final class PagedArray<Element: BitwiseCopyable>: @unchecked Sendable {
    private static var pageShift: Int { Tunables.Store.pageShift }
    private static var pageSize: Int { 1 << pageShift }
    private static var maxPages: Int { Tunables.Store.maxPages }
    private static var directoryBytes: Int { maxPages * MemoryLayout<UnsafeMutablePointer<Element>?>.stride }

    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>
    private let published = Atomic<Int>(0)
    private var appended = 0

    /// `large`: the array will grow large (pages come from the large regions at once).
    public init(large: Bool = false) {
        firstLargePage = large ? 0 : Self.smallPages
        // Mapped: the zeroed directory costs no resident memory until pages are used, and no
        // time to clear (calloc, served from the heap, would clear every array's directory
        // at each start; bench/NOTES.md).
        guard let memory = mmap(nil, Self.directoryBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              memory != MAP_FAILED else { fatalError("out of memory") }
        directory = memory.assumingMemoryBound(to: UnsafeMutablePointer<Element>?.self)
    }

    /// Pages past the first few are carved from large regions (fewer allocations). Not on
    /// huge pages: right after another large process exits (the picker run before pick),
    /// the kernel compacts memory to find them, and loading is slower (bench/NOTES.md).
    private static var smallPages: Int { Tunables.Store.smallPages }
    /// Pages below this are allocated alone; 0 for an array known to grow large.
    private let firstLargePage: Int
    private static var regionBytes: Int { Tunables.Store.regionBytes }
    private var regions: [UnsafeMutableRawPointer] = []
    private var regionNext = 0
    private var regionEnd = 0

    deinit {
        for page in 0..<min(firstLargePage, Self.maxPages) {
            directory[page]?.deallocate()
        }
        for r in regions { free(r) }
        munmap(directory, Self.directoryBytes)
    }

    private func newPage(_ page: Int) -> UnsafeMutablePointer<Element> {
        let bytes = Self.pageSize * MemoryLayout<Element>.stride
        if page < firstLargePage || bytes > Self.regionBytes {
            return .allocate(capacity: Self.pageSize)
        }
        if regionNext + bytes > regionEnd {
            guard let memory = malloc(Self.regionBytes) else { fatalError("out of memory") }
            regions.append(memory)
            regionNext = 0
            regionEnd = Self.regionBytes
        }
        let p = regions[regions.count - 1] + regionNext
        regionNext += bytes
        return p.bindMemory(to: Element.self, capacity: Self.pageSize)
    }

    /// Gives the memory of the page holding elements up to `index` back to the system,
    /// for an array read once from start to end and then dropped (its elements are
    /// gone: reading them again is an error).
    func discardPage(holding index: Int) {
        let page = index >> Self.pageShift
        guard let p = directory[page] else { return }
        if page < firstLargePage {
            p.deallocate()
            directory[page] = nil
        } else {
            #if os(Linux)
            _ = madvise(UnsafeMutableRawPointer(p), Self.pageSize * MemoryLayout<Element>.stride, 4 /* MADV_DONTNEED */)
            #endif
        }
    }

    /// Elements visible to readers.
    public var count: Int { published.load(ordering: .acquiring) }

    /// Appends without publishing; call `publish()` to make appended elements visible.
    @inline(__always)
    public func append(_ value: Element) {
        appendingPage()[appended & (Self.pageSize - 1)] = value
        appended += 1
    }

    /// Appends `count` elements without publishing, element k being `element(k)`: a page
    /// lookup per page rather than per element.
    @inline(__always)
    func append(count: Int, _ element: (Int) -> Element) {
        var k = 0
        while k < count {
            let base = appendingPage()
            let offset = appended & (Self.pageSize - 1)
            let n = min(count - k, Self.pageSize - offset)
            for t in 0..<n { base[offset &+ t] = element(k &+ t) }
            appended += n
            k += n
        }
    }

    /// The page the next appended element goes in, made when it is the first.
    @inline(__always)
    private func appendingPage() -> UnsafeMutablePointer<Element> {
        let page = appended >> Self.pageShift
        precondition(page < Self.maxPages, "too many lines")
        if directory[page] == nil { directory[page] = newPage(page) }
        return directory[page].unsafelyUnwrapped
    }

    /// Makes every appended element visible to readers.
    public func publish() { published.store(appended, ordering: .releasing) }

    /// Count including unpublished elements (for the appending thread).
    public var appendedCount: Int { appended }

    /// Where element `index` is (to prefetch it).
    @inline(__always)
    func address(of index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(directory[index >> Self.pageShift].unsafelyUnwrapped + (index & (Self.pageSize - 1)))
    }

    /// The pages, for a reader in a hot loop that must not hold the array itself (no
    /// reference counting): element i is at `pages[i >> pageShift]![i & (pageSize - 1)]`,
    /// for i below `count`. A page holds a whole number of runs of 64 elements.
    var pages: UnsafePointer<UnsafeMutablePointer<Element>?> { UnsafePointer(directory) }
    static var elementsPerPageShift: Int { pageShift }

    /// Elements `index - 1` and `index` (`index` > 0), with one page lookup when they share a page.
    @inline(__always)
    func pair(endingAt index: Int) -> (previous: Element, current: Element) {
        let offset = index & (Self.pageSize - 1)
        let page = directory[index >> Self.pageShift].unsafelyUnwrapped
        guard offset > 0 else { return (self[index &- 1], page[0]) }
        return (page[offset &- 1], page[offset])
    }

    @inline(__always)
    public subscript(index: Int) -> Element {
        get { directory[index >> Self.pageShift].unsafelyUnwrapped[index & (Self.pageSize - 1)] }
        set { directory[index >> Self.pageShift].unsafelyUnwrapped[index & (Self.pageSize - 1)] = newValue }
    }
}
