-- connect4_book.lua: makes the Connect Four opening book.  The engine
-- solves the empty board and every position of the first `exact` plies,
-- and keeps the bounds it proved on every position of the first `plies`
-- plies; later solves read them from the file.  `make book` runs it for
-- 7x6, and `make install` installs what it made.
--
--   ludus scripts/examples/connect4_book.lua [path] [plies] [exact] [width] [height]
--   ludus scripts/examples/connect4_book.lua build/connect4-7x6.book 12 1
--
-- ludus loads build/connect4-7x6.book beside the ludus of a source tree,
-- share/ludus/connect4-7x6.book in an installation, or the file that
-- LUDUS_BOOK names.

local connect4 = require("ludus.connect4")

local path = arg[1] or "build/connect4-7x6.book"
local plies = tonumber(arg[2] or "12")
local exact = tonumber(arg[3] or "1")
local width = tonumber(arg[4] or "7")
local height = tonumber(arg[5] or "6")

-- The book is written at the end: say now, not a minute later, when it
-- cannot be written there.  A file that was not there is not left behind.
local existed = io.open(path, "rb")
if existed then existed:close() end
local probe, why = io.open(path, "ab")
if not probe then
  io.stderr:write("connect4_book: cannot write the book (", why, ")\n")
  os.exit(1)
end
probe:close()
if not existed then os.remove(path) end

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
