@testable import PickCore
import XCTest

/// Inputs the fuzzer (Fuzz/run) found, kept as the scenarios a user would hit.
final class FuzzRegressionTests: XCTestCase {
    /// Found by the options target: `pick $'\n'` printed the newline inside its error, and
    /// an argument holding escape sequences wrote them to the terminal through stderr.
    func testAnArgumentWithANewlineOrEscapeGivesAOneLinePlainError() {
        for argument in ["\n", "a\u{1B}]0;owned\u{07}b", "--height=\u{1B}[2J", "x\u{9B}31m"] {
            XCTAssertThrowsError(try Options.parse(arguments: [argument])) { error in
                let message = (error as? OptionError)?.message ?? ""
                XCTAssertFalse(message.isEmpty)
                XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                               "\(message.debugDescription) for \(argument.debugDescription)")
            }
        }
    }
}
