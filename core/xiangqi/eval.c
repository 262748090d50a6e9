/*
** eval.c: material and piece placement.
**
** Values are the usual rough ones (chariot 600, cannon and horse near
** 280, advisor and elephant 120, soldier 30 at home and about three times
** that across the river).  Placement is a few plain ideas written as
** formulas instead of tables: soldiers gain as they near the palace and
** the middle files, horses and chariots like the centre and the enemy
** half, a cannon likes the middle file early, a general likes home.
*/
#include "xiangqi.h"
#include "internal.h"

static const int values[XQ_KINDS] = {0, 120, 120, 270, 600, 285, 30};

static int distance(int a, int b) { return a > b ? a - b : b - a; }

/* The placement bonus of a piece on (file, rank) seen from its own side:
   rank 0 is its back rank. */
static int placement(int kind, int file, int rank) {
  int centre = 4 - distance(file, 4);               /* 0 at the edge, 4 */
  switch (kind) {
  case XQ_PAWN:
    if (rank < 5) return 0;
    if (rank == 9) return 30 + 4 * centre;
    return 40 + 6 * centre + 8 * (rank - 5) +
           (file >= 3 && file <= 5 && rank >= 6 ? 20 : 0);
  case XQ_HORSE:
    return 6 * centre + (rank >= 3 && rank <= 7 ? 4 * (rank - 2) : 0) -
           (rank == 0 ? 20 : 0) - (file == 0 || file == 8 ? 15 : 0);
  case XQ_ROOK:
    return 3 * centre + (rank >= 5 ? 10 : 0) + (rank == 6 || rank == 7 ? 10 : 0) +
           (file == 3 || file == 5 ? 8 : 0);
  case XQ_CANNON:
    return (file == 4 ? 15 : 0) + (rank == 2 || rank == 9 ? 5 : 0) +
           (rank == 7 ? 8 : 0);
  case XQ_KING:
    return rank == 0 ? 10 : -10 * rank;
  default:
    return 0;
  }
}

int xq_evaluate(const xq_position *pos) {
  int score[2] = {0, 0};
  for (int id = 16; id < 48; id++) {
    int sq = pos->square[id];
    if (!sq) continue;
    int side = xq_side_of(id), kind = xq_kind_table[id];
    int rank = side == XQ_RED ? xq_rank(sq) : 9 - xq_rank(sq);
    score[side] += values[kind] + placement(kind, xq_file(sq), rank);
  }
  return score[pos->turn] - score[pos->turn ^ 1];
}
