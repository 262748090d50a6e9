-- random.lua: a player that picks any legal move, each as likely.
--
--   local random = require("ludus.players.random")
--   local p = random{seed = 7}
--   local move = p:choose(game)          -- game: any ludus game object
--
-- Option seed (an integer, default 1): the same seed gives the same moves
-- in the same positions, so a match against this player can be replayed.
-- The generator is the player's own, not math.random, so nothing else in
-- the program changes what it plays.

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
    error("random: option 'seed' must be an integer (got " .. tostring(seed) .. ")", 2)
  end
  local below = generator(seed)
  return {
    name = "random",
    info = {},
    choose = function(self, game)
      local moves = game:moves()
      if #moves == 0 then error("random: no move to choose (the game is over)", 2) end
      local move = moves[below(#moves)]
      self.info = {move = move, choices = #moves}
      return move
    end,
  }
end
