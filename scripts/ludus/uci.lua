-- uci.lua: a program that speaks UCI as a player, ai.uci{...}:
--
--   p = ai.uci{command = "fairy-stockfish",
--              options = {UCI_Variant = "xiangqi", Threads = 1, Hash = 16},
--              go = "movetime 200"}
--   match(xiangqi, ai.alphabeta{time = 0.2}, p, {games = 10})
--
-- The engine runs in a process of its own (ludus.program: argv, never a
-- shell), started at the first choice and stopped by p:close(), at the
-- end of a match, when p is closed (local p <close> = ai.uci{...}) or
-- collected.  Options:
--
--   command   the program and its arguments: a table {"prog", "arg", ...},
--             or a string split at white space (no quoting: give a table
--             for arguments with spaces).  A name without '/' is looked
--             for on PATH, then in /usr/local/games and /usr/games.
--   options   {name = value}: a setoption for each, in name order, after
--             uciok; a name the engine does not list is an error.  An
--             engine with the option UCI_Variant is set to xiangqi first
--             unless options set UCI_Variant
--   go        the rest of the go command, "movetime 1000" unless told
--   name      the player's name in reports; else the engine's id name
--   ranks     the number of xiangqi's first rank in the engine's moves, 0
--             (ICCS, Pikafish: a0-i9) or 1 (Fairy-Stockfish: a1-i10);
--             unless told, 1 when the engine's id name says Fairy-Stockfish
--             or it has the option UCI_Variant, else 0
--   margin    seconds past go's movetime before the engine has hung (1)
--   timeout   seconds a move may take when go has no movetime (60)
--
-- An engine that dies, gives no move in time, or sends a move that is
-- garbled or illegal forfeits: choose returns nil and the reason (also
-- in p.info.forfeit), which match scores as a loss for that game and
-- keeps in its record.  The process is then stopped; the next choice
-- starts another.

local program = require("ludus.program")

local DEFAULTS = {go = "movetime 1000", margin = 1, timeout = 60}
local HANDSHAKE_SECONDS = 10    -- for uciok and readyok
local GAMES_DIRS = {"/usr/local/games", "/usr/games"}
local KNOWN = {command = true, options = true, go = true, name = true,
               ranks = true, margin = true, timeout = true}

local Player = {}
Player.__index = Player
Player.__name = "ludus.ai.uci"

------------------------------------------------------------ arguments

local function argerror(message)
  error("ai.uci: " .. message, 3)
end

local function one_line(text)
  return not text:find("[\r\n%z]")
end

local function readable(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- The program's path: as given when it has a '/', else the first
-- directory of PATH (then the games directories) that holds it.
local function find_program(name)
  if name:find("/", 1, true) then return name end
  local dirs = {}
  for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do dirs[#dirs + 1] = dir end
  for _, dir in ipairs(GAMES_DIRS) do dirs[#dirs + 1] = dir end
  for _, dir in ipairs(dirs) do
    if readable(dir .. "/" .. name) then return dir .. "/" .. name end
  end
  return name
end

local function check_command(command)
  local argv = {}
  if type(command) == "string" then
    for word in command:gmatch("%S+") do argv[#argv + 1] = word end
  elseif type(command) == "table" then
    for i, word in ipairs(command) do
      if type(word) ~= "string" then
        argerror(("command: element %d must be a string, got %s"):format(i, type(word)))
      end
      argv[i] = word
    end
  else
    argerror("option 'command' must be a string or a table of strings, got "
             .. type(command))
  end
  if #argv == 0 or argv[1] == "" then argerror("option 'command' names no program") end
  return argv
end

local function option_text(value)
  if math.type(value) == "float" and value == math.floor(value)
     and math.abs(value) < 2^53 then
    return ("%d"):format(value)
  end
  return tostring(value)
end

local function check_options(options)
  if options == nil then return {} end
  if type(options) ~= "table" then
    argerror("option 'options' must be a table, got " .. type(options))
  end
  local list = {}
  for key, value in pairs(options) do
    if type(key) ~= "string" or key == "" or not one_line(key) then
      argerror("options: names are strings of one line, got " .. tostring(key))
    end
    local kind = type(value)
    if kind ~= "string" and kind ~= "number" and kind ~= "boolean" then
      argerror(("options: '%s' must be a string, number or boolean, got %s")
               :format(key, kind))
    end
    local text = option_text(value)
    if not one_line(text) then
      argerror(("options: the value of '%s' spans lines"):format(key))
    end
    list[#list + 1] = {name = key, value = text}
  end
  table.sort(list, function(x, y) return x.name < y.name end)
  return list
end

local function check_seconds(spec, key)
  local v = spec[key]
  if v == nil then return DEFAULTS[key] end
  if type(v) ~= "number" or v ~= v or v <= 0 or v == math.huge then
    argerror(("option '%s' must be a positive number of seconds, got %s")
             :format(key, tostring(v)))
  end
  return v
end

------------------------------------------------------------ the engine

-- Reads lines until one that 'wanted' accepts, for at most 'seconds';
-- returns that line, or nil and what went wrong.  'each' sees every line.
local function read_until(p, seconds, wanted, each)
  local clock = program.clock
  local deadline = clock() + seconds
  while true do
    local left = deadline - clock()
    if left <= 0 then return nil, "timeout" end
    local line, why = p._process:read_line(left)
    if not line then return nil, why end
    if each then each(line) end
    if wanted(line) then return line end
  end
end

local function send(p, line)
  local ok = p._process:write(line .. "\n")
  return ok ~= nil
end

-- Stops the engine (quit, then kill) and returns how it ended.
local function stop(p)
  local proc = p._process
  if not proc then return nil end
  p._process = nil
  proc:write("quit\n")
  return proc:close()
end

-- The reason a failed read gives, with the engine stopped: 'awaited'
-- did not come within 'seconds' of the command 'after'.
local function failure(p, why, awaited, after, seconds)
  local status = stop(p)
  if why == "interrupted" then error("ai.uci: interrupted", 0) end
  if why == "timeout" then
    return ("no %s within %g s of '%s'"):format(awaited, seconds, after)
  elseif why == "closed" then
    return ("the engine died (%s) after '%s'"):format(status, after)
  end
  return ("the engine failed after '%s' (%s)"):format(after, why)
end

local function starts(line, word)
  return line == word or line:sub(1, #word + 1) == word .. " "
end

-- Starts the engine: uci, the options, isready.  Returns true, or nil
-- and a reason to forfeit; raises when the program cannot start or
-- lacks an option.
local function start(p)
  local proc, message = program.spawn(p._argv)
  if not proc then error("ai.uci: " .. message, 0) end
  p._process = proc
  local id, names = nil, {}
  if not send(p, "uci") then return nil, failure(p, "closed", "uciok", "uci") end
  local ok, why = read_until(p, HANDSHAKE_SECONDS, function(line)
    return line:match("^%s*uciok%s*$") ~= nil
  end, function(line)
    local name = line:match("^%s*id%s+name%s+(.-)%s*$")
    if name then id = name end
    local option = line:match("^%s*option%s+name%s+(.-)%s+type%s")
    if option then names[option:lower()] = option end
  end)
  if not ok then return nil, failure(p, why, "uciok", "uci", HANDSHAKE_SECONDS) end
  p.engine = id
  if not p._named then p._report_name = id or p._report_name end
  if p._ranks_given == nil then
    local fairy = id and id:lower():find("fairy", 1, true)
    p._ranks = (fairy or names.uci_variant) and 1 or 0
  end
  -- Fairy-Stockfish plays chess until told otherwise: an engine with the
  -- option UCI_Variant plays xiangqi unless the options name a variant
  local variant_given = false
  for _, option in ipairs(p._options) do
    if option.name:lower() == "uci_variant" then variant_given = true end
  end
  if names.uci_variant and not variant_given then
    send(p, ("setoption name %s value xiangqi"):format(names.uci_variant))
  end
  for _, option in ipairs(p._options) do
    if next(names) and not names[option.name:lower()] then
      local list = {}
      for _, name in pairs(names) do list[#list + 1] = name end
      table.sort(list)
      stop(p)
      error(("ai.uci: engine '%s' has no option '%s' (it has: %s)")
            :format(id or p._argv[1], option.name, table.concat(list, ", ")), 0)
    end
    send(p, ("setoption name %s value %s"):format(option.name, option.value))
  end
  send(p, "isready")
  ok, why = read_until(p, HANDSHAKE_SECONDS, function(line)
    return line:match("^%s*readyok%s*$") ~= nil
  end)
  if not ok then return nil, failure(p, why, "readyok", "isready", HANDSHAKE_SECONDS) end
  p._fresh = true
  return true
end

------------------------------------------------------------ moves

-- A xiangqi move from ludus's ranks (0-9) to the engine's numbering
-- (shift 1 for ranks 1-10) or back (shift -1); nil when it is not a move
-- of files a-i and ranks that land in 0-9 on ludus's side.
local function convert(move, shift)
  local f1, r1, f2, r2 = move:match("^([a-i])(%d%d?)([a-i])(%d%d?)$")
  if not f1 then return nil end
  r1, r2 = tonumber(r1) + shift, tonumber(r2) + shift
  local low, high = math.max(0, shift), 9 + math.max(0, shift)
  if r1 < low or r1 > high or r2 < low or r2 > high then return nil end
  return ("%s%d%s%d"):format(f1, r1, f2, r2)
end

-- The position command for game g: its start and the moves since.
local function position_command(p, g)
  local saved = g:save()
  local fen, moves = nil, saved
  if saved:find("/", 1, true) then
    fen, moves = saved:match("^(.-)%s+moves%s+(.*)$")
    if not fen then fen, moves = saved, "" end
  end
  local words = {}
  for move in moves:gmatch("%S+") do
    words[#words + 1] = convert(move, p._ranks) or move
  end
  local command = fen and "position fen " .. fen or "position startpos"
  if #words == 0 then return command end
  return command .. " moves " .. table.concat(words, " ")
end

-- UCI's score: centipawns, or mate in moves (ludus's info.mate counts
-- plies: a mate in n moves is 2n - 1 plies, being mated in n is 2n).
local function read_info(line, info)
  local depth = line:match("%sdepth%s+(%d+)")
  if depth then info.depth = tonumber(depth) end
  local nodes = line:match("%snodes%s+(%d+)")
  if nodes then info.nodes = tonumber(nodes) end
  local kind, value = line:match("%sscore%s+(%a+)%s+(%-?%d+)")
  if kind == "cp" then
    info.score, info.mate = tonumber(value), nil
  elseif kind == "mate" then
    local n = tonumber(value)
    info.mate = n > 0 and 2 * n - 1 or 2 * n
    info.score = nil
  end
  local pv = line:match("%spv%s+(.-)%s*$")
  if pv then
    info.pv = {}
    for move in pv:gmatch("%S+") do info.pv[#info.pv + 1] = move end
  end
end

------------------------------------------------------------ the player

local function forfeit(p, reason)
  p.info.forfeit = reason
  stop(p)
  return nil, reason
end

function Player:choose(g)
  -- the engine would get xiangqi's start position and forfeit
  local kind = getmetatable(g)
  if kind ~= "ludus.xiangqi" then
    error(("ai.uci: plays xiangqi only (got %s)"):format(
      type(kind) == "string" and kind or type(g)), 2)
  end
  if g:is_over() then error("ai.uci: no move to choose (the game is over)", 2) end
  self.info = {}
  if not self._process then
    local ok, why = start(self)
    if not ok then return forfeit(self, why) end
  end
  if self._fresh then
    self._fresh = false
    send(self, "ucinewgame")
    send(self, "isready")
    local ok, why = read_until(self, HANDSHAKE_SECONDS, function(line)
      return line:match("^%s*readyok%s*$") ~= nil
    end)
    if not ok then
      return forfeit(self, failure(self, why, "readyok", "isready", HANDSHAKE_SECONDS))
    end
  end
  local clock = program.clock
  local started = clock()
  local go = "go " .. self.go
  if not send(self, position_command(self, g)) or not send(self, go) then
    return forfeit(self, failure(self, "closed", "bestmove", go))
  end
  local info = self.info
  local movetime = tonumber(self.go:match("movetime%s+(%d+)"))
  local limit = movetime and movetime / 1000 + self._margin or self._timeout
  local line, why = read_until(self, limit, function(l)
    return starts(l:match("^%s*(.-)%s*$"), "bestmove")
  end, function(l)
    if starts(l, "info") then read_info(l, info) end
  end)
  info.seconds = clock() - started
  if not line then
    return forfeit(self, failure(self, why, "bestmove", go, limit))
  end
  local sent = line:match("^%s*bestmove%s+(%S+)")
  if not sent then return forfeit(self, ("garbled bestmove line '%s'"):format(line)) end
  if sent == "(none)" or sent == "0000" then
    return forfeit(self, ("no move (bestmove %s)"):format(sent))
  end
  local move = convert(sent, -self._ranks)
  if not move then
    return forfeit(self, ("garbled move '%s'"):format(sent))
  end
  local legal = false
  for _, m in ipairs(g:moves()) do
    if m == move then legal = true break end
  end
  if not legal then
    local shown = move ~= sent and (" ('%s' here)"):format(move) or ""
    return forfeit(self, ("illegal move '%s'%s"):format(sent, shown))
  end
  info.move = move
  if info.pv then
    for i, m in ipairs(info.pv) do info.pv[i] = convert(m, -self._ranks) or m end
  end
  return move
end

-- The next choice starts a new game for the engine (ucinewgame).
function Player:new_game()
  self._fresh = true
end

-- Stops the engine's process; the next choice starts another.
function Player:close()
  stop(self)
end

-- The engine's process id while it runs, else nil.
function Player:pid()
  return self._process and self._process:pid() or nil
end

Player.__close = Player.close
Player.__gc = Player.close

function Player.__tostring(p)
  return ("ai.uci player '%s'"):format(p.name)
end

-- name reads as the engine's id name once it has started
function Player.__index(p, key)
  if key == "name" then return rawget(p, "_report_name") end
  return Player[key]
end

return function(spec)
  if spec == nil then spec = {} end
  if type(spec) ~= "table" then
    error("bad argument #1 to 'uci' (table expected, got " .. type(spec) .. ")", 2)
  end
  for key in pairs(spec) do
    if not KNOWN[key] then
      local list = {}
      for k in pairs(KNOWN) do list[#list + 1] = k end
      table.sort(list)
      argerror(("unknown option '%s' (it takes: %s)")
               :format(tostring(key), table.concat(list, " ")))
    end
  end
  if spec.command == nil then argerror("option 'command' is missing") end
  local argv = check_command(spec.command)
  argv[1] = find_program(argv[1])
  local go = spec.go == nil and DEFAULTS.go or spec.go
  if type(go) ~= "string" or not one_line(go) then
    argerror("option 'go' must be a string of one line, got " .. tostring(go))
  end
  go = go:match("^%s*(.-)%s*$")
  -- an engine gives its move after such a go only when told stop
  for word in go:gmatch("%S+") do
    if word == "infinite" or word == "ponder" then
      argerror(("option 'go' cannot take '%s' (the engine would wait for stop)")
               :format(word))
    end
  end
  local ranks = spec.ranks
  if ranks ~= nil and ranks ~= 0 and ranks ~= 1 then
    argerror("option 'ranks' must be 0 or 1, got " .. tostring(ranks))
  end
  if spec.name ~= nil and type(spec.name) ~= "string" then
    argerror("option 'name' must be a string, got " .. type(spec.name))
  end
  local margin = check_seconds(spec, "margin")
  local timeout = check_seconds(spec, "timeout")
  local p = {
    go = go, info = {},
    _argv = argv, _options = check_options(spec.options),
    _ranks = ranks or 0, _ranks_given = ranks,
    _margin = margin, _timeout = timeout,
    _report_name = spec.name or argv[1]:match("[^/]*$"), _named = spec.name ~= nil,
  }
  return setmetatable(p, Player)
end
