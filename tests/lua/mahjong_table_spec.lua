-- mahjong.table: four Lua players at one table; what they may see, what
-- they may answer, hostile players, the record read back by mahjong.read,
-- the players in the box and mahjong.match.
local mahjong = require("ludus").mahjong
local random = require("ludus.players.mahjong_random")
local efficiency = require("ludus.players.mahjong_efficiency")
local defensive = require("ludus.players.mahjong_defensive")

local function randoms(seed)
  return {random{seed = seed}, random{seed = seed + 1}, random{seed = seed + 2},
          random{seed = seed + 3}}
end

-- The record of a game, read back: the replayed game.
local function read_back(game)
  local path = os.tmpname()
  assert(game:save(path))
  local games, err = mahjong.read(path)
  os.remove(path)
  assert(games, err)
  assert.are.equal(1, #games)
  return games[1]
end

-- A player that discards its first tile, and does what `hook` says first.
local function first(hook)
  return function(question, view, options)
    if hook then
      local answer = hook(question, view, options)
      if answer ~= nil then return answer end
    end
    if question == "discard" then return options[1] end
  end
end

describe("mahjong.table", function()
  it("plays the same game from the same seed, another from another", function()
    local a = mahjong.table{seed = 7, players = randoms(1)}:play()
    local b = mahjong.table{seed = 7, players = randoms(1)}:play()
    local c = mahjong.table{seed = 8, players = randoms(1)}:play()
    assert.are.equal(a:save(), b:save())
    assert.are.same(a.scores, b.scores)
    assert.are_not.equal(a:save(), c:save())
    local total = 0
    for _, s in ipairs(a.scores) do total = total + s end
    assert.is_true(total <= 100000 and total > 90000)   -- sticks left go to the top
  end)

  it("writes a record that mahjong.read replays to the same scores", function()
    for seed = 1, 4 do
      local players = {efficiency(), defensive(), random{seed = seed}, efficiency()}
      local game = mahjong.table{seed = seed, players = players,
                                 rounds = seed % 2 == 0 and "east" or "south"}:play()
      local replayed = read_back(game)
      assert.is_true(replayed.agrees, table.concat(replayed.disagreements, "\n"))
      assert.are.same(game.scores, replayed.scores)
      assert.are.same(game.points, replayed.points)
      assert.are.equal(#game.rounds, #replayed.rounds)
      assert.are.equal(replayed.names[2], "defensive")
    end
    -- names come back as they were: the JSON's are plain text, not
    -- %-encoded as the mjlog's ("%41x" came back as "Ax")
    local names = {"100%41x", 'a"b', "c\\d", "日本"}
    local players = {}
    for i, name in ipairs(names) do players[i] = efficiency{name = name} end
    local game = mahjong.table{seed = 1, rounds = "east", players = players}:play()
    assert.are.same(names, read_back(game).names)
  end)

  it("writes a record that reads back with the largest start it takes", function()
    -- 1,000,000 points each: the JSON's scores were read up to 1,000,000
    -- ("a round without four scores" once a seat had won)
    local game = mahjong.table{seed = 2, rounds = "east",
                               players = {efficiency(), efficiency(), efficiency(), efficiency()},
                               rules = {start_points = 1000000, target = 1000000}}:play()
    assert.is_true(math.max(table.unpack(game.scores)) > 1000000)
    local replayed = read_back(game)
    assert.is_true(replayed.agrees, table.concat(replayed.disagreements, "\n"))
    assert.are.same(game.scores, replayed.scores)
  end)

  it("reads open tanyao from a JSON record's lobby as Tenhou writes it (喰)", function()
    -- a game without open tanyao, written as Tenhou writes one (般東赤, no
    -- rules of ludus): its wins agree; read as 般東喰赤 one has a han more
    local function caller(seed)
      local r = random{seed = seed}
      return {discard = function(_, view, tiles)
                return mahjong.ranked_discards(view:hand(), tiles)[1]
              end,
              call = function(_, view, calls, tile, from)
                return r:call(view, calls, tile, from)
              end}
    end
    local game = mahjong.table{seed = 7, rounds = "east", rules = {kuitan = false},
                               players = {caller(7), caller(8), caller(9), caller(10)}}:play()
    local text = game:save():gsub(',"ludus":{"kuitan":false}', "")
    assert.is_truthy(text:find('"disp":"般東赤"', 1, true))
    local path = os.tmpname()
    for _, case in ipairs({{text, true}, {text:gsub("般東赤", "般東喰赤"), false}}) do
      local f = assert(io.open(path, "wb"))
      f:write(case[1])
      f:close()
      assert.are.equal(case[2], assert(mahjong.read(path))[1].agrees)
    end
    os.remove(path)
  end)

  it("plays an east-only game shorter than a hanchan", function()
    local game = mahjong.table{seed = 3, rounds = "east", players = randoms(5)}:play()
    for _, r in ipairs(game.rounds) do assert.is_truthy(r.name:match("^[ES]")) end
    assert.is_truthy(game:save():find("般東", 1, true))
    local ok, err = game:save("/nonexistent/dir/game.json")
    assert.is_nil(ok)
    assert.are.equal("mahjong: cannot write '/nonexistent/dir/game.json' "
                     .. "(No such file or directory)", err)
  end)

  it("shows a player its own hand and what every seat may see", function()
    local checked = 0
    local player = first(function(question, view, options)
      if question ~= "discard" then return end
      local hand = view:hand()
      for _, tile in ipairs(options) do
        assert.is_truthy(hand:find(tile:sub(1, 1), 1, true))
      end
      assert.are.equal(4, #view:scores())
      assert.is_true(#view:dora() >= 1)
      assert.is_truthy(view:round():match("^[ESWN][1-4]$"))
      assert.are.equal("table", type(view:discards((view:seat() + 1) % 4)))
      assert.are.equal("table", type(view:melds(0)))
      assert.is_true(view:left() >= 0 and view:left() <= 70)
      checked = checked + 1
    end)
    mahjong.table{seed = 2, rounds = "east", players = {player, player, player, player}}:play()
    assert.is_true(checked > 100)
  end)

  it("refuses a player that looks at another hand or the wall", function()
    local function peeking(look)
      return first(function(question, view)
        if question == "discard" then look(view) end
      end)
    end
    local looks = {
      function(view) return view:hand((view:seat() + 1) % 4) end,
      function(view) return view.wall end,
      function(view) return view:wall() end,
      function(view) return view.table end,
      function(view) return view.hand(nil) end,
    }
    for i, look in ipairs(looks) do
      local players = randoms(1)
      players[3] = peeking(look)
      local t = mahjong.table{seed = 1, players = players}
      local ok, err = pcall(t.play, t)
      assert.is_false(ok, "look " .. i)
      assert.is_truthy(err:find("player 3 (seat 2", 1, true), err)
      assert.is_truthy(err:find("may not see") or err:find("no method") or
                       err:find("view expected"), err)
    end
    local view
    local t = mahjong.table{seed = 1, players = {first(function(_, v) view = v end),
                                                  random{}, random{}, random{}}}
    t:play()
    assert.are.equal("ludus.mahjong.view", getmetatable(view))
    assert.is_nil(getmetatable(view).__index)       -- a string: no way in
    assert.has_error(function() return view:hand(1) end,
                     "mahjong: seat 0 may not see seat 1's hand")
  end)

  it("names the player and the question for an illegal answer", function()
    local cases = {
      {"9z9z", "answered '9z9z' (not one of:"},
      {42, "answered number (not one of:"},
      {{}, "answered table"},
      -- a name with more after a NUL is not that name (it was taken)
      {function(tiles) return tiles[1] .. "\0x" end, "answered '", "?x' (not one of:"},
    }
    for _, case in ipairs(cases) do
      local players = randoms(1)
      players[2] = function(question, _, tiles)
        if question ~= "discard" then return nil end
        if type(case[1]) == "function" then return case[1](tiles) end
        return case[1]
      end
      local t = mahjong.table{seed = 1, players = players}
      local ok, err = pcall(t.play, t)
      assert.is_false(ok)
      assert.is_truthy(err:find("mahjong: player 2 (seat 1, 'player 2') " .. case[2], 1, true), err)
      assert.is_truthy(err:find(case[3] or "", 1, true), err)
      assert.is_truthy(err:find("to discard$"), err)
    end
    local players = randoms(1)
    players[4] = {name = "caller", discard = function(_, _, tiles) return tiles[1] end,
                  call = function() return "pon:999z" end}
    local t = mahjong.table{seed = 1, players = players}
    local ok, err = pcall(t.play, t)
    assert.is_false(ok)
    assert.is_truthy(err:find("player 4 (seat 3, 'caller') answered 'pon:999z'", 1, true), err)
    assert.is_truthy(err:find("to call$"), err)
  end)

  it("survives hostile players and goes on where it stopped", function()
    local t
    local misdeeds = {
      function() error("boom") end,
      function() error({}) end,
      function() return t:play() end,
      function() coroutine.yield(1) end,
      function() return nil end,              -- no discard at all
    }
    local messages = {"failed %(.*boom%) at discard", "failed %(table%) at discard",
                      "playing already", "yield", "answered nil"}
    local turn = 0
    local hostile = function(question, _, options)
      if question ~= "discard" then return nil end
      turn = turn + 1
      if misdeeds[turn] then return misdeeds[turn]() end
      return options[1]
    end
    t = mahjong.table{seed = 4, players = {random{}, hostile, random{seed = 2}, random{seed = 3}}}
    for i = 1, #misdeeds do
      local ok, err = pcall(t.play, t)
      assert.is_false(ok)
      assert.is_truthy(err:find(messages[i]), err)
      assert.is_truthy(err:find("player 2 (seat 1", 1, true), err)
    end
    -- inside a coroutine too
    local co = coroutine.wrap(function() return pcall(t.play, t) end)
    turn = 0
    misdeeds = {function() coroutine.yield(1) end}
    local ok, err = co()
    assert.is_false(ok)
    assert.is_truthy(err:find("yield"), err)
    -- the table asked again each time, and plays to the end
    local game = t:play()
    assert.is_true(read_back(game).agrees)
    local again = mahjong.table{seed = 4, players = {random{}, first(), random{seed = 2},
                                                   random{seed = 3}}}:play()
    assert.are.same(again.scores, game.scores)
    assert.has_error(function() t:play() end,
                     "mahjong: this table's game is over (make a new table)")
  end)

  it("gives each question only its options, whatever a player did to its lists", function()
    -- the lists are the table's, filled again at each question of the
    -- seat: a player that sorts, empties, extends or marks the one it
    -- was given must see its options alone at the next, as a fresh list
    -- would show them, and play the game a fair player plays
    local vandalism = {
      function(l) table.sort(l, function(a, b) return a > b end) end,
      function(l) for i = #l, 1, -1 do l[i] = nil end end,
      function(l) for _ = 1, 20 do l[#l + 1] = "9z" end end,
      function(l) l.kept = true end,
      function(l) l[40] = "1m" end,
      function(l) l[#l + 2] = "1m" end,
      function(l) table.remove(l, 1) end,
      function(l) setmetatable(l, {__len = function() return 1 end,
                                   __index = function() return "1z" end}) end,
      function(l) l[1] = 99 end,
    }
    local seen, lists, turn = 0, {}, 0
    local vandal = function(question, view, options)
      if question ~= "discard" and question ~= "riichi" then return nil end
      local n, keys = #options, 0
      for _ in pairs(options) do keys = keys + 1 end
      assert.are.equal(n, keys)
      assert.are.equal(nil, getmetatable(options))
      local hand, answer = view:hand(), options[1]
      for i = 1, n do
        assert.are.equal("string", type(options[i]))
        local plain = options[i]:gsub("^0", "5")
        assert.is_truthy(hand:find(options[i]:sub(1, 1), 1, true) or hand:find(plain, 1, true))
      end
      lists[options] = true
      turn = turn + 1
      vandalism[turn % #vandalism + 1](options)
      seen = seen + 1
      if question == "riichi" then return nil end
      return answer
    end
    local a = mahjong.table{seed = 12, rounds = "east",
                            players = {vandal, random{seed = 2}, vandal, random{seed = 4}}}:play()
    local b = mahjong.table{seed = 12, rounds = "east",
                            players = {first(), random{seed = 2}, first(), random{seed = 4}}}:play()
    assert.is_true(seen > 100)
    assert.are.equal(b:save(), a:save())
    -- one list a seat and question (and a fresh one where a player left
    -- something in it): the two seats never share one
    local count = 0
    for _ in pairs(lists) do count = count + 1 end
    assert.is_true(count >= 4 and count < seen, count)
  end)

  it("refuses bad arguments with a message", function()
    local four = randoms(1)
    assert.has_error(function() mahjong.table{} end)
    assert.has_error(function() mahjong.table{players = {1, 2, 3, 4}} end,
      "mahjong.table: player 1 must be a function or a table with a discard method (got number)")
    assert.has_error(function() mahjong.table{players = {four[1]}} end)
    assert.has_error(function() mahjong.table{players = four, rounds = "west"} end,
                     'mahjong.table: rounds must be "east" or "south" (got west)')
    assert.has_error(function() mahjong.table{players = four, seed = 1.5} end,
                     "mahjong.table: seed must be an integer (got number)")
    assert.has_error(function() mahjong.table{players = four, rules = {bogus = true}} end)
    assert.has_error(function() mahjong.table{players = four, rules = {red = 1}} end,
                     "mahjong.table: rule 'red' must be true or false (got number)")
    -- a field misspelt is refused, not left out: round = "east" had
    -- played a whole hanchan
    assert.has_error(function() mahjong.table{players = four, round = "east"} end,
      "mahjong.table: unknown field 'round' (fields: players, seed, rounds, rules)")
    -- "aka" is the scorer's: the round counts the red fives of its wall
    -- (rule red), so aka = false was taken and changed nothing
    assert.has_error(function() mahjong.table{players = four, rules = {aka = false}} end)
  end)

  it("plays with the rules it is given, and its record carries them", function()
    local game = mahjong.table{seed = 5, players = randoms(9),
                               rules = {red = false, start_points = 30000, target = 30000,
                                        uma = {15000, 5000, -5000, -15000}, double_ron = false,
                                        kuitan = false}}:play()
    local json = game:save()
    assert.is_truthy(json:find('"aka":0', 1, true))
    assert.is_truthy(json:find('"ludus":{"double_ron":false,"kuitan":false,'
                               .. '"start_points":30000,"uma":[15000,5000,-5000,-15000]}',
                               1, true), json:sub(1, 200))
    local replayed = read_back(game)
    assert.is_true(replayed.agrees)
    assert.are.same(game.scores, replayed.scores)
    assert.are.same(game.points, replayed.points)
    -- rules that are not known, or not of their kind, are refused
    for _, bad in ipairs({'"double_ron":1', '"twice_ron":false', '"uma":[1,2,3]'}) do
      local path = os.tmpname()
      local f = assert(io.open(path, "w"))
      f:write((json:gsub('"double_ron":false', bad, 1)))
      f:close()
      local games, err = mahjong.read(path)
      os.remove(path)
      assert.is_nil(games)
      assert.is_truthy(err:find("rules of ludus that are not known", 1, true), err)
    end
  end)
end)

describe("the mahjong players in the box", function()
  it("efficiency discards a tile that keeps the fewest shanten", function()
    local base = efficiency()
    local checked = 0
    local watcher = {
      name = "watched",
      riichi = base.riichi,
      discard = function(self, view, tiles)
        local tile = base.discard(self, view, tiles)
        local best = mahjong.discards(view:hand())
        local chosen
        for _, d in ipairs(best) do
          if d.discard == tile:gsub("^0", "5") then chosen = d end
        end
        assert.are.equal(best[1].shanten, chosen.shanten)
        checked = checked + 1
        return tile
      end,
    }
    mahjong.table{seed = 6, players = {watcher, efficiency(), efficiency(), efficiency()}}:play()
    assert.is_true(checked > 50)
  end)

  it("defensive plays a genbutsu against riichi when it holds one", function()
    local base = defensive()
    local folded = 0
    local watcher = {
      name = "watched",
      riichi = base.riichi,
      discard = function(self, view, tiles)
        local tile = base.discard(self, view, tiles)
        local threats = {}
        for seat = 0, 3 do
          if seat ~= view:seat() and view:riichi(seat) then threats[#threats + 1] = seat end
        end
        for _, seat in ipairs(#threats == 1 and threats or {}) do
          do
            local safe = {}
            for _, d in ipairs(view:discards(seat)) do safe[d:gsub("^0", "5")] = true end
            local holds = false
            for _, t in ipairs(tiles) do holds = holds or safe[t:gsub("^0", "5")] end
            if holds then
              assert.is_true(safe[tile:gsub("^0", "5")], tile)
              folded = folded + 1
            end
          end
        end
        return tile
      end,
    }
    for seed = 1, 6 do
      mahjong.table{seed = seed, rounds = "east",
                    players = {watcher, efficiency(), efficiency(), efficiency()}}:play()
    end
    assert.is_true(folded > 0)
  end)

  it("are made by the functions their modules return", function()
    for _, make in ipairs({random, efficiency, defensive}) do
      local p = make{name = "x"}
      assert.are.equal("x", p.name)
      assert.are.equal("function", type(p.discard))
    end
    assert.has_error(function() random{seed = "a"} end)
  end)
end)

describe("mahjong.match", function()
  it("rotates the seats and reports each player's averages", function()
    local players = {efficiency(), defensive{name = "defender"}, random{seed = 3},
                     efficiency{name = "second"}}
    local report = mahjong.match{players = players, games = 4, seed = 11}
    assert.are.equal(4, #report.games)
    local places, points = 0, 0
    for i, p in ipairs(report.players) do
      places = places + p.place
      points = points + p.points
      assert.are.same({(i - 1) % 4, i % 4, (i + 1) % 4, (i + 2) % 4}, p.seats)
      assert.is_true(p.wins >= 0 and p.wins <= 1 and p.deal_ins >= 0 and p.deal_ins <= 1)
    end
    assert.are.equal(10, places)
    assert.is_true(math.abs(points) < 1e-9)
    assert.are.equal("defender", report.players[2].name)
    assert.is_truthy(tostring(report):find("defender", 1, true))
    -- a name past 16 characters keeps the columns in line
    local long = mahjong.match{players = {efficiency{name = "mahjong_efficiency"},
                                          efficiency(), efficiency(), efficiency()},
                               games = 1, seed = 1}
    local at = {}
    for line in tostring(long):gmatch("[^\n]+") do
      if line:find("%d%.%d%d ") then at[#at + 1] = line:find("%d%.%d%d ") end
    end
    assert.are.same({at[1], at[1], at[1], at[1]}, at)
    assert.is_true(read_back(report.games[2]).agrees)
    assert.are.equal("defender", report.games[2].names[3])
    assert.has_error(function() mahjong.match{players = players, games = 0} end)
    -- 2.0 is a whole number, as mahjong.table takes its seed; "2" is not
    assert.are.equal(1, #mahjong.match{players = players, games = 1.0, seed = 2.0}.games)
    assert.has_error(function() mahjong.match{players = players, games = "2"} end,
      "mahjong.match: games must be a whole number of at least 1 (got '2')")
    assert.has_error(function() mahjong.match{players = players, game = 8} end,
      "mahjong.match: unknown field 'game' (fields: players, games, seed, rounds, rules)")
  end)
end)

describe("ludus.match with mahjong", function()
  it("seats four players as mahjong.match does, and refuses a two-player call", function()
    local match = require("ludus.match")
    local function four() return {efficiency(), random{seed = 5}, random{seed = 6}, defensive()} end
    local a = match(mahjong, four(), {games = 4, seed = 21})
    local b = mahjong.match{players = four(), games = 4, seed = 21}
    assert.are.equal(b.rounds, a.rounds)
    for i = 1, 4 do
      assert.are.equal(b.players[i].place, a.players[i].place)
      assert.are.equal(b.players[i].score, a.players[i].score)
    end
    assert.are.equal(b.games[4]:save(), a.games[4]:save())
    assert.has_error(function() match(mahjong, efficiency(), random(), {games = 2}) end,
                     "match: mahjong takes match(mahjong, {a, b, c, d}, options)")
    assert.has_error(function() match("mahjong", four(), 7) end)
  end)
end)
