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
-- high bits are the output: state * A + C, and (state >> 33) % n picks
-- one of n.  Each answer steps it once, written out in each function:
-- a table of random players asks a thousand questions a hanchan.
local A, C = 6364136223846793005, 1442695040888963407

return function(options)
  options = options or {}
  local state = options.seed or 1
  if math.type(state) ~= "integer" then
    error("mahjong_random: option 'seed' must be an integer (got " .. tostring(state) .. ")", 2)
  end
  -- one of the list, or (with `none`) nothing, each as likely
  local function any(list, none)
    state = state * A + C
    return list[(state >> 33) % (#list + (none and 1 or 0)) + 1]
  end
  local function coin()
    state = state * A + C
    return (state >> 33) % 2 == 0
  end
  return {
    name = options.name or "random",
    discard = function(_, _, tiles)
      state = state * A + C
      return tiles[(state >> 33) % #tiles + 1]
    end,
    riichi = function(_, _, tiles) return any(tiles, true) end,
    call = function(_, _, calls) return any(calls, true) end,
    kan = function(_, _, kans) return any(kans, true) end,
    tsumo = coin,
    ron = coin,
    nine_terminals = coin,
  }
end
