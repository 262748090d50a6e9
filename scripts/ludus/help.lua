-- help.lua: what the REPL's help() says, from the one-line entries in
-- ludus.doc.
--
--   help()                 the modules, one line each
--   help(x)                the functions and methods of x, one line each;
--                          x is a module (help(tictactoe)), a game object
--                          (found by its metatable's __name), a module
--                          name ("tictactoe") or a module function
--   help.text(...)         the same text as a string, for tests and scripts

local doc = require "ludus.doc"

local help = {}

-- Not at load time: require "ludus" loads this module.
local function ludus_module()
  return require "ludus"
end

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
    if not seen[name] then others[#others + 1] = name end
  end
  table.sort(others)
  for _, name in ipairs(others) do names[#names + 1] = name end
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

local function list_text()
  local names = module_names()
  local width = 0
  for _, name in ipairs(names) do width = math.max(width, #name) end
  local lines = {"ludus " .. ludus_module().version ..
                 ": help(x) shows the functions and methods of module x"}
  for _, name in ipairs(names) do
    lines[#lines + 1] = string.format("  %-" .. width .. "s  %s",
                                      name, summary(name))
  end
  return table.concat(lines, "\n") .. "\n"
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

local function module_text(name)
  local entry = doc[name] or {}
  local lines = {name .. ": " .. summary(name)}
  local functions = sorted_keys(entry.functions)
  if #functions > 0 then
    lines[#lines + 1] = "functions:"
    for _, f in ipairs(functions) do
      lines[#lines + 1] = function_line(name, f, entry.functions[f])
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

-- The module a value belongs to, or nil.
local function module_of(x)
  if type(x) == "string" then
    local name = x:match("^ludus%.(.+)$") or x
    return is_module(name) and name or nil
  end
  local mt = getmetatable(x)
  if type(mt) == "table" then mt = mt.__name end  -- ludus objects hide theirs
  if type(mt) == "string" then
    local name = mt:match("^ludus%.(.+)$")
    if name and is_module(name) then return name end
  end
  local ludus = ludus_module()
  for _, name in ipairs(module_names()) do
    if rawequal(ludus[name], x) then return name end
  end
  return nil
end

-- The line for a function of a module, or nil.
local function function_text(f)
  local ludus = ludus_module()
  for _, module in ipairs(module_names()) do
    local functions = doc[module] and doc[module].functions or {}
    if type(ludus[module]) == "table" then
      for name, value in pairs(ludus[module]) do
        if rawequal(value, f) and functions[name] then
          return function_line(module, name, functions[name]):sub(3) .. "\n"
        end
      end
    end
  end
  return nil
end

local function describe(x)
  if type(x) == "string" then
    return string.format("%q", x)
  elseif x == nil or type(x) == "number" or type(x) == "boolean" then
    return tostring(x)
  end
  return "a " .. type(x)
end

function help.text(...)
  local x = ...
  if select("#", ...) == 0 or rawequal(x, ludus_module()) then
    return list_text()
  elseif rawequal(x, help) then
    return "help() lists the modules; help(x) shows the functions and " ..
           "methods of module or game object x\n"
  end
  local module = module_of(x)
  if module then return module_text(module) end
  if type(x) == "function" then
    local text = function_text(x)
    if text then return text end
  end
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
