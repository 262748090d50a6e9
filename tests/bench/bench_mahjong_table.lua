-- bench_mahjong_table.lua: hanchan a second at mahjong.table, four
-- players written in Lua on the C round.  Run by `make bench`:
--
--   ./ludus tests/bench/bench_mahjong_table.lua [runs]
--
-- Each line gives the hanchan, rounds and decisions asked of the players
-- in one run (they change only when the table or the players do), and
-- the median rate over `runs` runs (default 3).  The same seeds each run.

local mahjong = require("ludus").mahjong
local random = require("ludus.players.mahjong_random")
local efficiency = require("ludus.players.mahjong_efficiency")
local defensive = require("ludus.players.mahjong_defensive")

local runs = math.tointeger(tonumber(arg and arg[1])) or 3

local function median(values)
  table.sort(values)
  return values[(#values + 1) // 2]
end

-- Counts the questions a player answers, without changing them.
local function counted(player, counter)
  local wrapped = {name = player.name}
  for key, value in pairs(player) do
    if type(value) == "function" then
      wrapped[key] = function(_, ...)
        counter.n = counter.n + 1
        return value(player, ...)
      end
    end
  end
  return wrapped
end

local function measure(label, make, games)
  mahjong.shanten("123m456p789s1122z")     -- the shanten tables, built once
  local rates, rounds = {}, 0
  for _ = 1, runs do
    rounds = 0
    local start = os.clock()
    for g = 1, games do
      local game = mahjong.table{seed = g, players = make(g)}:play()
      rounds = rounds + #game.rounds
    end
    rates[#rates + 1] = games / (os.clock() - start)
  end
  local counter = {n = 0}
  for g = 1, games do
    local players = make(g)
    for i = 1, 4 do players[i] = counted(players[i], counter) end
    mahjong.table{seed = g, players = players}:play()
  end
  local decisions = counter.n
  print(string.format("%-34s %6d hanchan %7d rounds %9d decisions  %8.1f hanchan/s",
                      label, games, rounds, decisions, median(rates)))
end

measure("four random players", function(g)
  return {random{seed = 4 * g}, random{seed = 4 * g + 1}, random{seed = 4 * g + 2},
          random{seed = 4 * g + 3}}
end, 2000)
measure("four efficiency players", function()
  return {efficiency(), efficiency(), efficiency(), efficiency()}
end, 100)
measure("two efficiency, two defensive", function()
  return {efficiency(), defensive(), efficiency(), defensive()}
end, 100)
