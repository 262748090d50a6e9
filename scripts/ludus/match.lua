-- match.lua: two players meet over a series of games of one game module,
-- and the score says how far apart they are.
--
--   local match = require "ludus.match"
--   local result = match(ludus.tictactoe, player_a, player_b, {games = 20})
--   print(result)  --> a (first) vs b (random): +9 =2 -9 in 20 games, ...
--   match.elo(wins, draws, losses)  --> elo, low, high
--
-- A player is a function(game) -> move, or a value with a method
-- choose(game) -> move.  Such a value may also have a name (for the
-- reports) and a new_game method, called before each game starts.  A
-- player is handed the live game: it may push and pop on it but must leave
-- it as it found it.  A move is a string, or anything tostring() turns
-- into one, and is applied with game:play(move).  A player that cannot
-- go on (an engine that died, hung or sent an illegal move: ai.uci)
-- returns nil and the reason: it forfeits, and loses that game.  A
-- player's close method, if it has one, is called when the match ends.
--
-- Options (all optional):
--   games = 2          how many games
--   swap = true        colours alternate: a has the first side in odd
--                      games, b in even ones; false: a always has it
--   options = nil      passed to G.new and G.load (board size and such)
--   opening = nil      a record every game starts from; or a list of them,
--                      each played once with either colour when swapping;
--                      or k, a number of random plies for each pair of games
--   seed = 1           for the random openings
--   max_plies = 10000  a longer game stops and is scored a draw
--   progress = true    a status line on stderr when it is a terminal; or a
--                      function(done, total, result) called after each game
--
-- The result: {games =, a = {name =, wins =, draws =, losses =, score =},
-- b = {...}, elo =, elo_low =, elo_high =, records = {...}}, one record
-- per game: {record =, first = "a" or "b", winner = "a", "b" or nil,
-- result = g:result() (nil when truncated), plies =, truncated =,
-- opening = the opening's record or nil, options = the options, forfeit
-- = {player = "a" or "b", reason =} when a player forfeited}.  A
-- record is the whole game, opening included; G.load takes it as it is
-- (G.load(r.records[1])), or its string with the options
-- (G.load(r.records[1].record, options)).  Ctrl-C stops the match: the
-- result holds the games finished, and stopped = "interrupted".

local DEFAULTS = {games = 2, swap = true, seed = 1, max_plies = 10000,
                  progress = true}
local RANDOM_OPENING_TRIES = 100

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

local run    -- match itself, below; argerror looks for it on the stack

-- Ctrl-C stops a match between two moves: the searches return what they
-- have, and the games finished so far are the result (stopped =
-- "interrupted").  Not at load time: require "ludus" loads this module.
local STOPPED = setmetatable({}, {__tostring = function() return "interrupted" end})
local function interrupted()
  return require("ludus").interrupted()
end

-- Raises at the caller of match, however deep the check that failed.
local function argerror(n, message)
  local level = 2
  while debug.getinfo(level, "f") and debug.getinfo(level, "f").func ~= run do
    level = level + 1
  end
  error(("bad argument #%d to 'match' (%s)"):format(n, message), level + 1)
end

-- v as an integer when it is a number with an integral value, else nil.
local function integer(v)
  return type(v) == "number" and math.tointeger(v) or nil
end

------------------------------------------------------------------- Elo

-- Logistic model: a score fraction p is worth 400*log10(p/(1-p)) Elo,
-- the same as -400*log10(1/p - 1).  A fraction at or past 0 or 1 (an
-- interval's end may be) is an infinity.
local function elo_of(p)
  if p <= 0 then return -math.huge end
  if p >= 1 then return math.huge end
  return 400 * math.log(p / (1 - p), 10)
end

local Z95 = 1.959964    -- the normal distribution's two-sided 95% point

local function check_count(v, n)
  if type(v) ~= "number" or v ~= v or v < 0 then
    error(("bad argument #%d to 'elo' (non-negative number expected, got %s)")
          :format(n, type(v) == "number" and tostring(v) or type_name(v)), 3)
  end
end

-- With N games scored p = (W + D/2)/N, the score of one game has variance
--   s^2 = (W*(1-p)^2 + D*(1/2-p)^2 + L*(0-p)^2) / N
-- and the mean over N games a standard error se = sqrt(s^2/N).  The
-- interval p -/+ 1.959964*se goes through elo_of too, clamped there.
function match.elo(wins, draws, losses)
  check_count(wins, 1)
  check_count(draws, 2)
  check_count(losses, 3)
  local n = wins + draws + losses
  if n == 0 then
    error("bad argument to 'elo' (no games: wins + draws + losses is 0)", 2)
  end
  local p = (wins + draws / 2) / n
  local variance = (wins * (1 - p) ^ 2 + draws * (0.5 - p) ^ 2
                    + losses * p ^ 2) / n
  local margin = Z95 * math.sqrt(variance / n)
  return elo_of(p), elo_of(p - margin), elo_of(p + margin)
end

------------------------------------------------------ random openings

-- splitmix64 (Steele, Lea and Flood, 2014) on Lua's wrapping integers,
-- so that openings depend on the seed alone, not on math.random's state.
-- Returns a function giving a uniform integer in 1..n.
local function generator(seed)
  local state = seed
  return function(n)
    state = state + 0x9E3779B97F4A7C15
    local z = state
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    z = z ~ (z >> 31)
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

--------------------------------------------------------- the arguments

local function check_game(G)
  if type(field(G, "new")) ~= "function" or type(field(G, "load")) ~= "function" then
    argerror(1, ("game module expected, got %s; a game module has new and load")
             :format(type_name(G)))
  end
end

local function check_player(p, letter, n)
  if type(p) == "function" then
    return {letter = letter, name = "function", original = p,
            choose = function(game) return p(game) end}
  end
  if type(field(p, "choose")) ~= "function" then
    argerror(n, ("player expected, got %s; a player is a function or a value "
                 .. "with a choose method"):format(type_name(p)))
  end
  local name = field(p, "name")
  return {letter = letter, name = name ~= nil and tostring(name) or letter,
          original = p, choose = function(game) return p:choose(game) end}
end

local KNOWN_OPTIONS = {games = true, swap = true, options = true, opening = true,
                       seed = true, max_plies = true, progress = true}

local function positive_integer(opts, key)
  local v = integer(opts[key])
  if not v or v < 1 then
    argerror(4, ("option '%s' must be a positive integer, got %s")
             :format(key, tostring(opts[key])))
  end
  return v
end

local function check_options(opts)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    argerror(4, "table of options expected, got " .. type_name(opts))
  end
  for key in pairs(opts) do
    if not KNOWN_OPTIONS[key] then
      argerror(4, ("unknown option '%s'"):format(tostring(key)))
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

-- The openings as a list of records, one per pair of games when swapping
-- and one per game otherwise, or nil for none.
local function check_openings(G, opts)
  local opening, options = opts.opening, opts.options
  if opening == nil then return nil end
  if type(opening) == "string" then
    return {opening_record(G, options, opening, "opening")}
  elseif type(opening) == "table" then
    if #opening == 0 then argerror(4, "opening: the list is empty") end
    local records = {}
    for i = 1, #opening do
      records[i] = opening_record(G, options, opening[i], "opening " .. i)
    end
    return records
  elseif integer(opening) and opening >= 0 then
    local plies = integer(opening)
    if plies == 0 then return nil end
    local count = opts.swap and (opts.games + 1) // 2 or opts.games
    local random = generator(opts.seed)
    local records = {}
    for i = 1, count do
      records[i] = random_opening(G, options, plies, random)
      if not records[i] then
        argerror(4, ("opening: %d random plies ended the game in each of %d tries")
                 :format(plies, RANDOM_OPENING_TRIES))
      end
    end
    return records
  end
  argerror(4, "opening: a record, a list of records or a number of random "
           .. "plies expected, got " .. tostring(opening))
end

----------------------------------------------------------- the games

-- Raises naming the player, the game and what went wrong; 'detail' is
-- what the player or the game said, if anything.
local function fail(player, number, what, detail)
  local message = ("match: player %s (\"%s\") %s in game %d")
    :format(player.letter, player.name, what, number)
  if detail ~= nil then message = message .. ": " .. tostring(detail) end
  error(message, 0)
end

-- Plays game 'number' from 'opening' (a record or nil) with 'first' on
-- 'first_side', the side that moves first; returns its record.
local function play_game(G, opts, first_side, number, opening, first, second)
  for _, player in ipairs({first, second}) do
    local hook = field(player.original, "new_game")
    if type(hook) == "function" then
      local ok, message = pcall(hook, player.original)
      if not ok then
        fail(player, number, "raised an error from new_game", message)
      end
    end
  end
  local game = opening and assert(G.load(opening, opts.options))
    or G.new(opts.options)
  local plies = #game:history()
  local truncated, forfeit = false, nil
  while not game:is_over() do
    if plies >= opts.max_plies then
      truncated = true
      break
    end
    local player = game:turn() == first_side and first or second
    -- a copy: whatever the player does to it cannot change this game
    local ok, move, reason = pcall(player.choose, game:copy())
    if interrupted() then error(STOPPED, 0) end
    if not ok then
      fail(player, number, "raised an error", move)
    elseif move == nil and reason ~= nil then
      forfeit = {player = player.letter, reason = tostring(reason)}
      break
    elseif move == nil then
      fail(player, number, "returned no move")
    end
    move = tostring(move)
    local played, after = pcall(game.play, game, move)
    if not played then
      fail(player, number, ("chose illegal move '%s'"):format(move), after)
    end
    game = after
    plies = plies + 1
  end
  local result = not truncated and not forfeit and game:result() or nil
  local winner
  if result and result.winner ~= nil then
    winner = result.winner == first_side and first.letter or second.letter
  elseif forfeit then
    winner = forfeit.player == first.letter and second.letter or first.letter
  end
  return {record = game:save(), options = opts.options, first = first.letter,
          winner = winner, result = result, plies = plies, truncated = truncated,
          opening = opening, forfeit = forfeit}
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
  result.elo, result.elo_low, result.elo_high = match.elo(a.wins, a.draws, a.losses)
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
  local started, width = os.time(), 0
  local display = {}
  function display.update(done, total, result)
    local elapsed = os.difftime(os.time(), started)
    local a = result.a
    local line = ("match: %d/%d games, a +%d =%d -%d, score %.1f%%, %s elapsed, eta %s")
      :format(done, total, a.wins, a.draws, a.losses, 100 * a.score / done,
              clock_text(elapsed), clock_text(elapsed / done * (total - done)))
    io.stderr:write("\r", line, (" "):rep(width - #line))
    io.stderr:flush()
    width = #line
  end
  function display.finish()
    if width > 0 then io.stderr:write("\n") end
  end
  return display
end

---------------------------------------------------------------- match

function run(G, player_a, player_b, opts)
  check_game(G)
  local a = check_player(player_a, "a", 2)
  local b = check_player(player_b, "b", 3)
  opts = check_options(opts)
  local first_side = G.new(opts.options):turn()
  local openings = check_openings(G, opts)

  local result = setmetatable({games = 0, a = tally(a.name), b = tally(b.name),
                               records = {}}, Result)
  local display, report
  if opts.progress == true then
    display = terminal_progress()
    report = display and display.update
  elseif opts.progress then
    report = opts.progress
  end

  -- Protected, so that the status line gets its newline even when a
  -- player fails.
  local ok, err = pcall(function()
    for number = 1, opts.games do
      local a_first = not opts.swap or number % 2 == 1
      local opening
      if openings then
        local index = opts.swap and (number - 1) // 2 or number - 1
        opening = openings[index % #openings + 1]
      end
      count(result, play_game(G, opts, first_side, number, opening,
                              a_first and a or b, a_first and b or a))
      if report then report(number, opts.games, result) end
    end
  end)
  if display then display.finish() end
  for _, player in ipairs({a, b}) do     -- an engine's process, say
    local close = field(player.original, "close")
    if type(close) == "function" then pcall(close, player.original) end
  end
  if not ok and (err == STOPPED or interrupted()) then
    result.stopped = "interrupted"
  elseif not ok then
    error(err, 0)
  end
  return result
end

return setmetatable(match, {
  __call = function(_, G, player_a, player_b, opts)
    return run(G, player_a, player_b, opts)
  end,
})
