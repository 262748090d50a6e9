-- fake_engine.lua: a UCI engine that misbehaves on purpose, for the
-- specs of ai.uci (tests/lua/uci_spec.lua).  Run by ludus:
--
--   ludus tests/lua/uci/fake_engine.lua MODE
--
-- MODE: good (the first legal move, ICCS ranks 0-9), fairy (the same
-- with ranks 1-10 and a Fairy-Stockfish id name; a move in the position
-- that is not in that numbering makes it answer garbage, and it plays
-- chess, e2e4, unless UCI_Variant is set to xiangqi), crash (exits
-- at go), late_crash (exits at its third go), dead (exits before it
-- reads a line), hang (ignores everything from go on, quit included),
-- illegal (a move of the right shape that is not legal), garbled
-- (bestmove nonsense), none (bestmove (none)).

local xiangqi = require("ludus.xiangqi")
local mode = arg[1] or "good"
local shift = mode == "fairy" and 1 or 0

io.stdout:setvbuf("line")

local function say(line) io.write(line, "\n") end

local function convert(move, by)
  local f1, r1, f2, r2 = move:match("^([a-i])(%d+)([a-i])(%d+)$")
  if not f1 then return nil end
  r1, r2 = tonumber(r1) + by, tonumber(r2) + by
  if r1 < 0 or r1 > 9 + shift or r2 < 0 or r2 > 9 + shift then return nil end
  return ("%s%d%s%d"):format(f1, r1, f2, r2)
end

local game = xiangqi.new()
local position_ok = true

local function position(line)
  local fen = line:match("^position%s+fen%s+(.-)%s+moves%s")
    or line:match("^position%s+fen%s+(.-)%s*$")
  local moves = line:match("%smoves%s+(.*)$") or ""
  local ours = {}
  for move in moves:gmatch("%S+") do
    local converted = convert(move, -shift)
    if not converted or (shift == 1 and converted:match("^.%d.%d$") == nil) then
      position_ok = false
      return
    end
    ours[#ours + 1] = converted
  end
  local text = (fen or "startpos") .. (#ours > 0 and " moves " .. table.concat(ours, " ") or "")
  local loaded = xiangqi.load(text)
  position_ok = loaded ~= nil
  if loaded then game = loaded end
end

local options = {"Hash", "Threads", "UCI_Variant"}
local goes = 0
local variant = "chess"

if mode == "dead" then os.exit(5) end

for line in io.lines() do
  if line == "uci" then
    say(mode == "fairy" and "id name Fairy-Stockfish (fake)" or "id name fake " .. mode)
    say("id author the ludus specs")
    for _, name in ipairs(options) do
      if name ~= "UCI_Variant" or mode == "fairy" then
        say("option name " .. name .. " type spin default 1 min 1 max 512")
      end
    end
    say("uciok")
  elseif line == "isready" then
    say("readyok")
  elseif line:match("^setoption name UCI_Variant value ") then
    variant = line:match("value%s+(%S+)")
  elseif line:match("^position") then
    position(line)
  elseif line:match("^go") then
    goes = goes + 1
    if mode == "crash" or (mode == "late_crash" and goes == 3) then os.exit(3) end
    if mode == "hang" then
      for _ in io.lines() do end
      while true do end
    end
    local move = game:moves()[1]
    if mode == "illegal" then move = "a0a5"          -- through its own pawn
    elseif mode == "garbled" then move = "?!"
    elseif mode == "none" then move = "(none)"
    elseif not position_ok then move = "position-not-understood"
    elseif mode == "fairy" and variant ~= "xiangqi" then move = "e2e4"
    else move = convert(move, shift) end
    say("info depth 1 score cp 12 nodes 34 pv " .. move)
    say("bestmove " .. move)
  elseif line == "quit" then
    break
  end
end
