-- xiangqi_spec.lua: ludus.xiangqi as the seed article and issue 7 use it:
-- moves as "piece from here to there" (走棋<棋局, 起始位置, 目标位置>) in
-- any notation, the board drawn with Chinese pieces and the river, FEN,
-- the end of the game, perft, the search, and bad input that changes
-- nothing.

local xiangqi = require("ludus.xiangqi")
local support = require("support")
local assert_raises = support.assert_raises

local START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

-- The game state a failed call must leave alone.
local function snapshot(g)
  return {g:fen(), g:save(), g:hash(), #g:history()}
end

describe("xiangqi, the seed's board", function()
  it("draws the start with the seed's pieces, empty points and river", function()
    local text = tostring(xiangqi.new())
    -- 渲染棋子: red 帅仕相傌俥炮兵, black 将士象马车砲卒 (the cannons told
    -- apart); an empty point full width, not the seed's emoji ➕
    assert.truthy(text:find("9 车 马 象 士 将 士 象 马 车\n", 1, true))
    assert.truthy(text:find("7 ＋ 砲 ＋ ＋ ＋ ＋ ＋ 砲 ＋\n", 1, true))
    assert.truthy(text:find("6 卒 ＋ 卒 ＋ 卒 ＋ 卒 ＋ 卒\n", 1, true))
    assert.truthy(text:find("\n┠ ～ 楚 河 ～ ～ ～ 汉 界 ～ ┨\n", 1, true))
    assert.truthy(text:find("3 兵 ＋ 兵 ＋ 兵 ＋ 兵 ＋ 兵\n", 1, true))
    assert.truthy(text:find("2 ＋ 炮 ＋ ＋ ＋ ＋ ＋ 炮 ＋\n", 1, true))
    assert.is_nil(text:find("➕", 1, true))
    assert.truthy(text:find("0 俥 傌 相 仕 帅 仕 相 傌 俥\n", 1, true))
    assert.truthy(text:find("  １ ２ ３ ４ ５ ６ ７ ８ ９\n", 1, true))
    assert.truthy(text:find("  九 八 七 六 五 四 三 二 一\n", 1, true))
    assert.truthy(text:find("red to move$"))
    -- the river lies between ranks 5 and 4
    assert.truthy(text:find("5 [^\n]+\n┠ ～ 楚 河[^\n]+\n4 "))
  end)

  it("draws in plain letters too", function()
    local text = xiangqi.new():draw("ascii")
    assert.truthy(text:find("9 r n b a k a b n r\n", 1, true))
    assert.truthy(text:find("0 R N B A K A B N R\n", 1, true))
    assert.equal(tostring(xiangqi.new()), xiangqi.new():draw())
    assert_raises({"invalid option 'fancy'"},
                  xiangqi.new().draw, xiangqi.new(), "fancy")
  end)

  it("moves a piece from one point to another, as 走棋 does", function()
    local x = xiangqi.new():move("h2", "e2")
    assert.equal("black", x:turn())
    assert.equal("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
                 x:fen())
    x = x:black("h9", "g7"):red("h0", "g2")
    assert.same({"h2e2", "h9g7", "h0g2"}, x:history())
    -- the rules of 棋子可以从这里走到那里吗: horse leg, elephant eye, river
    assert_raises({"illegal move 'b0d1'", "a horse cannot go from b0 to d1"},
                  xiangqi.new().move, xiangqi.new(), "b0", "d1")
    local blocked = xiangqi.load("3k5/9/9/9/9/9/9/9/3p5/2B1K4 w")
    assert_raises({"illegal move 'c0e2'"}, blocked.move, blocked, "c0", "e2")
    local river = xiangqi.load("3k5/9/9/9/9/2B6/9/9/9/4K4 w")
    assert_raises({"illegal move 'c4e6'"}, river.move, river, "c4", "e6")
  end)

  it("names the side with red and black", function()
    local x = xiangqi.new():red("炮二平五"):black("马8进7")
    assert.equal("h2e2 h9g7", x:save())
    assert_raises({"xiangqi: it is red's turn, not black's"}, xiangqi.new().black,
                  xiangqi.new(), "h9g7")
    assert_raises({"xiangqi: it is red's turn, not black's"}, x.black, x, "h0g2")
    assert.equal("h2e2 h9g7", x:save())
  end)
end)

describe("xiangqi notation", function()
  it("reads ICCS, WXF and Chinese alike", function()
    local forms = {"h2e2", "H2-E2", "C2.5", "C2=5", "炮二平五", "砲二平五"}
    for _, m in ipairs(forms) do
      assert.equal("h2e2", xiangqi.new():move(m):history()[1], m)
    end
    local x = xiangqi.new():move("h2e2")
    assert.equal("h9g7", x:move("马8进7"):history()[2])
    assert.equal("h9g7", x:move("H8+7"):history()[2])
  end)

  it("writes any of them", function()
    local x = xiangqi.new()
    assert.equal("炮二平五", x:notation("h2e2", "chinese"))
    assert.equal("C2.5", x:notation("炮二平五", "wxf"))
    assert.equal("h2e2", x:notation("C2.5"))
    local rooks = xiangqi.load("3k5/9/9/9/9/9/R8/9/R8/4K4 w")
    assert.equal("前车平六", rooks:notation("a3d3", "chinese"))
    assert.equal("R-.6", rooks:notation("a1d1", "wxf"))
    assert.equal(44, #x:moves("chinese"))
    assert.equal("兵一进一", x:moves("chinese")[#x:moves()])
  end)

  it("round-trips every legal move of random games", function()
    local random = support.generator(5)
    local checked = 0
    for _ = 1, 12 do
      local x = xiangqi.new()
      for _ = 1, random(60) do
        local moves = x:moves()
        if #moves == 0 then break end
        x:push(moves[random(#moves)])
      end
      for _, m in ipairs(x:moves()) do
        for _, style in ipairs({"wxf", "chinese"}) do
          local text = x:notation(m, style)
          assert.equal(m, x:notation(text, "iccs"), text)
          checked = checked + 1
        end
      end
    end
    assert.truthy(checked > 500)
  end)

  it("says why a move is bad or ambiguous, and changes nothing", function()
    local x = xiangqi.new()
    local before = snapshot(x)
    assert_raises({"bad move 'zz' (not a move in ICCS (h2e2), WXF (C2.5) or Chinese"},
                  x.move, x, "zz")
    assert_raises({"illegal move 'C3.5' for red (no red cannon on file 3; legal:"},
                  x.move, x, "C3.5")
    assert_raises({"illegal move 'h2h8'", "a cannon cannot go from h2 to h8"},
                  x.play, x, "h2h8")
    assert_raises({"illegal move 'e0e2'"}, x.push, x, "e0e2")
    assert_raises({"bad argument #2", "(expected a point from a0 to i9)"},
                  x.move, x, "j1", "e2")
    assert_raises({"bad argument #3", "(expected a point from a0 to i9)"},
                  x.move, x, "h2", "e10")
    assert_raises({"xiangqi: illegal move 'R+.5'"}, x.notation, x, "R+.5", "wxf")
    assert_raises({"invalid option 'latin'"}, x.notation, x, "h2e2", "latin")
    assert.same(before, snapshot(x))
    -- two chariots that can both reach a point
    local two = xiangqi.load("3k5/9/9/9/9/9/R8/9/R8/4K4 w")
    assert_raises({"ambiguous: 2 chariots can make it"}, two.move, two, "R9.5")
    local pinned = xiangqi.load("4k4/9/9/9/4r4/9/9/4R4/9/4K4 w")
    assert_raises({"it would leave the red general in check"}, pinned.move, pinned,
                  "e2d2")
    local facing = xiangqi.load("4k4/9/9/9/9/9/9/9/9/3K5 w")
    assert_raises({"the generals would face each other"}, facing.move, facing, "d0e0")
  end)
end)

describe("xiangqi positions", function()
  it("refuses misspelt options and values of a wrong type", function()
    assert_raises({"xiangqi.new: unknown option 'rulez' (it takes: rules, repetition, "
                   .. "move_limit)"}, xiangqi.new, {rulez = false})
    assert_raises({"xiangqi.load: unknown option 'rulez'"}, xiangqi.load, START,
                  {rulez = false})
    assert_raises({"xiangqi: option 'rules' must be true or false (got 'no')"},
                  xiangqi.new, {rules = "no"})
    assert_raises({"xiangqi: option 'keep' must be true or false (got 'yes')"},
                  xiangqi.new().search, xiangqi.new(), {keep = "yes", depth = 1})
    local g = xiangqi.new{rules = false, repetition = true}
    assert.is_nil(g:result())
  end)

  it("reads and writes FEN, with B/E and N/H", function()
    assert.equal(START, xiangqi.new():fen())
    assert.equal(START, xiangqi.load(START):fen())
    local eh = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"
    assert.equal(START, xiangqi.load(eh):fen())
    local x = xiangqi.load(START .. " moves h2e2 h9g7")
    assert.equal("h2e2 h9g7", x:save())
    x = xiangqi.load("startpos moves h2e2 h9g7")
    assert.equal("h9g7", x:history()[2])
    x = xiangqi.load("1. 炮二平五 马8进7 2. 马二进三 车9平8")
    assert.equal("h2e2 h9g7 h0g2 i9h9", x:save())
  end)

  it("saves a game that began elsewhere as its FEN and moves", function()
    local fen = "3k5/9/9/9/9/9/R8/9/R8/4K4 w - - 0 1"
    local x = xiangqi.load(fen):move("a3d3")
    assert.equal(fen .. " moves a3d3", x:save())
    assert.equal(x:fen(), xiangqi.load(x:save()):fen())
    assert.equal(fen, xiangqi.load(fen):save())
  end)

  it("refuses impossible positions with a reason", function()
    local cases = {
      {"4k4/9/9/9/9/9/9/9/4R4/4K4 w", "the black general is attacked with red to move"},
      {"3k5/9/9/9/9/9/9/9/9/3K5 w", "could take it"},
      {"4k4/9/9/9/9/9/9/4n4/3A5/3K5 w", "red advisors keep to d0 f0 e1 d2 f2"},
      {"3k5/9/9/9/9/9/1P7/9/9/4K4 w", "red soldier on b3 stands where no soldier"},
      {"RRRk5/9/9/9/9/9/9/9/9/4K4 w", "red has more than 2 chariots"},
      {"9/9/9/9/9/9/9/9/9/4K4 w", "black has no general"},
      {"3k5/9/9/9/9/9/9/9/9/4K3 w", "not ten ranks of nine points"},
      {"3k5/9/9/9/9/9/9/9/9/4KX3 w", "'X' at byte 23 is not a piece"},
      {"3k5/9/9/9/9/9/9/9/9/4K4 x", "the side to move must be w"},
    }
    for _, case in ipairs(cases) do
      local g, message = xiangqi.load(case[1])
      assert.is_nil(g)
      assert.truthy(message:find("xiangqi: bad fen '", 1, true), message)
      assert.truthy(message:find(case[2], 1, true), message)
    end
    local g, message = xiangqi.load("h2e2 h2e2")
    assert.is_nil(g)
    assert.equal("xiangqi: bad record: illegal move 2 'h2e2' (there is no piece on h2)",
                 message)
    g, message = xiangqi.load("3k5/4P4/9/9/9/9/9/9/9/4K4 b moves d9d8")
    assert.is_nil(g)
    assert.truthy(message:find("comes after the end of the game", 1, true))
    assert_raises({"bad argument #1", "(string expected, got nil)"}, xiangqi.load, nil)
  end)
end)

describe("xiangqi endings", function()
  it("checkmate and stalemate both lose", function()
    local mate = xiangqi.load("1nbakabn1/r7r/1c7/p1p1C1p1p/4C2c1/9/P1P1P1P1P/9/9/"
      .. "RNBAKABNR b - - 4 4")
    assert.is_true(mate:is_checkmate())
    assert.is_true(mate:in_check())
    assert.is_false(mate:is_stalemate())
    assert.same({winner = "red", draw = false, reason = "checkmate"}, mate:result())
    local stale = xiangqi.load("3k5/4P4/9/9/9/9/9/9/9/4K4 b")
    assert.is_true(stale:is_stalemate())
    assert.is_false(stale:in_check())
    assert.same({winner = "red", draw = false, reason = "stalemate"}, stale:result())
    assert.is_nil(stale:turn())
    assert.same({}, stale:moves())
    local before = snapshot(stale)
    assert_raises({"no move after the end of the game (red won)"}, stale.move, stale,
                  "d9d8")
    assert.same(before, snapshot(stale))
  end)

  it("a perpetual checker loses; shuffling draws; the rule can be off", function()
    local moves = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9"
    local fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w"
    local x = xiangqi.load(fen .. " moves " .. moves)
    assert.same({winner = "black", draw = false, reason = "perpetual check"}, x:result())
    x = xiangqi.load(fen .. " moves " .. moves, {repetition = false})
    assert.is_nil(x:result())
    x = xiangqi.load("4k4/9/9/9/9/9/9/9/9/3K5 w moves "
      .. "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9")
    assert.same({draw = true, reason = "repetition"}, x:result())
    x = xiangqi.load("4k4/9/c8/9/9/9/9/9/9/R2K5 b moves "
      .. "a7b7 a0b0 b7a7 b0a0 a7b7 a0b0 b7a7 b0a0")
    assert.same({winner = "black", draw = false, reason = "perpetual chase"}, x:result())
    -- a general down an open file four ranks away does not protect its
    -- cannon: the rook that hounds it chases (found by fuzz_xiangqi)
    x = xiangqi.load("4k4/9/9/9/R3c4/9/9/9/9/3K5 b moves "
      .. "e5e4 a5a4 e4e5 a4a5 e5e4 a5a4 e4e5 a4a5")
    assert.same({winner = "black", draw = false, reason = "perpetual chase"}, x:result())
  end)

  it("60 moves without a capture draw", function()
    local x = xiangqi.load("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 119 60")
    assert.is_nil(x:result())
    x = x:move("b0c2")
    assert.same({draw = true, reason = "move limit"}, x:result())
    assert.is_nil(xiangqi.new{rules = false}:move("b0c2"):result())
    x = xiangqi.load("3k5/9/9/9/9/9/9/9/9/1N2K4 w - - 119 60", {rules = false})
    assert.is_nil(x:move("b0c2"):result())
  end)

  it("a record played past the rules loads, as a record file's does", function()
    local free = xiangqi.new{rules = false}
    for _ = 1, 3 do free = free:play("h0g2"):play("h9g7"):play("g2h0"):play("g7h9") end
    free = free:play("h2e2")
    -- saved with the rules off, loaded with them on: the moves as played
    local x = assert(xiangqi.load(free:save()))
    assert.same(free:history(), x:history())
    assert.is_nil(x:result())
    assert.same(free:history(), xiangqi.read(free:pgn())().game:history())
    -- and the rules judge what comes next: a position that the moves
    -- played three times, once more, is a repetition
    x = x:play("h9g7"):play("e2h2")
    assert.same({draw = true, reason = "repetition"}, x:result())
    -- with them off, as saved
    x = xiangqi.load(free:save(), {rules = false})
    assert.same(free:history(), x:history())
    -- a move after a checkmate is still refused
    local none, message = xiangqi.load("3k5/4P4/9/9/9/9/9/9/9/4K4 b moves d9d8")
    assert.is_nil(none)
    assert.equal("xiangqi: bad record: move 1 'd9d8' comes after the end of the game", message)
  end)
end)

describe("xiangqi perft", function()
  it("counts the start position's tree", function()
    local x = xiangqi.new()
    assert.equal(44, xiangqi.perft(x, 1))
    assert.equal(1920, xiangqi.perft(x, 2))
    assert.equal(79666, xiangqi.perft(x, 3))
    local counts, total = xiangqi.divide(x, 2)
    assert.equal(1920, total)
    local n, sum = 0, 0
    for _, leaves in pairs(counts) do
      n = n + 1
      sum = sum + leaves
    end
    assert.equal(44, n)
    assert.equal(1920, sum)
    assert.equal(45, counts.h2e2)   -- the cannon on h7 reaches h2 and h1
    assert.equal(38, xiangqi.perft(xiangqi.load(
      "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w"), 1))
    assert_raises({"bad argument #2", "(depth must be 0 to 8)"}, xiangqi.perft, x, 9)
    assert_raises({"bad argument #2", "(depth must be 1 to 8)"}, xiangqi.divide, x, 0)
    assert_raises({"bad argument #2", "(depth must be 1 to 8)"}, xiangqi.divide, x, -1)
  end)
end)

describe("xiangqi search", function()
  it("mates in one, two and three", function()
    local one = xiangqi.load("4k4/R8/9/9/9/9/9/9/9/1R1K5 w")
    local r = one:search{depth = 3}
    assert.equal(1, r.mate)
    assert.equal("red", one:play(r.move):result().winner)
    local two = xiangqi.load("4k4/9/9/9/9/9/9/9/9/RR1K5 w")
    r = two:search{depth = 5}
    assert.equal(3, r.mate)
    local line = two
    for _, m in ipairs(r.pv) do line = line:play(m) end
    assert.equal(3, #r.pv)
    assert.equal("red", line:result().winner)
    -- cannon, horse and soldier: no mate in fewer moves
    local three = xiangqi.load("9/3k5/6P2/9/9/4C4/H8/4K4/9/9 w")
    assert.is_nil(three:search{depth = 4}.mate)
    -- a ply more than the mate: a quiet move of it may be reduced
    r = three:search{depth = 7}
    assert.equal(5, r.mate)
    line = three
    for _, m in ipairs(r.pv) do line = line:play(m) end
    assert.equal("red", line:result().winner)
  end)

  it("wins a hanging piece and keeps its own", function()
    local x = xiangqi.load("4k4/9/9/9/9/2r6/9/9/9/2R2K3 w")
    local r = x:search{depth = 4}
    assert.equal("c0c4", r.move)
    assert.truthy(r.score > 400)
    -- the chariot may not take the horse a chariot guards
    local guarded = xiangqi.load("3k5/9/9/5r3/9/5n3/9/9/9/4KR3 w")
    assert.are_not.equal("f0f4", guarded:search{depth = 4}.move)
  end)

  it("stops on its limits and says why", function()
    local r = xiangqi.new():search{nodes = 2000}
    assert.equal("nodes", r.stopped)
    assert.truthy(support.contains(xiangqi.new():moves(), r.move))
    assert_raises({"xiangqi: search: unknown option 'deep' (it takes: depth, time, "
                   .. "nodes, stop_on_input, keep)"}, xiangqi.new().search,
                  xiangqi.new(), {deep = 3})
    assert_raises({"xiangqi: option 'depth' must be a whole number from 1 to"},
                  xiangqi.new().search, xiangqi.new(), {depth = -1})
    local over = xiangqi.load("3k5/4P4/9/9/9/9/9/9/9/4K4 b")
    assert_raises({"nothing to search, the game is over"}, over.search, over)
  end)

  it("stops at a line of input with stop_on_input, and leaves the line", function()
    local program = require("ludus.program")
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local p = assert(program.spawn{bin .. "/ludus", "-e", [[io.stdin:setvbuf("no")
      io.stdout:setvbuf("line")
      print("searching")
      local r = require("ludus.xiangqi").new():search{time = 60, stop_on_input = true}
      print(r.stopped, r.move ~= nil, io.read("l"))]]})
    assert.equal("searching", p:read_line(20))
    assert.same({nil, "timeout"}, {p:read_line(0.3)})
    local asked = program.clock()
    p:write("stop now\n")
    assert.equal("stopped\ttrue\tstop now", p:read_line(20))
    assert.is_true(program.clock() - asked < 5)
    p:close()
  end)

  it("plugs into ludus.ai and ludus.match", function()
    local ai = require("ludus.ai")
    local one = xiangqi.load("4k4/R8/9/9/9/9/9/9/9/1R1K5 w")
    local info = ai.search(one, {depth = 2})
    assert.equal(1, info.mate)
    assert.equal("red", one:play(info.move):result().winner)
    require("ludus")           -- which makes ludus.match requirable
    local match = require("ludus.match")
    local result = match(xiangqi, ai.alphabeta{depth = 1, name = "ab1"},
                         ai.random{seed = 3}, {games = 2, max_plies = 40,
                                               progress = false})
    assert.equal(2, result.games)
    for _, record in ipairs(result.records) do
      assert.truthy(xiangqi.load(record.record), record.record)
    end
  end)
end)

-- Fairy-Stockfish (a Debian package that `make deps` installs) as a
-- second move generator: positions of the real games of the shared data,
-- from the masters' middlegames to the mating exercises' last checks,
-- counted three plies deep by both.
describe("xiangqi perft beside Fairy-Stockfish", function()
  local program = require("ludus.program")
  local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/xiangqi/pgn/"

  local function fairy_stockfish()
    for _, path in ipairs{"/usr/games/fairy-stockfish", "/usr/local/games/fairy-stockfish"} do
      local f = io.open(path, "rb")
      if f then f:close() return path end
    end
    error("fairy-stockfish not found: make deps installs it")
  end

  -- The positions of a game: every step-th from its last back to its start.
  local function positions(game, step, into)
    local g = game:copy()
    for i = #g:history(), 0, -1 do
      if i % step == 0 then into[#into + 1] = g:fen() end
      if i > 0 then g:pop() end
    end
  end

  it("counts the same leaves three plies from positions of real games", function()
    local fens = {}
    for i = 1, 100, 3 do
      local r = assert(xiangqi.read(data .. ("ccpd-masters/game%03d.pgn"):format(i))())
      positions(r.game, 17, fens)
    end
    for i = 1, 65, 2 do
      local r = assert(xiangqi.read(data .. ("ccpd-mates/mate%03d.pgn"):format(i))())
      positions(r.game, 3, fens)
    end
    assert.is_true(#fens > 200, #fens)
    local engine = assert(program.spawn{fairy_stockfish()})
    engine:write("uci\nsetoption name UCI_Variant value xiangqi\n")
    local differ = {}
    for _, fen in ipairs(fens) do
      engine:write("position fen " .. fen .. "\ngo perft 3\n")
      local theirs
      repeat
        local line = assert(engine:read_line(30))
        theirs = line:match("^Nodes searched: (%d+)")
      until theirs
      local ours = xiangqi.perft(assert(xiangqi.load(fen)), 3)
      if ours ~= math.tointeger(theirs) then
        differ[#differ + 1] = ("%s: %d, Fairy-Stockfish %s"):format(fen, ours, theirs)
      end
    end
    engine:write("quit\n")
    engine:close()
    assert.same({}, differ)
  end)
end)
