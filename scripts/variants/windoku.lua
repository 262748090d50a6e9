-- windoku.lua: Windoku (Hyper Sudoku).  Four more boxes, the windows,
-- one cell in from the edges and one cell apart (rows and columns 2-4
-- and 6-8 on a 9x9), each hold every value once: extra units.
--
--   local windoku = require "ludus.variants.windoku"
--   local p = windoku.rules():parse(text)

local sudoku = require("ludus").sudoku

local windoku = {}

windoku.help = {
  name = "windoku",
  summary = "Windoku: four windows that hold every value once (require "
    .. "'ludus.variants.windoku')",
  functions = {
    rules = "windoku.rules([{size=, box=}]) -> the variant",
    generate = "windoku.generate{size=9, seed=} -> a minimal puzzle with one solution",
  },
}

function windoku.rules(options)
  options = options or {}
  return sudoku.variant{name = "windoku", windows = true, size = options.size,
                        box = options.box}
end

function windoku.generate(options)
  options = options or {}
  return sudoku.generate{rules = assert(windoku.rules(options)),
                         seed = options.seed}
end

return windoku
