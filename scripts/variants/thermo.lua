-- thermo.lua: Thermo Sudoku.  Each thermometer is a line of cells from
-- its bulb: the values rise strictly along it.  The C solver keeps each
-- step of a thermometer as "this cell is less than the next".
--
--   local thermo = require "ludus.variants.thermo"
--   local v = thermo.rules{{"r1c1", "r1c2", "r1c3"}, {"r9c9", "r8c9"}}

local ludus = require("ludus")
local sudoku = ludus.sudoku

local thermo = {}

thermo.help = {
  name = "thermo",
  summary = "Thermo Sudoku: values rise along each thermometer from its bulb "
    .. "(require 'ludus.variants.thermo')",
  functions = {
    rules = "thermo.rules(thermometers [, {size=, box=}]) -> the variant; a "
      .. "thermometer is a list of cells, bulb first",
  },
}

function thermo.rules(thermometers, options)
  options = ludus.check_options(options, "size box", "thermo.rules")
  return sudoku.variant{name = "thermo", thermos = thermometers,
                        size = options.size, box = options.box}
end

return thermo
