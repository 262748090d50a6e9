-- bench_reversi_read.lua: what a Lua loop over reversi.read costs per
-- game on the shared WTHOR files (every record a table with its game
-- object, names and counts), beside the loop issue #17 started from:
-- the games' bytes unpacked in Lua and played by reversi.load.  Run by
-- `make bench`:
--
--   ./ludus tests/bench/bench_reversi_read.lua DATA_DIR [rounds]
--
-- CPU time of the best of three runs (the machine is shared); the sum of
-- black's discs at the end is the signature of what was replayed.

local reversi = require "ludus.reversi"

local dir = (arg and arg[1] or "../shared/data") .. "/othello/wthor/"
local rounds = math.tointeger(tonumber(arg and arg[2])) or 5
local files = {"WTH_2001.wtb", "WTH_2002.wtb", "WTH_2019.wtb", "WTH_2020.wtb"}

local function best_of_three(run)
  local best, games, discs = math.huge, 0, 0
  for _ = 1, 3 do
    local start = os.clock()
    games, discs = run()
    best = math.min(best, os.clock() - start)
  end
  return games, discs, best
end

local games, discs, seconds = best_of_three(function()
  local n, black = 0, 0
  for _ = 1, rounds do
    for _, name in ipairs(files) do
      for record in reversi.read(dir .. name) do
        n = n + 1
        black = black + record.game:count().black
      end
    end
  end
  return n, black
end)
print(("reversi.read in Lua:   %d games (%d rounds) in %.2f s: %.0f games/s, %.2f us a "
       .. "game, black's discs %d"):format(games, rounds, seconds, games / seconds,
                                           seconds / games * 1e6, discs // rounds))

-- The loop before: each game's bytes turned into a transcript, and loaded.
local columns = "abcdefgh"
local bytes = {}
for i, name in ipairs(files) do
  local f = assert(io.open(dir .. name, "rb"))
  bytes[i] = f:read("a")
  f:close()
end
games, discs, seconds = best_of_three(function()
  local n, black = 0, 0
  for _, data in ipairs(bytes) do
    for at = 17, #data - 67, 68 do
      local moves = {}
      for k = at + 8, at + 67 do
        local x = data:byte(k)
        if x == 0 then break end
        moves[#moves + 1] = columns:sub(x % 10, x % 10) .. x // 10
      end
      local g = reversi.load(table.concat(moves))
      n = n + 1
      black = black + g:count().black
    end
  end
  return n, black
end)
print(("bytes and reversi.load: %d games in %.2f s: %.0f games/s (the loop issue #17 "
       .. "started from; it quotes about 11000), black's discs %d"):format(games, seconds,
                                                                         games / seconds, discs))
