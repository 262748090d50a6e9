/*
** search.h: the xiangqi engine's own search.
**
** Principal variation search with iterative deepening, a transposition
** table (core/base/tt.h, used in buckets of two), quiescence on the
** captures that do not lose by the static exchange evaluation (all moves
** when in check), extensions of checks that do not lose material,
** null-move pruning and the pruning and reductions of late and losing
** moves, and move ordering by the table's move, the captures that do not
** lose (most valuable victim first), two killers per ply, the history
** and the continuation history.  Repetitions met in the tree are judged
** by the position's rules (a perpetual checker loses).  The search stops
** on its search_limit and keeps the best move of the deepest iteration;
** the first iteration (one ply and the captures after it) always
** completes.
**
** What an engine protocol needs is at the root only: the best lines
** rather than the best move (MultiPV: the root is searched once a line,
** without the first moves of the better lines), a root restricted to
** some moves (UCI's searchmoves), and a report after each iteration
** that may end the search there.
*/
#ifndef XQ_SEARCH_H
#define XQ_SEARCH_H

#include <stdint.h>

#include "base/limit.h"
#include "base/tt.h"
#include "xiangqi.h"

#define XQ_MAX_PLY 64
#define XQ_MAX_LINES XQ_MAX_MOVES

typedef struct xq_search_line {
  int score;
  int pv_length;
  xq_move pv[XQ_MAX_PLY];
} xq_search_line;

typedef struct xq_search_result {
  xq_move best;                   /* 0 when there is no legal move */
  int score;                      /* side to move; mate in n plies is
                                     GAME_SCORE_WIN - n */
  int depth;                      /* the deepest iteration completed */
  int seldepth;                   /* the deepest ply it reached */
  uint64_t nodes;
  int pv_length;
  xq_move pv[XQ_MAX_PLY];
  /* The best lines, best first, of the deepest iteration (when a stop
     cut the next one short, the lines it completed replace theirs);
     lines[0] is usually best, score and pv, which a stopped iteration
     may have improved on. */
  int line_count;
  xq_search_line lines[XQ_MAX_LINES];
} xq_search_result;

typedef struct xq_search_options {
  int max_depth;                  /* 1..XQ_MAX_PLY; 0: XQ_MAX_PLY */
  tt_table *tt;                   /* NULL: a small table of its own */
  const int16_t *weights;         /* the evaluation's (eval.h); NULL: the
                                     engine's own */
  int lines;                      /* the best lines wanted (MultiPV),
                                     1..XQ_MAX_LINES; 0: 1 */
  /* Only these moves at the root (those of them that are legal; all
     moves when none is); NULL: every move. */
  const xq_move *root_moves;
  int root_move_count;
  /* Called after each completed iteration, in the searching thread,
     with the result so far; returning false ends the search there.
     NULL: none. */
  bool (*iteration)(void *data, const xq_search_result *result);
  void *data;
} xq_search_options;

/* Searches pos (left as it was) until the depth or the limit. */
void xq_search(xq_position *pos, const xq_search_options *options,
               search_limit *limit, xq_search_result *result);

#endif
