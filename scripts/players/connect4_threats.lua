-- connect4_threats.lua: a Connect Four player that follows three rules of
-- thumb, and a model for a player that knows one game.
--
--   local threats = require("ludus.players.connect4_threats")
--   local p = threats()                  -- or threats{width = 9}
--   local move = p:choose(ludus.connect4.new())   --> "4"
--
--   1. Win at once when a move does.
--   2. Otherwise play a move after which the opponent cannot win at once.
--      When the opponent threatens to win in some column, the only such
--      move is to drop there: a block.  And a move that fills the cell
--      just under an opponent's threat is never one: it would let the
--      opponent win on top.  When no move is safe, the game is lost; it
--      plays the move that leaves the opponent the fewest wins.
--   3. Among equal moves, the one nearest the centre column; the left
--      one of two as near.
--
-- Option width (default 7): the board's width, to know where the centre
-- is.  Moves are column numbers, "1" at the left, as ludus.connect4 names
-- them.  After each choice, info holds move, reason ("win", "safe" or
-- "lost") and threats (the opponent's wins the move leaves).

-- The moves that win at once for the side to move.
local function winning_moves(game)
  local me, list = game:turn(), {}
  for _, move in ipairs(game:moves()) do
    game:push(move)
    if game:is_over() and game:result().winner == me then list[#list + 1] = move end
    game:pop()
  end
  return list
end

return function(options)
  options = options or {}
  local width = options.width or 7
  if math.type(width) ~= "integer" or width < 1 then
    error("connect4_threats: option 'width' must be a whole number from 1 (got "
          .. tostring(width) .. ")", 2)
  end
  local centre = (width + 1) / 2

  return {
    name = "connect4_threats",
    info = {},
    choose = function(self, game)
      if game:is_over() then
        error("connect4_threats: no move to choose (the game is over)", 2)
      end
      local win = winning_moves(game)[1]
      if win then
        self.info = {move = win, reason = "win", threats = 0}
        return win
      end
      local best, best_threats, best_distance
      for _, move in ipairs(game:moves()) do
        game:push(move)
        local threats = game:is_over() and 0 or #winning_moves(game)
        game:pop()
        local column = math.tointeger(tonumber(move))
        if not column then
          error(("connect4_threats: plays Connect Four only (move '%s' is not a column)")
                :format(tostring(move)), 2)
        end
        local distance = math.abs(column - centre)
        if best == nil or threats < best_threats
            or (threats == best_threats and distance < best_distance) then
          best, best_threats, best_distance = move, threats, distance
        end
      end
      self.info = {move = best, reason = best_threats == 0 and "safe" or "lost",
                   threats = best_threats}
      return best
    end,
  }
end
