// What the shell completion of pick's own options offers (`pick --completion SHELL`, and
// the same script in `pick --shell SHELL`): every long option of OptionTable but those
// refused as not implemented,
// and for an option's value the words below (key names from KeyNames' table). OptionCompletionTests checks that each word
// is one the parser takes and each option one it knows, so the two cannot drift.

/// What completes the value of an option.
public enum OptionValues: Equatable, Sendable {
    /// One of these words.
    case words([String])
    /// A file name.
    case files
    /// A key name (KeyNames' spellings); with `bindings`, or one of fzf's events, followed
    /// by `:` for the actions (`--bind`).
    case keys(bindings: Bool)

    /// The words a key value completes to (`ctrl-x`, or `ctrl-x:` for a binding).
    public var keyWords: [String] {
        guard case .keys(let bindings) = self else { return [] }
        return bindings ? (KeyNames.spellings + BindEvent.allCases.map(\.rawValue)).map { $0 + ":" } : KeyNames.spellings
    }
}

public enum OptionCompletion {
    /// The shells pick has completion (and key bindings) for.
    public static let shells = ["bash", "zsh", "fish"]

    /// The options whose values are a fixed set of words, or files.
    public static let values: [String: OptionValues] = [
        "--layout": .words(["top", "bottom", "reverse", "default", "reverse-list"]),
        "--info": .words(["default", "right", "hidden", "inline", "inline-right"]),
        "--tiebreak": .words(Tiebreak.allCases.map(\.rawValue)),
        "--scheme": .words(["default", "path", "history"]),
        "--color": .words(["dark", "light", "16", "bw"]),
        "--shell": .words(shells),
        "--completion": .words(shells),
        "--border": .words(BorderStyle.allCases.filter { $0 != .inline }.map(\.rawValue)),
        "--tmux": .words(TmuxPopup.Position.allCases.map(\.rawValue)),
        "--popup": .words(TmuxPopup.Position.allCases.map(\.rawValue)),
        "--history": .files,
        "--expect": .keys(bindings: false),
        "--bind": .keys(bindings: true),
    ]

    /// Every long option, sorted.
    public static var optionNames: [String] { Options.longOptions.keys.sorted() }

    /// The options that take a value as the next word (`--query TEXT`), sorted.
    public static var optionsWithValue: [String] {
        Options.longOptions.filter { $0.value == .required }.keys.sorted()
    }
}
