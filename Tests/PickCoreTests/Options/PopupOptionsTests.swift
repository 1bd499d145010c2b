@testable import PickCore
import XCTest

/// `--tmux` in fzf's spelling, `--accessible`, the defaults file, and the completion table.
final class PopupOptionsTests: XCTestCase {
    private func popup(_ args: [String]) throws -> TmuxPopup? {
        try Options.parse(arguments: args).tmux
    }

    func testTmuxAloneIsACentredHalfSizePopup() throws {
        let p = try XCTUnwrap(popup(["--tmux"]))
        XCTAssertEqual(p.tmuxArguments, ["-xC", "-yC", "-w50%", "-h50%"])
        XCTAssertNil(try popup(["--tmux", "--no-tmux"]))
    }

    func testTmuxSizesAndPositionsAsFzfReadsThem() throws {
        XCTAssertEqual(try popup(["--tmux=80%"])?.tmuxArguments, ["-xC", "-yC", "-w80%", "-h80%"])
        XCTAssertEqual(try popup(["--tmux", "80%,60%"])?.tmuxArguments, ["-xC", "-yC", "-w80%", "-h60%"])
        XCTAssertEqual(try popup(["--tmux", "bottom,40%"])?.tmuxArguments, ["-xC", "-y9999", "-w100%", "-h40%"])
        XCTAssertEqual(try popup(["--tmux=top:30"])?.tmuxArguments, ["-xC", "-y0", "-w100%", "-h30"])
        XCTAssertEqual(try popup(["--tmux=left,30"])?.tmuxArguments, ["-x0", "-yC", "-w30", "-h100%"])
        XCTAssertEqual(try popup(["--tmux=right,40%,50%"])?.tmuxArguments, ["-xR", "-yC", "-w40%", "-h50%"])
        XCTAssertEqual(try popup(["--popup=center,90%,border-native"])?.tmuxArguments, ["-xC", "-yC", "-w90%", "-h90%"])
        // An option after --tmux is not its value.
        let o = try Options.parse(arguments: ["--tmux", "--exact"])
        XCTAssertEqual(o.tmux, TmuxPopup())
        XCTAssertFalse(o.matching.fuzzy)
    }

    func testASizeInCellsLargerThanTheClientIsTheWholeClient() throws {
        let huge = try XCTUnwrap(popup(["--tmux=200,300"]))
        XCTAssertEqual(huge.fitting(width: 100, height: 30).tmuxArguments, ["-xC", "-yC", "-w100", "-h30"])
        let fits = try XCTUnwrap(popup(["--tmux=bottom,20"]))
        XCTAssertEqual(fits.fitting(width: 100, height: 30).tmuxArguments, ["-xC", "-y9999", "-w100%", "-h20"])
    }

    func testTheLaterOfHeightAndTmuxWinsAsInFzf() throws {
        XCTAssertNil(try popup(["--tmux", "--height=40%"]))
        XCTAssertNotNil(try popup(["--height=40%", "--tmux"]))
        XCTAssertNotNil(try popup(["--tmux", "--no-height"]))
        // A widget's --height comes before the person's options: their --tmux wins.
        XCTAssertNotNil(try Options.parse(arguments: ["--tmux=bottom"], defaults: "--height 40%").tmux)
    }

    func testBadTmuxSpecIsRefusedNamingTheForm() {
        for bad in ["middle,10", "0%", "101%", "80%,60%,40%", "bottom,x"] {
            XCTAssertThrowsError(try Options.parse(arguments: ["--tmux=\(bad)"]), bad) { error in
                XCTAssertTrue("\(error)".contains("[center|top|bottom|left|right]"), "\(error)")
            }
        }
    }

    func testAccessibleIsAFlag() throws {
        XCTAssertTrue(try Options.parse(arguments: ["--accessible"]).accessible)
        XCTAssertFalse(try Options.parse(arguments: ["--no-accessible"], defaults: "--accessible").accessible)
    }

    // MARK: PICK_DEFAULT_OPTS_FILE

    private let file = "/home/me/.pickrc"

    func testDefaultsFileComesBeforeTheVariableAndTheCommandLine() throws {
        let text = "--tac --prompt 'from file> '\n--exact\n"
        var o = try Options.parse(arguments: [], defaultsFile: (file, text))
        XCTAssertTrue(o.ranking.reversesInput)
        XCTAssertEqual(o.prompt, "from file> ")
        XCTAssertFalse(o.matching.fuzzy)
        o = try Options.parse(arguments: [], defaults: "--no-tac", defaultsFile: (file, text))
        XCTAssertFalse(o.ranking.reversesInput)
        o = try Options.parse(arguments: ["--prompt=cli> "], defaults: "--no-tac --prompt=env>", defaultsFile: (file, text))
        XCTAssertEqual(o.prompt, "cli> ")
    }

    func testDefaultsFileCommentsAndQuotes() throws {
        let text = """
        # my defaults
          --prompt "a # b> "   # a comment after options
        --header 'it''s' #--exact is commented out
        --pointer=\\#

        """
        let o = try Options.parse(arguments: [], defaultsFile: (file, text))
        XCTAssertEqual(o.prompt, "a # b> ")
        XCTAssertEqual(o.header, "its")
        XCTAssertEqual(o.pointer, "#")
        XCTAssertTrue(o.matching.fuzzy)
    }

    func testDefaultsFileErrorsNameTheFileAndLine() {
        func message(_ text: String) -> String {
            do {
                _ = try Options.parse(arguments: [], defaultsFile: (file, text))
                return "no error"
            } catch { return "\(error)" }
        }
        XCTAssertEqual(message("--exact\n# fine\n--foo\n"), "/home/me/.pickrc:3: unknown option: --foo")
        XCTAssertEqual(message("--exact\n--prompt 'open\n"), "/home/me/.pickrc:2: unterminated quote")
        XCTAssertEqual(message("\n--layout=sideways"),
                       "/home/me/.pickrc:2: invalid value for --layout: 'sideways' (expected top, bottom, or fzf's reverse, default, reverse-list)")
        XCTAssertEqual(message("--query\n"), "/home/me/.pickrc:1: option --query needs a value")
    }

    // MARK: The completion table

    func testEveryCompletedValueIsOneTheParserTakes() throws {
        for (option, values) in OptionCompletion.values {
            XCTAssertNotNil(Options.longOptions[option], "\(option) is not an option")
            let words: [String]
            switch values {
            case .words(let w): words = w
            // A binding's trigger completes with its `:`; an action follows.
            case .keys(bindings: true): words = values.keyWords.map { $0 + "ignore" }
            case .keys: words = values.keyWords
            case .files: continue
            }
            XCTAssertFalse(words.isEmpty)
            for word in words {
                XCTAssertNoThrow(try Options.parse(arguments: ["\(option)=\(word)"]), "\(option)=\(word)")
            }
        }
        XCTAssertEqual(OptionCompletion.values["--history"], .files)
    }

    func testCompletionOffersEveryLongOption() {
        XCTAssertEqual(Set(OptionCompletion.optionNames), Set(Options.longOptions.keys))
        XCTAssertTrue(OptionCompletion.optionsWithValue.contains("--query"))
        XCTAssertFalse(OptionCompletion.optionsWithValue.contains("--exact"))
    }
}
