-- arrow.lua: Arrow Sudoku.  The value in an arrow's circle is the sum of
-- the values along the arrow (which may repeat, where rows, columns and
-- boxes allow).  The C solver enumerates the sums a circle can still be.
--
--   local arrow = require "ludus.variants.arrow"
--   local v = arrow.rules{{"r1c1", "r1c2", "r1c3"}}   -- r1c1 = r1c2 + r1c3

local ludus = require("ludus")
local sudoku = ludus.sudoku

local arrow = {}

arrow.help = {
  name = "arrow",
  summary = "Arrow Sudoku: a circle is the sum of its arrow (require "
    .. "'ludus.variants.arrow')",
  functions = {
    rules = "arrow.rules(arrows [, {size=, box=}]) -> the variant; an arrow is "
      .. "a list of cells, the circle first",
  },
}

function arrow.rules(arrows, options)
  options = ludus.check_options(options, "size box", "arrow.rules")
  return sudoku.variant{name = "arrow", arrows = arrows, size = options.size,
                        box = options.box}
end

return arrow
