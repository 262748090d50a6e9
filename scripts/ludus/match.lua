-- match.lua: players meet over a series of games of one game module, and
-- the score says how far apart they are.
--
--   local match = require "ludus.match"
--   local result = match(ludus.tictactoe, player_a, player_b, {games = 20})
--   print(result)  --> a (first) vs b (random): +9 =2 -9 in 20 games, ...
--   match.elo(wins, draws, losses)  --> elo, low, high
--   match.tournament(G, {p1, p2, p3}, {games = 10})   -- round robin
--
-- A player is a function(game) -> move, or a value with a method
-- choose(game [, clock]) -> move.  Such a value may also have a name (for
-- the reports) and a new_game method, called before each game starts.  A
-- player is handed a copy of the game, and a move is a string, or
-- anything tostring() turns into one, applied with game:play(move).
-- A player may also be named by a string, a spec (match.player): a kind
-- of match.kinds ("alphabeta", "mcts", "greedy", "random", or one added
-- there, as ai.uci can be), a player of scripts/players, or a Lua file
-- that returns a player; options follow a colon ("alphabeta:depth=4").
-- A spec makes a new player for each game, seeded from the game's number.
-- A player that cannot go on (an engine that died, hung or sent an
-- illegal move: ai.uci) returns nil and the reason: it forfeits, and
-- loses that game (ending "forfeit").  A player's close method, if it
-- has one, is called when the match ends.
--
-- Options (all optional):
--   games = 2          how many games (for each pair of players)
--   swap = true        colours alternate: a has the first side in odd
--                      games, b in even ones; false: a always has it
--   options = nil      passed to G.new and G.load (board size and such)
--   opening = nil      a record every game starts from; or a list of them,
--                      each played once with either colour when swapping;
--                      or k, a number of random plies for each pair of games
--   seed = 1           for the random openings and the specs' players
--   max_plies = 10000  a longer game stops and is scored a draw
--   progress = true    a status line on stderr when it is a terminal; or a
--                      function(done, total, result) called after each game
--   concurrency = nil  games at once, each in a process of its own (a
--                      fork: players keep nothing from game to game); a
--                      player that raises, crashes, hangs or plays an
--                      illegal move then loses the game instead of
--                      stopping the match.  nil: one by one in this process
--   tc = nil           a clock: "base+increment" in seconds ("10+0.1"), or
--                      {base =, increment =}; a player whose clock runs
--                      out loses on time
--   st = nil           seconds per move, the other kind of time control
--   margin = 0.05      seconds a move may overrun its time
--   sprt = nil         {elo0 =, elo1 =, alpha =, beta =} (or that as
--                      "elo0=0 elo1=5 alpha=0.05 beta=0.05"): stop when the
--                      test decides
--   out = nil          a file for one JSON line per finished game
--   resume = false     with out: keep the games it has and play the rest
--   shard = nil        "K/N": play the K-th share of the pairs of games
--                      (not with sprt: the merge of the shards tests)
--
-- The result: {games =, a = {name =, wins =, draws =, losses =, score =},
-- b = {...}, elo =, elo_low =, elo_high =, pentanomial = {counts, elo =,
-- elo_low =, elo_high =} (over pairs of games), endings = {how = count},
-- sprt = {llr =, lower =, upper =, decision =}, records = {...}}, one
-- record per game: {record =, first = "a" or "b", winner = "a", "b" or
-- nil, result = g:result() (nil when truncated or forfeited), ending =
-- "rules", "max plies", "time", "illegal move", "error", "no move",
-- "forfeit", "crash" or "hang", reason =, plies =, truncated =, opening = the
-- opening's record or nil, options = the options, game =, pair =}.  A
-- record is the whole game, opening included; G.load takes it as it is
-- (G.load(r.records[1])), or its string with the options
-- (G.load(r.records[1].record, options)).  Ctrl-C stops the match: the
-- result holds the games finished, and stopped = "interrupted"; an SPRT
-- that decided sets stopped = "sprt".

local stats = require("ludus.match_stats")

local DEFAULTS = {games = 2, swap = true, seed = 1, max_plies = 10000,
                  progress = true, margin = 0.05, resume = false}
local RANDOM_OPENING_TRIES = 100
local MAX_GAMES = 10000000     -- in a match, over all its pairs of players

local match = {}

-- Names a value's type the way Lua's argument errors do: __name first.
local function type_name(v)
  local mt = getmetatable(v)
  if type(mt) == "table" then mt = mt.__name end  -- ludus objects hide theirs
  if type(mt) == "string" then return mt end
  return type(v)
end

-- v[key], or nil where indexing would raise (userdata without __index).
local function field(v, key)
  if type(v) ~= "table" and type(v) ~= "userdata" then return nil end
  local ok, value = pcall(function() return v[key] end)
  if ok then return value end
  return nil
end

local run, tournament  -- the entry points; argerror looks for them on the stack

-- Ctrl-C stops a match between two moves: the searches return what they
-- have, and the games finished so far are the result (stopped =
-- "interrupted").  Not at load time: require "ludus" loads this module.
local STOPPED = setmetatable({}, {__tostring = function() return "interrupted" end})
local function interrupted()
  return require("ludus").interrupted()
end

-- Raises at the caller of match, however deep the check that failed.
local entry_name = "match"
local function argerror(n, message)
  local level = 2
  while debug.getinfo(level, "f") and debug.getinfo(level, "f").func ~= run
        and debug.getinfo(level, "f").func ~= tournament do
    level = level + 1
  end
  error(("bad argument #%d to '%s' (%s)"):format(n, entry_name, message), level + 1)
end

-- v as an integer when it is a number with an integral value, else nil.
local function integer(v)
  return type(v) == "number" and math.tointeger(v) or nil
end

------------------------------------------------------------------- Elo

local function check_count(v, n)
  if type(v) ~= "number" or v ~= v or v < 0 then
    error(("bad argument #%d to 'elo' (non-negative number expected, got %s)")
          :format(n, type(v) == "number" and tostring(v) or type_name(v)), 3)
  end
end

-- With N games scored p = (W + D/2)/N, the score of one game has variance
--   s^2 = (W*(1-p)^2 + D*(1/2-p)^2 + L*(0-p)^2) / N
-- and the mean over N games a standard error se = sqrt(s^2/N).  The
-- interval p -/+ 1.959964*se is turned into Elo too, clamped there
-- (match_stats.lua).
function match.elo(wins, draws, losses)
  check_count(wins, 1)
  check_count(draws, 2)
  check_count(losses, 3)
  if wins + draws + losses == 0 then
    error("bad argument to 'elo' (no games: wins + draws + losses is 0)", 2)
  end
  return stats.elo(wins, draws, losses)
end

-- The pentanomial counts (pairs scoring 0, 1/2, 1, 3/2, 2) -> Elo, low,
-- high.
function match.pentanomial(counts)
  if type(counts) ~= "table" or #counts ~= 5 then
    error("bad argument #1 to 'pentanomial' (a list of 5 counts expected)", 2)
  end
  local total = 0
  for i = 1, 5 do
    check_count(counts[i], 1)
    total = total + counts[i]
  end
  if total == 0 then error("bad argument #1 to 'pentanomial' (no pairs)", 2) end
  return stats.pentanomial_elo(counts)
end

local SPRT_KEYS = {"elo0", "elo1", "alpha", "beta"}
local MAX_SPRT_ELO = 4000

-- The SPRT bounds from a table or "elo0=0 elo1=5 alpha=0.05 beta=0.05";
-- nil, message when they are not right.
local function sprt_bounds(spec)
  local bounds = {}
  if type(spec) == "string" then
    -- "elo0=0 elo1=5", spaces or commas between; each word key=value,
    -- each key once
    for word in spec:gsub("%s*=%s*", "="):gmatch("[^%s,]+") do
      local key, value = word:match("^([%w_]+)=(.+)$")
      if not key then
        return nil, ("'%s' is not key=value (elo0=, elo1=, alpha=, beta=)"):format(word)
      elseif bounds[key] ~= nil then
        return nil, ("'%s' is given twice"):format(key)
      end
      bounds[key] = tonumber(value) or value
    end
  elseif type(spec) == "table" then
    for key, value in pairs(spec) do bounds[key] = value end
  else
    return nil, "a table {elo0=, elo1=, alpha=, beta=} expected, got " .. type_name(spec)
  end
  bounds.alpha = bounds.alpha or 0.05
  bounds.beta = bounds.beta or 0.05
  for key in pairs(bounds) do
    local known = false
    for _, k in ipairs(SPRT_KEYS) do known = known or k == key end
    if not known then return nil, ("unknown bound '%s'"):format(tostring(key)) end
  end
  for _, key in ipairs(SPRT_KEYS) do
    if type(bounds[key]) ~= "number" or bounds[key] ~= bounds[key] then
      return nil, ("'%s' must be a number, got %s"):format(key, tostring(bounds[key]))
    end
  end
  for _, key in ipairs({"elo0", "elo1"}) do
    -- past some 6000 a score rounds to 1 and the likelihoods to nothing
    if math.abs(bounds[key]) > MAX_SPRT_ELO then
      return nil, ("'%s' must be an Elo difference from %d to %d, got %s")
        :format(key, -MAX_SPRT_ELO, MAX_SPRT_ELO, tostring(bounds[key]))
    end
  end
  if bounds.elo1 <= bounds.elo0 then return nil, "elo1 must be more than elo0" end
  for _, key in ipairs({"alpha", "beta"}) do
    if bounds[key] <= 0 or bounds[key] >= 0.5 then
      return nil, ("'%s' must be between 0 and 0.5, got %s"):format(key, bounds[key])
    end
  end
  return bounds
end

-- match.sprt(counts, bounds): the test on 3 counts (wins, draws, losses)
-- or 5 (the pentanomial) -> {llr =, lower =, upper =, decision =}.
function match.sprt(counts, spec)
  if type(counts) ~= "table" or (#counts ~= 3 and #counts ~= 5) then
    error("bad argument #1 to 'sprt' (a list of 3 or 5 counts expected)", 2)
  end
  for i = 1, #counts do check_count(counts[i], 1) end
  local bounds, message = sprt_bounds(spec)
  if not bounds then error("bad argument #2 to 'sprt' (" .. message .. ")", 2) end
  return stats.sprt(counts, bounds)
end

------------------------------------------------------ random openings

-- splitmix64 (Steele, Lea and Flood, 2014) on Lua's wrapping integers,
-- so that openings depend on the seed alone, not on math.random's state.
local function mix(z)
  z = z + 0x9E3779B97F4A7C15
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return z ~ (z >> 31)
end

-- Returns a function giving a uniform integer in 1..n.
local function generator(seed)
  local state = seed
  return function(n)
    state = state + 0x9E3779B97F4A7C15
    local z = mix(state - 0x9E3779B97F4A7C15)
    return (z >> 1) % n + 1     -- the bias, n / 2^63, is far below notice
  end
end

-- The record of a game after 'plies' random moves that is not yet over,
-- or nil when every try ended the game.
local function random_opening(G, options, plies, random)
  for _ = 1, RANDOM_OPENING_TRIES do
    local game = G.new(options)
    for _ = 1, plies do
      local moves = game:moves()
      if #moves == 0 then break end
      game = game:play(moves[random(#moves)])
    end
    if not game:is_over() then return game:save() end
  end
  return nil
end

------------------------------------------------------------- players

-- The kinds of player a spec can name: kinds[name](options, G, seed) ->
-- a player; options are the spec's "k=v,..." (numbers read as numbers),
-- or {text = what follows the colon} when it is not such a list.  A
-- module may add its own (ai.uci: match.kinds.uci = function(options)
-- ... end), and "NAME:anything" then reaches it.
match.kinds = {}

-- The options of the built-in searches that limit a move: without one
-- of them and with a clock, the match gives the move a time.
local LIMITS = {depth = true, nodes = true, playouts = true, time = true}
local TIMED = {alphabeta = true, mcts = true}

for _, kind in ipairs({"alphabeta", "mcts", "greedy", "random"}) do
  local seeded = kind == "mcts" or kind == "random"
  match.kinds[kind] = function(options, _, seed)
    -- a seed that is not an integer is left for the C check to refuse
    if seeded and (options.seed == nil or math.type(options.seed) == "integer") then
      options.seed = options.seed and mix(options.seed ~ seed) or seed
    end
    -- a bad option raises in C, at this line: the message alone says it
    local ok, player = pcall(require("ludus").ai[kind], options)
    if not ok then error(player, 0) end
    return player
  end
end

-- A UCI engine (ai.uci): "uci:fairy-stockfish" runs that command;
-- "uci:command=fairy-stockfish,go=movetime 200,UCI_Variant=xiangqi"
-- gives ai.uci's own keys (command, go, name, ranks, margin, timeout)
-- and sets every other as an engine option.
local UCI_KEYS = {command = true, go = true, name = true, ranks = true,
                  margin = true, timeout = true}

-- Whether a program can be found: a path, or a name in $PATH.  (ai.uci
-- starts its engine at the first move; an engine that is not there
-- would lose every game of a match by an error rather than stop it.)
local function findable(program)
  if program:find("/", 1, true) then
    local f = io.open(program, "rb")
    if f then f:close() end
    return f ~= nil
  end
  for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do
    local f = io.open(dir .. "/" .. program, "rb")
    if f then
      f:close()
      return true
    end
  end
  return false
end

match.kinds.uci = function(options)
  local spec = {options = {}}
  if options.text then
    spec.command = options.text
  else
    for key, value in pairs(options) do
      if UCI_KEYS[key] then spec[key] = value else spec.options[key] = value end
    end
  end
  local player = require("ludus").ai.uci(spec)
  local program = player._argv[1]
  if not findable(program) then
    error(("ai.uci: no program '%s' to start%s"):format(program,
      program:find("/", 1, true) and "" or " (not in $PATH)"), 0)
  end
  return player
end

-- "k=v,k=v" as a table (numbers as numbers, true and false as booleans);
-- nil when the text is not such a list.
local function spec_options(text)
  local options = {}
  if text == "" then return options end
  for item in (text .. ","):gmatch("([^,]*),") do
    local key, value = item:match("^%s*([%a_][%w_]*)%s*=%s*(.-)%s*$")
    if not key then return nil end
    if value == "true" then value = true
    elseif value == "false" then value = false
    else value = math.tointeger(tonumber(value)) or tonumber(value) or value end
    options[key] = value
  end
  return options
end

local function is_player(v)
  return type(v) == "function" or type(field(v, "choose")) == "function"
end

-- What a Lua file named as a player returned, made a player.  A file of
-- scripts/players (minimax.lua) returns a maker of players, options ->
-- player, rather than a player, g -> move: both are functions, told
-- apart by a trial call with the options, which a maker answers with a
-- player and a player (handed a table for a game) with an error or no
-- player.  Then the file plays as NAME:options does.  is_a_player
-- (is_player by default) says what a player of the game is: a mahjong
-- seat's is a function or a table with discard.
local function file_player(returned, options, is_a_player)
  if type(returned) ~= "function" then return returned end
  local copy = {}
  for k, v in pairs(options) do copy[k] = v end
  local ok, made = pcall(returned, copy)
  if ok and (is_a_player or is_player)(made) and made ~= returned then return made end
  return returned
end

-- match.player(spec, G [, seed]) -> the player spec names, made anew, or
-- raises saying what is wrong.
function match.player(spec, G, seed)
  if type(spec) ~= "string" then
    error("bad argument #1 to 'player' (string expected, got " .. type_name(spec) .. ")", 2)
  end
  seed = seed or 1
  local path, rest = spec:match("^(.-%.lua):(.*)$")
  if not path then path, rest = spec:match("^(.-%.lua)$"), "" end
  local name = spec
  if not path then
    local colon = spec:find(":", 1, true)
    name = colon and spec:sub(1, colon - 1) or spec
    rest = colon and spec:sub(colon + 1) or ""
  end
  local options = spec_options(rest) or {text = rest}
  local player
  if path then
    local chunk, message = loadfile(path)
    if not chunk then error(("player '%s': %s"):format(spec, message), 0) end
    player = file_player(chunk(options, G, seed), options)
  elseif match.kinds[name] then
    player = match.kinds[name](options, G, seed)
  else
    local ok, module = pcall(require, "ludus.players." .. name)
    if not ok or type(module) ~= "function" then
      local names = {}
      for kind in pairs(match.kinds) do names[#names + 1] = kind end
      table.sort(names)
      error(("no player '%s' (a kind: %s; a player of scripts/players; "
             .. "or a Lua file, NAME.lua)"):format(spec, table.concat(names, ", ")), 0)
    end
    player = module(options)
  end
  if not is_player(player) then
    error(("player '%s' is a %s, not a player (a function or a value with "
           .. "a choose method)"):format(spec, type_name(player)), 0)
  end
  return player, options
end

-- The seed of a spec's player in a game: from the match's seed, the
-- game's number and the player's letter.
local function game_seed(seed, number, letter)
  return mix(mix(seed) ~ (number * 2 + (letter == "a" and 0 or 1)))
end

-- The time a built-in search gets for a move.
local function allocate(clock)
  if clock.move_time then return clock.move_time * 0.8 end
  local share = clock.left / 25 + 0.8 * (clock.increment or 0)
  return math.max(0.001, math.min(share, clock.left * 0.5))
end

-- What play_game needs of a player: letter, name, and make(number) ->
-- {choose = function(game, clock) -> move, new_game = function or nil}.
local function spec_player(spec, letter, n, G, seed)
  local ok, message, options = pcall(match.player, spec, G, seed)
  if not ok then argerror(n, message) end
  -- the spec names the player, unless it gives a name
  local p = {letter = letter, name = spec, spec = spec,
             label = options.name ~= nil and tostring(options.name) or spec}
  function p.make(number)
    local player, given = match.player(spec, G, game_seed(seed, number, letter))
    local timed = type(player) == "table" and TIMED[spec:match("^[^:]*")]
    if timed then
      for key in pairs(LIMITS) do timed = timed and given[key] == nil end
    end
    return {
      choose = function(game, clock)
        if type(player) == "function" then return player(game, clock) end
        if timed and clock then player.time = allocate(clock) end
        return player:choose(game, clock)
      end,
      new_game = type(player) ~= "function" and field(player, "new_game")
        and function() player:new_game() end or nil,
    }
  end
  return p
end

local function check_player(p, letter, n, G, seed)
  if type(p) == "string" then return spec_player(p, letter, n, G, seed) end
  if type(p) == "function" then
    return {letter = letter, name = "function", original = p, make = function()
      return {choose = function(game, clock) return p(game, clock) end}
    end}
  end
  if type(field(p, "choose")) ~= "function" then
    argerror(n, ("player expected, got %s; a player is a function, a value "
                 .. "with a choose method or a spec (\"alphabeta:depth=4\")")
             :format(type_name(p)))
  end
  local name = field(p, "name")
  local chooser = {choose = function(game, clock) return p:choose(game, clock) end}
  local hook = field(p, "new_game")
  if type(hook) == "function" then chooser.new_game = function() return hook(p) end end
  return {letter = letter, name = name ~= nil and tostring(name) or letter,
          original = p, make = function() return chooser end}
end

--------------------------------------------------------- the arguments

local function check_game(G)
  if type(field(G, "new")) ~= "function" or type(field(G, "load")) ~= "function" then
    argerror(1, ("game module expected, got %s; a game module has new and load")
             :format(type_name(G)))
  end
end

local KNOWN_OPTIONS = {games = true, swap = true, options = true, opening = true,
                       seed = true, max_plies = true, progress = true,
                       concurrency = true, tc = true, st = true, margin = true,
                       sprt = true, out = true, resume = true, shard = true,
                       kind = true}

local function positive_integer(opts, key)
  local v = integer(opts[key])
  if not v or v < 1 then
    argerror(4, ("option '%s' must be a positive integer, got %s")
             :format(key, tostring(opts[key])))
  end
  return v
end

local function positive_number(opts, key, zero)
  local v = opts[key]
  if type(v) ~= "number" or v ~= v or v < 0 or (v == 0 and not zero) or v > 1e9 then
    argerror(4, ("option '%s' must be a %s number of seconds, got %s")
             :format(key, zero and "non-negative" or "positive", tostring(v)))
  end
  return v
end

-- A clock: "base+increment" or "base" in seconds, or {base =, increment =}.
local function check_tc(tc)
  local base, increment
  if type(tc) == "string" then
    local b, i = tc:match("^%s*([%d.]+)%s*%+%s*([%d.]+)%s*$")
    if not b then b = tc:match("^%s*([%d.]+)%s*$") end
    base, increment = tonumber(b), tonumber(i or "0")
  elseif type(tc) == "table" then
    base, increment = tc.base, tc.increment or 0
  end
  if type(base) ~= "number" or base <= 0 or base > 1e9 or type(increment) ~= "number"
     or increment < 0 or increment > 1e9 then
    argerror(4, ("option 'tc' must be \"base+increment\" in seconds (\"10+0.1\"), "
                 .. "got %s"):format(tostring(tc)))
  end
  return {base = base, increment = increment}
end

local function check_options(opts)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    argerror(4, "table of options expected, got " .. type_name(opts))
  end
  for key in pairs(opts) do
    if not KNOWN_OPTIONS[key] then
      local known = {}
      for name in pairs(KNOWN_OPTIONS) do known[#known + 1] = name end
      table.sort(known)
      argerror(4, ("unknown option '%s' (it takes: %s)")
               :format(tostring(key), table.concat(known, " ")))
    end
  end
  local checked = setmetatable({}, {__index = DEFAULTS})
  for key, value in pairs(opts) do checked[key] = value end
  checked.games = positive_integer(checked, "games")
  checked.max_plies = positive_integer(checked, "max_plies")
  if type(checked.swap) ~= "boolean" then
    argerror(4, "option 'swap' must be a boolean, got " .. type_name(checked.swap))
  end
  if checked.options ~= nil and type(checked.options) ~= "table" then
    argerror(4, "option 'options' must be a table, got " .. type_name(checked.options))
  end
  if math.type(checked.seed) ~= "integer" then
    argerror(4, "option 'seed' must be an integer, got " .. tostring(checked.seed))
  end
  local progress = checked.progress
  if type(progress) ~= "boolean" and type(progress) ~= "function" then
    argerror(4, "option 'progress' must be a boolean or a function, got "
             .. type_name(progress))
  end
  if checked.concurrency ~= nil then
    checked.concurrency = positive_integer(checked, "concurrency")
  end
  if checked.tc ~= nil and checked.st ~= nil then
    argerror(4, "option 'tc' and option 'st' are two time controls: give one")
  end
  if checked.tc ~= nil then checked.tc = check_tc(checked.tc) end
  if checked.st ~= nil then checked.st = positive_number(checked, "st") end
  checked.margin = positive_number(checked, "margin", true)
  if checked.sprt ~= nil then
    local bounds, message = sprt_bounds(checked.sprt)
    if not bounds then argerror(4, "option 'sprt': " .. message) end
    checked.sprt = bounds
  end
  if checked.out ~= nil and type(checked.out) ~= "string" then
    argerror(4, "option 'out' must be a file name, got " .. type_name(checked.out))
  end
  if type(checked.resume) ~= "boolean" then
    argerror(4, "option 'resume' must be a boolean, got " .. type_name(checked.resume))
  end
  if checked.resume and not checked.out then
    argerror(4, "option 'resume' needs option 'out', the file to resume from")
  end
  if checked.shard ~= nil then
    local k, n = tostring(checked.shard):match("^(%d+)/(%d+)$")
    k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
    if not k or k < 1 or k > n then
      argerror(4, ("option 'shard' must be \"K/N\" with 1 <= K <= N, got %s")
               :format(tostring(checked.shard)))
    end
    checked.shard = {k, n}
    -- a shard stopped by its own test leaves out the games the others
    -- would have needed: merged, the shards would not be the match
    if checked.sprt then
      argerror(4, "option 'sprt' is not for option 'shard': each shard would stop "
               .. "on its own test, and the shards merged would not be one match; "
               .. "play the shards without it, and give it to the merge "
               .. "(ludus match --merge FILE... --sprt ...)")
    end
  end
  return checked
end

-- Loads an opening record; returns it in the game's own spelling.
local function opening_record(G, options, text, label)
  if type(text) ~= "string" then
    argerror(4, ("%s: record expected, got %s"):format(label, type_name(text)))
  end
  local game, message = G.load(text, options)
  if not game then
    argerror(4, ("%s does not load: %s"):format(label, tostring(message)))
  end
  if game:is_over() then
    argerror(4, ("%s '%s' is already over"):format(label, text))
  end
  return game:save()
end

-- The openings: a function giving the record of the i-th (i from 1, one
-- per pair of games when swapping, else one per game) or nil for none.
local function check_openings(G, opts)
  local opening, options = opts.opening, opts.options
  if opening == nil then return nil end
  local records = {}
  if type(opening) == "string" then
    records[1] = opening_record(G, options, opening, "opening")
  elseif type(opening) == "table" then
    if #opening == 0 then argerror(4, "opening: the list is empty") end
    for i = 1, #opening do
      records[i] = opening_record(G, options, opening[i], "opening " .. i)
    end
  elseif integer(opening) and opening >= 0 then
    local plies = integer(opening)
    if plies == 0 then return nil end
    local random = generator(opts.seed)
    -- made in order as they are needed, so that a long match does not
    -- make them all first; the first is made now, to check the plies
    local function at(i)
      while #records < i do
        local record = random_opening(G, options, plies, random)
        if not record then
          argerror(4, ("opening: %d random plies ended the game in each of %d tries")
                   :format(plies, RANDOM_OPENING_TRIES))
        end
        records[#records + 1] = record
      end
      return records[i]
    end
    at(1)
    return at
  else
    argerror(4, "opening: a record, a list of records or a number of random "
             .. "plies expected, got " .. tostring(opening))
  end
  return function(i) return records[(i - 1) % #records + 1] end
end

------------------------------------------------------------ JSON lines

local ESCAPES = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\r"] = "\\r",
                 ["\t"] = "\\t"}

local function json(v)
  local t = type(v)
  if t == "string" then
    return '"' .. v:gsub('[%c"\\]', function(c)
      return ESCAPES[c] or ("\\u%04x"):format(c:byte())
    end) .. '"'
  elseif t == "number" then
    if v ~= v or v == math.huge or v == -math.huge then return "null" end
    if math.type(v) == "integer" then return tostring(v) end
    return ("%.14g"):format(v)
  elseif t == "boolean" then
    return tostring(v)
  elseif t == "table" and #v > 0 then   -- a list (the players of a match)
    local parts = {}
    for i = 1, #v do parts[i] = json(v[i]) end
    return "[" .. table.concat(parts, ",") .. "]"
  elseif t == "table" then
    local keys = {}
    for key in pairs(v) do keys[#keys + 1] = tostring(key) end
    table.sort(keys)
    local parts = {}
    for _, key in ipairs(keys) do parts[#parts + 1] = json(key) .. ":" .. json(v[key]) end
    return "{" .. table.concat(parts, ",") .. "}"
  end
  return "null"
end

-- The members of a game's line, in this order.
local LINE_KEYS = {"game", "pair", "a", "b", "first", "winner", "ending", "reason",
                   "plies", "record", "opening", "result", "seconds", "match"}

local function json_line(rec, names, settings)
  local parts = {}
  for _, key in ipairs(LINE_KEYS) do
    local v = rec[key]
    if key == "a" or key == "b" then v = names[key] end
    if key == "match" and settings then v = settings end
    if v ~= nil then parts[#parts + 1] = json(key) .. ":" .. json(v) end
  end
  return "{" .. table.concat(parts, ",") .. "}"
end


----------------------------------------------------------- the games

local now = require("ludus.process").now

-- A game ends early for a player: raises (in this process) or, when the
-- game has a process of its own (forfeit), is a loss with the reason.
-- Running out of time is a loss either way.
local Forfeit = {}

local function fail(setup, player, number, what, detail, ending)
  if setup.forfeit or ending == "time" then   -- a loss on time is a result
    error(setmetatable({letter = player.letter, ending = ending,
                        reason = detail ~= nil and what .. ": " .. tostring(detail)
                                 or what}, Forfeit), 0)
  end
  local message = ("match: player %s (\"%s\") %s in game %d")
    :format(player.letter, player.name, what, number)
  if detail ~= nil then message = message .. ": " .. tostring(detail) end
  error(message, 0)
end

local function forfeited(e) return getmetatable(e) == Forfeit end

-- Plays game 'number' from 'opening' (a record or nil) with 'first' on
-- setup.first_side; returns its record.  send, when given, is the line
-- to the parent process (match_runner.lua).
local function play_game(setup, number, opening, first, second, send)
  local G, opts = setup.G, setup.opts
  local started = now()
  local game = opening and assert(G.load(opening, opts.options))
    or G.new(opts.options)
  local plies = #game:history()
  local truncated, forfeit = false, nil
  local tc, st, margin = opts.tc, opts.st, opts.margin
  local left = tc and {[first.letter] = tc.base, [second.letter] = tc.base}
  local ok, err = pcall(function()
    local choosers = {}
    for _, player in ipairs({first, second}) do
      local made, chooser = pcall(player.make, number)
      if not made then fail(setup, player, number, "could not be made", chooser, "error") end
      choosers[player.letter] = chooser
      if chooser.new_game then
        local good, message = pcall(chooser.new_game)
        if not good then
          fail(setup, player, number, "raised an error from new_game", message, "error")
        end
      end
    end
    while not game:is_over() do
      if plies >= opts.max_plies then
        truncated = true
        break
      end
      local player, other = first, second
      if game:turn() ~= setup.first_side then player, other = second, first end
      local clock
      if tc then
        clock = {left = left[player.letter], opponent_left = left[other.letter],
                 increment = tc.increment, plies = plies}
      elseif st then
        clock = {move_time = st, plies = plies}
      end
      local allowed = clock and (clock.move_time or clock.left) + margin
      if send then
        send(("turn\t%s\t%s\t%s"):format(player.letter, allowed or "-", game:save()))
      end
      local t0 = now()
      -- a copy: whatever the player does to it cannot change this game
      local chose, move, reason = pcall(choosers[player.letter].choose, game:copy(), clock)
      local used = now() - t0
      if interrupted() then error(STOPPED, 0) end
      if not chose then
        if forfeited(move) then error(move, 0) end
        fail(setup, player, number, "raised an error", move, "error")
      elseif move == nil and reason ~= nil then
        -- the player gives the game up and says why (ai.uci: its engine
        -- died, hung or sent an illegal move): a loss in any case
        error(setmetatable({letter = player.letter, ending = "forfeit",
                            reason = tostring(reason)}, Forfeit), 0)
      elseif move == nil then
        fail(setup, player, number, "returned no move", nil, "no move")
      end
      move = tostring(move)
      if allowed and used > allowed then
        fail(setup, player, number, ("lost on time (%.3f s for a move, %.3f s allowed)")
             :format(used, allowed - margin), nil, "time")
      end
      if tc then left[player.letter] = left[player.letter] - used + tc.increment end
      local played, after = pcall(game.play, game, move)
      if not played then
        fail(setup, player, number, ("chose illegal move '%s'"):format(move), after,
             "illegal move")
      end
      game = after
      plies = plies + 1
    end
  end)
  if not ok then
    if not forfeited(err) then error(err, 0) end
    forfeit = err
  end
  local result = not truncated and not forfeit and game:result() or nil
  local winner
  if forfeit then
    winner = forfeit.letter == first.letter and second.letter or first.letter
  elseif result and result.winner ~= nil then
    winner = result.winner == setup.first_side and first.letter or second.letter
  end
  return {record = game:save(), options = opts.options, first = first.letter,
          winner = winner, result = result, plies = plies, truncated = truncated,
          opening = opening, seconds = now() - started,
          ending = forfeit and forfeit.ending or truncated and "max plies" or "rules",
          reason = forfeit and forfeit.reason or nil}
end

------------------------------------------------------------ the result

local Result = {__name = "ludus.match.result"}

local function elo_text(v)
  if v == math.huge then return "+inf" elseif v == -math.huge then return "-inf" end
  return ("%+.0f"):format(v)
end

function Result.__tostring(r)
  local a = r.a
  if r.games == 0 then
    return ("a (%s) vs b (%s): no game finished%s"):format(a.name, r.b.name,
      r.stopped and " (stopped: " .. r.stopped .. ")" or "")
  end
  return ("a (%s) vs b (%s): +%d =%d -%d in %d game%s, score %.1f%%, Elo %s [%s, %s]%s")
    :format(a.name, r.b.name, a.wins, a.draws, a.losses, r.games,
            r.games == 1 and "" or "s", 100 * a.score / r.games,
            elo_text(r.elo), elo_text(r.elo_low), elo_text(r.elo_high),
            r.stopped and " (stopped: " .. r.stopped .. ")" or "")
end

local function tally(name)
  return {name = name, wins = 0, draws = 0, losses = 0, score = 0}
end

local function new_result(name_a, name_b)
  return setmetatable({games = 0, a = tally(name_a), b = tally(name_b), records = {},
                       endings = {}, pending = {},
                       pentanomial = {0, 0, 0, 0, 0, pairs = 0}}, Result)
end

-- Adds a finished game (its record) to an encounter's result.
local function count(result, record)
  local a, b = result.a, result.b
  if record.winner == "a" then
    a.wins, b.losses = a.wins + 1, b.losses + 1
  elseif record.winner == "b" then
    b.wins, a.losses = b.wins + 1, a.losses + 1
  else
    a.draws, b.draws = a.draws + 1, b.draws + 1
  end
  a.score = a.wins + a.draws / 2
  b.score = b.wins + b.draws / 2
  result.records[#result.records + 1] = record
  result.games = #result.records
  result.elo, result.elo_low, result.elo_high = stats.elo(a.wins, a.draws, a.losses)
  local ending = record.ending or "rules"
  result.endings[ending] = (result.endings[ending] or 0) + 1
  -- the pentanomial: a's score over both games of a pair
  if record.pair then
    local score = record.winner == "a" and 1 or record.winner == "b" and 0 or 0.5
    local other = result.pending[record.pair]
    if other then
      result.pending[record.pair] = nil
      local penta = result.pentanomial
      local i = math.tointeger((score + other) * 2) + 1
      penta[i] = penta[i] + 1
      penta.pairs = penta.pairs + 1
      penta.elo, penta.elo_low, penta.elo_high = stats.pentanomial_elo(penta)
    else
      result.pending[record.pair] = score
    end
  end
end

-- The SPRT on an encounter: on the pairs when the games come in pairs
-- (the game of a pair still on is left out), else on the games.
local function sprt_of(result, bounds, paired)
  local penta = result.pentanomial
  if paired then
    return stats.sprt({penta[1], penta[2], penta[3], penta[4], penta[5]}, bounds)
  end
  return stats.sprt({result.a.wins, result.a.draws, result.a.losses}, bounds)
end

------------------------------------------------------------- progress

local function clock_text(seconds)
  seconds = math.floor(seconds + 0.5)
  if seconds >= 3600 then
    return ("%d:%02d:%02d"):format(seconds // 3600, seconds // 60 % 60, seconds % 60)
  end
  return ("%d:%02d"):format(seconds // 60, seconds % 60)
end

-- A status line on stderr redrawn after each game, or nil when stderr is
-- not a terminal.  Wall-clock seconds: players may wait on something else.
local function terminal_progress()
  if not require("ludus").isatty("stderr") then return nil end
  local started, width = now(), 0
  local display = {}
  function display.update(done, total, result)
    local elapsed = now() - started
    local a = result.a
    local line = ("match: %d/%d games, a +%d =%d -%d, score %.1f%%, %s elapsed, eta %s")
      :format(done, total, a.wins, a.draws, a.losses,
              100 * a.score / math.max(1, result.games),
              clock_text(elapsed), clock_text(elapsed / done * (total - done)))
    if result.sprt then line = line .. (", LLR %.2f"):format(result.sprt.llr) end
    io.stderr:write("\r", line, (" "):rep(width - #line))
    io.stderr:flush()
    width = #line
  end
  function display.finish()
    if width > 0 then io.stderr:write("\n") end
  end
  return display
end

------------------------------------------------------ resume and out

-- What a decoded line lacks to be a game of a match, or nil.
local function line_problem(v)
  if type(v) ~= "table" then return "not a JSON object" end
  if math.type(v.game) ~= "integer" or v.game < 1 then return "no game number" end
  if type(v.a) ~= "string" or type(v.b) ~= "string" then
    return "no players' names, a and b"
  end
  if v.first ~= "a" and v.first ~= "b" then return "first is not \"a\" or \"b\"" end
  if v.winner ~= nil and v.winner ~= "a" and v.winner ~= "b" then
    return "winner is not \"a\", \"b\" or left out"
  end
  if v.pair ~= nil and (math.type(v.pair) ~= "integer" or v.pair < 1) then
    return "pair is not the number of a pair"
  end
  return nil
end

-- The lines of path, each decoded; a last line without its newline (a
-- run stopped while writing) is left out and cut from the file.
local function read_lines(path, cut)
  local file = io.open(path, "rb")
  if not file then return {} end
  local text, why = file:read("a")
  file:close()
  if not text then error(("match: cannot read '%s' (%s)"):format(path, why), 0) end
  local whole = text:match("^(.*\n)") or ""
  if cut and #whole < #text then
    local out, problem = io.open(path, "wb")
    if not out then error("match: cannot cut its last line short: " .. problem, 0) end
    out:write(whole)
    out:close()
  end
  local decode = require("ludus.process").json
  local lines = {}
  local number = 0
  for line in whole:gmatch("([^\n]*)\n") do
    number = number + 1
    if line:match("%S") then
      local v, message = decode(line)
      message = message or line_problem(v)
      if message then
        error(("match: %s:%d is not a line of a match (%s)")
              :format(path, number, message), 0)
      end
      v.line = number
      lines[#lines + 1] = v
    end
  end
  return lines
end

-- A record of a game as the line has it.
local function record_of_line(v)
  return {game = v.game, pair = v.pair, first = v.first, winner = v.winner,
          ending = v.ending, reason = v.reason, plies = v.plies, record = v.record,
          opening = v.opening, result = v.result, seconds = v.seconds,
          truncated = v.ending == "max plies"}
end

-- What makes a match's games what they are, written on each of its
-- lines so that --resume can tell the lines of another match.  Not the
-- concurrency, the progress or the SPRT: they change no game.
local SETTINGS = {"players", "games", "seed", "tc", "st", "margin", "max_plies",
                  "swap", "options", "shard"}

local function match_settings(entrants, opts)
  local players = {}
  for i, p in ipairs(entrants) do players[i] = p.spec or p.name end
  return {players = players, games = opts.games, seed = opts.seed,
          tc = opts.tc and ("%.14g+%.14g"):format(opts.tc.base, opts.tc.increment),
          st = opts.st, margin = opts.margin, max_plies = opts.max_plies,
          swap = opts.swap, options = opts.options,
          shard = opts.shard and ("%d/%d"):format(opts.shard[1], opts.shard[2])}
end

-- The first setting a line's (nil: a line of an older ludus, which has
-- none) differs in from this match's, said, or nil; but skip.
local function settings_differ(theirs, mine, skip)
  if type(theirs) ~= "table" then return nil end
  for _, key in ipairs(SETTINGS) do
    local there, here = json(theirs[key]), json(mine[key])
    if there ~= here and key ~= skip then
      return ("%s %s there, %s here"):format(
        key == "players" and "the players are" or ("option '%s' is"):format(key),
        there == "null" and "not given" or there, here == "null" and "not given" or here)
    end
  end
  return nil
end

---------------------------------------------------------- the matches

local runner = require("ludus.match_runner")

-- Plays the encounters (pairs of entrant indexes) and returns a result
-- for each.
local function play_encounters(G, entrants, pairings, opts)
  local made, start = pcall(G.new, opts.options)
  if not made then argerror(4, "option 'options': " .. tostring(start)) end
  local first_side = start:turn()
  local opening_at = check_openings(G, opts)
  if opts.sprt and #pairings > 1 then
    argerror(4, "option 'sprt' is for a match between two players")
  end

  -- every game, in the order they are played: round r holds the r-th
  -- pair of games (or game, without swap) of each encounter; worked
  -- out from its number, since a match may have millions
  local E = #pairings
  if opts.games > MAX_GAMES // E then
    -- a shard or a resumed run lists its games first, and past this the
    -- count of all would take minutes, or wrap round to none
    argerror(4, ("option 'games' must be at most %d%s, got %d"):format(MAX_GAMES // E,
             E > 1 and (" for %d pairs of players"):format(E) or "", opts.games))
  end
  local total_games = E * opts.games
  local function job_of(n)
    if math.type(n) ~= "integer" or n < 1 or n > total_games then return nil end
    local r, e, k
    local full = opts.games // 2
    if not opts.swap then
      r, e, k = (n - 1) // E + 1, (n - 1) % E + 1, 1
    elseif n <= 2 * E * full then
      r = (n - 1) // (2 * E) + 1
      local within = (n - 1) % (2 * E)
      e, k = within // 2 + 1, within % 2 + 1
    else
      r, e, k = full + 1, n - 2 * E * full, 1
    end
    return {number = n, encounter = e, round = r, unit = (r - 1) * E + e,
            a_first = not opts.swap or k == 1, pair = opts.swap and r or nil}
  end

  local results = {}
  for e, pairing in ipairs(pairings) do
    results[e] = new_result(entrants[pairing[1]].name, entrants[pairing[2]].name)
    results[e].options = opts.options
  end
  local function names_of(e)
    return {a = results[e].a.name, b = results[e].b.name}
  end

  local settings = match_settings(entrants, opts)

  -- the games this run plays: its shard, less those out has already
  local done = {}
  local before = {}
  if opts.resume then
    for _, v in ipairs(read_lines(opts.out, true)) do
      local job = job_of(v.game)
      local names = job and names_of(job.encounter)
      local function refuse(why)
        argerror(4, ("option 'resume': %s:%d is not a game of this match (%s)")
                 :format(opts.out, v.line, why))
      end
      if not job or v.a ~= names.a or v.b ~= names.b
         or v.first ~= (job.a_first and "a" or "b") then
        refuse(("game %d %s"):format(v.game, job and ("is %s vs %s here")
                                     :format(names.a, names.b) or "is past its end"))
      end
      local opening = opening_at and opening_at(job.round) or nil
      if v.opening ~= opening then
        refuse(("game %d opens with %s there, %s here; option 'opening'")
               :format(v.game, v.opening and "'" .. v.opening .. "'" or "no opening",
                       opening and "'" .. opening .. "'" or "none"))
      end
      local differs = settings_differ(v.match, settings)
      if differs then refuse(differs) end
      if not done[v.game] then before[#before + 1] = v end
      done[v.game] = true
    end
  end
  -- the numbers of the games to play (nil: all of them)
  local numbers
  if opts.shard or next(done) then
    numbers = {}
    for n = 1, total_games do
      local job = job_of(n)
      local mine = not opts.shard or (job.unit - 1) % opts.shard[2] == opts.shard[1] - 1
      if mine and not done[n] then numbers[#numbers + 1] = n end
    end
  end
  local todo_count = numbers and #numbers or total_games
  local function todo(i) return job_of(numbers and numbers[i] or i) end

  local out
  if opts.out then
    local message
    out, message = io.open(opts.out, opts.resume and "ab" or "wb")
    if not out then error("match: cannot write " .. message, 0) end
  end
  local display, report
  if opts.progress == true then
    display = terminal_progress()
    report = display and display.update
  elseif opts.progress then
    report = opts.progress
  end

  local total, finished, stopped = todo_count + #before, 0, nil
  local function commit(job, rec, old)
    local result = results[job.encounter]
    rec.game, rec.pair = job.number, job.pair
    rec.options = opts.options
    count(result, rec)
    if out and not old then
      -- a line lost (a full disk) stops the match: --resume needs them all
      out:write(json_line(rec, names_of(job.encounter), settings), "\n")
      local flushed, why = out:flush()
      if not flushed then error(("match: cannot write %s: %s"):format(opts.out, why), 0) end
    end
    finished = finished + 1
    if opts.sprt then
      result.sprt = sprt_of(result, opts.sprt, opts.swap)
      result.sprt.bounds = opts.sprt
    end
    if report then report(finished, total, result) end
    return result.sprt and result.sprt.decision ~= nil
  end

  local function players_of(job)
    local pairing = pairings[job.encounter]
    local a, b = entrants[pairing[1]], entrants[pairing[2]]
    a = {letter = "a", name = a.name, make = a.make}
    b = {letter = "b", name = b.name, make = b.make}
    if job.a_first then return a, b end
    return b, a
  end

  local ok, err = pcall(function()
    table.sort(before, function(x, y) return x.game < y.game end)
    for _, v in ipairs(before) do
      if commit(job_of(v.game), record_of_line(v), true) then
        stopped = "sprt"
        return
      end
    end
    local setup = {G = G, opts = opts, first_side = first_side,
                   forfeit = opts.concurrency ~= nil}
    if not opts.concurrency then
      for i = 1, todo_count do
        local job = todo(i)
        local first, second = players_of(job)
        local opening = opening_at and opening_at(job.round)
        if commit(job, play_game(setup, job.number, opening, first, second)) then
          stopped = "sprt"
          return
        end
      end
      return
    end
    local run_games = opts.concurrency > 1 and runner.run_workers or runner.run
    local why = run_games{
      count = todo_count, concurrency = opts.concurrency,
      encode = json,
      decode = function(line) return require("ludus.process").json(line) end,
      interrupted = interrupted,
      prepare = function(i) if opening_at then opening_at(todo(i).round) end end,
      play = function(i, send)
        local job = todo(i)
        local first, second = players_of(job)
        local opening = opening_at and opening_at(job.round)
        local rec = play_game(setup, job.number, opening, first, second, send)
        rec.options = nil
        send("done\t" .. json(rec))
      end,
      finish = function(i, line, turn, how)
        local job = todo(i)
        if line then
          local rec = require("ludus.process").json(line)
          if type(rec) ~= "table" then
            error(("match: game %d sent a bad line: %s"):format(job.number, line), 0)
          end
          rec.opening = rec.opening or nil
          return rec
        end
        if not turn then
          error(("match: game %d ended before its first move (%s)")
                :format(job.number, how), 0)
        end
        local first = players_of(job)
        local loser = turn.letter
        local game = G.load(turn.record, opts.options)
        local hang = how:match("^hang (.*)")
        return {record = turn.record, first = first.letter,
                winner = loser == "a" and "b" or "a",
                plies = game and #game:history() or nil, truncated = false,
                opening = opening_at and opening_at(job.round) or nil,
                ending = hang and "hang" or "crash",
                reason = hang and ("no move in %s s: the process was killed"):format(hang)
                         or ("the process ended (%s)"):format(how)}
      end,
      commit = function(i, rec) return commit(todo(i), rec) end,
    }
    if why == "interrupted" then stopped = "interrupted"
    elseif why == "stopped" then stopped = "sprt" end
  end)
  if display then display.finish() end
  for _, player in ipairs(entrants) do   -- an engine's process, say
    local close = field(player.original, "close")
    if type(close) == "function" then pcall(close, player.original) end
  end
  if out then out:close() end
  if not ok and (err == STOPPED or interrupted()) then
    stopped = "interrupted"
  elseif not ok then
    error(err, 0)
  end
  for _, result in ipairs(results) do
    result.pending = nil
    result.stopped = stopped
    if result.pentanomial.pairs == 0 then result.pentanomial = nil end
  end
  return results
end

-- Names for the players, each different: a repeated one gets " (2)".
local function distinct_names(entrants)
  local seen = {}
  for _, p in ipairs(entrants) do
    local name = p.label or p.name
    if seen[name] then
      local k = 2
      while seen[("%s (%d)"):format(name, k)] do k = k + 1 end
      name = ("%s (%d)"):format(name, k)
    end
    seen[name] = true
    p.name = name
  end
end

function run(G, player_a, player_b, opts)
  entry_name = "match"
  check_game(G)
  local seed = type(opts) == "table" and math.type(opts.seed) == "integer" and opts.seed
    or DEFAULTS.seed
  local a = check_player(player_a, "a", 2, G, seed)
  local b = check_player(player_b, "b", 3, G, seed)
  opts = check_options(opts)
  if a.spec or b.spec then distinct_names({a, b}) end
  return play_encounters(G, {a, b}, {{1, 2}}, opts)[1]
end

-- The standings of a tournament: each player's games, score and Elo
-- against the field, best first.
local function standings(names, results)
  local rows, by_name = {}, {}
  for _, name in ipairs(names) do
    by_name[name] = {name = name, games = 0, wins = 0, draws = 0, losses = 0, score = 0}
    rows[#rows + 1] = by_name[name]
  end
  for _, result in ipairs(results) do
    for _, side in ipairs({result.a, result.b}) do
      local row = by_name[side.name]
      row.wins, row.draws = row.wins + side.wins, row.draws + side.draws
      row.losses = row.losses + side.losses
      row.score = row.wins + row.draws / 2
      row.games = row.wins + row.draws + row.losses
    end
  end
  for _, row in ipairs(rows) do
    if row.games > 0 then
      row.elo, row.elo_low, row.elo_high = stats.elo(row.wins, row.draws, row.losses)
    end
  end
  table.sort(rows, function(x, y)
    if x.score ~= y.score then return x.score > y.score end
    return x.name < y.name
  end)
  return rows
end

local Tournament = {__name = "ludus.match.tournament"}

-- match.tournament(G, players, opts): every pair of players (kind =
-- "round robin") or the first against each other (kind = "gauntlet")
-- over opts.games games; returns {encounters = {result, ...}, standings =
-- {{name =, games =, wins =, draws =, losses =, score =, elo =, ...}}}.
function tournament(G, players, opts)
  entry_name = "tournament"
  check_game(G)
  if type(players) ~= "table" or #players < 2 then
    argerror(2, "a list of two players or more expected")
  end
  local seed = type(opts) == "table" and math.type(opts.seed) == "integer" and opts.seed
    or DEFAULTS.seed
  local entrants = {}
  for i, p in ipairs(players) do
    entrants[i] = check_player(p, "a", 2, G, seed)
    if not entrants[i].spec and entrants[i].name == "a" then entrants[i].name = "player " .. i end
  end
  distinct_names(entrants)
  local kind = type(opts) == "table" and opts.kind or "round robin"
  if kind ~= "round robin" and kind ~= "gauntlet" then
    argerror(3, ("option 'kind' must be \"round robin\" or \"gauntlet\", got %s")
             :format(tostring(kind)))
  end
  opts = check_options(opts)
  local pairings = {}
  for i = 1, #entrants do
    for j = i + 1, #entrants do
      if kind == "round robin" or i == 1 then pairings[#pairings + 1] = {i, j} end
    end
  end
  local results = play_encounters(G, entrants, pairings, opts)
  local names = {}
  for i, p in ipairs(entrants) do names[i] = p.name end
  local games = 0
  for _, result in ipairs(results) do games = games + result.games end
  return setmetatable({encounters = results, standings = standings(names, results),
                       games = games, kind = kind, stopped = results[1].stopped},
                      Tournament)
end
match.tournament = tournament

------------------------------------------------------------- reports

local function percent(score, games)
  return games > 0 and ("%.1f%%"):format(100 * score / games) or "-"
end

-- The lines a person reads about an encounter: score, Elo from games
-- and from pairs, how the games ended, the SPRT.
function match.report(result)
  local a, b = result.a, result.b
  local lines = {}
  lines[1] = ("%s vs %s: +%d =%d -%d in %d game%s, score %s"):format(
    a.name, b.name, a.wins, a.draws, a.losses, result.games,
    result.games == 1 and "" or "s", percent(a.score, result.games))
  if result.games > 0 then
    lines[#lines + 1] = ("  Elo %s [%s, %s] (95%%, from games)"):format(
      elo_text(result.elo), elo_text(result.elo_low), elo_text(result.elo_high))
  end
  local penta = result.pentanomial
  if penta and penta.pairs > 0 then
    lines[#lines + 1] = ("  pentanomial [%d, %d, %d, %d, %d] over %d pairs: Elo %s [%s, %s]")
      :format(penta[1], penta[2], penta[3], penta[4], penta[5], penta.pairs,
              elo_text(penta.elo), elo_text(penta.elo_low), elo_text(penta.elo_high))
  end
  local endings = {}
  for how, n in pairs(result.endings) do endings[#endings + 1] = ("%s %d"):format(how, n) end
  table.sort(endings)
  if #endings > 0 then lines[#lines + 1] = "  endings: " .. table.concat(endings, ", ") end
  local s = result.sprt
  if s then
    local verdict = s.decision == "H1" and "H1 accepted (the upper bound)"
      or s.decision == "H0" and "H0 accepted (the lower bound)" or "no decision yet"
    lines[#lines + 1] = ("  SPRT%s: LLR %.2f [%.2f, %.2f], %s"):format(
      s.bounds and (" elo0=%g elo1=%g alpha=%g beta=%g"):format(s.bounds.elo0,
        s.bounds.elo1, s.bounds.alpha, s.bounds.beta) or "",
      s.llr, s.lower, s.upper, verdict)
  end
  if result.stopped then lines[#lines + 1] = "  stopped: " .. result.stopped end
  return table.concat(lines, "\n")
end

-- The table of a tournament.
function match.table(t)
  local lines = {("%-4s %-28s %6s %6s %6s %6s %7s %7s  %s"):format(
    "rank", "player", "games", "wins", "draws", "losses", "score", "%", "Elo (95%)")}
  for i, row in ipairs(t.standings) do
    lines[#lines + 1] = ("%-4d %-28s %6d %6d %6d %6d %7.1f %7s  %s"):format(
      i, row.name, row.games, row.wins, row.draws, row.losses, row.score,
      percent(row.score, row.games),
      row.elo and ("%s [%s, %s]"):format(elo_text(row.elo), elo_text(row.elo_low),
                                         elo_text(row.elo_high)) or "-")
  end
  return table.concat(lines, "\n")
end

function Tournament.__tostring(t)
  return ("%s of %d players, %d games\n%s"):format(t.kind, #t.standings, t.games,
                                                    match.table(t))
end

-- What the lines (sorted by game) show is missing from their match, or
-- nil: numbers of games below the last one, and shards of which no line
-- came.  (Games past the last one may be missing too; the lines cannot
-- tell them from a match that its SPRT stopped there.)
local function missing_of(all)
  local runs, games, want = {}, 0, 1
  local shards, of = {}, nil
  for _, v in ipairs(all) do
    if v.game > want then
      runs[#runs + 1] = v.game - 1 == want and tostring(want) or ("%d-%d"):format(want, v.game - 1)
      games = games + v.game - want
    end
    want = v.game + 1
    local k, n = tostring(type(v.match) == "table" and v.match.shard):match("^(%d+)/(%d+)$")
    if k then shards[tonumber(k)], of = true, tonumber(n) end
  end
  local problems = {}
  if games > 0 then
    problems[1] = ("game%s %s%s"):format(games > 1 and "s" or "",
      table.concat(runs, ", ", 1, math.min(#runs, 5)),
      #runs > 5 and (" and %d more runs"):format(#runs - 5) or "")
  end
  for k = 1, of and math.min(of, 1000) or 0 do
    if not shards[k] then problems[#problems + 1] = ("shard %d/%d"):format(k, of) end
  end
  if #problems == 0 then return nil end
  return "missing: " .. table.concat(problems, "; ")
         .. " (a run or a shard that did not finish carries on with --resume)"
end

-- The results of JSON lines (the --out files of a match or of its
-- shards): one result per encounter, in the order they first appear;
-- the lines; and what they show is missing from their match, or nil.
function match.merge(paths)
  local all, seen = {}, {}
  local first   -- the first line with the settings of its match
  for _, path in ipairs(paths) do
    local file, why = io.open(path, "rb")
    if not file then
      -- io.open says "path: reason"; the path is said once
      if why:sub(1, #path + 2) == path .. ": " then why = why:sub(#path + 3) end
      error(("match: cannot read '%s' (%s)"):format(path, why), 0)
    end
    file:close()
    for _, v in ipairs(read_lines(path, false)) do
      if seen[v.game] then
        error(("match: game %d is in %s and in %s"):format(v.game, seen[v.game], path), 0)
      end
      -- the shards of one match differ in their shard alone
      if type(v.match) == "table" then
        local differs = first and settings_differ(first.match, v.match, "shard")
        if differs then
          differs = differs:gsub(" there, ", " in the first, "):gsub(" here$", " in the other")
          error(("match: %s:%d and %s:%d are games of two matches (%s)")
                :format(first.path, first.line, path, v.line, differs), 0)
        end
        first = first or {match = v.match, path = path, line = v.line}
      end
      seen[v.game] = path
      all[#all + 1] = v
    end
  end
  table.sort(all, function(x, y) return x.game < y.game end)
  local results, by_pair, order = {}, {}, {}
  for _, v in ipairs(all) do
    local key = tostring(v.a) .. "\0" .. tostring(v.b)
    if not by_pair[key] then
      by_pair[key] = new_result(tostring(v.a), tostring(v.b))
      order[#order + 1] = key
    end
    count(by_pair[key], record_of_line(v))
  end
  for i, key in ipairs(order) do
    results[i] = by_pair[key]
    results[i].pending = nil
    if results[i].pentanomial.pairs == 0 then results[i].pentanomial = nil end
  end
  return results, all, missing_of(all)
end

-- What `ludus match` (match_cli.lua) uses besides the functions above.
match._internal = {json = json, json_line = json_line, read_lines = read_lines, sprt_of = sprt_of,
                   standings = standings, sprt_bounds = sprt_bounds,
                   file_player = file_player}

-- Mahjong seats four: match(mahjong, {a, b, c, d}, {games =, seed =, ...})
-- is mahjong.match with those players (scripts/ludus/mahjong_match.lua).
local function is_mahjong(G)
  return G == "mahjong" or (G ~= nil and rawequal(G, package.loaded["ludus.mahjong"]))
end

return setmetatable(match, {
  __call = function(_, G, player_a, player_b, opts)
    if is_mahjong(G) then
      if opts ~= nil then
        error("match: mahjong takes match(mahjong, {a, b, c, d}, options)", 2)
      end
      local options = {}
      if player_b ~= nil and type(player_b) ~= "table" then
        error("match: mahjong's options must be a table (got " .. type(player_b) .. ")", 2)
      end
      for k, v in pairs(player_b or {}) do options[k] = v end
      options.players = player_a
      return require("ludus.mahjong_match")(options)
    end
    return run(G, player_a, player_b, opts)
  end,
})
