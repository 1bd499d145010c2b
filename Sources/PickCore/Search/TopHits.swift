/// The best hits seen, up to a capacity: a heap with the worst of them on top. Owns its
/// heap, freed when it goes.
struct TopHits<Hit: Comparable & BitwiseCopyable>: ~Copyable {
    private let heap: UnsafeMutablePointer<Hit>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        heap = .allocate(capacity: self.capacity)
    }

    deinit { heap.deallocate() }

    /// The worst hit kept, once `capacity` are: any hit after it ranks below them all.
    var worst: Hit? { count == capacity ? heap[0] : nil }

    /// The hits kept, in no order.
    var hits: [Hit] { Array(UnsafeBufferPointer(start: heap, count: count)) }

    /// Keeps `hit` if it is among the best so far.
    @inline(__always)
    mutating func offer(_ hit: Hit) {
        if count < capacity {
            // Up from the new leaf.
            var k = count
            count &+= 1
            while k > 0 {
                let parent = (k &- 1) >> 1
                if !(heap[parent] < hit) { break }
                heap[k] = heap[parent]
                k = parent
            }
            heap[k] = hit
            return
        }
        guard hit < heap[0] else { return }
        // Replaces the worst, then down.
        var k = 0
        while true {
            var child = 2 &* k &+ 1
            if child >= count { break }
            if child &+ 1 < count && heap[child] < heap[child &+ 1] { child &+= 1 }
            if !(hit < heap[child]) { break }
            heap[k] = heap[child]
            k = child
        }
        heap[k] = hit
    }
}
