-- consecutive.lua: Consecutive and Non-consecutive Sudoku.  A mark
-- between two neighbouring cells says their values are consecutive; with
-- all = true every consecutive pair is marked, so neighbours without a
-- mark are not consecutive.  With no marks and all = true, it is
-- Non-consecutive Sudoku.
--
--   local consecutive = require "ludus.variants.consecutive"
--   local v = consecutive.rules({{"r1c1", "r1c2"}}, {all = true})
--   local nc = consecutive.rules({}, {all = true})   -- non-consecutive

local ludus = require("ludus")
local sudoku = ludus.sudoku

local consecutive = {}

consecutive.help = {
  name = "consecutive",
  summary = "Consecutive Sudoku: marked neighbours differ by one; all = true: "
    .. "unmarked ones do not (require 'ludus.variants.consecutive')",
  functions = {
    rules = "consecutive.rules(marks [, {all=, size=, box=}]) -> the variant; a "
      .. "mark is a pair of cells",
  },
}

function consecutive.rules(marks, options)
  options = ludus.check_options(options, "all size box", "consecutive.rules")
  return sudoku.variant{name = options.all and #marks == 0 and "non-consecutive"
                          or "consecutive",
                        consecutive = marks, nonconsecutive = options.all,
                        size = options.size, box = options.box}
end

return consecutive
