/*
** notation.c: square names and the drawn board.
*/
#include <ctype.h>
#include <stdio.h>

#include "tictactoe.h"

int ttt_parse_square(const char *text) {
  int column = tolower((unsigned char)text[0]) - 'a';
  if (column < 0 || column > 2) return -1;
  int row = text[1] - '1';
  if (row < 0 || row > 2 || text[2] != '\0') return -1;
  return 3 * row + column;
}

void ttt_square_name(int square, char name[3]) {
  name[0] = (char)('a' + square % 3);
  name[1] = (char)('1' + square / 3);
  name[2] = '\0';
}

/*
**   a b c
** 3 . . o
** 2 . x .
** 1 x . .
** o to move
*/
size_t ttt_render(const ttt_board *board, const game_style *style, char *buf,
                  size_t size) {
  static const char *const ending[] = {NULL, "x won", "o won", "draw"};
  if (size > 0) buf[0] = '\0';
  size_t used = game_append(buf, size, 0, "  a b c");
  for (int row = 2; row >= 0; row--) {
    used = game_append(buf, size, used, "\n%d", row + 1);
    for (int column = 0; column < 3; column++) {
      int square = 3 * row + column;
      unsigned bit = 1u << square;
      char c = board->x & bit ? 'x' : board->o & bit ? 'o' : '.';
      used = game_append(buf, size, used,
                         game_marks(style, (game_move)square)
                           ? " " GAME_ANSI_MARK "%c" GAME_ANSI_RESET : " %c", c);
    }
  }
  game_status status = ttt_status(board);
  return game_append(buf, size, used, "\n%s",
                     status != GAME_ONGOING ? ending[status]
                     : ttt_turn(board) == TTT_X ? "x to move" : "o to move");
}
