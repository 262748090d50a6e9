-- ai_spec.lua: ludus.ai on built-in games and on games written in Lua:
-- solved values, alpha-beta against plain minimax, MCTS, the players,
-- limits and bad options.

local ludus = require("ludus")
local luattt = require("luattt")
local support = require("support")
local assert_raises, contains = support.assert_raises, support.contains

local ai = ludus.ai
local tictactoe = ludus.tictactoe
local connect4 = ludus.connect4
local match = ludus.match
local WIN = 1000000

-- Plays line from g, checking every move is legal; the game after it.
local function replay(g, line)
  for _, move in ipairs(line) do
    assert.is_true(contains(g:moves(), move), "illegal move in the line: " .. move)
    g = g:play(move)
  end
  return g
end

-- Plain minimax to depth plies, scored as the searches score: a win at
-- ply p is WIN - p; the horizon is eval(game).
local function minimax(g, depth, eval, ply)
  ply = ply or 0
  if g:is_over() then
    local winner = g:result().winner
    if winner == nil then return 0 end
    return -(WIN - ply)            -- the side to move has lost
  end
  if depth == 0 then return eval(g) end
  local best = -math.huge
  for _, move in ipairs(g:moves()) do
    g:push(move)
    best = math.max(best, -minimax(g, depth - 1, eval, ply + 1))
    g:pop()
  end
  return best
end

-- A cheap heuristic with many distinct values: the empty squares,
-- weighted, counted for x; from the side to move.  (An evaluation sees
-- the position, not the history: it asks turn, not #history.)
local WEIGHTS = {a1 = 3, b1 = 2, c1 = 3, a2 = 2, b2 = 4, c2 = 2, a3 = 3, b3 = 2, c3 = 3}
local function weigh(g)
  local score = 0
  for _, move in ipairs(g:moves()) do score = score + WEIGHTS[move] end
  return g:turn() == "x" and score or -score
end

describe("ai.search", function()
  it("finds that tic-tac-toe is a draw, exactly", function()
    local info = ai.search(tictactoe.new())
    assert.equal(0, info.score)
    assert.is_true(info.exact)
    assert.equal(9, info.depth)
    assert.is_nil(info.mate)
    assert.is_nil(info.stopped)
    assert.is_true(info.nodes > 100)
    assert.equal(9, #info.pv)
    assert.equal(info.move, info.pv[1])
    local final = replay(tictactoe.new(), info.pv)
    assert.is_true(final:result().draw)
  end)

  it("finds the quickest win and counts it in plies", function()
    -- x: a1 b2, o: a3 c1; x wins at once on c3.
    local info = ai.search(tictactoe.load("a1 a3 b2 c1"))
    assert.equal("c3", info.move)
    assert.equal(1, info.mate)
    assert.equal(WIN - 1, info.score)
    -- o to move after a1 a2 b2 cannot stop x: lost in 4 plies.
    info = ai.search(tictactoe.load("a1 a2 b2"))
    assert.equal(-4, info.mate)
    assert.is_true(info.exact)
  end)

  it("returns no move once the game is over", function()
    local info = ai.search(tictactoe.load("a1 a2 b1 b2 c1"))
    assert.is_nil(info.move)
    assert.same({}, info.pv)
    assert.is_true(info.exact)
  end)

  it("equals plain minimax at every depth, with and without a table", function()
    local seed = 12345
    local function random_below(n)
      seed = (seed * 6364136223846793005 + 1442695040888963407)
      return ((seed >> 33) % n) + 1
    end
    local compared = 0
    for _ = 1, 40 do
      local g = tictactoe.new()
      for _ = 1, random_below(6) - 1 do
        local moves = g:moves()
        if #moves == 0 then break end
        g = g:play(moves[random_below(#moves)])
      end
      if not g:is_over() then
        for depth = 1, 4 do
          local expected = minimax(g:copy(), depth, weigh)
          for _, tt in ipairs({0, 1}) do
            local info = ai.search(g, {depth = depth, eval = weigh, tt = tt})
            assert.equal(expected, info.score, ("depth %d, tt %d, game '%s'")
              :format(depth, tt, g:save()))
            assert.is_true(contains(g:moves(), info.move))
          end
          compared = compared + 1
        end
      end
    end
    assert.is_true(compared > 80)
  end)

  it("stops at a node budget with a legal move", function()
    local info = ai.search(tictactoe.new(), {nodes = 10})
    assert.equal("nodes", info.stopped)
    assert.is_false(info.exact)
    assert.is_true(contains(tictactoe.new():moves(), info.move))
  end)

  it("searches Connect Four and takes a win", function()
    local c = connect4.load("445566")     -- yellow has 4, 5, 6: 3 or 7 wins
    local info = ai.search(c, {depth = 4})
    assert.equal(1, info.mate)
    assert.truthy(info.move == "3" or info.move == "7", info.move)
  end)

  it("rejects bad options, naming them", function()
    local t = tictactoe.new()
    assert_raises({"ai.search: unknown option 'dpeth' (it takes: algorithm depth time"},
                  ai.search, t, {dpeth = 3})
    assert_raises({"ai.search: option 'depth' must be a whole number from 1 to"},
                  ai.search, t, {depth = -1})
    assert_raises({"option 'time' must be a positive number, at most 1000000000 (got 'soon')"},
                  ai.search, t, {time = "soon"})
    assert_raises({"option 'eval' must be a function (got number)"},
                  ai.search, t, {eval = 3})
    assert_raises({"option 'tt' must be a whole number from 0 to 1024 (got -2)"},
                  ai.search, t, {tt = -2})
    assert_raises({"bad argument #1", "game expected, got number"}, ai.search, 7)
    assert_raises({"ai.search: option 'algorithm' must be \"alphabeta\", \"mcts\", "
                   .. "\"greedy\" or \"random\" (got 'minimax')"},
                  ai.search, t, {algorithm = "minimax"})
    local player = ai.random{seed = 1}
    player.kind = "minimax"
    assert_raises({"ai: player: field 'kind' must be \"alphabeta\""}, player.choose,
                  player, t)
    assert_raises({"unknown option 'depth' (it takes: algorithm playouts"},
                  ai.search, t, {algorithm = "mcts", depth = 3})
    assert_raises({"option 'seed' must be an integer (got string)"},
                  ai.search, t, {algorithm = "mcts", seed = "x"})
  end)

  it("passes a Lua evaluation's error on, naming it", function()
    assert_raises({"tictactoe: the evaluation raised an error:", "bad eval"},
                  ai.search, tictactoe.new(), {depth = 2, eval = function() error("bad eval") end})
    assert_raises({"the evaluation must return a number (got nil)"},
                  ai.search, tictactoe.new(), {depth = 2, eval = function() end})
  end)
end)

describe("a game written in Lua, searched in C", function()
  for _, style in ipairs({"push", "play"}) do
    it("gives the values of the C tic-tac-toe in every position (" .. style .. ")", function()
      local T = ludus.game.define(luattt(style))
      local c_player = ai.alphabeta{}
      local lua_player = ai.alphabeta{}
      local seen, positions = {}, 0
      local function walk(c_game, lua_game)
        if seen[c_game:hash()] then return end
        seen[c_game:hash()] = true
        positions = positions + 1
        if c_game:is_over() then return end
        c_player:choose(c_game)
        lua_player:choose(lua_game)
        local c_info, lua_info = c_player.info, lua_player.info
        assert.is_true(c_info.exact and lua_info.exact)
        assert.equal(c_info.score, lua_info.score, c_game:save())
        for _, move in ipairs(c_game:moves()) do
          walk(c_game:play(move), lua_game:play(move))
        end
      end
      walk(tictactoe.new(), T.new())
      assert.equal(5478, positions)
    end)
  end

  it("is searched without a hash too, and by MCTS", function()
    local spec = luattt("play")
    spec.hash = nil
    local T = ludus.game.define(spec)
    local info = ai.search(T.load("a1 a2 b2"))
    assert.equal(-4, info.mate)
    info = ai.search(T.load("a1 a3 b2 c1"), {algorithm = "mcts", playouts = 300, seed = 1})
    assert.equal("c3", info.move)
    assert.equal("win", info.proven)            -- proven at once: no more playouts
    assert.is_true(info.playouts < 300)
    info = ai.search(T.load("b2"), {algorithm = "mcts", playouts = 300, seed = 1})
    assert.equal(300, info.playouts)
    assert.is_nil(info.proven)
  end)

  it("stops MCTS near its time inside a long playout", function()
    -- A playout of 2000 plies of slow calls takes seconds; the search must
    -- not finish it after its 0.05 s are spent.
    local function slow()
      local t = os.clock()
      repeat until os.clock() - t > 0.0002
    end
    local Walk = ludus.game.define{
      name = "walk", sides = {"a", "b"},
      new = function() return {n = 0} end,
      turn = function(s) slow(); return s.n % 2 == 0 and "a" or "b" end,
      moves = function() slow(); return {"1", "2"} end,
      play = function(s) return {n = s.n + 1} end,
      is_over = function(s) slow(); return s.n >= 2000 end,
      result = function() return {} end,
    }
    local info = ai.search(Walk.new(), {algorithm = "mcts", time = 0.05, seed = 1})
    assert.equal("time", info.stopped)
    assert.is_true(info.lua_calls < 1000, info.lua_calls)
    assert.equal(0, info.playouts)              -- the unfinished one is not counted
    assert.truthy(info.move)
  end)

  it("stops near its time when each evaluation is slow", function()
    -- 10 ms of work each: 0.05 s leaves room for about 5 of them, not
    -- for the 16 after which the clock used to be read.
    local info = ai.search(connect4.new(), {time = 0.05, eval = function()
      local t = os.clock()
      repeat until os.clock() - t > 0.01
      return 0
    end})
    assert.equal("time", info.stopped)
    assert.is_true(info.lua_calls <= 7, info.lua_calls)
    assert.truthy(info.move)
  end)

  it("returns the spec's moves whole: long, with a NUL, or numbers", function()
    local long = ("x"):rep(100)
    local Nim = ludus.game.define{
      name = "nim", sides = {"first", "second"},
      new = function() return {left = 5, n = 0} end,
      turn = function(s) return s.n % 2 == 0 and "first" or "second" end,
      moves = function(s)
        return s.left == 5 and {long .. "1", long .. "2"} or s.left > 2 and {"a\0b", 2.5} or {1}
      end,
      play = function(s, m)
        return {left = s.left - (m == 1 and 1 or tostring(m):find("2") and 2 or 1), n = s.n + 1}
      end,
      is_over = function(s) return s.left <= 0 end,
      result = function(s) return {winner = s.n % 2 == 1 and "first" or "second"} end,
    }
    local g = Nim.new()
    local mcts = {algorithm = "mcts", playouts = 200, seed = 1}
    for _, info in ipairs({ai.search(g), ai.search(g, mcts)}) do
      for i, move in ipairs(info.pv) do
        assert.truthy(contains(g:moves(), move), ("ply %d: '%s'"):format(i, move))
        g = g:play(move)
      end
      g = Nim.new()
    end
    assert.equal(101, #ai.search(g).move)
    assert.same({"a\0b", "2.5"}, g:play(long .. "1"):moves())
  end)

  it("lends an evaluation of a C game a position with no record to save", function()
    -- its save() was "" and, after a move, that move alone: a record
    -- that loads as another position
    for _, g in ipairs({tictactoe.load("b2 a1"), ludus.mnk.load("b2 a1", {m = 4})}) do
      local saved = {}
      ai.search(g, {depth = 1, eval = function(e)
        local after = e:copy():play(e:moves()[1])
        saved[#saved + 1] = {pcall(e.save, e)}
        saved[#saved + 1] = {pcall(after.save, after)}
        return 0
      end})
      assert.is_true(#saved > 0)
      for _, result in ipairs(saved) do
        assert.is_false(result[1])
        assert.truthy(result[2]:find("this position came from a search and has no record "
                                     .. "from the start", 1, true), result[2])
      end
      assert.equal("b2 a1 c3", g:copy():play("c3"):save())
    end
  end)

  it("hands a Lua evaluation a game it can ask", function()
    local T = ludus.game.define(luattt("push"))
    local turns = {}
    local info = ai.search(T.new(), {depth = 2, eval = function(g)
      turns[g:turn()] = true
      return g:turn() == "x" and #g:moves() or -#g:moves()
    end})
    assert.same({x = true, o = true}, turns)  -- depth 1 first, then 2
    assert.equal(7, info.score)
  end)

  it("counts the calls into Lua, and only for Lua", function()
    local spec, calls = luattt("push"), 0
    for _, key in ipairs({"turn", "moves", "push", "pop", "is_over", "result", "hash"}) do
      local f = spec[key]
      spec[key] = function(...) calls = calls + 1; return f(...) end
    end
    local T = ludus.game.define(spec)
    local g = T.load("a1 b2")
    calls = 0
    local info = ai.search(g, {depth = 3})
    -- The search calls the spec only; naming the move and the line after
    -- it calls a few more.
    assert.is_true(info.lua_calls > info.nodes)
    assert.is_true(calls >= info.lua_calls and calls < info.lua_calls + 100)
    assert.is_nil(ai.search(tictactoe.load("a1 b2"), {depth = 3}).lua_calls)
    local evals = 0
    info = ai.search(tictactoe.load("a1 b2"), {depth = 3, eval = function()
      evals = evals + 1
      return 0
    end})
    assert.equal(evals, info.lua_calls)
  end)
end)

describe("ai.mcts", function()
  it("is reproducible from its seed", function()
    local a = ai.search(tictactoe.new(), {algorithm = "mcts", playouts = 2000, seed = 9})
    local b = ai.search(tictactoe.new(), {algorithm = "mcts", playouts = 2000, seed = 9})
    assert.same(a.pv, b.pv)
    assert.equal(a.value, b.value)
    assert.equal(a.tree, b.tree)
    assert.equal(2000, a.playouts)
    assert.is_nil(a.stopped)
  end)

  it("takes a win and blocks a loss", function()
    local info = ai.search(tictactoe.load("a1 a3 b2 c1"),
                           {algorithm = "mcts", playouts = 1000, seed = 1})
    assert.equal("c3", info.move)
    assert.is_true(info.value > 0.9)
    info = ai.search(tictactoe.load("a1 a3 b2"), {algorithm = "mcts", playouts = 2000, seed = 1})
    assert.equal("c3", info.move)
  end)

  it("never loses to random play at tic-tac-toe over 200 games", function()
    local result = match(tictactoe, ai.mcts{playouts = 1500, seed = 1}, ai.random{seed = 2},
                         {games = 200, progress = false})
    assert.equal(0, result.a.losses)
    assert.equal(200, result.a.wins + result.a.draws)
    assert.is_true(result.a.wins > 150)
  end)

  it("does not beat alpha-beta", function()
    local result = match(tictactoe, ai.alphabeta{}, ai.mcts{playouts = 500, seed = 3},
                         {games = 10, progress = false})
    assert.equal(0, result.a.losses)
  end)
end)

describe("players", function()
  it("choose a move and fill their info", function()
    local p = ai.alphabeta{depth = 2, name = "shallow"}
    assert.equal("shallow", p.name)
    assert.equal("ai.alphabeta player 'shallow'", tostring(p))
    local move = p:choose(tictactoe.new())
    assert.equal(move, p.info.move)
    assert.equal(2, p.info.depth)
    p.depth = 4                                  -- options are live fields
    p:choose(tictactoe.new())
    assert.equal(4, p.info.depth)
    p:new_game()
  end)

  it("greedy takes a win, random is reproducible and legal", function()
    assert.equal("c3", ai.greedy{}:choose(tictactoe.load("a1 a3 b2 c1")))
    local one, two = ai.random{seed = 5}, ai.random{seed = 5}
    local g = tictactoe.new()
    for _ = 1, 5 do
      local move = one:choose(g)
      assert.equal(move, two:choose(g))
      assert.is_true(contains(g:moves(), move))
      g = g:play(move)
    end
  end)

  it("raise when the game is over, and on bad options", function()
    local over = tictactoe.load("a1 a2 b1 b2 c1")
    assert_raises({"ai.alphabeta: no move to choose (the game is over)"},
                  ai.alphabeta{}.choose, ai.alphabeta{}, over)
    assert_raises({"ai.random: no move to choose"}, ai.random{}.choose, ai.random{}, over)
    assert_raises({"ai.alphabeta: unknown option 'playouts'"}, ai.alphabeta, {playouts = 3})
    assert_raises({"ai.mcts: option 'playouts' must be a whole number from 1 to "
                   .. "9007199254740992 (got 0)"}, ai.mcts, {playouts = 0})
    assert_raises({"ai.random: option 'seed' must be an integer (got number)"},
                  ai.random, {seed = 1.5})
    assert_raises({"ai.greedy: option 'eval' must be a function (got string)"},
                  ai.greedy, {eval = "mine"})
  end)

  it("play Connect Four in a match", function()
    local result = match(connect4, ai.alphabeta{depth = 4}, ai.random{seed = 1},
                         {games = 2, progress = false})
    assert.equal(2, result.a.wins)
    for _, record in ipairs(result.records) do
      assert.is_truthy(connect4.load(record.record))
    end
  end)
end)
