-- mahjong_random.lua: a mahjong player that picks any legal answer, each
-- as likely: any discard, riichi or not, any call or a pass, a win or not.
--
--   local random = require("ludus.players.mahjong_random")
--   local table = mahjong.table{players = {random{seed = 1}, random{seed = 2},
--                                          random{seed = 3}, random{seed = 4}}}
--
-- Option seed (an integer, default 1): the player's own generator, so a
-- seeded table of random players plays the same game every time.

-- A 64-bit linear congruential generator (Knuth's MMIX constants) whose
-- high bits are the output; returns a function giving an integer in 1..n.
local function generator(seed)
  local state = seed
  return function(n)
    state = state * 6364136223846793005 + 1442695040888963407
    return (state >> 33) % n + 1
  end
end

return function(options)
  options = options or {}
  local seed = options.seed or 1
  if math.type(seed) ~= "integer" then
    error("mahjong_random: option 'seed' must be an integer (got " .. tostring(seed) .. ")", 2)
  end
  local below = generator(seed)
  -- one of the list, or (with `none`) nothing, each as likely
  local function any(list, none)
    local i = below(#list + (none and 1 or 0))
    return list[i]
  end
  local function coin() return below(2) == 1 end
  return {
    name = options.name or "random",
    discard = function(_, _, tiles) return any(tiles) end,
    riichi = function(_, _, tiles) return any(tiles, true) end,
    call = function(_, _, calls) return any(calls, true) end,
    kan = function(_, _, kans) return any(kans, true) end,
    tsumo = function() return coin() end,
    ron = function() return coin() end,
    nine_terminals = function() return coin() end,
  }
end
