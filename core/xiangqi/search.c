/*
** search.c: the xiangqi engine's search (see search.h).
**
** Scores are from the side to move.  Being mated (or stalemated: both
** lose) at ply p scores -(GAME_SCORE_WIN - p); the table stores such
** scores counted from the stored position.  A repetition the rules
** judge lost for one side scores REPETITION_LOSS, worse than any
** material, but it is not a mate.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"
#include "eval.h"
#include "internal.h"

#define INFINITE (GAME_SCORE_WIN + 1)
#define MATE_BOUND (GAME_SCORE_WIN - 1000)
#define REPETITION_LOSS 20000
#define DEFAULT_TABLE_MIB 16
#define DELTA_MARGIN 200             /* quiescence: a capture's best hope */
#define RFP_DEPTH 6
#define RFP_MARGIN 90
#define RAZOR_MARGIN 300
#define FUTILITY_DEPTH 3
#define FUTILITY_MARGIN 110
#define LMP_DEPTH 6
#define SEE_DEPTH 6
#define SEE_QUIET_MARGIN 15          /* times depth squared */
#define SEE_CAPTURE_MARGIN 100       /* times depth */
#define HISTORY_REDUCTION 12288
#define NULL_VERIFY_DEPTH 10
#define SINGULAR_DEPTH 8
#define SINGULAR_MARGIN 2            /* times depth */
#define ASPIRATION_DEPTH 5
#define ASPIRATION_WINDOW 40
#define EVAL_CACHE_BITS 15           /* 32,768 evaluations, 256 KiB */

/* What pieces are worth to move ordering and exchanges: victims first by
   worth, then the cheapest attacker. */
static const int piece_value[XQ_KINDS] = {10000, 120, 120, 270, 600, 285, 60};

enum {
  ORDER_TABLE = 1 << 30,
  ORDER_CAPTURE = 1 << 29,
  ORDER_KILLER = 1 << 28,
  ORDER_BAD_CAPTURE = -(1 << 27),    /* after every quiet move */
  HISTORY_CAP = 1 << 14
};

/* A move's index in the histories: the piece (side and kind) and the
   point it goes to. */
#define POINTS 90
#define MOVE_KEYS (2 * XQ_KINDS * POINTS)

typedef int16_t continuation[MOVE_KEYS];

typedef struct searcher {
  xq_position *pos;
  const int16_t *weights;            /* the evaluation's (eval.h) */
  search_limit *limit;
  tt_table *tt;
  xq_move killers[XQ_MAX_PLY + 2][2];
  /* the move a singular-extension search leaves out at each ply, or 0 */
  xq_move excluded[XQ_MAX_PLY + 2];
  int16_t history[MOVE_KEYS];
  /* Continuation history: how a move did after the move one or two plies
     before it, [that move's key][this move's key]. */
  continuation *follow;
  /* The row of follow of the move made at each ply (NULL after a pass),
     and the static evaluation there (-INFINITE in check). */
  int16_t *row[XQ_MAX_PLY + 2];
  int eval[XQ_MAX_PLY + 2];
  /* late-move reductions by depth and move number, from the logarithmic
     formula most engines use since Stockfish 2 */
  uint8_t reductions[XQ_MAX_PLY + 1][XQ_MAX_MOVES];
  xq_move root_best;                 /* of the iteration in progress */
  int root_score;
  /* the moves the root may try, and whether that is not all of them
     (the table then keeps no entry for the root) */
  xq_move root_moves[XQ_MAX_MOVES];
  int root_count;
  bool root_restricted;
  int seldepth;
  /* Evaluations met before in this search, by key: the key's upper 48
     bits and the value in the lower 16, 0 for none. */
  uint64_t eval_cache[1 << EVAL_CACHE_BITS];
  xq_search_line fresh[XQ_MAX_LINES];   /* the lines of this iteration */
  int pv_length[XQ_MAX_PLY + 2];
  xq_move pv[XQ_MAX_PLY + 2][XQ_MAX_PLY + 2];
} searcher;

/* The evaluation is half the cost of a node; a position the search
   meets again (transpositions, and quiescence after a search of the same
   node) is evaluated once. */
static int evaluate(searcher *s) {
  uint64_t key = s->pos->key;
  uint64_t *slot = &s->eval_cache[key & ((1 << EVAL_CACHE_BITS) - 1)];
  if (*slot && ((*slot ^ key) >> 16) == 0) return (int16_t)(uint16_t)*slot;
  int value = xq_evaluate_with(s->pos, s->weights, NULL);
  if (value >= INT16_MIN && value <= INT16_MAX)
    *slot = (key & ~(uint64_t)0xFFFF) | (uint16_t)value;
  return value;
}

static int score_to_table(int score, int ply) {
  return score > MATE_BOUND ? score + ply : score < -MATE_BOUND ? score - ply
                                                                 : score;
}

static int score_from_table(int score, int ply) {
  return score > MATE_BOUND ? score - ply : score < -MATE_BOUND ? score + ply
                                                                 : score;
}

static int move_key(const xq_position *pos, xq_move m) {
  int id = pos->board[XQ_FROM(m)], to = XQ_TO(m);
  int point = xq_rank(to) * 9 + xq_file(to);
  return (xq_side_of(id) * XQ_KINDS + xq_kind_table[id]) * POINTS + point;
}

/* ---- the table: buckets of two entries ----
**
** The first entry of a bucket keeps the deeper search, the second the
** latest; an entry pushed out of the first moves to the second.  A table
** kept between moves so keeps its deep results without starving the new
** search of room.
*/

static tt_entry *bucket(const tt_table *tt, uint64_t key) {
  return &tt->entries[key & tt->mask & ~(uint64_t)1];
}

static const tt_entry *table_probe(const tt_table *tt, uint64_t key) {
  tt_entry *e = bucket(tt, key);
  uint32_t check = (uint32_t)(key >> 32);
  int slots = tt->mask ? 2 : 1;
  for (int i = 0; i < slots; i++)
    if (e[i].bound != TT_EMPTY && e[i].check == check) return &e[i];
  return NULL;
}

static void table_store(tt_table *tt, uint64_t key, int depth, tt_bound bound,
                        int score, xq_move move) {
  tt_entry *e = bucket(tt, key), fresh;
  uint32_t check = (uint32_t)(key >> 32);
  fresh.check = check;
  fresh.move = move ? move : GAME_NO_MOVE;
  fresh.score = score;
  fresh.depth = (int16_t)depth;
  fresh.bound = (uint8_t)bound;
  fresh.proven = 0;
  if (!tt->mask) {
    e[0] = fresh;
    return;
  }
  for (int i = 0; i < 2; i++) {
    if (e[i].bound == TT_EMPTY || e[i].check != check) continue;
    if (!move) fresh.move = e[i].move;
    if (i == 0 && depth < e[0].depth && bound != TT_EXACT) {
      e[1] = fresh;                 /* keep the deeper result first */
      return;
    }
    if (i == 1 && depth >= e[0].depth) break;
    e[i] = fresh;
    return;
  }
  if (e[0].bound == TT_EMPTY || depth >= e[0].depth) {
    if (e[0].check != check) e[1] = e[0];
    e[0] = fresh;
  } else {
    e[1] = fresh;
  }
}

/* ---- static exchange evaluation ---- */

static const int orthogonals[4] = {16, -16, 1, -1};
static const int diagonals[4] = {17, 15, -15, -17};

/* The square of side's cheapest piece that could take on square, by the
   moves of its kind (as xq_attackers, searched from the square out), or
   0 when none can. */
static int cheapest_attacker(const xq_position *pos, int square, int side) {
  const uint8_t *b = pos->board;
  int tag = 16 << side, found = 0, worth = 1 << 30;
#define CONSIDER(sq)                                                  \
  do {                                                                \
    int v_ = piece_value[xq_kind_table[b[sq]]];                       \
    if (v_ < worth) { worth = v_; found = (sq); }                     \
  } while (0)
  int forward = side == XQ_RED ? 16 : -16;
  bool palace = xq_point[square] & XQ_PALACE(side);
  for (int i = 0; i < 4; i++) {
    int d = orthogonals[i], s = square + d;
    while (b[s] == 0) s += d;
    int p = b[s];
    if (p == XQ_OFF) continue;
    if (p & tag) {
      int kind = xq_kind_table[p];
      if (kind == XQ_ROOK) CONSIDER(s);
      else if (kind == XQ_KING && (d == 16 || d == -16) &&
               xq_kind_table[b[square]] == XQ_KING)
        CONSIDER(s);                /* the generals face each other */
      else if (s == square + d) {
        if (kind == XQ_KING && palace) CONSIDER(s);
        else if (kind == XQ_PAWN &&
                 (d == -forward ||
                  ((d == 1 || d == -1) && !(xq_point[s] & XQ_HALF(side)))))
          CONSIDER(s);
      }
    }
    for (s += d; b[s] == 0; s += d) {}
    if ((b[s] & tag) && xq_kind_table[b[s]] == XQ_CANNON) CONSIDER(s);
  }
  for (int i = 0; i < 4; i++) {
    int d = diagonals[i], s = square + d;
    /* an advisor one step off, an elephant two with its eye empty */
    if (palace && (b[s] & tag) && xq_kind_table[b[s]] == XQ_ADVISOR) CONSIDER(s);
    if (b[s] == 0 && (xq_point[square] & XQ_HALF(side)) &&
        (b[s + d] & tag) && xq_kind_table[b[s + d]] == XQ_ELEPHANT)
      CONSIDER(s + d);
    /* horses whose leg is this diagonal neighbour */
    if (b[s] != 0) continue;
    int dx = d > 0 ? d - 16 : d + 16, dy = d - dx;
    int a = s + dx, c = s + dy;
    if ((b[a] & tag) && xq_kind_table[b[a]] == XQ_HORSE) CONSIDER(a);
    if ((b[c] & tag) && xq_kind_table[b[c]] == XQ_HORSE) CONSIDER(c);
  }
#undef CONSIDER
  return found;
}

/* What the side to move wins on the target of move when both sides go on
   taking there, each with its cheapest piece and free to stop (pins are
   not seen).  The attackers are found anew on the board as it stands
   after each capture, so a cannon whose screen left the line, or that
   found one, comes in or drops out as it should. */
static int see(xq_position *pos, xq_move move) {
  enum { MAX_STEPS = 32 };
  int target = XQ_TO(move);
  int piece[MAX_STEPS], origin[MAX_STEPS], taken[MAX_STEPS];
  int steps = 0, side = pos->turn;
  piece[0] = pos->board[XQ_FROM(move)];
  origin[0] = XQ_FROM(move);
  for (;;) {
    int id = piece[steps];
    taken[steps] = pos->board[target];
    pos->board[origin[steps]] = 0;
    pos->board[target] = (uint8_t)id;
    pos->square[id] = (uint8_t)target;
    if (taken[steps]) pos->square[taken[steps]] = 0;
    steps++;
    side ^= 1;
    int cheapest = cheapest_attacker(pos, target, side);
    if (!cheapest || steps == MAX_STEPS) break;
    piece[steps] = pos->board[cheapest];
    origin[steps] = cheapest;
  }
  /* Back from the last capture: each after the first is made only when
     it pays; the board is put back on the way. */
  int score = 0;
  for (int i = steps - 1; i >= 0; i--) {
    int id = piece[i];
    int value = taken[i] ? piece_value[xq_kind_table[taken[i]]] : 0;
    score = value - score;
    if (i > 0 && score < 0) score = 0;
    pos->board[target] = (uint8_t)taken[i];
    if (taken[i]) pos->square[taken[i]] = (uint8_t)target;
    pos->board[origin[i]] = (uint8_t)id;
    pos->square[id] = (uint8_t)origin[i];
  }
  return score;
}

/* Whether a capture can lose material: a cheaper victim than the piece
   that takes it, when the exchange that follows says so. */
static bool losing_capture(xq_position *pos, xq_move m) {
  int piece = pos->board[XQ_FROM(m)], victim = pos->board[XQ_TO(m)];
  if (piece_value[xq_kind_table[victim]] >=
      piece_value[xq_kind_table[piece]])
    return false;
  return see(pos, m) < 0;
}

/* ---- move ordering ---- */

/* How a quiet move did before: in this search, and after the moves one
   and two plies before it. */
static int quiet_score(const searcher *s, int ply, int key) {
  int score = s->history[key];
  if (ply >= 1 && s->row[ply - 1]) score += s->row[ply - 1][key];
  if (ply >= 2 && s->row[ply - 2]) score += s->row[ply - 2][key];
  return score;
}

/* Gives each move its ordering value: the table's move, captures that do
   not lose by the exchange (the most valuable victim first, then the
   cheapest attacker), killers, quiet moves by their histories, then the
   captures that lose. */
static void order(searcher *s, const xq_move *moves, int *values, int n,
                  xq_move table_move, int ply) {
  xq_position *pos = s->pos;
  for (int i = 0; i < n; i++) {
    xq_move m = moves[i];
    int piece = pos->board[XQ_FROM(m)], victim = pos->board[XQ_TO(m)];
    if (m == table_move) {
      values[i] = ORDER_TABLE;
    } else if (victim) {
      int mvv = piece_value[xq_kind_table[victim]] * 16 -
                piece_value[xq_kind_table[piece]] / 64;
      values[i] = ORDER_CAPTURE + mvv;  /* until pick finds it losing */
    } else if (m == s->killers[ply][0]) {
      values[i] = ORDER_KILLER + 1;
    } else if (m == s->killers[ply][1]) {
      values[i] = ORDER_KILLER;
    } else {
      values[i] = quiet_score(s, ply, move_key(pos, m));
    }
  }
}

/* Brings the best of moves i.. to i.  A capture is looked at when its
   turn comes (most nodes cut off before that): one that loses by the
   exchange goes back among the others with a losing capture's value. */
static void pick(xq_position *pos, xq_move *moves, int *values, int n, int i,
                 bool exchanges) {
  for (;;) {
    int best = i;
    for (int j = i + 1; j < n; j++)
      if (values[j] > values[best]) best = j;
    xq_move m = moves[i];
    int v = values[i];
    moves[i] = moves[best];
    values[i] = values[best];
    moves[best] = m;
    values[best] = v;
    if (!exchanges || values[i] < ORDER_CAPTURE || values[i] >= ORDER_TABLE ||
        !losing_capture(pos, moves[i]))
      return;
    values[i] += ORDER_BAD_CAPTURE - ORDER_CAPTURE;
  }
}

static void update_pv(searcher *s, int ply, xq_move move) {
  s->pv[ply][0] = move;
  int child = s->pv_length[ply + 1];
  memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)child * sizeof(xq_move));
  s->pv_length[ply] = child + 1;
}

/* ---- the search ---- */

/* Whether a quiet move puts the piece where its kind attacks the enemy
   general: a chariot or cannon on its file or rank, a horse a jump away,
   a soldier beside it or in front (discovered checks and a cannon's
   screen arriving are not looked for). */
static bool may_check(const xq_position *pos, xq_move m) {
  int id = pos->board[XQ_FROM(m)], to = XQ_TO(m);
  int king = pos->square[XQ_KING_ID(xq_side_of(id) ^ 1)];
  int df = abs(xq_file(to) - xq_file(king)), dr = abs(xq_rank(to) - xq_rank(king));
  switch (xq_kind_table[id]) {
  case XQ_ROOK:
  case XQ_CANNON: return df == 0 || dr == 0;
  case XQ_HORSE: return (df == 1 && dr == 2) || (df == 2 && dr == 1);
  case XQ_PAWN: return df + dr == 1;
  default: return false;
  }
}

static int quiesce(searcher *s, int ply, int alpha, int beta, bool checks) {
  xq_position *pos = s->pos;
  s->pv_length[ply] = 0;
  if (ply > s->seldepth) s->seldepth = ply;
  if (limit_tick(s->limit)) return 0;
  if (ply >= XQ_MAX_PLY) return evaluate(s);
  bool in_check = xq_in_check(pos);
  int best = -INFINITE;
  if (!in_check) {
    best = evaluate(s);
    if (best >= beta) return best;
    if (best > alpha) alpha = best;
  }
  xq_move moves[XQ_MAX_MOVES];
  int values[XQ_MAX_MOVES];
  int n = in_check ? xq_pseudo_moves(pos, moves) : xq_pseudo_captures(pos, moves);
  order(s, moves, values, n, 0, ply);
  int legal = 0;
  for (int i = 0; i < n; i++) {
    pick(pos, moves, values, n, i, false);
    if (!in_check) {
      int victim = pos->board[XQ_TO(moves[i])];
      /* a capture that cannot lift the score to alpha, or that loses
         material by the exchange, is not tried */
      if (best + piece_value[xq_kind_table[victim]] + DELTA_MARGIN <= alpha)
        continue;
      if (losing_capture(pos, moves[i])) continue;
    }
    if (!xq_move_is_safe(pos, moves[i], in_check)) continue;
    legal++;
    xq_undo undo;
    s->row[ply] = NULL;
    xq_make(pos, moves[i], &undo);
    int score = -quiesce(s, ply + 1, -beta, -alpha, false);
    xq_unmake(pos, moves[i], &undo);
    if (s->limit->stopped) return 0;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        update_pv(s, ply, moves[i]);
      }
      if (score >= beta) break;
    }
  }
  if (in_check && legal == 0) return -(GAME_SCORE_WIN - ply);
  /* At the horizon, the quiet checks that do not lose the checking piece
     too: the mating attacks of horses and cannons are made of them. */
  if (checks && !in_check && best < beta) {
    n = xq_pseudo_moves(pos, moves);
    for (int i = 0; i < n; i++) {
      xq_move m = moves[i];
      if (pos->board[XQ_TO(m)] || !may_check(pos, m)) continue;
      if (!xq_move_is_safe(pos, m, false) || see(pos, m) < 0) continue;
      xq_undo undo;
      s->row[ply] = NULL;
      xq_make(pos, m, &undo);
      if (!xq_in_check(pos)) {
        xq_unmake(pos, m, &undo);
        continue;
      }
      int score = -quiesce(s, ply + 1, -beta, -alpha, false);
      xq_unmake(pos, m, &undo);
      if (s->limit->stopped) return 0;
      if (score > best) {
        best = score;
        if (score > alpha) {
          alpha = score;
          update_pv(s, ply, m);
        }
        if (score >= beta) break;
      }
    }
  }
  return best;
}

/* Whether the side to move has enough pieces that passing is no
   danger: zugzwang is common in xiangqi endings. */
static bool may_pass(const xq_position *pos) {
  int base = 16 << pos->turn, weight = 0;
  for (int slot = 5; slot <= 10; slot++)
    if (pos->square[base + slot])
      weight += xq_kind_table[base + slot] == XQ_ROOK ? 2 : 1;
  return weight >= 2;
}

static bool near_mate(int score) {
  return score > MATE_BOUND || score < -MATE_BOUND;
}

/* Moves a history entry by delta, less as it nears its ceiling (history
   "gravity"). */
static void nudge(int16_t *h, int delta) {
  int v = *h + delta - *h * (delta < 0 ? -delta : delta) / HISTORY_CAP;
  *h = (int16_t)(v > HISTORY_CAP ? HISTORY_CAP : v < -HISTORY_CAP ? -HISTORY_CAP : v);
}

/* Rewards the quiet move that cut off and punishes the quiet moves
   tried before it, in the history and after the moves before. */
static void update_history(searcher *s, int ply, int depth, xq_move best,
                           const xq_move *tried, int n_tried) {
  const xq_position *pos = s->pos;
  int bonus = depth > 16 ? 256 : depth * depth;
  if (s->killers[ply][0] != best) {
    s->killers[ply][1] = s->killers[ply][0];
    s->killers[ply][0] = best;
  }
  for (int i = 0; i < n_tried; i++) {
    int key = move_key(pos, tried[i]);
    int delta = tried[i] == best ? bonus : -bonus;
    nudge(&s->history[key], delta);
    if (ply >= 1 && s->row[ply - 1]) nudge(&s->row[ply - 1][key], delta);
    if (ply >= 2 && s->row[ply - 2]) nudge(&s->row[ply - 2][key], delta);
  }
}

static bool root_allows(const searcher *s, xq_move move) {
  for (int i = 0; i < s->root_count; i++)
    if (s->root_moves[i] == move) return true;
  return false;
}

static int alphabeta(searcher *s, int depth, int ply, int alpha, int beta,
                     bool pass_ok) {
  xq_position *pos = s->pos;
  s->pv_length[ply] = 0;
  if (ply > s->seldepth) s->seldepth = ply;
  if (limit_tick(s->limit)) return 0;
  bool pv_node = beta - alpha > 1;
  if (ply > 0) {
    int value;
    if (xq_repeats(pos, &value))
      return value == 0 ? 0 : value > 0 ? REPETITION_LOSS : -REPETITION_LOSS;
    if ((pos->rules & XQ_RULE_MOVE_LIMIT) && pos->quiet >= XQ_NO_CAPTURE_LIMIT)
      return 0;
    int mating = GAME_SCORE_WIN - ply;     /* nothing beats mating now */
    if (alpha < -mating) alpha = -mating;
    if (beta > mating - 1) beta = mating - 1;
    if (alpha >= beta) return alpha;
  }
  bool in_check = xq_in_check(pos);
  if (depth <= 0 || ply >= XQ_MAX_PLY) return quiesce(s, ply, alpha, beta, true);

  xq_move table_move = 0, excluded = s->excluded[ply];
  const tt_entry *entry = table_probe(s->tt, pos->key);
  int table_score = 0, table_depth = -1;
  tt_bound table_bound = TT_EMPTY;
  if (entry) {
    table_move = (xq_move)entry->move;
    int score = score_from_table(entry->score, ply);
    table_score = score;
    table_depth = entry->depth;
    table_bound = (tt_bound)entry->bound;
    /* no cutoff in a PV node, so the line it returns is whole; none in
       the search without a move, whose entry is the whole node's */
    if (ply > 0 && !pv_node && !excluded && entry->depth >= depth &&
        (entry->bound == TT_EXACT ||
         (entry->bound == TT_LOWER && score >= beta) ||
         (entry->bound == TT_UPPER && score <= alpha)))
      return score;
  }

  int static_eval = in_check ? -INFINITE : evaluate(s);
  s->eval[ply] = static_eval;
  /* better than two plies ago: the side is making progress, and its
     moves deserve a closer look */
  bool improving = !in_check && ply >= 2 && static_eval > s->eval[ply - 2];
  bool prune = !pv_node && !in_check && ply > 0 && !near_mate(beta) &&
               !near_mate(alpha);
  /* the search without the table's move looks at the node's moves, not
     at the node: no cut before them */
  bool early = prune && !excluded;
  /* Reverse futility: far enough above beta that a few plies of quiet
     moves will not bring it down. */
  if (early && depth <= RFP_DEPTH &&
      static_eval - RFP_MARGIN * (depth - improving) >= beta)
    return static_eval;
  /* Razoring: far below alpha, only captures can save it. */
  if (early && depth <= 2 && static_eval + RAZOR_MARGIN * depth <= alpha) {
    int score = quiesce(s, ply, alpha, alpha + 1, false);
    if (s->limit->stopped) return 0;
    if (score <= alpha) return score;
  }
  if (early && pass_ok && depth >= 2 && static_eval >= beta && may_pass(pos)) {
    int reduce = 3 + depth / 4;
    xq_undo undo;
    s->row[ply] = NULL;
    xq_make_null(pos, &undo);
    int score = -alphabeta(s, depth - 1 - reduce, ply + 1, -beta, -beta + 1, false);
    xq_unmake_null(pos, &undo);
    if (s->limit->stopped) return 0;
    if (score >= beta) {
      /* near the end zugzwang is likely: verify with a real search */
      if (depth < NULL_VERIFY_DEPTH) return near_mate(score) ? beta : score;
      score = alphabeta(s, depth - 1 - reduce, ply, beta - 1, beta, false);
      if (s->limit->stopped) return 0;
      if (score >= beta) return score;
    }
  }
  /* no move from the table: a shallower search costs little less */
  if (!table_move && !excluded && depth >= 4 && (pv_node || depth >= 6)) depth--;

  xq_move moves[XQ_MAX_MOVES], tried[XQ_MAX_MOVES];
  int values[XQ_MAX_MOVES];
  int n = xq_pseudo_moves(pos, moves);
  order(s, moves, values, n, table_move, ply);
  int alpha_before = alpha, best = -INFINITE, legal = 0, n_tried = 0;
  xq_move best_move = 0;
  bool futile = prune && depth <= FUTILITY_DEPTH &&
                static_eval + FUTILITY_MARGIN * depth + 60 <= alpha;
  /* quiet moves tried before the rest are pruned */
  int late = improving ? 3 + depth * depth : (3 + depth * depth) / 2 + 1;
  for (int i = 0; i < n; i++) {
    pick(pos, moves, values, n, i, true);
    xq_move m = moves[i];
    if (ply == 0 && !root_allows(s, m)) continue;
    if (m == excluded) continue;
    if (!xq_move_is_safe(pos, m, in_check)) continue;
    legal++;
    /* Singular extension: when the table's move, known good to a depth
       near this one, is the only move that holds (every other fails
       low by a margin in a shallower search), it gets a ply more.  When
       the others hold too and even they beat beta, the node is cut. */
    int singular = 0;
    if (m == table_move && ply > 0 && depth >= SINGULAR_DEPTH && !excluded &&
        table_bound != TT_UPPER && table_depth >= depth - 3 &&
        !near_mate(table_score)) {
      int singular_beta = table_score - SINGULAR_MARGIN * depth;
      s->excluded[ply] = m;
      int score = alphabeta(s, depth / 2, ply, singular_beta - 1, singular_beta,
                            false);
      s->excluded[ply] = 0;
      if (s->limit->stopped) return 0;
      if (score < singular_beta) singular = 1;
      else if (singular_beta >= beta) return singular_beta;
    }
    bool quiet = pos->board[XQ_TO(m)] == 0;
    bool special = values[i] >= ORDER_KILLER;
    /* what the move leaves en prise, for the pruning of shallow nodes */
    bool shallow = prune && depth <= SEE_DEPTH && legal > 1 && best > -MATE_BOUND;
    int exchange = 0;
    if (shallow && values[i] < ORDER_TABLE &&
        (!quiet || xq_attacked(pos, XQ_TO(m), pos->turn ^ 1)))
      exchange = see(pos, m);
    int key = move_key(pos, m);
    xq_undo undo;
    s->row[ply] = s->follow[key];
    xq_make(pos, m, &undo);
    bool gives_check = xq_in_check(pos);
    if (shallow && !gives_check &&
        ((quiet && !special &&
          (futile || (depth <= LMP_DEPTH && legal > late) ||
           exchange < -SEE_QUIET_MARGIN * depth * depth)) ||
         (!quiet && exchange < -SEE_CAPTURE_MARGIN * depth))) {
      xq_unmake(pos, m, &undo);
      continue;
    }
    if (quiet) tried[n_tried++] = m;
    /* A check that does not lose material is looked at a ply deeper
       (checks are everywhere in xiangqi: extending the sacrifices too
       would make the tree explode). */
    int next = depth - 1 + singular;
    if (gives_check && !singular) {
      if (!shallow || values[i] >= ORDER_TABLE) {
        xq_unmake(pos, m, &undo);
        exchange = see(pos, m);
        xq_make(pos, m, &undo);
      }
      if (exchange >= 0) next++;
    }
    int score;
    if (legal == 1) {
      score = -alphabeta(s, next, ply + 1, -beta, -alpha, true);
    } else {
      /* Once a mate is in hand, the moves after it are searched whole:
         a reduced one could hide a nearer mate, and an iteration that
         finds a mate within its depth ends the search. */
      int reduce = 0;
      if (depth >= 3 && quiet && !gives_check && !in_check && !near_mate(alpha)) {
        reduce = s->reductions[depth < XQ_MAX_PLY ? depth : XQ_MAX_PLY]
                              [legal < XQ_MAX_MOVES ? legal : XQ_MAX_MOVES - 1];
        if (pv_node) reduce--;
        if (special) reduce--;
        if (!improving) reduce++;
        if (!special) reduce -= values[i] / HISTORY_REDUCTION;
        if (reduce < 0) reduce = 0;
        if (reduce > next - 1) reduce = next - 1;
      }
      score = -alphabeta(s, next - reduce, ply + 1, -alpha - 1, -alpha, true);
      if (reduce && score > alpha && !s->limit->stopped)
        score = -alphabeta(s, next, ply + 1, -alpha - 1, -alpha, true);
      if (score > alpha && score < beta && !s->limit->stopped)
        score = -alphabeta(s, next, ply + 1, -beta, -alpha, true);
    }
    xq_unmake(pos, m, &undo);
    if (s->limit->stopped) return 0;
    if (score > best) {
      best = score;
      best_move = m;
      if (score > alpha) {
        alpha = score;
        update_pv(s, ply, m);
        if (ply == 0) {
          s->root_best = m;
          s->root_score = score;
        }
      }
      if (score >= beta) {
        if (quiet) update_history(s, ply, depth, m, tried, n_tried);
        break;
      }
    }
  }
  if (legal == 0)                                  /* mated or stalemated */
    return excluded ? alpha : -(GAME_SCORE_WIN - ply);
  if (best == -INFINITE) return alpha;             /* every move pruned */
  if (excluded) return best;
  tt_bound bound = best <= alpha_before ? TT_UPPER
                 : best >= beta ? TT_LOWER : TT_EXACT;
  if (ply > 0 || !s->root_restricted)
    table_store(s->tt, pos->key, depth, bound, score_to_table(best, ply),
                bound == TT_UPPER ? 0 : best_move);
  return best;
}

static void age_history(searcher *s) {
  for (int key = 0; key < MOVE_KEYS; key++) s->history[key] /= 2;
}

/* The legal moves among those the options ask for; every legal move
   when they ask for none, or for none that is legal. */
static int root_moves(const xq_position *pos, const xq_search_options *options,
                      xq_move *out) {
  xq_move legal[XQ_MAX_MOVES];
  int n = xq_legal_moves(pos, legal), count = 0;
  for (int i = 0; options->root_moves && i < n; i++)
    for (int j = 0; j < options->root_move_count; j++)
      if (legal[i] == options->root_moves[j]) {
        out[count++] = legal[i];
        break;
      }
  if (count > 0) return count;
  memcpy(out, legal, (size_t)n * sizeof *out);
  return n;
}

/* Searches the root to depth; from ASPIRATION_DEPTH on, in a window
   around the last iteration's score, widened until the score is in it. */
static int search_root(searcher *s, int depth, int previous) {
  if (depth < ASPIRATION_DEPTH || near_mate(previous))
    return alphabeta(s, depth, 0, -INFINITE, INFINITE, false);
  int delta = ASPIRATION_WINDOW;
  int alpha = previous - delta, beta = previous + delta;
  for (;;) {
    int score = alphabeta(s, depth, 0, alpha, beta, false);
    if (s->limit->stopped) return score;
    if (score <= alpha) alpha = score - delta > -INFINITE ? score - delta : -INFINITE;
    else if (score >= beta) beta = score + delta < INFINITE ? score + delta : INFINITE;
    else return score;
    delta *= 2;
  }
}

/* Whether a line starts with move. */
static bool starts_a_line(const xq_search_line *lines, int n, xq_move move) {
  for (int i = 0; i < n; i++)
    if (lines[i].pv[0] == move) return true;
  return false;
}

/* Whether no deeper iteration can change a line: each is a mate found
   within the horizon, which cannot hide a nearer one. */
static bool settled(const xq_search_result *result, int depth) {
  for (int i = 0; i < result->line_count; i++) {
    int score = result->lines[i].score;
    if (!near_mate(score) || GAME_SCORE_WIN - abs(score) > depth) return false;
  }
  return true;
}

static void set_best(xq_search_result *result, const xq_search_line *line) {
  result->best = line->pv[0];
  result->score = line->score;
  result->pv_length = line->pv_length;
  memcpy(result->pv, line->pv, (size_t)line->pv_length * sizeof(xq_move));
}

/* What an iteration cut short by the limit adds, having completed `done`
   lines: those replace the lines of the iteration before (and push out
   the ones with the same first move).  With none done, a best move it
   found searching the last best move first is at least as good. */
static void keep_stopped(searcher *s, xq_search_result *result, int done) {
  if (done == 0) {
    if (s->root_best == 0) return;
    xq_search_line partial = {.score = s->root_score, .pv_length = 1,
                              .pv = {s->root_best}};
    if (s->pv_length[0] > 0) {
      partial.pv_length = s->pv_length[0];
      memcpy(partial.pv, s->pv[0], (size_t)s->pv_length[0] * sizeof(xq_move));
    }
    set_best(result, &partial);
    return;
  }
  int count = done;
  for (int i = 0; i < result->line_count && count < result->line_count; i++)
    if (!starts_a_line(s->fresh, done, result->lines[i].pv[0]))
      s->fresh[count++] = result->lines[i];
  memcpy(result->lines, s->fresh, (size_t)count * sizeof *s->fresh);
  result->line_count = count;
  result->seldepth = s->seldepth;
  set_best(result, &result->lines[0]);
}

void xq_search(xq_position *pos, const xq_search_options *options,
               search_limit *limit, xq_search_result *result) {
  memset(result, 0, sizeof *result);
  uint64_t nodes_before = limit->nodes;
  xq_move allowed[XQ_MAX_MOVES];
  int allowed_count = root_moves(pos, options, allowed);
  if (allowed_count == 0) {
    result->score = -GAME_SCORE_WIN;
    return;
  }
  result->best = allowed[0];         /* whatever happens, a legal move */
  searcher *s = calloc(1, sizeof *s);
  continuation *follow = calloc(MOVE_KEYS, sizeof *follow);
  tt_table *own = options->tt ? NULL : tt_new(DEFAULT_TABLE_MIB);
  if (!s || !follow || (!options->tt && !own)) {
    free(s);
    free(follow);
    tt_free(own);
    return;
  }
  s->follow = follow;
  s->pos = pos;
  s->weights = options->weights ? options->weights : xq_weights;
  s->limit = limit;
  for (int d = 1; d <= XQ_MAX_PLY; d++)
    for (int m = 1; m < XQ_MAX_MOVES; m++)
      s->reductions[d][m] = (uint8_t)(0.75 + log(d) * log(m) / 2.25);
  s->tt = options->tt ? options->tt : own;
  int max_depth = options->max_depth;
  if (max_depth <= 0 || max_depth > XQ_MAX_PLY) max_depth = XQ_MAX_PLY;
  int lines = options->lines < 1 ? 1 : options->lines;
  if (lines > allowed_count) lines = allowed_count;
  xq_move legal[XQ_MAX_MOVES];
  bool restricted = allowed_count < xq_legal_moves(pos, legal);
  /* The first iteration always completes, so that even a search stopped
     at once answers with a move that looked one ply ahead. */
  search_limit whole = *limit;
  whole.interrupt = NULL;
  whole.stop = NULL;
  whole.max_nodes = 0;
  whole.max_seconds = 0;
  int previous[XQ_MAX_LINES] = {0};
  for (int depth = 1; depth <= max_depth; depth++) {
    s->limit = depth == 1 ? &whole : limit;
    s->seldepth = 0;
    int done = 0;
    for (; done < lines; done++) {
      /* the line after the better ones: without their first moves */
      s->root_count = 0;
      for (int i = 0; i < allowed_count; i++)
        if (!starts_a_line(s->fresh, done, allowed[i]))
          s->root_moves[s->root_count++] = allowed[i];
      s->root_restricted = restricted || done > 0;
      s->root_best = 0;
      int score = search_root(s, depth, previous[done]);
      if (s->limit->stopped) break;
      previous[done] = score;
      xq_search_line *line = &s->fresh[done];
      line->score = score;
      line->pv_length = s->pv_length[0];
      memcpy(line->pv, s->pv[0], (size_t)s->pv_length[0] * sizeof(xq_move));
      if (line->pv_length == 0) {      /* cannot be, but a line has a move */
        line->pv_length = 1;
        line->pv[0] = s->root_best ? s->root_best : s->root_moves[0];
      }
    }
    if (depth == 1) limit->nodes = whole.nodes;
    if (limit->stopped) {
      keep_stopped(s, result, done);
      break;
    }
    result->depth = depth;
    result->seldepth = s->seldepth;
    result->line_count = lines;
    memcpy(result->lines, s->fresh, (size_t)lines * sizeof *s->fresh);
    set_best(result, &result->lines[0]);
    result->nodes = limit->nodes - nodes_before;
    if (options->iteration && !options->iteration(options->data, result)) break;
    if (settled(result, depth)) break;
    age_history(s);
  }
  result->nodes = limit->nodes - nodes_before;
  tt_free(own);
  free(follow);
  free(s);
}
