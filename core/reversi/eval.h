/*
** eval.h: the features of the trained 8x8 evaluation and its weights, for
** the evaluation (eval.c), its trainer (tools/train_reversi.c) and the
** tests.
**
** A position's features are the configurations of its patterns (edges
** with their X squares, corner 3x3 and 2x5 blocks, rows and columns 2 to
** 4, diagonals of 4 to 8 squares), each up to the symmetries the pattern
** has, the mobility and potential mobility of both sides, a bias and the
** parity of the empty squares.  Each feature has a weight per anchor,
** a number of empty squares; between two anchors the weights are mixed
** in proportion, beyond the first and last the nearest one holds.
*/
#ifndef REVERSI_EVAL_H
#define REVERSI_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "reversi.h"

#define EVAL_ANCHORS 3
#define EVAL_FEATURES 64        /* at most this many features a position */

/* The empty squares of each anchor, in increasing order. */
extern const int reversi_eval_anchor[EVAL_ANCHORS];

/* The weights of one anchor. */
int reversi_eval_weight_count(void);

/* The features of an 8x8 position (player to move): their indices in an
   anchor's weights, a feature that occurs twice listed twice.  Returns
   how many. */
int reversi_eval_features(uint64_t player, uint64_t opponent,
                          uint32_t features[EVAL_FEATURES]);

/* How much each anchor's weights count at that many empty squares (the
   shares add up to 1). */
void reversi_eval_shares(int empties, double share[EVAL_ANCHORS]);

/* The weights, in hundredths of a disc, as the trainer writes them and
   the build embeds them (reversi_weights): "RVW2", the number of weights
   per anchor as 4 bytes little-endian, then every weight of the first
   anchor, of the second, ..., as numbers of 7 bits a byte, low first, the
   high bit set on every byte but the last: 2n + 1 is a run of n + 1
   zeros, 2z a weight w (z = 2w for w >= 0, -2w - 1 below).  Returns the
   bytes written, or 0 when size is too small. */
size_t reversi_eval_encode(const int16_t *weights, int count,
                           unsigned char *out, size_t size);

extern const unsigned char reversi_weights[];
extern const size_t reversi_weights_size;

/* Whether the embedded weights were read (false: the classic evaluation
   serves on 8x8 too). */
bool reversi_eval_trained(void);

/* The classic evaluation of every board size: mobility, potential
   mobility, corners, the squares next to empty corners, stable discs,
   parity and the discs late in the game. */
int reversi_eval_classic(const reversi_board *board);

#endif
