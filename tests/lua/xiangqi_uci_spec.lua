-- xiangqi_uci_spec.lua: `ludus uci`, the xiangqi engine for GUIs, driven
-- through a real pipe (ludus.program) as a GUI drives it: info after
-- every iteration, stop and isready answered while it thinks, infinite
-- and ponder searches that only stop, ponderhit, searchmoves, MultiPV,
-- the options, mates in moves, refused positions, the clock; and ai.uci
-- playing ludus uci in a match.  The times checked are loose (a loaded
-- CI machine, the sanitizers) but each would fail if the engine waited
-- for its search to end.
--
--   LUDUS_BIN_DIR=. busted --lua=lua5.4 tests/lua/xiangqi_uci_spec.lua

require("ludus")
local program = require("ludus.program")
local ai = require("ludus.ai")
local match = require("ludus.match")
local xiangqi = require("ludus.xiangqi")

local LUDUS = (os.getenv("LUDUS_BIN_DIR") or ".") .. "/ludus"
local MATE_IN_1 = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1"   -- b0b9
local MATED_IN_1 = "4k4/R8/9/9/9/9/9/9/9/1R1K5 b - - 0 1"
local MATE_IN_2 = "4k4/9/9/9/9/9/9/9/9/RR1K5 w - - 0 1"    -- a0a8, then b0b9
local MATED = "R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1"        -- no legal move

local clock = program.clock

-- An engine in a process of its own, and what it said.
local Engine = {}
Engine.__index = Engine

local function engine()
  local e = setmetatable({p = assert(program.spawn{LUDUS, "uci"})}, Engine)
  return e
end

function Engine:send(line)
  assert(self.p:write(line .. "\n"))
  return self
end

-- The lines up to the first that matches pattern (within seconds): that
-- line, all the lines read, and when it came.
function Engine:expect(pattern, seconds)
  seconds = seconds or 20
  local deadline, seen = clock() + seconds, {}
  while true do
    local line, why = self.p:read_line(math.max(deadline - clock(), 0))
    if not line then
      error(("no line like '%s' within %g s (%s); got:\n%s")
            :format(pattern, seconds, why, table.concat(seen, "\n")), 2)
    end
    seen[#seen + 1] = line
    if line:find(pattern) then return line, seen, clock() end
  end
end

-- The lines that come within seconds; none may match pattern.
function Engine:quiet(seconds, pattern)
  local deadline, seen = clock() + seconds, {}
  while true do
    local left = deadline - clock()
    if left <= 0 then return seen end
    local line = self.p:read_line(left)
    if not line then return seen end
    assert.is_nil(line:find(pattern), ("'%s' came within %g s"):format(line, seconds))
    seen[#seen + 1] = line
  end
end

function Engine:close()
  self.p:write("quit\n")
  return self.p:close()
end

-- The fields of an info line with a pv.
local function info(line)
  local t = {}
  for key in pairs{depth = 1, seldepth = 1, multipv = 1, nodes = 1, nps = 1, time = 1} do
    t[key] = tonumber(line:match("%s" .. key .. "%s+(%d+)"))
  end
  t.kind, t.score = line:match("%sscore%s+(%a+)%s+(%-?%d+)")
  t.score = tonumber(t.score)
  t.pv = {}
  for move in (line:match("%spv%s+(.*)$") or ""):gmatch("%S+") do t.pv[#t.pv + 1] = move end
  return t
end

local function infos(lines)
  local out = {}
  for _, line in ipairs(lines) do
    if line:find("^info depth") then out[#out + 1] = info(line) end
  end
  return out
end

-- Whether the moves are legal one after another from g.
local function plays(g, moves)
  for _, move in ipairs(moves) do
    local ok, after = pcall(g.move, g, move)
    if not ok then return false end
    g = after
  end
  return true
end

local function contains(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

describe("ludus uci", function()
  local e
  after_each(function()
    if e then e:close() end
    e = nil
  end)

  it("says who it is and its options, and is ready", function()
    e = engine()
    local _, seen = e:send("uci"):expect("^uciok$", 10)
    local text = table.concat(seen, "\n")
    assert.truthy(text:find("^id name ludus %d"), text)
    assert.truthy(text:find("\noption name Hash type spin default 16 min 1 max %d+\n"), text)
    assert.truthy(text:find("\noption name Threads type spin default 1 min 1 max 1\n", 1, true),
                  text)
    assert.truthy(text:find("\noption name MultiPV type spin default 1 min 1 max %d+\n"), text)
    assert.truthy(text:find("\noption name Ponder type check default false\n", 1, true), text)
    assert.truthy(text:find("\noption name Clear Hash type button\n", 1, true), text)
    e:send("isready"):expect("^readyok$", 10)
  end)

  it("reports each iteration and plays the first move of its last pv", function()
    e = engine()
    e:send("position startpos moves h2e2"):send("go depth 5")
    local best, seen = e:expect("^bestmove", 60)
    local g = xiangqi.new():move("h2e2")
    local lines = infos(seen)
    assert.equal(5, #lines)
    for i, t in ipairs(lines) do
      assert.truthy(seen[i]:find("^info depth %d+ seldepth %d+ score cp %-?%d+ nodes %d+ "
                                 .. "nps %d+ time %d+ pv [a-i]%d[a-i]%d"), seen[i])
      assert.equal(i, t.depth)
      assert.is_true(t.seldepth >= t.depth)
      assert.is_true(i == 1 or t.nodes >= lines[i - 1].nodes)
      assert.is_true(plays(g, t.pv), seen[i])
    end
    local move, reply = best:match("^bestmove (%S+) ponder (%S+)$")
    assert.equal(lines[5].pv[1], move)
    assert.equal(lines[5].pv[2], reply)
  end)

  it("stops a timed search at stop, and answers isready while it thinks", function()
    e = engine()
    local started = clock()
    e:send("position startpos"):send("go movetime 8000")
    e:quiet(0.3, "^bestmove")
    local asked = clock()
    local _, seen, ready = e:send("isready"):expect("^readyok$", 5)
    for _, line in ipairs(seen) do assert.is_nil(line:find("^bestmove"), line) end
    assert.is_true(ready - asked < 2, ("readyok after %.2f s"):format(ready - asked))
    local stopped = clock()
    local best, _, answered = e:send("stop"):expect("^bestmove", 5)
    assert.truthy(contains(xiangqi.new():moves(), best:match("^bestmove (%S+)")), best)
    assert.is_true(answered - stopped < 2,
                   ("bestmove %.2f s after stop"):format(answered - stopped))
    assert.is_true(answered - started < 5, ("bestmove %.2f s after go"):format(answered - started))
  end)

  it("searches go infinite through other lines until stop", function()
    e = engine()
    e:send("position startpos"):send("go infinite")
    e:send("isready"):send("bogus words"):send("position startpos moves h2e2")
     :send("setoption name MultiPV value 2"):send("ponderhit"):send("")
    local _, seen = e:expect("^readyok$", 5)
    local text = table.concat(e:quiet(1.0, "^bestmove"), "\n") .. table.concat(seen, "\n")
    assert.truthy(text:find("info string unknown command 'bogus'", 1, true), text)
    local best = e:send("stop"):expect("^bestmove", 5)
    -- the search was of the position when go came
    assert.truthy(contains(xiangqi.new():moves(), best:match("^bestmove (%S+)")), best)
    -- and the next is of the position set since, with two lines
    local _, lines = e:send("go depth 2"):expect("^bestmove", 20)
    local last = infos(lines)
    assert.equal(2, last[#last].multipv)
    assert.truthy(contains(xiangqi.new():move("h2e2"):moves(), last[#last].pv[1]))
  end)

  it("an infinite search that is over still waits for stop", function()
    e = engine()
    e:send("position fen " .. MATE_IN_1):send("go infinite")
    e:expect("score mate 1 ", 10)
    e:quiet(0.5, "^bestmove")
    local best = e:send("stop"):expect("^bestmove", 5)
    assert.equal("bestmove b0b9", best)
  end)

  it("ponders until ponderhit, then thinks for its time", function()
    e = engine()
    e:send("position startpos moves h2e2"):send("go ponder movetime 1500")
    e:quiet(0.6, "^bestmove")
    local hit = clock()
    local best, _, came = e:send("ponderhit"):expect("^bestmove", 10)
    assert.truthy(contains(xiangqi.new():move("h2e2"):moves(), best:match("^bestmove (%S+)")), best)
    -- the time counts from ponderhit: not over at once, and not forever
    assert.is_true(came - hit > 1.2, ("bestmove %.2f s after ponderhit"):format(came - hit))
    assert.is_true(came - hit < 6, ("bestmove %.2f s after ponderhit"):format(came - hit))
    -- a ponder miss: stop, and the bestmove comes at once
    e:send("go ponder wtime 60000 btime 60000")
    e:quiet(0.3, "^bestmove")
    local stopped = clock()
    local _, _, answered = e:send("stop"):expect("^bestmove", 5)
    assert.is_true(answered - stopped < 2)
    -- a ponder search over early answers at ponderhit, not before
    e:send("position fen " .. MATE_IN_1):send("go ponder movetime 60000")
    e:expect("score mate 1 ", 10)
    e:quiet(0.3, "^bestmove")
    hit = clock()
    best, _, came = e:send("ponderhit"):expect("^bestmove", 5)
    assert.equal("bestmove b0b9", best)
    assert.is_true(came - hit < 2)
  end)

  it("searches only the moves of searchmoves", function()
    e = engine()
    e:send("position startpos"):send("go depth 3 searchmoves a0a1 i3i4")
    local best, seen = e:expect("^bestmove", 20)
    assert.truthy(best:find("^bestmove [ai][03][ai][14]"), best)
    for _, t in ipairs(infos(seen)) do
      assert.truthy(t.pv[1] == "a0a1" or t.pv[1] == "i3i4", t.pv[1])
    end
    e:send("go depth 2 searchmoves i3i4 z9z9 depth 1")
    local line
    line, seen = e:expect("^bestmove", 20)
    assert.truthy(line:find("^bestmove i3i4"), line)
    local text = table.concat(seen, "\n")
    assert.truthy(text:find("info string go: searchmoves: 'z9z9' left out", 1, true), text)
    assert.equal(1, infos(seen)[#infos(seen)].depth)
  end)

  it("gives MultiPV lines with different first moves, best first", function()
    e = engine()
    e:send("setoption name MultiPV value 3"):send("position fen " .. MATE_IN_1)
    local _, seen = e:send("go depth 3"):expect("^bestmove", 20)
    local lines = infos(seen)
    assert.equal(9, #lines)
    for depth = 1, 3 do
      local firsts = {}
      for k = 1, 3 do
        local t = lines[(depth - 1) * 3 + k]
        assert.equal(depth, t.depth)
        assert.equal(k, t.multipv)
        assert.is_nil(firsts[t.pv[1]])
        firsts[t.pv[1]] = true
      end
      assert.equal("mate", lines[(depth - 1) * 3 + 1].kind)
      assert.equal(1, lines[(depth - 1) * 3 + 1].score)
      assert.equal("b0b9", lines[(depth - 1) * 3 + 1].pv[1])
    end
  end)

  it("reports mates in moves, and a position with no move", function()
    e = engine()
    local _, best, seen
    best, seen = e:send("position fen " .. MATE_IN_2):send("go depth 6"):expect("^bestmove")
    local last = infos(seen)[#infos(seen)]
    assert.same({"mate", 2}, {last.kind, last.score})
    assert.truthy(best:find("^bestmove a0a8"), best)
    assert.equal(3, #last.pv)
    local g = xiangqi.load(MATE_IN_2)
    for _, m in ipairs(last.pv) do g = g:move(m) end
    assert.is_true(g:is_checkmate() or g:is_stalemate())
    _, seen = e:send("position fen " .. MATED_IN_1):send("go depth 4"):expect("^bestmove")
    last = infos(seen)[#infos(seen)]
    assert.same({"mate", -1}, {last.kind, last.score})
    best, seen = e:send("position fen " .. MATED):send("go depth 4"):expect("^bestmove")
    assert.equal("bestmove (none)", best)
    assert.equal("info depth 0 score mate 0", seen[#seen - 1])
    -- go mate N ends at a mate in N, with no depth given
    best = e:send("position fen " .. MATE_IN_2):send("go mate 2"):expect("^bestmove", 20)
    assert.truthy(best:find("^bestmove a0a8"), best)
  end)

  it("refuses a bad position whole, says why and keeps the one before", function()
    e = engine()
    local kept = xiangqi.new():move("h2e2"):fen()
    e:send("position startpos moves h2e2")
    local cases = {
      {"position startpos moves h2e2 h2e2",
       "info string position: illegal move 'h2e2' (move 2 of the list: "},
      {"position startpos moves h2e2 zz", "info string position: unreadable move 'zz'"},
      {"position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 moves e0e1 d9d8 e1e3",
       "info string position: illegal move 'e1e3' (move 3 of the list: "},
      {"position fen rnbakabnr/9/1c5c1/p1p1p1p1p", "info string position: bad fen ("},
      {"position fen", "info string position: the fen is missing"},
      {"position", "info string position: expected 'startpos' or 'fen'"},
      {"position startpos h2e2", "info string position: expected 'moves', got 'h2e2'"},
    }
    for _, case in ipairs(cases) do
      local line = e:send(case[1]):send("d"):expect("^info string", 10)
      assert.equal(case[2], line:sub(1, #case[2]))
      assert.truthy(line:find("; the position stays as it was$"), line)
      assert.equal("Fen: " .. kept, (e:expect("^Fen: ", 10)))
    end
    local best = e:send("go depth 1"):expect("^bestmove", 10)
    assert.truthy(contains(xiangqi.load(kept):moves(), best:match("^bestmove (%S+)")), best)
  end)

  it("takes Hash, Threads 1, Clear Hash and ucinewgame; refuses bad values", function()
    e = engine()
    local function nodes(command)
      local _, seen = e:send(command or "go depth 6"):expect("^bestmove", 60)
      local t = infos(seen)
      return t[#t].nodes
    end
    e:send("position startpos")
    local fresh = nodes()
    local warm = nodes()
    assert.are_not.equal(fresh, warm)          -- the table kept from before
    e:send("setoption name Clear Hash")
    assert.equal(fresh, nodes())
    nodes()
    e:send("ucinewgame"):send("position startpos")
    assert.equal(fresh, nodes())
    e:send("setoption name Hash value 1"):send("position startpos")
    local _, seen = e:send("isready"):expect("^readyok$", 10)
    assert.same({"readyok"}, seen)
    assert.is_number(nodes())
    local refused = {
      {"setoption name Hash value 0", "info string setoption: Hash is 1 to "},
      {"setoption name Hash value lots", "info string setoption: Hash is 1 to "},
      {"setoption name Threads value 2", "info string setoption: Threads is 1 only"},
      {"setoption name MultiPV value 0", "info string setoption: MultiPV is 1 to "},
      {"setoption name Ponder value maybe", "info string setoption: Ponder is true or false"},
      {"setoption name Nonsense value 1", "info string setoption: no option 'Nonsense'"},
      {"setoption Hash 16", "info string setoption: expected 'setoption name"},
    }
    for _, case in ipairs(refused) do
      local line = e:send(case[1]):expect("^info string", 10)
      assert.equal(case[2], line:sub(1, #case[2]))
    end
    _, seen = e:send("setoption name Threads value 1"):send("setoption name ponder value true")
               :send("isready"):expect("^readyok$", 10)
    assert.same({"readyok"}, seen)
  end)

  it("keeps to the clock, the node budget and the depth", function()
    e = engine()
    e:send("position startpos")
    local started = clock()
    local _, _, came = e:send("go wtime 3000 btime 3000"):expect("^bestmove", 10)
    -- a share of 3 s: at most half of it, even on a loaded machine
    assert.is_true(came - started < 2.5, ("%.2f s of 3"):format(came - started))
    local _, seen = e:send("go nodes 20000"):expect("^bestmove", 20)
    local t = infos(seen)
    assert.is_true(t[#t].nodes <= 20100, tostring(t[#t].nodes))
    e:send("position startpos moves h2e2")
    started = clock()
    _, _, came = e:send("go btime 20000 wtime 10 movestogo 20"):expect("^bestmove", 20)
    assert.is_true(came - started > 0.2)       -- black's clock, not red's
    _, seen = e:send("go depth 3 depth x nodes"):expect("^bestmove", 20)
    local text = table.concat(seen, "\n")
    assert.truthy(text:find("info string go: 'depth' needs a whole number (got 'x')", 1, true),
                  text)
    assert.truthy(text:find("info string go: 'nodes' needs a whole number", 1, true), text)
    assert.equal(3, infos(seen)[#infos(seen)].depth)
  end)

  it("counts perft, and takes any line without harm", function()
    e = engine()
    local _, seen = e:send("position startpos moves h2e2"):send("go perft 2")
                     :expect("^Nodes searched: ", 20)
    local g = xiangqi.new():move("h2e2")
    assert.equal("Nodes searched: " .. xiangqi.perft(g, 2), seen[#seen])
    local counts = xiangqi.divide(g, 2)
    for _, line in ipairs(seen) do
      local move, count = line:match("^(%S+): (%d+)$")
      if move then assert.equal(counts[move], tonumber(count)) end
    end
    for _, line in ipairs{("x"):rep(100000), "go depth -3", "go perft 99", "go mate",
                          "\1\2\255", "setoption", "position fen " .. ("9/"):rep(200),
                          "stop", "ponderhit", "go searchmoves"} do
      e:send(line)
    end
    e:send("isready"):expect("^readyok$", 30)
    assert.equal("running", e.p:status())
  end)

  it("quits at once, even while it thinks", function()
    e = engine()
    e:send("go infinite")
    e:quiet(0.3, "^bestmove")
    local asked = clock()
    e:send("quit")
    local line, why
    repeat line, why = e.p:read_line(5) until not line
    assert.equal("closed", why)
    assert.is_true(clock() - asked < 3)
    assert.equal("exit 0", e.p:close())
    e = nil
  end)
end)

describe("ludus uci at the end of its input", function()
  local function run(input)
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write(input)
    f:close()
    -- timeout: a test that fails rather than hangs
    local pipe = assert(io.popen(("timeout 30 %s uci < %s"):format(LUDUS, path)))
    local out = pipe:read("a")
    local ok, _, status = pipe:close()
    os.remove(path)
    return out, ok and 0 or status
  end

  it("finishes a search with a limit, and stops one without", function()
    local out, status = run("position startpos\ngo depth 4\n")
    assert.equal(0, status)
    assert.truthy(out:find("\ninfo depth 4 [^\n]*\nbestmove %S+ ponder %S+\n$"), out)
    out, status = run("position startpos\ngo infinite\n")
    assert.equal(0, status)
    assert.truthy(out:find("\nbestmove %S+"), out)
    out, status = run("go ponder\n")
    assert.equal(0, status)
    assert.truthy(out:find("\nbestmove %S+"), out)
  end)
end)

describe("ludus uci's command line", function()
  it("says how with --help, and refuses an argument", function()
    local pipe = assert(io.popen(LUDUS .. " uci --help"))
    local out = pipe:read("a")
    assert.is_true(pipe:close())
    assert.truthy(out:find("^usage: %S+ uci\n"), out)
    assert.truthy(out:find("Moves are ICCS", 1, true), out)
    pipe = assert(io.popen(LUDUS .. " uci --hash 16 2>&1"))
    out = pipe:read("a")
    local _, _, status = pipe:close()
    assert.equal(2, status)
    assert.truthy(out:find("uci: unknown argument '--hash'", 1, true), out)
    pipe = assert(io.popen(LUDUS .. " --help"))
    out = pipe:read("a")
    pipe:close()
    assert.truthy(out:find("\n  uci +the xiangqi engine over UCI"), out)
  end)
end)

describe("ai.uci playing ludus uci", function()
  it("plays a short match with no forfeit", function()
    local a = ai.uci{command = {LUDUS, "uci"}, go = "movetime 40", name = "a"}
    local b = ai.uci{command = {LUDUS, "uci"}, go = "depth 2", name = "b",
                     options = {Hash = 1, MultiPV = 2}}
    local r = match(xiangqi, a, b, {games = 2, max_plies = 16, progress = false})
    assert.equal(2, r.games)
    for _, record in ipairs(r.records) do
      assert.are_not.equal("forfeit", record.ending)
      local g = assert(xiangqi.load(record.record))
      assert.equal(record.plies, #g:history())
      assert.is_true(record.plies == 16 or g:is_over())
    end
    assert.truthy(a.engine:find("^ludus %d"), a.engine)
    assert.is_nil(a:pid())
    assert.is_nil(b:pid())
  end)

  it("reads its mate in moves as plies, and its pv", function()
    local p = ai.uci{command = {LUDUS, "uci"}, go = "depth 4"}
    assert.equal("a0a8", p:choose(xiangqi.load(MATE_IN_2)))
    assert.equal(3, p.info.mate)
    assert.same({"a0a8", "e9f9", "b0b9"}, p.info.pv)
    p:close()
  end)
end)
