/*
** test_mahjong.c: the mahjong core.  Parsing (both text forms, every
** error with its position), readings (the seed's four examples, hands
** of many triplets, and every complete one-suit hand: readings are
** distinct, sorted and really make up the hand), shanten against
** ../shared/data/mahjong/shanten.jsonl and waits against waits.jsonl,
** both in full, and ukeire against a shanten count on random hands.
** Scoring against score.jsonl is in
** tests/lua/mahjong_spec.lua, which reads the requests as they are.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/rng.h"
#include "mahjong/mahjong.h"

/* ---- helpers ---- */

static mj_tiles hand_of(const char *text) {
  mj_tiles t;
  mj_parse_error err;
  mj_error e = mj_parse(text, strlen(text), &t, &err);
  if (e != MJ_OK) fail_msg("cannot parse '%s': error %d at %d", text, e, err.at);
  return t;
}

static void assert_parse_error(const char *text, mj_error expected, int at) {
  mj_tiles t;
  mj_parse_error err;
  mj_error e = mj_parse(text, strlen(text), &t, &err);
  if (e != expected || err.at != at)
    fail_msg("'%s': error %d at %d, expected %d at %d", text, e, err.at,
             expected, at);
}

/* A reading as text: "8s|234m 234p 234s 456s", "7 pairs", "kokushi". */
static void reading_text(const mj_reading *r, char *buf, size_t size) {
  char name[3];
  size_t len = 0;
  if (r->form == MJ_KOKUSHI) {
    snprintf(buf, size, "kokushi");
    return;
  }
  if (r->form == MJ_CHIITOITSU) {
    len += (size_t)snprintf(buf, size, "pairs");
    for (int i = 0; i < r->n; i++) {
      mj_tile_name(r->group[i].tile, false, name);
      len += (size_t)snprintf(buf + len, size - len, " %s", name);
    }
    return;
  }
  mj_tile_name(r->pair, false, name);
  len += (size_t)snprintf(buf, size, "%s|", name);
  for (int i = 0; i < r->n; i++) {
    mj_meld m = {r->group[i].kind == MJ_SEQUENCE ? MJ_CHI : MJ_PON,
                 r->group[i].tile, 0};
    char meld[8];
    mj_meld_text(&m, meld, sizeof meld);
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", meld);
  }
}

/* All readings of a hand, one per line. */
static void readings_text(const char *hand, char *buf, size_t size) {
  mj_tiles t = hand_of(hand);
  mj_reading r[MJ_MAX_READINGS];
  int n = mj_decompose(t.count, (t.n - 2) / 3, r);
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < n; i++) {
    char line[80];
    reading_text(&r[i], line, sizeof line);
    len += (size_t)snprintf(buf + len, size - len, "%s\n", line);
  }
}

static void assert_readings(const char *hand, const char *expected) {
  char text[512];
  readings_text(hand, text, sizeof text);
  if (strcmp(text, expected))
    fail_msg("readings of %s:\n%sexpected:\n%s", hand, text, expected);
}

/* ---- the reference data ---- */

/* One line after another of ../shared/data/mahjong/NAME (or under
   $LUDUS_DATA); NULL at the end. */
static FILE *data_open(const char *name) {
  const char *dir = getenv("LUDUS_DATA");
  char path[512];
  snprintf(path, sizeof path, "%s/mahjong/%s", dir ? dir : "../shared/data", name);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside "
                   "the clone, or set LUDUS_DATA)", path);
  return f;
}

/* The string value of "key": "..." in a JSON line, into buf. */
static bool json_string(const char *line, const char *key, char *buf, size_t size) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": \"", key);
  const char *at = strstr(line, pattern);
  if (!at) return false;
  at += strlen(pattern);
  size_t n = 0;
  while (at[n] && at[n] != '"' && n + 1 < size) n++;
  memcpy(buf, at, n);
  buf[n] = '\0';
  return true;
}

/* The integer value of "key": n, searching from `from`. */
static int json_int(const char *from, const char *key) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *at = strstr(from, pattern);
  if (!at) fail_msg("no \"%s\" in %s", key, from);
  return atoi(at + strlen(pattern));
}

/* ---- tiles ---- */

static void test_parse_forms(void **unused) {
  (void)unused;
  mj_tiles a = hand_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s");
  mj_tiles b = hand_of("234p234m45688s234s");
  mj_tiles c = hand_of("234m 234p 234s 456s 88s");
  assert_memory_equal(&a, &b, sizeof a);
  assert_memory_equal(&a, &c, sizeof a);
  assert_int_equal(a.n, 14);
  char text[64];
  mj_format(&a, text, sizeof text);
  assert_string_equal(text, "234m234p23445688s");
  mj_tiles red = hand_of("055m0p5s77z");
  assert_int_equal(red.count[4], 3);
  assert_int_equal(red.red[0], 1);
  assert_int_equal(red.red[1], 1);
  assert_int_equal(red.red[2], 0);
  assert_int_equal(red.count[MJ_RED], 2);
  mj_format(&red, text, sizeof text);
  assert_string_equal(text, "055m0p5s77z");
  char name[3];
  mj_tile_name(MJ_GREEN, false, name);
  assert_string_equal(name, "6z");
  mj_tile_name(13, true, name);
  assert_string_equal(name, "0p");
  bool is_red;
  assert_int_equal(mj_tile_from_name("0s", 2, &is_red), 22);
  assert_true(is_red);
  assert_int_equal(mj_tile_from_name("8z", 2, &is_red), -1);
  assert_int_equal(mj_tile_from_name("5", 1, &is_red), -1);
  assert_int_equal(hand_of("").n, 0);
}

static void test_parse_errors(void **unused) {
  (void)unused;
  assert_parse_error("123x", MJ_EUNKNOWN, 3);
  assert_parse_error("123m45", MJ_ENOSUIT, 4);
  assert_parse_error("123m 45 p", MJ_ENOSUIT, 5);
  assert_parse_error("m123", MJ_ENODIGIT, 0);
  assert_parse_error("11z8z", MJ_EHONOR, 3);
  assert_parse_error("0z", MJ_EHONOR, 0);
  assert_parse_error("11111m", MJ_EFIFTH, 4);
  assert_parse_error("55550m", MJ_EFIFTH, 4);
  assert_int_equal(hand_of("5550m").count[4], 4);
  mj_tiles t;
  mj_parse_error err;
  assert_int_equal(mj_parse("1m1111m", 7, &t, &err), MJ_EFIFTH);
  assert_int_equal(err.at, 5);
  assert_int_equal(err.kind, 0);
}

static void test_melds(void **unused) {
  (void)unused;
  static const struct { const char *text; int kind, tile, red; } good[] = {
    {"chi:234m", MJ_CHI, 1, 0}, {"chi:406s", MJ_CHI, 21, 1},
    {"pon:555z", MJ_PON, MJ_WHITE, 0}, {"kan:1111p", MJ_KAN, 9, 0},
    {"shouminkan:5555z", MJ_KAN, MJ_WHITE, 0},
    {"ankan:0555m", MJ_ANKAN, 4, 1}, {"chi:342p", MJ_CHI, 10, 0},
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    mj_meld m;
    mj_parse_error err;
    assert_int_equal(mj_parse_meld(good[i].text, strlen(good[i].text), &m, &err),
                     MJ_OK);
    assert_int_equal(m.kind, good[i].kind);
    assert_int_equal(m.tile, good[i].tile);
    assert_int_equal(m.red, good[i].red);
  }
  static const char *const bad[] = {
    "chi:123z", "chi:135m", "chi:899m", "pon:556m", "kan:111p", "pon:1111p",
    "234m", "peng:222m", "chi:", "pon:5555z",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    mj_meld m;
    if (mj_parse_meld(bad[i], strlen(bad[i]), &m, NULL) == MJ_OK)
      fail_msg("'%s' read as a meld", bad[i]);
  }
  mj_meld m;
  mj_parse_error err;
  assert_int_equal(mj_parse_meld("pon:88z", 7, &m, &err), MJ_EHONOR);
  assert_int_equal(err.at, 4);
  char text[8];
  mj_parse_meld("chi:406s", 8, &m, NULL);
  mj_meld_text(&m, text, sizeof text);
  assert_string_equal(text, "406s");
}

static void test_dora_of(void **unused) {
  (void)unused;
  assert_int_equal(mj_dora_of(0), 1);
  assert_int_equal(mj_dora_of(8), 0);         /* 9m -> 1m */
  assert_int_equal(mj_dora_of(26), 18);       /* 9s -> 1s */
  assert_int_equal(mj_dora_of(MJ_NORTH), MJ_EAST);
  assert_int_equal(mj_dora_of(MJ_WEST), MJ_NORTH);
  assert_int_equal(mj_dora_of(MJ_RED), MJ_WHITE);
  assert_int_equal(mj_dora_of(MJ_WHITE), MJ_GREEN);
}

/* ---- readings ---- */

/* The seed's four examples (manaten, "TypeScriptの型定義で麻雀の役判定をする"). */
static void test_seed_readings(void **unused) {
  (void)unused;
  assert_readings("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "8s|234m 234p 234s 456s\n");
  assert_readings("1p2p3p2m3m4m2s3s4s4s5s6s8s8s", "8s|234m 123p 234s 456s\n");
  assert_readings("2p2p2p2m3m4m2s3s4s4s5s6s8s8s", "8s|234m 222p 234s 456s\n");
  assert_readings("2p3p5p2m3m4m2s3s4s4s5s6s8s8s", "");
}

static void test_many_readings(void **unused) {
  (void)unused;
  /* the hands of many triplets the seed could not finish */
  assert_readings("111222333m444p55z",
                  "5z|111m 222m 333m 444p\n5z|123m 123m 123m 444p\n");
  assert_readings("11122233344455m",
                  "2m|111m 234m 345m 345m\n"
                  "5m|111m 222m 333m 444m\n"
                  "5m|111m 234m 234m 234m\n"
                  "5m|123m 123m 123m 444m\n");
  assert_readings("22334455667788m",
                  "2m|345m 345m 678m 678m\n"
                  "5m|234m 234m 678m 678m\n"
                  "8m|234m 234m 567m 567m\n"
                  "pairs 2m 3m 4m 5m 6m 7m 8m\n");
  assert_readings("19m19p19s1234567z1m", "kokushi\n");
  assert_readings("11112222333344m",
                  "1m|123m 123m 234m 234m\n"
                  "4m|111m 123m 222m 333m\n"
                  "4m|123m 123m 123m 123m\n");
  /* four of a kind is no pair of seven pairs */
  assert_readings("1111m2233p4455s66z", "");
  /* an open hand: fewer melds */
  assert_readings("234m55z", "5z|234m\n");
  assert_readings("11m", "1m|\n");
}

/* Checks a reading really makes up count[] with `melds` melds. */
static void check_reading(const uint8_t count[MJ_KINDS], int melds,
                          const mj_reading *r) {
  uint8_t left[MJ_KINDS];
  memcpy(left, count, sizeof left);
  assert_int_equal(r->form, MJ_STANDARD);
  assert_int_equal(r->n, melds);
  assert_true(left[r->pair] >= 2);
  left[r->pair] -= 2;
  for (int i = 0; i < r->n; i++) {
    const mj_group *g = &r->group[i];
    for (int j = 0; j < 3; j++) {
      int k = g->kind == MJ_SEQUENCE ? g->tile + j : g->tile;
      assert_true(left[k] > 0);
      left[k]--;
    }
    if (i) {
      const mj_group *p = &r->group[i - 1];
      assert_true(p->tile < g->tile || (p->tile == g->tile && p->kind <= g->kind));
    }
  }
  for (int k = 0; k < MJ_KINDS; k++) assert_int_equal(left[k], 0);
}

/* Melds in order: by tile, then triplet before sequence. */
static int compare_melds(const mj_reading *a, const mj_reading *b) {
  for (int i = 0; i < a->n && i < b->n; i++) {
    int ka = a->group[i].tile * 2 + a->group[i].kind;
    int kb = b->group[i].tile * 2 + b->group[i].kind;
    if (ka != kb) return ka < kb ? -1 : 1;
  }
  return a->n - b->n;
}

/* Whether count[] (in 1m..9m) is a pair and melds, by brute force: try
   every pair and strip the lowest tile's meld greedily both ways. */
static bool complete_slow(uint8_t *c, int need_pair) {
  int i = 0;
  while (i < 9 && !c[i]) i++;
  if (i == 9) return !need_pair;
  bool ok = false;
  if (need_pair && c[i] >= 2) {
    c[i] -= 2;
    ok = complete_slow(c, 0);
    c[i] += 2;
  }
  if (!ok && c[i] >= 3) {
    c[i] -= 3;
    ok = complete_slow(c, need_pair);
    c[i] += 3;
  }
  if (!ok && i <= 6 && c[i + 1] && c[i + 2]) {
    c[i]--, c[i + 1]--, c[i + 2]--;
    ok = complete_slow(c, need_pair);
    c[i]++, c[i + 1]++, c[i + 2]++;
  }
  if (!ok && need_pair) {      /* the pair may be above the lowest tile */
    for (int p = i + 1; p < 9 && !ok; p++) {
      if (c[p] < 2) continue;
      c[p] -= 2;
      ok = complete_slow(c, 0);
      c[p] += 2;
    }
  }
  return ok;
}

/* Every 14-tile hand of one suit: readings exactly when complete, each
   one valid, sorted and distinct; never more than MJ_MAX_READINGS. */
static void test_every_one_suit_hand(void **unused) {
  (void)unused;
  uint8_t count[MJ_KINDS];
  int digits[9] = {0}, complete = 0, most = 0;
  for (;;) {
    int sum = 0;
    for (int i = 0; i < 9; i++) sum += digits[i];
    if (sum == 14) {
      memset(count, 0, sizeof count);
      for (int i = 0; i < 9; i++) count[i] = (uint8_t)digits[i];
      mj_reading r[MJ_MAX_READINGS];
      int n = mj_decompose(count, 4, r);
      uint8_t copy[9];
      memcpy(copy, count, 9);
      int standard = 0;
      for (int i = 0; i < n; i++) {
        if (r[i].form != MJ_STANDARD) continue;
        check_reading(count, 4, &r[i]);
        if (standard++) {
          assert_true(r[i - 1].pair <= r[i].pair);
          if (r[i - 1].pair == r[i].pair)
            assert_true(compare_melds(&r[i - 1], &r[i]) < 0);
        }
      }
      assert_int_equal(standard > 0, complete_slow(copy, 1));
      complete += n > 0;
      if (n > most) most = n;
    }
    int i = 8;
    while (i >= 0 && digits[i] == 4) digits[i--] = 0;
    if (i < 0) break;
    digits[i]++;
  }
  assert_true(most < MJ_MAX_READINGS);
  assert_true(complete > 1000);
}

/* ---- shanten, waits, ukeire ---- */

static int shanten_of(const char *text) {
  mj_tiles t = hand_of(text);
  return mj_shanten(t.count, t.n);
}

static void test_shanten_cases(void **unused) {
  (void)unused;
  assert_int_equal(shanten_of("234m234p234s45688s"), -1);
  assert_int_equal(shanten_of("234m234p234s4568s"), 0);
  assert_int_equal(shanten_of("19m19p19s1234567z"), 0);
  assert_int_equal(shanten_of("19m19p19s1234567z9s"), -1);
  assert_int_equal(shanten_of("1122m3344p5566s7z"), 0);
  /* four of a kind is one pair only, and waiting on the fifth is no wait */
  mj_tiles t = hand_of("1111m2233p4455s66z");
  assert_int_equal(mj_shanten_chiitoitsu(t.count), 1);
  t = hand_of("1111m2233p4455s6z");
  assert_int_equal(mj_shanten_chiitoitsu(t.count), 2);
  /* 1111m with three melds: 111m and 1m waits on a fifth 1m */
  t = hand_of("1111m234p567p789s");
  assert_int_equal(mj_shanten_regular(t.count, 4), 1);
  t = hand_of("1112345678999m");          /* nine-sided chuuren */
  int shanten;
  assert_int_equal(mj_ukeire(t.count, t.n, &shanten), 0x1ff);
  assert_int_equal(shanten, 0);
  t = hand_of("7777899m456p999s");        /* 7m is no wait: all four held */
  assert_int_equal(mj_ukeire(t.count, t.n, &shanten),
                   1 << 5 | 1 << 7 | 1 << 8);
  /* hands of many triplets */
  assert_int_equal(shanten_of("111222333m444p55z"), -1);
  assert_int_equal(shanten_of("111222333m444p5z"), 0);
  assert_int_equal(shanten_of("11112222333344m"), -1);
  /* called melds: 10, 7, 4, 1 tiles */
  assert_int_equal(shanten_of("234m234p4568s"), 0);
  assert_int_equal(shanten_of("234m5z"), 0);
  assert_int_equal(shanten_of("5z"), 0);
  assert_int_equal(shanten_of("55z"), -1);
  assert_int_equal(shanten_of("19m19p19s1234z"), 6);
}

/* Calls check on each line of a reference file with its hand and the
   text from "expect" on; returns how many lines. */
static int each_line(const char *name, void (*check)(const char *hand,
                                                      const char *expect)) {
  FILE *f = data_open(name);
  char line[2048], hand[64];
  int lines = 0;
  while (fgets(line, sizeof line, f)) {
    const char *expect = strstr(line, "\"expect\"");
    if (!json_string(line, "hand", hand, sizeof hand) || !expect) continue;
    check(hand, expect);
    lines++;
  }
  fclose(f);
  return lines;
}

static void check_shanten(const char *hand, const char *expect) {
  mj_tiles t = hand_of(hand);
  int regular = mj_shanten_regular(t.count, 4);
  int chiitoitsu = mj_shanten_chiitoitsu(t.count);
  int kokushi = mj_shanten_kokushi(t.count);
  if (regular != json_int(expect, "regular") ||
      chiitoitsu != json_int(expect, "chiitoitsu") ||
      kokushi != json_int(expect, "kokushi") ||
      mj_shanten(t.count, t.n) != json_int(expect, "shanten"))
    fail_msg("%s: regular %d, chiitoitsu %d, kokushi %d; expected %s", hand,
             regular, chiitoitsu, kokushi, expect);
}

static void test_shanten_reference(void **unused) {
  (void)unused;
  assert_int_equal(each_line("shanten.jsonl", check_shanten), 400);
}

/* "ukeire": {"7p": 4, ...}: every wait with its unseen copies. */
static void check_waits(const char *hand, const char *expect) {
  mj_tiles t = hand_of(hand);
  int shanten;
  uint64_t waits = mj_ukeire(t.count, t.n, &shanten);
  assert_int_equal(shanten, json_int(expect, "shanten"));
  const char *u = strstr(expect, "\"ukeire\": {");
  assert_non_null(u);
  uint64_t expected = 0;
  int total = 0;
  for (const char *p = strchr(u, '{') + 1; *p && *p != '}';) {
    bool red;
    const char *q = strchr(p, '"');
    int kind = mj_tile_from_name(q + 1, 2, &red);
    assert_true(kind >= 0);
    int unseen = atoi(strchr(q, ':') + 1);
    assert_int_equal(unseen, 4 - t.count[kind]);
    expected |= 1ull << kind;
    total += unseen;
    p = strpbrk(q + 4, ",}");
    if (*p == ',') p++;
  }
  if (waits != expected) fail_msg("%s: waits %llx, expected %s", hand,
                                  (unsigned long long)waits, expect);
  assert_int_equal(total, json_int(expect, "ukeire_total"));
}

static void test_waits_reference(void **unused) {
  (void)unused;
  assert_int_equal(each_line("waits.jsonl", check_waits), 200);
}

static void test_discards(void **unused) {
  (void)unused;
  /* 7z leaves 4566s waiting on 3s, 6s (and 6s on the tanki): 5 tiles;
     6s leaves a 7z tanki: 3 tiles */
  mj_tiles t = hand_of("234m234p234s4566s7z");
  mj_discard d[MJ_KINDS];
  int n = mj_discards(t.count, t.n, d);
  assert_int_equal(n, 12);
  assert_int_equal(d[0].tile, MJ_RED);
  assert_int_equal(d[0].shanten, 0);
  assert_int_equal(d[0].accepted, 1ull << 20 | 1ull << 23);
  assert_int_equal(d[0].unseen, 5);
  for (int i = 1; i < n; i++) {
    assert_true(d[i - 1].shanten <= d[i].shanten);
    if (d[i - 1].shanten == d[i].shanten)
      assert_true(d[i - 1].unseen >= d[i].unseen);
  }
  for (int i = 0; i < n; i++) {     /* each agrees with shanten and ukeire */
    t.count[d[i].tile]--;
    int shanten;
    assert_int_equal(mj_ukeire(t.count, 13, &shanten), d[i].accepted);
    assert_int_equal(shanten, d[i].shanten);
    t.count[d[i].tile]++;
  }
}

/* Ukeire as its definition says: each kind added, the shanten counted
   again; mj_ukeire and mj_discards look up one suit at a time. */
static uint64_t ukeire_by_shanten(uint8_t count[MJ_KINDS], int tiles, int *shanten) {
  int now = mj_shanten(count, tiles);
  uint64_t accepted = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    if (count[k] == 4) continue;
    count[k]++;
    if (mj_shanten(count, tiles + 1) < now) accepted |= 1ull << k;
    count[k]--;
  }
  *shanten = now;
  return accepted;
}

static void test_ukeire_random(void **unused) {
  (void)unused;
  static const int sizes[] = {1, 2, 4, 5, 7, 8, 10, 11, 12, 13, 13, 14, 14};
  rng r;
  rng_seed(&r, 18);
  for (int i = 0; i < 20000; i++) {
    uint8_t count[MJ_KINDS] = {0};
    int tiles = sizes[rng_below(&r, 13)];
    /* one suit, two, or all: crowded hands have the odd shapes */
    int span = (int[]){9, 18, 34}[rng_below(&r, 3)];
    int first = span == 34 ? 0 : (int)rng_below(&r, (uint32_t)(35 - span));
    for (int n = 0; n < tiles;) {
      int k = first + (int)rng_below(&r, (uint32_t)span);
      if (count[k] < 4) count[k]++, n++;
    }
    int expected, shanten;
    if (tiles < 14) {               /* a tile more stays within 14 */
      uint64_t accepted = ukeire_by_shanten(count, tiles, &expected);
      assert_int_equal(mj_ukeire(count, tiles, &shanten), accepted);
      assert_int_equal(shanten, expected);
    }
    if (tiles % 3 != 2) continue;
    mj_discard d[MJ_KINDS];
    int n = mj_discards(count, tiles, d);
    for (int j = 0; j < n; j++) {
      count[d[j].tile]--;
      assert_int_equal(ukeire_by_shanten(count, tiles - 1, &expected), d[j].accepted);
      assert_int_equal(d[j].shanten, expected);
      count[d[j].tile]++;
    }
  }
}

/* ---- scoring ---- */

static mj_status score_of(const char *hand, const char *win, mj_context *ctx,
                          mj_score *out) {
  mj_tiles t = hand_of(hand);
  bool red;
  ctx->win = win ? mj_tile_from_name(win, strlen(win), &red) : -1;
  return mj_score_hand(&t, ctx, out);
}

static bool has_yaku(const mj_score *s, int yaku) {
  for (int i = 0; i < s->nyaku; i++)
    if (s->yaku[i].yaku == yaku) return true;
  return false;
}

/* The seed's four examples, scored: tanyao and pinfu (and sanshoku),
   pinfu without tanyao, tanyao without pinfu, and no win. */
static void test_seed_scores(void **unused) {
  (void)unused;
  mj_context ctx;
  mj_score s;
  mj_default_context(&ctx);
  assert_int_equal(score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s),
                   MJ_SCORED);
  assert_true(has_yaku(&s, MJ_TANYAO) && has_yaku(&s, MJ_PINFU) &&
              has_yaku(&s, MJ_SANSHOKU_DOUJUN));
  assert_int_equal(s.nyaku, 3);
  assert_int_equal(s.han, 4);
  assert_int_equal(s.fu, 30);
  assert_int_equal(s.ron, 7700);             /* non-dealer 4 han 30 fu */
  assert_int_equal(score_of("1p2p3p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s),
                   MJ_SCORED);
  assert_true(has_yaku(&s, MJ_PINFU) && !has_yaku(&s, MJ_TANYAO));
  assert_int_equal(score_of("2p2p2p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s),
                   MJ_SCORED);
  assert_true(!has_yaku(&s, MJ_PINFU) && has_yaku(&s, MJ_TANYAO));
  assert_int_equal(score_of("2p3p5p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s),
                   MJ_NOT_WINNING);
}

static void test_known_points(void **unused) {
  (void)unused;
  mj_context ctx;
  mj_score s;
  mj_default_context(&ctx);
  ctx.rules.kiriage = true;
  score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s);
  assert_int_equal(s.ron, 8000);
  assert_int_equal(s.limit, MJ_MANGAN);
  mj_default_context(&ctx);
  score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "3s", &ctx, &s);   /* kanchan */
  assert_int_equal(s.han, 3);
  assert_int_equal(s.fu, 40);
  assert_int_equal(s.ron, 5200);
  ctx.seat = MJ_EAST;
  ctx.dora[ctx.ndora++] = 0;                                     /* 2m */
  score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "3s", &ctx, &s);
  assert_int_equal(s.han, 4);
  assert_int_equal(s.ron, 12000);                                /* dealer */
  ctx.tsumo = true;
  ctx.honba = 2;
  ctx.kyoutaku = 1;
  score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", "6s", &ctx, &s);   /* 6 han */
  assert_int_equal(s.limit, MJ_HANEMAN);
  assert_int_equal(s.tsumo_all, 6200);
  assert_int_equal(s.total, 3 * 6200 + 1000);
  /* the best winning tile when none is named: pinfu on a two-sided wait,
     as 2m (the first of those worth as much) and not 3s, 8s */
  mj_default_context(&ctx);
  assert_int_equal(score_of("2p3p4p2m3m4m2s3s4s4s5s6s8s8s", NULL, &ctx, &s),
                   MJ_SCORED);
  assert_int_equal(s.win, 1);
  assert_int_equal(s.wait, MJ_RYANMEN);
  assert_int_equal(s.han, 4);
}

/* What a C caller may get wrong is refused, never read past. */
static void test_score_refusals(void **unused) {
  (void)unused;
  mj_context ctx;
  mj_score s;
  const char *hand = "123m456p789s23455s";
  mj_default_context(&ctx);
  ctx.nmelds = 5;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.dora[ctx.ndora++] = MJ_KINDS;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.seat = 3;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_CHI, MJ_EAST, 0};
  assert_int_equal(score_of("456p789s23455s", "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_KAN, 0, 0};
  assert_int_equal(score_of("11m456p789s234s", "4s", &ctx, &s), MJ_FIFTH_TILE);
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_COUNT);
  mj_default_context(&ctx);
  assert_int_equal(score_of(hand, "1z", &ctx, &s), MJ_WIN_NOT_IN_HAND);
  ctx.win = 99;
  mj_tiles t = hand_of(hand);
  assert_int_equal(mj_score_hand(&t, &ctx, &s), MJ_WIN_NOT_IN_HAND);
  mj_default_context(&ctx);
  assert_int_equal(score_of("123m456p789s11z222s", "2s", &ctx, &s), MJ_NO_YAKU);
  /* ura dora are shown to a riichi winner only; they were ignored */
  mj_default_context(&ctx);
  ctx.ura[ctx.nura++] = 21;                                      /* 4s */
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_URA_WITHOUT_RIICHI);
  ctx.double_riichi = true;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_SCORED);
  ctx.double_riichi = false;
  ctx.riichi = true;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_SCORED);
  /* a replacement draw is not the wall's last tile, nor the tile of an
     added kan the last discard: the round never gives both, and both
     had counted a han each */
  mj_default_context(&ctx);
  ctx.tsumo = ctx.rinshan = ctx.haitei = true;
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_ANKAN, MJ_EAST, 0};
  assert_int_equal(score_of("456p789s23455s", "4s", &ctx, &s), MJ_NOT_LAST_TILE);
  ctx.haitei = false;
  assert_int_equal(score_of("456p789s23455s", "4s", &ctx, &s), MJ_SCORED);
  mj_default_context(&ctx);
  ctx.chankan = ctx.houtei = true;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_NOT_LAST_TILE);
  ctx.houtei = false;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_SCORED);
  /* found by tests/fuzz/fuzz_mahjong: a red five in a meld of honors was
     counted into red[3], past the three suits' */
  mj_default_context(&ctx);
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_PON, MJ_WEST, 1};
  assert_int_equal(score_of("456p789s23455s", "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_CHI, 18, 1};             /* 123s */
  assert_int_equal(score_of("456p789s23455s", "4s", &ctx, &s), MJ_BAD_CONTEXT);
  mj_default_context(&ctx);
  ctx.meld[ctx.nmelds++] = (mj_meld){MJ_PON, 13, 4};             /* 555p */
  assert_int_equal(score_of("234m678s23455s", "4s", &ctx, &s), MJ_BAD_CONTEXT);
  ctx.meld[0].red = 3;
  assert_int_equal(score_of("234m678s23455s", "4s", &ctx, &s), MJ_SCORED);
  /* and 300 points a honba overflowed an int */
  mj_default_context(&ctx);
  ctx.honba = 2147483647;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_CONTEXT);
  ctx.honba = MJ_MAX_STICKS;
  ctx.kyoutaku = MJ_MAX_STICKS + 1;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_BAD_CONTEXT);
  ctx.kyoutaku = MJ_MAX_STICKS;
  assert_int_equal(score_of(hand, "4s", &ctx, &s), MJ_SCORED);
  assert_int_equal(s.total, s.ron + 1000 * MJ_MAX_STICKS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse_forms),
    cmocka_unit_test(test_parse_errors),
    cmocka_unit_test(test_melds),
    cmocka_unit_test(test_dora_of),
    cmocka_unit_test(test_seed_readings),
    cmocka_unit_test(test_many_readings),
    cmocka_unit_test(test_every_one_suit_hand),
    cmocka_unit_test(test_shanten_cases),
    cmocka_unit_test(test_shanten_reference),
    cmocka_unit_test(test_waits_reference),
    cmocka_unit_test(test_discards),
    cmocka_unit_test(test_ukeire_random),
    cmocka_unit_test(test_seed_scores),
    cmocka_unit_test(test_known_points),
    cmocka_unit_test(test_score_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
