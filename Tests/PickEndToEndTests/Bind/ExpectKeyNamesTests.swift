import Foundation
import PickCore
import XCTest

/// Every key name `--expect` accepts fires: for each, `pick --expect NAME` runs in tmux, tmux
/// presses that key as a terminal sends it, and pick prints NAME as it was written. The runs
/// follow one another in one pane (a script loops over the names), so a few hundred keys
/// take seconds, not a tmux server each.
final class ExpectKeyNamesTests: InteractiveTestCase {
    /// tmux's name for the navigation keys that take modifiers, by pick's names.
    private static let tmuxNavigation = [
        "up": "Up", "down": "Down", "left": "Left", "right": "Right", "home": "Home", "end": "End",
        "delete": "DC", "del": "DC", "page-up": "PPage", "pgup": "PPage", "page-down": "NPage", "pgdn": "NPage",
    ]

    /// tmux's name for keys with a fixed name (ctrl-a … and ctrl-alt-a … follow a rule).
    private static let tmuxFixed = [
        "enter": "Enter", "return": "Enter", "ctrl-m": "C-m", "tab": "Tab", "ctrl-i": "C-i",
        "shift-tab": "BTab", "btab": "BTab", "esc": "Escape", "escape": "Escape", "space": "Space",
        "backspace": "BSpace", "bspace": "BSpace", "bs": "BSpace",
        "ctrl-h": "C-h", "ctrl-backspace": "C-h", "ctrl-bspace": "C-h", "ctrl-bs": "C-h",
        "ctrl-space": "C-Space", "ctrl-\\": "C-\\", "ctrl-]": "C-]", "ctrl-^": "C-^", "ctrl-6": "C-^",
        "ctrl-/": "C-/", "ctrl-_": "C-_",
        "alt-enter": "M-Enter", "alt-return": "M-Enter", "ctrl-alt-m": "M-Enter", "alt-space": "M-Space",
        "alt-backspace": "M-BSpace", "alt-bspace": "M-BSpace", "alt-bs": "M-BSpace",
        "ctrl-alt-h": "C-M-h", "ctrl-alt-backspace": "C-M-h", "ctrl-alt-bspace": "C-M-h", "ctrl-alt-bs": "C-M-h",
        "insert": "IC",
    ]

    /// The `send-keys` arguments that press `name` (tmux's key names; raw bytes with -H
    /// for characters, which tmux would otherwise read as its own syntax).
    private static func tmuxKeys(_ name: String) -> [String]? {
        let hex = { (text: String) in ["-H"] + text.utf8.map { String(format: "%02x", $0) } }
        if name.unicodeScalars.count == 1 { return hex(name) }
        if name.lowercased().hasPrefix("alt-"), name.unicodeScalars.count == 5 { return hex("\u{1B}" + name.dropFirst(4)) }
        let name = name.lowercased()
        if let key = tmuxFixed[name] { return [key] }
        if name.hasPrefix("f"), let n = Int(name.dropFirst()) { return ["F\(n)"] }
        if name.hasPrefix("ctrl-alt-"), name.count == 10 { return ["C-M-" + name.suffix(1)] }
        if name.hasPrefix("ctrl-"), name.count == 6 { return ["C-" + name.suffix(1)] }
        let (prefix, base) = modifiersAndBase(name)
        return Self.tmuxNavigation[base].map { [prefix + $0] }
    }

    /// tmux's prefixes for the modifier words at the start of `name` (any order), and the rest.
    private static func modifiersAndBase(_ name: String) -> (prefix: String, base: String) {
        var rest = Substring(name)
        var prefix = ""
        while let (word, tmux) = [("ctrl-", "C-"), ("alt-", "M-"), ("shift-", "S-")].first(where: { rest.hasPrefix($0.0) }),
              !prefix.contains(tmux) {
            rest = rest.dropFirst(word.count)
            prefix += tmux
        }
        return (prefix, String(rest))
    }

    /// Runs `pick --expect NAME` for each name in turn in one pane, presses the key and
    /// checks that pick printed the name as written, then the line.
    private func assertEachNameFires(_ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(names.isEmpty, file: file, line: line)
        let d = tmux.dir.path
        try tmux.file("names", names.joined(separator: "\n") + "\n")
        try tmux.file("input.txt", "one\n")
        try tmux.file("run.sh", """
            cd '\(d)'
            unset PICK_DEFAULT_OPTS NO_COLOR
            export LANG=C.UTF-8 LC_ALL=C.UTF-8 EDITRC='\(d)/editrc' HOME='\(d)'
            i=0
            while IFS= read -r name; do
              i=$((i + 1))
              '\(pickBinaryPath())' --expect "$name" --prompt "[k$i] " < input.txt > "out.$i" 2> "err.$i"
              echo $? > "rc.$i"
            done < names
            exec sleep 600

            """)
        let started = try TmuxPick.shell(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s",
                                          tmux.name, "-x", "60", "-y", "10", "sh '\(d)/run.sh'"])
        XCTAssertEqual(started.status, 0, started.output, file: file, line: line)
        for (index, name) in names.enumerated() {
            let i = index + 1
            guard let keys = Self.tmuxKeys(name) else {
                XCTFail("\(name): the test does not know how tmux presses it", file: file, line: line)
                continue
            }
            tmux.waitFor("pick --expect \(name)", file: file, line: line) { rows in
                rows.contains { $0.hasPrefix("[k\(i)]") } && rows.contains { $0.contains("1/1") }
            }
            _ = try TmuxPick.shell(["tmux", "-L", tmux.socket, "send-keys", "-t", tmux.name] + keys)
            let rc = tmux.dir.appendingPathComponent("rc.\(i)")
            func exited(within seconds: TimeInterval) -> String? {
                // The shell creates the file, then writes the status: wait for the line.
                let end = Date().addingTimeInterval(seconds)
                while Date() < end {
                    if let text = try? String(contentsOf: rc, encoding: .utf8), text.hasSuffix("\n") { return text }
                    usleep(10_000)
                }
                return nil
            }
            guard let status = exited(within: 3) else {
                XCTFail("--expect \(name): \(keys) did not fire", file: file, line: line)
                tmux.keys("C-g")  // cancel, and go on with the next name
                _ = exited(within: 3)
                continue
            }
            let out = (try? String(contentsOf: tmux.dir.appendingPathComponent("out.\(i)"), encoding: .utf8)) ?? ""
            XCTAssertEqual(status, "0\n", "--expect \(name)", file: file, line: line)
            XCTAssertEqual(out, "\(name)\none\n", "--expect \(name): \(keys)", file: file, line: line)
        }
    }

    /// The keys' names (the mouse events' are no keys tmux sends: MouseTests sends them).
    private var names: [String] {
        KeyNames.fixedNames.filter { name in !MouseKey.allCases.contains { $0.rawValue == name } }
    }

    func testControlKeysAndTheirSynonymsFire() throws {
        try assertEachNameFires(names.filter { $0.hasPrefix("ctrl-") && !$0.hasPrefix("ctrl-alt-") && !Self.isModifiedNavigation($0) }
                                + ["CTRL-X", "ctrl-A"])
    }

    func testNamedKeysAndAltKeysFire() throws {
        try assertEachNameFires(names.filter { !$0.hasPrefix("ctrl-") && !Self.isModifiedNavigation($0) }
                                + ["x", "X", "?", "é", "alt-x", "alt-X", "alt-[", "alt-O", "alt-é", "ALT-y", "Enter"])
    }

    func testCtrlAltKeysFire() throws {
        try assertEachNameFires(names.filter { $0.hasPrefix("ctrl-alt-") && !Self.isModifiedNavigation($0) })
    }

    func testNavigationKeysWithModifiersFire() throws {
        try assertEachNameFires(names.filter(Self.isModifiedNavigation) + ["shift-alt-up", "alt-ctrl-pgdn"])
    }

    private static func isModifiedNavigation(_ name: String) -> Bool {
        let (prefix, base) = modifiersAndBase(name)
        return !prefix.isEmpty && tmuxNavigation[base] != nil
    }
}
