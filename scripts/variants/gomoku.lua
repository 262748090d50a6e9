-- gomoku.lua: five in a row on a 15 by 15 board, black first.
--
--   local gomoku = require "ludus.variants.gomoku"
--   local g = gomoku.new():black("h8"):white("j9")
--   print(g)
--   gomoku.new{size = 9, exact = true}    -- a 9 by 9 board, exact five
--
-- Options: size (5 to 16, default 15), and exact = true for the "exact
-- five" rule: six or more in a row do not win.
--
-- Gomoku is the m,n,k-game with m = n = size and k = 5, so the rules,
-- the hash and the evaluation (lines of five that only one side holds
-- stones in, weighted by how many) all come from mnk.lua: this file only
-- names the sides, draws the stones and reads its own options.

local mnk = require("ludus.variants.mnk")

return mnk.make{
  name = "gomoku",
  sides = {"black", "white"},
  stones = {"●", "○"},
  known = {"size", "exact"},
  options = function(options)
    local size = options.size or 15
    local whole = type(size) == "number" and math.tointeger(size)
    if not whole or whole < 5 or whole > 16 then
      error("option 'size' must be a whole number from 5 to 16 (got "
            .. tostring(size) .. ")", 0)
    end
    return whole, whole, 5, options.exact
  end,
}
