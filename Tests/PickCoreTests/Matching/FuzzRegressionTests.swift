@testable import PickCore
import XCTest

/// Inputs the fuzzer (Fuzz/run) found, kept as the scenarios a user would hit.
final class FuzzRegressionTests: XCTestCase {
    /// Found by the options target: `pick $'\n'` printed the newline inside its error, and
    /// an argument holding escape sequences wrote them to the terminal through stderr.
    func testAnArgumentWithANewlineOrEscapeGivesAOneLinePlainError() {
        for argument in ["\n", "a\u{1B}]0;owned\u{07}b", "--height=\u{1B}[2J", "x\u{9B}31m"] {
            XCTAssertThrowsError(try Options.parse(arguments: [argument])) { error in
                let message = (error as? OptionError)?.message ?? ""
                XCTAssertFalse(message.isEmpty)
                XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                               "\(message.debugDescription) for \(argument.debugDescription)")
            }
        }
    }

    /// Found by the positions target: `^ift$` marked "ift" in the title `ift$`, which it
    /// does not equal. On screen: a line found by `^docs$` through its section lit up the
    /// start of its title instead of nothing.
    func testAnEqualTermMatchedInTheSectionHighlightsNothingInTheTitle() {
        let store = makeStore(["Docs index\tDocs", "ift$", "  docs  "])
        let query = Query("^docs$")
        XCTAssertEqual(SearchEngine(store: store).search("^docs$")?.lines.sorted(), [0, 2])
        XCTAssertEqual(MatchPositions.inTitle(of: 0, store: store, query: query), [])
        XCTAssertEqual(MatchPositions.inTitle(of: 1, store: store, query: Query("^ift$")), [])
        XCTAssertEqual(MatchPositions.inTitle(of: 2, store: store, query: query), [2, 3, 4, 5])
    }

    /// Same fix: with `^ift$ | x` the line `ift$ x` is found by `x`, so `x` is what lights up.
    func testAnOrQueryHighlightsTheTermThatMatched() {
        let store = makeStore(["ift$ x"])
        XCTAssertEqual(MatchPositions.inTitle(of: 0, store: store, query: Query("^ift$ | x")), [5])
    }

    /// The highlighter skips the same leading white space as the matcher: an ideographic
    /// space before the title no longer leaves a `^abc` match unlit.
    func testAPrefixAfterAnIdeographicSpaceIsHighlighted() {
        let store = makeStore(["\u{3000}abc"])
        XCTAssertEqual(SearchEngine(store: store).search("^abc")?.lines, [0])
        XCTAssertEqual(MatchPositions.inTitle(of: 0, store: store, query: Query("^abc")), [3, 4, 5])
    }
}
