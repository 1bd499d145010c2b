// When `--bind`'s events fire: decided here from the session's state, once a turn, so that
// the policy is tested by replaying a session (SessionBindingTests); the picker fires what
// this returns.

/// Watches a session for fzf's events: `start` once; `load` when the input (or a reload's)
/// has been read whole; `focus` when the highlighted line changes; `result` when the list
/// for the query is whole; then, once the input is read whole, `result-final`, and `one` or
/// `zero` when it holds one line or none of all the input; `multi` when the marks change.
/// (`change` and `resize` come from the editor and the terminal; `backward-eof`, `jump`,
/// `jump-cancel` and `click-header` from keys.)
public struct EventWatch {
    private var started = false
    private var loading = true
    /// The highlighted line last seen; -2 before the first answer, -1 for none.
    private var focus: Int64 = -2
    /// The answer `result` last fired for.
    private var resultSeen = (generation: -1, searched: -1)
    /// The marks' version last seen (`multi`).
    private var marksSeen = 0

    public init() {}

    /// The input was replaced (a reload): `load` fires again once it is read.
    public mutating func inputReplaced() {
        loading = true
    }

    /// The events since the last call, in the order they fire.
    public mutating func events(in session: PickSession, loading isLoading: Bool) -> [BindEvent] {
        var events: [BindEvent] = []
        if !started {
            started = true
            events.append(.start)
        }
        if loading && !isLoading {
            loading = false
            events.append(.load)
        }
        if session.marksVersion != marksSeen {
            marksSeen = session.marksVersion
            events.append(.multi)
        }
        // An older query's answer says nothing about this one.
        guard session.resultGeneration == session.generation, let result = session.result else { return events }
        let highlighted = session.highlighted.map(Int64.init) ?? -1
        if highlighted != focus {
            focus = highlighted
            events.append(.focus)
        }
        let seen = (session.generation, result.searched)
        // (A first screen whose whole ranking waits has counted every match: it is the result.)
        guard result.isComplete || session.defersWholeRanking, seen != resultSeen else { return events }
        resultSeen = seen
        events.append(.result)
        if !isLoading && result.searched >= session.candidates {
            events.append(.resultFinal)
            // Real matches only: a close match is no line the query matched (`one:accept`
            // must not pick it).
            // In raw mode the list shows lines that do not match: the count says.
            switch session.shown.map({ $0.matched != nil ? $0.matchCount : $0.lines.count - $0.closeMatches }) {
            case 0: events.append(.zero)
            case 1: events.append(.one)
            default: break
            }
        }
        return events
    }
}

/// fzf's `every(N)` timers: each bound one fires every N milliseconds from the start. A
/// tick that comes due while pick is busy fires once, late, and the next is counted from
/// it: ticks never pile up (as fzf drops those its loop is too busy to take).
public struct EveryTimers: Sendable {
    private var due: [(trigger: BindTrigger, interval: Int, at: Int)]

    /// The timers `bindings` has, the first of each due one interval after `now`.
    public init(_ bindings: Bindings, now: Int) {
        due = bindings.triggers.compactMap { trigger in
            guard case .every(let ms) = trigger else { return nil }
            return (trigger, ms, now + ms)
        }
    }

    public var isEmpty: Bool { due.isEmpty }

    /// The timers due at `now`, in the order they were bound; each is set again from `now`.
    public mutating func fire(at now: Int) -> [BindTrigger] {
        var fired: [BindTrigger] = []
        for i in due.indices where due[i].at <= now {
            fired.append(due[i].trigger)
            due[i].at = now + due[i].interval
        }
        return fired
    }

    /// Milliseconds until the next timer is due (0 when one is), nil with none.
    public func wait(at now: Int) -> Int? {
        due.map { max(0, $0.at - now) }.min()
    }
}
