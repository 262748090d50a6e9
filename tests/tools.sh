#!/bin/sh
# tools.sh: the trainers (tools/train_reversi.c, tools/train_xiangqi.c)
# on a tiny run and on bad input: each refusal says what was wrong and
# writes no weights.
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

# The xiangqi trainer (tools/train_xiangqi.c) on two master games, and
# on bad input.
train=${1:-build/release/tools}/train_xiangqi
games=${LUDUS_DATA:-../shared/data}/xiangqi/pgn/ccpd-masters
"$train" positions "$dir/xp" 1000 "$games/game001.pgn" "$games/game002.pgn" \
  >/dev/null 2>&1 && [ "$(grep -c '|1|1$' "$dir/xp")" -gt 10 ]
check $? "xiangqi positions of two games, the first won by red"
"$train" fit "$dir/xp" "$dir/w" 50 >/dev/null 2>&1 &&
  grep -q "const int16_t xq_weights\[XQ_WEIGHTS\]" "$dir/w"
check $? "xiangqi fit writes weights"

refuses "xiangqi: no arguments" "usage"
refuses "xiangqi: nodes not a number" "NODES must be a whole number above 0" \
  positions "$dir/xp2" 1e5 "$games/game001.pgn"
refuses "xiangqi: missing games" "cannot read" positions "$dir/xp2" 10 "$dir/none.pgn"
refuses "xiangqi: no epochs" "EPOCHS must be" fit "$dir/xp" "$dir/w" 0
refuses "xiangqi: negative lambda" "LAMBDA must be" fit "$dir/xp" "$dir/w" 10 -1
refuses "xiangqi: missing positions" "cannot read" fit "$dir/none" "$dir/w"
: >"$dir/empty"
refuses "xiangqi: empty positions" "no positions to fit" fit "$dir/empty" "$dir/w"
echo "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|1" >"$dir/xbad"
refuses "xiangqi: a line without its game" "line 1 of .* is not a position" \
  fit "$dir/xbad" "$dir/w"
echo "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1|2|1" >"$dir/xbad"
refuses "xiangqi: a result that is none" "the result is 1, 0.5 or 0" fit "$dir/xbad" "$dir/w"
echo "rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNQ w - - 0 1|1|1" >"$dir/xbad"
refuses "xiangqi: a bad FEN" "line 1 of .* is not a position" fit "$dir/xbad" "$dir/w"

echo "1..$n"
