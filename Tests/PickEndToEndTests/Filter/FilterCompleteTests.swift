import Foundation
import XCTest

/// `pick --complete TEXT`: suggestions one per line, the hook for other CLIs' completion.
final class FilterCompleteTests: XCTestCase {
    private let commands = ["status", "stash", "show", "switch", "restore", "reset", "Stash"]

    func testPrefixMatchesFirstThenContaining() throws {
        let run = try runPick(["--complete", "st"], lines: commands)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, ["status", "stash", "restore"])
    }

    func testLimit() throws {
        let run = try runPick(["--complete", "s", "--limit", "2"], lines: commands)
        XCTAssertEqual(run.lines, ["status", "stash"])
        XCTAssertEqual(try runPick(["--complete=s", "--limit=1"], lines: commands).lines, ["status"])
    }

    func testDefaultLimitIsSix() throws {
        let lines = (1...10).map { "item\($0)" }
        XCTAssertEqual(try runPick(["--complete", "item"], lines: lines).lines.count, 6)
    }

    func testNothingToCompleteExitsOne() throws {
        let none = try runPick(["--complete", "zz"], lines: commands)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, Data())
        let whole = try runPick(["--complete", "status"], lines: commands)
        XCTAssertEqual(whole.status, 1)
        XCTAssertEqual(whole.stdout, Data())
        let empty = try runPick(["--complete", ""], lines: commands)
        XCTAssertEqual(empty.status, 1)
    }

    func testDemoPaletteCompletes() throws {
        let run = try runPick(["--demo", "--complete", "sa"])
        XCTAssertEqual(run.lines, ["Save", "Save All"])
    }

    func testKeywordsAndFoldingInCompletion() throws {
        let lines = ["New File\tCreate\ttouch,add", "Écrire\tActions"]
        XCTAssertEqual(try runPick(["--palette", "--complete", "tou"], lines: lines).lines, ["touch"])
        XCTAssertEqual(try runPick(["--palette", "--complete", "ecr"], lines: lines).lines, ["Écrire"])
    }

    func testWithoutPaletteATabbedLineIsOneSuggestionAndKeywordsDoNotCount() throws {
        let lines = ["New File\tCreate\ttouch,add", "Écrire\tActions"]
        let run = try runPick(["--complete", "tou"], lines: lines)
        XCTAssertEqual(run.lines, ["New File\tCreate\ttouch,add"], "the whole line, which contains the text")
        XCTAssertEqual(try runPick(["--complete", "ecr"], lines: lines).lines, ["Écrire\tActions"])
        XCTAssertEqual(try runPick(["--complete", "new"], lines: lines).lines, ["New File\tCreate\ttouch,add"])
    }

    func testPrint0EndsSuggestionsWithNul() throws {
        let run = try runPick(["--complete", "sw", "--print0"], lines: commands)
        XCTAssertEqual(run.stdout, Data("switch\u{0}".utf8))
    }
}
