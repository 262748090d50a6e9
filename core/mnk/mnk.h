/*
** mnk.h: the m,n,k-game: two sides take turns placing stones on an m by
** n board, and the first to line up k in a row (across, up or on a
** diagonal) wins; a full board is a draw.  Tic-tac-toe is 3,3,3 and
** gomoku 15,15,5, optionally with the "exact five" rule (a line longer
** than k does not win).
**
** Cells are numbered row by row from the bottom left: cell = row * m +
** column, both from 0, named like chess squares ("a1", "o15").
*/
#ifndef MNK_H
#define MNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/game.h"

#define MNK_MAX_SIDE 16
#define MNK_MAX_CELLS 256          /* m * n: every cell can be a move */

typedef struct mnk_board {
  uint64_t stones[2][MNK_MAX_CELLS / 64];   /* per side, bit per cell */
  uint8_t cell[MNK_MAX_CELLS];     /* 0 empty, 1 or 2: side 0 or 1 */
  int32_t score[2];                /* each side's lines: see mnk_eval */
  uint64_t hash;
  uint8_t m, n, k, exact;
  uint16_t placed;                 /* stones on the board */
  uint8_t winner;                  /* 0: none yet; 1 or 2: side 0 or 1 */
  uint8_t unused;
} mnk_board;

/* Whether an m,n,k game (with or without the exact rule) can be played:
   1 <= m, n <= MNK_MAX_SIDE and 1 <= k <= max(m, n). */
bool mnk_size_ok(int m, int n, int k);

/* The empty board; the size must be mnk_size_ok. */
void mnk_init(mnk_board *board, int m, int n, int k, bool exact);

int mnk_turn(const mnk_board *board);
bool mnk_is_empty(const mnk_board *board, int cell);
/* The side (0 or 1) on the cell, or -1. */
int mnk_cell(const mnk_board *board, int cell);
void mnk_make(mnk_board *board, int cell);
void mnk_unmake(mnk_board *board, int cell, int old_winner);
game_status mnk_status(const mnk_board *board);

/* A heuristic for the side to move: lines of k cells that one side alone
   occupies, weighted by how full they are (kept up to date by make and
   unmake, so this costs nothing). */
int mnk_eval(const mnk_board *board);

/* "c5" -> its cell, or -1 when the text names none on this board. */
int mnk_parse_cell(const mnk_board *board, const char *text);
void mnk_cell_name(const mnk_board *board, int cell, char name[8]);

/* Draws the board as snprintf does: rows from the top with their numbers,
   marks[side] for stones, column letters below, then whose turn or the
   result, naming sides[side]; in style (NULL: plain text; game.h). */
size_t mnk_render(const mnk_board *board, const char *const marks[2],
                  const char *const sides[2], const game_style *style,
                  char *buf, size_t size);

/* Tic-tac-toe style sides x and o, and gomoku's black and white: the same
   rules under two names. */
extern const game_class mnk_class;
extern const game_class gomoku_class;

#endif
