/*
** test_mahjong_events.c: the rare ends of a round and of a game, reached
** through the round (round.h) from walls built for them: four winds,
** nagashi mangan, three rons (a draw under Tenhou's rules, three wins
** without it), haitei and houtei, pao for daisangen (tsumo and ron), a
** double yakuman and a bust, the extra rounds of a game that nobody
** leaves with 30,000 (sudden death, and the last of them).  Each round
** played is kept as a record (table.h), written as tenhou.net/6 JSON
** (record.c), read back and replayed to the same results (tenhou.c,
** replay.c).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mahjong/table.h"
#include "mahjong/tenhou.h"

/* ---- walls built for a round ---- */

typedef struct builder {
  bool used[MJ_TILES];
  int at[MJ_TILES];           /* the tile at each place of the wall, or -1 */
} builder;

static void builder_init(builder *b) {
  memset(b->used, 0, sizeof b->used);
  for (int i = 0; i < MJ_TILES; i++) b->at[i] = -1;
}

/* A copy of kind not used yet: the red five for "0", a plain copy for
   any other. */
static int take(builder *b, int kind, bool red) {
  bool five = kind < MJ_HONORS && kind % 9 == 4;
  for (int i = 0; i < 4; i++) {
    int t = 4 * kind + i;
    if (b->used[t] || (five && (i == 0) != red)) continue;
    b->used[t] = true;
    return t;
  }
  fail_msg("no copy of kind %d is left", kind);
  return -1;
}

/* The tiles of text ("147m0p77z") in the order written. */
static int tiles_of(builder *b, const char *text, int *out) {
  int n = 0;
  for (const char *p = text; *p;) {
    const char *q = p;
    while (*q >= '0' && *q <= '9') q++;
    const char *suits = "mpsz";
    const char *suit = *q ? strchr(suits, *q) : NULL;
    if (!suit || q == p) fail_msg("bad tiles '%s'", text);
    for (; p < q; p++) {
      int d = *p - '0';
      out[n++] = take(b, 9 * (int)(suit - suits) + (d == 0 ? 5 : d) - 1, d == 0);
    }
    p = q + 1;
  }
  return n;
}

/* Where the i-th tile dealt to the seat `ahead` seats after the dealer
   lies: four at a time from the dealer, three times, then one each. */
static int dealt_at(int ahead, int i) {
  return i < 12 ? 16 * (i / 4) + 4 * ahead + i % 4 : 48 + ahead;
}

static void deal(builder *b, int ahead, const char *text) {
  int t[MJ_TILES];
  assert_int_equal(tiles_of(b, text, t), 13);
  for (int i = 0; i < 13; i++) b->at[dealt_at(ahead, i)] = t[i];
}

/* The draws from the live wall, the first of them first. */
static void draws(builder *b, const char *text) {
  int t[MJ_TILES], n = tiles_of(b, text, t);
  for (int i = 0; i < n; i++) b->at[52 + i] = t[i];
}

/* One tile at a place of the wall. */
static void place(builder *b, int at, const char *text) {
  int t[MJ_TILES];
  assert_int_equal(tiles_of(b, text, t), 1);
  b->at[at] = t[0];
}

/* The places left, filled with the tiles left in order. */
static void finish_wall(builder *b, uint8_t wall[MJ_TILES]) {
  int next = 0;
  for (int i = 0; i < MJ_TILES; i++) {
    if (b->at[i] < 0) {
      while (b->used[next]) next++;
      b->used[next] = true;
      b->at[i] = next;
    }
    wall[i] = (uint8_t)b->at[i];
  }
}

/* ---- rounds played and kept ---- */

typedef struct game {
  mj_round_rules rules;
  mj_game game;
  mj_round round;
  mj_record rec;
} game;

static void game_init(game *g, const mj_round_rules *rules) {
  memset(g, 0, sizeof *g);
  g->rules = *rules;
  mj_game_init(&g->game, rules);
  g->rec.rules = *rules;
  g->rec.cap_rounds = 16;
  g->rec.cap_acts = 4096;
  g->rec.rounds = calloc(16, sizeof *g->rec.rounds);
  g->rec.acts = calloc(4096, sizeof *g->rec.acts);
}

static void game_free(game *g) {
  free(g->rec.rounds);
  free(g->rec.acts);
}

/* Starts the game's next round on wall. */
static void start(game *g, const uint8_t wall[MJ_TILES]) {
  assert_true(g->rec.nrounds < g->rec.cap_rounds);
  mj_record_round *rr = &g->rec.rounds[g->rec.nrounds++];
  memset(rr, 0, sizeof *rr);
  mj_game_setup(&g->game, &rr->setup);
  memcpy(rr->wall, wall, MJ_TILES);
  rr->first_act = g->rec.nacts;
  rr->setup.wall = rr->wall;
  mj_round_start(&g->round, &g->rules, &rr->setup);
  rr->setup.wall = NULL;
}

/* A step that must be allowed, kept in the record. */
static void step(game *g, int type, int seat, int tile) {
  mj_act a;
  memset(&a, 0, sizeof a);
  a.type = (uint8_t)type;
  a.seat = (uint8_t)seat;
  a.tile = (uint8_t)tile;
  mj_round_status st = mj_round_play(&g->round, &a);
  if (st != MJ_ROUND_OK)
    fail_msg("%s by seat %d: %s", mj_act_name(type), seat, mj_round_status_text(st));
  const char *bad = mj_round_invariant(&g->round);
  if (bad) fail_msg("after %s by seat %d: %s", mj_act_name(type), seat, bad);
  if (type == MJ_ACT_DRAW) a.tile = g->round.seat[seat].drawn;
  assert_true(g->rec.nacts < g->rec.cap_acts);
  g->rec.acts[g->rec.nacts++] = a;
  g->rec.rounds[g->rec.nrounds - 1].nacts++;
}

/* The seat draws and lets that tile go. */
static void draw_and_discard(game *g, int seat) {
  step(g, MJ_ACT_DRAW, seat, MJ_NO_TILE);
  step(g, MJ_ACT_DISCARD, seat, g->round.seat[seat].drawn);
}

/* The copy of kind the seat holds (the first). */
static int held(const game *g, int seat, int kind) {
  for (int t = 4 * kind; t < 4 * kind + 4; t++)
    if (g->round.where[t] == (MJ_AT_HAND | seat << 4)) return t;
  fail_msg("seat %d holds no tile of kind %d", seat, kind);
  return -1;
}

/* The round is over: into the record and on to the game. */
static void end(game *g) {
  assert_int_equal(g->round.phase, MJ_PHASE_OVER);
  mj_record_round *rr = &g->rec.rounds[g->rec.nrounds - 1];
  rr->result = g->round.result;
  rr->ndora = g->round.ndora;
  for (int i = 0; i < g->round.ndora; i++) rr->dora[i] = g->round.dora[i];
  mj_game_next(&g->game, &g->round);
  if (g->game.over) {
    g->rec.over = true;
    mj_game_final(&g->game, g->rec.scores, g->rec.place, g->rec.points);
  }
}

/* The record written, read back and replayed: every result as the
   round had it, and the JSON holds `expect`. */
static void expect_replays(const game *g, const char *expect) {
  size_t len;
  char *json = mj_record_json(&g->rec, NULL, &len);
  assert_non_null(json);
  if (expect && !strstr(json, expect)) fail_msg("no %s in %s", expect, json);
  mj_log log;
  mj_log_init(&log);
  mj_log_error err;
  if (!mj_log_read(&log, json, len, &err))
    fail_msg("the record does not read (round %d): %s\n%s", err.round, err.text, json);
  mj_replay out;
  if (!mj_replay_log(&log, &out, NULL, NULL)) {
    char where[120];
    mj_log_where(&log, &out.error, where, sizeof where);
    fail_msg("the record does not replay: %s: %s\n%s", where, out.error.text, json);
  }
  if (out.disagreements) {
    char where[120];
    mj_log_where(&log, &out.notes[0], where, sizeof where);
    fail_msg("the replay disagrees: %s: %s\n%s", where, out.notes[0].text, json);
  }
  assert_int_equal(out.rounds, g->rec.nrounds);
  if (g->rec.over) {
    assert_true(out.game.over);
    assert_memory_equal(out.points, g->rec.points, sizeof out.points);
  }
  mj_log_free(&log);
  free(json);
}

static mj_round_rules tenhou_rules(void) {
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  return rules;
}

/* ---- four winds ---- */

/* Each seat holds one east; fourth names the seat 3 lets go. */
static void four_discards(game *g, const char *fourth) {
  builder b;
  builder_init(&b);
  deal(&b, 0, "147m258p369s1235z");
  deal(&b, 1, "147m258p369s1467z");
  deal(&b, 2, "258m369p147s1235z");
  deal(&b, 3, "369m147p258s1467z");
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  start(g, wall);
  for (int s = 0; s < 4; s++) {
    step(g, MJ_ACT_DRAW, s, MJ_NO_TILE);
    int kind = s == 3 && fourth ? MJ_HONORS + fourth[0] - '1' : MJ_EAST;
    step(g, MJ_ACT_DISCARD, s, held(g, s, kind));
  }
}

static void test_four_winds(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  game g;
  game_init(&g, &rules);
  four_discards(&g, NULL);
  /* the round ends at the fourth east: no draw lets it pass */
  mj_act draw = {.type = MJ_ACT_DRAW, .seat = 0, .tile = MJ_NO_TILE};
  assert_int_equal(mj_round_check(&g.round, &draw), MJ_RE_ENDS);
  step(&g, MJ_ACT_PASS, 3, 0);
  assert_int_equal(g.round.result.end, MJ_END_FOUR_WINDS);
  assert_true(g.round.result.dealer_stays);
  for (int s = 0; s < 4; s++) assert_int_equal(g.round.result.deltas[s], 0);
  end(&g);
  assert_int_equal(g.game.round, 0);          /* E1 again, one honba more */
  assert_int_equal(g.game.honba, 1);
  expect_replays(&g, "\"四風連打\"");
  game_free(&g);

  /* a north from the fourth seat: the round goes on */
  game_init(&g, &rules);
  four_discards(&g, "4");
  step(&g, MJ_ACT_DRAW, 0, MJ_NO_TILE);
  assert_int_equal(g.round.phase, MJ_PHASE_ACT);
  game_free(&g);
  /* without abortive draws, four easts too */
  rules.abortive = false;
  game_init(&g, &rules);
  four_discards(&g, NULL);
  step(&g, MJ_ACT_DRAW, 0, MJ_NO_TILE);
  assert_int_equal(g.round.phase, MJ_PHASE_ACT);
  game_free(&g);
}

/* ---- nagashi mangan ---- */

/* Seat 1 draws only terminals and honors; the others none. */
static void nagashi_wall(uint8_t wall[MJ_TILES]) {
  builder b;
  builder_init(&b);
  int next[2] = {0, 0};                       /* simples, orphans */
  for (int i = 0; i < 70; i++) {
    bool orphan = i % 4 == 1;
    int *t = &next[orphan];
    while (b.used[*t] || MJ_IS_ORPHAN(*t / 4) != orphan) ++*t;
    b.used[*t] = true;
    b.at[52 + i] = *t;
  }
  /* its own hand of simples, so that one of them can go */
  deal(&b, 1, "8p223344556677s");
  finish_wall(&b, wall);
}

static void test_nagashi_mangan(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  uint8_t wall[MJ_TILES];
  nagashi_wall(wall);
  game g;
  game_init(&g, &rules);
  start(&g, wall);
  for (int i = 0; i < 70; i++) draw_and_discard(&g, i % 4);
  assert_int_equal(g.round.live, 0);
  step(&g, MJ_ACT_PASS, 1, 0);
  const mj_round_result *res = &g.round.result;
  assert_int_equal(res->end, MJ_END_EXHAUSTED);
  assert_int_equal(res->nagashi, 1 << 1);
  /* a mangan by tsumo: the dealer pays 4000, the others 2000 */
  assert_int_equal(res->deltas[0], -4000);
  assert_int_equal(res->deltas[1], 8000);
  assert_int_equal(res->deltas[2], -2000);
  assert_int_equal(res->deltas[3], -2000);
  assert_int_equal(res->dealer_stays, res->tenpai[0]);
  end(&g);
  expect_replays(&g, "\"流し満貫\",[-4000,8000,-2000,-2000]");
  game_free(&g);

  /* one simple let go, and no nagashi */
  game_init(&g, &rules);
  start(&g, wall);
  for (int i = 0; i < 70; i++) {
    if (i != 1) {
      draw_and_discard(&g, i % 4);
      continue;
    }
    step(&g, MJ_ACT_DRAW, 1, MJ_NO_TILE);
    step(&g, MJ_ACT_DISCARD, 1, held(&g, 1, 16));      /* the 8p */
  }
  step(&g, MJ_ACT_PASS, 1, 0);
  assert_int_equal(g.round.result.end, MJ_END_EXHAUSTED);
  assert_int_equal(g.round.result.nagashi, 0);
  end(&g);
  expect_replays(&g, NULL);
  game_free(&g);
}

/* ---- three rons ---- */

/* The dealer lets a 5p go, and each other seat wins on it (tanyao):
   a tanki, a kanchan, a ryanmen. */
static void three_rons(game *g, int honba, int sticks) {
  builder b;
  builder_init(&b);
  deal(&b, 0, "159m159p159s1234z");
  deal(&b, 1, "234567m234678s5p");
  deal(&b, 2, "234678p345s66m46p");
  deal(&b, 3, "345m456777s88s34p");
  draws(&b, "5p");
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  g->game.honba = honba;
  g->game.sticks = sticks;
  g->game.scores[0] -= 1000 * sticks;
  start(g, wall);
  draw_and_discard(g, 0);
  for (int s = 1; s <= 3; s++) step(g, MJ_ACT_RON, s, 0);
}

/* The first round of g as an mjlog: INIT from its wall, the draws and
   discards as T/D/U/E/V/F/W/G, and the RYUUKYOKU given. */
static char *as_mjlog(const game *g, const char *ryuukyoku) {
  const mj_record_round *rr = &g->rec.rounds[0];
  static char text[8192];
  size_t at = 0;
  at += (size_t)snprintf(text + at, sizeof text - at,
                         "<mjloggm ver=\"2.3\"><GO type=\"169\" lobby=\"0\"/>"
                         "<INIT seed=\"0,%d,%d,0,0,%d\" ten=\"%d,%d,%d,%d\" oya=\"0\"",
                         rr->setup.honba, rr->setup.sticks, rr->wall[126],
                         rr->setup.scores[0] / 100, rr->setup.scores[1] / 100,
                         rr->setup.scores[2] / 100, rr->setup.scores[3] / 100);
  for (int s = 0; s < 4; s++) {
    at += (size_t)snprintf(text + at, sizeof text - at, " hai%d=\"", s);
    for (int i = 0; i < 13; i++)
      at += (size_t)snprintf(text + at, sizeof text - at, "%s%d", i ? "," : "",
                             rr->wall[dealt_at(s, i)]);
    at += (size_t)snprintf(text + at, sizeof text - at, "\"");
  }
  at += (size_t)snprintf(text + at, sizeof text - at, "/>");
  for (int i = 0; i < rr->nacts; i++) {
    const mj_act *a = &g->rec.acts[rr->first_act + i];
    if (a->type == MJ_ACT_DRAW || a->type == MJ_ACT_DISCARD)
      at += (size_t)snprintf(text + at, sizeof text - at, "<%c%d/>",
                             (a->type == MJ_ACT_DRAW ? "TUVW" : "DEFG")[a->seat], a->tile);
  }
  snprintf(text + at, sizeof text - at, "%s</mjloggm>", ryuukyoku);
  return text;
}

static void test_three_rons(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  game g;
  game_init(&g, &rules);
  three_rons(&g, 1, 1);
  /* Tenhou's rule: a draw, nothing paid, the stick stays on the table */
  const mj_round_result *res = &g.round.result;
  assert_int_equal(res->end, MJ_END_TRIPLE_RON);
  assert_int_equal(res->nwins, 0);
  for (int s = 0; s < 4; s++) assert_int_equal(res->deltas[s], 0);
  assert_true(res->dealer_stays);
  assert_int_equal(g.round.sticks, 1);
  end(&g);
  assert_int_equal(g.game.honba, 2);
  assert_int_equal(g.game.sticks, 1);
  expect_replays(&g, "\"三家和了\"");
  /* and as Tenhou's mjlog writes it */
  const char *text = as_mjlog(&g, "<RYUUKYOKU type=\"ron3\" ba=\"1,1\" "
                              "sc=\"240,0,250,0,250,0,250,0\"/>");
  mj_log log;
  mj_log_init(&log);
  mj_log_error err;
  if (!mj_log_read(&log, text, strlen(text), &err)) fail_msg("%s\n%s", err.text, text);
  mj_replay out;
  assert_true(mj_replay_log(&log, &out, NULL, NULL));
  assert_int_equal(out.disagreements, 0);
  assert_int_equal(out.draws, 1);
  assert_int_equal(out.game.honba, 2);
  mj_log_free(&log);
  game_free(&g);

  /* without it, three wins: the stick to the first after the dealer,
     300 a honba from each */
  rules.triple_ron_draw = false;
  game_init(&g, &rules);
  three_rons(&g, 1, 1);
  res = &g.round.result;
  assert_int_equal(res->end, MJ_END_WIN);
  assert_int_equal(res->nwins, 3);
  int paid = 0;
  for (int i = 0; i < 3; i++) {
    const mj_round_win *w = &res->win[i];
    assert_int_equal(w->who, i + 1);
    assert_int_equal(w->from, 0);
    assert_int_equal(w->sticks, i == 0);
    assert_int_equal(w->deltas[w->who], w->score.ron + 1000 * (i == 0));
    assert_int_equal(w->score.ron, (4 * w->score.basic + 99) / 100 * 100 + 300);
    paid += w->score.ron;
  }
  assert_int_equal(res->deltas[0], -paid);
  assert_false(res->dealer_stays);
  end(&g);
  assert_int_equal(g.game.round, 1);
  assert_int_equal(g.game.sticks, 0);
  expect_replays(&g, NULL);
  game_free(&g);
}

/* ---- the last tile ---- */

/* Seat 1 draws the last tile of the wall, a 5p: it waits on it (tanki)
   for haitei, or lets it go to seat 2's kanchan for houtei.  The other
   5p lie in seat 3's hand, so that nobody else draws one. */
static void last_tile(game *g, bool haitei) {
  builder b;
  builder_init(&b);
  deal(&b, 1, haitei ? "234567m234678s5p" : "234567m234678s9m");
  deal(&b, 2, "234678p345s66m46p");
  deal(&b, 3, haitei ? "05p1119m1119p1z2z3z" : "055p1119m119p1z2z3z");
  place(&b, 121, "5p");
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  start(g, wall);
  for (int i = 0; i < 69; i++) draw_and_discard(g, i % 4);
  assert_int_equal(g->round.live, 1);
  if (haitei) {
    step(g, MJ_ACT_DRAW, 1, MJ_NO_TILE);
    step(g, MJ_ACT_TSUMO, 1, 0);
  } else {
    draw_and_discard(g, 1);
    step(g, MJ_ACT_RON, 2, 0);
  }
}

static bool has_yaku(const mj_score *sc, int yaku) {
  for (int i = 0; i < sc->nyaku; i++)
    if (sc->yaku[i].yaku == yaku) return true;
  return false;
}

static void test_haitei_houtei(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  for (int haitei = 1; haitei >= 0; haitei--) {
    game g;
    game_init(&g, &rules);
    last_tile(&g, haitei);
    const mj_round_win *w = &g.round.result.win[0];
    assert_int_equal(g.round.result.nwins, 1);
    assert_int_equal(w->who, haitei ? 1 : 2);
    assert_true(has_yaku(&w->score, haitei ? MJ_HAITEI : MJ_HOUTEI));
    assert_false(has_yaku(&w->score, haitei ? MJ_HOUTEI : MJ_HAITEI));
    assert_true(has_yaku(&w->score, MJ_TANYAO));
    end(&g);
    expect_replays(&g, haitei ? "\"海底摸月(1飜)\"" : "\"河底撈魚(1飜)\"");
    game_free(&g);
  }
}

/* ---- temporary furiten ---- */

/* Seat 1 waits on 1z (the round's wind, a yaku) and 8s (no yaku: it
   cannot win on it).  Seat 3 lets `passed` go, then the dealer a 1z. */
static void furiten_round(game *g, const char *passed) {
  builder b;
  builder_init(&b);
  deal(&b, 1, "234m567p345s11z88s");
  char text[16];
  snprintf(text, sizeof text, "9m9p9s%s1z", passed);
  draws(&b, text);
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  start(g, wall);
  for (int s = 0; s < 3; s++) draw_and_discard(g, s);
  step(g, MJ_ACT_DRAW, 3, MJ_NO_TILE);
  step(g, MJ_ACT_DISCARD, 3, g->round.seat[3].drawn);
  mj_act ron = {.type = MJ_ACT_RON, .seat = 1};
  assert_int_equal(mj_round_check(&g->round, &ron),
                   !strcmp(passed, "8s") ? MJ_RE_NO_YAKU : MJ_RE_NOT_WINNING);
  step(g, MJ_ACT_DRAW, 0, MJ_NO_TILE);
  step(g, MJ_ACT_DISCARD, 0, g->round.seat[0].drawn);
}

/* A winning tile let pass makes a seat furiten until its next discard,
   with a yaku or without one: Tenhou's rule, as every rule's (a pass of
   a tile without a yaku had not counted). */
static void test_temporary_furiten(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  for (int pass = 0; pass < 2; pass++) {
    game g;
    game_init(&g, &rules);
    furiten_round(&g, pass ? "8s" : "7s");
    mj_act ron = {.type = MJ_ACT_RON, .seat = 1};
    assert_int_equal(mj_round_check(&g.round, &ron), pass ? MJ_RE_FURITEN : MJ_ROUND_OK);
    game_free(&g);
  }
}

/* ---- pao ---- */

/* Seat 1 pons white from the dealer, green from seat 2 and red from
   seat 3 (so seat 3 is liable for daisangen), and waits on 9m alone;
   then seat 2 lets a 9m go (ron), or seat 1 draws it (tsumo). */
static void daisangen(game *g, bool tsumo) {
  builder b;
  builder_init(&b);
  deal(&b, 0, "5z123m456m789m123p");
  deal(&b, 1, "556677z234p9m159s");
  deal(&b, 2, "6z234s456s678s112m");
  deal(&b, 3, "7z345p678p99p3456s");
  draws(&b, tsumo ? "1z2z3z4z1z2z3z9m" : "1z2z3z4z9m");
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  start(g, wall);
  static const char *const junk[] = {"1s", "5s", "9s"};
  for (int i = 0; i < 3; i++) {
    int from = i == 0 ? 0 : i == 1 ? 2 : 3, k = MJ_WHITE + i;
    if (from == 3) draw_and_discard(g, 2);           /* seat 2 comes first */
    step(g, MJ_ACT_DRAW, from, MJ_NO_TILE);
    step(g, MJ_ACT_DISCARD, from, held(g, from, k));
    mj_act pon;
    memset(&pon, 0, sizeof pon);
    pon.type = MJ_ACT_PON;
    pon.seat = 1;
    pon.tile = g->round.open_tile;
    pon.tiles[0] = (uint8_t)held(g, 1, k);
    pon.tiles[1] = (uint8_t)(pon.tiles[0] + 1);
    assert_int_equal(g->round.where[pon.tiles[1]], MJ_AT_HAND | 1 << 4);
    assert_int_equal(mj_round_play(&g->round, &pon), MJ_ROUND_OK);
    g->rec.acts[g->rec.nacts++] = pon;
    g->rec.rounds[g->rec.nrounds - 1].nacts++;
    int j = junk[i][0] - '1';
    step(g, MJ_ACT_DISCARD, 1, held(g, 1, 18 + j));
  }
  assert_int_equal(g->round.seat[1].pao, 3);
  if (tsumo) {
    for (int s = 2; s != 1; s = (s + 1) % 4) draw_and_discard(g, s);
    step(g, MJ_ACT_DRAW, 1, MJ_NO_TILE);
    step(g, MJ_ACT_TSUMO, 1, 0);
  } else {
    draw_and_discard(g, 2);
    step(g, MJ_ACT_RON, 1, 0);
  }
}

static void test_pao(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  game g;
  game_init(&g, &rules);
  daisangen(&g, true);
  /* a tsumo: the liable seat pays it all */
  const mj_round_win *w = &g.round.result.win[0];
  assert_int_equal(w->score.yakuman, 1);
  assert_int_equal(w->pao, 3);
  assert_int_equal(w->deltas[1], 32000);
  assert_int_equal(w->deltas[3], -32000);
  assert_int_equal(w->deltas[0], 0);
  assert_int_equal(w->deltas[2], 0);
  end(&g);
  expect_replays(&g, "[1,1,3,\"役満8000-16000点\",\"大三元(役満)\"]");
  game_free(&g);
  /* a ron from another seat: the liable seat and the one that dealt in
     pay half each */
  game_init(&g, &rules);
  daisangen(&g, false);
  w = &g.round.result.win[0];
  assert_int_equal(w->pao, 3);
  assert_int_equal(w->deltas[1], 32000);
  assert_int_equal(w->deltas[2], -16000);
  assert_int_equal(w->deltas[3], -16000);
  end(&g);
  expect_replays(&g, NULL);
  game_free(&g);
}

/* ---- a double yakuman, a bust, the extra rounds ---- */

/* Seat 1 waits on 9p alone with four closed triplets: suuankou tanki,
   a double yakuman by Tenhou's rules; the dealer lets the 9p go. */
static void suuankou_tanki(game *g) {
  builder b;
  builder_init(&b);
  deal(&b, 0, "258m258p258s1234z");
  deal(&b, 1, "111m333p666s777s9p");
  draws(&b, "9p");
  uint8_t wall[MJ_TILES];
  finish_wall(&b, wall);
  start(g, wall);
  draw_and_discard(g, g->round.dealer);
  step(g, MJ_ACT_RON, (g->round.dealer + 1) % 4, 0);
}

/* A round of draws and discards to the end of the wall. */
static void quiet_round(game *g, uint64_t seed) {
  uint8_t wall[MJ_TILES];
  mj_wall_shuffle(wall, seed);
  start(g, wall);
  for (int i = 0; i < 70; i++) draw_and_discard(g, (g->round.dealer + i) % 4);
  step(g, MJ_ACT_PASS, g->round.turn, 0);
}

static void test_double_yakuman_and_bust(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  game g;
  game_init(&g, &rules);
  suuankou_tanki(&g);
  const mj_round_win *w = &g.round.result.win[0];
  assert_int_equal(w->score.yakuman, 2);
  assert_int_equal(w->deltas[1], 64000);
  assert_int_equal(w->deltas[0], -64000);
  end(&g);
  /* the dealer is at -39000: the game is over */
  assert_true(g.game.over);
  assert_int_equal(g.rec.place[1], 0);
  assert_int_equal(g.rec.place[0], 3);
  /* one entry, "四暗刻単騎(役満)", worth two by its points */
  expect_replays(&g, "\"役満64000点\",\"四暗刻単騎(役満)\"]");
  game_free(&g);

  rules.bust = false;                         /* then it goes on */
  game_init(&g, &rules);
  suuankou_tanki(&g);
  end(&g);
  assert_false(g.game.over);
  assert_int_equal(g.game.round, 1);
  game_free(&g);
}

static void test_extra_rounds(void **state) {
  (void)state;
  mj_round_rules rules = tenhou_rules();
  rules.bust = false;                         /* the dealer of W1 pays 64000 */
  game g;
  game_init(&g, &rules);
  /* S4 with nobody at 30,000: a west round follows */
  g.game.round = 7;
  quiet_round(&g, 12);
  assert_false(g.round.result.dealer_stays);
  end(&g);
  assert_false(g.game.over);
  assert_int_equal(g.game.round, 8);
  for (int s = 0; s < 4; s++) assert_true(g.game.scores[s] < 30000);
  /* W1: a win that takes seat 1 past 30,000 ends it (sudden death) */
  suuankou_tanki(&g);
  end(&g);
  assert_true(g.game.scores[1] >= 30000);
  assert_true(g.game.over);
  assert_int_equal(g.rec.place[1], 0);
  expect_replays(&g, NULL);
  game_free(&g);

  /* the fourth extra round ends the game whoever leads */
  game_init(&g, &rules);
  g.game.round = 11;
  quiet_round(&g, 12);
  assert_false(g.round.result.dealer_stays);
  end(&g);
  assert_true(g.game.over);
  for (int s = 0; s < 4; s++) assert_true(g.game.scores[s] < 30000);
  game_free(&g);

  /* without extra rounds, S4 ends it */
  rules.extra_rounds = false;
  game_init(&g, &rules);
  g.game.round = 7;
  quiet_round(&g, 12);
  end(&g);
  assert_true(g.game.over);
  game_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_four_winds),
    cmocka_unit_test(test_nagashi_mangan),
    cmocka_unit_test(test_three_rons),
    cmocka_unit_test(test_haitei_houtei),
    cmocka_unit_test(test_temporary_furiten),
    cmocka_unit_test(test_pao),
    cmocka_unit_test(test_double_yakuman_and_bust),
    cmocka_unit_test(test_extra_rounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
