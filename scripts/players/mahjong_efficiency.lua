-- mahjong_efficiency.lua: a mahjong player that plays for speed alone.
-- It discards the tile that leaves the fewest shanten and, of those, the
-- most tiles accepted (mahjong.discards), declares riichi as soon as it
-- is ready, wins whenever it can, and calls nothing: a closed hand.
--
--   local efficiency = require("ludus.players.mahjong_efficiency")
--   local p = efficiency()            -- or efficiency{name = "speedy"}
--
-- It is the base of mahjong_defensive, which uses rank(view, tiles).

local mahjong = require("ludus.mahjong")

-- The tiles of the list in the order mahjong.discards ranks them (a
-- plain five before a red one of its kind), best first.
local function rank(view, tiles)
  return mahjong.ranked_discards(view:hand(), tiles)
end

return function(options)
  options = options or {}
  return {
    name = options.name or "efficiency",
    rank = rank,
    discard = function(_, view, tiles) return rank(view, tiles)[1] end,
    -- the tiles offered are those that leave the hand ready
    riichi = function(_, view, tiles) return rank(view, tiles)[1] end,
  }
end
