-- doc.lua: one line of help for every function and method, read by help().
-- Each module has a summary, its functions (called with a dot) and the
-- methods of its objects (called with a colon).  tests/lua/module_spec.lua
-- checks that every function and method has its line here.

-- The protocol every two-player game answers (DESIGN.md), worded once.
local function protocol(sides, example)
  return {
    turn = ("g:turn() -> %s to move, nil when the game is over"):format(sides),
    moves = "g:moves() -> the legal moves as strings, in a stable order",
    play = ("g:play(m) -> a new game with m played (%s); g is unchanged")
      :format(example),
    push = "g:push(m) -> g, with m played in place (for search code)",
    pop = "g:pop() -> the last move, taken back in place",
    is_over = "g:is_over() -> true once the game has ended",
    result = "g:result() -> nil while playing, else {winner=, draw=}",
    copy = "g:copy() -> an independent copy, history included",
    hash = "g:hash() -> a 64-bit integer; equal positions, equal hashes",
    history = "g:history() -> the moves played since the start",
    save = "g:save() -> the game as text that load() reads back",
    solve = "g:solve() -> value for the side to move (1, 0, -1), best move",
  }
end

local tictactoe_methods = protocol('"x" or "o"', '"b2"')
tictactoe_methods.x = 'g:x(m) -> like play, but raises unless x is to move'
tictactoe_methods.o = 'g:o(m) -> like play, but raises unless o is to move'

return {
  tictactoe = {
    summary = "3x3 tic-tac-toe: x moves first, squares a1..c3 (column, row)",
    functions = {
      new = "tictactoe.new() -> the empty board, x to move",
      load = "tictactoe.load(text) -> the game after moves like 'b2 a1', "
        .. "or nil, message",
      solve = "tictactoe.solve(g) -> value for the side to move (1 win, "
        .. "0 draw, -1 loss), a best move",
    },
    methods = tictactoe_methods,
  },
}
