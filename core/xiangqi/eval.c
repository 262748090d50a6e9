/*
** eval.c: the evaluation, in centipawns for the side to move.
**
** What classical xiangqi engines weigh, each term a middlegame and an
** endgame value blended by the game phase (the chariots, horses and
** cannons left on the board):
**
** - material and piece-square tables, by piece, from its own side's view
**   (soldiers gain as they near the palace, horses like the points that
**   reach it, chariots the ranks near the enemy's back rank and the ribs,
**   a cannon its own centre file);
** - mobility of chariots, horses (legs blocked count against them) and
**   cannons;
** - king safety: the enemy chariots, horses, cannons and soldiers near the
**   palace, weighed more when advisors and elephants are missing; a cannon
**   on the general's file (with nothing between: the "empty-headed
**   cannon", worst of all), a chariot pinning on it, horses that reach
**   palace points;
** - soldiers across the river side by side, chariots that see each other;
** - a side with nothing left that can attack (no chariot, horse, cannon
**   or soldier across the river) cannot win: its advantage shrinks.
**
** The numbers are the weights of eval.h (weights.c), fitted to games by
** tools/train_xiangqi.c.
*/
#include <string.h>

#include "eval.h"
#include "internal.h"

const xq_weight_block xq_weight_blocks[] = {
  {"material (middlegame)", XQ_W_MATERIAL_MG, XQ_KINDS},
  {"material (endgame)", XQ_W_MATERIAL_EG, XQ_KINDS},
  {"soldier placement", XQ_W_PAWN_TABLE, XQ_TABLE_SIZE},
  {"horse placement", XQ_W_HORSE_TABLE, XQ_TABLE_SIZE},
  {"chariot placement", XQ_W_ROOK_TABLE, XQ_TABLE_SIZE},
  {"cannon placement", XQ_W_CANNON_TABLE, XQ_TABLE_SIZE},
  {"general placement", XQ_W_KING_TABLE, 6},
  {"advisor and elephant placement", XQ_W_GUARD_TABLE, 25},
  {"horse mobility", XQ_W_HORSE_MOBILITY, 2},
  {"chariot mobility", XQ_W_ROOK_MOBILITY, 2},
  {"cannon mobility", XQ_W_CANNON_MOBILITY, 2},
  {"trapped horse", XQ_W_TRAPPED_HORSE, 2},
  {"soldier across the river", XQ_W_CROSSED_SOLDIER, 2},
  {"connected soldiers", XQ_W_CONNECTED_SOLDIERS, 2},
  {"connected chariots", XQ_W_CONNECTED_ROOKS, 2},
  {"empty-headed cannon", XQ_W_EMPTY_CANNON, 2},
  {"cannon on the general's file", XQ_W_FILE_CANNON, 2},
  {"pinning chariot", XQ_W_PINNING_ROOK, 2},
  {"horse on palace points", XQ_W_HORSE_ON_PALACE, 2},
  {"danger (middlegame)", XQ_W_DANGER_MG, XQ_DANGER_STEPS},
  {"danger (endgame)", XQ_W_DANGER_EG, XQ_DANGER_STEPS},
  {"threat by a cheaper piece (middlegame)", XQ_W_THREAT_BY_LESSER, XQ_KINDS},
  {"threat by a cheaper piece (endgame)", XQ_W_THREAT_BY_LESSER + XQ_KINDS,
   XQ_KINDS},
  {"hanging piece (middlegame)", XQ_W_THREAT_HANGING, XQ_KINDS},
  {"hanging piece (endgame)", XQ_W_THREAT_HANGING + XQ_KINDS, XQ_KINDS},
  {"tempo", XQ_W_TEMPO, 1},
  {NULL, 0, 0},
};

static const int orthogonal[4] = {16, -16, 1, -1};
/* A horse's eight jumps, each with its leg (the point beside it). */
static const int horse_jump[8] = {33, 31, 18, 14, -14, -18, -31, -33};
static const int horse_leg[8] = {16, 16, 1, -1, 1, -1, -16, -16};
static const int diagonals[4] = {17, 15, -15, -17};




static int own_rank(int side, int square) {
  return side == XQ_RED ? xq_rank(square) : 9 - xq_rank(square);
}

/* The placement weight of a piece: its table's entry for its rank and
   its file from the nearer edge. */
static int placement(int kind, int side, int square) {
  int r = own_rank(side, square), f = xq_file(square);
  if (f > 4) f = 8 - f;
  switch (kind) {
  case XQ_PAWN: return XQ_W_PAWN_TABLE + r * 5 + f;
  case XQ_HORSE: return XQ_W_HORSE_TABLE + r * 5 + f;
  case XQ_ROOK: return XQ_W_ROOK_TABLE + r * 5 + f;
  case XQ_CANNON: return XQ_W_CANNON_TABLE + r * 5 + f;
  case XQ_KING: return XQ_W_KING_TABLE + r * 2 + (f - 3);
  default: return XQ_W_GUARD_TABLE + r * 5 + f;
  }
}

typedef struct terms {
  const int16_t *w;
  xq_eval_trace *trace;
  int turn;
  int mg[2], eg[2];
  int attack[2];                   /* the weight of side's attack */
  int attackers[2];                /* how many pieces make it */
  bool can_win[2];                 /* side has a piece that can attack */
  /* The pieces each side attacks: by square, the rank (rank_of) of its
     cheapest piece that could take there, 0 for none. */
  uint8_t takes[2][256];
} terms;

/* Kinds in the order of their worth, cheapest first. */
static const uint8_t rank_of[XQ_KINDS] = {6, 2, 2, 3, 5, 4, 1};

/* Side's piece of kind could take what stands on square. */
static inline void mark(terms *t, int side, int square, int kind) {
  uint8_t *r = &t->takes[side][square];
  if (!*r || rank_of[kind] < *r) *r = rank_of[kind];
}

/* Counts weights mg and eg (an index each) n times for side. */
static inline void add(terms *t, int side, int mg, int eg, int n) {
  t->mg[side] += t->w[mg] * n;
  t->eg[side] += t->w[eg] * n;
  if (t->trace) {
    int signed_n = side == t->turn ? n : -n;
    t->trace->mg[mg] += signed_n;
    t->trace->eg[eg] += signed_n;
  }
}

/* A weight with its middlegame and endgame values side by side. */
static inline void add_pair(terms *t, int side, int first, int n) {
  add(t, side, first, first + 1, n);
}

/* Whether square is in the palace of side or next to it, on its side of
   the river: where attackers hurt. */
static bool near_palace(int side, int square) {
  int f = xq_file(square), r = own_rank(side, square);
  return f >= 2 && f <= 6 && r <= 3;
}

static void horse_terms(const xq_position *pos, terms *t, int side, int sq) {
  const uint8_t *b = pos->board;
  int enemy = side ^ 1, mine = 16 << side, moves = 0, palace_hits = 0;
  for (int i = 0; i < 8; i++) {
    if (b[sq + horse_leg[i]] != 0) continue;
    int to = sq + horse_jump[i], p = b[to];
    if (p == XQ_OFF) continue;
    if (p) mark(t, side, to, XQ_HORSE);
    if (p & mine) continue;
    moves++;
    if (xq_point[to] & XQ_PALACE(enemy)) palace_hits++;
  }
  add_pair(t, side, XQ_W_HORSE_MOBILITY, moves);
  if (moves == 0) add_pair(t, side, XQ_W_TRAPPED_HORSE, 1);
  if (palace_hits) {
    add_pair(t, side, XQ_W_HORSE_ON_PALACE, palace_hits);
    t->attack[side] += 1 + palace_hits;
    t->attackers[side]++;
  } else if (own_rank(enemy, sq) <= 4) {
    t->attack[side] += 1;
  }
}

/* Chariots and cannons: mobility, and what they do to the enemy general
   on its file. */
static void slider_terms(const xq_position *pos, terms *t, int side, int sq,
                         int kind) {
  const uint8_t *b = pos->board;
  int enemy = side ^ 1, moves = 0, hits = 0, palace = XQ_PALACE(enemy);
  /* moves, and the enemy palace's points the piece attacks */
  for (int i = 0; i < 4; i++) {
    int d = orthogonal[i], s = sq + d;
    while (b[s] == 0) {
      moves++;
      if (kind == XQ_ROOK && (xq_point[s] & palace)) hits++;
      s += d;
    }
    if (kind == XQ_ROOK && b[s] != XQ_OFF) {
      mark(t, side, s, XQ_ROOK);
      if (!(b[s] & (16 << side))) moves++;
      if (xq_point[s] & palace) hits++;
    }
    if (kind == XQ_CANNON && b[s] != XQ_OFF) {
      for (s += d; b[s] == 0; s += d)
        if (xq_point[s] & palace) hits++;
      if (b[s] != XQ_OFF) {
        mark(t, side, s, XQ_CANNON);
        if (!(b[s] & (16 << side))) moves++;
        if (xq_point[s] & palace) hits++;
      }
    }
  }
  add_pair(t, side, kind == XQ_ROOK ? XQ_W_ROOK_MOBILITY : XQ_W_CANNON_MOBILITY,
           moves);

  int king = pos->square[XQ_KING_ID(enemy)];
  bool near = own_rank(enemy, sq) <= 4 || xq_file(sq) == xq_file(king);
  if (near || hits) {
    t->attack[side] += (near ? (kind == XQ_ROOK ? 3 : 2) : 0) + hits;
    t->attackers[side]++;
  }
  if (xq_file(sq) != xq_file(king)) return;
  int d = xq_rank(king) > xq_rank(sq) ? 16 : -16, between = 0;
  for (int s = sq + d; s != king; s += d)
    if (b[s]) between++;
  if (kind == XQ_CANNON) {
    if (between == 0) add_pair(t, side, XQ_W_EMPTY_CANNON, 1);
    else if (between == 2) add_pair(t, side, XQ_W_FILE_CANNON, 1);
  } else if (between == 1) {
    add_pair(t, side, XQ_W_PINNING_ROOK, 1);
  }
}

/* What the general, advisors, elephants and soldiers could take. */
static void guard_marks(const xq_position *pos, terms *t, int side, int sq,
                        int kind) {
  const uint8_t *b = pos->board;
  switch (kind) {
  case XQ_KING:
    for (int i = 0; i < 4; i++) {
      int to = sq + orthogonal[i];
      if (b[to] && (xq_point[to] & XQ_PALACE(side))) mark(t, side, to, kind);
    }
    break;
  case XQ_ADVISOR:
    for (int i = 0; i < 4; i++) {
      int to = sq + diagonals[i];
      if (b[to] && (xq_point[to] & XQ_PALACE(side))) mark(t, side, to, kind);
    }
    break;
  case XQ_ELEPHANT:
    for (int i = 0; i < 4; i++) {
      int to = sq + 2 * diagonals[i];
      if (b[sq + diagonals[i]] == 0 && b[to] && (xq_point[to] & XQ_HALF(side)))
        mark(t, side, to, kind);
    }
    break;
  default: {                        /* soldier: ahead, and aside once across */
    int ahead = sq + (side == XQ_RED ? 16 : -16);
    if (b[ahead] && b[ahead] != XQ_OFF) mark(t, side, ahead, kind);
    if (!(xq_point[sq] & XQ_HALF(side))) {
      if (b[sq + 1] && b[sq + 1] != XQ_OFF) mark(t, side, sq + 1, kind);
      if (b[sq - 1] && b[sq - 1] != XQ_OFF) mark(t, side, sq - 1, kind);
    }
    break;
  }
  }
}

static inline int evaluate(const xq_position *pos, const int16_t *w,
                           xq_eval_trace *trace) {
  terms t;
  t.w = w;
  t.trace = trace;
  t.turn = pos->turn;
  t.mg[0] = t.mg[1] = t.eg[0] = t.eg[1] = 0;
  t.attack[0] = t.attack[1] = t.attackers[0] = t.attackers[1] = 0;
  t.can_win[0] = t.can_win[1] = false;
  memset(t.takes, 0, sizeof t.takes);
  int phase = 0, guards[2] = {0, 0};
  for (int id = 16; id < 48; id++) {
    int sq = pos->square[id];
    if (!sq) continue;
    int side = xq_side_of(id);
    int kind = xq_kind_table[id];
    int place = placement(kind, side, sq);
    add(&t, side, XQ_W_MATERIAL_MG + kind, XQ_W_MATERIAL_EG + kind, 1);
    add(&t, side, place, place, 1);
    switch (kind) {
    case XQ_ROOK:
      phase += 6;
      t.can_win[side] = true;
      slider_terms(pos, &t, side, sq, kind);
      break;
    case XQ_CANNON:
      phase += 3;
      t.can_win[side] = true;
      slider_terms(pos, &t, side, sq, kind);
      break;
    case XQ_HORSE:
      phase += 3;
      t.can_win[side] = true;
      horse_terms(pos, &t, side, sq);
      break;
    case XQ_PAWN:
      guard_marks(pos, &t, side, sq, kind);
      if (own_rank(side, sq) >= 5) {
        t.can_win[side] = true;
        add_pair(&t, side, XQ_W_CROSSED_SOLDIER, 1);
        if (near_palace(side ^ 1, sq)) {
          t.attack[side] += 1;
          t.attackers[side]++;
        }
        int right = pos->board[sq + 1];
        if (right && (right & (16 << side)) == (16 << side) &&
            xq_kind_table[right] == XQ_PAWN)
          add_pair(&t, side, XQ_W_CONNECTED_SOLDIERS, 1);
      }
      break;
    case XQ_ADVISOR:
    case XQ_ELEPHANT:
      guards[side]++;
      guard_marks(pos, &t, side, sq, kind);
      break;
    default:
      guard_marks(pos, &t, side, sq, kind);
      break;
    }
  }
  /* The side to move's pieces under attack: by a cheaper piece, or by
     any when nothing guards them.  (The other side's are the captures
     the search tries.) */
  int me = pos->turn;
  for (int id = (16 << me) + 1; id < (16 << me) + 16; id++) {
    int sq = pos->square[id];
    if (!sq) continue;
    int by = t.takes[me ^ 1][sq];
    if (!by) continue;
    int kind = xq_kind_table[id];
    if (by < rank_of[kind])
      add(&t, me, XQ_W_THREAT_BY_LESSER + kind,
          XQ_W_THREAT_BY_LESSER + XQ_KINDS + kind, 1);
    else if (!t.takes[me][sq])
      add(&t, me, XQ_W_THREAT_HANGING + kind,
          XQ_W_THREAT_HANGING + XQ_KINDS + kind, 1);
  }
  /* two chariots that see each other guard each other */
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    int a = pos->square[(16 << side) + 7], c = pos->square[(16 << side) + 8];
    if (!a || !c) continue;
    int d = 0;
    if (xq_rank(a) == xq_rank(c)) d = xq_file(c) > xq_file(a) ? 1 : -1;
    else if (xq_file(a) == xq_file(c)) d = xq_rank(c) > xq_rank(a) ? 16 : -16;
    if (!d) continue;
    int s = a + d;
    while (pos->board[s] == 0) s += d;
    if (s == c) add_pair(&t, side, XQ_W_CONNECTED_ROOKS, 1);
  }
  /* king safety: the attack on each general, worse without its guards */
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    int enemy = side ^ 1, weight = t.attack[enemy];
    if (t.attackers[enemy] < 2) weight /= 2;
    weight += weight * (4 - guards[side]) / 4;
    if (weight >= XQ_DANGER_STEPS) weight = XQ_DANGER_STEPS - 1;
    add(&t, side, XQ_W_DANGER_MG + weight, XQ_W_DANGER_EG + weight, 1);
  }
  if (phase > XQ_PHASE_MAX) phase = XQ_PHASE_MAX;
  int score[2];
  for (int side = XQ_RED; side <= XQ_BLACK; side++)
    score[side] = (t.mg[side] * phase + t.eg[side] * (XQ_PHASE_MAX - phase)) /
                  XQ_PHASE_MAX;
  int other = me ^ 1;
  int value = score[me] - score[other] + w[XQ_W_TEMPO];
  if (trace) {
    trace->mg[XQ_W_TEMPO]++;            /* in both halves: weighs 1 */
    trace->eg[XQ_W_TEMPO]++;
    trace->phase = phase;
  }
  /* nothing left to attack with: no win to play for */
  if ((value > 0 && !t.can_win[me]) || (value < 0 && !t.can_win[other])) {
    value /= 8;
    if (trace) trace->scaled = true;
  }
  return value;
}

int xq_evaluate(const xq_position *pos) {
  return evaluate(pos, xq_weights, NULL);
}

int xq_evaluate_with(const xq_position *pos, const int16_t *weights,
                     xq_eval_trace *trace) {
  if (trace) memset(trace, 0, sizeof *trace);
  return evaluate(pos, weights, trace);
}
