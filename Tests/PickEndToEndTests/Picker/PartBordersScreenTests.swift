import Foundation
import XCTest

/// The parts' borders and labels, `--style`, `--header-first` and `--footer`, drawn by pick
/// as fzf 0.74 draws them: each case runs the real fzf and pick in tmux panes of the same
/// size with the same options and compares every row of the two screens.
final class PartBordersScreenTests: InteractiveTestCase {
    /// Options both get, after the case's own (a `--style` resets some), so that what other
    /// parts of issue 31 draw (the gutter, the scrollbar, the rule after the counts) do not
    /// enter the comparison; fzf's layout comes first.
    private let common = "--no-scrollbar --no-separator --gutter ' ' --pointer '>' --marker '>'"

    /// Runs fzf, then pick, with `args` on `input`, waits until each shows `ready`, and
    /// asserts pick's rows are fzf's.
    private func assertDrawnAsFzf(_ input: String, _ args: String, ready: String, width: Int = 30, height: Int = 16,
                                  keys: [String] = [], readyAfterKeys: String? = nil,
                                  file: StaticString = #filePath, line: UInt = #line) throws {
        let fzf = try fzfPath()
        let theirs = try TmuxPick(test: name + "fzf")
        defer { theirs.close() }
        try theirs.start(input: input, args: "--layout=default " + args + " " + common, width: width, height: height, binary: fzf)
        try tmux.start(input: input, args: "--layout=default " + args + " " + common, width: width, height: height)
        var expected = theirs.waitFor(text: ready, file: file, line: line)
        // fzf's frame once it has settled: unchanged for a quarter of a second, long enough
        // for a preview's command on a loaded machine (captures come 20 ms apart).
        var changed = Date()
        expected = theirs.waitFor("fzf's screen to settle", file: file, line: line) { rows in
            if rows != expected { expected = rows; changed = Date() }
            return Date().timeIntervalSince(changed) >= 0.25
        }
        var rows = tmux.waitFor(text: ready, file: file, line: line)
        if !keys.isEmpty {
            let after = readyAfterKeys ?? ready
            for key in keys { theirs.keys(key) }
            expected = theirs.waitFor("fzf after \(keys)", file: file, line: line) { $0 != expected && $0.contains { $0.contains(after) } }
            for key in keys { tmux.keys(key) }
            rows = tmux.waitFor("pick after \(keys)", file: file, line: line) { $0 != rows && $0.contains { $0.contains(after) } }
        }
        // The same screen settles in both: poll pick's until it matches or the deadline passes.
        rows = tmux.waitFor("fzf's screen:\n" + expected.joined(separator: "\n"), file: file, line: line) { $0 == expected }
        XCTAssertEqual(rows, expected, file: file, line: line)
    }

    func testAListBorderWithItsLabelOnTheBottomInsideTheMainBorder() throws {
        try assertDrawnAsFzf("seq 100", "--border rounded --list-border double --list-label list --list-label-pos 2:bottom "
                             + "--header-lines 3 --padding 1,2", ready: "97/97")
    }

    func testEveryPartInItsOwnBorderInFzfsOrder() throws {
        try assertDrawnAsFzf("seq 100", "--border rounded --list-border double --list-label list --list-label-pos 2:bottom "
                             + "--header-lines 3 --header-border sharp --header-label header --header-label-pos 2:bottom "
                             + "--padding 1,2 --input-border bold --input-label input --input-label-pos 2:bottom",
                             ready: "97/97", height: 20)
    }

    func testInlineSectionsSitInsideTheListsBorder() throws {
        try assertDrawnAsFzf("seq 100", "--style full --header-lines 2 --header-border inline --footer foot "
                             + "--footer-border inline", ready: "98/98", height: 16)
        tmux.close()
        tmux = try TmuxPick(test: name + "reverse")
        try assertDrawnAsFzf("seq 100", "--reverse --list-border horizontal --header head --header-border inline "
                             + "--header-first", ready: "100/100", height: 12)
    }

    func testAChangedHeaderRedrawsAnInlineSection() throws {
        try assertDrawnAsFzf("seq 5", "--style full --header-lines 1 --header-border inline --bind space:change-header:tada",
                             ready: "4/4", height: 14, keys: ["Space"], readyAfterKeys: "tada")
    }

    func testLongLabelsEndInTheEllipsisAndThePreviewMeetsTheListsBorder() throws {
        let long = { (c: String) in String(repeating: c, count: 60) }
        try assertDrawnAsFzf("seq 10", "--style full --border --preview : --border-label \(long("b")) "
                             + "--list-label \(long("l")) --preview-label \(long("p")) --input-label \(long("i"))",
                             ready: "10/10", width: 50, height: 14)
    }

    func testHeaderFirstPutsTheHeaderBeyondThePrompt() throws {
        try assertDrawnAsFzf("seq 1000", "--header foobar --header-lines 3 --header-first", ready: "997/997", height: 10)
        tmux.close()
        tmux = try TmuxPick(test: name + "reverse")
        try assertDrawnAsFzf("seq 1000", "--header foobar --header-lines 3 --header-first --reverse --inline-info",
                             ready: "997/997", height: 10)
    }

    func testHeaderLinesReadUpwardFromTheHeaderInTheDefaultLayout() throws {
        try assertDrawnAsFzf("seq 10", "--header-lines 2 --header \"$(printf 'one\\ntwo')\"", ready: "8/8", height: 12)
    }

    func testStyleFullBoxesEveryPart() throws {
        try assertDrawnAsFzf("seq 1000", "--style full --header-lines 1 --header hi --info=default", ready: "999/999")
        tmux.close()
        tmux = try TmuxPick(test: name + "sharp")
        try assertDrawnAsFzf("seq 1000", "--style full:sharp --reverse --footer ft --info=default", ready: "1000/1000")
    }

    func testAFooterHasALineTowardTheList() throws {
        try assertDrawnAsFzf("seq 1000", "--reverse --footer foo --list-border", ready: "1000/1000")
        tmux.close()
        tmux = try TmuxPick(test: name + "border")
        try assertDrawnAsFzf("seq 1000", "--footer foo --footer-border --footer-label F", ready: "1000/1000")
    }

    func testReverseListKeepsTheHeaderLinesAboveTheList() throws {
        try assertDrawnAsFzf("seq 1000", "--layout reverse-list --header-lines 2 --header hi", ready: "998/998")
    }

    func testABorderlessInputBesideABorderedListLinesUpWithIt() throws {
        try assertDrawnAsFzf("seq 100", "--list-border rounded --header-border rounded --header-lines 2", ready: "98/98")
    }

    func testToggleHeaderHidesTheHeaderAndItsLinesAndShowsThemAgain() throws {
        try assertDrawnAsFzf("seq 4", "--header-lines 2 --header foo --bind space:toggle-header --header-first --height 10 "
                             + "--border rounded", ready: "2/2", width: 20, height: 12, keys: ["Space"])
    }

    func testLabelAndFooterActionsRedrawTheirParts() throws {
        try assertDrawnAsFzf("seq 100", "--border rounded --list-border double --input-border bold --list-label-pos 2:bottom "
                             + "--input-label-pos 2 --header-lines 3 --padding 1,2 "
                             + "--bind 'start:transform-input-label(echo INPUT)+transform-list-label(echo LIST)' "
                             + "--bind 'space:change-input-label( input )+change-list-label( list )'",
                             ready: "INPUT", height: 18, keys: ["Space"], readyAfterKeys: " input ")
    }

    func testAnAdaptiveHeightCountsTheBoxesRows() throws {
        try assertDrawnAsFzf("seq 1", "--style=full:double --border --height=~100% --header-lines=1 --info=default",
                             ready: "0/0", width: 20, height: 14)
    }

    func testAnAdaptiveHeightMakesRoomForAPaneAboveOrBelow() throws {
        // fzf's share: the list's rows are what is left of the pane's percentage.
        try assertDrawnAsFzf("seq 3", "--height ~100% --info=inline --border rounded --preview 'seq {}' "
                             + "--preview-window up,60%", ready: "3/3", width: 20, height: 20)
        tmux.close()
        tmux = try TmuxPick(test: name + "cells")
        // Ready when the preview's own scroll figure shows: fzf can look settled before its
        // preview comes on a loaded machine.
        try assertDrawnAsFzf("seq 3", "--height ~100% --border sharp --preview 'seq {}' --preview-window down,2,border-top "
                             + "--header hello --header-lines 2", ready: "1/3", width: 20, height: 20)
    }

    func testMinHeightWithAPlusGivesTheListThatManyRows() throws {
        try assertDrawnAsFzf("seq 100", "--style full:sharp --height 1% --min-height 5+ --info=default", ready: "100/100",
                             width: 20, height: 14)
    }

    func testEachPartsBorderAndLabelTakeTheirColoursAsFzfs() throws {
        // The footer's and the header lines' colours come from their own names or the
        // header's; every border glyph and label letter must be coloured as fzf colours it.
        let args = "--list-border --input-border --header-border --footer-border --footer ft --header-lines 1 "
            + "--list-label LL --input-label II --header-label HH --footer-label FF "
            + "--color=list-border:100,input-border:101,header-border:102,footer-border:103,"
            + "list-label:104,input-label:105,header-label:106,footer-label:107,footer:108"
        try assertDrawnAsFzf("seq 100", args, ready: "99/99", height: 20)
        let fzf = try fzfPath()
        let theirs = try TmuxPick(test: name + "fzfcolours")
        defer { theirs.close() }
        try theirs.start(input: "seq 100", args: "--layout=default " + args + " " + common, width: 30, height: 20, binary: fzf)
        theirs.waitFor(text: "99/99")
        let expected = StyledScreen(theirs.screenWithEscapes())
        let screen = StyledScreen(tmux.screenWithEscapes())
        XCTAssertEqual(screen.rows.count, expected.rows.count)
        let drawn = Set("╭╮╰╯─│LIHF".unicodeScalars.map(Character.init)).union(["t", "f"])
        for (r, row) in expected.rows.enumerated() where r < screen.rows.count {
            for (c, cell) in row.enumerated() where drawn.contains(cell.character) && c < screen.rows[r].count {
                XCTAssertEqual(screen.rows[r][c].foreground, cell.foreground,
                               "row \(r) column \(c) '\(cell.character)': fzf's colour")
            }
        }
    }

    func testNoHeaderOrFooterIsWiderThanTheList() throws {
        // fzf's suite (test_header_and_footer_should_not_be_wider_than_list): every row a
        // column short of the list's border, the scrollbar's.
        let wide = String(repeating: "x", count: 60)
        try tmux.start(input: "yes \(wide) | head -2", args: "--header-lines 1 --style full --header-border bottom "
                       + "--header-lines-border top --ellipsis XX --header \(wide) --footer \(wide) --no-footer-border",
                       width: 30, height: 20)
        let rows = tmux.waitFor(text: "1/1")
        let ends = rows.compactMap { row in row.range(of: "x+XX", options: .regularExpression).map { row.distance(from: row.startIndex, to: $0.upperBound) } }
        XCTAssertEqual(ends.count, 4, "the list's line, the header, the header line and the footer, cut")
        XCTAssertEqual(Set(ends).count, 1, "every one ends where the list's does: \(rows)")
    }

    func testNoInputKeepsTheHeadersInTheirBoxes() throws {
        try assertDrawnAsFzf("seq 5", "--height ~100% --border sharp --header \"$(seq 101 102)\" --header-border sharp "
                             + "--header-lines 2 --header-lines-border sharp --header-first --no-input", ready: "102", height: 18)
    }

    func testHeaderAndFooterBackgroundsFillTheirSectionsAsFzfs() throws {
        // Inline sections: their edges, text rows and the line toward the list in the
        // section's background; the list's label on the edge the header took.
        let args = "--reverse --list-border --list-label LL --header HEADER --header-border inline --footer FOOT "
            + "--footer-border inline --color=header-bg:red,footer-bg:blue,list-label:yellow"
        try assertDrawnAsFzf("seq 5", args, ready: "5/5", height: 14)
        let fzf = try fzfPath()
        let theirs = try TmuxPick(test: name + "fzfcolours")
        defer { theirs.close() }
        try theirs.start(input: "seq 5", args: "--layout=default " + args + " " + common, width: 30, height: 14, binary: fzf)
        theirs.waitFor(text: "5/5")
        let expected = StyledScreen(theirs.screenWithEscapes())
        let screen = StyledScreen(tmux.screenWithEscapes())
        for (r, row) in expected.rows.enumerated() where row.contains(where: { $0.background != nil }) {
            XCTAssertEqual((r < screen.rows.count ? screen.rows[r] : []).map(\.background), row.map(\.background), "row \(r): fzf's backgrounds")
        }
        XCTAssertEqual(screen.cells(of: "LL").first?.foreground, expected.cells(of: "LL").first?.foreground)
    }

    func testTheListsBackgroundIsItsOwnAndTheBordersBgIsTheRest() throws {
        // list-bg under the list's rows and box, bg under the outer border, input-bg in the
        // input's box; a header without a border is on the list's.
        let args = "--border --list-border --input-border --header hh --color=bg:blue,list-bg:green,input-bg:red"
        try assertDrawnAsFzf("seq 5", args, ready: "5/5", height: 16)
        let fzf = try fzfPath()
        let theirs = try TmuxPick(test: name + "fzfcolours")
        defer { theirs.close() }
        try theirs.start(input: "seq 5", args: "--layout=default " + args + " " + common, width: 30, height: 16, binary: fzf)
        theirs.waitFor(text: "5/5")
        let expected = StyledScreen(theirs.screenWithEscapes())
        let screen = StyledScreen(tmux.screenWithEscapes())
        for (r, row) in expected.rows.enumerated() where r < screen.rows.count {
            for (c, cell) in row.enumerated() where cell.character != " " && c < screen.rows[r].count {
                XCTAssertEqual(screen.rows[r][c].background, cell.background, "row \(r) column \(c) '\(cell.character)'")
            }
        }
    }

    func testAKeyChangesThePreviewsLabelAsFzfs() throws {
        try assertDrawnAsFzf("seq 100", "--preview 'echo hi {}' --preview-border=sharp --preview-label ' P ' "
                             + "--preview-window=up,3 --bind 'ctrl-x:change-preview-label( NEW )'",
                             ready: "hi 1", keys: ["C-x"], readyAfterKeys: "NEW")
    }

    func testABackgroundTransformSetsTheListsLabelAsFzfs() throws {
        try assertDrawnAsFzf("seq 100", "--list-border rounded --list-label ' L ' "
                             + "--bind 'ctrl-x:bg-transform-list-label(echo \" {q} done \")'",
                             ready: "100/100", keys: ["C-x"], readyAfterKeys: "done")
    }

    func testNoInputGivesThePromptsAndCountsRowsToTheList() throws {
        try assertDrawnAsFzf("seq 100", "--no-input", ready: "> 1")
    }

    func testWithTheInputHiddenTypingIsDroppedAndToggleInputShowsIt() throws {
        try assertDrawnAsFzf("seq 100", "--no-input --bind ctrl-t:toggle-input", ready: "> 1", keys: ["5", "C-t"],
                             readyAfterKeys: "100/100")
    }

    func testHideInputInTheReverseLayoutWithABorder() throws {
        try assertDrawnAsFzf("seq 100", "--reverse --border rounded --bind ctrl-t:hide-input", ready: "100/100",
                             keys: ["Down", "C-t"], readyAfterKeys: "> 2")
    }

    func testAChainShowsTheInputChangesTheQueryAndHidesItAgain() throws {
        // fzf's test_no_input_change_query, drawn: the query changes only while shown.
        try assertDrawnAsFzf("seq 1000", "--query 999 --no-input --bind 'enter:show-input+change-query(555)+hide-input'",
                             ready: "> 999", keys: ["Enter"], readyAfterKeys: "> 555")
    }

    func testThePreviewsBorderAndLabel() throws {
        try assertDrawnAsFzf("seq 100", "--preview 'echo hi {}' --preview-border=sharp --preview-label ' P ' "
                             + "--preview-label-pos=2:bottom --preview-window=up,3", ready: "hi 1")
    }
}
