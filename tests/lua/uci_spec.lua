-- uci_spec.lua: ludus.program (another program on a socket pair) and ai.uci (a
-- UCI engine as a player) against fake engines that crash, hang, send
-- illegal or garbled moves or number xiangqi's ranks 1-10
-- (tests/lua/uci/fake_engine.lua, run by ludus), and one short game
-- against Fairy-Stockfish when it is installed.
--
--   LUDUS_BIN_DIR=. busted --lua=lua5.4 tests/lua/uci_spec.lua

require("ludus")
local program = require("ludus.program")
local ai = require("ludus.ai")
local match = require("ludus.match")
local xiangqi = require("ludus.xiangqi")

local assert_raises = require("support").assert_raises

local LUDUS = (os.getenv("LUDUS_BIN_DIR") or ".") .. "/ludus"
local FAKE = "tests/lua/uci/fake_engine.lua"

local function alive(pid)
  return os.execute(("kill -0 %d 2>/dev/null"):format(pid)) == true
end

local function fake(mode, extra)
  local spec = {command = {LUDUS, FAKE, mode}, go = "movetime 100", margin = 0.5}
  for k, v in pairs(extra or {}) do spec[k] = v end
  return ai.uci(spec)
end

local function first(g) return g:moves()[1] end

local function quiet(opts)
  opts.progress = false
  return opts
end

describe("program", function()
  it("writes to a child, reads its lines, times out and collects it", function()
    local p = assert(program.spawn{"cat"})
    assert.is_number(p:pid())
    assert.equal(p, p:write("one\r\ntwo\n"))
    assert.equal("one", p:read_line(5))
    assert.equal("two", p:read_line(5))
    local started = program.clock()
    assert.same({nil, "timeout"}, {p:read_line(0.2)})
    local waited = program.clock() - started
    assert.is_true(waited >= 0.19 and waited < 2, "waited " .. waited)
    local pid = p:pid()
    assert.equal("exit 0", p:close())       -- cat ends at the end of its input
    assert.is_false(alive(pid))
    assert.is_nil(p:pid())
    assert.same({nil, "closed"}, {p:write("more\n")})
    assert.same({nil, "closed"}, {p:read_line(1)})
    assert.equal("exit 0", p:close())       -- a second close changes nothing
  end)

  it("gives the last line without its newline, then says the child closed", function()
    local p = assert(program.spawn{"printf", "a\\nlast"})
    assert.equal("a", p:read_line(5))
    assert.equal("last", p:read_line(5))
    assert.same({nil, "closed"}, {p:read_line(5)})
    assert.equal("exit 0", p:close())
  end)

  it("kills a child that does not end, and reports how it ended", function()
    local p = assert(program.spawn{"sleep", "30"})
    local pid = p:pid()
    assert.equal("running", p:status())
    assert.equal("signal 9", p:close())
    assert.is_false(alive(pid))
    local q = assert(program.spawn{"sh", "-c", "exit 7"})
    assert.same({nil, "closed"}, {q:read_line(5)})
    assert.equal("exit 7", q:close())
  end)

  it("passes arguments as they are, through no shell", function()
    local p = assert(program.spawn{"printf", "%s|", "a b", "$HOME", ";echo x"})
    assert.equal("a b|$HOME|;echo x|", p:read_line(5))
    p:close()
  end)

  it("stops the child when the value is collected or closed", function()
    local p = assert(program.spawn{"sleep", "30"})
    local pid = p:pid()
    p = nil    -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.is_false(alive(pid))
    do
      local q <close> = assert(program.spawn{"sleep", "30"})
      pid = q:pid()
    end
    assert.is_false(alive(pid))
  end)

  it("says why a program cannot start, and refuses bad arguments", function()
    local p, message = program.spawn{"no-such-program-ludus"}
    assert.is_nil(p)
    assert.equal("program: cannot start 'no-such-program-ludus' (No such file or directory)",
                 message)
    assert_raises({"bad argument #1 to", "spawn", "table expected"}, program.spawn, "cat")
    assert_raises({"the program name is missing"}, program.spawn, {})
    assert_raises({"element 2: string expected, got number"}, program.spawn, {"cat", 1})
    assert_raises({"element 1 holds a zero byte"}, program.spawn, {"ca\0t"})
    assert_raises({"the program name is empty"}, program.spawn, {""})
    local q = assert(program.spawn{"cat"})
    assert_raises({"bad argument #2", "not a number"}, q.read_line, q, 0 / 0)
    assert_raises({"bad argument #1", "ludus.program expected"}, q.write, {}, "x")
    q:close()
  end)
end)

describe("ai.uci", function()
  it("refuses bad options with a message", function()
    assert_raises({"ai.uci: option 'command' is missing"}, ai.uci, {})
    assert_raises({"ai.uci: unknown option 'gp' (it takes: command go margin name "
                   .. "options ranks timeout)"}, ai.uci, {command = "x", gp = "depth 1"})
    assert_raises({"option 'command' names no program"}, ai.uci, {command = "  "})
    assert_raises({"command: element 2 must be a string, got number"}, ai.uci,
                  {command = {"x", 2}})
    assert_raises({"option 'go' must be a string of one line"}, ai.uci,
                  {command = "x", go = "depth 1\nquit"})
    assert_raises({"option 'ranks' must be 0 or 1, got 2"}, ai.uci, {command = "x", ranks = 2})
    assert_raises({"option 'go' cannot take 'infinite' (the engine would wait for stop)"},
                  ai.uci, {command = "x", go = "infinite"})
    assert_raises({"option 'go' cannot take 'ponder'"}, ai.uci,
                  {command = "x", go = "ponder movetime 100"})
    assert_raises({"option 'margin' must be a positive number of seconds, got -1"},
                  ai.uci, {command = "x", margin = -1})
    assert_raises({"options: the value of 'Hash' spans lines"}, ai.uci,
                  {command = "x", options = {Hash = "1\nquit"}})
    assert_raises({"options: 'Hash' must be a string, number or boolean, got table"},
                  ai.uci, {command = "x", options = {Hash = {}}})
    assert_raises({"bad argument #1 to 'uci' (table expected, got string)"}, ai.uci, "x")
    -- and a game that is not xiangqi, before starting the engine
    local p = ai.uci{command = "x"}
    assert_raises({"ai.uci: plays xiangqi only (got ludus.connect4)"}, p.choose, p,
                  require("ludus.connect4").new())
    assert.is_nil(p:pid())
  end)

  it("has help, as the other players of ai do", function()
    local text = require("ludus.help").text(ai.uci{command = "x"})
    assert.equal("ai player: ai.uci{", text:sub(1, 18))
    assert.truthy(text:find("p:choose(g)", 1, true))
  end)

  it("raises when the program cannot start or lacks an option", function()
    local p = ai.uci{command = "no-such-program-ludus"}
    assert_raises({"ai.uci: program: cannot start 'no-such-program-ludus'"},
                  p.choose, p, xiangqi.new())
    local q = fake("good", {options = {Hash = 16, Ponder = true}})
    assert_raises({"ai.uci: engine 'fake good' has no option 'Ponder' "
                   .. "(it has: Hash, Threads)"}, q.choose, q, xiangqi.new())
    assert.is_nil(q:pid())
  end)

  it("plays the engine's moves, with what it said in info", function()
    local p = fake("good", {options = {Hash = 16, Threads = 1}})
    assert.equal("ludus", p.name)           -- the program, until it starts
    local g = xiangqi.new()
    for _ = 1, 6 do
      local move = p:choose(g)
      assert.equal(first(g), move)
      assert.same({move = move, depth = 1, score = 12, nodes = 34, pv = {move},
                   seconds = p.info.seconds}, p.info)
      g = g:play(move)
    end
    assert.equal("fake good", p.name)
    assert.equal("fake good", p.engine)
    local pid = p:pid()
    p:close()
    assert.is_false(alive(pid))
    assert.equal(first(g), p:choose(g))    -- a new process after close
    p:close()
  end)

  it("sends and reads ranks 1-10 to an engine that says Fairy-Stockfish", function()
    -- the fake answers garbage to a position it cannot read in its numbering
    local p = fake("fairy", {name = "fairy"})
    local r = match(xiangqi, p, first, quiet{games = 2, max_plies = 30})
    assert.equal(2, r.games)
    for _, record in ipairs(r.records) do
      assert.are_not.equal("forfeit", record.ending)
      local g = assert(xiangqi.load(record.record))
      assert.equal(record.plies, #g:history())
      assert.is_true(record.plies == 30 or g:is_over())
    end
    assert.equal("fairy", p.name)
    assert.equal("Fairy-Stockfish (fake)", p.engine)
    -- a black move from its back rank came through
    local moves = r.records[1].record
    assert.truthy(moves:find("[a-i]9[a-i]%d"), moves)
    -- it was set to xiangqi without being told; told chess, it plays chess
    local chess = fake("fairy", {options = {UCI_Variant = "chess"}})
    assert.same({nil, "illegal move 'e2e4' ('e1e3' here)"}, {chess:choose(xiangqi.new())})
    -- told ranks 0, it cannot read the positions it is sent
    local wrong = fake("fairy", {ranks = 0})
    local g = xiangqi.new():play("h2e2")
    assert.same({nil, "garbled move 'position-not-understood'"}, {wrong:choose(g)})
    -- and the other way: ranks 1 for an engine of ranks 0
    local shifted = fake("good", {ranks = 1})
    assert.same({nil, "garbled move 'e0e1'"}, {shifted:choose(xiangqi.new())})
  end)

  it("forfeits when the engine crashes, and match scores the loss", function()
    local p = fake("crash")
    local r = match(xiangqi, first, p, quiet{games = 2})
    assert.equal(2, r.a.wins)
    assert.equal(2, r.b.losses)
    for _, record in ipairs(r.records) do
      assert.equal("forfeit", record.ending)
      assert.equal("the engine died (exit 3) after 'go movetime 100'", record.reason)
      assert.equal("a", record.winner)
      assert.is_nil(record.result)
    end
    assert.equal(1, r.records[1].plies)     -- b plays second in game 1
    assert.equal(0, r.records[2].plies)
  end)

  it("forfeits when the engine dies at its start or in the middle of a game", function()
    local p = fake("dead")
    local move, reason = p:choose(xiangqi.new())
    assert.is_nil(move)
    assert.equal("the engine died (exit 5) after 'uci'", reason)
    assert.is_nil(p:pid())
    -- the third move: the game so far is kept in the record
    local r = match(xiangqi, fake("late_crash"), first, quiet{games = 1})
    local record = r.records[1]
    assert.equal("forfeit", record.ending)
    assert.equal("the engine died (exit 3) after 'go movetime 100'", record.reason)
    assert.equal(4, record.plies)
    assert.equal("b", record.winner)
    local g = assert(xiangqi.load(record.record))
    assert.equal(4, #g:history())
  end)

  it("forfeits when the engine hangs past its time and margin, and kills it", function()
    local p = fake("hang")
    local started = program.clock()
    local move, reason = p:choose(xiangqi.new())
    local waited = program.clock() - started
    assert.is_nil(move)
    assert.equal("no bestmove within 0.6 s of 'go movetime 100'", reason)
    assert.equal(reason, p.info.forfeit)
    assert.is_true(waited >= 0.6 and waited < 3, "waited " .. waited)
    assert.is_nil(p:pid())
  end)

  it("forfeits on an illegal, a garbled or no move", function()
    local cases = {
      illegal = "illegal move 'a0a5'",
      garbled = "garbled move '?!'",
      none = "no move (bestmove (none))",
    }
    for mode, reason in pairs(cases) do
      local p = fake(mode)
      local r = match(xiangqi, p, first, quiet{games = 1})
      assert.equal("forfeit", r.records[1].ending)
      assert.equal(reason, r.records[1].reason)
      assert.equal("b", r.records[1].winner)
      assert.equal(1, r.a.losses)
    end
    -- a1a6 in ranks 1-10 is a0a5
    local p = fake("illegal", {ranks = 1})
    assert.same({nil, "garbled move 'a0a5'"}, {p:choose(xiangqi.new())})
  end)

  it("stops the engine when the match ends, when closed and when collected", function()
    local p = fake("good")
    local pids = {}
    local r = match(xiangqi, p, function(g)
      pids[#pids + 1] = p:pid()
      return first(g)
    end, quiet{games = 1, max_plies = 4})
    assert.equal(1, r.games)
    assert.is_number(pids[1])
    assert.is_nil(p:pid())
    assert.is_false(alive(pids[1]))
    local pid
    do
      local q <close> = fake("good")
      q:choose(xiangqi.new())
      pid = q:pid()
      assert.is_true(alive(pid))
    end
    assert.is_false(alive(pid))
    local q = fake("good")
    q:choose(xiangqi.new())
    pid = q:pid()
    q = nil    -- luacheck: ignore
    collectgarbage()
    collectgarbage()
    assert.is_false(alive(pid))
  end)

  it("starts from a position given by FEN", function()
    local fen = "3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1"
    local g = assert(xiangqi.load(fen))
    local p = fake("fairy")
    assert.equal(first(g), p:choose(g))
    g = g:play(first(g))
    assert.equal(first(g), p:choose(g))
    p:close()
  end)
end)

-- Fairy-Stockfish from Debian's package, on PATH or in /usr/games.
local function fairy_stockfish()
  for _, dir in ipairs({"/usr/games", "/usr/local/games"}) do
    local path = dir .. "/fairy-stockfish"
    local f = io.open(path, "rb")
    if f then f:close() return path end
  end
  return os.execute("command -v fairy-stockfish >/dev/null 2>&1") == true
    and "fairy-stockfish" or nil
end

describe("ai.uci with Fairy-Stockfish", function()
  it("plays a short game with no forfeit", function()
    if not fairy_stockfish() then
      pending("fairy-stockfish is not installed (make deps installs it)")
      return
    end
    local fs = ai.uci{command = "fairy-stockfish", go = "movetime 30",
                      options = {UCI_Variant = "xiangqi", Threads = 1, Hash = 16}}
    local ludus = {name = "ludus", choose = function(_, g) return g:search{depth = 3}.move end}
    local r = match(xiangqi, ludus, fs, quiet{games = 2, max_plies = 24})
    assert.truthy(fs.engine:find("Fairy-Stockfish", 1, true), fs.engine)
    for _, record in ipairs(r.records) do
      assert.are_not.equal("forfeit", record.ending)
      local g = assert(xiangqi.load(record.record))
      assert.equal(record.plies, #g:history())
      assert.is_true(record.plies >= 24 or g:is_over())
    end
    assert.is_nil(fs:pid())
  end)
end)

describe("uci: specs", function()
  it("make an engine a player by name, as ludus match's command line does", function()
    local p = match.player("uci:command=" .. LUDUS .. " " .. FAKE .. " good,go=movetime 100,"
                           .. "margin=0.5,Hash=16", xiangqi)
    local r = match(xiangqi, p, {name = "first", choose = function(_, g) return first(g) end},
                    quiet{games = 2, max_plies = 6})
    for _, record in ipairs(r.records) do
      assert.are_not.equal("forfeit", record.ending)
      assert.equal(6, record.plies)
    end
    -- the text form is the command alone
    local bare = match.player("uci:" .. LUDUS .. " " .. FAKE .. " good", xiangqi)
    assert.is_string(bare:choose(xiangqi.new()))
    bare:close()
  end)
end)
