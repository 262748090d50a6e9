-- kropki.lua: Kropki Sudoku.  A white dot between two cells: their
-- values are consecutive; a black dot: one is twice the other (between 1
-- and 2 either dot may stand).  With all = true every dot is given, so
-- neighbours without a dot are neither consecutive nor one twice the
-- other: the "negative constraint" most published Kropki puzzles use.
--
--   local kropki = require "ludus.variants.kropki"
--   local v = kropki.rules{white = {{"r1c1", "r1c2"}}, black = {{"r2c1", "r3c1"}}}
--   local all = kropki.rules{white = ..., black = ..., all = true}

local ludus = require("ludus")
local sudoku = ludus.sudoku

local kropki = {}

kropki.help = {
  name = "kropki",
  summary = "Kropki Sudoku: white dots join consecutive values, black dots a "
    .. "value and its double; all = true: neighbours without a dot are "
    .. "neither (require 'ludus.variants.kropki')",
  functions = {
    rules = "kropki.rules{white = pairs, black = pairs [, all=, size=, box=]} "
      .. "-> the variant",
  },
}

function kropki.rules(dots)
  if type(dots) ~= "table" then
    error("kropki.rules: dots must be a table (got " .. type(dots) .. ")", 2)
  end
  ludus.check_options(dots, "white black all size box", "kropki.rules")
  return sudoku.variant{name = "kropki", white = dots.white, black = dots.black,
                        alldots = dots.all, size = dots.size, box = dots.box}
end

return kropki
