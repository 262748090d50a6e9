-- doc.lua: one line of help for every function and method, read by help().
-- Each module has a summary, its functions (called with a dot) and the
-- methods of its objects (called with a colon).

return {
  tictactoe = {
    summary = "3x3 tic-tac-toe: x moves first, squares a1..c3 (column, row)",
    functions = {
      new = "new() -> the empty board, x to move",
    },
    methods = {
      turn = "g:turn() -> \"x\" or \"o\", nil when the game is over",
    },
  },
}
