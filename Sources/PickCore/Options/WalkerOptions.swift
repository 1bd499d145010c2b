/// What pick lists when nothing is piped in (stdin a terminal): fzf's built-in walker,
/// `--walker [file][,dir][,follow][,hidden]`, `--walker-root DIR...`, `--walker-skip DIRS`.
/// The defaults are fzf's: files, following symlinks, hidden folders listed, `.git` and
/// `node_modules` skipped, from `.`.
public struct WalkerOptions: Sendable, Equatable {
    /// List files (symlinks to files and broken symlinks included).
    public var files = true
    /// List folders (with a trailing `/`).
    public var directories = false
    /// Walk into symlinks to folders (never into one that leads back above a root).
    public var follows = true
    /// Walk into folders whose name starts with `.` (hidden files are always listed).
    public var hidden = true
    /// Where to walk from, in order.
    public var roots = ["."]
    /// Folders not walked into: a name (`node_modules`, anywhere), a path below a root
    /// (`src/gen`, also as the end of a longer one) or a path's end (`/gen`).
    public var skip = [".git", "node_modules"]

    public init() {}

    /// `--walker`'s value: a comma-separated list of file, dir, follow, hidden (empty
    /// items ignored), with file or dir among them, as fzf reads it.
    public static func parse(_ text: String) throws(OptionError) -> WalkerOptions {
        var w = WalkerOptions()
        (w.files, w.directories, w.follows, w.hidden) = (false, false, false, false)
        for item in text.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            switch item {
            case "file": w.files = true
            case "dir": w.directories = true
            case "follow": w.follows = true
            case "hidden": w.hidden = true
            case "": break
            default:
                throw OptionError(message: "invalid value for --walker: \(OptionError.quote(item)) (expected file, dir, follow or hidden)")
            }
        }
        guard w.files || w.directories else {
            throw OptionError(message: "invalid value for --walker: \(OptionError.quote(text)) (at least one of file or dir)")
        }
        return w
    }

    /// Whether the walk skips the folder at `path` (as listed, without its `/`), named `name`.
    public func skips(_ path: String, name: String) -> Bool {
        if !hidden && name.hasPrefix(".") && name != ".." { return true }
        for entry in skip {
            if !entry.contains("/") {
                if name == entry { return true }
            } else if entry.hasPrefix("/") {
                if path.hasSuffix(entry) { return true }
            } else if path == entry || path.hasSuffix("/" + entry) {
                return true
            }
        }
        return false
    }

    /// A path as fzf shows it: without leading `./` (a root `.` itself is `.`).
    public static func trimmed(_ path: String) -> String {
        var bytes = Substring(path)
        while bytes.count > 1 && bytes.hasPrefix("./") { bytes = bytes.dropFirst(2) }
        return bytes.isEmpty ? "." : String(bytes)
    }
}
