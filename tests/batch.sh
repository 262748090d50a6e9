#!/bin/sh
# batch.sh: `ludus solve|replay|annotate|merge` on the reference data:
# answers that agree with the files' own, one line a record in the input's
# order whatever the jobs, shards that merge into the whole run (by hand
# and with GNU parallel), --resume after a run cut short, Ctrl-C, and bad
# input that gives error lines while the batch goes on.  TAP on stdout.
#
#   sh tests/batch.sh BIN_DIR DATA_DIR

bin=${1:-.}
data=${2:-../shared/data}
LUDUS_BOOK=                        # no opening book: the nodes are the solver's
export LUDUS_BOOK
ludus="$bin/ludus"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/tap.sh"

# The lines without what changes from run to run: the time, and the
# nodes (a worker's table keeps what earlier records taught it).
answers() { sed 's/,"seconds":[0-9.e-]*//; s/,"nodes":[0-9]*//' "$@"; }

# field NAME FILE: the values of a numeric or boolean member, one a line.
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" "$2"; }

L3="$data/connect4/Test_L3_R1"

# -- answers that agree, in order --
"$ludus" solve connect4 "$L3" --jobs 1 --quiet >"$dir/one" 2>"$dir/err"
status=$?
[ "$status" = 0 ] && [ "$(wc -l <"$dir/one")" = 1000 ] &&
  [ "$(field agrees "$dir/one" | sort -u)" = true ] &&
  grep -q "1000 records (0 errors, 0 disagree, 1000 agree)" "$dir/err"
check $? "connect4: Pons' Test_L3_R1 solved, every score agrees (status $status)"

head -n 1 "$dir/one" | grep -q '^{"id":"[^"]*Test_L3_R1:1","moves":"2252576253462244111563365343671351441","score":-1,"best":6,'
check $? "connect4: a line has the id, the moves, the score and a best column"

"$ludus" solve connect4 "$L3" --jobs 3 --quiet >"$dir/three" 2>/dev/null
answers "$dir/one" >"$dir/one.a"
answers "$dir/three" >"$dir/three.a"
cmp -s "$dir/one.a" "$dir/three.a"
check $? "connect4: three jobs write what one writes, in the same order"

sed -n 's/.*"id":"[^"]*:\([0-9]*\)".*/\1/p' "$dir/three" >"$dir/ids"
seq 1 1000 | cmp -s - "$dir/ids"
check $? "the ids follow the input's lines"

# -- shards --
"$ludus" solve connect4 "$L3" --shard 1/3 --quiet >"$dir/s1" 2>/dev/null
"$ludus" solve connect4 "$L3" --shard 2/3 --jobs 2 --quiet >"$dir/s2" 2>/dev/null
"$ludus" solve connect4 "$L3" --shard 3/3 --jobs 1 --quiet >"$dir/s3" 2>/dev/null
[ "$(wc -l <"$dir/s1")" = 334 ] && [ "$(wc -l <"$dir/s3")" = 333 ]
check $? "--shard K/3 takes every third record from the K-th"
"$ludus" merge "$dir/s1" "$dir/s2" "$dir/s3" | answers >"$dir/merged.a"
cmp -s "$dir/one.a" "$dir/merged.a"
check $? "merge puts the three shards back together as one run"

if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 "$ludus" solve connect4 "$L3" --shard {}/2 --jobs 1 \
    --quiet --out "$dir/p{}" ::: 1 2 2>/dev/null
  "$ludus" merge "$dir/p1" "$dir/p2" | answers >"$dir/parallel.a"
  cmp -s "$dir/one.a" "$dir/parallel.a"
  check $? "GNU parallel: two shards at once, merged, are the whole run"
else
  check 1 "GNU parallel is not installed (make deps installs it)"
fi

# -- resume --
head -n 400 "$dir/one" >"$dir/cut"
printf '{"id":"half a li' >>"$dir/cut"          # a run killed mid-line
"$ludus" solve connect4 "$L3" --out "$dir/cut" --resume --quiet 2>"$dir/err"
answers "$dir/cut" >"$dir/cut.a"
cmp -s "$dir/one.a" "$dir/cut.a" && grep -q "600 records.*400 done before" "$dir/err"
check $? "--resume drops the cut line and does only the 600 records left"

# -- Ctrl-C, then resume --
L2="$data/connect4/Test_L1_R2"
"$ludus" solve connect4 "$L2" --jobs 2 --quiet --out "$dir/int" 2>"$dir/err" &
pid=$!
sleep 1
kill -INT "$pid"
wait "$pid"
status=$?
lines=$(wc -l <"$dir/int")
tail -c 1 "$dir/int" | od -c | grep -q '\\n' || [ "$lines" = 0 ]
whole=$?
[ "$status" = 130 ] && [ "$whole" = 0 ] && [ "$lines" -lt 1000 ] &&
  grep -q "interrupted: --resume carries on" "$dir/err"
check $? "Ctrl-C stops the run with status 130 after $lines whole lines"
sed -n 's/.*"id":"[^"]*:\([0-9]*\)".*/\1/p' "$dir/int" >"$dir/ids"
seq 1 "$lines" | cmp -s - "$dir/ids"
check $? "what Ctrl-C left is the first $lines records, in order"

# -- bad input --
late=2252576253462244111563365343671351441         # Test_L3_R1, line 1
printf '\357\273\277%s -1\r\n\n12x4 3\n1111111\n1212121\n%s 7 8\n' "$late" "$late" >"$dir/bad"
"$ludus" solve connect4 "$dir/bad" --quiet >"$dir/badout" 2>"$dir/err"
status=$?
[ "$status" = 1 ] && [ "$(wc -l <"$dir/badout")" = 6 ] &&
  grep -q '"id":"[^"]*bad:1".*"score"' "$dir/badout" &&
  grep -q '"id":"[^"]*bad:2","error":"a blank line"' "$dir/badout" &&
  grep -q '"id":"[^"]*bad:3".*"error":"' "$dir/badout" &&
  grep -q '"id":"[^"]*bad:4".*"illegal":{"ply":7,"move":"1","reason":"a full column"}' "$dir/badout" &&
  grep -q '"id":"[^"]*bad:5".*"error":"the game is over (yellow won)"' "$dir/badout" &&
  grep -q '"id":"[^"]*bad:6".*"error":"' "$dir/badout" &&
  grep -q "6 records (5 errors" "$dir/err"
check $? "bad lines (BOM, CRLF, blank, garbage, full column, over) give error lines, and the rest goes on"

head -c 3000 /dev/urandom >"$dir/garbage"
"$ludus" solve connect4 "$dir/garbage" --quiet >"$dir/gout" 2>/dev/null
[ $? = 1 ] && ! grep -qv '"error"' "$dir/gout"
check $? "binary garbage: an error line for every record, no crash"

# -- the other commands and games --
head -n 20 "$L3" >"$dir/twenty"
"$ludus" replay connect4 "$dir/twenty" --quiet >"$dir/replay" 2>/dev/null
[ $? = 0 ] && [ "$(wc -l <"$dir/replay")" = 20 ] &&
  head -n 1 "$dir/replay" | grep -q '"moves":37,"rows":\[.*\],"result":null'
check $? "connect4 replay: moves, rows and result of every line"

# the first moves of a game are the hard ones: a time per move leaves
# them open, and the last ones are exact
echo "$late" | "$ludus" annotate connect4 - --time 0.05 --quiet >"$dir/ann" 2>/dev/null
[ $? = 0 ] && grep -q '"ply":37,"move":1,"score":1,"best":3,"best_move":6,"loss":2,"mistake":false' "$dir/ann" &&
  grep -q '"mistakes":' "$dir/ann"
check $? "connect4 annotate: every move's exact score against the best"

head -n 300 "$data/sudoku/puzzles7_serg_counts" >"$dir/serg"
"$ludus" solve sudoku "$dir/serg" --quiet >"$dir/sout" 2>"$dir/err"
[ $? = 0 ] && grep -q "agree)" "$dir/err" && ! grep -q '"agrees":false' "$dir/sout"
check $? "sudoku: the counts of puzzles7_serg_counts agree"

"$ludus" solve sudoku "$data/sudoku/puzzles2_17_clue" --quiet --csv >"$dir/csv" 2>/dev/null
[ $? = 0 ] && [ "$(head -n 1 "$dir/csv")" = "id,solutions,solution,guesses,seconds" ] &&
  [ "$(wc -l <"$dir/csv")" = 49159 ]
check $? "--csv: a header and a row a puzzle (49,158 17-clue puzzles)"

"$ludus" solve chess "$L3" >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "no solve for 'chess'" "$dir/err"
check $? "an unknown game is refused with the list of games"
"$ludus" solve connect4 --jobs 0 "$L3" >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q -- "--jobs takes a whole number" "$dir/err"
check $? "a bad option value is refused, saying what is right"
"$ludus" solve --help | grep -q -- "--shard K/N"
check $? "ludus solve --help lists the options"

# -- xiangqi --
xq="$data/xiangqi/pgn"
"$ludus" replay xiangqi "$xq"/iccs/* "$xq"/ccpd-masters/* --quiet --jobs 2 >"$dir/xq" 2>"$dir/err"
[ $? = 0 ] && [ "$(wc -l <"$dir/xq")" = 1225 ] && ! grep -q '"error"\|"illegal"' "$dir/xq" &&
  grep -q "1225 records (0 errors" "$dir/err"
check $? "xiangqi replay: the 1,225 games of the ICCS and CCPD files, every move legal"

"$ludus" replay xiangqi "$xq"/ccpd-mates/* --quiet >"$dir/xqm" 2>"$dir/err"
[ $? = 0 ] && grep -q "(0 errors, 0 disagree, 17 agree)" "$dir/err" &&
  [ "$(grep -c '"result":"\(1-0\|0-1\)","reason":"[a-z]*","recorded":"\1","agrees":true' "$dir/xqm")" = 17 ]
check $? "xiangqi replay: the 17 mate records that end mated agree with their [Result]"

# a record cut in the middle of a move, and a move that is not legal
printf '[Event "cut"]\n\n1. h2e2 h9g7 2. h0g\n\n[Event "bad"]\n\n1. h2e2 h9g7 2. h0h5 *\n' >"$dir/xqbad.pgn"
"$ludus" replay xiangqi "$dir/xqbad.pgn" --quiet >"$dir/xqb" 2>/dev/null
[ $? = 1 ] && [ "$(wc -l <"$dir/xqb")" = 2 ] &&
  grep -q '"id":"[^"]*xqbad.pgn#2".*"illegal":{"ply":3,"move":"h0h5"' "$dir/xqb"
check $? "xiangqi replay: a cut record and an illegal move are reported, ply and move"

printf '%s\n' '4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1 bm b7b9; dm 1; id "two rooks";' \
  '4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1 am b7b9;' '' 'not a fen' >"$dir/mate.epd"
"$ludus" solve xiangqi "$dir/mate.epd" --depth 3 --quiet >"$dir/xqs" 2>"$dir/err"
[ $? = 1 ] && [ "$(wc -l <"$dir/xqs")" = 3 ] &&
  grep -q '"epd_id":"two rooks",.*"move":"b7b9",.*"mate":1,.*"agrees":true' "$dir/xqs" &&
  grep -q '"id":"[^"]*mate.epd:2".*"am":\["b7b9"\],"agrees":false' "$dir/xqs" &&
  grep -q '"id":"[^"]*mate.epd:4","error":"bad FEN' "$dir/xqs"
check $? "xiangqi solve: EPD bm, dm and am checked against the search; a bad FEN is an error line"

"$ludus" annotate xiangqi "$xq"/ccpd-mates/mate001.pgn "$xq"/ccpd-mates/mate002.pgn \
  --depth 2 --records "$dir/ann.pgn" --quiet >"$dir/xqa" 2>/dev/null
"$ludus" replay xiangqi "$dir/ann.pgn" --quiet >"$dir/xqa2" 2>/dev/null
[ "$(field moves "$dir/xqa2" | tr '\n' ' ')" = "$(field moves "$dir/xqm" | head -n 2 | tr '\n' ' ')" ] &&
  grep -q '{-*[0-9]*, best [a-i][0-9][a-i][0-9] -*[0-9]*}' "$dir/ann.pgn" &&
  [ "$(grep -o '"loss":-' "$dir/xqa" | wc -l)" = 0 ]
check $? "xiangqi annotate: the PGN with comments reads back to the same moves; no loss below zero"

echo "1..$n"
