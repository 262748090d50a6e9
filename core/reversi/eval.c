/*
** eval.c: a midgame evaluation for Reversi, from the side to move, in
** hundredths of a disc of final margin.
**
** The classic terms, weighted by how far the game has gone: mobility
** (moves now) and potential mobility (empty squares next to the other
** side's discs: moves to come), corners, the squares diagonally next to
** an empty corner (they give the corner away), stable discs, parity (the
** side that will play last in the board gets the last flips), and late
** in the game the discs themselves.
*/
#include "reversi.h"
#include "solve.h"

/* The four corners of the board and the square diagonally inside each. */
static void corners_of(const reversi_board *b, int corner[4], int inner[4]) {
  int first = (8 - b->size) / 2, last = first + b->size - 1;
  int rows[2] = {first, last}, steps[2] = {1, -1};
  for (int i = 0; i < 4; i++) {
    int row = rows[i / 2], col = rows[i % 2];
    corner[i] = row * 8 + col;
    inner[i] = (row + steps[i / 2]) * 8 + col + steps[i % 2];
  }
}

static int count(uint64_t x) { return __builtin_popcountll(x); }

int reversi_eval(const reversi_board *b) {
  uint64_t p = b->player, o = b->opponent, mask = b->mask;
  uint64_t empty = mask & ~(p | o);
  int empties = count(empty), squares = count(mask);
  /* 0 at the start, 256 at the end */
  int phase = 256 * (squares - 4 - empties) / (squares - 4);

  int mine = count(reversi_moves_of(p, o) & mask);
  int theirs = count(reversi_moves_of(o, p) & mask);
  int mobility = 100 * (mine - theirs) / (mine + theirs + 2);
  uint64_t near = reversi_neighbours(empty);
  int frontier = count(o & near) - count(p & near);

  int corner[4], inner[4], corners = 0, x_squares = 0;
  corners_of(b, corner, inner);
  for (int i = 0; i < 4; i++) {
    uint64_t c = (uint64_t)1 << corner[i], x = (uint64_t)1 << inner[i];
    corners += (p & c ? 1 : 0) - (o & c ? 1 : 0);
    if (empty & c) x_squares += (o & x ? 1 : 0) - (p & x ? 1 : 0);
  }

  int stable = count(reversi_stable(p, o, mask)) - count(reversi_stable(o, p, mask));
  int parity = empties & 1 ? 1 : -1;
  int discs = count(p) - count(o);

  int score = mobility * (12 - 6 * phase / 256)      /* up to 12 discs */
            + frontier * (40 - 20 * phase / 256)
            + corners * 600
            + x_squares * 250
            + stable * 120
            + parity * 30 * phase / 256
            + discs * 100 * phase * phase / (256 * 256);
  return score;
}
