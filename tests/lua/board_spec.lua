-- board_spec.lua: the Lua view of a board (issue #19): at, pieces,
-- count, last_move and bitboards, checked against what each game already
-- prints of its board (board strings, rows, FEN, the drawn board) over
-- random games, and xiangqi's attacks against the legal captures.

local ludus = require("ludus")
local support = require("support")
local assert_raises = support.assert_raises

-- Plays random moves on g (in place) until the game ends or n are made;
-- calls each(g) before every move.
local function walk(g, random, n, each)
  for _ = 1, n do
    if each then each(g) end
    if g:is_over() then return g end
    local moves = g:moves()
    g:push(moves[random(#moves)])
  end
  if each then each(g) end
  return g
end

local function bits(x)
  local n = 0
  while x ~= 0 do
    x = x & (x - 1)
    n = n + 1
  end
  return n
end

describe("the board seen from Lua", function()
  it("reversi: at, pieces, count and bitboards agree with the board string", function()
    local random = support.generator(1)
    for _, size in ipairs({8, 6, 4}) do
      local letters = "abcdefgh"
      walk(ludus.reversi.new{size = size}, random, 70, function(g)
        local text = g:board_string()
        local seen, black, white = 0, 0, 0
        local black_bits, white_bits = g:bitboards()
        local offset = (8 - size) // 2
        for row = 1, size do
          for column = 1, size do
            local square = letters:sub(column, column) .. row
            local cell = text:sub((row - 1) * size + column, (row - 1) * size + column)
            local want = cell == "X" and "black" or cell == "O" and "white" or nil
            assert.equal(want, g:at(square), square)
            local bit = 1 << (8 * (row - 1 + offset) + column - 1 + offset)
            assert.equal(want == "black", black_bits & bit ~= 0, square)
            assert.equal(want == "white", white_bits & bit ~= 0, square)
            if want == "black" then black = black + 1 end
            if want == "white" then white = white + 1 end
          end
        end
        for square, side in g:pieces() do
          seen = seen + 1
          assert.equal(side, g:at(square))
        end
        assert.equal(black + white, seen)
        assert.same({black = black, white = white}, g:count())
        assert.equal(black, bits(black_bits))
        local mine, theirs = g:bitboards("turn")
        if g:turn() == "white" then mine, theirs = theirs, mine end
        assert.same({black_bits, white_bits}, {mine, theirs})
        local history = g:history()
        assert.equal(history[#history], g:last_move())
      end)
    end
  end)

  it("connect4: at, pieces, count and bitboards agree with rows()", function()
    local random = support.generator(2)
    for _, size in ipairs({{7, 6}, {4, 9}, {9, 5}, {2, 30}}) do
      local width, height = size[1], size[2]
      walk(ludus.connect4.new{width = width, height = height}, random, 60, function(g)
        local rows = g:rows()
        local yellow_bits, red_bits = g:bitboards()
        local counts = {yellow = 0, red = 0}
        for row = 1, height do
          local line = rows[height - row + 1]
          for column = 1, width do
            local cell = line:sub(column, column)
            local want = cell == "Y" and "yellow" or cell == "R" and "red" or nil
            assert.equal(want, g:at(column, row))
            local bit = 1 << ((column - 1) * (height + 1) + row - 1)
            assert.equal(want == "yellow", yellow_bits & bit ~= 0)
            assert.equal(want == "red", red_bits & bit ~= 0)
            if want then counts[want] = counts[want] + 1 end
          end
        end
        assert.same(counts, g:count())
        local n = 0
        for column, row, colour in g:pieces() do
          n = n + 1
          assert.equal(colour, g:at(column, row))
        end
        assert.equal(counts.yellow + counts.red, n)
        local history = g:history()
        assert.equal(history[#history], g:last_move())
      end)
    end
    local g = ludus.connect4.new()
    assert_raises({"connect4: no cell (8, 1) on a 7x6 board"}, g.at, g, 8, 1)
    assert_raises({"connect4: no cell (1, 0)"}, g.at, g, 1, 0)
  end)

  it("tic-tac-toe, m,n,k and gomoku: at and pieces agree with the drawn board", function()
    local random = support.generator(3)
    local sides = {x = "x", o = "o", ["\u{25cf}"] = "black", ["\u{25cb}"] = "white"}
    local games = {ludus.tictactoe.new(), ludus.mnk.new{m = 5, n = 4, k = 4},
                   ludus.gomoku.new()}
    for _, start in ipairs(games) do
      walk(start, random, 40, function(g)
        -- the drawn board: a row's number, then one mark per column
        local drawn, squares = {}, 0
        for line in tostring(g):gmatch("[^\n]+") do
          local number, marks = line:match("^%s*(%d+) (.*)$")
          if number then
            local column = 0
            for mark in marks:gmatch("%S+") do
              column = column + 1
              local square = string.char(96 + column) .. number
              drawn[square] = sides[mark] or false
              squares = squares + 1
            end
          end
        end
        assert.is_true(squares >= 9)
        local counts = {}
        for square, side in pairs(drawn) do
          assert.equal(side or nil, g:at(square), square)
          if side then counts[side] = (counts[side] or 0) + 1 end
        end
        local listed = 0
        for square, side in g:pieces() do
          listed = listed + 1
          assert.equal(drawn[square], side, square)
        end
        local total = 0
        for side, n in pairs(g:count()) do
          assert.equal(counts[side] or 0, n)
          total = total + n
        end
        assert.equal(listed, total)
        assert.equal(#g:history(), total)
      end)
    end
    local t = ludus.tictactoe.load("b2 a1")
    assert.equal("x", t:at("b2"))
    assert.equal("o", t:at("a1"))
    assert.is_nil(t:at("c3"))
    assert.equal("a1", t:last_move())
    assert.is_nil(ludus.tictactoe.new():last_move())
    assert_raises({"tictactoe: 'z9' is not a square of this board"}, t.at, t, "z9")
    assert_raises({"tictactoe: no side 'red'"}, t.pieces, t, "red")
    -- a game written in Lua knows its last move too
    local Lt = ludus.game.define(require("luattt")("play"))
    assert.is_nil(Lt.new():last_move())
    assert.equal("a1", Lt.load("b2 a1"):last_move())
  end)

  it("xiangqi: at, pieces and count agree with the FEN", function()
    local random = support.generator(4)
    local names = {k = "king", a = "advisor", b = "elephant", n = "horse", r = "rook",
                   c = "cannon", p = "pawn"}
    walk(ludus.xiangqi.new(), random, 120, function(g)
      local placement = g:fen():match("^(%S+)")
      local rank, seen, counts = 9, {}, {red = 0, black = 0}
      for row in placement:gmatch("[^/]+") do
        local file = 0
        for c in row:gmatch(".") do
          if c:match("%d") then
            for _ = 1, tonumber(c) do
              local point = string.char(97 + file) .. rank
              assert.is_nil(g:at(point), point)
              file = file + 1
            end
          else
            local point = string.char(97 + file) .. rank
            local piece = g:at(point)
            local side = c:match("%u") and "red" or "black"
            assert.same({side = side, piece = names[c:lower()], letter = c,
                         char = piece.char}, piece)
            seen[point] = piece
            counts[side] = counts[side] + 1
            file = file + 1
          end
        end
        rank = rank - 1
      end
      assert.same(counts, g:count())
      local n = 0
      for point, piece in g:pieces("black") do
        n = n + 1
        assert.same(seen[point], piece)
      end
      assert.equal(counts.black, n)
    end)
    local x = ludus.xiangqi.new()
    assert.same({side = "red", piece = "king", char = "帅", letter = "K"}, x:at("e0"))
    assert.same({side = "black", piece = "cannon", char = "砲", letter = "c"}, x:at("b7"))
    assert.equal("炮", x:at("b2").char)
    assert_raises({"expected a point from a0 to i9"}, x.at, x, "j1")
  end)

  it("xiangqi: attacks include every legal capture, and the rules of each piece", function()
    local random = support.generator(5)
    walk(ludus.xiangqi.new(), random, 150, function(g)
      if g:is_over() then return end
      for _, move in ipairs(g:moves()) do
        local from, to = move:sub(1, 2), move:sub(3, 4)
        if g:at(to) then
          assert.truthy(support.contains(g:attacks(to), from), move .. " " .. g:fen())
        end
      end
    end)
    local x = ludus.xiangqi.new()
    -- e2 is empty: both elephants reach it; no cannon (no screen)
    assert.same({"c0", "g0"}, x:attacks("e2"))
    -- black's cannon on b7 takes b0 over the horse on b2's file... the
    -- red horse b0 is screened by the cannon b2: black's cannon attacks it
    assert.same({"b7"}, x:attacks("b0"))
    -- the red pawn e3 is attacked by nothing at the start
    assert.same({}, x:attacks("e3"))
    -- a horse whose leg is blocked does not attack that way (e1's leg up
    -- is the black pawn on e2; its leg left, d1, is free)
    local leg = assert(ludus.xiangqi.load("4k4/9/9/9/9/9/9/4p4/4N4/3K5 w"))
    assert.same({}, leg:attacks("d3", "red"))
    assert.same({}, leg:attacks("f3", "red"))
    assert.same({"e1"}, leg:attacks("c2", "red"))
    -- the generals face each other along an open file
    local facing = assert(ludus.xiangqi.load("3k5/9/9/9/9/9/9/9/9/4K4 w"))
    assert.same({}, facing:attacks("d9", "red"))
    local check = assert(ludus.xiangqi.load("4k4/9/9/9/9/9/9/9/4R4/3K5 b"))
    assert.is_true(check:in_check())
    assert.is_true(check:in_check("black"))
    assert.is_false(check:in_check("red"))
    assert.same({"e1"}, check:attacks("e9"))
  end)
end)
