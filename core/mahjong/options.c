/*
** options.c: what a seat may do now (mj_round_options, round.h).  The
** candidates are made from the seat's tiles and each is put to
** mj_round_check (the plain discards of a turn, which pass or fail
** alike, through the first of them), so the list never disagrees with
** what the round allows; a cheap test first (shanten, or the waits a
** table knows) keeps the costly checks (scoring a win, the waits of a
** riichi) for the hands where they can pass.
*/
#include <string.h>

#include "mahjong/round.h"

static inline bool red(const mj_round *r, int tile) {
  int k = mj_tile_kind(tile);
  return tile % 4 == 0 && k < MJ_HONORS && k % 9 == 4 && r->rules.red[k / 9];
}

bool mj_round_red(const mj_round *r, int tile) { return red(r, tile); }

/* The copies of kind k the seat holds, a bit each (tile 4k + i: bit
   i); four tiles of a kind never straddle two words of held. */
static inline unsigned held_copies(const mj_round_seat *s, int k) {
  return (unsigned)(s->held[k >> 4] >> ((4 * k) & 63)) & 15;
}

typedef struct options {
  const mj_round *r;
  mj_act *out;
  int n;
} options;

static void add(options *o, int type, int seat, int tile, const uint8_t *tiles,
                int ntiles, bool riichi) {
  mj_act a;
  memset(&a, 0, sizeof a);
  a.type = (uint8_t)type;
  a.seat = (uint8_t)seat;
  a.tile = (uint8_t)tile;
  a.riichi = riichi;
  for (int i = 0; i < ntiles; i++) a.tiles[i] = tiles[i];
  if (o->n < MJ_MAX_OPTIONS && mj_round_check(o->r, &a) == MJ_ROUND_OK)
    o->out[o->n++] = a;
}

/* The copies of kind k the seat holds, the red one first, then the
   others in order (the tile drawn first of them when prefer is one). */
static int copies(const mj_round *r, const mj_round_seat *s, int k, int prefer,
                  uint8_t out[4]) {
  unsigned bits = held_copies(s, k);
  int n = 0;
  if ((bits & 1) && red(r, 4 * k)) {
    out[n++] = (uint8_t)(4 * k);
    bits &= ~1u;
  }
  if (prefer != MJ_NO_TILE && mj_tile_kind(prefer) == k && (bits >> (prefer & 3) & 1)) {
    out[n++] = (uint8_t)prefer;
    bits &= ~(1u << (prefer & 3));
  }
  for (int i = 0; i < 4; i++)
    if (bits >> i & 1) out[n++] = (uint8_t)(4 * k + i);
  return n;
}

/* One of each: the red copy (if held) and one plain copy (if held). */
static int variants(const mj_round *r, const uint8_t *c, int n, uint8_t out[2]) {
  int m = 0, plain = 0;
  if (n && red(r, c[0])) {
    out[m++] = c[0];
    plain = 1;
  }
  if (n > plain) out[m++] = c[plain];
  return m;
}

/* The hand's shanten now, from what is known of it before the tile
   drawn (before: its shanten, UNKNOWN if not known; waits: its waits),
   or 99 when only "not ready, no win" matters: a shanten is counted
   only when riichi depends on it. */
#define UNKNOWN 99
static int shanten_now(const mj_round_seat *s, bool may_riichi, uint64_t waits,
                       int before) {
  const mj_tiles *h = &s->hand;
  bool drew = s->drawn != MJ_NO_TILE;
  if (!drew && !may_riichi) return UNKNOWN;
  if (!drew || before == UNKNOWN) return mj_shanten(h->count, h->n);
  if (waits >> mj_tile_kind(s->drawn) & 1) return -1;
  if (!may_riichi || before >= 2) return UNKNOWN;
  return before <= 0 ? 0 : mj_shanten(h->count, h->n);
}

/* Bit 4i of each word: the low bit of each kind's four copies. */
#define NIBBLES 0x1111111111111111ull

/* The tiles of word w of held that are red fives (the first copy of
   each five, tiles 16, 52 and 88, where the rules have them). */
static inline uint64_t red_bits(const mj_round *r, int w) {
  const uint8_t *red = r->rules.red;
  return w == 0 ? (uint64_t)(red[0] != 0) << 16 | (uint64_t)(red[1] != 0) << 52
       : w == 1 ? (uint64_t)(red[2] != 0) << 24 : 0;
}

/* The lowest bit set of each four bits of x. */
static inline uint64_t lowest_of_nibbles(uint64_t x) {
  uint64_t above = (x << 1 & ~NIBBLES) | (x << 2 & ~(NIBBLES | NIBBLES << 1)) |
                   (x << 3 & NIBBLES << 3);
  return x & ~above;
}

/* The discards of the seat (with riichi, or not): of each kind it
   holds, the red five (if held) and one plain copy (if held: the tile
   drawn, else the lowest), in order of tile.  The tiles are found a
   word of sixteen kinds at a time. */
static void discards(options *o, int seat, bool riichi) {
  const mj_round *r = o->r;
  const mj_round_seat *s = &r->seat[seat];
  /* the plain discards pass the same checks but for kuikae and riichi's
     tile drawn: without those, the first is checked for all */
  bool alike = !riichi && !s->riichi && !s->kuikae;
  int first = -1, drawn = s->drawn;
  mj_act same;                            /* the others but for the tile */
  memset(&same, 0, sizeof same);
  same.type = MJ_ACT_DISCARD;
  same.seat = (uint8_t)seat;
  for (int w = 0; w < 3; w++) {
    uint64_t reds = red_bits(r, w), plain = s->held[w] & ~reds;
    uint64_t low = lowest_of_nibbles(plain);
    if (drawn != MJ_NO_TILE && drawn >> 6 == w && (plain >> (drawn & 63) & 1))
      low = (low & ~(15ull << (drawn & 60))) | 1ull << (drawn & 63);
    uint64_t tiles = (s->held[w] & reds) | low;
    for (; tiles; tiles &= tiles - 1) {
      int tile = 64 * w + __builtin_ctzll(tiles);
      if (first > 0) {                    /* alike, and the first passed */
        if (o->n < MJ_MAX_OPTIONS) {
          mj_act a = same;
          a.tile = (uint8_t)tile;
          o->out[o->n++] = a;
        }
      } else if (first < 0) {
        int n = o->n;
        add(o, MJ_ACT_DISCARD, seat, tile, NULL, 0, riichi);
        if (alike) first = o->n > n;
      }
    }
  }
}

static void own_turn(options *o, int seat, uint64_t waits, int before) {
  const mj_round *r = o->r;
  const mj_round_seat *s = &r->seat[seat];
  const mj_tiles *h = &s->hand;
  bool drew = s->drawn != MJ_NO_TILE;
  bool may_riichi = !s->riichi && !s->open && s->score >= 1000 && r->live >= 4;
  int shanten = shanten_now(s, may_riichi, waits, before);
  if (drew && shanten == -1) add(o, MJ_ACT_TSUMO, seat, 0, NULL, 0, false);
  discards(o, seat, false);
  /* riichi only from a closed hand one discard from ready */
  if (may_riichi && shanten <= 0) discards(o, seat, true);
  if (drew && r->kans < MJ_MAX_KANS) {
    for (int w = 0; w < 3; w++) {
      uint64_t x = s->held[w], fours = x & x >> 1 & x >> 2 & x >> 3 & NIBBLES;
      for (; fours; fours &= fours - 1) {
        uint8_t c[4];
        copies(r, s, 16 * w + __builtin_ctzll(fours) / 4, MJ_NO_TILE, c);
        add(o, MJ_ACT_ANKAN, seat, 0, c, 4, false);
      }
    }
    for (int i = 0; i < s->nmelds; i++) {
      int k = mj_tile_kind(s->meld[i].tiles[0]);
      uint8_t c[4];
      if (s->meld[i].kind == MJ_PON && h->count[k] &&
          copies(r, s, k, MJ_NO_TILE, c) >= 1)
        add(o, MJ_ACT_KAKAN, seat, c[0], NULL, 0, false);
    }
  }
  if (drew && !s->nriver && r->first_go_around)
    add(o, MJ_ACT_NINE_TERMINALS, seat, 0, NULL, 0, false);
}

/* Two tiles of kinds a and b from the hand, in each way that differs
   by a red five. */
static void pairs(options *o, int type, int seat, int a, int b) {
  const mj_round *r = o->r;
  const mj_round_seat *s = &r->seat[seat];
  uint8_t ca[4], cb[4], va[2], vb[2];
  int na = copies(r, s, a, MJ_NO_TILE, ca), nb = copies(r, s, b, MJ_NO_TILE, cb);
  if (a == b) {                       /* a pon: two of the same kind */
    if (na < 2) return;
    uint8_t t[2] = {ca[0], ca[1]};
    add(o, type, seat, r->open_tile, t, 2, false);
    if (red(r, ca[0]) && na >= 3) {
      uint8_t u[2] = {ca[1], ca[2]};
      add(o, type, seat, r->open_tile, u, 2, false);
    }
    return;
  }
  int ma = variants(r, ca, na, va), mb = variants(r, cb, nb, vb);
  for (int i = 0; i < ma; i++)
    for (int j = 0; j < mb; j++) {
      uint8_t t[2] = {va[i], vb[j]};
      add(o, type, seat, r->open_tile, t, 2, false);
    }
}

/* Whether a tile of kind k could complete the hand at all: it must
   join a tile of its kind (a pair, a triplet, seven pairs), a neighbour
   (a sequence) or be a terminal or honor (kokushi).  Most open tiles
   fail this, and are spared the shanten. */
static bool may_complete(const mj_tiles *h, int k) {
  if (h->count[k] || MJ_IS_ORPHAN(k)) return true;
  if (k >= MJ_HONORS) return false;
  int n = k % 9;
  for (int d = -2; d <= 2; d++)
    if (d && n + d >= 0 && n + d <= 8 && h->count[k + d]) return true;
  return false;
}

static void claim(options *o, int seat, const uint64_t *waits) {
  const mj_round *r = o->r;
  const mj_round_seat *s = &r->seat[seat];
  const mj_tiles *h = &s->hand;
  int k = mj_tile_kind(r->open_tile);
  if (waits) {
    if (*waits >> k & 1) add(o, MJ_ACT_RON, seat, 0, NULL, 0, false);
  } else if (may_complete(h, k)) {
    uint8_t count[MJ_KINDS];
    memcpy(count, h->count, sizeof count);
    count[k]++;
    if (mj_shanten(count, h->n + 1) == -1) add(o, MJ_ACT_RON, seat, 0, NULL, 0, false);
  }
  if (r->phase != MJ_PHASE_CLAIM || r->open_kan || s->riichi) return;
  if (h->count[k] >= 2) pairs(o, MJ_ACT_PON, seat, k, k);
  if (h->count[k] == 3) {
    uint8_t c[4];
    copies(r, s, k, MJ_NO_TILE, c);
    add(o, MJ_ACT_KAN, seat, r->open_tile, c, 3, false);
  }
  if (seat != (r->turn + 1) % MJ_SEATS || k >= MJ_HONORS) return;
  int n = k % 9;
  if (n >= 2 && h->count[k - 2] && h->count[k - 1]) pairs(o, MJ_ACT_CHI, seat, k - 2, k - 1);
  if (n >= 1 && n <= 7 && h->count[k - 1] && h->count[k + 1])
    pairs(o, MJ_ACT_CHI, seat, k - 1, k + 1);
  if (n <= 6 && h->count[k + 1] && h->count[k + 2]) pairs(o, MJ_ACT_CHI, seat, k + 1, k + 2);
}

static bool open_to(const mj_round *r, int seat) {
  return r->open_tile != MJ_NO_TILE && seat != r->turn &&
         (r->phase == MJ_PHASE_CLAIM || (r->phase == MJ_PHASE_OVER && r->rons));
}

int mj_round_options(const mj_round *r, int seat, mj_act *out) {
  options o = {r, out, 0};
  if (seat < 0 || seat >= MJ_SEATS) return 0;
  if (r->phase == MJ_PHASE_ACT && seat == r->turn) own_turn(&o, seat, 0, UNKNOWN);
  else if (open_to(r, seat)) claim(&o, seat, NULL);
  return o.n;
}

int mj_round_turn_options(const mj_round *r, int seat, uint64_t waits, int shanten,
                          mj_act *out) {
  options o = {r, out, 0};
  if (seat >= 0 && seat < MJ_SEATS && r->phase == MJ_PHASE_ACT && seat == r->turn)
    own_turn(&o, seat, waits, shanten < UNKNOWN ? shanten : UNKNOWN);
  return o.n;
}

int mj_round_claim_options(const mj_round *r, int seat, uint64_t waits,
                           mj_act *out) {
  options o = {r, out, 0};
  if (seat >= 0 && seat < MJ_SEATS && open_to(r, seat)) claim(&o, seat, &waits);
  return o.n;
}
