-- match_cli.lua: `ludus match GAME A B [C...] [options]` and `ludus
-- match --merge FILE...`, on ludus.match (bindings/match.c runs it).
-- Options as cutechess-cli's and fishtest's users expect them: games in
-- pairs with the colours swapped, openings from a file, time controls,
-- an SPRT, shards for many machines, round robin and gauntlet.

local ludus = require("ludus")
local match = require("ludus.match")
local process = require("ludus.process")

local cli = {}

local progname = "ludus"

local USAGE = [[
usage: %s match GAME A B [C...] [options]
       %s match --merge FILE... [--out FILE]

Players (A, B, ...): a kind with options after a colon (alphabeta,
alphabeta:depth=4, mcts:playouts=2000, greedy, random), a player of
scripts/players (minimax:depth=3, connect4_threats), or a Lua file that
returns a player (mine.lua, mine.lua:depth=3; it gets the options, the
game module and a seed as ...).  Three players or more: a round robin.
Mahjong seats four (ludus match mahjong mahjong_efficiency mahjong_random
mahjong_random mahjong_defensive --games 8 --seed 1 --records games.json):
the seats rotate, and --records writes each game's tenhou.net/6 JSON.

options:
  --games N          games for each pair of players (default 2; with
                     --sprt, 100000: the test decides; mahjong: 4)
  --concurrency N    games at once, each in a process of its own (default:
                     the cores)
  --openings FILE    records to start from, in the game's format (PGN,
                     transcripts, WTHOR, GGF, one record a line); each is
                     played twice, colours swapped
  --plies N          openings: the first N plies of each record only
  --random-plies N   openings of N random moves instead (from --seed)
  --tc BASE+INC      a clock: BASE seconds a game, INC more each move
  --st S             S seconds a move instead
  --margin S         seconds a move may overrun before it loses (0.05)
  --sprt elo0=E0 elo1=E1 [alpha=A beta=B]
                     stop when the test decides (alpha, beta: 0.05)
  --gauntlet         the first player against each other one (default
                     with three or more: round robin)
  --out FILE         one JSON line for each finished game
  --records FILE     every game in the game's format at the end: PGN for
                     xiangqi (FILE.pgn), WTHOR, GGF or transcripts for
                     othello (by the extension), else a record a line
  --resume           keep the games --out FILE has, play the rest (the
                     same players and options, else refused)
  --shard K/N        play the K-th share of the pairs of games; --merge
                     the N outputs for the result of the whole match
                     (not with --sprt: give it to --merge)
  --seed N           for openings and the players' seeds (default 1)
  --max-plies N      a longer game is a draw (default 10000)
  --option K=V       the game's options (--option width=8)
  --no-swap          A has the first side in every game
  --quiet            no progress line on a terminal
  --help             this

Exit status: 0 when the games were played, 1 when something went wrong,
2 for a bad command line, 130 after Ctrl-C (--resume carries on).
example: %s match connect4 alphabeta:depth=4 mcts:playouts=500 --games 100
]]

local function usage_error(message)
  io.stderr:write(("%s match: %s (%s match --help)\n"):format(progname, message, progname))
  return 2
end

-- match's options (in its messages) by the names this command gives them.
local FLAGS = {games = "--games", seed = "--seed", tc = "--tc", st = "--st",
               margin = "--margin", max_plies = "--max-plies", options = "--option",
               swap = "the colours' swap (--no-swap)", resume = "--resume", out = "--out",
               opening = "--openings, --plies or --random-plies", shard = "--shard",
               sprt = "--sprt", concurrency = "--concurrency"}

-- The game module a name stands for: a built-in game or a variant.
local function game_module(name)
  if name == "othello" then name = "reversi" end
  for _, game in ipairs(ludus.games) do
    if game == name then return ludus[name] end
  end
  local ok, module = pcall(require, "ludus.variants." .. name)
  if ok and type(module) == "table" then return module end
  return nil
end

-- The option -> whether it takes a value.
local TAKES_VALUE = {
  ["--games"] = true, ["--concurrency"] = true, ["--openings"] = true,
  ["--plies"] = true, ["--random-plies"] = true, ["--tc"] = true, ["--st"] = true,
  ["--margin"] = true, ["--sprt"] = true, ["--out"] = true, ["--shard"] = true,
  ["--seed"] = true, ["--max-plies"] = true, ["--option"] = true, ["--records"] = true,
  ["--gauntlet"] = false, ["--resume"] = false, ["--no-swap"] = false,
  ["--quiet"] = false, ["--help"] = false, ["--merge"] = false,
}

local function parse(args)
  local c = {words = {}, options = {}, sprt = {}}
  local i = 1
  while i <= #args do
    local arg = args[i]
    if arg == "-h" then arg = "--help" end
    if arg:sub(1, 2) ~= "--" then
      c.words[#c.words + 1] = arg
    else
      local takes = TAKES_VALUE[arg]
      if takes == nil then return nil, ("unknown option '%s'"):format(arg) end
      if takes then
        i = i + 1
        if not args[i] then return nil, ("'%s' needs a value"):format(arg) end
        if arg == "--option" then
          local key, value = args[i]:match("^([%a_][%w_]*)=(.*)$")
          if not key then
            return nil, ("--option takes KEY=VALUE (got '%s')"):format(args[i])
          end
          c.options[key] = math.tointeger(tonumber(value)) or tonumber(value) or value
        elseif arg == "--sprt" then
          -- elo0=0 elo1=5 alpha=0.05 beta=0.05: one word or several
          c.sprt[#c.sprt + 1] = args[i]
          while args[i + 1] and args[i + 1]:match("^[%a_][%w_]*=") do
            i = i + 1
            c.sprt[#c.sprt + 1] = args[i]
          end
        else
          c[arg:sub(3)] = args[i]
        end
      else
        c[arg:sub(3)] = true
      end
    end
    i = i + 1
  end
  return c
end

-- A whole number from low, or nil.
local function whole(text, low)
  local n = math.tointeger(tonumber(text))
  if n and n >= low then return n end
  return nil
end

-- The openings of a file, as records of G: what G.read yields (PGN,
-- transcripts, WTHOR, GGF), else a record on each line that is not
-- blank (G.load of the line, or of its first word for Pons' "moves
-- score" lines).  Each is cut to its first plies when plies is given; games
-- that are over are left out, and counted.
local function read_openings(G, path, plies, options)
  local file, problem = io.open(path, "rb")
  if file then
    local _, why = file:read(0)    -- a directory opens, and reads nothing
    if why then
      file:close()
      file, problem = nil, why
    end
  else                             -- io.open says "path: reason"
    problem = problem:gsub("^" .. path:gsub("%p", "%%%0") .. ": ", "")
  end
  if not file then return nil, ("cannot open '%s' (%s)"):format(path, problem) end
  local games, bad = {}, 0
  local has, reader = pcall(function() return G.read end)
  if has and type(reader) == "function" then
    file:close()
    -- called by pcall itself, a reader that raises (as io.lines does)
    -- names no line of this file; one may also return nil and why
    local ok, records, why = pcall(reader, path)
    if ok and records then
      ok, why = pcall(function()
        for record in records do
          if record then games[#games + 1] = record.game else bad = bad + 1 end
        end
      end)
    elseif ok then
      ok = false
    else
      why = records
    end
    if not ok then return nil, ("cannot read '%s': %s"):format(path, why) end
  else
    for line in file:lines() do
      if line:match("%S") and not line:match("^%s*#") then
        -- Pons' lines are "moves score": the moves alone
        local moves = line:match("^%s*(%S+)%s+[-+]?%d+%s*$")
        local game = moves and G.load(moves, options) or G.load(line, options)
        if game then games[#games + 1] = game else bad = bad + 1 end
      end
    end
    file:close()
  end
  local records, over = {}, 0
  for _, game in ipairs(games) do
    if plies then
      game = game:copy()
      while #game:history() > plies do game:pop() end
    end
    if game:is_over() then over = over + 1 else records[#records + 1] = game:save() end
  end
  if #records == 0 then
    return nil, ("no opening in '%s' (%d records, %d unreadable, %d over)")
      :format(path, #games + bad, bad, over)
  end
  return records, over, bad
end

-- Writes the texts into path, each on a line of its own; nil and why
-- when the file cannot be opened or written (a full disk).
local function write_file(path, texts)
  local file, message = io.open(path, "wb")
  if not file then return nil, message end
  local written, why = true, nil
  for _, text in ipairs(texts) do
    if written then
      written, why = file:write(text, text:sub(-1) == "\n" and "" or "\n")
    end
  end
  local closed, problem = file:close()
  if not written or not closed then return nil, ("%s: %s"):format(path, why or problem) end
  return true
end

-- A game of the match as the record its game's writer takes, for the
-- formats that name the players: PGN's [Red] and [Black], with the
-- match's result (a game lost on time or cut at --max-plies has none of
-- its own); GGF's PB and PW (WTHOR's names are indexes into a file of
-- players beside it, and transcripts have none).  first and second are
-- the names of the players who had each side; winner is "first",
-- "second" or nil.
local NAMED_RECORD = {
  xiangqi = function(game, first, second, winner)
    return {game = game, tags = {Red = first, Black = second},
            result = winner == "first" and "1-0" or winner == "second" and "0-1"
                     or "1/2-1/2"}
  end,
  reversi = function(game, first, second)
    return {game = game, black = first, white = second}
  end,
}

-- Every game of the results into path, written by G.write where the
-- game has one (PGN, WTHOR...), else one record a line.
local function write_records(G, path, results, options)
  local named
  for game, make in pairs(NAMED_RECORD) do
    if ludus[game] == G then named = make end
  end
  local games = {}
  for _, result in ipairs(results) do
    for _, rec in ipairs(result.records) do
      local game = assert(G.load(rec.record, options))
      if named then
        local first, second = result.a.name, result.b.name
        if rec.first == "b" then first, second = second, first end
        local winner = rec.winner and (rec.winner == rec.first and "first" or "second")
        game = named(game, first, second, winner)
      end
      games[#games + 1] = game
    end
  end
  local has, writer = pcall(function() return G.write end)
  if has and type(writer) == "function" then
    -- a PGN's tags are UTF-8: a player's name that is not raises
    local ok, written, message = pcall(writer, path, games)
    if not ok then return nil, written end
    if not written then return nil, message end
    return true
  end
  local texts = {}
  for i, game in ipairs(games) do texts[i] = game:save() end
  return write_file(path, texts)
end

local function print_results(results, kind)
  for _, result in ipairs(results) do print(match.report(result)) end
  if #results > 1 then
    local names, seen = {}, {}
    for _, result in ipairs(results) do
      for _, name in ipairs({result.a.name, result.b.name}) do
        if not seen[name] then
          seen[name] = true
          names[#names + 1] = name
        end
      end
    end
    print()
    print(match.table({standings = match._internal.standings(names, results), kind = kind}))
  end
end

local function merge(c)
  if #c.words == 0 then return usage_error("--merge needs the files to merge") end
  local ok, results, lines, missing = pcall(match.merge, c.words)
  if not ok then
    io.stderr:write(("%s match: %s\n"):format(progname,
      (tostring(results):gsub("^match: ", ""):gsub("option '([%w_]+)'", FLAGS))))
    return 1
  end
  if #c.sprt > 0 then
    local internal = match._internal
    local bounds, message = internal.sprt_bounds(table.concat(c.sprt, " "))
    if not bounds then return usage_error("--sprt: " .. message) end
    for _, result in ipairs(results) do
      result.sprt = internal.sprt_of(result, bounds, result.pentanomial ~= nil)
      result.sprt.bounds = bounds
    end
  end
  if c.out then
    local texts = {}
    for i, v in ipairs(lines) do
      v.line = nil
      -- the lines of the whole match, as its single run writes them
      if type(v.match) == "table" then v.match.shard = nil end
      texts[i] = match._internal.json_line(v, {a = v.a, b = v.b})
    end
    local written, message = write_file(c.out, texts)
    if not written then
      io.stderr:write(("%s match: cannot write %s\n"):format(progname, message))
      return 1
    end
  end
  print_results(results, "merged")
  if missing then
    io.stderr:write(("%s match: the merged lines are not the whole match: %s\n")
                    :format(progname, missing))
    return 1
  end
  return 0
end

-- Mahjong seats four: `ludus match mahjong A B C D` plays mahjong.match
-- (seats rotated); a player is a name of scripts/players
-- (mahjong_efficiency:name=eff) or a Lua file returning a player, with
-- its options after a colon.  --records writes each game's tenhou.net/6
-- JSON, a line a game, which mahjong.read reads back.
local MAHJONG_OPTIONS = {games = true, seed = true, records = true, quiet = true,
                         words = true, options = true, sprt = true}

-- A seat's player: a function, or a table with a discard method.
local function is_mahjong_player(v)
  if type(v) == "function" then return true end
  local ok, discard = pcall(function() return v.discard end)
  return ok and type(discard) == "function"
end

local function mahjong_player(spec, seed)
  local path, rest = spec:match("^(.-%.lua):(.*)$")
  if not path then path, rest = spec:match("^(.-%.lua)$"), "" end
  local name = spec
  if not path then
    local colon = spec:find(":", 1, true)
    name = colon and spec:sub(1, colon - 1) or spec
    rest = colon and spec:sub(colon + 1) or ""
  end
  local options = {}
  for item in (rest ~= "" and rest .. "," or ""):gmatch("([^,]*),") do
    local key, value = item:match("^%s*([%a_][%w_]*)%s*=%s*(.-)%s*$")
    if not key then error(("player '%s': options are k=v,k=v"):format(spec), 0) end
    options[key] = math.tointeger(tonumber(value)) or tonumber(value) or value
  end
  if options.name == nil then options.name = spec end
  if path then
    local chunk, message = loadfile(path)
    if not chunk then error(("player '%s': %s"):format(spec, message), 0) end
    -- a file of scripts/players (mahjong_random.lua) returns the maker of
    -- its players, told from a player function as match.player tells them
    return match._internal.file_player(chunk(options, ludus.mahjong, seed), options,
                                       is_mahjong_player)
  end
  local ok, make = pcall(require, "ludus.players." .. name)
  if not ok or type(make) ~= "function" then
    error(("no mahjong player '%s' (mahjong_random, mahjong_efficiency, "
           .. "mahjong_defensive, or a Lua file, NAME.lua)"):format(spec), 0)
  end
  return make(options)
end

local function mahjong_match(c)
  for key in pairs(c) do
    if not MAHJONG_OPTIONS[key] then
      return usage_error(("--%s is not for mahjong (it takes --games, --seed, "
                          .. "--records and --quiet)"):format(key))
    end
  end
  if next(c.options) or #c.sprt > 0 then
    return usage_error("--option and --sprt are not for mahjong")
  end
  if #c.words ~= 5 then return usage_error("mahjong seats four players") end
  local games, seed = whole(c.games or "4", 1), whole(c.seed or "1", -math.maxinteger)
  if not games or not seed then
    return usage_error("--games and --seed take whole numbers")
  end
  local started = process.now()
  local ok, report = pcall(function()
    local players = {}
    for i = 2, 5 do players[#players + 1] = mahjong_player(c.words[i], seed + i) end
    return ludus.mahjong.match{players = players, games = games, seed = seed}
  end)
  if not ok then
    io.stderr:write(("%s match: %s\n"):format(progname, tostring(report)))
    return 1
  end
  print(report)
  if c.records then
    local texts = {}
    for i, game in ipairs(report.games) do texts[i] = game:save() end
    local written, why = write_file(c.records, texts)
    if not written then
      io.stderr:write(("%s match: cannot write the records: %s\n"):format(progname, why))
      return 1
    end
  end
  if not c.quiet then
    local seconds = process.now() - started
    io.stderr:write(("%s match: %d games in %.2f s (%.0f games/hour)\n")
      :format(progname, #report.games, seconds, #report.games / seconds * 3600))
  end
  return 0
end

-- Two of the files that name one file, an output among them, said; or
-- nil.  Such an output would write over what is read, or the other.
local function clash(c)
  local files = {{"--openings", c.openings}, {"--out", c.out}, {"--records", c.records}}
  if c.merge then
    for _, path in ipairs(c.words) do files[#files + 1] = {"--merge", path} end
  end
  for i = 2, #files do
    for j = 1, i - 1 do
      local x, y = files[j], files[i]
      if x[2] and y[2] and x[1] ~= y[1] and process.same_file(x[2], y[2]) then
        return ("%s and %s name the same file ('%s'): one would write over the other")
          :format(x[1], y[1], y[2])
      end
    end
  end
  return nil
end

function cli.main(name, ...)
  progname = name or progname
  local c, message = parse({...})
  if not c then return usage_error(message) end
  if c.help then
    io.write(USAGE:format(progname, progname, progname))
    return 0
  end
  local clashing = clash(c)
  if clashing then return usage_error(clashing) end
  if c.merge then return merge(c) end
  if c.records then
    -- the records are written at the end: a path that cannot take them
    -- is said before the games, not after
    local existed = io.open(c.records, "rb")
    if existed then existed:close() end
    local file, problem = io.open(c.records, "ab")
    if not file then
      io.stderr:write(("%s match: cannot write the records: %s\n"):format(progname, problem))
      return 1
    end
    file:close()
    if not existed then os.remove(c.records) end
  end
  if c.words[1] == "mahjong" then return mahjong_match(c) end
  if #c.words < 3 then return usage_error("a game and two players or more, please") end
  local G = game_module(c.words[1])
  if not G then
    return usage_error(("no game '%s'; the games: %s"):format(c.words[1],
                       table.concat(ludus.games, ", ")))
  end
  local opts = {progress = not c.quiet, options = next(c.options) and c.options or nil}
  for _, key in ipairs({"games", "concurrency", "seed", "max-plies", "random-plies",
                        "plies"}) do
    if c[key] then
      local n = whole(c[key], key == "seed" and -math.maxinteger or
                      (key == "random-plies" or key == "plies") and 0 or 1)
      if not n then
        return usage_error(("--%s takes a whole number (got '%s')"):format(key, c[key]))
      end
      c[key] = n
    end
  end
  opts.games = c.games or (#c.sprt > 0 and 100000 or 2)
  opts.concurrency = c.concurrency or process.cores()
  opts.seed = c.seed
  opts.max_plies = c["max-plies"]
  opts.swap = not c["no-swap"]
  opts.tc = c.tc
  if c.st then
    opts.st = tonumber(c.st)
    if not opts.st then return usage_error(("--st takes seconds (got '%s')"):format(c.st)) end
  end
  if c.margin then
    opts.margin = tonumber(c.margin)
    if not opts.margin then
      return usage_error(("--margin takes seconds (got '%s')"):format(c.margin))
    end
  end
  if #c.sprt > 0 then opts.sprt = table.concat(c.sprt, " ") end
  opts.out, opts.resume, opts.shard = c.out, c.resume or false, c.shard
  if c.openings and c["random-plies"] then
    return usage_error("--openings and --random-plies: give one")
  end
  if c.plies and not c.openings then
    return usage_error("--plies cuts the records of --openings, and there are none")
  end
  if c.openings then
    local records, over, bad = read_openings(G, c.openings, c.plies, opts.options)
    if not records then
      io.stderr:write(("%s match: %s\n"):format(progname, over))
      return 1
    end
    if (over > 0 or bad > 0) and not c.quiet then
      io.stderr:write(("%s match: %d openings (%d over, %d unreadable, left out)\n")
                      :format(progname, #records, over, bad))
    end
    opts.opening = records
  elseif c["random-plies"] then
    opts.opening = c["random-plies"]
  end
  local players = {}
  for i = 2, #c.words do players[#players + 1] = c.words[i] end
  local started = process.now()
  -- called through pcall itself, so that a bad argument is reported
  -- without a place in this file
  local ok, result
  if #players == 2 and not c.gauntlet then
    ok, result = pcall(match, G, players[1], players[2], opts)
    if ok then result = {result} end
  else
    opts.kind = c.gauntlet and "gauntlet" or "round robin"
    ok, result = pcall(match.tournament, G, players, opts)
    if ok then result = result.encounters end
  end
  if not ok then
    -- a bad player or option is a bad command line: say which, exit 2
    local text, bad = tostring(result):gsub("^bad argument #%d+ to '[%a.]+' %((.*)%)$",
                                            "%1")
    if bad > 0 then
      return usage_error((text:gsub("option '([%w_]+)'", FLAGS)))
    end
    io.stderr:write(("%s match: %s\n"):format(progname, (text:gsub("^match: ", ""))))
    return 1
  end
  print_results(result, c.gauntlet and "gauntlet" or "round robin")
  if c.records then
    local written, problem = write_records(G, c.records, result, opts.options)
    if not written then
      io.stderr:write(("%s match: cannot write the records: %s\n"):format(progname,
                                                                          tostring(problem)))
      return 1
    end
  end
  local games = 0
  for _, r in ipairs(result) do games = games + r.games end
  local seconds = process.now() - started
  io.stderr:write(("%s match: %d games in %.2f s (%.0f games/hour)%s\n")
    :format(progname, games, seconds, games / seconds * 3600,
            result[1].stopped == "interrupted" and "; interrupted: --resume carries on"
            or ""))
  return result[1].stopped == "interrupted" and 130 or 0
end

return cli
