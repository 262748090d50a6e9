/*
** search.h: the searches every game gets from the protocol.
**
** search_alphabeta is negamax with alpha-beta pruning, principal
** variation search, iterative deepening, a transposition table and
** history move ordering.  search_mcts is UCT Monte-Carlo tree search with
** random playouts.  Both drive a game only through its game_class with
** make and unmake on the one state they are given (never copying it), so
** a game written in Lua can be searched through the bridge in
** bindings/lgame.c; and both stop on their search_limit, returning the
** best move found so far.
*/
#ifndef SEARCH_H
#define SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "limit.h"
#include "rng.h"
#include "tt.h"

#define SEARCH_MAX_PLY 128

/* A heuristic value of a position for the side to move, strictly inside
   +-GAME_SCORE_EVAL_MAX. */
typedef int (*search_eval)(void *context, const void *state);

typedef struct search_options {
  int max_depth;           /* 1..SEARCH_MAX_PLY; 0 means SEARCH_MAX_PLY */
  search_eval eval;        /* NULL: the game's own eval, or 0 without one */
  void *eval_context;
  tt_table *tt;            /* NULL: search without a table */
} search_options;

typedef struct search_result {
  game_move best;          /* GAME_NO_MOVE only when the game is over */
  int score;               /* side to move; a win in n plies is WIN - n */
  int depth;               /* the deepest iteration completed */
  bool exact;              /* the score is the game's true value */
  uint64_t nodes;
  int pv_length;
  game_move pv[SEARCH_MAX_PLY];   /* the principal variation from state */
} search_result;

/* Searches state (left unchanged) until max_depth, the limit, or the
   game's value is known. */
void search_alphabeta(const game_class *cls, void *state,
                      const search_options *options, search_limit *limit,
                      search_result *result);

/* True when a score says the game is won or lost rather than evaluated. */
static inline bool search_is_win_score(int score) {
  return score > GAME_SCORE_EVAL_MAX || score < -GAME_SCORE_EVAL_MAX;
}

typedef struct mcts_options {
  double exploration;      /* UCT's c; sqrt(2) is the textbook value */
  uint64_t seed;
  int max_playout_plies;   /* a longer playout counts as a draw; 0: 10000 */
  uint32_t max_tree_nodes; /* the tree stops growing there; 0: 4 million */
} mcts_options;

typedef struct mcts_result {
  game_move best;          /* the most visited move at the root */
  uint64_t playouts;
  uint64_t plies;          /* moves made, in the tree and the playouts */
  double value;            /* the best move's mean result: 1 win, 0 loss */
  int proven;              /* 1: a forced win, -1: a forced loss, 0: open */
  uint32_t best_visits;
  uint32_t tree_nodes;
  int pv_length;           /* the most visited line */
  game_move pv[SEARCH_MAX_PLY];
} mcts_result;

/* One playout per limit node: limit->max_nodes is the playout budget.
   Stops early once the root's value is proven. */
void search_mcts(const game_class *cls, void *state,
                 const mcts_options *options, search_limit *limit,
                 mcts_result *result);

#endif
