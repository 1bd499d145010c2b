@testable import PickCore
import XCTest

/// fzf's and readline's editing keys, on the line as text and cursor (`|`).
final class QueryEditsTests: XCTestCase {
    /// `line` with `|` at the cursor, after `edits`; then the text ctrl-y would put back.
    private func edit(_ line: String, _ edits: QueryEdit...) -> (String, String) {
        edit(line, words: .lettersAndDigits, edits)
    }

    private func edit(_ line: String, words: QueryEdit.Words, _ edits: [QueryEdit]) -> (String, String) {
        let scalars = Array(line.unicodeScalars)
        let cursor = scalars.firstIndex(of: "|")!
        var l = QueryEdit.Line(text: scalars.filter { $0 != "|" }, cursor: cursor)
        for e in edits { l = e.applied(to: l, words: words) }
        var shown = l.text
        shown.insert("|", at: l.cursor)
        return (String(String.UnicodeScalarView(shown)), String(String.UnicodeScalarView(l.yanked)))
    }

    func testCtrlUKillsToTheStartOfTheLine() {
        XCTAssertEqual(edit("foo b|ar", .killToStart).0, "|ar")
        XCTAssertEqual(edit("|foo", .killToStart).0, "|foo")
    }

    func testWithFilepathWordTheWordsArePathParts() {
        // fzf's suite (test_file_word): alt-b three times, alt-d, alt-f, alt-backspace.
        let (line, _) = edit("--%foo bar%foo-bar%baz|".replacingOccurrences(of: "%", with: "/"), words: .pathParts,
                             [.wordBefore, .wordBefore, .wordBefore, .killWordAfter, .wordAfter, .killWordBefore])
        XCTAssertEqual(line, "--//|/baz")
        XCTAssertEqual(edit("a/b-c|", words: .pathParts, [.killWordBefore]).0, "a/|")
        XCTAssertEqual(edit("a/b-c|", .killWordBefore).0, "a/b-|", "without it, letters and digits")
    }

    func testCtrlWKillsBackToABlank() {
        XCTAssertEqual(edit("foo a/b-c|", .killBlankWordBefore).0, "foo |")
        XCTAssertEqual(edit("foo bar  |", .killBlankWordBefore).0, "foo |")
        XCTAssertEqual(edit("bar|", .killBlankWordBefore).0, "|")
    }

    func testWordsAreLettersAndDigitsOfEveryScript() {
        XCTAssertEqual(edit("foo-bar_9|", .killWordBefore).0, "foo-bar_|")
        XCTAssertEqual(edit("über straße|", .wordBefore).0, "über |straße")
        XCTAssertEqual(edit("|über straße", .wordAfter).0, "über| straße")
        XCTAssertEqual(edit("a |-- b c", .wordAfter).0, "a -- b| c")
        XCTAssertEqual(edit("a b|", .wordAfter).0, "a b|")
    }

    func testAltDKillsToTheEndOfTheNextWordAndCtrlYPutsItBack() {
        XCTAssertEqual(edit("one| two three", .killWordAfter).0, "one| three")
        XCTAssertEqual(edit("one| two three", .killWordAfter).1, " two")
        XCTAssertEqual(edit("one| two three", .killWordAfter, .wordAfter, .yank).0, "one three two|")
        // Each kill replaces the last one.
        XCTAssertEqual(edit("a b c|", .killBlankWordBefore, .killBlankWordBefore, .yank).0, "a b |")
    }

    func testSubwordsStopAtCamelCaseHumpsAndWordEnds() {
        XCTAssertEqual(edit("fooBarBaz|", .subwordBefore).0, "fooBar|Baz")
        XCTAssertEqual(edit("foo_bar|", .subwordBefore).0, "foo_|bar")
        XCTAssertEqual(edit("fooBar|", .subwordBefore, .subwordBefore).0, "|fooBar")
        XCTAssertEqual(edit("|fooBar baz", .subwordAfter).0, "foo|Bar baz")
        XCTAssertEqual(edit("foo|Bar baz", .subwordAfter).0, "fooBar| baz")
        XCTAssertEqual(edit("fooBar |baz", .subwordAfter).0, "fooBar baz|")
        XCTAssertEqual(edit("x|", .subwordAfter).0, "x|")
    }

    func testSubwordKillsGoToWhatCtrlYPutsBack() {
        XCTAssertEqual(edit("|fooBar", .killSubwordAfter).0, "|Bar")
        XCTAssertEqual(edit("|fooBar", .killSubwordAfter).1, "foo")
        XCTAssertEqual(edit("getHTTPCode|", .killSubwordBefore).0, "get|")
        XCTAssertEqual(edit("one twoThree|", .killSubwordBefore).0, "one two|")
        XCTAssertEqual(edit("one twoThree|", .killSubwordBefore, .killSubwordBefore).0, "one |")
    }
}
