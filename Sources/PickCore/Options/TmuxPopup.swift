// `--tmux [POSITION,][SIZE[%]][,SIZE[%]]`: where and how large the tmux popup is, in fzf's
// spelling and with fzf's defaults (parseTmuxOptions in fzf's options.go):
//   --tmux                  center, 50% wide and 50% high
//   --tmux 80%              center, 80% by 80%
//   --tmux 80%,60%          center, 80% wide, 60% high
//   --tmux bottom,40%       the full width along the bottom, 40% high (top: likewise)
//   --tmux left,30          30 columns along the left, full height (right: likewise)
// Commas or colons separate the parts. fzf's `border-native` is accepted and changes
// nothing (pick draws its own border in the popup).

/// A popup's width or height: cells, or a percentage of the terminal.
public struct PopupSize: Equatable, Sendable {
    public var value: Int
    public var percent: Bool

    /// As tmux's `-w`/`-h` take it: `50%` or `30`.
    public var tmuxArgument: String { percent ? "\(value)%" : "\(value)" }
}

/// Where the popup sits and how large it is.
public struct TmuxPopup: Equatable, Sendable {
    public enum Position: String, Sendable, CaseIterable {
        case center, top, bottom, left, right
    }

    public var position = Position.center
    public var width = PopupSize(value: 50, percent: true)
    public var height = PopupSize(value: 50, percent: true)

    public init() {}

    /// Parses fzf's spelling; nil when it is not one.
    public init?(parsing text: String) {
        guard !text.isEmpty else { return nil }
        var tokens = text.split(separator: ",", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: ":", omittingEmptySubsequences: false)
        }.map(String.init)
        tokens.removeAll { $0 == "border-native" }
        guard tokens.count <= 3 else { return nil }
        let first = tokens.first ?? "center"
        switch first {
        case "top", "up": position = .top; width = PopupSize(value: 100, percent: true)
        case "bottom", "down": position = .bottom; width = PopupSize(value: 100, percent: true)
        case "left": position = .left; height = PopupSize(value: 100, percent: true)
        case "right": position = .right; height = PopupSize(value: 100, percent: true)
        case "center": break
        default: tokens.insert("center", at: 0)
        }
        guard tokens.count <= 3 else { return nil }
        let sizes = tokens.dropFirst().map(Self.size)
        guard !sizes.contains(where: { $0 == nil }) else { return nil }
        switch sizes.count {
        case 2:
            width = sizes[0]!
            height = sizes[1]!
        case 1:
            switch position {
            case .top, .bottom: height = sizes[0]!
            case .left, .right: width = sizes[0]!
            case .center: width = sizes[0]!; height = sizes[0]!
            }
        default: break
        }
    }

    /// `N` (cells, at least 1) or `N%` (1 to 100), as fzf's parseSize takes them.
    private static func size(_ text: String) -> PopupSize? {
        let percent = text.hasSuffix("%")
        guard let n = Int(percent ? String(text.dropLast()) : text), n >= 1, n <= (percent ? 100 : 10_000) else {
            return nil
        }
        return PopupSize(value: n, percent: percent)
    }

    /// The popup made to fit a client of `width` by `height` cells: a size in cells larger
    /// than the client is the whole client (tmux refuses it with "height too large"; fzf
    /// passes that on and exits; a person asking for 200 rows wants all there are).
    public func fitting(width clientWidth: Int, height clientHeight: Int) -> TmuxPopup {
        var fitted = self
        if !width.percent { fitted.width.value = max(1, min(width.value, clientWidth)) }
        if !height.percent { fitted.height.value = max(1, min(height.value, clientHeight)) }
        return fitted
    }

    /// tmux display-popup's placement and size arguments (fzf's, in runTmux).
    public var tmuxArguments: [String] {
        var args: [String]
        switch position {
        case .top: args = ["-xC", "-y0"]
        case .bottom: args = ["-xC", "-y9999"]
        case .left: args = ["-x0", "-yC"]
        case .right: args = ["-xR", "-yC"]
        case .center: args = ["-xC", "-yC"]
        }
        return args + ["-w" + width.tmuxArgument, "-h" + height.tmuxArgument]
    }
}
