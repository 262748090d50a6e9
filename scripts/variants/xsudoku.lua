-- xsudoku.lua: X-Sudoku (diagonal Sudoku).  Both long diagonals hold
-- every value once, as the rows, columns and boxes do: two extra units
-- the C solver treats like the others.
--
--   local x = require "ludus.variants.xsudoku"
--   local p = x.rules():parse(text)        -- or x.generate{seed = 1}

local ludus = require("ludus")
local sudoku = ludus.sudoku

local xsudoku = {}

xsudoku.help = {
  name = "xsudoku",
  summary = "X-Sudoku: both diagonals hold every value once (require "
    .. "'ludus.variants.xsudoku')",
  functions = {
    rules = "xsudoku.rules([{size=, box=}]) -> the variant",
    generate = "xsudoku.generate{size=9, seed=, ...} -> a minimal puzzle with one solution; "
      .. "the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function xsudoku.rules(options)
  options = ludus.check_options(options, "size box", "xsudoku.rules")
  return sudoku.variant{name = "X", diagonals = true, size = options.size,
                        box = options.box}
end

function xsudoku.generate(options)
  options = ludus.check_options(options, "size box seed clues symmetric minimal",
                                "xsudoku.generate")
  return assert(xsudoku.rules{size = options.size, box = options.box}):generate(options)
end

return xsudoku
