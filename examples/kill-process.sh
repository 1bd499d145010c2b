#!/bin/sh
# A process picker, ported from fzf's wiki: type to find a process, Tab marks several,
# ctrl-k sends the marked ones (or the highlighted one) SIGTERM and lists the processes
# again, ctrl-r lists them again; Return prints the pids of the marked ones.
#
#   sh examples/kill-process.sh          (PICK names the binary)
pick=${PICK:-pick}
list='ps -eo pid,user,etime,args'
sh -c "$list" | "$pick" --multi --header-lines 1 \
    --header 'tab: mark · ctrl-k: kill · ctrl-r: reload · enter: print the pids' \
    --bind "ctrl-k:execute-silent(kill {+1})+reload($list)" \
    --bind "ctrl-r:reload($list)" |
    awk '{ print $1 }'
