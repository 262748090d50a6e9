-- repl_spec.lua: the `ludus` executable end to end.  Options, scripts and
-- exit codes through pipes and temporary files; the REPL through a pipe
-- (`ludus -i`) and, for what needs a terminal (banner, line editing, Tab,
-- Ctrl-C, history), through a pseudo-terminal made by script(1).
--
--   LUDUS_BIN_DIR=. busted --lua=lua5.4 tests/lua/repl_spec.lua

local bin_dir = os.getenv("LUDUS_BIN_DIR") or "."
local ludus = bin_dir .. "/ludus"

-- Where things go while the tests run; removed at the end.
local mktemp = assert(io.popen("mktemp -d /tmp/ludus-repl-spec.XXXXXX"))
local scratch = assert(mktemp:read("l"))
mktemp:close()
local scratch_count = 0

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

local function scratch_path(name)
  scratch_count = scratch_count + 1
  return string.format("%s/%d-%s", scratch, scratch_count, name)
end

local function write_file(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

local function sleep(seconds)
  os.execute("sleep " .. seconds)
end

-- Runs `ludus ARGS` (ARGS: shell words, quoted by the caller) with 'input'
-- on stdin; returns {out =, err =, code =}.  LUA_INIT is cleared so that
-- the caller's environment cannot change what runs; LUDUS_HISTORY points
-- into the scratch folder, never at the real home; LD_PRELOAD, which
-- brings the sanitizers into lua5.4 under SANITIZE=1, is not for ludus,
-- which links them itself.
local function run(args, input, env)
  local inpath, outpath = scratch_path("in"), scratch_path("out")
  local errpath = scratch_path("err")
  write_file(inpath, input or "")
  local command = string.format(
    "env -u LUA_INIT -u LUA_INIT_5_4 -u LD_PRELOAD LUDUS_HISTORY=%s %s %s %s" ..
    " <%s >%s 2>%s",
    shell_quote(scratch_path("history")), env or "", shell_quote(ludus), args,
    shell_quote(inpath), shell_quote(outpath), shell_quote(errpath))
  local _, _, code = os.execute(command)
  return {out = read_file(outpath), err = read_file(errpath), code = code}
end

-- The REPL on a pipe: `ludus -i` with 'input' typed.  'body' is what it
-- printed with the prompts taken away: a prompt is printed before each
-- line is read, and a newline at the end of input.
local function repl(input, args)
  local result = run("-i " .. (args or ""), input)
  local body = result.out:gsub("> \n$", "")
  local lines = {}
  for line in (body .. "\n"):gmatch("(.-)\n") do
    local count
    repeat line, count = line:gsub("^>>? ", "") until count == 0
    lines[#lines + 1] = line
  end
  result.body = table.concat(lines, "\n")
  return result
end

-- What ludus.pretty makes of a Lua expression, from a script.
local function pretty(expression)
  local result = run("-e " .. shell_quote(
    "io.write(require('ludus.pretty')(" .. expression .. "))"))
  assert.equals("", result.err)
  return result.out
end

-- The board of a tic-tac-toe game after 'moves', as ludus draws it.
local function board(moves)
  local result = run("-e " .. shell_quote(string.format([[
    local g = require("ludus.tictactoe").new()
    for move in (%q):gmatch("%%S+") do g = g:play(move) end
    io.write(tostring(g))]], moves or "")))
  assert.equals("", result.err)
  return result.out
end

teardown(function()
  os.execute("rm -rf " .. shell_quote(scratch))
end)

describe("ludus options", function()
  it("-v and --version print the version", function()
    for _, option in ipairs({"-v", "--version"}) do
      local result = run(option)
      assert.equals(0, result.code)
      assert.matches("^ludus %d+%.%d+%.%d+, Lua 5%.4%.%d+\n$", result.out)
      assert.equals("", result.err)
    end
  end)

  it("-h and --help print the usage on stdout", function()
    for _, option in ipairs({"-h", "--help"}) do
      local result = run(option)
      assert.equals(0, result.code)
      assert.matches("^usage: %S*ludus %[options%] %[script %[args%]%]\n", result.out)
      assert.matches("\n  %-e code ", result.out)
      assert.matches("\n  %-i ", result.out)
      assert.equals("", result.err)
    end
  end)

  it("an unknown option prints the usage on stderr and exits 1", function()
    local result = run("-x")
    assert.equals(1, result.code)
    assert.equals("", result.out)
    assert.matches("^%S*ludus: unknown option '%-x'\nusage: ", result.err)
    result = run("--bogus")
    assert.equals(1, result.code)
    assert.matches("unknown option '%-%-bogus'", result.err)
  end)

  it("-e without its code is an error", function()
    local result = run("-e")
    assert.equals(1, result.code)
    assert.matches("'%-e' needs a value\nusage: ", result.err)
  end)

  it("-e runs its code, repeatedly, in order", function()
    local result = run("-e 'io.write(1)' -e 'io.write(2)' -e 'print(3)'")
    assert.equals(0, result.code)
    assert.equals("123\n", result.out)
  end)

  it("-l requires a module into a global, also as g=mod", function()
    local result = run("-l ttt=ludus.tictactoe -e 'print(type(ttt.new))'")
    assert.equals("function\n", result.out)
    result = run("-l string -e 'print(string == require(\"string\"))'")
    assert.equals("true\n", result.out)
    result = run("-l no_such_module")
    assert.equals(1, result.code)
    assert.matches("module 'no_such_module' not found", result.err)
  end)

  it("LUA_INIT runs first, unless -E", function()
    local result = run("-e 'print(x)'", nil, "LUA_INIT='x = 7'")
    assert.equals("7\n", result.out)
    result = run("-E -e 'print(x)'", nil, "LUA_INIT='x = 7'")
    assert.equals("nil\n", result.out)
  end)
end)

describe("ludus scripts", function()
  it("run with arg set as lua does", function()
    local script = scratch_path("args.lua")
    write_file(script, [[
      print(#arg, select("#", ...), ...)
      for i = -2, #arg do io.write(i, "=", tostring(arg[i]), " ") end
      print()
    ]])
    local result = run("-e 'x = 1' " .. shell_quote(script) .. " a 'b c'")
    assert.equals(0, result.code)
    assert.equals("", result.err)
    assert.equals(
      "2\t2\ta\tb c\n" ..
      "-2=-e -1=x = 1 0=" .. script .. " 1=a 2=b c \n",
      result.out)
  end)

  it("see the REPL's globals: ludus, the games, help, ai, match, sudoku, mahjong",
     function()
    -- every global name, sorted, with what it is
    local code = [[
      local names = {}
      for k, v in pairs(_G) do
        names[#names + 1] = k .. (k ~= "arg" and v == package.loaded["ludus." .. k]
                                  and "=module" or "")
      end
      table.sort(names)
      print(table.concat(names, " "))
      print(ludus == require "ludus", help == require "ludus.help")
    ]]
    local in_repl = repl(code:gsub("\n%s*", " ") .. "\n").body
    for _, name in ipairs({"tictactoe", "connect4", "mnk", "gomoku", "reversi",
                           "xiangqi", "help", "ai", "match", "sudoku", "mahjong"}) do
      assert.truthy(in_repl:find(" " .. name .. "=module ", 1, true), name)
    end
    assert.truthy(in_repl:find(" ludus ", 1, true))
    assert.matches("\ntrue\ttrue\n$", in_repl)
    local script = scratch_path("globals.lua")
    write_file(script, code)
    for _, args in ipairs({"-e " .. shell_quote(code), shell_quote(script)}) do
      local result = run(args)
      assert.equals("", result.err)
      assert.equals(in_repl, result.out)
    end
    assert.equals(in_repl, run("", code).out)
    -- a script's own global of the same name is its own
    write_file(script, "help = 1\nprint(help)\n")
    assert.equals("1\n", run(shell_quote(script)).out)
  end)

  it("load the same modules as require does", function()
    local result = run("-e " .. shell_quote([[
      local l = require "ludus"
      print(l.tictactoe == require "ludus.tictactoe", type(l.tictactoe.new))
      print(type(require "ludus.pretty"), type(require "ludus.help"))]]))
    assert.equals("", result.err)
    assert.equals("true\tfunction\nfunction\ttable\n", result.out)
  end)

  it("run from stdin when it is not a terminal, or with -", function()
    local result = run("", "print('from stdin', ...)")
    assert.equals("from stdin\n", result.out)
    result = run("- x y", "print('dash', ...)")
    assert.equals("dash\tx\ty\n", result.out)
  end)

  it("exit non-zero with the message and traceback on stderr when they fail",
     function()
    local script = scratch_path("fail.lua")
    write_file(script, "local function f() error('it broke') end\nf()\n")
    local result = run(shell_quote(script))
    assert.equals(1, result.code)
    assert.equals("", result.out)
    assert.matches(": [^\n]*fail%.lua:1: it broke\nstack traceback:\n", result.err)
    assert.matches("in local 'f'", result.err)
    assert.matches("in main chunk", result.err)

    result = run("-e 'x = = 1'")
    assert.equals(1, result.code)
    assert.matches("%(command line%):1: unexpected symbol near '='", result.err)

    result = run(shell_quote(scratch .. "/no-such-file.lua"))
    assert.equals(1, result.code)
    assert.matches("cannot open [^\n]*no%-such%-file%.lua", result.err)
  end)

  it("exit with the code given to os.exit", function()
    assert.equals(3, run("-e 'os.exit(3)'").code)
    assert.equals(0, run("-e 'os.exit(true)'").code)
    assert.equals(1, run("-e 'os.exit(false)'").code)
    assert.equals(4, run("", "os.exit(4)").code)
  end)

  it("print an error object that is not a string", function()
    local result = run("-e 'error({})'")
    assert.equals(1, result.code)
    assert.matches("%(error object is a table value%)", result.err)
    result = run("-e " .. shell_quote(
      "error(setmetatable({}, {__tostring = function() return 'custom' end}))"))
    assert.matches("custom\n$", result.err)
  end)
end)

describe("the REPL on a pipe", function()
  it("prints the prompts, no banner, and exits 0 at the end of input", function()
    local result = run("-i", "x = 1\nfunction f()\nend\n")
    assert.equals(0, result.code)
    assert.equals("> > >> > \n", result.out)
    assert.equals("", result.err)
  end)

  it("prints the values of an expression, tab-separated", function()
    local result = repl("1 + 1\n'a', 2, nil\n=3 * 3\nprint('printed')\n")
    assert.equals("2\na\t2\tnil\n9\nprinted\n", result.body)
  end)

  it("asks for more lines to finish a statement", function()
    local result = repl([[
function double(n)
  return
    n * 2
end
double(21)
]])
    assert.equals("", result.err)
    assert.matches(">> >> >> ", result.out)
    assert.equals("42\n", result.body)
  end)

  it("prints the values of an expression written over several lines", function()
    local result = repl([[
string.format("%d + %d",
  1,
  2)
mahjong.score("234p234m234s45688s",
              {win = "6s", tsumo = true}).han
x = string.format("%d",
  3)
print(
  "printed")
]])
    assert.equals("", result.err)
    assert.equals("1 + 2\n5\nprinted\n", result.body)
  end)

  it("keeps the first value shown in _", function()
    local result = repl([[
6 * 7
_ + 1
"a", "b"
_
x = 1
print("nothing shown")
_
local _ = "mine"
{1,
 2}
_, rawget(_G, "_")
]])
    assert.equals("", result.err)
    assert.equals('42\n43\na\tb\na\nnothing shown\na\n{1, 2}\n{1, 2}\ta\n', result.body)
  end)

  it("keeps locals for later lines", function()
    local result = repl([[
local a, b = 20, 22
a + b
local unset
unset, rawget(_G, "a"), rawget(_G, "unset")
unset = 5
unset, rawget(_G, "unset")
local function twice(n) return 2 * n end
twice(a)
a = nil
a, rawget(_G, "a")
]])
    assert.equals("", result.err)
    assert.equals("42\nnil\tnil\tnil\n5\tnil\n40\nnil\tnil\n", result.body)
  end)

  it("lets a local hide a global of the same name, even when nil", function()
    local result = repl([[
shadow = "global"
local shadow
shadow
shadow = "local"
shadow, rawget(_G, "shadow")
]])
    assert.equals("nil\nlocal\tglobal\n", result.body)
  end)

  it("keeps globals global", function()
    local result = repl("g = 10\nrawget(_G, 'g')\nfunction inc() g = g + 1 end\ninc()\ng\n")
    assert.equals("10\n11\n", result.body)
  end)

  it("reports an error without ending the session", function()
    local result = repl("error('boom')\n1 + 1\nx = = 2\n'still here'\n")
    assert.equals(0, result.code)
    assert.equals("2\nstill here\n", result.body)
    assert.equals(
      "stdin:1: boom\n" ..
      "stack traceback:\n" ..
      "\t[C]: in function 'error'\n" ..
      "\tstdin:1: in main chunk\n" ..
      "stdin:1: unexpected symbol near '='\n",
      result.err)
  end)

  it("prints an error object that is not a string", function()
    local result = repl([[
error({})
error(setmetatable({}, {__tostring = function() return "my error" end}))
]])
    assert.equals("(error object is a table value)\n" ..
                  "stack traceback:\n\t[C]: in function 'error'\n" ..
                  "\tstdin:1: in main chunk\n" ..
                  "my error\n", result.err)
  end)

  it("says that a result's __tostring failed, as lua5.4 does, and goes on", function()
    local result = repl([[
setmetatable({}, {__tostring = function() error("no text", 0) end})
{1, setmetatable({}, {__tostring = function() return {} end})}
6 * 7
]])
    assert.equals("error calling 'print' (no text)\n" ..
                  "error calling 'print' ('__tostring' must return a string)\n",
                  result.err)
    assert.equals("42\n", result.body)
  end)

  it("reports an unfinished statement at the end of input", function()
    local result = repl("function f()\n")
    assert.equals(0, result.code)
    assert.equals("stdin:1: 'end' expected near <eof>\n", result.err)
  end)

  it("makes ludus, the games, ai, match, sudoku, mahjong and help global", function()
    local result = repl([[
ludus == require "ludus"
tictactoe == require "ludus.tictactoe"
connect4 == require "ludus.connect4"
gomoku == require "ludus.gomoku"
reversi == require "ludus.reversi"
xiangqi == require "ludus.xiangqi"
help == require "ludus.help"
ai == require "ludus.ai"
match == require "ludus.match"
sudoku == require "ludus.sudoku"
mahjong == require "ludus.mahjong"
ludus.games
]])
    assert.equals(("true\n"):rep(11)
                  .. '{"tictactoe", "connect4", "mnk", "gomoku", "reversi", "xiangqi"}\n',
                  result.body)
  end)

  it("runs a script first with -i, and leaves its globals", function()
    local script = scratch_path("first.lua")
    write_file(script, "from_script = 'yes'\n")
    local result = repl("from_script\n", shell_quote(script))
    assert.equals("yes\n", result.body)
  end)

  it("prints values through ludus.pretty", function()
    local result = repl([[
{"a1", "a2", "b1"}
{winner = "x", draw = false}
"a string prints raw"
{"quoted", inside = "tables"}
local t = {} t.self = t return t
]])
    assert.equals('{"a1", "a2", "b1"}\n' ..
                  '{draw = false, winner = "x"}\n' ..
                  'a string prints raw\n' ..
                  '{"quoted", inside = "tables"}\n' ..
                  '{self = <cycle>}\n', result.body)
  end)

  it("prints a game object as its board", function()
    local result = repl([[
t = tictactoe.new():play("b2")
t
tostring(t) == tostring(tictactoe.new():play("b2"))
t:moves()
tictactoe.load("a1 b1 a2 b2 a3"):result()
]])
    assert.equals("", result.err)
    assert.equals(board("b2") .. "\ntrue\n" ..
                  '{"a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"}\n' ..
                  '{draw = false, winner = "x"}\n', result.body)
  end)

  it("does not write a history file", function()
    local history = scratch_path("history")
    local result = run("-i", "1 + 1\n", "LUDUS_HISTORY=" .. shell_quote(history))
    assert.equals(0, result.code)
    assert.is_nil(read_file(history))
  end)
end)

describe("help", function()
  it("help() lists the modules, one line each", function()
    local result = repl("help()\n")
    assert.equals("", result.err)
    assert.matches("^ludus %d+%.%d+%.%d+: " ..
                   "help%(x%) shows the functions and methods of module x\n" ..
                   "  tictactoe   3x3 tic%-tac%-toe: [^\n]+\n" ..
                   "  connect4    Connect Four, [^\n]+\n" ..
                   "  mnk         the m,n,k%-game[^\n]+\n" ..
                   "  gomoku      gomoku in C[^\n]+\n" ..
                   "  reversi     Reversi %(Othello%) on 4x4[^\n]+\n" ..
                   "  xiangqi     xiangqi %(Chinese chess%)[^\n]+\n" ..
                   "  ai          searches and AI players[^\n]+\n" ..
                   -- not a global: listed by the name that reaches it
                   "  ludus%.game  games written in Lua[^\n]+\n" ..
                   "  mahjong     riichi mahjong hands[^\n]+\n" ..
                   "  match       [^\n]+\n" ..
                   "  sudoku      Sudoku 4x4 to 64x64[^\n]+\n" ..
                   "functions:\n  ludus%.check_options%(options, [^\n]+\n" ..
                   "  ludus%.interrupted%(%) [^\n]+\n" ..
                   "  ludus%.isatty%([^\n]+\n  ludus%.pretty%(v%) [^\n]+\n$",
                   result.body)
  end)

  it("help(tictactoe) lists its functions and methods", function()
    local result = repl("help(tictactoe)\n")
    assert.equals("", result.err)
    local body = result.body
    assert.matches("^tictactoe: 3x3 tic%-tac%-toe", body)
    assert.matches("\nfunctions:\n  tictactoe%.load%(text%) %-> ", body)
    assert.matches("\n  tictactoe%.new%(%) %-> the empty board, x to move\n", body)
    assert.matches("\nmethods:\n  g:at%(\"b2\"%) %-> ", body)
    assert.matches("\n  g:play%(m%) %-> ", body)
    -- one line per function and method of doc.lua, and nothing else
    local doc = run("-e " .. shell_quote([[
      local d = require("ludus.doc").tictactoe
      local n = 0
      for _ in pairs(d.functions) do n = n + 1 end
      for _ in pairs(d.methods) do n = n + 1 end
      print(n)]])).out
    local _, lines = body:gsub("\n", "")
    assert.equals(tonumber(doc) + 3, lines)
  end)

  it("help(x) knows a game object, a name and a function", function()
    local result = repl([[
help.text(tictactoe.new()) == help.text(tictactoe)
help.text("tictactoe") == help.text(tictactoe)
help(tictactoe.new)
]])
    assert.equals("true\ntrue\ntictactoe.new() -> the empty board, x to move\n", result.body)
  end)

  it("help(x) says what it knows when it does not know x", function()
    local result = repl("help(42)\nhelp('nothing')\nhelp(undefined_name)\n")
    local known = "(help knows: tictactoe, connect4, mnk, gomoku, reversi, xiangqi, ai, "
      .. "game, mahjong, match, sudoku)\n"
    assert.equals("help: no help for 42 " .. known ..
                  'help: no help for "nothing" ' .. known ..
                  "help: no help for nil " .. known, result.body)
  end)

  it("help.text returns what help writes", function()
    local result = run("-e " .. shell_quote([[
      local help = require "ludus.help"
      io.write(help.text())
      help()]]))
    local half = #result.out // 2
    assert.equals(result.out:sub(1, half), result.out:sub(half + 1))
    assert.matches("^ludus ", result.out)
  end)
end)

describe("ludus.pretty", function()
  it("writes lists and maps as Lua constructors", function()
    assert.equals('{"a1", "a2", "b1"}', pretty('{"a1", "a2", "b1"}'))
    assert.equals('{draw = false, winner = "x"}', pretty('{winner = "x", draw = false}'))
    assert.equals('{1, 2, n = 2}', pretty('{n = 2, 1, 2}'))
    assert.equals('{1, 2, [4] = 4}', pretty('{1, 2, nil, 4}'))
    assert.equals('{}', pretty('{}'))
  end)

  it("sorts keys, quotes what is not an identifier", function()
    assert.equals('{[1.5] = 5, [10] = 3, ["a b"] = 2, ["end"] = 1, x_1 = 6, [true] = 4}',
                  pretty('{["end"] = 1, ["a b"] = 2, [10] = 3, [true] = 4, [1.5] = 5, x_1 = 6}'))
  end)

  it("quotes strings inside tables, writes them raw at the top", function()
    assert.equals('{"a\\nb", "q\\"", "tab\\t", "back\\\\", "\\0001"}',
                  pretty('{"a\\nb", "q\\"", "tab\\t", "back\\\\", "\\0001"}'))
    assert.equals('raw "text"', pretty('\'raw "text"\''))
  end)

  it("writes other values as tostring does", function()
    assert.equals("nil", pretty("nil"))
    assert.equals("1.5", pretty("1.5"))
    assert.equals("3", pretty("10 // 3"))
    assert.equals("false", pretty("false"))
    assert.matches("^function: ", pretty("print"))
  end)

  it("indents nested tables that do not fit on a line", function()
    assert.equals('{a = {1, 2}, b = {c = {}}}', pretty('{a = {1, 2}, b = {c = {}}}'))
    assert.equals([[
{
  list = {10, 20, 30, 40, 50, 60, 70, 80},
  name = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  nested = {
    deep = {deeper = {deepest = "yes, it is really quite deep, deep down"}},
  },
}]], pretty([[{name = string.rep("x", 40), list = {10, 20, 30, 40, 50, 60, 70, 80},
               nested = {deep = {deeper = {
                 deepest = "yes, it is really quite deep, deep down"}}}}]]))
  end)

  it("marks cycles and cuts deep tables", function()
    assert.equals("{list = {1, 2, {3}}, self = <cycle>}",
                  pretty("(function() local t = {list = {1, 2, {3}}} t.self = t return t end)()"))
    assert.equals("{inner = {back = <cycle>}}",
                  pretty("(function() local t = {inner = {}} t.inner.back = t return t end)()"))
    -- the same table twice is not a cycle
    assert.equals("{{1}, {1}}", pretty("(function() local s = {1} return {s, s} end)()"))
    assert.equals("{{{{{{{{{...}}}}}}}}}", pretty("{{{{{{{{{{{{1}}}}}}}}}}}}"))
  end)

  it("writes a game object as its board, inside tables too", function()
    local empty = board()
    assert.matches("x to move", empty)
    assert.equals(empty, pretty("require('ludus.tictactoe').new()"))
    local inside = pretty("{game = require('ludus.tictactoe').new()}")
    assert.equals("{\n  game = " .. empty:gsub("\n", "\n  ") .. ",\n}", inside)
  end)
end)

-- A terminal session: ludus on the slave side of a pseudo-terminal made by
-- script(1), fed through a FIFO and read back from a file.  Each step waits
-- for the output it expects; no timing is assumed.  Keys are sent only at a
-- prompt, when libedit has the terminal in raw mode: typed earlier, in
-- cooked mode, Ctrl-D would be taken by the terminal driver instead.
local Terminal = {}
Terminal.__index = Terminal

local TIMEOUT = 30   -- seconds; generous for the sanitizer build

-- options: args (shell words after ludus), history (LUDUS_HISTORY; a
-- scratch file by default), home (HOME; with it, LUDUS_HISTORY is unset
-- unless history is given), term (TERM; dumb by default), env (more
-- variables, as shell words).
local function start_terminal(options)
  options = options or {}
  assert(os.execute("command -v script >/dev/null"),
         "script(1) (Debian's bsdutils, from util-linux) is needed for the terminal tests")
  local term = {
    fifo = scratch_path("fifo"), out = scratch_path("pty"),
    status = scratch_path("status"), pid = scratch_path("pid"), pos = 1,
    -- on a terminal that is not dumb, each prompt comes after the request
    -- to bracket pastes
    prompt_mark = options.term and "\27[?2004h> " or "\n> ",
  }
  assert(os.execute("mkfifo " .. shell_quote(term.fifo)))
  -- Opened for reading too, so that it neither blocks nor raises SIGPIPE
  -- if script has gone.
  term.input = assert(io.open(term.fifo, "r+"))
  local inner = string.format("echo $$ >%s; exec %s %s", shell_quote(term.pid),
                              shell_quote(ludus), options.args or "")
  local history
  if options.history then
    history = "LUDUS_HISTORY=" .. shell_quote(options.history)
  elseif options.home then
    history = "-u LUDUS_HISTORY"
  else
    history = "LUDUS_HISTORY=" .. shell_quote(scratch_path("history"))
  end
  if options.home then history = history .. " HOME=" .. shell_quote(options.home) end
  -- TERM=dumb: libedit redraws a whole line instead of moving the cursor.
  assert(os.execute(string.format(
    "(env -u LUA_INIT -u LUA_INIT_5_4 -u LD_PRELOAD -u NO_COLOR %s TERM=%s %s " ..
    "script -qefc %s /dev/null <%s >%s 2>&1; echo $? >%s) &",
    history, options.term or "dumb", options.env or "", shell_quote(inner),
    shell_quote(term.fifo), shell_quote(term.out), shell_quote(term.status))))
  return setmetatable(term, Terminal)
end

function Terminal:send(keys)
  self.input:write(keys)
  self.input:flush()
end

-- The output so far, with the terminal's \r\n as \n.  A lone \r stays: it
-- starts a redrawn line ("\r> print(132)"), so a prompt after "\n" is
-- always a new one.
function Terminal:output()
  return (read_file(self.out) or ""):gsub("\r\n", "\n")
end

-- Waits for 'text' after what was expected before; returns the output
-- between the two, without \r and the requests to bracket pastes.
function Terminal:expect(text)
  for _ = 1, TIMEOUT * 20 do
    local out = self:output()
    local from, to = out:find(text, self.pos, true)
    if from then
      local before = out:sub(self.pos, from - 1)
      self.pos = to + 1
      return (before:gsub("\r", ""):gsub("\27%[%?2004[hl]", ""))
    end
    sleep(0.05)
  end
  error(string.format("no %q in the terminal output (%s):\n%s", text,
                      self:diagnosis(), self:output():sub(self.pos)))
end

-- The settings of the terminal of the process pid, as stty prints them
-- ("" once it has gone).
local function terminal_settings(pid)
  local stty = io.popen("stty -a -F /proc/" .. pid .. "/fd/0 2>/dev/null")
  local settings = stty:read("a") or ""
  stty:close()
  return settings
end

-- Waits until the line editor has the terminal (no canonical mode), as
-- it has by the time a person types: keys sent before that are the tty's
-- own, and a Ctrl-C among them can come before the editor reads.
function Terminal:wait_editor()
  local pid = (read_file(self.pid) or ""):match("%d+")
  for _ = 1, TIMEOUT * 20 do
    if pid and terminal_settings(pid):find("-icanon", 1, true) then return end
    sleep(0.05)
    pid = pid or (read_file(self.pid) or ""):match("%d+")
  end
  error("the line editor never took the terminal (" .. self:diagnosis() .. ")")
end

-- Waits for a new prompt; returns the lines before it.
function Terminal:prompt()
  return self:expect(self.prompt_mark) .. (self.prompt_mark:match("^\n") and "\n" or "")
end

-- At a prompt: types 'keys' once the line editor has the terminal (see
-- wait_editor), and waits for the next prompt; returns what came between
-- (the echo of the line, then what it printed).
function Terminal:line(keys)
  self:wait_editor()
  self:send(keys)
  return self:prompt()
end

-- What the system says of ludus, for a test that waited in vain: whether
-- it runs, in which state and kernel function, and its terminal's modes.
function Terminal:diagnosis()
  local pid = (read_file(self.pid) or ""):match("%d+")
  if not pid then return "ludus never started" end
  local stat = read_file("/proc/" .. pid .. "/stat")
  if not stat then return "ludus (pid " .. pid .. ") has exited; script(1) has not" end
  local wchan = read_file("/proc/" .. pid .. "/wchan") or "?"
  local settings = terminal_settings(pid)
  return string.format("ludus (pid %s) still runs: state %s, waiting in %s; its terminal: %s",
                       pid, stat:match("%) (%a)") or "?", wchan,
                       settings:match("[-]?icanon")
                         or (settings ~= "" and settings or "not readable by stty"))
end

-- At a prompt: Ctrl-D, and the exit status.  The key waits for the line
-- editor to have the terminal: typed in canonical mode, the end-of-file
-- key stays in the tty's buffer as a NUL once the editor takes it raw.
function Terminal:finish()
  self:wait_editor()
  self:send("\4")
  for _ = 1, TIMEOUT * 20 do
    local status = read_file(self.status)
    if status and status:match("\n") then
      self.done = true
      return tonumber(status)
    end
    sleep(0.05)
  end
  error("ludus did not exit (" .. self:diagnosis() .. "):\n" .. self:output())
end

-- Kills ludus if a failed test left it running.
function Terminal:close()
  if not self.done then
    local pid = read_file(self.pid)
    if pid and pid:match("^%d+") then
      os.execute("kill -9 " .. pid:match("^%d+") .. " 2>/dev/null")
    end
  end
  self.input:close()
end

describe("the REPL on a terminal", function()
  local term

  after_each(function()
    if term then term:close() end
    term = nil
  end)

  it("prints the banner and the prompt, and exits 0 on Ctrl-D", function()
    term = start_terminal()
    term:expect("ludus ")
    assert.matches("^%d+%.%d+%.%d+, Lua 5%.4%.%d+  %(help%(%) lists the modules%)\n$",
                   term:prompt())
    assert.equals("6 * 7\n42\n", term:line("6 * 7\r"))
    assert.equals(0, term:finish())
  end)

  it("edits the line", function()
    term = start_terminal()
    term:prompt()
    -- Ctrl-B twice: back before the 2, where the 3 goes
    assert.matches("\n132\n$", term:line("print(12)\2\0023\r"))
    assert.equals(0, term:finish())
  end)

  it("completes names, fields and methods with Tab", function()
    local history = scratch_path("history")
    term = start_terminal{history = history}
    term:prompt()
    assert.matches("\nx to move\n$", term:line("tictactoe.ne\t()\r"))
    term:line("t = tictac\t.new()\r")
    assert.matches("\no to move\n$", term:line("t:pl\t('b2')\r"))
    term:line("local my_value = 40\r")
    assert.matches("\n42\n$", term:line("my_v\t + 2\r"))
    -- two matches: Tab writes their common prefix
    assert.matches("\n5\n$", term:line("math.ma\t(1, 5)\r"))
    assert.equals(0, term:finish())
    local saved = read_file(history)
    assert.matches("\ntictactoe%.new%(%)\n", saved)
    assert.matches("\nt\\040=\\040tictactoe%.new%(%)\n", saved)
    assert.matches("\nt:play%('b2'%)\n", saved)
    assert.matches("\nmy_value\\040%+\\0402\n", saved)
    assert.matches("\nmath%.max%(1,\\0405%)\n", saved)
  end)

  it("lists methods on a second Tab, never metamethods", function()
    term = start_terminal()
    term:prompt()
    term:line("t = tictactoe.new()\r")
    term:line("p = ai.random{seed = 1}\r")
    term:line("mt = {__index = {inherited = 1}, __tostring = print}\r")
    term:line("o = setmetatable({own = 1}, mt)\r")
    -- What two Tabs after 'keys' list; Ctrl-U drops what Tab left on the line.
    local function listing(keys)
      term:send(keys .. "\t\t\21print('do' .. 'ne')\r")
      local text = term:expect("\ndone")
      term:prompt()
      return text
    end
    local listed = listing("t:")
    for _, method in ipairs({"copy", "moves", "play", "solve", "x", "o"}) do
      assert.truthy(listed:find("t:" .. method .. " ", 1, true), method)
    end
    listed = listed .. listing("p:")
    assert.truthy(listed:find("p:choose ", 1, true))
    assert.truthy(listed:find("p:new_game", 1, true))
    listed = listed .. listing("mt.") .. listing("o.")
    assert.truthy(listed:find("o.own ", 1, true))
    assert.truthy(listed:find("o.inherited", 1, true))
    assert.is_nil(listed:find("__", 1, true))
    -- asked for by name, they are there
    assert.matches("> mt%.__tostring\nfunction: ", term:line("mt.__t\t\r"))
    assert.equals(0, term:finish())
  end)

  it("pastes a bracketed paste: its Tabs are text, its lines run in turn", function()
    term = start_terminal{term = "xterm"}
    term:prompt()
    -- the terminal is asked to bracket pastes while a line is read
    assert.truthy(term:output():find("\27[?2004h", 1, true))
    -- a Tab typed completes; one pasted stays in the text
    term:send("x = 'tictactoe.ne\t'\r")
    term:prompt()
    term:send("\27[200~y = 'tictactoe.ne\t'\27[201~\r")
    term:prompt()
    assert.matches("\ntictactoe%.new\ttrue\n", term:line("x, y == 'tictactoe.ne\\t'\r"))
    -- three lines in one paste run one after the other; the last, without
    -- its newline, waits at the prompt to be finished
    term:send("\27[200~a = 20\r\tb = 22\r" .. "print(a +\tb, #'\t')\r#('\t\t')\27[201~")
    term:expect("42\t1\n")
    term:prompt()
    -- the Tabs shown as moves of the cursor
    assert.equals("#('\t\t", term:expect("')"):gsub("\27%[%d+G", "\t"))
    assert.matches("\n3\n", term:line(" + 1\r"))
    assert.equals(0, term:finish())
  end)

  -- A game of each kind, a move played, as Lua code.
  local GAMES = {"tictactoe.new():play('b2')", "connect4.load('44')",
                 "mnk.new():play('a1')", "gomoku.new():play('h8')",
                 "reversi.new():black('f5')", "xiangqi.new():red('h2e2')"}

  it("shows boards in colour, the last move marked; tostring and print stay plain",
     function()
    -- the plain boards, from a script
    local plain = {}
    for i, game in ipairs(GAMES) do
      plain[i] = run("-e " .. shell_quote("io.write(tostring(" .. game .. "))")).out
    end
    term = start_terminal{term = "xterm"}
    term:prompt()
    local shown = term:line(GAMES[1] .. "\r")
    assert.truthy(shown:find("\n2 . \27[7mx\27[0m .\n", 1, true), shown)
    assert.matches("\n2 %. x %.\n", term:line("print(" .. GAMES[1] .. ")\r"))
    assert.is_nil(term:line("tostring(" .. GAMES[1] .. ")\r"):find("\27", 1, true))
    for i, game in ipairs(GAMES) do
      shown = term:line(game .. "\r"):gsub("^[^\n]*\n", "")      -- the line typed
      assert.truthy(shown:find("\27[7m", 1, true), game)             -- the last move
      -- without its escapes, the board is the plain one
      assert.equals(plain[i] .. "\n", (shown:gsub("\27%[[%d;]*m", "")))
    end
    -- red and black xiangqi pieces, the two Connect Four colours
    shown = term:line(GAMES[6] .. "\r")
    assert.truthy(shown:find("\27[1;31m俥", 1, true))
    assert.truthy(shown:find("\27[1m车", 1, true))
    shown = term:line(GAMES[2] .. "\r")
    assert.truthy(shown:find("\27[7m\u{1f534}\27[0m", 1, true))   -- red on top, last
    assert.truthy(shown:find("\27[34m|\27[0m\u{1f7e1}", 1, true))
    -- inside a table too
    assert.truthy(term:line("{" .. GAMES[1] .. "}\r"):find("\27[7mx", 1, true))
    assert.equals(0, term:finish())
  end)

  it("shows boards plain under NO_COLOR, and on a dumb terminal", function()
    for _, case in ipairs({{term = "xterm", env = "NO_COLOR=1"}, {}}) do
      term = start_terminal(case)
      term:prompt()
      for _, game in ipairs(GAMES) do
        assert.is_nil(term:line(game .. "\r"):find("\27", 1, true), game)
      end
      assert.equals(0, term:finish())
      term:close()
    end
    -- NO_COLOR set but empty does not count
    term = start_terminal{term = "xterm", env = "NO_COLOR="}
    term:prompt()
    assert.truthy(term:line(GAMES[1] .. "\r"):find("\27[7mx", 1, true))
    assert.equals(0, term:finish())
  end)

  it("stops running code on Ctrl-C and goes on", function()
    term = start_terminal()
    term:prompt()
    term:send("print('loop' .. 'ing') while true do end\r")
    term:expect("looping")
    term:send("\3")
    assert.matches("^\n?%^?C?$", term:expect("interrupted!"))
    assert.equals("\nstack traceback:\n\tstdin:1: in main chunk\n", term:prompt())
    assert.matches("\nafterwards\n$", term:line("print('after' .. 'wards')\r"))
    assert.equals(0, term:finish())
  end)

  it("keeps what an interrupted solve found, and interrupts again after", function()
    term = start_terminal()
    term:prompt()
    term:send("print('sol' .. 'ving') s, m, info = connect4.new():solve() "
              .. "print('solve' .. ' returned')\r")
    term:expect("solving")
    term:send("\3")
    term:expect("solve returned")
    term:prompt()
    assert.matches("\ninterrupted\n$", term:line("info.stopped\r"))
    assert.matches("\ntrue\n$", term:line("info.lower <= info.upper and s == nil\r"))
    -- the job took the interrupt: a second one stops the next code, not the REPL
    term:send("print('loop' .. 'ing') while true do end\r")
    term:expect("looping")
    term:send("\3")
    term:expect("interrupted!")
    term:prompt()
    assert.matches("\n2\n$", term:line("1 + 1\r"))
    assert.equals(0, term:finish())
  end)

  it("drops the line on Ctrl-C at the prompt", function()
    term = start_terminal()
    term:prompt()
    term:line("this is not lua\3")
    term:send("function f()\r")
    term:expect(">> ")
    term:line("\3")
    -- Keys typed while the line editor is still coming back from the
    -- interrupt may be echoed twice (once by the terminal): only the end
    -- of the output is certain.
    local out = term:line("print(1 + 1)\r")
    assert.matches("print%(1 %+ 1%)\n2\n$", out)
    assert.is_nil(out:find("not lua", 1, true))
    assert.equals(0, term:finish())
    assert.is_nil(term:output():find("expected", 1, true))
    assert.is_nil(term:output():find("unexpected", 1, true))
  end)

  it("keeps the history across sessions", function()
    local history = scratch_path("history")
    term = start_terminal{history = history}
    term:prompt()
    assert.matches("\n666\n$", term:line("print(6 * 111)\r"))
    assert.equals(0, term:finish())
    term:close()
    assert.matches("\nprint%(6\\040%*\\040111%)\n", read_file(history))

    term = start_terminal{history = history}
    term:prompt()
    -- Ctrl-P: the line from the last session
    assert.matches("\n666\n$", term:line("\16\r"))
    assert.equals(0, term:finish())
  end)

  it("keeps the history in ~/.ludus_history without LUDUS_HISTORY", function()
    local home = scratch_path("home")
    assert(os.execute("mkdir " .. shell_quote(home)))
    term = start_terminal{home = home}
    term:prompt()
    assert.matches("\n777\n$", term:line("print(7 * 111)\r"))
    assert.equals(0, term:finish())
    assert.matches("\nprint%(7\\040%*\\040111%)\n", read_file(home .. "/.ludus_history"))
  end)

  it("keeps no history file when LUDUS_HISTORY is empty", function()
    local home = scratch_path("home")
    assert(os.execute("mkdir " .. shell_quote(home)))
    term = start_terminal{history = "", home = home}
    term:prompt()
    assert.matches("\n888\n$", term:line("print(8 * 111)\r"))
    assert.equals(0, term:finish())
    assert.is_nil(read_file(home .. "/.ludus_history"))
  end)

  it("keeps no history in what is not a regular file, such as a FIFO", function()
    -- reading a FIFO would wait for a writer, and libedit's fchmod
    -- would reach /dev/null
    local fifo = scratch_path("fifo")
    assert(os.execute("mkfifo " .. shell_quote(fifo)))
    term = start_terminal{history = fifo}
    term:prompt()
    assert.matches("\n999\n$", term:line("print(9 * 111)\r"))
    assert.equals(0, term:finish())
  end)
end)
