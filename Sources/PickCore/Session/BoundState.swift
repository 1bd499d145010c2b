// What `--bind` adds to a session's state: the chain running, the triggers turned off,
// where each cycling action stands, the sort. Plain data, kept in `PickSession.bound`; the
// executable holds only the processes behind it (a reload's command, a transform's). Where
// the highlight goes after a reload or change-nth is the session's one tracker's
// (HighlightTracker.swift).

/// The state `--bind`'s actions and events keep between keys.
public struct BoundState {
    /// Actions waiting to run, and what set each off.
    public var queue: [(action: BoundAction, trigger: BindTrigger)] = []
    /// Triggers turned off by `unbind`.
    public var unbound: Set<BindTrigger> = []
    /// Which of its layouts each change-preview-window spec showed last.
    public var windowCycle: [String: Int] = [:]
    /// Which of its field ranges each change-nth/change-with-nth spec took last, and the
    /// field options pick started with (what an empty choice goes back to).
    public var fieldCycle: [String: Int] = [:]
    public var fieldsAsStarted: (nth: FieldRanges?, withNth: FieldTemplate?)? = nil
    /// When the events fire.
    public var events = EventWatch()
    /// Whether the list is sorted, once toggle-sort turned it from what the options say.
    public var sorts: Bool? = nil
    /// A binding toggles the sort: the info line says which way it is.
    public var togglesSort = false
    /// A reload ran earlier in the chain now running: a move acts on its lines to come.
    public var reloadInChain = false
    public var rowsBeforeReload = 0
    /// print(…): what is printed on accept, before the lines (fzf's print queue).
    public var printed: [String] = []
    /// A `wait` holds the chain until the search running ends.
    public var waitsForSearch = false
    /// The triggers whose chains `trigger(…)` put in the queue, each with how many entries
    /// follow its chain and how long it is (the chains it set off included): while what is
    /// left of the queue is inside it, the chain runs (and does not run itself again,
    /// fzf's guard against a loop).
    var triggering: [(trigger: BindTrigger, rest: Int, length: Int)] = []
    /// Jump mode (jump, jump-accept): the rows are labelled and the next key goes to its
    /// label's row (and picks it, when `true`); nil when off.
    public var jumping: Bool? = nil
    /// The last click on the header (`click-header`), for the commands it runs.
    public var headerClick: HeaderClick? = nil
    /// The last click on the footer (`click-footer`): its line, column and word (no field
    /// number: fzf gives none for the footer).
    public var footerClick: HeaderClick? = nil
    /// `{fzf:action}` and `$FZF_ACTION`: the last action that ran no command, as fzf names
    /// it (a key the query editor took counts as the editing action fzf binds it to).
    public private(set) var lastAction = "start"
    /// `$FZF_KEY`: the last key pressed, by its `--bind` name; "" before the first (an
    /// event is no key, as fzf's).
    public private(set) var lastKey = ""

    public init() {}

    /// Notes a key pressed (`$FZF_KEY`).
    public mutating func pressed(_ key: Key) { lastKey = BindTrigger.key(key).name }

    /// Notes a key the query editor took: `$FZF_ACTION` names what fzf's default keymap does
    /// with it (`char` for a character typed).
    public mutating func edited(by key: Key) {
        if let name = DefaultKeys.editingAction(of: key) { lastAction = name }
    }

    /// Notes that `kind` runs (for `{fzf:action}`: commands and the preview's do not count).
    public mutating func ran(_ kind: BindActionKind) {
        switch kind {
        case .execute, .executeSilent, .executeMulti, .become, .reload, .reloadSync, .changePreview, .refreshPreview, .preview: break
        default: if !kind.isTransform { lastAction = kind.rawValue }
        }
    }
}

extension BoundState {
    /// The next action to run, taken off the queue.
    public mutating func next() -> (action: BoundAction, trigger: BindTrigger)? {
        guard !queue.isEmpty else {
            triggering = []
            return nil
        }
        let entry = queue.removeFirst()
        triggering.removeAll { $0.rest > queue.count }
        return entry
    }

    /// Drops every action waiting, and a `wait`.
    public mutating func clearQueue() {
        queue = []
        triggering = []
        waitsForSearch = false
    }

    /// trigger(…): the chains `bindings` has for `targets`, in turn, run before the rest of
    /// the queue, as set off by `trigger`. A trigger unbound, or whose chain is running
    /// this one, is skipped (fzf's).
    public mutating func runChains(of targets: [BindTrigger], in bindings: Bindings, firedBy trigger: BindTrigger) {
        let running = Set(triggering.filter { $0.rest <= queue.count && queue.count < $0.rest + $0.length }.map(\.trigger))
        var chain: [(action: BoundAction, trigger: BindTrigger)] = []
        var started: [(trigger: BindTrigger, length: Int)] = []
        for target in targets where !running.contains(target) && !unbound.contains(target) {
            guard let actions = bindings[target] else { continue }
            chain += actions.map { ($0, trigger) }
            started.append((target, actions.count))
        }
        // The chains running now hold the new ones; each new one runs only while its own
        // entries do (`trigger(a,a)` runs a's twice).
        for i in triggering.indices
        where triggering[i].rest <= queue.count && queue.count < triggering[i].rest + triggering[i].length {
            triggering[i].length += chain.count
        }
        var rest = queue.count
        for (target, length) in started.reversed() {
            triggering.append((target, rest, length))
            rest += length
        }
        queue.insert(contentsOf: chain, at: 0)
    }

    /// A key's or an event's chain joins the queue; when nothing was queued, no chain that
    /// `trigger(…)` started is running any more.
    public mutating func enqueue(_ chain: [BoundAction], firedBy trigger: BindTrigger) {
        if queue.isEmpty { triggering = [] }
        queue += chain.map { ($0, trigger) }
    }

    /// A key's chain while a `wait` holds the queue: ignored (nil), unless it holds abort or
    /// cancel, which ends the wait and drops what waited; the actions after it run (fzf's:
    /// `esc:cancel+first`).
    public mutating func keyWhileWaiting(_ chain: [BoundAction]) -> [BoundAction]? {
        guard let stop = chain.firstIndex(where: { $0.kind == .abort || $0.kind == .cancel }) else { return nil }
        clearQueue()
        return Array(chain[(stop + 1)...])
    }
}

extension PickSession {
    /// Jump mode's target: the position in the list of the item `label` names on screen,
    /// the items shown (`listed`, Frame.positionsListed) labelled with `labels` in order.
    public func jumpTarget(_ label: Key, labels: [Character], listed: [Int]) -> Int? {
        guard case .char(let c) = label, let scalar = Unicode.Scalar(c),
              let index = labels.firstIndex(of: Character(scalar)), index < listed.count,
              let count = shown?.lines.count, listed[index] < count else { return nil }
        return listed[index]
    }
}
