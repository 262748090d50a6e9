-- killer.lua: Killer Sudoku.  Cages of cells, each with a sum: the
-- values of a cage are all different and add up to its sum, on top of
-- the rows, columns and boxes.  The C solver propagates the cages (every
-- way to make a cage's sum from what its cells may still take).
--
--   local killer = require "ludus.variants.killer"
--   local v = killer.rules{{sum = 3, "r1c1", "r1c2"}, {sum = 15, "r1c3", "r2c3"}}
--   local p = v:parse(("."):rep(81))        -- givens are optional
--   local q, cages = killer.generate{seed = 1}   -- a unique killer, no givens
--
-- A cell is "r1c2", {1, 2} or its number 1..81 row by row.  A cage whose
-- sum no different values reach is refused with a message that says
-- which sums it can have.

local ludus = require("ludus")
local sudoku = ludus.sudoku

local killer = {}

killer.help = {
  name = "killer",
  summary = "Killer Sudoku: cages of different values with a sum (require "
    .. "'ludus.variants.killer')",
  functions = {
    rules = "killer.rules(cages [, {size=, box=}]) -> the variant; a cage is "
      .. "{sum = n, cell, cell ...}",
    generate = "killer.generate{size=9, seed=} -> a puzzle with one solution "
      .. "(cages only, givens where needed), its cages",
  },
}

function killer.rules(cages, options)
  options = ludus.check_options(options, "size box", "killer.rules")
  return sudoku.variant{name = "killer", cages = cages, size = options.size,
                        box = options.box}
end

-- A small generator of whole numbers (xorshift), the same on every run.
local function generator(seed)
  local state = (seed * 2654435761 + 1) & 0x7fffffffffffffff
  return function(n)
    state = state ~ (state << 13)
    state = state ~ (state >> 7)
    state = state ~ (state << 17)
    return (state & 0x7fffffff) % n + 1
  end
end

-- Cages of 2 to 4 neighbouring cells with different values of the full
-- grid s, grown from random cells; a cell left alone is a cage of one.
local function carve(s, random)
  local n = s:size()
  local cage_of, cages = {}, {}
  local order = {}
  for cell = 1, n * n do order[cell] = cell end
  for i = #order, 2, -1 do
    local j = random(i)
    order[i], order[j] = order[j], order[i]
  end
  for _, start in ipairs(order) do
    if not cage_of[start] then
      local cage, values = {start}, {[s:get((start - 1) // n + 1, (start - 1) % n + 1)] = true}
      cage_of[start] = cage
      local want = 1 + random(3)
      while #cage < want do
        local from = cage[random(#cage)]
        local r, c = (from - 1) // n, (from - 1) % n
        local steps = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}}
        local step = steps[random(4)]
        local nr, nc = r + step[1], c + step[2]
        local cell = nr * n + nc + 1
        local v = nr >= 0 and nr < n and nc >= 0 and nc < n and s:get(nr + 1, nc + 1)
        if v and not cage_of[cell] and not values[v] then
          cage[#cage + 1], values[v], cage_of[cell] = cell, true, cage
        elseif random(4) == 1 then
          break
        end
      end
      cages[#cages + 1] = cage
    end
  end
  local out = {}
  for i, cage in ipairs(cages) do
    local sum = 0
    for _, cell in ipairs(cage) do sum = sum + s:get((cell - 1) // n + 1, (cell - 1) % n + 1) end
    out[i] = {sum = sum, table.unpack(cage)}
  end
  return out
end

function killer.generate(options)
  options = ludus.check_options(options, "size seed", "killer.generate")
  local size, seed = options.size or 9, options.seed or 1
  local s = sudoku.generate{size = size, seed = seed, clues = size * size}
  local cages = carve(s, generator(seed))
  local v = assert(killer.rules(cages, {size = size}))
  local p = v:parse(("."):rep(size * size))
  -- givens from the solution where two solutions differ, until one is left
  while true do
    local two = p:solutions(2)
    if #two < 2 then break end
    for r = 1, size do
      local c = 1
      while c <= size and two[1]:get(r, c) == two[2]:get(r, c) do c = c + 1 end
      if c <= size then
        p:set(r, c, s:get(r, c))
        break
      end
    end
  end
  return p, cages
end

return killer
