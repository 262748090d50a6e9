/*
** eval.c: the evaluation, in centipawns for the side to move.
**
** What classical xiangqi engines weigh, each term a middlegame and an
** endgame value blended by the game phase (the chariots, horses and
** cannons left on the board):
**
** - material and piece-square tables, by piece, from its own side's view
**   (the tables are ours: soldiers gain as they near the palace, horses
**   like the points that reach it, chariots the ranks near the enemy's
**   back rank and the ribs (d and f files), a cannon its own centre file);
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
*/
#include "xiangqi.h"
#include "internal.h"

enum { MG, EG };

/* Material by kind: general, advisor, elephant, horse, chariot, cannon,
   soldier. */
static const int material[2][XQ_KINDS] = {
  {0, 120, 120, 270, 600, 290, 30},
  {0, 130, 130, 300, 640, 260, 40},
};

/* Placement by kind, [rank][file] from the piece's own side: rank 0 its
   back rank, rank 9 the enemy's. */
typedef signed char table[10][9];

static const table pawn_table = {
  {0, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, -2, 0, 4, 0, -2, 0, 0},
  {2, 0, 8, 0, 10, 0, 8, 0, 2},
  {10, 18, 22, 35, 40, 35, 22, 18, 10},
  {20, 27, 40, 50, 55, 50, 40, 27, 20},
  {20, 30, 50, 65, 70, 65, 50, 30, 20},
  {20, 30, 45, 55, 55, 55, 45, 30, 20},
  {0, 3, 6, 10, 15, 10, 6, 3, 0},
};

static const table horse_table = {
  {-6, -10, -2, -6, -6, -6, -2, -10, -6},
  {-4, -2, 2, 0, -10, 0, 2, -2, -4},
  {2, 0, 8, 4, 8, 4, 8, 0, 2},
  {0, 2, 8, 8, 8, 8, 8, 2, 0},
  {0, 8, 12, 14, 16, 14, 12, 8, 0},
  {2, 10, 16, 18, 20, 18, 16, 10, 2},
  {4, 18, 14, 24, 16, 24, 14, 18, 4},
  {4, 10, 28, 20, 14, 20, 28, 10, 4},
  {0, 8, 16, 22, 6, 22, 16, 8, 0},
  {0, -4, 0, 2, 0, 2, 0, -4, 0},
};

static const table rook_table = {
  {-6, 6, 4, 12, 0, 12, 4, 6, -6},
  {5, 8, 6, 12, 0, 12, 6, 8, 5},
  {-2, 8, 4, 12, 12, 12, 4, 8, -2},
  {4, 9, 4, 12, 14, 12, 4, 9, 4},
  {8, 12, 12, 14, 15, 14, 12, 12, 8},
  {8, 11, 11, 14, 15, 14, 11, 11, 8},
  {6, 13, 13, 16, 16, 16, 13, 13, 6},
  {6, 8, 7, 14, 16, 14, 7, 8, 6},
  {6, 12, 9, 16, 30, 16, 9, 12, 6},
  {6, 8, 7, 13, 14, 13, 7, 8, 6},
};

static const table cannon_table = {
  {0, 0, 2, 6, 6, 6, 2, 0, 0},
  {0, 2, 4, 6, 6, 6, 4, 2, 0},
  {4, 0, 8, 6, 14, 6, 8, 0, 4},
  {0, 0, 0, 2, 4, 2, 0, 0, 0},
  {-2, 0, 4, 2, 6, 2, 4, 0, -2},
  {0, 0, 0, 2, 8, 2, 0, 0, 0},
  {0, 0, -2, 4, 10, 4, -2, 0, 0},
  {2, 2, 0, -6, -4, -6, 0, 2, 2},
  {2, 2, 0, -4, -10, -4, 0, 2, 2},
  {6, 4, 0, -6, -8, -6, 0, 4, 6},
};

static const table king_table = {
  {0, 0, 0, -6, 4, -6, 0, 0, 0},
  {0, 0, 0, -12, -8, -12, 0, 0, 0},
  {0, 0, 0, -24, -20, -24, 0, 0, 0},
};

static const table guard_table = {          /* advisors and elephants */
  {0, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, 0, 0, 3, 0, 0, 0, 0},
  {-2, 0, 0, -2, 3, -2, 0, 0, -2},
  {0, 0, 0, 0, 0, 0, 0, 0, 0},
  {0, 0, -3, 0, 0, 0, -3, 0, 0},
};

/* The danger to a general from the weight of the attack on it. */
static const int danger_table[16] = {
  0, 0, 6, 14, 24, 36, 50, 66, 84, 104, 126, 150, 176, 204, 234, 266
};

#define PHASE_MAX 48                /* 6 a chariot, 3 a horse or cannon */
#define TEMPO 10
#define HORSE_MOBILITY 6
#define ROOK_MOBILITY 2
#define CANNON_MOBILITY 1
#define TRAPPED_HORSE 20           /* a horse with no move at all */
#define CONNECTED_SOLDIERS 12
#define CONNECTED_ROOKS 14
#define EMPTY_CANNON 80            /* on the general's file, nothing between */
#define FILE_CANNON 24             /* there, two pieces between */
#define PINNING_ROOK 20
#define HORSE_ON_PALACE 14         /* each palace point a horse reaches */

static const int orthogonal[4] = {16, -16, 1, -1};
/* A horse's eight jumps, each with its leg (the point beside it). */
static const int horse_jump[8] = {33, 31, 18, 14, -14, -18, -31, -33};
static const int horse_leg[8] = {16, 16, 1, -1, 1, -1, -16, -16};

static int own_rank(int side, int square) {
  return side == XQ_RED ? xq_rank(square) : 9 - xq_rank(square);
}

static int placement(int kind, int side, int square) {
  int r = own_rank(side, square), f = xq_file(square);
  switch (kind) {
  case XQ_PAWN: return pawn_table[r][f];
  case XQ_HORSE: return horse_table[r][f];
  case XQ_ROOK: return rook_table[r][f];
  case XQ_CANNON: return cannon_table[r][f];
  case XQ_KING: return r < 3 ? king_table[r][f] : -40;
  default: return r < 5 ? guard_table[r][f] : 0;
  }
}

typedef struct terms {
  int mg[2], eg[2];
  int attack[2];                   /* the weight of side's attack */
  int attackers[2];                /* how many pieces make it */
  bool can_win[2];                 /* side has a piece that can attack */
} terms;

static void add(terms *t, int side, int mg, int eg) {
  t->mg[side] += mg;
  t->eg[side] += eg;
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
    if (p == XQ_OFF || (p & mine)) continue;
    moves++;
    if (xq_point[to] & XQ_PALACE(enemy)) palace_hits++;
  }
  add(t, side, HORSE_MOBILITY * moves - (moves == 0 ? TRAPPED_HORSE : 0),
      HORSE_MOBILITY * moves - (moves == 0 ? TRAPPED_HORSE : 0));
  if (palace_hits) {
    add(t, side, HORSE_ON_PALACE * palace_hits, 0);
    t->attack[side] += 2;
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
  int enemy = side ^ 1, moves = 0;
  for (int i = 0; i < 4; i++) {
    int d = orthogonal[i], s = sq + d;
    while (b[s] == 0) {
      moves++;
      s += d;
    }
    if (kind == XQ_ROOK && b[s] != XQ_OFF && !(b[s] & (16 << side))) moves++;
    if (kind == XQ_CANNON && b[s] != XQ_OFF) {
      s += d;
      while (b[s] == 0) s += d;
      if (b[s] != XQ_OFF && !(b[s] & (16 << side))) moves++;
    }
  }
  if (kind == XQ_ROOK) add(t, side, ROOK_MOBILITY * moves, ROOK_MOBILITY * moves);
  else add(t, side, CANNON_MOBILITY * moves, 0);

  int king = pos->square[XQ_KING_ID(enemy)];
  bool near = own_rank(enemy, sq) <= 4 || xq_file(sq) == xq_file(king);
  if (near) {
    t->attack[side] += kind == XQ_ROOK ? 3 : 2;
    t->attackers[side]++;
  }
  if (xq_file(sq) != xq_file(king)) return;
  int d = xq_rank(king) > xq_rank(sq) ? 16 : -16, between = 0;
  for (int s = sq + d; s != king; s += d)
    if (b[s]) between++;
  if (kind == XQ_CANNON) {
    if (between == 0) add(t, side, EMPTY_CANNON, EMPTY_CANNON / 2);
    else if (between == 2) add(t, side, FILE_CANNON, FILE_CANNON / 2);
  } else if (between == 1) {
    add(t, side, PINNING_ROOK, PINNING_ROOK);
  }
}

int xq_evaluate(const xq_position *pos) {
  terms t = {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {false, false}};
  int phase = 0, guards[2] = {0, 0};
  for (int id = 16; id < 48; id++) {
    int sq = pos->square[id];
    if (!sq) continue;
    int side = xq_side_of(id);
    int kind = xq_kind_table[id];
    int place = placement(kind, side, sq);
    add(&t, side, material[MG][kind] + place, material[EG][kind] + place);
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
      if (own_rank(side, sq) >= 5) {
        t.can_win[side] = true;
        add(&t, side, 0, 20);
        if (near_palace(side ^ 1, sq)) {
          t.attack[side] += 1;
          t.attackers[side]++;
        }
        int right = pos->board[sq + 1];
        if (right && (right & (16 << side)) == (16 << side) &&
            xq_kind_table[right] == XQ_PAWN)
          add(&t, side, CONNECTED_SOLDIERS, CONNECTED_SOLDIERS);
      }
      break;
    case XQ_ADVISOR:
    case XQ_ELEPHANT:
      guards[side]++;
      break;
    default:
      break;
    }
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
    if (s == c) add(&t, side, CONNECTED_ROOKS, CONNECTED_ROOKS / 2);
  }
  /* king safety: the attack on each general, worse without its guards */
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    int enemy = side ^ 1, weight = t.attack[enemy];
    if (t.attackers[enemy] < 2) weight /= 2;
    weight += weight * (4 - guards[side]) / 4;
    if (weight > 15) weight = 15;
    add(&t, side, -danger_table[weight], -danger_table[weight] / 4);
  }
  if (phase > PHASE_MAX) phase = PHASE_MAX;
  int score[2];
  for (int side = XQ_RED; side <= XQ_BLACK; side++)
    score[side] = (t.mg[side] * phase + t.eg[side] * (PHASE_MAX - phase)) /
                  PHASE_MAX;
  int me = pos->turn, other = me ^ 1;
  int value = score[me] - score[other] + TEMPO;
  /* nothing left to attack with: no win to play for */
  if (value > 0 && !t.can_win[me]) value /= 8;
  if (value < 0 && !t.can_win[other]) value /= 8;
  return value;
}
