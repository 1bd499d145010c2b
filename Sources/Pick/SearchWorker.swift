#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import PickCore

/// A finished search.
struct SearchOutcome {
    var generation: Int
    var result: SearchResult
}

/// Runs searches off the main thread, newest first: a new request cancels the running one,
/// and requests that were overtaken before they started are skipped. Typing never waits.
final class SearchWorker {
    private let engine: SearchEngine
    private let suggestionLimit: Int
    private let lock = Lock()
    private let wake = DispatchSemaphore(value: 0)
    private var pending: (generation: Int, text: String)? = nil
    private var running: Cancellation? = nil
    private var finished: SearchOutcome? = nil
    private var finishedSuggestions: (generation: Int, list: [[UInt8]])? = nil
    /// Signalled when a frame showing a result is drawn, so the suggestions that follow
    /// (on every core) do not hold up the event loop that draws it.
    private let shown = DispatchSemaphore(value: 0)
    /// Rows a result must rank first (the list's height): a search on a large input
    /// answers with those, then ranks the rest (`SearchEngine`). Fewer rows leave more
    /// lines unscored; a move past them asks for the rest at once (`Picker.completeResult`).
    private var firstRows = 64

    /// Sets the rows a result must rank first.
    func setFirstRows(_ rows: Int) {
        lock.locked { firstRows = max(rows, 16) }
    }

    init(engine: SearchEngine, suggestionLimit: Int) {
        self.engine = engine
        self.suggestionLimit = suggestionLimit
        spawnThread { [unowned self] in self.loop() }
    }

    /// Asks for a search of `text`; the event loop is woken when it is done.
    func submit(generation: Int, text: String) {
        lock.locked {
            running?.cancel()
            pending = (generation, text)
        }
        wake.signal()
    }

    /// Drops the search asked for and stops the one running: the event loop has the answer.
    /// Once a frame shows it, the worker wakes to note the lines' characters (not before:
    /// that would take a core from the frame).
    func cancel() {
        lock.locked {
            running?.cancel()
            pending = nil
            notesWhenShown = true
        }
    }

    private var notesWhenShown = false

    /// The newest finished search, if one finished since the last call.
    func take() -> SearchOutcome? {
        lock.locked {
            defer { finished = nil }
            return finished
        }
    }

    /// Tells the worker a frame now shows the result it last handed over, or the event loop's own.
    func resultShown() {
        shown.signal()
        if lock.locked({ defer { notesWhenShown = false }; return notesWhenShown }) { wake.signal() }
    }

    /// Suggestions (Tab, ghost text) computed after a search, if any arrived since the last call.
    func takeSuggestions() -> (generation: Int, list: [[UInt8]])? {
        lock.locked {
            defer { finishedSuggestions = nil }
            return finishedSuggestions
        }
    }

    /// The last few texts' suggestions, for a backspace back to one of them.
    private var recentSuggestions: [(text: String, searched: Int, list: [[UInt8]])] = []

    private func suggestions(for text: String, searched: Int, among: [Int32]?) -> [[UInt8]] {
        if let hit = recentSuggestions.first(where: { $0.text == text && $0.searched == searched }) { return hit.list }
        let list = Suggestions.suggest(text, in: engine.store, limit: suggestionLimit, skipping: engine.skippedLines,
                                       among: among)
        if recentSuggestions.count == 16 { recentSuggestions.removeFirst() }
        recentSuggestions.append((text, searched, list))
        return list
    }

    private func loop() {
        while true {
            // Between searches, once input has loaded, the characters of its lines are
            // noted (a slice at a time, so a keystroke waits two milliseconds at most): later
            // searches pass over lines that lack a query's character without reading them.
            let store = engine.store
            while store.isFinished && lock.locked({ pending == nil }) && !store.noteCharacters(limit: 1 << 16) {}
            wake.wait()
            let job: (generation: Int, text: String)? = lock.locked {
                defer { pending = nil }
                if pending != nil { running = Cancellation() }
                return pending
            }
            guard let job else { continue }
            // (Two reads, not a tuple: a tuple's type is made from its mangled name at first
            // use, which maps the runtime's demangler back in after the code release.)
            let cancellation = lock.locked { running }
            let rows = lock.locked { firstRows }
            guard var result = engine.search(job.text, firstRows: rows, cancellation: cancellation) else { continue }
            if cancellation?.isCancelled == true { continue }
            if !result.isComplete {
                // The first screen's lines go out now; the whole ranking follows, once that
                // frame is drawn, unless a newer keystroke comes first. It shows the same.
                while shown.wait(timeout: .now()) == .success {}
                lock.locked { finished = SearchOutcome(generation: job.generation, result: result) }
                wakeEventLoop(Wake.search)
                _ = shown.wait(timeout: .now() + .milliseconds(5))
                guard lock.locked({ pending == nil }),
                      let whole = engine.search(job.text, cancellation: cancellation),
                      cancellation?.isCancelled != true else { continue }
                result = whole
            }
            // Suggestions contain the text, so a plain text's suggestions are among the
            // search's matches: looking at those alone keeps a keystroke cheap on big inputs.
            let among = Suggestions.comeFromSearch(of: job.text, matching: engine.matching) ? result.lines : nil
            while shown.wait(timeout: .now()) == .success {}
            lock.locked { finished = SearchOutcome(generation: job.generation, result: result) }
            wakeEventLoop(Wake.search)
            // Suggestions come second, so the list never waits for them, and not at all
            // when a newer keystroke is already waiting.
            guard lock.locked({ pending == nil }) else { continue }
            // (At most a few milliseconds: the loop may be busy, or the result overtaken.)
            _ = shown.wait(timeout: .now() + .milliseconds(5))
            guard lock.locked({ pending == nil }) else { continue }
            let suggestions = suggestions(for: job.text, searched: result.searched, among: among)
            lock.locked { finishedSuggestions = (job.generation, suggestions) }
            wakeEventLoop(Wake.search)
        }
    }
}
