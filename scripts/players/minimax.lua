-- minimax.lua: a player that searches a few moves ahead: negamax with
-- alpha-beta pruning, in plain Lua, for any ludus game.
--
--   local minimax = require("ludus.players.minimax")
--   local p = minimax{depth = 4, eval = my_eval}
--   local move = p:choose(game)
--   print(p.info.score, p.info.nodes)
--
-- It uses only what every game object has (moves, push, pop, is_over,
-- result, turn), so it plays built-in games and games written with
-- ludus.game.define alike, and shows what ludus.ai's alpha-beta does, in
-- C and much faster.
--
-- Options:
--   depth = 4              how many plies to look ahead
--   eval(game) -> number   a position at the horizon, from the point of
--                          view of the side to move there (as ludus.ai's
--                          evals); keep it within +-900000.  Default: 0.
--
-- Scores are from the chooser's point of view: a win reached p plies
-- from now is worth 1000000 - p, so quicker wins score higher and slower
-- losses less badly, a loss -(1000000 - p), a draw 0.
--
-- After each choice, info holds move, score, nodes (positions visited)
-- and depth.

local WIN = 1000000

return function(options)
  options = options or {}
  local depth = options.depth or 4
  if math.type(depth) ~= "integer" or depth < 1 then
    error("minimax: option 'depth' must be a whole number from 1 (got "
          .. tostring(depth) .. ")", 2)
  end
  local eval = options.eval or function() return 0 end
  local nodes, search

  -- The score for 'me', whose turn it is, of playing move with 'left'
  -- plies to look ahead from here, counting 'ply' plies from the root.
  local function try(game, me, move, left, ply, alpha, beta)
    game:push(move)
    nodes = nodes + 1
    local score
    if game:is_over() then
      local winner = game:result().winner
      score = winner == nil and 0 or (winner == me and 1 or -1) * (WIN - (ply + 1))
    elseif left == 1 then
      score = (game:turn() == me and 1 or -1) * eval(game)
    elseif game:turn() == me then         -- in games where one may move twice
      score = search(game, left - 1, ply + 1, alpha, beta)
    else
      score = -search(game, left - 1, ply + 1, -beta, -alpha)
    end
    game:pop()
    return score
  end

  -- The score of a position that is not over for its side to move; a
  -- score at or below alpha or at or above beta only bounds the true one.
  function search(game, left, ply, alpha, beta)
    local me, best = game:turn(), -math.huge
    for _, move in ipairs(game:moves()) do
      best = math.max(best, try(game, me, move, left, ply, alpha, beta))
      alpha = math.max(alpha, best)
      if alpha >= beta then break end     -- the opponent will not allow this
    end
    return best
  end

  return {
    name = "minimax",
    depth = depth,
    info = {},
    choose = function(self, game)
      if game:is_over() then error("minimax: no move to choose (the game is over)", 2) end
      local me = game:turn()
      local best_move, best = nil, -math.huge
      nodes = 1
      for _, move in ipairs(game:moves()) do
        -- Only a move better than the best so far matters: alpha = best.
        local score = try(game, me, move, self.depth, 0, best, math.huge)
        if score > best then best_move, best = move, score end
      end
      self.info = {move = best_move, score = best, nodes = nodes, depth = self.depth}
      return best_move
    end,
  }
end
