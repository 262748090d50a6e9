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
