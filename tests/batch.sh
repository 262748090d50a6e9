#!/bin/sh
# batch.sh: `ludus solve|replay|annotate|merge` on the reference data:
# answers that agree with the files' own, one line a record in the input's
# order whatever the jobs, shards that merge into the whole run (by hand
# and with GNU parallel), --resume after a run cut short, Ctrl-C, and bad
# input that gives error lines while the batch goes on; mahjong hands
# scored as mahjong.score scores them.  TAP on stdout.
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

"$ludus" solve sudoku "$data/sudoku/puzzles7_serg_counts" "$data/sudoku/../sudoku/puzzles7_serg_counts" \
  --quiet >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "the input '.*puzzles7_serg_counts' is named twice (its records would come twice, with the same ids)" "$dir/err"
check $? "an input named twice is refused: $(cat "$dir/err")"

# -- shards --
"$ludus" solve connect4 "$L3" --shard 1/3 --quiet >"$dir/s1" 2>/dev/null
"$ludus" solve connect4 "$L3" --shard 2/3 --jobs 2 --quiet >"$dir/s2" 2>/dev/null
"$ludus" solve connect4 "$L3" --shard 3/3 --jobs 1 --quiet >"$dir/s3" 2>/dev/null
[ "$(wc -l <"$dir/s1")" = 334 ] && [ "$(wc -l <"$dir/s3")" = 333 ]
check $? "--shard K/3 takes every third record from the K-th"
"$ludus" merge "$dir/s1" "$dir/s2" "$dir/s3" | answers >"$dir/merged.a"
cmp -s "$dir/one.a" "$dir/merged.a"
check $? "merge puts the three shards back together as one run"
"$ludus" merge "$dir/s1" "$dir/s1" >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "'.*s1' is named twice" "$dir/err"
check $? "merge refuses a shard named twice: $(cat "$dir/err")"
head -n 300 "$dir/s2" >"$dir/s2.short"
"$ludus" merge "$dir/s1" "$dir/s2.short" "$dir/s3" >"$dir/m" 2>"$dir/err"
[ $? = 1 ] && [ "$(wc -l <"$dir/m")" = 967 ] &&
  grep -q "has 334 lines and '.*s2.short' 300: not the shards of one run" "$dir/err"
check $? "merge says when a shard did not finish: $(cat "$dir/err")"
"$ludus" merge "$dir/s3" "$dir/s1" "$dir/s2" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "has 333 lines and '.*s1' 334" "$dir/err"
check $? "merge says when the shards are out of order: $(cat "$dir/err")"
"$ludus" merge "$dir/s1" "$dir/s3" "$dir/s2" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "s2' has .*L3_R1:2 after .*L3_R1:3: not the shards of one run in the order" "$dir/err"
check $? "merge says, by the ids, when shards of as many lines are out of order: $(cat "$dir/err")"
# --csv: each shard writes the header line; the merge writes it once
head -n 40 "$L3" >"$dir/l40"
"$ludus" solve connect4 "$dir/l40" --csv --quiet 2>/dev/null | sed 's/,[^,]*$//' >"$dir/one.csv"
for k in 1 2 3; do
  "$ludus" solve connect4 "$dir/l40" --csv --shard $k/3 --quiet >"$dir/c$k.csv" 2>/dev/null
done
"$ludus" merge "$dir/c1.csv" "$dir/c2.csv" "$dir/c3.csv" | sed 's/,[^,]*$//' >"$dir/merged.csv"
[ "$(wc -l <"$dir/one.csv")" = 41 ] && cmp -s "$dir/one.csv" "$dir/merged.csv"
check $? "merge puts --csv shards back together as one run's table, one header line"
head -c -1 "$dir/s3" >"$dir/s3.cut"    # its last newline gone
"$ludus" merge "$dir/s1" "$dir/s2" "$dir/s3.cut" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "s3.cut': its last line is cut short" "$dir/err"
check $? "merge says when a shard's last line is cut short: $(cat "$dir/err")"

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

# --resume reads back JSON lines only: a table, or a file that is not
# what a run writes, is refused rather than appended to
head -n 6 "$data/sudoku/puzzles7_serg_counts" >"$dir/sc.txt"
"$ludus" solve sudoku "$dir/sc.txt" --csv --out "$dir/c.csv" --quiet 2>/dev/null
cp "$dir/c.csv" "$dir/c0.csv"
"$ludus" solve sudoku "$dir/sc.txt" --csv --out "$dir/c.csv" --resume --quiet 2>"$dir/err"
[ $? = 2 ] && grep -q -- "--resume reads the ids of JSON lines; it cannot carry on a --csv table" "$dir/err" &&
  cmp -s "$dir/c0.csv" "$dir/c.csv"
check $? "--resume with --csv is refused, and the table is left as it was"
head -c 3000 /dev/urandom >"$dir/random"
cp "$dir/random" "$dir/random0"
"$ludus" solve sudoku "$dir/sc.txt" --out "$dir/random" --resume --quiet 2>"$dir/err"
status=$?
printf 'no newline' >"$dir/words"
"$ludus" solve sudoku "$dir/sc.txt" --out "$dir/words" --resume --quiet 2>>"$dir/err"
[ $? = 2 ] && [ "$status" = 2 ] && cmp -s "$dir/random0" "$dir/random" &&
  [ "$(cat "$dir/words")" = "no newline" ] &&
  [ "$(grep -c "is not the JSON lines of a run" "$dir/err")" = 2 ]
check $? "--resume onto random bytes, or a line that is not JSON, is refused and leaves the file"
# a shard resumed on another shard's output (a path mistyped, a job
# array's index off by one): refused, the file left as it was, its
# unfinished last line too
cp "$dir/s1" "$dir/s1x"
printf '{"id":"half a li' >>"$dir/s1x"
cp "$dir/s1x" "$dir/s1x0"
"$ludus" solve connect4 "$L3" --shard 2/3 --out "$dir/s1x" --resume --quiet 2>"$dir/err"
[ $? = 2 ] && cmp -s "$dir/s1x0" "$dir/s1x" &&
  grep -q -- "--resume: 334 of the 334 ids in '.*s1x' are not records of this run (another shard's" "$dir/err"
check $? "--resume refuses another shard's output and leaves it: $(cat "$dir/err")"

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

# -- a worker that dies --
# the first 100 positions of Test_L1_R2 take two workers a few seconds;
# one is killed after a second, and the run still answers them all
head -n 100 "$L2" >"$dir/l1r2.txt"
"$ludus" solve connect4 "$dir/l1r2.txt" --jobs 2 --quiet >"$dir/died" 2>"$dir/err" &
pid=$!
sleep 1
worker=$(cut -d " " -f 1 "/proc/$pid/task/$pid/children" 2>/dev/null)
alive=no
if [ -n "$worker" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$worker/stat" 2>/dev/null &&
   kill -KILL "$worker" 2>/dev/null; then alive=yes; fi
wait "$pid"
status=$?
sed -n 's/.*"id":"[^"]*:\([0-9]*\)".*/\1/p' "$dir/died" >"$dir/ids"
[ "$alive" = yes ] && [ "$status" = 0 ] && seq 1 100 | cmp -s - "$dir/ids" &&
  [ "$(grep -c '"agrees":true' "$dir/died")" = 100 ]
check $? "a worker killed in the run (killed: $alive): another does its records, all 100 answered in order (status $status)"

# -- lines longer than what the merge reads at once --
LUDUS_TEST_READ_BYTES=16 "$ludus" solve connect4 "$dir/l1r2.txt" --jobs 2 --quiet \
  >"$dir/short" 2>"$dir/err"
status=$?
answers "$dir/short" >"$dir/short.a"
"$ludus" solve connect4 "$dir/l1r2.txt" --jobs 1 --quiet 2>/dev/null | answers >"$dir/one1.a"
[ "$status" = 0 ] && [ "$(wc -l <"$dir/short.a")" = 100 ] &&
  cmp -s "$dir/one1.a" "$dir/short.a" && ! grep -q "could not be read" "$dir/err"
check $? "two jobs whose lines are longer than the merge's reads write what one job writes (status $status)"

# -- a record that kills its worker --
LUDUS_TEST_WORKER_DIES=37 "$ludus" solve connect4 "$dir/l1r2.txt" --jobs 2 --quiet \
  >"$dir/doomed" 2>"$dir/err"
status=$?
sed -n 's/.*"id":"[^"]*:\([0-9]*\)".*/\1/p' "$dir/doomed" >"$dir/ids"
[ "$status" = 1 ] && seq 1 100 | cmp -s - "$dir/ids" &&
  [ "$(grep -c '"agrees":true' "$dir/doomed")" = 99 ] &&
  grep -q '"id":"[^"]*:37","error":"the worker doing it stopped without an answer"' "$dir/doomed" &&
  grep -q "100 records (1 error, 0 disagree, 99 agree)" "$dir/err"
check $? "a record that kills its worker, and the careful one after it, is an error line; the other 99 agree, in order (status $status)"

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

# a count of one is singular in the summary and the progress line ("1
# errors" and "1 records" were printed), which covers what a longer line
# before it left
head -n 1 "$L3" >"$dir/c4one"
"$ludus" solve connect4 "$dir/c4one" --quiet >/dev/null 2>"$dir/err"
status=$?
printf '%s 1\ngarbage\n' "$late" >"$dir/c4two"
env -u LD_PRELOAD script -qefc "'$ludus' solve connect4 '$dir/c4two' >/dev/null" /dev/null \
  </dev/null >"$dir/pty" 2>&1
[ "$status" = 0 ] && grep -q ": 1 record (0 errors, 0 disagree, 1 agree), [0-9]* nodes, " "$dir/err" &&
  grep -q "2/2 records  [0-9]*/s  0:00 left  1 error  1 mismatch" "$dir/pty" &&
  grep -q ": 2 records (1 error, 1 disagree, 0 agree), " "$dir/pty"
check $? "one record, one error, one mismatch: each count's noun agrees with it, in the summary and on a terminal (status $status)"

# an empty line that ends a file is its last line end doubled, not a
# blank record; a Pons line of a score with no moves is an error, as a
# blank line is, not the empty board
printf '4453\n\n' >"$dir/c4end"
"$ludus" replay connect4 "$dir/c4end" --quiet >"$dir/c4endout" 2>/dev/null
status=$?
sed -n 2p "$data/sudoku/puzzles7_serg_counts" >"$dir/send"
echo >>"$dir/send"
"$ludus" solve sudoku "$dir/send" --quiet >"$dir/sendout" 2>/dev/null
[ $? = 0 ] && [ "$status" = 0 ] && [ "$(wc -l <"$dir/c4endout")" = 1 ] &&
  [ "$(wc -l <"$dir/sendout")" = 1 ]
check $? "connect4, sudoku: an empty line that ends the file is no record and fails nothing"
printf ' 4\n4453 -2\n' >"$dir/noscore"
"$ludus" solve connect4 "$dir/noscore" --nodes 100000 --quiet >"$dir/nsout" 2>/dev/null
[ $? = 1 ] && grep -q "\"id\":\"[^\"]*noscore:1\",\"error\":\"no moves before the score '4'\"" "$dir/nsout" &&
  grep -q '"id":"[^"]*noscore:2","moves":"4453"' "$dir/nsout"
check $? "connect4: a score with no moves before it is an error, not the empty board"

head -c 3000 /dev/urandom >"$dir/garbage"
"$ludus" solve connect4 "$dir/garbage" --quiet >"$dir/gout" 2>/dev/null
[ $? = 1 ] && ! grep -qv '"error"' "$dir/gout"
check $? "binary garbage: an error line for every record, no crash"

# lines that cannot be written (a full disk) are said, and the run fails
if [ -w /dev/full ]; then
  for where in "replay --out /dev/full" "annotate --depth 1 --records /dev/full --out /dev/null" \
      "replay"; do
    # shellcheck disable=SC2086  # the command and its output
    "$ludus" $where xiangqi "$data/xiangqi/pgn/ccpd-mates/mate001.pgn" --quiet \
      >/dev/full 2>"$dir/err"
    status=$?
    [ "$status" = 1 ] && grep -q "cannot write '.*': No space left on device" "$dir/err"
    check $? "$where to a full disk: status $status, $(tail -n 1 "$dir/err")"
  done
fi

# -- the other commands and games --
head -n 20 "$L3" >"$dir/twenty"
"$ludus" replay connect4 "$dir/twenty" --quiet >"$dir/replay" 2>/dev/null
[ $? = 0 ] && [ "$(wc -l <"$dir/replay")" = 20 ] &&
  head -n 1 "$dir/replay" | grep -q '"moves":37,"rows":\[.*\],"result":null'
check $? "connect4 replay: moves, rows and result of every line"
echo 4453 | "$ludus" replay connect4 - --quiet 2>/dev/null |
  grep -q '"rows":\[".......",".......",".......",".......","...R...","..RYY.."\]'
check $? "connect4 replay: the rows are a picture, top row first, as connect4.from_rows reads them"

# the first moves of a game are the hard ones: a time per move leaves
# them open, and the last ones are exact
echo "$late" | "$ludus" annotate connect4 - --time 0.05 --quiet >"$dir/ann" 2>/dev/null
[ $? = 0 ] && grep -q '"ply":37,"move":1,"score":1,"best":3,"best_move":6,"loss":2,"mistake":false' "$dir/ann" &&
  grep -q '"mistakes":' "$dir/ann"
check $? "connect4 annotate: every move's exact score against the best"

# a search stopped by --nodes proved no score: the record does not agree,
# whatever bounds it reached, and the run does not exit 0
head -n 5 "$data/connect4/Test_L2_R2" >"$dir/c4five"
"$ludus" solve connect4 "$dir/c4five" --nodes 1 --quiet >"$dir/c4stop" 2>"$dir/err"
status=$?
[ "$status" = 1 ] && [ "$(grep -c '"stopped":"nodes".*"agrees":false' "$dir/c4stop")" = 5 ] &&
  grep -q "5 records (0 errors, 5 disagree, 0 agree)" "$dir/err"
check $? "connect4 solve: a search stopped by --nodes does not agree (status $status)"

# a book that cannot be used is an error, in connect4.book's words, not
# a run without it; and a game that uses none refuses --book
head -n 5 "$data/connect4/Test_L2_R2" >"$dir/c4five"
"$ludus" solve connect4 "$dir/c4five" --book "$dir/nonexist.book" --nodes 1 --quiet >"$dir/bout" 2>"$dir/err"
status=$?
head -c 1000 /dev/urandom >"$dir/garbage.book"
LUDUS_BOOK="$dir/garbage.book" "$ludus" annotate connect4 "$dir/c4five" --nodes 1 --quiet >>"$dir/bout" 2>>"$dir/err"
[ $? = 2 ] && [ "$status" = 2 ] && [ ! -s "$dir/bout" ] &&
  grep -q "no book from '[^']*nonexist.book' (cannot open the file: No such file or directory)" "$dir/err" &&
  grep -q "no book from '[^']*garbage.book' (not a connect4 book" "$dir/err"
check $? "connect4: a missing or garbage book (--book or LUDUS_BOOK) is refused, saying why"
"$ludus" solve sudoku "$dir/c4five" --book "$dir/garbage.book" --quiet >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q -- "--book does not apply to solve sudoku" "$dir/err"
check $? "sudoku: --book is refused, as it uses no book"
status=0
for bad in "solve sudoku --depth 3" "replay othello --time 2" "annotate xiangqi --all" \
           "solve connect4 --mistake 2" "solve mahjong --nodes 5" "replay connect4 --weak"; do
  set -- $bad
  "$ludus" $bad "$dir/c4five" --quiet >"$dir/bout" 2>"$dir/err"
  [ $? = 2 ] && [ ! -s "$dir/bout" ] &&
    grep -q -- "$3 does not apply to $1 $2 (" "$dir/err" || status=1
done
"$ludus" solve sudoku "$dir/c4five" --depth 3 --quiet 2>"$dir/err" >/dev/null
grep -q "(its options are --time, --nodes, --all)" "$dir/err" || status=1
"$ludus" replay othello "$dir/c4five" --time 3 --quiet 2>"$dir/err" >/dev/null
grep -q "(it takes none of --time, --nodes" "$dir/err" || status=1
[ $status = 0 ]
check $? "an option the task does not read (--depth for sudoku, --time for a replay ...) is refused, naming those it takes"

head -n 300 "$data/sudoku/puzzles7_serg_counts" >"$dir/serg"
"$ludus" solve sudoku "$dir/serg" --quiet >"$dir/sout" 2>"$dir/err"
[ $? = 0 ] && grep -q "agree)" "$dir/err" && ! grep -q '"agrees":false' "$dir/sout"
check $? "sudoku: the counts of puzzles7_serg_counts agree"

# sides past 35 have no symbol: their solution is numbers between
# spaces, as sudoku_format writes them (it was bytes past the symbols)
awk 'BEGIN { s = ""; for (i = 0; i < 1296; i++) s = s "."; print s }' >"$dir/s36"
"$ludus" solve sudoku "$dir/s36" --quiet >"$dir/s36out" 2>/dev/null
[ $? = 0 ] && sed -n 's/.*"solution":"\([^"]*\)".*/\1/p' "$dir/s36out" |
  tr ' ' '\n' | awk '/^([1-9]|[12][0-9]|3[0-6])$/ { n++ } END { exit !(n == 1296 && NR == 1296) }'
check $? "sudoku: a 36x36 solution is written as 1296 numbers from 1 to 36 between spaces"

"$ludus" solve sudoku "$data/sudoku/puzzles2_17_clue" --quiet --csv >"$dir/csv" 2>/dev/null
[ $? = 0 ] && [ "$(head -n 1 "$dir/csv")" = "id,solutions,solution,guesses,error,seconds" ] &&
  [ "$(wc -l <"$dir/csv")" = 49159 ]
check $? "--csv: a header and a row a puzzle (49,158 17-clue puzzles)"

# a bad record's row in a table says why, in the error column the
# header always has
printf '274552224131661 0\n1111111\n' >"$dir/x.txt"
"$ludus" solve connect4 "$dir/x.txt" --csv --quiet >"$dir/xcsv" 2>/dev/null
[ $? = 1 ] && [ "$(head -n 1 "$dir/xcsv")" = "id,moves,score,best,nodes,expected,agrees,error,seconds" ] &&
  sed -n 2p "$dir/xcsv" | grep -q '^[^,]*x.txt:1,274552224131661,0,[1-7],[0-9]*,0,true,,[0-9.e-]*$' &&
  sed -n 3p "$dir/xcsv" | grep -q "^[^,]*x.txt:2,1111111,,,,,,move 7 '1' is a full column,[0-9.e-]*$"
check $? "--csv: an error column, empty for a record read, with the reason for one that is not"

# -- mahjong --
SCORE="$data/mahjong/score.jsonl"
"$ludus" solve mahjong "$SCORE" --quiet >"$dir/mj" 2>"$dir/err"
status=$?
[ "$status" = 0 ] && [ "$(wc -l <"$dir/mj")" = 456 ] &&
  [ "$(field agrees "$dir/mj" | sort -u)" = true ] &&
  grep -q "456 records (0 errors, 0 disagree, 456 agree)" "$dir/err"
check $? "mahjong: every request of score.jsonl scored, and ludus agrees with all 456 (status $status)"

head -n 1 "$dir/mj" | grep -q '^{"id":"[^"]*score.jsonl:1","request_id":"tanyao-pinfu-ron-6s","hand":"2p3p4p2m3m4m2s3s4s4s5s6s8s8s","han":4,"fu":30,"yakuman":0,"limit":null,"points":{"ron":7700,"total":7700},"yaku":\[{"name":"pinfu","han":1},{"name":"tanyao","han":1},{"name":"sanshoku_doujun","han":2}\],"win":"6s","agrees":true,"seconds":' &&
  grep -q '"request_id":"parse-error-5-copies","error":"a fifth 1m at position 5 of .11111m23455s789p. (there are four of each tile)","agrees":true' "$dir/mj" &&
  grep -q '"request_id":"riichi-open-error","hand":"456p789s23455s","error":"riichi with an open hand","agrees":true' "$dir/mj" &&
  grep -q '"no_score":"no yaku","agrees":true' "$dir/mj"
check $? "mahjong: a line has the request's id, the hand and the score; a refusal agrees with the expected error"

head -n 1 "$SCORE" | "$ludus" solve mahjong - --all --quiet 2>/dev/null |
  grep -q '"yaku":\[{"name":"pinfu","name_ja":"平和","han":1},.*\],"win":"6s","wait":"ryanmen","dealer":false,"basic":1920,"decomposition":{"pair":"8s","melds":\["234m","234p","234s","456s"\]},"fu_details":\[{"fu":20,"reason":"base"},{"fu":10,"reason":"closed ron"}\],"agrees":true'
check $? "mahjong: --all adds the rest of the score sheet"

# expectations changed by hand: han, a yaku's han, the total, an error
sed -e '1s/"han": 4, "fu": 30/"han": 5, "fu": 30/' \
    -e '2s/{"name": "tanyao", "han": 1}/{"name": "tanyao", "han": 2}/' \
    -e '3s/"total": 18000/"total": 18100/' \
    -e '4s/"expect": {.*/"expect": {"ok": false, "error": "no_yaku"}}/' \
    "$SCORE" | head -n 5 >"$dir/changed.jsonl"
"$ludus" solve mahjong "$dir/changed.jsonl" --quiet >"$dir/mjc" 2>"$dir/err"
status=$?
[ "$status" = 1 ] && grep -q "5 records (0 errors, 4 disagree, 1 agree)" "$dir/err" &&
  grep -q ':1".*"decomposition":.*"agrees":false,"mismatch":"han 4, expected 5"' "$dir/mjc" &&
  grep -q ':2".*"mismatch":"tanyao 1 han, expected 2"' "$dir/mjc" &&
  grep -q ':3".*"mismatch":"total 18000, expected 18100"' "$dir/mjc" &&
  grep -q ':4".*"mismatch":"scored .* han .* fu, expected the error no_yaku"' "$dir/mjc"
check $? "mahjong: expectations that are wrong disagree, saying how, with the whole sheet (status $status)"

# hands in words, scored as mahjong.score scores them from Lua
cat >"$dir/cases.lua" <<'LUA'
local cases = {
  {"234p234m234s45688s win=6s tsumo riichi seat=E dora=1m",
   "234p234m234s45688s", {win = "6s", tsumo = true, riichi = true, seat = "E", dora = {"1m"}}},
  {"2p3p4p2m3m4m2s3s4s4s5s6s8s8s win=6s kiriage",
   "2p3p4p2m3m4m2s3s4s4s5s6s8s8s", {win = "6s", rules = {kiriage = true}}},
  {"123m456p789s55z123s win=1s tsumo seat=E honba=1 kyoutaku=1",
   "123m456p789s55z123s", {win = "1s", tsumo = true, seat = "E", honba = 1, kyoutaku = 1}},
  {"456p678s23455s  win=4s\tmelds=chi:234m no_open_pinfu_fu",
   "456p678s23455s", {win = "4s", melds = {"chi:234m"}, rules = {open_pinfu_fu = false}}},
  {"19m19p19s1234567z1m win=1m", "19m19p19s1234567z1m", {win = "1m"}},
  {"22334455667788m win=8m riichi tsumo dora=1m1m ura=7m seat=W round=S",
   "22334455667788m", {win = "8m", riichi = true, tsumo = true, dora = {"1m", "1m"},
                       ura = {"7m"}, seat = "W", round = "S"}},
  {"234m 234p 234s 45688s win=8s ron", "234m234p234s45688s", {win = "8s"}},
  {"999m11s win=1s tsumo melds=pon:555s,ankan:2222p,kan:1111z seat=E",
   "999m11s", {win = "1s", tsumo = true, seat = "E",
               melds = {"pon:555s", "ankan:2222p", "kan:1111z"}}},
  {"123m456p789s23405s win=4s no_aka riichi ippatsu", "123m456p789s23405s",
   {win = "4s", riichi = true, ippatsu = true, rules = {aka = false}}},
  {"123m456p789s23455s", "123m456p789s23455s", {}},
  {'{"hand": "123m456p789s11z222s", "win": "2s"}', "123m456p789s11z222s", {win = "2s"}},
}
local hands = assert(io.open(arg[1], "w"))
for _, c in ipairs(cases) do
  hands:write(c[1], "\n")
  local s, err = mahjong.score(c[2], c[3])
  if s then
    print(s.han, s.fu, s.points.total, s.limit or "-", #s.yaku)
  else
    print((err:gsub("^mahjong: ", "")))
  end
end
hands:close()
LUA
"$ludus" "$dir/cases.lua" "$dir/hands.txt" >"$dir/want" &&
  "$ludus" solve mahjong "$dir/hands.txt" --quiet >"$dir/mjh" 2>/dev/null
status=$?
# han, fu, total, limit and the number of yaku of each line, or why none
sed -e 's/.*"han":\([0-9]*\),"fu":\([0-9]*\),"yakuman":[0-9]*,"limit":"*\([^",]*\)"*,"points":{.*"total":\([0-9]*\)},"yaku":\[\(.*\)\],"win".*/\1\t\2\t\4\t\3\t\5/' \
    -e 's/.*"no_score":"\([^"]*\)".*/\1/' "$dir/mjh" |
  awk -F '\t' 'NF == 1 { print; next }
    { n = gsub(/"name":/, "", $5); sub(/^null$/, "-", $4); print $1 "\t" $2 "\t" $3 "\t" $4 "\t" n }' >"$dir/got"
[ "$status" = 0 ] && [ "$(wc -l <"$dir/want")" = 11 ] && cmp -s "$dir/want" "$dir/got" &&
  grep -q '^7	20	18000	haneman	6$' "$dir/got" && grep -q '^26	0	64000	yakuman	1$' "$dir/got" &&
  grep -q '"limit":"kazoe yakuman"' "$dir/mjh" && grep -q '"points":{"tsumo_all":600,"total":2800}' "$dir/mjh"
check $? "mahjong: hands in words (and a JSON line among them) score as mahjong.score scores them (status $status)"

"$ludus" solve mahjong "$dir/hands.txt" --jobs 2 --quiet >"$dir/mjh2" 2>/dev/null
answers "$dir/mjh" >"$dir/mjh.a"
answers "$dir/mjh2" >"$dir/mjh2.a"
cmp -s "$dir/mjh.a" "$dir/mjh2.a"
check $? "mahjong: two jobs write what one writes"

printf '\357\273\277234p234m234s45688s win=6s tsumo\r\n\n234p234m234s45688s win=6s richi\r\n234p234m234s4568x8s win=6s\n{"hand": "234p234m234s45688s", "win": 6}\n{"hand": \n   \t\n234p234m234s45688s win=6s seat=e\n123m456p789s11z222s win=2s\n11111m23455s789p win=5s\n' >"$dir/badmj"
"$ludus" solve mahjong "$dir/badmj" --quiet >"$dir/badmjout" 2>"$dir/err"
status=$?
[ "$status" = 1 ] && [ "$(wc -l <"$dir/badmjout")" = 10 ] &&
  grep -q '"id":"[^"]*badmj:1","hand":"234p234m234s45688s","han":' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:2","error":"a blank line"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:3","error":"unknown word .richi. (words: win=' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:4","error":"unknown character .x. at position 17 of .234p234m234s4568x8s.' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:5","error":"win must be a tile like .5m. or .7z. (got a number)"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:6","error":"not JSON (it ends too soon)"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:7","error":"a blank line"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:8","error":"seat must be \\"E\\", \\"S\\", \\"W\\" or \\"N\\" (got e)"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:9","hand":"123m456p789s11z222s","no_score":"no yaku"' "$dir/badmjout" &&
  grep -q '"id":"[^"]*badmj:10","error":"a fifth 1m at position 5' "$dir/badmjout" &&
  grep -q "10 records (8 errors, 0 disagree, 0 agree)" "$dir/err"
check $? "mahjong: bad lines (BOM, CRLF, blank, unknown word, bad tile, bad JSON, bad seat) give error lines, and the rest goes on"

head -n 3 "$SCORE" | "$ludus" solve mahjong - --quiet >"$dir/mjin" 2>/dev/null &&
  [ "$(field agrees "$dir/mjin" | sort -u)" = true ] &&
  head -c 3000 /dev/urandom >"$dir/garbage.jsonl" &&
  "$ludus" solve mahjong "$dir/garbage.jsonl" --quiet >"$dir/gmj" 2>/dev/null
[ $? = 1 ] && ! grep -qv '"error"' "$dir/gmj"
check $? "mahjong: JSON lines found from their content on standard input; binary garbage gives an error line a record"

"$ludus" solve chess "$L3" >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "no solve for 'chess'" "$dir/err"
check $? "an unknown game is refused with the list of games"
"$ludus" solve connect4 --jobs 0 "$L3" >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q -- "--jobs takes a whole number" "$dir/err"
check $? "a bad option value is refused, saying what is right"
# messages that say what is wrong: an unknown option last on the line,
# spaces before a grid, a count too large, a directory given as a file
"$ludus" solve connect4 "$L3" --bogus >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "unknown option '--bogus'" "$dir/err"
check $? "an unknown option at the end of the line is unknown, not one that needs a value"
grid=$(sed -n 2p "$data/sudoku/puzzles7_serg_counts" | cut -d : -f 1)
dots=.................................................................................
printf '  %s\n%s:99999999999999999999999\n%s:2x\n' "$grid" "$dots" "$dots" >"$dir/sbad"
"$ludus" solve sudoku "$dir/sbad" --quiet >"$dir/sbadout" 2>/dev/null
[ $? = 1 ] && grep -q '"id":"[^"]*sbad:1","solutions":2,"more":true,"solution":"814762359' "$dir/sbadout" &&
  grep -q "\"id\":\"[^\"]*sbad:2\",\"error\":\"'99999999999999999999999' after the grid is too large a number of solutions" "$dir/sbadout" &&
  grep -q "\"id\":\"[^\"]*sbad:3\",\"error\":\"'2x' after the grid is not a number of solutions" "$dir/sbadout"
check $? "sudoku: spaces before a grid are skipped; a count too large or not a number is named"
mkdir "$dir/adir"
"$ludus" solve sudoku "$dir/adir" --quiet >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "cannot read '[^']*adir': it is a directory" "$dir/err"
check $? "a directory given as a file is refused as a directory"
# whole numbers are plain decimal digits, in range: no exponent, hex,
# sign, space or overflow
: >"$dir/empty"
refused=yes
for bad in "--jobs 1e3" "--jobs 0x2" "--nodes 1e3" "--shard  1/ 2" "--shard +1/+2" \
           "--shard 1/99999999999999999999" "--shard 1/2/3" "--depth 99999999999999999999"; do
  set -- $bad
  [ "$2" = 1/ ] && set -- --shard " 1/ 2"
  "$ludus" solve connect4 "$dir/empty" "$1" "$2" >/dev/null 2>"$dir/err"
  [ $? = 2 ] && grep -q -- "$1 takes" "$dir/err" || { refused="no: $1 '$2'"; break; }
done
[ "$refused" = yes ]
check $? "bad whole numbers are refused (refused: $refused)"
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

# -- othello --
oth="$data/othello"
"$ludus" solve othello "$oth/fforum-1-19.obf" --all --quiet >"$dir/ff" 2>"$dir/err"
[ $? = 0 ] && grep -q "19 records (0 errors, 0 disagree, 19 agree)" "$dir/err" &&
  [ "$(grep -c '"wrong":\[\],"agrees":true' "$dir/ff")" = 19 ] &&
  head -n 1 "$dir/ff" | grep -q '"empties":14,"score":18,"best":"g8","all":{[^}]*"h1":12,[^}]*"g8":18}'
check $? "othello solve: the FFO positions 1-19, every move's exact score as the OBF lists it"

# the same for Othello
head -n 6 "$data/othello/fforum-40-59.obf" >"$dir/ostop.obf"
"$ludus" solve othello "$dir/ostop.obf" --nodes 1000 --quiet >"$dir/ostop" 2>"$dir/err"
status=$?
[ "$status" = 1 ] && [ "$(grep -c '"stopped":"nodes".*"agrees":false' "$dir/ostop")" = 6 ] &&
  ! grep -q '"agrees":true' "$dir/ostop"
check $? "othello solve: a search stopped by --nodes does not agree (status $status)"

# workers take the positions with the most empty squares first; the
# lines still come in the order of the file
"$ludus" solve othello "$oth/fforum-1-19.obf" --all --quiet --jobs 3 >"$dir/ff3" 2>/dev/null
answers "$dir/ff" >"$dir/ff.a"
answers "$dir/ff3" >"$dir/ff3.a"
sed -n 's/.*"id":"[^"]*:\([0-9]*\)".*/\1/p' "$dir/ff3" >"$dir/ids"
cmp -s "$dir/ff.a" "$dir/ff3.a" && seq 1 19 | cmp -s - "$dir/ids"
check $? "othello solve: three jobs, longest first, write what one writes, in order"

"$ludus" replay othello "$oth"/wthor/*.wtb --quiet --jobs 2 >"$dir/wtb" 2>"$dir/err"
status=$?
over=$(grep -c '"agrees":true' "$dir/wtb")
[ "$status" = 0 ] && grep -q "12321 records (0 errors, 0 disagree, $over agree)" "$dir/err" &&
  [ "$over" -gt 12000 ] &&
  head -n 1 "$dir/wtb" | grep -q '"black":"[A-Z][^"]*","white":"[A-Z][^"]*","tournament":"[^"]*","year":2001,"moves":'
check $? "othello replay: the 12,321 WTHOR games, names from WTHOR.JOU/.TRN, every final count agrees ($over over)"

# a .wtb cut in its last game, and one with a move that is not legal
head -c $((16 + 68 * 3 + 30)) "$oth/wthor/WTH_2020.wtb" >"$dir/cut.wtb"
"$ludus" replay othello "$dir/cut.wtb" --quiet >"$dir/cutout" 2>/dev/null
[ $? = 1 ] && [ "$(wc -l <"$dir/cutout")" = 4 ] &&
  tail -n 1 "$dir/cutout" | grep -q '"id":"[^"]*cut.wtb#4","error":"game 4 is cut short: 30 of its 68 bytes"'
check $? "othello replay: a .wtb cut short reports the cut game and keeps the whole ones"
head -c 5000 /dev/urandom >"$dir/garbage.wtb"
for command in replay annotate; do
  "$ludus" $command othello "$dir/garbage.wtb" --format wtb --quiet >"$dir/gw" 2>/dev/null
  [ $? = 1 ] && [ "$(wc -l <"$dir/gw")" -ge 1 ] && ! grep -qv '"error"' "$dir/gw" || break
done
check $? "othello: random bytes read as a .wtb give error lines, no crash"
# a whole game too: its result is the rules', with nothing recorded to check
printf 'f5d6c3d3c4\nf5f5\n\n%% a comment\nf5 d6 c3 x9\n%s\n' \
  d3c5c6e3f3c7c4e2f4g4h4c3d2f2e1c2c1e6d1g2f1g1h1g3h3h2d6g5h5e7f7h6h7g8g6g7f5f6f8h8d8d7e8c8b1b2a2a1a3a4b5b4b3a5a6a7b7b6b8a8 \
  >"$dir/tr.txt"
"$ludus" replay othello "$dir/tr.txt" --quiet >"$dir/trout" 2>/dev/null
[ $? = 1 ] && [ "$(wc -l <"$dir/trout")" = 4 ] &&
  grep -q '"id":"[^"]*tr.txt:6","moves":60,"board":"[XO]* X","result":"black","margin":22,"seconds"' "$dir/trout" &&
  grep -q '"id":"[^"]*tr.txt:1","moves":5,"board":"[-XO]* O","result":null' "$dir/trout" &&
  grep -q '"id":"[^"]*tr.txt:2".*"illegal":{"ply":2,"move":"f5",' "$dir/trout" &&
  grep -q '"id":"[^"]*tr.txt:5".*"illegal":{"ply":4,"move":"x9",' "$dir/trout"
check $? "othello replay: transcripts, blank and comment lines skipped, illegal moves with their ply"

"$ludus" annotate othello "$oth/wthor/WTH_2020.wtb" --shard 1/40 --exact 14 --depth 3 \
  --records "$dir/ann.ggf" --quiet >"$dir/oann" 2>/dev/null
"$ludus" replay othello "$dir/ann.ggf" --quiet >"$dir/oann2" 2>"$dir/err"
"$ludus" replay othello "$oth/wthor/WTH_2020.wtb" --shard 1/40 --quiet >"$dir/oann3" 2>/dev/null
[ "$(field margin "$dir/oann2")" = "$(field margin "$dir/oann3")" ] &&
  grep -q "7 records (0 errors, 0 disagree, 7 agree)" "$dir/err" &&
  grep -q '"exact":true' "$dir/oann" && ! grep -q '"loss":-' "$dir/oann" &&
  grep -q '^(;GM\[Othello\].*B\[f5/' "$dir/ann.ggf"
check $? "othello annotate: exact scores at 14 empties, GGF records that replay to the WTHOR results"

"$ludus" annotate othello "$oth/wthor/WTH_2020.wtb" --shard 1/400 --exact 0 --depth 1 \
  --quiet >"$dir/oann0" 2>/dev/null
[ $? = 0 ] && grep -q '"exact":false' "$dir/oann0" && ! grep -q '"exact":true' "$dir/oann0"
check $? "othello annotate: --exact 0 scores every move by the search, none exactly (it was the default 20)"

# numbered ids (file#game): shards merge and a cut run resumes
w2020="$oth/wthor/WTH_2020.wtb"
"$ludus" replay othello "$w2020" --quiet --jobs 1 >"$dir/w1" 2>/dev/null
"$ludus" replay othello "$w2020" --shard 1/2 --quiet >"$dir/wa" 2>/dev/null
"$ludus" replay othello "$w2020" --shard 2/2 --quiet >"$dir/wb" 2>/dev/null
"$ludus" merge "$dir/wa" "$dir/wb" | answers >"$dir/wm.a"
head -c 20000 "$dir/w1" >"$dir/wr"
"$ludus" replay othello "$w2020" --out "$dir/wr" --resume --quiet 2>/dev/null
answers "$dir/w1" >"$dir/w1.a"
cmp -s "$dir/w1.a" "$dir/wm.a" && answers "$dir/wr" | cmp -s "$dir/w1.a" -
check $? "othello: WTHOR games (file#game ids) in shards merge, and a cut run resumes to the whole"
# -- mahjong: Tenhou's logs --
TH="$data/mahjong/tenhou"
"$ludus" replay mahjong "$TH"/mjlog/*.mjlog "$TH"/json/*.json --quiet >"$dir/mjr" 2>"$dir/err"
status=$?
[ "$status" = 0 ] && [ "$(wc -l <"$dir/mjr")" = 25 ] &&
  grep -q "25 records (0 errors, 0 disagree, 25 agree)" "$dir/err" &&
  grep -q '"id":"[^"]*fe3371ad.mjlog#1","rounds":15,"wins":13,"draws":2,"scores":\[20100,35800,5200,38900\],"points":\[-200,160,-450,490\],"checks":197,"disagreements":\[\],"agrees":true' "$dir/mjr"
check $? "mahjong replay: every shared Tenhou game, both forms, agrees with its log (status $status)"

sed 's/ten="30,7700,0"/ten="30,8000,0"/' "$TH/mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog" >"$dir/changed.mjlog"
head -c 4300 "$TH/mjlog/double-ron.mjlog" >"$dir/cut.mjlog"
"$ludus" replay mahjong "$dir/changed.mjlog" "$dir/cut.mjlog" "$TH/edge/confusing_nakis_2.json" --quiet >"$dir/mjr2" 2>"$dir/err"
status=$?
[ "$status" = 1 ] &&
  grep -q '"disagreements":\["round E1-0, step 139 (ron by seat 1): points: ludus 7700, the log 8000"\],"agrees":false' "$dir/mjr2" &&
  grep -q '"id":"[^"]*cut.mjlog#1","error":"round E1-0: the log is cut short (a tag with no .>.)"' "$dir/mjr2" &&
  grep -q '"error":"round E1-0: step 23: seat 2 draws a 5s (35), one copy too many' "$dir/mjr2" &&
  grep -q "3 records (2 errors, 1 disagree, 0 agree)" "$dir/err"
check $? "mahjong replay: an altered log disagrees where it was altered; a cut and a bad log give errors (status $status)"

"$ludus" annotate mahjong "$TH/mjlog/double-ron.mjlog" --quiet >"$dir/mja" 2>/dev/null
status=$?
[ "$status" = 0 ] &&
  grep -q '"marked":\[{"round":"E1-0","step":18,"seat":0,"hand":"23448m2489p357s66z","discard":"9p","shanten":3,"accepted":84,"best":"4m","best_shanten":2,"best_accepted":16}' "$dir/mja" &&
  grep -q '"discards":\[[0-9]*,[0-9]*,[0-9]*,[0-9]*\],"best":\[' "$dir/mja"
check $? "mahjong annotate: each discard against the best by shanten and tiles accepted (status $status)"


# -- each record on its own: limits, determinism, refusals (game parts) --
# an annotation owes nothing to the records before it: the same games
# with one job and two, and a game alone, give the same lines
w2020="$data/othello/wthor/WTH_2020.wtb"
"$ludus" annotate othello "$w2020" --shard 1/40 --depth 2 --exact 12 --jobs 1 \
  --quiet >"$dir/od1" 2>/dev/null
"$ludus" annotate othello "$w2020" --shard 1/40 --depth 2 --exact 12 --jobs 2 \
  --quiet >"$dir/od2" 2>/dev/null
"$ludus" annotate othello "$w2020" --shard 41/300 --depth 2 --exact 12 \
  --quiet >"$dir/od41" 2>/dev/null
# (the node counts too: only Connect Four's solver keeps its table)
untimed() { sed 's/,"seconds":[0-9.e-]*//' "$@"; }
untimed "$dir/od1" >"$dir/od1.a"
untimed "$dir/od2" >"$dir/od2.a"
untimed "$dir/od41" >"$dir/od41.a"
[ "$(wc -l <"$dir/od1.a")" = 7 ] && cmp -s "$dir/od1.a" "$dir/od2.a" &&
  grep -q '#41"' "$dir/od41.a" && grep -qxF "$(cat "$dir/od41.a")" "$dir/od1.a" &&
  [ "$(grep -o '"ply":1,[^}]*' "$dir/od1" | sort -u | wc -l)" = 1 ]
check $? "othello annotate: one job and two write the same lines, a game alone the line it has among the others"
"$ludus" solve othello "$data/othello/fforum-1-19.obf" --all --jobs 2 --quiet 2>/dev/null |
  untimed >"$dir/ff2.u"
sed -n 5p "$data/othello/fforum-1-19.obf" >"$dir/ff5.obf"
"$ludus" solve othello "$dir/ff5.obf" --all --quiet 2>/dev/null | untimed | sed 's/"id":"[^"]*"//' >"$dir/ff5.u"
"$ludus" solve othello "$data/othello/fforum-1-19.obf" --all --jobs 1 --quiet 2>/dev/null |
  untimed | tee "$dir/ff1.u" | sed -n 5p | sed 's/"id":"[^"]*"//' | cmp -s - "$dir/ff5.u" &&
  cmp -s "$dir/ff1.u" "$dir/ff2.u"
check $? "othello solve: the same lines, nodes and all, with one job, two, and a position alone"

# --time and --nodes are each record's, shared among a game's moves; a
# move that wins at once needs no search (and is never "stopped")
printf '1122334\n' >"$dir/win.txt"
"$ludus" annotate connect4 "$dir/win.txt" --nodes 100000 --quiet >"$dir/c4n" 2>"$dir/err"
c4nodes=$(sed -n 's/.*, \([0-9]*\) nodes,.*/\1/p' "$dir/err")
"$ludus" annotate connect4 "$dir/win.txt" --time 0.5 --quiet >"$dir/c4t" 2>/dev/null
c4seconds=$(field seconds "$dir/c4t")
[ -n "$c4nodes" ] && [ "$c4nodes" -le 100007 ] &&
  grep -q '{"ply":7,"move":4,"score":18,"best":18,"best_move":4,"loss":0,"mistake":false}' "$dir/c4n" &&
  awk -v s="$c4seconds" 'BEGIN { exit !(s > 0 && s < 1.5) }'
check $? "connect4 annotate: --nodes 100000 and --time 0.5 bound the game ($c4nodes nodes, $c4seconds s); the winning move is scored without a search"

xqgame="$data/xiangqi/pgn/ccpd-masters/game001.pgn"
"$ludus" annotate xiangqi "$xqgame" --nodes 200000 --quiet >/dev/null 2>"$dir/err"
xqnodes=$(sed -n 's/.*, \([0-9]*\) nodes,.*/\1/p' "$dir/err")
"$ludus" annotate xiangqi "$xqgame" --time 0.3 --quiet >"$dir/xqt" 2>/dev/null
xqseconds=$(field seconds "$dir/xqt")
[ -n "$xqnodes" ] && [ "$xqnodes" -le 200400 ] &&
  awk -v s="$xqseconds" 'BEGIN { exit !(s > 0 && s < 1.5) }'
check $? "xiangqi annotate: --nodes 200000 and --time 0.3 bound the game ($xqnodes nodes, $xqseconds s)"

"$ludus" annotate othello "$w2020" --shard 1/40 --nodes 50000 --quiet >"$dir/onodes" 2>/dev/null
[ "$(field nodes "$dir/onodes" | wc -l)" = 7 ] &&
  [ "$(field nodes "$dir/onodes" | awk '$1 > 50120' | wc -l)" = 0 ]
check $? "othello annotate: --nodes 50000 bounds each game's nodes"

# a FEN whose side to move is neither red nor black is refused by the
# batch as by xiangqi.load, with the same reason
xqx='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1'
echo "$xqx" >"$dir/x.fen"
"$ludus" solve xiangqi "$dir/x.fen" --depth 2 --quiet >"$dir/xqx" 2>/dev/null
status=$?
why=$("$ludus" -e "print(select(2, xiangqi.load('$xqx')))" 2>&1 | sed 's/.*: //')
[ "$status" = 1 ] && [ -n "$why" ] &&
  grep -qF '"error":"bad FEN '"'$xqx'"' ('"$why"')"' "$dir/xqx" && ! grep -q '"move"' "$dir/xqx"
check $? "xiangqi solve: a FEN with side 'x' is an error line, for the reason xiangqi.load gives (status $status)"

# --records only where annotate writes games, and never into --out
"$ludus" annotate mahjong "$data/mahjong/tenhou/edge/chankan.json" --records "$dir/rm.txt" \
  --quiet >/dev/null 2>"$dir/err"
status=$?
"$ludus" annotate connect4 "$dir/win.txt" --records "$dir/rc.txt" --quiet >/dev/null 2>>"$dir/err"
status2=$?
[ "$status" = 2 ] && [ "$status2" = 2 ] && [ ! -e "$dir/rm.txt" ] && [ ! -e "$dir/rc.txt" ] &&
  grep -q -- "--records: annotate mahjong writes no game records" "$dir/err" &&
  grep -q -- "--records: annotate connect4 writes no game records" "$dir/err"
check $? "annotate mahjong and connect4 refuse --records: they write no games (status $status, $status2)"
echo keep >"$dir/same"
"$ludus" annotate xiangqi "$data/xiangqi/pgn/ccpd-mates/mate001.pgn" --depth 1 \
  --records "$dir/same" --out "$dir/../$(basename "$dir")/same" --quiet 2>"$dir/err"
status=$?
[ "$status" = 2 ] && [ "$(cat "$dir/same")" = keep ] &&
  grep -q -- "--records and --out name the same file" "$dir/err"
check $? "--records and --out naming one file are refused, the file left alone (status $status)"
# an input file named again as an output would be written over
cp "$data/xiangqi/pgn/ccpd-mates/mate001.pgn" "$dir/in.pgn"
"$ludus" replay xiangqi "$dir/in.pgn" --out "$dir/../$(basename "$dir")/in.pgn" --quiet 2>"$dir/err"
status=$?
"$ludus" annotate xiangqi "$dir/in.pgn" --depth 1 --records "$dir/in.pgn" --out /dev/null \
  --quiet 2>>"$dir/err"
status2=$?
[ "$status" = 2 ] && [ "$status2" = 2 ] &&
  cmp -s "$dir/in.pgn" "$data/xiangqi/pgn/ccpd-mates/mate001.pgn" &&
  grep -q -- "--out names the input file '.*in.pgn': it would write over it" "$dir/err" &&
  grep -q -- "--records names the input file '.*in.pgn'" "$dir/err"
check $? "--out or --records naming an input file are refused, the file left alone (status $status, $status2)"

# solve is for positions: a WTHOR database is refused once, saying what
# reads it
"$ludus" solve othello "$w2020" --quiet >"$dir/sw" 2>"$dir/err"
status=$?
[ "$status" = 2 ] && [ ! -s "$dir/sw" ] &&
  grep -q "othello solve does not read '[^']*WTH_2020.wtb', a wtb file; it reads: obf transcript ggf (replay and annotate read it)" "$dir/err"
check $? "othello solve: a WTHOR database is refused once, naming replay and annotate (status $status)"

# GGF in a .txt is found from its content; Tenhou logs are games (file#N)
printf '(;GM[Othello]PC[x]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3];)\n' >"$dir/ggf.txt"
"$ludus" replay othello "$dir/ggf.txt" --quiet >"$dir/gt" 2>/dev/null
status=$?
"$ludus" replay mahjong "$data/mahjong/tenhou/json/2010081709gm-00a9-0000-fe3371ad.json" \
  --quiet >"$dir/mjid" 2>/dev/null
[ "$status" = 0 ] && grep -q '"id":"[^"]*ggf.txt#1","black":"a","white":"b","moves":3,' "$dir/gt" &&
  grep -q '"id":"[^"]*fe3371ad.json#1",' "$dir/mjid"
check $? "othello replay reads GGF in a .txt as GGF; a Tenhou log's id is file#1 (status $status)"

# --all checks every score the OBF line gives, not only the best
head -n 1 "$data/othello/fforum-1-19.obf" | sed 's/H1:+12/H1:+10/' >"$dir/h1.obf"
"$ludus" solve othello "$dir/h1.obf" --all --quiet >"$dir/h1" 2>/dev/null
status=$?
"$ludus" solve othello "$dir/h1.obf" --quiet >"$dir/h1b" 2>/dev/null
[ "$status" = 1 ] && grep -q '"score":18,.*"expected":18,"wrong":\["h1"\],"agrees":false' "$dir/h1" &&
  grep -q '"expected":18,"agrees":true' "$dir/h1b"
check $? "othello solve --all: a wrong score of another move disagrees; without --all only the best is checked"

# a move whose exact solve the budget stops is left unscored, and the
# moves after it, quicker to solve, still are
"$ludus" annotate othello "$w2020" --shard 1/12000 --nodes 300000 --exact 22 \
  --quiet >"$dir/ostop" 2>/dev/null
grep -q '"moves":\[.*{"ply":[0-9]*,"move":"[a-h][1-8]","stopped":"nodes"}.*"exact":true,.*\],"stopped":"nodes"' "$dir/ostop"
check $? "othello annotate: a move the budget stops says so, and the game goes on to exact scores after it"
echo "1..$n"
