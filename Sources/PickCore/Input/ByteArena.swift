/// Append-only bytes in blocks that never move (the folded forms), freed when it goes.
struct ByteArena: ~Copyable {
    private var blocks: [UnsafeMutablePointer<UInt8>] = []
    private var current: UnsafeMutablePointer<UInt8>? = nil
    private var capacity = 0
    private var used = 0

    /// A place for up to `n` bytes; `commit` how many were written.
    mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if current == nil || capacity - used < n {
            capacity = max(1 << 20, n)
            current = .allocate(capacity: capacity)
            blocks.append(current!)
            used = 0
        }
        return current! + used
    }

    mutating func commit(_ n: Int) { used += n }

    deinit {
        for b in blocks { b.deallocate() }
    }

    /// Takes over `other`'s blocks (their bytes stay where they are), leaving it empty.
    mutating func takeBlocks(of other: inout ByteArena) {
        blocks.append(contentsOf: other.blocks)
        other.blocks = []
        other.current = nil
        other.capacity = 0
        other.used = 0
    }
}
