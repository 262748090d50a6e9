-- bench_xiangqi_match.lua: ludus's xiangqi search against Fairy-Stockfish
-- at equal time, through ai.uci and ludus.match (make bench-xiangqi-match).
--
--   ludus tests/bench/bench_xiangqi_match.lua DATA [GAMES [MOVETIME [PLIES [OUT [JOBS]]]]]
--
-- DATA is ../shared/data; GAMES (200) games of MOVETIME (200) ms a move
-- for both sides, Fairy-Stockfish with UCI_Variant=xiangqi, one thread and
-- 16 MB of hash.  The openings are the first PLIES (8) moves of the games
-- in DATA/xiangqi/pgn/iccs, each different one once, in the file's order,
-- and each played twice with the colours swapped.  Prints a line a game,
-- then the score, the Elo difference with its 95% interval and how the
-- games ended.  OUT, when given, gets a line a game: its number, ludus's
-- colour, how it ended and the record (for xiangqi.load).  JOBS, when
-- given, plays that many games at once, each in a process of its own
-- (match's concurrency): on an idle machine of two cores, JOBS=2 plays
-- the match in half the time, each engine still on one thread; on a
-- busy one it slows both sides alike.

local ai = require("ludus.ai")
local match = require("ludus.match")
local xiangqi = require("ludus.xiangqi")

local data = arg[1] or "../shared/data"
local games = math.tointeger(tonumber(arg[2] or "200"))
local movetime = math.tointeger(tonumber(arg[3] or "200"))
local plies = math.tointeger(tonumber(arg[4] or "8"))
local out = arg[5] and arg[5] ~= "" and assert(io.open(arg[5], "w"))
local jobs = arg[6] and arg[6] ~= "" and math.tointeger(tonumber(arg[6])) or nil
assert(games and games > 0 and movetime and movetime > 0 and plies and plies >= 0 and
       (jobs == nil or jobs > 0),
       "usage: bench_xiangqi_match.lua DATA [GAMES [MOVETIME [PLIES [OUT [JOBS]]]]]")

-- The first 'plies' moves of each game of the file, each line once.
local function openings(path, wanted)
  local list, seen = {}, {}
  for record, message in xiangqi.read(path) do
    if record then
      local moves = record.game:history()
      if #moves >= plies then
        local line = table.concat(moves, " ", 1, plies)
        if not seen[line] then
          seen[line] = true
          list[#list + 1] = line
          if #list == wanted then break end
        end
      end
    else
      io.stderr:write("skipped: ", tostring(message), "\n")
    end
  end
  return list
end

local source = data .. "/xiangqi/pgn/iccs/Liu_Dahua_1125_UCI_games.pgn"
local lines = plies > 0 and openings(source, (games + 1) // 2) or nil
if lines and #lines == 0 then lines = nil end

-- keep: the table kept between moves, where the build has it (so that
-- the script measures older builds too)
local seconds = movetime / 1000
local keep = pcall(xiangqi.new().search, xiangqi.new(), {depth = 1, keep = true})
local ludus = {name = "ludus", choose = function(_, g)
  return g:search{time = seconds, keep = keep or nil}.move
end}
local fairy = ai.uci{command = "fairy-stockfish", name = "Fairy-Stockfish",
                     options = {UCI_Variant = "xiangqi", Threads = 1, Hash = 16},
                     go = "movetime " .. movetime}

print(("ludus vs Fairy-Stockfish: %d games, %d ms a move, %s%s"):format(games, movetime,
  lines and ("%d openings of %d plies from %s"):format(#lines, plies,
                                                       source:match("[^/]*$"))
  or "from the start", jobs and (", %d at once"):format(jobs) or ""))

-- How a game ended, from ludus's side: "won: checkmate", "lost:
-- Fairy-Stockfish forfeits (...)", "drawn: move limit".
local function ending(record)
  local outcome = record.winner == "a" and "won" or record.winner == "b" and "lost"
    or "drawn"
  if record.ending == "forfeit" then
    local who = record.winner == "b" and "ludus" or "Fairy-Stockfish"
    return ("%s: %s forfeits (%s)"):format(outcome, who, record.reason)
  elseif record.truncated then
    return outcome .. ": the match's ply limit"
  end
  return outcome .. ": " .. tostring(record.result and record.result.reason)
end

local endings, started = {}, os.time()
local function progress(done, total, result)
  local record = result.records[done]
  local text = ending(record)
  endings[text] = (endings[text] or 0) + 1
  local a = result.a
  print(("game %3d/%d  ludus %s  %-44s %3d plies  ludus +%d =%d -%d  %s")
        :format(done, total, record.first == "a" and "red  " or "black", text,
                record.plies, a.wins, a.draws, a.losses,
                os.date("!%H:%M:%S", os.difftime(os.time(), started))))
  io.stdout:flush()
  if out then
    out:write(("%d\t%s\t%s\t%s\n"):format(done, record.first == "a" and "red" or "black",
                                          text, record.record))
    out:flush()
  end
end

local result = match(xiangqi, ludus, fairy, {games = games, opening = lines,
                                             progress = progress, max_plies = 600,
                                             concurrency = jobs})
print(result)
print(("score %.1f%% (+%d =%d -%d) in %d games; Elo %+.0f, 95%% interval [%+.0f, %+.0f]")
      :format(100 * result.a.score / result.games, result.a.wins, result.a.draws,
              result.a.losses, result.games, result.elo, result.elo_low, result.elo_high))
local list = {}
for text, n in pairs(endings) do list[#list + 1] = {text = text, n = n} end
table.sort(list, function(x, y) return x.n > y.n or (x.n == y.n and x.text < y.text) end)
print("how the games ended (for ludus):")
for _, e in ipairs(list) do print(("  %4d  %s"):format(e.n, e.text)) end
