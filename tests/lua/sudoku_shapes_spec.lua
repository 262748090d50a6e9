-- sudoku_shapes_spec.lua: Sudoku of every shape: sides 4 to 64, boxes
-- of r x c.  The solver's counts are checked against a plain
-- backtracking count written here, and the known number of 6x6 grids;
-- every solution against a check of its own rows, columns and boxes.

local sudoku = require("ludus").sudoku
local assert_raises = require("support").assert_raises

-- Whether s is a full grid whose rows, columns and boxes (of p's shape)
-- each hold 1..n once, keeping every given of p.
local function is_solution_of(s, p)
  local n = s:size()
  local rows, cols = p:box()
  local seen = {}
  for r = 1, n do
    for c = 1, n do
      local v = s:get(r, c)
      if v < 1 or v > n then return false end
      if p:get(r, c) ~= 0 and p:get(r, c) ~= v then return false end
      local b = (r - 1) // rows * rows + (c - 1) // cols
      for _, key in ipairs{"r" .. r .. ":" .. v, "c" .. c .. ":" .. v,
                           "b" .. b .. ":" .. v} do
        if seen[key] then return false end
        seen[key] = true
      end
    end
  end
  return true
end

-- The solutions of p counted by plain backtracking, cell after cell.
local function brute_count(p)
  local n = p:size()
  local rows, cols = p:box()
  local grid = {}
  for r = 1, n do
    for c = 1, n do grid[#grid + 1] = p:get(r, c) end
  end
  local function fits(i, v)
    local r, c = (i - 1) // n, (i - 1) % n
    local top, left = r // rows * rows, c // cols * cols
    for k = 0, n - 1 do
      if grid[r * n + k + 1] == v or grid[k * n + c + 1] == v then return false end
      local br, bc = top + k // cols, left + k % cols
      if grid[br * n + bc + 1] == v then return false end
    end
    return true
  end
  local function count(i)
    if i > n * n then return 1 end
    if grid[i] ~= 0 then return count(i + 1) end
    local total = 0
    for v = 1, n do
      if fits(i, v) then
        grid[i] = v
        total = total + count(i + 1)
        grid[i] = 0
      end
    end
    return total
  end
  return count(1)
end

describe("sudoku shapes", function()
  it("takes the box from the side, or from the box option", function()
    local cases = {{4, 2, 2}, {6, 2, 3}, {8, 2, 4}, {9, 3, 3}, {10, 2, 5},
                   {12, 3, 4}, {15, 3, 5}, {16, 4, 4}, {20, 4, 5}, {25, 5, 5},
                   {36, 6, 6}, {49, 7, 7}, {64, 8, 8}}
    for _, case in ipairs(cases) do
      local n = case[1]
      local text = n <= 35 and ("."):rep(n * n) or (". "):rep(n * n)
      local p = assert(sudoku.parse(text))
      assert.equal(n, p:size())
      assert.same({case[2], case[3]}, {p:box()})
    end
    local p = assert(sudoku.parse(("."):rep(144), {box = {2, 6}}))
    assert.same({2, 6}, {p:box()})
    assert.same({6, 2}, {sudoku.parse(("."):rep(144), {box = {6, 2}}):box()})
  end)

  it("takes boxes of one row as Latin squares", function()
    -- the published counts of Latin squares: 576 of order 4, 161,280 of
    -- order 5, each of them one with the first row 12345 relabelled
    assert.equal(576, sudoku.parse(("."):rep(16), {box = {1, 4}}):count())
    local first = "12345" .. ("."):rep(20)
    assert.equal(161280 // 120, sudoku.parse(first, {box = {1, 5}}):count())
    assert.equal(2, sudoku.parse(first, {box = {5, 1}}):count(2))
  end)

  it("counts the 4x4 and 6x6 grids", function()
    assert.equal(288, sudoku.count(("."):rep(16)))
    -- each 6x6 grid is one with the first row 123456 relabelled: the
    -- 28,200,960 grids (a published count) are 720 times these
    local first = "123456" .. ("."):rep(30)
    assert.equal(28200960 // 720, sudoku.count(first))
    assert.equal(28200960, 720 * sudoku.count(first))
  end)

  it("counts as plain backtracking does", function()
    local cases = {
      {size = 6, seed = 3, clues = 12}, {size = 6, seed = 5, clues = 10},
      {size = 8, seed = 2, clues = 30}, {size = 8, box = {4, 2}, seed = 7, clues = 30},
      {size = 10, seed = 1, clues = 60}, {size = 12, seed = 1, clues = 100},
    }
    for _, case in ipairs(cases) do
      local g = sudoku.generate(case)
      -- the generator stops at clues; a few more away, and several solutions
      local p = g:copy()
      local taken = 0
      for r = 1, p:size() do
        for c = 1, p:size() do
          if p:get(r, c) ~= 0 and taken < 3 and (r + c) % 3 == 0 then
            p:set(r, c, 0)
            taken = taken + 1
          end
        end
      end
      local want = brute_count(p)
      assert.equal(want, sudoku.count(p), p:to_string())
      assert.is_true(want >= 1)
      assert.equal(1, brute_count(g))
    end
  end)

  it("generates unique puzzles of every shape, minimal when small", function()
    -- minimal 15x15 and larger take seconds (make bench): stopped at clues
    for _, case in ipairs{{6}, {8}, {10}, {12}, {12, {2, 6}}, {15}, {16}, {20}} do
      local n = case[1]
      local clues = n >= 15 and n * n * 3 // 5 or nil
      local g = sudoku.generate{size = n, box = case[2], seed = 11, clues = clues}
      assert.equal(n, g:size())
      if case[2] then assert.same(case[2], {g:box()}) end
      assert.is_true(g:is_unique())
      local s = assert(g:solve())
      assert.is_true(is_solution_of(s, g), g:to_string())
      assert.is_true(s:is_solved())
      if n <= 8 then
        for r = 1, n do
          for c = 1, n do
            if g:get(r, c) ~= 0 then
              local fewer = g:copy():set(r, c, 0)
              assert.equal(2, fewer:count(2))
            end
          end
        end
      end
      -- the same seed, the same puzzle
      assert.equal(g, sudoku.generate{size = n, box = case[2], seed = 11, clues = clues})
    end
  end)

  it("solves the big sides and writes them in numbers", function()
    for _, n in ipairs{36} do
      local g = sudoku.generate{size = n, seed = 2, clues = n * n * 3 // 4}
      assert.equal("numbers", g:symbols())
      local line = g:to_string()
      assert.truthy(line:find("^[%d%.]+[ %d%.]*$"))
      local back = assert(sudoku.parse(line))
      assert.equal(g, back)
      assert.equal(g, assert(sudoku.parse(tostring(g))))
      local s = assert(g:solve())
      assert.is_true(is_solution_of(s, g))
    end
    local s = assert(sudoku.solve((". "):rep(64 * 64)))
    assert.equal(64, s:size())
    assert.is_true(s:is_solved())
    assert.is_true(is_solution_of(s, s))
  end)

  it("reads letters past 9 and numbers between spaces", function()
    local g = sudoku.generate{size = 12, seed = 4}
    local line = g:to_string()
    assert.truthy(line:find("^[1-9A-C%.]+$"))
    assert.equal(g, sudoku.parse(line:lower()))
    -- the same grid in numbers
    local numbers = {}
    for r = 1, 12 do
      for c = 1, 12 do numbers[#numbers + 1] = tostring(g:get(r, c)) end
    end
    local q = assert(sudoku.parse(table.concat(numbers, " ")))
    assert.equal(g, q)
    assert.equal("numbers", q:symbols())
    assert.equal(table.concat(numbers, " "):gsub("%f[%d]0%f[%D]", "."), q:to_string())
    -- drawn with its 3x4 boxes, and read back
    local drawn = tostring(g)
    assert.equal("--------+--", drawn:match("\n(%-+%+%-%-)"))
    assert.equal(g, sudoku.parse(drawn))
    assert.equal(q, sudoku.parse(tostring(q)))
    assert.equal(g, sudoku.parse(line, {box = {3, 4}}))
  end)

  it("says what is wrong with a shape or a count", function()
    assert.same({nil, "sudoku: boxes of 4x2 do not make a 9x9 (4 x 2 must be 9)"},
                {sudoku.parse(("."):rep(81), {box = {4, 2}})})
    assert.same({nil, "sudoku: boxes of 2x2 do not make a 6x6 (2 x 2 must be 6)"},
                {sudoku.parse(("0"):rep(36), {box = {2, 2}})})
    assert.same({nil, "sudoku: 37 cells given, expected a square, from 16 (4x4) "
                 .. "to 4096 (64x64)"}, {sudoku.parse(("."):rep(37))})
    assert.same({nil, "sudoku: r1c1 is '7' (7), but a 6x6 takes 1-6"},
                {sudoku.parse("7" .. ("."):rep(35))})
    assert.same({nil, "sudoku: r1c2 and r2c1 are both 3 (box 1)"},
                {sudoku.parse(".3...." .. "3....." .. ("."):rep(24))})
    local big = (". "):rep(36 * 36 - 1) .. "37"
    assert.same({nil, "sudoku: r36c36 is 37, but a 36x36 takes 1 to 36"},
                {sudoku.parse(big)})
    local _, why = sudoku.parse("12 x" .. (" ."):rep(34), {symbols = "numbers"})
    assert.truthy(why:find("'x' at position 4 is not a cell", 1, true), why)
    assert_raises({"box must be {rows, cols}"}, sudoku.parse, ("."):rep(36),
                  {box = 6})
    assert_raises({"box must be {rows, cols} of whole numbers from 1 to 64"},
                  sudoku.parse, ("."):rep(36), {box = {0, 6}})
    assert_raises({"sudoku: 'x' is not a value of this puzzle (it is written "
                   .. "in numbers"}, function()
      sudoku.parse((". "):rep(36 * 36)):set(1, 1, "x")
    end)
    -- in numbers, a value may come as its number written out
    local numbers = sudoku.parse(("."):rep(1296))
    assert.equal(5, numbers:set(1, 1, "5"):get(1, 1))
    assert.equal(36, numbers:set(1, 2, "36"):get(1, 2))
    assert.equal(0, numbers:set(1, 1, "0"):get(1, 1))
    assert_raises({"sudoku: '37' is not a value of this puzzle (it is written "
                   .. "in numbers: 1 to 36"}, numbers.set, numbers, 1, 1, "37")
  end)

  it("gives hints on every shape, each true to the solution", function()
    for _, n in ipairs{6, 8, 12, 16} do
      local p = sudoku.generate{size = n, seed = 9}
      local s = p:solve()
      for _ = 1, n * n do
        local text, step = p:hint()
        if not text then break end
        assert.equal(s:get(step.row, step.col), step.value, text)
        p:set(step.row, step.col, step.value)
      end
      local candidates = sudoku.candidates(p)
      assert.equal(n, #candidates)
    end
  end)
end)
