-- bench_ai.lua: the searches of ludus.ai on games written in C and the
-- same games written in Lua (scripts/variants), so the cost of the Lua
-- bridge shows as a ratio.  Run by `make bench`:
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
