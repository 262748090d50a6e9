#!/bin/sh
# install.sh: `make install PREFIX=...` into a scratch folder gives a
# working ludus, a module a stock lua5.4 can require, the scripts, and a
# Connect Four book that both find from any folder.  Prints TAP.  Needs
# the products already built (make test builds them).
#
# The real 7x6 book takes a minute to make: the install here is without
# it (INSTALL_BOOK=), and a small book made by connect4.make_book in its
# place stands for it.

bin=${1:-.}
prefix=$(cd "$(mktemp -d)" && pwd -P)
trap 'rm -rf "$prefix"' EXIT
. "$(dirname "$0")/tap.sh"

if [ "$bin" = . ]; then
  make --no-print-directory -s install PREFIX="$prefix" INSTALL_BOOK= >/dev/null 2>&1
else
  make --no-print-directory -s install SANITIZE=1 PREFIX="$prefix" INSTALL_BOOK= \
    >/dev/null 2>&1
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

# The book: made into the installation, then found by the installed ludus
# and ludus.so run from another folder, which solve the empty board from it.
book="$prefix/share/ludus/connect4-7x6.book"
"$prefix/bin/ludus" -e "assert(connect4.make_book('$book', {width = 5, height = 4, plies = 4}))" \
  >/dev/null 2>&1
check $? "a small book made into the installation"
probe='local c = require("ludus.connect4")
  local _, _, info = c.new{width = 5, height = 4}:solve()
  print(c.book().path, info.book)'
out=$(cd / && env -u LUDUS_BOOK "$prefix/bin/ludus" -e "$probe" 2>&1)
[ "$out" = "$book	true" ]
check $? "installed ludus solves the empty board from the installed book (got '$out')"
out=$(cd / && env -u LUDUS_BOOK LD_PRELOAD="${LUDUS_PRELOAD:-}" lua5.4 -e \
  "package.cpath='$prefix/lib/lua/5.4/?.so;'..package.cpath $probe" 2>&1)
[ "$out" = "$book	true" ]
check $? "installed ludus.so finds the installed book too (got '$out')"
echo "1..$n"
