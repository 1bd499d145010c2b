@testable import PickCore
import XCTest

/// Case and diacritics are ignored in every script; a query with diacritics means them.
final class FoldingTests: XCTestCase {
    func testLatinDiacriticsAreIgnored() {
        let lines = ["Café", "Über", "Ålesund", "mañana", "plain"]
        XCTAssertEqual(matches("cafe", in: lines), ["Café"])
        XCTAssertEqual(matches("uber", in: lines), ["Über"])
        XCTAssertEqual(matches("alesund", in: lines), ["Ålesund"])
        XCTAssertEqual(matches("manana", in: lines), ["mañana"])
    }

    func testExactPrefixAndSuffixTermsFoldToo() {
        let lines = ["Éclair", "crème brûlée", "other"]
        XCTAssertEqual(matches("^ecl", in: lines), ["Éclair"])
        XCTAssertEqual(matches("'brulee", in: lines), ["crème brûlée"])
        XCTAssertEqual(matches("lee$", in: lines), ["crème brûlée"])
    }

    func testCyrillicShortIFoldsToI() {
        let lines = ["йогурт", "Йошкар-Ола", "молоко"]
        XCTAssertEqual(matches("иогурт", in: lines), ["йогурт"])
        XCTAssertEqual(matches("иошкар", in: lines), ["Йошкар-Ола"])
    }

    func testGreekTonosFoldsAway() {
        let lines = ["άλφα", "Ωμέγα", "beta"]
        XCTAssertEqual(matches("αλφα", in: lines), ["άλφα"])
        XCTAssertEqual(matches("ωμεγα", in: lines), ["Ωμέγα"])
    }

    func testUpperCaseNonLatinFoldsWithALowerCaseQuery() {
        XCTAssertEqual(matches("москва", in: ["МОСКВА", "Киев"]), ["МОСКВА"])
    }

    func testQueryWithDiacriticsMatchesThemAsTyped() {
        let lines = ["café", "cafe", "CAFÉ"]
        XCTAssertEqual(matches("café", in: lines), ["café", "CAFÉ"])
        XCTAssertEqual(matches("'é", in: lines), ["café", "CAFÉ"])
    }

    func testQueryWithNonLatinDiacriticsMatchesThemAsTyped() {
        let lines = ["йод", "иод"]
        XCTAssertEqual(matches("й", in: lines), ["йод"])
        XCTAssertEqual(matches("и", in: lines), ["йод", "иод"])
    }

    func testDecomposedAccentIsFoundByAFuzzyTerm() {
        // "café" written as e + U+0301 COMBINING ACUTE ACCENT.
        let decomposed = "cafe\u{0301}"
        XCTAssertEqual(Array(decomposed.utf8).count, 6)
        XCTAssertEqual(matches("cafe", in: [decomposed, "tea"]), [decomposed])
    }

    func testDecomposedAccentIsFoundByAnExactTermOfItsBaseLetters() {
        let decomposed = "cafe\u{0301} noir"
        XCTAssertEqual(matches("'cafe", in: [decomposed, "tea"]), [decomposed])
    }

    func testLiteralTurnsDiacriticFoldingOff() {
        let literal = MatchingOptions(normalize: false)
        let lines = ["Café", "йод", "άλφα"]
        XCTAssertEqual(matches("cafe", in: lines, matching: literal), [])
        XCTAssertEqual(matches("caf", in: lines, matching: literal), ["Café"])
        XCTAssertEqual(matches("иод", in: lines, matching: literal), [])
        XCTAssertEqual(matches("αλφα", in: lines, matching: literal), [])
    }

    func testLiteralStillIgnoresCase() {
        XCTAssertEqual(matches("café", in: ["CAFÉ"], matching: MatchingOptions(normalize: false)), ["CAFÉ"])
    }

    func testFoldingOfSingleScalars() {
        func folded(_ s: Unicode.Scalar) -> Unicode.Scalar {
            Unicode.Scalar(Folding.fold(s.value, caseFold: true, stripDiacritics: true))!
        }
        XCTAssertEqual(folded("é"), "e")
        XCTAssertEqual(folded("Ü"), "u")
        XCTAssertEqual(folded("å"), "a")
        XCTAssertEqual(folded("Ñ"), "n")
        XCTAssertEqual(folded("й"), "и")
        XCTAssertEqual(folded("Й"), "и")
        XCTAssertEqual(folded("ά"), "α")
        XCTAssertEqual(folded("Q"), "q")
        XCTAssertEqual(folded("中"), "中")
    }

    func testCJKAndEmojiMatchThemselves() {
        let lines = ["東京タワー", "🍣 sushi", "plain"]
        XCTAssertEqual(matches("東京", in: lines), ["東京タワー"])
        XCTAssertEqual(matches("🍣", in: lines), ["🍣 sushi"])
    }

    /// Every scalar folds as its row in the generated table says (found here by a plain
    /// scan), whichever shortcut the lookup takes: a direct index below U+0800, a block
    /// without rows, or the search.
    func testEveryScalarFoldsAsItsTableRowSays() {
        var expected: [UInt32: (lower: UInt32, stripped: UInt32, both: UInt32)] = [:]
        var k = 0
        while k < foldTableRows.count {
            expected[foldTableRows[k]] = (foldTableRows[k + 1], foldTableRows[k + 2], foldTableRows[k + 3])
            k += 4
        }
        var mismatches: [String] = []
        for scalar in UInt32(0x80)...0x10FFFF where !(0xD800...0xDFFF).contains(scalar) {
            let row = expected[scalar]
            let want = (row?.lower ?? scalar, row?.stripped ?? scalar, row?.both ?? scalar)
            let got = (Folding.fold(scalar, caseFold: true, stripDiacritics: false),
                       Folding.fold(scalar, caseFold: false, stripDiacritics: true),
                       Folding.fold(scalar, caseFold: true, stripDiacritics: true))
            if got != want && mismatches.count < 5 { mismatches.append(String(scalar, radix: 16)) }
        }
        XCTAssertEqual(mismatches, [])
        XCTAssertEqual(Folding.fold(0x41, caseFold: true, stripDiacritics: true), 0x61)
    }

    /// The loader keeps no folded copy of a line that `foldsToItself` says folds to itself:
    /// it must say so exactly when the folded text is the line with ASCII in lower case.
    func testALineFoldsToItselfExactlyWhenItsFoldedTextIsItsBytes() {
        let pieces: [[UInt8]] = [Array("abc".utf8), Array("ABC".utf8), Array("—".utf8), Array("習作".utf8),
                                 Array("é".utf8), Array("É".utf8), Array("e\u{301}".utf8), Array("🙂".utf8),
                                 Array("Ω".utf8), Array("\u{FFFD}".utf8), [0xFF], [0xC3], [0xE2, 0x80],
                                 [0xED, 0xA0, 0x80], Array("0123456789/ ".utf8), Array("straße".utf8)]
        var generator = SeededGenerator(seed: 0xF01D)
        for _ in 0..<4000 {
            var line: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                line += pieces[Int.random(in: 0..<pieces.count, using: &generator)]
            }
            let out = UnsafeMutablePointer<UInt8>.allocate(capacity: max(line.count * 3, 1))
            defer { out.deallocate() }
            line.withUnsafeBufferPointer { raw in
                let p = raw.baseAddress ?? UnsafePointer(out)
                let n = UTF8Codec.transform(p, from: 0, to: line.count, into: out, caseFold: true, stripDiacritics: true)
                let expected = Array(UnsafeBufferPointer(start: out, count: n)) == line.map(lowerASCII)
                XCTAssertEqual(UTF8Codec.foldsToItself(p, count: line.count), expected, "\(line)")
            }
        }
    }
}
