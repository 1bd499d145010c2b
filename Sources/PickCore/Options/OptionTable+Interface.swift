// The option table's rows for the picker's interface and its preview (see OptionTable.swift).

extension OptionTable {
    private static let help = OptionHelp.init

    static let interface: [OptionRow] = [
        OptionRow("--multi", short: "-m", .optional, nextWord: OptionRow.startsWithDigit,
                  help: help(.interface, "--multi[=N]", "mark several lines (at most N) with Tab; all are printed")) {
            $0.multi = true
            if $1.text != nil { $0.multiLimit = try $1.number() }
        },
        .flag("--no-multi", short: "+m") { $0.multi = false },
        .flag("--select-1", short: "-1", help: help(.interface, "--select-1", "pick the only match without asking")) {
            $0.selectOne = true
        },
        .flag("--no-select-1", short: "+1") { $0.selectOne = false },
        .flag("--exit-0", short: "-0", help: help(.interface, "--exit-0", "exit at once when nothing matches")) { $0.exitZero = true },
        .flag("--no-exit-0", short: "+0") { $0.exitZero = false },
        OptionRow("--height", .required,
                  help: help(.interface, "--height=[~][-]N[%]", "draw N rows (or N% of the terminal) below the cursor;\n"
                             + "~N: fewer when the input needs fewer; -N: all but N rows")) {
            try OptionParsing.height($1, into: &$0)
        },
        .flag("--no-height") { $0.height = .full; $0.heightAdapts = false },
        OptionRow("--min-height", .required,
                  help: help(.interface, "--min-height=N[+]", "at least N rows when --height is a percentage (default 10)")) {
            let text = $1.string.hasSuffix("+") ? String($1.string.dropLast()) : $1.string
            guard text.first?.isASCII == true, text.first?.isNumber == true, let n = Int(text), n <= 100_000 else { throw $1.refused("expected a whole number, optionally with +") }
            $0.minHeight = n
            $0.minHeightAuto = $1.string.hasSuffix("+")
        },
        OptionRow("--layout", .required,
                  help: help(.interface, "--layout=LAYOUT", "top (prompt above the list, pick's default: fzf's reverse),\n"
                             + "bottom (fzf's default), reverse-list (prompt below, list top down)")) {
            switch $1.string {
            case "top", "reverse": $0.layout = .top
            case "bottom", "default": $0.layout = .bottom
            case "reverse-list": $0.layout = .reverseList
            default: throw $1.refused("expected top, bottom, or fzf's reverse, default, reverse-list")
            }
        },
        .flag("--reverse", help: help(.interface, "--reverse", "the same as --layout=top")) { $0.layout = .top },
        .flag("--no-reverse") { $0.layout = .bottom },
        OptionRow("--border", .optional, nextWord: OptionRow.notAnOption,
                  help: help(.interface, "--border[=STYLE]", "a border: rounded (default), sharp, bold, double, dashed,\n"
                             + "block, thinblock, horizontal, vertical, top, bottom, left,\nright, line, none;  --no-border  none")) {
            // As fzf: `--border` alone is rounded; a style may follow as the next word.
            let style = try OptionTable.style($1, default: $0.defaultBorder)
            if style == .inline { throw OptionTable.inlineRefused($1) }
            $0.surround.border = style
        },
        .flag("--no-border") { $0.surround.border = .none },
        OptionRow("--border-label", .required,
                  help: help(.interface, "--border-label=TEXT", "a label on the border;  --border-label-pos=N[:bottom]")) {
            $0.surround.label = $1.string
        },
        .flag("--no-border-label") { $0.surround.label = "" },
        OptionRow("--border-label-pos", .required) {
            guard let position = LabelPosition.parse($1.string) else {
                throw $1.refused("expected a column such as 3 or -3, or center, optionally with :bottom")
            }
            $0.surround.labelPosition = position
        },
        OptionRow("--margin", .required, help: help(.interface, "--margin=TRBL", "space outside the border: 1 to 4 sizes, N or N%")) {
            $0.surround.margin = try OptionParsing.spacing($1)
        },
        .flag("--no-margin") { $0.surround.margin = .zero },
        OptionRow("--padding", .required, help: help(.interface, "--padding=TRBL", "space inside the border, likewise")) {
            $0.surround.padding = try OptionParsing.spacing($1)
        },
        .flag("--no-padding") { $0.surround.padding = .zero },
        OptionRow("--info", .required,
                  help: help(.interface, "--info=STYLE", "default, right, hidden, inline, inline-right (the counts on\n"
                             + "the prompt's row);  --no-info  hidden")) {
            guard let style = OptionParsing.infoStyle($1.string) else {
                throw $1.refused("expected default, right, hidden, inline or inline-right, the last two optionally with :PREFIX")
            }
            $0.info = style
        },
        .flag("--no-info") { $0.info = .hidden },
        OptionRow("--info-command", .required,
                  help: help(.interface, "--info-command=CMD", "its output's first line in the counts' place (FZF_INFO\nholds them);  --no-info-command  the counts")) {
            $0.infoCommand = $1.string.isEmpty ? nil : $1.string
        },
        .flag("--no-info-command") { $0.infoCommand = nil },
        .flag("--inline-info") { $0.info = .inline(prefix: " < ") },
        .flag("--no-inline-info") { $0.info = .default },
        .flag("--track", help: help(.interface, "--track", "keep the highlight on its line as the query changes")) { $0.track = true },
        .flag("--no-track") { $0.track = false },
        OptionRow("--id-nth", .required,
                  help: help(.interface, "--id-nth=N[,..]", "the fields that identify a line across a reload, for --track\nand for the marks of a reload-sync")) {
            $0.idNth = try Options.fieldRanges($1.string, $1.name)
        },
        .flag("--no-id-nth") { $0.idNth = nil },
        .flag("--sync", help: help(.interface, "--sync", "start the picker once the input is read whole")) { $0.sync = true },
        .flag("--no-sync") { $0.sync = false },
        .flag("--async") { $0.sync = false },
        .flag("--raw", help: help(.interface, "--raw", "list every line, the ones the query does not match dimmed\n(toggle-raw)")) { $0.raw = true },
        .flag("--no-raw") { $0.raw = false },
        OptionRow("--gutter-raw", .required) { $0.gutterRaw = try OptionParsing.glyph($1, columns: 2) },
        OptionRow("--jump-labels", .required, help: help(.interface, "--jump-labels=CHARS", "the keys jump mode labels the rows with")) {
            let labels = TerminalText.sanitize($1.string)
            guard !labels.isEmpty, labels.allSatisfy({ TerminalText.width(String($0)) == 1 }),
                  Set(labels).count == labels.count else {
                throw OptionError(message: "invalid value for --jump-labels: \(OptionError.quote(labels)) (distinct characters, one column each)")
            }
            $0.jumpLabels = labels
        },
        OptionRow("--pointer", .required,
                  help: help(.interface, "--pointer=STR", "the selected line's mark (default '>');  --marker=STR  a\n"
                             + "marked line's (default '*'); each at most 2 columns")) {
            $0.pointer = try OptionParsing.glyph($1, columns: 2)
        },
        OptionRow("--marker", .required) { $0.marker = try OptionParsing.glyph($1, columns: 2) },
        OptionRow("--gutter", .required,
                  help: help(.interface, "--gutter=CHAR", "the pointer's column on the other rows (default blank, in the\ngutter colour); --gutter-raw=CHAR  in raw mode;  --highlight-line\nthe selected row's colours to its end")) {
            let glyph = try OptionParsing.glyph($1, columns: 1)
            $0.gutter = TerminalText.width(glyph) == 1 ? glyph : nil
        },
        .flag("--highlight-line") { $0.highlightLine = true },
        .flag("--no-highlight-line") { $0.highlightLine = false },
        OptionRow("--separator", .required,
                  help: help(.interface, "--separator=STR", "the rule after the counts (default '─')")) {
            $0.separator = $1.string
        },
        .flag("--no-separator") { $0.separator = "" },
        .flag("--hscroll", help: help(.interface, "--no-hscroll", "cut a long line at its end even when its match is past it\n(--hscroll-off=N: columns kept after the match, 10)")) {
            $0.look.hscroll = true
        },
        .flag("--no-hscroll") { $0.look.hscroll = false },
        OptionRow("--hscroll-off", .required) { $0.look.hscrollOff = try $1.number() },
        .flag("--keep-right", help: help(.interface, "--keep-right", "show a long line's end when no match shows")) {
            $0.look.keepRight = true
        },
        .flag("--no-keep-right") { $0.look.keepRight = false },
        OptionRow("--wrap", .optional, nextWord: OptionRow.notAnOption,
                  help: help(.interface, "--wrap[=char|word]", "a long line goes on over the rows below it (word: broken\n"
                             + "after a blank);  --wrap-sign=STR  starts those rows ('↳ ')")) {
            switch $1.text {
            case nil, "char": $0.look.wrap = true; $0.look.wrapWord = false
            case "word": $0.look.wrap = true; $0.look.wrapWord = true
            default: throw $1.refused("expected char or word")
            }
        },
        .flag("--no-wrap") { $0.look.wrap = false; $0.look.wrapWord = false },
        .flag("--wrap-word") { $0.look.wrap = true; $0.look.wrapWord = true },
        .flag("--no-wrap-word") { $0.look.wrapWord = false },
        OptionRow("--wrap-sign", .required) { $0.wrapSign = OptionParsing.sign($1.string) },
        .flag("--multi-line", help: help(.interface, "--no-multi-line", "a --read0 item's lines on one row, not a row each;\n"
                                         + "--marker-multi-line=STR  a marked one's first, middle and last\nrow's marker ('╻┃╹')")) {
            $0.multiLine = true
        },
        .flag("--no-multi-line") { $0.multiLine = false },
        OptionRow("--marker-multi-line", .required) { $0.markerMultiLine = try OptionParsing.markerMultiLine($1) },
        OptionRow("--gap", .optional, nextWord: OptionRow.startsWithDigit,
                  help: help(.interface, "--gap[=N]", "N blank rows after each item (1), the last with a rule\n"
                             + "(--gap-line[=STR], '┈')")) {
            $0.look.gap = $1.text == nil ? 1 : try $1.number()
        },
        .flag("--no-gap") { $0.look.gap = 0 },
        OptionRow("--gap-line", .optional, nextWord: OptionRow.notAnOption) { $0.gapLine = $1.text },
        .flag("--no-gap-line") { $0.gapLine = "" },
        .flag("--no-clear", help: help(.interface, "--no-clear", "leave the last screen drawn on exit")) { $0.clear = false },
        .flag("--clear") { $0.clear = true },
        .flag("--filepath-word", help: help(.interface, "--filepath-word", "alt-b, alt-f, alt-d and alt-backspace stop at each /")) {
            $0.filepathWord = true
        },
        .flag("--no-filepath-word") { $0.filepathWord = false },
        OptionRow("--freeze-left", .required, help: help(.interface, "--freeze-left=N", "keep a long line's first N fields in view")) {
            $0.look.freezeLeft = try $1.number()
        },
        OptionRow("--freeze-right", .required, help: help(.interface, "--freeze-right=N", "keep a long line's last N fields in view")) {
            $0.look.freezeRight = try $1.number()
        },
        OptionRow("--scroll-off", .required, help: help(.interface, "--scroll-off=N", "keep N lines in view around the highlight (0)")) {
            $0.scrollOff = try $1.number()
        },
        OptionRow("--tabstop", .required, help: help(.interface, "--tabstop=N", "a tab is blank to the next multiple of N columns (8)")) {
            $0.tabStop = try $1.number(min: 1)
        },
        OptionRow("--ellipsis", .required, help: help(.interface, "--ellipsis=STR", "marks a title cut short (default '··', fzf's)")) {
            // fzf takes any text; a mark too wide for a row gives way to `…` there.
            $0.ellipsis = try OptionParsing.glyph($1, columns: 40)
        },
        OptionRow("--prompt", .required, help: help(.interface, "--prompt=TEXT", "the prompt (default '> ')")) { $0.prompt = $1.string },
        OptionRow("--ghost", .required, help: help(.interface, "--ghost=TEXT", "shown dim in place of an empty query")) {
            $0.ghost = TerminalText.sanitize($1.string)
        },
        OptionRow("--header", .required, help: help(.interface, "--header=TEXT", "a line of text above the list")) {
            $0.header = $1.string
        },
        .flag("--no-header") { $0.header = nil },
        OptionRow("--header-lines", .required,
                  help: help(.interface, "--header-lines=N", "the first N input lines are a header, not candidates")) {
            $0.headerLines = try $1.number()
        },
        .flag("--no-header-lines") { $0.headerLines = 0 },
        OptionRow("--scope", .required, origin: .pick, help: help(.interface, "--scope=NAME", "start in the section NAME")) {
            $0.scope = try $1.nonEmpty("section name")
        },
        OptionRow("--bind", .required,
                  help: help(.interface, "--bind=KEY:ACTION", "keys and events (start, change, load…) run actions, as fzf's\n"
                             + "--bind: execute, reload, become, transform… (man pick)")) {
            try $0.bindings.parse($1.string)
        },
        .flag("--disabled", help: help(.interface, "--disabled", "the query does not filter (--bind change:reload… does)")) {
            $0.disabled = true
        },
        .flag("--phony") { $0.disabled = true },
        .flag("--no-input", help: help(.interface, "--no-input", "no prompt row: the query cannot be typed (show-input shows it)")) {
            $0.noInput = true
        },
        .flag("--enabled") { $0.disabled = false },
        .flag("--no-phony") { $0.disabled = false },
        .flag("--cycle", help: help(.interface, "--cycle", "moving past either end wraps around")) { $0.cycle = true },
        .flag("--no-cycle") { $0.cycle = false },
        .flag("--mouse") { $0.mouse = true },
        .flag("--no-mouse", help: help(.interface, "--no-mouse", "leave the mouse to the terminal (default: clicks pick)")) {
            $0.mouse = false
        },
        OptionRow("--history", .required, help: help(.interface, "--history=FILE", "keep queries in FILE; alt-p and alt-n walk them")) {
            $0.history = try $1.nonEmpty("file name")
        },
        .flag("--no-history") { $0.history = nil },
        OptionRow("--history-size", .required,
                  help: help(.interface, "--history-size=N", "keep the last N queries (default 1000)")) {
            $0.historySize = try $1.number(min: 1)
        },
        OptionRow("--color", .required,
                  help: help(.interface, "--color=SPEC", "colors: dark, light, 16, bw, or name:color pairs")) {
            let later = try ColorSpec.parse($1.string)
            $0.color = $0.color.map { $0.merged(with: later) } ?? later
        },
        .flag("--no-color", short: "+c", help: help(.interface, "--no-color", "draw without colors (also NO_COLOR, TERM=dumb)")) { $0.noColor = true },
        .flag("--ansi", help: help(.interface, "--ansi", "draw colour codes; match and print the visible text")) { $0.ansi = true },
        .flag("--no-ansi") { $0.ansi = false },
        tmux("--tmux", help: help(.interface, "--tmux[=POS,W%,H%]", "inside tmux 3.3+, open in a popup: center (default), top,\n"
                                  + "bottom, left, right; sizes default to 50%")),
        tmux("--popup", help: nil),
        .flag("--no-tmux") { $0.tmux = nil },
        .flag("--no-popup") { $0.tmux = nil },
        .flag("--accessible", origin: .pick,
              help: help(.interface, "--accessible", "for screen readers: the cursor rests on the selected row,\n"
                         + "the counts are said in words, the spinner stands still")) {
            $0.accessible = true
        },
        .flag("--no-accessible", origin: .pick) { $0.accessible = false },
    ]

    private static func tmux(_ name: String, help: OptionHelp?) -> OptionRow {
        OptionRow(name, .optional, nextWord: OptionRow.notAnOption, help: help) { options, value in
            guard let text = value.text else { options.tmux = TmuxPopup(); return }
            guard let popup = TmuxPopup(parsing: text) else {
                throw value.refused("expected [center|top|bottom|left|right][,SIZE[%]][,SIZE[%]]")
            }
            options.tmux = popup
        }
    }

    static let preview: [OptionRow] = [
        OptionRow("--preview", .required,
                  help: help(.preview, "--preview=CMD", "show CMD's output for the focused line in a pane; {} is the\n"
                             + "line, {q} the query, {n} its index, {N} a field, each quoted\n"
                             + "(builtin: pick's own previewer of paths, as ctrl-t and alt-c use)")) {
            $0.preview = $1.string
        },
        .flag("--no-preview") { $0.preview = nil },
        OptionRow("--preview-window", .required,
                  help: help(.preview, "--preview-window=OPTS", "fzf's: right,50% (default), left, up, down, N or N%,\n"
                             + "border-STYLE, noborder, wrap, wrap-word, hidden, follow,\n"
                             + "+SCROLL[/D], ~HEADER, <COLS(ALTERNATIVE) for narrow terminals")) {
            $0.previewWindow = try $0.previewWindow.applying($1.string)
        },
        OptionRow("--scrollbar", .optional, nextWord: OptionRow.notAnOption,
                  help: help(.preview, "--scrollbar[=CHARS]", "the list's and the preview's scrollbars (default '│'; CHARS:\n"
                             + "the list's, then the preview's); --no-scrollbar  none")) {
            guard let text = $1.text else { $0.scrollbar = nil; return }
            let glyphs = TerminalText.sanitize(text)
            guard glyphs.count <= 2, glyphs.allSatisfy({ TerminalText.width(String($0)) == 1 }) else {
                throw $1.refused("at most two characters, each one column wide")
            }
            $0.scrollbar = glyphs
        },
        .flag("--no-scrollbar") { $0.scrollbar = "" },
        OptionRow("--preview-wrap-sign", .required,
                  help: help(.preview, "--preview-wrap-sign=STR", "starts a row a wrapped preview line goes on over\n(default: --wrap-sign's)")) {
            $0.previewWrapSign = OptionParsing.sign($1.string)
        },
        OptionRow("--with-shell", .required,
                  help: help(.preview, "--with-shell=CMD", "run commands with CMD and the command as its last argument\n"
                             + "(default: $SHELL -c, any shell, fish included)")) {
            guard let words = try? ShellWords.split($1.string), !words.isEmpty else {
                throw $1.refused("expected a shell and its arguments, such as 'bash -c'")
            }
            $0.withShell = words
        },
    ]
}
