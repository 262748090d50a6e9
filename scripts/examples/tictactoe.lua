-- tictactoe.lua: a first script.  Plays a few moves by hand, then lets the
-- solver finish the game for both sides, printing every position.
--
--   ludus scripts/examples/tictactoe.lua

local tictactoe = require("ludus.tictactoe")

local game = tictactoe.new():x("b2"):o("a1")
print(game)
print()

while not game:is_over() do
  local value, move = game:solve()
  local outlook = ({[1] = "wins", [0] = "draws", [-1] = "loses"})[value]
  print(("%s plays %s and %s with best play"):format(game:turn(), move, outlook))
  game = game:play(move)
end

print()
print(game)
print("moves: " .. game:save())
