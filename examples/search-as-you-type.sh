#!/bin/sh
# Search as you type, ported from fzf's ADVANCED.md (its ripgrep launcher, with grep):
# pick does not filter (--disabled); every change of the query runs grep again, a reload
# still running is killed by the next one, so typing fast costs one grep. ctrl-f turns
# pick's own fuzzy filter on over grep's last answer; Return opens the file at the line
# in $EDITOR.
#
#   sh examples/search-as-you-type.sh [QUERY]     (PICK names the binary)
pick=${PICK:-pick}
search='[ -n {q} ] && grep -rnI --color=never -e {q} . 2>/dev/null || true'
: | "$pick" --disabled --query "${1:-}" --prompt 'grep> ' -d : \
    --header 'type to grep · ctrl-f: filter these · enter: edit' \
    --bind "start:reload:$search" \
    --bind "change:reload:sleep 0.1; $search" \
    --bind 'ctrl-f:unbind(change)+enable-search+change-prompt(filter> )' \
    --bind "enter:become(${EDITOR:-vi} {1} +{2})"
