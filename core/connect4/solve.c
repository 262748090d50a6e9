/*
** solve.c: the exact Connect Four solver (see solve.h).
*/
/* madvise's MADV_HUGEPAGE is a Linux extension, hidden by the build's
   strict _POSIX_C_SOURCE unless asked for. */
#define _DEFAULT_SOURCE

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "solve.h"
#include "book.h"

/* ---- bitboard geometry ---- */

/* This file needs GCC or clang: their builtins and vector extensions.

   The search is compiled twice (see negamax): once for any board, once
   for 7x6 with its geometry known at compile time, where the helpers
   below must be inlined for their shifts to become constants. */
#define ALWAYS_INLINE inline __attribute__((always_inline))

/* Bitboards in the lanes of one vector, worked on at once: four with
   AVX2, else two (SSE2 on every x86-64). */
#ifdef __AVX2__
#define LANES 4
#else
#define LANES 2
#endif
typedef uint64_t lanes __attribute__((vector_size(LANES * sizeof(uint64_t))));

/* Columns in whole vectors, the missing ones empty. */
#define COLUMN_SLOTS ((C4_MAX_WIDTH + LANES - 1) / LANES * LANES)

typedef struct geometry {
  uint64_t bottom;      /* the bottom cell of every column */
  uint64_t playable;    /* every cell of the board, no spare bits */
  uint64_t column[COLUMN_SLOTS];
  uint64_t mover_rows;  /* rows of the height's parity, the spare one too */
  /* The shifts along -, \ and / (height + 1, height, height + 2).  A
     board narrower than four has no such lines: 0 there makes line_ends
     find none, where the real shifts, tripled, could pass 63 (a 2x30
     board), which C leaves undefined. */
  int across[3];
  int height, width, cells;
  int order[C4_MAX_WIDTH];  /* columns from the centre outwards */
} geometry;

static void geometry_init(geometry *g, const c4_board *board) {
  g->width = board->width;
  g->height = board->height;
  g->cells = board->width * board->height;
  for (int i = 0; i < 3; i++)
    g->across[i] = board->width < 4 ? 0 : board->height + (i == 0 ? 1 : i == 1 ? 0 : 2);
  g->bottom = g->playable = g->mover_rows = 0;
  memset(g->column, 0, sizeof g->column);
  uint64_t one_column = (UINT64_C(1) << board->height) - 1;
  for (int c = 0; c < g->width; c++) {
    g->column[c] = one_column << (c * (board->height + 1));
    g->bottom |= UINT64_C(1) << (c * (board->height + 1));
    g->playable |= g->column[c];
  }
  for (int r = board->height % 2; r <= board->height; r += 2)
    g->mover_rows |= g->bottom << r;
  /* columns by distance from the centre, the left one first on a tie:
     3 2 4 1 5 0 6 on seven columns */
  for (int c = 0, n = 0; c < g->width; c++) {
    int distance = abs(2 * c - (g->width - 1)), j = n++;
    for (; j > 0 && abs(2 * g->order[j - 1] - (g->width - 1)) > distance; j--)
      g->order[j] = g->order[j - 1];
    g->order[j] = c;
  }
}

/* Cells where a chip completes four along one direction (shift s). */
static ALWAYS_INLINE lanes line_ends(lanes chips, int s) {
  lanes pair = chips << s & chips << 2 * s;        /* two behind the cell */
  lanes cells = pair & (chips << 3 * s | chips >> s);     /* xxx_, xx_x */
  pair = chips >> s & chips >> 2 * s;              /* two ahead of it */
  return cells | (pair & (chips << s | chips >> 3 * s));  /* x_xx, _xxx */
}

/* Empty cells where one more chip of 'chips' would make four, on LANES
   boards at once. */
static ALWAYS_INLINE lanes winning_cells_lanes(const geometry *g, lanes chips,
                                               lanes mask) {
  lanes cells = chips << 1 & chips << 2 & chips << 3;        /* on top */
  cells |= line_ends(chips, g->across[0]);
  cells |= line_ends(chips, g->across[1]);
  cells |= line_ends(chips, g->across[2]);
  return cells & (g->playable ^ mask);
}

/* The same on one board. */
static ALWAYS_INLINE uint64_t winning_cells(const geometry *g, uint64_t chips,
                                            uint64_t mask) {
  lanes one = {chips}, one_mask = {mask};
  return winning_cells_lanes(g, one, one_mask)[0];
}

#ifndef __AVX2__
static ALWAYS_INLINE uint64_t fours(uint64_t cells, int s) {
  uint64_t pairs = cells & cells >> s;
  return pairs & pairs >> 2 * s;
}
#endif

/* A shift along a direction of across[], or up (1) where the board has
   no lines that way: looking up again finds nothing new. */
static ALWAYS_INLINE int across_or_up(const geometry *g, int i) {
  return g->across[i] ? g->across[i] : 1;
}

/* Whether cells holds four in a row: along |, -, \ and /, a shift of
   1, height + 1, height and height + 2. */
static ALWAYS_INLINE bool has_line(const geometry *g, uint64_t cells) {
#ifdef __AVX2__
  /* the four directions in the four lanes, shifted each by its own step */
  const lanes step = {1, across_or_up(g, 0), across_or_up(g, 1),
                      across_or_up(g, 2)};
  lanes all = step * 0 + cells;
  lanes pairs = all & all >> step;
  lanes found = pairs & pairs >> 2 * step;
  return !_mm256_testz_si256((__m256i)found, (__m256i)found);
#else
  return (fours(cells, 1) | fours(cells, across_or_up(g, 0)) |
          fours(cells, across_or_up(g, 1)) |
          fours(cells, across_or_up(g, 2))) != 0;
#endif
}

static ALWAYS_INLINE uint64_t playable_cells(const geometry *g, uint64_t mask) {
  return (mask + g->bottom) & g->playable;
}

static ALWAYS_INLINE int count_bits(uint64_t x) {
  return __builtin_popcountll(x);
}

/* The index of the one bit set in cell. */
static ALWAYS_INLINE int cell_index(uint64_t cell) {
  return __builtin_ctzll(cell);
}

/* ---- transposition table ----
**
** One 64-bit word per entry, two entries to a 16-byte bucket, so a probe
** costs one cache miss.  The key, current + mask, is unique for a board
** size (Pons).  It is multiplied by an odd constant, which maps 64-bit
** words one to one and carries every bit of the key into the top bits
** of the product: the top C4_TABLE_BITS bits pick the home slot, and
** the entry keeps the others and the low bit of the home slot, which
** together give the key back exactly: no two positions are ever
** confused.  (A
** multiply and a shift cost less than Pons' prime modulus.)  A key lives
** in its home slot or the other one of its bucket.  The entry holds both
** bounds found so far, each as score - min_score + 1 (0: nothing known),
** and the number of chips, so that the entry nearer the root, which
** cost more, is the one kept.
**   bits  0..5   upper bound       bits 12..17  chips on the board
**   bits  6..11  lower bound       bit  18      home slot's low bit
**   bits C4_TABLE_BITS..63  the product's low 64 - C4_TABLE_BITS bits
** Six bits hold a bound: a board has at most 63 cells, so a score lies
** between min_score, -31 at least, and 32, the score of a win at once
** on an empty board, which no game has.  A lower bound is kept at 63 at
** most, which only weakens it; an upper bound is below beta, so it fits.
*/

#define HUGE_PAGE (2u << 20)
#define SLOTS C4_TABLE_ENTRIES
#define SLOT_BITS C4_TABLE_BITS
_Static_assert(SLOT_BITS >= 19, "the product's bits must clear bit 18");
#define CODE_MAX 63
#define KEY_FACTOR UINT64_C(0x9e3779b97f4a7c15)    /* odd: 2^64 / golden ratio */

struct c4_table {
  uint64_t *entries;
  int width, height;    /* the size whose positions it holds; 0: none */
  const c4_book *book;  /* consulted by every solve, or NULL */
  c4_book *recording;   /* a book being generated, or NULL */
  uint64_t book_hits;   /* positions the book answered, ever */
};

c4_table *c4_table_new(void) {
  c4_table *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  size_t bytes = SLOTS * sizeof *t->entries;
  bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  void *memory = NULL;
  if (posix_memalign(&memory, HUGE_PAGE, bytes) != 0) {
    free(t);
    return NULL;
  }
#ifdef MADV_HUGEPAGE
  /* Random probes over 64 MiB miss the TLB far less on 2 MiB pages. */
  madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  t->entries = memory;
  c4_table_clear(t);
  return t;
}

void c4_table_free(c4_table *t) {
  if (!t) return;
  free(t->entries);
  free(t);
}

void c4_table_use_book(c4_table *t, const c4_book *book) { t->book = book; }
const c4_book *c4_table_book(const c4_table *t) { return t->book; }
void c4_table_record(c4_table *t, c4_book *book) { t->recording = book; }
uint64_t c4_table_book_hits(const c4_table *t) { return t->book_hits; }

void c4_table_clear(c4_table *t) {
  memset(t->entries, 0, SLOTS * sizeof *t->entries);
  t->width = t->height = 0;
}

/* The home slot of key: the top bits of its product. */
static ALWAYS_INLINE uint64_t table_home(uint64_t key) {
  return key * KEY_FACTOR >> (64 - SLOT_BITS);
}

/* The entry's identity: the product's other bits and the home's low bit. */
static ALWAYS_INLINE uint64_t table_tag(uint64_t key) {
  uint64_t product = key * KEY_FACTOR;
  return product << SLOT_BITS | (product >> (64 - SLOT_BITS) & 1) << 18;
}

#define TAG_BITS (~UINT64_C(0) << 18)

/* The slot holding key, or NULL. */
static ALWAYS_INLINE uint64_t *table_find(const c4_table *t, uint64_t key) {
  uint64_t *bucket = t->entries + (table_home(key) & ~UINT64_C(1));
  uint64_t tag = table_tag(key);
  if ((bucket[0] & TAG_BITS) == tag && bucket[0]) return bucket;
  if ((bucket[1] & TAG_BITS) == tag && bucket[1]) return bucket + 1;
  return NULL;
}

/* Starts loading key's bucket, to be read soon. */
static ALWAYS_INLINE void table_prefetch(const c4_table *t, uint64_t key) {
  __builtin_prefetch(t->entries + (table_home(key) & ~UINT64_C(1)));
}

/* Bound codes of key: *lower and *upper, 0 where nothing is known. */
static ALWAYS_INLINE void table_get(const c4_table *t, uint64_t key,
                                    int *lower, int *upper) {
  const uint64_t *slot = table_find(t, key);
  uint64_t entry = slot ? *slot : 0;
  *upper = (int)(entry & 0x3f);
  *lower = (int)(entry >> 6 & 0x3f);
}

/* Adds what was learnt of key (bound codes, 0 for none) to what the
   table knows. */
static void table_put(c4_table *t, uint64_t key, int chips, int lower,
                      int upper) {
  if (lower > CODE_MAX) lower = CODE_MAX;
  uint64_t *slot = table_find(t, key);
  if (slot) {
    int old_upper = (int)(*slot & 0x3f), old_lower = (int)(*slot >> 6 & 0x3f);
    if (!upper || (old_upper && old_upper < upper)) upper = old_upper;
    if (lower < old_lower) lower = old_lower;
  } else {
    /* Two tiers: the first slot keeps the entry nearer the root, whose
       subtree cost more; the second takes whatever comes. */
    uint64_t *bucket = t->entries + (table_home(key) & ~UINT64_C(1));
    if (!bucket[0] || chips <= (int)(bucket[0] >> 12 & 0x3f)) {
      bucket[1] = bucket[0];
      slot = bucket;
    } else {
      slot = bucket + 1;
    }
  }
  *slot = table_tag(key) | (uint64_t)chips << 12 | (uint64_t)lower << 6 |
          (uint64_t)upper;
}

/* ---- the search ---- */

/* Enhanced transposition cutoffs (a child the table already knows to be
   bad enough for the opponent ends the node before any search) pay only
   where subtrees are big: with more empty cells than this. */
#define ETC_EMPTY 8

/* With more empty cells than this, both sides nearly always have a four
   left open (in the searches of Pons' test sets, always): the test for
   none costs more than it finds. */
#define OPEN_EMPTY 12

/* Near the root, a position the table does not know may be there as its
   mirror image, which scores the same. */
#define MIRROR_PLIES 16

/* The key of the mirror image: the columns in the other order (a column
   of current + mask holds its own sum without carrying into the next).
   The mask is shifted down, not built up: a board of one column has a
   column of all 64 bits, and 1 << 64 is undefined. */
static ALWAYS_INLINE uint64_t mirror_key(const geometry *g, uint64_t key) {
  const int step = g->height + 1;
  const uint64_t column = ~UINT64_C(0) >> (64 - step);
  uint64_t mirror = 0;
  for (int c = 0; c < g->width; c++)
    mirror |= (key >> (c * step) & column) << ((g->width - 1 - c) * step);
  return mirror;
}

/* Above this alpha, forcing moves are tried first (see negamax); lower,
   it costs more nodes on hard positions than it saves on easy ones. */
#define FORCING_ALPHA 5

typedef struct solver {
  geometry g;
  c4_table *table;
  search_limit *limit;
  int min_score;        /* the lowest score a position can have */
  int book_plies;       /* positions with at most this many chips are */
  int record_plies;     /* looked up in the book, or recorded; -1: none */
} solver;

/* Keeps what was learnt of a position (bound codes, 0 for none), and
   records it when a book is being generated. */
static void store(solver *s, uint64_t key, int moves, int lower, int upper) {
  table_put(s->table, key, moves, lower, upper);
  if (moves <= s->record_plies)
    c4_book_record(s->table->recording, key,
                   lower ? lower - 1 + s->min_score : s->min_score,
                   upper ? upper - 1 + s->min_score : -s->min_score);
}

/* The least a win on a cell of this row scores: played with every cell
   filled but those above it, so with height - 1 - row empty cells left
   after it, or height - row before it. */
static ALWAYS_INLINE int late_win(const geometry *g, int row) {
  return (g->height + 1 - row) / 2;
}

/* The cells above those given, up to the top of their columns. */
static ALWAYS_INLINE uint64_t cells_above(const geometry *g, uint64_t cells) {
  uint64_t above = cells << 1 & g->playable;
  for (int k = 1; k < g->height; k *= 2)    /* rows k and up stay in column */
    above |= above << k & g->playable & ~(g->bottom * ((UINT64_C(1) << k) - 1));
  return above;
}

/* Claimeven and baseinverse (Allis).  Where the columns with an odd
   number of empty cells ('odd' holds their bottom cells) are even in
   number, the side not to move, the controller, can answer a chip at the
   bottom of one of them at the bottom of another (paired once and for
   all), and any other chip on top of it.  The side to move then gets
   only the empty cells of its own rows, and one bottom cell of each
   pair; the controller every other cell but the bottoms.  A winning cell
   of the controller's among its own (from controller_wins, 0 to ignore
   them) ends the game when its column fills up to it, so the mover never
   gets the cells above it.  Returns what that proves of the score of the
   side to move: at most 0 when it cannot make four that way, less when
   the controller makes four too, and 1 (nothing) when it can. */
static ALWAYS_INLINE int follow_up_bound(const geometry *g, uint64_t mover,
                                         uint64_t controller, uint64_t empty,
                                         uint64_t odd,
                                         uint64_t controller_wins) {
  uint64_t mine = mover | (empty & g->mover_rows);
  uint64_t theirs = controller | (empty & ~g->mover_rows & ~odd);
  uint64_t first = odd & -odd, second = odd ^ first;
  bool pair = second && !(second & (second - 1));
  uint64_t wins = controller_wins & theirs;
  if (wins) {
    uint64_t cut = mine & ~cells_above(g, wins);
    if (pair ? !has_line(g, cut | first) && !has_line(g, cut | second)
             : !has_line(g, cut | odd)) {
      int best = 1;
      for (; wins; wins &= wins - 1) {
        int bit = cell_index(wins), column = bit / (g->height + 1);
        int score = late_win(g, bit - column * (g->height + 1));
        if (score > best) best = score;
      }
      return -best;
    }
  }
  if (pair) {
    /* one pair: the mover gets either bottom, the controller the other */
    if (has_line(g, mine | first) || has_line(g, mine | second)) return 1;
    return has_line(g, theirs | first) && has_line(g, theirs | second)
           ? -1 : 0;
  }
  if (has_line(g, mine | odd)) return 1;
  return has_line(g, theirs) ? -1 : 0;
}

/* Zugzwang through a threat (Allis' odd threat, for either side).  The
   controller, the side not to move, has a winning cell t with an odd
   number of empty cells under it, and the other columns with an odd
   number of empty cells are even in number.  It then answers every chip
   on top of it (pairing the bottoms of those odd columns as in
   follow_up_bound), in t's column too, where the mover is left to fill
   the cell under t at last and the controller plays t.  The mover gets
   only its chips, the empty cells of its own rows in the other columns,
   one bottom of each pair, and the cells under t of the other parity
   than t's; finding no four there, it loses, at the latest with every
   cell filled but those above t.  Returns the best bound on the mover's
   score so proved (the lowest threat's), or 1 (nothing). */
static ALWAYS_INLINE int threat_bound(const geometry *g, uint64_t mover,
                                      uint64_t mask, uint64_t threats,
                                      uint64_t odd) {
  uint64_t empty = g->playable & ~mask;
  /* the controller's winning cells among those it takes by following up */
  uint64_t claimed = threats & empty & ~g->mover_rows & ~odd;
  /* a threat right above the next chip of its column is no zugzwang */
  threats &= ~playable_cells(g, mask);
  int bound = 1;
  for (; threats; threats &= threats - 1) {
    uint64_t t = threats & -threats;
    int bit = cell_index(t), column = bit / (g->height + 1);
    uint64_t in_column = g->column[column];
    uint64_t below = (t - 1) & in_column & empty;
    uint64_t others = odd & ~in_column;
    if (count_bits(below) % 2 == 0 || count_bits(others) % 2) continue;
    uint64_t own_rows = t & g->mover_rows ? ~g->mover_rows : g->mover_rows;
    uint64_t mine = mover | (empty & g->mover_rows & ~in_column &
                             ~cells_above(g, claimed & ~in_column)) |
                    (below & own_rows);
    uint64_t first = others & -others, second = others ^ first;
    if (second && !(second & (second - 1))) {
      if (has_line(g, mine | first) || has_line(g, mine | second)) continue;
    } else if (has_line(g, mine | others)) {
      continue;
    }
    int score = -late_win(g, bit - column * (g->height + 1));
    if (score < bound) bound = score;
  }
  return bound;
}

/* The moves after which a threat of the mover's may win as threat_bound
   says: under a threat with an even number (two or more) of empty cells
   under it, when the other columns with an odd number of empty cells
   are even in number; beside one with an odd number, when they are odd
   in number. */
static ALWAYS_INLINE uint64_t threat_moves(const geometry *g, uint64_t mask,
                                           uint64_t threats, uint64_t odd) {
  uint64_t possible = playable_cells(g, mask), moves = 0;
  threats &= ~possible;
  for (; threats; threats &= threats - 1) {
    uint64_t t = threats & -threats;
    uint64_t in_column = g->column[cell_index(t) / (g->height + 1)];
    int below = count_bits((t - 1) & in_column & ~mask);
    int others = count_bits(odd & ~in_column);
    if (below % 2 == 0 && others % 2 == 0) moves |= possible & in_column;
    else if (below % 2 && others % 2) moves |= possible & ~in_column;
  }
  return moves;
}

/* Moves that do not hand the opponent a win at once: if it threatens to
   win, the one cell that stops it (none if two), and never the cell just
   under one of its winning cells. */
static ALWAYS_INLINE uint64_t safe_moves(const geometry *g, uint64_t mask,
                                         uint64_t theirs) {
  uint64_t possible = playable_cells(g, mask);
  uint64_t forced = possible & theirs;
  if (forced) {
    if (forced & (forced - 1)) return 0;
    possible = forced;
  }
  return possible & ~(theirs >> 1);
}

/* What the search passes down to a position besides the board: the
   winning cells of both sides (an empty cell where one more chip of
   theirs, or of the side to move, makes four), which the parent has
   worked out to order its moves, and the position's threat_bound when
   the parent has worked that out too, else NO_BOUND. */
#define NO_BOUND 100

static int negamax_standard(solver *s, uint64_t current, uint64_t mask,
                            int moves, int alpha, int beta,
                            uint64_t their_wins, uint64_t my_wins, int threat);
static int negamax_general(solver *s, uint64_t current, uint64_t mask,
                           int moves, int alpha, int beta,
                           uint64_t their_wins, uint64_t my_wins, int threat);

/* The 7x6 board's geometry, as geometry_init makes it, for the compiler
   to fold into negamax_standard. */
#define COLUMN_7X6(c) (UINT64_C(0x3f) << 7 * (c))
static const geometry standard_geometry = {
  .bottom = UINT64_C(0x0040810204081),
  .playable = UINT64_C(0xfdfbf7efdfbf),
  .column = {COLUMN_7X6(0), COLUMN_7X6(1), COLUMN_7X6(2), COLUMN_7X6(3),
             COLUMN_7X6(4), COLUMN_7X6(5), COLUMN_7X6(6)},
  .mover_rows = UINT64_C(0x0040810204081) * 0x55,
  .across = {7, 6, 8},
  .height = 6, .width = 7, .cells = 42,
  .order = {3, 2, 4, 1, 5, 0, 6},
};

static ALWAYS_INLINE int negamax_body(solver *s, const geometry *g,
                                      bool standard, uint64_t current,
                                      uint64_t mask, int moves, int alpha,
                                      int beta, uint64_t their_wins,
                                      uint64_t my_wins, int threat) {
  if (limit_tick(s->limit)) return alpha;
  uint64_t next = safe_moves(g, mask, their_wins);
  if (!next) return -(g->cells - moves) / 2;      /* every move loses */
  if (moves >= g->cells - 2) return 0;            /* nobody can win now */
  bool etc = g->cells - moves > ETC_EMPTY;
  if (etc)    /* the children's entries load while the bounds and the
                 move order are worked out */
    for (uint64_t rest = next; rest; rest &= rest - 1)
      table_prefetch(s->table, (current ^ mask) + (mask | (rest & -rest)));
  int low = -(g->cells - 2 - moves) / 2;          /* no loss next move */
  if (alpha < low) {
    alpha = low;
    if (alpha >= beta) return alpha;
  }
  int high = (g->cells - 1 - moves) / 2;          /* no win this move */
  /* a side with no four left open to it cannot win */
  if (g->cells - moves <= OPEN_EMPTY) {
    if (!has_line(g, g->playable & ~(current ^ mask)))
      high = 0 < high ? 0 : high;
    if (!has_line(g, g->playable & ~current) && alpha < 0) {
      alpha = 0;
      if (alpha >= beta) return alpha;
    }
  }
  uint64_t empty = g->playable & ~mask;
  uint64_t odd = (mask + g->bottom) & ~g->mover_rows;  /* their bottoms */
  /* follow_up_bound proves nothing below -height / 2: a winning cell the
     controller claims is above the bottom row */
  if (count_bits(odd) % 2 == 0 && beta > -(g->height / 2)) {
    int bound = follow_up_bound(g, current, current ^ mask, empty, odd,
                                their_wins);
    if (bound <= 0 && high > bound) high = bound;
  }
  /* threat_bound proves nothing below -height / 2: a threat has an empty
     cell under it */
  if (beta > -(g->height / 2) &&
      (their_wins & ~playable_cells(g, mask))) {
    int bound = threat != NO_BOUND
                ? threat : threat_bound(g, current, mask, their_wins, odd);
    if (bound <= 0 && bound < high) high = bound;
  }
  if (beta > high) {
    beta = high;
    if (alpha >= beta) return beta;
  }
  uint64_t key = current + mask;
  int lower, upper;
  table_get(s->table, key, &lower, &upper);
  if (!lower && !upper && moves <= MIRROR_PLIES)
    table_get(s->table, mirror_key(g, key), &lower, &upper);
  if (lower && alpha < lower - 1 + s->min_score) {
    alpha = lower - 1 + s->min_score;
    if (alpha >= beta) return alpha;
  }
  if (upper && beta > upper - 1 + s->min_score) {
    beta = upper - 1 + s->min_score;
    if (alpha >= beta) return beta;
  }
  if (moves <= s->book_plies &&
      c4_book_bounds(s->table->book, c4_book_key(s->table->book, key), &lower,
                     &upper)) {
    s->table->book_hits++;
    if (alpha < lower) {
      alpha = lower;
      if (alpha >= beta) return alpha;
    }
    if (beta > upper) {
      beta = upper;
      if (alpha >= beta) return beta;
    }
  }
  /* Bounds from the children, dearer, once the table has not answered. */
  if (count_bits(odd) % 2 && alpha < 1) {
    /* after any move the count is even, and the side to move follows up */
    for (uint64_t rest = next; rest; rest &= rest - 1) {
      uint64_t cell = rest & -rest;
      uint64_t child_odd = cell & odd ? odd ^ cell : odd | cell << 1;
      int bound = -follow_up_bound(g, current ^ mask, current | cell,
                                   empty ^ cell, child_odd, 0);
      if (bound < 0) continue;        /* it proves nothing */
      if (alpha < bound) {
        alpha = bound;
        if (alpha >= beta) return alpha;
      }
      if (bound == 1) break;
    }
  }
  /* The mover's winning cells after each move: the child's their_wins,
     and what the moves are ordered by. */
  uint64_t wins_after[COLUMN_SLOTS];
  for (int c = 0; c < g->width; c += LANES) {
    lanes move;
    memcpy(&move, &g->column[c], sizeof move);
    move &= next;
    lanes wins = winning_cells_lanes(g, current | move, mask | move);
    memcpy(&wins_after[c], &wins, sizeof wins);
  }
  int threat_after[C4_MAX_WIDTH];
  for (int c = 0; c < g->width; c++) threat_after[c] = NO_BOUND;
  /* and for the mover, a move after which a threat of its own wins so */
  uint64_t zugzwang_moves;
  if (alpha < g->height / 2 &&
      (zugzwang_moves = threat_moves(g, mask, my_wins, odd) & next)) {
    for (uint64_t rest = zugzwang_moves; rest; rest &= rest - 1) {
      uint64_t cell = rest & -rest, child_mask = mask | cell;
      uint64_t child_odd = (child_mask + g->bottom) & ~g->mover_rows;
      int c = cell_index(cell) / (g->height + 1);
      threat_after[c] = threat_bound(g, current ^ mask, child_mask,
                                     wins_after[c], child_odd);
      int bound = -threat_after[c];
      if (bound >= 0 && alpha < bound) {
        alpha = bound;
        if (alpha >= beta) return alpha;
      }
    }
  }
  /* Order: by threats made, ties kept in centre-first order. */
  int candidates[C4_MAX_WIDTH];
  int threats[C4_MAX_WIDTH];
  int n = 0;
  for (int i = 0; i < g->width; i++) {
    int column = g->order[i];
    uint64_t move = next & g->column[column];
    if (!move) continue;
    uint64_t wins = wins_after[column];
    int t = count_bits(wins);
    /* Hunting a big win, moves whose threats must be answered at once
       go first among equals: they find quick wins sooner. */
    if (alpha >= FORCING_ALPHA)
      t = 8 * t + count_bits(wins & playable_cells(g, mask | move));
    int j = n++;
    for (; j > 0 && threats[j - 1] < t; j--) {
      candidates[j] = candidates[j - 1];
      threats[j] = threats[j - 1];
    }
    candidates[j] = column;
    threats[j] = t;
  }
  /* A child known to be bad enough for the opponent cuts at once.  Looked
     at last, when the entries prefetched above have had longest to come. */
  for (int i = 0; etc && i < n; i++) {
    uint64_t move = next & g->column[candidates[i]];
    int child_lower, child_upper;
    table_get(s->table, (current ^ mask) + (mask | move), &child_lower,
              &child_upper);
    if (child_upper) {
      int score = -(child_upper - 1 + s->min_score);
      if (score >= beta) {
        store(s, key, moves, score - s->min_score + 1, 0);
        return score;
      }
    }
  }
  for (int i = 0; i < n; i++) {
    int c = candidates[i];
    uint64_t move = next & g->column[c], child_mask = mask | move;
    int score = standard
      ? -negamax_standard(s, current ^ mask, child_mask, moves + 1, -beta,
                          -alpha, wins_after[c], their_wins & ~move,
                          threat_after[c])
      : -negamax_general(s, current ^ mask, child_mask, moves + 1, -beta,
                         -alpha, wins_after[c], their_wins & ~move,
                         threat_after[c]);
    if (s->limit->stopped) return alpha;
    if (score >= beta) {
      store(s, key, moves, score - s->min_score + 1, 0);
      return score;
    }
    if (score > alpha) alpha = score;
  }
  store(s, key, moves, 0, alpha - s->min_score + 1);
  return alpha;
}

static int negamax_standard(solver *s, uint64_t current, uint64_t mask,
                            int moves, int alpha, int beta,
                            uint64_t their_wins, uint64_t my_wins, int threat) {
  return negamax_body(s, &standard_geometry, true, current, mask, moves,
                      alpha, beta, their_wins, my_wins, threat);
}

static int negamax_general(solver *s, uint64_t current, uint64_t mask,
                           int moves, int alpha, int beta,
                           uint64_t their_wins, uint64_t my_wins, int threat) {
  return negamax_body(s, &s->g, false, current, mask, moves, alpha, beta,
                      their_wins, my_wins, threat);
}

/* Score within (alpha, beta) of a position whose side to move cannot win
   at once and has played 'moves' chips in all; a bound outside it. */
static int negamax(solver *s, uint64_t current, uint64_t mask, int moves,
                   int alpha, int beta) {
  uint64_t their_wins = winning_cells(&s->g, current ^ mask, mask);
  uint64_t my_wins = winning_cells(&s->g, current, mask);
  return s->g.width == 7 && s->g.height == 6
         ? negamax_standard(s, current, mask, moves, alpha, beta, their_wins,
                            my_wins, NO_BOUND)
         : negamax_general(s, current, mask, moves, alpha, beta, their_wins,
                           my_wins, NO_BOUND);
}

int c4_immediate_win_score(const c4_board *board) {
  return (board->width * board->height + 1 - board->moves) / 2;
}

static void solver_init(solver *s, const c4_board *board, c4_table *table,
                        search_limit *limit) {
  geometry_init(&s->g, board);
  s->table = table;
  s->limit = limit;
  s->min_score = -(s->g.cells) / 2;
  const c4_book *book = table->book;
  s->book_plies = book && c4_book_width(book) == board->width &&
                  c4_book_height(book) == board->height
                  ? c4_book_plies(book) : -1;
  s->record_plies = table->recording ? c4_book_plies(table->recording) : -1;
  /* positions of another size would be read as this size's */
  if (table->width && (table->width != board->width ||
                       table->height != board->height))
    c4_table_clear(table);
  table->width = board->width;
  table->height = board->height;
}

/* How far from 0 the strong solve steps its window one at a time. */
#define NEAR_ZERO 4

c4_result c4_solve(const c4_board *board, c4_table *table,
                   search_limit *limit, bool weak) {
  return c4_solve_progress(board, table, limit, weak, NULL, NULL);
}

c4_result c4_solve_progress(const c4_board *board, c4_table *table,
                            search_limit *limit, bool weak,
                            c4_progress *progress, void *context) {
  solver s;
  solver_init(&s, board, table, limit);
  const geometry *g = &s.g;
  c4_result r = {0, 0, 0, true};
  uint64_t current = board->current, mask = board->mask;
  if (winning_cells(g, current, mask) & playable_cells(g, mask)) {
    int score = c4_immediate_win_score(board);
    r.score = r.lower = r.upper = weak ? 1 : score;
    return r;
  }
  int low = -(g->cells - board->moves) / 2;
  int high = (g->cells + 1 - board->moves) / 2;
  int book_lower, book_upper;
  if (board->moves <= s.book_plies &&
      c4_book_bounds(table->book, c4_book_key(table->book, current + mask),
                     &book_lower, &book_upper)) {
    table->book_hits++;
    low = book_lower > low ? book_lower : low;
    high = book_upper < high ? book_upper : high;
  }
  if (weak) {
    low = low < -1 ? -1 : low;
    high = high > 1 ? 1 : high;
  }
  /* Null windows narrow the interval.  While an end of it is where it
     started, the window leans out, to low / 2 or high / 2 (Pons): far
     from the score, those searches are quick, and they take big scores
     off the interval at once.  Then the sign, at 0; then, the hard
     positions having small scores, one step at a time away from 0 while
     within NEAR_ZERO of it, as the searches next to the score are the
     dear ones and each step is one of them; past that, halves. */
  const int start_low = low, start_high = high;
  while (low < high) {
    int mid = low + (high - low) / 2;
    if (low == start_low || high == start_high) {
      if (mid <= 0 && low / 2 < mid) mid = low / 2;
      else if (mid >= 0 && high / 2 > mid) mid = high / 2;
    } else if (low < 0 && high > 0) {
      mid = 0;
    } else if (low >= 0 && low < NEAR_ZERO) {
      mid = low;
    } else if (high <= 0 && high > -NEAR_ZERO) {
      mid = high - 1;
    }
    int score = negamax(&s, current, mask, board->moves, mid, mid + 1);
    if (limit->stopped) break;
    /* a bound past the interval (a weak solve's clipped range) tells
       no more than its end */
    if (score <= mid) high = score < low ? low : score;
    else low = score > high ? high : score;
    if (progress) progress(context, low, high, limit->nodes);
  }
  r.lower = low;
  r.upper = high;
  r.complete = low == high;
  r.score = low;
  if (weak && r.complete) r.score = (r.score > 0) - (r.score < 0);
  return r;
}

bool c4_analyze(const c4_board *board, c4_table *table, search_limit *limit,
                bool weak, int scores[C4_MAX_WIDTH]) {
  bool complete = true;
  for (int c = 0; c < C4_MAX_WIDTH; c++) scores[c] = C4_NO_SCORE;
  for (int c = 0; c < board->width; c++) {
    if (!c4_can_play(board, c)) continue;
    c4_board child = *board;
    c4_play(&child, c);
    if (c4_has_four(&child, c4_last_mover(&child))) {
      scores[c] = weak ? 1 : c4_immediate_win_score(board);
    } else if (child.moves == child.width * child.height) {
      scores[c] = 0;
    } else {
      c4_result r = c4_solve(&child, table, limit, weak);
      if (!r.complete) {
        complete = false;
        break;
      }
      scores[c] = -r.score;
    }
  }
  return complete;
}

/* Whether child, a position after one move, scores at most bound for its
   own side to move. */
static bool child_at_most(solver *s, const c4_board *parent,
                          const c4_board *child, int bound) {
  if (c4_has_four(child, c4_last_mover(child)))
    return -c4_immediate_win_score(parent) <= bound;
  if (child->moves == s->g.cells) return 0 <= bound;
  if (winning_cells(&s->g, child->current, child->mask) &
      playable_cells(&s->g, child->mask))
    return c4_immediate_win_score(child) <= bound;
  return negamax(s, child->current, child->mask, child->moves, bound,
                 bound + 1) <= bound;
}

/* A position worth v has children all worth at least -v to the other
   side, and the best moves lead to those worth exactly -v: one null
   window each tells them apart.  A weak score of -1 says every move
   loses, so any will do. */
int c4_best_move(const c4_board *board, c4_table *table, search_limit *limit,
                 bool weak, int score) {
  solver s;
  solver_init(&s, board, table, limit);
  for (int i = 0; i < s.g.width; i++) {
    int column = s.g.order[i];
    if (!c4_can_play(board, column)) continue;
    if (weak && score < 0) return column;
    c4_board child = *board;
    c4_play(&child, column);
    bool best = child_at_most(&s, board, &child, -score);
    if (limit->stopped) return -1;
    if (best) return column;
  }
  return -1;
}

/* ---- a heuristic for the generic searches ---- */

int c4_eval(const c4_board *board) {
  geometry g;
  geometry_init(&g, board);
  uint64_t mine = board->current, theirs = board->current ^ board->mask;
  int score = 16 * (count_bits(winning_cells(&g, mine, board->mask)) -
                    count_bits(winning_cells(&g, theirs, board->mask)));
  for (int c = 0; c < g.width; c++) {
    int weight = g.width / 2 - abs(2 * c - (g.width - 1)) / 2;
    score += weight * (count_bits(mine & g.column[c]) -
                       count_bits(theirs & g.column[c]));
  }
  return score;
}
