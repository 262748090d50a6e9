/*
** test_mahjong_context.c: the context of a win read from text
** (core/mahjong/context.c): every word of the words form and every
** field of the JSON form, what each sets, and each mistake with the
** message it gives; then lines scored as mahjong.score scores them
** (the figures of docs/mahjong.md and tests/lua/mahjong_spec.lua).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/json.h"
#include "mahjong/mahjong.h"

/* ---- helpers ---- */

static mj_request words(const char *line) {
  mj_request r;
  char message[MJ_MESSAGE];
  if (!mj_read_words(line, strlen(line), &r, message))
    fail_msg("'%s': %s", line, message);
  return r;
}

static void words_fail(const char *line, const char *expected) {
  mj_request r;
  char message[MJ_MESSAGE] = "";
  if (mj_read_words(line, strlen(line), &r, message))
    fail_msg("'%s' was read, expected: %s", line, expected);
  if (strcmp(message, expected) != 0)
    fail_msg("'%s':\n  said     %s\n  expected %s", line, message, expected);
}

/* Reads text as JSON, then as a request; the JSON value is freed by the
   caller (the hand points into it). */
static json_value *json_request(const char *text, mj_request *r,
                                char *message) {
  json_value *v = json_parse(text, strlen(text), NULL);
  if (!v) fail_msg("not JSON: %s", text);
  if (!mj_read_json(v, r, message)) {
    json_free_value(v);
    return NULL;
  }
  return v;
}

static void json_fail(const char *text, const char *expected) {
  mj_request r;
  char message[MJ_MESSAGE] = "";
  json_value *v = json_request(text, &r, message);
  if (v) {
    json_free_value(v);
    fail_msg("'%s' was read, expected: %s", text, expected);
  }
  if (strcmp(message, expected) != 0)
    fail_msg("'%s':\n  said     %s\n  expected %s", text, message, expected);
}

static bool hand_is(const mj_request *r, const char *text) {
  return r->hand_len == strlen(text) && memcmp(r->hand, text, r->hand_len) == 0;
}

static int kind(const char *name) {
  bool red;
  return mj_tile_from_name(name, 2, &red);
}

/* ---- the words form ---- */

static void test_words(void **unused) {
  (void)unused;
  mj_request r = words("234p234m45688s234s win=6s tsumo riichi seat=E round=S "
                       "dora=1m5p ura=7z melds=chi:234m,ankan:0555p honba=2 "
                       "kyoutaku=1 kiriage no_kuitan no_kazoe");
  assert_true(hand_is(&r, "234p234m45688s234s"));
  const mj_context *c = &r.ctx;
  assert_int_equal(c->win, kind("6s"));
  assert_true(c->tsumo && c->riichi);
  assert_false(c->double_riichi || c->ippatsu || c->haitei || c->houtei ||
               c->rinshan || c->chankan || c->tenhou || c->chiihou);
  assert_int_equal(c->seat, MJ_EAST);
  assert_int_equal(c->round, MJ_SOUTH);
  assert_int_equal(c->ndora, 2);
  assert_int_equal(c->dora[0], kind("1m"));
  assert_int_equal(c->dora[1], kind("5p"));
  assert_int_equal(c->nura, 1);
  assert_int_equal(c->ura[0], MJ_RED);
  assert_int_equal(c->nmelds, 2);
  assert_int_equal(c->meld[0].kind, MJ_CHI);
  assert_int_equal(c->meld[0].tile, kind("2m"));
  assert_int_equal(c->meld[1].kind, MJ_ANKAN);
  assert_int_equal(c->meld[1].tile, kind("5p"));
  assert_int_equal(c->meld[1].red, 1);
  assert_int_equal(c->honba, 2);
  assert_int_equal(c->kyoutaku, 1);
  assert_true(c->rules.kiriage && !c->rules.kuitan && !c->rules.kazoe);
  assert_true(c->rules.aka && c->rules.double_yakuman && c->rules.open_pinfu_fu);

  /* the defaults, a hand in groups, tabs, and every other flag */
  r = words("  234m 234p\t234s 45688s  ");
  assert_true(hand_is(&r, "234m 234p\t234s 45688s"));
  mj_context defaults;
  mj_default_context(&defaults);
  assert_memory_equal(&r.ctx, &defaults, sizeof defaults);
  r = words("123m456p789s23455s ron double_riichi ippatsu haitei houtei rinshan "
            "chankan tenhou chiihou no_aka no_double_yakuman no_open_pinfu_fu "
            "no_kiriage kuitan kazoe");
  c = &r.ctx;
  assert_false(c->tsumo || c->riichi);
  assert_true(c->double_riichi && c->ippatsu && c->haitei && c->houtei &&
              c->rinshan && c->chankan && c->tenhou && c->chiihou);
  assert_false(c->rules.aka || c->rules.double_yakuman ||
               c->rules.open_pinfu_fu || c->rules.kiriage);
  assert_true(c->rules.kuitan && c->rules.kazoe);
  /* a bad hand is the hand all the same: mj_parse says what is wrong */
  r = words("234p234m4568x8s win=6s");
  assert_true(hand_is(&r, "234p234m4568x8s"));
}

static void test_words_errors(void **unused) {
  (void)unused;
  const char *h = "234p234m234s45688s";
  char line[256];
  static const struct { const char *words, *message; } cases[] = {
    {"richi", "unknown word 'richi' (words: win=, seat=, round=, dora=, ura=, "
     "melds=, honba=, kyoutaku=; tsumo or ron, riichi, double_riichi, ippatsu, "
     "haitei, houtei, rinshan, chankan, tenhou, chiihou; rules kuitan, aka, "
     "kiriage, double_yakuman, kazoe, open_pinfu_fu, or no_ and one)"},
    {"win=6x", "win must be a tile like '5m' or '7z' (got 6x)"},
    {"win=8z", "win must be a tile like '5m' or '7z' (got 8z)"},
    {"win", "win needs a value (win=...)"},
    {"win=", "win must be a tile like '5m' or '7z' (got )"},
    {"tsumo=1", "'tsumo' takes no value (write tsumo alone)"},
    {"ron=yes", "'ron' takes no value (write ron alone)"},
    {"riichi riichi", "riichi given twice"},
    {"win=6s win=8s", "win given twice"},
    {"tsumo ron", "tsumo and ron: a win is one or the other"},
    {"ron tsumo", "tsumo and ron: a win is one or the other"},
    {"ron ron", "ron given twice"},
    {"seat=e", "seat must be \"E\", \"S\", \"W\" or \"N\" (got e)"},
    {"round=EAST", "round must be \"E\", \"S\", \"W\" or \"N\" (got EAST)"},
    {"honba=100", "honba must be a whole number from 0 to 99"},
    {"kyoutaku=-1", "kyoutaku must be a whole number from 0 to 99"},
    {"honba=", "honba must be a whole number from 0 to 99"},
    {"dora=1x", "dora: unknown character 'x' at position 2 of '1x' (tiles are "
     "digits followed by m, p, s or z)"},
    {"ura=11111m", "ura: a fifth 1m at position 5 of '11111m' (there are four "
     "of each tile)"},
    {"dora=12345678912m", "dora: at most 10 indicators"},
    {"melds=chi:235m", "meld 1 is 'chi:235m', expected chi:234m, pon:555z, "
     "kan:1111p or ankan:1111p"},
    {"melds=pon:555z,234m", "meld 2 is '234m', expected chi:234m, pon:555z, "
     "kan:1111p or ankan:1111p"},
    {"melds=pon:555x", "unknown character 'x' at position 8 of 'pon:555x' "
     "(tiles are digits followed by m, p, s or z)"},
    {"melds=pon:111z,pon:222z,pon:333z,pon:444z,pon:555z",
     "at most 4 melds (got 5)"},
    {"melds=", "meld 1 is '', expected chi:234m, pon:555z, kan:1111p or "
     "ankan:1111p"},
    {"kiriage no_kiriage", "the rule kiriage given twice"},
    {"kiriage=true", "the rule 'kiriage' takes no value (write kiriage to turn "
     "it on, no_kiriage to turn it off)"},
    {"no_", "unknown word 'no_' (words: win=, seat=, round=, dora=, ura=, "
     "melds=, honba=, kyoutaku=; tsumo or ron, riichi, double_riichi, ippatsu, "
     "haitei, houtei, rinshan, chankan, tenhou, chiihou; rules kuitan, aka, "
     "kiriage, double_yakuman, kazoe, open_pinfu_fu, or no_ and one)"},
    {"hand=234m", "unknown word 'hand=234m' (words: win=, seat=, round=, "
     "dora=, ura=, melds=, honba=, kyoutaku=; tsumo or ron, riichi, "
     "double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, "
     "chiihou; rules kuitan, aka, kiriage, double_yakuman, kazoe, "
     "open_pinfu_fu, or no_ and one)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(line, sizeof line, "%s %s", h, cases[i].words);
    words_fail(line, cases[i].message);
  }
  const char *no_hand = "no hand at the start of the line (tiles like "
                        "234p234m45688s, then words like win=6s tsumo)";
  words_fail("", no_hand);
  words_fail("   ", no_hand);
  words_fail("win=6s 234p234m234s45688s", no_hand);
  words_fail("tsumo", no_hand);
  words_fail("no_kuitan", no_hand);
  /* what is not text is shown as '?' */
  words_fail("234m win=\x01\xff", "win must be a tile like '5m' or '7z' (got ?" "?)");
}

/* ---- the JSON form ---- */

static void test_json(void **unused) {
  (void)unused;
  mj_request r;
  char message[MJ_MESSAGE];
  json_value *v = json_request(
      "{\"hand\": \"234p234m234s45688s\", \"win\": \"6s\", \"tsumo\": true, "
      "\"riichi\": false, \"seat\": \"W\", \"round\": \"E\", \"dora\": [\"1m\", "
      "\"7z\"], \"ura\": \"5p\", \"melds\": [], \"honba\": 3, \"kyoutaku\": 2.0, "
      "\"rules\": {\"kuitan\": false, \"kazoe\": \"sanbaiman\", \"aka\": true}, "
      "\"id\": 17, \"ippatsu\": null}", &r, message);
  assert_non_null(v);
  assert_true(hand_is(&r, "234p234m234s45688s"));
  const mj_context *c = &r.ctx;
  assert_int_equal(c->win, kind("6s"));
  assert_true(c->tsumo && !c->riichi && !c->ippatsu);
  assert_int_equal(c->seat, MJ_WEST);
  assert_int_equal(c->round, MJ_EAST);
  assert_int_equal(c->ndora, 2);
  assert_int_equal(c->dora[1], MJ_RED);
  assert_int_equal(c->nura, 1);
  assert_int_equal(c->ura[0], kind("5p"));
  assert_int_equal(c->nmelds, 0);
  assert_int_equal(c->honba, 3);
  assert_int_equal(c->kyoutaku, 2);
  assert_true(!c->rules.kuitan && !c->rules.kazoe && c->rules.aka);
  json_free_value(v);

  /* score.jsonl's form: the request inside, the expectation beside it */
  v = json_request("{\"request\": {\"id\": \"x\", \"hand\": \"123m456p789s23455s\","
                   " \"melds\": [\"pon:777z\"], \"win\": \"0s\"}, \"expect\": "
                   "{\"ok\": true}}", &r, message);
  assert_non_null(v);
  assert_true(hand_is(&r, "123m456p789s23455s"));
  assert_int_equal(r.ctx.nmelds, 1);
  assert_int_equal(r.ctx.meld[0].tile, MJ_RED);
  assert_int_equal(r.ctx.win, kind("5s"));
  json_free_value(v);
}

static void test_json_errors(void **unused) {
  (void)unused;
  static const struct { const char *text, *message; } cases[] = {
    {"[1]", "a request is a JSON object (got an array)"},
    {"{}", "no hand (\"hand\": \"234p234m45688s\")"},
    {"{\"hand\": 5}", "hand must be a string of tiles like \"234p234m45688s\" "
     "(got a number)"},
    {"{\"hand\": \"1m\", \"richi\": true}", "unknown field 'richi' (fields: "
     "hand, win, tsumo, riichi, double_riichi, ippatsu, haitei, houtei, "
     "rinshan, chankan, tenhou, chiihou, seat, round, dora, ura, melds, honba, "
     "kyoutaku, rules, id)"},
    {"{\"hand\": \"1m\", \"tsumo\": 1}", "tsumo must be true or false (got a "
     "number)"},
    {"{\"hand\": \"1m\", \"tsumo\": \"yes\"}", "tsumo must be true or false "
     "(got yes)"},
    {"{\"hand\": \"1m\", \"tsumo\": true, \"tsumo\": false}",
     "tsumo given twice"},
    {"{\"hand\": \"1m\", \"win\": 6}", "win must be a tile like '5m' or '7z' "
     "(got a number)"},
    {"{\"hand\": \"1m\", \"win\": \"6\"}", "win must be a tile like '5m' or "
     "'7z' (got 6)"},
    {"{\"hand\": \"1m\", \"seat\": \"east\"}", "seat must be \"E\", \"S\", "
     "\"W\" or \"N\" (got east)"},
    {"{\"hand\": \"1m\", \"round\": []}", "round must be \"E\", \"S\", \"W\" or "
     "\"N\" (got an array)"},
    {"{\"hand\": \"1m\", \"dora\": {}}", "dora must be a list of tiles (got "
     "an object)"},
    {"{\"hand\": \"1m\", \"dora\": [\"1m2m\"]}", "dora must be a tile like "
     "'5m' or '7z' (got 1m2m)"},
    {"{\"hand\": \"1m\", \"ura\": [true]}", "ura must be a tile like '5m' or "
     "'7z' (got true)"},
    {"{\"hand\": \"1m\", \"dora\": [\"1m\",\"1m\",\"1m\",\"1m\",\"2m\",\"2m\","
     "\"2m\",\"2m\",\"3m\",\"3m\",\"3m\"]}", "dora: at most 10 indicators (got 11)"},
    {"{\"hand\": \"1m\", \"dora\": \"1m1q\"}", "dora: unknown character 'q' at "
     "position 4 of '1m1q' (tiles are digits followed by m, p, s or z)"},
    {"{\"hand\": \"1m\", \"melds\": \"chi:234m\"}", "melds must be a list like "
     "[\"chi:234m\", \"pon:555z\"] (got a string)"},
    {"{\"hand\": \"1m\", \"melds\": [\"chi:234m\", 5]}", "meld 2 is a number, "
     "expected chi:234m, pon:555z, kan:1111p or ankan:1111p"},
    {"{\"hand\": \"1m\", \"melds\": [\"kan:111m\"]}", "meld 1 is 'kan:111m', "
     "expected chi:234m, pon:555z, kan:1111p or ankan:1111p"},
    {"{\"hand\": \"1m\", \"melds\": [\"pon:111z\",\"pon:222z\",\"pon:333z\","
     "\"pon:444z\",\"pon:555z\"]}", "at most 4 melds (got 5)"},
    {"{\"hand\": \"1m\", \"honba\": 1.5}", "honba must be a whole number from "
     "0 to 99"},
    {"{\"hand\": \"1m\", \"kyoutaku\": 100}", "kyoutaku must be a whole number "
     "from 0 to 99"},
    {"{\"hand\": \"1m\", \"honba\": \"2\"}", "honba must be a whole number "
     "from 0 to 99"},
    {"{\"hand\": \"1m\", \"rules\": true}", "rules must be an object (got true)"},
    {"{\"hand\": \"1m\", \"rules\": {\"kuitan\": 1}}", "rule 'kuitan' must be "
     "true or false"},
    {"{\"hand\": \"1m\", \"rules\": {\"kazoe\": \"none\"}}", "rule 'kazoe' must "
     "be true or false (or \"sanbaiman\", \"yakuman\")"},
    {"{\"hand\": \"1m\", \"rules\": {\"kuitan\": true, \"kuitan\": false}}",
     "the rule kuitan given twice"},
    {"{\"hand\": \"1m\", \"rules\": {\"tenhou\": true}}", "unknown rule "
     "'tenhou' (rules: kuitan, aka, kiriage, double_yakuman, kazoe, "
     "open_pinfu_fu)"},
    {"{\"request\": [], \"expect\": {}}", "request must be an object (got an "
     "array)"},
    {"{\"request\": {\"hand\": \"1m\"}, \"answer\": {}}", "unknown member "
     "'answer' beside the request (a record is {\"request\": {...}, "
     "\"expect\": {...}})"},
    {"{\"request\": {\"win\": \"1m\"}}", "no hand (\"hand\": \"234p234m45688s\")"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    json_fail(cases[i].text, cases[i].message);
}

/* ---- names, messages, and lines scored ---- */

static void test_names(void **unused) {
  (void)unused;
  mj_context ctx;
  mj_default_context(&ctx);
  assert_ptr_equal(mj_context_flag(&ctx, "chankan", 7), &ctx.chankan);
  assert_null(mj_context_flag(&ctx, "chankan", 6));
  assert_null(mj_context_flag(&ctx, "win", 3));
  assert_ptr_equal(mj_rules_flag(&ctx.rules, "open_pinfu_fu", 13),
                   &ctx.rules.open_pinfu_fu);
  assert_null(mj_rules_flag(&ctx.rules, "kuitanx", 7));
  assert_int_equal(mj_wind_of("N", 1), MJ_NORTH);
  assert_int_equal(mj_wind_of("N", 0), -1);
  assert_int_equal(mj_wind_of("\0", 1), -1);
  assert_string_equal(mj_limit_name(MJ_KAZOE_YAKUMAN), "kazoe yakuman");
  assert_null(mj_limit_name(MJ_NO_LIMIT));
  assert_string_equal(mj_wait_name(MJ_KOKUSHI_WAIT), "kokushi 13-sided");
  char buf[64];
  assert_string_equal(mj_shown("ab\ncd\xc3\xa9" "fgh", 9, 7, buf), "ab?cd\xc3\xa9...");
}

/* Scores a line of words; the status, and the score in s. */
static mj_status score_words(const char *line, mj_score *s, char *message) {
  mj_request r;
  if (!mj_read_words(line, strlen(line), &r, message)) fail_msg("%s", message);
  mj_tiles hand;
  mj_parse_error err;
  mj_error e = mj_parse(r.hand, r.hand_len, &hand, &err);
  if (e != MJ_OK) {
    mj_parse_message(r.hand, r.hand_len, e, &err, message);
    return MJ_BAD_CONTEXT;
  }
  mj_status st = mj_score_hand(&hand, &r.ctx, s);
  if (st != MJ_SCORED) mj_status_message(st, &hand, &r.ctx, message);
  return st;
}

static void test_scored_lines(void **unused) {
  (void)unused;
  mj_score s;
  char message[MJ_MESSAGE];
  /* docs/mahjong.md's score sheet */
  assert_int_equal(score_words("234p234m234s45688s win=6s tsumo riichi seat=E "
                               "dora=1m", &s, message), MJ_SCORED);
  assert_int_equal(s.han, 7);
  assert_int_equal(s.fu, 20);
  assert_int_equal(s.limit, MJ_HANEMAN);
  assert_int_equal(s.tsumo_all, 6000);
  assert_int_equal(s.total, 18000);
  /* mahjong_spec.lua: kiriage; honba and a riichi stick */
  score_words("2p3p4p2m3m4m2s3s4s4s5s6s8s8s win=6s kiriage", &s, message);
  assert_int_equal(s.ron, 8000);
  score_words("123m456p789s55z123s win=1s tsumo seat=E honba=1 kyoutaku=1", &s,
              message);
  assert_int_equal(s.tsumo_all, 600);
  assert_int_equal(s.total, 2800);
  score_words("456p678s23455s win=4s melds=chi:234m no_open_pinfu_fu", &s,
              message);
  assert_int_equal(s.fu, 20);
  /* refusals, in mahjong.score's words */
  assert_int_equal(score_words("123m456p789s11z222s win=2s", &s, message),
                   MJ_NO_YAKU);
  assert_string_equal(message, "no yaku");
  assert_int_equal(score_words("456p789s23455s win=4s riichi melds=pon:777z",
                               &s, message), MJ_OPEN_RIICHI);
  assert_string_equal(message, "riichi with an open hand");
  assert_int_equal(score_words("123m456p789s23455s win=4s ura=4s", &s, message),
                   MJ_URA_WITHOUT_RIICHI);
  assert_string_equal(message, "ura dora indicators without riichi");
  score_words("11111m23455s789p win=5s", &s, message);
  assert_string_equal(message, "a fifth 1m at position 5 of '11111m23455s789p' "
                      "(there are four of each tile)");
  assert_int_equal(score_words("123m456p789s23455s win=1p", &s, message),
                   MJ_WIN_NOT_IN_HAND);
  assert_string_equal(message, "the winning tile 1p is not in the hand (the "
                      "hand includes it)");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_words),
    cmocka_unit_test(test_words_errors),
    cmocka_unit_test(test_json),
    cmocka_unit_test(test_json_errors),
    cmocka_unit_test(test_names),
    cmocka_unit_test(test_scored_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
