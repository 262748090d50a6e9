-- bench_ai.lua: the searches of ludus.ai on games written in C and the
-- same games written in Lua (scripts/variants), so the cost of the Lua
-- bridge shows as a ratio, and what an evaluation written in Lua costs.
-- Run by `make bench`:
--
--   ./ludus tests/bench/bench_ai.lua [runs]
--
-- Each line gives the nodes (or playouts) of one search, which change only
-- when the search does, and the median rate over `runs` runs (default 5).
-- A run repeats the search for at least a quarter of a second, so the
-- first touch of a fresh table does not swamp small searches.

local ludus = require "ludus"
local mnk = require "ludus.variants.mnk"
local gomoku = require "ludus.variants.gomoku"
local ai = ludus.ai

local runs = math.tointeger(tonumber(arg and arg[1])) or 5
local RUN_SECONDS = 0.25

local function median(values)
  table.sort(values)
  return values[(#values + 1) // 2]
end

-- One search's info, and the median over runs of its count per second.
local function measure(game, options, count_key)
  local rates, info = {}, nil
  for r = 1, runs do
    local count, start = 0, os.clock()
    repeat
      info = ai.search(game, options)
      count = count + info[count_key]
    until os.clock() - start >= RUN_SECONDS
    rates[r] = count / (os.clock() - start)
  end
  return info, median(rates)
end

local function line(label, count, unit, rate)
  print(("  %-6s %10d %-8s %12.0f %s/s"):format(label, count, unit, rate, unit))
end

-- The same search on the game in C and in Lua; the ratio of their rates.
local function compare(title, c_game, lua_game, options, count_key, unit)
  local c_info, c_rate = measure(c_game, options, count_key)
  local lua_info, lua_rate = measure(lua_game, options, count_key)
  print(title)
  line("C", c_info[count_key], unit, c_rate)
  line("Lua", lua_info[count_key], unit, lua_rate)
  print(("  C is %.1fx faster; the Lua search made %d calls into Lua"):format(
        c_rate / lua_rate, lua_info.lua_calls or 0))
end

-- A game whose rule functions do next to nothing, so a search of it costs
-- what the bridge costs: two moves at every ply, no result before ply 14.
local counting = ludus.game.define{
  name = "counting", sides = {"a", "b"},
  new = function() return {ply = 0} end,
  turn = function(s) return s.ply % 2 == 0 and "a" or "b" end,
  moves = (function()
    local two = {"l", "r"}
    return function() return two end
  end)(),
  push = function(s) s.ply = s.ply + 1 end,
  pop = function(s) s.ply = s.ply - 1 end,
  is_over = function(s) return s.ply == 14 end,
  result = function() return {} end,
}

print(("ludus.ai benchmark: median of %d runs of %.2f s, one core"):format(runs, RUN_SECONDS))

compare("alpha-beta, tic-tac-toe solved from the empty board (1 MiB table)",
        ludus.tictactoe.new(), mnk.new(), {tt = 1}, "nodes", "nodes")

local opening = "h8 i9 h9 h10 g8 i8 j8 g7"
compare("alpha-beta, gomoku after " .. opening .. ", depth 3 (16 MiB table)",
        ludus.gomoku.load(opening), gomoku.load(opening), {depth = 3, tt = 16},
        "nodes", "nodes")

compare("MCTS, tic-tac-toe, 20000 playouts, seed 1", ludus.tictactoe.new(), mnk.new(),
        {algorithm = "mcts", playouts = 20000, seed = 1}, "playouts", "playouts")

compare("MCTS, gomoku after " .. opening .. ", 300 playouts, seed 1",
        ludus.gomoku.load(opening), gomoku.load(opening),
        {algorithm = "mcts", playouts = 300, seed = 1}, "playouts", "playouts")

-- The bridge alone: MCTS playouts on the counting game are nothing but
-- calls into Lua.
local calls, seconds = {}, {}
for r = 1, runs do
  local start, made = os.clock(), 0
  repeat
    made = made + ai.search(counting.new(), {algorithm = "mcts", playouts = 2000,
                                              seed = 1}).lua_calls
  until os.clock() - start >= RUN_SECONDS
  seconds[r], calls[r] = os.clock() - start, made
  calls[r] = seconds[r] / made * 1e9
end
print("the bridge: MCTS on a game whose rules do nothing")
print(("  %.0f ns per call into Lua, search included (the design estimate: about 60-80 ns)")
      :format(median(calls)))

-- What a Lua evaluation costs when the C search calls it: the same
-- alpha-beta on the same positions, with the game's own evaluation, with
-- one that reads the board through g:at, and with one that reads
-- g:bitboards and works with Lua's integer operators (docs/ai.md).
local function popcount(x)
  x = x - ((x >> 1) & 0x5555555555555555)
  x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0f
  return (x * 0x0101010101010101) >> 56
end

local squares, weights = {}, {}
local corner_weights = {100, -20, 10, 5, 5, 10, -20, 100}
for row = 1, 8 do
  for column = 1, 8 do
    squares[#squares + 1] = string.char(96 + column) .. row
    local edge = (row == 1 or row == 8) and corner_weights[column]
      or (column == 1 or column == 8) and corner_weights[row] or 1
    weights[#weights + 1] = edge
  end
end

local function eval_at(g)
  local me, score = g:turn(), 0
  for i = 1, 64 do
    local side = g:at(squares[i])
    if side then score = score + (side == me and weights[i] or -weights[i]) end
  end
  return score
end

local CORNERS, EDGES = 0x8100000000000081, 0x3c0081818181003c
local function eval_bitboards(g)
  local mine, theirs = g:bitboards("turn")
  return 100 * (popcount(mine & CORNERS) - popcount(theirs & CORNERS))
       + 5 * (popcount(mine & EDGES) - popcount(theirs & EDGES))
       + popcount(mine) - popcount(theirs)
end

local function evals(title, game, options)
  print(title)
  local base_info, base_rate = measure(game, options, "nodes")
  line("C", base_info.nodes, "nodes", base_rate)
  for _, case in ipairs({{"at", eval_at}, {"bits", eval_bitboards}}) do
    local with = {}
    for k, v in pairs(options) do with[k] = v end
    with.eval = case[2]
    local info, rate = measure(game, with, "nodes")
    line(case[1], info.nodes, "nodes", rate)
    print(("         %.1fx slower than C, %.0f ns per evaluation, search included")
          :format(base_rate / rate, 1e9 / rate * info.nodes / info.lua_calls))
  end
end

evals("alpha-beta on reversi after f5d6c3d3c4, depth 5 (16 MiB table): the "
      .. "evaluation in C, a Lua one through g:at, one through g:bitboards",
      ludus.reversi.load("f5d6c3d3c4"), {depth = 5, tt = 16})
