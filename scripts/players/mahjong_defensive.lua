-- mahjong_defensive.lua: a mahjong player that plays like
-- mahjong_efficiency until another seat declares riichi, then folds: it
-- discards the safest tile it holds against every riichi, first the
-- genbutsu (tiles that riichi seat discarded: it cannot win on them),
-- then suji (a 1, 2 or 3 whose 4, 5 or 6 it discarded, a 4, 5 or 6 with
-- both its sujis discarded, a 7, 8 or 9 whose 4, 5 or 6 it discarded),
-- then the rest, honors before numbers; among equals, the one
-- mahjong.discards ranks best.  It declares no riichi of its own while
-- it folds.
--
--   local defensive = require("ludus.players.mahjong_defensive")
--   local p = defensive()

local efficiency = require("ludus.players.mahjong_efficiency")

local GENBUTSU, SUJI, HONOR, OTHER = 3, 2, 1, 0

-- "0m" (a red five) is a 5m for safety.
local function kind(tile)
  return (tile:gsub("^0", "5"))
end

local function safety(tile, discarded)
  local t = kind(tile)
  if discarded[t] then return GENBUTSU end
  local n, suit = t:match("^(%d)([mps])$")
  if not n then return HONOR end
  n = tonumber(n)
  local low = n > 3 and discarded[(n - 3) .. suit]
  local high = n < 7 and discarded[(n + 3) .. suit]
  if (n <= 3 and high) or (n >= 7 and low) or (low and high) then return SUJI end
  return OTHER
end

return function(options)
  options = options or {}
  local base = efficiency(options)
  local player = {name = options.name or "defensive"}

  -- The kinds each other seat in riichi discarded, or nil when none is.
  local function threats(view)
    local list
    for seat = 0, 3 do
      if seat ~= view:seat() and view:riichi(seat) then
        local discarded = {}
        for _, tile in ipairs(view:discards(seat)) do discarded[kind(tile)] = true end
        list = list or {}
        list[#list + 1] = discarded
      end
    end
    return list
  end

  function player.discard(_, view, tiles)
    local ranked = base.rank(view, tiles)
    local against = threats(view)
    if not against then return ranked[1] end
    local best, best_safety = nil, -1
    for _, tile in ipairs(ranked) do
      local least = GENBUTSU
      for _, discarded in ipairs(against) do
        least = math.min(least, safety(tile, discarded))
      end
      if least > best_safety then best, best_safety = tile, least end
    end
    return best
  end

  function player.riichi(_, view, tiles)
    if threats(view) then return nil end
    return base.rank(view, tiles)[1]
  end

  return player
end
