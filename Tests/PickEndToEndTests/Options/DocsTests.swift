import Foundation
import PickCore
import XCTest

/// The man page is the reference, --help the summary, the README the tour: they agree.
final class DocsTests: XCTestCase {
    private let root = repositoryRoot

    private func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every `--long-option` name in `text` (roff's `\-` read as `-`; `--name=` cut at `=`).
    private func longOptions(in text: String) -> Set<String> {
        let plain = text.replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: #"\\f[A-Z]"#, with: "", options: .regularExpression)
        let regex = try! NSRegularExpression(pattern: #"(?<![A-Za-z0-9-])--[a-z0-9][a-z0-9-]*[a-z0-9]"#)
        let range = NSRange(plain.startIndex..., in: plain)
        return Set(regex.matches(in: plain, range: range).map { String(plain[Range($0.range, in: plain)!]) })
    }

    /// The tag lines of the OPTIONS section's entries (the line after each `.TP`).
    private func manOptionEntries() throws -> Set<String> {
        let man = try read("man/pick.1")
        let lines = man.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".SH OPTIONS") else { XCTFail("man page has no OPTIONS"); return [] }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        var tags = ""
        for i in start..<end - 1 where lines[i] == ".TP" || lines[i] == ".TQ" { tags += lines[i + 1] + "\n" }
        return longOptions(in: tags)
    }

    private func helpOptions() throws -> Set<String> {
        let run = try runPick(["--help"])
        XCTAssertEqual(run.status, 0)
        return longOptions(in: run.text)
    }

    private func run(_ tool: String, _ args: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + args
        process.currentDirectoryURL = root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testHelpAndManPageListTheSameOptions() throws {
        let help = try helpOptions()
        let man = try manOptionEntries()
        XCTAssertGreaterThan(help.count, 20)
        XCTAssertEqual(help.subtracting(man).sorted(), [], "in pick --help but no entry in man/pick.1")
        XCTAssertEqual(man.subtracting(help).sorted(), [], "an entry in man/pick.1 but not in pick --help")
    }

    /// The man page's KEYS section names every key of pick's default key table, each with
    /// the actions the table binds it to (the same table `--bind` overrides and F1 lists).
    func testManPageKeysAreTheDefaultKeyTable() throws {
        let lines = try read("man/pick.1").components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".SH KEYS") else { return XCTFail("man page has no KEYS") }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SH ") } ?? lines.count
        // Each entry's tag line and its text up to the next entry, roff's `\-` read as `-`.
        var entries: [(tag: Set<String>, text: String)] = []
        for i in start..<end - 1 where lines[i] == ".TP" {
            let tag = lines[i + 1].replacingOccurrences(of: "\\-", with: "-").lowercased()
            let words = tag.split { !$0.isLetter && !$0.isNumber && !"-?/".contains($0) }.map { $0.replacingOccurrences(of: "-", with: "") }
            let next = lines[(i + 2)..<end].firstIndex(of: ".TP") ?? end
            entries.append((Set(words), lines[(i + 2)..<next].joined(separator: " ").lowercased()))
        }
        for entry in DefaultKeys.table {
            for key in entry.keys {
                let name = KeyNames.name(of: key)!
                // The man page's spelling may be any of the key's names, with or without dashes
                // (Return, PageUp, Escape).
                let spellings = KeyNames.fixedNames.filter { KeyNames.key(named: $0) == key }
                    .map { $0.replacingOccurrences(of: "-", with: "") }
                // A key may have more than one entry (Tab, and Tab with --multi).
                let naming = entries.filter { !$0.tag.isDisjoint(with: spellings) }
                guard !naming.isEmpty else {
                    XCTFail("man page KEYS does not name \(name), bound by default to \(entry.chain.map(\.written))")
                    continue
                }
                for action in entry.chain {
                    // The tag names the action: `Return (accept)`.
                    let word = action.kind.rawValue.replacingOccurrences(of: "-", with: "")
                    XCTAssertTrue(naming.contains { $0.tag.contains(word) },
                                  "man page KEYS: \(name) should say it does \(action.kind.rawValue)")
                }
            }
        }
    }

    func testManPageDocumentsEveryOptionThatExists() throws {
        let parsed = Set(OptionTable.rows.map(\.name) + [Options.previewBuiltinMode])
        XCTAssertGreaterThan(parsed.count, 200)
        let man = longOptions(in: try read("man/pick.1"))
        XCTAssertEqual(parsed.subtracting(man).sorted(), [], "options pick accepts that man/pick.1 does not mention")
        let extra = man.subtracting(parsed).subtracting(["--name", "--format", "--oneline", "--global", "--list-commands",
                                                             "--porcelain", "--stat", "--no-renames",
                                                             // the release archive's install.sh
                                                             "--fzf-link", "--no-fzf-link"])
        XCTAssertEqual(extra.sorted(), [], "man/pick.1 mentions options pick does not accept")
    }

    /// One place for every deliberate difference: each option pick accepts and does not
    /// honour (or refuses) is named in docs/fzf-differences.md and the man page.
    func testEveryOptionNotHonouredIsListedWithTheDifferences() throws {
        let differences = try read("docs/fzf-differences.md")
        let man = try manCompatibility()
        let rows = OptionTable.rows.filter { $0.support != .honoured }
        XCTAssertGreaterThan(rows.count, 15, "the rows not honoured are found")
        for row in rows {
            XCTAssertTrue(differences.contains("`\(row.name)`"), "\(row.name) is not in docs/fzf-differences.md")
            XCTAssertTrue(man.contains(row.name), "\(row.name) is not in man/pick.1's FZF COMPATIBILITY")
        }
        for case let .ignored(reason) in rows.map(\.support) {
            XCTAssertTrue(differences.contains(reason), "the reason '\(reason)' is not in docs/fzf-differences.md")
        }
    }

    /// The man page's FZF COMPATIBILITY section, roff's `\-` read as `-`, lines joined.
    private func manCompatibility() throws -> String {
        let man = try read("man/pick.1").replacingOccurrences(of: "\\-", with: "-")
        guard let start = man.range(of: ".SH FZF COMPATIBILITY"), let end = man.range(of: ".SH EXIT STATUS") else {
            XCTFail("man page has no FZF COMPATIBILITY")
            return ""
        }
        return String(man[start.upperBound..<end.lowerBound]).replacingOccurrences(of: "\n", with: " ")
    }

    func testReadmeOptionsOverviewNamesEveryHelpOption() throws {
        let readme = longOptions(in: try read("README.md"))
        XCTAssertEqual(try helpOptions().subtracting(readme).sorted(), [], "in pick --help but not in README.md")
    }

    func testManPageRendersWithoutWarnings() throws {
        let mandoc = try run("mandoc", ["-T", "lint", "man/pick.1"])
        XCTAssertEqual(mandoc.status, 0, "mandoc -T lint (install with make deps): \(mandoc.output)")
        XCTAssertEqual(mandoc.output, "")
        let groff = try run("groff", ["-man", "-ww", "-z", "man/pick.1"])
        XCTAssertEqual(groff.status, 0, "groff (install with make deps): \(groff.output)")
        XCTAssertEqual(groff.output, "")
    }

    func testManPageFoldingNoteNamesTheDifferenceFromFzf() throws {
        let text = try run("mandoc", ["-T", "utf8", "man/pick.1"]).output
            .replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(flat.contains("Cyrillic й"), "man page names Cyrillic й")
        XCTAssertTrue(flat.contains("Greek ά"), "man page names Greek ά")
        XCTAssertTrue(flat.contains("which fzf(1) leaves alone"))
    }

    /// The palette examples a reader copies (the man page's, the README's, examples/*.tsv
    /// and the demo palette) give shortcuts that fire: a shortcut naming one of pick's own
    /// keys or the editor's (ctrl-n, alt-w, alt-d) is only ever a hint, never a key.
    func testPaletteExamplesUseShortcutsThatFire() throws {
        var sources: [(String, String)] = []
        let man = try read("man/pick.1").replacingOccurrences(of: "\\-", with: "-")
        var inExample = false
        for line in man.components(separatedBy: "\n") {
            if line.hasPrefix(".EX") { inExample = true } else if line.hasPrefix(".EE") { inExample = false }
            else if inExample { sources.append(("man/pick.1", line)) }
        }
        let readme = try read("README.md")
        sources += readme.components(separatedBy: "\n").map { ("README.md", $0) }
        let examples = root.appendingPathComponent("examples")
        for name in try FileManager.default.contentsOfDirectory(atPath: examples.path) where name.hasSuffix(".tsv") {
            sources += try read("examples/" + name).components(separatedBy: "\n").map { ("examples/" + name, $0) }
        }
        sources += try runPick(["--demo", "--filter", ""]).text.components(separatedBy: "\n").map { ("pick --demo", $0) }
        var shortcuts = 0
        for (source, line) in sources {
            let fields = line.components(separatedBy: "\t")
            guard fields.count >= 4, let key = KeyNames.key(named: fields[3]) else { continue }
            shortcuts += 1
            XCTAssertTrue(KeyNames.isFreeForShortcut(key), "\(source): \(fields[3]) is pick's or the editor's key: \(line)")
        }
        XCTAssertGreaterThan(shortcuts, 20, "the examples' shortcuts were found")
    }

    /// The commands of README's "Try it" block: `make demo` builds and runs, `make test` tests.
    private func readmeCommands() throws -> [String: String] {
        let readme = try read("README.md")
        guard let block = readme.components(separatedBy: "```sh\n").dropFirst().first?
            .components(separatedBy: "```").first else { XCTFail("README has no sh block"); return [:] }
        var commands: [String: String] = [:]
        for line in block.split(separator: "\n") {
            let parts = line.components(separatedBy: "#")
            guard parts.count == 2 else { continue }
            commands[parts[1].trimmingCharacters(in: .whitespaces)] = parts[0].trimmingCharacters(in: .whitespaces)
        }
        return commands
    }

    func testReadmeShowsTheTwoCommandsAndTheMakefileHasThem() throws {
        let commands = try readmeCommands()
        let demo = try XCTUnwrap(commands.first { $0.key.contains("demo") }?.value)
        let test = try XCTUnwrap(commands.first { $0.key.contains("every test") }?.value)
        XCTAssertEqual(demo, "make demo")
        XCTAssertEqual(test, "make test")
        let makefile = try read("Makefile")
        for target in ["deps", "build", "release", "demo", "test", "install", "bench", "clean"] {
            XCTAssertNotNil(makefile.range(of: "(?m)^\(target):", options: .regularExpression), "Makefile target \(target)")
        }
        XCTAssertTrue(makefile.contains("--static-swift-stdlib"))
        XCTAssertTrue(makefile.contains("--demo --filter ''"))
    }

    /// `make demo` needs only what the build needs: a new user trying pick is not made to
    /// install tmux, zsh, fish and the rest of the test suite's tools first.
    func testMakeDemoInstallsOnlyWhatTheBuildNeeds() throws {
        let root = repositoryRoot
        func planned(_ target: String) throws -> String {
            let make = Process()
            make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            make.arguments = ["make", "-n", "-C", root.path, target]
            let pipe = Pipe()
            make.standardOutput = pipe
            make.standardError = FileHandle.nullDevice
            try make.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            make.waitUntilExit()
            return output
        }
        let demo = try planned("demo")
        XCTAssertTrue(demo.contains("libedit-dev"), demo)
        for package in ["tmux", "zsh", "fish", "mandoc", "man-db"] {
            XCTAssertFalse(demo.contains(" \(package)"), "make demo installs \(package)")
        }
        let test = try planned("test")
        for package in ["libedit-dev", "tmux", "zsh", "fish", "mandoc"] {
            XCTAssertTrue(test.contains(package), "make test installs \(package)")
        }
    }

    func testCIRunsTheReadmeTestCommand() throws {
        let test = try XCTUnwrap(try readmeCommands().first { $0.key.contains("every test") }?.value)
        let script = try read(".ci/run")
        XCTAssertTrue(script.hasPrefix("#!/usr/bin/env bash\n") || script.hasPrefix("#!/bin/bash\n"))
        XCTAssertTrue(script.contains("set -euo pipefail"))
        let commands = script.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        XCTAssertEqual(commands.last, test, ".ci/run ends by running the README's test command")
    }

    /// `$ pick ...` lines in the README's console blocks print what the README shows.
    func testReadmeConsoleExamplesPrintWhatTheyShow() throws {
        let readme = try read("README.md")
        var checked = 0
        for block in readme.components(separatedBy: "```console\n").dropFirst() {
            let body = block.components(separatedBy: "```").first ?? ""
            var command: [String]? = nil
            var expected: [String] = []
            func check() throws {
                guard let args = command else { return }
                let run = try runPick(args)
                XCTAssertEqual(run.lines, expected, "README example: pick \(args)")
                checked += 1
            }
            for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("$ ") {
                    try check()
                    command = nil
                    expected = []
                    let words = try ShellWords.split(String(line.dropFirst(2)))
                    if words.first == "pick", !line.contains("|") { command = Array(words.dropFirst()) }
                } else if !line.isEmpty {
                    expected.append(String(line))
                }
            }
            try check()
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
    }
}
