/*
** round.c: the round's steps (round.h).  Each step is checked whole
** before anything changes (play calls the same check first), so a step
** refused leaves the round as it was.  Furiten is found when a ron is
** claimed, from what the seat discarded and let pass: the waits then are
** the waits at the pass, since a hand does not change between its own
** discards.  The table's own steps skip the check (mj_round_play_known);
** a sanitizer build checks them anyway.
*/
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "mahjong/round.h"

void mj_round_rules_default(mj_round_rules *rules) {
  memset(rules, 0, sizeof *rules);
  mj_default_rules(&rules->score);
  rules->red[0] = rules->red[1] = rules->red[2] = 1;
  rules->double_ron = true;
  rules->triple_ron_draw = true;
  rules->nagashi = true;
  rules->abortive = true;
  rules->kuikae = false;
  rules->length = 2;
  rules->start_points = 25000;
  rules->target = 30000;
  rules->extra_rounds = true;
  rules->bust = true;
  rules->dealer_stop = true;
  rules->uma[0] = 20000;
  rules->uma[1] = 10000;
  rules->uma[2] = -10000;
  rules->uma[3] = -20000;
  rules->tenhou_rounding = true;
}

/* The rules by the names mahjong.table takes, for the records that
   carry the ones that are not Tenhou's. */
static const char *const flag_names[] = {
  "double_ron", "triple_ron_draw", "nagashi", "abortive", "kuikae",
  "extra_rounds", "bust", "dealer_stop", "tenhou_rounding", "kuitan",
  "kiriage", "double_yakuman", "kazoe", "open_pinfu_fu", NULL
};

const char *mj_round_flag_name(int i) {
  return i >= 0 && i < (int)(sizeof flag_names / sizeof *flag_names) ? flag_names[i] : NULL;
}

bool *mj_round_rules_flag(mj_round_rules *rules, const char *name, size_t len) {
  bool *fields[] = {&rules->double_ron, &rules->triple_ron_draw, &rules->nagashi,
                    &rules->abortive, &rules->kuikae, &rules->extra_rounds,
                    &rules->bust, &rules->dealer_stop, &rules->tenhou_rounding};
  for (int i = 0; i < (int)(sizeof fields / sizeof *fields); i++)
    if (strlen(flag_names[i]) == len && !memcmp(flag_names[i], name, len)) return fields[i];
  /* the scoring's, but "aka": the red fives in the wall say that */
  if (len == 3 && !memcmp(name, "aka", 3)) return NULL;
  return mj_rules_flag(&rules->score, name, len);
}

void mj_wall_shuffle(uint8_t wall[MJ_TILES], uint64_t seed) {
  rng r;
  rng_seed(&r, seed);
  for (int i = 0; i < MJ_TILES; i++) wall[i] = (uint8_t)i;
  for (int i = MJ_TILES - 1; i > 0; i--) {
    int j = (int)rng_below(&r, (uint32_t)(i + 1));
    uint8_t t = wall[i];
    wall[i] = wall[j];
    wall[j] = t;
  }
}

static const char *const status_texts[MJ_RE_COUNT] = {
  [MJ_ROUND_OK] = "ok",
  [MJ_RE_OVER] = "the round is over",
  [MJ_RE_PHASE] = "another step is due",
  [MJ_RE_TURN] = "it is not that seat's turn",
  [MJ_RE_SEAT] = "no such seat",
  [MJ_RE_TILE] = "no such tile",
  [MJ_RE_SEEN] = "that tile is in play already (a fifth copy)",
  [MJ_RE_WALL] = "that is not the wall's next tile",
  [MJ_RE_EMPTY] = "the wall is empty",
  [MJ_RE_NOT_HELD] = "a tile not in the hand",
  [MJ_RE_RIICHI_DISCARD] = "after riichi only the tile drawn may go",
  [MJ_RE_KUIKAE] = "the tile just called (or its other end) may not go now",
  [MJ_RE_RIICHI_OPEN] = "riichi with an open hand",
  [MJ_RE_RIICHI_AGAIN] = "riichi twice",
  [MJ_RE_RIICHI_POINTS] = "riichi with less than 1000 points",
  [MJ_RE_RIICHI_LATE] = "riichi with fewer than 4 tiles left to draw",
  [MJ_RE_NOT_READY] = "riichi with a hand that is not ready",
  [MJ_RE_CALL_TILE] = "the call does not take the open tile",
  [MJ_RE_CALL_FROM] = "chi takes only from the seat before",
  [MJ_RE_CALL_SHAPE] = "the tiles do not make that meld",
  [MJ_RE_CALL_RIICHI] = "a hand in riichi calls nothing but ron",
  [MJ_RE_CALL_LAST] = "no call on the last tile",
  [MJ_RE_CALL_STUCK] = "after that call nothing could be discarded",
  [MJ_RE_KAN_COUNT] = "no fifth kan",
  [MJ_RE_KAN_RIICHI] = "that kan is not allowed after riichi",
  [MJ_RE_NO_PON] = "an added kan needs its pon",
  [MJ_RE_NOT_WINNING] = "not a winning hand",
  [MJ_RE_NO_YAKU] = "no yaku",
  [MJ_RE_FURITEN] = "furiten",
  [MJ_RE_RON_ORDER] = "rons come in turn after the discarder",
  [MJ_RE_HEAD_BUMP] = "only one ron on a tile under these rules",
  [MJ_RE_NINE] = "not nine kinds of terminals and honors on a first draw",
  [MJ_RE_ENDS] = "the round ends at this tile: only ron or pass",
  [MJ_RE_DORA_DUE] = "a kan dora indicator is due first",
  [MJ_RE_NO_DORA] = "no kan dora indicator is due",
  [MJ_RE_URA] = "ura indicators that do not fit the dora",
  [MJ_RE_RIVER] = "more discards than a round holds",
  [MJ_RE_SCORE] = "the win cannot be scored",
};

const char *mj_round_status_text(int status) {
  return status >= 0 && status < MJ_RE_COUNT ? status_texts[status] : "?";
}

const char *mj_round_end_name(int end) {
  static const char *const names[] = {
    "none", "win", "exhausted", "nine terminals", "four winds",
    "four riichi", "four kans", "three rons"
  };
  return end >= 0 && end <= MJ_END_TRIPLE_RON ? names[end] : "?";
}

void mj_round_name(int round, char *buf) {
  buf[0] = "ESWN"[(round / 4) & 3];
  buf[1] = (char)('1' + round % 4);
  buf[2] = '\0';
}

int mj_round_seat_wind(const mj_round *r, int seat) {
  return MJ_EAST + (seat - r->dealer + MJ_SEATS) % MJ_SEATS;
}

int mj_round_wind(const mj_round *r) {
  return MJ_EAST + (r->round / 4) % 4;
}

/* ---- tiles ---- */

static bool is_red(const mj_round *r, int tile) {
  int k = mj_tile_kind(tile);
  return tile % 4 == 0 && k < MJ_HONORS && k % 9 == 4 && r->rules.red[k / 9];
}

static bool holds(const mj_round_seat *s, int tile) {
  return s->held[tile >> 6] >> (tile & 63) & 1;
}

static void hand_add(mj_round *r, int seat, int tile) {
  mj_round_seat *s = &r->seat[seat];
  int k = mj_tile_kind(tile);
  s->held[tile >> 6] |= 1ull << (tile & 63);
  s->hand.count[k]++;
  s->hand.n++;
  if (is_red(r, tile)) s->hand.red[k / 9]++;
  r->where[tile] = (uint8_t)(MJ_AT_HAND | seat << 4);
}

static void hand_remove(mj_round *r, int seat, int tile) {
  mj_round_seat *s = &r->seat[seat];
  int k = mj_tile_kind(tile);
  s->held[tile >> 6] &= ~(1ull << (tile & 63));
  s->hand.count[k]--;
  s->hand.n--;
  if (is_red(r, tile)) s->hand.red[k / 9]--;
}

/* Whether tile may come into play now: a tile not seen yet, and with a
   known wall the one at wall[at]. */
static mj_round_status fresh(const mj_round *r, int tile, int at) {
  if (r->known_wall) return tile == r->wall[at] ? MJ_ROUND_OK : MJ_RE_WALL;
  if (tile < 0 || tile >= MJ_TILES) return MJ_RE_TILE;
  return r->where[tile] == MJ_AT_WALL ? MJ_ROUND_OK : MJ_RE_SEEN;
}

/* The tile a known wall gives, or the one named. */
static int wall_tile(const mj_round *r, int tile, int at) {
  return r->known_wall && tile == MJ_NO_TILE ? r->wall[at] : tile;
}

static bool reveal(mj_round *r, int tile) {
  if (r->ndora > MJ_MAX_KANS) return false;
  r->dora[r->ndora++] = (uint8_t)tile;
  r->where[tile] = MJ_AT_DORA;
  return true;
}

/* A known wall reveals the kan dora due; an unknown one has them given. */
static int wall_dora(int n) { return 126 + 2 * n; }

static void reveal_due(mj_round *r, int *due) {
  while (r->known_wall && *due > 0 && r->ndora <= MJ_MAX_KANS) {
    reveal(r, r->wall[wall_dora(r->ndora)]);
    --*due;
  }
}

/* ---- start ---- */

void mj_round_start(mj_round *r, const mj_round_rules *rules,
                    const mj_round_setup *setup) {
  memset(r, 0, sizeof *r);
  r->rules = *rules;
  r->rules.score.aka = rules->red[0] || rules->red[1] || rules->red[2];
  r->round = setup->round;
  r->dealer = setup->round % MJ_SEATS;
  r->honba = setup->honba;
  r->sticks = setup->sticks;
  r->total = 1000 * setup->sticks;
  for (int s = 0; s < MJ_SEATS; s++) {
    mj_round_seat *seat = &r->seat[s];
    seat->score = setup->scores[s];
    seat->drawn = MJ_NO_TILE;
    seat->pao = -1;
    seat->nagashi = true;
    r->total += setup->scores[s];
  }
  r->live = MJ_TILES - 14 - 13 * MJ_SEATS;
  r->turn = r->dealer;
  r->phase = MJ_PHASE_DRAW;
  r->first_go_around = true;
  r->first_wind = 255;
  r->open_tile = MJ_NO_TILE;
  r->known_wall = setup->wall != NULL;
  if (!r->known_wall) return;
  memcpy(r->wall, setup->wall, MJ_TILES);
  for (int i = 0; i < 52; i++) {
    int seat = (r->dealer + (i < 48 ? i / 4 : i - 48)) % MJ_SEATS;
    hand_add(r, seat, r->wall[i]);
  }
  for (int s = 0; s < MJ_SEATS; s++) r->dealt[s] = true;
  reveal(r, r->wall[wall_dora(0)]);
  for (int i = 0; i <= MJ_MAX_KANS; i++) r->ura[i] = r->wall[wall_dora(i) + 1];
}

mj_round_status mj_round_deal(mj_round *r, int seat, const uint8_t tiles[13]) {
  if (seat < 0 || seat >= MJ_SEATS) return MJ_RE_SEAT;
  if (r->known_wall || r->dealt[seat] || r->draws) return MJ_RE_PHASE;
  for (int i = 0; i < 13; i++) {
    mj_round_status st = fresh(r, tiles[i], 0);
    for (int j = 0; j < i && st == MJ_ROUND_OK; j++)
      if (tiles[j] == tiles[i]) st = MJ_RE_SEEN;
    if (st != MJ_ROUND_OK) return st;
  }
  for (int i = 0; i < 13; i++) hand_add(r, seat, tiles[i]);
  r->dealt[seat] = true;
  return MJ_ROUND_OK;
}

mj_round_status mj_round_reveal_first(mj_round *r, int tile) {
  if (r->known_wall || r->ndora) return MJ_RE_PHASE;
  mj_round_status st = fresh(r, tile, 0);
  if (st != MJ_ROUND_OK) return st;
  reveal(r, tile);
  return MJ_ROUND_OK;
}

mj_round_status mj_round_set_ura(mj_round *r, const uint8_t *tiles, int n) {
  if (r->known_wall) return MJ_RE_PHASE;
  if (n < 0 || n > r->ndora) return MJ_RE_URA;
  for (int i = 0; i < r->nura; i++) r->where[r->ura[i]] = MJ_AT_WALL;
  for (int i = 0; i < n; i++) {
    mj_round_status st = fresh(r, tiles[i], 0);
    for (int j = 0; j < i && st == MJ_ROUND_OK; j++)
      if (tiles[j] == tiles[i]) st = MJ_RE_SEEN;
    if (st != MJ_ROUND_OK) {
      for (int j = 0; j < r->nura; j++) r->where[r->ura[j]] = MJ_AT_URA;
      return st;
    }
  }
  for (int i = 0; i < n; i++) {
    r->ura[i] = tiles[i];
    r->where[tiles[i]] = MJ_AT_URA;
  }
  r->nura = n;
  return MJ_ROUND_OK;
}

/* ---- hands ---- */

/* Whether a hand of n concealed tiles is ready: shanten 0, which is
   exact (a fifth copy never counts), so such a hand has a wait. */
static bool ready(const uint8_t count[MJ_KINDS], int n) {
  return n % 3 == 1 && mj_shanten(count, n) == 0;
}

static uint64_t waits_of(const uint8_t count[MJ_KINDS], int n) {
  return ready(count, n) ? mj_ukeire(count, n, NULL) : 0;
}

uint64_t mj_round_waits(const mj_round *r, int seat) {
  const mj_tiles *h = &r->seat[seat].hand;
  return waits_of(h->count, h->n);
}

/* The waits of the seat's hand without copies of kind k; whether it is
   ready without one. */
static uint64_t waits_without(const mj_round_seat *s, int k, int copies) {
  uint8_t count[MJ_KINDS];
  memcpy(count, s->hand.count, sizeof count);
  count[k] = (uint8_t)(count[k] - copies);
  return waits_of(count, s->hand.n - copies);
}

static bool ready_without(const mj_round_seat *s, int k) {
  uint8_t count[MJ_KINDS];
  memcpy(count, s->hand.count, sizeof count);
  count[k]--;
  return ready(count, s->hand.n - 1);
}

static int count_melds(const mj_round_seat *s, int low, int high) {
  int n = 0;
  for (int i = 0; i < s->nmelds; i++)
    n += s->meld[i].kind != MJ_CHI && mj_tile_kind(s->meld[i].tiles[0]) >= low &&
         mj_tile_kind(s->meld[i].tiles[0]) <= high;
  return n;
}

/* The scoring context of seat winning on kind win. */
static void context_of(const mj_round *r, int seat, int win, bool tsumo,
                       mj_context *ctx) {
  const mj_round_seat *s = &r->seat[seat];
  mj_default_context(ctx);
  ctx->rules = r->rules.score;
  ctx->win = win;
  ctx->tsumo = tsumo;
  ctx->double_riichi = s->riichi && s->double_riichi;
  ctx->riichi = s->riichi && !s->double_riichi;
  ctx->ippatsu = s->riichi && s->ippatsu;
  ctx->seat = mj_round_seat_wind(r, seat);
  ctx->round = mj_round_wind(r);
  if (tsumo) {
    ctx->rinshan = r->rinshan;
    ctx->haitei = !r->rinshan && r->live == 0;
    bool first = r->first_go_around && s->nriver == 0;
    ctx->tenhou = first && seat == r->dealer;
    ctx->chiihou = first && seat != r->dealer;
  } else {
    ctx->chankan = r->open_kan;
    ctx->houtei = !r->open_kan && r->live == 0;
  }
  ctx->ndora = r->ndora;
  for (int i = 0; i < r->ndora; i++) ctx->dora[i] = (uint8_t)mj_tile_kind(r->dora[i]);
  if (s->riichi) {
    int n = r->known_wall ? r->ndora : r->nura;
    for (int i = 0; i < n; i++) ctx->ura[i] = (uint8_t)mj_tile_kind(r->ura[i]);
    ctx->nura = n;
  }
  for (int i = 0; i < s->nmelds; i++) {
    const mj_round_meld *m = &s->meld[i];
    mj_meld *out = &ctx->meld[ctx->nmelds++];
    out->kind = m->kind;
    out->tile = (uint8_t)mj_tile_kind(m->tiles[0]);
    if (m->kind == MJ_CHI)
      for (int j = 1; j < 3; j++)
        if (mj_tile_kind(m->tiles[j]) < out->tile)
          out->tile = (uint8_t)mj_tile_kind(m->tiles[j]);
    out->red = 0;
    for (int j = 0; j < m->n; j++) out->red = (uint8_t)(out->red + is_red(r, m->tiles[j]));
  }
  ctx->honba = r->honba > MJ_MAX_STICKS ? MJ_MAX_STICKS : r->honba;
  ctx->kyoutaku = 0;
}

static mj_round_status score_status(mj_status st) {
  if (st == MJ_SCORED) return MJ_ROUND_OK;
  if (st == MJ_NOT_WINNING || st == MJ_BAD_COUNT) return MJ_RE_NOT_WINNING;
  if (st == MJ_NO_YAKU) return MJ_RE_NO_YAKU;
  return MJ_RE_SCORE;
}

/* Scores seat's hand with the tile (its own draw, or the open tile). */
static mj_round_status score_win(const mj_round *r, int seat, int tile,
                                 bool tsumo, mj_context *ctx, mj_score *out) {
  mj_tiles hand = r->seat[seat].hand;
  int k = mj_tile_kind(tile);
  if (!tsumo) {
    hand.count[k]++;
    hand.n++;
    if (is_red(r, tile)) hand.red[k / 9]++;
  }
  context_of(r, seat, k, tsumo, ctx);
  return score_status(mj_score_hand(&hand, ctx, out));
}

/* Whether a seat let one of its winning tiles pass since its discard:
   temporary furiten.  Yaku do not count, by Tenhou's rule as by every
   rule's: a tile it could not win on for want of a yaku, let pass, bars
   a ron on any other until its next discard (waits are those of the hand
   as it was then: it has not changed since). */
static bool passed_a_win(const mj_round *r, int seat, uint64_t waits) {
  const mj_round_seat *s = &r->seat[seat];
  return (waits & (s->passed | s->passed_kan)) != 0;
}

/* ---- checks ---- */

static bool valid_tile(int tile) { return tile >= 0 && tile < MJ_TILES; }

static bool four_winds(const mj_round *r) {
  return r->rules.abortive && r->first_go_around && r->first_discards == 4 &&
         r->first_wind != 255;
}

static bool pass_ends(const mj_round *r) {
  return !r->open_kan && (r->live == 0 || r->four_kans || four_winds(r));
}

/* Whether the riichi declared with the open tile would be the fourth. */
static bool fourth_riichi(const mj_round *r) {
  if (!r->riichi_pending || !r->rules.abortive) return false;
  int riichi = 1;
  for (int s = 0; s < MJ_SEATS; s++) riichi += r->seat[s].riichi;
  return riichi == 4;
}

/* How far seat sits after the one that opened the tile: rons come in
   that order. */
static int distance(const mj_round *r, int seat) {
  return (seat - r->turn + MJ_SEATS) % MJ_SEATS;
}

static mj_round_status check_draw(const mj_round *r, const mj_act *a) {
  if (r->phase == MJ_PHASE_CLAIM) {
    /* a draw lets the open tile pass: that must not end the round */
    if (r->rons) return MJ_RE_PHASE;
    if (pass_ends(r) || fourth_riichi(r)) return MJ_RE_ENDS;
    int next = r->open_kan ? r->turn : (r->turn + 1) % MJ_SEATS;
    if (a->seat != next) return MJ_RE_TURN;
  } else {
    if (r->phase != MJ_PHASE_DRAW) return MJ_RE_PHASE;
    if (a->seat != r->turn) return MJ_RE_TURN;
  }
  for (int s = 0; s < MJ_SEATS; s++)
    if (!r->dealt[s]) return MJ_RE_PHASE;
  if (!r->ndora) return MJ_RE_DORA_DUE;
  bool kan = r->kan_draw || (r->phase == MJ_PHASE_CLAIM && r->open_kan);
  if (kan) {
    if (!r->known_wall && (r->dora_now || r->dora_at_draw))
      return MJ_RE_DORA_DUE;
  } else if (r->live == 0) {
    return MJ_RE_EMPTY;
  }
  int at = kan ? 122 + r->kans - 1 : 52 + r->draws;
  if (r->known_wall && a->tile != MJ_NO_TILE && a->tile != r->wall[at])
    return MJ_RE_WALL;
  if (!r->known_wall) return fresh(r, a->tile, at);
  return MJ_ROUND_OK;
}

/* The kinds the seat may not discard now: kuikae. */
static mj_round_status check_discard(const mj_round *r, const mj_act *a) {
  if (r->phase != MJ_PHASE_ACT) return MJ_RE_PHASE;
  if (a->seat != r->turn) return MJ_RE_TURN;
  const mj_round_seat *s = &r->seat[a->seat];
  if (!valid_tile(a->tile)) return MJ_RE_TILE;
  if (!holds(s, a->tile)) return MJ_RE_NOT_HELD;
  if (!r->known_wall && r->dora_at_discard) return MJ_RE_DORA_DUE;
  if (s->riichi && a->tile != s->drawn) return MJ_RE_RIICHI_DISCARD;
  int k = mj_tile_kind(a->tile);
  if (s->kuikae >> k & 1) return MJ_RE_KUIKAE;
  if (s->nriver >= MJ_MAX_RIVER) return MJ_RE_RIVER;
  if (a->riichi) {
    if (s->riichi) return MJ_RE_RIICHI_AGAIN;
    if (s->open) return MJ_RE_RIICHI_OPEN;
    if (s->score < 1000) return MJ_RE_RIICHI_POINTS;
    if (r->live < 4) return MJ_RE_RIICHI_LATE;
    if (!ready_without(s, k)) return MJ_RE_NOT_READY;
  }
  return MJ_ROUND_OK;
}

/* What a call on the open tile must meet whatever it is. */
static mj_round_status check_claim(const mj_round *r, const mj_act *a) {
  if (r->phase != MJ_PHASE_CLAIM || r->open_kan) return MJ_RE_PHASE;
  if (r->rons) return MJ_RE_PHASE;
  if (a->seat == r->turn) return MJ_RE_TURN;
  if (a->tile != r->open_tile) return MJ_RE_CALL_TILE;
  if (r->seat[a->seat].riichi) return MJ_RE_CALL_RIICHI;
  if (r->live == 0) return MJ_RE_CALL_LAST;
  if (r->four_kans || fourth_riichi(r)) return MJ_RE_ENDS;
  return MJ_ROUND_OK;
}

/* The hand tiles of a call: held, distinct, of the kinds it needs. */
static mj_round_status check_hand_tiles(const mj_round *r, int seat,
                                        const uint8_t *tiles, int n) {
  for (int i = 0; i < n; i++) {
    if (!valid_tile(tiles[i])) return MJ_RE_TILE;
    if (!holds(&r->seat[seat], tiles[i])) return MJ_RE_NOT_HELD;
    for (int j = 0; j < i; j++)
      if (tiles[j] == tiles[i]) return MJ_RE_NOT_HELD;
  }
  return MJ_ROUND_OK;
}

/* The kinds a discard may not be after a chi or pon of k with hand
   tiles of kinds a and b. */
static uint64_t kuikae_of(int type, int k, int a, int b) {
  uint64_t forbid = 1ull << k;
  if (type == MJ_ACT_CHI) {
    int low = a < b ? a : b, high = a < b ? b : a;
    if (low == k + 1 && high == k + 2 && k % 9 + 3 <= 8) forbid |= 1ull << (k + 3);
    if (high == k - 1 && low == k - 2 && k % 9 >= 3) forbid |= 1ull << (k - 3);
  }
  return forbid;
}

static mj_round_status check_call(const mj_round *r, const mj_act *a) {
  mj_round_status st = check_claim(r, a);
  if (st != MJ_ROUND_OK) return st;
  int n = a->type == MJ_ACT_KAN ? 3 : 2;
  st = check_hand_tiles(r, a->seat, a->tiles, n);
  if (st != MJ_ROUND_OK) return st;
  int k = mj_tile_kind(a->tile);
  int k0 = mj_tile_kind(a->tiles[0]), k1 = mj_tile_kind(a->tiles[1]);
  if (a->type == MJ_ACT_CHI) {
    if (a->seat != (r->turn + 1) % MJ_SEATS) return MJ_RE_CALL_FROM;
    int low = k < k0 ? k : k0;
    low = low < k1 ? low : k1;
    if (low >= MJ_HONORS || low % 9 > 6 || k - low > 2 || k0 - low > 2 ||
        k1 - low > 2)
      return MJ_RE_CALL_SHAPE;
    int mask = 1 << (k - low) | 1 << (k0 - low) | 1 << (k1 - low);
    if (mask != 7) return MJ_RE_CALL_SHAPE;
  } else {
    if (k0 != k || k1 != k || (n == 3 && mj_tile_kind(a->tiles[2]) != k))
      return MJ_RE_CALL_SHAPE;
    if (n == 3 && r->kans >= MJ_MAX_KANS) return MJ_RE_KAN_COUNT;
  }
  const mj_round_seat *s = &r->seat[a->seat];
  if (s->nmelds >= 4) return MJ_RE_CALL_SHAPE;
  if (n == 2 && !r->rules.kuikae) {
    uint64_t forbid = kuikae_of(a->type, k, k0, k1);
    bool free = false;
    for (int j = 0; j < MJ_KINDS && !free; j++) {
      int left = s->hand.count[j] - (j == k0) - (j == k1);
      free = left > 0 && !(forbid >> j & 1);
    }
    if (!free) return MJ_RE_CALL_STUCK;
  }
  return MJ_ROUND_OK;
}

/* Kans from the hand: after a draw, never on the last tile. */
static mj_round_status check_own_kan(const mj_round *r, const mj_act *a) {
  if (r->phase != MJ_PHASE_ACT) return MJ_RE_PHASE;
  if (a->seat != r->turn) return MJ_RE_TURN;
  const mj_round_seat *s = &r->seat[a->seat];
  if (s->drawn == MJ_NO_TILE) return MJ_RE_PHASE;
  if (r->kans >= MJ_MAX_KANS) return MJ_RE_KAN_COUNT;
  if (r->live == 0) return MJ_RE_CALL_LAST;
  if (a->type == MJ_ACT_KAKAN) {
    if (!valid_tile(a->tile)) return MJ_RE_TILE;
    if (!holds(s, a->tile)) return MJ_RE_NOT_HELD;
    int k = mj_tile_kind(a->tile);
    for (int i = 0; i < s->nmelds; i++)
      if (s->meld[i].kind == MJ_PON && mj_tile_kind(s->meld[i].tiles[0]) == k)
        return MJ_ROUND_OK;
    return MJ_RE_NO_PON;
  }
  mj_round_status st = check_hand_tiles(r, a->seat, a->tiles, 4);
  if (st != MJ_ROUND_OK) return st;
  int k = mj_tile_kind(a->tiles[0]);
  for (int i = 1; i < 4; i++)
    if (mj_tile_kind(a->tiles[i]) != k) return MJ_RE_CALL_SHAPE;
  if (s->nmelds >= 4) return MJ_RE_CALL_SHAPE;
  if (s->riichi) {
    /* the tile drawn, and the same waits as before it */
    if (mj_tile_kind(s->drawn) != k) return MJ_RE_KAN_RIICHI;
    uint64_t before = waits_without(s, k, 1), after = waits_without(s, k, 4);
    if (!before || before != after) return MJ_RE_KAN_RIICHI;
  }
  return MJ_ROUND_OK;
}

static mj_round_status check_tsumo(const mj_round *r, const mj_act *a,
                                   mj_context *ctx, mj_score *score) {
  if (r->phase != MJ_PHASE_ACT) return MJ_RE_PHASE;
  if (a->seat != r->turn) return MJ_RE_TURN;
  const mj_round_seat *s = &r->seat[a->seat];
  if (s->drawn == MJ_NO_TILE) return MJ_RE_NOT_WINNING;
  return score_win(r, a->seat, s->drawn, true, ctx, score);
}

static mj_round_status check_ron(const mj_round *r, const mj_act *a,
                                 mj_context *ctx, mj_score *score) {
  bool more = r->phase == MJ_PHASE_OVER && r->rons > 0 && r->rons < 3 &&
              r->result.end == MJ_END_WIN;
  if (r->phase != MJ_PHASE_CLAIM && !more) return MJ_RE_PHASE;
  if (a->seat == r->turn) return MJ_RE_TURN;
  if (r->rons) {
    const mj_round_win *last = &r->result.win[r->result.nwins - 1];
    if (distance(r, a->seat) <= distance(r, last->who)) return MJ_RE_RON_ORDER;
    if (!r->rules.double_ron) return MJ_RE_HEAD_BUMP;
  }
  const mj_round_seat *s = &r->seat[a->seat];
  mj_round_status st = score_win(r, a->seat, r->open_tile, false, ctx, score);
  if (st != MJ_ROUND_OK) return st;
  uint64_t waits = mj_round_waits(r, a->seat);
  if (waits & s->discarded) return MJ_RE_FURITEN;
  if (s->riichi && (waits & s->passed_riichi)) return MJ_RE_FURITEN;
  if (passed_a_win(r, a->seat, waits)) return MJ_RE_FURITEN;
  return MJ_ROUND_OK;
}

static mj_round_status check_nine(const mj_round *r, const mj_act *a) {
  if (r->phase != MJ_PHASE_ACT) return MJ_RE_PHASE;
  if (a->seat != r->turn) return MJ_RE_TURN;
  const mj_round_seat *s = &r->seat[a->seat];
  if (!r->rules.abortive || !r->first_go_around || s->nriver ||
      s->drawn == MJ_NO_TILE)
    return MJ_RE_NINE;
  int kinds = 0;
  for (int k = 0; k < MJ_KINDS; k++) kinds += MJ_IS_ORPHAN(k) && s->hand.count[k];
  return kinds >= 9 ? MJ_ROUND_OK : MJ_RE_NINE;
}

static mj_round_status check_dora(const mj_round *r, const mj_act *a) {
  if (r->known_wall || r->phase == MJ_PHASE_OVER) return MJ_RE_NO_DORA;
  if (!r->dora_now && !r->dora_at_draw && !r->dora_at_discard)
    return MJ_RE_NO_DORA;
  if (r->ndora > MJ_MAX_KANS) return MJ_RE_NO_DORA;
  return fresh(r, a->tile, 0);
}

static mj_round_status check(const mj_round *r, const mj_act *a,
                             mj_context *ctx, mj_score *score) {
  if (a->type >= MJ_ACT_TYPES) return MJ_RE_PHASE;
  if (a->seat >= MJ_SEATS) return MJ_RE_SEAT;
  if (r->phase == MJ_PHASE_OVER && a->type != MJ_ACT_RON) return MJ_RE_OVER;
  switch (a->type) {
  case MJ_ACT_DRAW: return check_draw(r, a);
  case MJ_ACT_DISCARD: return check_discard(r, a);
  case MJ_ACT_CHI: case MJ_ACT_PON: case MJ_ACT_KAN: return check_call(r, a);
  case MJ_ACT_KAKAN: case MJ_ACT_ANKAN: return check_own_kan(r, a);
  case MJ_ACT_TSUMO: return check_tsumo(r, a, ctx, score);
  case MJ_ACT_RON:
    if (r->phase == MJ_PHASE_OVER && !r->rons) return MJ_RE_OVER;
    return check_ron(r, a, ctx, score);
  case MJ_ACT_PASS:
    return r->phase == MJ_PHASE_CLAIM && !r->rons ? MJ_ROUND_OK : MJ_RE_PHASE;
  case MJ_ACT_NINE_TERMINALS: return check_nine(r, a);
  case MJ_ACT_DORA: return check_dora(r, a);
  default: return MJ_RE_PHASE;
  }
}

mj_round_status mj_round_check(const mj_round *r, const mj_act *act) {
  mj_context ctx;
  mj_score score;
  return check(r, act, &ctx, &score);
}

/* ---- the end of a round ---- */

static void finish(mj_round *r, int end, bool dealer_stays) {
  r->result.end = end;
  r->result.dealer_stays = dealer_stays;
  r->phase = MJ_PHASE_OVER;
  r->open_tile = MJ_NO_TILE;
}

static void accept_riichi(mj_round *r) {
  if (!r->riichi_pending) return;
  mj_round_seat *s = &r->seat[r->turn];
  s->riichi = true;
  s->ippatsu = true;
  s->passed_riichi = 0;
  s->score -= 1000;
  r->sticks++;
  r->riichi_pending = false;
}

/* An exhausted wall: nagashi mangan, or tenpai payments. */
static void exhausted(mj_round *r) {
  mj_round_result *res = &r->result;
  int nready = 0;
  for (int s = 0; s < MJ_SEATS; s++) {
    res->tenpai[s] = ready(r->seat[s].hand.count, r->seat[s].hand.n);
    nready += res->tenpai[s];
    if (r->rules.nagashi && r->seat[s].nagashi) res->nagashi |= 1 << s;
  }
  if (res->nagashi) {
    for (int s = 0; s < MJ_SEATS; s++) {
      if (!(res->nagashi >> s & 1)) continue;
      for (int o = 0; o < MJ_SEATS; o++) {
        if (o == s) continue;
        int pay = s == r->dealer ? 4000 : o == r->dealer ? 4000 : 2000;
        res->deltas[o] -= pay;
        res->deltas[s] += pay;
      }
    }
  } else if (nready > 0 && nready < MJ_SEATS) {
    for (int s = 0; s < MJ_SEATS; s++)
      res->deltas[s] += res->tenpai[s] ? 3000 / nready : -3000 / (MJ_SEATS - nready);
  }
  finish(r, MJ_END_EXHAUSTED, res->tenpai[r->dealer]);
}

/* Nobody takes the open tile. */
static void pass(mj_round *r) {
  uint64_t bit = 1ull << mj_tile_kind(r->open_tile);
  for (int s = 0; s < MJ_SEATS; s++) {
    if (s == r->turn) continue;
    if (r->open_kan) r->seat[s].passed_kan |= bit;
    else r->seat[s].passed |= bit;
    if (r->seat[s].riichi) r->seat[s].passed_riichi |= bit;
  }
  accept_riichi(r);
  int riichi = 0;
  for (int s = 0; s < MJ_SEATS; s++) riichi += r->seat[s].riichi;
  if (r->open_kan) {
    r->open_kan = false;
    r->open_tile = MJ_NO_TILE;
    r->kan_draw = true;
    r->phase = MJ_PHASE_DRAW;
    return;
  }
  if (riichi == 4 && r->rules.abortive) finish(r, MJ_END_FOUR_RIICHI, true);
  else if (four_winds(r)) finish(r, MJ_END_FOUR_WINDS, true);
  else if (r->four_kans) finish(r, MJ_END_FOUR_KANS, true);
  else if (r->live == 0) exhausted(r);
  else {
    r->open_tile = MJ_NO_TILE;
    r->turn = (r->turn + 1) % MJ_SEATS;
    r->phase = MJ_PHASE_DRAW;
  }
}

/* What the win of seat moves: payments, honba, the sticks to the first
   winner. */
static void pay_win(mj_round *r, mj_round_win *w) {
  const mj_score *sc = &w->score;
  int who = w->who, honba = r->honba;
  memset(w->deltas, 0, sizeof w->deltas);
  bool pao_applies = false;
  const mj_round_seat *s = &r->seat[who];
  for (int i = 0; i < sc->nyaku; i++) {
    if (sc->yaku[i].yaku == MJ_DAISANGEN || sc->yaku[i].yaku == MJ_DAISUUSHII)
      pao_applies = s->pao >= 0;
  }
  w->pao = pao_applies ? s->pao : -1;
  if (w->from == who) {
    if (w->pao >= 0) {
      int all = sc->dealer ? 3 * sc->tsumo_all
                           : sc->tsumo_dealer + 2 * sc->tsumo_other;
      w->deltas[w->pao] -= all;
    } else {
      for (int o = 0; o < MJ_SEATS; o++) {
        if (o == who) continue;
        w->deltas[o] -= sc->dealer ? sc->tsumo_all
                        : o == r->dealer ? sc->tsumo_dealer : sc->tsumo_other;
      }
    }
  } else if (w->pao >= 0 && w->pao != w->from) {
    int base = sc->ron - 300 * honba;
    w->deltas[w->pao] -= base / 2;
    w->deltas[w->from] -= sc->ron - base / 2;
  } else {
    w->deltas[w->from] -= sc->ron;
  }
  int paid = 0;
  for (int o = 0; o < MJ_SEATS; o++) paid -= w->deltas[o];
  w->sticks = r->sticks;
  w->deltas[who] += paid + 1000 * r->sticks;
  r->sticks = 0;
  for (int o = 0; o < MJ_SEATS; o++) r->result.deltas[o] += w->deltas[o];
}

/* ---- making the steps ---- */

static void draw(mj_round *r, const mj_act *a) {
  if (r->phase == MJ_PHASE_CLAIM) pass(r);
  bool kan = r->kan_draw;
  if (kan) {
    reveal_due(r, &r->dora_now);
    reveal_due(r, &r->dora_at_draw);
  }
  int at = kan ? 122 + r->kans - 1 : 52 + r->draws;
  int tile = wall_tile(r, a->tile, at);
  hand_add(r, a->seat, tile);
  mj_round_seat *s = &r->seat[a->seat];
  s->drawn = (uint8_t)tile;
  r->rinshan = kan;
  r->kan_draw = false;
  if (!kan) r->draws++;
  r->live--;
  r->phase = MJ_PHASE_ACT;
}

static void discard(mj_round *r, const mj_act *a) {
  mj_round_seat *s = &r->seat[a->seat];
  reveal_due(r, &r->dora_at_discard);
  int k = mj_tile_kind(a->tile);
  uint8_t flags = (uint8_t)((a->tile == s->drawn ? MJ_DISCARD_TSUMOGIRI : 0) |
                            (a->riichi ? MJ_DISCARD_RIICHI : 0));
  if (a->riichi) s->double_riichi = r->first_go_around && s->nriver == 0;
  else if (s->riichi) s->ippatsu = false;
  if (r->first_go_around && r->first_discards < 4) {
    bool wind = k >= MJ_EAST && k <= MJ_NORTH;
    if (r->first_discards == 0) r->first_wind = wind ? (uint8_t)k : 255;
    else if (k != r->first_wind) r->first_wind = 255;
    r->first_discards++;
  }
  hand_remove(r, a->seat, a->tile);
  r->where[a->tile] = (uint8_t)(MJ_AT_RIVER | a->seat << 4);
  s->river[s->nriver] = a->tile;
  s->river_flags[s->nriver++] = flags;
  s->discarded |= 1ull << k;
  s->passed = s->passed_kan = 0;
  s->kuikae = 0;
  s->drawn = MJ_NO_TILE;
  if (!MJ_IS_ORPHAN(k)) s->nagashi = false;
  r->rinshan = false;
  r->four_kans = r->kans == MJ_MAX_KANS && (r->kan_seats & (r->kan_seats - 1));
  r->open_tile = a->tile;
  r->open_kan = false;
  r->riichi_pending = a->riichi;
  r->rons = 0;
  r->phase = MJ_PHASE_CLAIM;
}

static void interrupt(mj_round *r) {
  r->first_go_around = false;
  for (int s = 0; s < MJ_SEATS; s++) r->seat[s].ippatsu = false;
}

static void call(mj_round *r, const mj_act *a) {
  int from = r->turn, k = mj_tile_kind(a->tile);
  uint64_t bit = 1ull << k;
  for (int s = 0; s < MJ_SEATS; s++) {
    if (s == from) continue;
    r->seat[s].passed |= bit;
    if (r->seat[s].riichi) r->seat[s].passed_riichi |= bit;
  }
  accept_riichi(r);
  mj_round_seat *d = &r->seat[from];
  d->river_flags[d->nriver - 1] |= MJ_DISCARD_CALLED;
  d->nagashi = false;
  mj_round_seat *s = &r->seat[a->seat];
  int n = a->type == MJ_ACT_KAN ? 3 : 2;
  mj_round_meld *m = &s->meld[s->nmelds++];
  memset(m, 0, sizeof *m);
  m->kind = a->type == MJ_ACT_CHI ? MJ_CHI : a->type == MJ_ACT_PON ? MJ_PON : MJ_KAN;
  m->from = (uint8_t)from;
  m->called = a->tile;
  m->n = (uint8_t)(n + 1);
  for (int i = 0; i < n; i++) {
    hand_remove(r, a->seat, a->tiles[i]);
    m->tiles[i] = a->tiles[i];
    r->where[a->tiles[i]] = (uint8_t)(MJ_AT_MELD | a->seat << 4);
  }
  m->tiles[n] = a->tile;
  r->where[a->tile] = (uint8_t)(MJ_AT_MELD | a->seat << 4);
  s->open = true;
  interrupt(r);
  if (m->kind != MJ_CHI) {
    if (k >= MJ_WHITE && count_melds(s, MJ_WHITE, MJ_RED) == 3) s->pao = (int8_t)from;
    if (k >= MJ_EAST && k <= MJ_NORTH && count_melds(s, MJ_EAST, MJ_NORTH) == 4)
      s->pao = (int8_t)from;
  }
  r->open_tile = MJ_NO_TILE;
  r->turn = a->seat;
  s->drawn = MJ_NO_TILE;
  if (m->kind == MJ_KAN) {
    r->kans++;
    r->kan_seats |= 1 << a->seat;
    r->dora_at_draw += r->dora_at_discard;
    r->dora_at_discard = 1;
    r->kan_draw = true;
    r->phase = MJ_PHASE_DRAW;
  } else {
    s->kuikae = r->rules.kuikae ? 0
                : kuikae_of(a->type, k, mj_tile_kind(a->tiles[0]),
                            mj_tile_kind(a->tiles[1]));
    r->phase = MJ_PHASE_ACT;
  }
}

static void own_kan(mj_round *r, const mj_act *a) {
  mj_round_seat *s = &r->seat[a->seat];
  interrupt(r);
  r->kans++;
  r->kan_seats |= 1 << a->seat;
  s->drawn = MJ_NO_TILE;
  if (a->type == MJ_ACT_KAKAN) {
    int k = mj_tile_kind(a->tile);
    mj_round_meld *m = s->meld;
    while (!(m->kind == MJ_PON && mj_tile_kind(m->tiles[0]) == k)) m++;
    hand_remove(r, a->seat, a->tile);
    m->kind = MJ_KAN;
    m->added = true;
    m->tiles[3] = a->tile;
    m->n = 4;
    r->where[a->tile] = (uint8_t)(MJ_AT_MELD | a->seat << 4);
    r->dora_at_draw += r->dora_at_discard;
    r->dora_at_discard = 1;
    r->open_tile = a->tile;
    r->open_kan = true;
    r->riichi_pending = false;
    r->rons = 0;
    r->phase = MJ_PHASE_CLAIM;
    return;
  }
  mj_round_meld *m = &s->meld[s->nmelds++];
  memset(m, 0, sizeof *m);
  m->kind = MJ_ANKAN;
  m->from = a->seat;
  m->called = MJ_NO_TILE;
  m->n = 4;
  for (int i = 0; i < 4; i++) {
    hand_remove(r, a->seat, a->tiles[i]);
    m->tiles[i] = a->tiles[i];
    r->where[a->tiles[i]] = (uint8_t)(MJ_AT_MELD | a->seat << 4);
  }
  r->dora_now += r->dora_at_discard + 1;
  r->dora_at_discard = 0;
  reveal_due(r, &r->dora_now);
  r->kan_draw = true;
  r->phase = MJ_PHASE_DRAW;
}

static void win(mj_round *r, const mj_act *a, const mj_context *ctx,
                const mj_score *score, bool tsumo) {
  mj_round_result *res = &r->result;
  if (!tsumo && r->rons == 2 && r->rules.triple_ron_draw) {
    for (int i = 0; i < res->nwins; i++) r->sticks += res->win[i].sticks;
    memset(res, 0, sizeof *res);
    r->rons = 3;
    finish(r, MJ_END_TRIPLE_RON, true);
    return;
  }
  mj_round_win *w = &res->win[res->nwins++];
  w->who = a->seat;
  w->from = tsumo ? a->seat : r->turn;
  w->ctx = *ctx;
  w->score = *score;
  if (!tsumo) {
    r->rons++;
    r->riichi_pending = false;
    if (r->rons == 1 && !r->open_kan) {
      mj_round_seat *d = &r->seat[r->turn];
      d->river_flags[d->nriver - 1] |= MJ_DISCARD_CALLED;
      d->nagashi = false;
    }
  }
  pay_win(r, w);
  bool stays = false;
  for (int i = 0; i < res->nwins; i++) stays |= res->win[i].who == r->dealer;
  uint8_t open = r->open_tile;
  finish(r, MJ_END_WIN, stays);
  r->open_tile = open;
}

mj_round_status mj_round_play(mj_round *r, const mj_act *a) {
  mj_context ctx;
  mj_score score;
  mj_round_status st = check(r, a, &ctx, &score);
  if (st != MJ_ROUND_OK) return st;
  switch (a->type) {
  case MJ_ACT_DRAW: draw(r, a); break;
  case MJ_ACT_DISCARD: discard(r, a); break;
  case MJ_ACT_CHI: case MJ_ACT_PON: case MJ_ACT_KAN: call(r, a); break;
  case MJ_ACT_KAKAN: case MJ_ACT_ANKAN: own_kan(r, a); break;
  case MJ_ACT_TSUMO: win(r, a, &ctx, &score, true); break;
  case MJ_ACT_RON: win(r, a, &ctx, &score, false); break;
  case MJ_ACT_PASS: pass(r); break;
  case MJ_ACT_NINE_TERMINALS: finish(r, MJ_END_NINE_TERMINALS, true); break;
  case MJ_ACT_DORA:
    reveal(r, a->tile);
    if (r->dora_now) r->dora_now--;
    else if (r->dora_at_draw) r->dora_at_draw--;
    else r->dora_at_discard--;
    break;
  }
  return MJ_ROUND_OK;
}

/* AddressSanitizer's builds, gcc's and clang's (libFuzzer's harnesses) */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_KNOWN_STEPS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_KNOWN_STEPS 1
#endif
#endif
#ifndef CHECK_KNOWN_STEPS
#define CHECK_KNOWN_STEPS 0
#endif

mj_round_status mj_round_play_known(mj_round *r, const mj_act *a) {
  switch (a->type) {
  case MJ_ACT_DRAW: case MJ_ACT_DISCARD: case MJ_ACT_PASS:
#if CHECK_KNOWN_STEPS
    if (mj_round_check(r, a) != MJ_ROUND_OK) abort();
#endif
    if (a->type == MJ_ACT_DRAW) draw(r, a);
    else if (a->type == MJ_ACT_DISCARD) discard(r, a);
    else pass(r);
    return MJ_ROUND_OK;
  default:
    return mj_round_play(r, a);
  }
}

/* ---- invariants ---- */

const char *mj_round_invariant(const mj_round *r) {
  int hand[MJ_SEATS] = {0}, meld[MJ_SEATS] = {0}, river = 0, dora = 0, ura = 0;
  for (int t = 0; t < MJ_TILES; t++) {
    int at = r->where[t] & 15, seat = r->where[t] >> 4;
    if (seat >= MJ_SEATS) return "a tile of no seat";
    switch (at) {
    case MJ_AT_WALL: break;
    case MJ_AT_HAND:
      if (!holds(&r->seat[seat], t)) return "a tile in a hand that does not hold it";
      hand[seat]++;
      break;
    case MJ_AT_RIVER: river++; break;
    case MJ_AT_MELD: meld[seat]++; break;
    case MJ_AT_DORA: dora++; break;
    case MJ_AT_URA: ura++; break;
    default: return "a tile nowhere";
    }
  }
  int rivers = 0, total = 1000 * r->sticks;
  for (int s = 0; s < MJ_SEATS; s++) {
    const mj_round_seat *seat = &r->seat[s];
    int held = 0, melded = 0;
    for (int w = 0; w < 3; w++) held += __builtin_popcountll(seat->held[w]);
    if (held != seat->hand.n || held != hand[s]) return "a hand's count is off";
    int counted = 0;
    for (int k = 0; k < MJ_KINDS; k++) counted += seat->hand.count[k];
    if (counted != seat->hand.n) return "a hand's kinds do not add up";
    for (int i = 0; i < seat->nmelds; i++) melded += seat->meld[i].n;
    if (melded != meld[s]) return "a meld's tiles are off";
    if (r->dealt[s] && r->phase != MJ_PHASE_OVER) {
      int expected = 13 - 3 * seat->nmelds +
                     (r->phase == MJ_PHASE_ACT && r->turn == s);
      if (seat->hand.n != expected) return "a hand holds the wrong number of tiles";
    }
    for (int i = 0; i < seat->nriver; i++)
      rivers += !(seat->river_flags[i] & MJ_DISCARD_CALLED) ||
                (r->where[seat->river[i]] & 15) == MJ_AT_RIVER;
    total += seat->score + r->result.deltas[s];
  }
  if (rivers != river) return "the discards are off";
  if (dora != r->ndora || ura != (r->known_wall ? 0 : r->nura))
    return "the indicators are off";
  if (total != r->total) return "the points do not add up";
  return NULL;
}
