-- connect4_spec.lua: ludus.connect4 rules, notation and the seed's API.
-- The ten cases of the seed article (Advent of TypeScript 2023, day 23)
-- are written as it writes them: rows of cells, top first, chips as
-- circle emoji, "  " for an empty cell.  Its columns are 0-based; ours,
-- Lua style, are 1-based.

local connect4 = require("ludus.connect4")

local Y, R, _ = "🟡", "🔴", "  "

local assert_raises = require("support").assert_raises

-- The seed's emoji rows as the Y/R/. strings that rows() gives.
local function letters(board)
  local out = {}
  for i, row in ipairs(board) do
    local cells = {}
    for j, cell in ipairs(row) do
      cells[j] = cell == Y and "Y" or cell == R and "R" or "."
    end
    out[i] = table.concat(cells)
  end
  return out
end

local seed_state = {[Y] = "yellow", [R] = "red"}

describe("connect4 seed cases", function()
  -- test_move1 .. test_move6: columns 0, 0, 0, 1, 2, 1 from the new game.
  local moves = {
    {0, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_},
         {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_}}, "red"},
    {0, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_},
         {R,_,_,_,_,_,_}, {Y,_,_,_,_,_,_}}, "yellow"},
    {0, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
         {R,_,_,_,_,_,_}, {Y,_,_,_,_,_,_}}, "red"},
    {1, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
         {R,_,_,_,_,_,_}, {Y,R,_,_,_,_,_}}, "yellow"},
    {2, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
         {R,_,_,_,_,_,_}, {Y,R,Y,_,_,_,_}}, "red"},
    {1, {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
         {R,R,_,_,_,_,_}, {Y,R,Y,_,_,_,_}}, "yellow"},
  }

  it("plays the six opening moves with drop", function()
    local game = connect4.new()
    assert.equal("yellow", game:state())
    for i, case in ipairs(moves) do
      assert.equal(game:play(case[1] + 1):hash(), game:drop(case[1] + 1):hash())
      assert.equal(game:play(case[1] + 1):hash(), game:drop(case[1] + 1.0):hash())
      game = game:drop(case[1] + 1)
      assert.same(letters(case[2]), game:rows(), "move " .. i)
      assert.equal(case[3], game:state(), "move " .. i)
    end
  end)

  it("reads each of those boards with from_rows", function()
    local game = connect4.new()
    for i, case in ipairs(moves) do
      game = game:drop(case[1] + 1)
      local read = assert(connect4.from_rows(case[2], case[3]))
      assert.equal(game:hash(), read:hash(), "move " .. i)
      assert.equal(tostring(game), tostring(read))
    end
  end)

  -- Each case: the board before, the state, the column, the board after
  -- and the state after.
  local cases = {
    {name = "red win", column = 3, state = R, after = "red won",
     before = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
               {R,R,R,_,_,_,_}, {Y,R,Y,Y,_,_,_}},
     board = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {Y,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
              {R,R,R,R,_,_,_}, {Y,R,Y,Y,_,_,_}}},
    {name = "yellow win", column = 1, state = Y, after = "yellow won",
     before = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {R,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
               {R,_,R,R,_,_,_}, {Y,_,Y,Y,_,_,_}},
     board = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {R,_,_,_,_,_,_}, {Y,_,_,_,_,_,_},
              {R,_,R,R,_,_,_}, {Y,Y,Y,Y,_,_,_}}},
    {name = "diagonal yellow win", column = 3, state = Y, after = "yellow won",
     before = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,Y,R,_,_,_},
               {R,Y,R,R,_,_,_}, {Y,R,Y,Y,_,_,_}},
     board = {{_,_,_,_,_,_,_}, {_,_,_,_,_,_,_}, {_,_,_,Y,_,_,_}, {_,_,Y,R,_,_,_},
              {R,Y,R,R,_,_,_}, {Y,R,Y,Y,_,_,_}}},
    {name = "draw", column = 6, state = Y, after = "draw", first = R,
     before = {{Y,R,R,Y,Y,R,_}, {R,Y,Y,R,R,Y,R}, {Y,R,R,Y,Y,R,Y},
               {R,Y,Y,R,R,Y,R}, {Y,R,R,Y,Y,R,Y}, {R,Y,Y,R,R,Y,R}},
     board = {{Y,R,R,Y,Y,R,Y}, {R,Y,Y,R,R,Y,R}, {Y,R,R,Y,Y,R,Y},
              {R,Y,Y,R,R,Y,R}, {Y,R,R,Y,Y,R,Y}, {R,Y,Y,R,R,Y,R}}},
  }

  for _, case in ipairs(cases) do
    it(case.name, function()
      -- the seed's draw has yellow to move with 20 yellow and 21 red
      -- chips: a game that red began
      local game = assert(connect4.from_rows(case.before, case.state, case.first))
      assert.equal(seed_state[case.state], game:state())
      local after = game:drop(case.column + 1)
      assert.same(letters(case.board), after:rows())
      assert.equal(case.after, after:state())
      assert.truthy(tostring(after):find("\n" .. case.after .. "$"), tostring(after))
      assert.is_true(after:is_over())
      assert.is_nil(after:turn())
      -- the same move, naming the side, and the receiver untouched
      local named = game[seed_state[case.state]](game, case.column + 1)
      assert.equal(after:hash(), named:hash())
      assert.same(letters(case.before), game:rows())
    end)
  end

  it("knows who won and how", function()
    local red = assert(connect4.from_rows(cases[1].board, "yellow"))
    assert.same({winner = "red", draw = false}, red:result())
    local drawn = assert(connect4.from_rows(cases[4].board, "red", "red"))
    assert.same({draw = true}, drawn:result())
    assert.truthy(tostring(drawn):find("\ndraw$"))
  end)
end)

describe("connect4", function()
  it("starts on an empty 7x6 board with yellow to move", function()
    local game = connect4.new()
    assert.equal("yellow", game:turn())
    assert.same({"1", "2", "3", "4", "5", "6", "7"}, game:moves())
    assert.same({7, 6}, {game:size()})
    assert.equal(("|  |  |  |  |  |  |  |\n"):rep(6)
                 .. "  1  2  3  4  5  6  7\nyellow to move", tostring(game))
  end)

  it("draws chips as the two circle emoji", function()
    local game = connect4.load("44")
    assert.truthy(tostring(game):find("|  |  |  |🔴|  |  |  |\n|  |  |  |🟡|  |  |  |\n",
                                      1, true))
  end)

  it("plays other sizes", function()
    local game = connect4.new{width = 9, height = 6}
    assert.same({9, 6}, {game:size()})
    assert.equal(9, #game:moves())
    game = assert(connect4.load("1212121", {width = 4, height = 4}))
    assert.equal("yellow won", game:state())
    assert.same({"Y...", "YR..", "YR..", "YR.."}, game:rows())
    for _, size in ipairs({{4, 4}, {8, 7}, {9, 6}, {5, 4}, {1, 1}}) do
      local g = connect4.new{width = size[1], height = size[2]}
      assert.same(size, {g:size()})
    end
  end)

  it("fills a column and refuses more, naming the legal ones", function()
    local game = assert(connect4.load("444444"))
    assert.same({"1", "2", "3", "5", "6", "7"}, game:moves())
    assert_raises({"connect4: illegal move '4' for yellow (the column is full; "
                   .. "legal: 1 2 3 5 6 7)"}, game.drop, game, 4)
    assert.equal("444444", game:save())
  end)

  it("checks whose turn it is", function()
    local game = connect4.new()
    assert_raises({"connect4: it is yellow's turn, not red's"}, game.red, game, 4)
    assert.equal("red", game:yellow(4):turn())
  end)

  it("push, pop, copy and hash", function()
    local game = connect4.new()
    game:push(4):push(4):push(3)
    assert.same({"4", "4", "3"}, game:history())
    local copy = game:copy()
    assert.equal("3", game:pop())
    assert.equal("443", copy:save())
    assert.equal("44", game:save())
    assert.equal(connect4.load("3456"):hash(), connect4.load("5436"):hash())
    assert.not_equal(connect4.load("34"):hash(), connect4.load("43"):hash())
  end)

  describe("bad input", function()
    it("a column out of range or not a column", function()
      local game = connect4.new()
      assert_raises({"connect4: bad move '8' (columns are 1 to 7)"}, game.drop, game, 8)
      assert_raises({"bad move '0'"}, game.drop, game, 0)
      assert_raises({"bad move '-1'"}, game.drop, game, -1)
      assert_raises({"bad move '4.5'"}, game.drop, game, 4.5)
      assert_raises({"bad move 'x'"}, game.drop, game, "x")
      assert_raises({"string expected, got table"}, function() return game:drop({}) end)
      assert.equal("", game:save())
    end)
    it("a move after the end", function()
      local game = assert(connect4.load("1212121"))
      assert_raises({"connect4: no move after the end of the game (yellow won)"},
                    game.drop, game, 3)
      assert_raises({"no move after the end"}, game.push, game, 3)
      assert.equal("1212121", game:save())
    end)
    it("a method called on another game's object", function()
      local other = require("ludus.tictactoe").new()
      local game = connect4.new()
      assert_raises({"ludus.connect4 expected, got ludus.tictactoe"}, game.state, other)
      assert_raises({"ludus.connect4 expected"}, game.drop, other, 4)
      assert_raises({"ludus.connect4 expected"}, game.solve, other)
      assert_raises({"ludus.connect4 expected, got no value"}, game.rows)
    end)
    it("a bad size", function()
      assert_raises({"connect4: a 10x6 board does not fit"}, connect4.new, {width = 10})
      assert_raises({"a 8x8 board does not fit"}, connect4.new, {width = 8, height = 8})
      assert_raises({"a 0x6 board"}, connect4.new, {width = 0})
      assert_raises({"a 4294967303x6 board"}, connect4.new, {width = 4294967303})
      assert_raises({"a 7x-1 board"}, connect4.new, {height = -1})
      -- the largest boards: 9 columns (each named by a digit), 64 bits
      assert.same({9, 6}, {connect4.new{width = 9, height = 6}:size()})
      assert.same({8, 7}, {connect4.new{width = 8, height = 7}:size()})
      assert.same({1, 63}, {connect4.new{width = 1, height = 63}:size()})
      assert_raises({"a 1x64 board does not fit"}, connect4.new, {width = 1, height = 64})
      assert_raises({"a 16x3 board does not fit (width 1 to 9"}, connect4.new,
                    {width = 16, height = 3})
      assert_raises({"connect4.new: option 'width' must be an integer (got 'wide')"},
                    connect4.new, {width = "wide"})
    end)
    it("misspelt options, naming the right ones, and a size that is no integer",
       function()
      local g = connect4.new()
      assert_raises({"connect4.new: unknown option 'widht' (it takes: width, height)"},
                    connect4.new, {widht = 4})
      assert_raises({"connect4.load: unknown option 'hieght'"}, connect4.load, "4",
                    {hieght = 4})
      assert_raises({"connect4: solve: unknown option 'nodez' (it takes: weak, nodes, "
                     .. "time, progress)"}, g.solve, g, {nodez = 5})
      assert_raises({"connect4: analyze: unknown option 'wek' (it takes: weak, nodes, "
                     .. "time)"}, g.analyze, g, {wek = true})
      assert_raises({"connect4: analyze: unknown option 'progress'"}, g.analyze, g,
                    {progress = print})
      assert_raises({"connect4: solve: option 'weak' must be true or false (got 1)"},
                    g.solve, g, {weak = 1})
      assert_raises({"connect4.make_book: unknown option 'plys'"}, connect4.make_book,
                    "never-written.book", {plys = 2})
      assert_raises({"connect4.new: option 'width' must be an integer (got 2.5)"},
                    connect4.new, {width = 2.5})
    end)
    it("load: bad characters, columns, full columns, moves after a win", function()
      local cases = {
        {"44x3", "connect4: bad record '44x3': 'x' at position 3 is not a column digit"},
        {"448", "'8' at position 3 is not a column of the board"},
        {"0", "'0' at position 1 is not a column of the board"},
        {"1111111", "'1' at position 7 is a full column"},
        {"12121213", "'3' at position 8 comes after the end of the game"},
        {"4\0" .. "4", "is not a column digit"},
      }
      for _, case in ipairs(cases) do
        local game, err = connect4.load(case[1])
        assert.is_nil(game)
        assert.truthy(err:find(case[2], 1, true), err)
      end
      assert_raises({"string expected, got nil"}, connect4.load, nil)
    end)
    it("from_rows: shapes and cells", function()
      local cases = {
        {{}, "connect4: no rows given"},
        {{".......", "......"}, "row 2 has 6 cells, but row 1 has 7"},
        {{"..........", ".........."}, "2 rows of 10 cells do not make a board"},
        {{"............"}, "1 rows of 12 cells do not make a board"},
        {{".......", "............"}, "row 2 has 12 cells, but row 1 has 7"},
        {{"...X..."}, "row 1: '...X...' is not a cell at byte 4"},
        {{{"🟡", "🟢"}}, "row 1, cell 2 is not a cell"},
        {{{"🟡", 7}}, "row 1, cell 2 is not a cell"},
        {{".......", 42}, "row 2 is a number, not a string or a table of cells"},
      }
      for _, case in ipairs(cases) do
        local game, err = connect4.from_rows(case[1])
        assert.is_nil(game)
        assert.truthy(err:find(case[2], 1, true), err)
      end
      assert_raises({"expected \"yellow\" or \"red\""}, connect4.from_rows, {"...."}, "blue")
      assert_raises({"table expected, got string"}, connect4.from_rows, "....")
    end)
    it("from_rows: positions no game reaches", function()
      local cases = {
        {{"Y......", "R......", ".......", ".......", ".......", "......."}, nil,
         "the chip in row 2, column 1 floats above an empty cell"},
        {{".......", ".......", ".......", ".......", "Y......", "Y......"}, nil,
         "red to move with 2 yellow and 0 red chips: no game where yellow moves first"},
        {{".......", ".......", ".......", ".......", ".......", "YRR...."}, "red",
         "red to move with 1 yellow and 2 red chips"},
        -- yellow moves first: no game has red ahead, or even with red to move
        {{".......", ".......", ".......", ".......", ".......", "...R..."}, nil,
         "yellow to move with 0 yellow and 1 red chips: no game where yellow moves first"},
        {{".......", ".......", ".......", ".......", ".......", "...RY.."}, "red",
         "red to move with 1 yellow and 1 red chips"},
        {{".......", ".......", "Y.....R", "Y.....R", "Y.....R", "Y.....R"}, "yellow",
         "both yellow and red have four in a row"},
        {{".......", ".......", "Y......", "Y......", "Y......", "YRRR..R"}, "yellow",
         "yellow has four in a row but is to move"},
        {{".......", "R......", "Y......", "Y......", "Y.R....", "YYRR..."}, "red",
         "yellow has four in a row that its last chip did not make"},
      }
      for _, case in ipairs(cases) do
        local game, err = connect4.from_rows(case[1], case[2])
        assert.is_nil(game)
        assert.truthy(err:find(case[3], 1, true), err)
      end
    end)
  end)

  describe("records", function()
    it("round-trip through save and load", function()
      for _, record in ipairs({"", "4", "4453", "44444433333", "1212121",
                               "734334466331262115144536115472267267525577"}) do
        local game = assert(connect4.load(record))
        assert.equal(record, game:save())
        assert.equal(game:hash(), assert(connect4.load(game:save())):hash())
      end
      local draw = assert(connect4.load("734334466331262115144536115472267267525577"))
      assert.equal("draw", draw:state())
    end)
    it("round-trip through rows and from_rows", function()
      local game = assert(connect4.load("44455554221"))
      local back = assert(connect4.from_rows(game:rows(), game:turn()))
      assert.equal(game:hash(), back:hash())
      assert.same(game:rows(), back:rows())
      assert_raises({"built from rows and has no move record"}, back.save, back)
    end)
    it("from_rows infers the side to move, and red may have started if told", function()
      local game = assert(connect4.from_rows({".......", ".......", ".......",
                                              ".......", ".......", "...Y..."}))
      assert.equal("red", game:turn())
      game = assert(connect4.from_rows({".......", ".......", ".......",
                                        ".......", ".......", "...RY.."}))
      assert.equal("yellow", game:turn())
      game = assert(connect4.from_rows({".......", ".......", ".......",
                                        ".......", ".......", "...R..."}, nil, "red"))
      assert.equal("yellow", game:turn())
      game = assert(connect4.from_rows({".......", ".......", ".......",
                                        ".......", ".......", "...RY.."}, nil, "red"))
      assert.equal("red", game:turn())
    end)
  end)
end)

describe("connect4 solver", function()
  it("scores positions as Pons does, from the side to move", function()
    -- the first lines of his Test_L3_R1 set
    local cases = {{"2252576253462244111563365343671351441", -1},
                   {"7422341735647741166133573473242566", 1},
                   {"23163416124767223154467471272416755633", 0}}
    for _, case in ipairs(cases) do
      local game = connect4.load(case[1])
      local score, column, info = game:solve()
      assert.equal(case[2], score)
      assert.is_true(info.complete)
      assert.truthy(info.nodes > 0)
      -- the best column keeps the score: its reply scores the negative
      local after = game:drop(column)
      if not after:is_over() then
        assert.equal(-score, (after:solve()))
      end
      assert.equal(case[2] > 0 and 1 or case[2] < 0 and -1 or 0,
                   (game:solve{weak = true}))
    end
  end)

  it("scores an immediate win as (cells + 1 - chips) / 2", function()
    local game = connect4.load("112233")            -- yellow wins on 4
    local score, column = game:solve()
    assert.equal((42 + 1 - 7) // 2, score)
    assert.equal(4, column)
  end)

  it("analyzes every column, nil for a full one", function()
    local game = assert(connect4.load("444444", {width = 5, height = 6}))
    local scores = game:analyze()
    assert.is_nil(scores[4])
    for _, c in ipairs({1, 2, 3, 5}) do assert.equal("integer", math.type(scores[c])) end
    local best = math.max(scores[1], scores[2], scores[3], scores[5])
    assert.equal(best, (game:solve()))
    local weak = game:analyze{weak = true}
    for c, s in pairs(scores) do
      assert.equal(s > 0 and 1 or s < 0 and -1 or 0, weak[c])
    end
  end)

  it("solves small empty boards (John Tromp's values)", function()
    assert.equal(0, (connect4.new{width = 4, height = 4}:solve()))
    assert.equal(-1, (connect4.new{width = 6, height = 4}:solve()))
    assert.equal(0, (connect4.new{width = 5, height = 4}:solve{weak = true}))
  end)

  it("stops at a node or time limit and reports the bounds it has", function()
    local game = connect4.new()       -- without a book, a search of minutes
    for _, limit in ipairs({{nodes = 2000}, {time = 0.05}}) do
      local reason = limit.nodes and "nodes" or "time"
      local score, column, info = game:solve(limit)
      assert.is_nil(score)
      assert.is_nil(column)
      assert.is_false(info.complete)
      assert.equal(reason, info.stopped)
      assert.truthy(info.lower <= 1 and 1 <= info.upper)
      local scores, info2 = game:analyze(limit)
      assert.is_nil(scores)
      assert.equal(reason, info2.stopped)
    end
  end)

  it("reports progress: bounds that close in on the score", function()
    local steps = {}
    local game = connect4.load("32164625")       -- Test_L1_R1, line 1
    local score = game:solve{progress = function(lower, upper, nodes)
      steps[#steps + 1] = {lower, upper, nodes}
    end}
    assert.truthy(#steps >= 2)
    for i, step in ipairs(steps) do
      assert.truthy(step[1] <= score and score <= step[2])
      if i > 1 then
        assert.truthy(step[2] - step[1] < steps[i - 1][2] - steps[i - 1][1])
        assert.truthy(step[3] >= steps[i - 1][3])
      end
    end
    assert.same({score, score}, {steps[#steps][1], steps[#steps][2]})
    assert_raises({"boom"}, game.solve, game, {progress = function() error("boom") end})
    assert_raises({"connect4: progress must be a function (got number)"},
                  game.solve, game, {progress = 1})
    assert.equal(score, (game:solve()))          -- the table is still sound
  end)

  it("refuses to solve a finished game, and bad options", function()
    local game = assert(connect4.load("1212121"))
    assert_raises({"connect4: nothing to solve, the game is over (yellow won)"},
                  game.solve, game)
    assert_raises({"nothing to analyze"}, game.analyze, game)
    local open = connect4.new()
    assert_raises({"table expected, got string"}, open.solve, open, "weak")
    assert_raises({"connect4: option 'nodes' must be a whole number from 1 to"},
                  open.solve, open, {nodes = "many"})
    assert_raises({"connect4: option 'time' must be a positive number"},
                  open.analyze, open, {time = "soon"})
    assert_raises({"table expected, got number"}, open.analyze, open, 3)
    assert.equal("", open:save())                   -- unchanged by all that
  end)
end)

describe("connect4 opening book", function()
  local path = os.tmpname()
  local function write(text)
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
  end
  local function read()
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
  end

  after_each(function() connect4.book(false) end)
  teardown(function() os.remove(path) end)

  it("is made by the engine, used by solve, and says so in info", function()
    local made = assert(connect4.make_book(path, {width = 5, height = 4, plies = 4}))
    assert.equal(path, made.path)
    assert.same({5, 4, 4}, {made.width, made.height, made.plies})
    assert.truthy(made.entries > 0 and made.nodes > 0)
    assert.equal(path, connect4.book().path)
    local game = connect4.load("33", {width = 5, height = 4})
    local score, column, info = game:solve()
    assert.is_true(info.book)
    local scores, info2 = game:analyze()
    assert.is_true(info2.book)
    assert.is_true(connect4.book(false))
    local score2, column2, info3 = game:solve()
    assert.is_false(info3.book)
    assert.same({score, column}, {score2, column2})
    assert.same(scores, (game:analyze()))
    -- read back from the file, the same book
    local loaded = assert(connect4.book(path))
    assert.equal(made.entries, loaded.entries)
    -- a 7x6 game does not use a 5x4 book
    local _, _, info4 = connect4.load("2252576253462244111563365343671351441"):solve()
    assert.is_false(info4.book)
  end)

  it("refuses missing and damaged files with a message, and solves on", function()
    assert(connect4.make_book(path, {width = 5, height = 4, plies = 3}))
    local good = read()
    local game = connect4.load("33", {width = 5, height = 4})
    local score = game:solve()
    assert_raises({"bad argument #1", "(a file name has no zero bytes)"}, connect4.book,
                  "a\0b")
    assert_raises({"(a file name has no zero bytes)"}, connect4.make_book, "a\0b", {plies = 1})
    local info, err = connect4.book("/nonexistent/ludus.book")
    assert.is_nil(info)
    assert.equal("connect4: no book from '/nonexistent/ludus.book' (cannot open the file: "
                 .. "No such file or directory)", err)
    local none, why = connect4.book()
    assert.is_nil(none)
    assert.equal(err, why)
    -- a directory opens, but is no book: said so, not 'wrong header'
    local dir = path .. ".d"
    assert(os.execute("mkdir " .. dir))
    info, err = connect4.book(dir)
    assert.is_nil(info)
    assert.equal("connect4: no book from '" .. dir .. "' (cannot open the file: Is a directory)",
                 err)
    -- nor is a book made for minutes before its file is found unwritable
    for _, where in ipairs({dir, dir .. "/no/such.book"}) do
      local calls = 0
      info, err = connect4.make_book(where, {width = 5, height = 4, plies = 4,
                                             progress = function() calls = calls + 1 end})
      assert.is_nil(info)
      assert.truthy(err:find("connect4: no book made at '" .. where
                             .. "' (cannot open the file: ", 1, true))
      assert.equal(0, calls)
    end
    assert(os.execute("rmdir " .. dir))
    write("#!/bin/sh\n")
    info, err = connect4.book(path)
    assert.is_nil(info)
    assert.truthy(err:find("(not a connect4 book (wrong header))", 1, true))
    for _, cut in ipairs({10, 20, #good - 1}) do
      write(good:sub(1, cut))
      info, err = connect4.book(path)
      assert.is_nil(info)
      assert.truthy(err:find("does not hold the entries", 1, true))
    end
    local score2, _, info2 = game:solve()
    assert.is_false(info2.book)
    assert.equal(score, score2)
  end)

  it("is loaded on first use from $LUDUS_BOOK, else from beside the binary", function()
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local mktemp = assert(io.popen("mktemp -d /tmp/ludus-book-spec.XXXXXX"))
    local scratch = mktemp:read("l")
    mktemp:close()
    local real = assert(io.popen("cd " .. scratch .. " && pwd -P"))
    scratch = real:read("l")
    real:close()
    -- a source tree elsewhere: its ludus and ludus.so, its build/ with a book
    -- (the sanitizers, preloaded for lua5.4, are kept out of mkdir and cp)
    local tree = scratch .. "/tree"
    assert(os.execute(("env -u LD_PRELOAD sh -c 'mkdir -p %s/build %s/empty && "
                       .. "cp %s/ludus %s/ludus.so %s/'"):format(tree, scratch, bin, bin, tree)))
    local default = tree .. "/build/connect4-7x6.book"
    assert(connect4.make_book(default, {width = 5, height = 4, plies = 4}))
    connect4.book(false)
    local probe = [[
      local c = require("ludus.connect4")
      local info, why = c.book()
      local _, _, solved = c.new{width = 5, height = 4}:solve()
      print(info and info.path or why, solved.book)]]
    -- What a fresh ludus (or lua5.4 with ludus.so) of the tree run from
    -- 'dir' uses, with 'env' set or unset.
    local function fresh(dir, env, stock)
      local command = stock
        and ("lua5.4 -e %q"):format("package.cpath = '" .. tree .. "/?.so;' .. package.cpath "
                                    .. probe)
        or ("env -u LD_PRELOAD %s/ludus -e %q"):format(tree, probe)
      local pipe = assert(io.popen(("cd %s && env -u LUA_INIT %s %s 2>&1")
                                   :format(dir, env, command)))
      local out = pipe:read("a")
      pipe:close()
      return out
    end
    local empty = scratch .. "/empty"
    assert.equal(default .. "\ttrue\n", fresh(empty, "-u LUDUS_BOOK"))
    assert.equal(default .. "\ttrue\n", fresh(empty, "-u LUDUS_BOOK", true))
    assert.equal(default .. "\ttrue\n", fresh("/", "LUDUS_BOOK=" .. default))
    assert.equal("connect4: no book (LUDUS_BOOK is empty)\tfalse\n",
                 fresh(empty, "LUDUS_BOOK="))
    assert.equal("connect4: no book from '/nonexistent' (cannot open the file: No such file "
                 .. "or directory)\tfalse\n",
                 fresh(empty, "LUDUS_BOOK=/nonexistent"))
    os.remove(default)
    assert.equal("connect4: no book (LUDUS_BOOK is not set, and no connect4-7x6.book is "
                 .. "beside ludus: make book or make install puts it there)\tfalse\n",
                 fresh(tree, "-u LUDUS_BOOK"))
    assert(os.execute("env -u LD_PRELOAD rm -r " .. scratch))
  end)

  it("refuses sizes and options it cannot make a book of", function()
    assert_raises({"connect4: no book for a 8 x 7 board"},
                  connect4.make_book, path, {width = 8, height = 7})
    assert_raises({"plies out of range"}, connect4.make_book, path,
                  {width = 5, height = 4, plies = 21})
    assert_raises({"string expected, got no value"}, connect4.make_book)
    assert_raises({"connect4: progress must be a function (got number)"},
                  connect4.make_book, path .. ".3", {width = 4, height = 4, progress = 1})
    assert.is_nil(io.open(path .. ".3"))
    local info, err = connect4.make_book(path, {nodes = 1000})
    assert.is_nil(info)
    assert.truthy(err:find("stopped before the end", 1, true))
    -- an error in progress ends the generation, and the book in use stays
    assert(connect4.make_book(path, {width = 4, height = 4, plies = 2}))
    assert_raises({"boom"}, connect4.make_book, path .. ".2",
                  {width = 5, height = 4, progress = function() error("boom") end})
    -- the book cannot change while the generation uses the table
    assert_raises({"connect4: cannot change the book now: a make_book is running"},
                  connect4.make_book, path .. ".2",
                  {width = 5, height = 4, progress = function()
                     connect4.book(false)
                   end})
    assert.equal(path, connect4.book().path)
    local _, _, used = connect4.new{width = 4, height = 4}:solve()
    assert.is_true(used.book)
    info, err = connect4.make_book("/nonexistent/dir/x.book",
                                   {width = 4, height = 4, plies = 2})
    assert.is_nil(info)
    assert.truthy(err:find("cannot open the file", 1, true))
  end)
end)
