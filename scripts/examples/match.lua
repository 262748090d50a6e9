-- match.lua: two players meet over a series of games; prints the score
-- and what it says about their Elo difference.
--
--   ludus scripts/examples/match.lua [game] [player_a] [player_b] [games]
--   ludus scripts/examples/match.lua tictactoe first random 20
--
-- The players are "first" and "last" (the first or last legal move) and
-- "random" (any legal move, from a seeded generator, so a run repeats);
-- with ludus.ai, also "alphabeta" and "mcts".

local ludus = require("ludus")
local match = require("ludus.match")

-- xorshift64* (Vigna, 2016): a uniform integer in 1..n.  Each random
-- player has its own, so a run does not depend on math.random.
local function generator(seed)
  local state = seed
  return function(n)
    state = state ~ (state >> 12)
    state = state ~ (state << 25)
    state = state ~ (state >> 27)
    return ((state * 0x2545F4914F6CDD1D) >> 1) % n + 1
  end
end

local random_seeds = 0

local players = {
  first = function()
    return {name = "first", choose = function(_, game) return game:moves()[1] end}
  end,
  last = function()
    return {name = "last", choose = function(_, game)
      local moves = game:moves()
      return moves[#moves]
    end}
  end,
  random = function()
    random_seeds = random_seeds + 1
    local random = generator(0x9E3779B97F4A7C15 * random_seeds)
    return {name = "random", choose = function(_, game)
      local moves = game:moves()
      return moves[random(#moves)]
    end}
  end,
}

-- An ai player under the name the user typed, whatever it calls itself.
local function named(name, player)
  local choose = type(player) == "function" and function(_, game) return player(game) end
    or function(_, game) return player:choose(game) end
  return {name = name, choose = choose, new_game = function()
    if type(player) ~= "function" and player.new_game then player:new_game() end
  end}
end

if ludus.ai then
  if ludus.ai.alphabeta then
    players.alphabeta = function()
      return named("alphabeta", ludus.ai.alphabeta{time = 0.05})
    end
  end
  if ludus.ai.mcts then
    players.mcts = function()
      return named("mcts", ludus.ai.mcts{playouts = 500})
    end
  end
end

local function sorted_keys(t)
  local keys = {}
  for key in pairs(t) do keys[#keys + 1] = key end
  table.sort(keys)
  return keys
end

local function usage(problem)
  io.stderr:write(problem, "\n",
    "usage: ludus scripts/examples/match.lua [game] [player_a] [player_b] [games]\n",
    "  game:     ", table.concat(ludus.games, ", "), " (default tictactoe)\n",
    "  players:  ", table.concat(sorted_keys(players), ", "),
    " (default first against random)\n",
    "  games:    how many, 1 or more (default 20)\n")
  os.exit(1)
end

local game_name = arg[1] or "tictactoe"
local names = {arg[2] or "first", arg[3] or "random"}
local games = math.tointeger(tonumber(arg[4] or "20"))

local game = nil
for _, name in ipairs(ludus.games) do
  if name == game_name then game = ludus[name] end
end
if not game then usage(("unknown game '%s'"):format(game_name)) end
for _, name in ipairs(names) do
  if not players[name] then usage(("unknown player '%s'"):format(name)) end
end
if not games or games < 1 then usage(("bad number of games '%s'"):format(arg[4])) end

print(match(game, players[names[1]](), players[names[2]](), {games = games}))
