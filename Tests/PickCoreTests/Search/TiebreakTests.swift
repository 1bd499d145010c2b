@testable import PickCore
import XCTest

/// Equal scores: shorter title, then input order; --tiebreak, --tac and --no-sort change that.
final class TiebreakTests: XCTestCase {
    func testShorterTitleWinsATie() {
        XCTAssertEqual(search("'abc", in: ["abc defgh", "abc"]), ["abc", "abc defgh"])
    }

    func testInputOrderBreaksAFullTie() {
        XCTAssertEqual(search("'abc", in: ["abc 2", "abc 1"]), ["abc 2", "abc 1"])
    }

    func testBetterScoreBeatsShorterTitle() {
        // A word-start match outranks a scattered one, whatever the length.
        XCTAssertEqual(search("abc", in: ["xaxbxc", "abc long title"]).first, "abc long title")
    }

    func testTacReversesInputOrderAmongEquals() {
        let tac = RankingOptions(reversesInput: true)
        XCTAssertEqual(search("'abc", in: ["abc 1", "abc 2"], ranking: tac), ["abc 2", "abc 1"])
    }

    func testTacReversesTheEmptyQuery() {
        XCTAssertEqual(search("", in: ["1", "2", "3"], ranking: RankingOptions(reversesInput: true)), ["3", "2", "1"])
    }

    func testNoSortKeepsInputOrder() {
        let lines = ["xaxbxc", "abc", "a b c"]
        XCTAssertEqual(search("abc", in: lines, ranking: RankingOptions(sorts: false)), lines)
    }

    func testNoSortWithTacIsReversedInputOrder() {
        let lines = ["xaxbxc", "abc", "a b c", "zzz"]
        XCTAssertEqual(search("abc", in: lines, ranking: RankingOptions(sorts: false, reversesInput: true)),
                       ["a b c", "abc", "xaxbxc"])
    }

    func testTiebreakBeginPrefersTheEarlierMatch() {
        let lines = ["xx foo", "x foo yyyyy"]
        XCTAssertEqual(search("'foo", in: lines), ["xx foo", "x foo yyyyy"])
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.begin])),
                       ["x foo yyyyy", "xx foo"])
    }

    func testTiebreakEndPrefersTheMatchNearerTheEnd() {
        let lines = ["foo xx", "yyyy foo x"]
        XCTAssertEqual(search("'foo", in: lines), ["foo xx", "yyyy foo x"])
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.end])),
                       ["yyyy foo x", "foo xx"])
    }

    func testTiebreakIndexIsInputOrderAlone() {
        let lines = ["abc long", "abc"]
        XCTAssertEqual(search("'abc", in: lines, ranking: RankingOptions(tiebreaks: [.index])), ["abc long", "abc"])
    }

    func testSecondCriterionBreaksTiesOfTheFirst() {
        // Same begin (0); the shorter title wins with begin,length.
        let lines = ["foo bar baz", "foo bar"]
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.begin, .length])),
                       ["foo bar", "foo bar baz"])
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.begin, .index])),
                       ["foo bar baz", "foo bar"])
    }

    func testManyLinesRankTheSameAsFew() {
        // Enough lines for several parallel chunks; the best ones still come first, in order.
        var lines = (0..<100_000).map { "filler/path/number/\($0)" }
        lines.insert("needle", at: 70_000)
        lines.insert("needle two", at: 5)
        let found = search("'needle", in: lines)
        XCTAssertEqual(found, ["needle", "needle two"])
        XCTAssertEqual(search("", in: lines).count, 100_002)
    }

    func testLengthCountsCharactersNotBytes() {
        XCTAssertEqual(search("a", in: ["á", "a", "Á", "A"]), ["á", "a", "Á", "A"], "one character each: input order")
        XCTAssertEqual(search("'ab", in: ["ábc", "abcd"]), ["ábc", "abcd"])
    }

    func testLengthLeavesOutWhiteSpaceAtEitherEnd() {
        XCTAssertEqual(search("'ab", in: ["abcd", "  abc  "]), ["  abc  ", "abcd"])
    }

    func testTiebreakPathnamePrefersAMatchNearerTheStartOfTheFileName() {
        let lines = ["ab/xyfoo", "abcd/xfoo"]
        XCTAssertEqual(search("'foo", in: lines), lines, "the shorter first")
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.pathname])), ["abcd/xfoo", "ab/xyfoo"])
    }

    func testTiebreakChunkReadsTheWordTheBestMatchLiesIn() {
        // `ba` matches each line best at a word start; fzf's chunk is the word around that
        // match (`ba`, `baz`, `barbaz`), not around the first `b` of the line.
        let lines = ["3 foo barbaz", "2 foobar baz", "1 foobarbaz ba"]
        XCTAssertEqual(search("ba", in: lines, ranking: RankingOptions(tiebreaks: [.chunk])),
                       ["1 foobarbaz ba", "2 foobar baz", "3 foo barbaz"])
        XCTAssertEqual(search("ba", in: lines, ranking: RankingOptions(tiebreaks: [.chunk, .length])),
                       ["1 foobarbaz ba", "2 foobar baz", "3 foo barbaz"], "the same on the two-word keys")
    }

    func testTiebreakPathnameReadsWhereTheBestMatchBegins() {
        // Both lines match best in the file name, right after the `/`: a tie the input order
        // breaks. (Read from the first `f`, the first line's match began before the `/`.)
        let lines = ["fx/ab/foo", "abc/de/foo"]
        XCTAssertEqual(search("foo", in: lines, ranking: RankingOptions(tiebreaks: [.pathname])), lines)
    }

    func testThreeCriteriaEachBreakTheTiesOfTheOneBefore() {
        // The same word around each match (chunk), two that end alike (begin), the shorter.
        let lines = ["a foo b", "foo xy", "foo x"]
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.chunk, .begin, .length])),
                       ["foo x", "foo xy", "a foo b"])
        XCTAssertEqual(search("'foo", in: lines, ranking: RankingOptions(tiebreaks: [.chunk, .begin, .index])),
                       ["foo xy", "foo x", "a foo b"])
    }
}
