-- fuzz_lua.lua: the Lua-level fuzzer.  Calls every public function and
-- method of ludus with hostile values (wrong types, huge and broken
-- numbers, strings with zero bytes, tables with traps) and misbehaving
-- callbacks (that raise, return junk, re-enter ludus, collect garbage,
-- drop what a player holds), and checks that a refused call leaves its
-- receiver as it was.  A crash is for the sanitizers to see: make test
-- runs this with the sanitized ludus for a few seconds.
--
--   ludus tests/fuzz/fuzz_lua.lua [seconds [seed [verbose]]]
--
-- Prints TAP: one line for the run.  With verbose it names each call
-- before making it, so that the call a crash happened in is the last
-- line: run it again with the seed the failed run printed.

local ludus = require "ludus"

local seconds = tonumber(arg and arg[1]) or 5
local seed = math.tointeger(tonumber(arg and arg[2])) or os.time()
local verbose = arg and arg[3] == "verbose"

-- splitmix64: the same calls for the same seed
local state = seed
local function random(n)
  state = state + 0x9e3779b97f4a7c15
  local z = state
  z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
  z = (z ~ (z >> 27)) * 0x94d049bb133111eb
  return (z ~ (z >> 31)) % n + 1
end
local function pick(list) return list[random(#list)] end
local function chance(p) return random(1000) <= p * 1000 end

local tmp = os.tmpname()
local files = {}
local function file_with(text)
  local path = tmp .. "." .. (#files + 1)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  files[#files + 1] = path
  return path
end

------------------------------------------------------------ the values

local G = {
  tictactoe = ludus.tictactoe, connect4 = ludus.connect4, mnk = ludus.mnk,
  gomoku = ludus.gomoku, reversi = ludus.reversi, xiangqi = ludus.xiangqi,
}

-- A game written in Lua whose functions misbehave now and then (but not
-- while the pool of objects is made).
local misbehave = false
local function lua_game_module()
  local bad = 0.02
  local function maybe(f)
    return function(...)
      if misbehave and chance(bad) then
        local junk = {nil, 42, "x", {}, function() end, true}
        if chance(0.5) then error("spec says no") end
        return junk[random(#junk)]
      end
      return f(...)
    end
  end
  local spec = {
    name = "nim", sides = {"first", "second"},
    new = function() return {stones = 7, turn = 1} end,
    turn = maybe(function(s) return s.turn == 1 and "first" or "second" end),
    moves = maybe(function(s)
      local m = {}
      for i = 1, math.min(3, s.stones) do m[i] = tostring(i) end
      return m
    end),
    play = maybe(function(s, m)
      return {stones = s.stones - (tonumber(m) or 1), turn = 3 - s.turn}
    end),
    is_over = maybe(function(s) return s.stones <= 0 end),
    result = maybe(function(s)
      return {winner = s.turn == 1 and "first" or "second"}
    end),
    hash = maybe(function(s) return s.stones * 2 + s.turn end),
    eval = maybe(function(s) return s.stones % 4 == 0 and -1 or 1 end),
  }
  return ludus.game.define(spec), spec
end
local Nim, nim_spec = lua_game_module()
G.nim = Nim

-- Objects the calls work on; callbacks change them too.
local pool = {}
local function fresh_objects()
  misbehave = false
  pool.games = {
    ludus.tictactoe.new(), ludus.tictactoe.load("b2 a1 c3"),
    ludus.connect4.new(), assert(ludus.connect4.load("44455")),
    ludus.connect4.new{width = 2, height = 30}, ludus.connect4.new{width = 4, height = 4},
    ludus.mnk.new{m = 4, n = 4, k = 3}, ludus.gomoku.new(),
    ludus.reversi.new(), ludus.reversi.new{size = 4},
    assert(ludus.reversi.load("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO"
                              .. "--OOOOO-- X")),
    ludus.xiangqi.new(), assert(ludus.xiangqi.load("3k5/4P4/9/9/9/9/9/9/9/4K4 b")),
    assert(ludus.xiangqi.load("3k5/9/9/9/9/9/9/9/4R4/4K4 w")),
    Nim.new(), Nim.load("1 2"),
  }
  pool.puzzles = {
    (ludus.sudoku.parse(("."):rep(16))),
    (ludus.sudoku.parse("4.....8.5.3..........7......2.....6.....8.4......1......."
                        .. "6.3.7.5..2.....1.4......")),
    (ludus.sudoku.parse("417369825632158947958724316825437169791586432346912758289"
                        .. "643571573291684164875293")),
  }
  pool.players = {
    ludus.ai.alphabeta{depth = 2}, ludus.ai.alphabeta{time = 0.01, tt = 1},
    ludus.ai.mcts{playouts = 50, seed = 1}, ludus.ai.greedy{}, ludus.ai.random{seed = 2},
  }
  misbehave = true
end
fresh_objects()

local depth = 0          -- how deep callbacks have re-entered
local current            -- the receiver of the call being made
local touched            -- whether a callback changed it

local call_something     -- below: one random call

local strings = {
  "", "a", "b2", "4", "f5", "h2e2", "炮二平五", "C2.5", "pass", "d3", "0",
  "1", "-1", "x", "\0", "a\0b", ("z"):rep(300), ("9"):rep(40), "%s%d%n",
  "234p234m45688s", "11111m", "chi:234m", "kan:1111p", "6s", "1z", "0m",
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
  "---------------------------OX------XO--------------------------- X",
  ("."):rep(81), ("."):rep(16), ("."):rep(1296), "\255\254\253", "🟡🔴", "  ",
}

local numbers = {
  0, 1, 2, 3, -1, 0.5, -0.5, 1e308, -1e308, 0 / 0, math.huge, -math.huge,
  math.maxinteger, math.mininteger, 2^53, 2^63, 2^64, 2^32 + 4, 255, 256,
  65535, 65536, 7, 9, 60, 61,
}

local random_value

-- A callback that misbehaves in one of many ways.  After a thousand
-- calls it returns nothing, so that one given as an iterator ends (one
-- that always answered `false, message` kept reversi.write skipping bad
-- records, and growing their list, for as long as the run went on).
local function hostile_function()
  local how = random(10)
  local calls = 0
  return function(...)
    calls = calls + 1
    if calls > 1000 then return nil end
    if how == 1 then error("callback says no") end
    if how == 2 then error(setmetatable({}, {__tostring = function() error("twice") end})) end
    if how == 3 then collectgarbage() return 0 end
    if how == 4 and depth < 2 then
      depth = depth + 1
      pcall(call_something)
      depth = depth - 1
      return random(3) - 2
    end
    if how == 5 then
      local p = pick(pool.players)
      p._table, p.tt = nil, pick({1, 2, 0, "big", -1})
      collectgarbage()
      return 1
    end
    if how == 6 then pcall(ludus.connect4.book, false) return 0 end
    if how == 7 then
      local g = pick(pool.games)
      if g == current then touched = true end
      local moves = g.moves and select(2, pcall(g.moves, g))
      if type(moves) == "table" and moves[1] then pcall(g.push, g, moves[1]) end
      return 0
    end
    if how == 8 then return random_value(1) end
    if how == 9 then return coroutine.yield and pcall(coroutine.yield, 1) end
    return ...
  end
end

-- An option table: names the calls take, values good and bad, and now
-- and then a trap (a metatable whose fields raise).
local option_names = {
  "depth", "time", "nodes", "eval", "tt", "playouts", "c", "seed", "algorithm",
  "progress", "weak", "all", "exact", "size", "width", "height", "plies",
  "symbols", "win", "tsumo", "riichi", "dora", "melds", "rules", "repetition",
  "move_limit", "games", "swap", "opening", "options", "clues", "symmetric",
  "minimal", "m", "n", "k", "", "kind", "_table", "info", "honba", "seat",
}

local function options_table(level)
  local t = {}
  for _ = 1, random(4) - 1 do
    local key = pick(option_names)
    if key == "time" then
      t[key] = pick({0.01, 0.02, 0, -1, "soon", 0 / 0, 1e300})
    elseif key == "games" then
      t[key] = pick({1, 2, 0, -1, 0.5, "x"})
    else
      t[key] = random_value(level + 1)
    end
  end
  if chance(0.05) then
    setmetatable(t, {__index = function() error("trap") end})
  end
  if chance(0.05) then
    local key = random_value(level + 1)
    if key == key and key ~= nil then t[key] = 1 end   -- not nil, not NaN
  end
  return t
end

function random_value(level)
  level = level or 0
  local kind = random(level > 2 and 4 or 9)
  if kind == 1 then return nil end
  if kind == 2 then return pick(numbers) end
  if kind == 3 then return pick(strings) end
  if kind == 4 then return chance(0.5) end
  if kind == 5 then return options_table(level) end
  if kind == 6 then return hostile_function() end
  if kind == 7 then return pick(pool.games) end
  if kind == 8 then
    return pick({io.stdout, coroutine.create(function() end), pick(pool.puzzles),
                 pick(pool.players), {1, 2, 3}, setmetatable({}, {__index = error})})
  end
  local bytes = {}
  for i = 1, random(24) do bytes[i] = string.char(random(256) - 1) end
  return table.concat(bytes)
end

------------------------------------------------------------ the calls

-- A short description of a value for the report: its type, a string's
-- start, a table's keys.
-- tostring, which a value whose __tostring calls a misbehaving spec may
-- make raise: the run only describes the value
local function described(v)
  local ok, text = pcall(tostring, v)
  return ok and text or "(tostring raised)"
end

local function brief(v)
  local kind = type(v)
  if kind == "string" then return ("%q"):format(v:sub(1, 20)) end
  if kind == "number" or kind == "boolean" or kind == "nil" then return tostring(v) end
  local mt = getmetatable(v)
  if type(mt) == "string" then return mt end
  if kind == "table" and not mt then
    local keys = {}
    for key, value in pairs(v) do
      keys[#keys + 1] = described(key) .. "=" .. (type(value) == "table" and "{}"
        or type(value) == "string" and ("%q"):format(value:sub(1, 10)) or described(value))
      if #keys == 6 then break end
    end
    return "{" .. table.concat(keys, ", ") .. "}"
  end
  return kind
end

-- A snapshot of what a refused call must not change.
local function snapshot(x)
  local was = misbehave
  misbehave = false                -- the Lua game answers straight here
  local ok, text = pcall(function()
    local mt = getmetatable(x)
    if mt == "ludus.sudoku" then return x:to_string() end
    if type(mt) == "string" and x.save then
      return x:save() .. "|" .. tostring(x) .. "|" .. #x:history()
    end
    return nil
  end)
  misbehave = was
  return ok and text or nil
end

-- Keeps a call that may search from running long: its options get a
-- small time (a deliberately bad time is kept: it is refused at once).
local function bounded(options)
  if options == nil or (type(options) ~= "table" and chance(0.9)) then
    return {time = 0.01}             -- none at all: as long as the game takes
  end
  if type(options) ~= "table" then return options end
  if getmetatable(options) then      -- a trap raises; anything else has no limits
    local ok = pcall(function() return options.time end)
    return ok and {time = 0.01} or options
  end
  local t = rawget(options, "time")
  if type(t) ~= "number" or t > 0.05 then options.time = 0.01 + random(20) / 1000 end
  if rawget(options, "games") then options.games = pick({1, 2, 0, -1}) end
  rawset(options, "playouts", pick({nil, 10, 0, 0.5}))
  return options
end

local small_depth = {-1, 0, 1, 2, 3, 61, 0.5, 1e9, "x", nil}

-- Each target: a name, and a function that makes the arguments and
-- calls; the receiver, when there is one, is returned for the check.
local targets = {}
local function target(name, f) targets[#targets + 1] = {name = name, run = f} end

local methods_of = {}
for name, module in pairs(G) do
  local ok, g = pcall(module.new)
  if ok then
    local mt = debug.getmetatable(g)
    local methods = {}
    for key in pairs(mt and mt.__index or {}) do methods[#methods + 1] = key end
    table.sort(methods)
    methods_of[name] = methods
  end
end

local heavy = {solve = true, search = true, analyze = true}

target("method of a game", function()
  local g = pick(pool.games)
  local methods = methods_of[getmetatable(g):match("^ludus%.(.*)$")] or {"moves"}
  local name = pick(methods)
  local args = {}
  for i = 1, random(3) - 1 do args[i] = random_value(1) end
  if heavy[name] then
    if name == "search" and getmetatable(g) == "ludus.reversi" then
      args[1] = bounded(args[1])
      if type(args[1]) == "table" then args[1].depth = pick({1, 2, nil}) end
    end
    args[1] = bounded(args[1])
  end
  if name == "push" or name == "play" or chance(0.3) then
    local ok, moves = pcall(g.moves, g)
    if ok and type(moves) == "table" and #moves > 0 and chance(0.6) then
      args[1] = moves[random(#moves)]
    end
  end
  local saved = pcall(g.save, g) and g:save()
  local shown = ("g:%s(%s, %s) on %s %s"):format(name, brief(args[1]), brief(args[2]),
                                                brief(g), brief(saved))
  return g, shown, function() return g[name](g, table.unpack(args, 1, 3)) end
end)

target("module function", function()
  local module_name = pick({"tictactoe", "connect4", "mnk", "gomoku", "reversi", "xiangqi"})
  local module = G[module_name]
  local names = {}
  for key in pairs(module) do names[#names + 1] = key end
  table.sort(names)
  local name = pick(names)
  local args = {random_value(1), random_value(1)}
  if name == "perft" or name == "divide" then
    args[1], args[2] = pick(pool.games), pick(small_depth)
    if args[2] and type(args[2]) == "number" and args[2] > 3 and args[2] < 61 then args[2] = 2 end
  elseif name == "make_book" then
    args[1] = tmp .. ".book" .. random(3)
    args[2] = bounded(args[2]) or {time = 0.01}   -- none: the 7x6 book, minutes
    if type(args[2]) == "table" then
      args[2].width, args[2].height = pick({4, 5, 2, 0, 9, 2^32 + 4}), pick({4, 3, 30})
      args[2].plies = pick({0, 1, 2, -1, 99})
    end
  elseif name == "book" then
    local content = random_value(0)
    args[1] = pick({false, nil, file_with(type(content) == "string" and content or ""),
                    tmp .. ".book1",
                    "/nonexistent/x", 7})
  elseif name == "solve" then
    args[1] = pick(pool.games)
  elseif name == "write" and module_name == "xiangqi" then  -- xiangqi's records: a scratch file
    args[1] = tmp .. ".records" .. pick({".pgn", ".epd", ".fen", ""})
    args[3] = args[2]
    args[2] = pick({pick(pool.games), {pick(pool.games)}, {game = pick(pool.games),
      tags = random_value(1), result = random_value(1), bm = random_value(1),
      id = random_value(1)}, random_value(1)})
  elseif name == "read" and module_name == "xiangqi" then
    local content = random_value(0)
    args[1] = pick({file_with(type(content) == "string" and content or ""),
                    "1. h2e2 h9g7 *\n", "[Event \"x\"]\n1. 炮二平五 {c} 1-0\n",
                    args[1]})
  elseif name == "write" and module_name == "reversi" then
    -- reversi.write: files of its own only, in the formats or none
    args[1] = pick({tmp .. ".out" .. random(3) .. pick({".wtb", ".ggf", ".obf", ".txt", ""}),
                    "/nonexistent/x.ggf", 7})
    if chance(0.5) then
      args[2] = {pick(pool.games), pick(pool.games),
                 {game = pick(pool.games), black = random_value(1), year = random_value(1),
                  answers = random_value(1), evals = random_value(1)},
                 random_value(1)}
    end
  elseif name == "read" and module_name == "reversi" and chance(0.5) then
    local content = random_value(0)
    args[1] = file_with(pick({"(;GM[Othello]B[f5]W[d6];)", "f5d6\r\nx9\n",
                              ("\20\20\4\27"):rep(4) .. ("\0"):rep(68),
                              ("-"):rep(27) .. "OX------XO" .. ("-"):rep(27) .. " X; D3:+0;",
                              type(content) == "string" and content or ""}))
  end
  local shown = ("%s.%s(%s, %s)"):format(module_name, name, brief(args[1]), brief(args[2]))
  return nil, shown, function()
    local a, b = module[name](args[1], args[2], args[3])
    if name == "read" and type(a) == "function" then   -- read what it yields
      for _ = 1, 3 do
        local record = a()
        if record == nil then break end
      end
    end
    return a, b
  end
end)

target("sudoku", function()
  local sudoku = ludus.sudoku
  local names = {"candidates", "count", "generate", "hint", "is_unique", "parse",
                 "solutions", "solve", "variant"}
  local name = pick(names)
  local p = chance(0.8) and pick(pool.puzzles) or random_value(1)
  local arg2 = random_value(1)
  if name == "count" or name == "solutions" then
    arg2 = pick({1, 2, 5, 0, -1, 0.5, 10^6, "x"})
    if p == pool.puzzles[1] and chance(0.5) then arg2 = nil end   -- 288 for 4x4
  elseif name == "generate" then
    p = type(p) == "table" and p or {}
    if type(p) == "table" and not getmetatable(p) then p.size = pick({4, 9, 16, 0, -1, 3}) end
  elseif name == "variant" then
    -- a description with a few rules, some of them nonsense
    p = {}
    for _ = 1, random(4) - 1 do
      p[pick({"size", "white", "black", "alldots", "nonconsecutive", "cages",
              "regions", "less", "diagonals", "box", "even"})] =
        chance(0.5) and random_value(1)
        or pick({true, 9, 6, {{"r1c1", "r1c2"}}, {{1, 2}, {2, 3}}, {{"r1c1", "r9c9"}},
                 {{sum = 3, "r1c1", "r1c2"}}, {{sum = 99, "r1c1"}}, ("1"):rep(81)})
    end
    arg2 = nil
  elseif name == "parse" then
    p = chance(0.5) and pick(strings) or random_value(1)
    arg2 = chance(0.5) and {symbols = pick({"1234", "12", "123456789", "", "ab\0", 7})} or arg2
  end
  if getmetatable(p) == "ludus.sudoku" and p:size() == 9 and chance(0.2) then
    -- the same grid under a rule in Lua that misbehaves: set and
    -- is_solved ask it, and must leave the puzzle as it was when it
    -- refuses or raises
    local v = sudoku.variant{check = hostile_function(), partial = chance(0.5)}
    p = v:parse(p:to_string()) or p
  end
  local before = snapshot(p)
  local receiver = getmetatable(p) == "ludus.sudoku" and p or nil
  if receiver and chance(0.3) then
    local method = pick({"set", "get", "copy", "givens", "is_solved", "size",
                         "symbols", "to_string"})
    return receiver, "p:" .. method, function()
      return receiver[method](receiver, random_value(1), random_value(1), random_value(1))
    end, before
  end
  return receiver, "sudoku." .. name, function() return sudoku[name](p, arg2) end, before
end)

target("sudoku variant's methods", function()
  local v = ludus.sudoku.variant(pick({{diagonals = true}, {windows = true},
                                       {size = 4, antiking = true}}))
  local method = pick({"parse", "generate", "size"})
  local a = method == "generate" and (chance(0.7) and options_table(1) or random_value(1))
            or chance(0.5) and pick(strings) or random_value(1)
  if method == "generate" and type(a) == "table" and not getmetatable(a) then
    a.size = nil                                  -- the variant's own, or refused
  end
  return nil, "v:" .. method, function() return v[method](v, a, random_value(1)) end
end)

target("mahjong", function()
  local mahjong = ludus.mahjong
  local name = pick({"decompose", "discards", "score", "shanten", "tiles", "waits",
                     "ranked_discards"})
  local hand = chance(0.7) and pick(strings) or random_value(1)
  local ctx = chance(0.7) and options_table(1) or random_value(1)
  return nil, "mahjong." .. name, function() return mahjong[name](hand, ctx) end
end)

-- A table of four seats whose players misbehave now and then: they
-- raise, answer junk, ask their view junk, keep a view for later,
-- re-enter the table or some other call, collect garbage.  The table
-- must refuse each and stay at its question; a game that ends must read
-- back from its record as Tenhou would score it.
local kept_views = {}
local function mahjong_player(t_of)
  return function(question, view, choices)
    if misbehave and chance(0.05) then
      local how = random(7)
      if how == 1 then error("player says no") end
      if how == 2 then return random_value(1) end
      if how == 3 then kept_views[random(4)] = view end
      if how == 4 then
        local v = kept_views[random(4)] or view
        local name = pick({"hand", "drawn", "discards", "melds", "riichi", "score",
                           "scores", "dora", "round", "honba", "sticks", "dealer",
                           "left", "wind", "round_wind", "seat"})
        pcall(v[name], v, random_value(1))
      end
      if how == 5 and t_of.t then pcall(t_of.t.play, t_of.t) end
      if how == 6 and depth < 2 then
        depth = depth + 1
        pcall(call_something)
        depth = depth - 1
      end
      if how == 7 then collectgarbage() end
    end
    if question == "discard" or (question == "riichi" and chance(0.3))
        or (question == "call" and chance(0.2)) or (question == "kan" and chance(0.3)) then
      return type(choices) == "table" and choices[random(#choices)] or nil
    end
    if question == "tsumo" or question == "ron" then return chance(0.9) end
    return nil
  end
end

local broken = {}
target("mahjong table", function()
  local mahjong = ludus.mahjong
  local t_of = {}
  local options = {players = {mahjong_player(t_of), mahjong_player(t_of),
                              mahjong_player(t_of), mahjong_player(t_of)},
                   seed = random(1000), rounds = pick({"east", "east", "south"})}
  if chance(0.3) then
    options.rules = {red = chance(0.5), double_ron = chance(0.5), nagashi = chance(0.5),
                     kuikae = chance(0.5), bust = chance(0.5), kuitan = chance(0.5)}
  end
  if chance(0.1) then options[pick({"players", "seed", "rounds", "rules"})] = random_value(1) end
  return nil, "mahjong.table", function()
    local t = mahjong.table(options)
    t_of.t = t
    local game
    for _ = 1, 20 do                 -- a refused question is asked again
      local ok, result = pcall(t.play, t)
      if ok then game = result break end
    end
    if not game then return end
    local was = misbehave
    misbehave = false
    local record = game:save()
    local path = file_with(record)
    local games, message = mahjong.read(path)
    -- the same record cut short, or with a byte changed: read or refused
    local at = random(#record)
    local garbled = chance(0.5) and record:sub(1, at)
      or record:sub(1, at - 1) .. string.char(random(256) - 1) .. record:sub(at + 1)
    local ok, err = pcall(mahjong.read, file_with(garbled))
    misbehave = was
    if not ok then
      broken[#broken + 1] = ("mahjong.read raised on a garbled record: %s"):format(tostring(err))
    end
    if not games or #games ~= 1 or not games[1].agrees then
      broken[#broken + 1] = ("mahjong table seed %s: its record does not read back "
        .. "agreeing (%s)"):format(tostring(options.seed),
        tostring(message or games and games[1] and games[1].disagreements
          and games[1].disagreements[1] or "?"))
    end
  end
end)

target("ai", function()
  local ai = ludus.ai
  local g = chance(0.9) and pick(pool.games) or random_value(1)
  if chance(0.5) then
    local options = bounded(options_table(1))
    if type(options) == "table" and not getmetatable(options) then
      options.algorithm = pick({nil, "alphabeta", "mcts", "greedy", "random", "x", 3})
      if chance(0.5) then options.eval = hostile_function() end
    end
    return nil, "ai.search", function() return ai.search(g, options) end
  end
  local p = pick(pool.players)
  if chance(0.3) then p.eval = hostile_function() end
  if chance(0.2) then p[pick(option_names)] = random_value(2) end
  if rawget(p, "time") == nil or type(p.time) ~= "number" or p.time > 0.05 then
    p.time = 0.01
  end
  if p.kind == "mcts" then p.playouts = pick({20, 50}) end
  return nil, "player:choose", function() return p:choose(g) end
end)

target("match", function()
  local players = {pool.players[1], pool.players[5], hostile_function(),
                   {choose = hostile_function()}, random_value(1)}
  local module = pick({ludus.tictactoe, ludus.connect4, Nim, random_value(1)})
  local options = bounded(options_table(1))
  if type(options) == "table" and not getmetatable(options) then
    options.games, options.progress = pick({1, 2}), false
  end
  local a, b = pick(players), pick(players)
  return nil, "match", function() return ludus.match(module, a, b, options) end
end)

target("game.define", function()
  local spec = {}
  for k, v in pairs(nim_spec) do spec[k] = v end
  local key = pick({"name", "sides", "new", "turn", "moves", "play", "push", "pop",
                    "is_over", "result", "hash", "eval", "copy", "tostring"})
  spec[key] = chance(0.5) and hostile_function() or random_value(1)
  return nil, "game.define", function()
    local M = ludus.game.define(spec)
    local g = M.new()
    return ludus.ai.search(g, {depth = 3, time = 0.01}), g:save(), tostring(g)
  end
end)

target("help and pretty", function()
  local x = random_value(1)
  return nil, "help", function()
    return ludus.help.text(x), ludus.pretty(x)
  end
end)

target("check_options", function()
  local options = chance(0.5) and options_table(1) or random_value(1)
  local names = chance(0.8) and pick{"", "size", "size box", "depth time nodes"}
                or random_value(1)
  return nil, "check_options", function()
    return ludus.check_options(options, names, random_value(1))
  end
end)

function call_something()
  local _, _, call = pick(targets).run()
  return call()
end

------------------------------------------------------------ the run

local calls, refused, changed = 0, 0, {}
local slowest, slowest_name, slow = 0, nil, {}
local started = os.clock()
while os.clock() - started < seconds do
  local t = pick(targets)
  local receiver, name, call, before = t.run()
  if receiver and not before then before = snapshot(receiver) end
  current, touched = receiver, false
  if verbose then io.stderr:write(calls + 1, " ", name, "\n") end
  local clock = os.clock()
  local ok, err = pcall(call)
  clock = os.clock() - clock
  if verbose and clock > 0.5 then io.stderr:write(("  %.2f s\n"):format(clock)) end
  if clock > slowest then
    slowest, slowest_name = clock, name
  end
  if clock > 1 then
    slow[#slow + 1] = ("call %d took %.2f s: %s"):format(calls + 1, clock, name)
  end
  calls = calls + 1
  if not ok then
    refused = refused + 1
    local after = receiver and before and not touched and snapshot(receiver)
    if after and after ~= before then
      changed[#changed + 1] = ("call %d: %s on a %s changed it when it was refused "
        .. "(%s)\n#   before: %s\n#   after:  %s"):format(calls, name, getmetatable(receiver),
        tostring(err):sub(1, 200), before:gsub("\n", " "):sub(1, 300),
        after:gsub("\n", " "):sub(1, 300))
    end
  end
  if calls % 500 == 0 then
    collectgarbage()
    fresh_objects()
  end
end
for _, path in ipairs(files) do os.remove(path) end
for i = 1, 3 do
  os.remove(tmp .. ".book" .. i)
  for _, ext in ipairs({".wtb", ".ggf", ".obf", ".txt", ""}) do
    os.remove(tmp .. ".out" .. i .. ext)
  end
end
for _, ext in ipairs({".pgn", ".epd", ".fen", ""}) do os.remove(tmp .. ".records" .. ext) end
os.remove(tmp)

local description = ("lua fuzz: %d calls (%d refused) in %.1f s, seed %d; slowest "
  .. "%s, %.2f s"):format(calls, refused, os.clock() - started, seed,
  slowest_name, slowest)
for _, line in ipairs(slow) do print("# " .. line) end
for _, line in ipairs(broken) do changed[#changed + 1] = line end
if #changed == 0 then
  print("ok 1 - " .. description)
else
  print("not ok 1 - " .. description)
  for i = 1, math.min(#changed, 10) do print("# " .. changed[i]) end
end
print("1..1")
os.exit(#changed == 0 and 0 or 1, true)
