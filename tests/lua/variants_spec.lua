-- variants_spec.lua: the rule variants written in Lua (scripts/variants):
-- mnk against ludus.tictactoe, ludus.mnk and a plain minimax, solved
-- values, gomoku's rules and searches, misere tic-tac-toe, each variant in
-- a match, and what ludus.game.define does with a broken spec.

local ludus = require("ludus")
local match = require("ludus.match")
local mnk = require("ludus.variants.mnk")
local gomoku = require("ludus.variants.gomoku")
local misere = require("ludus.variants.misere_tictactoe")
local support = require("support")
local assert_raises, generator = support.assert_raises, support.generator

local ai, tictactoe = ludus.ai, ludus.tictactoe
local WIN = 1000000

-- Plays random moves on two games in step until the game ends, calling
-- check(a, b) on every position from the start.
local function random_game_in_step(a, b, random, check)
  check(a, b)
  while not a:is_over() do
    local moves = a:moves()
    local move = moves[random(#moves)]
    a, b = a:play(move), b:play(move)
    check(a, b)
  end
end

local function same_rules(a, b)
  assert.same(a:moves(), b:moves())
  assert.equal(a:turn(), b:turn())
  assert.equal(a:is_over(), b:is_over())
  local ra, rb = a:result(), b:result()
  assert.equal(ra == nil, rb == nil)
  if ra then
    assert.equal(ra.winner, rb.winner)
    assert.equal(ra.draw, rb.draw)
  end
end

-- Walks the game tree of mnk and ludus.tictactoe in step, depth first,
-- calling visit(g, t) at every node; it goes on below a node only when
-- visit returns true.
local function each_tictactoe_position(visit)
  local function walk(g, t)
    if not visit(g, t) then return end
    for _, m in ipairs(g:moves()) do
      walk(g:push(m), t:push(m))
      g:pop()
      t:pop()
    end
  end
  walk(mnk.new(), tictactoe.new())
end

describe("mnk", function()
  it("is tic-tac-toe by default: same moves, results and drawing everywhere", function()
    local random = generator(1)
    for _ = 1, 30 do
      random_game_in_step(mnk.new(), tictactoe.new(), random, function(g, t)
        same_rules(g, t)
        assert.equal(tostring(t), tostring(g))
      end)
    end
    assert.equal("  a b c\n3 . . .\n2 . . .\n1 . . .\nx to move", tostring(mnk.new()))
    assert.same({winner = "o", draw = false}, mnk.load("a1 b2 a2 a3 c3 b1 c2 b3"):result())
  end)

  it("plays by the rules of ludus.mnk on other boards, with and without exact", function()
    local random = generator(2)
    for _, options in ipairs({{m = 4, n = 4, k = 3}, {m = 5, n = 3, k = 3},
                              {m = 3, n = 6, k = 4}, {m = 7, n = 6, k = 4},
                              {m = 6, n = 6, k = 3, exact = true}}) do
      local wins = 0
      for _ = 1, 12 do
        random_game_in_step(mnk.new(options), ludus.mnk.new(options), random, same_rules)
      end
      for _ = 1, 12 do
        local g = mnk.new(options)
        while not g:is_over() do g = g:play(g:moves()[random(#g:moves())]) end
        if g:result().winner then wins = wins + 1 end
      end
      assert.is_true(wins > 0, "no game was won: the win check went untested")
    end
  end)

  it("counts k in a row across, up and on both diagonals, and no fewer", function()
    local options = {m = 5, n = 5, k = 4}
    for _, case in ipairs({
      {"a1 a5 b1 b5 c1 c5 d1", "x"},              -- row 1
      {"e2 a1 e3 b1 e4 c1 e5", "x"},              -- column e
      {"a1 a5 b2 b5 c3 c5 d4", "x"},              -- a1-d4
      {"a1 e1 a2 d2 a3 c3 e5 b4", "o"},           -- e1-b4
    }) do
      local g = assert(mnk.load(case[1], options))
      assert.same({winner = case[2], draw = false}, g:result())
      g:pop()
      assert.is_false(g:is_over())
    end
    assert.is_false(mnk.load("a1 a5 b1 b5 c1 c5", options):is_over())
  end)

  it("hashes positions apart, whatever the order of their moves", function()
    local a, b = mnk.load("a1 b2 c1"), mnk.load("c1 b2 a1")
    assert.equal(a:hash(), b:hash())
    assert.not_equal(a:hash(), mnk.load("c3 b2 a3"):hash())      -- a mirror image
    assert.not_equal(a:hash(), mnk.load("a1 b2 b1"):hash())
    assert.not_equal(mnk.new():hash(), mnk.new{m = 4}:hash())
    assert.not_equal(mnk.new{m = 4, k = 3}:hash(), mnk.new{m = 4, k = 3, exact = true}:hash())
    -- Tic-tac-toe has 5,478 positions: as many hashes, one per position.
    local seen, positions, count = {}, {}, 0
    each_tictactoe_position(function(g, t)
      if positions[t:hash()] then
        assert.equal(positions[t:hash()], g:hash())
        return false
      end
      positions[t:hash()] = g:hash()
      if not seen[g:hash()] then seen[g:hash()], count = true, count + 1 end
      return true
    end)
    assert.equal(5478, count)
    local g = mnk.new{m = 5, n = 4, k = 4}:x("c2")
    local c = g:copy()
    c:push("a1")
    assert.equal("a1", c:pop())
    assert.equal(g:hash(), c:hash())
    assert.same(g:moves(), c:moves())
  end)

  it("has the value of ludus.tictactoe in all of its 5,478 positions", function()
    local mine, theirs = ai.alphabeta{depth = 9}, ai.alphabeta{depth = 9}
    local seen, compared = {}, 0
    each_tictactoe_position(function(g, t)
      if seen[t:hash()] then return false end
      seen[t:hash()] = true
      if t:is_over() then return false end
      mine:choose(g)
      theirs:choose(t)
      assert.is_true(mine.info.exact, g:save())
      assert.equal(theirs.info.score, mine.info.score, g:save())
      compared = compared + 1
      return true
    end)
    assert.equal(4520, compared)              -- 5,478 less 958 finished games
    local info = ai.search(mnk.new())
    assert.equal(0, info.score)
    assert.is_true(info.exact)
  end)

  it("is solved: 4,4,3 a first-player win in 5 plies, 4,4,4 a draw", function()
    local info = ai.search(mnk.new{m = 4, n = 4, k = 3}, {depth = 16})
    assert.equal(5, info.mate)              -- the least it can be: x's third stone
    assert.equal(ai.search(ludus.mnk.new{m = 4, n = 4, k = 3}, {depth = 16}).score, info.score)
    -- With the game's own evaluation alpha-beta needs 3.3 million nodes
    -- to prove the draw, too many for a spec; scoring every unfinished
    -- position 0, the draw it is, 480,000 do.  A few moves in, its own do.
    info = ai.search(mnk.new{m = 4, n = 4, k = 4}, {depth = 16, eval = function() return 0 end})
    assert.equal(0, info.score)
    assert.is_true(info.exact)
    info = ai.search(mnk.load("b2 c3 c2 b3", {m = 4, n = 4, k = 4}), {depth = 16})
    assert.equal(0, info.score)
    assert.is_true(info.exact)
  end)

  it("gives alpha-beta the values of a plain minimax, with and without a table", function()
    local options, spec = {m = 4, n = 4, k = 3}, mnk.spec
    -- Negamax on the spec's own positions: a win at ply p from the root
    -- is worth WIN - p, and the horizon is the spec's eval.
    local function minimax(s, depth, ply)
      if spec.is_over(s) then
        local winner = spec.result(s).winner
        if winner == nil then return 0 end
        return (winner == spec.turn(s) and 1 or -1) * (WIN - ply)
      end
      if depth == 0 then return spec.eval(s) end
      local best = -math.huge
      for _, move in ipairs(spec.moves(s)) do
        spec.push(s, move)
        best = math.max(best, -minimax(s, depth - 1, ply + 1))
        spec.pop(s)
      end
      return best
    end
    local random, compared, wins = generator(3), 0, 0
    for _ = 1, 12 do
      local g, s = mnk.new(options), spec.new(options)
      for _ = 1, random(6) - 1 do
        local move = g:moves()[random(#g:moves())]
        if g:play(move):is_over() then break end
        g = g:play(move)
        spec.push(s, move)
      end
      for depth = 1, 3 do
        local expected = minimax(s, depth, 0)
        if math.abs(expected) > WIN / 2 then wins = wins + 1 end
        for _, tt in ipairs({0, 1}) do
          local info = ai.search(g, {depth = depth, tt = tt})
          assert.equal(expected, info.score, ("depth %d, tt %d, game '%s'")
            :format(depth, tt, g:save()))
        end
        compared = compared + 1
      end
    end
    assert.equal(36, compared)
    assert.is_true(wins > 0, "no win within the horizon: the win scores went untested")
  end)

  it("evaluates for the side to move: windows one side alone holds stones in", function()
    local spec = mnk.spec
    local s = spec.new()
    assert.equal(0, spec.eval(s))
    spec.push(s, "b2")                 -- x alone in 4 lines: o to move is behind
    assert.equal(-4, spec.eval(s))
    spec.push(s, "a1")                 -- o holds 2 lines alone and spoils a diagonal
    assert.equal(4 - 1 - 2, spec.eval(s))
    spec.push(s, "a2")                 -- x's two in row 2 weigh 4, column a is dead
    assert.equal(-(4 + 1 + 1 - 1), spec.eval(s))
  end)

  it("says which option is wrong", function()
    assert_raises({"mnk.new: option 'm' must be a whole number from 1 (got 2.5)"},
                  mnk.new, {m = 2.5})
    assert_raises({"mnk.new: option 'k' must be a whole number from 1 (got 0)"},
                  mnk.new, {k = 0})
    assert_raises({"mnk.new: option 'n' must be a whole number from 1 (got three)"},
                  mnk.new, {n = "three"})
    assert_raises({"mnk.new: option 'k' must be at most 4, the longer side (got 5)"},
                  mnk.new, {m = 4, n = 2, k = 5})
    assert_raises({"mnk.new: a 17 by 16 board has 272 squares (at most 256)"},
                  mnk.new, {m = 17, n = 16})
    -- 2^32 by 2^32 is 0 squares in 64-bit integers: it used to build that
    -- board for ever (the hook stops it at once)
    debug.sethook(function() error("still building") end, "", 10000000)
    local ok, message = pcall(mnk.new, {m = 2^32, n = 2^32})
    debug.sethook()
    assert.is_false(ok)
    assert.equal("mnk.new: a 4294967296 by 4294967296 board has 18446744073709551616 "
                 .. "squares (at most 256)", (message:gsub("^.-: mnk", "mnk")))
    assert_raises({"mnk.new: unknown option 'size' (it takes: m, n, k, exact)"},
                  mnk.new, {size = 4})
    assert_raises({"mnk.new: option 'exact' must be true or false (got yes)"},
                  mnk.new, {exact = "yes"})
    assert_raises({"mnk.new: options must be a table (got number)"}, mnk.new, 4)
    assert_raises({"mnk.load: option 'm' must be"}, mnk.load, "a1", {m = -1})
    assert.same({"a1", "b1", "a2", "b2"}, mnk.new{m = 2, k = 1}:moves())
    assert.equal(256, #mnk.new{m = 16, n = 16, k = 5}:moves())
  end)

  it("says which move is wrong", function()
    local g = mnk.new{m = 4, n = 4, k = 4}:x("b2")
    assert_raises({"mnk: illegal move 'b2' for o (legal: a1 b1 c1 d1 a2 c2"}, g.play, g, "b2")
    assert_raises({"mnk: illegal move 'e1'"}, g.play, g, "e1")
    assert_raises({"mnk: it is o's turn, not x's"}, g.x, g, "c3")
    local bad, why = mnk.load("a1 a1")
    assert.is_nil(bad)
    assert.truthy(why:find("mnk: bad record: move 2 'a1' (illegal move 'a1' for o", 1, true),
                  why)
  end)

  it("draws boards of every size with their coordinates", function()
    local g = mnk.load("a1 b10 c10", {m = 3, n = 10, k = 3})
    local text = tostring(g)
    assert.truthy(text:find("^   a b c\n10 . o x\n 9 %. %. %.\n"), text)
    assert.truthy(text:find("\n 1 x . .\no to move$"), text)
    text = tostring(mnk.new{m = 28, n = 2, k = 2}:x("ab2"))
    assert.truthy(text:find("  a  b  c", 1, true), text)
    assert.truthy(text:find("z  aa ab\n2 .  ", 1, true), text)
    assert.truthy(text:find(".  x\n1 .", 1, true), text)
  end)
end)

describe("gomoku", function()
  -- Black has d8 e8 f8 g8; white has blocked c8, and plays elsewhere.
  local FOUR = "d8 c8 e8 a1 f8 a2 g8"

  it("is five in a row on 15 by 15, black first, drawn with circles", function()
    local g = gomoku.new()
    assert.equal("black", g:turn())
    assert.equal(225, #g:moves())
    local won = gomoku.load("h8 a1 h9 a2 h10 a3 h11 a4 h12")
    assert.same({winner = "black", draw = false}, won:result())
    assert.is_false(gomoku.load("h8 a1 h9 a2 h10 a3 h11"):is_over())
    local text = tostring(gomoku.new{size = 9}:black("e5"):white("f6"))
    assert.truthy(text:find("6 . . . . . ○ . . .\n5 . . . . ● . . . .", 1, true), text)
    assert.truthy(text:find("^  a b c d e f g h i\n9 "), text)
    assert.truthy(text:find("black to move$"), text)
    assert.truthy(tostring(won):find("\n 8 . . . . . . . ● ", 1, true), tostring(won))
    assert.truthy(tostring(won):find("black won$"), tostring(won))
  end)

  it("agrees with ludus.gomoku, with and without the exact rule", function()
    local random = generator(4)
    for _, exact in ipairs({false, true}) do
      for _ = 1, 8 do
        random_game_in_step(gomoku.new{size = 7, exact = exact},
                            ludus.gomoku.new{size = 7, exact = exact}, random, same_rules)
      end
    end
  end)

  it("with exact = true, six in a row do not win and exactly five do", function()
    local six = "d8 a1 e8 a2 f8 a3 h8 a4 i8 a6 g8"
    assert.equal("black", gomoku.load(six):result().winner)
    assert.is_false(gomoku.load(six, {exact = true}):is_over())
    assert.equal("black", gomoku.load("d8 a1 e8 a2 f8 a3 h8 a4 g8", {exact = true})
                            :result().winner)
    -- Black's only five would be c8-h8 and six long: g8 wins only without exact.
    local record = "c8 a1 d8 a2 e8 a3 f8 a4 h8 b8"
    assert.equal(1, ai.search(gomoku.load(record), {depth = 1}).mate)
    assert.equal("g8", ai.search(gomoku.load(record), {depth = 1}).move)
    assert.is_nil(ai.search(gomoku.load(record, {exact = true}), {depth = 1}).mate)
  end)

  it("is played by alpha-beta and MCTS: a five is taken, a four blocked", function()
    local open_four = assert(gomoku.load("d8 a1 e8 a2 f8 a3 g8 a4"))
    local info = ai.search(open_four, {depth = 2})
    assert.equal(1, info.mate)
    assert.truthy(info.move == "c8" or info.move == "h8", info.move)
    info = ai.search(open_four, {algorithm = "mcts", playouts = 300, seed = 1})
    assert.truthy(info.move == "c8" or info.move == "h8", info.move)
    local four = gomoku.load(FOUR)
    assert.equal("white", four:turn())
    assert.equal("h8", ai.search(four, {depth = 2}).move)
    assert.equal("h8", ai.alphabeta{depth = 2}:choose(four))
    assert.equal("h8", ai.mcts{playouts = 300, seed = 1}:choose(four))
  end)

  it("raises on a taken square and on bad options, naming them", function()
    local g = gomoku.new():black("h8")
    assert_raises({"gomoku: illegal move 'h8' for white (legal: a1 b1"}, g.white, g, "h8")
    assert_raises({"gomoku: illegal move 'p1'"}, g.play, g, "p1")
    assert_raises({"gomoku: it is white's turn, not black's"}, g.black, g, "h9")
    assert.same({"h8"}, g:history())
    assert_raises({"gomoku.new: option 'size' must be a whole number from 5 to 16 (got 4)"},
                  gomoku.new, {size = 4})
    assert_raises({"(got 19)"}, gomoku.new, {size = 19})
    assert_raises({"(got big)"}, gomoku.new, {size = "big"})
    assert_raises({"gomoku.new: unknown option 'k' (it takes: size, exact)"},
                  gomoku.new, {k = 4})
    assert_raises({"gomoku.load: option 'exact' must be true or false (got 1)"},
                  gomoku.load, "h8", {exact = 1})
  end)
end)

describe("misere tic-tac-toe", function()
  it("has the moves of tic-tac-toe and the opposite winner", function()
    local random = generator(5)
    for _ = 1, 30 do
      random_game_in_step(misere.new(), tictactoe.new(), random, function(g, t)
        assert.same(t:moves(), g:moves())
        assert.equal(t:turn(), g:turn())
        assert.equal(t:hash(), g:hash())
        local result = t:result()
        if result then
          local other = {x = "o", o = "x"}
          assert.same({winner = other[result.winner], draw = result.draw}, g:result())
        end
      end)
    end
    local g = assert(misere.load("a1 a2 b1 b2 c1"))     -- x made the row a1 b1 c1
    assert.same({winner = "o", draw = false}, g:result())
    assert.equal("  a b c\n3 . . .\n2 o o .\n1 x x x\no won", tostring(g))
    assert.equal("misere_tictactoe", misere.name)
  end)

  it("is a draw with perfect play, and only the centre saves x", function()
    local info = ai.search(misere.new())
    assert.equal(0, info.score)
    assert.is_true(info.exact)
    assert.equal("b2", info.move)
    -- After any other first move o forces x to make a line; the plain Lua
    -- minimax player agrees with alpha-beta on each.
    local minimax = require("ludus.players.minimax"){depth = 9}
    for _, move in ipairs(misere.new():moves()) do
      local g = misere.new():x(move)
      info = ai.search(g, {depth = 9, tt = 1})
      minimax:choose(g)
      assert.equal(move == "b2" and 0 or WIN - 8, info.score, move)
      assert.equal(info.score, minimax.info.score, move)
    end
  end)

  it("is played by the searches, which do not make a line of their own", function()
    local g = misere.load("a1 a2 b1 b2")        -- c1 would make x's line
    assert.equal(WIN, ai.search(g:play("c1")).score)     -- o to "move" has won
    for _, depth in ipairs({1, 9}) do
      local info = ai.search(g, {depth = depth})
      assert.not_equal("c1", info.move)
      assert.is_true(info.score > -WIN / 2)
    end
    assert.not_equal("c1", ai.search(g, {algorithm = "mcts", playouts = 500, seed = 2}).move)
    assert.not_equal("c1", ai.greedy{}:choose(g))
  end)
end)

describe("each variant in a match", function()
  local cases = {
    {"mnk 4,4,3", mnk, {m = 4, n = 4, k = 3}},
    {"gomoku 7x7", gomoku, {size = 7}},
    {"gomoku 7x7 exact", gomoku, {size = 7, exact = true}},
    {"misere tic-tac-toe", misere, nil},
  }
  for _, case in ipairs(cases) do
    it("plays " .. case[1] .. " between alpha-beta and MCTS, and the counts add up", function()
      local result = match(case[2], ai.alphabeta{depth = 2, tt = 1},
                           ai.mcts{playouts = 100, seed = 1},
                           {games = 2, options = case[3], progress = false})
      assert.equal(2, result.games)
      local a, b = result.a, result.b
      assert.equal(2, a.wins + a.draws + a.losses)
      assert.same({a.wins, a.draws, a.losses}, {b.losses, b.draws, b.wins})
      for _, record in ipairs(result.records) do
        local g = assert(case[2].load(record.record, case[3]))
        assert.is_true(g:is_over())
        assert.same(g:result(), record.result)
      end
    end)
  end
end)

describe("a game defined with a broken spec", function()
  -- Nim: take one or two stones from a pile of five; who takes the last
  -- one wins.  Each case breaks one function of it.
  local function nim(style)
    local spec = {
      name = "nim",
      sides = {"first", "second"},
      new = function() return {pile = 5, taken = {}} end,
      turn = function(s) return #s.taken % 2 == 0 and "first" or "second" end,
      moves = function(s) return s.pile >= 2 and {"1", "2"} or {"1"} end,
      is_over = function(s) return s.pile == 0 end,
      result = function(s) return {winner = #s.taken % 2 == 1 and "first" or "second"} end,
    }
    if style == "play" then
      spec.play = function(s, m)
        local taken = table.move(s.taken, 1, #s.taken, 1, {})
        taken[#taken + 1] = tonumber(m)
        return {pile = s.pile - tonumber(m), taken = taken}
      end
    else
      spec.push = function(s, m)
        s.pile = s.pile - tonumber(m)
        s.taken[#s.taken + 1] = tonumber(m)
      end
      spec.pop = function(s) s.pile = s.pile + table.remove(s.taken) end
    end
    return spec
  end

  -- Asserts the message both through the game's methods (calling 'use')
  -- and through alpha-beta and MCTS in C.
  local function fails_everywhere(spec, use, pieces)
    local g = ludus.game.define(spec).new()
    assert_raises(pieces, use, g)
    assert_raises(pieces, ai.search, g, {depth = 6})
    assert_raises(pieces, ai.search, g, {algorithm = "mcts", playouts = 20, seed = 1})
    assert_raises(pieces, function() return ai.alphabeta{depth = 3}:choose(g) end)
  end

  it("works unbroken: the first player wins nim 5 by taking 2", function()
    for _, style in ipairs({"push", "play"}) do
      local info = ai.search(ludus.game.define(nim(style)).new(), {depth = 6})
      assert.equal("2", info.move)
      assert.equal(3, info.mate)
    end
  end)

  it("names a missing or mistyped function when it is defined", function()
    local spec = nim("push")
    spec.moves = nil
    assert_raises({"game.define: nim: spec.moves must be a function (got nil)"},
                  ludus.game.define, spec)
    spec = nim("push")
    spec.pop = nil
    assert_raises({"nim: spec.push and spec.pop come together"}, ludus.game.define, spec)
    spec = nim("push")
    spec.eval = 0
    assert_raises({"nim: spec.eval must be a function when given (got number)"},
                  ludus.game.define, spec)
  end)

  it("names 'moves' when it returns something other than a list", function()
    local spec = nim("push")
    spec.moves = function() return 42 end
    fails_everywhere(spec, function(g) return g:moves() end,
                     {"nim: 'moves' must return a table of moves (got number)"})
  end)

  it("names 'play' and 'push' when they raise", function()
    local spec = nim("play")
    spec.play = function() error("no stones here") end
    fails_everywhere(spec, function(g) return g:play("1") end,
                     {"nim: 'play' raised an error:", "no stones here"})
    spec = nim("push")
    spec.push = function() error("stuck") end
    fails_everywhere(spec, function(g) return g:push("1") end,
                     {"nim: 'push' raised an error:", "stuck"})
  end)

  it("names 'turn' when it returns no side", function()
    for _, garbage in ipairs({"third", 7, false}) do
      local spec = nim("push")
      spec.turn = function() return garbage end
      fails_everywhere(spec, function(g) return g:turn() end,
                       {"nim: 'turn' returned", "(expected 'first' or 'second')"})
    end
    -- The value itself is shown, by the methods and the searches alike.
    for garbage, shown in pairs({third = "'third'", [7] = "7", [false] = "false"}) do
      local spec = nim("push")
      spec.turn = function() return garbage end
      fails_everywhere(spec, function(g) return g:turn() end,
                       {"nim: 'turn' returned " .. shown .. " (expected 'first' or 'second')"})
    end
  end)

  it("names 'new', 'play' and 'copy' when they return no position", function()
    local spec = nim("play")
    spec.new = function() return nil end
    assert_raises({"nim: 'new' returned nil (expected a position)"},
                  ludus.game.define(spec).new)
    spec = nim("play")
    spec.play = function() return nil end
    fails_everywhere(spec, function(g) return g:play("1") end, {"nim: 'play' returned nil"})
    spec = nim("push")
    spec.copy = function() return nil end
    local g = ludus.game.define(spec).new()
    assert_raises({"nim: 'copy' returned nil (expected a position)"}, g.copy, g)
  end)

  it("names 'moves' when it gives none in a game that goes on", function()
    local spec = nim("push")
    spec.moves = function(s) return s.pile >= 2 and {"1", "2"} or {} end
    fails_everywhere(spec, function(g) return g:play("2"):play("2"):play("1") end,
                     {"nim: 'moves' returned no moves, but 'is_over' says the game goes on"})
    -- At the end of a game, no moves is right.
    spec = nim("push")
    spec.moves = function(s) return s.pile == 0 and {} or s.pile >= 2 and {"1", "2"} or {"1"} end
    local g = ludus.game.define(spec).load("2 2 1")
    assert.same({}, g:moves())
    assert.equal("2", ai.search(ludus.game.define(spec).new(), {depth = 6}).move)
  end)

  it("names 'result' when it names a winner that is not a side", function()
    local spec = nim("push")
    spec.result = function() return {winner = "nobody"} end
    fails_everywhere(spec, function(g) return g:play("2"):play("2"):play("1"):result() end,
                     {"nim: 'result' names an unknown winner"})
    assert_raises({"nim: 'result' names an unknown winner 'nobody'"}, function()
      return ludus.game.define(spec).load("2 2 1"):result()
    end)
    spec.result = function() return {winner = 1} end
    fails_everywhere(spec, function(g) return g:play("2"):play("2"):play("1"):result() end,
                     {"nim: 'result' names an unknown winner 1"})
    spec.result = function() return "first" end
    fails_everywhere(spec, function(g) return g:play("2"):play("2"):play("1"):result() end,
                     {"nim: 'result' must return a table like {winner = \"first\"} (got string)"})
  end)

  it("names 'is_over', 'hash' and 'eval' when they fail in a search", function()
    local spec = nim("push")
    spec.is_over = function() error("who knows") end
    fails_everywhere(spec, function(g) return g:is_over() end,
                     {"nim: 'is_over' raised an error:", "who knows"})
    spec = nim("push")
    spec.hash = function() return 0.5 end
    assert_raises({"nim: 'hash' must return an integer (got 0.5)"}, ai.search,
                  ludus.game.define(spec).new(), {depth = 3})
    spec = nim("push")
    spec.eval = function() return "good" end
    assert_raises({"nim: 'eval' must return a number (got 'good')"}, ai.search,
                  ludus.game.define(spec).new(), {depth = 2})
    spec.eval = function() return "12" end      -- a string, though it reads as one
    assert_raises({"nim: 'eval' must return a number (got '12')"}, ai.search,
                  ludus.game.define(spec).new(), {depth = 2})
  end)
end)
