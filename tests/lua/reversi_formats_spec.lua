-- reversi_formats_spec.lua: reversi.read and reversi.write: the shared
-- WTHOR files, FFO problems and GGF and transcript text as iterators of
-- records, their fields, a bad record among good ones, files written and
-- read back, Lua files, a file that changes while it is read, and every
-- wrong argument.

local reversi = require("ludus.reversi")
local support = require("support")
local assert_raises = support.assert_raises

local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/othello/"
local wthor = {
  {"wthor/WTH_2001.wtb", 5540}, {"wthor/WTH_2002.wtb", 5386},
  {"wthor/WTH_2019.wtb", 1127}, {"wthor/WTH_2020.wtb", 268},
}

-- Every record of source: the good ones, then the errors as {message, id}.
local function read_all(source, options)
  local records, errors = {}, {}
  local next_record = assert(reversi.read(source, options))
  for record, message, id in next_record do
    if record then
      records[#records + 1] = record
    else
      errors[#errors + 1] = {message, id}
    end
  end
  return records, errors
end

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

-- A scratch file, with text when given; with ext, the path of one of
-- that extension for the test to make.  The test removes it.
local function scratch(text, ext)
  local path = os.tmpname()
  if ext then
    os.remove(path)
    path = path .. ext
  end
  if text then
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
  end
  return path
end

describe("reversi.read of WTHOR files", function()
  it("replays every game of the shared files, names and counts included", function()
    local total, finished = 0, 0
    for _, file in ipairs(wthor) do
      local records, errors = read_all(data .. file[1])
      assert.same({}, errors)
      assert.equal(file[2], #records)
      total = total + #records
      for _, r in ipairs(records) do
        if r.game:is_over() then
          finished = finished + 1
          local score = r.game:result().score
          local empty = 64 - score.black - score.white
          local black = score.black > score.white and score.black + empty
            or score.black < score.white and score.black or score.black + empty // 2
          assert.equal(black, r.black_discs)
        end
      end
    end
    assert.equal(12321, total)
    assert.equal(12321 - 17, finished)
  end)

  it("gives each game's fields", function()
    local r = read_all(data .. "wthor/WTH_2001.wtb")[1]
    assert.equal(data .. "wthor/WTH_2001.wtb#1", r.id)
    assert.equal("wtb", r.format)
    assert.equal(1, r.number)
    assert.equal("Hubbard Paul", r.black)
    assert.equal("Sheean Helen", r.white)
    assert.equal("Australian National", r.tournament)
    assert.equal(2001, r.year)
    assert.equal(42, r.black_discs)
    assert.equal(24, r.depth)
    assert.is_number(r.theoretical)
    assert.is_number(r.black_index)
    assert.equal("ludus.reversi", getmetatable(r.game))
    assert.equal(r.moves, r.game:save())
    assert.equal(r.moves, table.concat(r.game:history()):gsub("pass", ""))
    assert.is_nil(r.start)
    assert.same({black = 42, white = 22}, r.game:result().score)
  end)

  it("reports a cut file, and which game", function()
    local bytes = slurp(data .. "wthor/WTH_2020.wtb")
    local path = scratch(bytes:sub(1, 16 + 3 * 68 + 20))
    local records, errors = read_all(path, {format = "wtb", name = "cut.wtb"})
    os.remove(path)
    assert.equal(3, #records)
    assert.same({{"reversi: cut.wtb: game 4 is cut short: 20 of its 68 bytes", "cut.wtb#4"}},
                errors)
  end)

  it("says so when the names beside a .wtb are not names", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert.truthy(os.execute("env -u LD_PRELOAD mkdir " .. dir))   -- no ASan for mkdir
    local wtb = dir .. "/WTH_2020.wtb"
    local f = assert(io.open(wtb, "wb"))
    f:write(slurp(data .. "wthor/WTH_2020.wtb"))
    f:close()
    f = assert(io.open(dir .. "/WTHOR.JOU", "wb"))
    f:write("not a file of names")
    f:close()
    local ok, message = pcall(reversi.read, wtb)
    os.remove(dir .. "/WTHOR.JOU")
    assert.equal(268, #read_all(wtb))              -- no names: none looked up
    os.remove(wtb)
    os.execute("env -u LD_PRELOAD rmdir " .. dir)
    assert.is_false(ok)
    assert.equal("reversi: " .. wtb .. ": the players' names: its size is not that of the "
                 .. "header's count of 20-byte names", message)
  end)

  it("reports a bad game and reads the others", function()
    local bytes = slurp(data .. "wthor/WTH_2020.wtb")
    local bad = bytes:sub(1, 16 + 68 + 8) .. "\11" .. bytes:sub(16 + 68 + 10)
    local records, errors = read_all(bad, {name = "x"})
    assert.equal(267, #records)
    assert.same({{"reversi: x: game 2: move 1 'a1' (illegal move)", "x#2"}}, errors)
  end)
end)

describe("reversi.read of other formats", function()
  it("reads FFO #1-#19 with their answers, which the solver confirms", function()
    local records, errors = read_all(data .. "fforum-1-19.obf")
    assert.same({}, errors)
    assert.equal(19, #records)
    local first = records[1]
    assert.equal(data .. "fforum-1-19.obf:1", first.id)
    assert.equal("obf", first.format)
    assert.same({g8 = 18, h1 = 12, h7 = 6, a2 = 6, a3 = 4, b1 = -4, a4 = -22, g2 = -24},
                first.answers)
    assert.equal("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
                 first.start)
    for _, r in ipairs(records) do
      assert.same(r.answers, (r.game:solve{all = true}))
    end
  end)

  it("reads GGF games, several on a line, with passes, times and another start", function()
    local text = "(;GM[Othello]PB[Ann]PW[Bob]DT[2003.12.15_13:24:03.MST]RE[+58.000:r]"
      .. "BO[8 *O------ -------- -------- -------- -------- -------- -------- ------O* *]"
      .. "B[c1/1.5/0.01]W[PA]B[f8//2];)(;GM[Othello]TY[6]B[c2]W[b2];)\r\n"
      .. "(;GM[Othello]B[f5]W[a1];)\n"
    local records, errors = read_all(text)
    assert.equal(2, #records)
    local r = records[1]
    assert.equal("text#1", r.id)
    assert.equal(1, r.line)
    assert.equal("ggf", r.format)
    assert.equal("Ann", r.black)
    assert.equal(2003, r.year)
    assert.equal(58, r.result)
    assert.equal("resigned", r.result_how)
    assert.same({"c1", "pass", "f8"}, r.game:history())
    assert.equal("c1f8", r.moves)
    assert.same({[1] = 1.5}, r.evals)
    assert.same({[1] = 0.01, [3] = 2}, r.seconds)
    assert.equal("XO" .. ("-"):rep(60) .. "OX X", r.start)
    assert.equal(6, records[2].game:size())
    assert.same({{"reversi: text: game 3 (line 2): an illegal move", "text#3"}}, errors)
  end)

  it("reads transcripts with CRLF, a byte-order mark, blank lines and comments", function()
    local text = "\239\187\191# two games\r\nf5d6c3\r\n\r\n  \n% a comment\nf5 d6 c3 x9\n"
      .. "-----OX--XO----- X a2\nf5f6\n"
    local records, errors = read_all(text)
    assert.same({"text:2", "text:7", "text:8"},
                {records[1].id, records[2].id, records[3].id})
    assert.equal("f5d6c3", records[1].moves)
    assert.equal("transcript", records[1].format)
    assert.equal(4, records[2].game:size())
    assert.equal("-----OX--XO----- X", records[2].start)
    assert.same({{"reversi: text: line 6: move 4 'x9' (not a square of this board)",
                  "text:6"}}, errors)
    -- a 6x6 file of transcripts
    assert.equal(6, read_all("c2b2\n", {size = 6})[1].game:size())
  end)

  it("guesses the format from the extension, then the content", function()
    local path = scratch("(;GM[Othello]B[f5];)")
    assert.equal("ggf", read_all(path)[1].format)
    local _, errors = read_all(path, {format = "transcript"})
    assert.equal(1, #errors)
    os.remove(path)
    assert.equal("obf", read_all(
      "---------------------------OX------XO--------------------------- X; D3:+0;")[1].format)
    assert.equal("transcript", read_all("f5\n")[1].format)
  end)

  it("reads a Lua file, and raises once it is closed", function()
    local f = assert(io.open(data .. "wthor/WTH_2019.wtb", "rb"))
    local next_record = reversi.read(f)
    assert.equal("file#1", next_record().id)
    f:close()
    assert_raises({"reversi.read: the file is closed"}, next_record)
  end)

  it("closes the file when a loop breaks, and then gives nothing", function()
    local f, s, c, closing = reversi.read(data .. "wthor/WTH_2019.wtb")
    local seen = 0
    for _ in f, s, c, closing do
      seen = seen + 1
      if seen == 2 then break end
    end
    assert.equal(2, seen)
    assert.is_nil(f())
  end)

  it("does not crash on a file that changes while it is read", function()
    local bytes = slurp(data .. "wthor/WTH_2001.wtb")     -- more than the first read
    local path = scratch(bytes)
    local next_record = reversi.read(path)
    assert.truthy(next_record())
    local f = assert(io.open(path, "wb"))        -- cut to two games and garbage
    f:write(bytes:sub(1, 16 + 2 * 68), ("\255"):rep(30))
    f:close()
    local good, bad = 1, 0
    for record in next_record do
      if record then good = good + 1 else bad = bad + 1 end
    end
    os.remove(path)
    assert.is_true(bad >= 1)
    assert.is_true(good < 5540)
    path = scratch("(;GM[Othello]B[f5];)\n(;GM[Othello]B[f5];)\n")
    next_record = reversi.read(path)
    f = assert(io.open(path, "wb"))
    f:write("\0\0\0 nothing")
    f:close()
    for _ in next_record do end
    os.remove(path)
  end)

  it("raises a message for what cannot be read, as io.lines does", function()
    -- nil and a message reached a for loop as "attempt to call a nil value"
    local function all(source) for _ in reversi.read(source) do end end
    assert_raises({"reversi: /nonexistent/x.wtb: cannot open it (No such file or directory)"},
                  all, "/nonexistent/x.wtb")
    assert_raises({"reversi: text: UTF-16 text (its byte-order mark says so): ludus "
                   .. "reads UTF-8"}, reversi.read, "\255\254f\0005\0")
    assert_raises({"reversi: text: not a WTHOR file: 5 bytes, fewer than its 16-byte "
                   .. "header"}, reversi.read, "\7\1\2\3\4")
    assert_raises({"reversi: text: binary data or UTF-16, not text (a zero byte near "
                   .. "the start)"}, reversi.read, "f5d6\0\1\2", {format = "transcript"})
    assert_raises({"reversi: /: a folder, not a file"}, reversi.read, "/")
    local ok, message = pcall(all, "/nonexistent/x.wtb")
    assert.is_false(ok)
    assert.is_nil(message:find("nil value", 1, true))
  end)

  it("raises on wrong arguments", function()
    assert_raises({"bad argument #1 to", "(path, text or file expected, got number)"},
                  reversi.read, 42)
    assert_raises({"bad argument #2"}, reversi.read, "f5", 5)
    assert_raises({"option 'format' must be"}, reversi.read, "f5", {format = "pgn"})
    assert_raises({"option 'size'"}, reversi.read, "f5", {size = 7.5})
    assert_raises({"no 5 x 5 board"}, reversi.read, "f5", {size = 5})
    assert_raises({"option 'name' must be a string"}, reversi.read, "f5", {name = 1})
  end)
end)

describe("reversi.write", function()
  it("writes the WTHOR games again, byte for byte after the header's date", function()
    local original = slurp(data .. "wthor/WTH_2019.wtb")
    local path = scratch(nil, ".wtb")
    assert.equal(1127, reversi.write(path, reversi.read(data .. "wthor/WTH_2019.wtb")))
    local copy = slurp(path)
    os.remove(path)
    assert.equal(#original, #copy)
    assert.equal(original:sub(5), copy:sub(5))     -- count, year, size, depth, games
  end)

  it("writes GGF that reads back as the same games and players", function()
    local games = read_all(data .. "wthor/WTH_2020.wtb")
    local path = scratch(nil, ".ggf")
    assert.equal(268, reversi.write(path, games))
    local back = read_all(path)
    os.remove(path)
    assert.equal(268, #back)
    for i, r in ipairs(games) do
      assert.same({r.moves, r.black, r.white, r.tournament, r.year, 2 * r.black_discs - 64},
                  {back[i].moves, back[i].black, back[i].white, back[i].place, back[i].year,
                   back[i].result})
      assert.same(r.game:history(), back[i].game:history())
    end
  end)

  it("writes games and records to a Lua file, transcripts and OBF", function()
    local f = io.tmpfile()
    local games = {reversi.new(), reversi.load("f5d6"), reversi.load("c2", {size = 6}),
                   {game = reversi.load("f5"), black = "Ann"}}
    assert.equal(4, reversi.write(f, games, {format = "transcript"}))
    f:seek("set")
    local records = read_all(f)
    assert.same({"", "f5d6", "c2", "f5"},
                {records[1].moves, records[2].moves, records[3].moves, records[4].moves})
    f:close()
    -- OBF: the answers by score, best first
    local path = scratch(nil, ".obf")
    local ffo = read_all(data .. "fforum-1-19.obf")
    assert.equal(19, reversi.write(path, ffo))
    local back = read_all(path)
    assert.equal("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; "
                 .. "G8:+18; H1:+12; A2:+6; H7:+6; A3:+4; B1:-4; A4:-22; G2:-24;",
                 io.open(path):read("l"))
    os.remove(path)
    for i = 1, 19 do assert.same(ffo[i].answers, back[i].answers) end
  end)

  it("writes a last pass, which no move after it implies", function()
    -- after d1 white has no move and passes: black is to move
    local ended = reversi.load("c4e3f3g3e6c5g2f6c6b5g6b3a2g1a4e7c3c2h1a5h3g7a6f4f5g4"
                               .. "e8f2g8c7d3d2f7g5h5b6d7h7h6d6h8h4c8b8e2a3d8a7b7a1b1"
                               .. "f1e1a8b2f8h2c1d1")
    assert.equal("white", ended:turn())
    local passed = ended:pass()
    local alone = reversi.load(ended:board_string()):pass()  -- a board string, a pass
    for _, g in ipairs({passed, alone}) do
      assert.same(g:history(), reversi.load(g:save()):history())
      local f = io.tmpfile()
      assert.equal(1, reversi.write(f, {g}, {format = "transcript"}))
      f:seek("set")
      local back = read_all(f)[1]
      f:close()
      assert.equal("black", back.game:turn())
      assert.same(g:history(), back.game:history())
    end
    assert.equal(ended:save() .. " pass", passed:save())
  end)

  it("skips what the format cannot hold and bad records, and says so", function()
    local path = scratch(nil, ".wtb")
    local count, skipped = reversi.write(path, {reversi.load("f5"), reversi.new{size = 6},
                                                false})
    assert.equal(1, count)
    assert.same({"reversi: game 2: WTHOR holds games from the 8x8 start only",
                 "reversi: game 3 was a bad record"}, skipped)
    count, skipped = reversi.write(path, reversi.read("f5\nx9\nd3\n"))
    assert.equal(2, count)
    assert.same({"reversi: text: line 2: bad board string 'x' (a board string has 16, 36 "
                 .. "or 64 cells and then the side to move)"}, skipped)
    assert.equal(2, #read_all(path))
    os.remove(path)
  end)

  it("raises when the games' iterator closes the Lua file it writes", function()
    -- closed before a game, or at the end
    for _, games in ipairs({2, 1}) do
      local f = io.tmpfile()
      local n = 0
      assert_raises({"reversi.write: the file is closed"}, reversi.write, f, function()
        n = n + 1
        if n == 2 then f:close() end
        if n <= games then return reversi.load("f5") end
      end, {format = "ggf"})
    end
  end)

  it("returns nil and a message when the file cannot be written", function()
    assert.same({nil, "reversi: /nonexistent/x.ggf: cannot create it (No such file or "
                      .. "directory)"}, {reversi.write("/nonexistent/x.ggf", {})})
  end)

  it("raises on wrong arguments, and closes the file", function()
    local path = scratch()
    assert_raises({"which format?"}, reversi.write, path, {})
    assert_raises({"bad argument #2 to", "(list of games or iterator expected"},
                  reversi.write, path .. ".ggf", 5)
    assert_raises({"game 1 must be a reversi game or a record with one (got number)"},
                  reversi.write, path .. ".ggf", {1})
    assert_raises({"game 1: field 'game' must be a reversi game (got nil)"},
                  reversi.write, path .. ".ggf", {{}})
    assert_raises({"game 1: field 'black' must be a string (got number)"},
                  reversi.write, path .. ".ggf", {{game = reversi.new(), black = 7}})
    assert_raises({"game 1: field 'year' must be a whole number from 0 to 65535"},
                  reversi.write, path .. ".ggf", {{game = reversi.new(), year = -3}})
    assert_raises({"game 1: field 'result_how'"},
                  reversi.write, path .. ".ggf", {{game = reversi.new(), result_how = "x"}})
    assert_raises({"game 1: answers must be moves"},
                  reversi.write, path .. ".obf", {{game = reversi.new(), answers = {z9 = 1}}})
    assert_raises({"trap"}, reversi.write, path .. ".ggf",
                  {setmetatable({}, {__index = function() error("trap") end})})
    assert_raises({"from a list"}, reversi.write, path .. ".ggf",
                  function() error("from a list") end)
    assert_raises({"option 'depth' must be a whole number from 0 to 60"},
                  reversi.write, path .. ".wtb", {}, {depth = 61})
    os.remove(path)
    os.remove(path .. ".ggf")
    os.remove(path .. ".obf")
    os.remove(path .. ".wtb")
  end)

  it("refuses misspelt options of read and write, naming the right ones", function()
    assert_raises({"reversi.read: unknown option 'formt' (it takes: format, size, name)"},
                  reversi.read, "f5", {formt = "transcript"})
    assert_raises({"reversi.write: unknown option 'yaer' (it takes: format, year, depth)"},
                  reversi.write, io.tmpfile(), {}, {format = "ggf", yaer = 2000})
  end)

  it("leaves the file as it was when a game of the list is bad", function()
    local path = scratch() .. ".ggf"
    assert.equal(1, reversi.write(path, {reversi.load("f5d6c3")}))
    local before = slurp(path)
    assert_raises({"game 2: field 'black' must be a string (got number)"}, reversi.write,
                  path, {reversi.load("f5"), {game = reversi.new(), black = 5}})
    assert.equal(before, slurp(path))
    os.remove(path)
    assert_raises({"game 1 must be a reversi game"}, reversi.write, path, {1})
    assert.is_nil(io.open(path))
  end)
end)
