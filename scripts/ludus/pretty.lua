-- pretty.lua: a value as a person would write it.  The REPL prints its
-- results through this; scripts may use it too:
--
--   local pretty = require "ludus.pretty"
--   print(pretty({winner = "x", draw = false}))  --> {draw = false, winner = "x"}
--
-- pretty(v, {tostring = f}) writes what is not a table with f instead of
-- tostring (the REPL draws boards in colour so).
--
-- A string comes back as itself; anything with a __tostring metamethod (a
-- game object draws its board) through it; a table as a Lua constructor:
-- the list part first, then the other keys sorted, identifiers bare,
-- strings quoted, on one line when it fits and indented otherwise.  A table
-- met again inside itself is a <cycle>; below MAX_DEPTH levels it is {...}.

local MAX_DEPTH = 8
local WIDTH = 72     -- longest one-line table, counting its indentation

local keywords = {}
for word in ([[and break do else elseif end false for function goto if in
               local nil not or repeat return then true until while]]):gmatch("%a+") do
  keywords[word] = true
end

-- Quoted as Lua would read it back; control characters as escapes.
local escapes = {["\n"] = "\\n", ["\t"] = "\\t", ["\r"] = "\\r",
                 ['"'] = '\\"', ["\\"] = "\\\\"}

local function quote(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return escapes[c] or string.format("\\%03d", c:byte())
  end) .. '"'
end

-- A ludus object hides its metatable behind its type name (a string);
-- every one of them prints itself.
local function has_tostring(v)
  local mt = getmetatable(v)
  return type(mt) == "string" or (type(mt) == "table" and mt.__tostring ~= nil)
end

local function key_text(k)
  if type(k) == "string" and k:match("^[A-Za-z_][A-Za-z0-9_]*$")
     and not keywords[k] then
    return k
  elseif type(k) == "string" then
    return "[" .. quote(k) .. "]"
  else
    return "[" .. tostring(k) .. "]"
  end
end

-- Keys of different types sort numbers first, then strings, then booleans,
-- then the rest grouped by type.
local type_rank = {number = 1, string = 2, boolean = 3}

local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then
    local ra, rb = type_rank[ta] or 4, type_rank[tb] or 4
    if ra ~= rb then return ra < rb end
    return ta < tb
  elseif ta == "number" or ta == "string" then
    return a < b
  elseif ta == "boolean" then
    return b and not a
  else
    return tostring(a) < tostring(b)
  end
end

-- Length of the list part: 1..n all present (raw, so objects built on
-- __index show what they hold).
local function list_length(t)
  local n = 0
  while rawget(t, n + 1) ~= nil do n = n + 1 end
  return n
end

-- 'indent' is the indentation of the line where v starts; 'open' holds the
-- tables being written, to spot cycles; 'show' writes the rest.
local function render(v, indent, depth, open, show)
  if type(v) == "string" then
    return quote(v)
  elseif type(v) ~= "table" or has_tostring(v) then
    -- A multi-line text (a board) keeps its shape inside an indented table.
    -- through pcall, a __tostring that fails is not blamed on this line
    local ok, text = pcall(show, v)
    if not ok then error(text, 0) end
    return (tostring(text):gsub("\n", "\n" .. indent))
  elseif open[v] then
    return "<cycle>"
  elseif next(v) == nil then
    return "{}"
  elseif depth >= MAX_DEPTH then
    return "{...}"
  end
  open[v] = true
  local inner = indent .. "  "
  local items = {}
  local n = list_length(v)
  for i = 1, n do
    items[#items + 1] = render(rawget(v, i), inner, depth + 1, open, show)
  end
  local keys = {}
  for k in next, v do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then
      keys[#keys + 1] = k
    end
  end
  table.sort(keys, key_less)
  for _, k in ipairs(keys) do
    items[#items + 1] = key_text(k) .. " = " ..
                        render(rawget(v, k), inner, depth + 1, open, show)
  end
  open[v] = nil
  local line = "{" .. table.concat(items, ", ") .. "}"
  if #indent + #line <= WIDTH and not line:find("\n", 1, true) then
    return line
  end
  return "{\n" .. inner .. table.concat(items, ",\n" .. inner) .. ",\n" ..
         indent .. "}"
end

return function(v, options)
  if type(v) == "string" then return v end
  local show = type(options) == "table" and options.tostring or tostring
  return render(v, "", 0, {}, show)
end
