-- game_spec.lua: games written in Lua (ludus.game.define): the checks on
-- a spec, the game module it gives, which must behave like a built-in
-- one, and what a broken spec does at run time.

local ludus = require("ludus")
local luattt = require("luattt")
local assert_raises = require("support").assert_raises

local define = ludus.game.define
local tictactoe = ludus.tictactoe

-- A spec with one field replaced (nil removes it: pass the string "nil").
local function spec_with(key, value)
  local spec = luattt("push")
  if value == "nil" then value = nil end
  spec[key] = value
  return spec
end

describe("game.define", function()
  it("names what is missing or wrong in a spec", function()
    assert_raises({"game.define: the spec must be a table of functions (got number)"},
                  define, 42)
    assert_raises({"spec.name must be a non-empty string"}, define, spec_with("name", "nil"))
    assert_raises({"spec.sides must name two different sides"}, define,
                  spec_with("sides", {"x", "x"}))
    assert_raises({"spec.sides must name two different sides"}, define,
                  spec_with("sides", {"x"}))
    assert_raises({"side name 'play' cannot be a method name"}, define,
                  spec_with("sides", {"play", "o"}))
    assert_raises({"luattt: spec.moves must be a function (got nil)"}, define,
                  spec_with("moves", "nil"))
    assert_raises({"spec.result must be a function (got string)"}, define,
                  spec_with("result", "win"))
    assert_raises({"spec.hash must be a function when given (got number)"}, define,
                  spec_with("hash", 3))
    assert_raises({"spec.push and spec.pop come together"}, define, spec_with("pop", "nil"))
    local neither = spec_with("push", "nil")
    neither.pop = nil
    assert_raises({"spec needs play(s, m), or push(s, m) and pop(s)"}, define, neither)
  end)
end)

for _, style in ipairs({"push", "play"}) do
  describe("a Lua tic-tac-toe made with " .. style, function()
    local T = define(luattt(style))

    it("agrees with ludus.tictactoe move by move in every game", function()
      -- Depth first through the game tree: 255,168 games is too many for
      -- a spec, so follow every line of the first three plies and one
      -- line to the end from each.
      local checked = 0
      local function walk(lua_game, c_game, ply)
        assert.same(c_game:moves(), lua_game:moves())
        assert.equal(c_game:turn(), lua_game:turn())
        assert.equal(c_game:is_over(), lua_game:is_over())
        local c_result, lua_result = c_game:result(), lua_game:result()
        if c_result then
          assert.equal(c_result.winner, lua_result.winner)
          assert.equal(c_result.draw, lua_result.draw)
        end
        checked = checked + 1
        local moves = c_game:moves()
        for i = 1, (ply < 3 and #moves or math.min(1, #moves)) do
          walk(lua_game:play(moves[i]), c_game:play(moves[i]), ply + 1)
        end
      end
      walk(T.new(), tictactoe.new(), 0)
      assert.is_true(checked > 1 + 9 + 72 + 504 * 4)
    end)

    it("plays without changing the receiver; push and pop work in place", function()
      local g = T.new():x("b2"):o("a1")
      local h = g:play("c3")
      assert.same({"b2", "a1"}, g:history())
      assert.same({"b2", "a1", "c3"}, h:history())
      assert.equal(g, g:push("c1"))
      assert.equal("b2 a1 c1", g:save())
      assert.equal("o", g:turn())
      assert.equal("c1", g:pop())
      assert.equal("x", g:turn())
      assert.equal(7, #g:moves())
      -- A game that came from play() pops too.
      assert.equal("c3", h:pop())
      assert.same(g:moves(), h:moves())
      assert.equal("a1", h:pop())
      assert.same({"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}, h:moves())
    end)

    it("copies independently", function()
      local g = T.new():x("b2")
      local c = g:copy()
      c:push("a1")
      assert.same({"b2"}, g:history())
      assert.same({"b2", "a1"}, c:history())
      assert.equal(8, #g:moves())
    end)

    it("copies a search's position where it stands, not from the start", function()
      local spec = luattt(style)
      spec.copy = function(s)
        return {cells = table.move(s.cells, 1, 9, 1, {}), n = s.n,
                stack = table.move(s.stack or {}, 1, 9, 1, {})}
      end
      local seen = {}
      ludus.ai.search(define(spec).load("b2 a1"), {depth = 2, eval = function(g)
        local c = g:copy()
        local m = c:moves()[1]
        local d = c:push(m):copy()     -- its pop rebuilds from where c began
        d:pop()
        seen[#seen + 1] = {g = g:hash(), c = c:pop() and c:hash(), d = d:hash(),
                           legal = g:moves(), move = ludus.ai.search(c, {depth = 1}).move,
                           saved = {pcall(c.save, c)}}
        return 0
      end})
      assert.is_true(#seen > 10)
      for _, s in ipairs(seen) do
        assert.equal(s.g, s.c)
        assert.equal(s.g, s.d)
        assert.truthy(table.concat(s.legal, " "):find(s.move, 1, true))
        assert.is_false(s.saved[1])
        assert.truthy(s.saved[2]:find("came from a search and has no record", 1, true))
      end
    end)

    it("hashes equal positions equally", function()
      local a = T.new():x("a1"):o("b2"):x("c3")
      local b = T.new():x("c3"):o("b2"):x("a1")
      assert.equal(a:hash(), b:hash())
      assert.not_equal(a:hash(), T.new():hash())
    end)

    it("saves and loads back", function()
      local g = T.new():x("b2"):o("a1"):x("c3")
      local back = assert(T.load(g:save()))
      assert.same(g:history(), back:history())
      assert.equal(g:hash(), back:hash())
      assert.same({"a1", "b2"}, T.load(" a1, b2 "):history())
      assert.same({"a1", "b2"}, T.load("a1;b2"):history())
      assert.is_nil(T.load("A1"))              -- moves are matched exactly
    end)

    it("ends with a winner, a draw, and no moves after", function()
      local won = T.load("a1 a2 b1 b2 c1")
      assert.is_true(won:is_over())
      assert.same({winner = "x", draw = false}, won:result())
      assert.is_nil(won:turn())
      assert.same({}, won:moves())
      local drawn = T.load("b2 a1 c1 a3 a2 c2 b1 b3 c3")
      assert.same({draw = true}, drawn:result())
      assert_raises({"luattt: no move after the end of the game (x won)"}, won.play, won, "c3")
      assert_raises({"no move after the end of the game (a draw)"}, drawn.push, drawn, "a1")
    end)

    it("says what is wrong with a move, changing nothing", function()
      local g = T.new():x("b2")
      assert_raises({"luattt: illegal move 'b2' for o (legal: a1 b1 c1 a2 c2 a3 b3 c3)"},
                    g.play, g, "b2")
      assert_raises({"luattt: it is o's turn, not x's"}, g.x, g, "a1")
      assert_raises({"bad move (string expected, got table)"}, g.push, g, {})
      assert_raises({"luattt: no move to pop (the history is empty)"}, T.new().pop, T.new())
      assert_raises({"bad self for 'moves'"}, g.moves, 42)
      assert.same({"b2"}, g:history())
      assert.equal("o", g:turn())
    end)

    it("returns nil and why for a bad record", function()
      local g, why = T.load("b2 a1 b2")
      assert.is_nil(g)
      assert.equal("luattt: bad record: move 3 'b2' (illegal move 'b2' for x "
        .. "(legal: b1 c1 a2 c2 a3 b3 c3))", why)
      g, why = T.load("a1 a2 b1 b2 c1 c2")
      assert.is_nil(g)
      assert.truthy(why:find("move 6 'c2' (no move after the end of the game (x won))",
                             1, true), why)
      assert_raises({"luattt.load: record must be a string or a match record (got nil)"}, T.load)
      -- it named luattt.new, at a line of ludus's own
      local ok, message = pcall(T.load, {record = "b2", options = 5})
      assert.is_false(ok)
      assert.equal("luattt.load: options must be a table (got number)",
                   (message:gsub("^[^:]*_spec%.lua:%d+: ", "")))
    end)

    it("draws itself with the spec's tostring, or says where it stands", function()
      assert.equal("luattt after 1 moves, o to move", tostring(T.new():x("b2")))
      assert.equal("luattt after 5 moves, x won", tostring(T.load("a1 a2 b1 b2 c1")))
      local spec = luattt(style)
      spec.tostring = function(s) return "board of " .. s.n end
      assert.equal("board of 1", tostring(define(spec).new():x("b2")))
    end)
  end)
end

describe("a broken spec at run time", function()
  -- Each case: the field to break, its broken version, and the pieces of
  -- the message that names it.
  local cases = {
    {"moves", function() return nil end,
     {"broken: 'moves' must return a table of moves (got nil)"}},
    {"moves", function() return {"a1", true} end,
     {"broken: 'moves' returned a boolean at index 2 (moves are strings)"}},
    {"moves", function() return {"a1", nil, "c1"} end,
     {"broken: 'moves' returned a nil at index 2 (moves are strings)"}},
    {"moves", function() error("no moves today") end,
     {"broken: 'moves' raised an error:", "no moves today"}},
    {"push", function() error("cannot push") end,
     {"broken: 'push' raised an error:", "cannot push"}},
    {"turn", function() return "z" end,
     {"broken: 'turn' returned"}},
    {"turn", function(s) return s.n % 2 == 0 and "x\0" or "o" end,
     {"broken: 'turn' returned 'x?'"}},
    {"is_over", function() error({}) end,
     {"broken: 'is_over' raised an error"}},
  }
  for _, case in ipairs(cases) do
    local key, broken, pieces = case[1], case[2], case[3]
    it("names '" .. key .. "' when it misbehaves, in methods and in searches", function()
      local spec = luattt("push", "broken")
      spec[key] = broken
      local G = define(spec)
      local ok, g = pcall(G.new)
      if ok then
        local through_methods = pcall(function()
          local moves = g:moves()
          g:play(moves[1] or "a1")
          return g:turn()
        end)
        assert.is_false(through_methods)
        assert_raises(pieces, ludus.ai.search, g, {depth = 3})
        assert_raises(pieces, ludus.ai.search, g, {algorithm = "mcts", playouts = 50, seed = 1})
      end
    end)
  end

  it("refuses a move that a saved record could not give back", function()
    for _, bad in ipairs({"a 1", "a1,b1", "a1;", "", "\t"}) do
      local spec = luattt("play", "broken")
      local moves = spec.moves
      spec.moves = function(s)
        local list = moves(s)
        if s.n == 1 then list[#list + 1] = bad end
        return list
      end
      local play = spec.play
      spec.play = function(s, m) return play(s, m == bad and "c3" or m) end
      local G = define(spec)
      local g = G.new():x("b2")
      assert_raises({"broken: 'moves' returned '" .. bad:gsub("%c", "?") .. "' at index 9 "
                     .. "(a move is not empty and holds no white space, ',' or ';'"},
                    g.play, g, bad)
      assert_raises({"'moves' returned '"}, g.moves, g)
    end
  end)

  it("names 'turn' when it says nil of a game still going", function()
    -- the search took nil for the other side's turn, which only a
    -- finished game may say
    local spec = luattt("push", "broken")
    local turn = spec.turn
    spec.turn = function(s) if s.n == 2 then return nil end return turn(s) end
    local g = define(spec).new()
    assert_raises({"broken: 'turn' returned nil"}, g:play("a1"):play("b2").turn,
                  g:play("a1"):play("b2"))
    assert_raises({"broken: 'turn' returned nil"}, ludus.ai.search, g, {depth = 3})
    spec = luattt("push", "broken")
    turn = spec.turn
    spec.turn = function(s) if spec.is_over(s) then return nil end return turn(s) end
    assert.equal(0, ludus.ai.search(define(spec).new()).score)
  end)

  it("names a winner that is not a side", function()
    local spec = luattt("push", "broken")
    spec.result = function() return {winner = "nobody"} end
    local G = define(spec)
    local g = G.load("a1 a2 b1 b2")
    assert_raises({"broken: 'result' names an unknown winner 'nobody'"},
                  function() return g:play("c1"):result() end)
    assert_raises({"broken: 'result' names an unknown winner"}, ludus.ai.search, g)
  end)

  it("points an error of new or copy at the spec's code, not at ludus's", function()
    local spec = luattt("play", "broken")
    spec.new = function() error("no new") end
    local ok, message = pcall(define(spec).new)
    assert.is_false(ok)
    assert.truthy(message:find("^broken: 'new' raised an error: [^\n]*_spec%.lua:%d+: no new$"),
                  message)
    spec = luattt("play", "broken")
    spec.copy = function() error("no copy") end
    local g = define(spec).new()
    ok, message = pcall(g.copy, g)
    assert.is_false(ok)
    assert.truthy(message:find("^broken: 'copy' raised an error: [^\n]*_spec%.lua:%d+: no copy$"),
                  message)
  end)

  it("names 'play' when it raises or returns nothing", function()
    local spec = luattt("play", "broken")
    spec.play = function() error("no play") end
    local g = define(spec).new()
    assert_raises({"broken: 'play' raised an error:", "no play"}, g.play, g, "a1")
    assert_raises({"broken: 'play' raised an error:", "no play"}, ludus.ai.search, g)
    spec = luattt("play", "broken")
    spec.play = function() return nil end
    assert_raises({"broken: 'play' returned nil"}, ludus.ai.search, define(spec).new())
  end)

  it("refuses a copy that is the position itself, with push and pop", function()
    local spec = luattt("push", "broken")
    spec.copy = function(s) return s end
    local g = define(spec).load("b2")
    local calls = 0
    local refused = {"broken: 'copy' returned the position it was given"}
    assert_raises(refused, g.copy, g)
    assert_raises(refused, g.play, g, "a1")
    assert_raises(refused, ludus.ai.search, g, {depth = 4, eval = function()
      calls = calls + 1
      if calls > 3 then error("tired") end   -- would leave the search's pushes
      return 0
    end})
    assert.same({"b2"}, g:history())
    assert.equal(8, #g:moves())
    -- with play, a position never changes: the same one is a fine copy
    spec = luattt("play", "broken")
    spec.copy = function(s) return s end
    g = define(spec).load("b2")
    local c = g:copy():push("a1")
    assert.equal(7, #c:moves())
    assert.equal(8, #g:moves())
  end)

  it("names 'hash' when it does not return an integer", function()
    local spec = luattt("push", "broken")
    spec.hash = function() return "h" end
    local g = define(spec).new()
    assert_raises({"broken: 'hash' must return an integer (got 'h')"}, g.hash, g)
    assert_raises({"broken: 'hash' must return an integer (got 'h')"},
                  ludus.ai.search, g, {depth = 2})
    -- A string that reads as a number is no integer either.
    spec.hash = function() return "12" end
    g = define(spec).new()
    assert_raises({"broken: 'hash' must return an integer (got '12')"}, g.hash, g)
    assert_raises({"broken: 'hash' must return an integer (got '12')"},
                  ludus.ai.search, g, {depth = 2})
  end)

  it("keeps a game whole when pop raises, or the replay a pop needs", function()
    local spec = luattt("push", "broken")
    spec.pop = function() error("no pop") end
    local g = define(spec).load("b2 a1")
    assert_raises({"broken: 'pop' raised an error:", "no pop"}, g.pop, g)
    assert.same({"b2", "a1"}, g:history())    -- it said {"b2"} of a board with a1
    assert.equal(7, #g:moves())
    spec = luattt("play", "broken")
    local new, fresh = spec.new, true
    spec.new = function(...)
      if not fresh then error("no new") end
      fresh = false
      return new(...)
    end
    g = define(spec).new():play("b2")         -- its pop replays from new()
    assert_raises({"broken: 'new' raised an error:", "no new"}, g.pop, g)
    assert.same({"b2"}, g:history())
    assert.equal(8, #g:moves())
  end)

  it("raises an error of the spec's last calls, made to name the move and line", function()
    -- the search's own calls went well; the failure of the next one was
    -- dropped, and info said stopped = "time"
    local spec = luattt("push", "broken")
    local moves, calls, limit = spec.moves, 0, math.huge
    spec.moves = function(s)
      calls = calls + 1
      if calls > limit then error("tired of listing") end
      return moves(s)
    end
    local g = define(spec).load("b2 a1")
    for _, options in ipairs({{depth = 3}, {algorithm = "mcts", playouts = 50, seed = 1}}) do
      calls, limit = 0, math.huge
      ludus.ai.search(g, options)
      calls, limit = 0, calls - 1
      assert_raises({"broken: 'moves' raised an error:", "tired of listing"},
                    ludus.ai.search, g, options)
    end
  end)

  it("leaves the searched game as it was after a failure", function()
    local spec = luattt("push", "broken")
    local calls = 0
    local push = spec.push
    spec.push = function(s, m)
      calls = calls + 1
      if calls > 20 then error("tired") end
      push(s, m)
    end
    local g = define(spec).new():x("b2")
    calls = -1000
    local before = g:save()
    calls = 0
    assert_raises({"'push' raised an error"}, ludus.ai.search, g, {depth = 5})
    assert.equal(before, g:save())
    assert.equal(8, #g:moves())
  end)
end)
