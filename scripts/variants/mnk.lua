-- mnk.lua: the m,n,k-game, a game written in Lua with ludus.game.define.
--
--   local mnk = require "ludus.variants.mnk"
--   local g = mnk.new{m = 4, n = 4, k = 4}   -- no options: 3,3,3, tic-tac-toe
--   g = g:x("b2"):o("a1")
--   print(g, ludus.ai.search(g).move)
--
-- x and o (x first) take turns putting a stone on an empty square of a
-- board m columns wide and n rows high; k stones of one side in a row,
-- across, up or on a diagonal, win, and a full board without one is a
-- draw.  Squares are named like chess squares, a1 at the bottom left, and
-- moves are listed row by row from the bottom, as ludus.tictactoe does.
--
-- Options: m (default 3), n (default m), k (default the shorter side), and
-- exact = true for the "exact k" rule: a line longer than k (an overline)
-- does not win.  A board has at most 256 squares, since a search lists
-- every move of a position.
--
-- The position is one table that push and pop change in place.  The
-- board is cut into windows, every run of k squares in a line, and each
-- push counts its stone in the windows through its square: a window full
-- of one side is a win, and the windows one side alone holds stones in
-- make the evaluation.  The hash is Zobrist's: one key per side and
-- square, xor-ed in and out as stones come and go.
--
-- mnk.make builds the same game under other names: see gomoku.lua.

local define = require("ludus").game.define

local MAX_SQUARES = 256

------------------------------------------------------------ hash keys

-- A 64-bit mixing function (the finaliser of MurmurHash3): neighbouring
-- inputs give unrelated outputs, so mix(1), mix(2) ... serve as random
-- keys that are the same on every run.
local function mix(x)
  x = (x ~ (x >> 33)) * -49064778989728563     -- 0xff51afd7ed558ccd
  x = (x ~ (x >> 33)) * -4265267296055464877   -- 0xc4ceb9fe1a85ec53
  return x ~ (x >> 33)
end

-------------------------------------------------------------- boards

-- "a" for column 1, "z" for 26, then "aa", "ab" ... like a spreadsheet.
local function column_name(column)
  local name = ""
  while column > 0 do
    name = string.char(97 + (column - 1) % 26) .. name
    column = (column - 1) // 26
  end
  return name
end

-- What all positions of one size share, built once per size: the square
-- names, the windows through each square and the squares just beyond
-- each window's ends (for the exact rule), the window weights and the
-- hash keys.
local boards = {}

local function board_of(m, n, k, exact)
  local id = ("%d,%d,%d,%s"):format(m, n, k, exact)
  if boards[id] then return boards[id] end
  local board = {m = m, n = n, k = k, exact = exact, size = m * n, names = {},
                 index = {}, windows_of = {}, before = {}, after = {},
                 keys = {{}, {}}, start_hash = mix(0x10000000 + (exact and 1 or 0)
                                                   + (m << 8) + (n << 16) + (k << 24))}
  -- 0 for a square off the board: no position has a stone there.
  local function square(column, row)
    if column < 1 or column > m or row < 1 or row > n then return 0 end
    return (row - 1) * m + column
  end
  for row = 1, n do
    for column = 1, m do
      local name = column_name(column) .. row
      board.names[square(column, row)], board.index[name] = name, square(column, row)
      board.windows_of[square(column, row)] = {}
    end
  end
  -- Windows start at each square and go right, up, up-right or down-right.
  for row = 1, n do
    for column = 1, m do
      for _, step in ipairs({{1, 0}, {0, 1}, {1, 1}, {1, -1}}) do
        local dc, dr = step[1], step[2]
        if square(column + dc * (k - 1), row + dr * (k - 1)) ~= 0 then
          local w = #board.before + 1
          board.before[w] = square(column - dc, row - dr)
          board.after[w] = square(column + dc * k, row + dr * k)
          for i = 0, k - 1 do
            table.insert(board.windows_of[square(column + dc * i, row + dr * i)], w)
          end
        end
      end
    end
  end
  -- Each side's key for each square.
  for here = 1, board.size do
    board.keys[1][here] = mix(2 * here + 1)
    board.keys[2][here] = mix(2 * here + 2)
  end
  -- A window that one side alone has c stones in is worth 4^(c-1) to it.
  board.weight = {[0] = 0}
  for c = 1, k do board.weight[c] = 1 << 2 * (math.min(c, 9) - 1) end
  boards[id] = board
  return board
end

-- A window's worth from the first side's point of view: a window that
-- holds stones of both sides can no longer be anyone's line.
local function worth(weight, first, second)
  if second == 0 then return weight[first] end
  if first == 0 then return -weight[second] end
  return 0
end

------------------------------------------------------------- options

local function whole(options, key, default)
  local value = options[key]
  if value == nil then return default end
  local integer = type(value) == "number" and math.tointeger(value)
  if not integer or integer < 1 then
    error(("option '%s' must be a whole number from 1 (got %s)")
          :format(key, tostring(value)), 0)
  end
  return integer
end

-- The options of mnk itself.
local function mnk_options(options)
  local m = whole(options, "m", 3)
  local n = whole(options, "n", m)
  local k = whole(options, "k", math.min(m, n))
  return m, n, k, options.exact
end

---------------------------------------------------------------- make

-- make{name =, sides =, stones =, options =, known =} -> a game module.
--   sides    the two side names; the first moves first
--   stones   how tostring draws each side's stones
--   options  function(options) -> m, n, k, exact; raises (at level 0)
--            with a message naming a bad option
--   known    the option names it takes, to catch a misspelt one
local function make(config)
  local name, sides, stones = config.name, config.sides, config.stones
  local known = {}
  for _, key in ipairs(config.known) do known[key] = true end

  -- The board the options ask for; raises naming the caller 'where'.
  local function board_for(options, where)
    local ok, m, n, k, exact = pcall(function()
      if options == nil then options = {} end
      if type(options) ~= "table" then
        error("options must be a table (got " .. type(options) .. ")", 0)
      end
      for key in pairs(options) do
        if not known[key] then
          error(("unknown option '%s' (it takes: %s)")
                :format(tostring(key), table.concat(config.known, ", ")), 0)
        end
      end
      return config.options(options)
    end)
    if not ok then error(where .. ": " .. tostring(m), 3) end
    if exact ~= nil and type(exact) ~= "boolean" then
      error(("%s: option 'exact' must be true or false (got %s)")
            :format(where, tostring(exact)), 3)
    elseif m > MAX_SQUARES // n then         -- m * n could wrap round
      error(("%s: a %d by %d board has %.0f squares (at most %d)")
            :format(where, m, n, m * 1.0 * n, MAX_SQUARES), 3)
    elseif k > math.max(m, n) then
      error(("%s: option 'k' must be at most %d, the longer side (got %d)")
            :format(where, math.max(m, n), k), 3)
    end
    return board_of(m, n, k, exact == true)
  end

  local spec = {name = name, sides = sides}

  function spec.new(options)
    local board = board_for(options, name .. ".new")
    local s = {board = board, cells = {}, stones = 0, placed = {}, winner = nil,
               hash = board.start_hash, counts = {{}, {}}, value = 0}
    for square = 1, board.size do s.cells[square] = 0 end
    for w = 1, #board.before do s.counts[1][w], s.counts[2][w] = 0, 0 end
    return s
  end

  function spec.turn(s) return sides[s.stones % 2 + 1] end

  function spec.moves(s)
    local list, cells, names = {}, s.cells, s.board.names
    for square = 1, s.board.size do
      if cells[square] == 0 then list[#list + 1] = names[square] end
    end
    return list
  end

  -- Adds delta stones (1 or -1) of side on square to the hash, the
  -- windows and the value, the evaluation from the first side's view.
  local function count(s, square, side, delta)
    local board = s.board
    s.hash = s.hash ~ board.keys[side][square]
    local weight, first, second = board.weight, s.counts[1], s.counts[2]
    local mine = s.counts[side]
    for _, w in ipairs(board.windows_of[square]) do
      local value = s.value - worth(weight, first[w], second[w])
      mine[w] = mine[w] + delta
      s.value = value + worth(weight, first[w], second[w])
    end
  end

  -- The window w is full of side's stones: whether that is a win.
  local function wins(s, w, side)
    local board, cells = s.board, s.cells
    return not board.exact
      or (cells[board.before[w]] ~= side and cells[board.after[w]] ~= side)
  end

  function spec.push(s, move)
    local board = s.board
    local square, side = board.index[move], s.stones % 2 + 1
    s.cells[square] = side
    s.stones = s.stones + 1
    s.placed[s.stones] = square
    count(s, square, side, 1)
    local mine = s.counts[side]
    for _, w in ipairs(board.windows_of[square]) do
      if mine[w] == board.k and wins(s, w, side) then s.winner = side end
    end
  end

  -- No move follows a win, so the position before any move had no winner.
  function spec.pop(s)
    local square = s.placed[s.stones]
    count(s, square, s.cells[square], -1)
    s.cells[square], s.placed[s.stones] = 0, nil
    s.stones = s.stones - 1
    s.winner = nil
  end

  function spec.is_over(s)
    return s.winner ~= nil or s.stones == s.board.size
  end

  function spec.result(s)
    return {winner = sides[s.winner]}     -- sides[nil] is nil: a draw
  end

  function spec.hash(s) return s.hash end

  -- From the side to move's point of view, inside ludus.ai's bounds.
  function spec.eval(s)
    local value = s.stones % 2 == 0 and s.value or -s.value
    return math.max(-899999, math.min(899999, value))
  end

  function spec.copy(s)
    local c = {}
    for key, value in pairs(s) do c[key] = value end
    for _, key in ipairs({"cells", "placed"}) do
      c[key] = table.move(s[key], 1, #s[key], 1, {})
    end
    c.counts = {table.move(s.counts[1], 1, #s.counts[1], 1, {}),
                table.move(s.counts[2], 1, #s.counts[2], 1, {})}
    return c
  end

  -- Column letters, the rows from the top with their numbers, then whose
  -- turn it is or how the game ended.
  function spec.tostring(s)
    local board = s.board
    local label = "%" .. #tostring(board.n) .. "s "
    local cell = "%-" .. #column_name(board.m) .. "s"
    local lines, line = {}, {}
    for column = 1, board.m do line[column] = cell:format(column_name(column)) end
    lines[1] = label:format("") .. table.concat(line, " ")
    for row = board.n, 1, -1 do
      for column = 1, board.m do
        local side = s.cells[(row - 1) * board.m + column]
        line[column] = cell:format(side == 0 and "." or stones[side])
      end
      lines[#lines + 1] = (label:format(row) .. table.concat(line, " ")):gsub(" +$", "")
    end
    if s.winner then
      lines[#lines + 1] = sides[s.winner] .. " won"
    elseif s.stones == board.size then
      lines[#lines + 1] = "draw"
    else
      lines[#lines + 1] = spec.turn(s) .. " to move"
    end
    return table.concat(lines, "\n")
  end

  -- Bad options raise from new and load, naming the option.
  local G = define(spec)
  local new, load = G.new, G.load
  function G.new(options)
    board_for(options, name .. ".new")
    return new(options)
  end
  function G.load(record, options)
    board_for(options, name .. ".load")
    return load(record, options)
  end
  return G
end

local mnk = make{name = "mnk", sides = {"x", "o"}, stones = {"x", "o"},
                 options = mnk_options, known = {"m", "n", "k", "exact"}}
mnk.make = make
return mnk
