#!/bin/sh
# Installs pick from this release archive under a prefix, or uninstalls it.
#
#   ./install.sh [--prefix DIR] [--fzf-link]   install (default prefix: ~/.local)
#   ./install.sh [--prefix DIR] --uninstall    remove what it installed, and the fzf link
#   ./install.sh [--prefix DIR] --no-fzf-link  remove only the fzf link
#
# What it installs is what this folder holds under bin/ and share/, copied to the same
# places under the prefix; uninstalling removes exactly those files (and share/pick, pick's
# own folder), so run it from the same release. --fzf-link adds PREFIX/bin/fzf, a link to
# pick that makes every script running fzf run pick; it never replaces another fzf.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
prefix=${HOME:?}/.local
action=install
link=

usage() {
    echo "usage: install.sh [--prefix DIR] [--fzf-link | --uninstall | --no-fzf-link]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --prefix) [ $# -ge 2 ] || usage; prefix=$2; shift ;;
    --prefix=*) prefix=${1#--prefix=} ;;
    --fzf-link) link=yes ;;
    --uninstall) action=uninstall ;;
    --no-fzf-link) action=unlink ;;
    -h | --help) sed -n '2,11s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option: $1" >&2; usage ;;
    esac
    shift
done
case $prefix in
/*) ;;
*) prefix=$(pwd)/$prefix ;;
esac

# The archive's files, relative to it: bin/pick, share/man/man1/pick.1, ...
files() { (cd "$here" && find bin share -type f | LC_ALL=C sort); }

case $action in
install)
    files | while IFS= read -r file; do
        mode=644
        case $file in bin/*) mode=755 ;; esac
        mkdir -p "$prefix/$(dirname "$file")"
        # A copy beside the target, then a rename: a pick that is running keeps its file.
        cp "$here/$file" "$prefix/$file.new"
        chmod "$mode" "$prefix/$file.new"
        mv -f "$prefix/$file.new" "$prefix/$file"
    done
    echo "installed $("$prefix/bin/pick" --version) in $prefix"
    if [ -n "$link" ]; then
        "$here/fzf-link" add "$prefix/bin"
    fi
    case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "note: $prefix/bin is not on PATH; add it to use pick by name" ;;
    esac
    echo "shell key bindings (ctrl-t, ctrl-r, alt-c), one line in the shell's startup file:"
    echo "  bash: source $prefix/share/pick/key-bindings.bash"
    echo "  zsh:  source $prefix/share/pick/key-bindings.zsh"
    echo "  fish: source $prefix/share/pick/key-bindings.fish"
    case $prefix in
    /usr/local) ;;
    *) echo "zsh completion: fpath+=($prefix/share/zsh/site-functions) before compinit" ;;
    esac
    ;;
uninstall)
    files | while IFS= read -r file; do
        rm -f "$prefix/$file"
    done
    "$here/fzf-link" remove "$prefix/bin" --quiet
    rmdir "$prefix/share/pick" 2>/dev/null || true
    echo "uninstalled pick from $prefix"
    ;;
unlink)
    "$here/fzf-link" remove "$prefix/bin"
    ;;
esac
