// How pick was started, which decides the defaults it starts from and the variables it reads.
//
// As `fzf` (argv[0]'s last component, a link or a copy of that name): fzf's defaults (the
// prompt at the bottom, no close matches), FZF_DEFAULT_OPTS_FILE, FZF_DEFAULT_OPTS and
// FZF_DEFAULT_COMMAND, and `--version` printing the fzf version whose interface pick
// implements first, as scripts compare it. As `pick`: pick's defaults, PICK_DEFAULT_OPTS_FILE
// and PICK_DEFAULT_OPTS, or fzf's two when neither of pick's is set (an empty
// PICK_DEFAULT_OPTS opts out), and PICK_DEFAULT_COMMAND, else FZF_DEFAULT_COMMAND.

#if canImport(Glibc)
import Glibc
#endif
import PickCore

enum Invocation {
    case pick
    case fzf

    /// The fzf release whose options, actions and environment pick implements.
    static let fzfVersion = "0.74.5"

    /// How this process was started.
    static let current: Invocation = {
        let name = CommandLine.arguments.first?.split(separator: "/").last
        return name == "fzf" ? .fzf : .pick
    }()

    /// What `--version` prints for pick's version `pick`: fzf's form (`0.74.5 (pick 0.1.0)`)
    /// as fzf, since scripts compare the first word.
    func version(pick: String) -> String {
        self == .fzf ? "\(Self.fzfVersion) (pick \(pick))" : "pick \(pick)"
    }

    /// The options before any are read.
    var startingOptions: Options { self == .fzf ? Options.fzfDefaults : Options() }

    /// The defaults variable and file to read, by name.
    var defaultsNames: (opts: String, file: String) {
        if self == .pick, environment("PICK_DEFAULT_OPTS") != nil || environment("PICK_DEFAULT_OPTS_FILE") != nil {
            return ("PICK_DEFAULT_OPTS", "PICK_DEFAULT_OPTS_FILE")
        }
        return ("FZF_DEFAULT_OPTS", "FZF_DEFAULT_OPTS_FILE")
    }

    /// The command whose output is the input when stdin is a terminal; nil (or empty): the
    /// files below the current directory.
    var defaultCommand: String? {
        let command = self == .pick ? environment("PICK_DEFAULT_COMMAND") ?? environment("FZF_DEFAULT_COMMAND")
                                    : environment("FZF_DEFAULT_COMMAND")
        return command?.isEmpty == false ? command : nil
    }

    private func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
