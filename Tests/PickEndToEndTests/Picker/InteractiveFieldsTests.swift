import Foundation
import XCTest

/// --nth, --with-nth and --accept-nth in the picker: what the list shows, which characters
/// are highlighted, and what Return prints.
final class InteractiveFieldsTests: InteractiveTestCase {
    /// The text of the screen's runs drawn in the highlight colour 201 (`--color hl:201,hl+:201`).
    private func highlighted(_ screen: String) -> [String] {
        var runs: [String] = []
        var current = ""
        var inHighlight = false
        var i = screen.startIndex
        while i < screen.endIndex {
            if screen[i] == "\u{1B}", let m = screen[i...].firstIndex(of: "m") {
                let sgr = screen[screen.index(i, offsetBy: 2)..<m]
                let on = sgr.contains("38;5;201")
                if inHighlight && !on && (sgr.contains("39") || sgr.contains("38;") || sgr == "0" || sgr.isEmpty) {
                    runs.append(current)
                    current = ""
                    inHighlight = false
                } else if on {
                    inHighlight = true
                }
                i = screen.index(after: m)
                continue
            }
            if inHighlight { current.append(screen[i]) }
            i = screen.index(after: i)
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    func testWithNthShowsTheFieldsAndReturnPrintsTheWholeLine() throws {
        try tmux.file("input.txt", "/usr/bin:bin:tools\n/opt/x:opt:extras\n")
        try tmux.start(input: "cat input.txt", args: "-d : --with-nth 2..", width: 40, height: 8)
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.hasSuffix("bin:tools") && !$0.contains("/usr") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0.contains("opt:extras") && !$0.contains("/opt") }, "\(rows)")
        tmux.type("usr")
        tmux.waitFor(text: "0/2")
        tmux.keys("BSpace", "BSpace", "BSpace")
        tmux.type("extr")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "/opt/x:opt:extras\n")
    }

    func testNthHighlightsTheMatchInsideTheSearchedField() throws {
        // "al" is in the first field of each line too, but only the second is searched.
        try tmux.file("input.txt", "alpha:beta:alto\nalbum:alpaca:x\n")
        try tmux.start(input: "cat input.txt", args: "-d : --nth 2 --color hl:201,hl+:201", width: 40, height: 8)
        tmux.waitFor(text: "2/2")
        tmux.type("al")
        let rows = tmux.waitFor(text: "1/2")
        XCTAssertTrue(rows.contains { $0.contains("album:alpaca:x") }, "\(rows)")
        XCTAssertEqual(highlighted(tmux.screenWithEscapes()), ["al"])
        let line = tmux.screenWithEscapes().components(separatedBy: "\n").first { $0.contains("album") } ?? ""
        XCTAssertTrue(line.contains("album:\u{1B}[38;5;201mal") || line.contains("album:\u{1B}[1;38;5;201mal")
                      || line.range(of: "album:\u{1B}\\[[0-9;]*38;5;201m(\u{1B}\\[[0-9;]*m)*al", options: .regularExpression) != nil,
                      "the highlight is on the second field's “al”: \(line.debugDescription)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "album:alpaca:x\n")
    }

    func testWithNthAndNthHighlightOnTheShownText() throws {
        try tmux.file("input.txt", "id1 red apple\nid2 green pear\n")
        try tmux.start(input: "cat input.txt", args: "--with-nth 2.. --nth 2 --color hl:201,hl+:201", width: 40, height: 8)
        var rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.hasSuffix("red apple") && !$0.contains("id1") }, "\(rows)")
        // Shown is "green pear"; searched is its second field, "pear": "ea" cannot take the
        // "e" of "green".
        tmux.type("ea")
        rows = tmux.waitFor(text: "1/2")
        XCTAssertTrue(rows.contains { $0.contains("green pear") }, "\(rows)")
        let row = tmux.screenWithEscapes().components(separatedBy: "\n").first { $0.contains("green") } ?? ""
        XCTAssertEqual(highlighted(row), ["ea"], "in “pear”: \(row.debugDescription)")
        XCTAssertTrue(row.contains("green p"), row.debugDescription)
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "id2 green pear\n")
    }

    func testAWithNthTemplateShowsAndHighlightsTheTextItMakes() throws {
        try tmux.file("input.txt", "id1 red apple\nid2 green pear\n")
        try tmux.start(input: "cat input.txt", args: "--with-nth '{3} <{1}>' --color hl:201,hl+:201", width: 40, height: 8)
        var rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.hasSuffix("apple <id1>") && !$0.contains("red") }, "\(rows)")
        tmux.type("'r\\ <")
        rows = tmux.waitFor(text: "1/2")
        let row = tmux.screenWithEscapes().components(separatedBy: "\n").first { $0.contains("id2>") } ?? ""
        XCTAssertEqual(highlighted(row), ["r <"], "across a field and the template's text: \(row.debugDescription)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "id2 green pear\n", "the line as read")
    }

    func testAcceptNthPrintsTheFieldsOfEachMarkedLineAfterTheExpectedKey() throws {
        try tmux.file("input.txt", "1:one:uno\n2:two:dos\n3:three:tres\n")
        try tmux.start(input: "cat input.txt", args: "-d : --accept-nth 1,3 --multi --expect ctrl-x", width: 40, height: 8)
        tmux.waitFor(text: "3/3")
        tmux.keys("Tab", "Down", "Down", "Tab")
        tmux.waitFor(text: "(2)")
        tmux.keys("C-x")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "ctrl-x\n1:uno\n3:tres\n", "fields in line order, joined by the delimiter as fzf")
    }

    func testAnAcceptNthTemplatePrintsItsTextWithTheFieldsAndTheLinesIndex() throws {
        // fzf's suite (test_accept_nth_template): the fields lose their last delimiter.
        try tmux.file("input.txt", "foo  ,bar,baz\nqux , quux , corge\n")
        try tmux.start(input: "cat input.txt", args: "-d ' *, *' --accept-nth '[{n}] 1st: {1}, 3rd: {3}, 2nd: {2}'",
                       width: 40, height: 8)
        tmux.waitFor(text: "2/2")
        tmux.keys("Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "[1] 1st: qux, 3rd: corge, 2nd: quux\n")
    }

    func testAnEmptyChangeNthSearchesTheWholeLine() throws {
        // fzf's suite (test_change_nth_unset_default).
        try tmux.start(input: "echo foo bar", args: "--nth 2 --query fb --bind space:change-nth:", width: 40, height: 8)
        tmux.waitFor("fb is not in the second field") { $0[row: 1] == tmux.infoRow("0/1") }
        tmux.keys("Space")
        tmux.waitFor("the whole line searched") { $0[row: 1] == tmux.infoRow("1/1") }
    }

    func testAcceptNthWithPrint0() throws {
        try tmux.file("input.txt", "a b c\nd e f\n")
        try tmux.start(input: "cat input.txt", args: "--accept-nth 2 --print0", width: 40, height: 8)
        tmux.waitFor(text: "2/2")
        tmux.keys("Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "e\u{0}")
    }

    func testAnsiColoursStayOnTheirFieldsWithWithNth() throws {
        try tmux.file("input.txt", "id1 \u{1B}[32mgreen\u{1B}[0m tea\nid2 \u{1B}[31mred\u{1B}[0m wine\n")
        try tmux.start(input: "cat input.txt", args: "--ansi --with-nth 2..", width: 40, height: 8)
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.hasSuffix("green tea") && !$0.contains("id1") }, "\(rows)")
        let screen = tmux.screenWithEscapes()
        XCTAssertTrue(screen.contains("\u{1B}[32mgreen"), "green stays on “green”: \(screen.debugDescription)")
        XCTAssertTrue(screen.contains("\u{1B}[31mred"), "red on “red”: \(screen.debugDescription)")
        tmux.keys("Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "id2 red wine\n")
    }

    func testAPreviewGetsTheLineAsReadNotTheShownFields() throws {
        try tmux.file("input.txt", "id1 red apple\nid2 green pear\n")
        try tmux.start(input: "cat input.txt", args: "--with-nth 2.. --nth 1 --preview 'echo P:{} F:{1}'", width: 60, height: 8)
        let rows = tmux.waitFor("the preview of the first line") { $0.contains { $0.contains("P:id1 red apple F:id1") } }
        XCTAssertTrue(rows.contains { $0.contains("red apple") && !$0.contains("P:") && !$0.contains("id1 red") },
                      "the list shows the fields: \(rows)")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}
