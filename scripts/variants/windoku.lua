-- windoku.lua: Windoku (Hyper Sudoku).  Four more boxes, the windows,
-- one cell in from the edges and one cell apart (rows and columns 2-4
-- and 6-8 on a 9x9), each hold every value once: extra units.
--
--   local windoku = require "ludus.variants.windoku"
--   local p = windoku.rules():parse(text)

local ludus = require("ludus")
local sudoku = ludus.sudoku

local windoku = {}

windoku.help = {
  name = "windoku",
  summary = "Windoku: four windows that hold every value once (require "
    .. "'ludus.variants.windoku')",
  functions = {
    rules = "windoku.rules([{size=, box=}]) -> the variant",
    generate = "windoku.generate{size=9, seed=, ...} -> a minimal puzzle with one solution; "
      .. "the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function windoku.rules(options)
  options = ludus.check_options(options, "size box", "windoku.rules")
  return sudoku.variant{name = "windoku", windows = true, size = options.size,
                        box = options.box}
end

function windoku.generate(options)
  options = ludus.check_options(options, "size box seed clues symmetric minimal",
                                "windoku.generate")
  return assert(windoku.rules{size = options.size, box = options.box}):generate(options)
end

return windoku
