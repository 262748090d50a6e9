/*
** tictactoe.h: 3x3 tic-tac-toe, the protocol's worked example.
**
** Squares are a1..c3: column letter, then row number, row 1 at the bottom
** as on a chess board.  Square index = 3 * (row - 1) + column, so a1 is 0,
** c1 is 2 and c3 is 8.  The board is two 9-bit masks; x moves first, so
** the side to move follows from the counts.
*/
#ifndef TICTACTOE_H
#define TICTACTOE_H

#include <stddef.h>
#include <stdint.h>

#include "base/game.h"

#define TTT_SQUARES 9
#define TTT_FULL 0x1ffu

enum { TTT_X, TTT_O };

typedef struct ttt_board {
  uint16_t x, o;       /* bit i set: that side holds square i */
} ttt_board;

/* The eight lines, as masks. */
extern const uint16_t ttt_lines[8];

void ttt_init(ttt_board *board);
int ttt_turn(const ttt_board *board);                   /* TTT_X or TTT_O */
int ttt_moves(const ttt_board *board, game_move *out);  /* empty squares */
void ttt_make(ttt_board *board, int square);
void ttt_unmake(ttt_board *board, int square);
game_status ttt_status(const ttt_board *board);
uint64_t ttt_hash(const ttt_board *board);
int ttt_eval(const ttt_board *board);

/* Square from text ("b2", "B2"), or -1. */
int ttt_parse_square(const char *text);
/* Writes the two-letter name and a terminating zero. */
void ttt_square_name(int square, char name[3]);
/* The board for a person, in style (NULL: plain text; game.h), as
   snprintf does. */
size_t ttt_render(const ttt_board *board, const game_style *style, char *buf,
                  size_t size);

extern const game_class ttt_class;

#endif
