-- minimal_sudoku.lua: a minimal puzzle made one given at a time, in a run
-- that may be stopped and taken up again.
--
--   ./ludus tools/minimal_sudoku.lua SIZE SEED CLUES STATE
--
-- Starts from sudoku.generate{size=SIZE, seed=SEED, clues=CLUES} (a
-- unique puzzle with CLUES givens, made quickly), then tries each given
-- in an order drawn from SEED: taken away when the puzzle keeps one
-- solution, put back otherwise.  A given that must stay at one point must
-- stay later too (fewer givens, more solutions), so one pass leaves a
-- minimal puzzle.  This is what sudoku.generate{minimal=true} does in
-- one call; on 36x36 a check near the end takes seconds to a minute, so
-- the whole takes hours, and STATE keeps the work: after each check it
-- holds the next given to try and the puzzle so far.  Run again with the
-- same STATE to go on; when every given was tried, the last line of
-- STATE is the minimal puzzle.

local size, seed, clues, state = tonumber(arg[1]), tonumber(arg[2]),
                                 tonumber(arg[3]), arg[4]
if not (size and seed and clues and state) then
  io.stderr:write("usage: ludus tools/minimal_sudoku.lua SIZE SEED CLUES STATE\n")
  os.exit(2)
end

local puzzle, next_given
local f = io.open(state)
if f then
  local first, text = f:read("l", "l")
  f:close()
  next_given = tonumber(first)
  puzzle = text and sudoku.parse(text)
  if not (next_given and puzzle) then
    io.stderr:write(state, ": not a state this tool wrote\n")
    os.exit(1)
  end
else
  puzzle = sudoku.generate{size = size, seed = seed, clues = clues}
  next_given = 1
end

-- the givens of the starting puzzle, in an order drawn from the seed
-- (a 64-bit linear congruential generator, so that every Lua gives it)
local start = sudoku.generate{size = size, seed = seed, clues = clues}
local order = {}
for r = 1, size do
  for c = 1, size do
    if start:get(r, c) ~= 0 then order[#order + 1] = {r, c} end
  end
end
local x = seed
for i = #order, 2, -1 do
  x = x * 6364136223846793005 + 1442695040888963407
  local j = 1 + ((x >> 33) % i)
  order[i], order[j] = order[j], order[i]
end

local function save(i)
  local tmp = state .. ".tmp"
  local out = assert(io.open(tmp, "w"))
  out:write(i, "\n", puzzle:to_string(), "\n")
  out:close()
  assert(os.rename(tmp, state))
end

for i = next_given, #order do
  local r, c = order[i][1], order[i][2]
  local v = puzzle:get(r, c)
  puzzle:set(r, c, 0)
  local t = os.clock()
  local unique = puzzle:count(2) == 1
  if not unique then puzzle:set(r, c, v) end
  io.stderr:write(string.format("%d/%d (%d,%d) %s %.2f s, %d givens\n", i,
    #order, r, c, unique and "out" or "kept", os.clock() - t, puzzle:givens()))
  save(i + 1)
end
print(puzzle:to_string())
