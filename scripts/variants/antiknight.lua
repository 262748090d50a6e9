-- antiknight.lua: Anti-knight Sudoku.  Two cells a chess knight's move
-- apart never hold the same value: every such pair is a "different"
-- rule for the C solver.
--
--   local antiknight = require "ludus.variants.antiknight"
--   local p = antiknight.rules():parse(text)

local sudoku = require("ludus").sudoku

local antiknight = {}

antiknight.help = {
  name = "antiknight",
  summary = "Anti-knight Sudoku: cells a knight's move apart differ (require "
    .. "'ludus.variants.antiknight')",
  functions = {
    rules = "antiknight.rules([{size=, box=}]) -> the variant",
    generate = "antiknight.generate{seed=} -> a minimal puzzle with one solution",
  },
}

function antiknight.rules(options)
  options = options or {}
  return sudoku.variant{name = "anti-knight", antiknight = true,
                        size = options.size, box = options.box}
end

function antiknight.generate(options)
  options = options or {}
  return sudoku.generate{rules = assert(antiknight.rules(options)),
                         seed = options.seed}
end

return antiknight
