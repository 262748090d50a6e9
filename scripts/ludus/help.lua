-- help.lua: what help() says, from the one-line entries in ludus.doc.
--
--   help()                 the modules, one line each
--   help(x)                the functions and methods of x, one line each;
--                          x is a module (help(tictactoe)), a game object
--                          (found by its metatable's __name), a module
--                          name ("tictactoe"), a game written in Lua or
--                          one of its games (with the doc of its spec),
--                          or a player
--   help(f)                the line of a function or a method (help(g.solve))
--   help("word")           every line of help that mentions the word
--   help.text(...)         the same text as a string, for tests and scripts

local doc = require "ludus.doc"

local help = {}

-- Not at load time: require "ludus" loads this module.
local function ludus_module()
  return require "ludus"
end

-- Objects of a module that are not its games, by their metatable's name:
-- help shows the module that makes them.
local OBJECTS = {["ludus.mahjong.table"] = "mahjong", ["ludus.mahjong.game"] = "mahjong"}

-- Entries of doc that help() does not list as modules: the ludus table
-- itself and help, described for help(f) and the search.
local UNLISTED = {ludus = true, help = true}

-- The games first, in the order ludus.games gives, then the other
-- documented modules by name.
local function module_names()
  local names, seen = {}, {}
  for _, name in ipairs(ludus_module().games) do
    names[#names + 1] = name
    seen[name] = true
  end
  local others = {}
  for name in pairs(doc) do
    if not seen[name] and not UNLISTED[name] then others[#others + 1] = name end
  end
  table.sort(others)
  for _, name in ipairs(others) do names[#names + 1] = name end
  return names
end

-- Every entry of doc, the listed modules first: what the search reads.
local function entry_names()
  local names = module_names()
  local unlisted = {}
  for name in pairs(UNLISTED) do
    if doc[name] then unlisted[#unlisted + 1] = name end
  end
  table.sort(unlisted)
  for _, name in ipairs(unlisted) do names[#names + 1] = name end
  return names
end

local function is_module(name)
  for _, known in ipairs(module_names()) do
    if known == name then return true end
  end
  return false
end

local function summary(name)
  local entry = doc[name]
  return entry and entry.summary or "(no help written yet)"
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

-- A function's line names it as it is called: "tictactoe.new() -> ...".
local function function_line(module, name, line)
  local called = module .. "." .. name
  local function is_call(prefix)
    local after = line:sub(#prefix + 1, #prefix + 1)
    return line:sub(1, #prefix) == prefix and (after == "(" or after == "{")
  end
  if is_call(called) then
    return "  " .. line
  elseif is_call(name) then
    return "  " .. module .. "." .. line
  end
  return "  " .. called .. ": " .. line
end

-- The lines of an entry: its summary, then "functions:" and "methods:"
-- with their lines, after a first line of title.
local function entry_lines(title, entry, module)
  local lines = {title}
  local functions = sorted_keys(entry.functions)
  if #functions > 0 then
    lines[#lines + 1] = "functions:"
    for _, f in ipairs(functions) do
      lines[#lines + 1] = function_line(module, f, entry.functions[f])
    end
  end
  local methods = sorted_keys(entry.methods)
  if #methods > 0 then
    lines[#lines + 1] = "methods:"
    for _, m in ipairs(methods) do
      lines[#lines + 1] = "  " .. entry.methods[m]
    end
  end
  return table.concat(lines, "\n") .. "\n"
end

-- The modules, then the functions of the ludus table itself.  A module
-- that is not a global (game, in the REPL; all of them in plain Lua) is
-- listed by the name that reaches it, ludus.game.
local function list_text()
  local names, shown = module_names(), {}
  local width = 0
  for i, name in ipairs(names) do
    local global = rawget(_G, name)
    shown[i] = global ~= nil and global == ludus_module()[name] and name
               or "ludus." .. name
    width = math.max(width, #shown[i])
  end
  local lines = {"ludus " .. ludus_module().version ..
                 ": help(x) shows the functions and methods of module x"}
  for i, name in ipairs(names) do
    lines[#lines + 1] = string.format("  %-" .. width .. "s  %s",
                                      shown[i], summary(name))
  end
  return entry_lines(table.concat(lines, "\n"), {functions = doc.ludus.functions}, "ludus")
end

local function module_text(name)
  return entry_lines(name .. ": " .. summary(name), doc[name] or {}, name)
end

------------------------------------------------------ games in Lua

-- What game.define knows of a game written in Lua, from one of its games
-- (whose hidden metatable holds it, with the methods) or from its module
-- (a table with the spec, whose new makes a game to look at), or nil.
local function lua_game(x)
  if type(x) ~= "table" then return nil end
  local mt = debug.getmetatable(x)
  local described = type(mt) == "table" and rawget(mt, "__ludus_game")
  if type(described) == "table" then
    local methods = rawget(mt, "__index")
    return {spec = described.spec, name = described.name, sides = described.sides,
            methods = type(methods) == "table" and methods or nil}
  end
  local spec, name, sides = rawget(x, "spec"), rawget(x, "name"), rawget(x, "sides")
  local new = rawget(x, "new")
  if type(spec) == "table" and type(name) == "string" and type(sides) == "table"
     and type(new) == "function" then
    local ok, game = pcall(new)
    local of_game = ok and lua_game(game)
    return of_game or {spec = spec, name = name, sides = sides}
  end
  return nil
end

local function lua_game_text(game)
  local name, sides = tostring(game.name), game.sides
  local first, second = tostring(sides[1]), tostring(sides[2])
  local about = rawget(game.spec, "doc")
  local entry = {
    functions = {
      new = name .. ".new([options]) -> the start position, " .. first .. " to move",
      load = name .. ".load(record [, options]) -> the game after the moves of "
        .. "record (or a record of match), or nil, message",
    },
    methods = doc.protocol(('"%s" or "%s"'):format(first, second), "one of g:moves()"),
  }
  if rawget(game.spec, "hash") == nil then entry.methods.hash = nil end
  if game.methods then              -- only the methods its games have
    for method in pairs(entry.methods) do
      if rawget(game.methods, method) == nil then entry.methods[method] = nil end
    end
  end
  for _, side in ipairs({first, second}) do
    entry.methods[side] = ("g:%s(m) -> like play, but raises unless %s is to move")
      :format(side, side)
  end
  return entry_lines(name .. ": " .. (type(about) == "string" and about
                                      or "a game written in Lua (game.define)"),
                     entry, name)
end

----------------------------------------------------------- players

-- The text for a player: one of ludus.ai (its kind says which), an
-- ai.uci player, or a table with a choose method, as the players of
-- ludus.players are (with its doc or name when it has them); nil for
-- anything else.
local function player_text(x)
  if getmetatable(x) == "ludus.ai.player" then
    local kind = rawget(x, "kind")
    local line = doc.ai.functions[kind]
    return entry_lines("ai player: " .. (line or tostring(kind)),
                       {methods = doc.ai.methods}, "ai")
  end
  -- ai.uci's players are Lua tables with a metatable of their own
  local mt = getmetatable(x)
  if type(x) == "table" and type(mt) == "table" and rawget(mt, "__name") == "ludus.ai.uci" then
    return entry_lines("ai player: " .. doc.ai.functions.uci,
                       {methods = doc.ai.methods}, "ai")
  end
  if type(x) == "table" and getmetatable(x) == nil and type(rawget(x, "choose")) == "function" then
    local about = rawget(x, "doc")
    local name = rawget(x, "name")
    local title = type(about) == "string" and about
      or "a player" .. (name ~= nil and " (" .. tostring(name) .. ")" or "")
    return entry_lines("player: " .. title,
                       {methods = {choose = doc.ai.methods.choose}}, "player")
  end
  return nil
end

---------------------------------------------------------- functions

-- An object of each module with methods, to reach its methods table.
local SAMPLES = {
  sudoku = function(module) return module.parse(("."):rep(16)) end,
  ai = function(module) return module.random{seed = 1} end,
}

-- The methods of module name, or nil.
local function methods_of(name)
  local module = ludus_module()[name]
  if type(module) ~= "table" or not (doc[name] and doc[name].methods) then return nil end
  local make = SAMPLES[name] or function(m) return m.new() end
  local ok, object = pcall(make, module)
  local mt = ok and debug.getmetatable(object)
  local methods = type(mt) == "table" and rawget(mt, "__index")
  if type(methods) == "table" then return methods end
  -- the objects of OBJECTS, by the metatables the registry keeps by name
  local found
  for type_name, module_name in pairs(OBJECTS) do
    local object_mt = module_name == name and debug.getregistry()[type_name]
    local index = type(object_mt) == "table" and rawget(object_mt, "__index")
    if type(index) == "table" then
      found = found or {}
      for key, value in pairs(index) do found[key] = value end
    end
  end
  return found
end

-- The line for a function of a module or a method of its objects, or nil.
local function function_text(f)
  local ludus = ludus_module()
  local tables = {ludus = ludus, help = help}
  for _, module in ipairs(entry_names()) do
    local functions = doc[module] and doc[module].functions or {}
    local t = tables[module] or ludus[module]
    if type(t) == "table" then
      for name, value in pairs(t) do
        if rawequal(value, f) and functions[name] then
          return function_line(module, name, functions[name]):sub(3) .. "\n"
        end
      end
    end
  end
  for _, module in ipairs(module_names()) do
    local methods = methods_of(module)
    for name, value in pairs(methods or {}) do
      if rawequal(value, f) and doc[module].methods[name] then
        return module .. ": " .. doc[module].methods[name] .. "\n"
      end
    end
  end
  return nil
end

------------------------------------------------------------- search

-- Every line of help that mentions word (any case), with the entry it
-- belongs to; nil when none does.
local function search_text(word)
  local wanted = word:lower()
  local found, width = {}, 0
  local function consider(module, line)
    if line:lower():find(wanted, 1, true) then
      found[#found + 1] = {module, line}
      width = math.max(width, #module)
    end
  end
  for _, module in ipairs(entry_names()) do
    local entry = doc[module]
    consider(module, entry.summary or "")
    for _, f in ipairs(sorted_keys(entry.functions)) do
      consider(module, function_line(module, f, entry.functions[f]):sub(3))
    end
    for _, m in ipairs(sorted_keys(entry.methods)) do
      consider(module, entry.methods[m])
    end
  end
  if #found == 0 then return nil end
  local lines = {('help: %d line%s mention "%s"'):format(#found, #found == 1 and "" or "s",
                                                         word)}
  for _, hit in ipairs(found) do
    lines[#lines + 1] = ("  %-" .. width .. "s  %s"):format(hit[1], hit[2])
  end
  return table.concat(lines, "\n") .. "\n"
end

-------------------------------------------------------------- help

-- The module a value belongs to, or nil.
local function module_of(x)
  if type(x) == "string" then
    local name = x:match("^ludus%.(.+)$") or x
    return is_module(name) and name or nil
  end
  local mt = getmetatable(x)
  if type(mt) == "table" then mt = mt.__name end  -- ludus objects hide theirs
  if type(mt) == "string" then
    if OBJECTS[mt] then return OBJECTS[mt] end
    local name = mt:match("^ludus%.(.+)$")
    if name and is_module(name) then return name end
  end
  local ludus = ludus_module()
  for _, name in ipairs(module_names()) do
    if rawequal(ludus[name], x) then return name end
  end
  return nil
end

local function describe(x)
  if type(x) == "string" then
    -- a long string is shown by its start and its length
    if #x > 60 then
      return string.format("%q... (%d bytes)", x:sub(1, 40), #x)
    end
    return string.format("%q", x)
  elseif x == nil or type(x) == "number" or type(x) == "boolean" then
    return tostring(x)
  end
  return "a " .. type(x)
end

-- A Sudoku variant module (scripts/variants): a table whose help field
-- is an entry like doc's, with its name.
local function variant_text(x)
  local entry = type(x) == "table" and rawget(x, "help")
  if type(entry) ~= "table" or type(entry.name) ~= "string"
     or type(entry.summary) ~= "string" then
    return nil
  end
  return entry_lines(entry.name .. ": " .. entry.summary, entry, entry.name)
end

function help.text(...)
  local x = ...
  if select("#", ...) == 0 or rawequal(x, ludus_module()) then
    return list_text()
  elseif rawequal(x, help) then
    return module_text("help")
  end
  local game = lua_game(x)
  if game then return lua_game_text(game) end
  local module = module_of(x)
  if module then return module_text(module) end
  local text = player_text(x) or variant_text(x)
    or type(x) == "function" and function_text(x)
    or type(x) == "string" and x ~= "" and search_text(x)
  if text then return text end
  return string.format("help: no help for %s (help knows: %s)\n",
                       describe(x), table.concat(module_names(), ", "))
end

return setmetatable(help, {
  __call = function(_, ...)
    io.stdout:write(help.text(...))
  end,
  __tostring = function()
    return "help: call help() to list the modules, help(x) to describe x"
  end,
})
