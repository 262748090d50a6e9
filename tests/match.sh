#!/bin/sh
# match.sh: `ludus match`: the same games whatever the concurrency;
# players that crash, hang, raise, quit, play an illegal move or run out
# of time lose their games with the reason while the match goes on; JSON
# lines resumed after a cut and after Ctrl-C; the SPRT on a strong and a
# weak player and on two equal ones, with fixed seeds; shards merged
# (by hand and with GNU parallel) into the single run; openings from
# the games' record files, each played from both sides; round robin and
# gauntlet; bad command lines.  TAP on stdout.
#
#   sh tests/match.sh BIN_DIR DATA_DIR

bin=${1:-.}
data=${2:-../shared/data}
LUDUS_BOOK=
export LUDUS_BOOK
ludus="$bin/ludus"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/tap.sh"

# The lines without the time each game took.
games() { sed 's/,"seconds":[0-9.e-]*//' "$@"; }

# -- the same games, one at a time or two --
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 \
  --concurrency 1 --out "$dir/one.jsonl" >"$dir/one" 2>"$dir/err"
status=$?
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 \
  --concurrency 2 --out "$dir/two.jsonl" >"$dir/two" 2>/dev/null
[ "$status" = 0 ] && [ "$(wc -l <"$dir/one.jsonl")" = 40 ] &&
  grep -q '^alphabeta:depth=2 vs mcts:playouts=30: +[0-9]* =[0-9]* -[0-9]* in 40 games' "$dir/one" &&
  grep -q 'match: 40 games in' "$dir/err"
check $? "40 games, one JSON line each, and the score (status $status)"
games "$dir/one.jsonl" >"$dir/one.g"
games "$dir/two.jsonl" >"$dir/two.g"
cmp -s "$dir/one" "$dir/two" && cmp -s "$dir/one.g" "$dir/two.g"
check $? "two games at once play the same games as one at a time"
seq 1 40 | cmp -s - "$(sed -n 's/^{"game":\([0-9]*\),.*/\1/p' "$dir/two.jsonl" >"$dir/ids"; echo "$dir/ids")"
check $? "the lines come in the order of the games"
# the pentanomial adds up: pairs = 20, and a's points agree with W/D/L
cat >"$dir/penta.lua" <<'EOF'
  local f = io.open(arg[1]):read("a")
  local w, d, l = f:match("%+(%d+) =(%d+) %-(%d+)")
  local p = {f:match("pentanomial %[(%d+), (%d+), (%d+), (%d+), (%d+)%] over 20 pairs")}
  assert(#p == 5, "no pentanomial over 20 pairs")
  local points = 0
  for i = 1, 5 do points = points + (i - 1) * p[i] / 2 end
  assert(points == w + d / 2, ("pairs give %g points, games %g"):format(points, w + d / 2))
  assert(p[1] + p[2] + p[3] + p[4] + p[5] == 20)
EOF
"$ludus" "$dir/penta.lua" "$dir/one" 2>"$dir/err"
check $? "the pentanomial counts 20 pairs and a's points $(cat "$dir/err")"

# -- players that fail lose their games, and the match goes on --
cat >"$dir/crash.lua" <<'EOF'
-- its process dies of a signal (abort) at its third move
return {name = "crash", choose = function(_, g)
  if #g:history() >= 4 then io.popen("kill -ABRT $PPID"):read("a") while true do end end
  return g:moves()[1]
end}
EOF
cat >"$dir/hang.lua" <<'EOF'
return function(g) if #g:history() >= 2 then while true do end end return g:moves()[1] end
EOF
cat >"$dir/illegal.lua" <<'EOF'
return function(g) if #g:history() >= 2 then return "z9" end return g:moves()[1] end
EOF
cat >"$dir/boom.lua" <<'EOF'
return function(g) if #g:history() >= 2 then error("boom") end return g:moves()[1] end
EOF
cat >"$dir/quit.lua" <<'EOF'
return function(g) if #g:history() >= 2 then os.exit(3) end return g:moves()[1] end
EOF
cat >"$dir/slow.lua" <<'EOF'
local now = require("ludus.process").now
return function(g) local t = now() while now() - t < 0.12 do end return g:moves()[1] end
EOF
for case in "crash:crash:signal 6" "hang:hang:no move in 0.35 s" \
            "illegal:illegal move:illegal move 'z9'" "boom:error:boom" \
            "quit:crash:exit 3" "slow:time:lost on time"; do
  name=${case%%:*}
  rest=${case#*:}
  ending=${rest%%:*}
  reason=${rest#*:}
  tc="--st 2"                      # time enough on a loaded machine
  [ "$name" = hang ] && tc="--st 0.3"
  [ "$name" = slow ] && tc="--tc 0.3+0"
  "$ludus" match connect4 random "$dir/$name.lua" --games 4 --concurrency 2 $tc \
    --out "$dir/$name.jsonl" --quiet >"$dir/$name" 2>&1
  status=$?
  [ "$status" = 0 ] && [ "$(wc -l <"$dir/$name.jsonl")" = 4 ] &&
    grep -q "+4 =0 -0 in 4 games" "$dir/$name" &&
    grep -q "endings: $ending 4" "$dir/$name" &&
    [ "$(grep -c "\"winner\":\"a\",\"ending\":\"$ending\",\"reason\":\"[^\"]*$reason" "$dir/$name.jsonl")" = 4 ]
  check $? "a player that fails ($name) loses each game: $ending, '$reason' (status $status)"
done

# -- resume --
head -n 13 "$dir/one.jsonl" >"$dir/cut.jsonl"
sed -n 14p "$dir/one.jsonl" | cut -c 1-30 | tr -d '\n' >>"$dir/cut.jsonl"
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 \
  --out "$dir/cut.jsonl" --resume >"$dir/resumed" 2>/dev/null
games "$dir/cut.jsonl" >"$dir/cut.g"
cmp -s "$dir/one" "$dir/resumed" && cmp -s "$dir/one.g" "$dir/cut.g"
check $? "--resume after 13 lines and half a line: the whole match, the same"

"$ludus" match connect4 "$dir/slow.lua" random --games 8 --concurrency 2 \
  --out "$dir/int.jsonl" --quiet >/dev/null 2>"$dir/int.err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
status=$?
lines=$(wc -l <"$dir/int.jsonl")
"$ludus" match connect4 "$dir/slow.lua" random --games 8 --concurrency 2 \
  --out "$dir/int.jsonl" --resume --quiet >"$dir/int" 2>/dev/null
"$ludus" match connect4 "$dir/slow.lua" random --games 8 --concurrency 2 \
  --out "$dir/full.jsonl" --quiet >"$dir/full" 2>/dev/null
games "$dir/int.jsonl" >"$dir/int.g"
games "$dir/full.jsonl" >"$dir/full.g"
[ "$status" = 130 ] && [ "$lines" -lt 8 ] && grep -q "interrupted: --resume" "$dir/int.err" &&
  cmp -s "$dir/int" "$dir/full" && cmp -s "$dir/int.g" "$dir/full.g"
check $? "Ctrl-C stops the match (status $status, $lines games); --resume finishes it as one run would"

# a game hung with no time control: Ctrl-C still ends the match, and
# no process of it is left behind (workers and games die with it)
"$ludus" match connect4 random "$dir/hang.lua" --games 8 --concurrency 2 --quiet \
  >/dev/null 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid
status=$?
sleep 0.2
left=$(pgrep -f "$dir/hang.lua" | wc -l)
[ "$status" = 130 ] && [ "$left" = 0 ]
check $? "Ctrl-C with games hung: status $status, $left processes left"

"$ludus" match tictactoe random random --games 4 --out "$dir/one.jsonl" --resume \
  >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "resume: .*one.jsonl:1 is not a game of this match (game 1 is random vs random (2) here)" "$dir/err"
check $? "--resume refuses the lines of another match: $(cat "$dir/err")"

# a run resumed with other settings than those its lines were played
# with is refused, naming the option; lines of an older ludus, which
# have no settings, still resume
head -n 3 "$dir/one.jsonl" >"$dir/part.jsonl"
printf 'c1 b2\na1 a2\n' >"$dir/ttt.txt"
for change in "--seed 2" "--st 1" "--tc 5+0.1" "--games 42" "--max-plies 5" \
    "--openings $dir/ttt.txt" "--random-plies 2" "--no-swap"; do
  cp "$dir/part.jsonl" "$dir/other.jsonl"
  flag=${change%% *}
  # shellcheck disable=SC2086  # the change is an option and its value
  "$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 $change \
    --out "$dir/other.jsonl" --resume --quiet >/dev/null 2>"$dir/err"
  status=$?
  [ "$status" = 2 ] && grep -q -- "--resume: .*other.jsonl:1 is not a game of this match" "$dir/err" &&
    grep -q -- "${flag#--no-}" "$dir/err" && cmp -s "$dir/part.jsonl" "$dir/other.jsonl"
  check $? "--resume with $change refused (status $status): $(cat "$dir/err")"
done
sed 's/,"match":{.*}}$/}/' "$dir/part.jsonl" >"$dir/old.jsonl"
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 \
  --out "$dir/old.jsonl" --resume >"$dir/resumed" 2>/dev/null
[ "$(grep -c '"match":' "$dir/old.jsonl")" = 37 ] && cmp -s "$dir/one" "$dir/resumed"
check $? "--resume carries on a file of lines without the match's settings"

# -- SPRT, fixed seeds --
"$ludus" match connect4 alphabeta:depth=3 random --sprt elo0=0 elo1=50 alpha=0.05 beta=0.05 \
  --concurrency 2 --out "$dir/h1.jsonl" >"$dir/h1" 2>/dev/null
status=$?
"$ludus" match connect4 alphabeta:depth=3 random --sprt "elo0=0 elo1=50" \
  --concurrency 1 >"$dir/h1.one" 2>/dev/null
count=$(wc -l <"$dir/h1.jsonl")
[ "$status" = 0 ] && grep -q "H1 accepted (the upper bound)" "$dir/h1" &&
  grep -q "stopped: sprt" "$dir/h1" && [ "$count" -lt 100 ] && cmp -s "$dir/h1" "$dir/h1.one"
check $? "SPRT: alphabeta against random accepts H1 after $count games, the same with one process"
"$ludus" match tictactoe random random --sprt elo0=0 elo1=50 --seed 7 \
  --concurrency 2 --out "$dir/h0.jsonl" >"$dir/h0" 2>/dev/null
count=$(wc -l <"$dir/h0.jsonl")
grep -q "H0 accepted (the lower bound)" "$dir/h0" && [ "$count" -gt 20 ] && [ "$count" -lt 5000 ]
check $? "SPRT: random against random accepts H0 after $count games"
cat >"$dir/llr.lua" <<'EOF'
  local f = io.open(arg[1]):read("a")
  local p = {f:match("pentanomial %[(%d+), (%d+), (%d+), (%d+), (%d+)%]")}
  local llr = tonumber(f:match("LLR (%-?[%d.]+)"))
  for i = 1, 5 do p[i] = tonumber(p[i]) end
  local s = match.sprt(p, {elo0 = 0, elo1 = 50, alpha = 0.05, beta = 0.05})
  assert(math.abs(s.llr - llr) < 0.006, s.llr .. " " .. llr)
  assert(s.decision == "H0" and llr <= math.log(0.05 / 0.95))
EOF
"$ludus" "$dir/llr.lua" "$dir/h0" 2>"$dir/err"
check $? "SPRT: the LLR printed is match.sprt of the pentanomial printed $(cat "$dir/err")"

# -- shards --
for k in 1 2 3; do
  "$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 --shard $k/3 \
    --concurrency 1 --out "$dir/s$k.jsonl" --quiet >/dev/null 2>&1
done
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s2.jsonl" "$dir/s3.jsonl" \
  --out "$dir/merged.jsonl" >"$dir/merged" 2>/dev/null
games "$dir/merged.jsonl" >"$dir/merged.g"
[ "$(wc -l <"$dir/s1.jsonl")" = 14 ] && [ "$(wc -l <"$dir/s3.jsonl")" = 12 ] &&
  cmp -s "$dir/one" "$dir/merged" && cmp -s "$dir/one.g" "$dir/merged.g"
check $? "--shard K/3 plays every third pair; --merge gives the single run's result and lines"
# each shard would stop on an SPRT of its own, and the merged shards
# would not be the match: --sprt goes to --merge, which tests the whole
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 4 --shard 1/3 \
  --sprt elo0=0 elo1=5 --out "$dir/sprt-shard.jsonl" --quiet >/dev/null 2>"$dir/err"
[ $? = 2 ] && [ ! -e "$dir/sprt-shard.jsonl" ] &&
  grep -q "match: --sprt is not for --shard: each shard would stop on its own test, .*--merge FILE... --sprt" "$dir/err"
check $? "--sprt with --shard is refused, saying to give it to --merge: $(cat "$dir/err")"
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s2.jsonl" "$dir/s3.jsonl" --sprt elo0=0 elo1=5 \
  >"$dir/out" 2>"$dir/err"
[ $? = 0 ] && grep -q "in 40 games" "$dir/out" &&
  grep -q "SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR" "$dir/out"
check $? "--merge --sprt gives the LLR of the whole match $(cat "$dir/err")"
if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 "$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 \
    --games 40 --shard {}/2 --concurrency 1 --out "$dir/p{}.jsonl" --quiet ::: 1 2 \
    >/dev/null 2>&1
  "$ludus" match --merge "$dir/p1.jsonl" "$dir/p2.jsonl" >"$dir/parallel" 2>/dev/null
  cmp -s "$dir/one" "$dir/parallel"
  check $? "GNU parallel: two shards at once, merged, are the single run"
else
  check 1 "GNU parallel is not installed (make deps installs it)"
fi
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s1.jsonl" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "game 1 is in .*s1.jsonl and in .*s1.jsonl" "$dir/err"
check $? "--merge refuses a game given twice"
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 --games 40 --shard 2/3 --seed 7 \
  --concurrency 1 --out "$dir/s2seed.jsonl" --quiet >/dev/null 2>&1
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s2seed.jsonl" "$dir/s3.jsonl" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && [ ! -s "$dir/out" ] &&
  grep -q "s1.jsonl:1 and .*s2seed.jsonl:1 are games of two matches (--seed is 1 in the first, 7 in the other)" "$dir/err"
check $? "--merge refuses the shards of two matches, saying what differs: $(cat "$dir/err")"
"$ludus" match --merge "$dir/nothing.jsonl" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot read '.*nothing.jsonl' (No such file or directory)$" "$dir/err"
check $? "--merge says it cannot read a file, and why, as every refusal of ludus match does"
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s3.jsonl" >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && grep -q "in 26 games" "$dir/out" &&
  grep -q "the merged lines are not the whole match: missing: games 3-4, .*; shard 2/3 (a run or a shard that did not finish carries on with --resume)" "$dir/err"
check $? "--merge gives the result of what it has, and says which games and shards are missing: $(cat "$dir/err")"
head -n 10 "$dir/s2.jsonl" >"$dir/s2.short"
"$ludus" match --merge "$dir/s1.jsonl" "$dir/s2.short" "$dir/s3.jsonl" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "missing: games 33-34 (a run" "$dir/err"
check $? "--merge says when a shard did not finish: $(cat "$dir/err")"
"$ludus" match --merge "$dir/s1.jsonl" --out "$dir/no/such.jsonl" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot write .*no/such.jsonl" "$dir/err"
check $? "--merge says it cannot write its --out"
# a directory, and lines that are JSON but no game of a match
mkdir "$dir/adir"
"$ludus" match --merge "$dir/adir" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot read '.*adir' (Is a directory)$" "$dir/err"
check $? "--merge refuses a directory: $(cat "$dir/err")"
"$ludus" match tictactoe random random --out "$dir/adir" --resume >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot read '.*adir' (Is a directory)$" "$dir/err"
check $? "--resume refuses a directory: $(cat "$dir/err")"
for line in '{"game":1}' '{"game":0,"a":"x","b":"y","first":"a"}' \
    '{"game":1,"a":{},"b":"y","first":"a"}' '{"game":1,"a":"x","b":"y","first":"c"}' \
    '{"game":1,"a":"x","b":"y","first":"a","winner":"z"}' \
    '{"game":1,"a":"x","b":"y","first":"a","pair":"1"}'; do
  printf '%s\n' "$line" >"$dir/forged.jsonl"
  "$ludus" match --merge "$dir/forged.jsonl" >"$dir/out" 2>"$dir/err"
  [ $? = 1 ] && [ ! -s "$dir/out" ] && grep -q "forged.jsonl:1 is not a line of a match (" "$dir/err"
  check $? "--merge refuses $line: $(cat "$dir/err")"
done

# -- openings --
head -n 3 "$data/connect4/Test_L3_R1" >"$dir/c4.txt"
"$ludus" match connect4 alphabeta:depth=2 random --openings "$dir/c4.txt" --games 6 \
  --out "$dir/c4.jsonl" --quiet >/dev/null 2>&1
ok=0
while read -r moves score; do
  [ "$(grep -c "\"opening\":\"$moves\"" "$dir/c4.jsonl")" = 2 ] &&
    grep -q "\"first\":\"a\".*\"record\":\"$moves[1-7]*\",\"opening\":\"$moves\"" "$dir/c4.jsonl" &&
    grep -q "\"first\":\"b\".*\"record\":\"$moves[1-7]*\",\"opening\":\"$moves\"" "$dir/c4.jsonl" ||
    ok=1
done <"$dir/c4.txt"
check $ok "connect4: each of Pons' positions starts two games, one from each side"
pgn="$data/xiangqi/pgn/ccpd-masters/game001.pgn"
"$ludus" match xiangqi alphabeta:depth=2 random --openings "$pgn" --plies 10 --games 2 \
  --max-plies 200 --out "$dir/xq.jsonl" --quiet >/dev/null 2>&1
[ "$(grep -c '"opening":"h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b2d2 a9b9"' "$dir/xq.jsonl")" = 2 ]
check $? "xiangqi: a PGN game's first 10 plies open both games"
"$ludus" match xiangqi alphabeta:depth=2 random --openings "$pgn" --plies 10 --games 2 \
  --max-plies 200 --records "$dir/xq.pgn" --quiet >/dev/null 2>&1
"$ludus" replay xiangqi "$dir/xq.pgn" --quiet >"$dir/xq.replay" 2>/dev/null
[ "$(grep -c '"agrees":true' "$dir/xq.replay")" = 2 ] &&
  sed -n 's/.*"plies":\([0-9]*\).*/\1/p' "$dir/xq.jsonl" >"$dir/plies.a" &&
  sed -n 's/.*"moves":\([0-9]*\).*/\1/p' "$dir/xq.replay" | cmp -s - "$dir/plies.a"
check $? "xiangqi: --records writes the games as PGN, which ludus replay replays to their results"
# the PGN names the players of each game by its colours ([Red], [Black],
# swapped every game) and gives the match's result, also for a game lost
# by an error or cut at --max-plies, which the board does not end
"$ludus" match xiangqi alphabeta:depth=1,name=ab "$dir/boom.lua:name=boom" random --games 2 \
  --max-plies 40 --records "$dir/named.pgn" --out "$dir/named.jsonl" --quiet >/dev/null 2>&1
cat >"$dir/named.lua" <<'EOF'
  local lines = {}
  for line in io.lines(arg[2]) do
    lines[line:match('"record":"([^"]*)"')] = line
  end
  local results, count = {}, 0
  for r, err in xiangqi.read(arg[1]) do
    assert(r, err)
    local line = assert(lines[r.game:save()], "a game of the PGN is no game of the match")
    local a, b, first = line:match('"a":"([^"]*)","b":"([^"]*)","first":"([ab])"')
    local winner = line:match('"winner":"([ab])"')
    local red, black = a, b
    if first == "b" then red, black = b, a end
    assert(r.tags.Red == red and r.tags.Black == black,
           ("[Red %s] [Black %s], not %s and %s"):format(r.tags.Red, r.tags.Black, red, black))
    local result = not winner and "1/2-1/2" or winner == first and "1-0" or "0-1"
    assert(r.result == result, ("%s for %s"):format(r.result, line))
    results[result], count = true, count + 1
  end
  assert(count == 6 and results["1-0"] and results["0-1"] and results["1/2-1/2"],
         "six games, won by red, by black and drawn")
EOF
"$ludus" "$dir/named.lua" "$dir/named.pgn" "$dir/named.jsonl" 2>"$dir/err"
check $? "xiangqi: --records names red and black as each game had them, with the match's result $(cat "$dir/err")"
"$ludus" match xiangqi "alphabeta:depth=1,name=$(printf 'a\377')" random --games 2 \
  --max-plies 10 --records "$dir/latin1.pgn" --quiet >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "match: cannot write the records: xiangqi: tag 'Red' is not UTF-8 text$" "$dir/err"
check $? "xiangqi: a name that is not UTF-8 cannot be a PGN's tag, and --records says so: $(cat "$dir/err")"
# ludus's own UCI engine as a player: ai.uci speaking to `ludus uci`
"$ludus" match xiangqi "uci:command=$ludus uci,go=movetime 30,name=ludus-uci" alphabeta:depth=1 \
  --games 2 --max-plies 20 --records "$dir/uci.pgn" --out "$dir/uci.jsonl" --quiet \
  >"$dir/uci.out" 2>&1
status=$?
"$ludus" replay xiangqi "$dir/uci.pgn" --quiet >/dev/null 2>"$dir/uci.err"
[ "$status" = 0 ] && [ "$(grep -c '"a":"ludus-uci",' "$dir/uci.jsonl")" = 2 ] &&
  ! grep -q '"forfeit"' "$dir/uci.jsonl" && grep -q "2 records (0 errors, 0 disagree" "$dir/uci.err"
check $? "xiangqi: ludus uci as a player of ludus match (uci:...): no forfeit, games that replay"
printf 'f5d6c3d3c4\nf5f6e6f4\n' >"$dir/rv.txt"
"$ludus" match othello greedy random --openings "$dir/rv.txt" --games 4 \
  --out "$dir/rv.jsonl" --quiet >/dev/null 2>&1
[ "$(grep -c '"opening":"f5d6c3d3c4"' "$dir/rv.jsonl")" = 2 ] &&
  [ "$(grep -c '"opening":"f5f6e6f4"' "$dir/rv.jsonl")" = 2 ]
check $? "othello: transcripts open two games each"

# -- round robin, gauntlet --
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 random --games 4 \
  --out "$dir/rr.jsonl" >"$dir/rr" 2>/dev/null
[ "$(wc -l <"$dir/rr.jsonl")" = 12 ] && grep -q "^rank player" "$dir/rr" &&
  grep -q "^1 *alphabeta:depth=2 *8 " "$dir/rr" &&
  grep -q "^mcts:playouts=30 vs random: " "$dir/rr"
check $? "a round robin of three: three pairs of players, 12 games, the table"
"$ludus" match tictactoe alphabeta:depth=2 mcts:playouts=30 random --games 4 --gauntlet \
  >"$dir/g" 2>/dev/null
[ "$(grep -c " vs " "$dir/g")" = 2 ] && ! grep -q "^mcts:playouts=30 vs random" "$dir/g"
check $? "a gauntlet: the first player against each other one"

# -- bad command lines --
bad() {
  want=$1
  shift
  "$ludus" match "$@" >/dev/null 2>"$dir/err"
  status=$?
  # one line, and no place in ludus's own files
  [ "$status" = "$want" ] && [ -s "$dir/err" ] && ! grep -q "traceback" "$dir/err" &&
    [ "$(wc -l <"$dir/err")" = 1 ] && ! grep -q "ludus/[a-z_]*\.lua:[0-9]" "$dir/err"
  check $? "refused with status $want: $* ($(head -c 120 "$dir/err"))"
}
bad 2 tictactoe random
bad 2 chess random random
bad 2 tictactoe random random --games
bad 2 tictactoe random random --frobnicate
bad 2 tictactoe random random --games 0
bad 2 tictactoe random random greedy --games 4611686018427387904
bad 2 tictactoe random nobody
bad 2 tictactoe random random --tc fast
bad 2 tictactoe random random --sprt elo0=5 elo1=0
bad 2 tictactoe random random --shard 4/3
bad 2 tictactoe random random --resume
bad 1 tictactoe random random --openings "$dir/nothing.txt"
# a directory for the openings, read line by line or by the game's reader
mkdir -p "$dir/adir"
for game in connect4 xiangqi othello; do
  "$ludus" match $game random random --openings "$dir/adir" >/dev/null 2>"$dir/err"
  [ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot open '.*adir' (Is a directory)$" "$dir/err"
  check $? "$game: --openings refuses a directory: $(cat "$dir/err")"
done
printf 'garbage\n' >"$dir/bad.wtb"
"$ludus" match othello random random --openings "$dir/bad.wtb" >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "^[^ ]*ludus match: cannot read '.*bad.wtb': reversi: .*not a WTHOR file" "$dir/err"
check $? "othello: --openings says why its reader refused the file: $(cat "$dir/err")"
bad 2 tictactoe random "$dir/nothing.lua"
bad 2 connect4 alphabeta:depth=1 random --shard 3/2
bad 2 connect4 alphabeta:depth=1 random --tc 0+0
bad 2 connect4 alphabeta:depth=1 random --st -1
# an engine that is not there stops the match before it starts (it had
# lost every game by an error, and the match exited 0)
bad 2 xiangqi random uci:no-such-engine-ludus --games 2
grep -q "no program 'no-such-engine-ludus' to start (not in \$PATH)" "$dir/err"
check $? "a UCI engine that is not there is named: $(cat "$dir/err")"
bad 2 xiangqi random "uci:command=$dir/no-engine" --games 2
# both time controls: the message names the command's options, as the others do
"$ludus" match tictactoe random random --tc 1+0 --st 0.1 >/dev/null 2>"$dir/err"
[ $? = 2 ] && grep -q "ludus match: --tc and --st are two time controls: give one" "$dir/err"
check $? "--tc with --st is refused naming both: $(cat "$dir/err")"
bad 2 connect4 alphabeta:depth=1 random --sprt bogus
bad 2 connect4 alphabeta:depth=1 random --sprt elo0=0 elo1=1e308
bad 2 connect4 alphabeta:depth=abc random
bad 2 connect4 alphabeta:dpth=3 random
bad 2 connect4 random random --option bogus=1
bad 2 connect4 random random --option width=100
bad 2 tictactoe random random --option bogus=1
bad 2 tictactoe random random --plies 4
"$ludus" match tictactoe random random --games 2 --out "$dir/played.jsonl" \
  --records "$dir/no/such.txt" --quiet >/dev/null 2>"$dir/err"
[ $? = 1 ] && grep -q "match: cannot write the records: .*no/such.txt" "$dir/err" &&
  [ ! -s "$dir/played.jsonl" ]
check $? "--records that cannot be written is refused before any game"
"$ludus" match mahjong mahjong_random mahjong_random mahjong_random mahjong_random \
  --games 1 --records "$dir/no/such.json" --quiet >"$dir/out" 2>"$dir/err"
[ $? = 1 ] && grep -q "match: cannot write the records: .*no/such.json" "$dir/err" &&
  [ ! -s "$dir/out" ]
check $? "mahjong too: --records that cannot be written is refused before any game"
# othello's records are transcripts that ludus replay reads to the end
"$ludus" match othello alphabeta:depth=1 random --games 2 --records "$dir/o.txt" \
  --quiet >/dev/null 2>&1
"$ludus" replay othello "$dir/o.txt" --quiet >"$dir/o.jsonl" 2>"$dir/o.err"
[ $? = 0 ] && grep -q "2 records (0 errors, 0 disagree" "$dir/o.err" &&
  [ "$(grep -c '"moves":[0-9]*,.*"result":"\(black\|white\|draw\)"' "$dir/o.jsonl")" = 2 ]
check $? "othello: the records of a match are transcripts that replay to the end"
# GGF names the players too (PB black, PW white), as each game had them
"$ludus" match othello greedy:name=g random --games 2 --records "$dir/o.ggf" \
  --out "$dir/o.jsonl" --quiet >/dev/null 2>&1
cat >"$dir/ggf.lua" <<'EOF'
  local lines = {}
  for line in io.lines(arg[2]) do lines[line:match('"record":"([^"]*)"')] = line end
  local count = 0
  for r, err in reversi.read(arg[1]) do
    assert(r, err)
    local line = assert(lines[r.game:save()], "a game of the GGF is no game of the match")
    local a, b, first = line:match('"a":"([^"]*)","b":"([^"]*)","first":"([ab])"')
    local black, white = a, b
    if first == "b" then black, white = b, a end
    assert(r.black == black and r.white == white,
           ("PB[%s] PW[%s], not %s and %s"):format(r.black, r.white, black, white))
    count = count + 1
  end
  assert(count == 2, "two games")
EOF
"$ludus" "$dir/ggf.lua" "$dir/o.ggf" "$dir/o.jsonl" 2>"$dir/err"
check $? "othello: --records FILE.ggf names black and white as each game had them $(cat "$dir/err")"

# mahjong seats four; its records are Tenhou's JSON, which mahjong.read replays
"$ludus" match mahjong mahjong_efficiency mahjong_random mahjong_random \
  mahjong_defensive:name=def --games 4 --seed 7 --records "$dir/mj.json" --quiet >"$dir/mj.out"
status=$?
[ "$status" = 0 ] && grep -q "^mahjong match: 4 games" "$dir/mj.out" &&
  grep -q "^  def " "$dir/mj.out" &&
  [ "$("$ludus" -e "local g = require('ludus.mahjong').read('$dir/mj.json')
       local n = 0 for _, x in ipairs(g) do if x.agrees then n = n + 1 end end print(#g, n)")" = "4	4" ]
check $? "mahjong: four players, seats rotated, four records that mahjong.read replays (status $status)"
bad 2 mahjong mahjong_random mahjong_random mahjong_random
bad 2 mahjong mahjong_random mahjong_random mahjong_random mahjong_random --tc 1+0
bad 1 mahjong mahjong_random mahjong_random mahjong_random nobody

# a file of scripts/players returns a maker of players: named by its
# path, it plays as its name does
players="$(dirname "$0")/../scripts/players"
"$ludus" match tictactoe "$players/minimax.lua:depth=2,name=m" random --games 4 \
  --quiet >"$dir/by_file" 2>"$dir/err"
status=$?
"$ludus" match tictactoe minimax:depth=2,name=m random --games 4 --quiet >"$dir/by_name" 2>/dev/null
grep -q "endings: rules 4" "$dir/by_file" && cmp -s "$dir/by_file" "$dir/by_name"
check $? "scripts/players/minimax.lua:depth=2 plays as minimax:depth=2 (status $status) $(cat "$dir/err")"
"$ludus" match mahjong "$players/mahjong_random.lua:seed=3,name=r" mahjong_random \
  mahjong_random mahjong_random --games 1 --quiet >"$dir/by_file" 2>"$dir/err"
status=$?
"$ludus" match mahjong mahjong_random:seed=3,name=r mahjong_random \
  mahjong_random mahjong_random --games 1 --quiet >"$dir/by_name" 2>/dev/null
[ "$status" = 0 ] && cmp -s "$dir/by_file" "$dir/by_name"
check $? "mahjong too: scripts/players/mahjong_random.lua:seed=3 is mahjong_random:seed=3 (status $status) $(cat "$dir/err")"
cat >"$dir/last_tile.lua" <<'EOF'
-- a mahjong player as a function: it lets its last tile go
return function(question, view, tiles)
  if question == "discard" then return tiles[#tiles] end
end
EOF
"$ludus" match mahjong "$dir/last_tile.lua" mahjong_random mahjong_random mahjong_random \
  --games 1 --seed 2 --quiet >"$dir/by_function" 2>"$dir/err"
status=$?
[ "$status" = 0 ] && grep -q "^  player 1 " "$dir/by_function"
check $? "mahjong: a Lua file that returns a player function plays as that player, not as a maker of one (status $status) $(cat "$dir/err")"

# an output naming an input or another output would write over it
printf '4453\n' >"$dir/book.txt"
cp "$dir/s1.jsonl" "$dir/part.jsonl"
for files in "--openings $dir/book.txt --out $dir/../$(basename "$dir")/book.txt" \
    "--openings $dir/book.txt --records $dir/book.txt" \
    "--out $dir/clash.jsonl --records $dir/clash.jsonl"; do
  # shellcheck disable=SC2086  # the options and their files
  "$ludus" match connect4 random random --games 2 $files --quiet >/dev/null 2>"$dir/err"
  status=$?
  [ "$status" = 2 ] && [ "$(cat "$dir/book.txt")" = 4453 ] && [ ! -e "$dir/clash.jsonl" ] &&
    grep -q "name the same file ('.*'): one would write over the other" "$dir/err"
  check $? "$(echo "$files" | sed "s|$dir/||g"): refused, the file left alone (status $status)"
done
"$ludus" match --merge "$dir/part.jsonl" --out "$dir/part.jsonl" >/dev/null 2>"$dir/err"
status=$?
[ "$status" = 2 ] && cmp -s "$dir/s1.jsonl" "$dir/part.jsonl" &&
  grep -q -- "--out and --merge name the same file" "$dir/err"
check $? "--merge FILE --out FILE: refused, the file left alone (status $status)"

# lines or records that cannot be written (a full disk) are said, and
# the match fails, rather than lost
if [ -w /dev/full ]; then
  for where in "--out /dev/full" "--out /dev/full --concurrency 2" "--records /dev/full"; do
    # shellcheck disable=SC2086  # an option and its value
    "$ludus" match tictactoe random random --games 4 $where --quiet >/dev/null 2>"$dir/err"
    status=$?
    [ "$status" = 1 ] && grep -q "cannot write .*/dev/full: No space left on device" "$dir/err"
    check $? "$where: status $status, $(cat "$dir/err")"
  done
  "$ludus" match --merge "$dir/s1.jsonl" --out /dev/full >/dev/null 2>"$dir/err"
  status=$?
  [ "$status" = 1 ] && grep -q "cannot write .*/dev/full: No space left on device" "$dir/err"
  check $? "--merge --out /dev/full: status $status, $(cat "$dir/err")"
  "$ludus" match mahjong mahjong_random mahjong_random mahjong_random mahjong_random \
    --games 1 --records /dev/full --quiet >/dev/null 2>"$dir/err"
  status=$?
  [ "$status" = 1 ] && grep -q "cannot write the records: /dev/full: No space left on device" "$dir/err"
  check $? "mahjong --records /dev/full: status $status, $(cat "$dir/err")"
fi

"$ludus" match --help | grep -q "^usage: .* match GAME A B"
check $? "--help says how"

echo "1..$n"
