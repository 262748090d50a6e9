/*
** solve.h: exact values of small games by searching to the end.
**
** Plain negamax with alpha-beta pruning over the game protocol: enough for
** tic-tac-toe and small games written in Lua.  The big games have solvers
** of their own (connect4/solve.c, reversi/solve.c).
*/
#ifndef SOLVE_H
#define SOLVE_H

#include <stdbool.h>

#include "game.h"
#include "limit.h"

typedef struct game_solution {
  int score;          /* from the side to move: GAME_SCORE_WIN - plies, 0 */
  game_move best;     /* GAME_NO_MOVE when the game is over */
} game_solution;

/* Solves state (left unchanged).  Returns false when the limit stopped the
   search first; then *solution means nothing. */
bool game_solve(const game_class *cls, void *state, search_limit *limit,
                game_solution *solution);

/* -1, 0 or 1: the sign of a score, the game-theoretic value. */
int game_score_sign(int score);

#endif
