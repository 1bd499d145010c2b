// `--listen[=ADDRESS]`: where the remote control listens, and what it lets in.
//
// As fzf reads the value: a path ending in `.sock` is a Unix socket; otherwise `PORT`,
// `HOST:PORT` or `:PORT` (host `localhost`); no value, or port 0, a free port chosen. pick
// also takes any value with a `/` as a socket path (no address has one).
//
// What a server lets in (fzf's rules, with pick's refusals said out loud):
// - a Unix socket (mode 0600: its owner only) or a loopback address: every action;
// - another address needs an API key (FZF_API_KEY or PICK_API_KEY), as in fzf; without
//   `--listen-unsafe` its clients may not run commands (execute, reload, transform…, the
//   actions fzf calls process execution): pick answers 403 and changes nothing, where fzf
//   drops those actions from the chain and runs the rest.

/// A parsed `--listen` value.
public enum ListenAddress: Equatable, Sendable {
    /// A TCP port on `host` (0: one chosen).
    case tcp(host: String, port: Int)
    /// A Unix socket at this path.
    case socket(path: String)

    /// fzf's default: a free port on localhost.
    public static let automatic = ListenAddress.tcp(host: "localhost", port: 0)

    /// Parses the value of `option` (`--listen` or `--listen-unsafe`).
    public static func parse(_ text: String, option: String = "--listen") throws(OptionError) -> ListenAddress {
        if text.hasSuffix(".sock") || text.contains("/") {
            guard !text.utf8.contains(0), text.utf8.count < 108 else {
                throw OptionError(message: "invalid value for \(option): \(OptionError.quote(text)) (a socket path is at most 107 bytes)")
            }
            return .socket(path: text)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else {
            throw OptionError(message: "invalid value for \(option): \(OptionError.quote(text)) (expected [ADDR:]PORT or a path ending in .sock)")
        }
        let portText = String(parts.last!)
        guard let port = Int(portText), portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), port <= 65535 else {
            throw OptionError(message: "invalid value for \(option): \(OptionError.quote(text)) (expected a port from 0 to 65535, [ADDR:]PORT or a path ending in .sock)")
        }
        let host = parts.count == 2 && !parts[0].isEmpty ? String(parts[0]) : "localhost"
        return .tcp(host: host, port: port)
    }

    /// The actions that run a command (fzf's processExecution): a client of a server on
    /// another address than loopback may not send them unless `--listen-unsafe`.
    public static func runsCommand(_ kind: BindActionKind) -> Bool {
        if kind.isTransform { return true }  // every transform…, bg-transform… among them
        switch kind {
        case .execute, .executeSilent, .executeMulti, .become, .reload, .reloadSync, .changePreview, .refreshPreview,
             .preview:
            return true
        default:
            return false
        }
    }
}

/// What a request asks of the picker, decided before the picker sees it.
public enum RemoteCommand: Equatable, Sendable {
    /// Run these actions as if a key bound to them was pressed.
    case actions([BoundAction])
    /// Answer the state, `limit` rows of the list from `offset`.
    case state(limit: Int, offset: Int)

    /// The command a parsed request asks for, or the error to answer. `runsCommands`: whether
    /// its actions may run commands (see ListenAddress).
    public static func decode(_ request: HTTPRequest, runsCommands: Bool) -> Result<RemoteCommand, HTTPFailure> {
        switch request.method {
        case .get:
            return .success(.state(limit: request.limit, offset: request.offset))
        case .post:
            guard let text = String(validating: request.body, as: UTF8.self), !request.body.contains(0) else {
                return .failure(HTTPFailure(400, "the actions are not UTF-8 text"))
            }
            // As fzf: line ends around the actions are not part of them.
            var trimmed = Substring(text)
            while let c = trimmed.first, c == "\r" || c == "\n" || c == "\r\n" { trimmed = trimmed.dropFirst() }
            while let c = trimmed.last, c == "\r" || c == "\n" || c == "\r\n" { trimmed = trimmed.dropLast() }
            guard !trimmed.isEmpty else { return .failure(HTTPFailure(400, "no action specified")) }
            let chain: [BoundAction]
            do {
                chain = try Bindings.chain(String(trimmed), for: remoteTrigger)
            } catch {
                return .failure(HTTPFailure(400, TerminalText.sanitize(error.message)))
            }
            guard !chain.isEmpty else { return .failure(HTTPFailure(400, "no action specified")) }
            if !runsCommands, let action = chain.first(where: { ListenAddress.runsCommand($0.kind) }) {
                return .failure(HTTPFailure(403, "\(action.kind.rawValue) runs a command: only a client on loopback, a socket, or --listen-unsafe may send it"))
            }
            return .success(.actions(chain))
        }
    }

    /// What sets off a remote chain: no key (fzf's "invalid" event), so `put` puts nothing
    /// and the chain replaces a waiting one as a key's would.
    public static let remoteTrigger = BindTrigger.key(.unknown)
}
