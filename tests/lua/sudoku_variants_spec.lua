-- sudoku_variants_spec.lua: Sudoku variants (sudoku.variant and the
-- scripts in scripts/variants).  Each variant's puzzles are checked
-- against the rules as written here, in Lua: the solution is unique, it
-- keeps every rule, and without the variant's rules the same givens have
-- more than one solution (the rules are what makes it unique).

local ludus = require("ludus")
local sudoku = ludus.sudoku
local assert_raises = require("support").assert_raises

local function cell_of(ref, n)
  if type(ref) == "string" then
    local r, c = ref:match("^r(%d+)c(%d+)$")
    return tonumber(r), tonumber(c)
  elseif type(ref) == "table" then
    return ref[1], ref[2]
  end
  return (ref - 1) // n + 1, (ref - 1) % n + 1
end

local function value(s, ref)
  return s:get(cell_of(ref, s:size()))
end

-- Whether the full grid s keeps the rows, columns, boxes (or regions)
-- and every rule of the description d.
local function holds(d, s)
  local n = s:size()
  local rows, cols = s:box()
  local region = {}
  if d.regions then
    local ids, i, regions = {}, 0, 0
    for ch in d.regions:gmatch("%S") do
      i = i + 1
      if not ids[ch] then
        regions = regions + 1
        ids[ch] = regions
      end
      region[i] = ids[ch]
    end
  end
  local units = {}
  for r = 1, n do
    for c = 1, n do
      local b = d.regions and region[(r - 1) * n + c]
        or (r - 1) // rows * rows + (c - 1) // cols
      for _, key in ipairs{"r" .. r, "c" .. c, "b" .. b} do
        units[key] = units[key] or {}
        units[key][#units[key] + 1] = {r, c}
      end
    end
  end
  if d.diagonals then
    units.d1, units.d2 = {}, {}
    for i = 1, n do
      units.d1[i] = {i, i}
      units.d2[i] = {i, n + 1 - i}
    end
  end
  if d.windows then
    for _, top in ipairs{2, 6} do
      for _, left in ipairs{2, 6} do
        local w = {}
        for i = 0, 8 do w[#w + 1] = {top + i // 3, left + i % 3} end
        units["w" .. top .. left] = w
      end
    end
  end
  for _, unit in pairs(units) do
    local seen = {}
    for _, cell in ipairs(unit) do
      local v = value(s, cell)
      if v < 1 or v > n or seen[v] then return false end
      seen[v] = true
    end
  end
  for _, cage in ipairs(d.cages or {}) do
    local sum, seen = 0, {}
    for _, ref in ipairs(cage) do
      local v = value(s, ref)
      if seen[v] then return false end
      seen[v], sum = true, sum + v
    end
    if sum ~= cage.sum then return false end
  end
  for _, thermo in ipairs(d.thermos or {}) do
    for i = 2, #thermo do
      if value(s, thermo[i - 1]) >= value(s, thermo[i]) then return false end
    end
  end
  for _, arrow in ipairs(d.arrows or {}) do
    local sum = 0
    for i = 2, #arrow do sum = sum + value(s, arrow[i]) end
    if sum ~= value(s, arrow[1]) then return false end
  end
  for _, pair in ipairs(d.white or {}) do
    if math.abs(value(s, pair[1]) - value(s, pair[2])) ~= 1 then return false end
  end
  for _, pair in ipairs(d.black or {}) do
    local a, b = value(s, pair[1]), value(s, pair[2])
    if a ~= 2 * b and b ~= 2 * a then return false end
  end
  for _, pair in ipairs(d.less or {}) do
    if value(s, pair[1]) >= value(s, pair[2]) then return false end
  end
  for _, ref in ipairs(d.even or {}) do
    if value(s, ref) % 2 ~= 0 then return false end
  end
  for _, ref in ipairs(d.odd or {}) do
    if value(s, ref) % 2 ~= 1 then return false end
  end
  for r = 1, n do
    for c = 1, n do
      local v = s:get(r, c)
      local steps = {}
      if d.antiknight then
        for _, st in ipairs{{1, 2}, {2, 1}, {1, -2}, {2, -1}} do steps[#steps + 1] = st end
      end
      if d.antiking then
        for _, st in ipairs{{1, 1}, {1, -1}} do steps[#steps + 1] = st end
      end
      for _, st in ipairs(steps) do
        local r2, c2 = r + st[1], c + st[2]
        if r2 >= 1 and r2 <= n and c2 >= 1 and c2 <= n and s:get(r2, c2) == v then
          return false
        end
      end
      if d.nonconsecutive then
        for _, st in ipairs{{0, 1}, {1, 0}} do
          local r2, c2 = r + st[1], c + st[2]
          if r2 <= n and c2 <= n and math.abs(s:get(r2, c2) - v) == 1 then
            return false
          end
        end
      end
    end
  end
  if d.alldots then
    -- neighbours without a dot: neither consecutive nor one twice the other
    local dotted = {}
    for _, list in ipairs{d.white or {}, d.black or {}} do
      for _, pair in ipairs(list) do
        local r1, c1 = cell_of(pair[1], n)
        local r2, c2 = cell_of(pair[2], n)
        dotted[r1 .. "," .. c1 .. "," .. r2 .. "," .. c2] = true
        dotted[r2 .. "," .. c2 .. "," .. r1 .. "," .. c1] = true
      end
    end
    for r = 1, n do
      for c = 1, n do
        for _, st in ipairs{{0, 1}, {1, 0}} do
          local r2, c2 = r + st[1], c + st[2]
          if r2 <= n and c2 <= n and not dotted[r .. "," .. c .. "," .. r2 .. "," .. c2] then
            local a, b = s:get(r, c), s:get(r2, c2)
            if math.abs(a - b) == 1 or a == 2 * b or b == 2 * a then return false end
          end
        end
      end
    end
  end
  return true
end

-- A full grid to take marks from (shuffled, so not the first in order).
local base = sudoku.generate{seed = 7, clues = 81}

-- The same givens on a plain 9x9 (or the variant's shape).
local function plain(p)
  local rows, cols = p:box()
  return sudoku.parse(p:to_string(), {box = {rows, cols}})
end

local function check_variant(d, seed)
  local v = assert(sudoku.variant(d))
  local p = sudoku.generate{rules = v, seed = seed or 1}
  assert.is_true(p:is_unique())
  local s = assert(p:solve())
  assert.is_true(holds(d, s), tostring(d.name) .. ": " .. s:to_string())
  assert.is_true(s:is_solved())
  if not d.regions then assert.equal(2, plain(p):count(2)) end
  -- every given is needed
  local text = p:to_string()
  for i = 1, #text do
    if text:sub(i, i) ~= "." then
      local fewer = v:parse(text:sub(1, i - 1) .. "." .. text:sub(i + 1))
      assert.equal(2, fewer:count(2))
      break                                  -- the first is enough here
    end
  end
  return p, s, v
end

describe("sudoku variants", function()
  it("X-Sudoku, Windoku, anti-knight, anti-king, non-consecutive", function()
    check_variant({name = "X", diagonals = true})
    check_variant({name = "windoku", windows = true})
    check_variant({name = "anti-knight", antiknight = true})
    check_variant({name = "anti-king", antiking = true})
    check_variant({name = "X 6x6", size = 6, diagonals = true})
  end)

  it("jigsaw regions", function()
    -- the 3x3 boxes with cells traded between neighbours
    local regions = "112122333" .. "111222333" .. "111222333" .. "445455666"
                 .. "444556566" .. "444555666" .. "777888999" .. "777889899"
                 .. "778788999"
    -- each region has nine cells
    local count = {}
    for ch in regions:gmatch(".") do count[ch] = (count[ch] or 0) + 1 end
    for _, k in pairs(count) do assert.equal(9, k) end
    local p = check_variant({name = "jigsaw", regions = regions}, 3)
    assert.same({1, 9}, {p:box()})
    assert.is_nil(tostring(p):find("|", 1, true))
  end)

  it("marks taken from a grid: thermometers, arrows, kropki, signs, even/odd", function()
    local d = {name = "marks", thermos = {}, arrows = {}, white = {}, black = {},
               less = {}, even = {}, odd = {}}
    for r = 1, 9, 4 do
      for c = 1, 8 do
        local a, b = base:get(r, c), base:get(r, c + 1)
        local pair = {("r%dc%d"):format(r, c), ("r%dc%d"):format(r, c + 1)}
        if math.abs(a - b) == 1 then d.white[#d.white + 1] = pair
        elseif a == 2 * b or b == 2 * a then d.black[#d.black + 1] = pair
        elseif a < b then d.less[#d.less + 1] = pair end
      end
    end
    -- a thermometer down column 1 while values rise, an arrow where sums fit
    local thermo = {"r2c1"}
    for r = 3, 9 do
      if base:get(r, 1) > base:get(r - 1, 1) then thermo[#thermo + 1] = "r" .. r .. "c1"
      else break end
    end
    if #thermo >= 2 then d.thermos[1] = thermo end
    if base:get(2, 2) + base:get(3, 2) <= 9 then
      d.arrows[1] = {{4, 3}, {2, 2}, {3, 2}}
      -- the circle must hold the sum in the grid the marks come from
      if base:get(4, 3) ~= base:get(2, 2) + base:get(3, 2) then d.arrows = {} end
    end
    for c = 1, 9 do
      local ref = ("r7c%d"):format(c)
      if base:get(7, c) % 2 == 0 then d.even[#d.even + 1] = ref
      else d.odd[#d.odd + 1] = ref end
    end
    assert.is_true(holds(d, base))
    check_variant(d)
  end)

  it("Kropki with every dot given: a puzzle of dots alone", function()
    -- Written for these tests: the dots of one grid, no givens.  With
    -- every dot given the grid is the only one; with only the dots as
    -- rules (undotted neighbours free), there are two.
    local kropki = require("ludus.variants.kropki")
    local d = {name = "kropki", alldots = true,
      white = {{"r1c6", "r2c6"}, {"r2c2", "r3c2"}, {"r2c8", "r2c9"}, {"r3c1", "r4c1"},
               {"r3c5", "r3c6"}, {"r4c4", "r5c4"}, {"r4c8", "r4c9"}, {"r4c9", "r5c9"},
               {"r5c5", "r6c5"}, {"r5c6", "r6c6"}, {"r5c8", "r5c9"}, {"r6c2", "r6c3"},
               {"r6c2", "r7c2"}, {"r7c2", "r8c2"}, {"r7c3", "r7c4"}, {"r7c7", "r7c8"},
               {"r8c4", "r8c5"}, {"r8c5", "r9c5"}, {"r9c1", "r9c2"}, {"r9c8", "r9c9"}},
      black = {{"r1c1", "r1c2"}, {"r1c4", "r1c5"}, {"r1c6", "r1c7"}, {"r1c7", "r2c7"},
               {"r2c1", "r2c2"}, {"r2c3", "r3c3"}, {"r2c4", "r3c4"}, {"r2c7", "r3c7"},
               {"r2c8", "r3c8"}, {"r3c4", "r3c5"}, {"r3c9", "r4c9"}, {"r4c5", "r4c6"},
               {"r4c6", "r5c6"}, {"r5c5", "r5c6"}, {"r6c3", "r7c3"}, {"r6c6", "r6c7"},
               {"r6c7", "r7c7"}, {"r6c8", "r7c8"}, {"r6c9", "r7c9"}, {"r7c8", "r7c9"},
               {"r8c3", "r8c4"}, {"r8c3", "r9c3"}, {"r8c4", "r9c4"}, {"r8c5", "r8c6"}}}
    local empty = ("."):rep(81)
    local all = kropki.rules{white = d.white, black = d.black, all = true}
    local p = all:parse(empty)
    assert.equal(1, p:count())
    local s = p:solve()
    assert.equal("125368497483197265796245138839612754617584923254973681"
                 .. "968751342572436819341829576", s:to_string())
    assert.is_true(holds(d, s))
    local dots_only = kropki.rules{white = d.white, black = d.black}
    local two = dots_only:parse(empty):solutions()
    assert.equal(2, #two)
    -- the other breaks the rule of the dots not drawn, as written here
    local other = two[1] == s and two[2] or two[1]
    assert.is_false(holds(d, other))
    assert.is_true(holds({white = d.white, black = d.black}, other))
    -- r1c2 and r1c3 have no dot: 3 beside 6 is refused, 3 beside 5 is not
    assert.same({nil, "sudoku: r1c2 and r1c3 are given 3 and 6, but without "
                      .. "a dot they must be neither consecutive nor one twice "
                      .. "the other"},
                {all:parse("." .. "36" .. ("."):rep(78))})
    assert.is_truthy(all:parse("." .. "35" .. ("."):rep(78)))
    -- generated: dots from a grid, every one given, givens only as needed
    local g = {name = "kropki all dots", alldots = true, white = {}, black = {}}
    for r = 1, 9 do
      for c = 1, 9 do
        for _, st in ipairs{{0, 1}, {1, 0}} do
          local r2, c2 = r + st[1], c + st[2]
          if r2 <= 9 and c2 <= 9 then
            local a, b = base:get(r, c), base:get(r2, c2)
            local pair = {("r%dc%d"):format(r, c), ("r%dc%d"):format(r2, c2)}
            if a == 2 * b or b == 2 * a then g.black[#g.black + 1] = pair
            elseif math.abs(a - b) == 1 then g.white[#g.white + 1] = pair end
          end
        end
      end
    end
    assert.is_true(holds(g, base))
    local q = sudoku.generate{rules = assert(sudoku.variant(g)), seed = 1}
    assert.is_true(q:is_unique())
    assert.is_true(holds(g, q:solve()))
  end)

  it("killer: a unique puzzle from a grid's cages", function()
    local killer = require("ludus.variants.killer")
    local p, cages = killer.generate{seed = 5}
    assert.is_true(p:is_unique())
    local s = p:solve()
    assert.is_true(holds({cages = cages}, s))
    local covered = 0
    for _, cage in ipairs(cages) do covered = covered + #cage end
    assert.equal(81, covered)
    assert.is_true(p:givens() <= 3)
  end)

  it("a Lua predicate: the magic square", function()
    local magic = require("ludus.variants.magic_square")
    local v = magic.rules()
    -- a grid whose centre box is 2 7 6 / 9 5 1 / 4 3 8, the rest by search
    local text = ("."):rep(30) .. "276" .. ("."):rep(6) .. "951" .. ("."):rep(6)
                 .. "438" .. ("."):rep(30)
    local s = assert(v:parse(text):solve())
    assert.is_true(s:is_solved())
    local bad = ("."):rep(30) .. "123" .. ("."):rep(48)
    assert.same({nil, "no solution"}, {v:parse(bad):solve()})
    -- a predicate's error is raised after the search
    local boom = sudoku.variant{check = function() error("boom") end}
    local ok, err = pcall(sudoku.solve, boom:parse(("."):rep(81)))
    assert.is_false(ok)
    assert.truthy(tostring(err):find("boom", 1, true))
  end)

  it("is_solved and set follow a Lua predicate", function()
    local full = sudoku.solve(("."):rep(81)):to_string()
    local never = sudoku.variant{check = function() return false end}
    assert.is_false(never:parse(full):is_solved())
    assert.is_true(sudoku.variant{check = function() return true end}:parse(full):is_solved())
    local magic = require("ludus.variants.magic_square").rules()
    local s = assert(magic:parse(("."):rep(30) .. "276" .. ("."):rep(48)):solve())
    assert.is_true(s:is_solved())
    -- a partial predicate refuses a set, and one that raises raises it;
    -- either way the puzzle is as it was
    local p = magic:parse(("."):rep(81))
    p:set(4, 4, 2):set(4, 5, 7)
    assert_raises({"sudoku: r4c6 cannot be 5: the variant's check refuses the grid"},
                  p.set, p, 4, 6, 5)
    assert.equal(0, p:get(4, 6))
    assert.equal(6, p:set(4, 6, 6):get(4, 6))
    local boom = sudoku.variant{partial = true, check = function(q)
      if q:get(1, 1) == 5 then error("boom") end
      return true
    end}
    local b = boom:parse(("."):rep(81))
    assert_raises({"boom"}, b.set, b, 1, 1, 5)
    assert.equal(0, b:get(1, 1))
    -- without partial it is asked about the full grid only
    local whole = sudoku.variant{check = function() return false end}:parse(full)
    whole:set(1, 1, 0)
    assert_raises({"cannot be " .. full:sub(1, 1) .. ": the variant's check refuses"},
                  whole.set, whole, 1, 1, tonumber(full:sub(1, 1)))
  end)

  it("generate refuses a Lua predicate it cannot follow", function()
    local magic = require("ludus.variants.magic_square")
    assert_raises({"sudoku: generate cannot follow a variant's check (a rule in Lua)"},
                  sudoku.generate, {seed = 1, rules = magic.rules()})
    assert_raises({"generate cannot follow a variant's check"}, sudoku.generate,
                  {rules = sudoku.variant{check = function() error("x") end}})
  end)

  it("the variant scripts describe themselves", function()
    for _, name in ipairs{"killer", "xsudoku", "windoku", "jigsaw", "even_odd",
                          "thermo", "arrow", "consecutive", "kropki",
                          "greater_than", "antiknight", "antiking", "magic_square"} do
      local m = require("ludus.variants." .. name)
      local text = require("ludus.help").text(m)
      assert.truthy(text:find("^" .. name .. ": "), text)
      assert.truthy(m.rules)
    end
    local gt = require("ludus.variants.greater_than")
    local v = assert(gt.rules{{"r1c1", ">", "r1c2"}})
    assert.equal(9, v:parse(("."):rep(81)):solve():get(1, 1) < 10 and 9)
    assert.same({nil, "sudoku: variant: sign 1: '<' or '>' expected between its "
                 .. "cells, got ="}, {gt.rules{{"r1c1", "=", "r1c2"}}})
  end)

  it("the variant scripts' generate takes the options of sudoku.generate", function()
    -- clues = 60 was dropped without a word, and so was a misspelt option
    local regions = ("111222333"):rep(3) .. ("444555666"):rep(3) .. ("777888999"):rep(3)
    for _, name in ipairs{"xsudoku", "windoku", "antiking", "antiknight", "jigsaw"} do
      local m = require("ludus.variants." .. name)
      local function generate(options)
        if name == "jigsaw" then return m.generate(regions, options) end
        return m.generate(options)
      end
      local p = generate{seed = 1, clues = 60}
      assert.equal(60, p:givens(), name)
      assert.is_true(p:is_unique())
      -- named as the variant's, with the options it takes (not rules, which it sets)
      assert_raises({name .. ".generate: unknown option 'clue' (it takes: size, "
                     .. (name == "jigsaw" and "" or "box, ")
                     .. "seed, clues, symmetric, minimal)"}, generate, {seed = 1, clue = 60})
      assert_raises({name .. ".generate: unknown option 'rules'"}, generate,
                    {rules = sudoku.variant{diagonals = true}})
      assert_raises({name .. ".generate: options must be a table (got number)"}, generate, 5)
    end
    local killer = require("ludus.variants.killer")
    assert_raises({"killer.generate: unknown option 'clues' (it takes: size, seed)"},
                  killer.generate, {seed = 1, clues = 30})
    assert_raises({"killer.generate: options must be a table (got number)"},
                  killer.generate, 5)
  end)

  it("v:parse and v:generate are parse and generate with the variant's rules", function()
    local v = sudoku.variant{diagonals = true}
    local p = v:generate{seed = 1, clues = 40}
    assert.equal(40, p:givens())
    assert.is_true(p:is_unique())
    assert.equal(tostring(sudoku.generate{rules = v, seed = 1, clues = 40}), tostring(p))
    local options = {seed = 1}
    v:generate(options)
    assert.same({seed = 1}, options)          -- the caller's table is left alone
    assert.equal(9, v:parse(p:to_string()):size())
    assert_raises({"sudoku variant: generate: options must be a table (got number)"},
                  v.generate, v, 5)
    assert_raises({"sudoku variant: parse: options must be a table (got string)"},
                  v.parse, v, p:to_string(), "x")
    assert_raises({"sudoku variant: generate: the rules are the variant's (got option 'rules')"},
                  v.generate, v, {rules = sudoku.variant{windows = true}})
    assert_raises({"bad argument #1"}, v.generate, 5)
  end)

  it("ludus.check_options, which the variant scripts check their options with", function()
    local check = ludus.check_options
    local o = {size = 9}
    assert.equal(o, check(o, "size box", "f"))
    assert.same({}, check(nil, "size box", "f"))
    assert_raises({"f: unknown option 'sise' (it takes: size, box)"}, check, {sise = 9},
                  "size box", "f")
    assert_raises({"f: unknown option 1 (it takes: size, box)"}, check, {9}, "size box", "f")
    assert_raises({"f: unknown option 'size' (it takes none)"}, check, {size = 9}, "", "f")
    assert_raises({"f: options must be a table (got number)"}, check, 9, "size", "f")
    -- a key that only starts or ends like a name is not it
    assert_raises({"f: unknown option 'siz' (it takes: size)"}, check, {siz = 1}, "size", "f")
    assert_raises({"f: unknown option 'sizes' (it takes: size)"}, check, {sizes = 1}, "size", "f")
    assert.has_error(function() check({}, nil, "f") end)
  end)

  it("the variant scripts' rules refuse an option they do not take", function()
    -- xsudoku.rules{sise = 4} made a 9x9 without a word
    local regions = ("111222333"):rep(3) .. ("444555666"):rep(3) .. ("777888999"):rep(3)
    local cases = {
      {"xsudoku", "size, box", function(m, o) return m.rules(o) end},
      {"windoku", "size, box", function(m, o) return m.rules(o) end},
      {"antiking", "size, box", function(m, o) return m.rules(o) end},
      {"antiknight", "size, box", function(m, o) return m.rules(o) end},
      {"jigsaw", "size", function(m, o) return m.rules(regions, o) end},
      {"killer", "size, box", function(m, o) return m.rules({}, o) end},
      {"thermo", "size, box", function(m, o) return m.rules({}, o) end},
      {"arrow", "size, box", function(m, o) return m.rules({}, o) end},
      {"greater_than", "size, box", function(m, o) return m.rules({}, o) end},
      {"consecutive", "all, size, box", function(m, o) return m.rules({}, o) end},
    }
    for _, case in ipairs(cases) do
      local name, takes, rules = case[1], case[2], case[3]
      local m = require("ludus.variants." .. name)
      assert_raises({name .. ".rules: unknown option 'sise' (it takes: " .. takes .. ")"},
                    rules, m, {sise = 9})
      assert_raises({name .. ".rules: options must be a table (got number)"}, rules, m, 9)
      assert.equal(9, assert(rules(m, {size = 9})):parse(("."):rep(81)):size(), name)
      assert(rules(m, nil), name)
    end
    local even_odd = require("ludus.variants.even_odd")
    assert_raises({"even_odd.rules: unknown option 'evens' (it takes: even, odd, size, box)"},
                  even_odd.rules, {evens = {"r1c1"}})
    assert_raises({"even_odd.rules: marks must be a table (got nil)"}, even_odd.rules)
    assert(even_odd.rules{even = {"r1c1"}, odd = {"r1c2"}, size = 9, box = {3, 3}})
    local kropki = require("ludus.variants.kropki")
    assert_raises({"kropki.rules: unknown option 'alldots' (it takes: white, black, all, "
                   .. "size, box)"},
                  kropki.rules, {white = {}, alldots = true})
    assert_raises({"kropki.rules: dots must be a table (got string)"}, kropki.rules, "r1c1")
    assert(kropki.rules{white = {}, black = {}, all = true, size = 9, box = {3, 3}})
    local magic = require("ludus.variants.magic_square")
    assert_raises({"magic_square.rules: unknown option 'size' (it takes none)"}, magic.rules,
                  {size = 4})
    assert_raises({"magic_square.rules: options must be a table (got number)"},
                  magic.rules, 4)
    assert(magic.rules{})
  end)

  it("gives hints that use the regions and units, each true to the solution", function()
    local regions = "112122333" .. "111222333" .. "111222333" .. "445455666"
                 .. "444556566" .. "444555666" .. "777888999" .. "777889899"
                 .. "778788999"
    local seen = {}
    for _, d in ipairs{{diagonals = true}, {regions = regions}, {windows = true},
                       {even = {1, 2, 3, 4}, odd = {5, 6, 7}}} do
      local v = assert(sudoku.variant(d))
      for seed = 1, 3 do
        local p = sudoku.generate{rules = v, seed = seed}
        local s = p:solve()
        for _ = 1, 81 do
          local text, step = p:hint()
          if not text then break end
          assert.equal(s:get(step.row, step.col), step.value, text)
          seen.region = seen.region or text:find("in region %d") ~= nil
          seen.unit = seen.unit or text:find("in unit %d of the variant") ~= nil
          p:set(step.row, step.col, step.value)
        end
      end
    end
    assert.is_true(seen.region)
    assert.is_true(seen.unit)
  end)

  it("says what is wrong with a description", function()
    local cases = {
      {{cages = {{sum = 50, "r1c1", "r1c2"}}}, "sudoku: variant: cage 1: a cage of 2 "
        .. "cells cannot sum to 50 (different values of a 9x9 make 3 to 17)"},
      {{cages = {{sum = 2, "r1c1", "r1c2"}}}, "sudoku: variant: cage 1: a cage of 2 "
        .. "cells cannot sum to 2"},
      {{regions = ("1"):rep(81)}, "sudoku: variant: regions: region 1 has 81 "
        .. "cells, but every region of a 9x9 has 9"},
      {{regions = ("12345678"):rep(10)}, "sudoku: variant: regions: 80 cells given, "
        .. "a 9x9 has 81"},
      {{cages = {{sum = 3, "r1c1", "r10c1"}}}, "sudoku: variant: cage 1: r10c1 is "
        .. "not a cell of a 9x9"},
      {{thermos = {{"r1c1"}}}, "sudoku: variant: thermometer 1: 1 cells"},
      {{cages = {{sum = 3, "r1c1", "r1c1"}}}, "sudoku: variant: cage 1: r1c1 comes twice"},
      {{thermos = {{"r1c1", "r1c2"}, {1, 2, 1}}}, "sudoku: variant: thermometer 2: "
        .. "r1c1 comes twice"},
      {{even = {1, 5}, odd = {3, "r1c5"}}, "sudoku: variant: even and odd: r1c5 is in both"},
      {{box = {2, 4}}, "sudoku: variant: boxes of 2x4 do not make a 9x9"},
      {{diagnals = true}, "sudoku: variant: no rule 'diagnals'"},
      {{size = 70}, "sudoku: variant: size must be from 4 to 64"},
      -- a prime side has no boxes to fall back on (its box was read
      -- uninitialized before)
      {{size = 7}, "sudoku: variant: a 7x7 has no default boxes (7 is prime): give "
        .. "box = {1, 7} (a Latin square) or regions"},
      {{check = 3}, "sudoku: variant: check: a function expected, got number"},
    }
    for _, case in ipairs(cases) do
      local v, why = sudoku.variant(case[1])
      assert.is_nil(v)
      assert.equal(case[2], why:sub(1, #case[2]))
    end
    -- givens that break the rules
    local x = sudoku.variant{diagonals = true}
    assert.same({nil, "sudoku: r1c1 and r2c2 are both 1 (box 1)"},
                {x:parse("1.........1" .. ("."):rep(70))})
    assert.same({nil, "sudoku: r1c1 and r9c9 are both 1 (unit 1 of the variant)"},
                {x:parse("1" .. ("."):rep(79) .. "1")})
    local e = sudoku.variant{even = {"r1c1"}}
    assert.same({nil, "sudoku: r1c1 cannot be 3 (the rules leave it other values)"},
                {e:parse("3" .. ("."):rep(80))})
    -- a grid of another side: the side is wrong, not the variant's boxes
    assert.same({nil, "sudoku: the variant is for a 9x9, the puzzle a 4x4"},
                {x:parse(("."):rep(16))})
    assert.same({nil, "sudoku: the variant is for a 9x9, the puzzle a 4x4"},
                {sudoku.parse(("."):rep(16), {rules = x})})
    local four = sudoku.variant{size = 4, diagonals = true}
    assert.same({nil, "sudoku: the variant is for a 4x4, the puzzle a 9x9"},
                {four:parse(("."):rep(81))})
    assert.same({nil, "sudoku: the variant is for a 4x4, the puzzle a 6x6"},
                {four:parse{{0,0,0,0,0,0}, {0,0,0,0,0,0}, {0,0,0,0,0,0},
                            {0,0,0,0,0,0}, {0,0,0,0,0,0}, {0,0,0,0,0,0}}})
    local p = x:parse(("."):rep(81))
    assert.has_error(function() p:set(9, 9, 1); p:set(1, 1, 1) end)
  end)

  it("refuses a size or box that is not the variant's, in parse and generate", function()
    -- they used to be ignored (generate made a 4x4 for size = 9) or put
    -- in place of the boxes the rules were made for
    local four = sudoku.variant{size = 4, diagonals = true}
    assert_raises({"sudoku: the variant is for a 4x4, size asks for a 9x9"},
                  sudoku.generate, {rules = four, size = 9, seed = 1})
    assert.equal(4, sudoku.generate{rules = four, size = 4, seed = 1}:size())
    local six = sudoku.variant{size = 6, windows = true}
    local other = "sudoku: box {3, 2} is not for this variant, whose boxes are 2x3"
    assert_raises({other}, sudoku.generate, {rules = six, box = {3, 2}, seed = 1})
    assert_raises({other}, sudoku.parse, ("."):rep(36), {rules = six, box = {3, 2}})
    assert.same({2, 3}, {sudoku.parse(("."):rep(36), {rules = six, box = {2, 3}}):box()})
    local jigsaw = sudoku.variant{regions = ("111222333"):rep(3) .. ("444555666"):rep(3)
                                            .. ("777888999"):rep(3)}
    assert_raises({"sudoku: box {3, 3} is not for this variant, whose regions are its boxes"},
                  sudoku.parse, ("."):rep(81), {rules = jigsaw, box = {3, 3}})
  end)
end)
