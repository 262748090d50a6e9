/*
** solve.h: the exact endgame solver for Reversi, and the disc stability
** it uses (also a term of the evaluation).
**
** Scores are final disc differences from the side to move, the empty
** squares going to the winner (reversi_final_score).  The solver keeps a
** transposition table between solves of the same board size; it is
** cleared when the size changes.
*/
#ifndef REVERSI_SOLVE_H
#define REVERSI_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/limit.h"
#include "reversi.h"

typedef struct reversi_solver reversi_solver;

/* A solver with a table of about 2^log2_entries positions (in buckets
   of three, 64 bytes a bucket) and a small one for the positions of 7 to
   9 empty squares (2^15 slots of 24 bytes, 768 KiB, or 2^log2_entries
   when that is fewer); NULL when memory runs out. */
reversi_solver *reversi_solver_new(int log2_entries);
void reversi_solver_free(reversi_solver *solver);

/* Forgets every position the solver's tables hold: the solves after it
   find the moves they would find from a new solver (a best move among
   equals depends on the order the table suggests), at the cost of
   clearing the tables (about 3 ms for 2^20 entries). */
void reversi_solver_clear(reversi_solver *solver);

typedef struct reversi_solution {
  int score;        /* exact score for the side to move */
  int best;         /* a move that reaches it: a square, REVERSI_PASS, or
                       -1 when the game is over */
  bool complete;    /* false: the limit stopped it, score and best mean
                       nothing */
  int lower, upper; /* bounds on the score: equal to it when complete,
                       what was proved when stopped */
} reversi_solution;

/* Solves board exactly.  limit may be NULL. */
reversi_solution reversi_solve(reversi_solver *solver,
                               const reversi_board *board,
                               search_limit *limit);

/* Hears of each step of a solve: the bounds proved so far. */
typedef void reversi_progress(void *context, int lower, int upper,
                              uint64_t nodes);

/* reversi_solve, calling progress (when not NULL) after each step of
   the exact pass (from 18 empties, a selective pass comes before it). */
reversi_solution reversi_solve_watched(reversi_solver *solver,
                                       const reversi_board *board,
                                       search_limit *limit,
                                       reversi_progress *progress,
                                       void *context);

/* The exact score of every legal move (from the side to move, before it
   moves) in scores[square]; other entries are left alone.  False when
   the limit stopped it. */
bool reversi_solve_all(reversi_solver *solver, const reversi_board *board,
                       search_limit *limit, int scores[64]);

/* The discs of player that no sequence of moves can ever turn over (a
   safe under-estimate: every disc it names is stable). */
uint64_t reversi_stable(uint64_t player, uint64_t opponent, uint64_t mask);

#endif
