import Foundation
import XCTest

/// `--track`, `--id-nth` and the other fzf behaviours of issue 30 fzf's suite checks
/// (result-final, --sync, cancel, --multi=MAX, change-multi), seen on the real binary's screen.
final class TrackingScreenTests: InteractiveTestCase {
    /// The row of the screen the pointer is on, and its text (the prompt's row, the first in
    /// pick's layout and the last in fzf's, is passed over).
    func pointer(_ rows: [String]) -> (row: Int, text: String)? {
        rows.indices.dropFirst().first { rows[$0].hasPrefix("> ") || rows[$0].hasPrefix(">*") }
            .map { i in
                // Without the scrollbar's thumb at the row's end.
                let text = rows[i].hasSuffix("\u{2502}") ? String(rows[i].dropLast()) : rows[i]
                return (i, String(text.dropFirst(2).reversed().drop { $0 == " " }.reversed()))
            }
    }

    func testTrackKeepsTheLineOnItsRowOfTheScreenAsTheQueryWidens() throws {
        try tmux.start(input: "seq 1000", args: "--query 555 --track")
        tmux.waitFor(text: "1/1000 +T")
        tmux.keys("BSpace")
        let before = tmux.waitFor("555 among the matches of 55") { self.pointer($0)?.text == "555" && $0.contains { $0.contains("28/1000") } }
        let row = pointer(before)!.row
        tmux.keys("BSpace")
        tmux.waitFor("555 on the same row among those of 5") { rows in
            rows.contains { $0.contains("271/1000 +T") } && self.pointer(rows).map { $0 == (row, "555") } == true
        }
    }

    func testAsFzfTheHighlightKeepsItsRowWhenTheQueryChanges() throws {
        try tmux.start(input: "seq 100", args: "--pointer '>' --gutter ' '", binary: try fzfLink())
        tmux.waitFor(text: "100/100")
        tmux.keys("Up", "Up", "Up")
        tmux.waitFor("on 4") { self.pointer($0)?.text == "4" }
        tmux.type("1")
        tmux.waitFor("on the fourth match of 1, as fzf's cursor") { rows in
            rows.contains { $0.contains("20/100") } && self.pointer(rows)?.text == "12"
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "12\n")
    }

    /// The reload of `lines`, once the file `go` exists.
    func reload(_ lines: String) -> String {
        "while [ ! -f go ]; do sleep 0.05; done; printf '\(lines)'"
    }

    func testAReloadWithIdNthHoldsUntilTheLineIsReadAgain() throws {
        try tmux.start(input: "printf '1 apple\\n2 banana\\n3 cherry\\n'", args: """
            --track --id-nth 1 --bind "ctrl-r:reload(\(reload("3 cranberry\\n2 blueberry\\n1 apricot\\n")))"
            """)
        tmux.waitFor(text: "3/3 +T")
        tmux.keys("Down", "Down")
        tmux.waitFor("on 3 cherry") { self.pointer($0)?.text == "3 cherry" }
        tmux.keys("C-r")
        tmux.waitFor(text: "3/3 +T*")
        FileManager.default.createFile(atPath: tmux.dir.appendingPathComponent("go").path, contents: Data())
        tmux.waitFor("found by its first field; the hold ends") { rows in
            self.pointer(rows)?.text == "3 cranberry" && rows.contains { $0.hasPrefix("  3/3 +T ") }
        }
    }

    func testWhileAReloadHoldsKeysDoNothingAndEscapeEndsTheHoldNotPick() throws {
        try tmux.start(input: "seq 100", args: """
            --track --id-nth .. --bind "ctrl-r:reload(\(reload("1\\n")))" --bind 'ctrl-p:change-prompt(P> )'
            """)
        tmux.waitFor(text: "100/100 +T")
        tmux.keys("C-r")
        tmux.waitFor(text: "100/100 +T*")
        tmux.keys("C-p")
        tmux.type("x")
        tmux.keys("Escape")
        // The reload still runs: the spinner turns before the count, as fzf's.
        let rows = tmux.waitFor("the hold ended, pick still running") { $0.contains { $0.dropFirst().hasPrefix(" 100/100 +T ") } }
        XCTAssertEqual(rows[row: 0].trimmingCharacters(in: .whitespaces), ">", "no prompt changed, nothing typed")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testAReloadSyncMarksTheSameLinesAgainByTheirFields() throws {
        let next = try tmux.file("next", "1 apricot\n2 blueberry\n3 cranberry\n")
        try tmux.start(input: "printf '1 apple\\n2 banana\\n3 cherry\\n'", args: """
            --multi --id-nth 1 --bind 'ctrl-r:reload-sync(cat \(next))'
            """)
        tmux.waitFor(text: "3/3 (0)")
        tmux.keys("Down", "Down", "Tab", "Up", "Up", "Tab")
        tmux.waitFor(text: "3/3 (2)")
        tmux.keys("C-r")
        tmux.waitFor("the new lines, marked again") { rows in
            rows.contains { $0.contains("apricot") } && rows.contains { $0.contains("3/3 (2)") }
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3 cranberry\n1 apricot\n", "in the order marked")
    }

    func testResultFinalFiresOnceTheInputIsReadWhole() throws {
        try tmux.start(input: "(seq 100; while [ ! -f go ]; do sleep 0.05; done; seq 100)", args: """
            --query 1 --bind 'result:transform-header(echo "R=$FZF_MATCH_COUNT")' \
            --bind 'result-final:transform-footer(echo "F=$FZF_MATCH_COUNT")'
            """)
        let loading = tmux.waitFor(text: "R=20")
        XCTAssertFalse(loading.contains { $0.contains("F=") }, "more input to come: no final result")
        FileManager.default.createFile(atPath: tmux.dir.appendingPathComponent("go").path, contents: Data())
        tmux.waitFor(text: "F=40")
    }

    func testSyncLeavesTheTerminalToThePickerBeforeItUntilItsInputIsRead() throws {
        try tmux.start(input: "seq 10 | '\(pickBinaryPath())' --multi", args: "--sync")
        tmux.waitFor(text: "10/10 (0)")
        tmux.type("3")
        tmux.waitFor(text: "1/10 (0)")
        tmux.keys("Tab", "Enter")
        tmux.waitFor("the second picker, started once the first printed 3") { rows in
            rows.contains { $0.contains("1/1") } && !rows.contains { $0.contains("(") }
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3\n")
    }

    func testCancelClearsTheQueryAndCtrlYPutsItBack() throws {
        try tmux.start(input: "seq 10", args: "--bind 2:cancel")
        tmux.waitFor(text: "10/10")
        tmux.type("12")
        tmux.waitFor("cancel cleared the query") { $0[row: 0].trimmingCharacters(in: .whitespaces) == ">" && $0.contains { $0.contains("10/10") } }
        tmux.type("3")
        tmux.keys("C-y", "C-y")
        tmux.waitFor("the query killed, put back twice") { $0[row: 0].hasPrefix("> 311") }
        tmux.type("22")
        XCTAssertEqual(tmux.exitStatus(), 130, "cancel on an empty query ends pick")
    }

    func testTabAtTheMarkLimitKeepsTheHighlightAndABadChangeMultiIsAccepted() throws {
        try tmux.start(input: "seq 10", args: "-m 2 --bind 'c:change-multi(xxx)'")
        tmux.waitFor(text: "10/10 (0/2)")
        tmux.keys("Tab", "Tab", "Tab")
        tmux.waitFor("two marked; 3 cannot be, the highlight stays on it") { rows in
            rows.contains { $0.contains("(2/2)") } && self.pointer(rows)?.text == "3"
        }
        tmux.type("c")
        tmux.keys("Up", "BTab")
        tmux.waitFor("change-multi(xxx) changed nothing: 2 unmarked, the limit kept") { rows in
            rows.contains { $0.contains("(1/2)") }
        }
    }
}
