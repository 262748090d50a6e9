/*
** eval.h: the weights of the evaluation (eval.c), for the tool that
** fits them (tools/train_xiangqi.c).
**
** Every number the evaluation weighs is one entry of a flat array of
** weights, named by the blocks below.  A weight is a middlegame or an
** endgame value (the two blend by the game phase) or, for the placement
** tables, both at once.  A trace of an evaluation says how many times
** each weight counted for the side to move, less for the other side, so
** that the evaluation is a sum of weights times those counts and can be
** fitted like a linear model.
*/
#ifndef XQ_EVAL_H
#define XQ_EVAL_H

#include <stdint.h>

#include "xiangqi.h"

/* The placement tables have a rank (0 the piece's own back rank) and a
   file counted from the nearer edge (0..4): they are the same on both
   wings. */
#define XQ_TABLE_SIZE 50

/* The weight of an attack on a general, from 0, counts up to this. */
#define XQ_DANGER_STEPS 32

enum {
  XQ_W_MATERIAL_MG = 0,                          /* by kind */
  XQ_W_MATERIAL_EG = XQ_W_MATERIAL_MG + XQ_KINDS,
  XQ_W_PAWN_TABLE = XQ_W_MATERIAL_EG + XQ_KINDS,
  XQ_W_HORSE_TABLE = XQ_W_PAWN_TABLE + XQ_TABLE_SIZE,
  XQ_W_ROOK_TABLE = XQ_W_HORSE_TABLE + XQ_TABLE_SIZE,
  XQ_W_CANNON_TABLE = XQ_W_ROOK_TABLE + XQ_TABLE_SIZE,
  XQ_W_KING_TABLE = XQ_W_CANNON_TABLE + XQ_TABLE_SIZE,   /* 3 ranks x 2 */
  XQ_W_GUARD_TABLE = XQ_W_KING_TABLE + 6,                 /* 5 ranks x 5 */
  /* the rest: a middlegame value, then an endgame one */
  XQ_W_HORSE_MOBILITY = XQ_W_GUARD_TABLE + 25,
  XQ_W_ROOK_MOBILITY = XQ_W_HORSE_MOBILITY + 2,
  XQ_W_CANNON_MOBILITY = XQ_W_ROOK_MOBILITY + 2,
  XQ_W_TRAPPED_HORSE = XQ_W_CANNON_MOBILITY + 2,
  XQ_W_CROSSED_SOLDIER = XQ_W_TRAPPED_HORSE + 2,
  XQ_W_CONNECTED_SOLDIERS = XQ_W_CROSSED_SOLDIER + 2,
  XQ_W_CONNECTED_ROOKS = XQ_W_CONNECTED_SOLDIERS + 2,
  XQ_W_EMPTY_CANNON = XQ_W_CONNECTED_ROOKS + 2,
  XQ_W_FILE_CANNON = XQ_W_EMPTY_CANNON + 2,
  XQ_W_PINNING_ROOK = XQ_W_FILE_CANNON + 2,
  XQ_W_HORSE_ON_PALACE = XQ_W_PINNING_ROOK + 2,
  XQ_W_DANGER_MG = XQ_W_HORSE_ON_PALACE + 2,     /* by the attack's weight */
  XQ_W_DANGER_EG = XQ_W_DANGER_MG + XQ_DANGER_STEPS,
  /* the side to move's pieces attacked: by kind, middlegame then endgame */
  XQ_W_THREAT_BY_LESSER = XQ_W_DANGER_EG + XQ_DANGER_STEPS,
  XQ_W_THREAT_HANGING = XQ_W_THREAT_BY_LESSER + 2 * XQ_KINDS,
  XQ_W_TEMPO = XQ_W_THREAT_HANGING + 2 * XQ_KINDS,
  XQ_WEIGHTS
};

/* The blocks of weights by name, first index and size, in order, then a
   NULL name. */
typedef struct xq_weight_block {
  const char *name;
  int first, size;
} xq_weight_block;
extern const xq_weight_block xq_weight_blocks[];

/* The weights the engine plays with (weights.h, which
   `make xiangqi-weights` writes). */
extern const int16_t xq_weights[XQ_WEIGHTS];

typedef struct xq_eval_trace {
  int mg[XQ_WEIGHTS], eg[XQ_WEIGHTS];   /* counts, side to move minus other */
  int phase;                            /* 0 (endgame) .. XQ_PHASE_MAX */
  bool scaled;                          /* the no-win rule shrank the value */
} xq_eval_trace;

#define XQ_PHASE_MAX 48

/* xq_evaluate with other weights; trace, when not NULL, gets the counts
   (cleared first). */
int xq_evaluate_with(const xq_position *pos, const int16_t *weights,
                     xq_eval_trace *trace);

#endif
