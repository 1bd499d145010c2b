// `--bind`: keys and events that run actions, in fzf's syntax, so that fzf's recipes work
// by changing the name.
//
// The grammar, as fzf's parseKeymap reads it:
//
//     SPEC     := BINDING ( "," BINDING )*
//     BINDING  := TRIGGER ( "," TRIGGER )* ":" CHAIN      (several triggers, one chain)
//     TRIGGER  := a key name (KeyNames) | an event (start load change focus result
//                 result-final one zero resize backward-eof multi jump jump-cancel click-header
//                 click-footer) | every(SECONDS)
//     CHAIN    := ACTION ( "+" ACTION )*                 ("" first: added to the chain bound
//                                                         before, `ctrl-x:+down`)
//     ACTION   := NAME | NAME OPEN ARGUMENT CLOSE | NAME ":" ARGUMENT-TO-THE-END
//
// OPEN/CLOSE are `()`, `[]`, `{}`, `<>`, or one of `~ ! @ # $ % ^ & * ; / |` twice. An
// argument ends at the first CLOSE followed by `+`, `,` or the end of the spec, so it may
// hold any other character; `:` takes everything to the end of the spec. The keys `,`,
// `:` and `+` are written as themselves (`,:abort`, `::up`, `+:down`).
//
// fzf finds the arguments first ("masking" them with blanks, which keeps byte offsets)
// and then splits what is left at `,`, `:` and `+`; this is the same algorithm on bytes,
// so an odd spec means here what it means to fzf. `BindingPrinter` writes a binding back
// in a form that parses to the same value (the fuzz target checks it).

/// What sets a binding off: a key, or an event.
public enum BindTrigger: Hashable, Sendable {
    case key(Key)
    case event(BindEvent)
    /// fzf's `every(N)`: a timer firing every `milliseconds` (at least 10) while pick runs.
    case every(milliseconds: Int)

    /// The trigger's name as `--bind` takes it.
    public var name: String {
        switch self {
        case .key(let key):
            if case .char(let c) = key, c == 0x2C || c == 0x3A || c == 0x2B { return String(UnicodeScalar(UInt8(c))) }
            return KeyNames.name(of: key) ?? "?"
        case .event(let event): return event.rawValue
        case .every(let ms): return "every(" + Self.seconds(ms) + ")"
        }
    }

    /// Whether a key sets it off (the rest are events: a timer is one too).
    public var isKey: Bool {
        if case .key = self { return true }
        return false
    }

    /// Milliseconds as the fewest digits of seconds that say them (`200` → `0.2`).
    public static func seconds(_ ms: Int) -> String {
        var text = String(ms / 1000)
        var rest = ms % 1000
        guard rest > 0 else { return text }
        var digits = ""
        for _ in 0..<3 { digits.append(Character(String(rest / 100))); rest = rest % 100 * 10 }
        while digits.hasSuffix("0") { digits.removeLast() }
        text += "." + digits
        return text
    }

    /// fzf's `every(N)`: N seconds, a positive number (fractions too), at least 0.01.
    static func every(seconds written: String) -> BindTrigger? {
        let trimmed = written.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        guard let secs = Double(String(trimmed)), secs.isFinite, secs > 0 else { return nil }
        let ms = (max(secs, 0.01) * 1000).rounded()
        guard ms <= Double(Int32.max) else { return nil }
        return .every(milliseconds: Int(ms))
    }

    /// Whether the key types a character into the query when nothing is bound to it: an
    /// unbound (`unbind(…)`) letter then types itself, as in fzf, where other keys do nothing.
    public var typesText: Bool {
        guard case .key(.char(let c)) = self else { return false }
        return c >= 0x20 && c != 0x7F
    }
}

/// fzf's events that pick fires.
public enum BindEvent: String, CaseIterable, Sendable {
    /// Once, when the picker starts.
    case start
    /// When the input (or a reload's) has been read whole.
    case load
    /// When the query changes.
    case change
    /// When the highlighted line changes.
    case focus
    /// When the list for the query is ready.
    case result
    /// When the list for the query is ready and the input read whole: the last `result`
    /// until the query or the input changes again.
    case resultFinal = "result-final"
    /// When the list of all the input holds exactly one line.
    case one
    /// When the list of all the input is empty.
    case zero
    /// When the terminal changes size.
    case resize
    /// When a key deletes backward in an empty query (backward-delete-char and the kills
    /// before the cursor).
    case backwardEOF = "backward-eof"
    /// When the marks change (`--multi`).
    case multi
    /// When jump mode went to the row of the key pressed.
    case jump
    /// When jump mode ended with a key that is no label.
    case jumpCancel = "jump-cancel"
    /// When a click lands on the header (`--header`, `--header-lines`).
    case clickHeader = "click-header"
    /// When a click lands on the footer (pick draws no footer yet: it never fires).
    case clickFooter = "click-footer"

    /// What it means, for the F1 help.
    public var summary: String {
        switch self {
        case .start: return "when pick starts"
        case .load: return "when the input (or a reload) is read whole"
        case .change: return "when the query changes"
        case .focus: return "when the highlighted line changes"
        case .result: return "when the list for the query is ready"
        case .resultFinal: return "when the list for the query is ready and the input read whole"
        case .one: return "when exactly one line matches"
        case .zero: return "when nothing matches"
        case .resize: return "when the terminal is resized"
        case .backwardEOF: return "when a key deletes backward in an empty query"
        case .multi: return "when the marks change"
        case .jump: return "when jump mode goes to a row"
        case .jumpCancel: return "when jump mode ends without a label"
        case .clickHeader: return "when the header is clicked"
        case .clickFooter: return "when the footer is clicked"
        }
    }
}

/// What an action does. The raw value is fzf's name.
public enum BindActionKind: String, CaseIterable, Sendable {
    case ignore, accept, abort, up, down, first, last, toggle, select, deselect
    case acceptNonEmpty = "accept-non-empty"
    case pageUp = "page-up", pageDown = "page-down"
    case halfPageUp = "half-page-up", halfPageDown = "half-page-down"
    case selectAll = "select-all", deselectAll = "deselect-all", toggleAll = "toggle-all"
    case clearQuery = "clear-query"
    case toggleSort = "toggle-sort"
    case enableSearch = "enable-search", disableSearch = "disable-search", toggleSearch = "toggle-search"
    case togglePreview = "toggle-preview", showPreview = "show-preview", hidePreview = "hide-preview"
    case refreshPreview = "refresh-preview"
    case previewUp = "preview-up", previewDown = "preview-down"
    case previewPageUp = "preview-page-up", previewPageDown = "preview-page-down"
    // With an argument.
    case put
    case changeQuery = "change-query", changePrompt = "change-prompt", changeHeader = "change-header"
    case changePreview = "change-preview", changePreviewWindow = "change-preview-window"
    case execute, executeSilent = "execute-silent", become
    /// fzf's older form of execute with `{+}` (deprecated there, kept for its recipes).
    case executeMulti = "execute-multi"
    case reload, reloadSync = "reload-sync"
    case transform, transformQuery = "transform-query", transformPrompt = "transform-prompt"
    case transformHeader = "transform-header"
    case changeBorderLabel = "change-border-label", transformBorderLabel = "transform-border-label"
    case changeListLabel = "change-list-label", transformListLabel = "transform-list-label"
    case changeInputLabel = "change-input-label", transformInputLabel = "transform-input-label"
    case changeHeaderLabel = "change-header-label", transformHeaderLabel = "transform-header-label"
    case changeFooterLabel = "change-footer-label", transformFooterLabel = "transform-footer-label"
    case changePreviewLabel = "change-preview-label", transformPreviewLabel = "transform-preview-label"
    case changeFooter = "change-footer", transformFooter = "transform-footer"
    case toggleHeader = "toggle-header", showHeader = "show-header", hideHeader = "hide-header"
    case cancel, printQuery = "print-query", pos
    case toggleIn = "toggle-in", toggleOut = "toggle-out"
    // Editing the query.
    case beginningOfLine = "beginning-of-line", endOfLine = "end-of-line"
    case backwardChar = "backward-char", forwardChar = "forward-char"
    case backwardWord = "backward-word", forwardWord = "forward-word"
    case deleteChar = "delete-char", deleteCharEOF = "delete-char/eof"
    case backwardDeleteChar = "backward-delete-char", backwardDeleteCharEOF = "backward-delete-char/eof"
    case killLine = "kill-line", unixLineDiscard = "unix-line-discard", killWord = "kill-word"
    case backwardKillWord = "backward-kill-word", unixWordRubout = "unix-word-rubout", yank
    case previewHalfPageUp = "preview-half-page-up", previewHalfPageDown = "preview-half-page-down"
    case previewTop = "preview-top", previewBottom = "preview-bottom"
    case unbind, rebind
    case exclude, excludeMulti = "exclude-multi"
    case changeNth = "change-nth", changeWithNth = "change-with-nth"
    // The query searched, the ghost text, the pointer, the fields and the header lines.
    case search, transformSearch = "transform-search"
    case changeGhost = "change-ghost", transformGhost = "transform-ghost"
    case changePointer = "change-pointer", transformPointer = "transform-pointer"
    case transformNth = "transform-nth", transformWithNth = "transform-with-nth"
    case changeHeaderLines = "change-header-lines", transformHeaderLines = "transform-header-lines"
    // Transforms in the background: the chain goes on at once.
    case bgTransform = "bg-transform", bgTransformQuery = "bg-transform-query"
    case bgTransformPrompt = "bg-transform-prompt", bgTransformHeader = "bg-transform-header"
    case bgTransformBorderLabel = "bg-transform-border-label", bgTransformSearch = "bg-transform-search"
    case bgTransformGhost = "bg-transform-ghost", bgTransformPointer = "bg-transform-pointer"
    case bgTransformNth = "bg-transform-nth", bgTransformWithNth = "bg-transform-with-nth"
    case bgTransformHeaderLines = "bg-transform-header-lines"
    case bgTransformListLabel = "bg-transform-list-label", bgTransformInputLabel = "bg-transform-input-label"
    case bgTransformHeaderLabel = "bg-transform-header-label", bgTransformPreviewLabel = "bg-transform-preview-label"
    case bgTransformFooter = "bg-transform-footer", bgTransformFooterLabel = "bg-transform-footer-label"
    case bgCancel = "bg-cancel"
    // Output, other bindings, waiting, the screen.
    case print, trigger, wait, preview
    case toggleBind = "toggle-bind"
    case close, bell
    case replaceQuery = "replace-query"
    case toggleDown = "toggle-down", toggleUp = "toggle-up"
    case prevHistory = "prev-history", nextHistory = "next-history"
    case clearScreen = "clear-screen"
    // pick's own (fzf has none of these): what pick's default keys do (DefaultKeys).
    case complete, takeGhost = "take-ghost", help, nextScope = "next-scope", nextLine = "next-line"
    case forget, suspend
    case toggleHscroll = "toggle-hscroll"
    case toggleWrap = "toggle-wrap", toggleWrapWord = "toggle-wrap-word", toggleMultiLine = "toggle-multi-line"
    case togglePreviewWrap = "toggle-preview-wrap", togglePreviewWrapWord = "toggle-preview-wrap-word"
    case acceptOrPrintQuery = "accept-or-print-query"
    case backwardSubword = "backward-subword", forwardSubword = "forward-subword"
    case killSubword = "kill-subword", backwardKillSubword = "backward-kill-subword"
    case best, downMatch = "down-match", upMatch = "up-match"
    case downSelected = "down-selected", upSelected = "up-selected"
    case clearMulti = "clear-multi", changeMulti = "change-multi"
    case offsetUp = "offset-up", offsetDown = "offset-down", offsetMiddle = "offset-middle"
    case trackCurrent = "track-current", untrackCurrent = "untrack-current"
    case toggleTrack = "toggle-track", toggleTrackCurrent = "toggle-track-current"
    case jump, jumpAccept = "jump-accept"
    case enableRaw = "enable-raw", disableRaw = "disable-raw", toggleRaw = "toggle-raw"
    case hideInput = "hide-input", showInput = "show-input", toggleInput = "toggle-input"

    /// Whether it takes an argument (`put` may go without: it puts the key's character).
    public var takesArgument: Bool {
        switch self {
        case .put, .changeQuery, .changePrompt, .changeHeader, .changePreview, .changePreviewWindow,
             .execute, .executeSilent, .executeMulti, .become, .reload, .reloadSync, .transform, .transformQuery,
             .transformPrompt, .transformHeader, .unbind, .rebind, .changeBorderLabel, .transformBorderLabel, .pos,
             .changeListLabel, .transformListLabel, .changeInputLabel, .transformInputLabel, .changeHeaderLabel,
             .transformHeaderLabel, .changeFooterLabel, .transformFooterLabel, .changeFooter, .transformFooter,
             .changeNth, .changeWithNth, .changeMulti, .search, .transformSearch, .changeGhost, .transformGhost,
             .changePointer, .transformPointer, .transformNth, .transformWithNth, .changeHeaderLines,
             .transformHeaderLines, .bgTransform, .bgTransformQuery, .bgTransformPrompt, .bgTransformHeader,
             .bgTransformBorderLabel, .bgTransformSearch, .bgTransformGhost, .bgTransformPointer, .bgTransformNth,
             .bgTransformWithNth, .bgTransformHeaderLines, .print, .trigger, .preview, .toggleBind,
             .changePreviewLabel, .transformPreviewLabel, .bgTransformListLabel, .bgTransformInputLabel,
             .bgTransformHeaderLabel, .bgTransformPreviewLabel, .bgTransformFooter, .bgTransformFooterLabel:
            return true
        default:
            return false
        }
    }

    /// A transform's command runs and its output says what to do (`PickSession.transformed`).
    public var isTransform: Bool { transformed != nil }

    /// What the output of this transform stands for: the action that takes it as its
    /// argument (`.transform` itself: a chain of actions). Nil for the other actions.
    public var transformed: BindActionKind? {
        switch self {
        case .transform, .bgTransform: return .transform
        case .transformQuery, .bgTransformQuery: return .changeQuery
        case .transformPrompt, .bgTransformPrompt: return .changePrompt
        case .transformHeader, .bgTransformHeader: return .changeHeader
        case .transformBorderLabel, .bgTransformBorderLabel: return .changeBorderLabel
        case .transformListLabel, .bgTransformListLabel: return .changeListLabel
        case .transformInputLabel, .bgTransformInputLabel: return .changeInputLabel
        case .transformHeaderLabel, .bgTransformHeaderLabel: return .changeHeaderLabel
        case .transformPreviewLabel, .bgTransformPreviewLabel: return .changePreviewLabel
        case .transformFooterLabel, .bgTransformFooterLabel: return .changeFooterLabel
        case .transformFooter, .bgTransformFooter: return .changeFooter
        case .transformSearch, .bgTransformSearch: return .search
        case .transformGhost, .bgTransformGhost: return .changeGhost
        case .transformPointer, .bgTransformPointer: return .changePointer
        case .transformNth, .bgTransformNth: return .changeNth
        case .transformWithNth, .bgTransformWithNth: return .changeWithNth
        case .transformHeaderLines, .bgTransformHeaderLines: return .changeHeaderLines
        default: return nil
        }
    }

    /// A transform that runs in the background (`bg-transform…`): the chain does not wait for it.
    public var runsInBackground: Bool { rawValue.hasPrefix("bg-transform") }

    /// Whether it acts on the preview pane.
    public var isPreviewAction: Bool {
        switch self {
        case .togglePreview, .showPreview, .hidePreview, .refreshPreview, .previewUp, .previewDown,
             .previewPageUp, .previewPageDown, .changePreview, .changePreviewWindow, .previewHalfPageUp,
             .previewHalfPageDown, .previewTop, .previewBottom, .preview, .togglePreviewWrap, .togglePreviewWrapWord:
            return true
        default:
            return false
        }
    }

    /// What it does, for the F1 help.
    public var summary: String {
        switch self {
        case .ignore: return "nothing"
        case .accept: return "pick"
        case .acceptNonEmpty: return "pick, if anything matches"
        case .abort: return "cancel"
        case .up: return "move up"
        case .down: return "move down"
        case .first: return "go to the first line"
        case .last: return "go to the last line"
        case .pageUp: return "move a page up"
        case .pageDown: return "move a page down"
        case .halfPageUp: return "move half a page up"
        case .halfPageDown: return "move half a page down"
        case .toggle: return "mark or unmark the line"
        case .select: return "mark the line"
        case .deselect: return "unmark the line"
        case .selectAll: return "mark every match"
        case .deselectAll: return "unmark every line"
        case .toggleAll: return "invert the marks of the matches"
        case .clearQuery: return "clear the query"
        case .toggleSort: return "sort on or off"
        case .toggleHscroll: return "show long lines from their match, or cut at their end"
        case .toggleWrap: return "wrap long lines over the rows below, or cut them"
        case .toggleWrapWord: return "wrap long lines after a blank, or cut them"
        case .toggleMultiLine: return "show a --read0 item's lines on rows of their own, or on one"
        case .togglePreviewWrap: return "wrap the preview's long lines, or cut them"
        case .togglePreviewWrapWord: return "wrap the preview's long lines after a blank, or cut them"
        case .enableSearch: return "filter by the query"
        case .disableSearch: return "stop filtering by the query"
        case .toggleSearch: return "filtering by the query on or off"
        case .togglePreview: return "toggle the preview (show or hide it)"
        case .showPreview: return "show the preview"
        case .hidePreview: return "hide the preview"
        case .refreshPreview: return "run the preview again"
        case .previewUp: return "scroll the preview up"
        case .previewDown: return "scroll the preview down"
        case .previewPageUp: return "scroll the preview a page up"
        case .previewPageDown: return "scroll the preview a page down"
        case .put: return "type"
        case .changeQuery: return "set the query"
        case .changePrompt: return "set the prompt"
        case .changeHeader: return "set the header"
        case .changePreview: return "set the preview command"
        case .changePreviewWindow: return "set the preview window"
        case .execute: return "run on the terminal"
        case .executeSilent: return "run quietly"
        case .executeMulti: return "run on the terminal, each line placeholder the marked lines"
        case .become: return "become the command"
        case .reload: return "reload the list"
        case .reloadSync: return "reload the list, shown once read"
        case .transform: return "run the actions printed"
        case .transformQuery: return "set the query to what prints"
        case .transformPrompt: return "set the prompt to what prints"
        case .transformHeader: return "set the header to what prints"
        case .changeBorderLabel: return "set the border's label"
        case .transformBorderLabel: return "set the border's label to what prints"
        case .changeListLabel: return "set the list's label"
        case .transformListLabel: return "set the list's label to what prints"
        case .changeInputLabel: return "set the input's label"
        case .transformInputLabel: return "set the input's label to what prints"
        case .changeHeaderLabel: return "set the header's label"
        case .transformHeaderLabel: return "set the header's label to what prints"
        case .changeFooterLabel: return "set the footer's label"
        case .transformFooterLabel: return "set the footer's label to what prints"
        case .changePreviewLabel: return "set the preview's label"
        case .transformPreviewLabel: return "set the preview's label to what prints"
        case .changeFooter: return "set the footer"
        case .transformFooter: return "set the footer to what prints"
        case .toggleHeader: return "show or hide the header and header lines"
        case .showHeader: return "show the header and header lines"
        case .hideHeader: return "hide the header and header lines"
        case .changeNth: return "search other fields, each press the next of them"
        case .changeWithNth: return "show other fields, each press the next of them"
        case .exclude: return "take the line out of the list"
        case .excludeMulti: return "take the marked lines (or the line) out of the list"
        case .cancel: return "clear the query, or cancel when it is empty"
        case .printQuery: return "print the query and end"
        case .pos: return "go to the line at this position"
        case .toggleIn: return "mark or unmark the line, and move toward the prompt"
        case .toggleOut: return "mark or unmark the line, and move away from the prompt"
        case .previewHalfPageUp: return "scroll the preview half a page up"
        case .previewHalfPageDown: return "scroll the preview half a page down"
        case .previewTop: return "scroll the preview to its top"
        case .previewBottom: return "scroll the preview to its end"
        case .beginningOfLine: return "to the start of the query"
        case .endOfLine: return "to the end of the query"
        case .backwardChar: return "a character left in the query"
        case .forwardChar: return "a character right in the query"
        case .backwardWord: return "a word left in the query"
        case .forwardWord: return "a word right in the query"
        case .deleteChar: return "delete the character under the cursor"
        case .deleteCharEOF: return "delete the character under the cursor, or cancel when the query is empty"
        case .backwardDeleteChar: return "delete the character before the cursor"
        case .backwardDeleteCharEOF: return "delete the character before the cursor, or cancel when the query is empty"
        case .killLine: return "cut the query from the cursor to its end"
        case .unixLineDiscard: return "cut the query before the cursor"
        case .killWord: return "cut the word after the cursor"
        case .backwardKillWord: return "cut the word before the cursor"
        case .unixWordRubout: return "cut back to the white space before the cursor"
        case .yank: return "paste what was cut last"
        case .unbind: return "turn off the bindings"
        case .acceptOrPrintQuery: return "pick, or print the query when nothing matches"
        case .backwardSubword: return "a word part left in the query (camelCase humps)"
        case .forwardSubword: return "a word part right in the query (camelCase humps)"
        case .killSubword: return "cut the word part after the cursor"
        case .backwardKillSubword: return "cut the word part before the cursor"
        case .best: return "go to the best match (the first line unless in raw mode)"
        case .downMatch: return "move to the next match down"
        case .upMatch: return "move to the next match up"
        case .downSelected: return "move down to the next marked line"
        case .upSelected: return "move up to the next marked line"
        case .clearMulti: return "unmark every line, listed or not"
        case .changeMulti: return "turn marking on (with a limit), or off with 0"
        case .offsetUp: return "scroll the list a line up, the highlight kept on screen"
        case .offsetDown: return "scroll the list a line down, the highlight kept on screen"
        case .offsetMiddle: return "scroll the list to put the highlighted line in the middle"
        case .trackCurrent: return "keep the highlight on this line as the query changes, until it moves"
        case .untrackCurrent: return "stop keeping the highlight on this line"
        case .toggleTrack: return "keep the highlight on its line as the query changes, on or off"
        case .toggleTrackCurrent: return "keep the highlight on this line, on or off"
        case .jump: return "label the rows; the label's key goes to its row"
        case .jumpAccept: return "label the rows; the label's key picks its row"
        case .enableRaw: return "raw mode: list every line, the ones not matching dimmed"
        case .disableRaw: return "leave raw mode: list the matches only"
        case .toggleRaw: return "raw mode on or off"
        case .hideInput: return "hide the prompt's row and the counts; the query cannot be typed"
        case .showInput: return "show the prompt's row and the counts again"
        case .toggleInput: return "hide or show the prompt's row and the counts"
        case .rebind: return "turn on again the bindings"
        case .search: return "search for this, the query left as it is"
        case .transformSearch: return "search for what prints, the query left as it is"
        case .changeGhost: return "set the text shown while the query is empty"
        case .transformGhost: return "set the text shown while the query is empty to what prints"
        case .changePointer: return "set the pointer"
        case .transformPointer: return "set the pointer to what prints"
        case .transformNth: return "search the fields that print"
        case .transformWithNth: return "show the fields that print"
        case .changeHeaderLines: return "set how many first lines are the header"
        case .transformHeaderLines: return "set how many first lines are the header to what prints"
        case .bgTransform: return "run the actions printed, in the background"
        case .bgTransformQuery: return "set the query to what prints, in the background"
        case .bgTransformPrompt: return "set the prompt to what prints, in the background"
        case .bgTransformHeader: return "set the header to what prints, in the background"
        case .bgTransformBorderLabel: return "set the border's label to what prints, in the background"
        case .bgTransformSearch: return "search for what prints, in the background"
        case .bgTransformGhost: return "set the empty query's text to what prints, in the background"
        case .bgTransformPointer: return "set the pointer to what prints, in the background"
        case .bgTransformNth: return "search the fields that print, in the background"
        case .bgTransformWithNth: return "show the fields that print, in the background"
        case .bgTransformHeaderLines: return "set the header lines to what prints, in the background"
        case .bgTransformListLabel: return "set the list's label to what prints, in the background"
        case .bgTransformInputLabel: return "set the input's label to what prints, in the background"
        case .bgTransformHeaderLabel: return "set the header's label to what prints, in the background"
        case .bgTransformPreviewLabel: return "set the preview's label to what prints, in the background"
        case .bgTransformFooter: return "set the footer to what prints, in the background"
        case .bgTransformFooterLabel: return "set the footer's label to what prints, in the background"
        case .bgCancel: return "stop the background transforms, their output dropped"
        case .print: return "print this too when picking"
        case .trigger: return "run what these keys or events are bound to"
        case .wait: return "wait for the search to finish before the next action"
        case .preview: return "preview with this command, once"
        case .toggleBind: return "turn the bindings off, or on again"
        case .close: return "hide the preview, or cancel when it is hidden"
        case .bell: return "ring the terminal's bell"
        case .replaceQuery: return "set the query to the line"
        case .toggleDown: return "mark or unmark the line, and move down"
        case .toggleUp: return "mark or unmark the line, and move up"
        case .prevHistory: return "the older query (--history)"
        case .nextHistory: return "the newer query (--history)"
        case .clearScreen: return "draw the screen again"
        case .complete: return "complete the query"
        case .takeGhost: return "take the dim suggestion (at the end of the query), else a character right"
        case .help: return "this help"
        case .nextScope: return "next scope"
        case .nextLine: return "next line, away from the prompt (older, in history)"
        case .forget: return "forget the line (--remember)"
        case .suspend: return "suspend (fg resumes)"
        }
    }
}

/// One action of a chain, with its argument (nil for one that takes none, and for `put`
/// without one, which puts the key's character).
public struct BoundAction: Equatable, Sendable {
    public var kind: BindActionKind
    /// The argument as written (what the help shows and `printed` writes back).
    public var argument: String?
    /// The argument as a typed value, parsed once when the binding was read.
    public var value: ActionArgument?

    /// An action as `--bind` reads it: the argument parsed into `value` (one that does
    /// not parse has none, and the action then does nothing; the parser refuses it first).
    public init(_ kind: BindActionKind, _ argument: String? = nil) {
        self.kind = kind
        self.argument = argument
        value = argument.flatMap { try? ActionArgument.parse(kind, $0) }
    }

    init(_ kind: BindActionKind, _ argument: String, value: ActionArgument) {
        self.kind = kind
        self.argument = argument
        self.value = value
    }

    /// The action as `--bind` takes it, with its argument in brackets that hold it.
    public var written: String {
        guard let argument else { return kind.rawValue }
        if let (open, close) = BindingParser.delimiters(holding: argument) {
            return kind.rawValue + String(open) + argument + String(close)
        }
        return kind.rawValue + ":" + argument
    }
}

/// Every binding in force, in the order first bound.
public struct Bindings: Equatable, Sendable {
    public private(set) var triggers: [BindTrigger] = []
    private var chains: [BindTrigger: [BoundAction]] = [:]

    public init() {}

    /// The chain bound to `trigger`, if any.
    public subscript(trigger: BindTrigger) -> [BoundAction]? {
        chains[trigger]
    }

    public var isEmpty: Bool { triggers.isEmpty }

    /// Whether an event is bound: the picker checks for one only then.
    public func binds(_ event: BindEvent) -> Bool { chains[.event(event)] != nil }

    /// Whether `start` reloads: then, as in fzf, the reload's output is the input and
    /// standard input (or the file walker) is never read.
    public var reloadsOnStart: Bool {
        chains[.event(.start)]?.contains { $0.kind == .reload || $0.kind == .reloadSync } ?? false
    }

    /// Binds `chain` to `trigger`, replacing what it had.
    public mutating func bind(_ trigger: BindTrigger, _ chain: [BoundAction]) {
        if chains[trigger] == nil { triggers.append(trigger) }
        chains[trigger] = chain
    }

    /// Parses one `--bind` value into these bindings (a later binding of a trigger replaces
    /// an earlier one; a chain starting with `+` adds to it).
    public mutating func parse(_ spec: String) throws(OptionError) {
        do {
            try BindingParser.parse(spec, into: &self)
        } catch {
            throw OptionError(message: "invalid value for --bind: \(error.message)")
        }
    }

    /// The triggers a comma-separated list names (`unbind` and `rebind` take one).
    public static func triggers(in list: String) throws(OptionError) -> [BindTrigger] {
        do {
            return try BindingParser.triggers(in: list)
        } catch {
            throw OptionError(message: error.message)
        }
    }

    /// The actions a transform's command printed, as a chain bound to `trigger`.
    public static func chain(_ text: String, for trigger: BindTrigger) throws(OptionError) -> [BoundAction] {
        let bytes = Array(text.utf8)
        do {
            let masked = Array(BindingParser.mask([0x3A] + bytes).dropFirst())
            return try BindingParser.parseChain(masked[...], bytes[...], previous: [], trigger: trigger)
        } catch {
            throw OptionError(message: error.message)
        }
    }

    /// `--bind` values that bind exactly these chains, one trigger each (a chain with an
    /// argument no brackets can hold continues in a value of its own, `KEY:+…`).
    public var printed: [String] {
        var specs: [String] = []
        for trigger in triggers {
            let chain = chains[trigger]!
            var current: [String] = []
            var continues = false
            func flush() {
                specs.append(trigger.name + ":" + (continues ? "+" : "") + current.joined(separator: "+"))
                current = []
                continues = true
            }
            for action in chain {
                current.append(action.written)
                if let argument = action.argument, BindingParser.delimiters(holding: argument) == nil { flush() }
            }
            if !current.isEmpty || !continues { flush() }
        }
        return specs
    }
}

/// fzf's parser, on bytes: arguments are masked first, then the rest is split.
enum BindingParser {
    struct Failure: Error { var message: String }

    // Bytes fzf puts in the masked string for `:`, `,` and `+` written as keys.
    static let escapedColon: UInt8 = 0, escapedComma: UInt8 = 1, escapedPlus: UInt8 = 2

    /// fzf's actions that take an argument, as its argActionRegexp tries them: the first
    /// that matches after a `:` or `+` wins.
    static let argumentActions: [[UInt8]] = {
        var names = ["become", "execute-multi", "execute-silent", "execute", "reload-sync", "reload", "preview"]
        let suffixes = ["query", "prompt", "border-label", "list-label", "preview-label", "input-label",
                        "header-label", "footer-label", "header-lines", "header", "footer", "search",
                        "with-nth", "nth", "pointer", "ghost"]
        for prefix in ["change", "bg-transform", "transform"] { names += suffixes.map { prefix + "-" + $0 } }
        names += ["bg-transform", "transform", "change-preview-window", "change-preview", "change-multi",
                  "rebind", "unbind", "toggle-bind", "pos", "put", "print", "search", "trigger"]
        return names.map { Array($0.utf8) }
    }()

    /// Brackets and the characters that close them; the rest close themselves.
    static let pairs: [(UInt8, UInt8)] = [(0x28, 0x29), (0x5B, 0x5D), (0x7B, 0x7D), (0x3C, 0x3E)]
    static let selfClosing: [UInt8] = Array("~!@#$%^&*;/|".utf8)

    /// The closing byte for an opening one, or nil when it opens nothing.
    static func closing(_ open: UInt8) -> UInt8? {
        if let pair = pairs.first(where: { $0.0 == open }) { return pair.1 }
        return selfClosing.contains(open) ? open : nil
    }

    /// Brackets that can hold `argument` before a `+`, a `,` or the end: it has no closing
    /// byte followed by `+` or `,`. Nil when none can (only `:` at the end can then).
    static func delimiters(holding argument: String) -> (Character, Character)? {
        let bytes = Array(argument.utf8)
        let opens = pairs.map(\.0) + selfClosing
        for open in opens {
            let close = closing(open)!
            var fits = true
            for i in bytes.indices where bytes[i] == close {
                let next = i + 1 < bytes.count ? bytes[i + 1] : close
                if next == 0x2B || next == 0x2C { fits = false; break }
            }
            if fits { return (Character(UnicodeScalar(open)), Character(UnicodeScalar(close))) }
        }
        return nil
    }

    /// fzf's maskActionContents: every argument's bytes (with its brackets) become blanks,
    /// then the keys `:`, `,` and `+` become the escape bytes. The length stays the same.
    static func mask(_ s: [UInt8]) -> [UInt8] {
        var masked: [UInt8] = []
        masked.reserveCapacity(s.count)
        var at = 0
        scan: while at < s.count {
            guard let end = nextArgumentAction(s, from: at) else {
                masked += s[at...]
                break
            }
            masked += s[at..<end]
            at = end
            guard at < s.count else { break }
            let open = s[at]
            if open == 0x3A {  // `:` takes the rest
                masked += repeatElement(0x20, count: s.count - at)
                break scan
            }
            guard let close = closing(open) else { continue }
            // The first closing byte followed by `+`, `,` or the end.
            var found: Int? = nil
            var j = at + 1
            while j < s.count {
                if s[j] == close && (j + 1 == s.count || s[j + 1] == 0x2B || s[j + 1] == 0x2C) { found = j; break }
                j += 1
            }
            guard let found else {
                masked += s[at...]
                break
            }
            masked += repeatElement(0x20, count: found + 1 - at)
            at = found + 1
        }
        replace(&masked, [0x2C, 0x2C, 0x2C], [0x2C, escapedComma, 0x2C])
        replace(&masked, [0x2C, 0x3A, 0x2C], [0x2C, escapedColon, 0x2C])
        replace(&masked, [0x3A, 0x3A], [escapedColon, 0x3A])
        replace(&masked, [0x2C, 0x3A], [escapedComma, 0x3A])
        replace(&masked, [0x2B, 0x3A], [escapedPlus, 0x3A])
        return masked
    }

    /// Where the name of the first action with an argument after a `:` or `+` ends.
    static func nextArgumentAction(_ s: [UInt8], from start: Int) -> Int? {
        var i = start
        while i < s.count {
            if s[i] == 0x3A || s[i] == 0x2B {
                for name in argumentActions where hasPrefix(s, at: i + 1, name) { return i + 1 + name.count }
            }
            i += 1
        }
        return nil
    }

    static func hasPrefix(_ s: [UInt8], at start: Int, _ name: [UInt8]) -> Bool {
        guard start + name.count <= s.count else { return false }
        for k in 0..<name.count where lower(s[start + k]) != name[k] { return false }
        return true
    }

    static func lower(_ b: UInt8) -> UInt8 { (0x41...0x5A).contains(b) ? b | 0x20 : b }

    /// Go's strings.ReplaceAll: left to right, without overlaps.
    static func replace(_ s: inout [UInt8], _ old: [UInt8], _ new: [UInt8]) {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if i + old.count <= s.count && s[i..<(i + old.count)].elementsEqual(old) {
                out += new
                i += old.count
            } else {
                out.append(s[i])
                i += 1
            }
        }
        s = out
    }

    /// Splits at `separator` (Go's strings.Split: n separators give n+1 parts).
    static func split(_ s: ArraySlice<UInt8>, _ separator: UInt8) -> [ArraySlice<UInt8>] {
        s.split(separator: separator, omittingEmptySubsequences: false)
    }

    static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Keys

    /// The trigger a name spells: a key from KeyNames, or an event.
    static func trigger(named raw: ArraySlice<UInt8>) throws(Failure) -> BindTrigger {
        if raw.count == 1 {
            switch raw.first! {
            case escapedColon: return .key(.char(0x3A))
            case escapedComma: return .key(.char(0x2C))
            case escapedPlus: return .key(.char(0x2B))
            default: break
            }
        }
        // `alt-,` and the like reach here with the escape byte in place of the character.
        let name = text(raw).map { c -> Character in
            switch c {
            case "\u{0}": return ":"
            case "\u{1}": return ","
            case "\u{2}": return "+"
            default: return c
            }
        }
        let written = String(name)
        if let event = BindEvent(rawValue: written.lowercased()) { return .event(event) }
        if written.lowercased().hasPrefix("every("), written.hasSuffix(")") {
            guard let timer = BindTrigger.every(seconds: String(written.dropFirst(6).dropLast())) else {
                throw Failure(message: "every() requires a positive number of seconds (up to \(Int32.max / 1000))")
            }
            return timer
        }
        if let key = KeyNames.key(named: written) { return .key(key) }
        if KeyNames.eventNames.contains(written.lowercased()) {
            throw Failure(message: "event \(OptionError.quote(written)) is not implemented yet (fzf event)")
        }
        throw Failure(message: KeyNames.refusal(written))
    }

    /// The triggers in a comma-separated list (unbind, rebind), as fzf's parseKeyChords.
    static func triggers(in list: String) throws(Failure) -> [BindTrigger] {
        var bytes = Array(list.utf8)
        // `alt-,` keeps its comma.
        var i = 0
        while i + 4 < bytes.count {
            if hasPrefix(bytes, at: i, Array("alt-".utf8)) && bytes[i + 4] == 0x2C { bytes[i + 4] = escapedComma }
            i += 1
        }
        var tokens = split(bytes[...], 0x2C)
        if list == "," || list.hasPrefix(",,") || list.hasSuffix(",,") || list.contains(",,,") {
            tokens.append([0x2C][...])
        }
        var found: [BindTrigger] = []
        for token in tokens where !token.isEmpty {
            found.append(try trigger(named: token.count == 1 && token.first == 0x2C ? [escapedComma][...] : token))
        }
        return found
    }

    // MARK: Bindings

    static func parse(_ spec: String, into bindings: inout Bindings) throws(OptionError) {
        do {
            try parseKeymap(Array(spec.utf8), into: &bindings)
        } catch {
            throw OptionError(message: error.message)
        }
    }

    /// fzf's parseKeymap.
    static func parseKeymap(_ original: [UInt8], into bindings: inout Bindings) throws(Failure) {
        let masked = mask(original)
        var pending: [ArraySlice<UInt8>] = []
        // The masked string is as long as the original: a part of one is the same range of
        // the other.
        for pair in split(masked[...], 0x2C) {
            let colon = pair.firstIndex(of: 0x3A)
            let keyName = pair[..<(colon ?? pair.endIndex)]
            guard !keyName.isEmpty else { throw Failure(message: "key name required") }
            pending.append(keyName)
            guard let colon else { continue }
            let maskedChain = masked[(colon + 1)..<pair.endIndex]
            let originalChain = original[(colon + 1)..<pair.endIndex]
            for name in pending {
                let trigger = try trigger(named: name)
                do {
                    let chain = try parseChain(maskedChain, originalChain, previous: bindings[trigger] ?? [],
                                               trigger: trigger)
                    bindings.bind(trigger, chain)
                } catch {
                    throw Failure(message: "\(OptionError.shorten(trigger.name)): \(error.message)")
                }
            }
            pending = []
        }
        if !pending.isEmpty {
            let names = pending.map { text($0) }.joined(separator: ", ")
            throw Failure(message: "no action bound to \(OptionError.quote(names))")
        }
    }

    /// fzf's parseActionList.
    static func parseChain(_ masked: ArraySlice<UInt8>, _ original: ArraySlice<UInt8>, previous: [BoundAction],
                           trigger: BindTrigger) throws(Failure) -> [BoundAction] {
        var actions: [BoundAction] = []
        for (index, part) in split(masked, 0x2B).enumerated() {
            let spec = original[part.startIndex..<part.endIndex]
            if index == 0 && spec.isEmpty {
                actions = previous + actions
                continue
            }
            let lowered = text(spec).lowercased()
            if let expanded = aliases[lowered] {
                actions += expanded
                continue
            }
            if let kind = BindActionKind(rawValue: lowered), !kind.takesArgument || kind == .put || kind == .changeMulti {
                if kind == .put {
                    guard case .key(let key) = trigger, KeyNames.printable(key) != nil else {
                        throw Failure(message: "put without an argument needs a printable key, not \(OptionError.quote(trigger.name))")
                    }
                }
                actions.append(BoundAction(kind))
                continue
            }
            actions.append(try argumentAction(Array(spec)))
        }
        return actions
    }

    /// Names fzf takes for an action without an argument, and what pick does for them.
    static let aliases: [String: [BoundAction]] = [
        "top": [BoundAction(.first)],
        "clear-selection": [BoundAction(.clearMulti)],
        "next-selected": [BoundAction(.downSelected)],
        "prev-selected": [BoundAction(.upSelected)],
        "previous-history": [BoundAction(.prevHistory)],
        "track": [BoundAction(.trackCurrent)],
    ]

    /// fzf's actions pick does not have (yet): refused as such, not as unknown.
    static let fzfActionsNotImplemented: Set<String> = [
        "line-discard", "word-rubout",
    ]

    /// An action with an argument: `name(…)` (any bracket) or `name:…`.
    static func argumentAction(_ spec: [UInt8]) throws(Failure) -> BoundAction {
        let name = spec.prefix { (0x61...0x7A).contains(lower($0)) || $0 == 0x2D }
        let lowered = text(name[...]).lowercased()
        let whole = text(spec[...])
        // Masked alone, the argument must vanish (as fzf's isExecuteAction checks).
        let alone = mask([0x3A] + spec).dropFirst()
        guard !alone.elementsEqual(spec), name.count < spec.count else {
            if fzfActionsNotImplemented.contains(whole.lowercased()) {
                throw Failure(message: "action \(OptionError.quote(whole)) is not implemented yet (fzf action)")
            }
            if let kind = BindActionKind(rawValue: whole.lowercased()), kind.takesArgument {
                throw Failure(message: "action \(OptionError.quote(whole)) needs an argument, as \(kind.rawValue)(…)")
            }
            throw Failure(message: "unknown action \(OptionError.quote(whole))")
        }
        guard let kind = BindActionKind(rawValue: lowered), kind.takesArgument else {
            if argumentActions.contains(Array(lowered.utf8)) {
                throw Failure(message: "action \(OptionError.quote(lowered)) is not implemented yet (fzf action)")
            }
            throw Failure(message: "unknown action \(OptionError.quote(whole))")
        }
        let argument: String
        if spec[name.count] == 0x3A {
            argument = text(spec[(name.count + 1)...])
        } else {
            argument = text(spec[(name.count + 1)..<(spec.count - 1)])
        }
        do {
            return BoundAction(kind, argument, value: try ActionArgument.parse(kind, argument))
        } catch {
            throw Failure(message: error.message)
        }
    }
}

/// An action's argument as a typed value, made once when the binding is read (never again
/// when its key fires).
public enum ActionArgument: Equatable, Sendable {
    /// Text as written: a query, a prompt, a header, a label, a command, a preview layout.
    case text(String)
    /// pos: fzf's position, 1 the first line, -1 the last.
    case position(Int)
    /// change-multi: the most lines that may be marked (0: marking off).
    case count(Int)
    /// change-nth: the choices cycled through (nil: the option as given).
    case fields([FieldRanges?])
    /// change-with-nth: the choices cycled through, field indexes or templates (nil: the
    /// option as given).
    case shownFields([FieldTemplate?])
    /// change-preview-window: the layouts cycled through, each known to apply.
    case layouts([String])
    /// unbind, rebind, toggle-bind, trigger: the keys and events.
    case triggers([BindTrigger])
    /// execute, reload, transform…, change-preview: the command, its placeholders parsed.
    case command(CommandTemplate)

    /// `argument` parsed for `kind`, or the reason it does not parse.
    public static func parse(_ kind: BindActionKind, _ argument: String) throws(OptionError) -> ActionArgument {
        switch kind {
        case .changePreviewWindow:
            let layouts = argument.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            for layout in layouts {
                do {
                    _ = try PreviewWindow().applying(layout)
                } catch {
                    throw OptionError(message: "change-preview-window: \(error.message)")
                }
            }
            return .layouts(layouts)
        case .changeWithNth:
            var choices: [FieldTemplate?] = []
            for text in argument.split(separator: "|", omittingEmptySubsequences: false) {
                guard !text.isEmpty else { choices.append(nil); continue }
                choices.append(try Options.fieldTemplate(String(text), kind.rawValue))
            }
            return .shownFields(choices)
        case .changeNth:
            var choices: [FieldRanges?] = []
            for ranges in argument.split(separator: "|", omittingEmptySubsequences: false) {
                guard !ranges.isEmpty else { choices.append(nil); continue }
                do {
                    choices.append(try FieldRanges(parsing: String(ranges)))
                } catch {
                    throw OptionError(message: "\(kind.rawValue): \(error.message)")
                }
            }
            return .fields(choices)
        case .pos:
            guard let position = Int(argument) else {
                throw OptionError(message: "pos needs a line's position, as pos(3) or pos(-1): \(OptionError.quote(argument))")
            }
            return .position(position)
        case .changeHeaderLines:
            guard let count = Int(argument), count >= 0 else {
                throw OptionError(message: "change-header-lines needs a number of lines, as change-header-lines(2): \(OptionError.quote(argument))")
            }
            return .count(count)
        case .changePointer:
            // One wider than 2 columns does nothing when it fires, as fzf's (PickSession.decide).
            return .text(TerminalText.sanitize(argument))
        case .changeMulti:
            // fzf accepts any argument; one that is no count of lines changes nothing.
            guard let limit = Int(argument), limit >= 0 else { return .text(argument) }
            return .count(limit)
        case .unbind, .rebind, .trigger, .toggleBind:
            let targets: [BindTrigger]
            do {
                targets = try BindingParser.triggers(in: argument)
            } catch {
                throw OptionError(message: "\(kind.rawValue): \(error.message)")
            }
            if targets.isEmpty { throw OptionError(message: "\(kind.rawValue) needs a key or event to act on") }
            return .triggers(targets)
        case .execute, .executeSilent, .become, .reload, .reloadSync, .transform, .transformQuery, .transformPrompt,
             .transformHeader, .transformBorderLabel, .transformListLabel, .transformInputLabel, .transformHeaderLabel,
             .transformFooterLabel, .transformFooter, .changePreview, .transformSearch, .transformGhost,
             .transformPointer, .transformNth, .transformWithNth, .transformHeaderLines, .bgTransform,
             .bgTransformQuery, .bgTransformPrompt, .bgTransformHeader, .bgTransformBorderLabel, .bgTransformSearch,
             .bgTransformGhost, .bgTransformPointer, .bgTransformNth, .bgTransformWithNth, .bgTransformHeaderLines,
             .preview, .transformPreviewLabel, .bgTransformListLabel, .bgTransformInputLabel, .bgTransformHeaderLabel,
             .bgTransformPreviewLabel, .bgTransformFooter, .bgTransformFooterLabel:
            return .command(CommandTemplate(argument))
        case .executeMulti:
            return .command(CommandTemplate(argument).forcingMarked)
        default:
            return .text(argument)
        }
    }
}

extension KeyNames {
    /// The character a key types, if it types one (for `put` without an argument).
    public static func printable(_ key: Key) -> String? {
        guard case .char(let c) = key, c >= 0x20, c != 0x7F, !(0x80..<0xA0).contains(c),
              let scalar = Unicode.Scalar(c) else { return nil }
        return String(Character(scalar))
    }
}
