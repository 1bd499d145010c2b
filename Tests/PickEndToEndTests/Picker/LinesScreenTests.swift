import Foundation
import XCTest

/// Long lines and the list's scrolling as fzf 0.74.5 draws them for the same options:
/// horizontal scrolling to the match (`--hscroll-off`, `--no-hscroll`, `toggle-hscroll`,
/// `--keep-right`, fzf's `··` ellipsis) and `--scroll-off`; without the scrollbar, as fzf's
/// suite runs fzf.
final class LinesScreenTests: InteractiveTestCase {
    private let long = String(repeating: "=", count: 10_000) + "0123456789\n"

    func testTheMatchAndHscrollOffColumnsShowAndToggleHscrollCutsAtTheEnd() throws {
        // fzf's suite (test_hscroll_off), pick's layout: the line is the third row.
        try tmux.file("input.txt", long)
        for off in [0, 3, 6] {
            tmux.close()
            tmux = try TmuxPick(test: name + "\(off)")
            try tmux.file("input.txt", long)
            try tmux.start(input: "cat input.txt", args: "--hscroll-off=\(off) -q 0 --bind space:toggle-hscroll")
            let suffix = (0...off).map(String.init).joined() + "··"
            var rows = tmux.waitFor("off \(off): the match and \(off) columns") { $0[row: 2].hasSuffix(suffix) }
            XCTAssertTrue(rows[row: 2].hasPrefix("> ··="), "cut at the start too: \(rows[row: 2])")
            tmux.type("9")
            tmux.waitFor("off \(off): the line's end") { $0[row: 2].hasSuffix("789") }
            tmux.type(" ")
            rows = tmux.waitFor("off \(off): toggle-hscroll cuts at the end") { $0[row: 2].hasSuffix("=··") }
            XCTAssertTrue(rows[row: 2].hasPrefix("> ==="), rows[row: 2])
            tmux.type(" ")
            tmux.waitFor("off \(off): and back") { $0[row: 2].hasSuffix("789") }
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0)
        }
    }

    func testNoHscrollAndKeepRight() throws {
        try tmux.file("input.txt", "abc" + long)
        try tmux.start(input: "cat input.txt", args: "--no-scrollbar --no-hscroll -q 789", width: 40, height: 6)
        tmux.waitFor("--no-hscroll: the start, cut at the end") { $0[row: 2] == "> abc" + String(repeating: "=", count: 33) + "··" }
        tmux.close()
        tmux = try TmuxPick(test: name + "right")
        try tmux.file("input.txt", "abc" + long)
        try tmux.start(input: "cat input.txt", args: "--no-scrollbar --keep-right", width: 40, height: 6)
        tmux.waitFor("--keep-right: the end") { $0[row: 2] == "> ··" + String(repeating: "=", count: 26) + "0123456789" }
    }

    func testFrozenFieldsStayInViewWhileTheMiddleScrollsToTheMatch() throws {
        // fzf's suite (test_freeze_left_and_right), at 40 columns: the rows fzf draws.
        try tmux.start(input: "seq 200 | tr '\\n' ' '", args: "--no-scrollbar --freeze-left 3 --freeze-right 3 --ellipsis XX",
                       width: 42, height: 6)
        tmux.waitFor("the first and last three fields") { $0[row: 2] == "> 1 2 3 4 5 6 7 8 9 10 11 12XX198 199 200" }
        tmux.type("'100")
        tmux.waitFor("the middle scrolled to the match") { $0[row: 2] == "> 1 2 3XX 98 99 100 101 102 XX198 199 200" }
    }

    func testAFrozenEndTooLongForTheRowShowsItsEnd() throws {
        // fzf's suite (test_freeze_right_exceed_range): every field frozen at the end.
        try tmux.start(input: "seq 200 | tr '\\n' ' '", args: "--no-scrollbar --freeze-right 1000 --ellipsis XX", width: 42, height: 6)
        tmux.waitFor("the line's end") { $0[row: 2] == "> XX1 192 193 194 195 196 197 198 199 200" }
        tmux.type("'100")
        tmux.waitFor(text: "> '100")
        let rows = tmux.waitFor("still the end with a match") { $0[row: 2].hasSuffix("199 200") }
        XCTAssertEqual(rows[row: 2].components(separatedBy: "XX").count, 2, rows[row: 2])
    }

    func testEllipsisMarksBothCuts() throws {
        // fzf's suite (test_ellipsis).
        try tmux.start(input: "seq 1000 | tr '\\n' ,", args: "--ellipsis=SNIPSNIP -e -q500")
        tmux.waitFor("SNIPSNIP at both ends") { rows in
            rows[row: 2].range(of: "^> SNIPSNIP.*500.*SNIPSNIP$", options: .regularExpression) != nil
        }
    }

    func testScrollOffKeepsLinesInViewAroundTheHighlight() throws {
        // As fzf --layout=reverse --scroll-off=3 at 30x10: seven Downs show 4 to 11.
        try tmux.start(input: "seq 100", args: "--no-scrollbar --scroll-off=3", width: 30, height: 10)
        tmux.waitFor(text: "100/100")
        for _ in 0..<7 { tmux.keys("Down") }
        var rows = tmux.waitFor("three lines kept below the highlight") { $0[row: 6] == "> 8" }
        XCTAssertEqual(Array(rows[2...9]), ["  4", "  5", "  6", "  7", "> 8", "  9", "  10", "  11"])
        tmux.keys("Up")
        rows = tmux.waitFor("the list stays while the highlight has room") { $0[row: 5] == "> 7" }
        XCTAssertEqual(rows[row: 2], "  4")
        tmux.close()
        tmux = try TmuxPick(test: name + "large")
        // fzf's suite (test_scroll_off_large): the highlight stays in the middle.
        try tmux.start(input: "seq 100", args: "--scroll-off=9999", width: 30, height: 10)
        tmux.waitFor(text: "100/100")
        for _ in 0..<7 { tmux.keys("Down") }
        rows = tmux.waitFor("the highlight mid-list") { $0[row: 5] == "> 8" }
        tmux.keys("Up")
        tmux.waitFor("still mid-list") { $0[row: 5] == "> 7" }
    }
}
