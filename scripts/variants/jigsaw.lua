-- jigsaw.lua: Jigsaw Sudoku.  Irregular regions of size cells replace
-- the boxes.  The regions are a map of the grid, one symbol a cell, the
-- same symbol for the cells of one region (or a list of region numbers);
-- regions that are not all of size cells are refused, naming the one.
--
--   local jigsaw = require "ludus.variants.jigsaw"
--   local v = jigsaw.rules[[
--     111222233
--     ...        ]]
--   local p = v:parse(text)

local ludus = require("ludus")
local sudoku = ludus.sudoku

local jigsaw = {}

jigsaw.help = {
  name = "jigsaw",
  summary = "Jigsaw Sudoku: irregular regions instead of boxes (require "
    .. "'ludus.variants.jigsaw')",
  functions = {
    rules = "jigsaw.rules(regions [, {size=}]) -> the variant; regions is a map, "
      .. "one symbol a cell",
    generate = "jigsaw.generate(regions [, {seed=, ...}]) -> a minimal puzzle with one "
      .. "solution; the options of sudoku.generate (clues=, symmetric=, ...)",
  },
}

function jigsaw.rules(regions, options)
  options = ludus.check_options(options, "size", "jigsaw.rules")
  return sudoku.variant{name = "jigsaw", regions = regions, size = options.size}
end

function jigsaw.generate(regions, options)
  options = ludus.check_options(options, "size seed clues symmetric minimal",
                                "jigsaw.generate")
  local v, why = jigsaw.rules(regions, {size = options.size})
  if not v then return nil, why end
  return v:generate(options)
end

return jigsaw
