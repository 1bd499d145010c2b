import PickCore
import XCTest

/// What a terminal sends for each key name, written out here from xterm's conventions
/// rather than taken from the table, so the table and the decoder are checked against it.
enum Xterm {
    static let esc = "\u{1B}"

    /// The navigation keys that take modifiers: the final byte after `ESC [ 1 ; m` or the
    /// number before `; m ~`, by every name `--expect` accepts for them.
    static let navigation: [String: (plain: String, modified: (Int) -> String)] = {
        let letter = { (l: String) in (plain: "\(esc)[\(l)", modified: { (m: Int) in "\(esc)[1;\(m)\(l)" }) }
        let tilde = { (n: Int) in (plain: "\(esc)[\(n)~", modified: { (m: Int) in "\(esc)[\(n);\(m)~" }) }
        return ["up": letter("A"), "down": letter("B"), "right": letter("C"), "left": letter("D"),
                "home": letter("H"), "end": letter("F"), "delete": tilde(3), "del": tilde(3),
                "page-up": tilde(5), "pgup": tilde(5), "page-down": tilde(6), "pgdn": tilde(6)]
    }()

    /// Keys with a fixed sequence, by every name.
    static let fixed: [String: String] = {
        var sent: [String: String] = [
            "enter": "\r", "return": "\r", "ctrl-m": "\r", "tab": "\t", "ctrl-i": "\t",
            "shift-tab": "\(esc)[Z", "btab": "\(esc)[Z", "esc": esc, "escape": esc, "space": " ",
            "backspace": "\u{7F}", "bspace": "\u{7F}", "bs": "\u{7F}",
            "ctrl-h": "\u{8}", "ctrl-backspace": "\u{8}", "ctrl-bspace": "\u{8}", "ctrl-bs": "\u{8}",
            "ctrl-space": "\u{0}", "ctrl-\\": "\u{1C}", "ctrl-]": "\u{1D}", "ctrl-^": "\u{1E}", "ctrl-6": "\u{1E}",
            "ctrl-/": "\u{1F}", "ctrl-_": "\u{1F}",
            "alt-enter": "\(esc)\r", "alt-return": "\(esc)\r", "alt-space": "\(esc) ",
            "alt-backspace": "\(esc)\u{7F}", "alt-bspace": "\(esc)\u{7F}", "alt-bs": "\(esc)\u{7F}",
            "ctrl-alt-backspace": "\(esc)\u{8}", "ctrl-alt-bspace": "\(esc)\u{8}", "ctrl-alt-bs": "\(esc)\u{8}",
            "alt-?": "\(esc)?", "alt-p": "\(esc)p", "alt-n": "\(esc)n",
            "insert": "\(esc)[2~",
            "f1": "\(esc)OP", "f2": "\(esc)OQ", "f3": "\(esc)OR", "f4": "\(esc)OS", "f5": "\(esc)[15~",
            "f6": "\(esc)[17~", "f7": "\(esc)[18~", "f8": "\(esc)[19~", "f9": "\(esc)[20~", "f10": "\(esc)[21~",
            "f11": "\(esc)[23~", "f12": "\(esc)[24~",
        ]
        for (i, letter) in "abcdefghijklmnopqrstuvwxyz".enumerated() {
            let control = String(UnicodeScalar(UInt8(i + 1)))
            sent["ctrl-\(letter)"] = control
            sent["ctrl-alt-\(letter)"] = esc + control
        }
        return sent
    }()

    /// The bytes for `name`, or nil when xterm sends no such key.
    static func bytes(_ name: String) -> [UInt8]? {
        if name.unicodeScalars.count == 1 { return Array(name.utf8) }
        if name.lowercased().hasPrefix("alt-"), name.unicodeScalars.count == 5 { return Array((esc + name.dropFirst(4)).utf8) }
        if let s = fixed[name.lowercased()] { return Array(s.utf8) }
        // ctrl-, alt- and shift- in any order before a navigation key: m = 1 + their bits.
        var rest = Substring(name.lowercased())
        var bits = 0
        var changed = true
        while changed {
            changed = false
            for (word, bit) in [("ctrl-", 4), ("alt-", 2), ("shift-", 1)] where rest.hasPrefix(word) && bits & bit == 0 {
                rest = rest.dropFirst(word.count)
                bits |= bit
                changed = true
            }
        }
        guard let nav = navigation[String(rest)] else { return nil }
        return Array((bits == 0 ? nav.plain : nav.modified(1 + bits)).utf8)
    }
}

/// Decodes all of `bytes` into keys, giving up a pending Escape as the event loop does
/// once the terminal falls silent.
func decodeAll(_ bytes: [UInt8], awaitingCursorReport: Bool = false) -> [Key] {
    var decoder = KeyDecoder(buffer: bytes)
    decoder.awaitingCursorReport = awaitingCursorReport
    var keys: [Key] = []
    while decoder.isPending {
        if let key = decoder.next(final: false) { keys.append(key); continue }
        guard let key = decoder.next(final: true) else { break }
        keys.append(key)
    }
    return keys
}

final class KeyNamesTests: XCTestCase {
    /// Every fixed name, and each navigation key with every set of modifiers, decodes from
    /// what a terminal sends for it to the key the name means, and that key's name means it
    /// again: `--expect NAME` fires on that key.
    func testEveryNameTheTableAcceptsDecodesFromWhatATerminalSends() throws {
        // The mouse events' names are what a report comes to (MouseKey.named), not keys.
        let names = KeyNames.fixedNames.filter { name in !MouseKey.allCases.contains { $0.rawValue == name } }
        XCTAssertGreaterThan(names.count, 150)
        for name in names {
            let key = try XCTUnwrap(KeyNames.key(named: name), "\(name) is listed but not accepted")
            let bytes = try XCTUnwrap(Xterm.bytes(name), "\(name): accepted, but no terminal sends it")
            XCTAssertEqual(decodeAll(bytes), [key], "\(name) from \(bytes)")
            let canonical = try XCTUnwrap(key.name, "\(name) decodes to a key with no name")
            XCTAssertEqual(KeyNames.key(named: canonical), key, "\(name) → \(canonical)")
            XCTAssertEqual(Xterm.bytes(canonical), bytes, "\(name) and \(canonical) are the same key")
        }
    }

    func testCharactersAndAltCharactersAreNamedByThemselves() throws {
        var samples: [String] = ["é", "ß", "日", "😀"]
        for c in UInt8(0x21)...0x7E { samples.append(String(UnicodeScalar(c))) }
        for text in samples {
            for name in [text, "alt-" + text] {
                let key = try XCTUnwrap(KeyNames.key(named: name), name)
                XCTAssertEqual(decodeAll(try XCTUnwrap(Xterm.bytes(name))), [key], name)
                XCTAssertEqual(key.name, name)
            }
        }
        XCTAssertEqual(KeyNames.key(named: "alt-X"), .alt(0x58), "case matters after alt-")
        XCTAssertEqual(KeyNames.key(named: "ALT-x"), .alt(0x78), "but not in the prefix")
        XCTAssertEqual(KeyNames.key(named: "X"), .char(0x58))
    }

    func testNamesIgnoreLetterCaseAndModifierOrder() {
        XCTAssertEqual(KeyNames.key(named: "Enter"), .char(13))
        XCTAssertEqual(KeyNames.key(named: "CTRL-X"), .char(24))
        XCTAssertEqual(KeyNames.key(named: "ctrl-X"), .char(24))
        XCTAssertEqual(KeyNames.key(named: "shift-alt-up"), .modified(.up, [.alt, .shift]))
        XCTAssertEqual(KeyNames.key(named: "alt-ctrl-page-down"), .modified(.pageDown, [.alt, .ctrl]))
        XCTAssertEqual(KeyNames.key(named: "shift-ctrl-alt-del"), .modified(.delete, [.alt, .ctrl, .shift]))
        XCTAssertEqual(KeyNames.name(of: .modified(.delete, [.alt, .ctrl, .shift])), "ctrl-alt-shift-delete")
    }

    func testSynonymsAreTheSameKeyAsFzfHasThem() {
        for group in [["enter", "return", "ctrl-m"], ["esc", "escape"], ["shift-tab", "btab"], ["tab", "ctrl-i"],
                      ["backspace", "bspace", "bs"], ["delete", "del"], ["page-up", "pgup"], ["page-down", "pgdn"],
                      ["ctrl-/", "ctrl-_"], ["ctrl-^", "ctrl-6"], ["alt-enter", "alt-return", "ctrl-alt-m"],
                      ["ctrl-h", "ctrl-backspace", "ctrl-bs"], ["alt-page-up", "alt-pgup"]] {
            let keys = group.map { KeyNames.key(named: $0) }
            XCTAssertNotNil(keys[0], group[0])
            XCTAssertEqual(Set(keys).count, 1, "\(group)")
            XCTAssertEqual(keys[0].flatMap(KeyNames.name(of:)), group[0], "pick spells it as fzf's man page")
        }
    }

    func testNamesNoKeyFiresForAreRefusedSayingWhy() {
        for name in ["hyper-x", "ctrl-", "alt-", "f13", "f0", "ctrl-xy", "ctrl-1", "alt-ctrl-x", "shift-f5",
                     "alt-insert", "ctrl-tab", "alt-alt-up", "left-clicks", "change", "",
                     "alt-\u{1}", "\u{7F}"] {
            XCTAssertNil(KeyNames.key(named: name), name)
        }
        XCTAssertEqual(KeyNames.refusal("hyper-x"), "unknown key 'hyper-x'")
        for mouse in MouseKey.allCases {
            XCTAssertEqual(KeyNames.key(named: mouse.rawValue), .mouseEvent(mouse), "fzf's mouse events are bindable")
            XCTAssertEqual(KeyNames.name(of: .mouseEvent(mouse)), mouse.rawValue)
        }
        XCTAssertEqual(KeyNames.refusal("start"), "'start' is an event, not a key")
        XCTAssertTrue(KeyNames.refusal("shift-f5").hasPrefix("unknown key 'shift-f5' (ctrl-, alt- and shift- go before up,"))
    }

    func testPicksOwnKeysAreReservedByAnyOfTheirNames() {
        for name in ["enter", "return", "ctrl-m", "tab", "ctrl-i", "shift-tab", "esc", "up", "down", "page-up",
                     "pgdn", "right", "ctrl-c", "ctrl-g", "ctrl-j", "ctrl-k", "ctrl-n", "ctrl-p",
                     "ctrl-s", "ctrl-z", "f1", "alt-?", "alt-p", "alt-n", "ctrl-/", "shift-up", "shift-pgdn",
                     "shift-delete", "alt-up", "alt-down"] {
            XCTAssertTrue(KeyNames.isReserved(name), name)
        }
        for name in ["ctrl-a", "ctrl-o", "ctrl-w", "alt-P", "alt-x", "f2", "f12", "left", "alt-left", "ctrl-alt-p", "x"] {
            XCTAssertFalse(KeyNames.isReserved(name), name)
        }
        XCTAssertTrue(Key.char(3).isReserved)
        XCTAssertTrue(Key.modified(.up, .alt).isReserved, "alt-up: up-match, as fzf")
        XCTAssertFalse(Key.modified(.left, .alt).isReserved)
    }

    func testAShortcutTakesOnlyKeysTheEditorAndPickLeaveFree() {
        for taken in ["ctrl-a", "ctrl-e", "ctrl-w", "ctrl-u", "alt-b", "alt-f", "alt-B", "alt-d", "left", "home",
                      "backspace", "ctrl-h", "bspace", "alt-n", "alt-p", "ctrl-n", "ctrl-r", "ctrl-l", "enter", "f1"] {
            XCTAssertFalse(KeyNames.isFreeForShortcut(KeyNames.key(named: taken)!), taken)
        }
        for free in ["ctrl-o", "ctrl-x", "alt-z", "alt-k", "ctrl-alt-x", "f2", "f12", "alt-N"] {
            XCTAssertTrue(KeyNames.isFreeForShortcut(KeyNames.key(named: free)!), free)
        }
        XCTAssertNil(ShortcutKey.firingKey("⌘N"), "alt-n walks the history")
        XCTAssertNil(ShortcutKey.firingKey("ctrl-a"), "ctrl-a goes to the start of the query")
        XCTAssertNil(ShortcutKey.firingKey("Save"), "a word is a hint")
        XCTAssertEqual(ShortcutKey.firingKey("⌘K"), .alt(0x6B))
        XCTAssertEqual(ShortcutKey.firingKey("F5"), .function(5))
    }

    func testShortcutFieldsNameTheKeysTheyBind() {
        XCTAssertEqual(ShortcutKey.keyName("⌘N"), "alt-n")
        XCTAssertEqual(ShortcutKey.keyName("cmd+k"), "alt-k")
        XCTAssertEqual(ShortcutKey.keyName("⇧⌘P"), "alt-P")
        XCTAssertEqual(ShortcutKey.keyName("Ctrl-O"), "ctrl-o")
        XCTAssertEqual(ShortcutKey.keyName("^X"), "ctrl-x")
        XCTAssertEqual(ShortcutKey.keyName("F12"), "f12")
        XCTAssertEqual(ShortcutKey.keyName("⌃⌘N"), "ctrl-alt-n", "Escape and ctrl-n: a key pick decodes")
        XCTAssertEqual(ShortcutKey.keyName("ctrl-M"), "enter", "the table's name, so it is seen as reserved")
        XCTAssertNil(ShortcutKey.keyName("Enter"))
        XCTAssertNil(ShortcutKey.keyName("⇧F5"))
        XCTAssertNil(ShortcutKey.keyName("ctrl-1"))
        for shortcut in ["⌘N", "^X", "F12", "⌃⌘N", "⇧⌘P"] {
            let name = ShortcutKey.keyName(shortcut)!
            XCTAssertEqual(KeyNames.key(named: name), ShortcutKey.key(shortcut), "\(shortcut) fires as \(name)")
        }
    }
}
