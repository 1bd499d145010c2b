# Completion for another command through pick, in bash: `deploy` (examples/deploy), whose
# targets are listed one a line in $DEPLOY_TARGETS. Source this file from ~/.bashrc.
#
# Two forms:
#   _deploy_complete  Tab completes the word as usual, with pick --complete choosing the
#                     candidates (case and diacritics ignored; prefixes first, then words
#                     that contain the text). The default below.
#   _deploy_pick      Tab opens pick (inline, 40% of the terminal) over the targets, with
#                     the word typed so far as the query, and inserts the choice. To use it:
#                       complete -F _deploy_pick deploy

_deploy_targets() {
  command cat -- "${DEPLOY_TARGETS:-$HOME/.config/deploy/targets}" 2>/dev/null
}

_deploy_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]} line
  COMPREPLY=()
  (( COMP_CWORD == 1 )) || return 0
  if [[ -z $cur ]]; then
    # pick --complete suggests nothing for empty text: offer every target.
    while IFS= read -r line; do COMPREPLY+=("$line"); done < <(_deploy_targets)
    return 0
  fi
  while IFS= read -r line; do
    COMPREPLY+=("$line")
  done < <(_deploy_targets | command pick --plain --complete "$cur" --limit 100)
  # Nothing left to complete when the word already is a whole target: accept it.
  if (( ${#COMPREPLY[@]} == 0 )) && _deploy_targets | command grep -qxF -- "$cur"; then
    COMPREPLY=("$cur")
  fi
}

# bash does not redraw the line after a completion function; pick has drawn over it.
# Asking the terminal for its status (ESC [5n) makes it answer ESC [0n, which is bound
# here to redraw the line.
_deploy_pick() {
  local cur=${COMP_WORDS[COMP_CWORD]} choice
  COMPREPLY=()
  (( COMP_CWORD == 1 )) || return 0
  # pick draws from the start of the prompt's row, where the redraw happens.
  printf '\r' >/dev/tty
  choice=$(_deploy_targets | command pick --plain --height 40% --query "$cur" --select-1 --exit-0)
  printf '\e[5n' >/dev/tty
  [[ -n $choice ]] && COMPREPLY=("$choice")
}

if [[ $- == *i* ]]; then
  for _deploy_keymap in emacs-standard vi-insert vi-command; do
    bind -m "$_deploy_keymap" '"\e[0n": redraw-current-line'
  done
  unset _deploy_keymap
fi

complete -F _deploy_complete deploy
