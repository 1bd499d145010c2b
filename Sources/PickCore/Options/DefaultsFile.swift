// `PICK_DEFAULT_OPTS_FILE`: options kept in a file, read before `PICK_DEFAULT_OPTS` and the
// command line. One or more options a line, as shell words (quotes and backslashes, no
// expansion); a word that starts with `#` begins a comment that runs to the line's end.
// Each line is applied on its own, so an error names its line
// (`pick: /home/me/.pickrc:3: unknown option: --foo`): an option and its value are on
// the same line.

/// The options a defaults file holds, with the line each came from.
public enum DefaultsFile {
    /// The words of each line that holds any, with its 1-based line number.
    public static func lines(_ text: String, path: String) throws -> [(line: Int, words: [String])] {
        var result: [(line: Int, words: [String])] = []
        // Split on the scalar: a String's "\r\n" is one Character, so a file saved with
        // Windows line ends would otherwise be one long line.
        // An editor's byte order mark is invisible: an error naming '\u{FEFF}--multi' would
        // read as if --multi were unknown.
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        for (k, scalars) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let raw = String(Substring(scalars.last == "\r" ? scalars.dropLast() : scalars))
            let words: [String]
            do {
                words = try ShellWords.split(raw, comments: true)
            } catch let error as OptionError {
                throw OptionError(message: "\(path):\(k + 1): \(error.message)")
            } catch {
                throw OptionError(message: "\(path):\(k + 1): \(error)")
            }
            if !words.isEmpty { result.append((k + 1, words)) }
        }
        return result
    }
}
