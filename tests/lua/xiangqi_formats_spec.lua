-- xiangqi_formats_spec.lua: xiangqi's record files from Lua (issue 17):
-- xiangqi.read yields one record at a time from PGN, EPD and FEN lines,
-- files or text, in any encoding; a bad record gives false and a
-- message and the reading goes on; xiangqi.write and g:pgn write them
-- back; load takes one PGN game.

local xiangqi = require("ludus.xiangqi")
local support = require("support")
local assert_raises = support.assert_raises

local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/xiangqi/pgn/"
local START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

local function slurp(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  return text
end

local function spill(text)
  local path = os.tmpname()
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

-- Every record of a source: the good ones and the messages of the bad.
local function read_all(source, options)
  local records, errors = {}, {}
  for record, message in xiangqi.read(source, options) do
    if record then records[#records + 1] = record
    else errors[#errors + 1] = message end
  end
  return records, errors
end

local PGN = table.concat({
  '[Event "first"]', '[Red "Hu Ronghua"]', '[Result "1-0"]', "",
  "1. 炮二平五 马８进７ 2. 马二进三 {a comment} 车９平８ (2... c6c5) 1-0", "",
  '[Event "second"]', "", "1. h2e2 h9g7 2. h2e2 *", "",
  '[Event "third"]', "", "1. C2.5 H8+7 *", "",
}, "\n")

describe("xiangqi.read", function()
  it("yields one record at a time, with the game after its moves", function()
    local next_record = xiangqi.read(PGN)
    local first = next_record()
    assert.equal("text#1", first.id)
    assert.equal(1, first.line)
    assert.equal("1-0", first.result)
    assert.equal(4, first.moves)
    assert.equal("utf-8", first.encoding)
    assert.same({Event = "first", Red = "Hu Ronghua", Result = "1-0"}, first.tags)
    assert.same({"h2e2", "h9g7", "h0g2", "i9h9"}, first.game:history())
    assert.equal("red", first.game:turn())
    local ok, message, partial = next_record()
    assert.is_false(ok)
    assert.equal("xiangqi: text#2 (line 9): illegal move 'h2e2' at ply 3 (there "
                 .. "is no piece on h2)", message)
    assert.same({"h2e2", "h9g7"}, partial.game:history())   -- what came before
    local third = next_record()
    assert.equal("text#3", third.id)
    assert.equal("*", third.result)
    assert.same({"h2e2", "h9g7"}, third.game:history())
    assert.is_nil(next_record())
    assert.is_nil(next_record())                           -- and stays so
  end)

  it("goes on after a bad record in a for loop", function()
    local records, errors = read_all(PGN)
    assert.equal(2, #records)
    assert.equal(1, #errors)
    assert.equal("third", records[2].tags.Event)
  end)

  it("reads a file, its id the path and the game number", function()
    local path = spill(PGN)
    local records = read_all(path)
    assert.equal(path .. "#3", records[2].id)
    records = read_all(path, {name = "games"})
    assert.equal("games#1", records[1].id)
    os.remove(path)
    assert_raises({"xiangqi: cannot open '" .. path .. "'"}, xiangqi.read, path)
  end)

  it("takes CRLF, a byte-order mark and blank lines", function()
    local crlf = "\239\187\191\r\n\r\n" .. PGN:gsub("\n", "\r\n\r\n")
    local records, errors = read_all(crlf)
    assert.equal(2, #records)
    assert.equal(1, #errors)
    assert.same({"h2e2", "h9g7", "h0g2", "i9h9"}, records[1].game:history())
    assert.equal("Hu Ronghua", records[1].tags.Red)       -- no \r kept
  end)

  it("finds Big5 and GBK by itself, or takes the encoding given", function()
    local path = data .. "ccpd-masters/game001.pgn"
    local records = read_all(path)
    assert.equal(1, #records)
    assert.equal("big5", records[1].encoding)
    assert.equal("柳大華", records[1].tags.Red)
    assert.equal(51, records[1].moves)
    assert.equal("1-0", records[1].result)
    local _, errors = read_all(path, {encoding = "gbk"})
    assert.equal(1, #errors)
    assert.truthy(errors[1]:find("the line was read as GBK", 1, true))
    _, errors = read_all(path, {encoding = "utf-8"})
    assert.truthy(errors[1]:find("the line has bytes that are not UTF-8 text", 1, true))
    records = read_all(path, {encoding = "big5"})
    assert.equal(51, records[1].moves)
  end)

  it("replays every game of the ICCS file", function()
    local games, plies = 0, 0
    for record, message in xiangqi.read(data .. "iccs/Liu_Dahua_1125_UCI_games.pgn") do
      assert.truthy(record, message)
      games = games + 1
      plies = plies + record.moves
      assert.equal(record.moves, #record.game:history())
    end
    assert.equal(1125, games)
    assert.equal(101321, plies)
  end)

  it("reads EPD and FEN lines, by the content or as told", function()
    local lines = START .. " bm h2e2 C8.5; am a3a4; dm 12; id \"opening\"; acd 9;\n"
      .. "startpos moves h2e2 h9g7\n"
      .. "4k4/9/9/9/9/9/9/9/4A4/4K4 w bm e1d0;\n"
    local records, errors = read_all(lines)
    assert.equal(2, #records)
    local first = records[1]
    assert.same({"h2e2", "b2e2"}, first.bm)
    assert.same({"a3a4"}, first.am)
    assert.equal(12, first.dm)
    assert.equal("opening", first.id)
    assert.same({acd = "9"}, first.ops)
    assert.equal(START, first.game:fen())
    assert.equal("text:2", records[2].id)
    assert.same({"h2e2", "h9g7"}, records[2].game:history())
    assert.equal(1, #errors)
    assert.equal("xiangqi: text:3: illegal move 'e1d0' in bm (the generals would "
                 .. "face each other)", errors[1])
    records = read_all(START .. "\n", {format = "pgn"})     -- as told
    assert.equal(0, #records)
    records = read_all(START .. "\n", {format = "fen"})
    assert.equal(1, #records)
  end)

  it("takes the rules options of new and load", function()
    -- the same moves back and forth: a draw by repetition, with the rules on
    local function shuffle(g)
      local cycle = {"h9g7", "e2h2", "g7h9", "h2e2"}
      for i = 1, 16 do
        if g:is_over() then return g end
        g = g:move(cycle[(i - 1) % 4 + 1])
      end
      return g
    end
    assert.is_true(shuffle(read_all("1. h2e2 *\n")[1].game):is_over())
    assert.is_false(shuffle(read_all("1. h2e2 *\n", {rules = false})[1].game):is_over())
    assert.is_false(shuffle(read_all("1. h2e2 *\n", {repetition = false})[1].game):is_over())
  end)

  it("refuses bad arguments and options", function()
    assert_raises({"bad argument #1", "(string expected, got no value)"}, xiangqi.read)
    assert_raises({"xiangqi: read takes no option 'colour'"}, xiangqi.read, PGN,
                  {colour = "red"})
    assert_raises({"xiangqi: option 'format' must be one of pgn, epd, fen (got xml)"},
                  xiangqi.read, PGN, {format = "xml"})
    assert_raises({"option 'encoding' must be one of auto, utf-8, gbk, big5"},
                  xiangqi.read, PGN, {encoding = "latin1"})
    assert_raises({"option 'name' must be a string"}, xiangqi.read, PGN, {name = 3})
  end)

  it("keeps tags quoted in a comment in the comment, and cuts one left open", function()
    local quoted = '[Event "one"]\n1. h2e2 { the game it recalls:\n'
      .. '[Event "recalled"]\n[Red "x"]\n1. h2e2 h9g7 }\n1... h9g7 2. h0g2 1-0\n\n'
      .. '[Event "two"]\n1. h2e2 *\n'
    local records, errors = read_all(quoted)
    assert.same({}, errors)
    assert.equal(2, #records)
    assert.equal("one", records[1].tags.Event)
    assert.same({"h2e2", "h9g7", "h0g2"}, records[1].game:history())
    assert.equal("1-0", records[1].result)
    -- a GBK character whose second byte is a '{' is no comment's start
    records, errors = read_all((quoted:gsub('%[Red "x"%]', '[Red "\x81\x7b"]')))
    assert.same({}, errors)
    assert.same({"h2e2", "h9g7", "h0g2"}, records[1].game:history())
    -- before any game, the same
    records = read_all('{ a file of\n[Event "quoted"]\n}\n[Event "real"]\n1. h2e2 *\n')
    assert.equal(1, #records)
    assert.equal("real", records[1].tags.Event)
    -- a comment whose next brace is another comment's '{' was left open
    records, errors = read_all('[Event "open"]\n1. h2e2 { never closed\n\n'
      .. '[Event "after"]\n1. h2e2 {a comment} *\n')
    assert.equal(1, #errors)
    assert.truthy(errors[1]:find("comment '{' opened on line 2 is not closed before the "
                                 .. "next game's tags", 1, true))
    assert.equal("after", records[1].tags.Event)
    assert.same({"h2e2"}, records[1].game:history())
  end)

  it("cuts a comment left open at the next game's tags, whatever braces they hold", function()
    -- the comment of game 1 is never closed; a '}' in a later tag is the
    -- tag's text, and took game 2 into the comment as if it closed it there
    local path = os.tmpname()
    local file = assert(io.open(path, "wb"))
    file:write('[Event "one"]\n1. h2e2 { never closed\n\n'
      .. '[Event "t}wo"]\n[Site "x}y"]\n1. h2e2 h9g7 *\n\n'
      .. '[Event "three"]\n1. b2e2 *\n')
    file:close()
    local records, errors = read_all(path)
    os.remove(path)
    assert.equal(1, #errors)
    assert.truthy(errors[1]:find("(line 4): the comment '{' opened on line 2 is not closed "
                                 .. "before the next game's tags", 1, true), errors[1])
    assert.equal(2, #records)
    assert.same({"t}wo", "x}y"}, {records[1].tags.Event, records[1].tags.Site})
    assert.same({"h2e2", "h9g7"}, records[1].game:history())
    assert.same({"b2e2"}, records[2].game:history())
    -- a game quoted in a comment that does close keeps its braces in its
    -- tags, and the comment goes on to its '}', on a tag's line or after
    records, errors = read_all('[Event "one"]\n1. h2e2 { recalls:\n[Event "re}called"]\n'
      .. '[Red "x"] }\n1... h9g7 2. h0g2 1-0\n\n[Event "two"]\n1. h2e2 *\n')
    assert.same({}, errors)
    assert.equal(2, #records)
    assert.same({"h2e2", "h9g7", "h0g2"}, records[1].game:history())
    assert.equal("two", records[2].tags.Event)
  end)

  it("survives garbage, and says where", function()
    local garbage = {}
    local random = support.generator(5)
    for i = 1, 3000 do garbage[i] = string.char(random(256) - 1) end
    local text = '[Event "a"]\n1. h2e2 *\n' .. table.concat(garbage)
      .. '\n[Event "b"]\n1. h2e2 *\n'
    local records = read_all(text)
    assert.equal("a", records[1].tags.Event)
    assert.equal("b", records[#records].tags.Event)
    records = read_all("\0\1\2\n\255\254")
    assert.is_table(records)
  end)
end)

describe("xiangqi.load", function()
  it("takes one PGN game: tags, comments, a result token", function()
    local g = xiangqi.load('[Event "x"]\n\n1. 炮二平五 {c} 马８进７ 1-0\n')
    assert.same({"h2e2", "h9g7"}, g:history())
    assert.same({"h2e2", "h9g7"}, xiangqi.load("1. h2e2 h9g7 *"):history())
    assert.same({"h2e2", "h9g7"}, xiangqi.load("1. h2e2 (1. c3c4) h9g7"):history())
    assert.equal(START, xiangqi.load(START):fen())               -- as before
    local none, message = xiangqi.load("1. h2e2 1-0 1. c3c4 *")
    assert.is_nil(none)
    assert.equal("xiangqi: bad record: the text holds more than one game "
                 .. "(xiangqi.read reads them one by one)", message)
    none, message = xiangqi.load('[Event "x"]\n1. h2e2 h2e2 *')
    assert.is_nil(none)
    assert.equal("xiangqi: bad record: line 2: illegal move 'h2e2' at ply 2 "
                 .. "(there is no piece on h2)", message)
    none, message = xiangqi.load('[Event "x"]\n')
    assert.equal(0, #none:history())
    assert.is_nil(message)
  end)
end)

describe("writing", function()
  it("g:pgn writes a game in each notation, and it reads back", function()
    local g = xiangqi.load("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7")
    assert.equal(table.concat({
      '[Game "Chinese Chess"]', '[Event "test"]', '[Red "A"]', '[Result "*"]',
      '[Format "ICCS"]', "", "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *", "", ""},
      "\n"), g:pgn{tags = {Red = "A", Event = "test"}})
    local chinese = g:pgn{notation = "chinese", result = "1/2-1/2"}
    assert.truthy(chinese:find("1. 炮二平五 马８进７\n2. 马二进三 车９平８\n", 1, true))
    assert.truthy(chinese:find("\n1/2-1/2\n", 1, true))
    for _, notation in ipairs({"iccs", "wxf", "chinese"}) do
      local back = read_all(g:pgn{notation = notation})[1]
      assert.same(g:history(), back.game:history())
    end
    local from = xiangqi.load("3k5/9/9/9/9/9/9/9/4R4/4K4 b moves d9d8 e1d1")
    local text = from:pgn()
    assert.truthy(text:find('[FEN "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1"]', 1, true))
    assert.truthy(text:find("1... d9d8 2. e1d1 1-0", 1, true))    -- mate: 1-0
    assert_raises({"result must be"}, g.pgn, g, {result = "red"})
    assert_raises({"tag name 'a b' is not a name"}, g.pgn, g, {tags = {["a b"] = "x"}})
    assert_raises({"pgn takes no option 'style'"}, g.pgn, g, {style = 1})
  end)

  it("writes records to a file that reads back the same", function()
    local path = os.tmpname() .. ".pgn"
    local records = read_all(PGN)
    assert.equal(2, xiangqi.write(path, records, {notation = "chinese"}))
    local back = read_all(path)
    assert.equal(2, #back)
    for i = 1, 2 do
      assert.same(records[i].game:history(), back[i].game:history())
      assert.equal(records[i].result, back[i].result)
      assert.equal(records[i].tags.Event, back[i].tags.Event)
    end
    -- straight from read: the bad record is left out
    assert.equal(2, xiangqi.write(path, xiangqi.read(PGN)))
    assert.equal(2, #read_all(path))
    -- one game alone
    assert.equal(1, xiangqi.write(path, xiangqi.load("h2e2")))
    assert.same({"h2e2"}, read_all(path)[1].game:history())
    os.remove(path)
    local none, message = xiangqi.write("/nonexistent/folder/x.pgn", records)
    assert.is_nil(none)
    assert.truthy(message:find("xiangqi: cannot write '/nonexistent/folder/x.pgn'", 1, true))
    assert_raises({"a record must be a xiangqi game"}, xiangqi.write, path, {1, 2})
  end)

  it("writes EPD and FEN lines", function()
    local path = os.tmpname() .. ".epd"
    local lines = START .. " bm h2e2; id \"one\";\nstartpos moves h2e2 h9g7\n"
    local records = read_all(lines)
    assert.equal(2, xiangqi.write(path, records))
    assert.equal("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - "
                 .. "bm h2e2; id \"one\";\n"
                 .. "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - "
                 .. "moves h2e2 h9g7; id \"text:2\";\n", slurp(path))
    local back = read_all(path)
    assert.same({"h2e2"}, back[1].bm)
    assert.equal("one", back[1].id)
    assert.same({"h2e2", "h9g7"}, back[2].game:history())
    assert.equal(2, xiangqi.write(path, records, {format = "fen", notation = "wxf"}))
    assert.equal(START .. "\n" .. START .. " moves C2.5 H8+7\n", slurp(path))
    assert_raises({"bm move h2h8 is not a legal move here (a cannon cannot go "
                   .. "from h2 to h8)"}, xiangqi.write, path,
                  {game = xiangqi.new(), bm = {"h2h8"}})
    os.remove(path)
  end)

  it("writes UTF-8 only, and raises for a text that is not", function()
    local path = os.tmpname() .. ".pgn"
    local f = assert(io.open(path, "wb"))
    f:write("KEEP")
    f:close()
    -- a Latin-1 name would come back read as GBK, another name
    assert_raises({"tag 'Event' is not UTF-8 text"}, xiangqi.write, path,
                  {{game = xiangqi.new(), tags = {Event = "caf\233"}}})
    assert_raises({"tag 'Event' is not UTF-8 text"}, xiangqi.new().pgn,
                  xiangqi.new(), {tags = {Event = "caf\233"}})
    assert_raises({"id must be a line of UTF-8 text"}, xiangqi.write, path,
                  {{game = xiangqi.new(), id = "caf\233"}}, {format = "epd"})
    assert_raises({"operation 'c0' must be UTF-8 text"}, xiangqi.write, path,
                  {{game = xiangqi.new(), ops = {c0 = "\"\255\""}}}, {format = "epd"})
    assert.equal("KEEP", slurp(path))
    assert.equal(1, xiangqi.write(path, {{game = xiangqi.new(), tags = {Event = "café"}}}))
    assert.equal("café", read_all(path)[1].tags.Event)
    os.remove(path)
  end)

  it("writes back an operation whose string holds a ';'", function()
    local path = os.tmpname() .. ".epd"
    local record = read_all(START .. " c0 \"a; b\"; c1 x;\n")[1]
    assert.same({c0 = "\"a; b\"", c1 = "x"}, record.ops)
    assert.equal(1, xiangqi.write(path, {record}))
    assert.same(record.ops, read_all(path)[1].ops)
    -- a ';' outside a string would end the operation there
    for _, operands in ipairs({"a; b", "\"a; b", "\"a\" ; b", "a\nb"}) do
      assert_raises({"operation 'c0' must be UTF-8 text on one"}, xiangqi.write,
                    path, {game = xiangqi.new(), ops = {c0 = operands}})
    end
    os.remove(path)
  end)
end)

describe("record files and hostile Lua", function()
  it("keep the text while an iterator lives, and free it when dropped", function()
    local next_record = xiangqi.read(PGN .. ("\n"):rep(10))   -- a string of its own
    collectgarbage()
    collectgarbage()
    assert.equal("first", next_record().tags.Event)
    next_record = nil                                        -- mid-file: its reader goes
    collectgarbage()
    assert.is_nil(next_record)
  end)

  it("write nothing when a record or the iterator raises", function()
    local path = os.tmpname()
    os.remove(path)
    local calls = 0
    assert_raises({"boom"}, xiangqi.write, path .. ".pgn", function()
      calls = calls + 1
      if calls == 2 then error("boom") end
      return xiangqi.new()
    end)
    assert.is_nil(io.open(path .. ".pgn"))
    local trap = setmetatable({}, {__index = function() error("trap") end})
    assert_raises({"trap"}, xiangqi.write, path .. ".pgn", {trap})
    assert_raises({"trap"}, xiangqi.new().pgn, xiangqi.new(), trap)
    assert_raises({"trap"}, xiangqi.read, PGN, trap)
    assert.is_nil(io.open(path .. ".pgn"))
  end)

  it("take a game that changes afterwards as it was when written", function()
    local g = xiangqi.load("h2e2 h9g7")
    local text = g:pgn()
    g:push("h0g2")
    assert.truthy(text:find("1. h2e2 h9g7 *", 1, true))
    assert.truthy(g:pgn():find("1. h2e2 h9g7 2. h0g2 *", 1, true))
  end)
end)
