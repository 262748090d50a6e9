#!/bin/sh
# tools.sh: the reversi trainer (tools/train_reversi.c) on a tiny run and
# on bad input: each refusal says what was wrong and writes no weights.
# Prints TAP.  Needs the trainer built (make test builds it).
#
#   sh tests/tools.sh TOOLS_DIR

train=${1:-build/release/tools}/train_reversi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/tap.sh"

# refuses NAME EXPECTED-MESSAGE ARGS...: exits non-zero, says it, no weights.
refuses() {
  name=$1
  expected=$2
  shift 2
  rm -f "$dir/w"
  out=$("$train" "$@" 2>&1)
  status=$?
  [ "$status" -ne 0 ] && [ ! -e "$dir/w" ] && echo "$out" | grep -q -- "$expected"
  check $? "$name (got: $out)"
}

"$train" positions "$dir/p" 3 7 1 >/dev/null 2>&1
check $? "positions of 3 games"
[ -s "$dir/p" ] && [ $(($(wc -c <"$dir/p") % 24)) -eq 0 ]
check $? "whole 24-byte positions written"
"$train" fit "$dir/w" "$dir/p" >/dev/null 2>&1 && [ "$(head -c 4 "$dir/w")" = RVW2 ]
check $? "fit writes weights"

refuses "no arguments" "usage" 
refuses "games not a number" "GAMES must be a whole number" positions "$dir/p2" abc 1
refuses "no threads" "THREADS must be" positions "$dir/p2" 10 1 0
refuses "first past the games" "FIRST must be" positions "$dir/p2" 10 1 2 10
refuses "negative lambda" "LAMBDA must be a number above 0" fit "$dir/w" "$dir/p" -3
refuses "missing positions" "No such file" fit "$dir/w" "$dir/none"
: >"$dir/empty"
refuses "empty positions" "holds no positions" fit "$dir/w" "$dir/empty"
head -c 50 "$dir/p" >"$dir/truncated"
refuses "truncated positions" "not a whole number of 24-byte positions" \
  fit "$dir/w" "$dir/truncated"
head -c 48 /dev/zero | tr '\0' '\377' >"$dir/junk"
refuses "not positions" "position 1 of .* is not one" fit "$dir/w" "$dir/junk"

echo "1..$n"
