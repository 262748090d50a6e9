-- greedy.lua: a player that looks one move ahead.
--
--   local greedy = require("ludus.players.greedy")
--   local p = greedy{eval = function(game) return 0 end, seed = 1}
--   local move = p:choose(game)
--
-- It tries each legal move: a move that wins at once is played; one that
-- loses at once (as completing a line does in misere tic-tac-toe) is
-- played only when all do.  The others are scored by eval.
--
-- Options:
--   eval(game) -> number   the position after a move, from the point of
--                          view of the side to move there, as ludus.ai's
--                          evals score: when that is the opponent, the
--                          player picks the move whose eval is lowest.
--                          Default: 0 for every move.
--   seed (integer)         breaks ties between equally scored moves at
--                          random, reproducibly; without it the first of
--                          them (in the order of game:moves()) is played.

local WIN = math.huge

return function(options)
  options = options or {}
  local eval = options.eval or function() return 0 end
  local state = options.seed       -- of a linear congruential generator
  if state ~= nil and math.type(state) ~= "integer" then
    error("greedy: option 'seed' must be an integer (got " .. tostring(state) .. ")", 2)
  end

  return {
    name = "greedy",
    info = {},
    choose = function(self, game)
      local me = game:turn()
      local best, ties, best_score = nil, 0, -WIN
      for _, move in ipairs(game:moves()) do
        game:push(move)
        local score
        if game:is_over() then
          local winner = game:result().winner
          score = winner == nil and 0 or winner == me and WIN or -WIN
        else
          score = game:turn() == me and eval(game) or -eval(game)
        end
        game:pop()
        if score == WIN then
          self.info = {move = move, score = score}
          return move
        end
        -- Of n equal moves, each is kept with chance 1/n: a fair choice.
        if score > best_score or best == nil then
          best, best_score, ties = move, score, 1
        elseif score == best_score and state then
          ties = ties + 1
          state = state * 6364136223846793005 + 1442695040888963407
          if (state >> 33) % ties == 0 then best = move end
        end
      end
      if best == nil then error("greedy: no move to choose (the game is over)", 2) end
      self.info = {move = best, score = best_score}
      return best
    end,
  }
end
