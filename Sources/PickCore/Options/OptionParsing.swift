// The values of options that need more than a word or a number, as fzf reads them: each
// parsed once, into the type the option's field holds, with an error naming the option.

enum OptionParsing {
    /// `--tiebreak`: up to three criteria, then optionally `index`, each once.
    static func tiebreaks(_ text: String) throws -> [Tiebreak] {
        var criteria: [Tiebreak] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let t = Tiebreak(rawValue: String(part)) else {
                throw OptionError(message: "invalid value for --tiebreak: \(OptionError.quote(part)) (expected length, begin, end, chunk, pathname or index)")
            }
            guard !criteria.contains(t) else {
                throw OptionError(message: "invalid value for --tiebreak: \(OptionError.quote(part)) is listed twice")
            }
            criteria.append(t)
        }
        if let idx = criteria.firstIndex(of: .index), idx != criteria.count - 1 {
            throw OptionError(message: "invalid value for --tiebreak: 'index' must come last")
        }
        guard criteria.filter({ $0 != .index }).count <= 3 else {
            throw OptionError(message: "invalid value for --tiebreak: at most three criteria before index")
        }
        return criteria
    }

    /// `--expect`: comma-separated keys, as fzf reads them: an empty name is skipped
    /// (fzf-tab passes `--expect=/,alt-enter,`), and a comma where a name would be is the
    /// comma key (`,,` at either end, `,,,` inside, or `,` alone).
    static func expect(_ value: OptionValue) throws -> [NamedKey] {
        let text = value.string
        var names = text.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        if text == "," || text.hasPrefix(",,") || text.hasSuffix(",,") || text.contains(",,,") { names.append(",") }
        guard !names.isEmpty else { throw OptionError(message: "invalid value for \(value.name): key names required") }
        var keys: [NamedKey] = []
        for name in names {
            guard let key = KeyNames.key(named: name) else {
                throw OptionError(message: "invalid value for \(value.name): \(KeyNames.refusal(name))")
            }
            // A key named twice prints as it was written last, as in fzf.
            keys.removeAll { $0.key == key }
            keys.append(NamedKey(key: key, written: name))
        }
        return keys
    }

    /// `--height=[~][-]N[%]`: `~` adapts to the input (at most N); `-N` is all but N rows.
    static func height(_ value: OptionValue, into options: inout Options) throws {
        let text = value.string
        var size = Substring(text)
        let adapts = size.hasPrefix("~")
        if adapts { size = size.dropFirst() }
        let inverse = size.hasPrefix("-")
        if inverse { size = size.dropFirst() }
        let why = "expected rows from 3, or a percentage like 40%, optionally after ~ or -"
        if size.hasSuffix("%"), let p = Int(size.dropLast()), p >= (inverse ? 0 : 1), p <= (inverse ? 99 : 100),
           size.first?.isNumber == true {
            let percent = inverse ? 100 - p : p
            options.height = percent == 100 && !adapts ? .full : .percent(percent)
        } else if let n = Int(size), size.first?.isNumber == true, inverse ? n <= 100_000 : (n >= 3 && n <= 100_000) {
            options.height = inverse ? (n == 0 && !adapts ? .full : .allBut(n)) : .rows(n)
        } else {
            throw value.refused(why)
        }
        options.heightAdapts = adapts
        options.tmux = nil  // as in fzf, the later of --height and --tmux wins
    }

    /// `--margin`, `--padding`: 1 to 4 sizes.
    static func spacing(_ value: OptionValue) throws -> Spacing {
        guard let spacing = Spacing.parse(value.string) else {
            throw value.refused("expected 1 to 4 comma-separated sizes, each N or N% up to 49%")
        }
        return spacing
    }

    /// `--pointer`, `--marker`, `--ellipsis`: at most `columns` wide, control characters shown.
    static func glyph(_ value: OptionValue, columns: Int) throws -> String {
        let text = TerminalText.sanitize(value.string)
        guard TerminalText.width(text) <= columns else {
            throw OptionError(message: "invalid value for \(value.name): \(OptionError.quote(text)) (at most \(columns) columns wide)")
        }
        return text
    }

    /// A wrap sign (`--wrap-sign`): its tabs as blanks, safe to draw, any width (a row
    /// narrower than it shows what fits).
    static func sign(_ text: String) -> String {
        TerminalText.sanitize(text.map { $0 == "\t" ? "        " : String($0) }.joined())
    }

    /// `--marker-multi-line`: three markers of one width each (3 or 6 columns in all), or
    /// none (empty), as fzf splits them.
    static func markerMultiLine(_ value: OptionValue) throws -> [String] {
        let text = TerminalText.sanitize(String(value.string.prefix { $0 != "\n" }))
        if text.isEmpty { return ["", "", ""] }
        let total = TerminalText.width(text)
        guard total == 3 || total == 6 else { throw value.refused("expected 3 or 6 columns in all, or none") }
        var parts = ["", "", ""]
        var index = 0, used = 0
        for character in text {
            let w = TerminalText.width(String(character))
            if used + w > total / 3 && index < 2 { index += 1; used = 0 }
            parts[index] += String(character)
            used += w
        }
        guard parts.allSatisfy({ TerminalText.width($0) == total / 3 }) else {
            throw value.refused("expected three markers of one width")
        }
        return parts
    }

    /// fzf's `--info` styles; `inline` and `inline-right` may carry a prefix after a colon.
    static func infoStyle(_ text: String) -> InfoStyle? {
        switch text {
        case "default": return .default
        case "right": return .right
        case "hidden": return .hidden
        case "inline": return .inline(prefix: " < ")
        case "inline-right": return .inlineRight(prefix: "")
        default: break
        }
        for name in ["inline-right", "inline"] where text.hasPrefix(name + ":") {
            let prefix = TerminalText.sanitize(String(text.dropFirst(name.count + 1)))
            guard TerminalText.width(prefix) <= 20 else { return nil }
            return name == "inline" ? .inline(prefix: prefix) : .inlineRight(prefix: prefix)
        }
        return nil
    }
}
