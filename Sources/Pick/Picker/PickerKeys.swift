#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import PickCore

// What each key does in the picker, in order: a paste, a click, the F1 help while it shows;
// `--expect`; `--bind` (`fire`); pick's own keys, the default entries of the same table
// (DefaultKeys, decided in PickCore as every action is); a line's own shortcut; and
// everything else is libedit's (editing the query), handed over as characters.

extension Picker {
    /// Handles one key; returns characters for libedit, or nil when pick took the key.
    func handle(_ key: Key) -> [wchar_t]? {
        keyPressed = true
        keysHandled &+= 1
        switch key {
        case .paste, .cursorReport, .mouse: break
        default: session.bound.pressed(key)
        }
        switch key {
        case .paste(let bytes):
            // Text, never keys: a paste over the help closes it and still goes into the query.
            help = nil
            let text = TerminalText.pastedQuery(bytes)
            if !text.isEmpty && !session.inputHidden { pendingAction = .insert(text) }
            return nil
        case .cursorReport: return nil
        case _ where session.bound.jumping != nil:
            jump(to: key)
            return nil
        case .mouse(let event):
            if help != nil, case .press = event.action { help = nil } else { mouse(event) }
            return nil
        default: break
        }
        if help != nil {
            // Up and Down scroll the help; any other key returns to the list (ctrl-c cancels).
            if !help!.scroll(for: key, page: max(1, geometry.listHeight(headers: headerCount) - 1)) {
                help = nil
                if key == .char(3) { outcome = .cancel(130) }
            }
            return nil
        }
        if session.bound.waitsForSearch {
            // A `wait` holds the chain: keys are ignored, but abort and cancel end the wait
            // (and what waited), the rest of their chain running (fzf's).
            let chain = options.bindings[.key(key)]
                ?? DefaultKeys.chain(for: key, multi: options.multi, preview: preview != nil,
                                     history: options.history != nil) ?? []
            if let rest = session.bound.keyWhileWaiting(chain) {
                session.bound.queue = rest.map { ($0, BindTrigger.key(key)) }
                runBoundActions()
            }
            return nil
        }
        if session.trackBlocked {
            // A reload's tracking holds the picker: a key runs its binding only (PickCore lets
            // abort, cancel and turning tracking off through) and types nothing (fzf's).
            if !fire(.key(key)), let chain = DefaultKeys.chain(for: key, multi: session.settings.multi, preview: preview != nil) {
                for action in chain { run(action, .key(key)) }
            }
            return nil
        }
        if let expected = options.expect.first(where: { $0.key == key }) {
            outcome = .accept(key: expected.written)
            return nil
        }
        if fire(.key(key)) { return nil }
        if key == .escape && isVi { return session.inputHidden ? nil : [0x1B] }
        if query.isEmpty && !session.inputHidden && Self.deletesBackward(key) && options.bindings.binds(.backwardEOF) {
            fire(.event(.backwardEOF))
        }
        // pick's own keys: the default entries of the same table (DefaultKeys).
        if let chain = DefaultKeys.chain(for: key, multi: session.settings.multi, preview: preview != nil,
                                         history: options.history != nil) {
            for action in chain { run(action, .key(key)) }
            return nil
        }
        if KeyNames.isFreeForShortcut(key) {
            shortcuts.learn(from: store)
            if let line = shortcuts.line(for: key) {
                outcome = .pickLine(line)
                return nil
            }
        }
        // While the input is hidden nothing is typed into the query (fzf's).
        if session.inputHidden { return nil }
        session.bound.edited(by: key)
        switch key {
        case .left: return [PrivateKey.left]
        case .home: return [PrivateKey.home]
        case .end: return [PrivateKey.end]
        case .delete: return [PrivateKey.delete]
        case .alt(let c): return [0x1B, wchar_t(bitPattern: c)]
        case .char(let c):
            if c >= 0x80 && c < 0xA0 { return nil }
            return [wchar_t(bitPattern: c)]
        default: return nil
        }
    }

    /// A mouse report becomes fzf's mouse event (`left-click`, `scroll-up`…), run as a key:
    /// `--expect`, then `--bind`, then pick's default entry (DefaultKeys: the wheel moves as
    /// Up and Down, a double-click picks, a right-click marks). A click first highlights the
    /// line under it, as fzf's does; one on the header is `click-header`.
    func mouse(_ event: MouseEvent) {
        let overPreview = preview?.rect.map { $0.contains(row: event.row, column: event.column) } ?? false
        switch event.action {
        case .wheelUp, .wheelDown:
            if let name = MouseKey.named(event, overPreview: overPreview) { pressMouse(name) }
        case .press(let button) where !overPreview && (button == 0 || button == 2):
            if button == 0, let (frame, geometry) = painted, headerOrFooterClicked(event, frame: frame, geometry: geometry) {
                return
            }
            guard let clicked = painted.flatMap({ $0.geometry.line(atRow: event.row, of: $0.frame) }) else { return }
            perform(.select(clicked.position))
            var double = false
            if button == 0 {
                let now = monotonicMillis()
                if let last = lastClick, last.line == clicked.line, now - last.at <= Tunables.Picker.doubleClickMillis {
                    double = true
                }
                // A third click starts the count again.
                lastClick = double ? nil : (clicked.line, now)
            }
            if let name = MouseKey.named(event, overPreview: false, double: double) { pressMouse(name) }
        default: break
        }
    }

    /// A click on a row of the header or the footer fires `click-header` or `click-footer`
    /// with where it landed, numbered as fzf numbers it (the column from the text's first,
    /// after the gutter or the box's indent); false when the click is elsewhere.
    func headerOrFooterClicked(_ event: MouseEvent, frame: Frame, geometry g: Geometry) -> Bool {
        let text = frame.headerTextRows, lines = frame.headers.count - text
        for k in frame.headers.indices {
            guard let place = g.headerPlace(k, text: text, lines: lines, gutter: gutter.width), place.row == event.row,
                  event.column >= place.left else { continue }
            let shown = frame.headers.map { $0.map(\.text).joined() }
            let order = HeaderClick.order(text: Array(shown.prefix(text)), lines: Array(shown.dropFirst(text)),
                                          layout: g.layout)
            let line = HeaderClick.line(ofRow: k, text: text, lines: lines, layout: g.layout)
            session.bound.headerClick = HeaderClick(lines: order, line: line, column: event.column - place.left + 1)
            fire(.event(.clickHeader))
            return true
        }
        let footer = g.parts?.footer ?? []
        for k in footer.indices {
            guard let place = g.footerPlace(k), place.row == event.row, event.column >= place.left else { continue }
            var click = HeaderClick(lines: footer.map(TerminalText.sanitize), line: k + 1, column: event.column - place.left + 1)
            click.nth = nil
            session.bound.footerClick = click
            fire(.event(.clickFooter))
            return true
        }
        return false
    }

    /// Runs a mouse event as a key: `--expect`, `--bind`, or pick's default entry.
    func pressMouse(_ name: MouseKey) {
        let key = Key.mouseEvent(name)
        session.bound.pressed(key)
        if let expected = options.expect.first(where: { $0.key == key }) {
            outcome = .accept(key: expected.written)
            return
        }
        if fire(.key(key)) { return }
        if let chain = DefaultKeys.chain(for: key, multi: session.settings.multi, preview: preview != nil) {
            for action in chain { run(action, .key(key)) }
        }
    }

    func move(_ delta: Int, wraps: Bool = true) { perform(.move(by: delta, wraps: wraps)) }

    /// `pick-down` and `pick-up`, bound in libedit (vi's j and k): as Down and Up.
    func moveOnScreen(down: Bool) -> UInt8 {
        keyPressed = true
        let up = options.layout.listReadsDown ? -1 : 1
        move(down ? -up : up)
        return UInt8(CC_NORM)
    }

    func toggleMark() { perform(.toggleMark) }

    /// Backspace, ctrl-h, ctrl-w, ctrl-u, alt-backspace: the keys that delete backward in
    /// the query (on an empty one, `backward-eof` fires, as fzf's).
    static func deletesBackward(_ key: Key) -> Bool {
        [.char(0x7F), .char(8), .char(0x17), .char(0x15), .alt(0x7F), .alt(8)].contains(key)
    }

    /// jump, jump-accept: the rows on screen get labels until the next key.
    func startJump(accepts: Bool) {
        guard let shown = session.shown, !shown.lines.isEmpty else { return }
        session.bound.jumping = accepts
        perform(.redraw)
    }

    /// The key after jump or jump-accept: a label goes to its row (the `jump` event, and
    /// for jump-accept the pick); any other key ends jump mode (`jump-cancel`) and does
    /// nothing else, as in fzf.
    func jump(to key: Key) {
        guard let accepts = session.bound.jumping else { return }
        session.bound.jumping = nil
        if let position = session.jumpTarget(key, labels: Array(options.jumpLabels), listed: painted?.frame.positionsListed ?? []) {
            perform(.select(position))
            if accepts { outcome = .accept(key: nil) }
            fire(.event(.jump))
        } else {
            fire(.event(.jumpCancel))
        }
        perform(.redraw)
    }
}
