#!/bin/sh
# install.sh: `make install PREFIX=...` into a scratch folder gives a
# working ludus, a module a stock lua5.4 can require, and the scripts.
# Prints TAP.  Needs the products already built (make test builds them).

bin=${1:-.}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
. "$(dirname "$0")/tap.sh"

if [ "$bin" = . ]; then
  make --no-print-directory -s install PREFIX="$prefix" >/dev/null 2>&1
else
  make --no-print-directory -s install SANITIZE=1 PREFIX="$prefix" >/dev/null 2>&1
fi
check $? "make install PREFIX=..."

out=$("$prefix/bin/ludus" -e 'print(require("ludus.tictactoe").new():turn())' 2>&1)
[ "$out" = x ]; check $? "installed ludus runs (got '$out')"

out=$(LD_PRELOAD="${LUDUS_PRELOAD:-}" lua5.4 -e "package.cpath='$prefix/lib/lua/5.4/?.so;'..package.cpath
  print(require('ludus').tictactoe.new():play('b2'):turn())" 2>&1)
[ "$out" = o ]; check $? "installed ludus.so loads in lua5.4 (got '$out')"

[ -f "$prefix/lib/libludus.a" ] && [ -f "$prefix/share/lua/5.4/ludus/help.lua" ] \
  && [ -d "$prefix/share/ludus/examples" ]
check $? "library, Lua modules and scripts installed"

MANPATH="$prefix/share/man" man --warnings ludus 2>&1 | grep -q 'ludus \\- \|ludus - a game engine'
check $? "man ludus finds the installed page"
echo "1..$n"
