@testable import PickCore
import XCTest

/// `--remember`: memory reorders among comparably good matches, with the real engine.
final class MemoryRankingTests: XCTestCase {
    /// Picks of `line` after typing `query`, `times` times, all fresh.
    private func picks(_ records: [(line: String, query: String, times: Int)]) -> RememberedPicks {
        var picks = RememberedPicks()
        for r in records {
            for _ in 0..<r.times { picks.add(line: Array(r.line.utf8), query: r.query, weight: 1) }
        }
        return picks
    }

    private func ranked(_ query: String, in lines: [String], remembering: RememberedPicks?,
                        ranking: RankingOptions = RankingOptions()) -> [String] {
        let store = makeStore(lines, plain: true)
        let engine = SearchEngine(store: store, ranking: ranking)
        engine.remember(remembering)
        return engine.search(query)!.lines.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) }
    }

    private let project = ["src/main.c", "src/mw.c", "src/app/mainwindow.cpp", "src/app/mainwindow.h",
                           "docs/manual.md", "Makefile", "src/app/menu.cpp", "README.md"]

    /// A reload's engine ranks with the same memory, over lines at other indexes: what was
    /// found remembered in the old store says nothing about the new one.
    func testAnEngineOverNewLinesLooksTheRememberedLinesUpAgain() {
        let memory = picks([("src/app/mainwindow.cpp", "", 5)])
        let old = SearchEngine(store: makeStore(project, plain: true))
        old.remember(memory)
        XCTAssertEqual(old.search("")!.lines.first, 2)
        let reloaded = ["README.md", "src/app/mainwindow.cpp", "src/main.c"]
        let store = makeStore(reloaded, plain: true)
        let new = SearchEngine(store: store)
        new.remember(as: old)
        XCTAssertEqual(new.search("")!.lines.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) },
                       ["src/app/mainwindow.cpp", "README.md", "src/main.c"])
    }

    func testALineLearnedUnderOneQueryDoesNotBeatAClearlyBetterMatchForAnother() {
        let memory = picks([("src/app/mainwindow.cpp", "mw", 30)])
        XCTAssertEqual(ranked("main.c", in: project, remembering: memory).first, "src/main.c")
        XCTAssertEqual(ranked("main.c", in: project, remembering: nil).first, "src/main.c")
    }

    func testTheQueryItWasPickedWithReachesTheUsualLine() {
        XCTAssertEqual(ranked("mw", in: project, remembering: nil).first, "src/mw.c")
        let memory = picks([("src/app/mainwindow.cpp", "mw", 30)])
        XCTAssertEqual(ranked("mw", in: project, remembering: memory).first, "src/app/mainwindow.cpp")
        // Typing less of what was typed reaches it too.
        XCTAssertEqual(ranked("m", in: project, remembering: memory).first, "src/app/mainwindow.cpp")
    }

    func testOnePickUnderAQueryDoesNotYetOvertakeAClearlyBetterMatch() {
        let memory = picks([("src/app/mainwindow.cpp", "mw", 1)])
        XCTAssertEqual(ranked("mw", in: project, remembering: memory).first, "src/mw.c")
    }

    func testAShortQueryReachesTheLinePickedAfterALongerOne() {
        let files = (0..<200).map { "/usr/share/ma\($0)/ma\($0).txt" } + ["/usr/lib/x/makedepend.conf"]
        XCTAssertNotEqual(ranked("ma", in: files, remembering: nil).first, "/usr/lib/x/makedepend.conf")
        let memory = picks([("/usr/lib/x/makedepend.conf", "mak", 2)])
        XCTAssertEqual(ranked("ma", in: files, remembering: memory).first, "/usr/lib/x/makedepend.conf")
    }

    func testMemoryBreaksTiesBetweenEquallyGoodMatches() {
        // Equal scores: the shorter line wins without memory, the remembered one with it,
        // even remembered under another query.
        let lines = ["x/alpha-long.txt", "x/alpha.txt"]
        XCTAssertEqual(ranked("alp", in: lines, remembering: nil), ["x/alpha.txt", "x/alpha-long.txt"])
        let memory = picks([("x/alpha-long.txt", "zz", 1)])
        XCTAssertEqual(ranked("alp", in: lines, remembering: memory), ["x/alpha-long.txt", "x/alpha.txt"])
    }

    func testMemoryNeverAddsOrRemovesAMatch() {
        var generator = SeededGenerator(seed: 22)
        let words = ["main", "mw", "app", "src", "lib", "make", "menu", "win", "doc", "x"]
        let lines = (0..<400).map { _ in
            (0..<3).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: "/")
                + ".c"
        }
        var memory = RememberedPicks()
        for k in stride(from: 0, to: lines.count, by: 7) {
            memory.add(line: Array(lines[k].utf8), query: String(lines[k].prefix(2)), weight: Double(k % 5 + 1))
        }
        for query in ["", "m", "ma", "mw", "app", "src lib", "!x", "'win", "^lib", ".c$", "zzz", "m | d"] {
            let plain = ranked(query, in: lines, remembering: nil)
            let remembered = ranked(query, in: lines, remembering: memory)
            XCTAssertEqual(plain.sorted(), remembered.sorted(), "query \(query)")
        }
    }

    func testAnEmptyQueryListsRememberedLinesFirstMostWeightedFirst() {
        let memory = picks([("Makefile", "", 1), ("src/mw.c", "mw", 3)])
        XCTAssertEqual(ranked("", in: project, remembering: memory),
                       ["src/mw.c", "Makefile", "src/main.c", "src/app/mainwindow.cpp", "src/app/mainwindow.h",
                        "docs/manual.md", "src/app/menu.cpp", "README.md"])
        // With --tac, the rest in reversed input order.
        XCTAssertEqual(ranked("", in: project, remembering: memory, ranking: RankingOptions(reversesInput: true)),
                       ["src/mw.c", "Makefile", "README.md", "src/app/menu.cpp", "docs/manual.md",
                        "src/app/mainwindow.h", "src/app/mainwindow.cpp", "src/main.c"])
    }

    /// ctrl-r: shell history opens newest first, as Up would give; what is typed is helped.
    func testAHistoryListOpensInInputOrderAndMemoryHelpsWhatIsTyped() {
        let history = ["git status", "make test", "git stash pop", "ls"]
        let memory = picks([("git stash pop", "gs", 5)])
        let byIndex = RankingOptions(tiebreaks: [.index])
        XCTAssertEqual(ranked("", in: history, remembering: memory, ranking: byIndex), history)
        XCTAssertEqual(ranked("gs", in: history, remembering: memory, ranking: byIndex).first, "git stash pop")
        XCTAssertEqual(ranked("gs", in: history, remembering: nil, ranking: byIndex).first, "git status")
    }

    func testNoSortKeepsInputOrderWithMemory() {
        let memory = picks([("README.md", "", 5)])
        let order = RankingOptions(sorts: false)
        XCTAssertEqual(ranked("m", in: project, remembering: memory, ranking: order),
                       ranked("m", in: project, remembering: nil, ranking: order))
    }

    func testAForgottenLineRanksAsIfNeverPicked() {
        let store = makeStore(project, plain: true)
        let engine = SearchEngine(store: store)
        engine.remember(picks([("src/app/mainwindow.cpp", "mw", 30)]))
        func first(_ query: String) -> String {
            String(decoding: store.bytes(of: Int(engine.search(query)!.lines[0])), as: UTF8.self)
        }
        XCTAssertEqual(first("mw"), "src/app/mainwindow.cpp")
        engine.forgetRemembered(Array("src/app/mainwindow.cpp".utf8))
        XCTAssertEqual(first("mw"), "src/mw.c")
    }

    func testAFirstScreenIsTheStartOfTheWholeRankingWithMemory() {
        var generator = SeededGenerator(seed: 7)
        let names = ["make", "main", "man", "map", "mask", "mail", "malloc", "mango"]
        let lines = (0..<3000).map { k in
            "/usr/\(names[Int(generator.next() % 8)])\(k % 13)/\(names[Int(generator.next() % 8)])\(k).txt"
        }
        // More remembered lines than a search lifts (`liftedLinesPerSearch`).
        var memory = RememberedPicks()
        for k in stride(from: 5, to: lines.count, by: 7) {
            memory.add(line: Array(lines[k].utf8), query: "ma", weight: Double(k % 4) + 0.5)
        }
        XCTAssertGreaterThan(memory.count, Tunables.Memory.liftedLinesPerSearch)
        let store = makeStore(lines, plain: true)
        for text in ["m", "ma", "mai", "mango", "ma 1"] {
            let whole = SearchEngine(store: store)
            whole.remember(memory)
            let all = whole.search(text)!.lines
            XCTAssertEqual(all.sorted(), SearchEngine(store: store).search(text)!.lines.sorted(), text)
            let engine = SearchEngine(store: store)
            engine.boundsFromLines = 0
            engine.remember(memory)
            let first = engine.search(text, firstRows: 20)!
            XCTAssertEqual(first.matchCount, all.count, text)
            XCTAssertGreaterThanOrEqual(first.lines.count, min(20, all.count), text)
            XCTAssertEqual(Array(all.prefix(first.lines.count)), first.lines, text)
        }
    }

    func testAPickHalvesInWeightEveryHalfLife() {
        let h = Tunables.Memory.halfLife
        XCTAssertEqual(RememberedPicks.decayed(1, age: 0), 1)
        XCTAssertEqual(RememberedPicks.decayed(1, age: h), 0.5, accuracy: 1e-12)
        XCTAssertEqual(RememberedPicks.decayed(4, age: 2 * h), 1, accuracy: 1e-12)
    }

    func testRecordsOfALineAddUpWhateverTheirOrder() {
        var memory = RememberedPicks()
        let lines = (0..<500).map { "dir/file-\($0 % 97).txt" }
        for (k, line) in lines.enumerated() { memory.add(line: Array(line.utf8), query: k % 2 == 0 ? "fi" : "Fil", weight: 1) }
        XCTAssertEqual(memory.count, 97)
        let heaviest = memory.byWeight[0]
        XCTAssertEqual(String(decoding: heaviest.text, as: UTF8.self), "dir/file-0.txt")
        XCTAssertEqual(heaviest.weight, 6)
        XCTAssertEqual(heaviest.queries.map(\.query).sorted(), ["fi", "fil"])
        memory.forget(Array("dir/file-0.txt".utf8))
        XCTAssertEqual(memory.count, 96)
        XCTAssertNil(memory.index(of: Array("dir/file-0.txt".utf8)))
        XCTAssertEqual(memory.byWeight.reduce(0) { $0 + $1.weight }, 500 - 6)
        for n in 1..<97 { XCTAssertNotNil(memory.index(of: Array("dir/file-\(n).txt".utf8)), "\(n)") }
    }

    func testQueriesAreComparedWithoutCaseOrSurroundingSpaces() {
        let memory = picks([("src/app/mainwindow.cpp", " MW ", 30)])
        XCTAssertEqual(ranked("mw", in: project, remembering: memory).first, "src/app/mainwindow.cpp")
    }
}
