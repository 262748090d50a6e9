-- kropki.lua: Kropki Sudoku.  A white dot between two cells: their
-- values are consecutive; a black dot: one is twice the other.  Only the
-- dots given are rules (the "all dots given" form is not known here: it
-- could be added as a Lua predicate, or as the negative pairs).
--
--   local kropki = require "ludus.variants.kropki"
--   local v = kropki.rules{white = {{"r1c1", "r1c2"}}, black = {{"r2c1", "r3c1"}}}

local sudoku = require("ludus").sudoku

local kropki = {}

kropki.help = {
  name = "kropki",
  summary = "Kropki Sudoku: white dots join consecutive values, black dots a "
    .. "value and its double (require 'ludus.variants.kropki')",
  functions = {
    rules = "kropki.rules{white = pairs, black = pairs [, size=, box=]} -> the "
      .. "variant",
  },
}

function kropki.rules(dots)
  return sudoku.variant{name = "kropki", white = dots.white, black = dots.black,
                        size = dots.size, box = dots.box}
end

return kropki
