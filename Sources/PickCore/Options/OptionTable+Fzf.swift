// The option table's rows for the rest of fzf 0.74.5's options (see OptionTable.swift):
// those pick honours without a line in `pick --help`, those it accepts and ignores (with the
// reason), fzf's look that it accepts and does not draw yet (issue 31), and the few it
// refuses. pick refuses nothing fzf accepts but what ignoring would get wrong.

extension OptionTable {
    static let fzfBehaviour: [OptionRow] = [
        .flag("--extended-exact") { $0.matching.fuzzy = false },
        .flag("--no-extended", short: "+x") { $0.matching.extended = false },
        .ignored("--no-256", "pick draws the colours --color names; the terminal maps them"),
        OptionRow("--toggle-sort", .required) { options, value in
            do {
                try options.bindings.parse("\(value.string):toggle-sort")
            } catch {
                throw OptionError(message: "invalid value for \(value.name): \(error)")
            }
        },
        OptionRow("--algo", .required, support: .ignored("pick scores every query with its own algorithm (man pick: Ranking)")) {
            guard ["v1", "v2"].contains($1.string) else { throw $1.refused("expected v1 or v2") }
        },
        OptionRow("--threads", .required, support: .ignored("pick sizes its matcher to the machine's cores")) {
            _ = try $1.number(min: 1)
        },
        OptionRow("--tail", .required, support: .ignored("pick keeps every line it reads")) { _ = try $1.number(min: 1) },
        .ignored("--no-tail", "as --tail"),
        .ignored("--tty-default", takes: .required, "pick always draws on /dev/tty"),
        .ignored("--no-tty-default", "pick always draws on /dev/tty"),
        .ignored("--force-tty-in", "pick always reads keys from /dev/tty"),
        .ignored("--no-force-tty-in", "as --force-tty-in"),
        .ignored("--no-winpty", "for Windows"),
        // As fzf: the address may be the next word when it does not look like an option.
        OptionRow("--listen", .optional, nextWord: OptionRow.notAnOption,
                  help: OptionHelp(.interface, "--listen[=[ADDR:]PORT|SOCKET]",
                                   "\nserve fzf's remote control: POST actions (--bind syntax),\nGET the state as JSON; a free localhost port by default\n(FZF_PORT), a 0600 Unix socket for a .sock path (FZF_SOCK);\nFZF_API_KEY or PICK_API_KEY: every request needs x-api-key")) {
            $0.listen = try $1.text.map { try ListenAddress.parse($0, option: "--listen") } ?? .automatic
            $0.listenUnsafe = false
        },
        OptionRow("--listen-unsafe", .optional, nextWord: OptionRow.notAnOption,
                  help: OptionHelp(.interface, "--listen-unsafe[=ADDR]", "as --listen; clients beyond loopback may run commands")) {
            $0.listen = try $1.text.map { try ListenAddress.parse($0, option: "--listen-unsafe") } ?? .automatic
            $0.listenUnsafe = true
        },
        .flag("--no-listen") { $0.listen = nil; $0.listenUnsafe = false },
        .flag("--no-listen-unsafe") { $0.listen = nil; $0.listenUnsafe = false },
        shellScript("--bash"), shellScript("--zsh"), shellScript("--fish"),
        .notImplemented("--nushell"),
        .notImplemented("--man"),
        .notImplemented("--bench", .required),
        .notImplemented("--proxy-script", .required),
        .notImplemented("--profile-cpu", .required),
        .notImplemented("--profile-mem", .required),
        .notImplemented("--profile-block", .required),
        .notImplemented("--profile-mutex", .required),
    ]

    /// fzf's `--bash`, `--zsh`, `--fish`: pick's `--shell NAME`.
    private static func shellScript(_ name: String) -> OptionRow {
        .flag(name) { $0.shell = String(name.dropFirst(2)) }
    }

    /// fzf's look over every part: bold or not, a black background, ASCII glyphs, and
    /// the width of East Asian ambiguous characters.
    static let fzfLook: [OptionRow] = [
        .flag("--bold") { $0.bold = true },
        .flag("--no-bold") { $0.bold = false },
        .flag("--black") { $0.black = true },
        .flag("--no-black") { $0.black = false },
        .flag("--unicode") { $0.unicode = true },
        .flag("--no-unicode") { $0.unicode = false },
        .flag("--ambidouble") { $0.ambidouble = true },
        .flag("--no-ambidouble") { $0.ambidouble = false },
    ]
}
