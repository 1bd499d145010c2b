#if canImport(Glibc)
import Glibc
#endif
import CPickSystem

/// glibc's mallopt (not in Swift's Glibc module).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// How pick keeps its memory, by how large its input turns out.
///
/// Peak memory on a small input is what a person compares with fzy's; speed on a large one
/// is what they feel. The two want malloc to keep memory differently: pick loads as a large
/// input wants it, and switches once a small input is in.
enum Memory {
    /// Lines from which an input counts as large.
    static let largeInput = 1 << 18

    /// Settings for every input, before pick allocates anything.
    static func start() {
        // One heap for every thread: memory one thread freed (the list the event loop made
        // for an empty query, a search's hits) is reused by the next search on any other,
        // instead of staying resident in that thread's own arena. Searches allocate per
        // chunk, not per line, so sharing costs no time (paths 1M, in process: the same);
        // peak RSS on paths 1M typing usrlibpython 111.7-114.7 MB with an arena a thread,
        // 108.2-109.1 with one.
        _ = mallopt(-8 /* M_ARENA_MAX */, 1)
        // Freed memory stays in the heap, for the next allocation to reuse instead of the
        // kernel zeroing pages anew: every keystroke's search on a million lines allocates
        // result arrays of a few MB, and gets 20-40% faster; loading reuses what it freed
        // (a mapped file's second half is scanned into a store of its own, then copied).
        // Every input loads so: its size is known only once it has ended.
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 1 << 30)
    }

    /// Called once, when the whole input is in and shown.
    ///
    /// The program's code leaves the resident set, as a kernel frees its start-up code after
    /// booting: about 3 MB of code is mapped by then, in 64 KB blocks around every page that
    /// start-up, loading and the first frame ran. What the picker runs from then on comes
    /// back on its first use, and the release link lays that out together (tools/link-order):
    /// after typing usrlibpython on paths 100K, 2.1 MB of code is resident instead of 3.0.
    /// The pages stay in the page cache: nothing is read from disk again.
    ///
    /// And a small input's searches, which allocate results of a few hundred KB, have them
    /// mapped from then on, and given back when freed, rather than kept in the heap. (glibc's
    /// default would raise the mapping threshold past them after the first was freed, and
    /// every later one would stay resident.) On paths 100K, typing usrlibpython peaked
    /// 0.85 MB lower (16.2 -> 15.4 MB, before the code release).
    static func inputShown(lines: Int) {
        pick_release_code_pages()
        guard lines < largeInput else { return }
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 128 << 10)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 128 << 10)
    }
}
