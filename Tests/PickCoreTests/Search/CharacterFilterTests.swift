import XCTest
@testable import PickCore

/// A search passes over the lines that lack a query's characters 64 at a time
/// (`CharacterFilter`), before it looks any line up. What the person sees must not change:
/// each answer of an engine over a store whose characters are noted (all of them, or only
/// the first lines, as while the search thread is still noting them) is compared with a
/// plain store's, first screens from bounds and whole rankings both.
final class CharacterFilterTests: XCTestCase {
    /// Paths with a few rare letters (z, q, w, k), so that most words of 64 lines hold some
    /// lines the filter rules out and some it keeps; every fifth line upper case.
    private func lines(_ count: Int) -> [String] {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let parts = ["usr", "lib", "python3", "share", "zsh", "quux", "swift", "core", "kde", "www", "bin"]
        return (0..<count).map { i in
            var line = ""
            for _ in 0..<(1 + next(4)) { line += "/" + parts[next(parts.count)] }
            line += "/" + ["zzz.txt", "swiftcore.h", "lib.py", "main.c", "Quick", "caf\u{E9}"][next(6)]
            return i % 5 == 0 ? line.uppercased() : line
        }
    }

    private let typing = ["z", "zz", "zzz", "s", "sw", "swi", "swift", "swiftcore", "q", "qu", "k", "kde", "w", "ww"]

    func testNotedCharactersChangeNoFirstScreenNorRanking() {
        let text = lines(5000)
        let plain = makeStore(text, plain: true)
        for notedLines in [5000, 1000, 64 * 20 + 37, 70] {
            let noted = makeStore(text, plain: true)
            _ = noted.noteCharacters(limit: notedLines)
            XCTAssertEqual(noted.characterSetCount, notedLines)
            let engine = SearchEngine(store: noted)
            engine.boundsFromLines = 0
            for query in typing {
                let want = SearchEngine(store: plain).search(query)!
                let first = engine.search(query, firstRows: 30)!
                XCTAssertEqual(first.matchCount, want.lines.count, "count of \(query), \(notedLines) noted")
                XCTAssertEqual(first.lines, Array(want.lines.prefix(first.lines.count)),
                               "first screen of \(query), \(notedLines) noted")
                XCTAssertEqual(engine.search(query)!.lines, want.lines, "ranking of \(query), \(notedLines) noted")
            }
        }
    }

    func testAQueryWithARareLetterLooksUpOnlyTheLinesThatHoldIt() {
        let text = lines(5000)
        let noted = makeStore(text, plain: true)
        XCTAssertTrue(noted.noteCharacters(limit: .max))
        let z = CharacterSets.required(by: Query("zzz"))
        let filter = CharacterFilter(store: noted, required: z)!
        var cursor = CandidateCursor(previous: nil, upTo: 0, from: 0, to: noted.count, characters: filter)
        var looked: [Int] = []
        while let i = cursor.next() { looked.append(i) }
        let holding = (0..<noted.count).filter { noted.characterSet(of: $0) & z == z }
        XCTAssertEqual(looked, holding)
        XCTAssertLessThan(looked.count, noted.count / 2, "most lines lack a z")
    }
}
