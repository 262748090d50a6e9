/*
** notation.c: squares like "a1" and "o15", and the drawn board.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "mnk.h"

int mnk_parse_cell(const mnk_board *board, const char *text) {
  int column = tolower((unsigned char)text[0]) - 'a';
  if (column < 0 || column >= board->m) return -1;
  if (!isdigit((unsigned char)text[1]) || text[1] == '0') return -1;
  int row = text[1] - '0';
  if (isdigit((unsigned char)text[2])) {
    row = row * 10 + text[2] - '0';
    if (text[3]) return -1;
  } else if (text[2]) {
    return -1;
  }
  if (row > board->n) return -1;
  return (row - 1) * board->m + column;
}

void mnk_cell_name(const mnk_board *board, int cell, char name[8]) {
  unsigned row = (unsigned)(cell / board->m + 1) % 100;   /* at most 16 */
  snprintf(name, 8, "%c%u", 'a' + cell % board->m, row);
}

size_t mnk_render(const mnk_board *board, const char *const marks[2],
                  const char *const sides[2], const game_style *style,
                  char *buf, size_t size) {
  if (size > 0) buf[0] = '\0';
  size_t used = 0;
  int width = board->n >= 10 ? 2 : 1;
  for (int row = board->n - 1; row >= 0; row--) {
    used = game_append(buf, size, used, "%*d", width, row + 1);
    for (int column = 0; column < board->m; column++) {
      int cell = row * board->m + column;
      int side = mnk_cell(board, cell);
      used = game_append(buf, size, used,
                         game_marks(style, (game_move)cell)
                           ? " " GAME_ANSI_MARK "%s" GAME_ANSI_RESET : " %s",
                         side < 0 ? "." : marks[side]);
    }
    used = game_append(buf, size, used, "\n");
  }
  used = game_append(buf, size, used, "%*s", width, "");
  for (int column = 0; column < board->m; column++)
    used = game_append(buf, size, used, " %c", 'a' + column);
  game_status status = mnk_status(board);
  if (status == GAME_ONGOING)
    used = game_append(buf, size, used, "\n%s to move", sides[mnk_turn(board)]);
  else if (status == GAME_DRAW)
    used = game_append(buf, size, used, "\ndraw");
  else
    used = game_append(buf, size, used, "\n%s won",
                       sides[status == GAME_WIN_0 ? 0 : 1]);
  return used;
}
