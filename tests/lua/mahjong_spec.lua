-- mahjong_spec.lua: ludus.mahjong from Lua: the seed's examples, every
-- request of ../shared/data/mahjong/score.jsonl as it is written, every
-- yaku with a near miss, fu, points, shanten and waits on hard cases,
-- and every kind of bad input.

local mahjong = require("ludus").mahjong
local json = require("dkjson")

local data = (os.getenv("LUDUS_DATA") or "../shared/data") .. "/mahjong/"

-- Calls check(request, expect) on every line of a reference file;
-- returns how many lines.
local function each_line(name, check)
  local f = assert(io.open(data .. name), "cannot read " .. data .. name
                   .. " (the reference data)")
  local n = 0
  for line in f:lines() do
    local d = json.decode(line)
    check(d.request, d.expect)
    n = n + 1
  end
  f:close()
  return n
end

-- The yaku of a scored hand as {name = han}.
local function yaku_of(hand, ctx)
  local r, err = mahjong.score(hand, ctx)
  assert(r, err)
  local set = {}
  for _, y in ipairs(r.yaku) do set[y.name] = y.han end
  return set, r
end

local function assert_fails(pattern, f, ...)
  local r, err = f(...)
  assert.is_nil(r)
  assert.is_string(err)
  assert.truthy(err:find(pattern, 1, true), err)
end

describe("mahjong.tiles", function()
  it("reads both forms in any order, red fives in place", function()
    local sorted = {"2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "4s",
                    "5s", "6s", "8s", "8s"}
    assert.same(sorted, mahjong.tiles("2p3p4p2m3m4m2s3s4s4s5s6s8s8s"))
    assert.same(sorted, mahjong.tiles("234p234m45688s234s"))
    assert.same(sorted, mahjong.tiles(" 234m 234p  23445688s "))
    assert.same({"0m", "5m", "0p", "1z", "7z"}, mahjong.tiles("7z0p5m0m1z"))
    assert.same({}, mahjong.tiles(""))
  end)

  it("names the position of what is wrong", function()
    assert_fails("unknown character 'x' at position 4", mahjong.tiles, "123x")
    assert_fails("'4' at position 5 of '123m45' has no suit", mahjong.tiles, "123m45")
    assert_fails("'m' at position 1 of 'm123' follows no digit", mahjong.tiles, "m123")
    assert_fails("'8z' at position 3 of '118z' is not a tile", mahjong.tiles, "118z")
    assert_fails("a fifth 1m at position 5 of '11111m'", mahjong.tiles, "11111m")
    assert_fails("a fifth 5p at position 5", mahjong.tiles, "05550p")
    assert.has_error(function() mahjong.tiles({}) end)
  end)
end)

describe("mahjong.decompose", function()
  -- The seed's four examples (manaten, dwango Advent Calendar 2021).
  it("reads the seed's hands as the seed does, once each", function()
    assert.same({{pair = "8s", melds = {"234m", "234p", "234s", "456s"}}},
                mahjong.decompose("2p3p4p2m3m4m2s3s4s4s5s6s8s8s"))
    assert.same({{pair = "8s", melds = {"234m", "123p", "234s", "456s"}}},
                mahjong.decompose("1p2p3p2m3m4m2s3s4s4s5s6s8s8s"))
    assert.same({{pair = "8s", melds = {"234m", "222p", "234s", "456s"}}},
                mahjong.decompose("2p2p2p2m3m4m2s3s4s4s5s6s8s8s"))
    assert.same({}, mahjong.decompose("2p3p5p2m3m4m2s3s4s4s5s6s8s8s"))
  end)

  it("finds every reading of hands of many triplets, and the special forms", function()
    assert.same({
      {pair = "2m", melds = {"111m", "234m", "345m", "345m"}},
      {pair = "5m", melds = {"111m", "222m", "333m", "444m"}},
      {pair = "5m", melds = {"111m", "234m", "234m", "234m"}},
      {pair = "5m", melds = {"123m", "123m", "123m", "444m"}},
    }, mahjong.decompose("11122233344455m"))
    local r = mahjong.decompose("22334455667788m")
    assert.equal(4, #r)
    assert.same({form = "chiitoitsu", pairs = {"2m", "3m", "4m", "5m", "6m", "7m", "8m"}},
                r[4])
    assert.same({{form = "kokushi"}}, mahjong.decompose("19m19p19s1234567z1m"))
    assert.same({{pair = "5z", melds = {"234m"}}}, mahjong.decompose("234m55z"))
  end)

  it("refuses a count no complete hand has", function()
    assert_fails("13 tiles in '123m456p789s1234z', expected 14", mahjong.decompose,
                 "123m456p789s1234z")
    assert_fails("unknown character", mahjong.decompose, "123m456p789s1234y")
  end)
end)

describe("mahjong.shanten", function()
  it("agrees with every line of shanten.jsonl", function()
    assert.equal(400, each_line("shanten.jsonl", function(req, e)
      local h = req.hand
      assert.equal(e.shanten, mahjong.shanten(h), h)
      assert.equal(e.regular, mahjong.shanten(h, "regular"), h)
      assert.equal(e.chiitoitsu, mahjong.shanten(h, "chiitoitsu"), h)
      assert.equal(e.kokushi, mahjong.shanten(h, "kokushi"), h)
    end))
  end)

  it("knows the hard cases", function()
    assert.equal(-1, mahjong.shanten("11122233344455m"))
    assert.equal(0, mahjong.shanten("111222333m444p5z"))
    assert.equal(1, mahjong.shanten("1111m234p567p789s"))     -- 1m would be the fifth
    assert.equal(1, mahjong.shanten("1111m2233p4455s66z", "chiitoitsu"))
    assert.equal(0, mahjong.shanten("19m19p19s1234567z"))
    assert.equal(0, mahjong.shanten("19m19p19s1234567z", "kokushi"))
    assert.equal(6, mahjong.shanten("19m19p19s1234567z", "chiitoitsu"))
    assert.equal(0, mahjong.shanten("234m5z"))                 -- three melds called
    assert.equal(-1, mahjong.shanten("55z"))
  end)

  it("refuses bad hands and forms", function()
    assert_fails("12 tiles in", mahjong.shanten, "123m456p789s123z")
    assert_fails("chiitoitsu needs 13 or 14 tiles (got 10)", mahjong.shanten,
                 "123m456p789s1z", "chiitoitsu")
    assert.has_error(function() mahjong.shanten("123m456p789s1234z", "pairs") end)
  end)
end)

describe("mahjong.waits and discards", function()
  it("agree with every line of waits.jsonl", function()
    assert.equal(200, each_line("waits.jsonl", function(req, e)
      local h = req.hand
      local waits, counts, total, shanten = mahjong.waits(h)
      assert.same(e.waits, waits, h)
      assert.same(e.ukeire, counts, h)
      assert.equal(e.ukeire_total, total, h)
      assert.equal(e.shanten, shanten, h)
    end))
  end)

  it("never waits on a tile held four times", function()
    assert.same({"6m", "8m", "9m"}, (mahjong.waits("7777899m456p999s")))
    assert.same({}, (mahjong.waits("1111m234p567p789s")))
    local waits, _, total = mahjong.waits("1112345678999m")
    assert.equal(9, #waits)
    assert.equal(23, total)
  end)

  it("lists each discard with its ukeire, best first", function()
    local d = mahjong.discards("234m234p234s4566s7z")
    assert.equal(12, #d)
    assert.same({discard = "7z", shanten = 0, accepted = {"3s", "6s"},
                 counts = {["3s"] = 3, ["6s"] = 2}, total = 5}, d[1])
    for i = 2, #d do
      assert.truthy(d[i - 1].shanten < d[i].shanten or
                    (d[i - 1].shanten == d[i].shanten and d[i - 1].total >= d[i].total))
    end
  end)

  it("ranks the tiles to let go in the order of discards, a plain five before a red one", function()
    local hands = {"234m234p234s4566s7z", "123m05p789s11z4566z", "1350m22p4067s0p789s",
                   "19m19p19s12345677z"}
    for _, hand in ipairs(hands) do
      local expected = {}
      local held = {}
      for _, tile in ipairs(mahjong.tiles(hand)) do held[tile] = true end
      for _, d in ipairs(mahjong.discards(hand)) do
        if held[d.discard] then expected[#expected + 1] = d.discard end
        local red = d.discard:match("^5([mps])$")
        if red and held["0" .. red] then expected[#expected + 1] = "0" .. red end
      end
      assert.same(expected, mahjong.ranked_discards(hand), hand)
    end
    assert.same({"7z", "6s", "4s", "5s", "2s", "2m", "4m", "2p", "4p", "3s", "3m", "3p"},
                mahjong.ranked_discards("234m234p234s4566s7z"))
    -- only the tiles listed, in the same order
    assert.same({"0p", "5m", "0m", "6s"},
                mahjong.ranked_discards("1350m22p4067s0p789s", {"6s", "0m", "5m", "7z", "0p"}))
    assert.same({"5p", "0p"}, mahjong.ranked_discards("123m05p789s11z4566z", {"0p", "5p"}))
    local ok, err = pcall(mahjong.ranked_discards, "123m05p789s11z4566z", {"5p", "x"})
    assert.falsy(ok)
    assert.truthy(err:find("bad argument #2 to '[%w.]*ranked_discards' "
                           .. "%(item 2 is not a tile: x%)"), err)
  end)

  it("refuses the wrong counts", function()
    assert_fails("14 tiles in", mahjong.waits, "234m234p234s4566s7z")
    assert_fails("13 tiles in", mahjong.discards, "234m234p234s4566s")
    assert_fails("13 tiles in", mahjong.ranked_discards, "234m234p234s4566s")
  end)
end)

-- score.jsonl names errors by the Python library's codes.
local errors = {
  no_yaku = "no yaku", hand_not_winning = "not a winning hand",
  open_hand_riichi_not_allowed = "riichi with an open hand",
  ["more than 4 copies of 1m"] = "a fifth 1m",
}

describe("mahjong.score", function()
  it("agrees with every request of score.jsonl", function()
    assert.equal(456, each_line("score.jsonl", function(req, e)
      local ctx = {}
      for k, v in pairs(req) do
        if k ~= "hand" and k ~= "id" then ctx[k] = v end
      end
      local r, err = mahjong.score(req.hand, ctx)
      local id = tostring(req.id)
      if not e.ok then
        assert.is_nil(r, id)
        assert.truthy(err:find(assert(errors[e.error], e.error), 1, true), id .. ": " .. err)
      else
        assert(r, id .. ": " .. tostring(err))
        assert.equal(e.han, r.han, id)
        assert.equal(e.fu, r.fu, id)
        local got, want = {}, {}
        for _, y in ipairs(r.yaku) do got[y.name] = y.han end
        for _, y in ipairs(e.yaku) do want[y.name] = y.han end
        assert.same(want, got, id)
        local p, c = r.points, e.cost
        if p.ron then
          assert.equal(c.main + c.main_bonus, p.ron, id)
        elseif p.tsumo_all then
          assert.equal(c.main + c.main_bonus, p.tsumo_all, id)
        else
          assert.equal(c.main + c.main_bonus, p.tsumo_dealer, id)
          assert.equal(c.additional + c.additional_bonus, p.tsumo_other, id)
        end
        assert.equal(c.total, p.total, id)
      end
    end))
  end)

  it("scores the seed's hands: tanyao and pinfu, each alone, no win", function()
    local y = yaku_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", {win = "6s"})
    assert.same({pinfu = 1, tanyao = 1, sanshoku_doujun = 2}, y)
    y = yaku_of("1p2p3p2m3m4m2s3s4s4s5s6s8s8s", {win = "6s"})
    assert.same({pinfu = 1}, y)
    y = yaku_of("2p2p2p2m3m4m2s3s4s4s5s6s8s8s", {win = "6s"})
    assert.same({tanyao = 1}, y)
    assert_fails("not a winning hand", mahjong.score, "2p3p5p2m3m4m2s3s4s4s5s6s8s8s",
                 {win = "6s"})
  end)

  it("finds each yaku, and not on a near miss", function()
    -- {hand, ctx, yaku expected with its han, or false: must be absent}
    local closed = "123m456p789s23455s"
    local cases = {
      {closed, {win = "4s", riichi = true}, "riichi", 1},
      {closed, {win = "4s", double_riichi = true}, "double_riichi", 2},
      {closed, {win = "4s", double_riichi = true}, "riichi", false},
      {closed, {win = "4s", riichi = true, ippatsu = true}, "ippatsu", 1},
      {closed, {win = "4s", tsumo = true}, "menzen_tsumo", 1},
      {"234m678p234s55s", {win = "5s", tsumo = true, melds = {"pon:777z"}}, "menzen_tsumo",
       false},
      {closed, {win = "4s"}, "pinfu", 1},
      {closed, {win = "3s", riichi = true}, "pinfu", false},              -- kanchan
      {"123m456p789s234s77z", {win = "4s", riichi = true}, "pinfu", false}, -- a value pair
      {"234m456p678s23455s", {win = "4s"}, "tanyao", 1},
      {"234m456p234s55s", {win = "5s", melds = {"chi:678s"}}, "tanyao", 1},
      {"123m456p678s23455s", {win = "4s"}, "tanyao", false},
      {"112233m456p789s55s", {win = "1m"}, "iipeikou", 1},
      {"112233m55s", {win = "5s", melds = {"pon:777z", "chi:789s"}}, "iipeikou", false},
      {"123m456p789s555z11s", {win = "1s"}, "yakuhai_haku", 1},
      {"123m456p789s666z11s", {win = "1s"}, "yakuhai_hatsu", 1},
      {"123m456p789s777z11s", {win = "1s"}, "yakuhai_chun", 1},
      {"123m456p789s222z11s", {win = "1s", seat = "S", round = "E"}, "yakuhai_seat_wind", 1},
      {"123m456p789s111z11s", {win = "1s", seat = "S", round = "E"}, "yakuhai_round_wind", 1},
      {"123m456p789s222z11s", {win = "1s", seat = "W", round = "E", riichi = true},
       "yakuhai_seat_wind", false},
      {"123m456p789s55z123s", {win = "1s", riichi = true}, "yakuhai_haku", false},
      {closed, {win = "4s", tsumo = true, haitei = true}, "haitei", 1},
      {closed, {win = "4s", houtei = true}, "houtei", 1},
      {"123m789s23455s", {win = "4s", tsumo = true, rinshan = true, melds = {"ankan:4444p"}},
       "rinshan", 1},
      {closed, {win = "4s", chankan = true}, "chankan", 1},
      {"1122m3344p5566s77z", {win = "7z"}, "chiitoitsu", 2},
      {"123m789p999s11z123s", {win = "1z"}, "chanta", 2},
      {"123m789p11z", {win = "1z", melds = {"pon:999s", "chi:789s"}, seat = "E"}, "chanta", 1},
      {"234m789p999s11z123s", {win = "1z", seat = "E"}, "chanta", false},
      {"123456789m11p456s", {win = "9m"}, "ittsu", 2},
      {"456789m11p456s", {win = "9m", melds = {"chi:123m"}}, "ittsu", 1},
      {"123456m789p11p456s", {win = "9p", riichi = true}, "ittsu", false},
      {"234m456p456s55s", {win = "5s", melds = {"chi:234s"}}, "sanshoku_doujun", false},
      {"234m234p567s55s", {win = "5s", melds = {"chi:234s"}}, "sanshoku_doujun", 1},
      {"222345m222p222s55z", {win = "3m"}, "sanshoku_doukou", 2},
      {"222345m222p333s55z", {win = "3m"}, "sanshoku_doukou", false},
      {"567m11p", {win = "1p", tsumo = true,
                   melds = {"ankan:2222m", "kan:3333p", "ankan:4444s"}}, "sankantsu", 2},
      {"567m11p444s", {win = "1p", tsumo = true, melds = {"ankan:2222m", "kan:3333p"}},
       "sankantsu", false},
      {"111m222p55z", {win = "5z", melds = {"pon:333s", "pon:777z"}}, "toitoi", 2},
      {"111m234p55z", {win = "5z", melds = {"pon:333s", "pon:777z"}}, "toitoi", false},
      {"111m222p333s456m55z", {win = "4m"}, "sanankou", 2},
      {"111m222p333s456m55z", {win = "1m", riichi = true}, "sanankou", false},  -- shanpon ron
      {"555z66z123m", {win = "3m", melds = {"pon:777z", "chi:789p"}}, "shousangen", 2},
      {"555z66z123m", {win = "3m", melds = {"pon:111z", "chi:789p"}}, "shousangen", false},
      {"111m11z222z", {win = "2z", melds = {"pon:999s", "pon:111s"}}, "honroutou", 2},
      {"111m11z222z", {win = "2z", melds = {"pon:999s", "pon:222s"}}, "honroutou", false},
      {"223344m556677p88s", {win = "8s"}, "ryanpeikou", 3},
      {"223344m556677p88s", {win = "8s"}, "chiitoitsu", false},
      {"112233m456789p55s", {win = "1m"}, "ryanpeikou", false},
      {"123m789p999s11m789s", {win = "1m"}, "junchan", 3},
      {"123m789p11m789s", {win = "1m", melds = {"chi:123s"}}, "junchan", 2},
      {"123m789p999s11z789s", {win = "1z", riichi = true}, "junchan", false},
      {"123456789m11122z", {win = "2z"}, "honitsu", 3},
      {"456789m11122z", {win = "2z", melds = {"chi:123m"}}, "honitsu", 2},
      {"123456789m11p222z", {win = "2z"}, "honitsu", false},
      {"22334455667788m", {win = "8m"}, "chinitsu", 6},
      {"22345789p", {win = "3p", melds = {"chi:678p", "chi:234p"}}, "chinitsu", 5},
      {"22334455667788m", {win = "8m"}, "honitsu", false},
      {closed, {win = "4s", dora = {"2m"}}, "dora", 1},
      {closed, {win = "4s", dora = {"2m"}, ura = {"4s"}, riichi = true}, "ura_dora", 2},
      {closed, {win = "4s", ura = {"4s"}, double_riichi = true}, "ura_dora", 2},
      {closed, {win = "4s", ura = {}}, "ura_dora", false},
      {"123m456p789s23405s", {win = "4s"}, "aka_dora", 1},
      {"123m456p789s23405s", {win = "4s", rules = {aka = false}}, "aka_dora", false},
      {"123m456p789s11z222s", {win = "2s", dora = {"1s"}}, "dora", false},    -- no yaku
      -- yakuman
      {"19m19p19s1234567z1m", {win = "9m"}, "kokushi", 13},
      {"19m19p19s1234567z1m", {win = "1m"}, "kokushi_13", 26},
      {"19m19p19s1234567z1m", {win = "1m", rules = {double_yakuman = false}},
       "kokushi_13", 13},
      {"111m333p555s777s99m", {win = "7s", tsumo = true}, "suuankou", 13},
      {"111m333p555s777s99m", {win = "9m"}, "suuankou_tanki", 26},
      {"111m333p555s777s99m", {win = "7s"}, "suuankou", false},
      {"555666z234m99p", {win = "9p", melds = {"pon:777z"}}, "daisangen", 13},
      {"555666z234m99p", {win = "9p", melds = {"pon:111z"}}, "daisangen", false},
      {"111222333z44z123m", {win = "3m"}, "shousuushii", 13},
      {"111222333444z11m", {win = "1m"}, "daisuushii", 26},
      {"111222z44z123m", {win = "3m", melds = {"pon:555z"}}, "shousuushii", false},
      {"11223344556677z", {win = "7z"}, "tsuuiisou", 13},
      {"111222333z444z11m", {win = "1m"}, "tsuuiisou", false},
      {"111999m111p99p999s", {win = "9s"}, "chinroutou", 13},
      {"111999m111p99p111z", {win = "1z"}, "chinroutou", false},
      {"223344666888s66z", {win = "6z", tsumo = true}, "ryuuiisou", 13},
      {"223344666888s77z", {win = "7z", tsumo = true}, "ryuuiisou", false},
      {"11123456789999m", {win = "9m"}, "chuuren_9", 26},
      {"11123456789999m", {win = "8m"}, "chuuren", 13},
      {"11145678999m", {win = "9m", melds = {"chi:123m"}}, "chuuren", false},
      {"11m", {win = "1m", melds = {"ankan:2222m", "kan:3333p", "ankan:4444s", "kan:5555z"}},
       "suukantsu", 13},
      {closed, {win = "4s", tsumo = true, tenhou = true, seat = "E"}, "tenhou", 13},
      {closed, {win = "4s", tsumo = true, chiihou = true, seat = "S"}, "chiihou", 13},
    }
    for i, c in ipairs(cases) do
      local hand, ctx, name, han = c[1], c[2], c[3], c[4]
      local r, err = mahjong.score(hand, ctx)
      if han then
        assert(r, i .. " " .. hand .. ": " .. tostring(err))
        local y = {}
        for _, item in ipairs(r.yaku) do y[item.name] = item.han end
        assert.equal(han, y[name], i .. " " .. hand .. " " .. name)
      elseif r then
        for _, item in ipairs(r.yaku) do
          assert.is_not.equal(name, item.name, i .. " " .. hand)
        end
      else
        assert.equal("mahjong: no yaku", err, i .. " " .. hand)
      end
    end
  end)

  it("gives every yaku its Japanese name", function()
    local _, r = yaku_of("123m456p789s23455s", {win = "4s", riichi = true})
    assert.equal("立直", r.yaku[1].name_ja)
    assert.equal("平和", r.yaku[2].name_ja)
  end)

  it("counts fu", function()
    local function fu(hand, ctx) return select(2, yaku_of(hand, ctx)).fu end
    assert.equal(30, fu("123m456p789s23455s", {win = "4s"}))                -- closed ron
    assert.equal(20, fu("123m456p789s23455s", {win = "4s", tsumo = true}))  -- pinfu tsumo
    assert.equal(25, fu("1122m3344p5566s77z", {win = "7z"}))
    assert.equal(30, fu("456p678s23455s", {win = "4s", melds = {"chi:234m"}}))
    assert.equal(20, fu("456p678s23455s", {win = "4s", melds = {"chi:234m"},
                                           rules = {open_pinfu_fu = false}}))
    -- waits: kanchan, penchan, tanki +2 on top of 30
    assert.equal(40, fu("123m456p789s23455s", {win = "3s", riichi = true}))
    assert.equal(40, fu("123m456p789s12355s", {win = "3s", riichi = true}))
    assert.equal(40, fu("123m456p789s12355s", {win = "5s", riichi = true}))
    -- a double wind pair is 4: 20 + 10 + 4 = 34 -> 40
    local _, r = yaku_of("123m456p789s11z234s", {win = "4s", seat = "E", round = "E",
                                                 riichi = true})
    assert.equal(40, r.fu)
    assert.same({fu = 4, reason = "value pair 1z"}, r.fu_details[3])
    -- triplets and kans: open 555s 2, closed 999m 8, closed kan 2222p 16,
    -- open kan 1111z 16; 20 + 2 (tsumo) + 2 (tanki) = 66 -> 70
    _, r = yaku_of("999m11s", {win = "1s", tsumo = true,
                               melds = {"pon:555s", "ankan:2222p", "kan:1111z"},
                               seat = "E"})
    assert.equal(70, r.fu)
    local reasons = {}
    for _, item in ipairs(r.fu_details) do reasons[item.reason] = item.fu end
    assert.same({base = 20, tsumo = 2, ["tanki wait on 1s"] = 2,
                 ["closed triplet 999m"] = 8, ["open triplet 555s"] = 2,
                 ["closed kan 2222p"] = 16, ["open kan 1111z"] = 16}, reasons)
    -- and the other four: closed simple triplet 4, open terminal triplet 4,
    -- open simple kan 8, closed terminal kan 32; 20 + 2 + 2 = 72 -> 80
    _, r = yaku_of("444m11s", {win = "1s", tsumo = true,
                               melds = {"pon:999p", "kan:5555s", "ankan:9999m"}})
    assert.equal(80, r.fu)
    reasons = {}
    for _, item in ipairs(r.fu_details) do reasons[item.reason] = item.fu end
    assert.same({base = 20, tsumo = 2, ["tanki wait on 1s"] = 2,
                 ["closed triplet 444m"] = 4, ["open triplet 999p"] = 4,
                 ["open kan 5555s"] = 8, ["closed kan 9999m"] = 32}, reasons)
    assert.same({toitoi = 2}, (yaku_of("444m11s", {win = "1s", tsumo = true,
                 melds = {"pon:999p", "kan:5555s", "ankan:9999m"}})))
  end)

  it("pays as the tables say", function()
    local function points(hand, ctx) return select(2, yaku_of(hand, ctx)).points end
    local seed = "2p3p4p2m3m4m2s3s4s4s5s6s8s8s"
    assert.same({ron = 7700, total = 7700}, points(seed, {win = "6s"}))
    assert.same({ron = 8000, total = 8000}, points(seed, {win = "6s", rules = {kiriage = true}}))
    assert.same({ron = 5200, total = 5200}, points(seed, {win = "3s"}))
    assert.same({ron = 12000, total = 12000},
                points(seed, {win = "3s", seat = "E", dora = {"1m"}}))
    -- 1 han 30 fu tsumo: 300/500; dealer: 500 all; honba adds 100 a payer
    assert.same({tsumo_other = 300, tsumo_dealer = 500, total = 1100},
                points("123m456p789s55z123s", {win = "1s", tsumo = true}))
    assert.same({tsumo_all = 600, total = 2800},
                points("123m456p789s55z123s", {win = "1s", tsumo = true, seat = "E",
                                               honba = 1, kyoutaku = 1}))
    local _, r = yaku_of("22334455667788m", {win = "8m", riichi = true, tsumo = true,
                                               dora = {"1m", "1m"}})
    assert.equal("kazoe yakuman", r.limit)
    assert.equal(1, r.yakuman)
    _, r = yaku_of("22334455667788m", {win = "8m", riichi = true, tsumo = true,
                                         dora = {"1m", "1m"}, rules = {kazoe = false}})
    assert.equal("sanbaiman", r.limit)
    _, r = yaku_of("111222333444z11m", {win = "1m"})
    assert.equal(4, r.yakuman)
    assert.equal("yakuman", r.limit)
    assert.same({ron = 128000, total = 128000}, r.points)
  end)

  it("finds the best winning tile when none is given, and says which", function()
    local _, r = yaku_of("123m456p789s45666s", {riichi = true})
    assert.equal(2, r.han)
    assert.equal("ryanmen", r.wait)
    assert.equal("1m", r.win)      -- the first of the tiles worth as much
    assert.same({pair = "6s", melds = {"123m", "456p", "456s", "789s"}}, r.decomposition)
  end)

  it("takes an added kan as the table's views and mahjong.read write it", function()
    -- view:melds() and the kan question say kakan:, the events of
    -- mahjong.read shouminkan: both are open kans (kakan: was refused)
    local kan = mahjong.score("123m456p789s11z", {win = "1z", melds = {"kan:5555z"}})
    for _, meld in ipairs({"kakan:5555z", "shouminkan:5555z"}) do
      local r = assert(mahjong.score("123m456p789s11z", {win = "1z", melds = {meld}}))
      assert.are.equal(tostring(kan), tostring(r))
    end
  end)

  it("reads like a score sheet", function()
    local r = mahjong.score("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", {win = "6s"})
    assert.equal("pinfu                  1 han  平和\n" ..
                 "tanyao                 1 han  断幺九\n" ..
                 "sanshoku_doujun        2 han  三色同順\n" ..
                 "30 fu: base 20, closed ron 10\n" ..
                 "4 han 30 fu: ron 7700, total 7700", tostring(r))
    r = mahjong.score("123m456p789s23455s", {win = "4s", tsumo = true, seat = "S",
                                             riichi = true, ippatsu = true, dora = "2m"})
    assert.truthy(tostring(r):find("5 han 20 fu, mangan: tsumo 2000/4000, total 8000$"),
                  tostring(r))
    -- a sheet whose fields were taken away prints '?', not "(null)"
    r.yaku[1].name, r.yaku[1].name_ja, r.fu_details[1].reason = nil, nil, nil
    assert.truthy(tostring(r):find("^%?  +1 han  \n"), tostring(r))
    assert.truthy(tostring(r):find("20 fu: %? 20"), tostring(r))
  end)

  it("says what is wrong with a hand or a context", function()
    local closed = "123m456p789s23455s"
    assert_fails("no yaku", mahjong.score, "123m456p789s11z222s", {win = "2s", dora = {"1s"}})
    assert_fails("not a winning hand", mahjong.score, "123m456p789s12345z", {win = "1z"})
    assert_fails("13 concealed tiles with 0 melds, expected 14", mahjong.score,
                 "123m456p789s2345s", {win = "4s"})
    assert_fails("14 concealed tiles with 1 meld, expected 11", mahjong.score, closed,
                 {win = "4s", melds = {"chi:123p"}})
    assert_fails("five of a tile", mahjong.score, "11m456p789s234s",
                 {win = "4s", melds = {"kan:1111m"}})
    assert_fails("win must be a tile", mahjong.score, closed, {win = "9z"})
    assert_fails("the winning tile 1z is not in the hand", mahjong.score, closed, {win = "1z"})
    assert_fails("riichi with an open hand", mahjong.score, "456p789s23455s",
                 {win = "4s", melds = {"chi:123m"}, riichi = true})
    assert_fails("ippatsu without riichi", mahjong.score, closed, {win = "4s", ippatsu = true})
    -- ura dora are shown to a riichi winner only: they were dropped without a word
    assert.same({nil, "mahjong: ura dora indicators without riichi"},
                {mahjong.score(closed, {win = "4s", ura = {"4s"}})})
    assert_fails("ura dora indicators without riichi", mahjong.score, closed,
                 {win = "4s", ura = "1m", riichi = false})
    assert_fails("need tsumo", mahjong.score, closed, {win = "4s", haitei = true})
    assert_fails("won by ron", mahjong.score, closed, {win = "4s", chankan = true, tsumo = true})
    assert_fails("tenhou is the dealer's", mahjong.score, closed,
                 {win = "4s", tenhou = true, tsumo = true, seat = "S"})
    assert_fails("rinshan without a kan", mahjong.score, closed,
                 {win = "4s", rinshan = true, tsumo = true})
    assert_fails("haitei and rinshan: a replacement tile", mahjong.score, "456p789s23455s",
                 {win = "4s", rinshan = true, haitei = true, tsumo = true,
                  melds = {"ankan:1111z"}})
    assert_fails("houtei and chankan: the tile of an added kan", mahjong.score, closed,
                 {win = "4s", chankan = true, houtei = true})
    -- a length from __len out of range says it, not "out of range" or 0
    local len = function(n) return setmetatable({}, {__len = function() return n end}) end
    assert_fails("at most 4 melds (got -3)", mahjong.score, closed, {win = "4s", melds = len(-3)})
    assert_fails("at most 4 melds (got 1099511627776)", mahjong.score, closed,
                 {win = "4s", melds = len(2^40)})
    assert_fails("dora: at most 10 indicators (got -1)", mahjong.score, closed,
                 {win = "4s", dora = len(-1)})
    assert_fails("meld 1 is 'chi:124m'", mahjong.score, "456p789s23455s",
                 {win = "4s", melds = {"chi:124m"}})
    assert_fails("'8z' at position 5 of 'pon:888z'", mahjong.score, "456p789s23455s",
                 {win = "4s", melds = {"pon:888z"}})
    assert_fails('seat must be "E", "S", "W" or "N" (got X)', mahjong.score, closed,
                 {win = "4s", seat = "X"})
    assert_fails("unknown field 'richi'", mahjong.score, closed, {win = "4s", richi = true})
    assert_fails("riichi must be true or false", mahjong.score, closed, {win = "4s", riichi = 1})
    assert_fails("unknown rule 'kuitan2'", mahjong.score, closed,
                 {win = "4s", rules = {kuitan2 = true}})
    assert_fails("dora must be a tile", mahjong.score, closed, {win = "4s", dora = {"10m"}})
    assert_fails("honba must be a whole number", mahjong.score, closed, {win = "4s", honba = -1})
    assert_fails("unknown character", mahjong.score, "123m456p789s2345x", {win = "4s"})
    assert.has_error(function() mahjong.score(closed, "riichi") end)
  end)
end)

describe("mahjong on random input", function()
  -- Fixed random strings and contexts: every call returns a value or nil
  -- and a message, never raises, and every message names the module.
  it("never raises and always explains", function()
    local alphabet = "0123456789mpsz  x:"
    local seed = 12345
    local function random(n)
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n + 1
    end
    local function text(len)
      local out = {}
      for i = 1, len do
        local at = random(#alphabet)
        out[i] = alphabet:sub(at, at)
      end
      return table.concat(out)
    end
    local tiles = {"1m", "5m", "0p", "9s", "7z", "8z", "", 5}
    local metas = {"chi:234m", "pon:555z", "kan:1111p", "ankan:0555s", "chi:12", 7}
    for _ = 1, 3000 do
      local hand = text(random(20) - 1)
      local ctx = {win = tiles[random(#tiles)], tsumo = random(2) == 1,
                   riichi = random(3) == 1, seat = ({"E", "S", "Q"})[random(3)],
                   dora = {tiles[random(#tiles)]}, melds = {metas[random(#metas)]}}
      if random(2) == 1 then ctx.melds = nil end
      for _, f in ipairs({mahjong.tiles, mahjong.decompose, mahjong.shanten,
                          mahjong.waits, mahjong.discards, mahjong.ranked_discards}) do
        local ok, r, err = pcall(f, hand)
        assert.truthy(ok, r)
        assert.truthy(r ~= nil or err:match("^mahjong: "), hand)
      end
      local ok, r, err = pcall(mahjong.score, hand, ctx)
      assert.truthy(ok, r)
      assert.truthy(r ~= nil or err:match("^mahjong: "), hand)
    end
    -- real hands of 13 and 14 tiles drawn from a wall
    local wall = {}
    for k = 0, 33 do
      for _ = 1, 4 do wall[#wall + 1] = (k % 9 + 1) .. ("mpsz"):sub(k // 9 + 1, k // 9 + 1) end
    end
    for _ = 1, 300 do
      for i = 1, 14 do
        local j = i - 1 + random(#wall - i + 1)
        wall[i], wall[j] = wall[j], wall[i]
      end
      local hand14 = table.concat(wall, "", 1, 14)
      local hand13 = table.concat(wall, "", 1, 13)
      local shanten = mahjong.shanten(hand14)
      local d = mahjong.discards(hand14)
      assert.equal(shanten, d[1].shanten)
      local waits = mahjong.waits(hand13)
      assert.equal(mahjong.shanten(hand13) == 0, #waits > 0)
      local r, err = mahjong.score(hand14, {win = wall[14]})
      assert.truthy(r or err == "mahjong: not a winning hand" or err == "mahjong: no yaku")
    end
  end)
end)
