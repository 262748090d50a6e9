-- sudoku_spec.lua: ludus.sudoku from Lua: the seed's examples, the
-- reference sets (a sample; the rest is in make bench), every way to
-- write a puzzle and every bad one, the generator and the hints.

local sudoku = require("ludus").sudoku
local assert_raises = require("support").assert_raises

local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/sudoku/"

-- The first n puzzles of a reference file ('#' lines skipped).
local function puzzles(name, n)
  local out = {}
  local f = assert(io.open(data .. name),
                   "cannot read " .. data .. name .. " (the reference data)")
  for line in f:lines() do
    if #out == n then break end
    if line ~= "" and not line:match("^#") then out[#out + 1] = line end
  end
  f:close()
  return out
end

-- Whether s is a full grid whose rows, columns and boxes are each a
-- permutation of 1..n, keeping every given of p.
local function is_solution_of(s, p)
  local n = s:size()
  local box = math.floor(math.sqrt(n) + 0.5)
  local rows, cols, boxes = {}, {}, {}
  for r = 1, n do
    for c = 1, n do
      local v = s:get(r, c)
      if v < 1 or v > n then return false end
      if p:get(r, c) ~= 0 and p:get(r, c) ~= v then return false end
      local b = (r - 1) // box * box + (c - 1) // box + 1
      for _, seen in ipairs{rows, cols, boxes} do
        local k = seen == rows and r or seen == cols and c or b
        seen[k] = seen[k] or {}
        if seen[k][v] then return false end
        seen[k][v] = true
      end
    end
  end
  return true
end

local seed = {1,0,0,0, 3,0,1,2, 4,3,0,1, 0,0,0,3}

describe("sudoku solving", function()
  it("solves the seed's 4x4, which has one solution", function()
    local p = assert(sudoku.parse(seed))
    local s = assert(sudoku.solve(p))
    assert.is_true(is_solution_of(s, p))
    assert.equal("1234341243212143", s:to_string())
    assert.equal(1, sudoku.count(p))
    assert.is_true(sudoku.is_unique(p))
    assert.equal(1, #sudoku.solutions(p))
  end)

  it("returns both solutions of the seed's 4x4 without its first clue", function()
    local two = {table.unpack(seed)}
    two[1] = 0
    local list = sudoku.solutions(two)
    assert.equal(2, #list)
    assert.are_not.equal(list[1]:to_string(), list[2]:to_string())
    for _, s in ipairs(list) do assert.is_true(is_solution_of(s, sudoku.parse(two))) end
    assert.equal(2, sudoku.count(two))
    local unique, why = sudoku.is_unique(two)
    assert.is_false(unique)
    assert.equal("more than one solution", why)
    assert.equal(1, #sudoku.solutions(two, 1))
  end)

  it("counts 288 complete 4x4 grids, all different", function()
    local empty = ("."):rep(16)
    assert.equal(288, sudoku.count(empty))
    assert.equal(10, sudoku.count(empty, 10))
    local seen, list = {}, sudoku.solutions(empty)
    assert.equal(288, #list)
    for _, s in ipairs(list) do
      assert.is_true(s:is_solved())
      assert.is_nil(seen[s:to_string()])
      seen[s:to_string()] = true
    end
  end)

  it("solves a sample of each 9x9 set and checks every solution", function()
    for _, name in ipairs{"puzzles2_17_clue", "puzzles3_magictour_top1465",
                          "puzzles5_forum_hardest_1905_11+",
                          "puzzles6_forum_hardest_1106"} do
      for _, line in ipairs(puzzles(name, 25)) do
        local p = assert(sudoku.parse(line))
        local s = assert(sudoku.solve(p), line)
        assert.is_true(is_solution_of(s, p), line)
        assert.is_true(sudoku.is_unique(p), line)
      end
    end
  end)

  it("finds the 17-clue puzzles unique and the serg ones not", function()
    for _, line in ipairs(puzzles("puzzles2_17_clue", 100)) do
      assert.equal(17, sudoku.parse(line):givens())
      assert.equal(1, sudoku.count(line, 2), line)
    end
    for _, line in ipairs(puzzles("puzzles7_serg_counts", 20)) do
      local text, count = line:match("^([^:]+):(%d+):")
      assert.equal(tonumber(count), sudoku.count(text), text)
    end
  end)

  it("solves 16x16 and 25x25 instances", function()
    for _, line in ipairs(puzzles("big/gecode_16x16_janko55.txt", 5)) do
      local p = assert(sudoku.parse(line))
      assert.equal(16, p:size())
      local s = assert(sudoku.solve(p))
      assert.is_true(is_solution_of(s, p))
      assert.equal(s:to_string(), s:to_string():upper())
    end
    -- the lightest 25x25 (the last of the file); the others are in make bench
    local big = puzzles("big/gecode_25x25_frisch16.txt", 100)
    local p = assert(sudoku.parse(big[#big]))
    assert.equal(25, p:size())
    local list = sudoku.solutions(p, 2)
    assert.equal(1, #list)
    assert.is_true(is_solution_of(list[1], p))
  end)

  it("says when there is no solution", function()
    -- r1c9 can take nothing: its row holds 1-8 and its column 9
    local p = assert(sudoku.parse("12345678.........9" .. ("."):rep(63)))
    local s, why = sudoku.solve(p)
    assert.is_nil(s)
    assert.equal("no solution", why)
    assert.equal(0, sudoku.count(p))
    assert.same({}, sudoku.solutions(p))
    assert.same({false, "no solution"}, {sudoku.is_unique(p)})
  end)
end)

describe("sudoku.parse", function()
  local line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

  it("reads strings with dots or zeros, and drawn grids", function()
    local p = assert(sudoku.parse(line))
    assert.equal(line, p:to_string())
    assert.equal(line, sudoku.parse((line:gsub("%.", "0"))):to_string())
    assert.equal(line, sudoku.parse(tostring(p)):to_string())
    assert.equal([[
4 . . | . . . | 8 . 5
. 3 . | . . . | . . .
. . . | 7 . . | . . .
------+-------+------
. 2 . | . . . | . 6 .
. . . | . 8 . | 4 . .
. . . | . 1 . | . . .
------+-------+------
. . . | 6 . 3 | . 7 .
5 . . | 2 . . | . . .
1 . 4 | . . . | . . .]], tostring(p))
    assert.equal("1 . | . .\n3 . | 1 2\n----+----\n4 3 | . 1\n. . | . 3",
                 tostring(sudoku.parse(seed)))
  end)

  it("reads a flat list, nested rows and row strings alike", function()
    local flat = sudoku.parse(seed)
    local rows = sudoku.parse{{1,0,0,0}, {3,0,1,2}, {4,3,0,1}, {0,0,0,3}}
    local strings = sudoku.parse{"1...", "3.12", "43.1", "...3"}
    assert.equal(flat, rows)
    assert.equal(flat, strings)
    assert.equal(4, flat:get(3, 1))
    assert.equal(0, flat:get(1, 2))
  end)

  it("infers the symbols and says which it took", function()
    local big = puzzles("big/gecode_16x16_janko55.txt", 1)[1]
    local p, symbols = sudoku.parse(big)
    assert.equal("123456789ABCDEFG", symbols)
    assert.equal(big, p:to_string())
    -- the same puzzle in 0-F: each value one lower, '0' a value
    local shifted = big:gsub("[1-9A-G]", function(c)
      local v = tonumber(c, 17)
      return ("0123456789ABCDEF"):sub(v, v)
    end)
    local q, zero_f = sudoku.parse(shifted)
    assert.equal("0123456789ABCDEF", zero_f)
    assert.equal(p, q)
    assert.equal(shifted, q:to_string())
    assert.equal(sudoku.solve(p), sudoku.solve(q))
    -- 25x25 in letters only, A-Y
    local huge = puzzles("big/gecode_25x25_frisch16.txt", 1)[1]
    local letters = huge:gsub("[1-9A-P]", function(c)
      local v = tonumber(c, 26)
      return string.char(64 + v)
    end)
    local r, a_y = sudoku.parse(letters)
    assert.equal("ABCDEFGHIJKLMNOPQRSTUVWXY", a_y)
    assert.equal(sudoku.parse(huge), r)
    -- or as the option says
    local s = assert(sudoku.parse(("."):rep(15) .. "d", {symbols = "abcd"}))
    assert.equal(4, s:get(4, 4))
    assert.equal("ABCD", s:symbols():upper())
  end)

  it("says how many cells it counted and what is allowed", function()
    local cases = {
      {("."):rep(80), "sudoku: 80 cells given, expected a square, from 16 (4x4) to 4096 (64x64)"},
      {"", "sudoku: 0 cells given, expected a square, from 16 (4x4) to 4096 (64x64)"},
      {{1, 2, 3}, "sudoku: 3 cells given, expected a square, from 16 (4x4) to 4096 (64x64)"},
      {{{1, 0}, {0, 1}}, "sudoku: 2 rows given, expected 4 to 64"},
      {("."):rep(65 * 65), "sudoku: 4225 cells given, expected a square"},
      {("."):rep(49), "sudoku: a 7x7 has no default boxes (7 is prime): give "
        .. "box = {1, 7} (a Latin square) or a variant's regions"},
      {{{1,0,0,0}, {0,0,0}, {0,0,0,0}, {0,0,0,0}}, "sudoku: row 2 has 3 cells, expected 4"},
      {{"1...", "3.12", "43.1"}, "sudoku: 12 cells given"},
      {{"1...", "...", "....", "....."}, "sudoku: row 2 has 3 cells, expected 4"},
      {{"1...3.12", "43.1...3"}, "sudoku: 2 strings given: a 4x4 is 4 rows (or "
        .. "16 cells, one a string)"},
    }
    for _, case in ipairs(cases) do
      local p, why = sudoku.parse(case[1])
      assert.is_nil(p)
      assert.equal(case[2], why:sub(1, #case[2]))
    end
  end)

  it("names the cell of a symbol out of range", function()
    local p, why = sudoku.parse(("."):rep(20) .. "A" .. ("."):rep(60))
    assert.is_nil(p)
    assert.equal("sudoku: r3c3 is 'A' (10), but a 9x9 takes 1-9", why)
    local bad = {table.unpack(seed)}
    bad[7] = 5
    assert.same({nil, "sudoku: r2c3 is 5, expected 0 (empty) to 4"},
                {sudoku.parse(bad)})
    bad[7] = "x"
    assert.same({nil, "sudoku: r2c3 is string, expected a number from 0 (empty) to 4"},
                {sudoku.parse(bad)})
    bad[7] = 1.5
    assert.same({nil, "sudoku: r2c3 is not a whole number, expected a number "
                 .. "from 0 (empty) to 4"}, {sudoku.parse(bad)})
    local _, stray = sudoku.parse(("."):rep(40) .. "*" .. ("."):rep(40))
    assert.truthy(stray:find("'*' at position 41 is not a cell", 1, true), stray)
    local _, q = sudoku.parse(("."):rep(623) .. "1Q")
    assert.equal("sudoku: r25c25 is 'Q' (26), but a 25x25 takes 1-9 and A-P", q)
  end)

  it("names both cells of clashing givens and where they meet", function()
    local function clash(cells)
      local t = {}
      for i = 1, 81 do t[i] = 0 end
      for cell, v in pairs(cells) do t[cell] = v end
      return select(2, sudoku.parse(t))
    end
    assert.equal("sudoku: r1c3 and r1c7 are both 5 (row 1)", clash{[3] = 5, [7] = 5})
    assert.equal("sudoku: r5c9 and r9c9 are both 7 (column 9)", clash{[45] = 7, [81] = 7})
    assert.equal("sudoku: r4c4 and r6c5 are both 2 (box 5)", clash{[31] = 2, [50] = 2})
    assert.same({nil, "sudoku: r1c1 and r2c2 are both 1 (box 1)"},
                {sudoku.count{1,0,0,0, 0,1,0,0, 0,0,0,0, 0,0,0,0}})
  end)

  it("refuses what is no puzzle, and bad options", function()
    assert.same({nil, "sudoku: a puzzle is a string or a table, not number"},
                {sudoku.parse(42)})
    assert.same({nil, "sudoku: a puzzle is a string or a table, not nil"},
                {sudoku.solve(nil)})
    assert.same({nil, "sudoku: item 2 is a number, but item 1 is a string"},
                {sudoku.parse{"1...", 3}})
    assert_raises({"symbols must be 4 to 64 different"},
                  sudoku.parse, seed, {symbols = "aab"})
    assert_raises({"parse takes the options 'symbols', 'box' and 'rules' (got 'size')"},
                  sudoku.parse, seed, {size = 4})
  end)

  it("refuses symbols that do not fit the side the cells give", function()
    -- four symbols for a 9x9 once let the puzzle read past them
    assert.same({nil, "sudoku: symbols '1234' has 4 symbols, but a 9x9 needs 9"},
                {sudoku.parse(("."):rep(81), {symbols = "1234"})})
    local clashing = {}
    for i = 1, 81 do clashing[i] = 0 end
    clashing[3], clashing[7] = 7, 7
    assert.same({nil, "sudoku: symbols '1234' has 4 symbols, but a 9x9 needs 9"},
                {sudoku.parse(clashing, {symbols = "1234"})})
    assert.same({nil, "sudoku: symbols '123456789' has 9 symbols, but a 4x4 "
                 .. "needs 4"},
                {sudoku.parse(("."):rep(15) .. "5", {symbols = "123456789"})})
    -- letters read in either case, so 'a' and 'A' would be one value
    assert_raises({"symbols must be 4 to 64 different"},
                  sudoku.parse, seed, {symbols = "abcA"})
  end)
end)

describe("sudoku puzzles", function()
  it("get, set and check their cells", function()
    local p = sudoku.parse(seed)
    assert.equal(p, p:set(1, 2, 2))
    assert.equal(2, p:get(1, 2))
    p:set(1, 2, ".")
    assert.equal(0, p:get(1, 2))
    p:set(1, 2, "2"):set(1, 2, 0)
    local before = p:to_string()
    assert_raises({"sudoku: r1c2 cannot be 3: r2c1 is 3 already (box 1)"}, p.set, p, 1, 2, 3)
    assert_raises({"sudoku: row 5 is off the grid (1 to 4)"}, p.set, p, 5, 1, 1)
    assert_raises({"sudoku: column 0 is off the grid (1 to 4)"}, p.get, p, 1, 0)
    assert_raises({"sudoku: 7 is not a value of a 4x4 (0 for empty, 1 to 4)"},
                  p.set, p, 1, 2, 7)
    assert_raises({"sudoku: 'x' is not a symbol of this puzzle"}, p.set, p, 1, 2, "x")
    assert_raises({"ludus.sudoku expected, got string"}, p.get, "1234", 1, 1)
    assert.equal(before, p:to_string())
    assert.is_false(p:is_solved())
    local s = p:solve()
    assert.is_true(s:is_solved())
    assert.equal(16, s:givens())
  end)

  it("copy is independent", function()
    local p = sudoku.parse(seed)
    local q = p:copy():set(1, 2, 2)
    assert.equal(0, p:get(1, 2))
    assert.equal(2, q:get(1, 2))
  end)
end)

describe("sudoku.generate", function()
  local function is_minimal(p)
    if not sudoku.is_unique(p) then return false end
    local n = p:size()
    for r = 1, n do
      for c = 1, n do
        local v = p:get(r, c)
        if v ~= 0 then
          local q = p:copy():set(r, c, 0)
          if sudoku.count(q, 2) < 2 then return false end
        end
      end
    end
    return true
  end

  it("makes unique, minimal puzzles, the same for the same seed", function()
    for _, size in ipairs{4, 9} do
      for seed_value = 1, 5 do
        local p, used = sudoku.generate{size = size, seed = seed_value}
        assert.equal(seed_value, used)
        assert.equal(size, p:size())
        assert.is_true(is_minimal(p), p:to_string())
        assert.equal(p, sudoku.generate{size = size, seed = seed_value})
      end
    end
    local big = sudoku.generate{size = 16, seed = 3, minimal = true}
    assert.is_true(sudoku.is_unique(big))
    assert.are_not.equal(sudoku.generate{seed = 1}, sudoku.generate{seed = 2})
    local _, fresh = sudoku.generate()
    assert.equal("integer", math.type(fresh))
  end)

  it("keeps the clues asked for, and symmetry", function()
    local p = sudoku.generate{seed = 4, clues = 36}
    assert.equal(36, p:givens())
    assert.is_true(sudoku.is_unique(p))
    local s = sudoku.generate{seed = 4, symmetric = true}
    assert.is_true(sudoku.is_unique(s))
    local text = s:to_string()
    assert.equal(text:gsub("%d", "x"), text:reverse():gsub("%d", "x"))
    assert.is_true(is_minimal(sudoku.generate{seed = 4, clues = 36, minimal = true}))
  end)

  it("refuses bad options", function()
    assert_raises({"sudoku: size must be from 4 to 64 (got 65)"}, sudoku.generate, {size = 65})
    assert_raises({"sudoku: a 7x7 has no boxes (7 is prime)"}, sudoku.generate, {size = 7})
    assert_raises({"sudoku: boxes of 2x5 do not make a 12x12"}, sudoku.generate,
                  {size = 12, box = {2, 5}})
    assert_raises({"sudoku: clues must be from 0 to 81 (got 99)"}, sudoku.generate, {clues = 99})
    assert_raises({"option 'seed' must be an integer (got string)"},
                  sudoku.generate, {seed = "x"})
    assert_raises({"generate takes size, box, seed, clues, symmetric, minimal and rules "
                   .. "(got 'sise')"},
                  sudoku.generate, {sise = 9})
  end)
end)

describe("sudoku.hint", function()
  it("gives the next step and its reason", function()
    local p = sudoku.parse("4.....8.5.3..........7......2.....6.....8"
                           .. ".4......1.......6.3.7.5..2.....1.4......")
    local text, step = sudoku.hint(p)
    assert.equal("r6c2 must be 4: it is the only place for 4 in box 4", text)
    assert.same({row = 6, col = 2, value = 4, technique = "hidden single",
                 eliminations = 0}, step)
  end)

  it("leads an easy puzzle to its solution, each step true to it", function()
    for _, line in ipairs(puzzles("puzzles2_17_clue", 5)) do
      local p = sudoku.parse(line)
      local s = sudoku.solve(p)
      for _ = 1, 81 do
        local text, step = sudoku.hint(p)
        if not text then break end
        assert.equal(s:get(step.row, step.col), step.value, text)
        p:set(step.row, step.col, step.value)
      end
      assert.is_true(p:is_solved(), line)
      assert.same({nil, "the puzzle is solved"}, {sudoku.hint(p)})
    end
  end)

  it("says when only guessing remains", function()
    assert.same({nil, "no cell follows without guessing"}, {sudoku.hint(("."):rep(81))})
    assert.same({nil, "r1c9 has no value left"},
                {sudoku.hint("12345678.........9" .. ("."):rep(63))})
  end)

  it("lists the candidates of each cell", function()
    local c = sudoku.candidates(seed)
    assert.same({1}, c[1][1])
    assert.same({2, 4}, c[1][2])
    assert.same({4}, c[2][2])
    assert.same({2, 4}, c[4][3])
    assert.same({nil, "sudoku: 3 cells given, expected a square, from 16 (4x4) to 4096 (64x64)"},
                {sudoku.candidates{1, 2, 3}})
  end)
end)
