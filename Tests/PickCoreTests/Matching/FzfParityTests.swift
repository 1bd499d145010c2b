@testable import PickCore
import XCTest

/// Cases where pick once matched a different set of lines than fzf 0.74 did. Each expected
/// set below was checked against `fzf --filter` with the same flags (tools/fzf-parity.py
/// compares the two over many more inputs and queries). Lines are plain (`--plain`).
final class FzfParityTests: XCTestCase {
    /// The lines `query` matches among `lines`, as a set (order does not matter here).
    private func matched(_ query: String, _ lines: [String], fuzzy: Bool = true,
                         caseMode: CaseMode = .smart, normalize: Bool = true) -> Set<String> {
        matchedBytes(query, lines.map { Array($0.utf8) }, fuzzy: fuzzy, caseMode: caseMode,
                     normalize: normalize)
    }

    private func matchedBytes(_ query: String, _ lines: [[UInt8]], fuzzy: Bool = true,
                              caseMode: CaseMode = .smart, normalize: Bool = true) -> Set<String> {
        let store = LineStore(separator: 0x0A, parsesFields: false)
        for line in lines { store.append(line + [0x0A]) }
        store.finish()
        let engine = SearchEngine(store: store, matching: MatchingOptions(fuzzy: fuzzy, caseMode: caseMode,
                                                                          normalize: normalize))
        guard let result = engine.search(query) else {
            XCTFail("search for \(query) was cancelled")
            return []
        }
        return Set(result.lines.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) })
    }

    // MARK: 'word' — exact match at word boundaries (fzf 0.56+)

    func testQuotedOnBothSidesIsAnExactMatchAtWordBoundaries() {
        let lines = ["foo bar", "foobar", "foo-bar", "(foo)", "afoo", "foo", "FOO_x", "foo1", "föo"]
        XCTAssertEqual(matched("'foo'", lines), ["foo bar", "foo-bar", "(foo)", "foo", "FOO_x", "föo"])
    }

    func testWordBoundaryTermsNegateAndOverrideTheSuffixMark() {
        XCTAssertEqual(matched("!'foo'", ["foo bar", "foobar"]), ["foobar"])
        XCTAssertEqual(matched("'foo'$", ["x foo", "foox", "foo bar"]), ["x foo", "foo bar"])
    }

    func testEmojiAndAccentsAroundAWordTerm() {
        XCTAssertEqual(matched("'pizza'", ["🍕pizza", "pizza🍕", "pizzas", "ピザpizza"]), ["🍕pizza", "pizza🍕"])
        XCTAssertEqual(matched("'é'", ["café", "é x", "e x", "cafe"]), ["é x"])
    }

    func testThreeQuotesAreAWordTermForOneQuoteButTwoAreNot() {
        XCTAssertEqual(matched("'''", ["'quoted'", "it's", "a'b", "''"], fuzzy: false), ["''"])
        XCTAssertEqual(matched("''", ["'quoted'", "it's", "ab"]), ["'quoted'", "it's"])
    }

    // MARK: The query is read by scalars, not grapheme clusters

    func testOperatorFollowedByACombiningMark() {
        // `^` + U+0301 is one Swift Character, but two runes to fzf: a prefix term.
        XCTAssertEqual(matched("^\u{301}", ["\u{301}x", "x\u{301}"]), ["\u{301}x"])
        // `'` + U+093E (a spacing mark) likewise: `!'ा` negates a fuzzy `ा`.
        XCTAssertEqual(matched("!'\u{93E}", ["कृपया", "abc"]), ["abc"])
    }

    func testEscapedBackslashBeforeASpace() {
        // fzf replaces every `\ ` left to right: `a\\ b` is the term `a\ b` (a, \, space, b).
        XCTAssertEqual(matched("a\\\\ b", ["a\\ b", "a\\b", "a b"]), ["a\\ b"])
        XCTAssertEqual(matched("a\\ b", ["a\\ b", "a\\b", "a b"]), ["a b", "a\\ b"])
    }

    // MARK: Unicode white space at the ends of a line

    func testPrefixSuffixAndEqualSkipUnicodeSpaces() {
        XCTAssertEqual(matched("^ideo", ["\u{3000}ideo", "\u{A0}ideo", " ideo", "\u{200B}ideo", "xideo"]),
                       ["\u{3000}ideo", "\u{A0}ideo", " ideo"])
        XCTAssertEqual(matched("x$", ["x\u{A0}", "x\u{3000}", "x\u{2003}", "x ", "xy"]),
                       ["x\u{A0}", "x\u{3000}", "x\u{2003}", "x "])
        XCTAssertEqual(matched("^x$", ["\u{A0}x\u{A0}", "\u{3000}x", " x ", "xx"]),
                       ["\u{A0}x\u{A0}", "\u{3000}x", " x "])
    }

    func testATermThatStartsWithAUnicodeSpaceKeepsTheLinesSpace() {
        XCTAssertEqual(matched("^\u{3000}x", ["\u{3000}x", "x", " x"]), ["\u{3000}x"])
    }

    // MARK: Folding as fzf folds

    func testFullwidthFormsFoldToASCII() {
        XCTAssertEqual(matched("full", ["ＦＵＬＬ", "ｆｕｌｌ", "full", "fu"]), ["ＦＵＬＬ", "ｆｕｌｌ", "full"])
        XCTAssertEqual(matched("FULL", ["ＦＵＬＬ", "ｆｕｌｌ", "FULL"]), ["ＦＵＬＬ", "FULL"])
        XCTAssertEqual(matched("'a/b", ["ａ／ｂ", "a/b", "ab"]), ["ａ／ｂ", "a/b"])
        // A fullwidth query carries "diacritics": it matches fullwidth text only.
        XCTAssertEqual(matched("ｆｕｌｌ", ["ＦＵＬＬ", "ｆｕｌｌ", "full"]), ["ＦＵＬＬ", "ｆｕｌｌ"])
    }

    func testLatinLettersWithoutADecompositionFold() {
        XCTAssertEqual(matched("lodz", ["Łódź", "ŁÓDŹ", "lodz"]), ["Łódź", "ŁÓDŹ", "lodz"])
        XCTAssertEqual(matched("e", ["ɛ", "ǝ", "ə", "e"], fuzzy: false), ["ɛ", "ǝ", "e"])
        XCTAssertEqual(matched("b", ["ɓ", "ƀ", "Ƀ"], fuzzy: false), ["ɓ", "ƀ", "Ƀ"])
        XCTAssertEqual(matched("s", ["ß", "ſ", "ẞ", "$"], fuzzy: false), ["ß", "ſ", "ẞ"])
        XCTAssertEqual(matched("i", ["ı", "İ", "ⁱ", "ᵢ"], fuzzy: false), ["ı", "İ", "ⁱ", "ᵢ"])
        XCTAssertEqual(matched("I", ["ı", "İ", "Í", "i"], fuzzy: false), ["İ", "Í"])
    }

    // MARK: Deliberate differences from fzf (not fzf's sets; see tools/fzf-parity.py)

    func testDeliberatelySmallCapitalsFoldToLowerCase() {
        // fzf folds ʙ to `B`, which a case-insensitive query never matches.
        XCTAssertEqual(matched("hello", ["ʜᴇʟʟᴏ ᴡᴏʀʟᴅ", "help"]), ["ʜᴇʟʟᴏ ᴡᴏʀʟᴅ"])
    }

    func testDeliberatelyDiacriticsFoldInEveryScript() {
        XCTAssertEqual(matched("и", ["й", "и", "ж"]), ["й", "и"])
        XCTAssertEqual(matched("й", ["й", "и"]), ["й"])
    }
}
