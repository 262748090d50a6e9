/*
** fuzz_mahjong.c: tiles (mj_parse, mj_tile_from_name), melds
** (mj_parse_meld) and the context a hand is scored in (mj_score_hand
** checks it: context_in_range and check_context in score.c).
**
** The input: a byte of choices, then by the choices tiles, a meld, a tile
** name, or a scoring request: a line with the hand, lines with up to four
** melds, an empty line, and bytes that fill the context, out of range at
** times.  What is read is written again and read back the same; a hand
** read is analysed, and the analyses must agree with one another
** (shanten, readings, waits, discards); a score must be one a hand can
** have.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mahjong/mahjong.h"

static void check_same_tiles(const mj_tiles *a, const mj_tiles *b,
                             const char *text) {
  FUZZ_CHECK(a->n == b->n && memcmp(a->count, b->count, sizeof a->count) == 0 &&
             memcmp(a->red, b->red, sizeof a->red) == 0,
             "'%s' reads back as other tiles", text);
}

/* Written in the compact form, the tiles read back as themselves. */
static void check_format(const mj_tiles *t) {
  char text[512];
  int len = mj_format(t, text, sizeof text);
  FUZZ_CHECK(len >= 0 && (size_t)len < sizeof text && (int)strlen(text) == len,
             "tiles written in %d bytes", len);
  mj_tiles back;
  mj_parse_error err;
  FUZZ_CHECK(mj_parse(text, (size_t)len, &back, &err) == MJ_OK,
             "'%s' is refused", text);
  check_same_tiles(t, &back, text);
  for (int k = 0; k < MJ_KINDS; k++) {
    FUZZ_CHECK(t->count[k] <= 4, "%d of kind %d", t->count[k], k);
    for (int red = 0; red < 2; red++) {
      if (red && (MJ_IS_HONOR(k) || k % 9 != 4)) continue;
      char name[3];
      bool is_red;
      mj_tile_name(k, red, name);
      FUZZ_CHECK(mj_tile_from_name(name, 2, &is_red) == k && is_red == red,
                 "'%s' is not kind %d", name, k);
    }
  }
  for (int s = 0; s < 3; s++)
    FUZZ_CHECK(t->red[s] <= t->count[s * 9 + 4], "more red fives than fives");
}

static int shanten_with(uint8_t *count, int kind, int delta, int tiles) {
  count[kind] = (uint8_t)(count[kind] + delta);
  int s = mj_shanten(count, tiles + delta);
  count[kind] = (uint8_t)(count[kind] - delta);
  return s;
}

/* The tiles of a reading are the hand's. */
static void check_reading(const mj_reading *r, const uint8_t *count, int melds) {
  uint8_t used[MJ_KINDS] = {0};
  if (r->form == MJ_STANDARD) {
    FUZZ_CHECK(r->n == melds && r->pair < MJ_KINDS, "a reading of %d groups",
               r->n);
    used[r->pair] += 2;
    for (int i = 0; i < r->n; i++) {
      const mj_group *g = &r->group[i];
      FUZZ_CHECK(g->tile < MJ_KINDS && (g->kind == MJ_TRIPLET ||
                 (!MJ_IS_HONOR(g->tile) && g->tile % 9 <= 6)), "a bad group");
      for (int j = 0; j < 3; j++)
        used[g->kind == MJ_TRIPLET ? g->tile : g->tile + j]++;
    }
  } else if (r->form == MJ_CHIITOITSU) {
    for (int i = 0; i < r->n; i++) used[r->group[i].tile] += 2;
  } else {
    FUZZ_CHECK(mj_is_kokushi(count), "a kokushi reading of another hand");
    return;
  }
  FUZZ_CHECK(memcmp(used, count, MJ_KINDS) == 0,
             "a reading that is not the hand");
}

/* Shanten, readings, waits and discards agree with one another. */
static void check_analysis(const mj_tiles *t) {
  if (t->n > MJ_MAX_HAND || t->n % 3 == 0) return;
  uint8_t count[MJ_KINDS];
  memcpy(count, t->count, sizeof count);
  int n = t->n, melds = n / 3;
  int shanten = mj_shanten(count, n);
  int regular = mj_shanten_regular(count, melds);
  FUZZ_CHECK(shanten >= -1 && shanten <= regular && regular <= 8,
             "shanten %d, regular %d", shanten, regular);
  if (n >= 13) {
    int pairs = mj_shanten_chiitoitsu(count), orphans = mj_shanten_kokushi(count);
    int least = regular < pairs ? regular : pairs;
    least = least < orphans ? least : orphans;
    FUZZ_CHECK(shanten == least, "shanten %d, the forms' least %d", shanten,
               least);
  } else {
    FUZZ_CHECK(shanten == regular, "shanten %d, regular %d", shanten, regular);
  }
  if (n % 3 == 2) {
    mj_reading readings[MJ_MAX_READINGS];
    int r = mj_decompose(count, melds, readings);
    FUZZ_CHECK(r >= 0 && r <= MJ_MAX_READINGS, "%d readings", r);
    FUZZ_CHECK((r > 0) == (shanten == -1), "%d readings at shanten %d", r,
               shanten);
    for (int i = 0; i < r; i++) check_reading(&readings[i], count, melds);
    mj_discard discards[MJ_KINDS];
    int d = mj_discards(count, n, discards);
    int kinds = 0;
    for (int k = 0; k < MJ_KINDS; k++) kinds += count[k] > 0;
    FUZZ_CHECK(d == kinds, "%d discards of %d kinds", d, kinds);
    for (int i = 0; i < d; i++) {
      int k = discards[i].tile;
      FUZZ_CHECK(k < MJ_KINDS && count[k], "a discard not held");
      FUZZ_CHECK(discards[i].shanten == shanten_with(count, k, -1, n),
                 "a discard's shanten");
      FUZZ_CHECK(i == 0 || discards[i - 1].shanten <= discards[i].shanten,
                 "discards out of order");
    }
  } else {
    int s;
    uint64_t waits = mj_ukeire(count, n, &s);
    FUZZ_CHECK(s == shanten, "ukeire's shanten %d, not %d", s, shanten);
    for (int k = 0; k < MJ_KINDS; k++) {
      bool lowers = count[k] < 4 && shanten_with(count, k, 1, n) < shanten;
      FUZZ_CHECK(lowers == (bool)(waits >> k & 1), "kind %d %s the shanten "
                 "but is%s a wait", k, lowers ? "lowers" : "does not lower",
                 waits >> k & 1 ? "" : " not");
    }
  }
}

static void read_tiles(const uint8_t *bytes, size_t len) {
  char *text = fuzz_copy(bytes, len, false);
  mj_tiles t;
  mj_parse_error err;
  mj_error e = mj_parse(text, len, &t, &err);
  free(text);
  if (e != MJ_OK) {
    FUZZ_CHECK(err.at >= 0 && (size_t)err.at < len, "an error at byte %d of %zu",
               err.at, len);
    return;
  }
  check_format(&t);
  check_analysis(&t);
}

static const char *const meld_prefix[] = {"chi:", "pon:", "kan:", "ankan:"};

static void check_meld(const mj_meld *m) {
  char text[16];
  size_t prefix = strlen(meld_prefix[m->kind]);
  memcpy(text, meld_prefix[m->kind], prefix);
  int len = mj_meld_text(m, text + prefix, sizeof text - prefix);
  FUZZ_CHECK(len > 0 && (size_t)len < sizeof text - prefix, "a meld of %d", len);
  mj_meld back;
  mj_parse_error err;
  FUZZ_CHECK(mj_parse_meld(text, prefix + (size_t)len, &back, &err) == MJ_OK &&
             memcmp(&back, m, sizeof back) == 0, "'%s' reads back otherwise",
             text);
}

static bool read_meld(const uint8_t *bytes, size_t len, mj_meld *m) {
  char *text = fuzz_copy(bytes, len, false);
  mj_parse_error err;
  mj_error e = mj_parse_meld(text, len, m, &err);
  free(text);
  if (e != MJ_OK) return false;
  FUZZ_CHECK(m->kind <= MJ_ANKAN && m->tile < MJ_KINDS, "a meld out of range");
  FUZZ_CHECK(m->red <= (m->kind == MJ_CHI ? 1 : m->kind == MJ_PON ? 3 : 4) &&
             (!m->red || (!MJ_IS_HONOR(m->tile) &&
                          (m->kind == MJ_CHI ? m->tile % 9 >= 2 &&
                                               m->tile % 9 <= 4
                                             : m->tile % 9 == 4))),
             "a meld with %d red fives", m->red);
  check_meld(m);
  return true;
}

/* A number from a byte: mostly small, at times far out of range. */
static int number(fuzz_input *in, int modulus, int offset) {
  static const int far[] = {-2147483647 - 1, -1000000, 1000000, 2147483647,
                            -2, 99};
  unsigned b = fuzz_byte(in);
  if (b >= 250) return far[b - 250];
  return (int)(b % (unsigned)modulus) + offset;
}

static void check_score(const mj_tiles *hand, const mj_context *ctx,
                        const mj_score *s) {
  FUZZ_CHECK(s->win >= 0 && s->win < MJ_KINDS && hand->count[s->win],
             "won on kind %d", s->win);
  FUZZ_CHECK(ctx->win < 0 || s->win == ctx->win, "won on %d, not %d", s->win,
             ctx->win);
  FUZZ_CHECK(s->han >= 1 || s->yakuman >= 1, "%d han", s->han);
  FUZZ_CHECK(s->nyaku >= 1 && s->nyaku <= 24, "%d yaku", s->nyaku);
  for (int i = 0; i < s->nyaku; i++)
    FUZZ_CHECK(mj_yaku_name(s->yaku[i].yaku) && mj_yaku_name_ja(s->yaku[i].yaku),
               "yaku %d", s->yaku[i].yaku);
  FUZZ_CHECK(s->fu == 0 || s->fu == 25 || (s->fu >= 20 && s->fu <= 130 &&
                                           s->fu % 10 == 0), "%d fu", s->fu);
  FUZZ_CHECK(s->basic > 0 && s->total > 0, "%d basic points, %d in all",
             s->basic, s->total);
  FUZZ_CHECK(s->nfu >= 0 && s->nfu <= 12, "%d fu items", s->nfu);
  FUZZ_CHECK(ctx->tsumo ? s->ron == 0 : s->ron > 0, "ron %d", s->ron);
}

static void read_score(fuzz_input *in) {
  size_t len;
  const uint8_t *line = fuzz_line(in, &len);
  char *text = fuzz_copy(line, len, false);
  mj_tiles hand;
  mj_parse_error err;
  mj_error e = mj_parse(text, len, &hand, &err);
  free(text);
  if (e != MJ_OK) return;
  mj_context ctx;
  mj_default_context(&ctx);
  while (in->at < in->size) {
    line = fuzz_line(in, &len);
    if (len == 0) break;
    if (ctx.nmelds < 4 && read_meld(line, len, &ctx.meld[ctx.nmelds]))
      ctx.nmelds++;
  }
  unsigned flags = fuzz_byte(in) | fuzz_byte(in) << 8;
  bool *flag[] = {&ctx.tsumo, &ctx.riichi, &ctx.double_riichi, &ctx.ippatsu,
                  &ctx.haitei, &ctx.houtei, &ctx.rinshan, &ctx.chankan,
                  &ctx.tenhou, &ctx.chiihou, &ctx.rules.kuitan, &ctx.rules.aka,
                  &ctx.rules.kiriage, &ctx.rules.double_yakuman,
                  &ctx.rules.kazoe, &ctx.rules.open_pinfu_fu};
  for (int i = 0; i < 16; i++) *flag[i] = flags >> i & 1;
  ctx.win = number(in, MJ_KINDS + 1, -1);
  ctx.seat = number(in, 5, MJ_EAST - 1);
  ctx.round = number(in, 5, MJ_EAST - 1);
  if (ctx.seat == MJ_EAST - 1) ctx.seat = -1;
  if (ctx.round == MJ_EAST - 1) ctx.round = -1;
  ctx.ndora = number(in, 5, 0);
  ctx.nura = number(in, 5, 0);
  for (int i = 0; i < MJ_MAX_INDICATORS; i++) {
    ctx.dora[i] = (uint8_t)fuzz_byte(in) % (MJ_KINDS + 2);
    ctx.ura[i] = (uint8_t)fuzz_byte(in) % (MJ_KINDS + 2);
  }
  ctx.honba = number(in, 10, 0);
  ctx.kyoutaku = number(in, 10, 0);
  unsigned raw = fuzz_byte(in);
  if (raw >= 0xf0 && ctx.nmelds < 4) {
    /* a meld no text gives, as a C caller might fill it */
    mj_meld *m = &ctx.meld[ctx.nmelds++];
    m->kind = (uint8_t)(raw & 7);
    m->tile = (uint8_t)fuzz_byte(in);
    m->red = (uint8_t)fuzz_byte(in);
  }
  mj_score score;
  mj_status status = mj_score_hand(&hand, &ctx, &score);
  FUZZ_CHECK(status <= MJ_BAD_CONTEXT, "status %d", (int)status);
  if (status == MJ_SCORED) check_score(&hand, &ctx, &score);
}

/* The shanten tables are built before the first input: their few
   seconds (many more on a loaded machine, under the sanitizers) are not
   an input's time. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  mj_shanten_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in);
  const uint8_t *rest = data + in.at;
  size_t len = size - in.at;
  switch (choice & 3) {
  case 0:
    read_tiles(rest, len);
    break;
  case 1: {
    mj_meld m;
    read_meld(rest, len, &m);
    break;
  }
  case 2: {
    char *name = fuzz_copy(rest, len, false);
    bool red;
    int kind = mj_tile_from_name(name, len, &red);
    free(name);
    FUZZ_CHECK(kind >= -1 && kind < MJ_KINDS, "kind %d", kind);
    break;
  }
  default:
    read_score(&in);
  }
  return 0;
}
