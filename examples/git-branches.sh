#!/bin/sh
# A git branch picker, ported from fzf's recipes (fzf-git.sh, the wiki): the preview shows
# the branch's recent commits; Return switches to the branch; ctrl-d deletes it if merged
# (ctrl-x: even if not) and lists the branches again; ctrl-r lists them again; ctrl-/
# moves the preview below, hides it, and puts it back.
#
#   sh examples/git-branches.sh          (inside a git repository; PICK names the binary)
pick=${PICK:-pick}
list='git branch --format="%(refname:short)"'
sh -c "$list" | "$pick" \
    --header 'enter: switch · ctrl-d: delete · ctrl-r: reload · ctrl-/: preview' \
    --preview 'git log --oneline --decorate --color=always -15 {}' \
    --bind "ctrl-d:execute-silent(git branch -d {})+reload($list)" \
    --bind "ctrl-x:execute-silent(git branch -D {})+reload($list)" \
    --bind "ctrl-r:reload($list)" \
    --bind 'ctrl-/:change-preview-window(down,50%|hidden|)' \
    --bind 'enter:become(git switch {})'
