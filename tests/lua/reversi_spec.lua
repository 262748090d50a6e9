-- reversi_spec.lua: ludus.reversi: the seed's chained 4x4 game played to
-- its end, the protocol, transcripts and board strings both ways, perft,
-- the solver on the 4x4 game and FFO problems, the search, ludus.ai and
-- ludus.match on reversi, and every bad input.

local ludus = require("ludus")
local reversi = require("ludus.reversi")
local ai = require("ludus.ai")
local match = require("ludus.match")
local support = require("support")
local assert_raises = support.assert_raises

local function sorted(list)
  local copy = {table.unpack(list)}
  table.sort(copy)
  return copy
end

-- The cells of the drawn board, row by row, as board_string writes them.
local function drawn_cells(text)
  local cells = {}
  for line in text:gmatch("[^\n]+") do
    if line:match("^%s*%d+ ") then
      local row = line:gsub("^%s*%d+ ", "")
      for cell in row:gmatch("[^ ]+") do
        cells[#cells + 1] = cell == "●" and "X" or cell == "○" and "O" or "-"
      end
    end
  end
  return table.concat(cells)
end

local function ffo_line(n)
  local dir = os.getenv("LUDUS_DATA") or "../shared/data"
  local i = 0
  for line in io.lines(dir .. "/othello/fforum-1-19.obf") do
    i = i + 1
    if i == n then return line end
  end
end

describe("reversi: the seed's 4x4 game", function()
  it("starts as the seed's board, with black's four moves", function()
    local g = reversi.new{size = 4}
    assert.equal("-----OX--XO----- X", g:board_string())
    assert.same({"a2", "b1", "c4", "d3"}, sorted(g:moves()))
    assert.equal("black", g:turn())
    assert.same({black = 2, white = 2}, g:count())
    assert.equal(4, g:size())
  end)

  it("chains black and white moves, passes included, to white's 11-3", function()
    -- each side plays the solver's move, named by colour as in the seed
    local g, views, passes = reversi.new{size = 4}, 0, 0
    while not g:is_over() do
      local side = g:turn()
      local _, move = g:solve()
      if move == "pass" then
        g = g[side .. "_pass"](g)
        passes = passes + 1
      else
        g = g[side](g, move)
      end
      local view = tostring(g)
      assert.equal(g:board_string():sub(1, 16), drawn_cells(view))
      local counts = g:count()
      assert.truthy(view:find(("● %d ○ %d"):format(counts.black, counts.white), 1, true))
      views = views + 1
    end
    assert.same({winner = "white", draw = false, score = {black = 3, white = 11}},
                g:result())
    assert.is_nil(g:turn())
    assert.truthy(tostring(g):find("white won", 1, true))
    assert.equal(views, #g:history())
    -- the transcript leaves passes out and reads back to the same game
    local again = reversi.load(g:save())
    assert.equal(g:board_string(), again:board_string())
    assert.same(g:result(), again:result())
  end)

  it("knows the solver's score for the start: -10 for black", function()
    local score, move, info = reversi.new{size = 4}:solve()
    assert.equal(-10, score)
    assert.truthy(support.contains({"a2", "b1", "c4", "d3"}, move))
    assert.is_true(info.complete)
    local all = reversi.new{size = 4}:solve{all = true}
    assert.same({a2 = -10, b1 = -10, c4 = -10, d3 = -10}, all)
  end)
end)

describe("reversi on 6x6", function()
  -- Joel Feinstein's perfect line for 6x6 (1993, published with b2-g7
  -- names: d3 c5 d6 e3 ...), here in the board's own a1-f6 names.
  local perfect = "c2b4c5d2e4e3d1c1b1d5d6f4b3b2f3f2e2b6a4c6a6a2b5a5e6e5a3a1f5f6e1f1"

  it("plays Feinstein's perfect line to white's 20-16 win", function()
    local g = assert(reversi.load(perfect, {size = 6}))
    assert.is_true(g:is_over())
    assert.same({winner = "white", draw = false, score = {black = 16, white = 20}},
                g:result())
    assert.equal(perfect, g:save():match("(%S+)$"))
  end)

  it("agrees with it: -4 for black after 10 plies, and after the line's move", function()
    local g = reversi.load(perfect:sub(1, 20), {size = 6})   -- 22 empties
    assert.equal("black", g:turn())
    local score, move = g:solve()
    assert.equal(-4, score)
    local next = g:play(perfect:sub(21, 22))
    assert.equal(4, (next:solve()))                        -- white to move
    assert.equal(-4, (g:play(move):solve()) * -1)
  end)
end)

describe("reversi on 8x8", function()
  it("plays the issue's opening and writes it back", function()
    local g = reversi.new():black("f5"):white("d6"):black("c3"):white("d3"):black("c4")
    assert.equal("f5d6c3d3c4", g:save())
    assert.same({"f5", "d6", "c3", "d3", "c4"}, g:history())
    local h = reversi.load("F5 d6,C3;d3 c4")
    assert.equal(g:board_string(), h:board_string())
    assert.equal(g:hash(), h:hash())
    assert.equal("white", h:turn())
  end)

  it("reads its board strings back, from any position of random games", function()
    local random = support.generator(5)
    for _ = 1, 20 do
      local g = reversi.new{size = ({4, 6, 8})[random(3)]}
      local plies = random(40)
      for _ = 1, plies do
        if g:is_over() then break end
        local moves = g:moves()
        g = g:play(moves[random(#moves)])
      end
      local from_board = assert(reversi.load(g:board_string()))
      assert.equal(g:board_string(), from_board:board_string())
      assert.equal(g:hash(), from_board:hash())
      local from_save = assert(reversi.load(g:save(), {size = g:size()}))
      assert.equal(g:board_string(), from_save:board_string())
      -- save from a board string start: the board, then the moves
      if not g:is_over() then
        local next = from_board:play(g:moves()[1])
        local back = assert(reversi.load(next:save()))
        assert.equal(next:board_string(), back:board_string())
      end
    end
  end)

  it("counts perft from the start, passes as plies", function()
    local expected = {4, 12, 56, 244, 1396, 8200, 55092}
    for depth, count in ipairs(expected) do
      assert.equal(count, reversi.perft(reversi.new(), depth))
    end
    assert.equal(1, reversi.perft(reversi.new(), 0))
    assert.equal(47740, reversi.perft(reversi.new{size = 6}, 7))
  end)

  it("reads an FFO line and solves it: #1 is +18 with g8", function()
    local line = ffo_line(1)
    local g = assert(reversi.load(line))
    assert.equal("black", g:turn())
    local score, move = g:solve()
    assert.equal(18, score)
    assert.equal("g8", move)
    -- every move's score, as the line lists them
    local all = g:solve{all = true}
    for square, value in line:gmatch("(%u%d):([+-]%d+)") do
      assert.equal(tonumber(value), all[square:lower()], square)
    end
  end)

  it("searches: a legal move, an exact score near the end", function()
    local g = reversi.load("f5d6c3d3c4f4f6f3e6e7")
    local move, score, info = g:search{depth = 4}
    assert.truthy(support.contains(g:moves(), move))
    assert.equal("number", type(score))
    assert.equal(4, info.depth)
    assert.equal(move, info.pv[1])
    -- a time budget stops the deepening, and says so
    local _, _, timed = reversi.new():search{time = 0.05}
    assert.is_false(timed.complete)
    assert.equal("time", timed.stopped)
    local late = assert(reversi.load(ffo_line(3)))
    local m, s, i = late:search{time = 5}
    assert.is_true(i.exact)
    assert.equal(late:solve(), s)
    assert.truthy(support.contains(late:moves(), m))
  end)

  it("passes when it must, by name or not", function()
    -- random 4x4 games run into passes often
    local random = support.generator(9)
    local found = 0
    for _ = 1, 300 do
      local h = reversi.new{size = 4}
      while not h:is_over() do
        local moves = h:moves()
        if moves[1] == "pass" then
          local side = h:turn()
          assert_raises({"it is " .. side .. "'s turn"},
                        h.pass, h, side == "black" and "white" or "black")
          local a, b = h:pass(), h[side .. "_pass"](h)
          assert.equal(a:board_string(), b:board_string())
          assert.equal(h:pass(side):hash(), a:hash())
          found = found + 1
          h = a
        else
          h = h:play(moves[random(#moves)])
        end
      end
    end
    assert.truthy(found > 0)
  end)
end)

describe("reversi errors", function()
  it("names the side whose turn it is", function()
    assert_raises({"reversi: it is black's turn, not white's"},
                  reversi.new().white, reversi.new(), "d3")
  end)

  it("lists the legal moves with an illegal one", function()
    local g = reversi.new()
    assert_raises({"illegal move 'a1' for black", "legal: d3 c4 f5 e6"}, g.black, g, "a1")
    assert_raises({"square is taken"}, g.play, g, "d4")
    assert_raises({"bad move 'z9'"}, g.play, g, "z9")
    assert_raises({"bad move 'e5x'"}, g.play, g, "e5x")
    assert_raises({"a pass while a move exists"}, g.pass, g)
    assert_raises({"a pass while a move exists"}, g.black_pass, g)
    assert_raises({"invalid option 'red'"}, g.pass, g, "red")
  end)

  it("refuses moves once the game is over", function()
    local g = reversi.new{size = 4}
    while not g:is_over() do g = g:play(g:moves()[1]) end
    assert_raises({"no move after the end of the game"}, g.play, g, "a1")
    assert_raises({"nothing to solve, the game is over"}, g.solve, g)
    assert_raises({"nothing to search, the game is over"}, g.search, g)
    assert.same({}, g:moves())
  end)

  it("says what is wrong with a record and keeps nothing of it", function()
    local function fails(text, pieces, opts)
      local g, message = reversi.load(text, opts)
      assert.is_nil(g)
      for _, piece in ipairs(pieces) do
        assert.truthy(message:find(piece, 1, true), message)
      end
    end
    fails("f5d6c9", {"move 3 'c9'", "not a square of this board"})
    fails("f5d6a1", {"move 3 'a1'", "illegal move"})
    fails("f5 e9", {"move 2 'e9'"})
    fails("f5\0d6", {"zero byte"})
    fails("e5", {"move 1 'e5'"}, {size = 4})
    fails(("-"):rep(63) .. " X", {"bad board string", "16, 36 or 64 cells"})
    fails(("-"):rep(64) .. " Z", {"bad board string"})
    fails(("-"):rep(64) .. " -", {"side to move must be X (black) or O (white)"})
    fails(ffo_line(1):sub(1, 66) .. " a1", {"move 1 'a1'", "illegal move"})
    assert_raises({"no 5 x 5 board (sizes are 4, 6 and 8)"}, reversi.new, {size = 5})
    assert_raises({"no 5 x 5 board"}, reversi.load, "f5", {size = 5})
    -- a board string has its own size: an option that disagrees is refused
    local board = reversi.new():board_string()
    assert.same({nil, "reversi: the board string is 8x8, not 4x4 as option 'size' says"},
                {reversi.load(board, {size = 4})})
    assert.equal(8, reversi.load(board, {size = 8}):size())
  end)

  it("refuses wrong types and truncated text, and changes nothing", function()
    assert_raises({"bad argument #1", "table expected, got string"}, reversi.new, "big")
    assert_raises({"reversi.new: option 'size' must be an integer (got 'big')"},
                  reversi.new, {size = "big"})
    assert_raises({"string or match record expected, got table"}, reversi.load, {})
    local g, message = reversi.load("f5d")
    assert.is_nil(g)
    assert.truthy(message:find("move 2 'd' (not a square of this board)", 1, true), message)
    g, message = reversi.load(ffo_line(1):sub(1, 40))
    assert.is_nil(g)
    assert.truthy(message:find("16, 36 or 64 cells", 1, true), message)
    g = reversi.new():black("f5")
    local before, history = g:board_string(), #g:history()
    for _, bad in ipairs({"f5", "a9", "", "pass", "d"}) do
      assert.is_false(pcall(g.push, g, bad))
    end
    assert.is_false(pcall(g.black, g, "d6"))
    assert.is_false(pcall(g.push, g, {}))
    assert.equal(before, g:board_string())
    assert.equal(history, #g:history())
    assert_raises({"reversi: option 'time' must be a positive number"}, g.solve, g,
                  {time = "soon"})
    assert_raises({"number expected, got string"}, reversi.perft, g, "deep")
    assert_raises({"table expected, got number"}, g.search, g, 3)
    assert.equal(before, g:board_string())
  end)

  it("checks perft, solve and search arguments", function()
    local g = reversi.new()
    assert_raises({"depth must be 0 to 60"}, reversi.perft, g, -1)
    assert_raises({"reversi expected, got string"}, reversi.perft, "f5", 3)
    assert_raises({"reversi: option 'time' must be a positive number, at most 1000000000 "
                   .. "(got 0)"}, g.solve, g, {time = 0})
    assert_raises({"reversi: option 'nodes' must be a whole number from 1 to "
                   .. "9007199254740992 (got -5)"}, g.search, g, {nodes = -5})
    assert_raises({"reversi: option 'depth' must be a whole number from 1 to 60 (got 0)"},
                  g.search, g, {depth = 0})
  end)

  it("refuses misspelt options, naming the right ones, and values of a wrong type",
     function()
    local g = reversi.load("f5d6c3d3c4f4f6f3e6e7d7g6")
    assert_raises({"reversi.new: unknown option 'sise' (it takes: size)"},
                  reversi.new, {sise = 4})
    assert_raises({"reversi.load: unknown option 'sise' (it takes: size)"},
                  reversi.load, "f5", {sise = 4})
    assert_raises({"reversi: search: unknown option 'depht' (it takes: depth, time, "
                   .. "nodes, exact)"}, g.search, g, {depht = 1, time = 0.2})
    assert_raises({"reversi: solve: unknown option 'alll' (it takes: all, time, nodes, "
                   .. "progress)"}, g.solve, g, {alll = true})
    assert_raises({"reversi: solve: option 'all' must be true or false (got 'yes')"},
                  g.solve, g, {all = "yes"})
    assert_raises({"reversi.new: unknown option 1"}, reversi.new, {4})
  end)

  it("names the option that is not an integer", function()
    assert_raises({"reversi.new: option 'size' must be an integer (got"},
                  reversi.new, {size = 0 / 0})
    assert_raises({"reversi.load: option 'size' must be an integer (got 4.5)"},
                  reversi.load, "f5", {size = 4.5})
  end)

  it("stops the solver at a node budget and says so", function()
    local g = reversi.load(ffo_line(19))
    local score, move, info = g:solve{nodes = 1000}
    assert.is_nil(score)
    assert.is_nil(move)
    assert.is_false(info.complete)
    assert.equal("nodes", info.stopped)
    assert.equal(8, (g:solve()))        -- the table is still sound
  end)

  it("reports each step of a solve and the bounds proved when stopped", function()
    local g = reversi.load(ffo_line(1))   -- +18
    local steps = {}
    local score = g:solve{progress = function(lower, upper, nodes)
      steps[#steps + 1] = {lower, upper, nodes}
    end}
    assert.equal(18, score)
    assert.is_true(#steps >= 2)
    for i, step in ipairs(steps) do
      assert.is_true(step[1] <= 18 and 18 <= step[2])
      if i > 1 then                       -- the bounds only tighten
        assert.is_true(step[1] >= steps[i - 1][1] and step[2] <= steps[i - 1][2])
        assert.is_true(step[3] >= steps[i - 1][3])
      end
    end
    assert.same({18, 18}, {steps[#steps][1], steps[#steps][2]})
    -- stopped part way (#16, +24, takes about 200,000 nodes): the bounds
    -- it had proved, which hold the score
    local last
    local s, move, info = reversi.load(ffo_line(16)):solve{
      nodes = 100000, progress = function(lower, upper) last = {lower, upper} end}
    assert.is_nil(s)
    assert.is_nil(move)
    assert.equal("nodes", info.stopped)
    assert.is_table(last)
    assert.same(last, {info.lower, info.upper})
    assert.is_true(info.lower > -64 and info.lower <= 24 and 24 <= info.upper)
    -- an error in progress ends the solve and the next one starts clean
    assert_raises({"enough"}, g.solve, g, {progress = function() error("enough") end})
    assert.equal(18, (g:solve()))
    assert_raises({"progress must be a function"}, g.solve, g, {progress = 3})
    assert_raises({"not all=true"}, g.solve, g,
                  {all = true, progress = function() end})
  end)
end)

describe("reversi with ludus.ai and ludus.match", function()
  it("is a game of the ludus module", function()
    assert.truthy(support.contains(ludus.games, "reversi"))
  end)

  it("gives ai.search a legal move with the evaluation", function()
    local g = reversi.load("f5d6c3d3c4")
    local info = ai.search(g, {depth = 3})
    assert.truthy(support.contains(g:moves(), info.move))
    assert.equal(3, info.depth)
    assert.is_true(math.abs(info.score) < 900000)
  end)

  it("plays a match: the search beats random play on 6x6", function()
    local searcher = {name = "search", choose = function(_, game)
      return (game:search{depth = 2, exact = 10})
    end}
    local result = match(reversi, searcher, ai.random{seed = 3},
                         {games = 4, options = {size = 6}, progress = false})
    assert.equal(4, result.games)
    assert.truthy(result.a.wins >= 3, result.a.wins)
    for _, record in ipairs(result.records) do
      local again = assert(reversi.load(record.record, {size = 6}))
      assert.is_true(again:is_over())
    end
  end)
end)
