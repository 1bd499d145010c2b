#!/bin/sh
# A command palette over examples/palette.tsv: pick a command by its name, its section or
# a keyword, or press its shortcut; the command runs in this shell's directory.
#
# palette.tsv has five tab-separated fields: TITLE, SECTION, KEYWORDS, SHORTCUT, COMMAND.
# With --palette, pick reads the first four (the title, grouped under its section, with
# the shortcut at the right) and ignores the fifth; it prints the whole line back, and
# this script runs the fifth field. Usage: palette.sh [PICK OPTIONS...], e.g. palette.sh --height 50%;
# PALETTE=FILE uses another palette.
palette=${PALETTE:-$(dirname "$0")/palette.tsv}
line=$(pick --palette --prompt 'run> ' --header 'Enter runs; the shortcut on the right runs at once' "$@" < "$palette") || exit
command=$(printf '%s\n' "$line" | cut -f5)
[ -n "$command" ] || { echo "palette: no command on the line '$line'" >&2; exit 2; }
printf '%s\n' "$command" >&2
exec sh -c "$command"
