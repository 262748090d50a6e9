#!/bin/sh
# interrupt.sh: Ctrl-C stops every long call at once.  Each case starts
# `ludus -e` on a job that would run for minutes, sends it SIGINT (what
# Ctrl-C sends) after a moment, and checks that ludus has stopped and
# said "interrupted" within a second (the job polls for it far more
# often: a tenth of a second is the aim; a second leaves room for a
# loaded machine and the sanitizers).  TAP on standard output.
#
#   sh tests/interrupt.sh BIN_DIR

bin=${1:-.}
. "$(dirname "$0")/tap.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT

now_ms() { date +%s%3N; }

# stops NAME CODE: runs CODE, interrupts it, checks how it ended.
stops() {
  name=$1
  "$bin/ludus" -e "local l = require 'ludus'; $2" >"$out" 2>&1 &
  pid=$!
  sleep 0.5
  if ! kill -0 "$pid" 2>/dev/null; then
    check 1 "$name: still running after half a second"
    sed 's/^/# /' "$out" | head -n 5
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
    check 1 "$name: still running a second after Ctrl-C"
    return
  fi
  wait "$pid"
  if grep -q interrupted "$out"; then
    check 0 "$name: stopped $stopped ms after Ctrl-C"
  else
    check 1 "$name: stopped without saying it was interrupted"
    sed 's/^/# /' "$out" | head -n 5
  fi
}

stops "connect4 solve" "print(l.connect4.new():solve())"
stops "connect4 make_book" "print(l.connect4.make_book(os.tmpname(), {plies = 14}))"
stops "reversi solve" "print(l.reversi.new():solve())"
stops "reversi perft" "print(l.reversi.perft(l.reversi.new(), 15))"
stops "xiangqi perft" "print(l.xiangqi.perft(l.xiangqi.new(), 8))"
stops "xiangqi search" "print(l.xiangqi.new():search{time = 1000})"
stops "sudoku count" "print(l.sudoku.count((l.sudoku.parse(('.'):rep(256)))))"
stops "ai.search" "print(l.ai.search(l.xiangqi.new(), {time = 1000}))"
stops "ai.mcts" "print(l.ai.search(l.gomoku.new(), {algorithm = 'mcts', time = 1000}))"
stops "a Lua evaluation" "print(l.ai.search(l.gomoku.new(), {time = 1000, eval = function(g) return #g:moves() end}))"
stops "match" "print(l.match(l.tictactoe, l.ai.random{}, l.ai.random{}, {games = 10^8, progress = false}))"
stops "a Lua loop" "while true do end"
echo "1..$n"
