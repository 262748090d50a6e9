-- mnk_spec.lua: ludus.mnk and ludus.gomoku from Lua: options, the
-- exact-five rule, bad input, and the searches on them.

local ludus = require("ludus")
local assert_raises = require("support").assert_raises

local mnk, gomoku, ai = ludus.mnk, ludus.gomoku, ludus.ai

describe("mnk", function()
  it("defaults to tic-tac-toe and agrees with it", function()
    local g, t = mnk.new(), ludus.tictactoe.new()
    assert.same(t:moves(), g:moves())
    assert.same({3, 3, 3}, {g:size()})
    local record = "b2 a1 c3 a3 a2"
    assert.same(ludus.tictactoe.load(record):moves(), mnk.load(record):moves())
    assert.equal("3 o . x\n2 x x .\n1 o . .\n  a b c\no to move",
                 tostring(mnk.load(record)))
  end)

  it("takes any size and line length", function()
    local g = mnk.new{m = 5, n = 4, k = 4}
    assert.same({5, 4, 4}, {g:size()})
    assert.equal(20, #g:moves())
    local won = mnk.load("a1 a2 b1 b2 c1 c2 d1", {m = 5, n = 4, k = 4})
    assert.same({winner = "x", draw = false}, won:result())
    assert.same({4, 4, 4}, {mnk.new{m = 4}:size()})
  end)

  it("says what is wrong with options and moves", function()
    assert_raises({"mnk.new: unknown option 'size' (it takes: m, n, k, exact)"},
                  mnk.new, {size = 4})
    assert_raises({"mnk.new: option 'm' must be a whole number"}, mnk.new, {m = 2.5})
    assert_raises({"mnk.new: no 4,4,5 game"}, mnk.new, {m = 4, k = 5})
    assert_raises({"mnk.new: no 17,17,17 game"}, mnk.new, {m = 17})
    local g = mnk.new{m = 4, n = 4, k = 4}:x("b2")
    assert_raises({"mnk: illegal move 'b2' for o (square is taken; legal: a1 b1"},
                  g.play, g, "b2")
    assert_raises({"mnk: bad move 'e1' (not a square of this board)"}, g.play, g, "e1")
    local bad, why = mnk.load("a1 a1")
    assert.is_nil(bad)
    assert.equal("mnk: bad record: illegal move 2 'a1' (square is taken)", why)
    -- load's options are load's, and its messages name it
    assert_raises({"mnk.load: unknown option 'size' (it takes: m, n, k, exact)"},
                  mnk.load, "b2", {size = 4})
    assert_raises({"mnk.load: no 2,2,3 game"}, mnk.load, "a1", {m = 2, k = 3})
    assert_raises({"gomoku.load: no 4,4,5 game"}, gomoku.load, "a1", {size = 4})
  end)

  it("is solved by alpha-beta: 3,3,3 a draw, 4,4,3 a first-player win", function()
    local info = ai.search(mnk.new())
    assert.equal(0, info.score)
    assert.is_true(info.exact)
    info = ai.search(mnk.new{m = 4, n = 4, k = 3})
    assert.is_true(info.mate > 0)
  end)
end)

describe("gomoku", function()
  it("is 15x15 with five in a row, black first", function()
    local g = gomoku.new()
    assert.equal("black", g:turn())
    assert.equal(225, #g:moves())
    local won = gomoku.load("h8 a1 h9 a2 h10 a3 h11 a4 h12")
    assert.same({winner = "black", draw = false}, won:result())
    assert.equal("white", gomoku.new():black("h8"):turn())
    assert_raises({"gomoku: it is white's turn, not black's"},
                  function() return gomoku.new():black("h8"):black("h9") end)
  end)

  it("draws stones as circles with coordinates", function()
    local text = tostring(gomoku.new{size = 9}:black("e5"):white("f6"))
    assert.truthy(text:find("6 . . . . . \u{25cb} . . .\n5 . . . . \u{25cf} . . . .", 1, true),
                  text)
    assert.truthy(text:find("  a b c d e f g h i\nblack to move$"), text)
  end)

  it("with exact = true, six in a row does not win", function()
    local record = "d8 a1 e8 a2 f8 a3 h8 a4 i8 a6 g8"
    assert.same("black", gomoku.load(record):result().winner)
    local exact = gomoku.load(record, {exact = true})
    assert.is_false(exact:is_over())
    assert_raises({"gomoku.new: unknown option 'k'"}, gomoku.new, {k = 4})
    assert_raises({"gomoku.new: option 'exact' must be true or false (got 'yes')"},
                  gomoku.new, {exact = "yes"})
  end)

  it("is played by the searches: a five is taken, a four is blocked", function()
    local five = gomoku.load("h8 a1 h9 a2 h10 a3 h11 o15")    -- black to move
    assert.equal(1, ai.search(five, {depth = 1}).mate)
    local mcts = ai.search(five, {algorithm = "mcts", playouts = 3000, seed = 1})
    assert.truthy(mcts.move == "h12" or mcts.move == "h7", mcts.move)
    assert.equal("win", mcts.proven)
    -- Black's four h8-h11 is closed at h7: white must take h12.
    local four = gomoku.load("h8 h7 h9 a2 h10 a3 h11")
    assert.equal("h12", ai.search(four, {depth = 2}).move)
    mcts = ai.search(four, {algorithm = "mcts", playouts = 1000, seed = 1})
    assert.equal("h12", mcts.move)
    -- An open four cannot be stopped: MCTS proves the loss.
    local open = gomoku.load("h8 a1 h9 a2 h10 a3 h11")
    assert.equal("loss", ai.search(open, {algorithm = "mcts", playouts = 1000}).proven)
    assert.equal(-2, ai.search(open, {depth = 2}).mate)
  end)
end)
