-- game.lua: games written in Lua.  ludus.game.define(spec) checks a table
-- of rule functions and returns a game module that behaves like a
-- built-in one (new, load, turn, moves, play, push, pop, is_over, result,
-- copy, hash, history, save, tostring, one method per side), and that the
-- C searches of ludus.ai can drive (bindings/lgame.c).
--
-- The spec's functions take the spec's own position value (any Lua value)
-- as their first argument:
--   name                 "gomoku": used in messages
--   sides                {"black", "white"}: the first moves first
--   new(options)         -> a start position
--   turn(s)              -> the side to move (one of sides)
--   moves(s)             -> the legal moves, strings in a stable order
--                           (not empty; no white space, ',' or ';')
--   play(s, m)           -> a new position with m played, s unchanged
--   push(s, m), pop(s)   or: make and unmake in place (both, or neither)
--   is_over(s)           -> true once the game has ended
--   result(s)            -> {winner = side} or {} for a draw, when over
--   hash(s), eval(s), copy(s), tostring(s)   optional; with push and pop,
--                        copy must return a new position, not s
--   doc                  optional: a line that help(G) and help(g) show

local game = {}

local REQUIRED = {"new", "turn", "moves", "is_over", "result"}
local OPTIONAL = {"play", "push", "pop", "hash", "eval", "copy", "tostring"}
local PROTOCOL = {
  turn = true, moves = true, play = true, push = true, pop = true,
  is_over = true, result = true, copy = true, hash = true, history = true,
  save = true,
}

local function fail(spec_name, message, level)
  error(spec_name .. ": " .. message, level and level + 1 or 3)
end

local function check_spec(spec)
  if type(spec) ~= "table" then
    error("game.define: the spec must be a table of functions (got "
      .. type(spec) .. ")", 3)
  end
  local name = spec.name
  if type(name) ~= "string" or name == "" then
    error("game.define: spec.name must be a non-empty string (got "
      .. type(name) .. ")", 3)
  end
  local prefix = "game.define: " .. name .. ": "
  local sides = spec.sides
  if type(sides) ~= "table" or type(sides[1]) ~= "string"
      or type(sides[2]) ~= "string" or sides[1] == sides[2] or #sides ~= 2 then
    error(prefix .. "spec.sides must name two different sides, "
      .. 'like {"black", "white"}', 3)
  end
  for _, side in ipairs(sides) do
    if PROTOCOL[side] or side:match("^__") or not side:match("^[%a_][%w_]*$") then
      error(prefix .. "side name '" .. side .. "' cannot be a method name", 3)
    end
  end
  for _, key in ipairs(REQUIRED) do
    if type(spec[key]) ~= "function" then
      error(prefix .. "spec." .. key .. " must be a function (got "
        .. type(spec[key]) .. ")", 3)
    end
  end
  for _, key in ipairs(OPTIONAL) do
    if spec[key] ~= nil and type(spec[key]) ~= "function" then
      error(prefix .. "spec." .. key .. " must be a function when given (got "
        .. type(spec[key]) .. ")", 3)
    end
  end
  if spec.doc ~= nil and type(spec.doc) ~= "string" then
    error(prefix .. "spec.doc must be a string when given (got " .. type(spec.doc) .. ")", 3)
  end
  if (spec.push == nil) ~= (spec.pop == nil) then
    error(prefix .. "spec.push and spec.pop come together (one is missing)", 3)
  end
  if not spec.play and not spec.push then
    error(prefix .. "spec needs play(s, m), or push(s, m) and pop(s)", 3)
  end
end

local function shown(text)
  text = tostring(text):gsub("%c", "?")
  if #text > 40 then text = text:sub(1, 36) .. "..." end
  return text
end

-- A value as an error message shows it (as bindings/lgame.c does too):
-- a string in quotes, a number, boolean or nil as itself, else its type.
local function shown_value(v)
  local kind = type(v)
  if kind == "string" then return "'" .. shown(v) .. "'" end
  if kind == "number" or kind == "boolean" or kind == "nil" then return tostring(v) end
  return kind
end

function game.define(spec)
  check_spec(spec)
  local name, sides = spec.name, {spec.sides[1], spec.sides[2]}
  local side_index = {[sides[1]] = 1, [sides[2]] = 2}

  -- Calls one of the spec's functions, naming it when it fails.  The
  -- error keeps the place in the spec its message gives (level 0): a
  -- place in this file would hide it.
  local function call(key, ...)
    local ok, a = pcall(spec[key], ...)
    if not ok then
      error(name .. ": '" .. key .. "' raised an error: " .. tostring(a), 0)
    end
    return a
  end

  -- The same for the functions that give a position: nil is not one.
  local function position(key, ...)
    local raw = call(key, ...)
    if raw == nil then
      fail(name, "'" .. key .. "' returned nil (expected a position)", 3)
    end
    return raw
  end

  -- play(s, m) must leave s as it was: a play that hands back the very
  -- position it was given has changed it.
  local function play(raw, move, level)
    local after = position("play", raw, move)
    if rawequal(after, raw) and type(raw) == "table" then
      fail(name, "'play' returned the position it was given (play must return "
        .. "a new position and leave its argument unchanged; or define push "
        .. "and pop)", level and level + 1 or 3)
    end
    return after
  end

  -- With push and pop, copy(s) must give a position that shares nothing
  -- with s: s itself would let a copy's push, or a search, change the
  -- game.  (With play, positions never change: s itself will do.)
  local function copy(raw, level)
    local copied = position("copy", raw)
    local kind = type(raw)
    if spec.push and rawequal(copied, raw) and (kind == "table" or kind == "userdata") then
      fail(name, "'copy' returned the position it was given (copy must "
        .. "return a new position)", level and level + 1 or 3)
    end
    return copied
  end

  local function legal_moves(raw)
    local list = call("moves", raw)
    if type(list) ~= "table" then
      fail(name, "'moves' must return a table of moves (got " .. type(list) .. ")", 3)
    end
    local texts = {}
    for i = 1, #list do
      local kind = type(list[i])
      if kind ~= "string" and kind ~= "number" then
        fail(name, "'moves' returned a " .. kind .. " at index " .. i
          .. " (moves are strings)", 3)
      end
      texts[i] = tostring(list[i])
      -- load reads a record's moves between white space, ',' and ';'
      if texts[i] == "" or texts[i]:find("[%s,;]") then
        fail(name, "'moves' returned " .. shown_value(texts[i]) .. " at index " .. i
          .. " (a move is not empty and holds no white space, ',' or ';', "
          .. "which a saved record puts between moves)", 3)
      end
    end
    if #list == 0 and not call("is_over", raw) then
      fail(name, "'moves' returned no moves, but 'is_over' says the game goes on", 3)
    end
    return list, texts
  end

  local function winner_of(raw)
    local result = call("result", raw)
    if type(result) ~= "table" then
      fail(name, "'result' must return a table like {winner = \"" .. sides[1]
        .. "\"} (got " .. type(result) .. ")", 3)
    end
    local winner = result.winner
    if winner ~= nil and not side_index[winner] then
      fail(name, "'result' names an unknown winner " .. shown_value(winner), 3)
    end
    return winner, result
  end

  local function side_to_move(raw)
    local side = call("turn", raw)
    if not side_index[side] then
      fail(name, "'turn' returned " .. shown_value(side) .. " (expected '"
        .. sides[1] .. "' or '" .. sides[2] .. "')", 3)
    end
    return side
  end

  -- The metatable holds the metamethods and what lgame.c reads; it is
  -- hidden behind its name, so no Lua code can reach or change it.  The
  -- methods are its __index, strict as those of the built-in games: a
  -- misspelt method raises and names the nearest one, the object's own
  -- fields read as nil when unset.  Objects are told apart by a weak set,
  -- not by getmetatable, which any table can fake.
  local Game = {__name = "ludus." .. name}
  Game.__metatable = Game.__name
  local Methods = require("ludus.strict")({}, name,
                                          "raw options moves_played pushed undo frozen start")
  Game.__index = Methods
  local objects = setmetatable({}, {__mode = "k"})
  local M = {name = name, sides = {sides[1], sides[2]}, spec = spec}

  -- A search's position, lent to an evaluation, is frozen: push and pop
  -- on it would change the search under its feet.  Its history is not
  -- known: it and the games made from it keep their moves from start, a
  -- position of the spec that nothing changes, instead of from new().
  local function wrap(raw, options, history, pushed, frozen, start)
    local g = setmetatable({raw = raw, options = options, moves_played = history or {},
                            pushed = pushed or 0, undo = {}, frozen = frozen,
                            start = start}, Game)
    objects[g] = true
    return g
  end

  -- The legal move that text names, or nil and why not.
  local function lookup(raw, m)
    local kind = type(m)
    if kind ~= "string" and kind ~= "number" then
      return nil, "bad move (string expected, got " .. kind .. ")"
    end
    if call("is_over", raw) then
      local winner = winner_of(raw)
      return nil, "no move after the end of the game ("
        .. (winner and winner .. " won" or "a draw") .. ")"
    end
    local list, texts = legal_moves(raw)
    local text = tostring(m)
    for i = 1, #texts do
      if texts[i] == text then return list[i], text end
    end
    return nil, "illegal move '" .. shown(text) .. "' for " .. side_to_move(raw)
      .. " (legal: " .. table.concat(texts, " ") .. ")"
  end

  local function find_move(g, m)
    local move, text = lookup(g.raw, m)
    if move == nil then fail(name, text, 3) end
    return move, text
  end

  -- The position after the moves of g's history from its start: a fresh
  -- value, and how many of its moves were pushed in place.  A start is
  -- copied before a push changes it (a spec with push has copy here:
  -- without it, a search's position cannot be copied).
  local function replay(g, history)
    local raw
    if g.start == nil then raw = position("new", g.options)
    elseif spec.push then raw = copy(g.start, 4)
    else raw = g.start end
    for _, text in ipairs(history) do
      local move = find_move({raw = raw}, text)
      if spec.push then call("push", raw, move) else raw = play(raw, move, 4) end
    end
    return raw, spec.push and #history or 0
  end

  -- A position of the spec that nothing else holds: searches and copies
  -- may change it freely.  A search's position (frozen) has no history
  -- to replay.
  local function private_copy(g)
    if spec.copy then return copy(g.raw, 4), 0 end
    if not spec.push then return g.raw, 0 end     -- play never changes it
    if g.frozen then
      fail(name, "a search's position cannot be copied (the spec has no copy)", 4)
    end
    return replay(g, g.moves_played)
  end

  -- The root of a search: private even from a play that breaks its word
  -- and changes its argument, so that the search cannot change g.
  local function search_root(g)
    if spec.copy or spec.push or g.frozen then return (private_copy(g)) end
    return (replay(g, g.moves_played))
  end

  local function played(g, move, text)
    local raw, pushed
    if spec.play then
      raw, pushed = play(g.raw, move, 3), 0
    else
      raw, pushed = private_copy(g)
      call("push", raw, move)
      pushed = pushed + 1
    end
    local history = table.move(g.moves_played, 1, #g.moves_played, 1, {})
    history[#history + 1] = text
    return wrap(raw, g.options, history, pushed, nil, g.start)
  end

  local function check_self(g, method)
    if not objects[g] then
      error("bad self for '" .. method .. "' (" .. name .. " game expected, got "
        .. type(g) .. ")", 3)
    end
  end

  local function check_thawed(g, method)
    check_self(g, method)
    if g.frozen then
      fail(name, "this position belongs to a running search; " .. method
        .. " a copy() of it instead", 3)
    end
  end

  function Methods:turn()
    check_self(self, "turn")
    if call("is_over", self.raw) then return nil end
    return side_to_move(self.raw)
  end

  function Methods:moves()
    check_self(self, "moves")
    if call("is_over", self.raw) then return {} end
    local _, texts = legal_moves(self.raw)
    return texts
  end

  function Methods:play(m)
    check_self(self, "play")
    return played(self, find_move(self, m))
  end

  for index, side in ipairs(sides) do
    Methods[side] = function(self, m)
      check_self(self, side)
      if not call("is_over", self.raw) and side_to_move(self.raw) ~= side then
        fail(name, "it is " .. sides[3 - index] .. "'s turn, not " .. side .. "'s", 2)
      end
      return played(self, find_move(self, m))
    end
  end

  function Methods:push(m)
    check_thawed(self, "push")
    local move, text = find_move(self, m)
    if spec.push then
      call("push", self.raw, move)
      self.pushed = self.pushed + 1
    else
      self.undo[#self.undo + 1] = self.raw
      self.raw = play(self.raw, move, 3)
    end
    self.moves_played[#self.moves_played + 1] = text
    return self
  end

  -- Takes back in place what was made in place; a position that came
  -- from copy() or play() is rebuilt from the start instead.
  function Methods:pop()
    check_thawed(self, "pop")
    local n = #self.moves_played
    if n == 0 then fail(name, "no move to pop (the history is empty)", 2) end
    -- the history loses its move only once the position has: a pop or a
    -- replay that raises leaves the two as they were
    local text = self.moves_played[n]
    if spec.push and self.pushed > 0 then
      call("pop", self.raw)
      self.pushed = self.pushed - 1
    elseif not spec.push and #self.undo > 0 then
      self.raw = table.remove(self.undo)
    else
      self.raw, self.pushed = replay(self, table.move(self.moves_played, 1, n - 1, 1, {}))
      self.undo = {}
    end
    self.moves_played[n] = nil
    return text
  end

  function Methods:is_over()
    check_self(self, "is_over")
    return call("is_over", self.raw) and true or false
  end

  function Methods:result()
    check_self(self, "result")
    if not call("is_over", self.raw) then return nil end
    local winner, result = winner_of(self.raw)
    local out = {}
    for key, value in pairs(result) do out[key] = value end
    out.winner, out.draw = winner, winner == nil
    return out
  end

  -- A copy of a search's position starts there: its raw, or for push and
  -- pop a copy of it, as the search goes on pushing on the raw.
  function Methods:copy()
    check_self(self, "copy")
    local raw, pushed = private_copy(self)
    local start = self.start
    if self.frozen then start = spec.push and copy(self.raw, 2) or self.raw end
    return wrap(raw, self.options,
                table.move(self.moves_played, 1, #self.moves_played, 1, {}), pushed,
                nil, start)
  end

  function Methods:hash()
    check_self(self, "hash")
    if not spec.hash then fail(name, "this game defines no hash", 2) end
    local h = call("hash", self.raw)
    if math.type(h) ~= "integer" then
      fail(name, "'hash' must return an integer (got " .. shown_value(h) .. ")", 2)
    end
    return h
  end

  function Methods:history()
    check_self(self, "history")
    return table.move(self.moves_played, 1, #self.moves_played, 1, {})
  end

  function Methods:last_move()
    check_self(self, "last_move")
    return self.moves_played[#self.moves_played]
  end

  function Methods:save()
    check_self(self, "save")
    if self.frozen or self.start ~= nil then
      fail(name, "this position came from a search and has no record from the "
        .. "start", 2)
    end
    return table.concat(self.moves_played, " ")
  end

  function Game:__tostring()
    local text
    if spec.tostring then
      text = call("tostring", self.raw)
    else
      local over = call("is_over", self.raw)
      text = name .. " after " .. #self.moves_played .. " moves"
      if over then
        local winner = winner_of(self.raw)
        text = text .. (winner and ", " .. winner .. " won" or ", a draw")
      else
        text = text .. ", " .. side_to_move(self.raw) .. " to move"
      end
    end
    return tostring(text)
  end

  -- What bindings/lgame.c needs to search these games.
  Game.__ludus_game = {
    spec = spec, name = name, sides = sides,
    root = search_root,
    wrap = function(raw) return wrap(raw, nil, nil, nil, true) end,
  }

  function M.new(options)
    if options ~= nil and type(options) ~= "table" then
      error(name .. ".new: options must be a table (got " .. type(options) .. ")", 2)
    end
    return wrap(position("new", options), options)
  end

  -- load(record [, options]): the game after the moves of record, or
  -- nil and what was wrong.  A record of ludus.match ({record =,
  -- options =}) loads as its record with its options.
  function M.load(text, options)
    if type(text) == "table" then        -- a record of ludus.match
      if options == nil then options = text.options end
      text = text.record
    end
    if type(text) ~= "string" then
      error(name .. ".load: record must be a string or a match record (got "
        .. type(text) .. ")", 2)
    end
    if options ~= nil and type(options) ~= "table" then
      error(name .. ".load: options must be a table (got " .. type(options) .. ")", 2)
    end
    local g = M.new(options)
    local ply = 0
    for token in text:gmatch("[^%s,;]+") do
      ply = ply + 1
      local move, why = lookup(g.raw, token)
      if move == nil then
        return nil, name .. ": bad record: move " .. ply .. " '" .. shown(token)
          .. "' (" .. why .. ")"
      end
      g:push(move)
    end
    return g
  end

  return M
end

return game
