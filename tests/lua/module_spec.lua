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
end)
