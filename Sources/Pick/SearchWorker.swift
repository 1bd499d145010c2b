#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import PickCore

/// A mutex for the little state shared with worker threads.
final class Lock {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A finished search, with the suggestions for the same text.
struct SearchOutcome {
    var generation: Int
    var result: SearchResult
    var suggestions: [[UInt8]]
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

    init(engine: SearchEngine, suggestionLimit: Int) {
        self.engine = engine
        self.suggestionLimit = suggestionLimit
        let thread = DispatchQueue(label: "pick.search", qos: .userInitiated)
        thread.async { [unowned self] in self.loop() }
    }

    /// Asks for a search of `text`; the event loop is woken when it is done.
    func submit(generation: Int, text: String) {
        lock.locked {
            running?.cancel()
            pending = (generation, text)
        }
        wake.signal()
    }

    /// The newest finished search, if one finished since the last call.
    func take() -> SearchOutcome? {
        lock.locked {
            defer { finished = nil }
            return finished
        }
    }

    private func loop() {
        while true {
            wake.wait()
            let job: (generation: Int, text: String)? = lock.locked {
                defer { pending = nil }
                if pending != nil { running = Cancellation() }
                return pending
            }
            guard let job else { continue }
            let cancellation = lock.locked { running }
            guard let result = engine.search(job.text, cancellation: cancellation) else { continue }
            if cancellation?.isCancelled == true { continue }
            // Suggestions contain the text, so a plain text's suggestions are among the
            // search's matches: looking at those alone keeps a keystroke cheap on big inputs.
            let among = Suggestions.comeFromSearch(of: job.text, matching: engine.matching) ? result.lines : nil
            let suggestions = Suggestions.suggest(job.text, in: engine.store, limit: suggestionLimit,
                                                  skipping: engine.skippedLines, among: among)
            lock.locked {
                finished = SearchOutcome(generation: job.generation, result: result, suggestions: suggestions)
            }
            wakeEventLoop(Wake.search)
        }
    }
}
