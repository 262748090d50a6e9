/*
** connect4.h: Connect Four on any board of width * (height + 1) <= 64.
**
** The bitboard of Pascal Pons' solver ("Solving Connect Four"): column c
** owns bits c*(height+1) .. c*(height+1)+height-1, bottom row first, and
** one spare bit on top that keeps shifted lines from running into the
** next column.  A position is the chips of the side to move and the mask
** of all chips.  Yellow moves first in a new game; a position built from
** rows may have red to start, so the colour to move is kept.
*/
#ifndef CONNECT4_H
#define CONNECT4_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/game.h"

#define C4_MAX_WIDTH 9          /* columns are named by one digit */
#define C4_MAX_CELLS 64

enum { C4_YELLOW, C4_RED };

typedef struct c4_board {
  uint64_t current;             /* chips of the side to move */
  uint64_t mask;                /* every chip */
  uint8_t width, height;
  uint8_t moves;                /* chips on the board */
  uint8_t turn;                 /* C4_YELLOW or C4_RED to move */
  uint8_t unused[4];            /* zero, so equal boards compare equal */
} c4_board;

/* Whether width x height fits: 1..9 columns, width*(height+1) <= 64. */
bool c4_size_ok(int width, int height);

/* The empty board, yellow to move.  The size must be c4_size_ok. */
void c4_init(c4_board *board, int width, int height);

bool c4_can_play(const c4_board *board, int column);
void c4_play(c4_board *board, int column);
void c4_undo(c4_board *board, int column);

/* Chips of the side that moved last. */
uint64_t c4_last_mover(const c4_board *board);

/* Whether the chips hold four in a row on this board's geometry. */
bool c4_has_four(const c4_board *board, uint64_t chips);

game_status c4_status(const c4_board *board);   /* GAME_WIN_0: yellow */
uint64_t c4_hash(const c4_board *board);

/* Cell (column, row), row 0 at the bottom: C4_YELLOW, C4_RED or -1. */
int c4_cell(const c4_board *board, int column, int row);

/* ---- notation ---- */

typedef enum c4_error {
  C4_OK,
  C4_EBADCHAR,                  /* not a column digit, or a bad cell */
  C4_ECOLUMN,                   /* a column past the board */
  C4_EFULL,                     /* a full column */
  C4_EOVER,                     /* a move after four in a row or a full board */
  C4_ESHAPE,                    /* rows of the wrong number or length */
  C4_EFLOATING,                 /* a chip above an empty cell */
  C4_ECOUNT,                    /* chip counts no game can reach */
  C4_ETWOWINNERS,               /* both colours have four */
  C4_EWINNER,                   /* the side to move already has four */
  C4_EPLAYEDON                  /* four in a row, then more chips */
} c4_error;

typedef struct c4_parse_error {
  c4_error code;
  int at;                       /* 0-based index of the move, or column */
  int row;                      /* from_cells: 0-based row, top first */
  int yellow, red;              /* from_cells: the chips counted */
  int colour;                   /* from_cells: whose four is wrong */
} c4_parse_error;

/* Plays the 1-based column digits of text ("4453") on board, storing the
   0-based columns in moves (room for C4_MAX_CELLS).  Returns how many, or
   -1 with err filled and the board as it was. */
int c4_load(c4_board *board, const char *text, int *moves,
            c4_parse_error *err);

/* One cell of a picture: a yellow or red circle emoji, Y/y, R/r, '.',
   or only spaces (the seed's empty cell "  ").  Returns C4_YELLOW,
   C4_RED, -1 for empty, or -2 for anything else. */
int c4_parse_cell(const char *text, size_t len);

/* The cells of one row written as a string ("Y R . ." or emoji), spaces
   and '|' between cells ignored.  Returns how many there are (storing
   the first cap), or -1 with *bad at the first byte that is not a cell. */
int c4_parse_row(const char *text, signed char *cells, int cap, int *bad);

/* Builds a position from cells (height rows of width, top row first,
   values as c4_parse_cell) where first (C4_YELLOW in the standard game)
   moved first, with to_move to play (-1: as the counts say), and checks
   that a game could reach it: no floating chips, as many chips for both
   with first to move or one more for first with the other to move, and
   only the side that just moved holding four in a row, made by its last
   chip. */
c4_error c4_from_cells(c4_board *board, int width, int height,
                       const signed char *cells, int to_move, int first,
                       c4_parse_error *err);

/* Row row (0 at the top) as width letters, 'Y', 'R' or '.', and a zero. */
void c4_row_text(const c4_board *board, int row, char *out);

/* The board drawn with emoji, column numbers under it, and whose turn or
   the result; in style (NULL: plain text; game.h), as snprintf. */
size_t c4_render(const c4_board *board, const game_style *style, char *buf,
                 size_t size);

extern const game_class c4_class;

/* ---- batch.c: the tasks of the batch tools (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task c4_batch_solve, c4_batch_replay,
    c4_batch_annotate;

#endif
