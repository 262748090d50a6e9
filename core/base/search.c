/*
** search.c: negamax alpha-beta with principal variation search,
** iterative deepening, a transposition table and history ordering.
**
** Scores are from the side to move.  A game won at ply p of the search
** scores GAME_SCORE_WIN - p, so a nearer win is worth more; the table
** keeps such scores counted from the stored position instead, so they
** stay true wherever the position is met again.
*/
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define INFINITE (GAME_SCORE_WIN + 1)
#define HISTORY_SIZE 4096

typedef struct searcher {
  const game_class *cls;
  void *state;
  const search_options *options;
  search_limit *limit;
  tt_table *tt;
  /* Grows each time a score depends on the horizon (an evaluation, or a
     table entry that was not proven): a subtree searched without it
     growing has its true value. */
  uint64_t horizon;
  uint32_t history[2][HISTORY_SIZE];
  game_move root_best;               /* of the iteration in progress */
  int root_score;
  int pv_length[SEARCH_MAX_PLY + 1];
  game_move pv[SEARCH_MAX_PLY + 1][SEARCH_MAX_PLY];
} searcher;

static unsigned history_slot(game_move move) {
  return (move ^ (move >> 12) ^ (move >> 24)) & (HISTORY_SIZE - 1);
}

static int evaluate(searcher *s) {
  const search_options *options = s->options;
  int score = 0;
  if (options->eval)
    score = options->eval(options->eval_context, s->state);
  else if (s->cls->eval)
    score = s->cls->eval(s->state);
  if (score >= GAME_SCORE_EVAL_MAX) score = GAME_SCORE_EVAL_MAX - 1;
  if (score <= -GAME_SCORE_EVAL_MAX) score = -GAME_SCORE_EVAL_MAX + 1;
  return score;
}

/* Win scores counted from the root become counted from the position at
   ply, and back. */
static int score_to_table(int score, int ply) {
  return score > GAME_SCORE_EVAL_MAX ? score + ply
       : score < -GAME_SCORE_EVAL_MAX ? score - ply : score;
}

static int score_from_table(int score, int ply) {
  return score > GAME_SCORE_EVAL_MAX ? score - ply
       : score < -GAME_SCORE_EVAL_MAX ? score + ply : score;
}

/* Moves i.. of moves: brings the most promising one to i. */
static void pick_move(searcher *s, game_move *moves, int n, int i,
                      game_move first, int side) {
  int best = i;
  uint32_t best_value = 0;
  for (int j = i; j < n; j++) {
    uint32_t value = moves[j] == first ? UINT32_MAX
                   : s->history[side][history_slot(moves[j])];
    if (value > best_value) {
      best_value = value;
      best = j;
    }
  }
  game_move move = moves[best];
  memmove(&moves[i + 1], &moves[i], (size_t)(best - i) * sizeof *moves);
  moves[i] = move;
}

static void update_pv(searcher *s, int ply, game_move move) {
  s->pv[ply][0] = move;
  int child = s->pv_length[ply + 1];
  memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)child * sizeof(game_move));
  s->pv_length[ply] = child + 1;
}

static int alphabeta(searcher *s, int depth, int ply, int alpha, int beta) {
  const game_class *cls = s->cls;
  s->pv_length[ply] = 0;
  if (limit_tick(s->limit)) return 0;
  if (cls->status(s->state) != GAME_ONGOING)
    return score_from_table(game_final_score(cls, s->state), ply);
  if (depth <= 0 || ply >= SEARCH_MAX_PLY) {
    s->horizon++;
    return evaluate(s);
  }

  uint64_t key = 0;
  game_move table_move = GAME_NO_MOVE;
  if (s->tt) {
    key = cls->hash(s->state);
    const tt_entry *entry = tt_probe(s->tt, key);
    if (entry) {
      table_move = entry->move;
      int score = score_from_table(entry->score, ply);
      if (ply > 0 && (entry->depth >= depth || entry->proven) &&
          (entry->bound == TT_EXACT ||
           (entry->bound == TT_LOWER && score >= beta) ||
           (entry->bound == TT_UPPER && score <= alpha))) {
        if (!entry->proven) s->horizon++;
        return score;
      }
    }
  }

  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(s->state, moves);
  if (n == 0) return 0;             /* a game that forgot to end: a draw */
  int side = cls->turn(s->state);
  uint64_t horizon_before = s->horizon;
  int alpha_before = alpha;
  int best_score = -INFINITE;
  game_move best_move = GAME_NO_MOVE;
  for (int i = 0; i < n; i++) {
    pick_move(s, moves, n, i, table_move, side);
    game_undo undo;
    cls->make(s->state, moves[i], &undo);
    int score;
    if (i == 0) {
      score = -alphabeta(s, depth - 1, ply + 1, -beta, -alpha);
    } else {
      score = -alphabeta(s, depth - 1, ply + 1, -alpha - 1, -alpha);
      if (score > alpha && score < beta && !s->limit->stopped)
        score = -alphabeta(s, depth - 1, ply + 1, -beta, -alpha);
    }
    cls->unmake(s->state, moves[i], &undo);
    if (s->limit->stopped) return 0;
    if (score > best_score) {
      best_score = score;
      best_move = moves[i];
      if (score > alpha) {
        alpha = score;
        update_pv(s, ply, moves[i]);
        if (ply == 0) {
          s->root_best = moves[i];
          s->root_score = score;
        }
      }
      if (score >= beta) {
        s->history[side][history_slot(moves[i])] += (uint32_t)(depth * depth);
        break;
      }
    }
  }

  if (s->tt) {
    tt_bound bound = best_score <= alpha_before ? TT_UPPER
                   : best_score >= beta ? TT_LOWER : TT_EXACT;
    tt_store(s->tt, key, depth, bound, score_to_table(best_score, ply),
             bound == TT_UPPER ? GAME_NO_MOVE : best_move,
             s->horizon == horizon_before);
  }
  return best_score;
}

/* Halves the history so older iterations weigh less than newer ones. */
static void age_history(searcher *s) {
  for (int side = 0; side < 2; side++)
    for (int i = 0; i < HISTORY_SIZE; i++) s->history[side][i] >>= 1;
}

void search_alphabeta(const game_class *cls, void *state,
                      const search_options *options, search_limit *limit,
                      search_result *result) {
  memset(result, 0, sizeof *result);
  result->best = GAME_NO_MOVE;
  uint64_t nodes_before = limit->nodes;
  if (cls->status(state) != GAME_ONGOING) {
    result->score = game_final_score(cls, state);
    result->exact = true;
    return;
  }
  game_move first[GAME_MAX_MOVES];
  if (cls->moves(state, first) == 0) return;
  result->best = first[0];          /* whatever happens, a legal move */

  searcher *s = calloc(1, sizeof *s);
  if (!s) return;
  s->cls = cls;
  s->state = state;
  s->options = options;
  s->limit = limit;
  s->tt = options->tt;
  int max_depth = options->max_depth;
  if (max_depth <= 0 || max_depth > SEARCH_MAX_PLY) max_depth = SEARCH_MAX_PLY;

  for (int depth = 1; depth <= max_depth; depth++) {
    uint64_t horizon_before = s->horizon;
    s->root_best = GAME_NO_MOVE;
    int score = alphabeta(s, depth, 0, -INFINITE, INFINITE);
    /* A stopped iteration searched the previous best move first, so a
       best move it has found is at least as good and seen deeper. */
    if (limit->stopped && s->root_best == GAME_NO_MOVE) break;
    if (!limit->stopped) {
      result->depth = depth;
      result->score = score;
    } else {
      result->score = s->root_score;
    }
    result->pv_length = s->pv_length[0];
    memcpy(result->pv, s->pv[0], (size_t)s->pv_length[0] * sizeof(game_move));
    result->best = s->pv[0][0];
    if (limit->stopped) break;
    /* A win or loss within the horizon cannot hide a quicker one; one
       beyond it came from the table and may. */
    int distance = GAME_SCORE_WIN - (score < 0 ? -score : score);
    if (s->horizon == horizon_before ||
        (search_is_win_score(score) && distance <= depth)) {
      result->exact = true;
      break;
    }
    age_history(s);
  }
  result->nodes = limit->nodes - nodes_before;
  free(s);
}
