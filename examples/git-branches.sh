#!/bin/sh
# A git branch picker, ported from fzf's recipes (fzf-git.sh, the wiki): Return switches
# to the branch, ctrl-d deletes it if merged (ctrl-x: even if not) and lists the branches
# again, ctrl-r lists them again. With a preview pane (once pick has --preview), the
# branch's recent commits show beside the list; until then ctrl-o shows them in a pager.
#
#   sh examples/git-branches.sh          (inside a git repository; PICK names the binary)
pick=${PICK:-pick}
list='git branch --format="%(refname:short)"'
set -- --header 'enter: switch · ctrl-d: delete · ctrl-r: reload · ctrl-o: log' \
    --bind "ctrl-d:execute-silent(git branch -d {})+reload($list)" \
    --bind "ctrl-x:execute-silent(git branch -D {})+reload($list)" \
    --bind "ctrl-r:reload($list)" \
    --bind 'ctrl-o:execute(git log --oneline --decorate -30 {} | ${PAGER:-less})' \
    --bind 'enter:become(git switch {})'
# fzf's preview, where this pick has one (an option pick lacks is exit status 2).
"$pick" --preview true --filter x </dev/null >/dev/null 2>&1
if [ $? -ne 2 ]; then
    set -- "$@" --preview 'git log --oneline --decorate --color=always -15 {}'
fi
sh -c "$list" | "$pick" "$@"
