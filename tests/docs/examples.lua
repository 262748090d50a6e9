-- examples.lua: the Lua examples of Markdown pages, run as tests.
--
--   ludus tests/docs/examples.lua README.md docs/*.md
--
-- The convention (docs/design.md, "Examples are tests"):
--
-- * A ```lua block runs as if its lines were typed at the REPL: a line is
--   first tried as `return <line>`, a statement goes on over the lines it
--   needs, locals live on to the next statement, and the REPL's globals
--   are there (ludus, every game module, ai, match, sudoku, mahjong,
--   help).  A file's blocks run in order in one environment, so a block
--   can use what an earlier one made.
-- * A ```lua no-run block is not run (a Ctrl-C, a half-hour job); it is
--   counted as a skipped test.
-- * A statement whose last line ends in `--> value` asserts that what the
--   REPL shows for it (what it prints, then its values, as ludus.pretty
--   writes them) is the value.  The value is a Lua expression list
--   (`0, "b1"`, `{black = 4, white = 2}`), shown the same way; text that
--   is not one is compared as it is written.
-- * A line ending in a bare `-->` takes the comment lines that follow
--   ("-- " taken off each) as what the REPL shows: a board, a long table.
-- * `--> error: message` asserts that the statement raises that message
--   (the "stdin:1:" where it happened left out).
--
-- Prints TAP, one test per block, named file:line; exits 1 on a failure.

local pretty = require "ludus.pretty"
local ludus = require "ludus"

local stdout = io.stdout
local tap_count, failures, skipped, checks = 0, 0, 0, 0

local function tap(ok, name, diagnostics)
  tap_count = tap_count + 1
  stdout:write(("%s %d - %s\n"):format(ok and "ok" or "not ok", tap_count, name))
  for _, line in ipairs(diagnostics or {}) do
    stdout:write("#   ", (line:gsub("\n", "\n#   ")), "\n")
  end
end

--------------------------------------------------------------------------
-- Reading the pages

-- The fenced ```lua blocks of a Markdown text: {line =, lines = {{n =,
-- text =}, ...}, run = bool}.  A fence may be indented (in a list item);
-- its lines lose that indentation.
local function lua_blocks(text)
  local blocks, block, indent = {}, nil, nil
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    n = n + 1
    if block then
      if line:match("^%s*```%s*$") then
        if block.info then blocks[#blocks + 1] = block end
        block = nil
      elseif block.info then
        local stripped = line:sub(1, #indent) == indent and line:sub(#indent + 1) or line
        block.lines[#block.lines + 1] = {n = n, text = stripped}
      end
    else
      local lead, info = line:match("^(%s*)```%s*(.-)%s*$")
      if lead then
        indent = lead
        block = {line = n, lines = {}}
        if info == "lua" then
          block.info, block.run = info, true
        elseif info == "lua no-run" then
          block.info, block.run = info, false
        end
      end
    end
  end
  return blocks
end

-- Where the line's comment starts, outside quoted strings; nil if none.
local function comment_start(line)
  local i, quote = 1, nil
  while i <= #line do
    local c = line:sub(i, i)
    if quote then
      if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
    elseif c == '"' or c == "'" then
      quote = c
    elseif line:sub(i, i + 1) == "--" then
      return i
    end
    i = i + 1
  end
  return nil
end

-- The text after the line's `-->`, trimmed ("" for a bare arrow), or nil.
local function arrow(line)
  local at = comment_start(line)
  if at and line:sub(at, at + 2) == "-->" then
    return (line:sub(at + 3):gsub("^%s+", ""):gsub("%s+$", ""))
  end
  return nil
end

--------------------------------------------------------------------------
-- Running statements as the REPL does (bindings/repl.c)

-- A new environment with the REPL's globals (ludus.c, ludus_open_globals).
local function repl_environment()
  local env = setmetatable({}, {__index = _G})
  env.ludus = ludus
  for _, name in ipairs(ludus.games) do env[name] = ludus[name] end
  for _, name in ipairs({"help", "ai", "match", "sudoku", "mahjong"}) do
    env[name] = ludus[name]
  end
  return env
end

-- Values as the REPL prints them: through ludus.pretty, tab-separated.
local function shown_values(values)
  local parts = {}
  for i = 1, values.n do
    local text = pretty(values[i])
    parts[i] = type(text) == "string" and text or tostring(text)
  end
  return table.concat(parts, "\t")
end

-- What the REPL shows for a statement: what it printed, then its values.
local function shown(output, values)
  local parts = {}
  if output ~= "" then parts[#parts + 1] = output:gsub("\n$", "") end
  if values.n > 0 then parts[#parts + 1] = shown_values(values) end
  return table.concat(parts, "\n")
end

-- The text an arrow's value stands for: a Lua expression list shown as
-- the REPL shows values, else the text itself.
local no_names = setmetatable({}, {__index = function() error("not a value") end})

local function expected_shown(text)
  local chunk = load("return " .. text, "=-->", "t", no_names)
  if chunk then
    local ok, values = pcall(function() return table.pack(chunk()) end)
    if ok then return shown_values(values) end
  end
  return text
end

-- Runs f with print, io.write and io.stdout writing to a string; returns
-- xpcall's status, the output, and the values or the error message.
local function capture(f, ...)
  local out = {}
  local function add(...)
    for i = 1, select("#", ...) do out[#out + 1] = tostring((select(i, ...))) end
  end
  local fake_stdout = setmetatable({}, {__index = {
    write = function(self, ...) add(...) return self end,
    flush = function(self) return self end,
  }})
  local saved = {print = print, write = io.write, stdout = io.stdout}
  rawset(_G, "print", function(...)
    local n = select("#", ...)
    for i = 1, n do add(tostring((select(i, ...))), i < n and "\t" or "") end
    add("\n")
  end)
  rawset(io, "write", function(...) add(...) return io.stdout end)
  rawset(io, "stdout", fake_stdout)
  local results = table.pack(xpcall(f, function(message)
    return type(message) == "string" and message or tostring(message)
  end, ...))
  rawset(_G, "print", saved.print)
  rawset(io, "write", saved.write)
  rawset(io, "stdout", saved.stdout)
  local ok = results[1]
  return ok, table.concat(out), ok and table.pack(table.unpack(results, 2, results.n))
                                    or results[2]
end

-- The function the REPL passes each statement, which saves its locals
-- into env so that later statements see them.
local function local_saver(env)
  return function()
    for i = 1, math.huge do
      local name, value = debug.getlocal(2, i)
      if not name then break end
      if name:sub(1, 1) ~= "(" and name ~= "_ENV" then rawset(env, name, value) end
    end
  end
end

-- Compiles the statement that starts at lines[i] as the REPL would.
-- Returns the function (or nil and the compile error) and the index of
-- its last line.
local function compile_statement(lines, i, env)
  local first = lines[i].text
  if first:sub(1, 1) == "=" then first = "return " .. first:sub(2) end
  local code, j = first, i
  while true do
    -- an expression, over as many lines as it takes, shows its values
    local f, unfinished = load("return " .. code, "=stdin", "t", env)
    if f then return f, nil, j end
    local err
    f, err = load(code, "=stdin", "t", env)
    if f or not (err:find("<eof>$") or unfinished:find("<eof>$")) or j == #lines then
      if f then  -- the epilogue that saves the locals, when it fits
        f = load(code .. "\n;(...)()", "=stdin", "t", env) or f
      end
      return f, err, j
    end
    j = j + 1
    code = code .. "\n" .. lines[j].text
  end
end

--------------------------------------------------------------------------
-- A block

-- Runs a block's statements in env; returns the number of checks made, or
-- nil and what went wrong.
local function run_block(block, env, file)
  local lines, i, made = block.lines, 1, 0
  local save = local_saver(env)
  while i <= #lines do
    local f, err, last = compile_statement(lines, i, env)
    local where = ("%s:%d"):format(file, lines[i].n)
    if not f then return nil, {where .. ": " .. err} end
    for k = i, last - 1 do
      if arrow(lines[k].text) then
        return nil, {("%s:%d: --> inside a statement that goes on"):format(file, lines[k].n)}
      end
    end
    local want = arrow(lines[last].text)
    local next_line = last + 1
    if want == "" then   -- the comment lines that follow
      local expected = {}
      while next_line <= #lines and lines[next_line].text:match("^%-%-") do
        expected[#expected + 1] = lines[next_line].text:gsub("^%-%- ?", "", 1)
        next_line = next_line + 1
      end
      want = table.concat(expected, "\n")
    elseif want then
      want = want:match("^error: ") and want or expected_shown(want)
    end
    local ok, output, got = capture(f, save)
    if ok and got.n > 0 then rawset(env, "_", got[1]) end   -- as the REPL keeps it
    local code = lines[i].text .. (last > i and " ..." or "")
    if want and want:match("^error: ") then
      local message = ok and "no error" or got:gsub("^[^:\n]*:%d+: ", "", 1)
      if ok or "error: " .. message ~= want then
        return nil, {where .. ": " .. code, "expected: " .. want,
                     "got:      " .. (ok and "no error" or "error: " .. message)}
      end
      made = made + 1
    elseif not ok then
      return nil, {where .. ": " .. code, "error: " .. got}
    elseif want then
      local text = shown(output, got)
      if text ~= want then
        return nil, {where .. ": " .. code, "expected: " .. want, "got:      " .. text}
      end
      made = made + 1
    end
    i = next_line
  end
  return made
end

--------------------------------------------------------------------------

local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("a")
  f:close()
  return text
end

local files = {...}
if #files == 0 then
  io.stderr:write("usage: ludus tests/docs/examples.lua FILE.md...\n")
  os.exit(2)
end

for _, file in ipairs(files) do
  local text, err = read_file(file)
  if not text then
    tap(false, file, {err})
    failures = failures + 1
  else
    local env = repl_environment()
    for _, block in ipairs(lua_blocks(text)) do
      local name = ("%s:%d"):format(file, block.line)
      if not block.run then
        skipped = skipped + 1
        tap(true, name .. " # SKIP no-run")
      else
        local made, problem = run_block(block, env, file)
        if made then checks = checks + made else failures = failures + 1 end
        tap(made ~= nil, name, problem)
      end
    end
  end
end

stdout:write(("1..%d\n"):format(tap_count))
stdout:write(("# blocks: %d run, %d not run (no-run), %d failed; %d values checked\n")
  :format(tap_count - skipped, skipped, failures, checks))
os.exit(failures == 0 and 0 or 1)
