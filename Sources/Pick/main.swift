#if canImport(Glibc)
import Glibc
#endif
import PickCore

let version = "0.1.0"

// The built-in previewer starts on every focus change: before anything else.
if CommandLine.argc >= 2, let first = CommandLine.unsafeArgv[1], strcmp(first, Options.previewBuiltinMode) == 0 {
    BuiltinPreview.main()
}

signal(SIGPIPE, SIG_IGN)

Memory.start()

let invocation = Invocation.current
let options: Options
/// The defaults variable and file read (pick's, or fzf's: Invocation.swift).
let defaultsNames = invocation.defaultsNames
let defaults = getenv(defaultsNames.opts).map { String(cString: $0) }
/// The defaults file: its path and text (a file that cannot be read is an error, as in fzf).
let defaultsFile: (path: String, text: String)? = getenv(defaultsNames.file).flatMap { raw in
    let path = String(cString: raw)
    guard !path.isEmpty else { return nil }
    guard let text = readWholeFile(path) else {
        fail("\(defaultsNames.file): cannot read \(OptionError.quote(path)): \(String(cString: strerror(errno)))")
    }
    return (path, text)
}
do {
    options = try Options.parse(arguments: Array(CommandLine.arguments.dropFirst()), defaults: defaults,
                                defaultsFile: defaultsFile, defaultsName: defaultsNames.opts,
                                start: invocation.startingOptions)
} catch {
    fail("\(error)")
}
if let shell = options.withShell { ChildProcess.shellWords = shell }
if let problem = options.memoryCommandProblem { fail(problem) }

let stdout = Output(fd: 1)
if options.help {
    stdout.write(helpText)
    stdout.flush()
    exit(0)
}
if options.version {
    stdout.write(invocation.version(pick: version) + "\n")
    stdout.flush()
    exit(0)
}

if let shell = options.completion, let script = CompletionScripts.script(for: shell) {
    stdout.write(script)
    stdout.flush()
    exit(0)
}

if let shell = options.shell, let script = ShellScripts.integration(for: shell, as: invocation) {
    stdout.write(script)
    stdout.flush()
    exit(0)
}

TerminalText.showsControlCharacters = options.controlSymbols
TerminalText.unicodeGlyphs = options.unicode
TerminalText.ambiguousIsWide = options.ambidouble ?? (getenv("RUNEWIDTH_EASTASIAN").map { String(cString: $0) } == "1")

/// Whether the input is what the file walker finds (stdin a terminal, no default command).
/// Its paths are kept whole, a newline in a name included: they end at NUL in the store.
let walks = !options.demo && isatty(0) == 1 && Invocation.current.defaultCommand == nil
let store = LineStore(separator: options.read0 || walks ? 0 : 0x0A, parsesFields: options.palette)
/// `--nth`, `--with-nth`, `--accept-nth`: the lines' fields searched, shown and printed.
let fieldView: FieldView?
do { fieldView = try FieldView(options: options, store: store) } catch { fail("\(error)") }
/// `--ansi`: the colours of lines read from stdin (the store keeps their visible text).
let styles: AnsiStyles? = options.ansi ? AnsiStyles() : nil

/// Fills the store from the demo palette, stdin, or (stdin a terminal) the files below here.
/// `mapsFile` maps a large file on stdin rather than reading it (see MappedInput).
func loadInput(mapsFile: Bool = false) {
    if options.demo {
        store.append(Array(demoPalette.utf8))
        store.finish()
    } else if isatty(0) == 1 {
        DefaultCommand.list(options.walker, into: store, onChunk: { fieldView?.catchUp() })
    } else {
        InputReader.readAll(fd: 0, into: store, mapsFile: mapsFile, styles: styles, onChunk: { fieldView?.catchUp() })
    }
    fieldView?.catchUp(finishing: true)
}

let terminator: [UInt8] = [options.print0 ? 0 : 0x0A]

// `--remember NAME --record/--forget/--list` (Remember.swift): stdin holds the lines.
if let command = options.memoryCommand {
    Remember.run(command, options: options, lines: {
        InputReader.readAll(fd: 0, into: store, mapsFile: false, styles: styles)
        return (0..<store.count).map { Array(store.bytes(of: $0)) }
    }, stdout: stdout, terminator: terminator)
}

if let text = options.complete {
    loadInput(mapsFile: true)
    let suggestions = Suggestions.suggest(text, in: store, limit: options.limit, skipping: options.headerLines)
    MappedInput.failIfChanged()
    for s in suggestions {
        stdout.write(s)
        stdout.write(terminator)
    }
    stdout.flush()
    exit(suggestions.isEmpty ? 1 : 0)
}

if let query = options.filter {
    if !options.demo && isatty(0) == 0 && MappedInput.loadsOnTwoCores(fd: 0) {
        // A large file loads on every core: matching meanwhile would only slow it down.
        loadInput(mapsFile: true)
    } else {
        // Read on one thread while the others match what has arrived.
        spawnThread { loadInput(mapsFile: true) }
    }
    let engine = SearchEngine(store: fieldView?.searched ?? store, matching: options.matching,
                              ranking: options.ranking, skippedLines: options.headerLines, keepsLast: options.tail)
    engine.remember(Remember.picks(options), lines: store)
    let result = engine.searchAllInput(query)
    // `--typos`: the close matches follow the real ones (CloseMatches.swift).
    let close = options.typos == true ? engine.closeMatches(query, excluding: result.lines) ?? [] : []
    MappedInput.failIfChanged()
    if options.printQuery {
        stdout.write(Array(query.utf8))
        stdout.write(terminator)
    }
    let end = terminator[0]
    (result.lines + close).withUnsafeBufferPointer { lines in
        if let fieldView {
            for line in lines {
                stdout.write(fieldView.printed(Int(line)))
                stdout.write(byte: end)
                if stdout.closed { break }
            }
            return
        }
        stdout.write(lines: lines, of: store, terminator: end)
    }
    stdout.flush()
    exit(result.lines.isEmpty && close.isEmpty ? 1 : 0)
}

if let path = options.history, let problem = historyProblem(path) {
    fail("--history: \(problem)")
}

if let popup = options.tmux, let client = TmuxLauncher.client() {
    // The popup's pick gets every option word: fzf's defaults when invoked as fzf, the
    // file's, the defaults variable's, the command line's.
    var words = invocation == .fzf ? ["--layout=default", "--no-typos"] : []
    words += (defaultsFile.flatMap { try? DefaultsFile.lines($0.text, path: $0.path) } ?? []).flatMap(\.words)
    words += defaults.flatMap { try? ShellWords.split($0, comments: true) } ?? []
    words += CommandLine.arguments.dropFirst()
    exit(TmuxLauncher.run(popup: popup.fitting(width: client.width, height: client.height), words: words))
}

exit(Interactive.run(options: options, store: store, fields: fieldView, styles: styles, stdout: stdout,
                     terminator: terminator, loadInput: { loadInput(mapsFile: true) }))
