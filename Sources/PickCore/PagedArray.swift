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
    private static var pageShift: Int { 14 }
    private static var pageSize: Int { 1 << pageShift }
    private static var directoryCapacity: Int { 1 << 18 }

    private let directory: UnsafeMutablePointer<UnsafeMutablePointer<Element>?>
    private let published = Atomic<Int>(0)
    private var appended = 0

    public init() {
        // calloc: the zeroed directory costs no resident memory until pages are used.
        directory = calloc(Self.directoryCapacity, MemoryLayout<UnsafeMutablePointer<Element>?>.stride)!
            .assumingMemoryBound(to: UnsafeMutablePointer<Element>?.self)
    }

    deinit {
        for page in 0..<Self.directoryCapacity {
            guard let p = directory[page] else { break }
            p.deallocate()
        }
        free(directory)
    }

    /// Elements visible to readers.
    public var count: Int { published.load(ordering: .acquiring) }

    /// Appends without publishing; call `publish()` to make appended elements visible.
    @inline(__always)
    public func append(_ value: Element) {
        let page = appended >> Self.pageShift
        if directory[page] == nil {
            precondition(page < Self.directoryCapacity, "too many lines")
            directory[page] = .allocate(capacity: Self.pageSize)
        }
        directory[page]![appended & (Self.pageSize - 1)] = value
        appended += 1
    }

    /// Makes every appended element visible to readers.
    public func publish() { published.store(appended, ordering: .releasing) }

    /// Count including unpublished elements (for the appending thread).
    public var appendedCount: Int { appended }

    @inline(__always)
    public subscript(index: Int) -> Element {
        get { directory[index >> Self.pageShift].unsafelyUnwrapped[index & (Self.pageSize - 1)] }
        set { directory[index >> Self.pageShift].unsafelyUnwrapped[index & (Self.pageSize - 1)] = newValue }
    }
}
