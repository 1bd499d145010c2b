import PickCore

// MARK: --bind

/// `--bind` on arbitrary bytes: an answer or an OptionError, never a crash or a hang; every
/// spec accepted prints back (`Bindings.printed`) to values that parse to the same bindings,
/// and printing those again gives the same text.
///
/// Input: the spec's bytes; a NUL splits it into several `--bind` values, parsed in order.
enum BindTarget {
    static func run(_ input: [UInt8]) {
        var bindings = Bindings()
        for part in input.split(separator: 0, omittingEmptySubsequences: false) {
            do {
                try bindings.parse(String(decoding: part, as: UTF8.self))
            } catch {
                check(error.message.utf8.starts(with: "invalid value for --bind: ".utf8), "message: \(error.message)")
                check(!error.message.contains("\n"), "a refusal of two lines: \(error.message)")
                return
            }
        }
        var again = Bindings()
        for spec in bindings.printed {
            do {
                try again.parse(spec)
            } catch {
                check(false, "printed \(spec) is refused: \(error.message)")
            }
        }
        check(again == bindings, "printed as \(bindings.printed), parsed back to something else")
        check(again.printed == bindings.printed, "printing is not stable: \(bindings.printed) then \(again.printed)")
    }
}
