import Foundation
import XCTest

/// `--bind` specs that fzf accepts, pick accepts, and the other way round: the real fzf
/// (where it is installed) and pick parse the same odd corners alike. Actions pick lacks
/// are left out (pick refuses them by name; fzf runs them).
final class BindParityTests: XCTestCase {
    static let specs = [
        "ctrl-x:execute(a)+b)+up", "a:up+", ":up", "a", ",:abort", "::up", "+:down", "a:up,,:down",
        "alt-,:first", "a:execute~a)b~", "a:execute!x!,b:up", "a:up+reload:ls -a, b+c", "a:execute(f(x) y)+up",
        "a:change-prompt()", "a:execute", "a:execute()", "ctrl-a:put", "a:put", "start:put", "a:execute(ls",
        "a,b", "a:unbind(nokey)", "a:unbind()", "a:UP", "A:up", "a:execute:", "a:toggle-down", "alt-::up",
        "alt-+:up", "a::up", "a:up:down", "a:+", "a:up++down", "change:reload(x)+", "a:execute[x]y",
        "a:execute(x),", "a:up,", "ctrl-a,ctrl-b:toggle+down", "a:execute@x@+up", "a:execute%a)%+up",
        "a:execute(x)+execute[y]+execute{z}+execute<w>", "a:reload-sync(ls)+transform-query:echo x",
        "a:rebind(a,b)+unbind(change,start)", "focus:transform-header(echo {})", "zero:abort,one:accept",
        "every(0.5):abort", "every(0):abort", "every(abc):abort", "every():abort", "a:unbind(every(1))",
    ]

    func testPickAcceptsTheBindingsFzfAccepts() throws {
        let fzfBinary = try fzfPath()
        for spec in Self.specs {
            let fzf = try TmuxPick.shell(["sh", "-c", "\"$1\" --bind \"$0\" --filter x </dev/null >/dev/null 2>&1; echo $?", spec, fzfBinary])
            let fzfAccepts = fzf.output.trimmingCharacters(in: .whitespacesAndNewlines) != "2"
            let pick = try runPick(["--bind", spec, "--filter", "x"])
            XCTAssertEqual(pick.status != 2, fzfAccepts, "\(spec): fzf \(fzfAccepts ? "accepts" : "refuses") it; pick: \(pick.stderr)")
        }
    }
}
