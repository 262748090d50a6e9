-- even_odd.lua: Even-Odd Sudoku.  Cells marked even (grey squares) take
-- even values, cells marked odd (circles) odd ones: the C solver starts
-- those cells with fewer candidates.
--
--   local even_odd = require "ludus.variants.even_odd"
--   local v = even_odd.rules{even = {"r1c1", "r2c5"}, odd = {"r9c9"}}

local ludus = require("ludus")
local sudoku = ludus.sudoku

local even_odd = {}

even_odd.help = {
  name = "even_odd",
  summary = "Even-Odd Sudoku: marked cells are even or odd (require "
    .. "'ludus.variants.even_odd')",
  functions = {
    rules = "even_odd.rules{even = cells, odd = cells [, size=, box=]} -> the variant",
  },
}

function even_odd.rules(marks)
  if type(marks) ~= "table" then
    error("even_odd.rules: marks must be a table (got " .. type(marks) .. ")", 2)
  end
  ludus.check_options(marks, "even odd size box", "even_odd.rules")
  return sudoku.variant{name = "even-odd", even = marks.even, odd = marks.odd,
                        size = marks.size, box = marks.box}
end

return even_odd
