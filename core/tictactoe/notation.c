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
size_t ttt_render(const ttt_board *board, char *buf, size_t size) {
  static const char *const ending[] = {NULL, "x won", "o won", "draw"};
  char rows[3][8];
  for (int row = 0; row < 3; row++) {
    char *line = rows[2 - row];          /* row 3 is drawn first */
    line[0] = (char)('1' + row);
    for (int column = 0; column < 3; column++) {
      unsigned bit = 1u << (3 * row + column);
      line[1 + 2 * column] = ' ';
      line[2 + 2 * column] = board->x & bit ? 'x' : board->o & bit ? 'o' : '.';
    }
    line[7] = '\0';
  }
  game_status status = ttt_status(board);
  const char *last = status != GAME_ONGOING ? ending[status]
                     : ttt_turn(board) == TTT_X ? "x to move" : "o to move";
  return (size_t)snprintf(buf, size, "  a b c\n%s\n%s\n%s\n%s",
                          rows[0], rows[1], rows[2], last);
}
