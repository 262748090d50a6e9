/*
** test_mahjong_round.c: the round and the game of rounds (round.h), and
** Tenhou's logs (tenhou.h) replayed: every game of the shared data
** (../shared/data/mahjong/tenhou, or $LUDUS_DATA/mahjong/tenhou) plays
** through the round with every win, score change and final score as
** Tenhou recorded them; the two forms of the same game give the same
** steps; altered, truncated and bad logs are reported, never crash.
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
#include "mahjong/round.h"
#include "mahjong/tenhou.h"

/* ---- the data ---- */

static char *slurp(const char *name, size_t *len) {
  const char *dir = getenv("LUDUS_DATA");
  char path[600];
  snprintf(path, sizeof path, "%s/mahjong/tenhou/%s",
           dir ? dir : "../shared/data", name);
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside "
                   "the clone, or set LUDUS_DATA)", path);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *data = malloc((size_t)n + 1);
  *len = fread(data, 1, (size_t)n, f);
  data[*len] = '\0';
  fclose(f);
  return data;
}

static const char *const games[] = {
  "2010081709gm-00a9-0000-fe3371ad", "2010102910gm-00a9-0000-cdb9804c",
  "2010110100gm-00a9-0000-de3472e8", "2010112714gm-00a9-0000-d497e395",
  "2010122717gm-00a9-0000-8e787e61", "2011020401gm-00a9-0000-f6eff225",
  "2011020414gm-00a9-0000-ef18f336", "2011020415gm-00a9-0000-e037b629",
  "2011020416gm-00a9-0000-025480d4", "2011020417gm-00a9-0000-b67fcaa3",
  "2011020613gm-00a9-0000-3774f8d1",
};

static const char *const edge[] = {
  "chankan", "complex_nakis_0", "complex_nakis_1", "confusing_nakis_0",
  "confusing_nakis_1", "confusing_nakis_2", "confusing_nakis_3",
  "confusing_nakis_4", "confusing_nakis_5", "confusing_nakis_6",
  "confusing_nakis_7", "double_kakan_then_chankan", "double_ron",
  "four_reach", "kyushukyuhai", "ranked_game", "rinshan", "ryukyoku",
  "suukantsu_0", "suukantsu_1",
};

typedef struct totals { int games, rounds, wins, draws, checks, disagreements; } totals;

/* Reads and replays the one game of text; the replay in out. */
static bool replay_text(const char *text, size_t len, mj_log *log,
                        mj_replay *out, char *why, size_t size) {
  mj_log_error err;
  if (!mj_log_read(log, text, len, &err)) {
    char where[120];
    mj_log_where(log, &err, where, sizeof where);
    snprintf(why, size, "%.120s: %.200s", where, err.text);
    return false;
  }
  if (!mj_replay_log(log, out, NULL, NULL)) {
    char where[120];
    mj_log_where(log, &out->error, where, sizeof where);
    snprintf(why, size, "%.120s: %.200s", where, out->error.text);
    return false;
  }
  return true;
}

static void replay_file(const char *name, totals *t, int disagreements) {
  size_t len;
  char *data = slurp(name, &len);
  mj_log log;
  mj_log_init(&log);
  size_t at = 0, start, end;
  while (mj_log_next(data, len, &at, &start, &end)) {
    mj_replay rp;
    char why[400];
    if (!replay_text(data + start, end - start, &log, &rp, why, sizeof why))
      fail_msg("%s: %s", name, why);
    for (int i = 0; i < rp.nnotes && rp.disagreements != disagreements; i++) {
      char where[120];
      mj_log_where(&log, &rp.notes[i], where, sizeof where);
      print_message("%s: %s: %s\n", name, where, rp.notes[i].text);
    }
    assert_int_equal(rp.disagreements, disagreements);
    t->games++;
    t->rounds += rp.rounds;
    t->wins += rp.wins;
    t->draws += rp.draws;
    t->checks += rp.checks;
    t->disagreements += rp.disagreements;
  }
  mj_log_free(&log);
  free(data);
}

static void test_mjlog_games(void **state) {
  totals t = {0};
  char name[200];
  for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
    snprintf(name, sizeof name, "mjlog/%s.mjlog", games[i]);
    replay_file(name, &t, 0);
  }
  replay_file("mjlog/2010091009gm-00a9-0000-83af2648&tw=2.mjlog", &t, 0);
  replay_file("mjlog/double-ron.mjlog", &t, 0);
  replay_file("mjlog/pao-tsumo.mjlog", &t, 0);
  assert_int_equal(t.games, 14);
  assert_int_equal(t.rounds, 139);
  assert_int_equal(t.wins, 116);
  assert_int_equal(t.draws, 25);
  assert_int_equal(t.disagreements, 0);
}

static void test_json_games(void **state) {
  totals t = {0};
  char name[200];
  for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
    snprintf(name, sizeof name, "json/%s.json", games[i]);
    replay_file(name, &t, 0);
  }
  assert_int_equal(t.games, 11);
  assert_int_equal(t.rounds, 122);
  assert_int_equal(t.wins, 100);
  assert_int_equal(t.draws, 22);
}

/* The edge cases: every one agrees, but confusing_nakis_2 (a made-up
   round: four plain 5s beside a red one, a win without points) is
   refused, and confusing_nakis_1's win pays no riichi stick though seat
   2's riichi stood two turns before it (Tenhou pays it in every real
   game here): the one disagreement, named. */
static void test_edge_logs(void **state) {
  totals t = {0};
  char name[200];
  for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
    snprintf(name, sizeof name, "edge/%s.json", edge[i]);
    if (!strcmp(edge[i], "confusing_nakis_2")) continue;
    replay_file(name, &t, strcmp(edge[i], "confusing_nakis_1") ? 0 : 1);
  }
  assert_int_equal(t.games, 19);
  assert_int_equal(t.disagreements, 1);

  size_t len;
  char *data = slurp("edge/confusing_nakis_1.json", &len);
  mj_log log;
  mj_log_init(&log);
  mj_replay rp;
  char why[400], where[120];
  assert_true(replay_text(data, len, &log, &rp, why, sizeof why));
  mj_log_where(&log, &rp.notes[0], where, sizeof where);
  assert_string_equal(where, "round E2-2, step 81 (ron by seat 0)");
  assert_string_equal(rp.notes[0].text, "score changes: ludus +2600 +0 -1600 +0, "
                                        "the log +1600 +0 -1600 +0");
  free(data);
  data = slurp("edge/confusing_nakis_2.json", &len);
  assert_false(replay_text(data, len, &log, &rp, why, sizeof why));
  assert_non_null(strstr(why, "round E1-0"));
  assert_non_null(strstr(why, "step 23: seat 2 draws a 5s (35), one copy too many"));
  free(data);
  mj_log_free(&log);
}

/* The two forms of one game: the same steps (tiles compared by kind:
   the JSON names kinds only). */
static void test_forms_agree(void **state) {
  mj_log a, b;
  mj_log_init(&a);
  mj_log_init(&b);
  int steps = 0;
  for (size_t i = 0; i < sizeof games / sizeof *games; i++) {
    char name[200];
    size_t la, lb;
    mj_log_error err;
    snprintf(name, sizeof name, "mjlog/%s.mjlog", games[i]);
    char *da = slurp(name, &la);
    snprintf(name, sizeof name, "json/%s.json", games[i]);
    char *db = slurp(name, &lb);
    assert_true(mj_log_read(&a, da, la, &err));
    assert_true(mj_log_read(&b, db, lb, &err));
    assert_int_equal(a.nrounds, b.nrounds);
    assert_int_equal(a.nevents, b.nevents);
    for (int e = 0; e < a.nevents; e++) {
      const mj_act *x = &a.events[e].act, *y = &b.events[e].act;
      assert_int_equal(x->type, y->type);
      assert_int_equal(x->seat, y->seat);
      if (x->type != MJ_ACT_TSUMO && x->type != MJ_ACT_RON &&
          x->type != MJ_ACT_PASS && x->type != MJ_ACT_NINE_TERMINALS)
        assert_int_equal(x->tile / 4, y->tile / 4);
      assert_int_equal(x->riichi, y->riichi);
    }
    steps += a.nevents;
    free(da);
    free(db);
  }
  assert_int_equal(steps, 12078);
  mj_log_free(&a);
  mj_log_free(&b);
}

/* Replaces the first `from` in text by `to` (same length or not). */
static char *altered(const char *text, size_t len, const char *from,
                     const char *to, size_t *out_len) {
  const char *at = strstr(text, from);
  assert_non_null(at);
  size_t head = (size_t)(at - text), nf = strlen(from), nt = strlen(to);
  char *out = malloc(len - nf + nt + 1);
  memcpy(out, text, head);
  memcpy(out + head, to, nt);
  memcpy(out + head + nt, at + nf, len - head - nf);
  *out_len = len - nf + nt;
  out[*out_len] = '\0';
  return out;
}

/* A log altered is reported, where it was altered. */
static void test_altered_logs(void **state) {
  size_t len, n;
  char *data = slurp("mjlog/2010081709gm-00a9-0000-fe3371ad.mjlog", &len);
  mj_log log;
  mj_log_init(&log);
  mj_replay rp;
  char why[400], where[120];

  /* the first win's points */
  char *bad = altered(data, len, "ten=\"30,7700,0\"", "ten=\"30,8000,0\"", &n);
  assert_true(replay_text(bad, n, &log, &rp, why, sizeof why));
  assert_int_equal(rp.disagreements, 1);
  mj_log_where(&log, &rp.notes[0], where, sizeof where);
  assert_string_equal(where, "round E1-0, step 139 (ron by seat 1)");
  assert_string_equal(rp.notes[0].text, "points: ludus 7700, the log 8000");
  free(bad);

  /* its yaku: honitsu for chinitsu */
  bad = altered(data, len, "yaku=\"11,1,34,2,52,1\"", "yaku=\"11,1,35,2,52,1\"", &n);
  assert_true(replay_text(bad, n, &log, &rp, why, sizeof why));
  assert_int_equal(rp.disagreements, 1);
  assert_non_null(strstr(rp.notes[0].text, "yaku"));
  free(bad);

  /* the final points */
  bad = altered(data, len, "owari=\"", "owari=\"1", &n);
  assert_true(replay_text(bad, n, &log, &rp, why, sizeof why));
  assert_true(rp.disagreements >= 1);
  assert_non_null(strstr(rp.notes[0].text, "final scores"));
  free(bad);

  /* a discard of a tile not held: the first discard, D119, made D0 */
  bad = altered(data, len, "<D", "<D0/><D", &n);
  assert_false(replay_text(bad, n, &log, &rp, why, sizeof why));
  assert_non_null(strstr(why, "round E1-0, step 2 (discard by seat 0)"));
  assert_non_null(strstr(why, "a tile not in the hand"));
  free(bad);

  /* a tile dealt five times: seat 1 dealt a tile seat 0 holds */
  bad = altered(data, len, "hai1=\"", "hai1=\"13,", &n);
  assert_false(replay_text(bad, n, &log, &rp, why, sizeof why));
  free(bad);

  /* a call that does not fit the hand: pon's m of another kind */
  bad = altered(data, len, "<N who=\"", "<T0/><N who=\"", &n);
  assert_false(replay_text(bad, n, &log, &rp, why, sizeof why));
  free(bad);

  /* truncated anywhere: a message, never a crash, and never a game.  A
     cut between rounds or inside a tag (an INIT) had replayed the rounds
     before it as a whole game that agreed: 38 of these cuts did */
  int refused = 0, cuts = 0;
  for (size_t cut = 0; cut < len; cut += 97) {
    cuts++;
    if (!replay_text(data, cut, &log, &rp, why, sizeof why)) {
      refused++;
      assert_true(strlen(why) > 0);
    }
  }
  assert_int_equal(refused, cuts);
  mj_log_free(&log);
  free(data);

  data = slurp("json/2010081709gm-00a9-0000-fe3371ad.json", &len);
  mj_log_init(&log);
  bad = altered(data, len, "30符4飜7700点", "30符4飜8000点", &n);
  assert_true(replay_text(bad, n, &log, &rp, why, sizeof why));
  assert_int_equal(rp.disagreements, 1);
  assert_string_equal(rp.notes[0].text, "ron: ludus 7700, the log 8000");
  free(bad);
  for (size_t cut = 0; cut < len; cut += 61)
    if (!replay_text(data, cut, &log, &rp, why, sizeof why)) assert_true(strlen(why) > 0);
  mj_log_free(&log);
  free(data);
}

/* ---- rounds played from a seeded wall ---- */

static bool try_act(mj_round *r, int type, int seat, int tile) {
  mj_act a;
  memset(&a, 0, sizeof a);
  a.type = (uint8_t)type;
  a.seat = (uint8_t)seat;
  a.tile = (uint8_t)tile;
  return mj_round_play(r, &a) == MJ_ROUND_OK;
}

/* A held tile of kind k other than skip, or -1. */
static int held_of(const mj_round *r, int seat, int k, const uint8_t *skip, int nskip) {
  for (int t = 4 * k; t < 4 * k + 4; t++) {
    if ((r->where[t] & 15) != MJ_AT_HAND || r->where[t] >> 4 != seat) continue;
    bool skipped = false;
    for (int i = 0; i < nskip; i++) skipped |= skip[i] == t;
    if (!skipped) return t;
  }
  return -1;
}

/* A player that wins when it can, calls a pon now and then, riichis when
   ready, and discards at random: every step checked, the invariant after
   each. */
static void play_round(mj_round *r, rng *g, int *steps) {
  while (r->phase != MJ_PHASE_OVER) {
    const char *bad = mj_round_invariant(r);
    if (bad) fail_msg("after %d steps: %s", *steps, bad);
    ++*steps;
    int t = r->turn;
    if (r->phase == MJ_PHASE_DRAW) {
      assert_true(try_act(r, MJ_ACT_DRAW, t, MJ_NO_TILE));
      continue;
    }
    if (r->phase == MJ_PHASE_ACT) {
      if (try_act(r, MJ_ACT_TSUMO, t, 0)) continue;
      if (rng_below(g, 4) == 0 && try_act(r, MJ_ACT_NINE_TERMINALS, t, 0)) continue;
      const mj_round_seat *s = &r->seat[t];
      int k = mj_tile_kind(s->drawn == MJ_NO_TILE ? 0 : s->drawn);
      if (s->drawn != MJ_NO_TILE && s->hand.count[k] == 4 && !s->riichi) {
        mj_act a;
        memset(&a, 0, sizeof a);
        a.type = MJ_ACT_ANKAN;
        a.seat = (uint8_t)t;
        for (int i = 0; i < 4; i++) a.tiles[i] = (uint8_t)(4 * k + i);
        if (mj_round_play(r, &a) == MJ_ROUND_OK) continue;
      }
      if (s->drawn != MJ_NO_TILE && try_act(r, MJ_ACT_KAKAN, t, s->drawn)) continue;
      /* riichi when a discard keeps the hand ready */
      for (int i = 0; i < 3 && !s->riichi; i++) {
        int tile = -1;
        for (int x = 0; x < MJ_TILES; x++)
          if ((r->where[x] & 15) == MJ_AT_HAND && r->where[x] >> 4 == t &&
              rng_below(g, 3) == 0) tile = x;
        if (tile < 0) continue;
        mj_act a;
        memset(&a, 0, sizeof a);
        a.type = MJ_ACT_DISCARD;
        a.seat = (uint8_t)t;
        a.tile = (uint8_t)tile;
        a.riichi = true;
        if (mj_round_play(r, &a) == MJ_ROUND_OK) goto next;
      }
      /* mostly the discard that keeps the fewest shanten, now and then
         any */
      if (!s->riichi && rng_below(g, 8)) {
        mj_discard best[MJ_KINDS];
        int n = mj_discards(s->hand.count, s->hand.n, best);
        for (int i = 0; i < n; i++) {
          int tile = held_of(r, t, best[i].tile, NULL, 0);
          if (tile >= 0 && try_act(r, MJ_ACT_DISCARD, t, tile)) goto next;
        }
      }
      for (int tries = 0; tries < 500; tries++) {
        int tile = s->riichi ? s->drawn : (int)rng_below(g, MJ_TILES);
        if (try_act(r, MJ_ACT_DISCARD, t, tile)) goto next;
      }
      fail_msg("seat %d could not discard", t);
    }
    /* a claim: rons in turn, then maybe a pon, else the next draw */
    bool won = false;
    for (int d = 1; d < 4; d++) won |= try_act(r, MJ_ACT_RON, (t + d) % 4, 0);
    if (won) continue;
    for (int d = 1; d < 4 && rng_below(g, 3) == 0; d++) {
      int p = (t + d) % 4;
      mj_act a;
      memset(&a, 0, sizeof a);
      a.type = MJ_ACT_PON;
      a.seat = (uint8_t)p;
      a.tile = r->open_tile;
      int k = mj_tile_kind(r->open_tile);
      int x = held_of(r, p, k, NULL, 0);
      if (x < 0) continue;
      a.tiles[0] = (uint8_t)x;
      int y = held_of(r, p, k, a.tiles, 1);
      if (y < 0) continue;
      a.tiles[1] = (uint8_t)y;
      if (mj_round_play(r, &a) == MJ_ROUND_OK) goto next;
    }
    if (!try_act(r, MJ_ACT_DRAW, (t + 1) % 4, MJ_NO_TILE) && !r->open_kan)
      assert_true(try_act(r, MJ_ACT_PASS, 0, 0));
    else if (r->open_kan && r->phase == MJ_PHASE_CLAIM)
      assert_true(try_act(r, MJ_ACT_PASS, 0, 0));
  next:;
  }
  const char *bad = mj_round_invariant(r);
  if (bad) fail_msg("at the end: %s", bad);
}

static void play_game(uint64_t seed, int length, int final[4], int *rounds,
                      int ends[MJ_END_TRIPLE_RON + 1]) {
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  rules.length = length;
  mj_game game;
  mj_game_init(&game, &rules);
  rng g;
  rng_seed(&g, seed);
  static mj_round r;
  int steps = 0;
  while (!game.over) {
    uint8_t wall[MJ_TILES];
    mj_wall_shuffle(wall, seed * 1000 + (uint64_t)game.rounds);
    mj_round_setup setup;
    mj_game_setup(&game, &setup);
    setup.wall = wall;
    mj_round_start(&r, &rules, &setup);
    play_round(&r, &g, &steps);
    ends[r.result.end]++;
    mj_game_next(&game, &r);
    int total = 1000 * game.sticks;
    for (int s = 0; s < 4; s++) total += game.scores[s];
    assert_int_equal(total, 100000);
    assert_true(game.rounds < 64);
  }
  int scores[4], place[4], points[4];
  mj_game_final(&game, scores, place, points);
  int sum = 0, places = 0;
  for (int s = 0; s < 4; s++) {
    sum += points[s];
    places |= 1 << place[s];
    final[s] = scores[s];
  }
  assert_int_equal(sum, 0);
  assert_int_equal(places, 15);
  *rounds = game.rounds;
}

static void test_seeded_games(void **state) {
  int ends[MJ_END_TRIPLE_RON + 1] = {0}, rounds = 0;
  for (uint64_t seed = 1; seed <= 60; seed++) {
    int a[4], b[4], na, nb;
    play_game(seed, seed % 3 ? 2 : 1, a, &na, ends);
    play_game(seed, seed % 3 ? 2 : 1, b, &nb, ends);
    assert_memory_equal(a, b, sizeof a);    /* the same seed, the same game */
    assert_int_equal(na, nb);
    rounds += na;
  }
  /* each game played twice: the ends counted twice */
  assert_int_equal(ends[MJ_END_WIN], 708);
  assert_int_equal(ends[MJ_END_EXHAUSTED], 370);
  assert_int_equal(ends[MJ_END_NINE_TERMINALS], 2);
  assert_int_equal(rounds, 540);
}

/* A wall dealt as round.h says: the dealer's first four tiles are
   wall[0..3], the first dora indicator wall[126]. */
static void test_deal(void **state) {
  uint8_t wall[MJ_TILES];
  mj_wall_shuffle(wall, 7);
  bool seen[MJ_TILES] = {false};
  for (int i = 0; i < MJ_TILES; i++) {
    assert_false(seen[wall[i]]);
    seen[wall[i]] = true;
  }
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  mj_round_setup setup = {.round = 1, .scores = {25000, 25000, 25000, 25000},
                          .wall = wall};
  static mj_round r;
  mj_round_start(&r, &rules, &setup);
  assert_int_equal(r.dealer, 1);
  for (int i = 0; i < 4; i++) assert_int_equal(r.where[wall[i]], MJ_AT_HAND | 1 << 4);
  assert_int_equal(r.where[wall[4]], MJ_AT_HAND | 2 << 4);
  assert_int_equal(r.dora[0], wall[126]);
  assert_int_equal(r.live, 70);
  /* only the dealer draws, and only the wall's next tile */
  mj_act a = {.type = MJ_ACT_DRAW, .seat = 0, .tile = MJ_NO_TILE};
  assert_int_equal(mj_round_play(&r, &a), MJ_RE_TURN);
  a.seat = 1;
  a.tile = wall[53];
  assert_int_equal(mj_round_play(&r, &a), MJ_RE_WALL);
  a.tile = wall[52];
  assert_int_equal(mj_round_play(&r, &a), MJ_ROUND_OK);
  /* a discard of a tile not held changes nothing */
  a.type = MJ_ACT_DISCARD;
  a.tile = wall[4];
  mj_round before = r;
  assert_int_equal(mj_round_play(&r, &a), MJ_RE_NOT_HELD);
  assert_memory_equal(&before, &r, sizeof r);
  assert_null(mj_round_invariant(&r));
}

/* The end of a game: uma and oka as Tenhou rounds them (the owari of
   the game 2010112714gm-00a9-0000-d497e395: 18600 -21.0, 24900 5.0, 38400 48.0, 18100 -32.0). */
static void test_final_points(void **state) {
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  mj_game g;
  mj_game_init(&g, &rules);
  int in[4] = {18600, 24900, 38400, 18100};
  memcpy(g.scores, in, sizeof in);
  int scores[4], place[4], points[4];
  mj_game_final(&g, scores, place, points);
  assert_int_equal(points[0], -210);
  assert_int_equal(points[1], 50);
  assert_int_equal(points[2], 480);
  assert_int_equal(points[3], -320);
  assert_int_equal(place[2], 0);
  assert_int_equal(place[3], 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_deal),
    cmocka_unit_test(test_final_points),
    cmocka_unit_test(test_seeded_games),
    cmocka_unit_test(test_mjlog_games),
    cmocka_unit_test(test_json_games),
    cmocka_unit_test(test_edge_logs),
    cmocka_unit_test(test_forms_agree),
    cmocka_unit_test(test_altered_logs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
