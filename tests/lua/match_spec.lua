-- match_spec.lua: ludus.match: Elo numbers, scores that add up, records
-- that load back, openings and their determinism, every error, progress,
-- and the example script end to end.
--
--   LUDUS_BIN_DIR=. busted --lua=lua5.4 tests/lua/match_spec.lua

require("ludus")     -- which makes the Lua parts, ludus.match among them, requirable
local match = require("ludus.match")
local tictactoe = require("ludus.tictactoe")
local connect4 = require("ludus.connect4")

local assert_raises = require("support").assert_raises

-- Players that always take the first or the last legal move: between them
-- every game is known in advance.
local function first(game) return game:moves()[1] end
local function last(game)
  local moves = game:moves()
  return moves[#moves]
end

local function named(name, choose)
  return {name = name, choose = function(_, game) return choose(game) end}
end

-- The options with the progress display off, so that a run from a
-- terminal prints nothing.
local function quiet(opts)
  opts = opts or {}
  if opts.progress == nil then opts.progress = false end
  return opts
end

-- Players wrapping 'choose_a' and 'choose_b' that keep every game as it
-- ended: finals[i] is game i's last position.
local function recording(choose_a, choose_b)
  local finals, number = {}, 0
  local function wrap(choose)
    return {name = "recorded", choose = function(_, game)
      local move = choose(game)
      finals[number] = game:play(move)
      return move
    end}
  end
  local a, b = wrap(choose_a), wrap(choose_b)
  function a.new_game() number = number + 1 end
  return a, b, finals
end

local function moves_in(record, G)
  return #assert(G.load(record)):history()
end

local function record_list(result)
  local list = {}
  for i, rec in ipairs(result.records) do list[i] = rec.record end
  return list
end

describe("match.elo", function()
  it("is 0 at a 50% score, whatever the draws", function()
    assert.equal(0, (match.elo(5, 0, 5)))
    assert.equal(0, (match.elo(2, 6, 2)))
    assert.same({0, 0, 0}, {match.elo(0, 8, 0)})   -- no spread, no interval
  end)

  it("is 400*log10(3) = 190.85 at 75%", function()
    assert.near(190.85, (match.elo(3, 0, 1)), 0.01)
    assert.near(190.85, (match.elo(2, 2, 0)), 0.01)
    assert.near(-190.85, (match.elo(1, 0, 3)), 0.01)
  end)

  it("is symmetric between the players", function()
    for _, case in ipairs({{3, 0, 1}, {60, 20, 20}, {7, 3, 12}, {10, 1, 4}}) do
      local w, d, l = table.unpack(case)
      local elo, low, high = match.elo(w, d, l)
      local elo2, low2, high2 = match.elo(l, d, w)
      assert.near(-elo2, elo, 1e-9)
      assert.near(-high2, low, 1e-9)
      assert.near(-low2, high, 1e-9)
      assert.is_true(low < elo and elo < high)
    end
  end)

  it("gives the 95% interval of the normal approximation", function()
    -- W=60 D=20 L=20 by hand: p = 0.7, per-game variance
    -- (60*0.3^2 + 20*0.2^2 + 20*0.7^2)/100 = 0.16, standard error
    -- sqrt(0.16/100) = 0.04, so p = 0.7 -/+ 1.959964*0.04.
    local p = (60 + 20 / 2) / 100
    local variance = (60 * (1 - p) ^ 2 + 20 * (0.5 - p) ^ 2 + 20 * (0 - p) ^ 2) / 100
    assert.near(0.16, variance, 1e-12)
    local se = math.sqrt(variance / 100)
    local function to_elo(x) return -400 * math.log(1 / x - 1, 10) end
    local elo, low, high = match.elo(60, 20, 20)
    assert.near(to_elo(0.7), elo, 1e-9)
    assert.near(to_elo(p - 1.959964 * se), low, 1e-9)
    assert.near(to_elo(p + 1.959964 * se), high, 1e-9)
    assert.near(147.19, elo, 0.01)
    assert.near(86.23, low, 0.01)
    assert.near(218.25, high, 0.01)
  end)

  it("clamps the interval and is infinite at 0% and 100%", function()
    assert.same({math.huge, math.huge, math.huge}, {match.elo(5, 0, 0)})
    assert.same({-math.huge, -math.huge, -math.huge}, {match.elo(0, 0, 5)})
    local elo, low, high = match.elo(3, 0, 1)   -- 0.75 + 0.42 is past 1
    assert.is_true(elo < math.huge and low > -math.huge)
    assert.equal(math.huge, high)
  end)

  it("raises with no games or a bad count", function()
    assert_raises({"bad argument to 'elo' (no games: wins + draws + losses is 0)"},
                  match.elo, 0, 0, 0)
    assert_raises({"bad argument #1 to 'elo' (non-negative number expected, got -1)"},
                  match.elo, -1, 0, 0)
    assert_raises({"bad argument #3 to 'elo'", "got nil"}, match.elo, 1, 1)
    assert_raises({"bad argument #2 to 'elo'", "got string"}, match.elo, 1, "x", 1)
  end)
end)

describe("match", function()
  it("is a callable table", function()
    assert.equal("table", type(match))
    local result = match(tictactoe, first, last, quiet())
    assert.equal(2, result.games)
  end)

  describe("first-legal against last-legal on tictactoe", function()
    local result = match(tictactoe, named("first", first), named("last", last),
                         quiet({games = 6}))

    it("plays the known games, colours alternating", function()
      -- x on a1 b1 c1 wins row 1; the other way round, x on c3 b3 a3 row 3.
      for i, rec in ipairs(result.records) do
        local a_first = i % 2 == 1
        assert.equal(a_first and "a" or "b", rec.first)
        assert.equal(a_first and "a1 c3 b1 b3 c1" or "c3 a1 b3 b1 a3", rec.record)
        assert.equal(rec.first, rec.winner)
        assert.same({winner = "x", draw = false}, rec.result)
        assert.equal(5, rec.plies)
        assert.is_false(rec.truncated)
        assert.is_nil(rec.opening)
      end
    end)

    it("adds up the score", function()
      assert.equal(6, result.games)
      assert.equal(6, #result.records)
      assert.same({name = "first", wins = 3, draws = 0, losses = 3, score = 3}, result.a)
      assert.same({name = "last", wins = 3, draws = 0, losses = 3, score = 3}, result.b)
      assert.equal(0, result.elo)
      local _, low, high = match.elo(3, 0, 3)
      assert.equal(low, result.elo_low)
      assert.equal(high, result.elo_high)
    end)

    it("prints a summary", function()
      assert.equal("a (first) vs b (last): +3 =0 -3 in 6 games, score 50.0%, "
                   .. "Elo +0 [-382, +382]", tostring(result))
      assert.equal(tostring(result), require("ludus.pretty")(result))
    end)
  end)

  it("gives a the first side in every game without swap", function()
    local result = match(tictactoe, first, last, quiet({games = 3, swap = false}))
    for _, rec in ipairs(result.records) do
      assert.equal("a", rec.first)
      assert.equal("a", rec.winner)
    end
    assert.same({name = "function", wins = 3, draws = 0, losses = 0, score = 3}, result.a)
    assert.same({name = "function", wins = 0, draws = 0, losses = 3, score = 0}, result.b)
    assert.equal("a (function) vs b (function): +3 =0 -0 in 3 games, score 100.0%, "
                 .. "Elo +inf [+inf, +inf]", tostring(result))
  end)

  it("adds up over varied games, both ways", function()
    local result = match(tictactoe, first, last, quiet({games = 12, opening = 2, seed = 3}))
    local a, b = result.a, result.b
    assert.equal(12, a.wins + a.draws + a.losses)
    assert.equal(12, b.wins + b.draws + b.losses)
    assert.equal(a.wins, b.losses)
    assert.equal(a.losses, b.wins)
    assert.equal(a.draws, b.draws)
    assert.equal(a.wins + a.draws / 2, a.score)
    assert.equal(12, a.score + b.score)
    local wins = {a = 0, b = 0}
    for _, rec in ipairs(result.records) do
      if rec.winner then wins[rec.winner] = wins[rec.winner] + 1 end
    end
    assert.same({a = a.wins, b = b.wins}, wins)
    assert.is_true(a.draws > 0 and a.wins > 0 and b.wins > 0)  -- varied indeed
    assert.equal((match.elo(a.wins, a.draws, a.losses)), result.elo)
  end)

  it("uses the name of a table player, or its letter", function()
    local result = match(tictactoe, named("one", first), {choose = function(_, g)
      return last(g)
    end}, quiet())
    assert.equal("one", result.a.name)
    assert.equal("b", result.b.name)
  end)

  it("calls new_game before each game and choose as a method", function()
    local player = {calls = 0, games = 0}
    function player:new_game() self.games = self.games + 1 end
    function player:choose(game)
      assert.equal(player, self)
      self.calls = self.calls + 1
      return game:moves()[1]
    end
    local result = match(tictactoe, player, last, quiet({games = 4}))
    assert.equal(4, player.games)
    local plies = 0
    for _, rec in ipairs(result.records) do
      plies = plies + (rec.first == "a" and 3 or 2)   -- every game has 5 plies
    end
    assert.equal(plies, player.calls)
  end)

  it("accepts a move that tostring turns into one", function()
    local column = setmetatable({}, {__tostring = function() return "1" end})
    local result = match(connect4, function() return column end, last,
                         quiet({games = 1}))
    assert.equal("1717171", result.records[1].record)
  end)

  describe("records", function()
    it("load back to the final position on tictactoe", function()
      local a, b, finals = recording(first, last)
      local result = match(tictactoe, a, b, quiet({games = 10, opening = 3, seed = 5}))
      assert.equal(10, #finals)
      for i, rec in ipairs(result.records) do
        local game = assert(tictactoe.load(rec.record))
        assert.equal(finals[i]:save(), game:save())
        assert.equal(finals[i]:hash(), game:hash())
        assert.same(game:result(), rec.result)
        assert.equal(#game:history(), rec.plies)
        assert.equal(rec.opening, rec.record:sub(1, #rec.opening))
        assert.equal(tictactoe.load(rec.opening):save(), rec.opening)
      end
    end)

    it("load back on connect4, the whole game from its opening", function()
      local a, b, finals = recording(first, last)
      local result = match(connect4, a, b, quiet({games = 4, opening = {"44", "3"}}))
      -- Four in column 1 or 7, for whoever drops there.
      local expected = {"441717171", "447171717", "37171717", "31717171"}
      for i, rec in ipairs(result.records) do
        assert.equal(expected[i], rec.record)
        local game = assert(connect4.load(rec.record))
        assert.equal(finals[i]:save(), game:save())
        assert.equal(finals[i]:hash(), game:hash())
        assert.same(game:result(), rec.result)
      end
      -- After "44" yellow has the first move; after "3", red.
      assert.same({"a", "b", "b", "a"},
                  {result.records[1].winner, result.records[2].winner,
                   result.records[3].winner, result.records[4].winner})
    end)
  end)

  it("hands back records that G.load takes as they are, options and all", function()
    local ludus = require("ludus")
    local random = ludus.ai.random
    local games = {
      {ludus.tictactoe}, {ludus.connect4, {width = 5, height = 4}}, {ludus.mnk},
      {ludus.gomoku, {size = 7}}, {ludus.reversi, {size = 6}}, {ludus.xiangqi},
      {require("ludus.variants.mnk"), {m = 4, n = 4, k = 3}},
    }
    for _, case in ipairs(games) do
      local G, options = case[1], case[2]
      local result = match(G, random{seed = 1}, random{seed = 2},
                           quiet({games = 2, options = options, max_plies = 40}))
      for _, rec in ipairs(result.records) do
        local game = assert(G.load(rec))
        assert.equal(rec.record, game:save())
        assert.equal(tostring(assert(G.load(rec.record, options))), tostring(game))
      end
    end
    -- options given to load are the ones that count
    local result = match(connect4, first, last, quiet({games = 1,
                                                        options = {width = 5, height = 4}}))
    assert.same({7, 6}, {connect4.load(result.records[1], {}):size()})
    assert_raises({"bad argument #1 to ", "(string or match record expected, got table)"},
                  connect4.load, {record = 12})
  end)

  it("plays connect4 with board options", function()
    local opts = {width = 5, height = 4}
    local result = match(connect4, first, last, quiet({games = 2, options = opts}))
    assert.same({"1515151", "5151515"}, record_list(result))
    for _, rec in ipairs(result.records) do
      local game = assert(connect4.load(rec.record, opts))
      assert.same({5, 4}, {game:size()})
      assert.same({winner = "yellow", draw = false}, game:result())
    end
    assert.equal("a (function) vs b (function): +1 =0 -1 in 2 games, score 50.0%, "
                 .. "Elo +0 [-inf, +inf]", tostring(result))
  end)

  it("scores a game past max_plies as a truncated draw", function()
    local result = match(tictactoe, first, last, quiet({games = 2, max_plies = 3}))
    assert.same({"a1 c3 b1", "c3 a1 b3"}, record_list(result))
    for _, rec in ipairs(result.records) do
      assert.is_true(rec.truncated)
      assert.equal(3, rec.plies)
      assert.is_nil(rec.winner)
      assert.is_nil(rec.result)
    end
    assert.same({name = "function", wins = 0, draws = 2, losses = 0, score = 1}, result.a)
  end)

  describe("openings", function()
    it("start every game from one record, in the game's own spelling", function()
      local result = match(tictactoe, first, last, quiet({games = 2, opening = " B2,a1"}))
      -- o wins both: on row 3 as last, on row 1 as first.
      assert.same({"b2 a1 b1 c3 c1 b3 a2 a3", "b2 a1 c3 b1 b3 c1"}, record_list(result))
      assert.same({"b", "a"}, {result.records[1].winner, result.records[2].winner})
      for _, rec in ipairs(result.records) do assert.equal("b2 a1", rec.opening) end
    end)

    it("from a list: each opening with either colour when swapping", function()
      local result = match(tictactoe, first, last,
                           quiet({games = 6, opening = {"b2", "a1"}}))
      local openings = {}
      for i, rec in ipairs(result.records) do openings[i] = rec.opening end
      assert.same({"b2", "b2", "a1", "a1", "b2", "b2"}, openings)
      assert.same({"a", "b", "a", "b", "a", "b"},
                  {result.records[1].first, result.records[2].first,
                   result.records[3].first, result.records[4].first,
                   result.records[5].first, result.records[6].first})
    end)

    it("from a list: one after the other without swap", function()
      local result = match(tictactoe, first, last,
                           quiet({games = 5, swap = false, opening = {"b2", "a1"}}))
      local openings = {}
      for i, rec in ipairs(result.records) do openings[i] = rec.opening end
      assert.same({"b2", "a1", "b2", "a1", "b2"}, openings)
    end)

    it("random: the same line for both games of a pair", function()
      local result = match(tictactoe, first, last, quiet({games = 6, opening = 4}))
      for i = 1, 6, 2 do
        local one, two = result.records[i], result.records[i + 1]
        assert.equal(one.opening, two.opening)
        assert.equal(4, moves_in(one.opening, tictactoe))
        assert.same({"a", "b"}, {one.first, two.first})
      end
      local lines = {}
      for _, rec in ipairs(result.records) do lines[rec.opening] = true end
      assert.is_true(next(lines, next(lines)) ~= nil)   -- more than one line
    end)

    it("random: one line per game without swap", function()
      local result = match(connect4, first, last,
                           quiet({games = 4, opening = 6, swap = false}))
      local seen = {}
      for _, rec in ipairs(result.records) do
        assert.equal(6, moves_in(rec.opening, connect4))
        seen[rec.opening] = true
      end
      assert.is_true(next(seen, next(seen)) ~= nil)   -- more than one line
    end)

    it("random: the same seed gives the same games, another seed others", function()
      local function openings(seed)
        local opts = quiet({games = 8, opening = 3, seed = seed})
        local result = match(tictactoe, first, last, opts)
        local list = {}
        for i, rec in ipairs(result.records) do list[i] = rec.opening end
        return list, record_list(result)
      end
      local one, records_one = openings(7)
      local two, records_two = openings(7)
      assert.same(one, two)
      assert.same(records_one, records_two)
      assert.not_same(one, (openings(8)))
      assert.same((openings(1)), (openings(nil)))        -- seed 1 by default
    end)

    it("random: 0 plies is no opening", function()
      local result = match(tictactoe, first, last, quiet({opening = 0}))
      assert.same({"a1 c3 b1 b3 c1", "c3 a1 b3 b1 a3"}, record_list(result))
      assert.is_nil(result.records[1].opening)
    end)
  end)

  it("calls a progress function once per game", function()
    local calls = {}
    local result = match(tictactoe, first, last, {games = 5, progress =
      function(done, total, summary)
        calls[#calls + 1] = {done, total, summary.games, summary.a.wins + summary.a.draws
                             + summary.a.losses, #summary.records}
      end})
    assert.same({{1, 5, 1, 1, 1}, {2, 5, 2, 2, 2}, {3, 5, 3, 3, 3}, {4, 5, 4, 4, 4},
                 {5, 5, 5, 5, 5}}, calls)
    assert.equal(5, result.games)
  end)

  describe("errors", function()
    it("an illegal move names the player, the game and the move", function()
      local greedy = {name = "greedy", games = 0}
      function greedy:new_game() self.games = self.games + 1 end
      function greedy:choose(game)
        if self.games == 3 then return "z9" end
        return last(game)
      end
      assert_raises({"match: player b (\"greedy\") chose illegal move 'z9' in game 3: ",
                     "tictactoe: bad move 'z9'"},
                    match, tictactoe, first, greedy, quiet({games = 4}))
      assert_raises({"match: player a (\"function\") chose illegal move 'b2' in game 1: ",
                     "tictactoe: illegal move 'b2' for x (square is taken"},
                    match, tictactoe, function() return "b2" end, last, quiet())
    end)

    it("a player that raises or returns nothing", function()
      local function boom() error("boom") end
      assert_raises({"match: player b (\"function\") raised an error in game 1: ", "boom"},
                    match, tictactoe, first, boom, quiet())
      assert_raises({"match: player a (\"quiet\") returned no move in game 1"},
                    match, tictactoe, named("quiet", function() end), last, quiet())
      local player = named("late", first)
      function player.new_game() error("not ready") end
      assert_raises({"match: player b (\"late\") raised an error from new_game in game 1: ",
                     "not ready"}, match, tictactoe, first, player, quiet())
    end)

    it("a bad opening, before any game", function()
      local calls = 0
      local function counting(game)
        calls = calls + 1
        return first(game)
      end
      local cases = {
        {"zz", {"bad argument #4 to 'match' (opening does not load: ",
                "tictactoe: bad record: unreadable move 1 'zz'"}},
        {"a1 a2 b1 b2 c1", {"opening 'a1 a2 b1 b2 c1' is already over"}},
        {{"b2", "b2 b2"}, {"opening 2 does not load: tictactoe: bad record"}},
        {{"b2", 3}, {"opening 2: record expected, got number"}},
        {{}, {"opening: the list is empty"}},
        {true, {"opening: a record, a list of records or a number of random plies "
                .. "expected, got true"}},
        {-1, {"got -1"}},
        {1.5, {"got 1.5"}},
        {9, {"opening: 9 random plies ended the game in each of 100 tries"}},
      }
      for _, case in ipairs(cases) do
        assert_raises(case[2], match, tictactoe, counting, last,
                      quiet({opening = case[1], games = 4}))
      end
      assert_raises({"opening does not load: connect4: bad record"},
                    match, connect4, counting, last, quiet({opening = "8"}))
      assert.equal(0, calls)
    end)

    it("a bad player", function()
      local message = "player expected, got %s; a player is a function, a value "
        .. "with a choose method or a spec"
      for _, case in ipairs({{42, "number"}, {{}, "table"}, {{choose = "a1"}, "table"},
                             {tictactoe.new(), "ludus.tictactoe"}}) do
        assert_raises({"bad argument #2 to 'match' (" .. message:format(case[2])},
                      match, tictactoe, case[1], last, quiet())
        assert_raises({"bad argument #3 to 'match' (" .. message:format(case[2])},
                      match, tictactoe, first, case[1], quiet())
      end
      assert_raises({"bad argument #3 to 'match'", "got nil"}, match, tictactoe, first)
      -- a string is a spec, and a spec that names nothing says what would
      assert_raises({"bad argument #2 to 'match' (no player 'first' (a kind: alphabeta, "
                     .. "greedy, mcts, random, uci; a player of scripts/players; or a Lua "
                     .. "file, NAME.lua))"}, match, tictactoe, "first", last, quiet())
      assert_raises({"bad argument #3 to 'match' (player 'nothing.lua': cannot open "
                     .. "nothing.lua"}, match, tictactoe, first, "nothing.lua", quiet())
    end)

    it("something that is not a game module", function()
      for _, case in ipairs({{"tictactoe", "string"}, {{}, "table"},
                             {{new = tictactoe.new}, "table"}, {nil, "nil"},
                             {tictactoe.new(), "ludus.tictactoe"}}) do
        assert_raises({"bad argument #1 to 'match' (game module expected, got " .. case[2]
                       .. "; a game module has new and load)"},
                      match, case[1], first, last, quiet())
      end
    end)

    it("bad options", function()
      local cases = {
        {{games = 0}, "option 'games' must be a positive integer, got 0"},
        {{games = 2.5}, "option 'games' must be a positive integer, got 2.5"},
        {{games = "2"}, "option 'games' must be a positive integer, got 2"},
        {{max_plies = -1}, "option 'max_plies' must be a positive integer, got -1"},
        {{swap = 1}, "option 'swap' must be a boolean, got number"},
        {{seed = 1.5}, "option 'seed' must be an integer, got 1.5"},
        {{options = 7}, "option 'options' must be a table, got number"},
        {{progress = "yes"}, "option 'progress' must be a boolean or a function, got string"},
        {{game = 4}, "unknown option 'game' (it takes: concurrency games kind margin "
                     .. "max_plies opening options out progress resume seed shard sprt "
                     .. "st swap tc)"},
      }
      for _, case in ipairs(cases) do
        assert_raises({"bad argument #4 to 'match' (" .. case[2] .. ")"},
                      match, tictactoe, first, last, case[1])
      end
      assert_raises({"bad argument #4 to 'match' (table of options expected, got number)"},
                    match, tictactoe, first, last, 10)
      -- three pairs of 2^62 games were a count that wrapped round to none
      assert_raises({"bad argument #4 to 'tournament' (option 'games' must be at most "
                     .. "3333333 for 3 pairs of players, got 4611686018427387904)"},
                    match.tournament, tictactoe, {"random", "random", "greedy"},
                    {games = 1 << 62, progress = false})
    end)

    it("says what the game or a player spec refused, without a place in ludus", function()
      local ok, err = pcall(match, connect4, first, last, {games = 2, options = {width = 100}})
      assert.is_false(ok)
      assert.equal("bad argument #4 to 'match' (option 'options': connect4: a 100x6 "
                   .. "board does not fit (width 1 to 9, height at least 1, "
                   .. "width*(height+1) at most 64))", err)
      ok, err = pcall(match, tictactoe, "alphabeta:dpth=3", "random", {games = 1})
      assert.is_false(ok)
      assert.equal("bad argument #2 to 'match' (ai.alphabeta: unknown option 'dpth' "
                   .. "(it takes: algorithm depth time nodes eval tt name))", err)
      assert_raises({"option 'options': tictactoe.new: unknown option 'bogus' (it takes none)"},
                    match, tictactoe, first, last, {options = {bogus = 1}})
    end)

    it("points an argument error at the caller", function()
      for _, opts in ipairs({{games = 0}, {opening = "zz"}, {opening = 9}}) do
        local ok, err = pcall(function() match(tictactoe, first, last, opts) end)
        assert.is_false(ok)
        assert.matches("^[^:]*match_spec%.lua:%d+: bad argument #4 to 'match'", err)
      end
      local _, err = pcall(function() match(tictactoe, first, 1) end)
      assert.matches("^[^:]*match_spec%.lua:%d+: bad argument #3 to 'match'", err)
    end)
  end)
end)

describe("match statistics", function()
  local bounds = {elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05}

  it("match.pentanomial: the Elo of the pairs' mean score", function()
    assert.same({0, 0, 0}, {match.pentanomial({0, 0, 3, 0, 0})})
    -- pairs scoring 2, 1, 1 and 0: a mean of 1/2 a game, variance 1/8
    local elo, low, high = match.pentanomial({1, 0, 2, 0, 1})
    assert.equal(0, elo)
    local margin = 1.959964 * math.sqrt(0.125 / 4)
    assert.near(-400 * math.log(1 / (0.5 - margin) - 1, 10), low, 1e-9)
    assert.near(-low, high, 1e-9)
    assert.near(190.85, (match.pentanomial({0, 0, 1, 0, 1})), 0.01)   -- 3/4
    assert_raises({"bad argument #1 to 'pentanomial' (a list of 5 counts expected)"},
                  match.pentanomial, {1, 2, 3})
    assert_raises({"no pairs"}, match.pentanomial, {0, 0, 0, 0, 0})
  end)

  it("match.sprt: Wald's bounds, and no evidence from nothing", function()
    local s = match.sprt({0, 0, 0}, bounds)
    assert.equal(0, s.llr)
    assert.near(math.log(0.05 / 0.95), s.lower, 1e-12)
    assert.near(math.log(0.95 / 0.05), s.upper, 1e-12)
    assert.is_nil(s.decision)
    -- one pair won twice is little evidence, whatever the variance says
    assert.is_true(match.sprt({0, 0, 0, 0, 1}, bounds).llr < 0.1)
    -- a result symmetric about the middle of the hypotheses: no side
    assert.near(0, match.sprt({30, 40, 30}, {elo0 = -5, elo1 = 5,
                                             alpha = 0.05, beta = 0.05}).llr, 1e-9)
  end)

  it("match.sprt: the likelihood ratio of the nearest distributions", function()
    -- By brute force on a trinomial: the largest log-likelihood of the
    -- counts among distributions with mean s (a one-parameter family:
    -- the draw rate), for s1 less for s0.
    local counts = {40, 25, 35}
    local function best(s)
      local top = -math.huge
      for k = 1, 200000 do
        local d = k / 200000
        local w = s - d / 2
        local l = 1 - w - d
        if w > 0 and l > 0 then
          local ll = counts[1] * math.log(w) + counts[2] * math.log(d)
                     + counts[3] * math.log(l)
          if ll > top then top = ll end
        end
      end
      return top
    end
    local wide = {elo0 = -20, elo1 = 40, alpha = 0.05, beta = 0.05}
    local s0, s1 = 1 / (1 + 10 ^ (20 / 400)), 1 / (1 + 10 ^ (-40 / 400))
    assert.near(best(s1) - best(s0), match.sprt(counts, wide).llr, 1e-4)
  end)

  it("match.sprt: close to the normal approximation over many pairs", function()
    local s = match.sprt({1000, 2000, 4000, 2500, 1000}, bounds)
    local approximation = require("ludus.match_stats").sprt_approximation(
      {1000, 2000, 4000, 2500, 1000}, bounds)
    assert.near(approximation.llr, s.llr, 0.01 * approximation.llr)
    assert.equal("H1", s.decision)
    assert.equal("H0", match.sprt({1200, 2000, 4000, 2000, 1000}, bounds).decision)
    assert_raises({"bad argument #2 to 'sprt' (elo1 must be more than elo0)"},
                  match.sprt, {1, 1, 1}, {elo0 = 5, elo1 = 0})
    assert_raises({"bad argument #2 to 'sprt' ('alpha' must be between 0 and 0.5, got 2)"},
                  match.sprt, {1, 1, 1}, "elo0=0 elo1=5 alpha=2")
    -- an Elo so far out that a score is 1 would give a LLR of nan
    assert_raises({"bad argument #2 to 'sprt' ('elo1' must be an Elo difference from "
                   .. "-4000 to 4000, got 1e+308)"},
                  match.sprt, {10, 20, 40, 20, 10}, "elo0=0 elo1=1e308")
    assert_raises({"'elo0' must be an Elo difference from -4000 to 4000, got -7000"},
                  match.sprt, {10, 20, 30}, {elo0 = -7000, elo1 = 0})
    -- each word key=value, each key once: nothing dropped or overwritten
    assert_raises({"bad argument #2 to 'sprt' ('elo0' is given twice)"},
                  match.sprt, {1, 1, 1}, "elo0=0 elo1=5 elo0=3")
    assert_raises({"bad argument #2 to 'sprt' ('bogus' is not key=value " ..
                   "(elo0=, elo1=, alpha=, beta=))"},
                  match.sprt, {1, 1, 1}, "elo0=0 bogus elo1=5")
    assert.equal(match.sprt({1, 1, 1}, "elo0=0 elo1=5").llr,
                 match.sprt({1, 1, 1}, "elo0 = 0, elo1 = 5").llr)
    assert_raises({"bad argument #1 to 'sprt' (a list of 3 or 5 counts expected)"},
                  match.sprt, {1, 1}, bounds)
  end)
end)

describe("match with specs and processes", function()
  it("plays the same games in processes as in this one", function()
    local opts = {games = 10, progress = false}
    local here = match(tictactoe, "alphabeta:depth=2", "mcts:playouts=30", opts)
    opts.concurrency = 2
    local there = match(tictactoe, "alphabeta:depth=2", "mcts:playouts=30", opts)
    assert.same(record_list(here), record_list(there))
    assert.equal(tostring(here), tostring(there))
    assert.equal("alphabeta:depth=2", here.a.name)
    assert.equal(5, here.pentanomial.pairs)
  end)

  it("a player that fails in a process loses the game, with the reason", function()
    local function boom(g) if #g:history() >= 2 then error("boom") end return first(g) end
    local result = match(tictactoe, boom, last, {games = 4, concurrency = 1,
                                                 progress = false})
    assert.equal(4, result.b.wins)
    assert.same({error = 4}, result.endings)
    for _, rec in ipairs(result.records) do
      assert.equal("b", rec.winner)
      assert.matches("raised an error: .*boom", rec.reason)
      assert.is_nil(rec.result)
    end
  end)

  it("a player out of time loses on time, in this process too", function()
    local now = require("ludus.process").now
    local function waits(seconds)
      return function(g)
        local t = now()
        while now() - t < seconds do end
        return first(g)
      end
    end
    local result = match(tictactoe, waits(0.03), first, {games = 2, st = 0.01, margin = 0.005,
                                                         progress = false})
    assert.same({time = 2}, result.endings)
    assert.equal(2, result.b.wins)
    assert.matches("lost on time %(%d+%.%d%d%d s for a move, 0%.010 s allowed%)",
                   result.records[1].reason)
    -- with a clock of 1 s for the game: 0.4 s left after a's first move
    -- (0.6 s), too little for its second (margins a loaded machine keeps)
    result = match(tictactoe, waits(0.6), first, {games = 1, tc = "1+0", margin = 0.005,
                                                  progress = false})
    assert.equal("time", result.records[1].ending)
    assert.equal(2, result.records[1].plies)
  end)

  it("stops when the SPRT decides", function()
    local result = match(connect4, "alphabeta:depth=3", "random",
                         {games = 1000, concurrency = 2, progress = false,
                          sprt = "elo0=0 elo1=50"})
    assert.equal("sprt", result.stopped)
    assert.equal("H1", result.sprt.decision)
    assert.is_true(result.games < 1000 and result.games % 2 == 0)
  end)

  it("writes JSON lines and resumes from them", function()
    local path = os.tmpname()
    local opts = {games = 8, progress = false, out = path}
    local whole = match(tictactoe, "alphabeta:depth=2", "mcts:playouts=30", opts)
    local lines = {}
    for line in io.lines(path) do lines[#lines + 1] = line end
    assert.equal(8, #lines)
    local f = assert(io.open(path, "wb"))
    f:write(table.concat(lines, "\n", 1, 3), "\n", lines[4]:sub(1, 20))
    f:close()
    opts.resume = true
    local resumed = match(tictactoe, "alphabeta:depth=2", "mcts:playouts=30", opts)
    assert.equal(tostring(whole), tostring(resumed))
    local again = {}
    for line in io.lines(path) do again[#again + 1] = line:gsub(',"seconds":[^,}]*', "") end
    for i, line in ipairs(lines) do lines[i] = line:gsub(',"seconds":[^,}]*', "") end
    assert.same(lines, again)
    os.remove(path)
  end)

  it("merges JSON lines, and says what they show is missing", function()
    local path = os.tmpname()
    local whole = match(tictactoe, "alphabeta:depth=2", "mcts:playouts=30",
                        {games = 8, progress = false, out = path})
    local results, lines, missing = match.merge{path}
    assert.same({whole.games, whole.a.wins, whole.b.wins},
                {results[1].games, results[1].a.wins, results[1].b.wins})
    assert.equal(8, #lines)
    assert.is_nil(missing)
    local kept = {}
    for line in io.lines(path) do
      if not line:find('"game":[36],') then kept[#kept + 1] = line end
    end
    local f = assert(io.open(path, "wb"))
    f:write(table.concat(kept, "\n"), "\n")
    f:close()
    results, lines, missing = match.merge{path}
    assert.equal(6, #lines)
    assert.equal(6, results[1].games)
    assert.truthy(missing:find("missing: games 3, 6 (", 1, true), missing)
    os.remove(path)
  end)

  it("runs a round robin and a gauntlet", function()
    local players = {"alphabeta:depth=2", "mcts:playouts=30", "random"}
    local t = match.tournament(tictactoe, players, {games = 4, progress = false})
    assert.equal(3, #t.encounters)
    assert.equal(12, t.games)
    local games, score = 0, 0
    for _, row in ipairs(t.standings) do
      games, score = games + row.games, score + row.score
    end
    assert.same({24, 12}, {games, score})
    assert.equal("alphabeta:depth=2", t.standings[1].name)
    assert.truthy(tostring(t):find("round robin of 3 players, 12 games", 1, true))
    local g = match.tournament(tictactoe, players, {games = 2, kind = "gauntlet",
                                                   progress = false})
    assert.equal(2, #g.encounters)
    assert_raises({"bad argument #2 to 'tournament' (a list of two players or more expected)"},
                  match.tournament, tictactoe, {first})
  end)

  it("match.player makes players from specs", function()
    local p = match.player("alphabeta:depth=3,tt=1", tictactoe)
    assert.same({3, 1}, {p.depth, p.tt})
    assert.equal("b2", p:choose(tictactoe.new()))
    local threats = match.player("connect4_threats", connect4)
    assert.equal("function", type(threats.choose))
    assert_raises({"no player 'nobody'"}, match.player, "nobody", tictactoe)
    assert_raises({"ai.alphabeta: unknown option 'depht'"}, match.player,
                  "alphabeta:depht=3", tictactoe)
    assert_raises({"ai.random: option 'seed' must be an integer"}, match.player,
                  "random:seed=abc", tictactoe)
    assert_raises({"ai.mcts: option 'seed' must be an integer"}, match.player,
                  "mcts:seed=1.5", tictactoe)
  end)

  it("match.player makes a file's player, or its maker's with the options", function()
    local p = match.player("scripts/players/minimax.lua:depth=2", tictactoe)
    assert.equal("table", type(p))
    assert.equal(2, p.depth)
    assert.is_string(p:choose(tictactoe.new()))
    assert.equal(2, p.info.depth)
    -- a file that returns a player function keeps it
    local base = os.tmpname()
    local path = base .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write("return function(g) return g:moves()[1] end\n")
    f:close()
    local first_move = match.player(path, tictactoe)
    os.remove(path)
    os.remove(base)
    assert.equal("function", type(first_move))
    assert.equal("a1", first_move(tictactoe.new()))
  end)
end)

describe("the example script", function()
  local ludus = (os.getenv("LUDUS_BIN_DIR") or ".") .. "/ludus"
  local mktemp = assert(io.popen("mktemp -d /tmp/ludus-match-spec.XXXXXX"))
  local scratch = assert(mktemp:read("l"))
  mktemp:close()

  local function read_file(path)
    local f = assert(io.open(path, "rb"))
    local text = f:read("a")
    f:close()
    return text
  end

  -- Runs the example with 'args' (shell words); returns {out =, err =, code =}.
  -- LD_PRELOAD, which brings the sanitizers into lua5.4 under SANITIZE=1,
  -- is not for ludus, which links them itself.
  local function run(args)
    local out, err = scratch .. "/out", scratch .. "/err"
    local _, _, code = os.execute(("env -u LUA_INIT -u LUA_INIT_5_4 -u LD_PRELOAD "
      .. "'%s' scripts/examples/match.lua %s </dev/null >%s 2>%s"):format(ludus, args, out, err))
    return {out = read_file(out), err = read_file(err), code = code}
  end

  teardown(function() os.execute("rm -rf '" .. scratch .. "'") end)

  it("plays first against last and prints the summary, nothing on stderr", function()
    local result = run("tictactoe first last 4")
    assert.equal(0, result.code)
    assert.equal("a (first) vs b (last): +2 =0 -2 in 4 games, score 50.0%, "
                 .. "Elo +0 [-798, +798]\n", result.out)
    assert.equal("", result.err)     -- not a terminal: no progress line
  end)

  it("shows its progress on a terminal", function()
    assert(os.execute("command -v script >/dev/null"),
           "script(1) (Debian's bsdutils, from util-linux) is needed for this test")
    local out = scratch .. "/pty"
    local _, _, code = os.execute(("env -u LUA_INIT -u LUA_INIT_5_4 -u LD_PRELOAD "
      .. "script -qefc \"'%s' scripts/examples/match.lua connect4 first last 4\" "
      .. "/dev/null </dev/null >%s 2>&1"):format(ludus, out))
    assert.equal(0, code)
    local text = read_file(out):gsub("\r\n", "\n")
    assert.matches("^\rmatch: 1/4 games, a %+1 =0 %-0, score 100%.0%%, %d+:%d%d elapsed, "
                   .. "eta %d+:%d%d", text)
    assert.matches("\rmatch: 4/4 games, a %+2 =0 %-2, score 50%.0%%, [^\n]*\n"
                   .. "a %(first%) vs b %(last%): %+2 =0 %-2 in 4 games", text)
  end)

  it("rejects an unknown player with the usage and status 1", function()
    local result = run("tictactoe first nobody")
    assert.equal(1, result.code)
    assert.equal("", result.out)
    assert.truthy(result.err:find("unknown player 'nobody'\nusage: ", 1, true), result.err)
    local players = assert(result.err:match("\n  players: +([^\n]*)"), result.err)
    for _, name in ipairs({"first", "last", "random"}) do
      assert.truthy(players:find(name, 1, true), players)
    end
  end)

  it("rejects an unknown game and a bad count the same way", function()
    local result = run("chess")
    assert.equal(1, result.code)
    assert.truthy(result.err:find("unknown game 'chess'", 1, true), result.err)
    assert.truthy(result.err:find("tictactoe, connect4", 1, true), result.err)
    result = run("tictactoe first last 0")
    assert.equal(1, result.code)
    assert.truthy(result.err:find("bad number of games '0'", 1, true), result.err)
  end)
end)
