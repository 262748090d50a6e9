-- magic_square.lua: Magic Square Sudoku, a rule written in Lua.  The
-- centre box of a 9x9 is a magic square: its rows, columns and both
-- diagonals sum to 15.  The C solver does not know this rule, so it is
-- a predicate asked about partial grids as the search goes (partial =
-- true): each line of the box that is full must make 15.  A predicate
-- runs in Lua at every node of the search, so it is far slower than a
-- rule in C; write the next variant this way first, then in C if it is
-- worth it.
--
--   local magic = require "ludus.variants.magic_square"
--   local p = magic.rules():parse(text)

local ludus = require("ludus")
local sudoku = ludus.sudoku

local magic_square = {}

magic_square.help = {
  name = "magic_square",
  summary = "Magic Square Sudoku: the centre box is a magic square; a Lua "
    .. "predicate (require 'ludus.variants.magic_square')",
  functions = {
    rules = "magic_square.rules() -> the variant",
  },
}

-- The eight lines of the centre box, as {row, col} cells.
local lines = {}
for i = 0, 2 do
  lines[#lines + 1] = {{4 + i, 4}, {4 + i, 5}, {4 + i, 6}}
  lines[#lines + 1] = {{4, 4 + i}, {5, 4 + i}, {6, 4 + i}}
end
lines[#lines + 1] = {{4, 4}, {5, 5}, {6, 6}}
lines[#lines + 1] = {{4, 6}, {5, 5}, {6, 4}}

-- Every full line of the box sums to 15.
local function magic(p)
  for _, line in ipairs(lines) do
    local sum, full = 0, true
    for _, cell in ipairs(line) do
      local v = p:get(cell[1], cell[2])
      full = full and v ~= 0
      sum = sum + v
    end
    if full and sum ~= 15 then return false end
  end
  return true
end

-- A 9x9 only: the centre box and its sum of 15 are a 9x9's.
function magic_square.rules(options)
  ludus.check_options(options, "", "magic_square.rules")
  return sudoku.variant{name = "magic square", check = magic, partial = true}
end

return magic_square
