// The key bindings `pick --shell bash|zsh|fish` prints, one script per shell.
//
// Each binds ctrl-t (insert picked paths at the cursor, quoted), ctrl-r (history, newest
// first, duplicates removed; the command goes on the line, not run) and alt-c (cd into a
// picked directory); fish's binds shift-Tab too, completion with pick, as fzf's fish script
// (bash and zsh complete with `**<Tab>`: TriggerCompletionScripts). pick runs inline
// (`--height 40%`) so the scrollback stays. With no listing command set, ctrl-t and alt-c
// list what pick's walker finds, as fzf's do (`--walker file,dir,follow,hidden` and
// `dir,follow,hidden` among the widget's defaults: hidden files listed, .git and
// node_modules skipped, folders with a trailing slash).
//
// pick --height puts the cursor back on the row and column where it found it, so a zle or
// fish widget's redraw (`zle reset-prompt`, `commandline -f repaint`) lands on the prompt's
// own row. pick turns bracketed paste off as it exits (it turned it on for itself); zsh
// and fish keep theirs on while a widget runs, so their widgets turn it back on when the
// shell has it (bash's readline does so itself after `bind -x`).
//
// ctrl-t and alt-c show the built-in preview (`--preview builtin`: a file's first lines, a
// directory's entries) when the terminal is at least 120 columns wide (COLUMNS, as the
// shell knows it when the key is pressed): at 50% of that, the list keeps 60 columns for
// paths. Narrower, a pane would leave too little of a path to read: it starts hidden, for
// ctrl-/ to show. It is one of the
// widget's defaults, so `--no-preview` (or another `--preview`) in PICK_CTRL_T_OPTS or
// PICK_ALT_C_OPTS turns it off or replaces it, and `--preview builtin` there turns it on in
// any width.
//
// Each widget remembers what is picked (`--remember files`, `commands`, `dirs`), so a short
// query reaches the usual line; PICK_NO_REMEMBER=1 turns that off (pick reads it).
//
// Options pick gets: `--height 40%` and the widget's own defaults go in PICK_DEFAULT_OPTS
// before the person's PICK_DEFAULT_OPTS and PICK_<KEY>_OPTS, so those override them; what
// a widget cannot work without (`--read0` for history, one line for alt-c, `--plain` so a
// `--palette` in PICK_DEFAULT_OPTS never reads a tab in a path or a command as a field)
// is on the command line.

/// The shell integration scripts, by shell name.
enum ShellScripts {
    /// What `--bash`, `--zsh`, `--fish` (`--shell NAME`) print: the key bindings, the
    /// completion of pick's options and the trigger completion, as `invocation` runs. Started
    /// as `fzf` (`eval "$(fzf --bash)"`, pick perhaps reachable by that name alone), the
    /// widgets run `fzf` too, with their options in FZF_DEFAULT_OPTS and the walker's command
    /// in FZF_DEFAULT_COMMAND: the variables pick reads under that name (Invocation.swift),
    /// and with the prompt on top (`--layout reverse`, pick's own default), as fzf's widgets.
    static func integration(for shell: String, as invocation: Invocation) -> String? {
        guard let keys = script(for: shell) else { return nil }
        var text = keys + "\n" + (CompletionScripts.script(for: shell) ?? "")
        if let trigger = TriggerCompletionScripts.script(for: shell) { text += "\n" + trigger }
        guard invocation == .fzf else { return text }
        return text.replacing("command pick ", with: "command fzf ")
            .replacing("PICK_DEFAULT_OPTS", with: "FZF_DEFAULT_OPTS")
            .replacing("PICK_DEFAULT_COMMAND", with: "FZF_DEFAULT_COMMAND")
            .replacing("--height 40% ", with: "--height 40% --layout reverse ")
    }

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        case "fish": return fish
        default: return nil
        }
    }

    static let bash = #"""
    # pick key bindings for bash 4+. Install: eval "$(pick --shell bash)" in ~/.bashrc
    #   ctrl-t  insert picked files and directories at the cursor (Tab marks several)
    #   ctrl-r  search history, newest first; the command is put on the line, not run
    #   alt-c   cd into a picked directory
    # Settings: PICK_CTRL_T_COMMAND, PICK_ALT_C_COMMAND (listing commands; unset, pick's
    # walker lists what is below here: hidden files too, not .git or node_modules),
    # PICK_CTRL_T_OPTS, PICK_CTRL_R_OPTS, PICK_ALT_C_OPTS (pick options),
    # PICK_NO_REMEMBER=1 (do not learn from picks: --remember files, commands, dirs).
    # fzf's FZF_CTRL_T_COMMAND, FZF_ALT_C_COMMAND (set and empty: the key is not bound),
    # FZF_CTRL_T_OPTS, FZF_CTRL_R_OPTS and FZF_ALT_C_OPTS count too, pick's after them.
    # ctrl-t and alt-c preview the focused path in terminals of 120 columns or more (in
    # narrower ones ctrl-/ shows it); --no-preview in PICK_CTRL_T_OPTS or PICK_ALT_C_OPTS
    # turns that off.
    if [[ $- == *i* ]] && (( BASH_VERSINFO[0] >= 4 )); then

    # pick on the output of the listing command $1 or, with none, on what pick's walker
    # finds below here (`--walker` in the options: fzf's, so hidden files are listed and
    # .git and node_modules skipped); the rest are pick's arguments.
    __pick_list_or_walk() {
      local list=$1
      shift
      if [[ -n $list ]]; then
        eval "$list" | command pick "$@"
      else
        PICK_DEFAULT_COMMAND= command pick "$@" </dev/tty
      fi
    }

    # `fc -lnr` prints each entry as TAB SPACE command, newest first; an entry's further
    # lines (lithist) carry no tab. Entries go out NUL-terminated, each once.
    __pick_history_entries() {
      builtin fc -lnr -2147483648 2>/dev/null | command awk '
        function flush() { if (have && !seen[entry]++) printf "%s%c", entry, 0 }
        /^\t/ { flush(); entry = $0; sub(/^\t ?/, "", entry); have = 1; next }
        { entry = entry "\n" $0 }
        END { flush() }'
    }

    __pick_ctrl_t() {
      local picked item preview='--preview builtin --preview-window hidden'
      (( ${COLUMNS:-0} >= 120 )) && preview='--preview builtin'
      picked=$(set +o pipefail
        PICK_DEFAULT_OPTS="--height 40% --multi --remember files --walker file,dir,follow,hidden --scheme path $preview ${PICK_DEFAULT_OPTS-} ${FZF_CTRL_T_OPTS-} ${PICK_CTRL_T_OPTS-}" \
          __pick_list_or_walk "${PICK_CTRL_T_COMMAND:-${FZF_CTRL_T_COMMAND-}}" --plain |
          while IFS= read -r item; do printf '%q ' "$item"; done)
      READLINE_LINE=${READLINE_LINE:0:READLINE_POINT}$picked${READLINE_LINE:READLINE_POINT}
      READLINE_POINT=$(( READLINE_POINT + ${#picked} ))
    }

    __pick_ctrl_r() {
      local picked
      picked=$(set +o pipefail
        __pick_history_entries |
          PICK_DEFAULT_OPTS="--height 40% --tiebreak=index --remember commands ${PICK_DEFAULT_OPTS-} ${FZF_CTRL_R_OPTS-} ${PICK_CTRL_R_OPTS-}" \
          command pick --plain --read0 +m --query "$READLINE_LINE") || return 0
      READLINE_LINE=$picked
      READLINE_POINT=${#picked}
    }

    # alt-c is a macro: pick and cd (bind -x, in this shell), set the line aside, accept the
    # empty line so that bash draws a fresh prompt for the new directory, put the line back.
    __pick_alt_c() {
      local dir preview='--preview builtin --preview-window hidden'
      (( ${COLUMNS:-0} >= 120 )) && preview='--preview builtin'
      dir=$(set +o pipefail
        PICK_DEFAULT_OPTS="--height 40% --remember dirs --walker dir,follow,hidden --scheme path $preview ${PICK_DEFAULT_OPTS-} ${FZF_ALT_C_OPTS-} ${PICK_ALT_C_OPTS-}" \
          __pick_list_or_walk "${PICK_ALT_C_COMMAND:-${FZF_ALT_C_COMMAND-}}" --plain +m)
      [[ -n $dir ]] && builtin cd -- "$dir"
      __pick_saved_line=$READLINE_LINE
      __pick_saved_point=$READLINE_POINT
      READLINE_LINE=
      READLINE_POINT=0
    }

    __pick_restore_line() {
      READLINE_LINE=${__pick_saved_line-}
      READLINE_POINT=${__pick_saved_point-0}
      unset __pick_saved_line __pick_saved_point
    }

    # As fzf's: FZF_CTRL_T_COMMAND or FZF_ALT_C_COMMAND set and empty leaves its key alone.
    for __pick_keymap in emacs-standard vi-insert vi-command; do
      [[ -n ${PICK_CTRL_T_COMMAND-} || -n ${FZF_CTRL_T_COMMAND-x} ]] &&
        bind -m "$__pick_keymap" -x '"\C-t": __pick_ctrl_t'
      bind -m "$__pick_keymap" -x '"\C-r": __pick_ctrl_r'
      if [[ -n ${PICK_ALT_C_COMMAND-} || -n ${FZF_ALT_C_COMMAND-x} ]]; then
        bind -m "$__pick_keymap" -x '"\C-x\C-p1": __pick_alt_c'
        bind -m "$__pick_keymap" -x '"\C-x\C-p2": __pick_restore_line'
        bind -m "$__pick_keymap" '"\ec": "\C-x\C-p1\C-m\C-x\C-p2"'
      fi
    done
    unset __pick_keymap

    fi

    """#

    static let zsh = #"""
    # pick key bindings for zsh. Install: source <(pick --shell zsh) in ~/.zshrc
    #   ctrl-t  insert picked files and directories at the cursor (Tab marks several)
    #   ctrl-r  search history, newest first; the command is put on the line, not run
    #   alt-c   cd into a picked directory
    # Settings: PICK_CTRL_T_COMMAND, PICK_ALT_C_COMMAND (listing commands; unset, pick's
    # walker lists what is below here: hidden files too, not .git or node_modules),
    # PICK_CTRL_T_OPTS, PICK_CTRL_R_OPTS, PICK_ALT_C_OPTS (pick options),
    # PICK_NO_REMEMBER=1 (do not learn from picks: --remember files, commands, dirs).
    # fzf's FZF_CTRL_T_COMMAND, FZF_ALT_C_COMMAND (set and empty: the key is not bound),
    # FZF_CTRL_T_OPTS, FZF_CTRL_R_OPTS and FZF_ALT_C_OPTS count too, pick's after them.
    # ctrl-t and alt-c preview the focused path in terminals of 120 columns or more (in
    # narrower ones ctrl-/ shows it); --no-preview in PICK_CTRL_T_OPTS or PICK_ALT_C_OPTS
    # turns that off.
    if [[ -o interactive ]]; then

    # pick on the output of the listing command $1 or, with none, on what pick's walker
    # finds below here (`--walker` in the options: fzf's, so hidden files are listed and
    # .git and node_modules skipped); the rest are pick's arguments.
    __pick_list_or_walk() {
      local list=$1
      shift
      if [[ -n $list ]]; then
        eval "$list" | command pick "$@"
      else
        PICK_DEFAULT_COMMAND= command pick "$@" </dev/tty
      fi
    }

    # pick turned bracketed paste off on exit: back on if zle uses it.
    __pick_bracketed_paste() {
      (( $+zle_bracketed_paste )) && print -rn -- "${zle_bracketed_paste[1]}" >/dev/tty
    }

    pick-file-widget() {
      setopt localoptions pipefail no_aliases 2>/dev/null
      local item picked="" preview='--preview builtin --preview-window hidden'
      (( ${COLUMNS:-0} >= 120 )) && preview='--preview builtin'
      for item in "${(@f)$(PICK_DEFAULT_OPTS="--height 40% --multi --remember files --walker file,dir,follow,hidden --scheme path $preview ${PICK_DEFAULT_OPTS-} ${FZF_CTRL_T_OPTS-} ${PICK_CTRL_T_OPTS-}" \
          __pick_list_or_walk "${PICK_CTRL_T_COMMAND:-${FZF_CTRL_T_COMMAND-}}" --plain)}"; do
        [[ -n $item ]] && picked+="${(q)item} "
      done
      LBUFFER+=$picked
      __pick_bracketed_paste
      zle reset-prompt
    }

    # $history lists the newest entry first; (u) keeps the first of each. (print -N with
    # no arguments would still print one empty entry.)
    pick-history-widget() {
      setopt localoptions noglobsubst noposixbuiltins pipefail no_aliases 2>/dev/null
      zmodload zsh/parameter 2>/dev/null
      local picked
      picked=$({ (( ${#history} )) && print -rN -- "${(@u)history}"; } |
        PICK_DEFAULT_OPTS="--height 40% --tiebreak=index --remember commands ${PICK_DEFAULT_OPTS-} ${FZF_CTRL_R_OPTS-} ${PICK_CTRL_R_OPTS-}" \
        command pick --plain --read0 +m --query "$BUFFER")
      if [[ $? -eq 0 && -n $picked ]]; then
        BUFFER=$picked
        CURSOR=$#BUFFER
      fi
      __pick_bracketed_paste
      zle reset-prompt
    }

    # cd here (chpwd hooks run), then the precmd hooks, as a new prompt would.
    pick-cd-widget() {
      setopt localoptions pipefail no_aliases 2>/dev/null
      local dir hook preview='--preview builtin --preview-window hidden'
      (( ${COLUMNS:-0} >= 120 )) && preview='--preview builtin'
      dir=$(PICK_DEFAULT_OPTS="--height 40% --remember dirs --walker dir,follow,hidden --scheme path $preview ${PICK_DEFAULT_OPTS-} ${FZF_ALT_C_OPTS-} ${PICK_ALT_C_OPTS-}" \
        __pick_list_or_walk "${PICK_ALT_C_COMMAND:-${FZF_ALT_C_COMMAND-}}" --plain +m)
      if [[ -n $dir ]] && builtin cd -- "$dir"; then
        for hook in precmd $precmd_functions; do
          (( $+functions[$hook] )) && $hook
        done
      fi
      __pick_bracketed_paste
      zle reset-prompt
    }

    zle -N pick-file-widget
    zle -N pick-history-widget
    zle -N pick-cd-widget
    # As fzf's: FZF_CTRL_T_COMMAND or FZF_ALT_C_COMMAND set and empty leaves its key alone.
    for __pick_keymap in emacs viins vicmd; do
      [[ -n ${PICK_CTRL_T_COMMAND-} || -n ${FZF_CTRL_T_COMMAND-x} ]] && bindkey -M $__pick_keymap '^T' pick-file-widget
      bindkey -M $__pick_keymap '^R' pick-history-widget
      [[ -n ${PICK_ALT_C_COMMAND-} || -n ${FZF_ALT_C_COMMAND-x} ]] && bindkey -M $__pick_keymap '\ec' pick-cd-widget
    done
    unset __pick_keymap

    fi

    """#

    static let fish = #"""
    # pick key bindings for fish. Install: pick --shell fish | source in config.fish
    #   ctrl-t     insert picked files and directories at the cursor (Tab marks several)
    #   ctrl-r     search history, newest first; the command is put on the line, not run
    #   alt-c      cd into a picked directory
    #   shift-tab  complete the token with pick (a wildcard: the paths it expands to)
    # Settings: PICK_CTRL_T_COMMAND, PICK_ALT_C_COMMAND (listing commands; unset, pick's
    # walker lists what is below here: hidden files too, not .git or node_modules),
    # PICK_CTRL_T_OPTS, PICK_CTRL_R_OPTS, PICK_ALT_C_OPTS (pick options),
    # PICK_NO_REMEMBER=1 (do not learn from picks: --remember files, commands, dirs).
    # fzf's FZF_CTRL_T_COMMAND, FZF_ALT_C_COMMAND (set and empty: the key is not bound),
    # FZF_CTRL_T_OPTS, FZF_CTRL_R_OPTS and FZF_ALT_C_OPTS count too, pick's after them.
    # ctrl-t and alt-c preview the focused path in terminals of 120 columns or more (in
    # narrower ones ctrl-/ shows it); --no-preview in PICK_CTRL_T_OPTS or PICK_ALT_C_OPTS
    # turns that off.

    # pick on the output of the listing command $argv[1] or, with none, on what pick's
    # walker finds below here (`--walker` in the options: fzf's, so hidden files are listed
    # and .git and node_modules skipped); the rest are pick's arguments.
    function __pick_list_or_walk
        if test -n "$argv[1]"
            eval $argv[1] | command pick $argv[2..-1]
        else
            PICK_DEFAULT_COMMAND= command pick $argv[2..-1] </dev/tty
        end
    end

    # pick turned bracketed paste off on exit: back on if fish uses it.
    function __pick_bracketed_paste
        functions -q __fish_enable_bracketed_paste; and __fish_enable_bracketed_paste
    end

    function pick-file-widget -d 'Insert picked paths at the cursor'
        set -l list "$FZF_CTRL_T_COMMAND"
        test -n "$PICK_CTRL_T_COMMAND"; and set list $PICK_CTRL_T_COMMAND
        set -l preview --preview builtin --preview-window hidden
        test "$COLUMNS" -ge 120 2>/dev/null; and set preview --preview builtin
        set -l picked (PICK_DEFAULT_OPTS="--height 40% --multi --remember files --walker file,dir,follow,hidden --scheme path $preview $PICK_DEFAULT_OPTS $FZF_CTRL_T_OPTS $PICK_CTRL_T_OPTS" __pick_list_or_walk "$list" --plain)
        for item in $picked
            commandline -i -- (string escape -- $item)' '
        end
        __pick_bracketed_paste
        commandline -f repaint
    end

    # `history` lists each command once, newest first.
    function pick-history-widget -d 'Put a command from history on the line'
        set -l query (commandline | string collect)
        set -l picked (history --null | PICK_DEFAULT_OPTS="--height 40% --tiebreak=index --remember commands $PICK_DEFAULT_OPTS $FZF_CTRL_R_OPTS $PICK_CTRL_R_OPTS" command pick --plain --read0 --print0 +m --query "$query" | string split0)
        and commandline -- $picked
        __pick_bracketed_paste
        commandline -f repaint
    end

    function pick-cd-widget -d 'cd into a picked directory'
        set -l list "$FZF_ALT_C_COMMAND"
        test -n "$PICK_ALT_C_COMMAND"; and set list $PICK_ALT_C_COMMAND
        set -l preview --preview builtin --preview-window hidden
        test "$COLUMNS" -ge 120 2>/dev/null; and set preview --preview builtin
        set -l dir (PICK_DEFAULT_OPTS="--height 40% --remember dirs --walker dir,follow,hidden --scheme path $preview $PICK_DEFAULT_OPTS $FZF_ALT_C_OPTS $PICK_ALT_C_OPTS" __pick_list_or_walk "$list" --plain +m)
        and test -n "$dir"
        and cd -- $dir
        __pick_bracketed_paste
        commandline -f repaint
    end

    # shift-Tab, as fzf's: a token with a wildcard (`src/*.txt`, `**.md`) offers the paths it
    # expands to; else what fish would complete the token with (descriptions shown, not
    # inserted); a command's own _pick_complete_CMD or _fzf_complete_CMD function, when
    # defined, lists lines for _fzf_complete (`printf '%s\n' a b | _fzf_complete --multi --
    # $argv`). Options: PICK_DEFAULT_OPTS, FZF_COMPLETION_OPTS, PICK_COMPLETION_OPTS.
    function __pick_complete_run -d 'pick on standard input with the options given'
        PICK_DEFAULT_OPTS="--height 40% $PICK_DEFAULT_OPTS $FZF_COMPLETION_OPTS $PICK_COMPLETION_OPTS" command pick --plain $argv
    end

    # Puts the words given (quoted already) in place of the token: a lone folder with no
    # space after it, so that shift-Tab can go on into it.
    function __pick_complete_replace
        test (count $argv) -gt 0; or return
        set -l tail ' '
        test (count $argv) -eq 1; and string match -q -- '*/' $argv[1]; and set tail ''
        commandline -rt -- (string join -- ' ' $argv)$tail
    end

    function pick-complete-widget -d 'Complete the token with pick'
        # The lines on standard input: called from _fzf_complete. (A command substitution
        # would read the terminal, not this function's input.)
        if not isatty stdin
            set -l picked
            __pick_complete_run $argv | while read -l line; set -a picked $line; end
            __pick_complete_replace $picked
            commandline -f repaint
            return
        end
        set -l token (commandline -t)
        set -l cmd (commandline -opc)
        set -l picked
        if string match -qr -- '^(?:[^\'"\\\\*]|\\\\.)*\*' $token
            # Wildcards, expanded as the command would have them (folders with a slash).
            set -l paths (eval "printf '%s\n' $token" 2>/dev/null)
            for i in (seq (count $paths))
                test -d $paths[$i]; and not string match -q -- '*/' $paths[$i]; and set paths[$i] $paths[$i]/
            end
            set picked (string join \n -- $paths | __pick_complete_run --multi --scheme path | string escape -n)
        else
            for func in _pick_complete_$cmd[1] _fzf_complete_$cmd[1]
                if test -n "$cmd[1]"; and functions -q $func
                    $func $cmd
                    return
                end
            end
            set picked (complete -C --escape -- (commandline -cp) | __pick_complete_run --multi --delimiter \t --nth 1 --accept-nth 1)
        end
        __pick_complete_replace $picked
        __pick_bracketed_paste
        commandline -f repaint
    end

    # fzf's name for it: a _fzf_complete_CMD function written for fzf pipes its lines here.
    function _fzf_complete -d 'Pick among the lines on standard input (options before --)'
        set -l opts
        for i in $argv
            test "$i" = --; and break
            set -a opts $i
        end
        pick-complete-widget $opts
    end

    # fish reads config.fish for scripts too: bind only in interactive shells. With vi key
    # bindings, load this after fish_vi_key_bindings (which clears every binding).
    if status is-interactive
        # As fzf's: FZF_CTRL_T_COMMAND or FZF_ALT_C_COMMAND set and empty leaves its key alone.
        for mode in default insert
            if test -n "$PICK_CTRL_T_COMMAND"; or not set -q FZF_CTRL_T_COMMAND; or test -n "$FZF_CTRL_T_COMMAND"
                bind -M $mode \ct pick-file-widget
            end
            bind -M $mode \cr pick-history-widget
            if string match -qr -- '^[4-9]|^\d\d' $version
                bind -M $mode shift-tab pick-complete-widget
            else
                bind -M $mode -k btab pick-complete-widget
            end
            if test -n "$PICK_ALT_C_COMMAND"; or not set -q FZF_ALT_C_COMMAND; or test -n "$FZF_ALT_C_COMMAND"
                bind -M $mode \ec pick-cd-widget
            end
        end
    end

    """#
}
