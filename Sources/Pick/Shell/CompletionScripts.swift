import PickCore

// The completion of pick's own options for bash, zsh and fish: `pick --completion SHELL`
// prints it (what `make install` puts where each shell looks), and `pick --shell SHELL`
// prints it after the key bindings. Generated from one table (OptionCompletion): option
// names, the fixed sets of values, files for --history; a value of the person's own
// (`--query TEXT`) completes to nothing.

enum CompletionScripts {
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    /// The options whose values are words, with the words space-separated; `continues`: a
    /// word is followed by more of the value, not a space (`--bind ctrl-x:`).
    private static var wordSets: [(option: String, words: String, continues: Bool)] {
        OptionCompletion.values.keys.sorted().compactMap { option in
            switch OptionCompletion.values[option] {
            case .words(let words)?: return (option, words.joined(separator: " "), false)
            case let keys? where !keys.keyWords.isEmpty:
                return (option, keys.keyWords.joined(separator: " "), keys == .keys(bindings: true))
            default: return nil
            }
        }
    }

    private static var fileOptions: [String] {
        OptionCompletion.values.keys.sorted().filter { OptionCompletion.values[$0] == .files }
    }

    /// Options that take a value of the person's own.
    private static var freeValueOptions: [String] {
        OptionCompletion.optionsWithValue.filter { OptionCompletion.values[$0] == nil }
    }

    static var bash: String {
        let cases = wordSets.map {
            "    \($0.option)) words='\($0.words)'\($0.continues ? "; compopt -o nospace 2>/dev/null" : "") ;;\n"
        }.joined()
        return """
        # Completion of pick's options for bash (pick --completion bash).
        _pick_options() {
          local cur=${COMP_WORDS[COMP_CWORD]} prev= opt pre= words=
          (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
          COMPREPLY=()
          # --opt=VALUE: bash splits the word at '=' (COMP_WORDBREAKS), or it does not.
          if [[ $cur == = ]]; then opt=$prev cur=
          elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then opt=${COMP_WORDS[COMP_CWORD-2]}
          elif [[ $cur == --*=* ]]; then opt=${cur%%=*} pre=$opt= cur=${cur#*=}
          else opt=$prev
          fi
          case $opt in
        \(cases)    \(fileOptions.joined(separator: "|")))
              compopt -o filenames 2>/dev/null
              mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;
            \(freeValueOptions.joined(separator: "|"))) return ;;
            # pick < FILE: bash asks the command's completion for a redirection's file too.
            *'<'|*'>') compopt -o default 2>/dev/null; return ;;
            *) [[ $opt == "$prev" ]] || return ;;
          esac
          if [[ -n $words ]]; then
            mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$words" -- "$cur")
          elif [[ -z $cur || $cur == -* ]]; then
            mapfile -t COMPREPLY < <(compgen -W '\(OptionCompletion.optionNames.joined(separator: " "))' -- "$cur")
          fi
        }
        complete -F _pick_options pick

        """
    }

    static var zsh: String {
        let cases = wordSets.map {
            "    (\($0.option)) compadd\($0.continues ? " -S ''" : "") -- \($0.words); return ;;\n"
        }.joined()
        return """
        #compdef pick
        # Completion of pick's options for zsh (pick --completion zsh): a file _pick in $fpath,
        # or sourced after compinit.
        _pick() {
          local cur=${words[CURRENT]} opt=${words[CURRENT-1]}
          if [[ $cur == --*=* ]]; then
            opt=${cur%%=*}
            compset -P '*='
          fi
          case $opt in
        \(cases)    (\(fileOptions.joined(separator: "|"))) _files; return ;;
            (\(freeValueOptions.joined(separator: "|"))) return 1 ;;
          esac
          [[ $cur == --*=* ]] && return 1
          compadd -- \(OptionCompletion.optionNames.joined(separator: " "))
        }
        if [[ ${funcstack[1]} == _pick ]]; then
          _pick "$@"
        else
          (( $+functions[compdef] )) && compdef _pick pick
        fi

        """
    }

    static var fish: String {
        var lines = ["# Completion of pick's options for fish (pick --completion fish).",
                     "complete -c pick -e", "complete -c pick -f"]
        for option in OptionCompletion.optionNames {
            let name = option.dropFirst(2)
            switch OptionCompletion.values[option] {
            case .words(let words)?: lines.append("complete -c pick -l \(name) -x -a '\(words.joined(separator: " "))'")
            case let keys? where !keys.keyWords.isEmpty:
                lines.append("complete -c pick -l \(name) -x -a '\(keys.keyWords.joined(separator: " "))'")
            case .files?: lines.append("complete -c pick -l \(name) -r -F")
            case .keys?: break
            case nil where Options.longOptions[option] == .required: lines.append("complete -c pick -l \(name) -x")
            case nil: lines.append("complete -c pick -l \(name)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
