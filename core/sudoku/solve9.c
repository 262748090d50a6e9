/*
** solve9.c: the 9x9 fast path.
**
** The candidates are kept digit by digit and band by band: for digit d
** and band b (rows 3b .. 3b+2) one word whose bit 9r + c says that d may
** go in row 3b + r, column c.  This is the layout of Zhou Yundong's
** solver as JCZSolve made it known; the code here is our own.
**
** In one band a digit must take exactly one cell in each of the three
** rows and in each of the three boxes, so the mini-rows (a row's three
** cells in one box) it uses form a 3x3 permutation matrix.  Of the nine
** mini-rows of a band, those no permutation within the ones still open
** can use are removed in one table look-up.  That single rule is naked
** and hidden singles in rows and boxes and both kinds of locked
** candidates (pointing and claiming) inside the band.  A row left with
** one cell places the digit there: the cell is taken from the other
** digits and its column from the digit's other bands.  After that, cells
** with one candidate left are placed, then the same rule on the
** stacks (pointing and claiming along columns, hidden singles in
** columns), computed with shifts on a digit's 27 mini-columns at once,
** and when nothing more follows, a cell with two candidates is guessed.
**
** Time goes as much to mispredicted branches as to instructions, so the
** hot paths avoid branches whose outcome depends on the candidates:
** words are cleared and marked changed without a test, and a cell's
** digits are read all at once (with SSE2, from the sign bits of eight
** words shifted together; a plain loop elsewhere).  SSE2 also counts
** the candidates of the three bands at once for the naked singles; the
** rules themselves stay scalar, which timed faster than computing them
** on vectors.
*/
#include <string.h>

#include "internal.h"

#if defined(__AVX2__) || defined(__BMI2__)
#include <immintrin.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define ALL27 0x7ffffffu

typedef struct state9 {
  uint32_t cand[28];      /* digit d, band b at 3d + b; the last word is
                             not used, so that a vector load of a digit's
                             three bands stays inside */
  uint32_t placed[3];     /* cells whose value is known, by band */
  uint32_t dirty;         /* bit 3d + b: that word changed since it was
                             last looked at */
  uint32_t pairs[3];      /* cells with two candidates, by band, as
                             propagate left them */
} state9;

/* ---- tables, made by the preprocessor ---- */

/* 512 entries f(0) .. f(511). */
#define T1(f, n) f(n), f((n) + 1)
#define T2(f, n) T1(f, n), T1(f, (n) + 2)
#define T3(f, n) T2(f, n), T2(f, (n) + 4)
#define T4(f, n) T3(f, n), T3(f, (n) + 8)
#define T5(f, n) T4(f, n), T4(f, (n) + 16)
#define T6(f, n) T5(f, n), T5(f, (n) + 32)
#define T7(f, n) T6(f, n), T6(f, (n) + 64)
#define T8(f, n) T7(f, n), T7(f, (n) + 128)
#define T9(f, n) T8(f, n), T8(f, (n) + 256)

/* Which of its three mini-rows a row's nine cells touch (with BMI2 a
   bit extract does it). */
#if !defined(__BMI2__)
#define MINIROWS(x) ((((x) & 7) != 0) | (((x) & 070) != 0) << 1 | \
                     (((x) & 0700) != 0) << 2)
static const uint8_t row_minirows[512] = {T9(MINIROWS, 0)};
#endif

/* Mini-row 3r + k of a band is row r, box k.  The six permutation
   matrices: for each, the mini-rows it uses. */
#define FIT(m, p) (((m) & (p)) == (p) ? (p) : 0)
#define PERMS(m) (FIT(m, 0x111) | FIT(m, 0x0a1) | FIT(m, 0x10a) | \
                  FIT(m, 0x08c) | FIT(m, 0x062) | FIT(m, 0x054))
/* Three mini-row bits to nine cell bits. */
#define SPREAD(x) (((x) & 1) * 7u + ((x) & 2) * 28u + ((x) & 4) * 112u)
#define CELLS(q) (SPREAD(q) | SPREAD((q) >> 3) << 9 | SPREAD((q) >> 6) << 18)
#define SHAPE(m) CELLS(PERMS(m))
/* The cells a digit may keep in a band whose open mini-rows are m; 0 when
   no permutation fits. */
static const uint32_t band_shape[512] = {T9(SHAPE, 0)};

/* For the givens of a digit in a band, by the mini-rows m they take: the
   cells of their rows and boxes, with the top bit set when two share a
   row or a box. */
#define TWO(x) (((x) & ((x) - 1)) != 0)
#define LINES(m) ((((m) & 7) ? 0x1ffu : 0) | (((m) & 070) ? 0x1ffu << 9 : 0) | \
                  (((m) & 0700) ? 0x1ffu << 18 : 0) | \
                  (((m) & 0111) ? 0x1c0e07u : 0) | (((m) & 0222) ? 0x1c0e07u << 3 : 0) | \
                  (((m) & 0444) ? 0x1c0e07u << 6 : 0) | \
                  (uint32_t)(TWO((m) & 7) | TWO((m) & 070) | TWO((m) & 0700) | \
                             TWO((m) & 0111) | TWO((m) & 0222) | TWO((m) & 0444)) << 31)
static const uint32_t given_lines[512] = {T9(LINES, 0)};

static const uint32_t row_cells[3] = {0x1ffu, 0x1ffu << 9, 0x1ffu << 18};
static const uint32_t box_cells[3] = {0x1c0e07u, 0x1c0e07u << 3,
                                      0x1c0e07u << 6};
static const uint8_t next_band[3] = {1, 2, 0}, prev_band[3] = {2, 0, 1};
static const uint8_t band_of[27] = {0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1,
                                    2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2};

static inline int count_bits_64(uint64_t x) {
#if defined(__GNUC__)
  return __builtin_popcountll(x);
#else
  return sudoku_bit_count((uint32_t)x) + sudoku_bit_count((uint32_t)(x >> 32));
#endif
}

static uint32_t column_cells(uint32_t columns) {   /* 9 bits to 27 */
  return columns | columns << 9 | columns << 18;
}

static uint32_t cell_columns(uint32_t cells) {     /* 27 bits to 9 */
  return (cells | cells >> 9 | cells >> 18) & 0x1ff;
}

/* ---- propagation ---- */

/* Without a branch: whether a word changes is hard to predict. */
static inline void clear(state9 *s, int i, uint32_t cells) {
  uint32_t x = s->cand[i], y = x & ~cells;
  s->cand[i] = y;
  s->dirty |= (uint32_t)(x != y) << i;
}

/* Places digit d at cell pos (0..26) of band b, which must still allow
   it; the cell's other candidates must already be gone, or be cleared
   by the caller. */
static void place(state9 *s, int d, int b, int pos) {
  uint32_t bit = UINT32_C(1) << pos;
  int i = 3 * d + b;
  clear(s, i, (row_cells[pos / 9] | box_cells[pos % 9 / 3]) & ~bit);
  uint32_t column = column_cells(UINT32_C(1) << pos % 9);
  clear(s, 3 * d + next_band[b], column);
  clear(s, 3 * d + prev_band[b], column);
  s->placed[b] |= bit;
}

/* Clears cells from the nine words of band b, each word marked changed
   when it held any of them; written out, with constant shifts. */
static inline void clear_band(state9 *s, int b, uint32_t cells) {
  uint32_t *c = &s->cand[b], changed = 0;
#define CLEAR_DIGIT(d) do { uint32_t x = c[3 * (d)]; \
                            c[3 * (d)] = x & ~cells; \
                            changed |= (uint32_t)((x & cells) != 0) << 3 * (d); \
                          } while (0)
  CLEAR_DIGIT(0); CLEAR_DIGIT(1); CLEAR_DIGIT(2); CLEAR_DIGIT(3); CLEAR_DIGIT(4);
  CLEAR_DIGIT(5); CLEAR_DIGIT(6); CLEAR_DIGIT(7); CLEAR_DIGIT(8);
#undef CLEAR_DIGIT
  s->dirty |= changed << b;
}

/* Places d at pos after taking the cell's other candidates away. */
static void place_alone(state9 *s, int d, int b, int pos) {
  uint32_t bit = UINT32_C(1) << pos, own = UINT32_C(1) << (3 * d + b);
  uint32_t was_dirty = s->dirty & own;
  clear_band(s, b, bit);
  s->cand[3 * d + b] |= bit;           /* its own word keeps it */
  s->dirty = (s->dirty & ~own) | was_dirty;
  place(s, d, b, pos);
}

/* The nine words of a band as they are now, read so that the digits a
   cell may take come out without a branch: loops whose length depends on
   the digits mispredict too often.  With SSE2 the cell's bit of eight
   words goes to their sign bits, read at once. */
typedef struct band_view {
#if defined(__SSE2__)
  __m128i low, high;          /* digits 0-3 and 4-7 */
  uint32_t last;              /* digit 8 */
#else
  uint32_t words[9];
#endif
} band_view;

static inline band_view view_band(const state9 *st, int b) {
  band_view v;
  const uint32_t *c = &st->cand[b];
#if defined(__SSE2__)
  v.low = _mm_set_epi32((int)c[9], (int)c[6], (int)c[3], (int)c[0]);
  v.high = _mm_set_epi32((int)c[21], (int)c[18], (int)c[15], (int)c[12]);
  v.last = c[24];
#else
  for (int d = 0; d < 9; d++) v.words[d] = c[3 * d];
#endif
  return v;
}

static inline uint32_t cell_digits(const band_view *v, int pos) {
#if defined(__SSE2__)
  __m128i shift = _mm_cvtsi32_si128(31 - pos);
  return (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v->low, shift))) |
         (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_sll_epi32(v->high, shift))) << 4 |
         (v->last >> pos & 1) << 8;
#else
  uint32_t digits = 0;
  for (int d = 0; d < 9; d++) digits |= (v->words[d] >> pos & 1) << d;
  return digits;
#endif
}

/* The mini-rows of a band word that hold any of its cells. */
static inline uint32_t band_minirows(uint32_t a) {
#if defined(__BMI2__)
  /* a mini-row's three cells folded onto its first, gathered in one go */
  return _pext_u32(a | a >> 1 | a >> 2, 01111111111);
#else
  return row_minirows[a & 0x1ff] | (uint32_t)row_minirows[a >> 9 & 0x1ff] << 3 |
         (uint32_t)row_minirows[a >> 18] << 6;
#endif
}

/* Applies the band rule to the words marked changed until none is;
   false when one is left no way.  Each round first applies it to every
   marked word, then places the rows' singles it found: whether a word
   has one is hard to predict, and this way a round mispredicts once, not
   once a word.  The words of all the rounds go to *touched. */
static bool band_rule(state9 *s, uint32_t *touched) {
  while (s->dirty) {
    uint32_t words = s->dirty, with_single = 0, single_of[27];
    s->dirty = 0;
    *touched |= words;
    do {
      int i = sudoku_lowest_bit(words);
      words &= words - 1;
      uint32_t a = s->cand[i];
      a &= band_shape[band_minirows(a)];
      if (!a) return false;
      s->cand[i] = a;
      /* rows left with one cell, not placed yet */
      uint32_t single = 0, r;
      r = a & row_cells[0];
      if (!(r & (r - 1))) single |= r;
      r = a & row_cells[1];
      if (!(r & (r - 1))) single |= r;
      r = a & row_cells[2];
      if (!(r & (r - 1))) single |= r;
      single &= ~s->placed[band_of[i]];
      single_of[i] = single;
      with_single |= (uint32_t)(single != 0) << i;
    } while (words);
    while (with_single) {
      int i = sudoku_lowest_bit(with_single);
      with_single &= with_single - 1;
      int b = band_of[i];
      /* another digit may have placed the cell this round: the word
         that has lost it finds the clash */
      uint32_t single = single_of[i] & ~s->placed[b];
      s->placed[b] |= single;
      uint32_t own = UINT32_C(1) << i, was_dirty = s->dirty & own;
      clear_band(s, b, single);
      s->cand[i] |= single;               /* its own word keeps them */
      s->dirty = (s->dirty & ~own) | was_dirty;
      uint32_t columns = column_cells(cell_columns(single));
      int d3 = i - b;
      clear(s, d3 + next_band[b], columns);
      clear(s, d3 + prev_band[b], columns);
    }
  }
  return true;
}

/* Places cells with a single candidate left; false on a cell with none.
   Sets *progress when it placed any. */
static bool naked_singles(state9 *s, bool *progress) {
  /* the cells with at least one, two and three candidates, band by band */
  uint32_t one[4], two[4], three[4];
#if defined(__SSE2__)
  /* the three bands at once */
  __m128i one_v = _mm_setzero_si128(), two_v = one_v, three_v = one_v;
  for (int d = 0; d < 9; d++) {
    __m128i a = _mm_loadu_si128((const __m128i *)&s->cand[3 * d]);
    three_v = _mm_or_si128(three_v, _mm_and_si128(two_v, a));
    two_v = _mm_or_si128(two_v, _mm_and_si128(one_v, a));
    one_v = _mm_or_si128(one_v, a);
  }
  _mm_storeu_si128((__m128i *)one, one_v);
  _mm_storeu_si128((__m128i *)two, two_v);
  _mm_storeu_si128((__m128i *)three, three_v);
#else
  for (int b = 0; b < 3; b++) {
    one[b] = two[b] = three[b] = 0;
    for (int d = 0; d < 9; d++) {
      uint32_t a = s->cand[3 * d + b];
      three[b] |= two[b] & a;
      two[b] |= one[b] & a;
      one[b] |= a;
    }
  }
#endif
  if ((one[0] & one[1] & one[2]) != ALL27) return false;
  for (int b = 0; b < 3; b++) {
    s->pairs[b] = two[b] & ~three[b];
    uint32_t single = one[b] & ~two[b] & ~s->placed[b];
    if (!single) continue;
    band_view view = view_band(s, b);
    while (single) {
      int pos = sudoku_lowest_bit(single);
      uint32_t bit = UINT32_C(1) << pos;
      single &= single - 1;
      /* a single of an earlier band may have taken the cell's last
         digit before the view, one of this band since */
      uint32_t digits = cell_digits(&view, pos);
      if (!digits) return false;
      int d = sudoku_lowest_bit(digits);
      if (!(s->cand[3 * d + b] & bit)) return false;
      place(s, d, b, pos);
      *progress = true;
    }
  }
  return true;
}

/* Mini-columns as 27 bits, band b's nine columns at bit 9b: column j of
   a stack takes the bit of column j + 1 (j + 2) of the same stack, and
   band b that of band b + 1 (b + 2). */
static inline uint32_t next_column(uint32_t x) {
  return (x >> 1 & 0333333333) | (x << 2 & 0444444444);
}

static inline uint32_t after_next_column(uint32_t x) {
  return (x >> 2 & 0111111111) | (x << 1 & 0666666666);
}

static inline uint32_t next_band_of(uint32_t x) {
  return (x >> 9 | x << 18) & ALL27;
}

static inline uint32_t after_next_band_of(uint32_t x) {
  return (x >> 18 | x << 9) & ALL27;
}

/* The band rule turned a quarter: in each stack a digit takes one cell
   in each column and each box, so its mini-columns (a column's three
   cells in one band) form a permutation matrix too.  This is pointing
   and claiming along columns, and hidden singles in columns.  It looks at
   the digits of the given words (bit 3d + b). */
static bool stack_rule(state9 *s, uint32_t words) {
  while (words) {
    int d3 = sudoku_lowest_bit(words);
    d3 -= band_of[d3];
    words &= ~(UINT32_C(7) << d3);
    /* the digit's open mini-columns, band b at bit 9b + column */
    uint32_t open = cell_columns(s->cand[d3]) | cell_columns(s->cand[d3 + 1]) << 9 |
                    cell_columns(s->cand[d3 + 2]) << 18;
    uint32_t next = next_column(open), after = after_next_column(open);
    uint32_t keep = open & ((next_band_of(next) & after_next_band_of(after)) |
                            (next_band_of(after) & after_next_band_of(next)));
    if (((keep | keep >> 1 | keep >> 2) & 0111111111) != 0111111111) return false;
    uint32_t gone = open & ~keep;
    if (gone) {
      clear(s, d3, column_cells(gone & 0x1ff));
      clear(s, d3 + 1, column_cells(gone >> 9 & 0x1ff));
      clear(s, d3 + 2, column_cells(gone >> 18));
    }
  }
  return true;
}

/* Applies the rules until none removes more; false on a contradiction.
   Without stacks, the rule on the stacks is left out. */
static bool propagate(state9 *s, bool stacks) {
  uint32_t touched = 0;       /* words the stack rule has not seen */
  for (;;) {
    if (!band_rule(s, &touched)) return false;
    bool progress = false;
    if (!naked_singles(s, &progress)) return false;
    if (progress) continue;
    if (!stacks) return true;
    uint32_t digits = touched;
    touched = 0;
    if (!stack_rule(s, digits)) return false;
    if (!s->dirty) return true;
  }
}

/* ---- search ---- */

typedef struct solver9 {
  sudoku_search *s;
  bool stop;
  bool thorough;            /* scores every guess and runs the stack rule:
                               once a guess has met a contradiction, and
                               from the start when the first solution is
                               wanted or every solution is visited, so
                               that they come in the order they always
                               did (a generator's grids depend on it) */
} solver9;

static int open_cells(const state9 *st) {
  return 81 - sudoku_bit_count(st->placed[0]) - sudoku_bit_count(st->placed[1]) -
         sudoku_bit_count(st->placed[2]);
}

static void to_grid(const state9 *st, sudoku_grid *grid) {
  sudoku_init(grid, 9);
#if defined(__AVX2__)
  /* a band's 27 cells as 32 bytes: each digit's word spread to a byte
     per cell, 0xff where it is set; the bands are written in order, each
     over the five zero bytes the one before wrote past its end, and the
     last through a buffer, as a Lua puzzle's memory ends at its 81st cell */
  const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i bit = _mm256_set1_epi64x((long long)UINT64_C(0x8040201008040201));
  for (int b = 0; b < 3; b++) {
    __m256i cells = _mm256_setzero_si256();
    for (int d = 0; d < 9; d++) {
      __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32((int)st->cand[3 * d + b]), spread);
      __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(bytes, bit), bit);
      cells = _mm256_or_si256(cells, _mm256_and_si256(set, _mm256_set1_epi8((char)(d + 1))));
    }
    if (b < 2) {
      _mm256_storeu_si256((__m256i *)&grid->cell[27 * b], cells);
    } else {
      uint8_t last[32];
      _mm256_storeu_si256((__m256i *)last, cells);
      memcpy(&grid->cell[54], last, 27);
    }
  }
#else
  for (int d = 0; d < 9; d++)
    for (int b = 0; b < 3; b++)
      for (uint32_t a = st->cand[3 * d + b]; a; a &= a - 1)
        grid->cell[27 * b + sudoku_lowest_bit(a)] = (uint8_t)(d + 1);
#endif
}

/* A cell's peers in its own band (its row and box, less itself), and the
   column of a cell in every band. */
#define PEERS(p) ((0x1ffu << 9 * ((p) / 9) | 0x1c0e07u << 3 * ((p) % 9 / 3)) & \
                  ~(1u << (p)))
#define COLUMN(p) (0x40201u << (p) % 9)
#define BAND27(f) f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), \
                  f(9), f(10), f(11), f(12), f(13), f(14), f(15), f(16), \
                  f(17), f(18), f(19), f(20), f(21), f(22), f(23), f(24), \
                  f(25), f(26)
static const uint32_t band_peers[27] = {BAND27(PEERS)};
static const uint32_t column_of[27] = {BAND27(COLUMN)};

/* The cell to guess, as band and position, and its candidates as digits.
   A cell with two candidates when there is one: of those, the one whose
   two digits have most candidates among its peers, so that either guess
   removes most, a candidate counting PAIR_WEIGHT times more when its cell
   has two candidates, since removing it places that cell.  (Over the
   first such cell, peers alone cut the guesses on the hardest sets by a
   third; the weight, chosen by callgrind counts on subsets of the
   reference sets, cuts the work by a further 10 to 20%.)  With FEW_OPEN
   cells or fewer still open, the first cell with two: so near the end
   the choice saves less than it costs (on the serg set, whose puzzles
   have many solutions, it saves nothing; there this is 6% fewer
   instructions, against 1 to 2% more on the hardest sets).  The same
   with up to SHALLOW_OPEN cells open until the search turns thorough (a
   counting search that has met no dead end yet): until then it may be
   in a puzzle with many solutions, where any guess leads to one (on the
   serg set, counting to two, this is 14% fewer instructions; 2.5% more
   on the 17-clue set, 0.5 to 1.3% more on the others).  Else a cell
   with fewest candidates. */
#define PAIR_WEIGHT 4
#define FEW_OPEN 30
#define SHALLOW_OPEN 46
static uint32_t choose(const state9 *st, bool thorough, int *band, int *pos) {
  int best = -1;
  uint32_t best_digits = 0;
  int best_band = 0, best_pos = 0;   /* locals: stores through band and pos
                                        could change the state for all the
                                        compiler knows */
  const uint32_t *pairs = st->pairs;
  if (open_cells(st) <= (thorough ? FEW_OPEN : SHALLOW_OPEN))
    for (int b = 0; b < 3; b++)
      if (pairs[b]) {
        *band = b;
        *pos = sudoku_lowest_bit(pairs[b]);
        band_view view = view_band(st, b);
        return cell_digits(&view, *pos);
      }
  for (int b = 0; b < 3; b++) {
    if (!pairs[b]) continue;
    int nb = next_band[b], pb = prev_band[b];
    uint32_t pairs_here = pairs[b], pairs_next = pairs[nb], pairs_prev = pairs[pb];
    band_view view = view_band(st, b);
    for (uint32_t q = pairs[b]; q; q &= q - 1) {
      int p = sudoku_lowest_bit(q);
      uint32_t digits = cell_digits(&view, p);
      /* a cell's peers: in its band in the low half of a word, in its
         column in the other two bands in the high half, the second of
         them one bit up (a column's cells are nine bits apart) */
      uint32_t peers = band_peers[p], column = column_of[p];
      uint64_t in_pairs = (pairs_here & peers) |
                          (uint64_t)((pairs_next & column) | (pairs_prev & column) << 1) << 32;
      int score = 0;
      for (uint32_t left = digits; left; left &= left - 1) {
        const uint32_t *a = &st->cand[3 * sudoku_lowest_bit(left)];
        uint64_t seen = (a[b] & peers) |
                        (uint64_t)((a[nb] & column) | (a[pb] & column) << 1) << 32;
        score += count_bits_64(seen) + (PAIR_WEIGHT - 1) * count_bits_64(seen & in_pairs);
      }
      if (score > best) {
        best = score;
        best_digits = digits;
        best_band = b;
        best_pos = p;
      }
    }
  }
  *band = best_band;
  *pos = best_pos;
  if (best < 0) {
    /* no cell with two: the first with fewest, from the cells with at
       least k candidates for each k, counted bit-parallel */
    uint32_t least[3][11];
    for (int b = 0; b < 3; b++) {
      least[b][0] = ALL27;
      for (int k = 1; k < 11; k++) least[b][k] = 0;
      for (int d = 0; d < 9; d++) {
        uint32_t a = st->cand[3 * d + b];
        for (int k = d + 1; k > 0; k--) least[b][k] |= least[b][k - 1] & a;
      }
    }
    for (int k = 3; k < 10 && best < 0; k++)
      for (int b = 0; b < 3; b++) {
        uint32_t exactly = least[b][k] & ~least[b][k + 1];
        if (exactly) {
          best = k;
          *band = b;
          *pos = sudoku_lowest_bit(exactly);
          break;
        }
      }
  }
  if (best_digits) return best_digits;
  band_view v = view_band(st, *band);
  return cell_digits(&v, *pos);
}

static void search(solver9 *sv, state9 *st) {
  for (;;) {
    /* until the search turns thorough the stack rule is left out too:
       on the serg set a further 12% fewer instructions, under 1% more
       on the others */
    if (!propagate(st, sv->thorough || open_cells(st) > SHALLOW_OPEN)) {
      sv->thorough = true;
      return;
    }
    if ((st->placed[0] & st->placed[1] & st->placed[2]) == ALL27) {
      sudoku_search *s = sv->s;
      if (sudoku_needs_grid(s)) {
        sudoku_grid solution;
        to_grid(st, &solution);
        if (sudoku_found(s, &solution)) sv->stop = true;
      } else if (sudoku_found(s, NULL)) {   /* counted, not read */
        sv->stop = true;
      }
      return;
    }
    int b = 0, pos = 0;
    uint32_t digits = choose(st, sv->thorough, &b, &pos);
    for (;;) {
      int d = sudoku_lowest_bit(digits);
      digits &= digits - 1;
      if (sudoku_guess(sv->s)) {
        sv->stop = true;
        return;
      }
      if (!digits) {
        place_alone(st, d, b, pos);
        break;
      }
      state9 child = *st;
      place_alone(&child, d, b, pos);
      search(sv, &child);
      if (sv->stop) return;
      clear(st, 3 * d + b, UINT32_C(1) << pos);
    }
  }
}

/* at[3v + b]: the cells of band b that hold v (0: empty).  With SSE2
   (AVX2) a band's cells are compared with each value 16 (32) at a time.
   A band is 27 bytes of the grid, and no load may pass the 81st cell: a
   Lua puzzle's memory ends there.  So AVX2 loads the last band from 5
   bytes before it, and SSE2 a band's second half from its 12th cell. */
static void cells_by_value(const sudoku_grid *grid, uint32_t at[30]) {
  for (int b = 0; b < 3; b++) {
    const uint8_t *cell = &grid->cell[27 * b];
#if defined(__AVX2__)
    int back = b == 2 ? 5 : 0;
    __m256i x = _mm256_loadu_si256((const __m256i *)(cell - back));
    for (int v = 0; v < 10; v++)
      at[3 * v + b] = (uint32_t)_mm256_movemask_epi8(
                          _mm256_cmpeq_epi8(x, _mm256_set1_epi8((char)v))) >> back & ALL27;
#elif defined(__SSE2__)
    __m128i low = _mm_loadu_si128((const __m128i *)cell);
    __m128i high = _mm_loadu_si128((const __m128i *)(cell + 11));
    for (int v = 0; v < 10; v++) {
      __m128i value = _mm_set1_epi8((char)v);
      at[3 * v + b] = ((uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(low, value)) |
                       (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(high, value)) << 11) &
                      ALL27;
    }
#else
    for (int v = 0; v < 10; v++) at[3 * v + b] = 0;
    for (int pos = 0; pos < 27; pos++) at[3 * cell[pos] + b] |= UINT32_C(1) << pos;
#endif
  }
}

/* The state with the givens placed, built directly rather than by placing
   them one by one; false on givens that clash. */
static bool start(const sudoku_grid *grid, state9 *st) {
  /* at[3 + 3d + b]: the givens of digit d in band b */
  uint32_t at[30];
  cells_by_value(grid, at);
  uint32_t given[3] = {ALL27 & ~at[0], ALL27 & ~at[1], ALL27 & ~at[2]};
  for (int d3 = 3; d3 < 30; d3 += 3) {
    uint32_t columns = 0, taken[3], clash = 0;
    for (int b = 0; b < 3; b++) {
      uint32_t here = at[d3 + b], col = cell_columns(here);
      uint32_t minirows = band_minirows(here);
      taken[b] = given_lines[minirows];
      /* twice in a column, a mini-row, a row or a box */
      int n = sudoku_bit_count(here);
      clash |= (columns & col) | taken[b] >> 31 |
               (uint32_t)(sudoku_bit_count(col) != n) |
               (uint32_t)(sudoku_bit_count(minirows) != n);
      columns |= col;
    }
    if (clash) return false;
    for (int b = 0; b < 3; b++)
      st->cand[d3 - 3 + b] =
          (ALL27 & ~taken[b] & ~column_cells(columns) & ~given[b]) | at[d3 + b];
  }
  st->cand[27] = 0;
  st->placed[0] = given[0];
  st->placed[1] = given[1];
  st->placed[2] = given[2];
  st->dirty = ALL27;
  return true;
}

bool sudoku_solve9(const sudoku_grid *grid, sudoku_search *s) {
  solver9 sv = {s, false, s->max_solutions == 1 || s->visit};
  state9 st;
  if (!start(grid, &st)) return true;      /* givens that clash: none */
  search(&sv, &st);
  if (sv.stop) s->complete = false;
  return true;
}
