import PickCore

// `--listen`, the picker's side: the server's requests (ListenServer.swift) are taken in the
// event loop, one at a time and only between chains, so that a POST's actions have all run
// (the query edited, the list reloaded) before the next request is looked at, and a GET
// that follows a POST sees what it did. A POST's chain runs as a key's would.

extension Picker {
    /// Takes what the server has for the picker; true when something ran.
    func serveRemote() -> Bool {
        guard let server = ListenServer.current else { return false }
        var served = false
        while session.bound.queue.isEmpty, pendingAction == nil, outcome == nil, commands.transform == nil, passThrough.isEmpty,
              let (id, command) = server.take() {
            served = true
            switch command {
            case .state(let limit, let offset):
                server.answer(id, HTTPResponse.bytes(status: 200, json: true, body: remoteState(limit: limit, offset: offset).json))
            case .actions(let chain):
                server.answer(id, HTTPResponse.bytes(status: 200, body: ""))
                session.bound.queue += chain.map { ($0, RemoteCommand.remoteTrigger) }
                runBoundActions()
            }
        }
        return served
    }

    /// The state as fzf's GET answers it: `limit` rows of the list (and of the marked lines)
    /// from `offset`.
    func remoteState(limit: Int, offset: Int) -> RemoteState {
        var state = RemoteState()
        // Rows past those ranked so far: the whole ranking first (as select-all does).
        if let shown = session.shown, shown.lines.count - shown.closeMatches < min(shown.matchCount, offset + limit) {
            while let job = session.wholeResultJob(), let answer = worker.run(job) { perform(.answered(answer)) }
        }
        let shown = session.shown
        state.reading = input.isLoading || session.isReloading
        let searched = session.result?.searched ?? 0
        state.progress = session.isSearching && store.count > 0 ? min(99, searched * 100 / store.count) : 100
        state.query = query
        state.sort = session.bound.sorts ?? options.ranking.sorts
        state.totalCount = session.candidates
        state.matchCount = shown?.matchCount ?? 0
        if let line = session.highlighted {
            state.current = remoteItem(line)
            state.position = session.selection
        }
        if let shown {
            let matches = shown.lines.prefix(shown.lines.count - shown.closeMatches)
            if offset < matches.count {
                state.matches = matches.dropFirst(offset).prefix(limit).map(remoteItem)
            }
        }
        if offset < session.marks.count {
            state.selected = session.marks.dropFirst(offset).prefix(limit).map(remoteItem)
        }
        return state
    }

    private func remoteItem(_ line: Int32) -> RemoteItem {
        let index = Int(line)
        let text = Array(linesAsRead.bytes(of: index))
        let searched = Array(store.bytes(of: index))
        let offsets = MatchPositions.inTitle(of: index, store: store, query: parsedQuery)
        return RemoteItem(index: index, text: text, positions: RemoteItem.scalarPositions(ofBytes: offsets, in: searched))
    }
}
