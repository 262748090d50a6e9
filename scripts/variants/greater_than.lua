-- greater_than.lua: Greater-than Sudoku (Comparison Sudoku).  A sign
-- between two cells says which is greater: {"r1c1", "<", "r1c2"} or
-- {"r1c1", ">", "r1c2"}.  The C solver keeps each as "less than".
--
--   local gt = require "ludus.variants.greater_than"
--   local v = gt.rules{{"r1c1", "<", "r1c2"}, {"r2c1", ">", "r3c1"}}

local ludus = require("ludus")
local sudoku = ludus.sudoku

local greater_than = {}

greater_than.help = {
  name = "greater_than",
  summary = "Greater-than Sudoku: signs between cells say which is greater "
    .. "(require 'ludus.variants.greater_than')",
  functions = {
    rules = "greater_than.rules(signs [, {size=, box=}]) -> the variant; a sign "
      .. "is {cell, '<' or '>', cell}",
  },
}

function greater_than.rules(signs, options)
  options = ludus.check_options(options, "size box", "greater_than.rules")
  local less = {}
  for i, sign in ipairs(signs) do
    local a, op, b = sign[1], sign[2], sign[3]
    if op == "<" then
      less[i] = {a, b}
    elseif op == ">" then
      less[i] = {b, a}
    else
      return nil, ("sudoku: variant: sign %d: '<' or '>' expected between its "
                   .. "cells, got %s"):format(i, tostring(op))
    end
  end
  return sudoku.variant{name = "greater-than", less = less, size = options.size,
                        box = options.box}
end

return greater_than
