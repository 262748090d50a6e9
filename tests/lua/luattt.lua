-- luattt.lua: tic-tac-toe written as a ludus.game.define spec, the
-- fixture for the specs of the Lua bridge.  Squares and move order are
-- those of ludus.tictactoe (a1 bottom left, row by row), so the two can
-- be compared position by position.  style "push" makes and unmakes in
-- place; style "play" returns new positions.

local NAMES = {"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}
local INDEX = {}
for i, name in ipairs(NAMES) do INDEX[name] = i end
local LINES = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {1, 4, 7}, {2, 5, 8}, {3, 6, 9},
               {1, 5, 9}, {3, 5, 7}}

local function winner(s)
  for _, line in ipairs(LINES) do
    local a = s.cells[line[1]]
    if a and a == s.cells[line[2]] and a == s.cells[line[3]] then return a end
  end
  return nil
end

return function(style, name)
  local spec = {
    name = name or "luattt",
    sides = {"x", "o"},
    new = function() return {cells = {}, n = 0, stack = {}} end,
    turn = function(s) return s.n % 2 == 0 and "x" or "o" end,
    moves = function(s)
      local out = {}
      for i = 1, 9 do
        if not s.cells[i] then out[#out + 1] = NAMES[i] end
      end
      return out
    end,
    is_over = function(s) return winner(s) ~= nil or s.n == 9 end,
    result = function(s) return {winner = winner(s)} end,
    hash = function(s)
      local h = 0
      for i = 1, 9 do
        h = h * 3 + (s.cells[i] == "x" and 1 or s.cells[i] == "o" and 2 or 0)
      end
      return h
    end,
  }
  if style == "play" then
    spec.play = function(s, m)
      local cells = table.move(s.cells, 1, 9, 1, {})
      cells[INDEX[m]] = s.n % 2 == 0 and "x" or "o"
      return {cells = cells, n = s.n + 1}
    end
  else
    spec.push = function(s, m)
      local i = INDEX[m]
      s.cells[i] = s.n % 2 == 0 and "x" or "o"
      s.n = s.n + 1
      s.stack[s.n] = i
    end
    spec.pop = function(s)
      s.cells[s.stack[s.n]] = nil
      s.stack[s.n] = nil
      s.n = s.n - 1
    end
  end
  return spec
end
