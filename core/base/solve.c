/*
** solve.c: exact negamax with alpha-beta pruning to the end of the game.
*/
#include "solve.h"

typedef struct solver {
  const game_class *cls;
  void *state;
  search_limit *limit;
} solver;

/* The exact score inside (alpha, beta), or a bound outside it. */
static int negamax(solver *s, int ply, int alpha, int beta, game_move *best) {
  const game_class *cls = s->cls;
  if (limit_tick(s->limit)) return 0;
  if (cls->status(s->state) != GAME_ONGOING) {
    int score = game_final_score(cls, s->state);
    return score > 0 ? score - ply : score < 0 ? score + ply : 0;
  }
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(s->state, moves);
  int best_score = -GAME_SCORE_WIN - 1;
  for (int i = 0; i < n; i++) {
    game_undo undo;
    cls->make(s->state, moves[i], &undo);
    int score = -negamax(s, ply + 1, -beta, -alpha, NULL);
    cls->unmake(s->state, moves[i], &undo);
    if (s->limit->stopped) return 0;
    if (score > best_score) {
      best_score = score;
      if (best) *best = moves[i];
      if (score > alpha) alpha = score;
      if (alpha >= beta) break;
    }
  }
  return best_score;
}

bool game_solve(const game_class *cls, void *state, search_limit *limit,
                game_solution *solution) {
  solver s = {cls, state, limit};
  solution->best = GAME_NO_MOVE;
  solution->score = negamax(&s, 0, -GAME_SCORE_WIN - 1, GAME_SCORE_WIN + 1,
                            &solution->best);
  return !limit->stopped;
}

int game_score_sign(int score) {
  return (score > 0) - (score < 0);
}
