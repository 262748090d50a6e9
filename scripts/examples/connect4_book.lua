-- connect4_book.lua: makes the Connect Four opening book.  The engine
-- solves the empty board and every position of the first `exact` plies,
-- and keeps the bounds it proved on every position of the first `plies`
-- plies; later solves read them from the file.  `make book` runs it for
-- 7x6.
--
--   ludus scripts/examples/connect4_book.lua [path] [plies] [exact] [width] [height]
--   ludus scripts/examples/connect4_book.lua build/connect4-7x6.book 12 1

local connect4 = require("ludus.connect4")

local path = arg[1] or "build/connect4-7x6.book"
local plies = tonumber(arg[2] or "12")
local exact = tonumber(arg[3] or "1")
local width = tonumber(arg[4] or "7")
local height = tonumber(arg[5] or "6")

local started = os.time()
print(string.format("connect4: a book of %d plies (%d exact) for %dx%d in %s",
                    plies, exact, width, height, path))
local info, err = connect4.make_book(path, {
  plies = plies, exact = exact, width = width, height = height,
  progress = function(lower, upper, nodes)
    print(string.format("  %6d s  %14d nodes  score in [%d, %d]",
                        os.time() - started, nodes, lower, upper))
    io.stdout:flush()
  end,
})
if not info then
  io.stderr:write(err, "\n")
  os.exit(1)
end
print(string.format("%s: %d positions, %.0f s, %d nodes", info.path,
                    info.entries, info.seconds, info.nodes))
