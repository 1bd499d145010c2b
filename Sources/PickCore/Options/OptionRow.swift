// One row of the option table (OptionTable.swift): an option's name, its short name, how it
// takes a value, whose it is, how far pick honours it, its line in `pick --help`, and where
// its value lands. The parser (Options.swift), `pick --help`, the completion of option names
// (OptionCompletion) and docs/fzf-differences.md's list all read the rows, so an option is
// added by adding its row.

/// Whose option a row is.
public enum OptionOrigin: Sendable, Equatable {
    /// fzf's, with fzf's meaning.
    case fzf
    /// pick's own.
    case pick
}

/// How far pick honours an option it accepts.
public enum OptionSupport: Sendable, Equatable {
    /// It does what it says.
    case honoured
    /// Accepted and ignored, for the reason given (docs/fzf-differences.md lists it).
    case ignored(String)
    /// fzf's, refused with a message saying pick does not implement it (yet): where
    /// ignoring it would do something else than asked (print a man page, a profile).
    case notImplemented
}

/// The sections of `pick --help`, in the order they print.
public enum HelpSection: String, CaseIterable, Sendable {
    case search = "Search"
    case modes = "Modes"
    case memory = "Memory"
    case interface = "Interface"
    case preview = "Preview"
    case output = "Output"
    /// After the sections, without a title (`-h, --help`).
    case closing = ""
}

/// An option's entry in `pick --help`.
public struct OptionHelp: Sendable {
    public let section: HelpSection
    /// The left column after the short name: `--query=QUERY`.
    public let usage: String
    /// The explanation; `\n` starts a continuation line, a leading `\n` puts it all below.
    public let text: String

    public init(_ section: HelpSection, _ usage: String, _ text: String) {
        self.section = section
        self.usage = usage
        self.text = text
    }
}

/// An option's value as the parser hands it to the row.
public struct OptionValue: Sendable {
    /// The option as written: `--delimiter`, or `-d`.
    public let name: String
    /// The value; nil for a flag, or an optional value not given.
    public let text: String?
    /// The words after the value that the row takes too (`--walker-root A B`): empty unless
    /// the row `takesFollowingWords`.
    public var following: [String] = []

    /// The value given (a required value always is).
    public var string: String { text ?? "" }

    /// The error for a value the option cannot take, saying why.
    public func refused(_ why: String) -> OptionError {
        OptionError(message: "invalid value for \(name): \(OptionError.quote(string)) (\(why))")
    }

    /// The value as a whole number from `min` to a billion.
    public func number(min: Int = 0) throws -> Int {
        guard let n = Int(string), n >= min, n <= 1_000_000_000 else {
            throw refused("expected a whole number\(min > 0 ? " from \(min)" : "")")
        }
        return n
    }

    /// The value, refused when empty (`what` names what it should have been).
    public func nonEmpty(_ what: String) throws -> String {
        guard !string.isEmpty else { throw OptionError(message: "invalid value for \(name): empty \(what)") }
        return string
    }
}

/// One option: what the parser, `--help` and completion know of it.
public struct OptionRow: Sendable {
    public typealias Apply = @Sendable (inout Options, OptionValue) throws -> Void

    /// `--query`.
    public let name: String
    /// `-q`, or `+i` for a row that turns a flag off; nil when it has none.
    public let short: String?
    public let argument: OptionArgument
    /// For an optional value: whether the next word is its value when not attached by `=`
    /// (`--multi 5`, `--border sharp`), as fzf takes it.
    public let takesNextWord: (@Sendable (String) -> Bool)?
    /// Whether the words after the value that do not look like options are values too, as
    /// fzf takes `--walker-root DIR...`.
    public let takesFollowingWords: Bool
    public let origin: OptionOrigin
    public let support: OptionSupport
    public let help: OptionHelp?
    /// Where the value lands.
    let apply: Apply

    init(_ name: String, short: String? = nil, _ argument: OptionArgument, origin: OptionOrigin = .fzf,
         support: OptionSupport = .honoured, nextWord: (@Sendable (String) -> Bool)? = nil,
         followingWords: Bool = false, help: OptionHelp? = nil, apply: @escaping Apply) {
        self.name = name
        self.short = short
        self.argument = argument
        self.takesNextWord = nextWord
        self.takesFollowingWords = followingWords
        self.origin = origin
        self.support = support
        self.help = help
        self.apply = apply
    }

    /// A flag: `apply` runs when it is given.
    static func flag(_ name: String, short: String? = nil, origin: OptionOrigin = .fzf, help: OptionHelp? = nil,
                     _ apply: @escaping @Sendable (inout Options) -> Void) -> OptionRow {
        OptionRow(name, short: short, .none, origin: origin, help: help) { options, _ in apply(&options) }
    }

    /// An option of fzf's that pick accepts and ignores, for `reason`.
    static func ignored(_ name: String, takes argument: OptionArgument = .none, _ reason: String) -> OptionRow {
        OptionRow(name, argument, support: .ignored(reason), nextWord: argument == .optional ? notAnOption : nil) { _, _ in }
    }

    /// An option of fzf's that pick refuses, saying it does not implement it yet.
    static func notImplemented(_ name: String, _ argument: OptionArgument = .none) -> OptionRow {
        OptionRow(name, argument, support: .notImplemented) { _, value in
            throw OptionError(message: "\(value.name) is not implemented yet (fzf option)")
        }
    }

    /// fzf's rule for an optional value as the next word: it does not look like an option.
    static let notAnOption: @Sendable (String) -> Bool = { !$0.hasPrefix("-") && !$0.hasPrefix("+") }

    /// fzf's rule for an optional number as the next word: it starts with a digit.
    static let startsWithDigit: @Sendable (String) -> Bool = { word in
        word.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false
    }
}
