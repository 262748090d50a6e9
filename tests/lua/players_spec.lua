-- players_spec.lua: the players written in Lua (scripts/players): random,
-- greedy, minimax and the Connect Four player, on built-in games and on
-- games written in Lua, alone and in matches.

local ludus = require("ludus")
local match = require("ludus.match")
local support = require("support")
local assert_raises, contains = support.assert_raises, support.contains

local random = require("ludus.players.random")
local greedy = require("ludus.players.greedy")
local minimax = require("ludus.players.minimax")
local threats = require("ludus.players.connect4_threats")

local ai, tictactoe, connect4 = ludus.ai, ludus.tictactoe, ludus.connect4
local WIN = 1000000

-- The moves p chooses when it plays both sides of one game to the end.
local function self_play(p, game)
  local moves = {}
  while not game:is_over() do
    local move = p:choose(game)
    assert.is_true(contains(game:moves(), move), tostring(move))
    moves[#moves + 1] = move
    game = game:play(move)
  end
  return table.concat(moves, " ")
end

describe("the random player", function()
  it("plays legal moves, the same ones for the same seed", function()
    local a = self_play(random{seed = 7}, connect4.new())
    assert.equal(a, self_play(random{seed = 7}, connect4.new()))
    assert.not_equal(a, self_play(random{seed = 8}, connect4.new()))
    assert.equal(self_play(random(), tictactoe.new()),
                 self_play(random{seed = 1}, tictactoe.new()))
  end)

  it("picks each move about as often", function()
    local p, counts = random{seed = 3}, {}
    local game = tictactoe.new()
    for _ = 1, 900 do
      local move = p:choose(game)
      counts[move] = (counts[move] or 0) + 1
    end
    for _, move in ipairs(game:moves()) do
      assert.is_true(counts[move] > 65 and counts[move] < 135,
                     move .. " chosen " .. tostring(counts[move]) .. " times in 900")
    end
    assert.same({move = p.info.move, choices = 9}, p.info)
    assert.equal("random", p.name)
  end)

  it("raises on a bad seed and on a finished game", function()
    assert_raises({"random: option 'seed' must be an integer (got 1.5)"}, random, {seed = 1.5})
    local p = random()
    assert_raises({"random: no move to choose (the game is over)"},
                  p.choose, p, tictactoe.load("a1 a2 b1 b2 c1"))
  end)
end)

describe("the greedy player", function()
  it("takes a win at tic-tac-toe and at Connect Four", function()
    local p = greedy()
    assert.equal("c3", p:choose(tictactoe.load("a1 a3 b2 c1")))
    assert.equal(math.huge, p.info.score)
    assert.equal("4", p:choose(connect4.load("112233")))
    assert.equal("4", greedy{seed = 5}:choose(connect4.load("112233")))
  end)

  it("does not make a move that loses at once while another does not", function()
    local misere = require("ludus.variants.misere_tictactoe")
    local g = misere.load("a1 a2 b1 b2")       -- c1 would make x's line: a loss
    local p = greedy()
    assert.not_equal("c1", p:choose(g))
    -- o's c2 and b3 both make a line of o's: it plays the first.
    assert.equal("c2", p:choose(misere.load("a1 b1 c1 a2 a3 b2 c3")))
    assert.equal(-math.huge, p.info.score)
  end)

  it("scores the other moves with eval, for the side to move after them", function()
    -- -1 once b2 is taken: bad for the side to move, good for the chooser.
    local function centre(game)
      return contains(game:moves(), "b2") and 0 or -1
    end
    assert.equal("b2", greedy{eval = centre}:choose(tictactoe.new()))
    assert.equal("b2", greedy{eval = centre}:choose(tictactoe.load("a1")))
    assert.equal("a1", greedy():choose(tictactoe.new()))   -- no eval: the first
  end)

  it("breaks ties at random, the same way for the same seed", function()
    local a = self_play(greedy{seed = 11}, tictactoe.new())
    assert.equal(a, self_play(greedy{seed = 11}, tictactoe.new()))
    local firsts = {}
    for seed = 1, 20 do firsts[greedy{seed = seed}:choose(tictactoe.new())] = true end
    local distinct = 0
    for _ in pairs(firsts) do distinct = distinct + 1 end
    assert.is_true(distinct >= 4, "only " .. distinct .. " first moves in 20 seeds")
    assert_raises({"greedy: option 'seed' must be an integer (got x)"}, greedy, {seed = "x"})
  end)
end)

describe("the minimax player", function()
  it("finds tic-tac-toe a draw from the start, searching to the end", function()
    local p = minimax{depth = 9}
    local g = tictactoe.new()
    local move = p:choose(g)
    assert.equal(0, p.info.score)
    assert.equal(move, p.info.move)
    assert.is_true(p.info.nodes > 1000)
    assert.equal(9, p.info.depth)
    assert.equal("", g:save())                   -- the game is as it was
  end)

  it("finds forced wins and prefers the quickest", function()
    local p = minimax{depth = 9}
    -- x: a3 a1, o: c3 a2; c1 makes two threats (b1 and b2): mate in 3.
    assert.equal("c1", p:choose(tictactoe.load("a3 c3 a1 a2")))
    assert.equal(WIN - 3, p.info.score)
    -- x: a3 b2, o: c3 a1; c1 wins at once, though slower wins exist too.
    assert.equal("c1", p:choose(tictactoe.load("a3 c3 b2 a1")))
    assert.equal(WIN - 1, p.info.score)
    -- o to move after a1 a2 b2 has lost, in 4 plies.
    p:choose(tictactoe.load("a1 a2 b2"))
    assert.equal(-(WIN - 4), p.info.score)
  end)

  it("agrees with ludus.ai's alpha-beta on tic-tac-toe positions", function()
    local p = minimax{depth = 9}
    local state, compared = 99, 0
    for _ = 1, 12 do
      local g = tictactoe.new()
      for _ = 1, compared % 5 + 1 do
        state = state * 6364136223846793005 + 1442695040888963407
        local moves = g:moves()
        g = g:play(moves[(state >> 33) % #moves + 1])
      end
      if not g:is_over() then
        p:choose(g)
        assert.equal(ai.search(g, {depth = 9, tt = 1}).score, p.info.score, g:save())
      end
      compared = compared + 1
    end
    assert.equal(12, compared)
  end)

  it("plays games written in Lua, with an eval at its horizon", function()
    local mnk = require("ludus.variants.mnk")
    local p = minimax{depth = 9}
    p:choose(mnk.new())
    assert.equal(0, p.info.score)
    -- The eval speaks for the side to move: b2 taken is bad for it, so
    -- good for the player who took it.
    local function b2_taken(game)
      return contains(game:moves(), "b2") and 0 or -1
    end
    local shallow = minimax{depth = 1, eval = b2_taken}
    assert.equal("b2", shallow:choose(mnk.new{m = 4, k = 3}))
    assert.same({move = "b2", score = 1, nodes = 17, depth = 1}, shallow.info)
    -- A win beats any evaluation.
    local flattering = minimax{depth = 2, eval = function() return -899999 end}
    assert.equal("c1", flattering:choose(mnk.load("a1 a4 b1 b4", {m = 4, k = 3})))
    assert.equal(WIN - 1, flattering.info.score)
  end)

  it("raises on a bad depth and on a finished game", function()
    assert_raises({"minimax: option 'depth' must be a whole number from 1 (got 0)"},
                  minimax, {depth = 0})
    local p = minimax()
    assert.equal(4, p.depth)
    assert_raises({"minimax: no move to choose (the game is over)"},
                  p.choose, p, tictactoe.load("a1 a2 b1 b2 c1"))
  end)
end)

describe("the Connect Four threats player", function()
  it("wins when it can, and starts in the centre", function()
    local p = threats()
    assert.equal("4", p:choose(connect4.load("112233")))
    assert.equal("win", p.info.reason)
    assert.equal("4", p:choose(connect4.new()))
    assert.equal("safe", p.info.reason)
  end)

  it("blocks a threat", function()
    local p = threats()
    assert.equal("5", p:choose(connect4.load("151575")))     -- red has 5 5 5
    assert.same({move = "5", reason = "safe", threats = 0}, p.info)
  end)

  it("does not play under the opponent's threat, which would let it win on top", function()
    -- Red has row 2 of columns 5 to 7; yellow in column 4 lets red in above.
    local g = connect4.load("56751617")
    local p = threats()
    assert.equal("3", p:choose(g))
    local after = g:play("4")
    assert.is_true(after:play("4"):is_over())
    assert.equal("red", after:play("4"):result().winner)
  end)

  it("knows when every move loses", function()
    local p = threats()
    local move = p:choose(connect4.load("131475"))          -- red: 3 4 5, open both ends
    assert.truthy(move == "2" or move == "6", move)
    assert.same({move = move, reason = "lost", threats = 1}, p.info)
  end)

  it("beats random and greedy play", function()
    local result = match(connect4, threats(), random{seed = 2}, {games = 6, progress = false})
    assert.equal(6, result.a.wins)
    result = match(connect4, threats(), greedy{seed = 4}, {games = 4, progress = false})
    assert.equal(4, result.a.wins)
  end)

  it("says it plays Connect Four only when given another game", function()
    assert_raises({"connect4_threats: plays Connect Four only (move 'a1' is not a column)"},
                  threats().choose, threats(), tictactoe.new())
  end)
end)

describe("every player", function()
  local players = {
    {"random", function() return random{seed = 5} end},
    {"greedy", function() return greedy{seed = 6} end},
    {"minimax", function() return minimax{depth = 2} end},
    {"connect4_threats", function() return threats() end},
  }
  local games = {
    {"tic-tac-toe", tictactoe},
    {"connect4", connect4},
    {"mnk 4,4,3 in Lua", require("ludus.variants.mnk"), {m = 4, k = 3}},
  }
  for _, player in ipairs(players) do
    for _, game in ipairs(games) do
      if player[1] ~= "connect4_threats" or game[1] == "connect4" then
        it(player[1] .. " plays legal moves at " .. game[1] .. " against random", function()
          -- match raises on an illegal move or a player that raises.
          local result = match(game[2], player[2](), random{seed = 9},
                               {games = 4, options = game[3], progress = false})
          local a = result.a
          assert.equal(4, a.wins + a.draws + a.losses)
          for _, record in ipairs(result.records) do
            assert.is_true(assert(game[2].load(record.record, game[3])):is_over())
          end
          assert.equal(player[1], a.name)
        end)
      end
    end
  end

  it("has a name, an info table and a choose method", function()
    for _, player in ipairs(players) do
      local p = player[2]()
      assert.equal(player[1], p.name)
      assert.equal("table", type(p.info))
      assert.equal("function", type(p.choose))
      local move = p:choose(connect4.new())
      assert.equal(move, p.info.move)
    end
  end)
end)
