/// Walking `--history`'s past queries (prev-history, next-history), as fzf and readline do:
/// the query being typed is kept while older ones show, and a recalled query edited before
/// walking on keeps its edit when walked back to, until pick exits (the file keeps the
/// queries as they were picked).
public struct HistoryWalk: Sendable {
    /// The past queries, oldest first.
    public private(set) var entries: [String]
    /// Where the walk stands (nil: at the query being typed, kept in `typed`).
    private var index: Int? = nil
    private var typed = ""
    /// Recalled queries as edited, by index.
    private var edited: [Int: String] = [:]

    public init(entries: [String]) { self.entries = entries }

    /// The query one step older or newer than `current` (the query shown), or nil to leave it.
    public mutating func walk(older: Bool, from current: String) -> String? {
        guard !entries.isEmpty else { return nil }
        let next = (index ?? entries.count) + (older ? -1 : 1)
        guard next >= 0 else { return nil }
        if let index {
            edited[index] = current == entries[index] ? nil : current
        } else {
            typed = current
        }
        guard next < entries.count else {
            index = nil
            return typed
        }
        index = next
        return edited[next] ?? entries[next]
    }
}
