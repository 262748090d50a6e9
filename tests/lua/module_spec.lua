-- module_spec.lua: the ludus module as a whole: what `require "ludus"`
-- gives, the help texts, and the example scripts.

local ludus = require("ludus")
local doc = require("ludus.doc")

describe("the ludus module", function()
  it("has a version and lists its games", function()
    assert.truthy(ludus.version:match("^%d+%.%d+%.%d+$"))
    assert.same({"tictactoe", "connect4", "mnk", "gomoku", "reversi", "xiangqi"},
                ludus.games)
  end)

  it("gives every game module as a field and as its own require name", function()
    for _, name in ipairs(ludus.games) do
      assert.equal("table", type(ludus[name]))
      assert.equal(ludus[name], require("ludus." .. name))
    end
  end)

  it("loads in a stock lua5.4 from the command line", function()
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local cmd = "lua5.4 -e 'package.cpath=\"" .. bin .. "/?.so;\"..package.cpath; "
      .. "local l=require\"ludus\"; print(l.tictactoe.new())' 2>&1"
    local pipe = assert(io.popen(cmd))
    local out = pipe:read("a")
    pipe:close()
    assert.equal("  a b c\n3 . . .\n2 . . .\n1 . . .\nx to move\n", out)
  end)

  -- What a fresh stock lua5.4 prints for 'code', with ludus.so on its path.
  local function stock_lua(code)
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local pipe = assert(io.popen("lua5.4 -e " .. ("%q"):format(
      "package.cpath = '" .. bin .. "/?.so;' .. package.cpath " .. code) .. " 2>&1"))
    local out = pipe:read("a")
    pipe:close()
    return out
  end

  it("adds no globals to a stock lua5.4", function()
    assert.equal("\n", stock_lua([[
      local before = {}
      for k in pairs(_G) do before[k] = true end
      require "ludus"
      for name in pairs(package.preload) do require(name) end
      local added = {}
      for k in pairs(_G) do
        if not before[k] then added[#added + 1] = k end
      end
      print(table.concat(added, " "))]]))
  end)

  it("gives every module to a stock lua5.4 before require 'ludus'", function()
    -- every name require "ludus" preloads, each in a fresh lua5.4 first
    local names = stock_lua([[
      require "ludus"
      local names = {}
      for name in pairs(package.preload) do names[#names + 1] = name end
      table.sort(names)
      print(table.concat(names, " "))]])
    assert.truthy(names:find("ludus.players.minimax", 1, true), names)
    assert.truthy(names:find("ludus.variants.gomoku", 1, true), names)
    for name in names:gmatch("%S+") do
      assert.equal(name .. " loads\n", stock_lua(([[
        local m = require "%s"
        assert(m ~= nil and package.loaded["%s"] == m)
        print("%s loads")]]):format(name, name, name)))
    end
    assert.equal("7\n", stock_lua([[
      local minimax = require "ludus.players.minimax"
      local g = require("ludus.tictactoe").load("a1 b1 a2 b2")
      print(minimax and #g:moves() + 2)]]))
  end)
end)

describe("doc", function()
  -- Every function of a module and every method of its objects has a line.
  for _, name in ipairs(ludus.games) do
    it("describes all of " .. name, function()
      local entry = assert(doc[name], "no doc entry for " .. name)
      assert.equal("string", type(entry.summary))
      for key in pairs(ludus[name]) do
        assert.equal("string", type(entry.functions[key]), name .. "." .. key)
      end
      -- the metatable is hidden from getmetatable; its __index holds the methods
      local methods = debug.getmetatable(ludus[name].new()).__index
      for key in pairs(methods) do
        assert.equal("string", type(entry.methods[key]), name .. ":" .. key)
      end
      for key in pairs(entry.methods) do
        assert.is_function(methods[key], "doc names a missing method " .. key)
      end
    end)
  end
end)

describe("doc of the engine modules", function()
  it("describes every function of ai, game and match, and the player methods", function()
    for _, name in ipairs({"ai", "game", "match"}) do
      local entry = assert(doc[name], "no doc entry for " .. name)
      for key, value in pairs(ludus[name]) do
        if type(value) == "function" then
          assert.equal("string", type(entry.functions[key]), name .. "." .. key)
        end
      end
    end
    local player = ludus.ai.random{}
    for key in pairs(debug.getmetatable(player).__index) do
      assert.equal("string", type(doc.ai.methods[key]), "player:" .. key)
    end
  end)
end)

describe("doc of sudoku", function()
  it("describes every function and every puzzle method, and no more", function()
    local entry = assert(doc.sudoku, "no doc entry for sudoku")
    for key in pairs(ludus.sudoku) do
      assert.equal("string", type(entry.functions[key]), "sudoku." .. key)
    end
    local methods = debug.getmetatable(ludus.sudoku.parse(("."):rep(16))).__index
    for key in pairs(methods) do
      assert.equal("string", type(entry.methods[key]), "p:" .. key)
    end
    for key in pairs(entry.methods) do
      assert.is_function(methods[key], "doc names a missing method " .. key)
    end
    for key in pairs(entry.functions) do
      assert.is_function(ludus.sudoku[key], "doc names a missing function " .. key)
    end
  end)
end)

describe("doc of mahjong", function()
  it("describes every function, and no more", function()
    local entry = assert(doc.mahjong, "no doc entry for mahjong")
    assert.equal("string", type(entry.summary))
    for key in pairs(ludus.mahjong) do
      assert.equal("string", type(entry.functions[key]), "mahjong." .. key)
    end
    for key in pairs(entry.functions) do
      assert.is_function(ludus.mahjong[key], "doc names a missing function " .. key)
    end
  end)

  it("describes the methods of its tables and games, and help finds them", function()
    local help = require "ludus.help"
    local random = require "ludus.players.mahjong_random"
    local t = ludus.mahjong.table{players = {random{seed = 1}, random{seed = 2},
                                             random{seed = 3}, random{seed = 4}},
                                  seed = 1, rounds = "east"}
    local entry = doc.mahjong
    local table_methods = debug.getmetatable(t).__index
    assert.equal(help.text(ludus.mahjong), help.text(t))
    assert.equal("mahjong: " .. entry.methods.play .. "\n", help.text(t.play))
    local game = t:play()
    local game_methods = debug.getmetatable(game).__index
    assert.equal(help.text(ludus.mahjong), help.text(game))
    assert.equal("mahjong: " .. entry.methods.save .. "\n", help.text(game.save))
    for _, methods in ipairs({table_methods, game_methods}) do
      for key in pairs(methods) do
        assert.equal("string", type(entry.methods[key]), "mahjong method " .. key)
      end
    end
    for key in pairs(entry.methods) do
      assert.is_function(rawget(table_methods, key) or rawget(game_methods, key),
                         "doc names a missing method " .. key)
    end
  end)
end)

describe("the example scripts", function()
  it("tictactoe.lua plays to a draw", function()
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local pipe = assert(io.popen("LUA_CPATH='" .. bin .. "/?.so;;' "
      .. "lua5.4 scripts/examples/tictactoe.lua 2>&1"))
    local out = pipe:read("a")
    pipe:close()
    assert.truthy(out:find("x plays %a%d and draws with best play"), out)
    assert.truthy(out:find("\ndraw\nmoves: b2 a1 ", 1, true), out)
  end)

  it("connect4_book.lua writes the book where it says, or says first why not", function()
    local bin = os.getenv("LUDUS_BIN_DIR") or "."
    local function book_script(args)
      local pipe = assert(io.popen("env -u LD_PRELOAD " .. bin
        .. "/ludus scripts/examples/connect4_book.lua " .. args .. " 2>&1; echo status=$?"))
      local out = pipe:read("a")
      pipe:close()
      return out
    end
    assert.equal("connect4_book: cannot write the book (/nonexistent/dir/c4.book: "
                 .. "No such file or directory)\nstatus=1\n",
                 book_script("/nonexistent/dir/c4.book"))
    local path = os.tmpname()
    os.remove(path)
    local out = book_script(path .. " 4 0 5 4")
    assert.truthy(out:find("^connect4: a book of 4 plies %(0 exact%) for 5x4 in "
                           .. path:gsub("%p", "%%%0") .. "\n"), out)
    assert.truthy(out:find("\n" .. path:gsub("%p", "%%%0") .. ": %d+ positions, "), out)
    assert.matches("status=0\n$", out)
    local info = assert(require("ludus.connect4").book(path))
    assert.same({5, 4, 4}, {info.width, info.height, info.plies})
    require("ludus.connect4").book(false)
    os.remove(path)
  end)
end)

describe("a misspelt method", function()
  local function message(f)
    local ok, err = pcall(f)
    assert.is_false(ok)
    return (tostring(err):gsub("^[^:]*:%d+: ", ""))
  end

  it("raises and names the nearest method, on every game", function()
    for _, name in ipairs(ludus.games) do
      local g = ludus[name].new()
      assert.equal(name .. ": no method 'mvoes' (did you mean 'moves'?)",
                   message(function() return g:mvoes() end))
      assert.equal(name .. ": no method 'hsitory' (did you mean 'history'?)",
                   message(function() return g.hsitory end))
      assert.equal(name .. ": no method 'frobnicate' (help(object) lists the methods)",
                   message(function() return g:frobnicate() end))
    end
    assert.equal("reversi: no method 'solv' (did you mean 'solve'?)",
                 message(function() return ludus.reversi.new():solv() end))
    -- a method added by the game's own binding is among the suggestions
    assert.equal("xiangqi: no method 'fne' (did you mean 'fen'?)",
                 message(function() return ludus.xiangqi.new():fne() end))
  end)

  it("raises on a Sudoku puzzle, a player and a game written in Lua", function()
    local p = ludus.sudoku.parse(("."):rep(16))
    assert.equal("sudoku: no method 'slove' (did you mean 'solve'?)",
                 message(function() return p:slove() end))
    local player = ludus.ai.alphabeta{depth = 1}
    assert.equal("ai player: no method 'choos' (did you mean 'choose'?)",
                 message(function() return player:choos(ludus.tictactoe.new()) end))
    local T = require("ludus.variants.mnk")
    local g = T.new{m = 4, n = 4, k = 3}
    assert.equal("mnk: no method 'paly' (did you mean 'play'?)",
                 message(function() return g:paly("a1") end))
  end)

  it("leaves what is not a method name reading as nil", function()
    local g = ludus.tictactoe.new()
    assert.is_nil(g.__gc)
    assert.is_nil(g.__index)
    assert.is_nil(g._private)
    assert.is_nil(g[1])
    assert.is_nil(g[true])
    -- a player's options it was not given, and its own fields
    local player = ludus.ai.mcts{playouts = 10}
    assert.is_nil(player.seed)
    assert.is_nil(player.depth)
    assert.equal("mcts", player.name)
    assert.same({}, player.info)
    -- a Lua game's own fields that are unset
    local T = require("ludus.variants.mnk")
    assert.is_nil(T.new().options)
    -- methods are found as before, and a probe with pcall works
    assert.is_function(g.play)
    assert.is_false(pcall(function() return g.search end))
  end)
end)

describe("help", function()
  local help = require("ludus.help")

  -- Every line of doc.lua that mentions word (any case).
  local function doc_lines(word)
    local lines = {}
    for _, entry in pairs(doc) do
      for _, part in ipairs({{entry.summary}, entry.functions or {}, entry.methods or {}}) do
        for _, line in pairs(part) do
          if line:lower():find(word, 1, true) then lines[#lines + 1] = line end
        end
      end
    end
    return lines
  end

  it("finds a word in every line of help", function()
    local text = help.text("solve")
    local lines = doc_lines("solve")
    assert.truthy(#lines >= 8)
    assert.equal(('help: %d lines mention "solve"\n'):format(#lines), text:match("^[^\n]*\n"))
    for _, line in ipairs(lines) do
      assert.truthy(text:find(line, 1, true), line)
    end
    local _, count = text:gsub("\n", "")
    assert.equal(#lines + 1, count)
    assert.truthy(text:find("\n  tictactoe  tictactoe.solve(g) -> ", 1, true))
    assert.truthy(text:find("\n  reversi    g:solve{all=", 1, true))
    -- any case, any part of a line; a module name still gives the module
    assert.equal((help.text("solve"):gsub("\"solve\"", "\"SOLVE\"")), help.text("SOLVE"))
    assert.truthy(help.text("ICCS"):find("\n  xiangqi  g:moves([", 1, true))
    assert.truthy(help.text("isatty"):find("ludus.isatty(", 1, true))
    assert.equal(help.text(ludus.reversi), help.text("reversi"))
    assert.truthy(help.text("no such words"):find("^help: no help for \"no such words\""))
    -- a long string is shown by its start and its length, not whole
    local long = help.text(("x"):rep(1000000))
    assert.truthy(long:find('^help: no help for "' .. ("x"):rep(40) .. '"%.%.%. %(1000000 bytes%)'))
    assert.truthy(#long < 1000)
  end)

  it("gives the line of every function and method", function()
    for _, name in ipairs(ludus.games) do
      local g = ludus[name].new()
      for method, line in pairs(doc[name].methods) do
        assert.equal(name .. ": " .. line .. "\n", help.text(g[method]))
      end
      for f in pairs(doc[name].functions) do
        assert.truthy(help.text(ludus[name][f]):find("^" .. name .. "%." .. f .. "[({]"), f)
      end
    end
    local p = ludus.sudoku.parse(("."):rep(16))
    assert.equal("sudoku: " .. doc.sudoku.methods.get .. "\n", help.text(p.get))
    assert.equal(doc.sudoku.functions.solve .. "\n", help.text(p.solve))
    local player = ludus.ai.mcts{playouts = 10}
    assert.equal("ai: " .. doc.ai.methods.choose .. "\n", help.text(player.choose))
    assert.equal(doc.ludus.functions.isatty .. "\n", help.text(ludus.isatty))
    assert.equal(doc.help.functions.text .. "\n", help.text(help.text))
    assert.equal(doc.game.functions.define .. "\n", help.text(ludus.game.define))
  end)

  it("knows every function of every module, and of ludus itself", function()
    local missing = {}
    local tables = {ludus = ludus, help = help}
    for name, value in pairs(ludus) do
      if type(value) == "table" then tables[name] = value end
    end
    for name, t in pairs(tables) do
      for key, value in pairs(t) do
        if type(value) == "function" and help.text(value):find("^help: no help") then
          missing[#missing + 1] = name .. "." .. key
        end
      end
    end
    table.sort(missing)
    assert.same({}, missing)
  end)

  it("describes a player of ludus.ai and one written in Lua", function()
    local text = help.text(ludus.ai.alphabeta{depth = 2})
    assert.equal("ai player: " .. doc.ai.functions.alphabeta .. "\nmethods:\n  "
                 .. doc.ai.methods.choose .. "\n  " .. doc.ai.methods.new_game .. "\n", text)
    assert.truthy(help.text(ludus.ai.random{}):find("^ai player: ai%.random{seed=}"))
    local minimax = require("ludus.players.minimax")
    assert.equal("player: a player (minimax)\nmethods:\n  " .. doc.ai.methods.choose .. "\n",
                 help.text(minimax{}))
    assert.truthy(help.text({choose = function() end, doc = "always the first move"})
                  :find("^player: always the first move\n"))
  end)

  it("describes a game written in Lua, with the doc of its spec", function()
    local function spec(extra)
      local s = {
        name = "nim", sides = {"first", "second"},
        new = function() return {left = 10, n = 0} end,
        turn = function(s) return s.n % 2 == 0 and "first" or "second" end,
        moves = function(s)
          local m = {}
          for i = 1, math.min(3, s.left) do m[i] = tostring(i) end
          return m
        end,
        play = function(s, m) return {left = s.left - tonumber(m), n = s.n + 1} end,
        is_over = function(s) return s.left == 0 end,
        result = function(s) return {winner = s.n % 2 == 1 and "first" or "second"} end,
      }
      for k, v in pairs(extra or {}) do s[k] = v end
      return s
    end
    local nim = ludus.game.define(spec{doc = "take 1 to 3 of 10 sticks; the last one wins"})
    local text = help.text(nim)
    assert.equal(text, help.text(nim.new()))
    assert.truthy(text:find("^nim: take 1 to 3 of 10 sticks; the last one wins\nfunctions:\n"))
    assert.truthy(text:find("\n  nim.new([options]) -> the start position, first to move\n",
                            1, true))
    assert.truthy(text:find('\n  g:turn() -> "first" or "second" to move, ', 1, true))
    assert.truthy(text:find("\n  g:second(m) -> like play, but raises unless second is to move\n",
                            1, true))
    assert.is_nil(text:find("g:hash()", 1, true))      -- the spec has no hash
    -- a Lua game named like a built-in one is still itself
    local mnk = require("ludus.variants.mnk")
    assert.truthy(help.text(mnk.new()):find("^mnk: a game written in Lua %(game%.define%)\n"))
    require("support").assert_raises({"game.define: nim: spec.doc must be a string when given "
                                       .. "(got number)"}, ludus.game.define, spec{doc = 1})
  end)
end)
