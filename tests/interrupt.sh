#!/bin/sh
# interrupt.sh: Ctrl-C stops every long call at once, and the call
# returns what it found.  Each case starts `ludus -e` on a job that would
# run for minutes, sends it SIGINT (what Ctrl-C sends) after a moment,
# and checks that the job returned within a second and that the script
# went on to print "returned interrupted true" (the job's info says it
# was interrupted; the last word checks what it found).  Jobs poll for
# Ctrl-C far more often than that: a tenth of a second is the aim, and
# the time taken is in each line; a second leaves room for a loaded
# machine and the sanitizers.  A plain Lua loop still raises
# "interrupted!", as lua5.4 does.  TAP on standard output.
#
#   sh tests/interrupt.sh BIN_DIR

bin=${1:-.}
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out" "$out.started"' EXIT

now_ms() { date +%s%3N; }

# run CODE: starts it, sends SIGINT half a second after it says it has
# started (a loaded machine may take longer than that to start ludus,
# and a SIGINT before ludus catches it would end the process), waits up
# to a second; sets status (the exit status, or "running" or "hung") and
# stopped (milliseconds from the signal to the end).
run() {
  LUDUS_BOOK= "$bin/ludus" -e "io.stderr:write('started\\n') local l = require 'ludus'; $1" \
    >"$out" 2>"$out.started" &
  pid=$!
  waited=0
  while ! grep -q started "$out.started" 2>/dev/null && [ "$waited" -lt 3000 ]; do
    sleep 0.01
    waited=$((waited + 1))
  done
  sleep 0.5
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    status=ended
    return
  fi
  sent=$(now_ms)
  kill -INT "$pid"
  waited=0
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 100 ]; do
    sleep 0.01
    waited=$((waited + 1))
  done
  stopped=$(( $(now_ms) - sent ))
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    status=hung
    return
  fi
  wait "$pid"
  status=$?
}

# returns NAME CODE: the job returns what it found, and the script goes on.
returns() {
  run "$2"
  case $status in
    ended) check 1 "$1: ended before Ctrl-C" ;;
    hung) check 1 "$1: still running a second after Ctrl-C" ;;
    *) [ "$status" = 0 ] && [ "$(cat "$out")" = "returned	interrupted	true" ]
       check $? "$1: returned $stopped ms after Ctrl-C" ;;
  esac
  [ "$status" = 0 ] || sed 's/^/# /' "$out" | head -n 5
}

returns "connect4 solve" \
  "local s, c, info = l.connect4.new():solve() print('returned', info.stopped, s == nil and info.lower <= info.upper)"
returns "connect4 make_book" \
  "local book, why = l.connect4.make_book(os.tmpname(), {plies = 14}) print('returned', why:match('interrupted'), book == nil)"
returns "reversi solve" \
  "local s, m, info = l.reversi.new():solve() print('returned', info.stopped, s == nil and info.lower <= info.upper)"
returns "reversi search" \
  "local m, s, info = l.reversi.new():search{time = 3600} print('returned', info.stopped, m ~= nil)"
returns "reversi perft" \
  "local n, info = l.reversi.perft(l.reversi.new(), 15) print('returned', info.stopped, n == nil)"
returns "xiangqi perft" \
  "local n, info = l.xiangqi.perft(l.xiangqi.new(), 8) print('returned', info.stopped, n == nil)"
returns "xiangqi divide" \
  "local counts, n, info = l.xiangqi.divide(l.xiangqi.new(), 7) print('returned', info.stopped, n == nil and type(counts) == 'table')"
returns "xiangqi search" \
  "local info = l.xiangqi.new():search{time = 3600} print('returned', info.stopped, info.move ~= nil)"
returns "sudoku count" \
  "local n, info = l.sudoku.count((l.sudoku.parse(('.'):rep(256)))) print('returned', info.stopped, n > 0)"
returns "ai.search" \
  "local info = l.ai.search(l.xiangqi.new(), {time = 3600}) print('returned', info.stopped, info.move ~= nil)"
returns "ai.mcts" \
  "local info = l.ai.search(l.gomoku.new(), {algorithm = 'mcts', time = 3600}) print('returned', info.stopped, info.move ~= nil)"
returns "a Lua evaluation" \
  "local info = l.ai.search(l.gomoku.new(), {time = 3600, eval = function(g) return #g:moves() end}) print('returned', info.stopped, info.move ~= nil)"
returns "a match" \
  "local r = l.match(l.connect4, l.ai.alphabeta{depth = 4}, l.ai.random{seed = 1}, {games = 10^6, progress = false}) print('returned', r.stopped, r.games > 0)"

run "while true do end"
[ "$status" = 1 ] && grep -q "interrupted!" "$out.started"
check $? "a plain Lua loop: raised interrupted! $stopped ms after Ctrl-C"
echo "1..$n"
