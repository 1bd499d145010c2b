/// pick's own keys that are plain actions, as fzf's default keymap: the entries `--bind`
/// overrides (a key bound there, or unbound with `unbind`, never reaches these). The
/// executable looks a key up here once `--bind` has not taken it; pick's keys that are not
/// actions yet (Tab's completion, the help, history, scopes) follow in PickerKeys.swift.
public enum DefaultKeys {
    /// Each key and the chain it runs.
    public static let table: [(keys: [Key], chain: [BoundAction])] = [
        ([.char(13)], [BoundAction(.accept)]),
        // In vi mode Escape is vi's (the executable gives it to libedit first).
        ([.escape, .char(3), .char(7)], [BoundAction(.abort)]),
        ([.up, .char(11)], [BoundAction(.up)]),
        ([.down, .char(10)], [BoundAction(.down)]),
        // As fzf's: ctrl-p and ctrl-n move to a match (past raw mode's dimmed lines).
        ([.char(16), .modified(.up, .alt)], [BoundAction(.upMatch)]),
        ([.char(14), .modified(.down, .alt)], [BoundAction(.downMatch)]),
        ([.pageUp], [BoundAction(.pageUp)]),
        ([.pageDown], [BoundAction(.pageDown)]),
        ([.modified(.up, .shift)], [BoundAction(.previewUp)]),
        ([.modified(.down, .shift)], [BoundAction(.previewDown)]),
        ([.modified(.pageUp, .shift)], [BoundAction(.previewPageUp)]),
        ([.modified(.pageDown, .shift)], [BoundAction(.previewPageDown)]),
    ]

    private static let byKey: [Key: [BoundAction]] = {
        var map: [Key: [BoundAction]] = [:]
        for entry in table { for key in entry.keys { map[key] = entry.chain } }
        return map
    }()

    /// The chain pick binds `key` to by default, if any.
    public static func chain(for key: Key) -> [BoundAction]? { byKey[key] }
}
