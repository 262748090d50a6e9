-- mahjong.read: Tenhou's logs replayed from Lua, and bad files refused
-- with a message.
local mahjong = require("ludus").mahjong
local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/mahjong/tenhou/"

describe("mahjong.read", function()
  it("replays an mjlog game as Tenhou recorded it", function()
    local games = assert(mahjong.read(data .. "mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog"))
    assert.are.equal(1, #games)
    local g = games[1]
    assert.is_true(g.agrees)
    assert.are.same({20100, 35800, 5200, 38900}, g.scores)
    assert.are.same({-200, 160, -450, 490}, g.points)
    assert.are.equal(15, #g.rounds)
    local e = g.rounds[1].events[2]
    assert.are.equal("discard", e.type)
    assert.are.equal("4z", e.tile)
    assert.are.equal("13459m9p122347s6z", e.hand)
  end)

  it("gives the JSON form of the same game the same events", function()
    local a = assert(mahjong.read(data .. "mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog"))[1]
    local b = assert(mahjong.read(data .. "json/2010081709gm-00a9-0000-fe3371ad.json"))[1]
    assert.are.equal(#a.rounds, #b.rounds)
    for i, r in ipairs(a.rounds) do
      assert.are.equal(#r.events, #b.rounds[i].events)
      assert.are.equal(r.events[#r.events].hand, b.rounds[i].events[#r.events].hand)
    end
  end)

  it("refuses bad and truncated files with a message", function()
    local g, err = mahjong.read("/nonexistent/file.mjlog")
    assert.is_nil(g)
    assert.matches("cannot open '/nonexistent/file.mjlog' %(No such file or directory%)", err)
    -- a directory opens, and its read fails: it said "no game in"
    g, err = mahjong.read("/")
    assert.is_nil(g)
    assert.matches("cannot read '/' %(Is a directory%)", err)
    local path = os.tmpname()
    local f = assert(io.open(data .. "mjlog/double-ron.mjlog", "rb"))
    local text = f:read("a")
    f:close()
    for _, cut in ipairs({10, 4300, 7000}) do
      f = assert(io.open(path, "wb"))
      f:write(text:sub(1, cut))
      f:close()
      g, err = mahjong.read(path)
      assert.is_nil(g)
      assert.is_string(err)
    end
    -- wherever the file is cut, even in a tag or between two rounds, it
    -- is refused: what is left would replay as a whole game that agrees
    for cut = 1, #text - #"</mjloggm>\n", 37 do
      f = assert(io.open(path, "wb"))
      f:write(text:sub(1, cut))
      f:close()
      g = mahjong.read(path)
      assert.is_nil(g, "cut at " .. cut)
    end
    for _, cut in ipairs({text:find("<INIT", 2000, true) + 10,
                          text:find("/><INIT", 2000, true) + 1}) do
      f = assert(io.open(path, "wb"))
      f:write(text:sub(1, cut))
      f:close()
      g, err = mahjong.read(path)
      assert.is_nil(g)
      assert.matches("the log is cut short %(", err)
    end
    -- an mjlog's names are %-encoded; a '%' without two hex digits after
    -- it stays (it took "%4g" for the byte 4 and dropped the g)
    f = assert(io.open(path, "wb"))
    f:write((text:gsub('n0="[^"]*"', 'n0="%%4g%%E6%%97%%A5 50%%"', 1)))
    f:close()
    assert.are.equal("%4g日 50%", assert(mahjong.read(path))[1].names[1])
    f = assert(io.open(path, "wb"))
    f:write(text:gsub("<D", "<D0/><D", 1))
    f:close()
    g, err = mahjong.read(path)
    assert.is_nil(g)
    assert.matches("round E1%-0, step 2 %(discard by seat 0%): a tile not in the hand", err)
    -- a score too large for any game (found by fuzz_tenhou: 100 times it
    -- overflowed an int)
    f = assert(io.open(path, "wb"))
    f:write((text:gsub('ten="[^"]*"', 'ten="25005120,250,250,250"', 1)))
    f:close()
    g, err = mahjong.read(path)
    assert.is_nil(g)
    assert.matches("INIT without four scores", err)
    -- nor four scores whose sum overflowed an int in the round (UBSan
    -- found 4 x 9999999 hundreds); 10^8 points each are read
    for _, case in ipairs({{"9999999", false}, {"999999", true}}) do
      f = assert(io.open(path, "wb"))
      f:write((text:gsub('ten="[^"]*"', 'ten="' .. string.rep(case[1], 4, ",") .. '"', 1)))
      f:close()
      g, err = mahjong.read(path)
      assert.are.equal(case[2], g ~= nil, err)
    end
    -- a win's dora indicators: five at most (one and four kans), each
    -- list read into a place of its size
    for _, case in ipairs({{"1,2,3,4", true}, {"1,2,3,4,5", false},
                           {string.rep("1,", 16) .. "1", false}}) do
      f = assert(io.open(path, "wb"))
      f:write((text:gsub('doraHai="([^"]*)"', 'doraHai="%1,' .. case[1] .. '"', 1)))
      f:close()
      g, err = mahjong.read(path)
      if case[2] then
        assert.is_table(g, err)
      else
        assert.is_nil(g)
        assert.matches("round E1%-0: AGARI with tiles that are not tiles", err)
      end
    end
    os.remove(path)
    assert.has_error(function() mahjong.read({}) end)
  end)
end)
