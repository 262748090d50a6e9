-- bench_match.lua: games an hour with `concurrency = 2` against 1 (each
-- game in a process of its own, as `ludus match` plays them), on
-- tic-tac-toe and Connect Four with fast players.  The goal: at least
-- 1.8 times as many on two idle cores.  Prints the figures (medians of
-- several runs) and the games' score, which is the same for both: the
-- same games are played.
--
--   ludus tests/bench/bench_match.lua [runs]

local ludus = require("ludus")
local process = require("ludus.process")
local match = ludus.match
local tictactoe, connect4 = ludus.tictactoe, ludus.connect4
local runs = math.tointeger(tonumber(arg[1] or "3")) or 3

local cases = {
  {"tictactoe", tictactoe, "alphabeta:depth=2", "random", 2000},
  {"connect4", connect4, "alphabeta:depth=3", "mcts:playouts=100", 400},
}

local function median(list)
  table.sort(list)
  return list[(#list + 1) // 2]
end

print(("%-10s %-36s %6s %14s %14s %7s  %s"):format("game", "players", "games",
  "1 (games/h)", "2 (games/h)", "ratio", "score (a, same for both)"))
for _, case in ipairs(cases) do
  local name, G, a, b, games = table.unpack(case)
  local rates, scores = {}, {}
  for _, concurrency in ipairs({1, 2}) do
    local times = {}
    for _ = 1, runs do
      local started = process.now()
      local r = match(G, a, b, {games = games, concurrency = concurrency, progress = false})
      times[#times + 1] = process.now() - started
      scores[concurrency] = ("+%d =%d -%d"):format(r.a.wins, r.a.draws, r.a.losses)
    end
    rates[concurrency] = games / median(times) * 3600
  end
  print(("%-10s %-36s %6d %14.0f %14.0f %6.2fx  %s%s"):format(name, a .. " vs " .. b,
    games, rates[1], rates[2], rates[2] / rates[1], scores[1],
    scores[1] == scores[2] and "" or (" (2: %s)"):format(scores[2])))
end
