@testable import PickCore
import XCTest

/// Each rule of fzf's extended query syntax, as a person typing it would see it.
final class QuerySyntaxTests: XCTestCase {
    func testPlainTermIsFuzzyLettersInOrder() {
        let lines = ["Makefile", "main.swift", "kfm", "README.md"]
        XCTAssertEqual(matches("mkf", in: lines), ["Makefile"])
        XCTAssertEqual(matches("mswift", in: lines), ["main.swift"])
    }

    func testQuoteMakesAnExactSubstring() {
        let lines = ["bar foo", "fxoxo", "foo"]
        XCTAssertEqual(matches("foo", in: lines), ["bar foo", "fxoxo", "foo"])
        XCTAssertEqual(matches("'foo", in: lines), ["bar foo", "foo"])
    }

    func testCaretIsAPrefixIgnoringLeadingSpaces() {
        let lines = ["foobar", "barfoo", "  foo indented", "f-o-o"]
        XCTAssertEqual(matches("^foo", in: lines), ["foobar", "  foo indented"])
    }

    func testDollarIsASuffixIgnoringTrailingSpaces() {
        let lines = ["foobar", "barfoo", "trailing foo  ", "f-o-o"]
        XCTAssertEqual(matches("foo$", in: lines), ["barfoo", "trailing foo  "])
    }

    func testCaretAndDollarMatchTheWholeTitle() {
        let lines = ["foo", "foobar", "barfoo", "  foo  "]
        XCTAssertEqual(matches("^foo$", in: lines), ["foo", "  foo  "])
    }

    func testBangExcludesLinesContainingTheTextExactly() {
        let lines = ["fxo", "foo", "bar"]
        XCTAssertEqual(matches("!fo", in: lines), ["fxo", "bar"])
    }

    func testBangCaretExcludesAPrefix() {
        let lines = ["foobar", "barfoo", "baz"]
        XCTAssertEqual(matches("!^foo", in: lines), ["barfoo", "baz"])
    }

    func testBangDollarExcludesASuffix() {
        let lines = ["foobar", "barfoo", "baz"]
        XCTAssertEqual(matches("!foo$", in: lines), ["foobar", "baz"])
    }

    func testBangQuoteExcludesAFuzzyMatch() {
        let lines = ["fxo", "foo", "bar"]
        XCTAssertEqual(matches("!'fo", in: lines), ["bar"])
    }

    func testNegationCombinesWithOtherTerms() {
        let lines = ["src/main.swift", "src/Query.swift", "README.md"]
        XCTAssertEqual(search("sw !query", in: lines), ["src/main.swift"])
    }

    func testSpacesAndTermsAreAnded() {
        let lines = ["apple pie", "apple", "pie"]
        XCTAssertEqual(matches("apple pie", in: lines), ["apple pie"])
        XCTAssertEqual(matches("pie apple", in: lines), ["apple pie"])
    }

    func testBarBetweenTermsOrsThem() {
        let lines = ["foo", "bar", "baz"]
        XCTAssertEqual(matches("'foo | 'bar", in: lines), ["foo", "bar"])
    }

    func testOrGroupIsAndedWithTheNextTerm() {
        let lines = ["foo.c", "bar.c", "foo.h", "baz.c"]
        XCTAssertEqual(matches("^foo | ^bar .c$", in: lines), ["foo.c", "bar.c"])
    }

    func testBackslashSpaceIsALiteralSpace() {
        let lines = ["a b", "ab", "a-b", "b a"]
        XCTAssertEqual(matches("'a\\ b", in: lines), ["a b"])
        XCTAssertEqual(matches("^a\\ b$", in: lines), ["a b"])
    }

    func testLeadingAndTrailingSpacesAreIgnored() {
        let lines = ["foo", "bar"]
        XCTAssertEqual(matches("  foo  ", in: lines), ["foo"])
    }

    func testEmptyQueryMatchesEverythingInInputOrder() {
        let lines = ["c", "a", "b"]
        XCTAssertEqual(search("", in: lines), ["c", "a", "b"])
        XCTAssertEqual(search("   ", in: lines), ["c", "a", "b"])
    }

    func testSmartCaseLowerCaseTermIgnoresCase() {
        let lines = ["Foo Bar", "foo bar", "FOO BAR"]
        XCTAssertEqual(matches("foo", in: lines), ["Foo Bar", "foo bar", "FOO BAR"])
    }

    func testSmartCaseIsDecidedPerTerm() {
        let lines = ["Foo Bar", "foo bar", "FOO BAR", "Foo BAR"]
        // "Foo" has an upper-case letter and respects case; "bar" ignores it.
        XCTAssertEqual(matches("Foo bar", in: lines), ["Foo Bar", "Foo BAR"])
    }

    func testExactModeMakesPlainTermsExactAndQuotedTermsFuzzy() {
        let lines = ["fxo", "foo"]
        let exact = MatchingOptions(fuzzy: false)
        XCTAssertEqual(matches("fo", in: lines, matching: exact), ["foo"])
        XCTAssertEqual(matches("'fo", in: lines, matching: exact), ["fxo", "foo"])
    }

    func testIgnoreCaseFlagIgnoresUpperCaseInTheQuery() {
        let lines = ["foo", "FOO", "bar"]
        XCTAssertEqual(matches("Foo", in: lines), [])
        XCTAssertEqual(matches("Foo", in: lines, matching: MatchingOptions(caseMode: .ignore)), ["foo", "FOO"])
    }

    func testPlusIRespectsCaseOfALowerCaseQuery() {
        let lines = ["foo", "FOO", "Foo"]
        XCTAssertEqual(matches("foo", in: lines, matching: MatchingOptions(caseMode: .respect)), ["foo"])
    }

    func testLiteralKeepsDiacritics() {
        let lines = ["café", "cafe"]
        XCTAssertEqual(matches("cafe", in: lines), ["café", "cafe"])
        XCTAssertEqual(matches("cafe", in: lines, matching: MatchingOptions(normalize: false)), ["cafe"])
    }

    func testNoLineMatchesGivesNothing() {
        XCTAssertEqual(search("zzzq", in: ["alpha", "beta"]), [])
    }

    func testAnExactTermNarrowsAnExactTermItContains() {
        // Narrowing searches only the earlier query's matches, so it must hold exactly when
        // every line the new query matches contains the earlier text.
        XCTAssertTrue(Query("'abc").narrows(Query("'b")))
        XCTAssertTrue(Query("'abc").narrows(Query("'abc")))
        XCTAssertTrue(Query("^abc").narrows(Query("'bc")))
        XCTAssertTrue(Query("abc$").narrows(Query("'ab")))
        XCTAssertFalse(Query("'abc").narrows(Query("'bd")))
        XCTAssertFalse(Query("'ab").narrows(Query("'abc")))
        XCTAssertFalse(Query("'abc").narrows(Query("'cab")))
        XCTAssertFalse(Query("abc").narrows(Query("'abc")), "a fuzzy term does not contain its text")
    }
}
