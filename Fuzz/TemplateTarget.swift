import PickCore

// MARK: Command templates

/// A command template expanded for random lines, marks and queries: no crash, and the shell
/// would give back every byte. The expansion of a template made of plain words and
/// placeholders is split into words as POSIX sh does (`ShellWordOracle`, the oracle); each
/// placeholder's words must be exactly the bytes it stands for (the line, the query, each
/// marked line, the fields `Fields.select` picks), cut at a NUL. A random template (any
/// bytes) must expand without crashing, and to itself when it holds no brace.
///
/// Input: a form selector, a delimiter selector, then line, query and marked lines separated
/// by 0xFE (a random template when the selector's top bit is set: everything before the
/// first 0xFE).
enum TemplateTarget {
    static let forms = ["{}", "{q}", "{+}", "{1}", "{-1}", "{2..}", "{..2}", "{1,3}", "{s2}", "{+1}", "{q:1}",
                        "{n}", "{+n}", "{*}", "{*n}", "{*2}", "{fzf:query}", "{fzf:prompt}", "{q:s1}", "{+*}",
                        "{f}", "{+f}", "{*sf1}", "{fn}"]
    static let delimiters: [String?] = [nil, ":", "\\t", "[:,]+", " *\\| *", "--", "\\s+"]

    static func run(_ input: [UInt8]) {
        var header = Header(input)
        let selector = header.byte()
        let delimiterChoice = header.byte()
        let parts = header.rest.split(separator: 0xFE, omittingEmptySubsequences: false).map(Array.init)
        let current = parts.first ?? []
        let query = parts.count > 1 ? parts[1] : []
        let marked = parts.count > 2 ? Array(parts[2...]) : []
        let delimiter = try! FieldDelimiter(delimiters[Int(delimiterChoice) % delimiters.count])
        // The marked lines stand for the matches too ({*}); the query for the prompt.
        let context = TemplateContext(current: current, currentIndex: Int(selector), marked: marked,
                                      markedIndices: marked.indices.map { $0 * 3 }, matched: marked,
                                      matchedIndices: marked.indices.map { $0 * 2 }, query: query,
                                      delimiter: delimiter, prompt: query)
        // A file placeholder's contents, kept; its path is the word `FILE<n>`.
        var files: [[UInt8]] = []
        let writeFile = { (contents: [UInt8]) -> [UInt8] in
            files.append(contents)
            return Array("FILE\(files.count - 1)".utf8)
        }

        if selector & 0x80 != 0 {
            let text = String(decoding: current, as: UTF8.self)
            let expanded = CommandTemplate(text).expand(context, writeFile: writeFile)
            // (Bytes, not Characters: a prepended mark makes "\u{0605}{" one Character.)
            if !Array(text.utf8).contains(UInt8(ascii: "{")) {
                check(expanded == CommandTemplate.cutAtNul(Array(text.utf8)), "a template without braces changed")
            }
            check(!expanded.contains(0), "a NUL byte in an expansion")
            return
        }

        let form = forms[Int(selector) % forms.count]
        let expanded = CommandTemplate("printf %s \(form) end").expand(context, writeFile: writeFile)
        check(!expanded.contains(0), "a NUL byte in an expansion")
        guard let words = ShellWordOracle.split(expanded) else {
            check(false, "\(form) gave an expansion the shell would not parse: \(expanded)")
            return
        }
        check(words.first == Array("printf".utf8) && words.count >= 3 && words.last == Array("end".utf8),
              "\(form): the literal words changed: \(words)")
        let got = Array(words[2..<(words.count - 1)])
        let cut = CommandTemplate.cutAtNul
        let all = marked.isEmpty ? [current] : marked
        func fields(_ r: String, _ line: [UInt8], spaces: Bool = false, _ d: FieldDelimiter? = nil) -> [UInt8] {
            Fields.select(try! FieldRanges(parsing: r), of: cut(line), d ?? delimiter, preservingSpace: spaces)
        }
        let want: [[UInt8]]
        switch form {
        case "{}": want = [cut(current)]
        case "{q}": want = [cut(query)]
        case "{+}": want = all.map(cut)
        case "{s2}": want = [fields("2", current, spaces: true)]
        case "{+1}": want = all.map { fields("1", $0) }
        case "{q:1}": want = [fields("1", query, .blanks)]
        case "{n}": want = [Array(String(selector).utf8)]
        case "{*}", "{+*}": want = marked.map(cut)
        case "{*n}": want = marked.indices.map { Array(String($0 * 2).utf8) }
        case "{*2}": want = marked.map { fields("2", $0) }
        case "{fzf:query}", "{fzf:prompt}": want = [cut(query)]
        case "{q:s1}": want = [fields("1", query, spaces: true, .blanks)]
        case "{f}", "{+f}", "{*sf1}", "{fn}":
            let values: [[UInt8]]
            switch form {
            case "{f}": values = [cut(current)]
            case "{+f}": values = all.map(cut)
            case "{*sf1}": values = marked.map { fields("1", $0, spaces: true) }
            default: values = [Array(String(selector).utf8)]
            }
            check(got == [Array("FILE0".utf8)] && files.count == 1, "\(form): not one file's path: \(got)")
            check(files.first == values.map { $0 + [0x0A] }.joined().map { $0 } + (values.isEmpty ? [0x0A] : []),
                  "\(form): the file holds \(files), expected \(values)")
            return
        case "{+n}": want = marked.isEmpty ? [Array(String(selector).utf8)]
                                           : marked.indices.map { Array(String($0 * 3).utf8) }
        default: want = [fields(String(form.dropFirst().dropLast()), current)]
        }
        check(got == want, "\(form) of line \(current) query \(query) marked \(marked): the shell reads \(got), expected \(want)")
    }
}

/// POSIX sh word splitting for what `CommandTemplate.expand` produces: blanks separate words;
/// single quotes, double quotes and backslashes quote. nil on an unterminated quote. Any
/// unquoted character that would make the shell do more than split words (`$`, a backtick,
/// `;`, `|`, `&`, `<`, `>`, `(`, `)`, a newline) is an error too: none may come from a value.
enum ShellWordOracle {
    static func split(_ bytes: [UInt8]) -> [[UInt8]]? {
        var words: [[UInt8]] = []
        var word: [UInt8] = []
        var inWord = false
        var i = 0
        let special = Set("$`;|&<>()\n".utf8)
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09:
                if inWord { words.append(word); word = []; inWord = false }
                i += 1
            case 0x27:
                guard let close = bytes[(i + 1)...].firstIndex(of: 0x27) else { return nil }
                word += bytes[(i + 1)..<close]
                inWord = true
                i = close + 1
            case 0x5C:
                guard i + 1 < bytes.count else { return nil }
                word.append(bytes[i + 1])
                inWord = true
                i += 2
            case 0x22:
                return nil   // the expansion never double-quotes
            default:
                if special.contains(b) { return nil }
                word.append(b)
                inWord = true
                i += 1
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
