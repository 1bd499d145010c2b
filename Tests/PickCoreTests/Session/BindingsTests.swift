import PickCore
import XCTest

/// `--bind` as fzf reads it: keys, events, chains and arguments in every form.
final class BindingsTests: XCTestCase {
    func parse(_ specs: String...) throws -> Bindings {
        var bindings = Bindings()
        for spec in specs { try bindings.parse(spec) }
        return bindings
    }

    func refusal(_ spec: String) -> String {
        do {
            _ = try parse(spec)
            return "accepted"
        } catch {
            return (error as? OptionError)?.message ?? "\(error)"
        }
    }

    /// fzf's `every(N)`: N seconds, fractions too, floored to 0.01; what is no positive
    /// number is refused; unbind names a timer as it was bound.
    func testEveryBindsATimerInSeconds() throws {
        let b = try parse("every(0.2):transform-prompt(date),space:unbind(every(0.20))")
        XCTAssertEqual(b.triggers.first, .every(milliseconds: 200))
        XCTAssertEqual(b[.key(.char(0x20))], [BoundAction(.unbind, "every(0.20)")])
        XCTAssertEqual(try Bindings.triggers(in: "every(0.20)"), [.every(milliseconds: 200)], "the same timer")
        XCTAssertEqual(BindTrigger.every(milliseconds: 200).name, "every(0.2)")
        XCTAssertEqual(try parse("every(0.001):abort").triggers, [.every(milliseconds: 10)], "at least 10 ms")
        XCTAssertEqual(try parse("every( 2 ):abort").triggers, [.every(milliseconds: 2000)])
        for bad in ["every(0)", "every(-1)", "every(abc)", "every()", "every(inf)"] {
            XCTAssertTrue(refusal(bad + ":abort").contains("every() requires a positive number of seconds"), bad)
        }
    }

    /// Timers fire on time, each at its own pace, and a late tick fires once, not in a pile.
    func testEveryTimersFireEachAtItsPace() throws {
        var timers = EveryTimers(try parse("every(0.1):up", "every(0.25):down", "a:up"), now: 1000)
        XCTAssertEqual(timers.wait(at: 1000), 100)
        XCTAssertEqual(timers.fire(at: 1050), [])
        XCTAssertEqual(timers.fire(at: 1100), [.every(milliseconds: 100)])
        XCTAssertEqual(timers.wait(at: 1100), 100)
        // Busy for a whole second: each fires once, and counts on from then.
        XCTAssertEqual(timers.fire(at: 2100), [.every(milliseconds: 100), .every(milliseconds: 250)])
        XCTAssertEqual(timers.fire(at: 2150), [])
        XCTAssertEqual(timers.wait(at: 2150), 50)
        XCTAssertTrue(EveryTimers(try parse("a:up"), now: 0).isEmpty)
        XCTAssertNil(EveryTimers(try parse("a:up"), now: 0).wait(at: 5))
    }

    func testAKeyRunsAChainOfActions() throws {
        let b = try parse("ctrl-x:toggle+down")
        XCTAssertEqual(b[.key(.char(24))], [BoundAction(.toggle), BoundAction(.down)])
        XCTAssertEqual(try parse("tab:toggle-down")[.key(.char(9))], [BoundAction(.toggleDown)])
    }

    func testTheLastActionAndKeyAreFzfsForCommandsToSee() {
        var state = BoundState()
        XCTAssertEqual(state.lastAction, "start", "before anything, as fzf's FZF_ACTION")
        XCTAssertEqual(state.lastKey, "", "no key pressed yet")
        state.pressed(.char(9))
        state.ran(.toggleDown)
        XCTAssertEqual([state.lastAction, state.lastKey], ["toggle-down", "tab"])
        state.pressed(.char(0x39))
        state.edited(by: .char(0x39))
        XCTAssertEqual([state.lastAction, state.lastKey], ["char", "9"], "a character typed into the query")
        state.pressed(.char(0x7F))
        state.edited(by: .char(0x7F))
        XCTAssertEqual(state.lastAction, "backward-delete-char")
        state.pressed(.char(24))
        state.ran(.executeSilent)
        XCTAssertEqual([state.lastAction, state.lastKey], ["backward-delete-char", "ctrl-x"],
                       "a command is no action it sees: the one before it")
    }

    func testEventsBindAsKeysDo() throws {
        let b = try parse("start:reload(ls),change:first,focus:ignore,load:last,result:up,one:accept,zero:abort,resize:ignore")
        XCTAssertEqual(b[.event(.start)], [BoundAction(.reload, "ls")])
        XCTAssertEqual(b[.event(.one)], [BoundAction(.accept)])
        XCTAssertEqual(b.triggers.count, 8)
    }

    func testArgumentsInEveryBracketAndToTheEnd() throws {
        XCTAssertEqual(try parse("a:execute(echo {} | wc)")[.key(.char(97))], [BoundAction(.execute, "echo {} | wc")])
        XCTAssertEqual(try parse("a:execute[echo (x)]")[.key(.char(97))], [BoundAction(.execute, "echo (x)")])
        XCTAssertEqual(try parse("a:execute{x}+up")[.key(.char(97))], [BoundAction(.execute, "x"), BoundAction(.up)])
        XCTAssertEqual(try parse("a:execute<x>")[.key(.char(97))], [BoundAction(.execute, "x")])
        XCTAssertEqual(try parse("a:execute~a)b~")[.key(.char(97))], [BoundAction(.execute, "a)b")])
        XCTAssertEqual(try parse("a:execute!x!,b:up")[.key(.char(98))], [BoundAction(.up)])
        // `:` takes the rest of the spec, commas and plus signs included.
        XCTAssertEqual(try parse("a:up+reload:ls -a, b+c")[.key(.char(97))],
                       [BoundAction(.up), BoundAction(.reload, "ls -a, b+c")])
        // A closing bracket not followed by `+`, `,` or the end is part of the argument.
        XCTAssertEqual(try parse("a:execute(f(x) y)+up")[.key(.char(97))],
                       [BoundAction(.execute, "f(x) y"), BoundAction(.up)])
        XCTAssertEqual(try parse("a:change-prompt()")[.key(.char(97))], [BoundAction(.changePrompt, "")])
    }

    func testEveryEventIsOneThatKeyNamesRefusesAsAKey() {
        for event in BindEvent.allCases {
            XCTAssertEqual(KeyNames.refusal(event.rawValue), "'\(event.rawValue)' is an event, not a key")
            XCTAssertNil(KeyNames.key(named: event.rawValue))
        }
    }

    func testATransformsOutputIsAChain() throws {
        XCTAssertEqual(try Bindings.chain("change-query(x)+first+reload:ls, -a", for: .key(.char(24))),
                       [BoundAction(.changeQuery, "x"), BoundAction(.first), BoundAction(.reload, "ls, -a")])
        XCTAssertEqual(try Bindings.chain("put", for: .key(.char(0x61))), [BoundAction(.put)])
        XCTAssertThrowsError(try Bindings.chain("nope", for: .event(.change)))
        XCTAssertEqual(Set(try Bindings.triggers(in: "ctrl-x,change,,,alt-,")),
                       [.key(.char(24)), .event(.change), .key(.char(0x2C)), .key(.alt(0x2C))])
    }

    func testSeveralKeysShareOneChain() throws {
        let b = try parse("ctrl-j,ctrl-k:down")
        XCTAssertEqual(b[.key(.char(10))], [BoundAction(.down)])
        XCTAssertEqual(b[.key(.char(11))], [BoundAction(.down)])
    }

    func testCommaColonAndPlusAreKeys() throws {
        XCTAssertEqual(try parse(",:abort")[.key(.char(0x2C))], [BoundAction(.abort)])
        XCTAssertEqual(try parse("::up")[.key(.char(0x3A))], [BoundAction(.up)])
        XCTAssertEqual(try parse("+:down")[.key(.char(0x2B))], [BoundAction(.down)])
        XCTAssertEqual(try parse("a:up,,:down")[.key(.char(0x2C))], [BoundAction(.down)])
        XCTAssertEqual(try parse("alt-,:first")[.key(.alt(0x2C))], [BoundAction(.first)])
    }

    func testALaterBindingReplacesAndAPlusAdds() throws {
        let b = try parse("ctrl-x:up", "ctrl-x:down", "ctrl-x:+first")
        XCTAssertEqual(b[.key(.char(24))], [BoundAction(.down), BoundAction(.first)])
    }

    func testNamesIgnoreCase() throws {
        XCTAssertEqual(try parse("CTRL-X:Execute-Silent(x)+ACCEPT")[.key(.char(24))],
                       [BoundAction(.executeSilent, "x"), BoundAction(.accept)])
    }

    func testPutWithoutArgumentTakesAPrintableKey() throws {
        XCTAssertEqual(try parse("a:put")[.key(.char(97))], [BoundAction(.put)])
        XCTAssertEqual(refusal("ctrl-a:put"),
                       "invalid value for --bind: ctrl-a: put without an argument needs a printable key, not 'ctrl-a'")
    }

    func testBadBindingsNameTheKeyOrAction() {
        XCTAssertEqual(refusal("ctrl-y:frobnicate"), "invalid value for --bind: ctrl-y: unknown action 'frobnicate'")
        XCTAssertEqual(refusal("ctrl-nope:up"), "invalid value for --bind: unknown key 'ctrl-nope'")
        XCTAssertEqual(refusal("ctrl-x"), "invalid value for --bind: no action bound to 'ctrl-x'")
        XCTAssertEqual(refusal(":up"), "invalid value for --bind: key name required")
        XCTAssertEqual(refusal("a:execute(ls"), "invalid value for --bind: a: unknown action 'execute(ls'")
        XCTAssertEqual(refusal("a:execute"), "invalid value for --bind: a: action 'execute' needs an argument, as execute(…)")
        XCTAssertEqual(refusal("a:line-discard"), "invalid value for --bind: a: action 'line-discard' is not implemented yet (fzf action)")
        XCTAssertEqual(refusal("a:change-nth(2|x)"), "invalid value for --bind: a: change-nth: invalid field index expression: 'x'")
        XCTAssertEqual(refusal("a:unbind(nokey)"), "invalid value for --bind: a: unbind: unknown key 'nokey'")
        XCTAssertEqual(refusal("a:up+"), "invalid value for --bind: a: unknown action ''")
        XCTAssertTrue(refusal("a:change-preview-window(down|nowhere)").hasPrefix(
            "invalid value for --bind: a: change-preview-window: invalid value for --preview-window: 'nowhere'"))
        XCTAssertEqual(try parse("a:change-preview-window(down,40%|hidden|)")[.key(.char(0x61))],
                       [BoundAction(.changePreviewWindow, "down,40%|hidden|")])
    }

    func testOptionsTakeSeveralBindsAndDefaults() throws {
        let options = try Options.parse(arguments: ["--bind", "ctrl-x:up", "--bind=ctrl-y:down"],
                                        defaults: "--bind 'ctrl-z:abort,ctrl-x:first'")
        XCTAssertEqual(options.bindings[.key(.char(24))], [BoundAction(.up)])
        XCTAssertEqual(options.bindings[.key(.char(26))], [BoundAction(.abort)])
        XCTAssertEqual(options.bindings[.key(.char(25))], [BoundAction(.down)])
    }

    func testPrintedBindingsParseToTheSame() throws {
        let specs = [["ctrl-x:execute[a)+b]+up"], ["start:reload:ls, x"], [",:abort"], ["::up"], ["+:down"],
                     ["alt-,:first"], ["a:put"], ["b:up+change-query:)+]+}+>+~+!+@+#+$+%+^+&+*+;+/+|+", "b:+accept"],
                     ["space:toggle+down"], ["f2:"], ["change:first"]]
        for spec in specs {
            var b = Bindings()
            for part in spec { try b.parse(part) }
            var again = Bindings()
            for printed in b.printed { try again.parse(printed) }
            XCTAssertEqual(again, b, "\(spec) printed as \(b.printed)")
        }
    }
}
