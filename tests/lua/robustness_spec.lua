-- robustness_spec.lua: what an audit of the bindings found (issue #22),
-- each case as plain Lua reaches it.  Before the fixes these crashed the
-- process (use after free, NULL, a dead stack frame, reads past a
-- string), looped forever or quietly corrupted a position; a test here
-- fails by a wrong answer in a release build, or by a sanitizer report
-- under make test SANITIZE=1.

local ludus = require("ludus")
local support = require("support")
local luattt = require("luattt")
local assert_raises = support.assert_raises

local ai, tictactoe, connect4, reversi = ludus.ai, ludus.tictactoe, ludus.connect4,
  ludus.reversi
local xiangqi, sudoku = ludus.xiangqi, ludus.sudoku

local function ffo(n)
  local data = os.getenv("LUDUS_DATA") or "../shared/data"
  local file = n <= 19 and "fforum-1-19.obf" or "fforum-20-39.obf"
  local f = assert(io.open(data .. "/othello/" .. file))
  local line
  for _ = 1, n <= 19 and n or n - 19 do line = f:read("l") end
  f:close()
  return line
end

describe("a search holds what it uses", function()
  it("keeps the player's table while an eval drops it (finding 1)", function()
    local p
    p = ai.alphabeta{depth = 4, eval = function()
      p._table = nil
      collectgarbage()
      return 0
    end}
    local move = p:choose(tictactoe.new())
    assert.truthy(support.contains(tictactoe.new():moves(), move))
  end)

  it("keeps it while a nested choose changes tt (finding 1)", function()
    local p, nested = nil, 0
    p = ai.alphabeta{depth = 3, eval = function(g)
      if nested < 3 then
        nested = nested + 1
        p.tt = p.tt == 1 and 2 or 1
        if not g:is_over() then p:choose(g) end
        collectgarbage()
      end
      return 0
    end}
    assert.truthy(p:choose(tictactoe.new()))
    assert.equal(3, nested)
  end)

  it("refuses to change the Connect Four book during a solve (finding 2)", function()
    local path = os.tmpname()
    assert(connect4.make_book(path, {width = 5, height = 4, plies = 4}))
    -- a position the book bounds but does not settle: the solve steps
    local g = connect4.load("1", {width = 5, height = 4})
    local calls = 0
    assert_raises({"connect4: cannot change the book now: a solve is running"},
                  g.solve, g, {progress = function()
                    calls = calls + 1
                    connect4.book(false)
                    collectgarbage()
                  end})
    assert.equal(1, calls)
    assert.equal(path, connect4.book().path)       -- still in use
    local score, _, info = g:solve()
    assert.equal(1, score)
    assert.is_true(info.book)
    connect4.book(false)
    os.remove(path)
  end)

  it("refuses a solve inside a solve's progress, and stays usable (finding 3)", function()
    local outer, inner = reversi.load(ffo(1)), reversi.load(ffo(2))
    assert_raises({"reversi: cannot solve now: a solve is running and uses the solver"},
                  outer.solve, outer, {progress = function() inner:solve() end})
    assert_raises({"reversi: cannot search now: a solve is running"},
                  outer.solve, outer, {progress = function() inner:search{depth = 2} end})
    -- the solver is free again, and right (FFO #1: +18 for black)
    assert.equal(18, (outer:solve()))
  end)

  it("refuses a solve inside make_book's progress (finding 3)", function()
    local path = os.tmpname()
    local g = connect4.load("4444")
    assert_raises({"connect4: cannot solve now: a make_book is running and uses the table"},
                  connect4.make_book, path, {width = 4, height = 4, plies = 2,
                                             progress = function() g:solve() end})
    local f = io.open(path, "rb")
    assert.equal("", f and f:read("a") or "")      -- no book was written
    if f then f:close() end
    local made = assert(connect4.make_book(path, {width = 4, height = 4, plies = 2}))
    assert.equal(path, made.path)
    connect4.book(false)
    os.remove(path)
  end)

  it("passes an error of a progress function on, after the solver stops", function()
    local g = reversi.load(ffo(3))
    assert_raises({"boom"}, g.solve, g, {progress = function() error("boom") end})
    assert.equal(reversi.load(ffo(3)):board_string(), g:board_string())
    local c = connect4.new{width = 5, height = 4}
    assert_raises({"bang"}, c.solve, c, {progress = function() error("bang") end})
    assert.equal(0, (c:solve()))                    -- 5x4 is a draw
  end)
end)

describe("objects that Lua code cannot break", function()
  it("keeps __gc out of reach (finding 5)", function()
    local g = tictactoe.new():play("b2")
    assert.is_nil(g.__gc)
    assert.is_nil(g.__tostring)
    assert.is_false(pcall(function() return g.__gc(1) end))
    assert.is_false(pcall(function() return g:__gc() end))
    assert.equal("b2", g:save())
  end)

  it("never touches a Lua file that Lua code closed under reversi.read or write", function()
    local f = io.tmpfile()
    f:write("f5\nf5d6\n")
    f:seek("set")
    local next_record = reversi.read(f)
    assert.truthy(next_record())
    f:close()
    collectgarbage()
    assert_raises({"the file is closed"}, next_record)
    local g = io.tmpfile()
    assert_raises({"the file is closed"}, reversi.write, g, function()
      g:close()
      collectgarbage()
    end, {format = "ggf"})
  end)

  it("hides every metatable behind its name (finding 6)", function()
    local objects = {
      tictactoe.new(), connect4.new(), reversi.new(), xiangqi.new(),
      ludus.mnk.new(), ludus.gomoku.new(), (sudoku.parse(("."):rep(16))),
      (ludus.mahjong.score("234p234m45688s", {win = "6s"})), ai.random{},
      ludus.game.define(luattt("play")).new(),
    }
    for _, object in ipairs(objects) do
      local mt = getmetatable(object)
      assert.equal("string", type(mt))
      assert.truthy(mt:match("^ludus%."), mt)
      assert.is_false(pcall(setmetatable, object, {}))
    end
  end)

  it("cannot be made to crash by replacing methods or classes (finding 6)", function()
    local g = reversi.new():black("f5")
    assert.is_false(pcall(function() getmetatable(g).history = function() end end))
    assert.equal("f5", g:save())
    -- no class pointer to copy: a userdata is not a game
    assert_raises({"game expected, got FILE*"}, ai.search, io.stdout, {depth = 1})
    assert.is_nil(getmetatable(io.stdout).__ludus_class)
  end)

  it("keeps a Lua game's names when its tables change during a search (finding 6)", function()
    local Lt = ludus.game.define(luattt("play"))
    local info = ai.search(Lt.new(), {depth = 2, eval = function()
      Lt.sides[1], Lt.sides[2], Lt.name = {}, nil, 42
      collectgarbage()
      return 0
    end})
    assert.truthy(info.move)
    local result = ai.search(Lt.load("a1 a2 b1 b2"), {depth = 2})
    assert.equal("c1", result.move)
  end)

  it("refuses a Lua game whose play changes its input (finding 13)", function()
    local spec = {
      name = "nim", sides = {"first", "second"},
      new = function() return {stones = 9, turn = 1} end,
      turn = function(s) return s.turn == 1 and "first" or "second" end,
      moves = function(s)
        local m = {}
        for i = 1, math.min(3, s.stones) do m[i] = tostring(i) end
        return m
      end,
      play = function(s, m)
        s.stones, s.turn = s.stones - tonumber(m), 3 - s.turn
        return s
      end,
      is_over = function(s) return s.stones <= 0 end,
      result = function(s) return {winner = s.turn == 1 and "first" or "second"} end,
    }
    local Nim = ludus.game.define(spec)
    local g = Nim.new()
    assert_raises({"nim: 'play' returned the position it was given"},
                  ai.search, g, {depth = 6})
    assert.equal(9, g.raw.stones)                   -- the search left it alone
    assert.is_false(g:is_over())
    assert_raises({"nim: 'play' returned the position it was given"}, g.play, g, "1")
    -- a play that changes its input and returns a new table cannot
    -- reach the game through a search either
    spec.play = function(s, m)
      s.stones = s.stones - tonumber(m)
      return {stones = s.stones, turn = 3 - s.turn}
    end
    local h = ludus.game.define(spec).new()
    ai.search(h, {depth = 4})
    assert.equal(9, h.raw.stones)
  end)

  it("lends an evaluation a position it cannot push on", function()
    local Lt = ludus.game.define(luattt("push"))
    assert_raises({"luattt: this position belongs to a running search; push a copy()"},
                  ai.search, Lt.new(), {depth = 2, eval = function(g)
                    g:push(g:moves()[1])
                    return 0
                  end})
  end)
end)

describe("calls that end", function()
  it("refuses an empty option name instead of looping (finding 7)", function()
    assert_raises({"ai.search: unknown option ''"}, ai.search, tictactoe.new(), {[""] = 1})
    local p = ai.alphabeta{depth = 1}
    p[""] = 1
    assert_raises({"ai.alphabeta: unknown option ''"}, p.choose, p, tictactoe.new())
  end)

  it("reads every limit the same way (finding 8)", function()
    local t = tictactoe.new()
    local whole = "must be a whole number from 1 to 9007199254740992"
    assert_raises({"ai.search: option 'playouts' " .. whole .. " (got 0.5)"},
                  ai.search, t, {algorithm = "mcts", playouts = 0.5})
    assert_raises({"ai.search: option 'nodes' " .. whole .. " (got 0.5)"},
                  ai.search, t, {nodes = 0.5})
    assert_raises({"option 'nodes' " .. whole .. " (got 1.844674407371e+19)"},
                  ai.search, t, {nodes = 2^64})
    assert_raises({"option 'depth' " .. whole}, ai.search, t, {depth = 1e300})
    local c = connect4.new()
    for _, bad in ipairs({{time = 0}, {time = -1}, {nodes = 0}, {nodes = -1},
                          {time = 0 / 0}, {nodes = 2^63}}) do
      assert.is_false(pcall(c.solve, c, bad))
    end
    assert_raises({"connect4: option 'time' must be a positive number"}, c.solve, c, {time = 0})
    assert_raises({"connect4: option 'nodes' " .. whole .. " (got -1)"}, c.solve, c,
                  {nodes = -1})
    assert_raises({"connect4: option 'width' must be a whole number from 1 to 9 "
                   .. "(got 4294967300.0)"}, connect4.make_book, os.tmpname(),
                  {width = 2^32 + 4})                -- finding 14: not width 4
    local x = xiangqi.new()
    assert_raises({"xiangqi: option 'time' must be a positive number"}, x.search, x,
                  {time = -1})
  end)

  it("bounds what a call may allocate (finding 9)", function()
    assert_raises({"option 'tt' must be a whole number from 0 to 1024 (got 4096)"},
                  ai.search, tictactoe.new(), {tt = 4096})
    assert_raises({"option 'tt' must be a whole number from 0 to 1024"},
                  ai.alphabeta, {tt = 4096})
    local empty = sudoku.parse(("."):rep(81))
    assert_raises({"sudoku: more than 100000 solutions (give a limit"},
                  sudoku.solutions, empty)
    assert_raises({"a limit is from 1 to 100000"}, sudoku.solutions, empty, 10^6)
    assert.equal(3, #sudoku.solutions(empty, 3))
    assert.equal(288, #sudoku.solutions(sudoku.parse(("."):rep(16))))
  end)
end)

describe("positions stay right", function()
  -- Every cell of Connect Four boards 1 to 3 wide and up to 63 high, in
  -- a random game each: a four appears only where the chips make one.
  local function has_four(cells, width, height)
    for col = 1, width do
      for row = 1, height - 3 do
        local c = cells[col][row]
        if c and c == cells[col][row + 1] and c == cells[col][row + 2]
           and c == cells[col][row + 3] then
          return true
        end
      end
    end
    return false
  end

  it("judges tall narrow Connect Four boards right (finding 10)", function()
    assert.equal("red", connect4.new{width = 1, height = 62}:drop(1):state())
    local g = connect4.new{width = 2, height = 30}
    for _, column in ipairs({1, 2, 1}) do g = g:drop(column) end
    assert.equal("red", g:state())
    local random = support.generator(10)
    for _, size in ipairs({{1, 63}, {2, 31}, {2, 30}, {3, 20}, {1, 30}}) do
      local width, height = size[1], size[2]
      local game = connect4.new{width = width, height = height}
      local cells = {}
      for col = 1, width do cells[col] = {} end
      while not game:is_over() do
        local moves = game:moves()
        local column = tonumber(moves[random(#moves)])
        cells[column][#cells[column] + 1] = game:turn()
        game = game:drop(column)
        assert.equal(has_four(cells, width, height), game:is_over()
          and game:result().winner ~= nil, width .. "x" .. height .. " " .. game:save())
      end
    end
  end)

  it("solves tall narrow Connect Four boards as a plain search does (finding 10)", function()
    -- a single column alternates colours: no four, a draw
    assert.equal(0, (connect4.new{width = 1, height = 62}:solve()))
    local sign = function(x) return x > 0 and 1 or x < 0 and -1 or 0 end
    local random = support.generator(3)
    for _, size in ipairs({{2, 30}, {3, 20}, {2, 31}}) do
      for _ = 1, 4 do
        -- a random game to ten empty cells, where alpha-beta sees the end
        local g = connect4.new{width = size[1], height = size[2]}
        while #g:history() < size[1] * size[2] - 10 and not g:is_over() do
          local moves = g:moves()
          g = g:drop(tonumber(moves[random(#moves)]))
        end
        if not g:is_over() then
          local exact = ai.search(g, {depth = 12})
          assert.is_true(exact.exact)
          assert.equal(sign(exact.score), sign((g:solve())), g:save())
        end
      end
    end
  end)

  it("keeps xiangqi's repetitions when a game goes back past 256 plies (finding 11)", function()
    local pieces = function(g) return #g:fen():match("^(%S+)"):gsub("[^%a]", "") end
    local g = xiangqi.new{move_limit = false}
    local shuffle = {"h2e2", "h9g7", "e2h2", "g7h9"}
    for _, m in ipairs(shuffle) do g:push(m) end   -- the start again: twice now
    local random, n, plies = support.generator(7), pieces(g), 0
    while plies < 300 do                            -- quiet moves, no repetition
      local moves = g:moves()
      g:push(moves[random(#moves)])
      if pieces(g) ~= n or g:is_over() then g:pop() else plies = plies + 1 end
    end
    for _ = 1, 300 do g:pop() end
    for _, m in ipairs(shuffle) do g:push(m) end   -- and a third time
    assert.is_true(g:is_over())
    assert.is_true(g:result().draw)
  end)

  it("reads a xiangqi move number past 65535 (finding 11)", function()
    local start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 "
    assert.equal(start .. "5555555", xiangqi.load(start .. "5555555"):fen())
    local g, message = xiangqi.load(start .. "99999999999")
    assert.is_nil(g)
    assert.truthy(message:find("numbers up to 999999999", 1, true), message)
  end)

  it("hands match players a copy of the game (finding 12)", function()
    local cheat = {name = "cheat", choose = function(_, g)
      local moves = g:moves()
      g:push(moves[1])                              -- plays for the opponent
      local again = g:moves()
      return again[1] or moves[1]
    end}
    local result = ludus.match(tictactoe, cheat, ai.alphabeta{depth = 9},
                               {games = 2, progress = false})
    assert.equal(0, result.a.wins)
    for _, record in ipairs(result.records) do
      assert.truthy(tictactoe.load(record.record))
    end
  end)

  it("frees a search whose eval overflows the stack in a coroutine (finding 14)", function()
    local function deep(n) return deep(n + 1) + 1 end
    for _ = 1, 3 do
      local ok, err = coroutine.wrap(function()
        return pcall(ai.search, tictactoe.new(), {depth = 3, eval = function()
          return deep(1)
        end})
      end)()
      assert.is_false(ok)
      assert.truthy(tostring(err):find("stack overflow", 1, true), err)
    end
  end)
end)
