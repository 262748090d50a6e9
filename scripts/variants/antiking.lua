-- antiking.lua: Anti-king Sudoku.  Two cells a chess king's move apart
-- (diagonal neighbours: the others share a row or column already) never
-- hold the same value.
--
--   local antiking = require "ludus.variants.antiking"
--   local p = antiking.rules():parse(text)

local ludus = require("ludus")
local sudoku = ludus.sudoku

local antiking = {}

antiking.help = {
  name = "antiking",
  summary = "Anti-king Sudoku: diagonal neighbours differ (require "
    .. "'ludus.variants.antiking')",
  functions = {
    rules = "antiking.rules([{size=, box=}]) -> the variant",
    generate = "antiking.generate{seed=, ...} -> a minimal puzzle with one solution; "
      .. "the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function antiking.rules(options)
  options = ludus.check_options(options, "size box", "antiking.rules")
  return sudoku.variant{name = "anti-king", antiking = true,
                        size = options.size, box = options.box}
end

function antiking.generate(options)
  options = ludus.check_options(options, "size box seed clues symmetric minimal",
                                "antiking.generate")
  return assert(antiking.rules{size = options.size, box = options.box}):generate(options)
end

return antiking
