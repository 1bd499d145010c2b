import PickCore

// Completing the query: Tab's walk through the completions and the ghost text after the
// cursor, from the session's suggestions (or, for an empty query, the recent queries).

extension Picker {
    func complete() {
        let next = tabCycle.next(for: query) {
            // Tab pressed before the suggestions came: the list's search, then they, at once.
            for _ in 0..<2 {
                guard let job = session.completionJob(), let answer = worker.run(job) else { break }
                perform(.answered(answer))
            }
            return completions()
        }
        if let next { pendingAction = .replaceQuery(next) }
    }

    /// What the ghost text shows: what the best completion adds to the query; for an
    /// empty query, the most recent query from `--history`, which the painter draws as a
    /// hint in brackets (it is not the query).
    func ghostText() -> String {
        if query.isEmpty && !options.ghost.isEmpty { return options.ghost }
        if query.isEmpty { return history.recent(1).first.map { "recent: " + TerminalText.sanitize($0) } ?? "" }
        if let own = highlightedRest() { return TerminalText.sanitize(own) }
        guard session.suggestionGeneration == session.generation, let rest = session.suggestions.first else { return "" }
        return TerminalText.sanitize(rest)
    }

    /// What the highlighted line adds to the query, when it extends it and the suggestion
    /// ranker offers that too: the ghost and Tab's first completion come from the line the
    /// person sees highlighted, not from another that the ranker puts first.
    func highlightedRest() -> String? {
        guard !query.isEmpty, session.suggestionGeneration == session.generation,
              let line = session.highlighted, Int(line) < store.count else { return nil }
        let title = Array(store.bytes(of: Int(line))[store.fields(of: Int(line)).title])
        let own = Completion.extensions(of: query, from: [title], limit: 1,
                                        lowercased: Completion.lowercasesRest(of: query, caseMode: options.matching.caseMode)).first
        return own.flatMap { session.suggestions.contains($0) ? $0 : nil }
    }

    /// The queries Tab offers, best first: the query as typed with what each suggestion
    /// from the list adds (Completion); for an empty query, the recent queries.
    func completions() -> [String] {
        if query.isEmpty { return history.recent(Tunables.Picker.suggestions) }
        guard session.suggestionGeneration == session.generation else { return [] }
        var rests = session.suggestions
        if let own = highlightedRest() {
            rests.removeAll { $0 == own }
            rests.insert(own, at: 0)
        }
        return rests.map { query + $0 }
    }
}
