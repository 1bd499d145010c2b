#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// How the picker ended.
enum Outcome {
    /// Return (or an `--expect` key, named) on the selected line, or the marked lines.
    case accept(key: String?)
    /// A line's own shortcut picked it.
    case pickLine(Int32)
    /// Escape, ctrl-c, ctrl-g or a signal: exit with this status.
    case cancel(Int32)
    /// Input could not be read.
    case failure(String)
    /// `print-query`: the query alone is printed.
    case printQuery
}

/// The interactive mode: the picker on /dev/tty, then the output and the exit status.
enum Interactive {
    /// Runs the picker and returns pick's exit status (0 picked, 1 nothing, 2 error, 130 cancelled).
    /// `store` holds the lines as read; with `fields`, the engine searches `fields.searched`.
    static func run(options: Options, store original: LineStore, fields: FieldView?, styles: AnsiStyles?,
                    stdout: Output, terminator: [UInt8], loadInput: () -> Void) -> Int32 {
        let store = fields?.searched ?? original
        var alreadyRead = options.demo || options.sync && !options.bindings.reloadsOnStart
        // --sync: the picker starts once the input is read whole (another picker before it in
        // a pipeline keeps the terminal until then).
        if alreadyRead { loadInput() }
        if options.selectOne || options.exitZero {
            if !alreadyRead { loadInput() }
            alreadyRead = true
            let engine = SearchEngine(store: store, matching: options.matching, ranking: options.ranking,
                                      skippedLines: options.headerLines)
            var result = engine.search(options.query)!
            if let name = options.scope, let index = Scopes.index(named: name, in: store) {
                result = Scopes.filter(result, to: index)
            }
            if options.exitZero && result.lines.isEmpty {
                if options.printQuery { stdout.write(Array(options.query.utf8)); stdout.write(terminator) }
                stdout.flush()
                return 1
            }
            if options.selectOne && result.lines.count == 1 {
                write(query: options.query, key: nil, lines: result.lines, options: options, store: original,
                      fields: fields, stdout: stdout, terminator: terminator)
                Remember.recordPick(result.lines.count, lines: { result.lines.map { Array(original.bytes(of: Int($0))) } },
                                    query: options.query, options: options)
                return 0
            }
        }

        let input = alreadyRead ? InputLoad.alreadyRead()
            : options.bindings.reloadsOnStart ? InputLoad.replacedOnStart()
            : InputLoad.start(into: original, fromTerminal: isatty(0) == 1, walker: options.walker, styles: styles,
                              fields: fields)
        guard let terminal = Terminal() else {
            fail("no terminal: the picker draws on /dev/tty, which cannot be opened (use --filter QUERY without one)")
        }
        Picker.restoreOnCrash(terminal, options: options)
        if let address = options.listen {
            if case .failure(let failure) = ListenServer.start(address, unsafe: options.listenUnsafe) { fail(failure.message) }
        }
        // libedit needs a UTF-8 locale to insert non-ASCII characters. (Set while the input
        // loads: reading it needs no locale.)
        let locale = setlocale(LC_CTYPE, "").map { String(cString: $0) } ?? "C"
        if locale == "C" || locale == "POSIX" || !locale.lowercased().contains("utf") {
            _ = setlocale(LC_CTYPE, "C.UTF-8")
        }
        var theme = Theme.make(spec: options.color, noColor: options.noColor, bold: options.bold,
                               black: options.black) { name in
            getenv(name).map { String(cString: $0) }
        }
        // fzf's gutter without Unicode: a blank in the gutter's colour, as a background.
        if options.gutterIsReversed && theme.gutter.isEmpty && theme.gutterGlyph.hasPrefix("38;") {
            theme.gutter = "48" + theme.gutterGlyph.dropFirst(2)
        }
        theme.labelEllipsis = options.ellipsisShown
        theme.takeListBackground(inputBorder: options.parts.input.style != .none)
        let picker = Picker(options: options, store: store, styles: styles, terminal: terminal, theme: theme,
                            input: input, fieldView: fields)
        picker.worker.engine.remember(Remember.picks(options), lines: original)
        let outcome = picker.run()
        ListenServer.current?.stop()
        switch outcome {
        case .cancel(let status):
            return status
        case .failure(let message):
            fail(message)
        case .printQuery:
            picker.history.save(adding: picker.query)
            stdout.write(Array(picker.query.utf8))
            stdout.write(terminator)
            stdout.flush()
            return 0
        case .accept, .pickLine:
            let key: String?
            if case .accept(let k) = outcome { key = k } else { key = nil }
            picker.history.save(adding: picker.query)
            guard let lines = picker.chosenLines() else {
                // As fzf: the query, the key and print(…)'s text still go out.
                write(query: picker.query, key: key, lines: [], printed: picker.session.bound.printed, options: options,
                      store: original, fields: nil, stdout: stdout, terminator: terminator)
                return 1
            }
            // A reload may have replaced the input: the picker's own stores.
            let shown = picker.fieldView?.original ?? picker.store
            write(query: picker.query, key: key, lines: lines, printed: picker.session.bound.printed, options: options,
                  store: shown,
                  fields: picker.fieldView, stdout: stdout, terminator: terminator)
            Remember.recordPick(lines.count, lines: { lines.map { Array(shown.bytes(of: Int($0))) } }, query: picker.query,
                                options: options)
            return 0
        }
    }

    /// Prints the query (`--print-query`), the accepting key (`--expect`), what print(…)
    /// queued, then the lines, byte-exact.
    static func write(query: String, key: String?, lines: [Int32], printed: [String] = [], options: Options, store: LineStore,
                      fields: FieldView?, stdout: Output, terminator: [UInt8]) {
        MappedInput.failIfChanged()
        if options.printQuery {
            stdout.write(Array(query.utf8))
            stdout.write(terminator)
        }
        if !options.expect.isEmpty {
            stdout.write(Array((key ?? "").utf8))
            stdout.write(terminator)
        }
        for text in printed {
            stdout.write(Array(text.utf8))
            stdout.write(terminator)
        }
        for line in lines {
            if let fields { stdout.write(fields.printed(Int(line))) } else { stdout.write(store.bytes(of: Int(line))) }
            stdout.write(terminator)
        }
        stdout.flush()
    }
}
