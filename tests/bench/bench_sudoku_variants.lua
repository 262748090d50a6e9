-- bench_sudoku_variants.lua: Sudoku variants, solved in C: killer
-- puzzles (ludus.variants.killer, seeds 1..n) and X-Sudoku puzzles
-- (minimal, seeds 1..n), each counted to two solutions.  Times are CPU
-- seconds (os.clock), the time to make each set beside.
--
--   ludus tests/bench/bench_sudoku_variants.lua [n]

local sudoku = require("ludus").sudoku
local killer = require "ludus.variants.killer"
local xsudoku = require "ludus.variants.xsudoku"

local n = tonumber(arg[1]) or 50

local function run(name, make)
  local t = os.clock()
  local puzzles, givens = {}, 0
  for seed = 1, n do
    puzzles[seed] = make(seed)
    givens = givens + puzzles[seed]:givens()
  end
  local made = os.clock() - t
  t = os.clock()
  local wrong = 0
  for _, p in ipairs(puzzles) do
    if p:count(2) ~= 1 then wrong = wrong + 1 end
  end
  local solved = os.clock() - t
  print(("%-10s %5d %8.1f %6d %10.2f %10.3f %10.0f"):format(name, n, givens / n,
        wrong, made * 1e3 / n, solved * 1e3 / n, n / solved))
end

print("variants: puzzles made from seeds 1.., each counted to two solutions")
print(("%-10s %5s %8s %6s %10s %10s %10s"):format("set", "made", "givens",
      "wrong", "made ms", "solve ms", "puzzles/s"))
run("killer", function(seed) return (killer.generate{seed = seed}) end)
run("X", function(seed) return xsudoku.generate{seed = seed} end)
run("windoku", function(seed)
  return sudoku.generate{rules = sudoku.variant{windows = true}, seed = seed}
end)
run("jigsaw", function(seed)
  local regions = "112122333111222333111222333445455666444556566444555666"
                  .. "777888999777889899778788999"
  return sudoku.generate{rules = sudoku.variant{regions = regions}, seed = seed}
end)
