-- antiknight.lua: Anti-knight Sudoku.  Two cells a chess knight's move
-- apart never hold the same value: every such pair is a "different"
-- rule for the C solver.
--
--   local antiknight = require "ludus.variants.antiknight"
--   local p = antiknight.rules():parse(text)

local ludus = require("ludus")
local sudoku = ludus.sudoku

local antiknight = {}

antiknight.help = {
  name = "antiknight",
  summary = "Anti-knight Sudoku: cells a knight's move apart differ (require "
    .. "'ludus.variants.antiknight')",
  functions = {
    rules = "antiknight.rules([{size=, box=}]) -> the variant",
    generate = "antiknight.generate{seed=, ...} -> a minimal puzzle with one solution; "
      .. "the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function antiknight.rules(options)
  options = ludus.check_options(options, "size box", "antiknight.rules")
  return sudoku.variant{name = "anti-knight", antiknight = true,
                        size = options.size, box = options.box}
end

function antiknight.generate(options)
  options = ludus.check_options(options, "size box seed clues symmetric minimal",
                                "antiknight.generate")
  return assert(antiknight.rules{size = options.size, box = options.box}):generate(options)
end

return antiknight
