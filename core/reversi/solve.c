/*
** solve.c: the exact endgame solver.
**
** MTD(f) at the root: a series of null-window searches closing in on the
** score, so the negamax below (alpha-beta, fail-soft) only ever sees
** null windows, and each search re-uses the table of the ones before.
** From 18 empties, a selective pass of the same search comes first, to
** leave good moves near the root in the table (solve_position).
** Far from the end (more than SHALLOW empties) a node tries the table's
** best move first, and only when that does not cut takes the others
** fastest first, by the replies they leave the opponent; it cuts when
** the opponent's stable discs already hold the score below alpha, where
** alpha is high enough for that to be likely (so do the nodes of 5 and
** 6 empties).  The table holds positions of 10 empties or more; those
** of 7 to 9 go to a small one that stays in the cache.  With many
** empties, a shallow search of the evaluation refines the order;
** near the start a move whose position mirrors a sibling's is skipped; a
** child the table already holds beyond the window cuts at once.  Near the
** end, move generation costs more than it saves: a node tries the empty
** squares directly, those in a quadrant with an odd number of empties
** first (parity: the last move of a region is worth having), corners
** before the squares next to them; the last four squares have code of
** their own.  The last empty square is counted without playing it (on
** 8x8, from tables of its four lines).
*/
#define _DEFAULT_SOURCE         /* madvise's MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "solve.h"

#define INF 65                  /* beyond every score */
#define STABLE_FROM 5           /* from this many empties on, the
                                   stability cut-off (FFO #40-#49: 14%
                                   fewer nodes, 5% less time; from 4, 24%
                                   fewer nodes and no less time) */
#define SHALLOW 6               /* at most this many empties: no ordering */
#define TABLE_MIN 10            /* at least this many: use the table (7
                                   and 8 saved 6% and 12% of the nodes on
                                   FFO #41-#46 and cost more time: a probe
                                   often waits for memory) */
#define NEAR_MIN 7              /* NEAR_MIN to TABLE_MIN - 1: the small
                                   table, which stays in the cache */
#define NEAR_LOG2 15            /* its slots, at most (24 bytes each) */
#define BUCKET_WAYS 3           /* positions in a bucket of the table */
#define SORT_DEPTHS 5           /* ordering searches go 0 to 4 plies deep */
#define ALL_MARGIN 20           /* a move that far (discs) above beta by the
                                   ordering search: its position will most
                                   likely fail low, trying every move, and
                                   skips its own ordering search */
#define SELECTIVE_FROM 18       /* from this many empties, a selective
                                   pass before the exact one */
#define SELECTIVE_MARGIN 6      /* discs beyond the window, by the ordering
                                   search, that end a node in that pass */
#define COARSE_FROM 26          /* from this many (8x8), a coarser pass first */
#define COARSE_MARGIN 12        /* its margin */

#define COLUMN_A 0x0101010101010101u
#define COLUMN_H 0x8080808080808080u
#define ROW_1 0x00000000000000ffu
#define ROW_8 0xff00000000000000u

/* What the table knows of a position. */
typedef struct entry {
  int8_t lower, upper;          /* bounds on the exact score */
  uint8_t move;                 /* the best move found */
  uint8_t empties;              /* 0: the slot is free */
} entry;

/* A slot of the small table: one position, replaced by the next. */
typedef struct near_slot {
  uint64_t player, opponent;
  entry data;
} near_slot;

/* Three positions in one cache line: a probe reads one line, which the
   search prefetches while it orders the moves. */
typedef struct bucket {
  uint64_t player[BUCKET_WAYS], opponent[BUCKET_WAYS];
  entry data[BUCKET_WAYS];
  uint8_t solve[BUCKET_WAYS];   /* the solve that stored each position */
  uint8_t unused;
} bucket;

_Static_assert(sizeof(bucket) == 64, "a bucket is one cache line");

struct reversi_solver {
  bucket *table;
  uint64_t buckets;
  near_slot *near;              /* the small table */
  int near_shift;               /* 64 - log2 of its slots */
  uint64_t mask;                /* the board the table holds */
  int squares;                  /* popcount(mask) */
  int size;                     /* 4, 6 or 8 */
  const int8_t *sort_from;      /* from sort_from[d] empties on, the moves
                                   are ordered by a search d plies deep
                                   (SORT_DEPTHS entries, increasing) */
  int sort_weight;              /* of the fastest-first key against it */
  uint64_t corners;             /* of this board size */
  uint64_t order[3];            /* square classes, best first (the rest
                                   comes last) */
  uint8_t solve;                /* counts the solves, modulo 256 */
  int margin;                   /* in the selective pass, SELECTIVE_MARGIN;
                                   0 in the exact one */
  search_limit *limit;
};

/* ---- stability ---- */

/* The squares of set spread along one line direction, both ways, over
   any square: steps of 1, 2 and 4 squares (reaching 7), each kept to the
   squares it can land on without jumping an edge (up: the squares a step
   of n towards higher bits lands on; down: towards lower bits). */
static inline uint64_t spread(uint64_t set, int n, uint64_t up, uint64_t down) {
  uint64_t up2 = up & up << n, up4 = up2 & up2 << 2 * n;
  uint64_t down2 = down & down >> n, down4 = down2 & down2 >> 2 * n;
  uint64_t a = set | (set << n & up), b = set | (set >> n & down);
  a |= a << 2 * n & up2;
  b |= b >> 2 * n & down2;
  return a | (a << 4 * n & up4) | b | (b >> 4 * n & down4);
}

uint64_t reversi_stable(uint64_t player, uint64_t opponent, uint64_t mask) {
  /* A line with no empty square stays as it is in that direction; the
     squares outside the board count as full. */
  uint64_t empty = ~(player | opponent) & mask;
  uint64_t h = spread(empty, 1, ~COLUMN_A, ~COLUMN_H);
  uint64_t v = spread(empty, 8, ~(uint64_t)0, ~(uint64_t)0);
  uint64_t d9 = spread(empty, 9, ~COLUMN_A, ~COLUMN_H);
  uint64_t d7 = spread(empty, 7, ~COLUMN_H, ~COLUMN_A);
  uint64_t border = COLUMN_A | COLUMN_H | ROW_1 | ROW_8;
  uint64_t full_h = ~h | COLUMN_A | COLUMN_H, full_v = ~v | ROW_1 | ROW_8;
  uint64_t full_d9 = ~d9 | border, full_d7 = ~d7 | border;
  /* A disc is stable when, in each direction, its line is full or one of
     its two neighbours is a stable disc of its colour or off the board.
     Growing from the discs whose four lines are full reaches the
     largest such set. */
  uint64_t stable = player & full_h & full_v & full_d9 & full_d7 & mask;
  for (;;) {
    uint64_t a = stable | ~mask;
    uint64_t next = player & mask & (full_h | a << 1 | a >> 1) &
                    (full_v | a << 8 | a >> 8) & (full_d9 | a << 9 | a >> 9) &
                    (full_d7 | a << 7 | a >> 7);
    if (next == stable) return stable;
    stable = next;
  }
}

/* ---- the table ---- */

reversi_solver *reversi_solver_new(int log2_entries) {
  if (log2_entries < 2 || log2_entries > 30) return NULL;
  reversi_solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->buckets = ((uint64_t)1 << log2_entries) / BUCKET_WAYS;
  /* On huge pages where the system has them: a probe lands anywhere in
     the table, and with small pages nearly every one missed the TLB too. */
  size_t bytes = s->buckets * sizeof *s->table;
  size_t huge = (size_t)1 << 21;
  size_t rounded = bytes >= huge ? (bytes + huge - 1) & ~(huge - 1) : bytes;
  s->table = aligned_alloc(rounded >= huge ? huge : 64, rounded);
  if (!s->table) {
    free(s);
    return NULL;
  }
#ifdef MADV_HUGEPAGE
  if (rounded >= huge) madvise(s->table, rounded, MADV_HUGEPAGE);
#endif
  memset(s->table, 0, bytes);
  int near_log2 = log2_entries < NEAR_LOG2 ? log2_entries : NEAR_LOG2;
  s->near_shift = 64 - near_log2;
  s->near = calloc((size_t)1 << near_log2, sizeof *s->near);
  if (!s->near) {
    free(s->table);
    free(s);
    return NULL;
  }
  return s;
}

void reversi_solver_free(reversi_solver *s) {
  if (!s) return;
  free(s->table);
  free(s->near);
  free(s);
}

static inline uint64_t hash(uint64_t p, uint64_t o) {
  return (p * 0x9e3779b97f4a7c15u) ^ (o * 0xc2b2ae3d27d4eb4fu);
}

/* The bucket of a position: a hash of it scaled to the bucket count. */
static bucket *bucket_of(const reversi_solver *s, uint64_t p, uint64_t o) {
  uint64_t key = hash(p, o);
  key ^= key >> 29;
  return s->table + (uint64_t)(((unsigned __int128)key * s->buckets) >> 64);
}

/* The slot of a position of NEAR_MIN to TABLE_MIN - 1 empties in the
   small table: one way, the newest position replacing the one there.
   Such a position that comes back at all mostly comes back soon (a
   transposition of nearby moves), so a table that stays in the cache
   holds most of what is worth holding, and a probe seldom waits for
   memory: FFO #40-#49 581.8 M -> 543.9 M nodes, medians 22.1 s -> 21.0
   s (the big table from 7 or 8 empties saved nodes but cost time). */
static near_slot *slot_of(const reversi_solver *s, uint64_t p, uint64_t o) {
  return s->near + (hash(p, o) >> s->near_shift);
}

static const entry *probe(const reversi_solver *s, int n, uint64_t p, uint64_t o) {
  if (n < TABLE_MIN) {
    const near_slot *t = slot_of(s, p, o);
    return t->player == p && t->opponent == o && t->data.empties ? &t->data : NULL;
  }
  const bucket *b = bucket_of(s, p, o);
  for (int i = 0; i < BUCKET_WAYS; i++)
    if (b->player[i] == p && b->opponent[i] == o && b->data[i].empties)
      return &b->data[i];
  return NULL;
}

/* Records that the score is at least lower and at most upper, keeping
   what the table knew.  A bucket gives way first to a position of this
   solve over one of an earlier solve (of another position mostly, that
   will not come again: with the deeper kept, the deep positions of the
   problems before held their slots for good), then to the deeper. */
static void store(reversi_solver *s, uint64_t p, uint64_t o, int empties,
                  int lower, int upper, int move) {
  if (empties < TABLE_MIN) {
    near_slot *t = slot_of(s, p, o);
    if (t->player == p && t->opponent == o && t->data.empties) {
      if (t->data.lower > lower) lower = t->data.lower;
      if (t->data.upper < upper) upper = t->data.upper;
    }
    *t = (near_slot){p, o, {(int8_t)lower, (int8_t)upper, (uint8_t)move,
                            (uint8_t)empties}};
    return;
  }
  bucket *b = bucket_of(s, p, o);
  int slot = -1;
  for (int i = 0; i < BUCKET_WAYS && slot < 0; i++)
    if (b->player[i] == p && b->opponent[i] == o && b->data[i].empties)
      slot = i;
  entry *e;
  if (slot >= 0) {
    e = &b->data[slot];
    if (e->lower > lower) lower = e->lower;
    if (e->upper < upper) upper = e->upper;
  } else {
    int depth[BUCKET_WAYS];     /* 0: free or of an earlier solve */
    for (int i = 0; i < BUCKET_WAYS; i++)
      depth[i] = b->solve[i] == s->solve ? b->data[i].empties : 0;
    slot = 0;
    for (int i = 1; i < BUCKET_WAYS; i++)
      if (depth[i] < depth[slot]) slot = i;
    b->player[slot] = p;
    b->opponent[slot] = o;
    e = &b->data[slot];
  }
  e->lower = (int8_t)lower;
  e->upper = (int8_t)upper;
  e->move = (uint8_t)move;
  e->empties = (uint8_t)empties;
  b->solve[slot] = s->solve;
}

void reversi_solver_clear(reversi_solver *s) {
  memset(s->table, 0, s->buckets * sizeof *s->table);
  memset(s->near, 0, ((size_t)1 << (64 - s->near_shift)) * sizeof *s->near);
  s->solve = 0;                 /* as a new solver counts */
}

/* Square classes of a size: corners, then the other squares away from
   the corners, then the edge squares next to a corner; the squares
   diagonally next to a corner come last. */
static void use_board(reversi_solver *s, uint64_t mask) {
  if (s->mask == mask) return;
  if (s->mask) reversi_solver_clear(s);   /* a new table is clean already */
  s->mask = mask;
  s->squares = __builtin_popcountll(mask);
  int size = 0;
  while (size * size < s->squares) size++;
  s->size = size;
  /* Ordering by the evaluation pays on 6x6 from 14 empties (2.5 times
     fewer nodes at 26 empties).  On 8x8 with the classic evaluation it
     paid only from 18 (FFO #40-#49: 3.49 G nodes, 265 s -> 2.59 G, 209
     s), fastest first with its corner terms ordering the smaller trees
     better, and a search one ply deeper, with fastest first weighing
     twice as much, did better again (2.03 G nodes, 150 s).  With the
     trained evaluation, ordering from 14 empties pays on 8x8 too (FFO
     #20-#39, weights from a first 2,000 games: 119 M nodes; from 16
     empties 2% more, from 18 11%; fastest first at half its weight 10%
     more, at 1.5 times 4%; a search one ply deeper everywhere 25%
     more).  Then shallower searches than the classic evaluation wanted,
     from 12 empties on, save nodes again: FFO #20-#39 95.8 M -> 81.0 M,
     #41-#45 260 M -> 239 M (of the twelve tables tried; their
     neighbours do within 3%).  Since the small table and the stability
     threshold, the evaluation's order from 13 empties rather than 12
     costs 1.3% more nodes but saves more time in evaluations (FFO
     #40-#49 570.0 M -> 577.5 M nodes; from 14, 597.3 M). */
  static const int8_t small[SORT_DEPTHS] = {14, 16, 20, 24, 127};
  static const int8_t large[SORT_DEPTHS] = {13, 16, 19, 22, 26};
  s->sort_from = size < 8 ? small : large;
  s->sort_weight = size < 8 ? 8 : 16;
  int first = (8 - size) / 2, last = first + size - 1;
  uint64_t corners = 0, c_squares = 0, x_squares = 0;
  int ends[2] = {first, last}, steps[2] = {1, -1};
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      int row = ends[i], col = ends[j];
      corners |= (uint64_t)1 << (row * 8 + col);
      c_squares |= (uint64_t)1 << (row * 8 + col + steps[j]);
      c_squares |= (uint64_t)1 << ((row + steps[i]) * 8 + col);
      x_squares |= (uint64_t)1 << ((row + steps[i]) * 8 + col + steps[j]);
    }
  s->corners = corners;
  s->order[0] = corners;
  s->order[1] = mask & ~(corners | c_squares | x_squares);
  s->order[2] = c_squares;
}

/* ---- the last empty squares ---- */

static int final_diff(uint64_t p, uint64_t o, int empties) {
  int diff = __builtin_popcountll(p) - __builtin_popcountll(o);
  return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
}

/* On a full 8x8 board but for one square, a disc there turns along each
   line what lies between it and the nearest disc of its colour, every
   other square being the opponent's: line_flips[i][line] counts them for
   a disc at place i of a line of 8 whose discs of its colour are line.
   A diagonal is read as a line of 8 whose missing places hold no disc of
   that colour, so they never end a run.  Made once before main. */
static uint8_t line_flips[8][256];

/* The column and the two diagonals through each square, and the place
   of the square on each diagonal counted from its lowest square. */
static struct {
  uint64_t column, diagonal_9, diagonal_7;
  uint8_t place_9, place_7;
} lines_of[64];

__attribute__((constructor)) static void make_last_flips(void) {
  for (int i = 0; i < 8; i++)
    for (int line = 0; line < 256; line++) {
      int n = 0;
      for (int step = -1; step <= 1; step += 2) {
        int j = i + step, run = 0;
        while (j >= 0 && j < 8 && !(line >> j & 1)) j += step, run++;
        if (j >= 0 && j < 8) n += run;
      }
      line_flips[i][line] = (uint8_t)n;
    }
  for (int sq = 0; sq < 64; sq++) {
    int row = sq / 8, col = sq % 8;
    lines_of[sq].column = COLUMN_A << col;
    lines_of[sq].place_9 = (uint8_t)(row < col ? row : col);
    lines_of[sq].place_7 = (uint8_t)(row + col > 7 ? 7 - col : row);
    for (int other = 0; other < 64; other++) {
      int dr = other / 8 - row, dc = other % 8 - col;
      if (dr == dc) lines_of[sq].diagonal_9 |= (uint64_t)1 << other;
      if (dr == -dc) lines_of[sq].diagonal_7 |= (uint64_t)1 << other;
    }
  }
}

/* How many discs a disc of p on square turns when every other square of
   the 8x8 board is full: the row shifted down, the column and diagonals
   gathered by a bit extract where it is fast (the Makefile says when the
   build has it), else by multiplies that leave the squares of a column
   in reverse order and those of a diagonal at their columns. */
static inline int last_flips(uint64_t p, int square) {
  int row = square >> 3, col = square & 7;
  unsigned across = (unsigned)(p >> (8 * row)) & 0xff;
#ifdef __BMI2__
  return line_flips[col][across] +
         line_flips[row][_pext_u64(p, lines_of[square].column)] +
         line_flips[lines_of[square].place_9][_pext_u64(p, lines_of[square].diagonal_9)] +
         line_flips[lines_of[square].place_7][_pext_u64(p, lines_of[square].diagonal_7)];
#else
  unsigned down = (unsigned)((((p >> col) & COLUMN_A) * 0x8040201008040201u) >> 56);
  unsigned d9 = (unsigned)(((p & lines_of[square].diagonal_9) * COLUMN_A) >> 56);
  unsigned d7 = (unsigned)(((p & lines_of[square].diagonal_7) * COLUMN_A) >> 56);
  return line_flips[col][across] + line_flips[7 - row][down] +
         line_flips[col][d9] + line_flips[col][d7];
#endif
}

/* The squares next to each square, and the quadrant of each square as
   a bit of a parity mask (quadrants with an odd number of empties).
   Made once before main. */
static uint64_t neighbour[64];
static uint8_t quadrant[64];
/* For the odd places (odd_places) of a list of four squares, the places
   in order, two bits each: the odd ones first, each group in list
   order. */
static uint8_t odd_first[16];

__attribute__((constructor)) static void make_neighbours(void) {
  for (int sq = 0; sq < 64; sq++) {
    neighbour[sq] = reversi_neighbours((uint64_t)1 << sq);
    quadrant[sq] = (uint8_t)(1 << ((sq >> 5 & 1) * 2 + (sq >> 2 & 1)));
  }
  for (unsigned odd = 0; odd < 16; odd++) {
    unsigned order = 0, k = 0;
    for (unsigned round = 0; round < 2; round++)
      for (unsigned i = 0; i < 4; i++)
        if ((odd >> i & 1) != round) order |= i << 2 * k++;
    odd_first[odd] = (uint8_t)order;
  }
}

/* Bit i set when the square at byte i of list lies in a quadrant of
   parity (n squares).  Unrolled: gcc kept the loop of the last four
   squares' call (FFO #41-#42: 0.7% of the instructions). */
static inline unsigned odd_places(uint64_t list, int n, unsigned parity) {
  unsigned odd = 0;
#pragma GCC unroll 8
  for (int i = 0; i < n; i++)
    odd |= (unsigned)((quadrant[list >> 8 * i & 0xff] & parity) != 0) << i;
  return odd;
}

/* One empty square of a board smaller than 8x8. */
static int last_one_small(uint64_t p, uint64_t o, int square) {
  int diff = __builtin_popcountll(p) - __builtin_popcountll(o), n;
  n = o & neighbour[square] ? __builtin_popcountll(reversi_flips(p, o, square)) : 0;
  if (n) return diff + 2 * n + 1;
  n = p & neighbour[square] ? __builtin_popcountll(reversi_flips(o, p, square)) : 0;
  if (n) return diff - 2 * n - 1;
  return diff > 0 ? diff + 1 : diff < 0 ? diff - 1 : 0;
}

/* One empty square: whoever can play there does, or the game ends.
   Inline everywhere: a call costs more than a count (gcc left it out of
   line in the last two squares' code). */
__attribute__((always_inline)) static inline int
last_one(const reversi_solver *s, uint64_t p, uint64_t o, int square) {
  if (s->squares < 64) return last_one_small(p, o, square);
  int diff = 2 * __builtin_popcountll(p) - 63, n;   /* o: every other square */
  if ((n = last_flips(p, square))) return diff + 2 * n + 1;
  if ((n = last_flips(o, square))) return diff - 2 * n - 1;
  return diff > 0 ? diff + 1 : diff - 1;
}

/* The last two, three and four empty squares are written out square by
   square, on a null window (alpha, alpha + 1): no loop, no swap of the
   sides, each square's test and flips once (FFO #41-#42: the same
   nodes, 5.4% fewer instructions than the loops over the squares and the
   sides they replace).  A move of p at x, the board as its opponent
   sees it after. */
#define AFTER(p, o, flips, x) (o) & ~(flips), (p) | (flips) | (uint64_t)1 << (x)

/* Two empty squares, x first.  After a pass the opponent's replies are
   both counted (a cut-off there would change the bounds the table
   learns).  Inline in the three squares' code: the calls cost 1.7% of
   the instructions (FFO #41-#42). */
__attribute__((always_inline)) static inline int
last_two(reversi_solver *s, uint64_t p, uint64_t o, int x, int y, int alpha) {
  s->limit->nodes++;
  uint64_t flips;
  int best = -INF, score;
  if (o & neighbour[x] && (flips = reversi_flips(p, o, x))) {
    best = -last_one(s, AFTER(p, o, flips, x), y);
    if (best > alpha) return best;
  }
  if (o & neighbour[y] && (flips = reversi_flips(p, o, y))) {
    score = -last_one(s, AFTER(p, o, flips, y), x);
    return score > best ? score : best;
  }
  if (best > -INF) return best;
  best = INF;                                   /* p passes */
  if (p & neighbour[x] && (flips = reversi_flips(o, p, x)))
    best = last_one(s, AFTER(o, p, flips, x), y);
  if (p & neighbour[y] && (flips = reversi_flips(o, p, y))) {
    score = last_one(s, AFTER(o, p, flips, y), x);
    if (score < best) best = score;
  }
  return best < INF ? best : final_diff(p, o, 2);
}

/* Three empty squares, tried in the order given; after x the other two
   go (y, z), after y (z, x), after z (x, y). */
static int last_three(reversi_solver *s, uint64_t p, uint64_t o, int x,
                      int y, int z, int alpha) {
  s->limit->nodes++;
  uint64_t flips;
  int best = -INF, score;
  if (o & neighbour[x] && (flips = reversi_flips(p, o, x))) {
    best = -last_two(s, AFTER(p, o, flips, x), y, z, -alpha - 1);
    if (best > alpha) return best;
  }
  if (o & neighbour[y] && (flips = reversi_flips(p, o, y))) {
    score = -last_two(s, AFTER(p, o, flips, y), z, x, -alpha - 1);
    if (score > best && (best = score) > alpha) return best;
  }
  if (o & neighbour[z] && (flips = reversi_flips(p, o, z))) {
    score = -last_two(s, AFTER(p, o, flips, z), x, y, -alpha - 1);
    return score > best ? score : best;
  }
  if (best > -INF) return best;
  best = INF;                                   /* p passes */
  if (p & neighbour[x] && (flips = reversi_flips(o, p, x))) {
    best = last_two(s, AFTER(o, p, flips, x), y, z, alpha);
    if (best <= alpha) return best;
  }
  if (p & neighbour[y] && (flips = reversi_flips(o, p, y))) {
    score = last_two(s, AFTER(o, p, flips, y), z, x, alpha);
    if (score < best && (best = score) <= alpha) return best;
  }
  if (p & neighbour[z] && (flips = reversi_flips(o, p, z))) {
    score = last_two(s, AFTER(o, p, flips, z), x, y, alpha);
    if (score < best) best = score;
  }
  return best < INF ? best : final_diff(p, o, 3);
}

/* Four empty squares of list, one a byte.  When two share a quadrant and
   the other two are alone in theirs, those two come first (parity);
   every other case has all four odd or all four even.  After each
   square the other three keep their order. */
static int last_four(reversi_solver *s, uint64_t p, uint64_t o,
                     uint64_t list, unsigned parity, int alpha) {
  unsigned order = odd_first[odd_places(list, 4, parity)];
  int a = list >> 8 * (order & 3) & 0xff, b = list >> 8 * (order >> 2 & 3) & 0xff;
  int c = list >> 8 * (order >> 4 & 3) & 0xff, d = list >> 8 * (order >> 6) & 0xff;
  s->limit->nodes++;
  uint64_t flips;
  int best = -INF, score;
  if (o & neighbour[a] && (flips = reversi_flips(p, o, a))) {
    best = -last_three(s, AFTER(p, o, flips, a), b, c, d, -alpha - 1);
    if (best > alpha) return best;
  }
  if (o & neighbour[b] && (flips = reversi_flips(p, o, b))) {
    score = -last_three(s, AFTER(p, o, flips, b), a, c, d, -alpha - 1);
    if (score > best && (best = score) > alpha) return best;
  }
  if (o & neighbour[c] && (flips = reversi_flips(p, o, c))) {
    score = -last_three(s, AFTER(p, o, flips, c), a, b, d, -alpha - 1);
    if (score > best && (best = score) > alpha) return best;
  }
  if (o & neighbour[d] && (flips = reversi_flips(p, o, d))) {
    score = -last_three(s, AFTER(p, o, flips, d), a, b, c, -alpha - 1);
    return score > best ? score : best;
  }
  if (best > -INF) return best;
  best = INF;                                   /* p passes */
  if (p & neighbour[a] && (flips = reversi_flips(o, p, a))) {
    best = last_three(s, AFTER(o, p, flips, a), b, c, d, alpha);
    if (best <= alpha) return best;
  }
  if (p & neighbour[b] && (flips = reversi_flips(o, p, b))) {
    score = last_three(s, AFTER(o, p, flips, b), a, c, d, alpha);
    if (score < best && (best = score) <= alpha) return best;
  }
  if (p & neighbour[c] && (flips = reversi_flips(o, p, c))) {
    score = last_three(s, AFTER(o, p, flips, c), a, b, d, alpha);
    if (score < best && (best = score) <= alpha) return best;
  }
  if (p & neighbour[d] && (flips = reversi_flips(o, p, d))) {
    score = last_three(s, AFTER(o, p, flips, d), a, b, c, alpha);
    if (score < best) best = score;
  }
  return best < INF ? best : final_diff(p, o, 4);
}

/* The most p can score when o keeps its stable discs (n empty squares),
   or INF when that bound is not worked out: where o has too few discs
   for it to reach alpha, and where alpha is below 2n - 2 discs, as it then
   seldom does (Edax's thresholds are of that size): FFO #40-#49 543.9 M
   -> 570.0 M nodes, but medians of three alternated runs 21.9 s -> 20.6
   s; from 2n - 4, 563.9 M nodes and from 2n, 578.6 M, both 20.6 s in
   one run. */
static inline int stable_upper(const reversi_solver *s, uint64_t p, uint64_t o,
                               int alpha, int n) {
  if (alpha < 2 * n - 2 || s->squares - 2 * __builtin_popcountll(o) > alpha)
    return INF;
  return s->squares - 2 * __builtin_popcountll(reversi_stable(o, p, s->mask));
}

/* Tries the n <= SHALLOW empty squares of list, one a byte from the
   lowest (best class first), those of the quadrants with an odd number
   of empties (parity) before the others: the places of each group are
   read from a mask, rather than every square tested in each of two
   rounds (the same nodes; FFO #40-#49 19.9 s -> 19.7 s, medians of
   three alternated runs).  The moves are worked out once, so that no
   flips are computed for a square that is not one (#41-#46 8.7 s ->
   8.5 s, three alternated runs; at four empties no faster). */
static int shallow_list(reversi_solver *s, uint64_t p, uint64_t o,
                        uint64_t list, int n, unsigned parity, int alpha,
                        int beta) {
  if (n == 4 && beta == alpha + 1) return last_four(s, p, o, list, parity, alpha);
  if (n == 2) return last_two(s, p, o, list & 0xff, list >> 8 & 0xff, beta - 1);
  s->limit->nodes++;
  if (n >= STABLE_FROM) {
    int upper = stable_upper(s, p, o, alpha, n);
    if (upper <= alpha) return upper;
  }
  int best = -INF;
  unsigned odd = odd_places(list, n, parity);
  uint64_t legal = reversi_moves_of(p, o);
  for (int round = 0; round < 2; round++) {     /* odd quadrants, then even */
    for (unsigned places = round == 0 ? odd : ~odd & ((1u << n) - 1); places;
         places &= places - 1) {
      int i = __builtin_ctz(places), x = list >> 8 * i & 0xff;
      if (!(legal >> x & 1)) continue;
      uint64_t flips = reversi_flips(p, o, x);
      uint64_t below = ((uint64_t)1 << 8 * i) - 1;        /* the list without x */
      uint64_t rest = (list & below) | (list >> 8 & ~below);
      int score = n == 5 && beta == alpha + 1
        ? -last_four(s, AFTER(p, o, flips, x), rest, parity ^ quadrant[x], -beta)
        : -shallow_list(s, AFTER(p, o, flips, x), rest, n - 1,
                        parity ^ quadrant[x], -beta, -(alpha > best ? alpha : best));
      if (score > best) {
        best = score;
        if (best >= beta) return best;
      }
    }
  }
  if (best > -INF) return best;
  uint64_t empty = 0;
  for (int i = 0; i < n; i++) empty |= (uint64_t)1 << (list >> 8 * i & 0xff);
  if (reversi_moves_of(o, p) & empty)
    return -shallow_list(s, o, p, list, n, parity, -beta, -alpha);
  return final_diff(p, o, n);
}

/* The empty squares (n <= SHALLOW of them) solved directly.  Out of
   line, as order_by_search and mirrors_sibling are: gcc inlined the
   three into the search, whose every node then paid for their registers
   (FFO #40-#49: the same nodes, 1% to 1.5% less time). */
__attribute__((noinline))
static int shallow(reversi_solver *s, uint64_t p, uint64_t o, uint64_t empty,
                   int n, int alpha, int beta) {
  if (n == 0) return final_diff(p, o, 0);
  if (n == 1) return last_one(s, p, o, __builtin_ctzll(empty));
  uint64_t list = 0;
  unsigned parity = 0;
  int k = 0;
  for (int c = 0; c < 4; c++) {
    uint64_t part = c < 3 ? empty & s->order[c] : empty;
    empty &= ~part;
    for (; part; part &= part - 1) {
      int x = __builtin_ctzll(part);
      list |= (uint64_t)x << 8 * k++;
      parity ^= quadrant[x];
    }
  }
  return shallow_list(s, p, o, list, n, parity, alpha, beta);
}

/* ---- the search ---- */

typedef struct move {
  uint64_t flips;
  int key;                      /* smaller first */
  int16_t square;
  bool all;                     /* the child likely fails low */
} move;


/* The quadrants with an odd number of empty squares, as a mask of the
   bits of quadrant[]. */
static unsigned odd_quadrants(uint64_t empty) {
  static const uint64_t quadrants[4] = {0x0f0f0f0fu, 0xf0f0f0f0u,
                                        0x0f0f0f0f00000000u, 0xf0f0f0f000000000u};
  unsigned parity = 0;
  for (int q = 0; q < 4; q++)
    parity |= (unsigned)(__builtin_popcountll(empty & quadrants[q]) & 1) << q;
  return parity;
}

/* The moves of p keyed, fastest first (pick_move takes them in order):
   fewest replies, a corner reply counting twice (empties: p's position's).
   The children's slots in the small table are prefetched; where the
   children are in the big table (deep), their buckets, and the key counts
   too, for less, the fewer empty squares next to p's discs (the
   opponent's replies to come), the more corners and edge squares next to
   them p holds, and a corner move (weights tried on FFO #20-#39: the
   corner terms save 11% of nodes).  Nearer the end those terms changed
   nothing (FFO #41-#42: as many nodes, 1.5% more instructions), but
   between moves leaving as many replies a move into a quadrant with an
   odd number of empty squares goes first (parity: FFO #20-#39 87.0 M ->
   85.5 M nodes, #40-#49 680 M -> 672 M; a weight beyond a tie cost
   nodes).  Deep, parity breaks the ties of the key too (#40-#49 667 M ->
   657 M nodes, #20-#39 85.5 M -> 84.9 M; as 2 or 3 of the key's units,
   661 M and 662 M).  Returns how many; each key has its square in its low
   six bits. */
static int order_moves(const reversi_solver *s, uint64_t p, uint64_t o,
                       uint64_t moves, int empties, move *list) {
  bool deep = empties - 1 >= TABLE_MIN, small = !deep && empties - 1 >= NEAR_MIN;
  int n = 0;
  unsigned parity = odd_quadrants(s->mask & ~(p | o));
  for (; moves; moves &= moves - 1) {
    int square = __builtin_ctzll(moves);
    uint64_t flips = reversi_flips(p, o, square);
    uint64_t mine = p | flips | (uint64_t)1 << square, theirs = o & ~flips;
    uint64_t replies = reversi_moves_of(theirs, mine) & s->mask;
    int key = __builtin_popcountll(replies) +
              __builtin_popcountll(replies & s->corners);
    if (!deep) key = 2 * key - (quadrant[square] & parity ? 1 : 0);
    if (small) __builtin_prefetch(slot_of(s, theirs, mine));
    if (deep) {
      __builtin_prefetch(bucket_of(s, theirs, mine));
      uint64_t near = reversi_neighbours(mine) & ~(mine | theirs) & s->mask;
      uint64_t held = mine & (s->corners | (reversi_neighbours(mine & s->corners) &
                                            s->order[2]));
      key = 16 * key + 2 * __builtin_popcountll(near) -
            2 * __builtin_popcountll(held) -
            ((uint64_t)1 << square & s->corners ? 8 : 0) -
            (quadrant[square] & parity ? 1 : 0);
    }
    list[n++] = (move){.flips = flips, .square = (int16_t)square, .key = key * 64 + square};
  }
  return n;
}

/* Brings the first of list[i..count) in the order of the keys to place
   i.  The squares in the low bits of the keys break ties as the order
   the moves were found in would (ascending squares), so picking one at
   a time gives the order of a stable sort, without sorting the moves a
   cut-off never reaches. */
static inline void pick_move(move *list, int i, int count) {
  int first = i;
  for (int j = i + 1; j < count; j++)
    if (list[j].key < list[first].key) first = j;
  move m = list[first];
  list[first] = list[i];
  list[i] = m;
}

/* ---- symmetry near the start ---- */

#define SYMMETRY_PLIES 10       /* this close to the start, a move whose
                                   position mirrors a sibling's is skipped */

/* Whether the position after list[i] is an image of one after an
   earlier move of the list. */
__attribute__((noinline))
static bool mirrors_sibling(uint64_t p, uint64_t o, const move *list, int i) {
  uint64_t bit = (uint64_t)1 << list[i].square;
  uint64_t mine = p | list[i].flips | bit, theirs = o & ~list[i].flips;
  for (int k = 1; k < 8; k++) {
    uint64_t a = reversi_symmetry(mine, k), b = reversi_symmetry(theirs, k);
    for (int j = 0; j < i; j++) {
      uint64_t bj = (uint64_t)1 << list[j].square;
      if (a == (p | list[j].flips | bj) && b == (o & ~list[j].flips))
        return true;
    }
  }
  return false;
}

/* ---- ordering far from the end ---- */

#define EVAL_INF 1000000

/* A plain alpha-beta search of the evaluation, depth plies deep. */
static int eval_search(reversi_solver *s, uint64_t p, uint64_t o, int depth,
                       int alpha, int beta) {
  s->limit->nodes++;
  if (depth == 0)
    return reversi_eval(&(reversi_board){p, o, s->mask, (uint8_t)s->size, 0, {0}});
  uint64_t moves = reversi_moves_of(p, o) & s->mask;
  if (!moves) {
    if (!(reversi_moves_of(o, p) & s->mask))    /* outweighs any evaluation */
      return 1000 * final_diff(p, o, __builtin_popcountll(s->mask & ~(p | o)));
    return -eval_search(s, o, p, depth, -beta, -alpha);
  }
  int best = -EVAL_INF;
  for (; moves; moves &= moves - 1) {
    int square = __builtin_ctzll(moves);
    uint64_t flips = reversi_flips(p, o, square);
    int score = -eval_search(s, o & ~flips, p | flips | (uint64_t)1 << square,
                             depth - 1, -beta, -(alpha > best ? alpha : best));
    if (score > best) {
      best = score;
      if (best >= beta) break;
    }
  }
  return best;
}

/* Re-keys the moves by a shallow search of each, the fastest-first key
   weighing in (pick_move then takes them in the new order), returns the
   best of their scores (the mover's, in hundredths of discs), and marks
   those whose score clears beta by ALL_MARGIN discs: their positions
   will most likely fail low and try every move, where order saves
   nothing, so they go without this search (FFO #40-#49 586.5 M ->
   581.8 M nodes, #20-#39 82.69 M -> 82.25 M; at 16 discs 583.6 M, at
   24 581.5 M, at 8 604 M, at 4 670 M). */
__attribute__((noinline))
static int order_by_search(reversi_solver *s, uint64_t p, uint64_t o, int n,
                            move *list, int count, int beta) {
  int depth = 0;                /* the more empties, the more order saves */
  while (depth + 1 < SORT_DEPTHS && n >= s->sort_from[depth + 1]) depth++;
  int top = -EVAL_INF;
  for (int i = 0; i < count; i++) {
    pick_move(list, i, count);  /* so that i breaks the new keys' ties */
    uint64_t bit = (uint64_t)1 << list[i].square;
    int score = -eval_search(s, o & ~list[i].flips, p | list[i].flips | bit,
                             depth, -EVAL_INF, EVAL_INF);
    list[i].key = (s->sort_weight * (list[i].key >> 6) - score) * 64 + i;
    list[i].all = score >= (beta + ALL_MARGIN) * 100;
    if (score > top) top = score;
  }
  return top;
}

static int search(reversi_solver *s, uint64_t p, uint64_t o, int alpha,
                  int beta, int n, int *best_move, bool all);

static inline int child(reversi_solver *s, uint64_t p, uint64_t o, const move *m,
                        int alpha, int beta, int n) {
  uint64_t bit = (uint64_t)1 << m->square;
  uint64_t mine = o & ~m->flips, theirs = p | m->flips | bit;
  if (n - 1 <= SHALLOW)
    return -shallow(s, mine, theirs, s->mask & ~(mine | theirs), n - 1,
                    -beta, -alpha);
  return -search(s, mine, theirs, -beta, -alpha, n - 1, NULL, m->all);
}

/* n > 0 empty squares; fail-soft; *best_move (when not NULL) gets the
   best move, REVERSI_PASS or -1 at the end. */
static int search(reversi_solver *s, uint64_t p, uint64_t o, int alpha,
                  int beta, int n, int *best_move, bool all) {
  if (best_move) *best_move = -1;
  if (limit_tick(s->limit)) return 0;
  uint64_t moves = reversi_moves_of(p, o) & s->mask;
  if (!moves) {
    if (!(reversi_moves_of(o, p) & s->mask)) return final_diff(p, o, n);
    if (best_move) *best_move = REVERSI_PASS;
    return -search(s, o, p, -beta, -alpha, n, NULL, false);
  }
  int upper = stable_upper(s, p, o, alpha, n);     /* o's stable discs */
  if (upper <= alpha) return upper;
  if (upper < beta) beta = upper;
  int hint = -1;
  bool bounded = false;         /* the table holds bounds, not just a move */
  if (n >= NEAR_MIN) {
    const entry *e = probe(s, n, p, o);
    if (e) {
      hint = e->move;
      bounded = e->lower > -INF || e->upper < INF;
      /* The root searches on even so: it must name a move that reaches
         the score, and the entry's move may belong to another bound. */
      if (!best_move) {
        if (e->lower >= beta || e->lower == e->upper) return e->lower;
        if (e->upper <= alpha) return e->upper;
        if (e->lower > alpha) alpha = e->lower;
        if (e->upper < beta) beta = e->upper;
      }
    }
  }
  int low = alpha, best = -INF, best_square = -1;
  /* The table's move first, before the others are ordered: when it cuts,
     as it mostly does, their ordering is saved. */
  if (hint >= 0 && moves >> hint & 1) {
    move m = {.flips = reversi_flips(p, o, hint), .square = (int16_t)hint};
    best = child(s, p, o, &m, alpha, beta, n);
    if (s->limit->stopped) return 0;
    best_square = hint;
    if (best > alpha) alpha = best;
    moves &= ~((uint64_t)1 << hint);
  }
  if (alpha < beta && moves) {
    move list[64];
    int count = order_moves(s, p, o, moves, n, list);
    /* A child the table already holds at or below -beta cuts at once
       (enhanced transposition cut-off; its bucket is being prefetched):
       10% fewer nodes on FFO #41-#42, 8% on 6x6 endgames.  Not where the
       table held this position: its children's bounds came from the
       searches that left it open, and cut almost never (FFO #40-#49:
       586.48 M nodes against 586.41 M, and 1% less time).  A move from
       the selective pass, with no bounds, is no such search. */
    if (n > TABLE_MIN && !best_move && !bounded) {
      const entry *cut = NULL;  /* of the first move in order that cuts */
      int cut_key = 0;
      for (int i = 0; i < count; i++) {
        uint64_t bit = (uint64_t)1 << list[i].square;
        const entry *e = probe(s, n - 1, o & ~list[i].flips, p | list[i].flips | bit);
        if (e && -e->upper >= beta && (!cut || list[i].key < cut_key)) {
          cut = e;
          cut_key = list[i].key;
        }
      }
      if (cut) return -cut->upper;
    }
    if (n >= s->sort_from[0] && !all) {
      int top = order_by_search(s, p, o, n, list, count, beta);
      /* In the selective pass, a node that the ordering search puts far
         beyond the window is taken to be beyond it. */
      if (s->margin && !best_move) {
        if (top >= (beta + s->margin) * 100) return beta;
        if (top <= (alpha - s->margin) * 100) return alpha;
      }
    }
    bool near_start = n > s->squares - 4 - SYMMETRY_PLIES;
    for (int i = 0; i < count; i++) {
      pick_move(list, i, count);
      /* A mirrored sibling has the same score: nothing to learn. */
      if (near_start && i > 0 && mirrors_sibling(p, o, list, i)) continue;
      int score = child(s, p, o, &list[i], alpha, beta, n);
      if (s->limit->stopped) return 0;
      if (score > best) {
        best = score;
        best_square = list[i].square;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
      }
    }
  }
  /* What the selective pass found below the ordering searches holds no
     bound, only a move to try first. */
  if (s->margin && n >= s->sort_from[0])
    store(s, p, o, n, -INF, INF, best_square);
  else if (n >= NEAR_MIN)
    store(s, p, o, n, best > low ? best : -INF, best < beta ? best : INF,
          best_square);
  if (best_move) *best_move = best_square;
  return best;
}

/* ---- solving a board ---- */

static search_limit *use_limit(reversi_solver *s, search_limit *limit,
                               search_limit *own) {
  if (!limit) {
    memset(own, 0, sizeof *own);
    limit_start(own);
    limit = own;
  }
  s->limit = limit;
  return limit;
}

/* A bound brought within the scores the board allows. */
static int within(const reversi_solver *s, int bound) {
  return bound < -s->squares ? -s->squares : bound > s->squares ? s->squares : bound;
}

/* The first guess of a score: a search of the evaluation GUESS_DEPTH
   plies deep, rounded to an even number of discs as every score is.
   From a guess of a draw, FFO #40-#49 took 731 M nodes and #20-#39
   91.9 M; from 4 plies 680 M and 87.0 M (from 6 plies 742 M and 84.7 M,
   from 8 666 M and 94.5 M: the deeper, the more the guess costs on the
   smaller problems and the more one problem's luck weighs). */
#define GUESS_DEPTH 4
#define GUESS_FROM 12           /* fewer empties: guess a draw */

static int first_guess(reversi_solver *s, uint64_t p, uint64_t o, int n) {
  if (n < GUESS_FROM) return 0;
  int e = eval_search(s, p, o, GUESS_DEPTH, -EVAL_INF, EVAL_INF);
  return within(s, (e >= 0 ? e + 100 : e - 100) / 200 * 2);
}

/* MTD(f): null windows only, closing in on the score from a guess g;
   each test re-uses what the table learnt in the ones before.  Half the
   nodes of a full-window search on FFO #20-#39.  *best gets a move that
   reaches the score (NULL: not wanted); bounds (when not NULL) the bounds
   proved, progress hears of each. */
static int mtd(reversi_solver *s, uint64_t p, uint64_t o, int n, int g,
               int *best, int bounds[2], reversi_progress *progress,
               void *context) {
  int lower = -INF, upper = INF, square = -1;
  while (lower < upper && !s->limit->stopped) {
    int beta = g == lower ? g + 1 : g;
    g = search(s, p, o, beta - 1, beta, n, &square, false);
    if (s->limit->stopped) break;
    if (g < beta) {
      upper = g;
    } else {
      lower = g;
      if (best) *best = square;
    }
    if (progress)
      progress(context, within(s, lower), within(s, upper), s->limit->nodes);
  }
  if (bounds) {
    bounds[0] = within(s, lower);
    bounds[1] = within(s, upper);
  }
  return g;
}

/* The exact score by MTD(f).  With many empties, a selective pass comes
   first: the same search, but a node whose ordering search puts it
   SELECTIVE_MARGIN discs beyond the window ends there, as Edax's
   selective searches do with their own statistics (Buro's ProbCut).  It
   proves nothing; it leaves in the table the moves that cut near the
   root, which the exact pass tries first, and its score is the exact
   pass's first guess.  Solved a second time with only the moves of the
   first solve in the table, FFO #40-#49 took 283 M nodes instead of 577
   M; with the moves of positions of 19 empties or more, #41-#46 took 200
   M instead of 300 M.  The pass gets a good part of that: FFO #40-#49
   577.5 M -> 496.7 M nodes (margins of 4, 8 and 6 then 3 discs: 560 M,
   504 M and 483 M), #20-#39 83.3 M -> 83.8 M.
   From 26 empties a pass of twice the margin comes before it, and its
   score is the first guess of the pass of 6: positions of real games
   (WTHOR 2019, the first ten that reach 26 and 27 empties, six of 28)
   2.61 G -> 2.17 G, 6.45 G -> 5.63 G and 9.31 G -> 9.52 G nodes, FFO
   #50-#59 14.30 G -> 14.16 G: 4% fewer in all, from half as many to a
   third more by position.  At 22 to 25 empties (and on #40-#49) the
   same two passes saved nothing (560 M -> 574 M, 950 M -> 960 M and
   2.32 G -> 2.35 G), and on 6x6 the game from the start (32 empties)
   took 1.13 G nodes instead of 0.918 G: 8x8 only. */
static int selective(reversi_solver *s, uint64_t p, uint64_t o, int n, int g,
                     int margin) {
  s->margin = margin;
  g = mtd(s, p, o, n, g, NULL, NULL, NULL, NULL);
  s->margin = 0;
  return g;
}

static int solve_position(reversi_solver *s, uint64_t p, uint64_t o, int n,
                          int *best, int bounds[2],
                          reversi_progress *progress, void *context) {
  int g = first_guess(s, p, o, n);
  if (n >= COARSE_FROM && s->size == 8)
    g = selective(s, p, o, n, g, COARSE_MARGIN);
  if (n >= SELECTIVE_FROM) g = selective(s, p, o, n, g, SELECTIVE_MARGIN);
  return mtd(s, p, o, n, g, best, bounds, progress, context);
}

reversi_solution reversi_solve_watched(reversi_solver *s,
                                       const reversi_board *board,
                                       search_limit *limit,
                                       reversi_progress *progress,
                                       void *context) {
  search_limit own;
  limit = use_limit(s, limit, &own);
  use_board(s, board->mask);
  s->solve++;
  int n = __builtin_popcountll(board->mask & ~(board->player | board->opponent));
  reversi_solution r = {0, -1, false, 0, 0};
  if (n == 0) {
    r.score = r.lower = r.upper = final_diff(board->player, board->opponent, 0);
    r.complete = true;
    return r;
  }
  int bounds[2];
  r.score = solve_position(s, board->player, board->opponent, n, &r.best,
                           bounds, progress, context);
  r.lower = bounds[0];
  r.upper = bounds[1];
  r.complete = !limit->stopped;
  return r;
}

reversi_solution reversi_solve(reversi_solver *s, const reversi_board *board,
                               search_limit *limit) {
  return reversi_solve_watched(s, board, limit, NULL, NULL);
}

bool reversi_solve_all(reversi_solver *s, const reversi_board *board,
                       search_limit *limit, int scores[64]) {
  search_limit own;
  limit = use_limit(s, limit, &own);
  use_board(s, board->mask);
  s->solve++;
  uint64_t p = board->player, o = board->opponent;
  int n = __builtin_popcountll(board->mask & ~(p | o));
  uint64_t moves = reversi_legal(board);
  for (; moves; moves &= moves - 1) {
    move m = {.square = (int16_t)__builtin_ctzll(moves)};
    m.flips = reversi_flips(p, o, m.square);
    uint64_t bit = (uint64_t)1 << m.square;
    scores[m.square] = n == 1 ? -final_diff(o & ~m.flips, p | m.flips | bit, 0)
                              : -solve_position(s, o & ~m.flips, p | m.flips | bit,
                                                n - 1, NULL, NULL, NULL, NULL);
    if (limit->stopped) return false;
  }
  return true;
}
