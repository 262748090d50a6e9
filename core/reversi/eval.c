/*
** eval.c: the midgame evaluation for Reversi, from the side to move, in
** hundredths of a disc of final margin.
**
** On 8x8 with at most TRAINED_MAX empty squares, a sum of weights that
** tools/train_reversi.c fits to exact scores of positions from
** semi-random games (eval.h says which features; Buro's Logistello and
** Edax evaluate so).  The weights come with the build
** (core/reversi/eval.weights); on first use they are spread into one
** table per number of empties, indexed by the configuration of each
** pattern as read, in base 3, from the board turned by each rotation.
**
** Elsewhere (4x4, 6x6, the 8x8 opening) the classic terms, weighted by
** how far the game has gone: mobility (moves now) and potential mobility
** (empty squares next to the other side's discs: moves to come),
** corners, the squares diagonally next to an empty corner (they give the
** corner away), stable discs, parity (the side that will play last in
** the board gets the last flips), and late in the game the discs
** themselves.
*/
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "eval.h"
#include "reversi.h"
#include "solve.h"

/* ---- the classic evaluation ---- */

/* The four corners of the board and the square diagonally inside each. */
static void corners_of(const reversi_board *b, int corner[4], int inner[4]) {
  int first = (8 - b->size) / 2, last = first + b->size - 1;
  int rows[2] = {first, last}, steps[2] = {1, -1};
  for (int i = 0; i < 4; i++) {
    int row = rows[i / 2], col = rows[i % 2];
    corner[i] = row * 8 + col;
    inner[i] = (row + steps[i / 2]) * 8 + col + steps[i % 2];
  }
}

static int count(uint64_t x) { return __builtin_popcountll(x); }

int reversi_eval_classic(const reversi_board *b) {
  uint64_t p = b->player, o = b->opponent, mask = b->mask;
  uint64_t empty = mask & ~(p | o);
  int empties = count(empty), squares = count(mask);
  /* 0 at the start, 256 at the end */
  int phase = 256 * (squares - 4 - empties) / (squares - 4);

  int mine = count(reversi_moves_of(p, o) & mask);
  int theirs = count(reversi_moves_of(o, p) & mask);
  int mobility = 100 * (mine - theirs) / (mine + theirs + 2);
  uint64_t near = reversi_neighbours(empty);
  int frontier = count(o & near) - count(p & near);

  int corner[4], inner[4], corners = 0, x_squares = 0;
  corners_of(b, corner, inner);
  for (int i = 0; i < 4; i++) {
    uint64_t c = (uint64_t)1 << corner[i], x = (uint64_t)1 << inner[i];
    corners += (p & c ? 1 : 0) - (o & c ? 1 : 0);
    if (empty & c) x_squares += (o & x ? 1 : 0) - (p & x ? 1 : 0);
  }

  int stable = count(reversi_stable(p, o, mask)) - count(reversi_stable(o, p, mask));
  int parity = empties & 1 ? 1 : -1;
  int discs = count(p) - count(o);

  int score = mobility * (12 - 6 * phase / 256)      /* up to 12 discs */
            + frontier * (40 - 20 * phase / 256)
            + corners * 600
            + x_squares * 250
            + stable * 120
            + parity * 30 * phase / 256
            + discs * 100 * phase * phase / (256 * 256);
  return score;
}

/* ---- patterns ---- */

#define TRAINED_MAX 32          /* more empties: the classic evaluation */
#define COLUMN_A 0x0101010101010101u

enum { EDGE, CORNER, BLOCK, ROW_2, ROW_3, ROW_4, DIAGONAL_8, DIAGONAL_7,
       DIAGONAL_6, DIAGONAL_5, DIAGONAL_4, PATTERNS };

/* Each pattern's squares on the board as it stands; the order sets the
   digits of its configuration, the first square the lowest. */
static const struct { int size; int8_t square[10]; } pattern[PATTERNS] = {
  {10, {0, 1, 2, 3, 4, 5, 6, 7, 9, 14}},        /* a1-h1, b2, g2 */
  {9, {0, 1, 2, 8, 9, 10, 16, 17, 18}},         /* a1-c3 */
  {10, {0, 1, 2, 3, 4, 8, 9, 10, 11, 12}},      /* a1-e2 */
  {8, {8, 9, 10, 11, 12, 13, 14, 15}},          /* a2-h2 */
  {8, {16, 17, 18, 19, 20, 21, 22, 23}},
  {8, {24, 25, 26, 27, 28, 29, 30, 31}},
  {8, {0, 9, 18, 27, 36, 45, 54, 63}},          /* a1-h8 */
  {7, {1, 10, 19, 28, 37, 46, 55}},             /* b1-h7 */
  {6, {2, 11, 20, 29, 38, 47}},
  {5, {3, 12, 21, 30, 39}},
  {4, {4, 13, 22, 31}},                         /* e1-h4 */
};

/* What read_patterns reads from each rotation of the board: a pattern,
   in the order of its squares or (when given) of these, which are the
   image of the pattern's by a symmetry.  The a1-h8 diagonal is read from
   two rotations only, the others turning it onto itself. */
enum { READ_EDGE, READ_CORNER, READ_BLOCK, READ_BLOCK_RIGHT, READ_ROW_2,
       READ_ROW_3, READ_ROW_4, READ_DIAGONAL_8, READ_DIAGONAL_7,
       READ_DIAGONAL_6, READ_DIAGONAL_5, READ_DIAGONAL_4, READS };

static const struct { int pattern; int8_t square[10]; } reads[READS] = {
  {EDGE, {-1}}, {CORNER, {-1}}, {BLOCK, {-1}},
  {BLOCK, {3, 4, 5, 6, 7, 11, 12, 13, 14, 15}}, /* d1-h2 */
  {ROW_2, {-1}}, {ROW_3, {-1}}, {ROW_4, {-1}}, {DIAGONAL_8, {-1}},
  {DIAGONAL_7, {-1}}, {DIAGONAL_6, {-1}}, {DIAGONAL_5, {-1}},
  {DIAGONAL_4, {-1}},
};

#define MOBILITY_MAX 24         /* more moves count as this many */
#define POTENTIAL_MAX 32

/* The features past the patterns, in each anchor's weights. */
enum { MOBILITY_MINE, MOBILITY_THEIRS = MOBILITY_MINE + MOBILITY_MAX + 1,
       POTENTIAL_MINE = MOBILITY_THEIRS + MOBILITY_MAX + 1,
       POTENTIAL_THEIRS = POTENTIAL_MINE + POTENTIAL_MAX + 1,
       BIAS = POTENTIAL_THEIRS + POTENTIAL_MAX + 1, PARITY, EXTRAS };

const int reversi_eval_anchor[EVAL_ANCHORS] = {10, 14, 18};

#define FIRST_ANCHOR 10
#define LAST_ANCHOR 18
#define STAGES (LAST_ANCHOR - FIRST_ANCHOR + 1)

static int power3(int n) { int x = 1; while (n--) x *= 3; return x; }

/* ---- the tables ---- */

/* The configurations of every read, then the extras: a stage's table. */
#define TABLE_SIZE (3 * 59049 + 19683 + 4 * 6561 + 2187 + 729 + 243 + 81 + \
                    EXTRAS)

static uint16_t base3[1024];    /* bits b9..b0 -> the same digits in base 3 */
/* Where each read starts in a stage's table, the extras after the last:
   3 to the power of each read's size, summed (make_tables checks them).
   Constants, so that a read's offset is part of its address. */
static const int read_offset[READS + 1] = {
  0, 59049, 78732, 137781, 196830, 203391, 209952, 216513, 223074, 225261,
  225990, 226233, 226314,
};
static int32_t weight_of[TABLE_SIZE];   /* the index of each entry's
                                           weight in an anchor's */
static int weight_count;        /* of an anchor */
static int16_t stage_table[STAGES][TABLE_SIZE];
static bool trained;
static pthread_once_t made = PTHREAD_ONCE_INIT;

/* Where symmetry k takes square. */
static int image_of(int square, int k) {
  return __builtin_ctzll(reversi_symmetry((uint64_t)1 << square, k));
}

/* Whether symmetry k maps the n squares from onto the squares to, as
   sets; if so, to[where[i]] is the image of from[i]. */
static bool maps_onto(const int8_t *from, const int8_t *to, int n, int k,
                      int where[10]) {
  for (int i = 0; i < n; i++) {
    int image = image_of(from[i], k), j = 0;
    while (j < n && to[j] != image) j++;
    if (j == n) return false;
    where[i] = j;
  }
  return true;
}

/* The configuration whose digit i is digit where[i] of x. */
static int permute(int x, const int where[10], int n) {
  int digit[10], y = 0;
  for (int i = 0; i < n; i++, x /= 3) digit[i] = x % 3;
  for (int i = n - 1; i >= 0; i--) y = 3 * y + digit[where[i]];
  return y;
}

/* One number of the weights' encoding (eval.h): false past the end. */
static bool read_varint(const unsigned char *in, size_t size, size_t *at,
                        uint32_t *z) {
  *z = 0;
  for (int shift = 0; shift <= 28; shift += 7) {
    if (*at >= size) return false;
    *z |= (uint32_t)(in[*at] & 0x7f) << shift;
    if (!(in[(*at)++] & 0x80)) return true;
  }
  return false;
}

/* Reads the weights (false when they are not those of these features). */
static bool decode(const unsigned char *in, size_t size, int16_t *weights,
                   int count) {
  if (size < 8 || memcmp(in, "RVW2", 4) != 0) return false;
  uint32_t n = in[4] | in[5] << 8 | in[6] << 16 | (uint32_t)in[7] << 24;
  if (n != (uint32_t)count) return false;
  size_t at = 8;
  int total = count * EVAL_ANCHORS;
  for (int i = 0; i < total;) {
    uint32_t z;
    if (!read_varint(in, size, &at, &z)) return false;
    if (z & 1) {                                /* a run of zeros */
      if (z / 2 + 1 > (uint32_t)(total - i)) return false;
      for (uint32_t k = 0; k <= z / 2; k++) weights[i++] = 0;
    } else {
      z /= 2;
      weights[i++] = (int16_t)(z & 1 ? -(int32_t)(z >> 1) - 1 : (int32_t)(z >> 1));
    }
  }
  return at == size;
}

static size_t write_varint(uint32_t z, unsigned char *out, size_t size,
                           size_t at) {
  do {
    if (at >= size) return 0;
    out[at++] = (unsigned char)((z & 0x7f) | (z > 0x7f ? 0x80 : 0));
    z >>= 7;
  } while (z);
  return at;
}

size_t reversi_eval_encode(const int16_t *weights, int count,
                           unsigned char *out, size_t size) {
  size_t at = 8;
  if (size < at) return 0;
  memcpy(out, "RVW2", 4);
  for (int i = 0; i < 4; i++) out[4 + i] = (unsigned char)((uint32_t)count >> 8 * i);
  int total = count * EVAL_ANCHORS;
  for (int i = 0; i < total && at;) {
    int32_t w = weights[i];
    if (w == 0) {
      int run = 1;
      while (i + run < total && weights[i + run] == 0) run++;
      at = write_varint(2 * (uint32_t)(run - 1) + 1, out, size, at);
      i += run;
    } else {
      uint32_t z = w < 0 ? 2 * (uint32_t)(-(w + 1)) + 1 : 2 * (uint32_t)w;
      at = write_varint(2 * z, out, size, at);
      i++;
    }
  }
  return at;
}

void reversi_eval_shares(int empties, double share[EVAL_ANCHORS]) {
  for (int a = 0; a < EVAL_ANCHORS; a++) share[a] = 0;
  if (empties <= reversi_eval_anchor[0]) {
    share[0] = 1;
    return;
  }
  for (int a = 0; a + 1 < EVAL_ANCHORS; a++) {
    int low = reversi_eval_anchor[a], high = reversi_eval_anchor[a + 1];
    if (empties < high) {
      share[a + 1] = (double)(empties - low) / (high - low);
      share[a] = 1 - share[a + 1];
      return;
    }
  }
  share[EVAL_ANCHORS - 1] = 1;
}

/* The index of each pattern configuration's weight (one weight for the
   configurations a symmetry of the pattern maps onto each other), and
   the tables of every stage when the weights are there. */
static void make_tables(void) {
  for (int bits = 0; bits < 1024; bits++)
    for (int i = 9; i >= 0; i--)
      base3[bits] = (uint16_t)(3 * base3[bits] + (bits >> i & 1));
  int first_weight[PATTERNS + 1], *canonical[PATTERNS];
  first_weight[0] = 0;
  for (int k = 0; k < PATTERNS; k++) {
    int n = pattern[k].size, configurations = power3(n), where[10], self = 0;
    int images[8][10];
    for (int sym = 1; sym < 8; sym++)
      if (maps_onto(pattern[k].square, pattern[k].square, n, sym, where))
        memcpy(images[self++], where, sizeof where);
    canonical[k] = malloc(configurations * sizeof(int));
    if (!canonical[k]) abort();
    int next = 0;
    for (int x = 0; x < configurations; x++) {
      int least = x;
      for (int s = 0; s < self; s++) {
        int y = permute(x, images[s], n);
        if (y < least) least = y;
      }
      /* the least of its images comes first, so it is numbered already */
      canonical[k][x] = least == x ? next++ : canonical[k][least];
    }
    first_weight[k + 1] = first_weight[k] + next;
  }
  weight_count = first_weight[PATTERNS] + EXTRAS;

  for (int r = 0; r < READS; r++)
    if (read_offset[r + 1] != read_offset[r] + power3(pattern[reads[r].pattern].size))
      abort();
  if (read_offset[READS] + EXTRAS != TABLE_SIZE) abort();
  for (int r = 0; r < READS; r++) {
    int k = reads[r].pattern, n = pattern[k].size, where[10];
    const int8_t *squares = reads[r].square[0] < 0 ? pattern[k].square
                                                   : reads[r].square;
    int sym = 0;
    while (!maps_onto(pattern[k].square, squares, n, sym, where)) sym++;
    for (int x = 0; x < power3(n); x++)
      weight_of[read_offset[r] + x] =
          first_weight[k] + canonical[k][permute(x, where, n)];
  }
  for (int i = 0; i < EXTRAS; i++)
    weight_of[read_offset[READS] + i] = first_weight[PATTERNS] + i;
  for (int k = 0; k < PATTERNS; k++) free(canonical[k]);

  int16_t *weights = malloc((size_t)weight_count * EVAL_ANCHORS * sizeof *weights);
  if (!weights) abort();
  trained = decode(reversi_weights, reversi_weights_size, weights, weight_count);
  for (int stage = 0; trained && stage < STAGES; stage++) {
    double share[EVAL_ANCHORS];
    reversi_eval_shares(FIRST_ANCHOR + stage, share);
    int16_t *t = stage_table[stage];
    for (int i = 0; i < TABLE_SIZE; i++) {
      double w = 0;
      for (int a = 0; a < EVAL_ANCHORS; a++)
        w += share[a] * weights[(size_t)a * weight_count + weight_of[i]];
      t[i] = (int16_t)(w < 0 ? w - 0.5 : w + 0.5);
    }
  }
  free(weights);
}

/* The tables are made on first use, once whatever the threads; after
   that a look at a flag. */
static atomic_bool ready;

static void make_ready(void) {
  make_tables();
  atomic_store_explicit(&ready, true, memory_order_release);
}

static void make_once(void) {
  if (!atomic_load_explicit(&ready, memory_order_acquire))
    pthread_once(&made, make_ready);
}

int reversi_eval_weight_count(void) {
  make_once();
  return weight_count;
}

bool reversi_eval_trained(void) {
  make_once();
  return trained;
}

/* Every feature of a position, as its index in a stage's table: the
   patterns as read from the board turned by each rotation, then the
   extras.  With a table t, returns the sum of t over them; without, lists
   them in at and returns how many.  (Inlined, each use keeps its half.) */
#define FEATURE(index) \
    (t ? (void)(sum += t[index]) : (void)(at[n++] = (int32_t)(index)))

static inline __attribute__((always_inline)) int
read_features(uint64_t p, uint64_t o, int32_t *at, const int16_t *t) {
  int n = 0, sum = 0;
  /* the board as it stands, turned 90 degrees, 180 and 270 */
  uint64_t mirrored_p = reversi_mirror(p), mirrored_o = reversi_mirror(o);
  uint64_t turned[4][2] = {
    {p, o},
    {reversi_transpose(mirrored_p), reversi_transpose(mirrored_o)},
    {__builtin_bswap64(mirrored_p), __builtin_bswap64(mirrored_o)},
    {reversi_transpose(__builtin_bswap64(p)), reversi_transpose(__builtin_bswap64(o))},
  };
  for (int r = 0; r < 4; r++) {
    uint64_t x = turned[r][0], y = turned[r][1];
#ifdef __BMI2__
/* A pattern's bits in the order of its squares: with BMI2, one parallel
   extract of its squares (the squares come in increasing order), where
   it is fast (not AMD before Zen 3: the Makefile says). */
#define READ(kind, bits) \
    FEATURE(read_offset[kind] + base3[_pext_u64(x, bits##_MASK)] + \
            2 * base3[_pext_u64(y, bits##_MASK)])
#define EDGE_BITS_MASK 0x42ffu
#define CORNER_BITS_MASK 0x070707u
#define BLOCK_BITS_MASK 0x1f1fu
#define BLOCK_RIGHT_BITS_MASK 0xf8f8u
#define ROW_2_BITS_MASK 0xff00u
#define ROW_3_BITS_MASK 0xff0000u
#define ROW_4_BITS_MASK 0xff000000u
#define D8_BITS_MASK 0x8040201008040201u
#define D7_BITS_MASK 0x0080402010080402u
#define D6_BITS_MASK 0x0000804020100804u
#define D5_BITS_MASK 0x0000008040201008u
#define D4_BITS_MASK 0x0000000080402010u
#else
#define READ(kind, bits) \
    FEATURE(read_offset[kind] + base3[bits(x)] + 2 * base3[bits(y)])
#endif
#define EDGE_BITS(b) ((b & 0xff) | (b >> 1 & 0x100) | (b >> 5 & 0x200))
#define CORNER_BITS(b) ((b & 7) | (b >> 5 & 0x38) | (b >> 10 & 0x1c0))
#define BLOCK_BITS(b) ((b & 0x1f) | (b >> 3 & 0x3e0))
#define BLOCK_RIGHT_BITS(b) ((b >> 3 & 0x1f) | (b >> 6 & 0x3e0))
#define ROW_2_BITS(b) (b >> 8 & 0xff)
#define ROW_3_BITS(b) (b >> 16 & 0xff)
#define ROW_4_BITS(b) (b >> 24 & 0xff)
#define DIAGONAL_BITS(b, mask, shift) ((unsigned)(((b & mask) * COLUMN_A) >> shift))
#define D8_BITS(b) DIAGONAL_BITS(b, 0x8040201008040201u, 56)
#define D7_BITS(b) DIAGONAL_BITS(b, 0x0080402010080402u, 57)
#define D6_BITS(b) DIAGONAL_BITS(b, 0x0000804020100804u, 58)
#define D5_BITS(b) DIAGONAL_BITS(b, 0x0000008040201008u, 59)
#define D4_BITS(b) DIAGONAL_BITS(b, 0x0000000080402010u, 60)
    READ(READ_EDGE, EDGE_BITS);
    READ(READ_CORNER, CORNER_BITS);
    READ(READ_BLOCK, BLOCK_BITS);
    READ(READ_BLOCK_RIGHT, BLOCK_RIGHT_BITS);
    READ(READ_ROW_2, ROW_2_BITS);
    READ(READ_ROW_3, ROW_3_BITS);
    READ(READ_ROW_4, ROW_4_BITS);
    if (r < 2) READ(READ_DIAGONAL_8, D8_BITS);
    READ(READ_DIAGONAL_7, D7_BITS);
    READ(READ_DIAGONAL_6, D6_BITS);
    READ(READ_DIAGONAL_5, D5_BITS);
    READ(READ_DIAGONAL_4, D4_BITS);
  }
  uint64_t empty = ~(p | o);
  int mine = count(reversi_moves_of(p, o)), theirs = count(reversi_moves_of(o, p));
  int potential_mine = count(reversi_neighbours(o) & empty);
  int potential_theirs = count(reversi_neighbours(p) & empty);
  int extras = read_offset[READS];
  FEATURE(extras + MOBILITY_MINE + (mine < MOBILITY_MAX ? mine : MOBILITY_MAX));
  FEATURE(extras + MOBILITY_THEIRS + (theirs < MOBILITY_MAX ? theirs : MOBILITY_MAX));
  FEATURE(extras + POTENTIAL_MINE +
          (potential_mine < POTENTIAL_MAX ? potential_mine : POTENTIAL_MAX));
  FEATURE(extras + POTENTIAL_THEIRS +
          (potential_theirs < POTENTIAL_MAX ? potential_theirs : POTENTIAL_MAX));
  FEATURE(extras + BIAS);
  if (count(empty) & 1) FEATURE(extras + PARITY);
  return t ? sum : n;
}

int reversi_eval_features(uint64_t p, uint64_t o,
                          uint32_t features[EVAL_FEATURES]) {
  make_once();
  int32_t at[EVAL_FEATURES];
  int n = read_features(p, o, at, NULL);
  for (int i = 0; i < n; i++) features[i] = (uint32_t)weight_of[at[i]];
  return n;
}

int reversi_eval(const reversi_board *b) {
  int empties = count(b->mask & ~(b->player | b->opponent));
  if (b->size != 8 || empties > TRAINED_MAX) return reversi_eval_classic(b);
  make_once();
  if (!trained) return reversi_eval_classic(b);
  int stage = empties < FIRST_ANCHOR ? 0
            : empties > LAST_ANCHOR ? STAGES - 1 : empties - FIRST_ANCHOR;
  return read_features(b->player, b->opponent, NULL, stage_table[stage]);
}
