// Fuzzy completion with a trigger, the part of `pick --shell bash|zsh` printed last (after
// the completion of pick's own options, so that pick's completion is wrapped too).
//
// A word ending in the trigger (PICK_COMPLETION_TRIGGER, else FZF_COMPLETION_TRIGGER, else
// `**`) and Tab opens pick on what fits the command: paths below the word's folder (pick's
// own walker, so nothing else needs installing), folders only for cd, pushd and rmdir
// (FZF_COMPLETION_DIR_COMMANDS), processes for kill (the PID goes in), hosts for ssh, scp,
// sftp and telnet (~/.ssh/config, ~/.ssh/known_hosts, /etc/hosts; after `user@` in the word,
// with it), exported variables for export and unset (bash: printenv too), aliases for
// unalias. Without the trigger, Tab does what it did before.
//
// fzf's hooks keep their meaning, so an fzf user's dotfiles work unchanged: _fzf_compgen_path
// and _fzf_compgen_dir list candidates below a folder, _fzf_comprun runs the picker (its first
// argument is the command being completed), _fzf_complete_CMD is a command's own completion,
// built on _fzf_complete (and _fzf_complete_CMD_post to turn picked lines into words). pick's
// own names (_pick_compgen_path, _pick_compgen_dir, _pick_comprun, _pick_complete_CMD) come
// first when both are defined. The options pick gets: PICK_DEFAULT_OPTS, then
// FZF_COMPLETION_OPTS and PICK_COMPLETION_OPTS, then for paths FZF_COMPLETION_PATH_OPTS and
// PICK_COMPLETION_PATH_OPTS (folders: _DIR_OPTS), so the later ones win.
//
// Picked paths are quoted for the shell; lines of a command's own completion go in as they
// are (as fzf's do: the _post function quotes them if it must). The word is never evaluated:
// only a leading `~/` is read as the home folder.
//
// bash: one completion function wraps what was there. It is the default completion
// (`complete -D`), keeping the previous default (bash-completion's loader; a spec it loads is
// wrapped in turn), and it replaces the function of every command that had one when the
// script was loaded. Specs without a function (`complete -d cd`) are left alone.
// zsh: a widget on Tab that calls the widget Tab had when there is no trigger.

enum TriggerCompletionScripts {
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash
        case "zsh": return zsh
        default: return nil
        }
    }

    /// What bash and zsh complete `kill **` and `ssh **` (scp, sftp, telnet) from, alike in both.
    private static let hostAndProcessCompleters = #"""
    __pick_list_processes() {
      command ps -eo user,pid,ppid,start,time,command 2>/dev/null || command ps -eo user,pid,ppid,time,args
    }
    _fzf_complete_kill() {
      _fzf_complete --multi --header-lines=1 -- "$@" < <(__pick_list_processes)
    }
    _fzf_complete_kill_post() { command awk '{ print $2 }'; }

    # Host names, each once: Host lines of ~/.ssh/config without patterns, known_hosts'
    # first field (not hashed ones), the names of /etc/hosts.
    __pick_list_hosts() {
      {
        command awk 'tolower($1) == "host" { for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) print $i }' \
          "$HOME/.ssh/config" 2>/dev/null
        command awk '$1 !~ /^[|@#]/ { n = split($1, h, ","); for (i = 1; i <= n; i++) { sub(/^\[/, "", h[i]); sub(/\]:.*/, "", h[i]); print h[i] } }' \
          "$HOME/.ssh/known_hosts" 2>/dev/null
        command awk '$1 !~ /^#/ { for (i = 2; i <= NF && $i !~ /^#/; i++) print $i }' /etc/hosts 2>/dev/null
      } | command awk 'NF && !seen[$0]++'
    }
    # The hosts, after the word's `user@` when it has one (`ssh me@**`), as fzf's. Its
    # arguments: the completion's.
    __pick_list_user_hosts() {
      local REPLY user=
      __pick_word "$@"
      [[ $REPLY == *@* ]] && user=${REPLY%%@*}@
      __pick_list_hosts | command awk -v user="$user" '{ print user $0 }'
    }
    _fzf_complete_ssh() { _fzf_complete +m -- "$@" < <(__pick_list_user_hosts "$@"); }
    _fzf_complete_scp() { _fzf_complete +m -- "$@" < <(__pick_list_user_hosts "$@"); }
    _fzf_complete_sftp() { _fzf_complete +m -- "$@" < <(__pick_list_user_hosts "$@"); }
    _fzf_complete_telnet() { _fzf_complete +m -- "$@" < <(__pick_list_hosts); }
    """#

    static let bash = #"""
    # pick's fuzzy completion for bash: WORD** then Tab (see pick(1), SHELL INTEGRATION).
    if [[ $- == *i* ]] && (( BASH_VERSINFO[0] >= 4 )); then

    declare -gA __pick_orig_complete=()
    __pick_orig_default=

    __pick_trigger() { REPLY=${PICK_COMPLETION_TRIGGER-${FZF_COMPLETION_TRIGGER-'**'}}; }

    # Runs the picker for the command $1 with the options after it.
    __pick_comprun() {
      if declare -F _pick_comprun >/dev/null; then _pick_comprun "$@"
      elif declare -F _fzf_comprun >/dev/null; then _fzf_comprun "$@"
      else shift; command pick "$@"
      fi
    }

    # The completion's answer: $1 (words, already quoted) in place of the word, or the word
    # left as it was when nothing was picked. A folder last gets no space after it (as fzf's
    # `cd **`: the path can go on).
    __pick_reply() {
      compopt +o filenames 2>/dev/null
      if [[ -n $1 ]]; then
        COMPREPLY=("$1")
        [[ $1 == */ ]] && compopt -o nospace 2>/dev/null
      else compopt -o nospace 2>/dev/null; COMPREPLY=("${COMP_WORDS[COMP_CWORD]}")
      fi
    }

    # Paths (kind path) or folders (kind dir) below the folder the word names, the rest of
    # the word as the query. $1 kind, $2 command, $3 word without the trigger.
    __pick_complete_paths() {
      local kind=$1 cmd=$2 base=$3 dir= query gen multi=--multi item picked opts
      [[ $base == '~/'* ]] && base=$HOME/${base#'~/'}
      [[ $base == */* ]] && dir=$base
      while [[ -n $dir && ! -d $dir ]]; do
        dir=$(command dirname -- "$dir")/
        [[ $dir == ./ && $base != ./* ]] && dir=
      done
      query=${base#"$dir"}
      query=${query#/}
      [[ -z $dir ]] && dir=.
      [[ $dir != / ]] && dir=${dir%/}
      if [[ $kind == dir ]]; then
        multi= opts="${FZF_COMPLETION_DIR_OPTS-} ${PICK_COMPLETION_DIR_OPTS-}"
      else
        opts="${FZF_COMPLETION_PATH_OPTS-} ${PICK_COMPLETION_PATH_OPTS-}"
      fi
      gen=_pick_compgen_$kind
      declare -F "$gen" >/dev/null || gen=_fzf_compgen_$kind
      picked=$(set +o pipefail
        export PICK_DEFAULT_OPTS="--height 40% ${PICK_DEFAULT_OPTS-} ${FZF_COMPLETION_OPTS-} ${PICK_COMPLETION_OPTS-} $opts"
        if declare -F "$gen" >/dev/null; then
          "$gen" "$dir" | __pick_comprun "$cmd" --plain $multi --query "$query"
        elif [[ $kind == dir ]]; then
          __pick_comprun "$cmd" --plain --query "$query" --walker dir,follow --walker-root "$dir" </dev/tty
        else
          __pick_comprun "$cmd" --plain --multi --query "$query" --walker file,dir,follow,hidden --walker-root "$dir" </dev/tty
        fi | while IFS= read -r item; do printf '%q ' "$item"; done)
      __pick_reply "${picked% }"
    }

    # Lines from standard input, picked with the options before --; the words after -- are
    # the completion's (command, word, previous word). As fzf's _fzf_complete.
    _fzf_complete() {
      local opts=() rest=() str_arg= cur picked post=${FUNCNAME[1]}_post REPLY
      while (( $# )) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
      if (( $# )); then shift; rest=("$@")
      else str_arg=${opts[0]-}; rest=("${opts[@]:1}"); opts=()
      fi
      declare -F "$post" >/dev/null || post='command cat'
      cur=${COMP_WORDS[COMP_CWORD]}
      __pick_trigger
      if [[ $cur == *"$REPLY" ]]; then
        cur=${cur%"$REPLY"}
        picked=$(set +o pipefail
          PICK_DEFAULT_OPTS="--height 40% ${PICK_DEFAULT_OPTS-} ${FZF_COMPLETION_OPTS-} ${PICK_COMPLETION_OPTS-} $str_arg" \
            __pick_comprun "${rest[0]-}" --plain "${opts[@]}" --query "$cur" | $post | command tr '\n' ' ')
        __pick_reply "${picked% }"
      else
        __pick_complete_normally "${rest[@]}"
      fi
    }
    _pick_complete() { _fzf_complete "$@"; }

    \#(hostAndProcessCompleters)
    # The word being completed as readline replaces it (the completion's second argument):
    # `@**` in `ssh me@**`, where COMP_WORDS ends `me`, `@`, `**`.
    __pick_word() { REPLY=${2-}; }

    # Exported variables, as fzf's (FZF_COMPLETION_VAR_COMMANDS).
    _fzf_complete_export() { _fzf_complete -m -- "$@" < <(compgen -e); }
    _fzf_complete_unset() { _fzf_complete -m -- "$@" < <(compgen -e); }
    _fzf_complete_printenv() { _fzf_complete -m -- "$@" < <(compgen -e); }
    _fzf_complete_unalias() { _fzf_complete -m -- "$@" < <(compgen -a); }

    # What Tab did before: the command's own function, else the previous default (bash-
    # completion's loader answers 124 when it loaded a spec: wrap that one too), else
    # nothing (the spec's -o default then completes file names).
    __pick_complete_normally() {
      local cmd=${1##*/} func=${__pick_orig_complete[${1##*/}]-} status
      if [[ -n $func ]]; then "$func" "$@"; return; fi
      [[ -n $__pick_orig_default ]] || return 0
      "$__pick_orig_default" "$@"; status=$?
      (( status == 124 )) && __pick_wrap "$1"
      return "$status"
    }

    __pick_complete_trigger() {
      local cmd=${1##*/} cur=${COMP_WORDS[COMP_CWORD]} REPLY func
      __pick_trigger
      if [[ $cur != *"$REPLY" || $cur == *'$('* || $cur == *'`'* ]]; then
        __pick_complete_normally "$@"; return
      fi
      for func in "_pick_complete_$cmd" "_fzf_complete_$cmd"; do
        if declare -F "$func" >/dev/null; then "$func" "$@"; return; fi
      done
      case " ${FZF_COMPLETION_DIR_COMMANDS-cd pushd rmdir} " in
        *" $cmd "*) __pick_complete_paths dir "$cmd" "${cur%"$REPLY"}" ;;
        *) __pick_complete_paths path "$cmd" "${cur%"$REPLY"}" ;;
      esac
    }

    # Puts __pick_complete_trigger in place of the function of each command named.
    __pick_wrap() {
      local line func cmd
      while IFS= read -r line; do
        [[ $line =~ \ -F\ ([^ ]+)\ (.*)$ ]] || continue
        func=${BASH_REMATCH[1]} cmd=${BASH_REMATCH[2]}
        [[ $func == __pick_complete_trigger || $cmd == -D || $cmd == *\ * ]] && continue
        __pick_orig_complete[$cmd]=$func
        eval "${line/ -F $func / -F __pick_complete_trigger }"
      done < <(complete -p -- "$@" 2>/dev/null)
    }

    if [[ $(complete -p -D 2>/dev/null) =~ \ -F\ ([^ ]+) ]]; then
      [[ ${BASH_REMATCH[1]} != __pick_complete_trigger ]] && __pick_orig_default=${BASH_REMATCH[1]}
    fi
    __pick_wrap $(complete -p 2>/dev/null | command awk '/ -F / && !/ -D$/ { print $NF }')
    complete -D -o default -o bashdefault -F __pick_complete_trigger

    fi

    """#

    static let zsh = #"""
    # pick's fuzzy completion for zsh: WORD** then Tab (see pick(1), SHELL INTEGRATION).
    if [[ -o interactive ]]; then

    # Runs the picker for the command $1 with the options after it.
    __pick_comprun() {
      if (( $+functions[_pick_comprun] )); then _pick_comprun "$@"
      elif (( $+functions[_fzf_comprun] )); then _fzf_comprun "$@"
      else shift; command pick "$@"
      fi
    }

    # Paths (kind path) or folders (kind dir) below the folder the word names, the rest of
    # the word as the query. $1 kind, $2 the word without the trigger, $3 the line before it.
    __pick_complete_paths() {
      setopt localoptions pipefail no_aliases 2>/dev/null
      local kind=$1 base=$2 lbuf=$3 dir= query gen multi=--multi item picked= opts
      [[ $base == '~/'* ]] && base=$HOME/${base#'~/'}
      base=${(Q)base}
      [[ $base == */* ]] && dir=$base
      while [[ -n $dir && ! -d $dir ]]; do
        dir=${dir:h}/
        [[ $dir == ./ && $base != ./* ]] && dir=
      done
      query=${base#"$dir"}
      query=${query#/}
      [[ -z $dir ]] && dir=.
      [[ $dir != / ]] && dir=${dir%/}
      if [[ $kind == dir ]]; then
        multi= opts="${FZF_COMPLETION_DIR_OPTS-} ${PICK_COMPLETION_DIR_OPTS-}"
      else
        opts="${FZF_COMPLETION_PATH_OPTS-} ${PICK_COMPLETION_PATH_OPTS-}"
      fi
      gen=_pick_compgen_$kind
      (( $+functions[$gen] )) || gen=_fzf_compgen_$kind
      for item in "${(@f)$(
        export PICK_DEFAULT_OPTS="--height 40% ${PICK_DEFAULT_OPTS-} ${FZF_COMPLETION_OPTS-} ${PICK_COMPLETION_OPTS-} $opts"
        if (( $+functions[$gen] )); then
          $gen "$dir" | __pick_comprun "$cmd_word" --plain $multi --query "$query"
        elif [[ $kind == dir ]]; then
          __pick_comprun "$cmd_word" --plain --query "$query" --walker dir,follow --walker-root "$dir" </dev/tty
        else
          __pick_comprun "$cmd_word" --plain --multi --query "$query" --walker file,dir,follow,hidden --walker-root "$dir" </dev/tty
        fi)}"; do
        [[ -n $item ]] && picked+="${(q)item} "
      done
      # A folder last gets no space after it (as fzf's `cd **`).
      [[ $picked == */\  ]] && picked=${picked% }
      [[ -n $picked ]] && LBUFFER="$lbuf$picked"
    }

    # Lines from standard input, picked with the options before --; the word after -- is the
    # line before the word being completed. As fzf's _fzf_complete ($prefix, $cmd_word are
    # the caller's).
    _fzf_complete() {
      setopt localoptions no_aliases 2>/dev/null
      local -a opts rest
      local str_arg= picked post=${funcstack[2]}_post
      while (( $# )) && [[ $1 != -- ]]; do opts+=("$1"); shift; done
      if (( $# )); then shift; rest=("$@")
      else str_arg=${opts[1]-}; rest=("${(@)opts[2,-1]}"); opts=()
      fi
      (( $+functions[$post] )) || post=cat
      picked=$(PICK_DEFAULT_OPTS="--height 40% ${PICK_DEFAULT_OPTS-} ${FZF_COMPLETION_OPTS-} ${PICK_COMPLETION_OPTS-} $str_arg" \
        __pick_comprun "$cmd_word" --plain "${opts[@]}" --query "${(Q)prefix}" | $post | command tr '\n' ' ')
      [[ -n $picked ]] && LBUFFER="${rest[1]-}$picked"
    }
    _pick_complete() { _fzf_complete "$@"; }

    \#(hostAndProcessCompleters)
    # The word being completed, without the trigger (pick-completion's $prefix).
    __pick_word() { REPLY=${(Q)prefix-}; }

    # Exported variables, as fzf's.
    _fzf_complete_export() { _fzf_complete -m -- "$@" < <(print -rl -- ${(k)parameters[(R)*export*]}); }
    _fzf_complete_unset() { _fzf_complete -m -- "$@" < <(print -rl -- ${(k)parameters[(R)*export*]}); }
    _fzf_complete_unalias() { _fzf_complete -m -- "$@" < <(print -rl -- ${(k)aliases}); }

    # Tab: the picker when the word ends in the trigger, else what Tab did before.
    pick-completion() {
      setopt localoptions noshwordsplit noksh_arrays noposixbuiltins 2>/dev/null
      zmodload zsh/parameter 2>/dev/null
      local trigger=${PICK_COMPLETION_TRIGGER-${FZF_COMPLETION_TRIGGER-'**'}}
      local -a tokens=(${(z)LBUFFER})
      local prefix lbuf cmd_word= token func
      [[ -z $trigger && ${LBUFFER[-1]} == ' ' ]] && tokens+=("")
      if (( ${#tokens} < 2 )) || [[ $LBUFFER != *"$trigger" || ${tokens[-1]} != *"$trigger" ]]; then
        zle ${__pick_default_completion:-expand-or-complete}
        return
      fi
      prefix=${tokens[-1]%"$trigger"}
      [[ $prefix == *'$('* || $prefix == *'`'* ]] && return
      lbuf=${LBUFFER%"${tokens[-1]}"}
      # The command: the first word of the last simple command that is not an assignment.
      for token in "${(@)tokens[1,-2]}"; do
        case $token in
          ';'|'|'|'||'|'&&'|'&'|'|&'|'('|'{') cmd_word= ;;
          *=*) [[ -z $cmd_word ]] || : ;;
          *) [[ -z $cmd_word ]] && cmd_word=${(Q)token} ;;
        esac
      done
      for func in _pick_complete_$cmd_word _fzf_complete_$cmd_word; do
        if (( $+functions[$func] )); then
          $func "$lbuf"
          __pick_bracketed_paste 2>/dev/null
          zle reset-prompt
          return
        fi
      done
      if (( ${${=FZF_COMPLETION_DIR_COMMANDS-cd pushd rmdir}[(Ie)$cmd_word]} )); then
        __pick_complete_paths dir "$prefix" "$lbuf"
      else
        __pick_complete_paths path "$prefix" "$lbuf"
      fi
      __pick_bracketed_paste 2>/dev/null
      zle reset-prompt
    }

    if [[ -z ${__pick_default_completion-} ]]; then
      __pick_default_completion=${${(s: :)$(bindkey '^I')}[2]}
      [[ $__pick_default_completion == (undefined-key|pick-completion) ]] && __pick_default_completion=
    fi
    zle -N pick-completion
    bindkey '^I' pick-completion

    fi

    """#
}
