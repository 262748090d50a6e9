/*
** lmahjong.c: `ludus.mahjong`, riichi hand analysis (core/mahjong).
** Hands are strings in Tenhou's forms ("234p234m45688s", "2p3p4p...");
** results are plain tables.  Bad input (a hand, a tile, a meld or a
** context that cannot be read) returns nil, message; a wrong type where
** a table or a string must be raises.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"
#include "mahjong/mahjong.h"
#include "mahjong/tenhou.h"

#define SCORE_TYPE "ludus.mahjong.score"

typedef struct message {
  char text[MJ_MESSAGE];
} message;

static bool say(message *m, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(m->text, sizeof m->text, fmt, args);
  va_end(args);
  return false;
}

static int fail(lua_State *L, const message *m) {
  lua_pushnil(L);
  lua_pushfstring(L, "mahjong: %s", m->text);
  return 2;
}

static void push_tile(lua_State *L, int kind, bool red) {
  char name[3];
  mj_tile_name(kind, red, name);
  lua_pushstring(L, name);
}

/* ---- reading tiles ---- */

/* Why text did not parse, with the 1-based position. */
static bool parse_failure(message *m, const char *text, size_t len, mj_error e,
                          const mj_parse_error *err) {
  mj_parse_message(text, len, e, err, m->text);
  return false;
}

static bool read_tiles(const char *text, size_t len, mj_tiles *t, message *m) {
  mj_parse_error err;
  mj_error e = mj_parse(text, len, t, &err);
  return e == MJ_OK || parse_failure(m, text, len, e, &err);
}

/* The hand at arg: tiles whose count fits k melds and a pair (3k+2) or
   k melds and one tile (3k+1), as `forms` allows ("2", "1" or "12"). */
static bool read_hand(lua_State *L, int arg, const char *forms, mj_tiles *t,
                      message *m) {
  size_t len;
  const char *text = luaL_checklstring(L, arg, &len);
  if (!read_tiles(text, len, t, m)) return false;
  int r = t->n % 3;
  bool ok = t->n <= MJ_MAX_HAND && r != 0 && strchr(forms, '0' + r);
  if (ok) return true;
  if (!strcmp(forms, "2"))
    return say(m, "%d tiles in '%s', expected 14 (or 11, 8, 5, 2 with melds "
               "called)", t->n, text);
  if (!strcmp(forms, "1"))
    return say(m, "%d tiles in '%s', expected 13 (or 10, 7, 4, 1 with melds "
               "called)", t->n, text);
  return say(m, "%d tiles in '%s', expected 13 or 14 (or 3 fewer for each meld "
             "called)", t->n, text);
}

#define READ_HAND(L, arg, forms, t) do { \
    message m_; \
    if (!read_hand(L, arg, forms, t, &m_)) return fail(L, &m_); \
  } while (0)

/* tiles(s) -> the tiles of s as a sorted list of names */
static int mahjong_tiles(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  mj_tiles t;
  message m;
  if (!read_tiles(text, len, &t, &m)) return fail(L, &m);
  lua_createtable(L, t.n, 0);
  int n = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    for (int i = 0; i < t.count[k]; i++) {
      push_tile(L, k, k < MJ_HONORS && k % 9 == 4 && i < t.red[MJ_SUIT(k)]);
      lua_rawseti(L, -2, ++n);
    }
  }
  return 1;
}

/* ---- readings ---- */

static void push_group(lua_State *L, const mj_group *g) {
  mj_meld meld = {g->kind == MJ_SEQUENCE ? MJ_CHI : MJ_PON, g->tile, 0};
  char text[8];
  mj_meld_text(&meld, text, sizeof text);
  lua_pushstring(L, text);
}

static const char *const meld_prefix[] = {"chi:", "pon:", "kan:", "ankan:"};

/* {pair=, melds={...}}, {form="chiitoitsu", pairs={...}} or
   {form="kokushi"}; called melds, when given, end the list of melds. */
static void push_reading(lua_State *L, const mj_reading *r,
                         const mj_meld *called, int ncalled) {
  lua_createtable(L, 0, 2);
  if (r->form == MJ_KOKUSHI) {
    lua_pushliteral(L, "kokushi");
    lua_setfield(L, -2, "form");
    return;
  }
  if (r->form == MJ_CHIITOITSU) {
    lua_pushliteral(L, "chiitoitsu");
    lua_setfield(L, -2, "form");
    lua_createtable(L, 7, 0);
    for (int i = 0; i < r->n; i++) {
      push_tile(L, r->group[i].tile, false);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "pairs");
    return;
  }
  push_tile(L, r->pair, false);
  lua_setfield(L, -2, "pair");
  lua_createtable(L, 4, 0);
  for (int i = 0; i < r->n; i++) {
    push_group(L, &r->group[i]);
    lua_rawseti(L, -2, i + 1);
  }
  for (int i = 0; i < ncalled; i++) {
    char text[8];
    mj_meld_text(&called[i], text, sizeof text);
    lua_pushfstring(L, "%s%s", meld_prefix[called[i].kind], text);
    lua_rawseti(L, -2, r->n + i + 1);
  }
  lua_setfield(L, -2, "melds");
}

/* decompose(s) -> every reading of a complete hand; {} when it is not */
static int mahjong_decompose(lua_State *L) {
  mj_tiles t;
  READ_HAND(L, 1, "2", &t);
  mj_reading r[MJ_MAX_READINGS];
  int n = mj_decompose(t.count, t.n / 3, r);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    push_reading(L, &r[i], NULL, 0);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* ---- shanten, waits, discards ---- */

/* shanten(s [, form]) -> the least shanten, or that of one form */
static int mahjong_shanten(lua_State *L) {
  static const char *const forms[] = {"all", "regular", "chiitoitsu",
                                      "kokushi", NULL};
  mj_tiles t;
  READ_HAND(L, 1, "12", &t);
  int form = luaL_checkoption(L, 2, "all", forms);
  if (form >= 2 && t.n < 13) {
    message m;
    say(&m, "%s needs 13 or 14 tiles (got %d)", forms[form], t.n);
    return fail(L, &m);
  }
  int shanten = form == 0 ? mj_shanten(t.count, t.n)
                : form == 1 ? mj_shanten_regular(t.count, t.n / 3)
                : form == 2 ? mj_shanten_chiitoitsu(t.count)
                : mj_shanten_kokushi(t.count);
  lua_pushinteger(L, shanten);
  return 1;
}

/* A list of the kinds in `kinds`, and a table of the copies of each
   not among the counted tiles; returns their sum. */
static int push_accepted(lua_State *L, uint64_t kinds, const uint8_t *count) {
  int total = 0, n = 0;
  lua_newtable(L);
  lua_newtable(L);
  for (int k = 0; k < MJ_KINDS; k++) {
    if (!(kinds >> k & 1)) continue;
    push_tile(L, k, false);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -4, ++n);
    lua_pushinteger(L, 4 - count[k]);
    lua_rawset(L, -3);
    total += 4 - count[k];
  }
  return total;
}

/* waits(s) -> the tiles that complete a ready hand of 13 (10, 7, 4, 1),
   {tile = copies unseen}, their sum, and the shanten; no tiles when it
   is not ready */
static int mahjong_waits(lua_State *L) {
  mj_tiles t;
  READ_HAND(L, 1, "1", &t);
  int shanten;
  uint64_t waits = mj_ukeire(t.count, t.n, &shanten);
  int total = push_accepted(L, shanten == 0 ? waits : 0, t.count);
  lua_pushinteger(L, total);
  lua_pushinteger(L, shanten);
  return 4;
}

/* discards(s) -> for each tile of a hand of 14 (11, 8, 5, 2):
   {discard=, shanten=, accepted={...}, counts={...}, total=}, best first */
static int mahjong_discards(lua_State *L) {
  mj_tiles t;
  READ_HAND(L, 1, "2", &t);
  mj_discard d[MJ_KINDS];
  int n = mj_discards(t.count, t.n, d);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_createtable(L, 0, 5);
    push_tile(L, d[i].tile, false);
    lua_setfield(L, -2, "discard");
    lua_pushinteger(L, d[i].shanten);
    lua_setfield(L, -2, "shanten");
    int total = push_accepted(L, d[i].accepted, t.count);
    lua_setfield(L, -3, "counts");
    lua_setfield(L, -2, "accepted");
    lua_pushinteger(L, total);
    lua_setfield(L, -2, "total");
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* The kinds named in the list at arg, plain and red apart (bit k of
   plain, bit s of red for the five of suit s). */
static void read_allowed(lua_State *L, int arg, uint64_t *plain, unsigned *red) {
  luaL_checktype(L, arg, LUA_TTABLE);
  *plain = 0;
  *red = 0;
  lua_Integer n = luaL_len(L, arg);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, arg, i);
    size_t len;
    const char *name = lua_tolstring(L, -1, &len);
    bool is_red = false;       /* luaL_argerror does not return */
    int k = name ? mj_tile_from_name(name, len, &is_red) : -1;
    if (k < 0)
      luaL_argerror(L, arg, lua_pushfstring(L, "item %d is not a tile: %s", (int)i,
                                            name ? name : luaL_typename(L, -1)));
    if (is_red) *red |= 1u << MJ_SUIT(k);
    else *plain |= 1ull << k;
    lua_pop(L, 1);
  }
}

/* ranked_discards(s [, tiles]) -> the tiles of a hand of 14 (11, 8, 5,
   2) to let go, best first as discards ranks them, a plain five before
   a red one; with tiles (a list of names), only those */
static int mahjong_ranked_discards(lua_State *L) {
  mj_tiles t;
  READ_HAND(L, 1, "2", &t);
  uint64_t plain = ~0ull;
  unsigned red = 7;
  if (!lua_isnoneornil(L, 2)) read_allowed(L, 2, &plain, &red);
  mj_discard d[MJ_KINDS];
  int n = mj_discards(t.count, t.n, d), at = 0;
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    int k = d[i].tile;
    bool five = k < MJ_HONORS && k % 9 == 4;
    int reds = five ? t.red[MJ_SUIT(k)] : 0;
    if (t.count[k] > reds && (plain >> k & 1)) {
      push_tile(L, k, false);
      lua_rawseti(L, -2, ++at);
    }
    if (reds && (red >> MJ_SUIT(k) & 1)) {
      push_tile(L, k, true);
      lua_rawseti(L, -2, ++at);
    }
  }
  return 1;
}

/* ---- the context of a win ---- */

static bool read_tile_name(lua_State *L, int idx, const char *field,
                           uint8_t *kind, message *m) {
  size_t len;
  const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &len)
                                                  : NULL;
  bool red;
  int k = s ? mj_tile_from_name(s, len, &red) : -1;
  if (k < 0)
    return say(m, "%s must be a tile like '5m' or '7z' (got %s)", field,
               s ? s : luaL_typename(L, idx));
  *kind = (uint8_t)k;
  return true;
}

/* Indicators: a list of tile names, or one string of tiles. */
static bool read_indicators(lua_State *L, int idx, const char *field,
                            uint8_t *out, int *n, message *m) {
  *n = 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    size_t len;
    const char *text = lua_tolstring(L, idx, &len);
    mj_tiles t;
    if (!read_tiles(text, len, &t, m)) return false;
    for (int k = 0; k < MJ_KINDS; k++)
      for (int i = 0; i < t.count[k]; i++) {
        if (*n == MJ_MAX_INDICATORS)
          return say(m, "%s: at most %d indicators", field, MJ_MAX_INDICATORS);
        out[(*n)++] = (uint8_t)k;
      }
    return true;
  }
  if (!lua_istable(L, idx))
    return say(m, "%s must be a list of tiles (got %s)", field,
               luaL_typename(L, idx));
  lua_Integer len = luaL_len(L, idx);
  if (len < 0 || len > MJ_MAX_INDICATORS)
    return say(m, "%s: at most %d indicators (got %lld)", field,
               MJ_MAX_INDICATORS, (long long)len);
  for (lua_Integer i = 1; i <= len; i++) {
    lua_geti(L, idx, i);
    bool ok = read_tile_name(L, -1, field, &out[*n], m);
    lua_pop(L, 1);
    if (!ok) return false;
    (*n)++;
  }
  return true;
}

static bool read_melds(lua_State *L, int idx, mj_context *ctx, message *m) {
  if (!lua_istable(L, idx))
    return say(m, "melds must be a list like {\"chi:234m\", \"pon:555z\"} "
               "(got %s)", luaL_typename(L, idx));
  lua_Integer len = luaL_len(L, idx);
  if (len < 0 || len > 4)
    return say(m, "at most 4 melds (got %lld)", (long long)len);
  for (lua_Integer i = 1; i <= len; i++) {
    lua_geti(L, idx, i);
    size_t n;
    const char *text = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n)
                                                      : NULL;
    mj_parse_error err;
    mj_error e = text ? mj_parse_meld(text, n, &ctx->meld[i - 1], &err) : MJ_EMELD;
    bool ok = e == MJ_OK;
    if (!ok && (e == MJ_EMELD || !text))
      say(m, "meld %d is %s%s%s, expected chi:234m, pon:555z, kan:1111p or "
          "ankan:1111p", (int)i, text ? "'" : "",
          text ? text : luaL_typename(L, -1), text ? "'" : "");
    else if (!ok)
      parse_failure(m, text, n, e, &err);
    lua_pop(L, 1);
    if (!ok) return false;
  }
  ctx->nmelds = (int)len;
  return true;
}

static bool read_wind(lua_State *L, int idx, const char *field, int *wind,
                      message *m) {
  size_t len = 0;
  bool text = lua_type(L, idx) == LUA_TSTRING;
  const char *s = text ? lua_tolstring(L, idx, &len) : luaL_typename(L, idx);
  *wind = text ? mj_wind_of(s, len) : -1;
  if (*wind < 0)
    return say(m, "%s must be \"E\", \"S\", \"W\" or \"N\" (got %s)", field, s);
  return true;
}

static bool read_count(lua_State *L, int idx, const char *field, int *out,
                       message *m) {
  int isint;
  lua_Integer v = lua_tointegerx(L, idx, &isint);
  if (!isint || lua_type(L, idx) != LUA_TNUMBER || v < 0 || v > 99)
    return say(m, "%s must be a whole number from 0 to 99", field);
  *out = (int)v;
  return true;
}

static bool read_rules(lua_State *L, int idx, mj_rules *rules, message *m) {
  if (!lua_istable(L, idx))
    return say(m, "rules must be a table (got %s)", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int top = lua_gettop(L);
    size_t len = 0;
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len)
                                                     : "";
    bool *rule = mj_rules_flag(rules, key, len);
    bool kazoe = rule == &rules->kazoe;
    bool ok = true;
    if (!rule) {
      ok = say(m, "unknown rule '%s' (rules: kuitan, aka, kiriage, "
               "double_yakuman, kazoe, open_pinfu_fu)",
               luaL_tolstring(L, -2, NULL));
    } else if (lua_type(L, -1) == LUA_TBOOLEAN) {
      *rule = lua_toboolean(L, -1);
    } else if (kazoe && lua_type(L, -1) == LUA_TSTRING &&
               (!strcmp(lua_tostring(L, -1), "sanbaiman") ||
                !strcmp(lua_tostring(L, -1), "yakuman"))) {
      rules->kazoe = !strcmp(lua_tostring(L, -1), "yakuman");
    } else {
      ok = say(m, "rule '%s' must be true or false%s", key,
               kazoe ? " (or \"sanbaiman\", \"yakuman\")" : "");
    }
    lua_settop(L, top - (ok ? 1 : 2));
    if (!ok) return false;
  }
  return true;
}

static bool read_field(lua_State *L, const char *key, size_t len,
                       mj_context *ctx, message *m) {
  bool *flag = mj_context_flag(ctx, key, len);
  if (flag) {
    if (lua_type(L, -1) != LUA_TBOOLEAN)
      return say(m, "%s must be true or false (got %s)", key,
                 luaL_typename(L, -1));
    *flag = lua_toboolean(L, -1);
    return true;
  }
  if (!strcmp(key, "win")) {
    uint8_t k;
    if (!read_tile_name(L, -1, "win", &k, m)) return false;
    ctx->win = k;
    return true;
  }
  if (!strcmp(key, "seat")) return read_wind(L, -1, key, &ctx->seat, m);
  if (!strcmp(key, "round")) return read_wind(L, -1, key, &ctx->round, m);
  if (!strcmp(key, "dora"))
    return read_indicators(L, lua_gettop(L), key, ctx->dora, &ctx->ndora, m);
  if (!strcmp(key, "ura"))
    return read_indicators(L, lua_gettop(L), key, ctx->ura, &ctx->nura, m);
  if (!strcmp(key, "melds")) return read_melds(L, lua_gettop(L), ctx, m);
  if (!strcmp(key, "honba")) return read_count(L, -1, key, &ctx->honba, m);
  if (!strcmp(key, "kyoutaku")) return read_count(L, -1, key, &ctx->kyoutaku, m);
  if (!strcmp(key, "rules")) return read_rules(L, lua_gettop(L), &ctx->rules, m);
  return say(m, "unknown field '%s' in the context (see help(mahjong.score))",
             key);
}

static bool read_context(lua_State *L, int idx, mj_context *ctx, message *m) {
  mj_default_context(ctx);
  if (lua_isnoneornil(L, idx)) return true;
  luaL_checktype(L, idx, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    int top = lua_gettop(L);
    size_t len = 0;
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len)
                                                     : NULL;
    bool ok = key ? read_field(L, key, len, ctx, m)
                  : say(m, "context keys are names (got %s)",
                        luaL_tolstring(L, -2, NULL));
    lua_settop(L, top - (ok ? 1 : 2));
    if (!ok) return false;
  }
  return true;
}

/* ---- scores ---- */

static void set_int(lua_State *L, const char *key, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, key);
}

static void push_score(lua_State *L, const mj_score *s, const mj_context *ctx) {
  lua_createtable(L, 0, 12);
  set_int(L, "han", s->han);
  set_int(L, "fu", s->fu);
  set_int(L, "yakuman", s->yakuman);
  lua_createtable(L, s->nyaku, 0);
  for (int i = 0; i < s->nyaku; i++) {
    lua_createtable(L, 0, 3);
    lua_pushstring(L, mj_yaku_name(s->yaku[i].yaku));
    lua_setfield(L, -2, "name");
    lua_pushstring(L, mj_yaku_name_ja(s->yaku[i].yaku));
    lua_setfield(L, -2, "name_ja");
    set_int(L, "han", s->yaku[i].han);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "yaku");
  lua_createtable(L, 0, 3);
  if (!s->tsumo) {
    set_int(L, "ron", s->ron);
  } else if (s->dealer) {
    set_int(L, "tsumo_all", s->tsumo_all);
  } else {
    set_int(L, "tsumo_dealer", s->tsumo_dealer);
    set_int(L, "tsumo_other", s->tsumo_other);
  }
  set_int(L, "total", s->total);
  lua_setfield(L, -2, "points");
  set_int(L, "basic", s->basic);
  if (mj_limit_name(s->limit)) {
    lua_pushstring(L, mj_limit_name(s->limit));
    lua_setfield(L, -2, "limit");
  }
  push_reading(L, &s->reading, ctx->meld, ctx->nmelds);
  lua_setfield(L, -2, "decomposition");
  push_tile(L, s->win, false);
  lua_setfield(L, -2, "win");
  lua_pushstring(L, mj_wait_name(s->wait));
  lua_setfield(L, -2, "wait");
  lua_pushboolean(L, s->dealer);
  lua_setfield(L, -2, "dealer");
  lua_createtable(L, s->nfu, 0);
  for (int i = 0; i < s->nfu; i++) {
    char reason[64];
    mj_fu_reason_text(&s->fu_item[i], s, reason, sizeof reason);
    lua_createtable(L, 0, 2);
    set_int(L, "fu", s->fu_item[i].fu);
    lua_pushstring(L, reason);
    lua_setfield(L, -2, "reason");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "fu_details");
  luaL_setmetatable(L, SCORE_TYPE);
}

/* score(hand, ctx) -> {han, fu, yaku, yakuman, points, limit, ...}, or
   nil, "mahjong: no yaku" / "mahjong: not a winning hand" / what is
   wrong */
static int mahjong_score(lua_State *L) {
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  mj_context ctx;
  message m;
  if (!read_context(L, 2, &ctx, &m)) return fail(L, &m);
  mj_tiles hand;
  if (!read_tiles(text, len, &hand, &m)) return fail(L, &m);
  mj_score s;
  mj_status st = mj_score_hand(&hand, &ctx, &s);
  if (st != MJ_SCORED) {
    mj_status_message(st, &hand, &ctx, m.text);
    return fail(L, &m);
  }
  push_score(L, &s, &ctx);
  return 1;
}

/* Appends to a score sheet being written. */
static void sheet_add(char *sheet, size_t size, const char *fmt, ...) {
  size_t len = strlen(sheet);
  va_list args;
  va_start(args, fmt);
  if (len < size) vsnprintf(sheet + len, size - len, fmt, args);
  va_end(args);
}

/* The integer field key of the table at idx; 0 when absent. */
static int int_field(lua_State *L, int idx, const char *key, bool *present) {
  lua_getfield(L, idx, key);
  if (present) *present = !lua_isnil(L, -1);
  int v = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return v;
}

/* A score as a score sheet: yaku and han, fu, points. */
static int score_tostring(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  char sheet[2048] = "";
  lua_getfield(L, 1, "yaku");
  for (lua_Integer i = 1; i <= luaL_len(L, -1); i++) {
    lua_geti(L, -1, i);
    lua_getfield(L, -1, "name");
    lua_getfield(L, -2, "name_ja");
    const char *name = lua_tostring(L, -2), *name_ja = lua_tostring(L, -1);
    sheet_add(sheet, sizeof sheet, "%-20s %3d han  %s\n", name ? name : "?",
              int_field(L, -3, "han", NULL), name_ja ? name_ja : "");
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  sheet_add(sheet, sizeof sheet, "%d fu:", int_field(L, 1, "fu", NULL));
  lua_getfield(L, 1, "fu_details");
  for (lua_Integer i = 1; i <= luaL_len(L, -1); i++) {
    lua_geti(L, -1, i);
    lua_getfield(L, -1, "reason");
    const char *reason = lua_tostring(L, -1);
    sheet_add(sheet, sizeof sheet, "%s %s %d", i > 1 ? "," : "",
              reason ? reason : "?", int_field(L, -2, "fu", NULL));
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "limit");
  const char *limit = lua_tostring(L, -1);
  sheet_add(sheet, sizeof sheet, "\n%d han %d fu%s%s: ",
            int_field(L, 1, "han", NULL), int_field(L, 1, "fu", NULL),
            limit ? ", " : "", limit ? limit : "");
  lua_pop(L, 1);
  lua_getfield(L, 1, "points");
  bool ron, all;
  int paid = int_field(L, -1, "ron", &ron);
  int each = int_field(L, -1, "tsumo_all", &all);
  if (ron)
    sheet_add(sheet, sizeof sheet, "ron %d", paid);
  else if (all)
    sheet_add(sheet, sizeof sheet, "tsumo %d all", each);
  else
    sheet_add(sheet, sizeof sheet, "tsumo %d/%d",
              int_field(L, -1, "tsumo_other", NULL),
              int_field(L, -1, "tsumo_dealer", NULL));
  sheet_add(sheet, sizeof sheet, ", total %d", int_field(L, -1, "total", NULL));
  lua_pushstring(L, sheet);
  return 1;
}


/* ---- Tenhou's logs ---- */

/* What a read holds while it builds its tables: freed by __gc or
   __close whatever happens, so an error (out of memory) frees it. */
typedef struct log_reader {
  char *data;
  size_t len;
  mj_log log;
} log_reader;

static int reader_free(lua_State *L) {
  log_reader *lr = luaL_checkudata(L, 1, "ludus.mahjong.logreader");
  free(lr->data);
  lr->data = NULL;
  mj_log_free(&lr->log);
  return 0;
}


static void push_ints(lua_State *L, const int *v, int n) {
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_pushinteger(L, v[i]);
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_tile_number(lua_State *L, const mj_round *r, int tile) {
  int k = mj_tile_kind(tile);
  bool red = tile % 4 == 0 && k < MJ_HONORS && k % 9 == 4 && r->rules.red[k / 9];
  push_tile(L, k, red);
}

static void push_hand(lua_State *L, const mj_round_seat *s) {
  char buf[64];
  mj_format(&s->hand, buf, sizeof buf);
  lua_pushstring(L, buf);
}

static void push_melds(lua_State *L, const mj_round *r, const mj_round_seat *s) {
  static const char *const kinds[] = {"chi", "pon", "kan", "ankan"};
  lua_createtable(L, s->nmelds, 0);
  for (int i = 0; i < s->nmelds; i++) {
    const mj_round_meld *m = &s->meld[i];
    mj_tiles t;
    mj_clear(&t);
    for (int j = 0; j < m->n; j++) {
      int k = mj_tile_kind(m->tiles[j]);
      t.count[k]++;
      t.n++;
      if (m->tiles[j] % 4 == 0 && k < MJ_HONORS && k % 9 == 4 && r->rules.red[k / 9])
        t.red[k / 9]++;
    }
    char buf[32];
    mj_format(&t, buf, sizeof buf);
    lua_pushfstring(L, "%s:%s", m->kind == MJ_KAN && m->added ? "shouminkan"
                                : kinds[m->kind], buf);
    lua_rawseti(L, -2, i + 1);
  }
}

static void push_win(lua_State *L, const mj_round *r, const mj_round_win *w) {
  lua_createtable(L, 0, 10);
  set_int(L, "who", w->who);
  set_int(L, "from", w->from);
  if (w->pao >= 0) set_int(L, "pao", w->pao);
  set_int(L, "han", w->score.han);
  set_int(L, "fu", w->score.fu);
  set_int(L, "yakuman", w->score.yakuman);
  push_ints(L, w->deltas, 4);
  lua_setfield(L, -2, "deltas");
  lua_createtable(L, w->score.nyaku, 0);
  for (int i = 0; i < w->score.nyaku; i++) {
    lua_pushstring(L, mj_yaku_name(w->score.yaku[i].yaku));
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "yaku");
  (void)r;
}

/* The replay hook: a table per step in the round's events, on the
   stack as: game, rounds, round, events. */
#define ROUNDS_AT 5

typedef struct replay_lua {
  lua_State *L;
} replay_lua;

static void replay_step(void *data, const mj_log *log, int round, int event,
                        const mj_round *r) {
  lua_State *L = ((replay_lua *)data)->L;
  const mj_log_round *lr = &log->rounds[round];
  if (event < 0) {                       /* a round starts */
    lua_settop(L, ROUNDS_AT);                /* the round before */
    lua_createtable(L, 0, 8);
    char name[4];
    mj_round_name(lr->round, name);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    set_int(L, "honba", lr->honba);
    set_int(L, "sticks", lr->sticks);
    push_ints(L, lr->scores, 4);
    lua_setfield(L, -2, "scores");
    lua_createtable(L, 4, 0);
    for (int s = 0; s < 4; s++) {
      push_hand(L, &r->seat[s]);
      lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "hands");
    lua_pushvalue(L, -1);
    lua_rawseti(L, ROUNDS_AT, round + 1);
    lua_createtable(L, lr->nevents, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "events");
    return;
  }
  const mj_act *a = &log->events[lr->first_event + event].act;
  int seat = a->type == MJ_ACT_NINE_TERMINALS || a->type == MJ_ACT_PASS ? r->turn : a->seat;
  lua_createtable(L, 0, 6);
  lua_pushstring(L, mj_act_name(a->type));
  lua_setfield(L, -2, "type");
  set_int(L, "seat", seat);
  if (a->type == MJ_ACT_DRAW || a->type == MJ_ACT_DISCARD ||
      a->type == MJ_ACT_CHI || a->type == MJ_ACT_PON || a->type == MJ_ACT_KAN ||
      a->type == MJ_ACT_KAKAN) {
    int tile = a->type == MJ_ACT_DRAW ? r->seat[a->seat].drawn : a->tile;
    if (tile != MJ_NO_TILE) {
      push_tile_number(L, r, tile);
      lua_setfield(L, -2, "tile");
    }
  }
  if (a->riichi) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "riichi");
  }
  if (seat >= 0 && seat < 4) {
    push_hand(L, &r->seat[seat]);
    lua_setfield(L, -2, "hand");
    push_melds(L, r, &r->seat[seat]);
    lua_setfield(L, -2, "melds");
  }
  if (r->phase == MJ_PHASE_OVER) {
    const mj_round_result *res = &r->result;
    lua_createtable(L, 0, 4);
    lua_pushstring(L, mj_round_end_name(res->end));
    lua_setfield(L, -2, "end");
    push_ints(L, res->deltas, 4);
    lua_setfield(L, -2, "deltas");
    lua_createtable(L, res->nwins, 0);
    for (int i = 0; i < res->nwins; i++) {
      push_win(L, r, &res->win[i]);
      lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "wins");
    lua_setfield(L, -2, "result");
  }
  lua_rawseti(L, -2, (lua_Integer)luaL_len(L, -2) + 1);
}

/* One game, replayed, as a table at 4 (the stack is path, reader, the
   games, then this game and its rounds at ROUNDS_AT); false with the
   message on the top. */
static bool push_game(lua_State *L, log_reader *lr, size_t start, size_t end,
                      int number) {
  mj_log_error err;
  lua_settop(L, 3);
  if (!mj_log_read(&lr->log, lr->data + start, end - start, &err)) {
    char where[120];
    mj_log_where(&lr->log, &err, where, sizeof where);
    lua_pushfstring(L, "mahjong: game %d, %s: %s", number, where, err.text);
    return false;
  }
  lua_createtable(L, 0, 10);                              /* 4: the game */
  lua_pushstring(L, lr->log.format == MJ_LOG_MJLOG ? "mjlog" : "tenhou6");
  lua_setfield(L, 4, "format");
  lua_createtable(L, 4, 0);
  for (int s = 0; s < 4; s++) {
    lua_pushstring(L, lr->log.names[s]);
    lua_rawseti(L, -2, s + 1);
  }
  lua_setfield(L, 4, "names");
  lua_createtable(L, lr->log.nrounds, 0);                 /* 5: rounds */
  lua_pushvalue(L, ROUNDS_AT);
  lua_setfield(L, 4, "rounds");
  mj_replay out;
  replay_lua data = {L};
  bool ok = mj_replay_log(&lr->log, &out, replay_step, &data);
  lua_settop(L, 4);
  if (!ok) {
    char where[120];
    mj_log_where(&lr->log, &out.error, where, sizeof where);
    lua_pushfstring(L, "mahjong: game %d, %s: %s", number, where, out.error.text);
    return false;
  }
  set_int(L, "checks", out.checks);
  push_ints(L, out.scores, 4);
  lua_setfield(L, -2, "scores");
  push_ints(L, out.points, 4);
  lua_setfield(L, -2, "points");
  lua_createtable(L, out.nnotes, 0);
  for (int i = 0; i < out.nnotes; i++) {
    char where[120];
    mj_log_where(&lr->log, &out.notes[i], where, sizeof where);
    lua_pushfstring(L, "%s: %s", where, out.notes[i].text);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "disagreements");
  lua_pushboolean(L, out.disagreements == 0);
  lua_setfield(L, -2, "agrees");
  return true;
}

/* read(path) -> the games of a Tenhou log (mjlog or tenhou.net/6 JSON),
   each replayed; nil, message for a file that cannot be read or a game
   that cannot be played */
static int mahjong_read(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  lua_settop(L, 1);
  log_reader *lr = lua_newuserdatauv(L, sizeof *lr, 0);   /* 2 */
  memset(lr, 0, sizeof *lr);
  luaL_setmetatable(L, "ludus.mahjong.logreader");
  FILE *f = fopen(path, "rb");
  if (!f) {
    lua_pushnil(L);
    lua_pushfstring(L, "mahjong: cannot open '%s' (%s)", path, strerror(errno));
    return 2;
  }
  size_t cap = 1 << 16;
  lr->data = malloc(cap);
  while (lr->data) {
    lr->len += fread(lr->data + lr->len, 1, cap - lr->len, f);
    if (lr->len < cap || cap >= (size_t)1 << 30) break;
    char *more = realloc(lr->data, cap * 2);
    if (!more) { free(lr->data); lr->data = NULL; break; }
    lr->data = more;
    cap *= 2;
  }
  int failed = ferror(f) ? errno : 0;      /* a directory opens, and reads EISDIR */
  fclose(f);
  if (!lr->data) return luaL_error(L, "mahjong: not enough memory for '%s'", path);
  if (failed) {
    lua_pushnil(L);
    lua_pushfstring(L, "mahjong: cannot read '%s' (%s)", path, strerror(failed));
    return 2;
  }
  lua_newtable(L);                                       /* 3: the games */
  size_t at = 0, start, end;
  int number = 0;
  while (mj_log_next(lr->data, lr->len, &at, &start, &end)) {
    if (!push_game(L, lr, start, end, ++number)) {
      lua_pushnil(L);
      lua_insert(L, -2);
      return 2;
    }
    lua_rawseti(L, 3, number);
  }
  if (number == 0) {
    lua_pushnil(L);
    lua_pushfstring(L, "mahjong: no game in '%s'", path);
    return 2;
  }
  lua_settop(L, 3);
  return 1;
}

static const luaL_Reg functions[] = {
  {"tiles", mahjong_tiles},
  {"decompose", mahjong_decompose},
  {"shanten", mahjong_shanten},
  {"waits", mahjong_waits},
  {"discards", mahjong_discards},
  {"ranked_discards", mahjong_ranked_discards},
  {"score", mahjong_score},
  {"read", mahjong_read},
  {NULL, NULL}
};

int luaopen_ludus_mahjong(lua_State *L) {
  luaL_newlib(L, functions);
  lmahjong_open_table(L);
  luaL_newmetatable(L, SCORE_TYPE);
  lua_pushcfunction(L, score_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  luaL_newmetatable(L, "ludus.mahjong.logreader");
  lua_pushcfunction(L, reader_free);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, reader_free);
  lua_setfield(L, -2, "__close");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  return 1;
}
