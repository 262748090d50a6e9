/*
** internal.h: what the xiangqi files share and nobody else needs.
*/
#ifndef XQ_INTERNAL_H
#define XQ_INTERNAL_H

#include <stdint.h>

#include "xiangqi.h"

/* xq_point[square]: what kind of point a square is. */
#define XQ_POINT 1
#define XQ_HALF_RED 2            /* ranks 0-4 */
#define XQ_HALF_BLACK 4
#define XQ_PALACE_RED 8
#define XQ_PALACE_BLACK 16
#define XQ_HALF(side) (XQ_HALF_RED << (side))
#define XQ_PALACE(side) (XQ_PALACE_RED << (side))

extern uint8_t xq_point[256];
/* The kind of the piece id in a board byte; XQ_KINDS for 0 and XQ_OFF. */
extern uint8_t xq_kind_table[XQ_OFF + 1];
/* Keys by side * XQ_KINDS + kind and square. */
extern uint64_t xq_zobrist[2 * XQ_KINDS][256];
extern uint64_t xq_zobrist_turn;

#define XQ_KING_ID(side) (16 << (side))
#define XQ_PIECE_KEY(id, sq) \
  xq_zobrist[xq_side_of(id) * XQ_KINDS + xq_kind_table[id]][sq]

/* Whether the side to move may make the move without leaving its general
   attacked; in_check says whether it is attacked now.  The position is
   changed and put back. */
bool xq_move_is_safe(xq_position *pos, xq_move move, bool in_check);

#endif
