import PickCore

extension Picker {
    /// The F1 help's lines for `--bind`: every binding in force, what each does (the keys
    /// pick binds itself follow in `keyHelp`; a key bound here wins over them).
    func bindingHelp() -> [String] {
        let bindings = options.bindings
        guard !bindings.isEmpty else { return [] }
        var lines = ["Bound with --bind (a key here wins over the same key below)"]
        for trigger in bindings.triggers {
            let chain = bindings[trigger] ?? []
            var what = chain.isEmpty ? "nothing" : chain.map(describe).joined(separator: ", then ")
            if case .event(let event) = trigger { what += " (" + event.summary + ")" }
            if case .every(let ms) = trigger { what += " (every \(BindTrigger.seconds(ms)) s)" }
            if case .key(let key) = trigger, !KeyNames.isFreeForShortcut(key) { what += " (instead of pick's)" }
            if session.bound.unbound.contains(trigger) { what += " [unbound]" }
            let name = trigger.name
            lines.append("  " + name + String(repeating: " ", count: max(1, 14 - name.count)) + what)
        }
        return lines.map(TerminalText.sanitize) + [""]
    }

    /// The F1 help's last part: every action and event `--bind` takes, by fzf's names, so
    /// that `/` finds one by what it does ("wrap", "label").
    func bindableHelp() -> [String] {
        func line(_ name: String, _ what: String) -> String {
            "  " + name + String(repeating: " ", count: max(1, 30 - name.count)) + what
        }
        var lines = ["Actions for --bind (fzf's names)"]
        for kind in BindActionKind.allCases {
            lines.append(line(kind.rawValue + (kind.takesArgument ? "(…)" : ""), kind.summary))
        }
        lines.append("Events for --bind")
        for event in BindEvent.allCases { lines.append(line(event.rawValue, event.summary)) }
        lines.append(line("every(N)", "every N seconds"))
        return lines + [""]
    }

    /// One action as the help says it: what it does, then its argument.
    func describe(_ action: BoundAction) -> String {
        var text = action.kind.summary
        if let argument = action.argument { text += ": " + argument }
        if action.kind.isPreviewAction && preview == nil { text += " (needs --preview)" }
        return text
    }
}
