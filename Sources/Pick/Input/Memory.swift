import CPickSystem

/// How malloc keeps pick's memory. Set for large inputs, whose every keystroke allocates
/// result arrays of a few MB; a small input's peak is small whatever malloc does.
enum Memory {
    /// Settings for every input, before pick allocates anything.
    static func start() {
        // One heap for every thread: memory one thread freed (the list the event loop made
        // for an empty query, a search's hits) is reused by the next search on any other,
        // instead of staying resident in that thread's own arena. Searches allocate per
        // chunk, not per line, so sharing costs no time.
        _ = mallopt(M_ARENA_MAX, 1)
        // Freed memory stays in the heap, for the next allocation to reuse instead of the
        // kernel zeroing pages anew: each keystroke's search on a large input allocates
        // result arrays of a few MB, and loading reuses what it freed (a mapped file's
        // second half is scanned into a store of its own, then copied). Every input loads
        // so: its size is known only once it has ended.
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 1 << 30)
    }
}
