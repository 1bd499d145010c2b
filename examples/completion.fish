# Completion for another command through pick, in fish: `deploy` (examples/deploy), whose
# targets are listed one a line in $DEPLOY_TARGETS. Source this file from config.fish.
#
# Two forms:
#   __deploy_complete        Tab completes the word as usual, with pick --complete choosing
#                            the candidates. The default below.
#   deploy-pick-or-complete  a function for Tab: on `deploy WORD` it opens pick (inline, 40%
#                            of the terminal) over the targets, with WORD as the query, and
#                            inserts the choice; anywhere else it completes as usual. To use it:
#                              bind \t deploy-pick-or-complete

function __deploy_targets
    set -l file ~/.config/deploy/targets
    set -q DEPLOY_TARGETS; and set file $DEPLOY_TARGETS
    command cat -- $file 2>/dev/null
end

function __deploy_complete
    set -l word (commandline -ct)
    if test -z "$word"
        __deploy_targets
    else
        __deploy_targets | command pick --plain --complete "$word" --limit 100
        # Nothing left to complete when the word already is a whole target.
        or __deploy_targets | command grep -xF -- "$word"
    end
end

complete -c deploy -f -n '__fish_is_first_arg' -a '(__deploy_complete)'

function deploy-pick-or-complete
    set -l words (commandline -opc)
    if test (count $words) -eq 1 -a "$words[1]" = deploy
        set -l word (commandline -ct)
        # pick draws from the start of the prompt's row, where fish repaints.
        printf '\r' >/dev/tty
        set -l choice (__deploy_targets | command pick --plain --height 40% --query "$word" --select-1 --exit-0)
        and commandline -t -- (string escape -- $choice)' '
        commandline -f repaint
    else
        commandline -f complete
    end
end
