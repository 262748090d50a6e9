-- misere_tictactoe.lua: tic-tac-toe where three in a row loses.
--
--   local misere = require "ludus.variants.misere_tictactoe"
--   local g = misere.load("a1 a2 b1 b2 c3 c2")
--   print(g:result().winner)   --> x, since o made the row a2 b2 c2
--
-- The moves, the board and its hash are those of ludus.tictactoe: each
-- position of this game is a ludus.tictactoe game object, which pushes
-- and pops in C.  Only the result is turned round: the side that
-- completes a line is the loser, and a full board is still a draw.

local tictactoe = require("ludus").tictactoe

local OTHER = {x = "o", o = "x"}

return require("ludus").game.define{
  name = "misere_tictactoe",
  sides = {"x", "o"},
  new = function() return tictactoe.new() end,
  -- Once the game is over tictactoe says nil; the searches still ask.
  turn = function(t) return t:turn() or (#t:history() % 2 == 0 and "x" or "o") end,
  moves = function(t) return t:moves() end,
  push = function(t, move) t:push(move) end,
  pop = function(t) t:pop() end,
  is_over = function(t) return t:is_over() end,
  result = function(t) return {winner = OTHER[t:result().winner]} end,
  hash = function(t) return t:hash() end,
  copy = function(t) return t:copy() end,
  -- tictactoe's drawing, with its last line ("x won") told the other way.
  tostring = function(t)
    local board, last = tostring(t):match("^(.*\n)(.-)$")
    local side = last:match("^(%a) won$")
    return board .. (side and OTHER[side] .. " won" or last)
  end,
}
