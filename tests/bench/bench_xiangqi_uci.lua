-- bench_xiangqi_uci.lua: how soon `ludus uci` answers while it searches:
-- readyok after isready, bestmove after stop, bestmove after a movetime
-- (how far past it), beside Fairy-Stockfish's (the reference, when it is
-- installed), the two engines alternated round by round.  GUIs expect
-- the first two within 50 ms.
--
--   ludus tests/bench/bench_xiangqi_uci.lua LUDUS [ROUNDS]
--
-- LUDUS is the ludus to run as `LUDUS uci`; ROUNDS (20) searches each.
-- Wall-clock milliseconds, median and worst, with the load average.

local program = require("ludus.program")

local ludus = arg[1] or "./ludus"
local rounds = math.tointeger(tonumber(arg[2] or "20"))
assert(rounds and rounds > 0, "usage: bench_xiangqi_uci.lua LUDUS [ROUNDS]")
local clock = program.clock
local MOVETIME = 300

local function fairy_stockfish()
  for _, path in ipairs{"/usr/games/fairy-stockfish", "/usr/local/games/fairy-stockfish"} do
    local f = io.open(path, "rb")
    if f then f:close() return path end
  end
end

local function load()
  local f = io.open("/proc/loadavg")
  if not f then return "?" end
  local text = f:read("l")
  f:close()
  return text:match("^(%S+)")
end

-- Reads until a line that matches; the time it came.
local function until_line(p, pattern)
  while true do
    local line, why = p:read_line(30)
    assert(line, why)
    if line:find(pattern) then return clock() end
  end
end

local function start(name, argv, setup)
  local p = assert(program.spawn(argv))
  p:write("uci\n")
  until_line(p, "^uciok")
  for _, line in ipairs(setup) do p:write(line .. "\n") end
  p:write("isready\n")
  until_line(p, "^readyok")
  return {name = name, p = p, ready = {}, stop = {}, over = {}}
end

-- One round: an infinite search asked isready, then stopped; a movetime
-- search and how long past its time the bestmove came.
local function round(e)
  local p = e.p
  p:write("position startpos\ngo infinite\n")
  os.execute("sleep 0.2")
  local asked = clock()
  p:write("isready\n")
  e.ready[#e.ready + 1] = (until_line(p, "^readyok") - asked) * 1000
  asked = clock()
  p:write("stop\n")
  e.stop[#e.stop + 1] = (until_line(p, "^bestmove") - asked) * 1000
  asked = clock()
  p:write(("position startpos moves h2e2\ngo movetime %d\n"):format(MOVETIME))
  e.over[#e.over + 1] = (until_line(p, "^bestmove") - asked) * 1000 - MOVETIME
end

local function median(list)
  local sorted = table.move(list, 1, #list, 1, {})
  table.sort(sorted)
  return sorted[(#sorted + 1) // 2], sorted[#sorted]
end

local engines = {start("ludus uci", {ludus, "uci"}, {})}
local fs = fairy_stockfish()
if fs then
  engines[2] = start("Fairy-Stockfish", {fs},
                     {"setoption name UCI_Variant value xiangqi", "setoption name Threads value 1"})
end
local load_before = load()
for _ = 1, rounds do
  for _, e in ipairs(engines) do round(e) end
end
print(("xiangqi over UCI, %d rounds, load %s then %s (ms: median / worst)")
      :format(rounds, load_before, load()))
print(("%-16s %17s %17s %22s"):format("engine", "isready->readyok", "stop->bestmove",
                                       ("movetime %d: past it"):format(MOVETIME)))
for _, e in ipairs(engines) do
  local r1, r2 = median(e.ready)
  local s1, s2 = median(e.stop)
  local o1, o2 = median(e.over)
  print(("%-16s %8.1f / %6.1f %8.1f / %6.1f %13.1f / %6.1f"):format(e.name, r1, r2, s1, s2, o1, o2))
  e.p:write("quit\n")
  e.p:close()
end
if not fs then print("(Fairy-Stockfish is not installed: make deps installs it)") end
