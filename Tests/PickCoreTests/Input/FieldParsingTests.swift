@testable import PickCore
import XCTest

/// TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT, each after the title optional.
final class FieldParsingTests: XCTestCase {
    private func fields(_ line: String, plain: Bool = false) -> [String?] {
        let store = makeStore([line], plain: plain)
        let bytes = Array(store.bytes(of: 0))
        let f = store.fields(of: 0)
        func text(_ r: Range<Int>?) -> String? { r.map { String(decoding: bytes[$0], as: UTF8.self) } }
        return [text(f.title), text(f.section), text(f.keywords), text(f.shortcut)]
    }

    /// Lines of every shape a store packs differently: sections shared and unique (past
    /// the 2047 ids a record holds), keywords, shortcuts, accents, CJK, plain and empty.
    private func mixedLines(_ count: Int, empty: Bool = false) -> [String] {
        (0..<count).map { i in
            switch i % (empty ? 6 : 5) {
            case 0: return "title \(i)\tshared"
            case 1: return "only \(i)\tsection \(i)\tkw"
            case 2: return "Crème \(i)\tDesserts\tsweet\tctrl-d"
            case 3: return "plain line \(i)"
            case 4: return "日本 \(i)\tsection \(i / 2)"
            default: return ""
            }
        }
    }

    /// `store` reads line for line as `whole` does: bytes, fields, ASCII, section names, and
    /// what searches find.
    private func assertReadsAlike(_ store: LineStore, _ whole: LineStore, lines: [String],
                                  queries: [String] = ["crème", "section 1", "only", "日本", "shared", "sweet"]) {
        XCTAssertEqual(store.count, whole.count)
        XCTAssertEqual(store.sectionCount, whole.sectionCount)
        for i in 0..<min(store.count, whole.count) {
            XCTAssertTrue(store.bytes(of: i).elementsEqual(whole.bytes(of: i)), lines[i])
            XCTAssertEqual(store.fields(of: i), whole.fields(of: i), lines[i])
            XCTAssertEqual(store.isASCII(i), whole.isASCII(i), lines[i])
            let a = store.section(of: i), b = whole.section(of: i)
            XCTAssertEqual(a == 0, b == 0, lines[i])
            if a != 0 && b != 0 { XCTAssertTrue(store.sectionName(a).elementsEqual(whole.sectionName(b)), lines[i]) }
        }
        for query in queries {
            XCTAssertEqual(SearchEngine(store: store).search(query)!.lines, SearchEngine(store: whole).search(query)!.lines, query)
        }
    }

    func testAStoreThatReadTheSecondHalfHandsItsLinesOverIntact() {
        // A large mapped file is scanned in two halves by two stores; the first takes the
        // second's lines. Everything must be as if one store had read it all, section ids
        // included, even past the 2047 a record can hold.
        let lines = mixedLines(40000)
        let whole = makeStore(lines)
        let first = LineStore()
        for line in lines.prefix(1000) { first.append(Array(line.utf8) + [0x0A]) }
        let second = LineStore()
        for line in lines.dropFirst(1000).dropLast() { second.append(Array(line.utf8) + [0x0A]) }
        // The second store's last line is still unfinished: input goes on after the handover.
        let last = Array(lines.last!.utf8)
        second.append(last.prefix(4))
        XCTAssertTrue(first.endsAtLineEnd)
        first.appendLines(of: second)
        first.append(last.dropFirst(4) + [0x0A])
        first.finish()
        XCTAssertGreaterThan(first.sectionCount, 2047)
        assertReadsAlike(first, whole, lines: lines)
    }

    func testAdoptedHalvesWithCompactRecordsReadAsIfReadWhole() {
        // A mapped file's lines get 8-byte records that keep only where each line ends.
        // Two halves adopted by two stores, handed over, then continued by read input (a
        // file that grew, its last mapped line unfinished), must read as one store that read
        // everything: bytes, fields, sections (past 2047 ids too), empty lines, search.
        var lines = mixedLines(40000, empty: true)
        lines.append("the last line")
        let whole = makeStore(lines)
        var bytes: [UInt8] = []
        for line in lines { bytes += Array(line.utf8) + [0x0A] }
        let mappedEnd = bytes.count - 6
        let middle = bytes[(bytes.count / 2)...].firstIndex(of: 0x0A)! + 1
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: mappedEnd, alignment: 16)
        memory.copyBytes(from: bytes.prefix(mappedEnd))
        let first = LineStore(), second = LineStore(large: true)
        second.adopt(UnsafeRawBufferPointer(rebasing: memory[middle...]), chunk: 4096, release: {})
        first.adopt(UnsafeRawBufferPointer(rebasing: memory[0..<middle]), chunk: 4096, release: { memory.deallocate() })
        first.appendLines(of: second)
        first.append(bytes.suffix(from: mappedEnd))
        first.finish()
        XCTAssertEqual(first.compact.count, lines.count - 1, "every mapped whole line has a compact record")
        XCTAssertEqual(first.records.count, 1, "the line that continues past the mapping has a full record")
        XCTAssertGreaterThan(first.sectionCount, 2047)
        assertReadsAlike(first, whole, lines: lines, queries: ["crème", "section 1", "only", "日本", "shared", "sweet", "39999"])
    }

    func testEverySectionNameShortOrLongGetsOneIdOfItsOwn() {
        // Names of up to 8 bytes are found by one word in the table, longer ones by their
        // bytes; both must survive the table growing many times.
        var names: [String] = []
        for i in 0..<6000 {
            names.append(i % 3 == 0 ? "s\(i)" : i % 3 == 1 ? "a long section name \(i)" : "\(i % 97)é")
        }
        names += ["", "12345678", "123456789", "1234567", "12345678"]
        let lines = names.enumerated().map { "line \($0.offset)\t\($0.element)" } + names.map { "again\t\($0)" }
        let store = makeStore(lines)
        var idOf: [String: Int] = [:]
        for (index, line) in lines.enumerated() {
            let name = String(line.split(separator: "\t", omittingEmptySubsequences: false)[1])
            let id = store.section(of: index)
            if name.isEmpty { XCTAssertEqual(id, 0); continue }
            XCTAssertEqual(String(decoding: store.sectionName(id), as: UTF8.self), name)
            if let known = idOf[name] { XCTAssertEqual(id, known, name) } else { idOf[name] = id }
        }
        XCTAssertEqual(Set(idOf.values).count, idOf.count, "distinct names, distinct ids")
        XCTAssertEqual(store.sectionCount, idOf.count)
    }

    func testAdoptedHalvesWithFewSectionsKeepEachLinesSection() {
        // Few sections: the second half's packed records take their new ids from a table.
        let lines = (0..<30000).map { i in
            i % 7 == 0 ? "plain \(i)" : "t\(i)\t\(i % 2 == 0 ? "sec\(i % 40)" : "a longer section \(i % 13)")\tkw"
        }
        let whole = makeStore(lines)
        let bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        // The second half starts with sections in another order than the first saw them.
        let middle = bytes[(bytes.count / 2)...].firstIndex(of: 0x0A)! + 1
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        memory.copyBytes(from: bytes)
        let first = LineStore(), second = LineStore()
        second.adopt(UnsafeRawBufferPointer(rebasing: memory[middle...]), chunk: 8192, release: {})
        first.adopt(UnsafeRawBufferPointer(rebasing: memory[0..<middle]), chunk: 8192, release: { memory.deallocate() })
        first.appendLines(of: second)
        first.finish()
        assertReadsAlike(first, whole, lines: lines, queries: ["sec1", "longer 12", "plain"])
    }

    func testANonASCIILineKeepsAFoldedCopyOnlyWhenFoldingChangesMoreThanASCIICase() {
        // Upper-case ASCII folds on the fly; an accent or a non-ASCII capital needs the
        // folded copy. Placed at every offset around the 8-byte steps of the comparison.
        for k in 0..<20 {
            let pad = String(repeating: "Ab", count: k / 2) + (k % 2 == 0 ? "" : "Q")
            let lines = [pad + "日本ABC", pad + "日本abc" + pad, pad + "Éclair", "日本" + pad + "É", pad + "ÉCLAIR" + pad]
            let store = makeStore(lines, plain: true)
            XCTAssertEqual((0..<lines.count).map { store.record($0).isPacked }, [true, true, false, false, false],
                           "padding \(k)")
            XCTAssertEqual(SearchEngine(store: store).search("eclair")!.lines.map { lines[Int($0)] }.sorted(),
                           [pad + "Éclair", pad + "ÉCLAIR" + pad].sorted(), "padding \(k)")
            XCTAssertEqual(SearchEngine(store: store).search("本abc")!.lines.count, 2, "padding \(k)")
        }
    }

    func testAnAdoptedLastLineWithoutASeparatorIsALine() {
        let text = Array("one\n\ntwo\tsec\nthree".utf8)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 1)
        memory.copyBytes(from: text)
        let store = LineStore()
        store.adopt(UnsafeRawBufferPointer(memory), release: { memory.deallocate() })
        store.finish()
        XCTAssertEqual(store.compact.count, 4)
        XCTAssertEqual((0..<store.count).map { String(decoding: store.bytes(of: $0), as: UTF8.self) },
                       ["one", "", "two\tsec", "three"])
        XCTAssertEqual(store.section(of: 2), 1)
    }

    func testFieldsFromARecordAreTheFieldsOfTheLine() {
        // Lines whose record packs the title and section split the rest themselves: every
        // shape of line must come out as splitting the whole line does.
        let lines = ["a\tb\tc\td", "a\t\tc\td", "a\t\t\td", "a\tb", "a\tb\t", "a\t", "\tb\tc",
                     "a\tb\tc\td\te\tf", "plain", "", "é\tŝ\tk", "日本\t\t語\tctrl-x", "Crème\tDesserts",
                     "a\tsection one\tk1,k2\tf2", "x\tsection one", "emoji 🙂\tsection one\t\tf3"]
        let store = makeStore(lines)
        for index in 0..<store.count {
            let bytes = store.bytes(of: index)
            XCTAssertEqual(store.fields(of: index), LineFields.parse(bytes.baseAddress!, count: bytes.count),
                           lines[index])
        }
    }

    func testAllFourFields() {
        XCTAssertEqual(fields("New File\tCreate\tadd,touch\tctrl-n"), ["New File", "Create", "add,touch", "ctrl-n"])
    }

    func testLineWithoutTabIsAPlainTitle() {
        XCTAssertEqual(fields("src/main.swift"), ["src/main.swift", nil, nil, nil])
    }

    func testMissingFieldsAreNil() {
        XCTAssertEqual(fields("Save\tActions"), ["Save", "Actions", nil, nil])
        XCTAssertEqual(fields("Save\t\twrite"), ["Save", nil, "write", nil])
        XCTAssertEqual(fields("Save\t\t\tf5"), ["Save", nil, nil, "f5"])
        XCTAssertEqual(fields("Save\t"), ["Save", nil, nil, nil])
    }

    func testAnythingAfterAFourthTabIsIgnored() {
        XCTAssertEqual(fields("T\tS\tK\tC\textra"), ["T", "S", "K", "C"])
    }

    func testPlainKeepsTabsInTheTitle() {
        XCTAssertEqual(fields("a\tb\tc", plain: true), ["a\tb\tc", nil, nil, nil])
    }

    func testSectionIsSearchable() {
        let lines = ["Save\tActions", "Go to Line\tGo to", "Go to File\tGo to", "New File\tCreate"]
        XCTAssertEqual(matches("'actions", in: lines), ["Save\tActions"])
        let goTo = search("go to", in: lines)
        XCTAssertEqual(Array(goTo.prefix(2)), ["Go to Line\tGo to", "Go to File\tGo to"])
    }

    func testKeywordsFindALineWithoutBeingItsTitle() {
        let lines = ["Find in Files\tActions\tsearch,grep", "Save\tActions\twrite"]
        XCTAssertEqual(search("grep", in: lines), ["Find in Files\tActions\tsearch,grep"])
    }

    func testShortcutIsNotSearched() {
        let lines = ["Find in Files\tActions\tsearch\tf7", "Save\tActions\twrite\tf5"]
        XCTAssertEqual(search("f7", in: lines), [])
    }

    func testTitleMatchRanksAboveKeywordMatch() {
        let lines = ["Find\t\tgrep", "Grep tool"]
        XCTAssertEqual(search("grep", in: lines), ["Grep tool", "Find\t\tgrep"])
    }

    func testPlainLinesMatchAcrossTheirTabs() {
        let lines = ["left\tright", "other"]
        // One fuzzy term across the tab: with fields, title and section are matched apart.
        XCTAssertEqual(search("leftr", in: lines, plain: true), ["left\tright"])
        XCTAssertEqual(search("leftr", in: lines), [])
    }

    func testPlainDoesNotSearchSectionAsAField() {
        // With fields, "^act" is a prefix of the section; with --plain, it is not a prefix.
        let lines = ["Save\tActions"]
        XCTAssertEqual(search("^act", in: lines), ["Save\tActions"])
        XCTAssertEqual(search("^act", in: lines, plain: true), [])
    }

    func testSectionsAreCountedOnce() {
        let store = makeStore(["a\tX", "b\tY", "c\tX", "d"])
        XCTAssertEqual(store.sectionCount, 2)
        XCTAssertEqual(store.section(of: 0), store.section(of: 2))
        XCTAssertNotEqual(store.section(of: 0), store.section(of: 1))
        XCTAssertEqual(store.section(of: 3), 0)
        XCTAssertEqual(String(decoding: store.sectionName(store.section(of: 1)), as: UTF8.self), "Y")
    }

    func testBytesAreKeptExactly() {
        let store = LineStore()
        let raw: [UInt8] = [0x66, 0xFF, 0xFE, 0x0D, 0x09, 0x61, 0x0A, 0x62]
        store.append(raw)
        store.finish()
        XCTAssertEqual(store.count, 2)
        XCTAssertEqual(Array(store.bytes(of: 0)), [0x66, 0xFF, 0xFE, 0x0D, 0x09, 0x61])
        XCTAssertEqual(Array(store.bytes(of: 1)), [0x62])
    }

    func testInputInPiecesMakesTheSameLines() {
        let store = LineStore()
        for piece in ["ab", "c\nd", "e\n", "\nf"] { store.append(Array(piece.utf8)) }
        store.finish()
        XCTAssertEqual((0..<store.count).map { String(decoding: store.bytes(of: $0), as: UTF8.self) },
                       ["abc", "de", "", "f"])
    }

    func testLinesScannedInBulkMatchALineByLineSplit() {
        // The loader reads ASCII lines sixty-four bytes at a time and hands lines that are
        // not ASCII, or run past what has arrived, to a scan byte by byte. Lines of every
        // length around those 64-byte steps, with tabs, accents, empty lines and NULs, read
        // whole, in pieces or mapped, must be exactly the lines a plain split finds, with the
        // fields `LineFields.parse` finds in them and the sections they name.
        var generator = SeededGenerator(seed: 11)
        let alphabet: [[UInt8]] = [[0x61], [0x2F], [0x20], [0x09], [0xC3, 0xA9], [0x0A], [0x5A], [0x00]]
        for round in 0..<24 {
            let separator: UInt8 = round % 4 == 3 ? 0 : 0x0A
            let parsesFields = round % 3 != 2
            var lines: [[UInt8]] = []
            for _ in 0..<600 {
                let length = [0, 1, 15, 16, 63, 64, 65, 127, 128, 129, 200][Int.random(in: 0..<11, using: &generator)]
                    + Int.random(in: 0...2, using: &generator)
                var line: [UInt8] = []
                // Any byte of the alphabet, ASCII letters and tabs (fields past the first
                // 64-byte step), or letters alone.
                let kind = Int.random(in: 0..<4, using: &generator)
                while line.count < length {
                    let pick = kind == 0 ? alphabet.randomElement(using: &generator)!
                        : kind == 1 && Int.random(in: 0..<12, using: &generator) == 0 ? [0x09]
                        : [0x61 + UInt8.random(in: 0..<26, using: &generator)]
                    line += pick.filter { $0 != separator }
                }
                lines.append(line)
            }
            // Every other round, the last line has no separator (then it is not empty: an
            // empty last line without one is no line).
            let unended = round % 2 == 0
            if unended && lines[lines.count - 1].isEmpty { lines[lines.count - 1] = [0x61] }
            var bytes: [UInt8] = []
            for line in lines { bytes += line + [separator] }
            if unended { bytes.removeLast() }

            let pieces = LineStore(separator: separator, parsesFields: parsesFields)
            var at = 0
            while at < bytes.count {
                let n = min(bytes.count - at, Int.random(in: 1...300, using: &generator))
                pieces.append(Array(bytes[at..<at + n]))
                at += n
            }
            pieces.finish()
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            memory.copyBytes(from: bytes)
            let mapped = LineStore(separator: separator, parsesFields: parsesFields)
            mapped.adopt(UnsafeRawBufferPointer(memory), chunk: Int.random(in: 50...5000, using: &generator),
                         release: { memory.deallocate() })
            mapped.finish()
            // As a large mapped file loads: two halves adopted by two stores, the second's
            // lines then handed to the first (lines with fields or non-ASCII bytes anywhere,
            // on either side of the cut).
            let cut = (bytes[(bytes.count / 2)...].firstIndex(of: separator) ?? bytes.count - 1) + 1
            let halves = LineStore(separator: separator, parsesFields: parsesFields)
            let second = LineStore(separator: separator, parsesFields: parsesFields)
            let halvesMemory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
            halvesMemory.copyBytes(from: bytes)
            halves.adopt(UnsafeRawBufferPointer(rebasing: halvesMemory[..<cut]), chunk: 4096,
                         release: { halvesMemory.deallocate() })
            if cut < bytes.count {
                second.adopt(UnsafeRawBufferPointer(rebasing: halvesMemory[cut...]), chunk: 4096, release: {})
                halves.appendLines(of: second)
            }
            halves.finish()
            for store in [pieces, mapped, halves] {
                XCTAssertEqual(store.count, lines.count, "round \(round)")
                for (i, line) in lines.enumerated() where i < store.count {
                    XCTAssertEqual(Array(store.bytes(of: i)), line, "round \(round) line \(i)")
                    XCTAssertEqual(store.isASCII(i), line.allSatisfy { $0 < 0x80 }, "round \(round) line \(i)")
                    let expected = parsesFields ? line.withUnsafeBufferPointer { LineFields.parse($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: $0.count) }
                                                : LineFields(title: 0..<line.count)
                    XCTAssertEqual(store.fields(of: i), expected, "round \(round) line \(i)")
                    let section = store.section(of: i)
                    if let range = expected.section {
                        XCTAssertEqual(Array(store.sectionName(section)), Array(line[range]), "round \(round) line \(i)")
                    } else {
                        XCTAssertEqual(section, 0, "round \(round) line \(i)")
                    }
                }
            }
        }
    }

    func testNulSeparatedInput() {
        let store = LineStore(separator: 0)
        store.append(Array("one\ntwo\0three\0".utf8))
        store.finish()
        XCTAssertEqual((0..<store.count).map { String(decoding: store.bytes(of: $0), as: UTF8.self) },
                       ["one\ntwo", "three"])
    }
}
