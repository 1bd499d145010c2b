#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import PickCore

/// Runs the session's search jobs on a thread of its own, newest first: a new job cancels
/// the running one, and a job overtaken before it started is skipped. Typing never waits.
/// `run` is the one place the picker calls the engine.
final class SearchWorker {
    /// The engine over the store the picker shows; a reload replaces it (`replace`).
    var engine: SearchEngine { lock.locked { currentEngine } }
    private var currentEngine: SearchEngine
    private let lock = Lock()
    private let wake = DispatchSemaphore(value: 0)
    private var pending: SearchJob? = nil
    private var running: Cancellation? = nil
    private var answers: [SearchAnswer] = []
    /// The last few texts' completions, for a backspace back to one of them.
    private var recentSuggestions: [(text: String, searched: Int, scope: Int, list: [String])] = []

    init(engine: SearchEngine) {
        currentEngine = engine
        spawnThread { [unowned self] in self.loop() }
    }

    /// Hands the worker a job; the event loop is woken when its answer is in.
    func submit(_ job: SearchJob) {
        lock.locked {
            running?.cancel()
            pending = job
        }
        wake.signal()
    }

    /// Drops the job asked for and stops the one running: the event loop has the answer.
    /// The worker goes back to noting characters once that answer's frame is drawn (not
    /// before: it would take a core from drawing it).
    func cancel() {
        lock.locked {
            running?.cancel()
            pending = nil
            notesAfterFrame = true
        }
    }

    private var notesAfterFrame = false

    /// A frame was drawn: an idle worker may use its core again.
    func frameDrawn() {
        if lock.locked({ defer { notesAfterFrame = false }; return notesAfterFrame }) { wake.signal() }
    }

    /// The answers finished since the last call, oldest first.
    func takeAnswers() -> [SearchAnswer] {
        lock.locked {
            defer { answers = [] }
            return answers
        }
    }

    /// Searches `engine` from now on (a reload's store): the running job is stopped, the
    /// one asked for dropped, and answers not yet taken are for the old store.
    func replace(_ engine: SearchEngine) {
        lock.locked {
            running?.cancel()
            pending = nil
            answers = []
            recentSuggestions = []
            currentEngine = engine
        }
        wake.signal()
    }

    /// Runs `job` on the calling thread; nil when cancelled first.
    func run(_ job: SearchJob, cancellation: Cancellation? = nil) -> SearchAnswer? {
        let engine = self.engine
        switch job.kind {
        case .firstRows(let rows):
            return engine.search(job.text, firstRows: rows, cancellation: cancellation)
                .map { .result(generation: job.generation, $0) }
        case .whole:
            return engine.search(job.text, cancellation: cancellation)
                .map { .result(generation: job.generation, job.raw ? engine.rawList($0) : $0) }
        case .suggestions(let matches, let scope):
            // From the lines the list shows only: completion follows the query and the scope.
            let searched = engine.store.count
            if let hit = lock.locked({ recentSuggestions.first {
                $0.text == job.text && $0.searched == searched && $0.scope == scope
            } }) {
                return .suggestions(generation: job.generation, scope: scope, hit.list)
            }
            // (A large list's: the first lines its search matched, or should the engine not
            // remember them, the whole ranking's.)
            let among = matches ?? engine.matchedLines(job.text, limit: Tunables.Picker.suggestionsFromMatches)
                ?? engine.search(job.text, cancellation: cancellation)?.lines
            guard let among else { return nil }
            let found = Suggestions.suggest(job.text, in: engine.store, limit: Tunables.Picker.suggestionsLookedAt,
                                            skipping: engine.skippedLines, among: among)
            let list = Completion.extensions(of: job.text, from: found, limit: Tunables.Picker.suggestions,
                                             lowercased: Completion.lowercasesRest(of: job.text,
                                                                                   caseMode: engine.matching.caseMode))
            lock.locked {
                if recentSuggestions.count == 16 { recentSuggestions.removeFirst() }
                recentSuggestions.append((job.text, searched, scope, list))
            }
            return .suggestions(generation: job.generation, scope: scope, list)
        case .refineBounds:
            engine.refineBounds(cancellation: cancellation)
            return nil
        case .closeMatches(let matches, let scope, let limit):
            return engine.closeMatches(job.text, excluding: matches, scope: scope, limit: limit,
                                       cancellation: cancellation)
                .map { .closeMatches(generation: job.generation, scope: scope, $0) }
        }
    }

    private func loop() {
        while true {
            let store = engine.store
            // Between jobs, once input has loaded, the characters of its lines are noted (a
            // slice at a time, so a new job waits two milliseconds at most): later searches
            // pass over lines that lack a query's character without reading them.
            while store.isFinished && lock.locked({ pending == nil }) && !store.noteCharacters(limit: 1 << 16) {}
            // (Then the first key's bounds are made, their memory touched, a slice at a time.)
            while store.isFinished && lock.locked({ pending == nil }) && !engine.prepareBounds() {}
            wake.wait()
            let next: (SearchJob, Cancellation)? = lock.locked {
                defer { pending = nil }
                guard let job = pending else { return nil }
                let cancellation = Cancellation()
                running = cancellation
                return (job, cancellation)
            }
            guard let (job, cancellation) = next,
                  let answer = run(job, cancellation: cancellation), !cancellation.isCancelled else { continue }
            lock.locked { answers.append(answer) }
            wakeEventLoop(Wake.search)
        }
    }
}
