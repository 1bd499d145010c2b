# Completion for another command through pick, in zsh: `deploy` (examples/deploy), whose
# targets are listed one a line in $DEPLOY_TARGETS. Source this file from ~/.zshrc, after
# `autoload -Uz compinit && compinit`.
#
# Two forms:
#   _deploy                  Tab completes the word as usual, with pick --complete
#                            choosing the candidates (case and diacritics ignored;
#                            prefixes first, then words that contain the text). The default.
#   deploy-pick-or-complete  a widget for Tab: on `deploy WORD` it opens pick (inline, 40%
#                            of the terminal) over the targets, with WORD as the query, and
#                            inserts the choice; anywhere else it completes as usual. To use it:
#                              bindkey '^I' deploy-pick-or-complete

_deploy_targets() {
  command cat -- "${DEPLOY_TARGETS:-$HOME/.config/deploy/targets}" 2>/dev/null
}

_deploy() {
  (( CURRENT == 2 )) || return 1
  local -a targets
  if [[ -z $PREFIX$SUFFIX ]]; then
    targets=( ${(f)"$(_deploy_targets)"} )
  else
    targets=( ${(f)"$(_deploy_targets | command pick --plain --complete "$PREFIX$SUFFIX" --limit 100)"} )
    # Nothing left to complete when the word already is a whole target: accept it.
    (( $#targets )) || targets=( ${(M)${(f)"$(_deploy_targets)"}:#${(b)PREFIX}${(b)SUFFIX}} )
  fi
  # -U: pick has matched already (a target may contain the word rather than start with it).
  compadd -U -- $targets
}
compdef _deploy deploy

deploy-pick-or-complete() {
  local -a words
  words=( ${(z)LBUFFER} )
  if [[ $words[1] == deploy && ( $#words == 2 && $LBUFFER != *' ' || $#words == 1 && $LBUFFER == *' ' ) ]]; then
    local cur=${words[2]-} choice
    # pick draws from the start of the prompt's row, where reset-prompt redraws.
    printf '\r' >/dev/tty
    choice=$(_deploy_targets | command pick --plain --height 40% --query "$cur" --select-1 --exit-0)
    [[ -n $choice ]] && LBUFFER="${LBUFFER[1,$#LBUFFER-$#cur]}${(q)choice} "
    zle reset-prompt
  else
    zle ${deploy_default_completion:-expand-or-complete}
  fi
}
zle -N deploy-pick-or-complete
deploy_default_completion=${$(bindkey '^I')[2]}
[[ $deploy_default_completion == deploy-pick-or-complete || $deploy_default_completion == undefined-key ]] &&
  deploy_default_completion=expand-or-complete
