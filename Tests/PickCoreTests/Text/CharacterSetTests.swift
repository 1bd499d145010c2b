import XCTest
@testable import PickCore

/// Once input has loaded, each line's characters are noted, and searches pass over lines
/// that lack a query's character without reading them. That must never change a result.
final class CharacterSetTests: XCTestCase {
    /// Lines of every kind the notes must get right: both cases, digits, punctuation,
    /// non-ASCII letters that fold to ASCII ones, sections and keywords, a shortcut hint.
    private func mixedLines() -> [UInt8] {
        let words = ["Makefile", "src/main.swift", "README.md", "café-au-lait", "ÉCOLE/naïve_test", "docs/Guide.pdf",
                     "v1.2.3-rc4", "x_y-z.q/w", "東京/tokyo", "ZZZ top", "emoji 🍣 sushi", "Ünïcödé_Straße"]
        var out: [UInt8] = []
        for i in 0..<6_000 {
            let title = words[i % words.count] + "/\(i % 97)"
            switch i % 4 {
            case 0: out += Array("\(title)\n".utf8)
            case 1: out += Array("\(title)\tSection \(i % 5)\n".utf8)
            case 2: out += Array("\(title)\tTools\tkeyword_\(i % 13) Jazz\tctrl-\(["a", "b", "q"][i % 3])\n".utf8)
            default: out += Array("\(title.uppercased())\t\tquiet\n".utf8)
            }
        }
        return out
    }

    private let queries = ["z", "zz", "jazz", "Jazz", "JAZZ", "q", "w", "cafe", "école", "ecole", "naive", "strasse",
                           "tokyo", "東京", "1.2", "_y", "-z", "x/w", "v1 rc4", "'tools", "!jazz", "!zz makefile",
                           "zz | readme", "^makefile", "pdf$", "section 3", "keyword_7", "ctrl-q", "sushi",
                           "🍣", "zq", "7z", "Gd", "guide", "'e-a'", "9"]

    func testSearchesFindTheSameLinesOnceCharactersAreNoted() {
        let bytes = mixedLines()
        let plain = makeStore(bytes: bytes)
        let noted = makeStore(bytes: bytes)
        // In slices, as the search thread notes them between searches.
        var slices = 0
        while !noted.noteCharacters(limit: 1000) { slices += 1 }
        XCTAssertEqual(noted.characterSetCount, noted.count)
        XCTAssertEqual(slices, (noted.count - 1) / 1000)
        let options: [(MatchingOptions, RankingOptions)] = [
            (MatchingOptions(), RankingOptions()),
            (MatchingOptions(fuzzy: false), RankingOptions()),
            (MatchingOptions(caseMode: .respect), RankingOptions(tiebreaks: [.begin])),
            (MatchingOptions(caseMode: .ignore, normalize: false), RankingOptions(reversesInput: true)),
        ]
        for (matching, ranking) in options {
            let before = SearchEngine(store: plain, matching: matching, ranking: ranking)
            let after = SearchEngine(store: noted, matching: matching, ranking: ranking)
            for q in queries {
                let want = before.search(q)!
                let got = after.search(q)!
                // (Counts in the message: a whole list of line numbers would bury it.)
                XCTAssertTrue(got.lines == want.lines && got.groups == want.groups,
                              "\(q) with \(matching), \(ranking): \(got.lines.count) lines, want \(want.lines.count)")
            }
        }
    }

    func testALineLackingAQueryCharacterIsPassedOver() {
        let s = makeStore(bytes: Array("abc\nxyz Q\ncafé\n".utf8))
        XCTAssertTrue(s.noteCharacters(limit: 10))
        let abc = s.characterSet(of: 0), xyz = s.characterSet(of: 1), cafe = s.characterSet(of: 2)
        let z = CharacterSets.required(by: Query("z")), q = CharacterSets.required(by: Query("Q"))
        XCTAssertNotEqual(abc & z, z)
        XCTAssertEqual(xyz & z, z)
        XCTAssertEqual(xyz & q, q, "an upper-case letter has its letter's bit")
        XCTAssertEqual(cafe, UInt32.max, "a line with a non-ASCII byte may match any letter once folded")
        XCTAssertEqual(CharacterSets.required(by: Query("!z")), 0, "an inverse term requires nothing")
        XCTAssertEqual(CharacterSets.required(by: Query("z | q")), 0, "nor does either side of an or")
    }

    func testNotingStopsAtTheLinesReadSoFar() {
        let s = LineStore()
        s.append(Array("one\ntwo\nthr".utf8))
        XCTAssertTrue(s.noteCharacters(limit: 100))
        XCTAssertEqual(s.characterSetCount, 2)
        s.append(Array("ee\nfour\n".utf8))
        s.finish()
        XCTAssertFalse(s.noteCharacters(limit: 1))
        XCTAssertTrue(s.noteCharacters(limit: 1))
        XCTAssertEqual(s.characterSetCount, 4)
        XCTAssertEqual(SearchEngine(store: s).search("e")!.lines, [0, 2])
    }
}
