/*
** shanten.c: how far a hand is from complete, exactly, by tables.
**
** The distance of a hand is the fewest tiles to add before it holds a
** complete hand (never more than four of a kind); the shanten number is
** that less one.  It splits by suit: the distance is the least sum,
** over the ways to share out the melds and the pair among the suits, of
** each suit's distance to that many melds and pairs.  So each suit is
** looked up in a table, need[v][m][p], for every count vector v of a
** suit (nine kinds for m, p and s, seven without sequences for honors;
** at most 14 tiles), and four lookups and a few additions give the
** answer.
**
** The tables are built once, in about a tenth of a second, from two
** facts (t ranges over the vectors that are exactly m melds and p
** pairs):
**   need = 3m + 2p - best, best(v) = the most tiles v shares with a t;
**   best(v) = |v| when v is inside some t, else max over i of best(v-e_i)
** (if v is inside no t, the best t leaves some tile of v unused, and
** dropping it costs nothing).  And v is inside some t when it is one or
** v+e_i is inside one, so both stay among vectors of at most 14 tiles.
** The vectors are numbered in lexicographic order, so v-e_i comes
** before v and v+e_i after it.
*/
#include <pthread.h>
#include <string.h>

#include "mahjong/mahjong.h"

#define SUIT_TILES 14
#define ENTRY 10                    /* index 2m + p: m 0..4 melds, p 0..1 */
#define NUMBER_VECTORS 405350       /* 9 counts 0..4 summing to <= 14 */
#define HONOR_VECTORS 43130         /* 7 such counts */

/* A vector's number is the sum over its kinds of offset[i][sum of the
   counts before i][count of i].  Looking it up a kind at a time was
   two thirds of a shanten's cost, so it is split in two: the first
   HEAD kinds' part (and their count) by the base-5 number of their
   counts, and the rest's part by that count and their base-5 number. */
#define HEAD 5
#define HEADS 3125                  /* 5^HEAD */
#define TAILS 625                   /* 5^(9 - HEAD) */

typedef struct suit_table {
  int kinds;
  bool sequences;
  uint32_t offset[9][SUIT_TILES + 1][5];
  uint8_t (*need)[ENTRY];
  uint32_t size;
  uint32_t head[HEADS];             /* part | count << 24 */
  uint32_t tail[SUIT_TILES + 1][TAILS];
} suit_table;

static uint8_t number_need[NUMBER_VECTORS][ENTRY];
static uint8_t honor_need[HONOR_VECTORS][ENTRY];
static suit_table numbers = {9, true, {{{0}}}, number_need, NUMBER_VECTORS, {0}, {{0}}};
static suit_table honors = {7, false, {{{0}}}, honor_need, HONOR_VECTORS, {0}, {{0}}};

/* The part of a vector's number that kinds from..to-1 give, their
   counts the base-5 digits of x, after sum tiles before them; false
   when the tiles would pass SUIT_TILES (no such vector: its entry is
   0, the number of a vector that exists). */
static bool part_of(const suit_table *t, int from, int to, unsigned x, int *sum,
                    uint32_t *part) {
  *part = 0;
  for (int i = from; i < to; i++, x /= 5) {
    int v = (int)(x % 5);
    if (*sum + v > SUIT_TILES) return false;
    *part += t->offset[i][*sum][v];
    *sum += v;
  }
  return true;
}

static void split_numbers(suit_table *t) {
  int head = t->kinds - 9 + HEAD;
  unsigned heads = 1, tails = 1;
  for (int i = 0; i < head; i++) heads *= 5;
  for (int i = head; i < t->kinds; i++) tails *= 5;
  for (unsigned x = 0; x < heads; x++) {
    int sum = 0;
    uint32_t part;
    t->head[x] = part_of(t, 0, head, x, &sum, &part) ? part | (uint32_t)sum << 24 : 0;
  }
  for (int before = 0; before <= SUIT_TILES; before++)
    for (unsigned x = 0; x < tails; x++) {
      int sum = before;
      uint32_t part;
      t->tail[before][x] = part_of(t, head, t->kinds, x, &sum, &part) ? part : 0;
    }
}

static void number_vectors(suit_table *t) {
  uint32_t rest[10][SUIT_TILES + 1];    /* ways to fill kinds i.. from sum s */
  for (int s = 0; s <= SUIT_TILES; s++) rest[t->kinds][s] = 1;
  for (int i = t->kinds - 1; i >= 0; i--) {
    for (int s = 0; s <= SUIT_TILES; s++) {
      uint32_t ways = 0;
      for (int x = 0; x <= 4; x++) {
        t->offset[i][s][x] = ways;
        if (s + x <= SUIT_TILES) ways += rest[i + 1][s + x];
      }
      rest[i][s] = ways;
    }
  }
  split_numbers(t);
}

/* During the build an entry first holds two bit sets of the (m, p) for
   which v is exactly m melds and p pairs (bytes 0-1), and is inside such
   a set (bytes 2-3), as 1 << (2m + p); then best(v) for each (m, p). */
static uint16_t get_bits(const uint8_t *entry, int at) {
  return (uint16_t)(entry[at] | entry[at + 1] << 8);
}

static void set_bits(uint8_t *entry, int at, unsigned bits) {
  entry[at] = (uint8_t)bits;
  entry[at + 1] = (uint8_t)(bits >> 8);
}

#define PAIRLESS 0x155u             /* the bits with p = 0 */
#define ALL_BITS 0x3ffu

/* The number of the vector of counts v (kinds: 9 or 7; each count at
   most 4, at most SUIT_TILES in all), by the split tables. */
static inline uint32_t rank_of(const suit_table *t, const uint8_t *v, int kinds) {
  int head = kinds - 9 + HEAD;
  unsigned x = 0, y = 0;
  for (int i = head; i-- > 0;) x = 5 * x + v[i];
  for (int i = kinds; i-- > head;) y = 5 * y + v[i];
  uint32_t h = t->head[x];
  return (h & 0xffffff) + t->tail[h >> 24][y];
}

static inline uint32_t rank(const suit_table *t, const uint8_t *v) {
  return t->kinds == 9 ? rank_of(t, v, 9) : rank_of(t, v, 7);
}

/* The vector after v in their order (the last kinds change first);
   returns its tile count, given v's. */
static int next_vector(const suit_table *t, uint8_t *v, int sum) {
  for (int i = t->kinds - 1; i >= 0; i--) {
    if (v[i] < 4 && sum < SUIT_TILES) {
      v[i]++;
      return sum + 1;
    }
    sum -= v[i];
    v[i] = 0;
  }
  return 0;
}

/* The vector before v: one less at the last kind that has any, and the
   kinds after it as full as the tiles left allow. */
static int previous_vector(const suit_table *t, uint8_t *v, int sum) {
  int i = t->kinds - 1;
  while (i >= 0 && v[i] == 0) i--;
  if (i < 0) return 0;
  v[i]--;
  sum--;
  for (int j = i + 1; j < t->kinds; j++) {
    int x = SUIT_TILES - sum < 4 ? SUIT_TILES - sum : 4;
    v[j] = (uint8_t)x;
    sum += x;
  }
  return sum;
}

static void build(suit_table *t) {
  number_vectors(t);
  uint8_t v[9] = {0};
  int k = t->kinds, sum = 0;
  /* exactly m melds and p pairs: take a meld or a pair away */
  set_bits(t->need[0], 0, 1);
  for (uint32_t r = 1; r < t->size; r++) {
    sum = next_vector(t, v, sum);
    unsigned exact = 0;
    for (int i = 0; i < k; i++) {
      if (v[i] >= 3) {
        v[i] -= 3;
        exact |= (unsigned)get_bits(t->need[rank(t, v)], 0) << 2;
        v[i] += 3;
      }
      if (v[i] >= 2) {
        v[i] -= 2;
        exact |= (get_bits(t->need[rank(t, v)], 0) & PAIRLESS) << 1;
        v[i] += 2;
      }
      if (t->sequences && i + 2 < k && v[i] && v[i + 1] && v[i + 2]) {
        v[i]--, v[i + 1]--, v[i + 2]--;
        exact |= (unsigned)get_bits(t->need[rank(t, v)], 0) << 2;
        v[i]++, v[i + 1]++, v[i + 2]++;
      }
    }
    set_bits(t->need[r], 0, exact & ALL_BITS);
  }
  /* inside some such set (v is the last vector) */
  for (uint32_t r = t->size; r-- > 0; sum = previous_vector(t, v, sum)) {
    unsigned inside = get_bits(t->need[r], 0);
    for (int i = 0; i < k && sum < SUIT_TILES; i++) {
      if (v[i] == 4) continue;
      v[i]++;
      inside |= get_bits(t->need[rank(t, v)], 2);
      v[i]--;
    }
    set_bits(t->need[r], 2, inside);
  }
  /* best, then need */
  memset(t->need[0], 0, ENTRY);
  for (uint32_t r = 1; r < t->size; r++) {
    sum = next_vector(t, v, sum);
    unsigned inside = get_bits(t->need[r], 2);
    uint32_t below[9];
    int n = 0;
    for (int i = 0; i < k; i++) {
      if (!v[i]) continue;
      v[i]--;
      below[n++] = rank(t, v);
      v[i]++;
    }
    for (int b = 0; b < ENTRY; b++) {
      int best = 0;
      if (inside >> b & 1) {
        best = sum;
      } else {
        for (int j = 0; j < n; j++)
          if (t->need[below[j]][b] > best) best = t->need[below[j]][b];
      }
      t->need[r][b] = (uint8_t)best;
    }
  }
  for (uint32_t r = 0; r < t->size; r++)
    for (int b = 0; b < ENTRY; b++)
      t->need[r][b] = (uint8_t)(3 * (b / 2) + 2 * (b % 2) - t->need[r][b]);
}

static pthread_once_t built = PTHREAD_ONCE_INIT;

static void build_tables(void) {
  build(&numbers);
  build(&honors);
}

void mj_shanten_init(void) {
  pthread_once(&built, build_tables);
}

/* ---- the three forms ---- */

/* out[m][p]: the least a[m1][p1] + b[m2][p2] with m1 + m2 = m, p1 + p2 = p. */
#if defined(__SSE2__)
/* The same sixteen bytes at a time: for each m1, b moved up by 2 m1
   bytes (the lanes below filled with 255, no such split) gives a[m1][0]
   + b[m - m1][p] in lane 2m + p, and moved up one byte more, with
   a[m1][1] on the odd lanes, a[m1][1] + b[m - m1][0] in lane 2m + 1.
   Sums saturate, so 255 stays "none"; a need is at most 14. */
#include <emmintrin.h>

static inline __m128i load_entry(const uint8_t *e) {
  uint64_t low;
  memcpy(&low, e, 8);
  __m128i v = _mm_insert_epi16(_mm_cvtsi64_si128((long long)low), e[8] | e[9] << 8, 4);
  return _mm_or_si128(v, _mm_set_epi32(-1, (int)0xffff0000, 0, 0));
}

#define SPLIT(m1) do { \
    __m128i low = _mm_srli_si128(_mm_set1_epi8(-1), 16 - 2 * (m1)); \
    __m128i low1 = _mm_srli_si128(_mm_set1_epi8(-1), 15 - 2 * (m1)); \
    __m128i shifted = _mm_or_si128(_mm_slli_si128(b, 2 * (m1)), low); \
    __m128i shifted1 = _mm_or_si128(_mm_slli_si128(b, 2 * (m1) + 1), low1); \
    __m128i none = _mm_set1_epi8((char)a[2 * (m1)]); \
    __m128i pair = _mm_or_si128(_mm_set1_epi8((char)a[2 * (m1) + 1]), even); \
    best = _mm_min_epu8(best, _mm_adds_epu8(none, shifted)); \
    best = _mm_min_epu8(best, _mm_adds_epu8(pair, shifted1)); \
  } while (0)

static void merge(const uint8_t *a, const uint8_t *b_entry, uint8_t *out) {
  __m128i b = load_entry(b_entry), best = _mm_set1_epi8(-1);
  __m128i even = _mm_set1_epi16(0x00ff);
  SPLIT(0);
  SPLIT(1);
  SPLIT(2);
  SPLIT(3);
  SPLIT(4);
  uint8_t all[16];
  _mm_storeu_si128((__m128i *)all, best);
  memcpy(out, all, ENTRY);
}
#else
static void merge(const uint8_t *a, const uint8_t *b, uint8_t *out) {
  for (int m = 0; m <= 4; m++) {
    int none = 99, pair = 99;
    for (int m1 = 0; m1 <= m; m1++) {
      int m2 = m - m1;
      int x = a[2 * m1] + b[2 * m2];
      if (x < none) none = x;
      x = a[2 * m1 + 1] + b[2 * m2];
      if (x < pair) pair = x;
      x = a[2 * m1] + b[2 * m2 + 1];
      if (x < pair) pair = x;
    }
    out[2 * m] = (uint8_t)none;
    out[2 * m + 1] = (uint8_t)pair;
  }
}
#endif

/* The need of one suit of a hand (3: the honors). */
static inline const uint8_t *suit_need(const uint8_t count[MJ_KINDS], int suit) {
  return suit < 3 ? number_need[rank_of(&numbers, count + 9 * suit, 9)]
                  : honor_need[rank_of(&honors, count + MJ_HONORS, 7)];
}

/* The least a[m][p1] + b[melds - m][p2] with one pair between them:
   the distance of a hand split in two parts. */
static inline int join(const uint8_t *a, const uint8_t *b, int melds) {
  int best = 99;
  for (int m = 0; m <= melds; m++) {
    int x = a[2 * m + 1] + b[2 * (melds - m)];
    if (x < best) best = x;
    x = a[2 * m] + b[2 * (melds - m) + 1];
    if (x < best) best = x;
  }
  return best;
}

/* The distance, with the tables built. */
static int regular_distance(const uint8_t count[MJ_KINDS], int melds) {
  uint8_t two[ENTRY], three[ENTRY];
  merge(suit_need(count, 0), suit_need(count, 1), two);
  merge(two, suit_need(count, 2), three);
  return join(three, suit_need(count, 3), melds);
}

static int clamp_melds(int tiles) {
  return tiles < 0 ? 0 : tiles / 3 > 4 ? 4 : tiles / 3;
}

int mj_shanten_regular(const uint8_t count[MJ_KINDS], int melds) {
  mj_shanten_init();
  return regular_distance(count, melds < 0 ? 0 : melds > 4 ? 4 : melds) - 1;
}

/* The kinds held (a bit each, kind k: bit k) and those held twice or
   more, for seven pairs and kokushi. */
static inline void held_kinds(const uint8_t count[MJ_KINDS], uint64_t *held,
                              uint64_t *paired) {
  uint64_t h = 0, p = 0;
  int k = 0;
#if defined(__SSE2__)
  /* sixteen kinds at a time (a count is at most 4: signed bytes compare) */
  for (; k + 16 <= MJ_KINDS; k += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(count + k));
    h |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_setzero_si128())) << k;
    p |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(1))) << k;
  }
#endif
  for (; k < MJ_KINDS; k++) {
    h |= (uint64_t)(count[k] >= 1) << k;
    p |= (uint64_t)(count[k] >= 2) << k;
  }
  *held = h;
  *paired = p;
}

static int chiitoitsu(uint64_t held, uint64_t paired) {
  int kinds = __builtin_popcountll(held);
  return 6 - __builtin_popcountll(paired) + (kinds < 7 ? 7 - kinds : 0);
}

/* The thirteen orphans: 1 and 9 of each suit, the honors. */
#define ORPHANS (0x101ull | 0x101ull << 9 | 0x101ull << 18 | 0x7full << 27)

static int kokushi(uint64_t held, uint64_t paired) {
  return 13 - __builtin_popcountll(held & ORPHANS) - ((paired & ORPHANS) != 0);
}

int mj_shanten_chiitoitsu(const uint8_t count[MJ_KINDS]) {
  uint64_t held, paired;
  held_kinds(count, &held, &paired);
  return chiitoitsu(held, paired);
}

int mj_shanten_kokushi(const uint8_t count[MJ_KINDS]) {
  uint64_t held, paired;
  held_kinds(count, &held, &paired);
  return kokushi(held, paired);
}

int mj_shanten(const uint8_t count[MJ_KINDS], int tiles) {
  int best = mj_shanten_regular(count, tiles / 3);
  if (tiles >= 13) {
    uint64_t held, paired;
    held_kinds(count, &held, &paired);
    int x = chiitoitsu(held, paired);
    if (x < best) best = x;
    x = kokushi(held, paired);
    if (x < best) best = x;
  }
  return best;
}

/* ---- waits and ukeire ---- */

/* Ukeire from the need of each suit: a tile added changes one suit,
   so each suit's partner, the other three merged, is made once, and a
   tile costs one lookup and a join.  Seven pairs and kokushi change by
   a count. */
static uint64_t ukeire_from(uint8_t c[MJ_KINDS], int tiles, const uint8_t *const need[4],
                            int *shanten) {
  uint8_t low[ENTRY], high[ENTRY], rest[4][ENTRY];
  merge(need[0], need[1], low);
  merge(need[2], need[3], high);
  merge(need[1], high, rest[0]);
  merge(need[0], high, rest[1]);
  merge(low, need[3], rest[2]);
  merge(low, need[2], rest[3]);
  int now = join(rest[3], need[3], clamp_melds(tiles)) - 1;
  int pairs = 0, kinds = 0, orphans = 0, orphan_pair = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    pairs += c[k] >= 2;
    kinds += c[k] >= 1;
    if (MJ_IS_ORPHAN(k)) {
      orphans += c[k] >= 1;
      orphan_pair |= c[k] >= 2;
    }
  }
  if (tiles >= 13) {
    int x = 6 - pairs + (kinds < 7 ? 7 - kinds : 0);
    if (x < now) now = x;
    x = 13 - orphans - orphan_pair;
    if (x < now) now = x;
  }
  int melds = clamp_melds(tiles + 1);
  bool forms = tiles + 1 >= 13;
  uint64_t accepted = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    if (c[k] == 4) continue;
    int suit = k < MJ_HONORS ? k / 9 : 3;
    c[k]++;
    int x = join(rest[suit], suit_need(c, suit), melds) - 1;
    c[k]--;
    if (forms && x >= now) {
      int p = pairs + (c[k] == 1), n = kinds + (c[k] == 0);
      int y = 6 - p + (n < 7 ? 7 - n : 0);
      if (y < x) x = y;
      bool orphan = MJ_IS_ORPHAN(k);
      y = 13 - orphans - (orphan && c[k] == 0) - (orphan_pair | (orphan && c[k] == 1));
      if (y < x) x = y;
    }
    if (x < now) accepted |= 1ull << k;
  }
  if (shanten) *shanten = now;
  return accepted;
}

uint64_t mj_ukeire(const uint8_t count[MJ_KINDS], int tiles, int *shanten) {
  if (tiles >= MJ_MAX_HAND) {         /* no tile to add: the tables end at 14 */
    if (shanten) *shanten = mj_shanten(count, tiles);
    return 0;
  }
  mj_shanten_init();
  uint8_t c[MJ_KINDS];
  memcpy(c, count, sizeof c);
  const uint8_t *need[4];
  for (int s = 0; s < 4; s++) need[s] = suit_need(c, s);
  return ukeire_from(c, tiles, need, shanten);
}

static int better_discard(const mj_discard *a, const mj_discard *b) {
  if (a->shanten != b->shanten) return a->shanten < b->shanten;
  if (a->unseen != b->unseen) return a->unseen > b->unseen;
  return a->tile < b->tile;
}

int mj_discards(const uint8_t count[MJ_KINDS], int tiles, mj_discard *out) {
  mj_shanten_init();
  uint8_t c[MJ_KINDS];
  memcpy(c, count, sizeof c);
  const uint8_t *need[4];
  for (int s = 0; s < 4; s++) need[s] = suit_need(c, s);
  int n = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    if (!c[k]) continue;
    int suit = k < MJ_HONORS ? k / 9 : 3;
    const uint8_t *kept = need[suit];
    c[k]--;
    need[suit] = suit_need(c, suit);
    int shanten;
    mj_discard d = {(uint8_t)k, 0, ukeire_from(c, tiles - 1, need, &shanten), 0};
    d.shanten = (int8_t)shanten;
    need[suit] = kept;
    c[k]++;
    for (int j = 0; j < MJ_KINDS; j++)
      if (d.accepted >> j & 1) d.unseen += 4 - c[j];
    int at = n++;
    while (at > 0 && better_discard(&d, &out[at - 1])) {
      out[at] = out[at - 1];
      at--;
    }
    out[at] = d;
  }
  return n;
}
