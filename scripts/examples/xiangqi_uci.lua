-- xiangqi_uci.lua: the xiangqi engine for GUIs that speak UCI with ICCS
-- moves (the protocol of Pikafish and Fairy-Stockfish's xiangqi):
--
--   ludus scripts/examples/xiangqi_uci.lua
--
-- It answers uci, isready, ucinewgame, position startpos|fen ... [moves
-- ...], go depth|nodes|movetime|wtime/btime/winc/binc/movestogo|infinite,
-- go perft N, stop and quit.  A search with no limit (go infinite) stops
-- when the next line arrives: stop, or anything else, which is then
-- handled as usual; the others end on their depth, nodes or time.

local xiangqi = require("ludus.xiangqi")

io.stdin:setvbuf("no")      -- read no further than a line: the search
io.stdout:setvbuf("line")   -- watches the input for the next one

local game = xiangqi.new()

local function say(...)
  io.write(table.concat({...}, " "), "\n")
end

-- The options of a go command as a table: {depth = 6, infinite = true}.
local function go_options(words)
  local options = {}
  local i = 2
  while words[i] do
    local key, value = words[i], tonumber(words[i + 1])
    if key == "infinite" or key == "ponder" then
      options[key] = true
      i = i + 1
    else
      options[key] = value
      i = i + 2
    end
  end
  return options
end

-- Seconds to think: a share of the clock, or what go says.
local function budget(options)
  if options.movetime then return options.movetime / 1000 end
  local red = game:turn() == "red"
  local clock = red and options.wtime or options.btime
  if not clock then return nil end
  local increment = (red and options.winc or options.binc) or 0
  local share = clock / (options.movestogo or 30) + increment * 0.8
  return math.max(0.01, math.min(share, clock * 0.5) / 1000)
end

local function score_text(info)
  if info.mate then
    local moves = (math.abs(info.mate) + 1) // 2
    return "mate " .. (info.mate > 0 and moves or -moves)
  end
  return "cp " .. info.score
end

local function go(words)
  if words[2] == "perft" then
    local depth = tonumber(words[3]) or 1
    local counts, total = xiangqi.divide(game, math.max(depth, 1))
    for _, move in ipairs(game:moves()) do say(move .. ":", counts[move]) end
    say("")
    say("Nodes searched:", depth < 1 and 1 or total)
    return
  end
  if game:is_over() then
    say("info string the game is over")
    say("bestmove (none)")
    return
  end
  local options = go_options(words)
  local limits = {depth = options.depth, nodes = options.nodes,
                  time = budget(options), keep = true}
  if options.infinite or options.ponder or
      not (limits.depth or limits.nodes or limits.time) then
    limits.time = 1e9
    limits.stop_on_input = true
  end
  local info = game:search(limits)
  say("info depth", info.depth, "score", score_text(info), "nodes", info.nodes,
      "nps", math.floor(info.nps), "time", math.floor(info.seconds * 1000),
      "pv", table.concat(info.pv, " "))
  say("bestmove", info.move)
end

local handlers = {
  uci = function()
    say("id name ludus xiangqi")
    say("id author the ludus project")
    say("uciok")
  end,
  isready = function() say("readyok") end,
  ucinewgame = function() game = xiangqi.new() end,
  position = function(_, line)
    local loaded, message = xiangqi.load(line)
    if loaded then
      game = loaded
    else
      say("info string " .. message)
    end
  end,
  go = go,
  stop = function() end,       -- the search has stopped already
}

for line in io.lines() do
  local words = {}
  for word in line:gmatch("%S+") do words[#words + 1] = word end
  local command = words[1]
  if command == "quit" then break end
  local handler = handlers[command]
  if handler then
    handler(words, line)
  elseif command then
    say("info string unknown command '" .. command .. "'")
  end
end
