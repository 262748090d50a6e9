/*
** test_mahjong_table.c: the options of a decision (mj_round_options)
** against every step mj_round_check allows; the table (table.h) played
** by seeded random choices; its record written as tenhou.net/6 JSON and
** read back and replayed by the log reader to the same scores.
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
#include "mahjong/table.h"
#include "mahjong/tenhou.h"

/* ---- steps compared by what they move: kinds and red fives ---- */

static int variant(const mj_round *r, int tile) {
  return 2 * mj_tile_kind(tile) + mj_round_red(r, tile);
}

static void signature(const mj_round *r, const mj_act *a, int n, int out[8]) {
  memset(out, 0, 8 * sizeof *out);
  out[0] = a->type;
  out[1] = a->seat;
  out[2] = a->riichi;
  bool tile = a->type == MJ_ACT_DISCARD || a->type == MJ_ACT_KAKAN ||
              a->type == MJ_ACT_CHI || a->type == MJ_ACT_PON || a->type == MJ_ACT_KAN;
  out[3] = tile ? variant(r, a->tile) : 0;
  int v[4];
  for (int i = 0; i < n; i++) v[i] = variant(r, a->tiles[i]);
  for (int i = 1; i < n; i++)                 /* sorted */
    for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
      int t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  for (int i = 0; i < n; i++) out[4 + i] = v[i];
}

static int hand_tiles(const mj_act *a) {
  switch (a->type) {
  case MJ_ACT_CHI: case MJ_ACT_PON: return 2;
  case MJ_ACT_KAN: return 3;
  case MJ_ACT_ANKAN: return 4;
  default: return 0;
  }
}

typedef struct checked {
  long legal, options;
  long bounds;                /* turns checked with a bound of 1 */
  int types[MJ_ACT_TYPES];
} checked;

/* An act the round allows must be one of the options, by signature. */
static void expect_listed(const mj_round *r, const mj_act *a, const mj_act *opts,
                          int n, checked *c) {
  if (mj_round_check(r, a) != MJ_ROUND_OK) return;
  c->legal++;
  c->types[a->type]++;
  int want[8], got[8];
  signature(r, a, hand_tiles(a), want);
  for (int i = 0; i < n; i++) {
    signature(r, &opts[i], hand_tiles(&opts[i]), got);
    if (!memcmp(want, got, sizeof want)) return;
  }
  fail_msg("a step the round allows is not listed: %s by seat %d, tile %d",
           mj_act_name(a->type), a->seat, a->tile);
}

/* Every step of every kind for seat, tried against the round. */
static void compare_options(const mj_round *r, int seat, checked *c) {
  mj_act opts[MJ_MAX_OPTIONS];
  int n = mj_round_options(r, seat, opts);
  for (int i = 0; i < n; i++) {
    assert_int_equal(mj_round_check(r, &opts[i]), MJ_ROUND_OK);
    assert_int_equal(opts[i].seat, seat);
    assert_true(opts[i].type != MJ_ACT_DRAW && opts[i].type != MJ_ACT_PASS);
  }
  c->options += n;
  if (r->phase == MJ_PHASE_ACT && seat == r->turn) {
    /* what a table knows of the hand before the tile drawn changes
       nothing */
    const mj_round_seat *s = &r->seat[seat];
    uint8_t count[MJ_KINDS];
    memcpy(count, s->hand.count, sizeof count);
    int tiles = s->hand.n;
    if (s->drawn != MJ_NO_TILE) count[mj_tile_kind(s->drawn)]--, tiles--;
    int shanten = mj_shanten(count, tiles);
    uint64_t waits = shanten == 0 ? mj_ukeire(count, tiles, NULL) : 0;
    mj_act known[MJ_MAX_OPTIONS];
    int m = mj_round_turn_options(r, seat, waits, shanten, known);
    assert_int_equal(m, n);
    assert_memory_equal(known, opts, (size_t)n * sizeof *opts);
    m = mj_round_turn_options(r, seat, 0, 99, known);
    assert_int_equal(m, n);
    assert_memory_equal(known, opts, (size_t)n * sizeof *opts);
    if (shanten >= 2) {                 /* a bound of 2 or more will do */
      m = mj_round_turn_options(r, seat, 0, shanten == 2 ? 2 : shanten - 1, known);
      assert_int_equal(m, n);
      assert_memory_equal(known, opts, (size_t)n * sizeof *opts);
    }
    if (shanten >= 1 && (s->open || s->riichi)) {   /* no riichi: 1 will do */
      m = mj_round_turn_options(r, seat, 0, 1, known);
      assert_int_equal(m, n);
      assert_memory_equal(known, opts, (size_t)n * sizeof *opts);
      c->bounds++;
    }
  }
  if (r->open_tile != MJ_NO_TILE && seat != r->turn) {
    mj_act known[MJ_MAX_OPTIONS];
    int m = mj_round_claim_options(r, seat, mj_round_waits(r, seat), known);
    assert_int_equal(m, n);
    assert_memory_equal(known, opts, (size_t)n * sizeof *opts);
  }
  int held[MJ_TILES], nheld = 0;
  for (int t = 0; t < MJ_TILES; t++)
    if (r->where[t] == (MJ_AT_HAND | seat << 4)) held[nheld++] = t;
  mj_act a;
  memset(&a, 0, sizeof a);
  a.seat = (uint8_t)seat;
  static const int bare[] = {MJ_ACT_TSUMO, MJ_ACT_RON, MJ_ACT_NINE_TERMINALS};
  for (int i = 0; i < 3; i++) {
    a.type = (uint8_t)bare[i];
    expect_listed(r, &a, opts, n, c);
  }
  for (int i = 0; i < nheld; i++) {
    a.tile = (uint8_t)held[i];
    a.type = MJ_ACT_KAKAN;
    a.riichi = false;
    expect_listed(r, &a, opts, n, c);
    a.type = MJ_ACT_DISCARD;
    expect_listed(r, &a, opts, n, c);
    a.riichi = true;
    expect_listed(r, &a, opts, n, c);
  }
  a.riichi = false;
  a.tile = r->open_tile;
  for (int i = 0; i < nheld; i++)
    for (int j = i + 1; j < nheld; j++) {
      a.tiles[0] = (uint8_t)held[i];
      a.tiles[1] = (uint8_t)held[j];
      a.type = MJ_ACT_PON;
      expect_listed(r, &a, opts, n, c);
      a.type = MJ_ACT_CHI;
      expect_listed(r, &a, opts, n, c);
      for (int k = j + 1; k < nheld; k++) {
        if (mj_tile_kind(held[k]) != mj_tile_kind(held[i])) continue;
        a.tiles[2] = (uint8_t)held[k];
        a.type = MJ_ACT_KAN;
        expect_listed(r, &a, opts, n, c);
      }
    }
  for (int k = 0; k < MJ_KINDS; k++) {
    int four = 0;
    for (int i = 0; i < nheld; i++)
      if (mj_tile_kind(held[i]) == k) a.tiles[four++] = (uint8_t)held[i];
    if (four < 4) continue;
    a.type = MJ_ACT_ANKAN;
    expect_listed(r, &a, opts, n, c);
  }
}

/* ---- a table played by seeded random choices ---- */

/* The discard that leaves the fewest shanten, the first of equals from a
   random start: hands that get ready, so wins come often. */
static int closest(const mj_table *t, rng *g) {
  const mj_tiles *h = &t->round.seat[t->seat].hand;
  int best = -1, least = 99, start = (int)rng_below(g, (uint32_t)t->noptions);
  for (int j = 0; j < t->noptions; j++) {
    int i = (start + j) % t->noptions;
    const mj_act *a = &t->options[i];
    if (a->type != MJ_ACT_DISCARD) continue;
    uint8_t count[MJ_KINDS];
    memcpy(count, h->count, sizeof count);
    count[mj_tile_kind(a->tile)]--;
    int shanten = mj_shanten(count, h->n - 1) - a->riichi;
    if (shanten < least) {
      least = shanten;
      best = i;
    }
  }
  return best;
}

/* Wins always, riichi and calls often, so every kind of step comes. */
static int choose(const mj_table *t, rng *g, bool greedy) {
  if (greedy && t->ask == MJ_ASK_TURN && rng_below(g, 8)) {
    for (int i = 0; i < t->noptions; i++)
      if (t->options[i].type == MJ_ACT_TSUMO) return i;
    int i = closest(t, g);
    if (i >= 0) return i;
  }
  for (int i = 0; i < t->noptions; i++) {
    int type = t->options[i].type;
    if (type == MJ_ACT_TSUMO || type == MJ_ACT_RON) return i;
  }
  if (t->ask == MJ_ASK_CLAIM && rng_below(g, 3) != 0) return -1;
  for (int i = 0; i < t->noptions; i++)
    if ((t->options[i].riichi || t->options[i].type == MJ_ACT_ANKAN ||
         t->options[i].type == MJ_ACT_KAKAN) && rng_below(g, 2))
      return i;
  for (;;) {
    int i = (int)rng_below(g, (uint32_t)t->noptions);
    if (t->options[i].type != MJ_ACT_NINE_TERMINALS || rng_below(g, 4) == 0) return i;
  }
}

static void play_table(mj_table *t, uint64_t seed, int length, checked *c,
                       bool greedy) {
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  rules.length = length;
  mj_table_init(t, &rules, seed);
  rng g;
  rng_seed(&g, seed * 31 + 7);
  while (mj_table_next(t)) {
    if (c)
      for (int s = 0; s < MJ_SEATS; s++) compare_options(&t->round, s, c);
    assert_null(mj_round_invariant(&t->round));
    assert_true(mj_table_choose(t, choose(t, &g, greedy)));
  }
  assert_true(t->record.over);
}

static void test_options_agree(void **state) {
  (void)state;
  checked c;
  memset(&c, 0, sizeof c);
  for (uint64_t seed = 1; seed <= 6; seed++) {
    mj_table t;
    play_table(&t, seed, 2, &c, seed % 2 == 0);
    mj_table_free(&t);
  }
  /* every kind of decision came up */
  assert_true(c.types[MJ_ACT_DISCARD] > 1000);
  assert_true(c.types[MJ_ACT_CHI] > 0 && c.types[MJ_ACT_PON] > 0);
  assert_true(c.types[MJ_ACT_TSUMO] > 0 && c.types[MJ_ACT_RON] > 0);
  assert_true(c.types[MJ_ACT_ANKAN] + c.types[MJ_ACT_KAKAN] + c.types[MJ_ACT_KAN] > 0);
  assert_true(c.bounds > 100);
  print_message("options: %ld listed, %ld steps allowed, all listed; %ld turns with a "
                "bound of 1\n", c.options, c.legal, c.bounds);
}

static void test_choose_refuses(void **state) {
  (void)state;
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  mj_table t;
  mj_table_init(&t, &rules, 5);
  assert_true(mj_table_next(&t));
  assert_int_equal(t.ask, MJ_ASK_TURN);
  mj_round before = t.round;
  assert_false(mj_table_choose(&t, -1));        /* no pass on a turn */
  assert_false(mj_table_choose(&t, t.noptions));
  assert_false(mj_table_choose(&t, -2));
  assert_memory_equal(&before, &t.round, sizeof before);
  assert_true(mj_table_choose(&t, 0));
  assert_false(mj_table_choose(&t, 0));         /* answered already */
  mj_table_free(&t);
}

/* ---- the record ---- */

static void expect_replays(const mj_table *t) {
  const char *names[4] = {"a\"b", "東", NULL, "d"};
  size_t len;
  char *json = mj_record_json(&t->record, names, &len);
  assert_non_null(json);
  mj_log log;
  mj_log_init(&log);
  mj_log_error err;
  if (!mj_log_read(&log, json, len, &err))
    fail_msg("the record does not read (round %d): %s\n%s", err.round, err.text, json);
  assert_string_equal(log.names[0], "a\"b");
  assert_string_equal(log.names[2], "seat 2");
  assert_int_equal(log.nrounds, t->record.nrounds);
  mj_replay out;
  if (!mj_replay_log(&log, &out, NULL, NULL))
    fail_msg("the record does not replay: %s", out.error.text);
  if (out.disagreements) {
    char where[120];
    mj_log_where(&log, &out.notes[0], where, sizeof where);
    fail_msg("the replay disagrees: %s: %s\n%s", where, out.notes[0].text, json);
  }
  assert_memory_equal(out.scores, t->record.scores, sizeof out.scores);
  assert_memory_equal(out.points, t->record.points, sizeof out.points);
  assert_true(log.has_final);
  mj_log_free(&log);
  free(json);
}

static void test_record_replays(void **state) {
  (void)state;
  int rounds = 0, wins = 0;
  for (uint64_t seed = 100; seed < 160; seed++) {
    mj_table t;
    play_table(&t, seed, seed % 3 ? 2 : 1, NULL, true);
    expect_replays(&t);
    rounds += t.record.nrounds;
    for (int i = 0; i < t.record.nrounds; i++) wins += t.record.rounds[i].result.nwins;
    mj_table_free(&t);
  }
  print_message("records: 60 games, %d rounds, %d wins replayed\n", rounds, wins);
}

static void test_same_seed_same_game(void **state) {
  (void)state;
  mj_table a, b;
  play_table(&a, 42, 2, NULL, true);
  play_table(&b, 42, 2, NULL, true);
  size_t la, lb;
  char *ja = mj_record_json(&a.record, NULL, &la);
  char *jb = mj_record_json(&b.record, NULL, &lb);
  assert_int_equal(la, lb);
  assert_memory_equal(ja, jb, la);
  mj_table c;
  play_table(&c, 43, 2, NULL, true);
  size_t lc;
  char *jc = mj_record_json(&c.record, NULL, &lc);
  assert_true(lc != la || memcmp(ja, jc, la));
  free(ja);
  free(jb);
  free(jc);
  mj_table_free(&a);
  mj_table_free(&b);
  mj_table_free(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_choose_refuses),
    cmocka_unit_test(test_options_agree),
    cmocka_unit_test(test_record_replays),
    cmocka_unit_test(test_same_seed_same_game),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
