/*
** lmahjong_table.c: `mahjong.table`, four players at one table
** (core/mahjong/table.h), and `mahjong.match` (scripts/ludus/
** mahjong_match.lua).  The table stops at each decision; this file turns
** it into questions for the seat's player (tsumo, kan, nine_terminals,
** riichi, discard; ron, call) and its answer back into one of the
** options, or an error that names the player and the question.
**
** A player sees the table through its view, a userdata made for its
** seat: its own hand, and what every seat may see (discards, melds,
** riichi, scores, dora indicators).  Nothing in a view reaches another
** hand or the wall, and a player never gets the table itself.  Players
** are called with lua_pcall, so an error, a yield or a call to play()
** from inside a player ends play() with a message and leaves the table
** at the question it asked: play() again asks it again.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"
#include "mahjong/table.h"

#define TABLE_TYPE "ludus.mahjong.table"
#define VIEW_TYPE "ludus.mahjong.view"
#define GAME_TYPE "ludus.mahjong.game"
#define GAMES_KEY "ludus.mahjong.games"   /* game -> its table, weak keys */

/* The strings a question uses most, made once and kept in a table in
   the registry (at the address of names_key): each tile's name (the 34
   kinds, then the red fives of m, p and s) and each question's.  A
   question pushes them from there instead of building them again. */
static const char names_key = 0;

enum {
  NAME_RED = MJ_KINDS + 1,    /* 35, 36, 37: 0m 0p 0s */
  NAME_QUESTION = MJ_KINDS + 4,
  NAMES = NAME_QUESTION + 7
};

enum { Q_TSUMO, Q_KAN, Q_NINE, Q_RIICHI, Q_DISCARD, Q_RON, Q_CALL };
enum { LIST_KINDS = 4 };      /* the questions with a list: kan, riichi,
                                 discard, call */
static const char *const question_names[] = {
  "tsumo", "kan", "nine_terminals", "riichi", "discard", "ron", "call"
};

/* The table's user values. */
enum { UV_PLAYERS = 1, UV_VIEWS, UV_NAMES, UV_COUNT = UV_NAMES };

typedef struct table {
  mj_table t;
  bool playing;
  bool done;
  int asking;                 /* the question a player is answering, or -1 */
  int listed[MJ_SEATS][LIST_KINDS];   /* the length of each list play()
                                         filled */
  const char *tile_names[NAMES];   /* the names' strings (kept by the
                                      registry): a player's answer is
                                      compared by address */
  uint8_t name_of[MJ_TILES];  /* each tile's name in the names (a red five
                                 under the table's rules: 0m 0p 0s) */
} table;

typedef struct view {
  table *table;               /* kept alive by the view's user value */
  int seat;
} view;

static table *check_table(lua_State *L, int idx) {
  return luaL_checkudata(L, idx, TABLE_TYPE);
}

static int table_gc(lua_State *L) {
  table *tb = check_table(L, 1);
  mj_table_free(&tb->t);
  return 0;
}

/* ---- names of tiles, melds and options ---- */

static void make_names(lua_State *L) {
  lua_createtable(L, NAMES, 0);
  for (int i = 1; i < NAME_QUESTION; i++) {
    char name[3];
    mj_tile_name(i < NAME_RED ? i - 1 : 9 * (i - NAME_RED) + 4, i >= NAME_RED, name);
    lua_pushstring(L, name);
    lua_rawseti(L, -2, i);
  }
  for (int q = 0; q < 7; q++) {
    lua_pushstring(L, question_names[q]);
    lua_rawseti(L, -2, NAME_QUESTION + q);
  }
  lua_rawsetp(L, LUA_REGISTRYINDEX, &names_key);
}

static void push_names(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &names_key);
}

static void tile_name(const mj_round *r, int tile, char buf[3]) {
  mj_tile_name(mj_tile_kind(tile), mj_round_red(r, tile), buf);
}

/* Pushes the name of tile from the names at index names. */
static void push_tile(lua_State *L, int names, const mj_round *r, int tile) {
  int k = mj_tile_kind(tile);
  lua_rawgeti(L, names, mj_round_red(r, tile) ? NAME_RED + k / 9 : k + 1);
}

/* "pon:550m", "chi:345p", "ankan:1111z": the tiles of a meld (of one
   suit) in ludus's form, in order, a red five before the other fives. */
static void meld_text(const mj_round *r, const char *kind, const uint8_t *tiles,
                      int n, char *buf, size_t size) {
  int key[4];                     /* 2 x kind, + 1 unless red */
  for (int i = 0; i < n; i++) {
    int k = 2 * mj_tile_kind(tiles[i]) + !mj_round_red(r, tiles[i]), j = i;
    for (; j > 0 && key[j - 1] > k; j--) key[j] = key[j - 1];
    key[j] = k;
  }
  size_t len = strlen(kind);
  if (len + (size_t)n + 3 > size) {
    if (size) buf[0] = '\0';
    return;
  }
  memcpy(buf, kind, len);
  buf[len++] = ':';
  for (int i = 0; i < n; i++)
    buf[len++] = key[i] & 1 ? (char)('1' + key[i] / 2 % 9) : '0';
  buf[len++] = "mpsz"[mj_tile_kind(tiles[0]) / 9];
  buf[len] = '\0';
}

/* The name of an option as a player sees it: a tile for a discard, a
   meld for a call or a kan. */
static void option_name(const mj_round *r, const mj_act *a, char *buf, size_t size) {
  uint8_t tiles[4];
  switch (a->type) {
  case MJ_ACT_DISCARD: tile_name(r, a->tile, buf); return;
  case MJ_ACT_CHI: case MJ_ACT_PON: case MJ_ACT_KAN: {
    int n = a->type == MJ_ACT_KAN ? 3 : 2;
    memcpy(tiles, a->tiles, (size_t)n);
    tiles[n] = a->tile;
    meld_text(r, a->type == MJ_ACT_CHI ? "chi" : a->type == MJ_ACT_PON ? "pon" : "kan",
              tiles, n + 1, buf, size);
    return;
  }
  case MJ_ACT_ANKAN: meld_text(r, "ankan", a->tiles, 4, buf, size); return;
  case MJ_ACT_KAKAN:
    for (int i = 0; i < 4; i++) tiles[i] = a->tile;
    meld_text(r, "kakan", tiles, 1, buf, size);
    {   /* the pon's tiles and the one added */
      const mj_round_seat *s = &r->seat[a->seat];
      for (int i = 0; i < s->nmelds; i++)
        if (s->meld[i].kind == MJ_PON &&
            mj_tile_kind(s->meld[i].tiles[0]) == mj_tile_kind(a->tile)) {
          memcpy(tiles, s->meld[i].tiles, 3);
          tiles[3] = a->tile;
          meld_text(r, "kakan", tiles, 4, buf, size);
        }
    }
    return;
  default: snprintf(buf, size, "%s", mj_act_name(a->type)); return;
  }
}

/* ---- views ---- */

static view *check_view(lua_State *L) {
  return luaL_checkudata(L, 1, VIEW_TYPE);
}

/* The seat an argument names (0..3), the view's own when absent. */
static int seat_arg(lua_State *L, const view *v, int arg) {
  if (lua_isnoneornil(L, arg)) return v->seat;
  lua_Integer s = luaL_checkinteger(L, arg);
  luaL_argcheck(L, s >= 0 && s < MJ_SEATS, arg, "a seat is 0, 1, 2 or 3");
  return (int)s;
}

static const mj_round *round_of(const view *v) { return &v->table->t.round; }

static int view_seat(lua_State *L) {
  lua_pushinteger(L, check_view(L)->seat);
  return 1;
}

/* hand() -> the seat's own concealed tiles, "123m055p..."; another
   seat's hand is refused */
static int view_hand(lua_State *L) {
  view *v = check_view(L);
  int seat = seat_arg(L, v, 2);
  if (seat != v->seat) {    /* the message alone: the player's error names the place */
    lua_pushfstring(L, "mahjong: seat %d may not see seat %d's hand", v->seat, seat);
    return lua_error(L);
  }
  char buf[64];
  mj_format(&round_of(v)->seat[seat].hand, buf, sizeof buf);
  lua_pushstring(L, buf);
  return 1;
}

/* drawn() -> the tile just drawn, or nil */
static int view_drawn(lua_State *L) {
  view *v = check_view(L);
  const mj_round *r = round_of(v);
  int tile = r->seat[v->seat].drawn;
  if (tile == MJ_NO_TILE) return 0;
  push_names(L);
  push_tile(L, -1, r, tile);
  return 1;
}

/* discards([seat]) -> the seat's discards in order (called ones too),
   and the place of its riichi discard in them, or nil */
static int view_discards(lua_State *L) {
  view *v = check_view(L);
  const mj_round *r = round_of(v);
  const mj_round_seat *s = &r->seat[seat_arg(L, v, 2)];
  push_names(L);
  lua_createtable(L, s->nriver, 0);
  int riichi = 0;
  for (int i = 0; i < s->nriver; i++) {
    push_tile(L, -2, r, s->river[i]);
    lua_rawseti(L, -2, i + 1);
    if (s->river_flags[i] & MJ_DISCARD_RIICHI) riichi = i + 1;
  }
  if (!riichi) return 1;
  lua_pushinteger(L, riichi);
  return 2;
}

/* melds([seat]) -> {"pon:555z", "chi:345m", "ankan:1111p", "kan:..."} */
static int view_melds(lua_State *L) {
  static const char *const kinds[] = {"chi", "pon", "kan", "ankan"};
  view *v = check_view(L);
  const mj_round *r = round_of(v);
  const mj_round_seat *s = &r->seat[seat_arg(L, v, 2)];
  lua_createtable(L, s->nmelds, 0);
  for (int i = 0; i < s->nmelds; i++) {
    char buf[40];
    const mj_round_meld *m = &s->meld[i];
    meld_text(r, m->kind == MJ_KAN && m->added ? "kakan" : kinds[m->kind],
              m->tiles, m->n, buf, sizeof buf);
    lua_pushstring(L, buf);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int view_riichi(lua_State *L) {
  view *v = check_view(L);
  const mj_round *r = round_of(v);
  int seat = seat_arg(L, v, 2);
  lua_pushboolean(L, r->seat[seat].riichi ||
                     (r->riichi_pending && r->turn == seat));
  return 1;
}

static int view_score(lua_State *L) {
  view *v = check_view(L);
  lua_pushinteger(L, round_of(v)->seat[seat_arg(L, v, 2)].score);
  return 1;
}

static int view_scores(lua_State *L) {
  view *v = check_view(L);
  lua_createtable(L, MJ_SEATS, 0);
  for (int s = 0; s < MJ_SEATS; s++) {
    lua_pushinteger(L, round_of(v)->seat[s].score);
    lua_rawseti(L, -2, s + 1);
  }
  return 1;
}

static int view_dora(lua_State *L) {
  view *v = check_view(L);
  const mj_round *r = round_of(v);
  push_names(L);
  lua_createtable(L, r->ndora, 0);
  for (int i = 0; i < r->ndora; i++) {
    push_tile(L, -2, r, r->dora[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int view_round(lua_State *L) {
  view *v = check_view(L);
  char name[4];
  mj_round_name(round_of(v)->round, name);
  lua_pushstring(L, name);
  return 1;
}

static int view_honba(lua_State *L) {
  lua_pushinteger(L, round_of(check_view(L))->honba);
  return 1;
}

static int view_sticks(lua_State *L) {
  lua_pushinteger(L, round_of(check_view(L))->sticks);
  return 1;
}

static int view_dealer(lua_State *L) {
  lua_pushinteger(L, round_of(check_view(L))->dealer);
  return 1;
}

/* left() -> tiles left to draw from the live wall */
static int view_left(lua_State *L) {
  lua_pushinteger(L, round_of(check_view(L))->live);
  return 1;
}

/* wind([seat]) -> the seat's wind, "E", "S", "W" or "N" */
static int view_wind(lua_State *L) {
  view *v = check_view(L);
  int w = mj_round_seat_wind(round_of(v), seat_arg(L, v, 2)) - MJ_EAST;
  lua_pushlstring(L, &"ESWN"[w], 1);
  return 1;
}

static int view_round_wind(lua_State *L) {
  view *v = check_view(L);
  int w = mj_round_wind(round_of(v)) - MJ_EAST;
  lua_pushlstring(L, &"ESWN"[w], 1);
  return 1;
}

static int view_tostring(lua_State *L) {
  view *v = check_view(L);
  lua_pushfstring(L, "mahjong view of seat %d", v->seat);
  return 1;
}

static const luaL_Reg view_methods[] = {
  {"seat", view_seat}, {"hand", view_hand}, {"drawn", view_drawn},
  {"discards", view_discards}, {"melds", view_melds}, {"riichi", view_riichi},
  {"score", view_score}, {"scores", view_scores}, {"dora", view_dora},
  {"round", view_round}, {"honba", view_honba}, {"sticks", view_sticks},
  {"dealer", view_dealer}, {"left", view_left}, {"wind", view_wind},
  {"round_wind", view_round_wind}, {NULL, NULL}
};

/* ---- asking the players ---- */

/* What play's loop keeps on its stack: the table, its user values,
   the names, the lists handed to the players (AT_LISTS + LIST_KINDS *
   seat + list_kind[q]), each seat's player and view, and each name (a
   tile's or a question's, AT_NAME - 1 + its index in the names), so
   that a question pushes them with lua_pushvalue. */
enum {
  AT_TABLE = 1, AT_PLAYERS, AT_VIEWS, AT_NAMES, AT_STRINGS,
  AT_LISTS, AT_PLAYER = AT_LISTS + LIST_KINDS * MJ_SEATS, AT_VIEW = AT_PLAYER + MJ_SEATS,
  AT_NAME = AT_VIEW + MJ_SEATS, AT_TOP = AT_NAME + NAMES - 2
};
static const signed char list_kind[] = {-1, 0, -1, 1, 2, -1, 3};   /* by question */

static int raise_player(lua_State *L, const table *tb, int seat, int q,
                        const char *what) {
  lua_geti(L, AT_NAMES, seat + 1);
  const char *name = lua_tostring(L, -1);
  return luaL_error(L, "mahjong: player %d (seat %d, '%s') %s %s", seat + 1, seat,
                    name ? name : "?", what, question_names[q]);
}

/* Pushes the start of a call of the seat's player on question q: its
   method, itself and its view (a table's), or itself, the question and
   the view (a function); the caller pushes the other arguments and
   calls answer().  false, with nothing pushed, for a method the player
   lacks (the default answer). */
static bool begin_ask(lua_State *L, table *tb, int seat, int q) {
  int player = AT_PLAYER + seat, question = AT_NAME + NAME_QUESTION - 1 + q;
  if (lua_type(L, player) == LUA_TTABLE) {
    lua_pushvalue(L, question);
    int type = lua_gettable(L, player);
    if (type == LUA_TNIL) {
      lua_pop(L, 1);
      return false;
    }
    if (type != LUA_TFUNCTION) {
      lua_pushfstring(L, "has a '%s' that is not a function (%s) for",
                      question_names[q], luaL_typename(L, -1));
      raise_player(L, tb, seat, q, lua_tostring(L, -1));
    }
    lua_pushvalue(L, player);               /* method, self */
  } else {
    lua_pushvalue(L, player);
    lua_pushvalue(L, question);
  }
  lua_pushvalue(L, AT_VIEW + seat);
  return true;
}

/* Calls the player begun by begin_ask with nargs more arguments, and
   leaves its answer.  An error in the player goes up as it is, with
   tb->asking set: table_play says whose it was. */
static void answer(lua_State *L, table *tb, int q, int nargs) {
  tb->asking = q;
  lua_call(L, 2 + nargs, 1);
  tb->asking = -1;
}

/* A yes-or-no question (with the open tile and its seat when open);
   nil, or no method, gives the default. */
static bool ask_yes(lua_State *L, table *tb, int seat, int q, bool open, bool fallback) {
  if (!begin_ask(L, tb, seat, q)) return fallback;
  const mj_round *r = &tb->t.round;
  if (open) {
    lua_pushvalue(L, AT_NAME - 1 + tb->name_of[r->open_tile]);
    lua_pushinteger(L, r->turn);
  }
  answer(L, tb, q, open ? 2 : 0);
  bool yes = lua_isnil(L, -1) ? fallback : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return yes;
}

/* Pushes the name of an option: a discard's tile from the names, a
   call's or kan's meld made for it.  Returns its string (Lua's own: a
   short string is interned, so an answer taken from the list is that
   very string). */
static const char *push_option(lua_State *L, const table *tb, const mj_act *a) {
  const mj_round *r = &tb->t.round;
  if (a->type == MJ_ACT_DISCARD) {
    int i = tb->name_of[a->tile];
    lua_pushvalue(L, AT_NAME - 1 + i);
    return tb->tile_names[i];
  }
  char name[40];
  option_name(r, a, name, sizeof name);
  return lua_pushstring(L, name);
}

/* Fills the seat's list for question q with the names of the options
   first..first+n-1 (their strings in interned), and
   pushes it.  A list is made once a play() for each seat and question
   and filled again at each (a fresh list each question was a quarter
   of play()'s instructions, most of it the garbage collector's): a
   player that keeps one sees it change at its next question.  Whatever
   the player did to it, it holds the options alone: the old ones past
   n are cleared, and a list with another key left (or a metatable) is
   replaced by a fresh one. */
static void fill_list(lua_State *L, table *tb, int seat, int q, int first, int n,
                      const char **interned) {
  int slot = AT_LISTS + LIST_KINDS * seat + list_kind[q];
  int *listed = &tb->listed[seat][list_kind[q]];
  for (;;) {
    bool fresh = lua_isnil(L, slot);
    if (!fresh && lua_getmetatable(L, slot)) {
      lua_pop(L, 1);
      fresh = true;
    }
    if (fresh) {
      lua_createtable(L, n > 16 ? n : 16, 0);
      lua_replace(L, slot);
      *listed = 0;
    }
    for (int i = 0; i < n; i++) {
      interned[i] = push_option(L, tb, &tb->t.options[first + i]);
      lua_rawseti(L, slot, i + 1);
    }
    for (int i = n + 1; i <= *listed; i++) {
      lua_pushnil(L);
      lua_rawseti(L, slot, i);
    }
    *listed = n;
    if (n) lua_pushinteger(L, n);          /* a key after the options? */
    else lua_pushnil(L);
    if (!lua_next(L, slot)) break;
    lua_pop(L, 2);
    lua_pushnil(L);
    lua_replace(L, slot);
  }
  lua_pushvalue(L, slot);
}

/* Asks which of the options first..first+n-1 (by name) the player picks
   (with the open tile and its seat when open); returns the option, or
   -1 for nil or false when a refusal is allowed. */
static int pick(lua_State *L, table *tb, int seat, int q, int first, int n,
                bool may_refuse, bool open) {
  const mj_round *r = &tb->t.round;
  const char *interned[MJ_MAX_OPTIONS];
  if (begin_ask(L, tb, seat, q)) {
    fill_list(L, tb, seat, q, first, n, interned);
    if (open) {
      lua_pushvalue(L, AT_NAME - 1 + tb->name_of[r->open_tile]);
      lua_pushinteger(L, r->turn);
    }
    answer(L, tb, q, open ? 3 : 1);
  } else {
    lua_pushnil(L);
  }
  int type = lua_type(L, -1);
  if ((type == LUA_TNIL || (type == LUA_TBOOLEAN && !lua_toboolean(L, -1))) && may_refuse) {
    lua_pop(L, 1);
    return -1;
  }
  char name[40], shown[40 + 4];
  if (type == LUA_TSTRING) {
    /* short strings are interned: a name taken from the list is the
       very string pushed there */
    size_t len;
    const char *chosen = lua_tolstring(L, -1, &len);
    for (int i = 0; i < n; i++)
      if (chosen == interned[i]) {
        lua_pop(L, 1);
        return first + i;
      }
    for (int i = 0; i < n; i++) {   /* the whole string: "4m\0x" is not 4m */
      option_name(r, &tb->t.options[first + i], name, sizeof name);
      if (strlen(name) == len && !memcmp(chosen, name, len)) {
        lua_pop(L, 1);
        return first + i;
      }
    }
    mj_shown(chosen, len, 40, shown);
  }
  lua_pushfstring(L, "answered %s%s%s (not one of:", type == LUA_TSTRING ? "'" : "",
                  type == LUA_TSTRING ? shown : luaL_typename(L, -1),
                  type == LUA_TSTRING ? "'" : "");
  for (int i = 0; i < n; i++) {
    option_name(r, &tb->t.options[first + i], name, sizeof name);
    lua_pushfstring(L, " %s", name);
  }
  lua_pushstring(L, may_refuse ? "; or nil) to" : ") to");
  lua_concat(L, n + 2);
  return raise_player(L, tb, seat, q, lua_tostring(L, -1));
}

/* The options of type from i on (riichi: discards with riichi or
   without), as round.h lists them: each kind together. */
static int run_of(const mj_table *t, int i, int type, int riichi) {
  int n = 0;
  while (i + n < t->noptions && t->options[i + n].type == type &&
         (riichi < 0 || t->options[i + n].riichi == riichi))
    n++;
  return n;
}

static int out_of_order(lua_State *L) {
  return luaL_error(L, "mahjong: the table listed its options out of order");
}

/* The seat's own turn: tsumo, kan, nine terminals, riichi, discard
   (listed as tsumo, the discards, the riichi discards, the kans, nine
   terminals). */
static int turn(lua_State *L, table *tb) {
  const mj_table *t = &tb->t;
  int seat = t->seat, i = 0;
  int tsumo = run_of(t, i, MJ_ACT_TSUMO, -1) ? i++ : -1;
  int discards = i, ndiscards = run_of(t, i, MJ_ACT_DISCARD, 0);
  int riichi = i += ndiscards, nriichi = run_of(t, i, MJ_ACT_DISCARD, 1);
  int kans = i += nriichi, nkans = run_of(t, i, MJ_ACT_ANKAN, -1);
  nkans += run_of(t, i + nkans, MJ_ACT_KAKAN, -1);
  i += nkans;
  int nine = run_of(t, i, MJ_ACT_NINE_TERMINALS, -1) ? i++ : -1;
  if (i != t->noptions) return out_of_order(L);
  if (tsumo >= 0 && ask_yes(L, tb, seat, Q_TSUMO, false, true)) return tsumo;
  if (nkans) {
    int k = pick(L, tb, seat, Q_KAN, kans, nkans, true, false);
    if (k >= 0) return k;
  }
  if (nine >= 0 && ask_yes(L, tb, seat, Q_NINE, false, false)) return nine;
  if (nriichi) {
    int k = pick(L, tb, seat, Q_RIICHI, riichi, nriichi, true, false);
    if (k >= 0) return k;
  }
  if (ndiscards == 1) return discards;
  return pick(L, tb, seat, Q_DISCARD, discards, ndiscards, false, false);
}

/* An open tile: ron, then a call (pon, kan, chi) or a pass (listed as
   ron, then the calls). */
static int claim(lua_State *L, table *tb) {
  const mj_table *t = &tb->t;
  int seat = t->seat, ron = run_of(t, 0, MJ_ACT_RON, -1) ? 0 : -1, calls = ron + 1;
  for (int i = calls; i < t->noptions; i++)
    if (t->options[i].type == MJ_ACT_RON) return out_of_order(L);
  if (ron >= 0 && ask_yes(L, tb, seat, Q_RON, true, true)) return ron;
  if (calls == t->noptions) return -1;
  return pick(L, tb, seat, Q_CALL, calls, t->noptions - calls, true, true);
}

/* The game as a table: scores, places, points and each round. */
static void push_game(lua_State *L, const table *tb) {
  const mj_record *rec = &tb->t.record;
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, (lua_Integer)tb->t.seed);
  lua_setfield(L, -2, "seed");
  lua_pushvalue(L, AT_NAMES);
  lua_setfield(L, -2, "names");
  static const char *const keys[] = {"scores", "places", "points"};
  for (int k = 0; k < 3; k++) {
    lua_createtable(L, MJ_SEATS, 0);
    for (int s = 0; s < MJ_SEATS; s++) {
      if (k == 0) lua_pushinteger(L, rec->scores[s]);
      else if (k == 1) lua_pushinteger(L, rec->place[s] + 1);
      else lua_pushinteger(L, rec->points[s]);
      lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, keys[k]);
  }
  lua_createtable(L, rec->nrounds, 0);
  for (int i = 0; i < rec->nrounds; i++) {
    const mj_record_round *rr = &rec->rounds[i];
    lua_createtable(L, 0, 6);
    char name[4];
    mj_round_name(rr->setup.round, name);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, rr->setup.honba);
    lua_setfield(L, -2, "honba");
    lua_pushstring(L, mj_round_end_name(rr->result.end));
    lua_setfield(L, -2, "end");
    lua_createtable(L, MJ_SEATS, 0);
    for (int s = 0; s < MJ_SEATS; s++) {
      lua_pushinteger(L, rr->result.deltas[s]);
      lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "deltas");
    lua_createtable(L, rr->result.nwins, 0);
    for (int w = 0; w < rr->result.nwins; w++) {
      const mj_round_win *win = &rr->result.win[w];
      lua_createtable(L, 0, 5);
      lua_pushinteger(L, win->who);
      lua_setfield(L, -2, "who");
      lua_pushinteger(L, win->from);
      lua_setfield(L, -2, "from");
      lua_pushinteger(L, win->score.han);
      lua_setfield(L, -2, "han");
      lua_pushinteger(L, win->score.fu);
      lua_setfield(L, -2, "fu");
      lua_pushinteger(L, win->deltas[win->who]);
      lua_setfield(L, -2, "points");
      lua_rawseti(L, -2, w + 1);
    }
    lua_setfield(L, -2, "wins");
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "rounds");
  lua_getfield(L, LUA_REGISTRYINDEX, GAMES_KEY);   /* the record is the table's */
  lua_pushvalue(L, -2);
  lua_pushvalue(L, AT_TABLE);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  luaL_setmetatable(L, GAME_TYPE);
}

/* The loop of play(), run protected: the table, then its user values. */
static int play_loop(lua_State *L) {
  table *tb = lua_touserdata(L, 1);
  for (int i = UV_PLAYERS; i <= UV_COUNT; i++) lua_getiuservalue(L, 1, i);
  push_names(L);
  luaL_checkstack(L, AT_TOP + 2 * LUA_MINSTACK, NULL);
  lua_settop(L, AT_PLAYER - 1);            /* no lists yet */
  for (int s = 0; s < MJ_SEATS; s++) lua_rawgeti(L, AT_PLAYERS, s + 1);
  for (int s = 0; s < MJ_SEATS; s++) lua_rawgeti(L, AT_VIEWS, s + 1);
  for (int i = 1; i < NAMES; i++) lua_rawgeti(L, AT_STRINGS, i);
  while (mj_table_next(&tb->t)) {
    int choice = tb->t.ask == MJ_ASK_TURN ? turn(L, tb) : claim(L, tb);
    lua_settop(L, AT_TOP);
    if (!mj_table_choose(&tb->t, choice))
      return luaL_error(L, "mahjong: the table could not play that (out of memory?)");
  }
  if (!tb->t.record.over) return luaL_error(L, "mahjong: not enough memory to play on");
  tb->done = true;
  push_game(L, tb);
  return 1;
}

/* t:play() -> the finished game: {scores=, places=, points=, rounds=,
   names=, seed=} with game:save([path]) for its record */
static int table_play(lua_State *L) {
  table *tb = check_table(L, 1);
  if (tb->playing)
    return luaL_error(L, "mahjong: the table is playing already (a player may not "
                      "call play)");
  if (tb->done) return luaL_error(L, "mahjong: this table's game is over (make a new table)");
  lua_settop(L, 1);
  lua_pushcfunction(L, play_loop);
  lua_pushvalue(L, 1);
  tb->playing = true;
  tb->asking = -1;
  int status = lua_pcall(L, 1, 1, 0);
  tb->playing = false;
  if (status == LUA_OK) return 1;
  if (tb->asking >= 0) {                  /* the player failed */
    int q = tb->asking, seat = tb->t.seat;
    tb->asking = -1;
    const char *msg = lua_tostring(L, -1);
    lua_getiuservalue(L, 1, UV_NAMES);
    lua_geti(L, -1, seat + 1);
    const char *name = lua_tostring(L, -1);
    return luaL_error(L, "mahjong: player %d (seat %d, '%s') failed (%s) at %s", seat + 1,
                      seat, name ? name : "?", msg ? msg : luaL_typename(L, -3),
                      question_names[q]);
  }
  return lua_error(L);
}

static int table_seed(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)check_table(L, 1)->t.seed);
  return 1;
}

static int table_tostring(lua_State *L) {
  table *tb = check_table(L, 1);
  char name[4];
  mj_round_name(tb->t.game.round, name);
  lua_pushfstring(L, "mahjong table (seed %I, %s%s)", (lua_Integer)tb->t.seed,
                  tb->done ? "over" : "at ", tb->done ? "" : name);
  return 1;
}

static const luaL_Reg table_methods[] = {
  {"play", table_play}, {"seed", table_seed}, {NULL, NULL}
};

/* ---- making a table ---- */

static void read_flag(lua_State *L, int idx, const char *key, bool *out) {
  lua_getfield(L, idx, key);
  if (!lua_isnil(L, -1)) {
    if (!lua_isboolean(L, -1))
      luaL_error(L, "mahjong.table: rule '%s' must be true or false (got %s)", key,
                 luaL_typename(L, -1));
    *out = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
}

static void read_number(lua_State *L, int idx, const char *key, int *out, int lo,
                        int hi) {
  lua_getfield(L, idx, key);
  if (!lua_isnil(L, -1)) {
    int isint;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || v < lo || v > hi)
      luaL_error(L, "mahjong.table: rule '%s' must be a whole number from %d to %d",
                 key, lo, hi);
    *out = (int)v;
  }
  lua_pop(L, 1);
}

static const char *const round_rule_names[] = {
  "red", "double_ron", "triple_ron_draw", "nagashi", "abortive", "kuikae",
  "extra_rounds", "bust", "dealer_stop", "tenhou_rounding", "start_points",
  "target", "uma", NULL
};

static void read_rules(lua_State *L, int idx, mj_round_rules *rules) {
  if (lua_isnil(L, idx)) return;
  if (!lua_istable(L, idx))
    luaL_error(L, "mahjong.table: rules must be a table (got %s)", luaL_typename(L, idx));
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    /* the flags by name, the scoring's too but "aka" (the round counts its
       red fives as dora when the wall has them: rule "red") */
    bool *flag = key ? mj_round_rules_flag(rules, key, strlen(key)) : NULL;
    bool known = flag != NULL;
    for (int i = 0; key && round_rule_names[i] && !known; i++)
      known = !strcmp(key, round_rule_names[i]);
    if (!known)
      luaL_error(L, "mahjong.table: unknown rule '%s' (rules: red, double_ron, "
                 "triple_ron_draw, nagashi, abortive, kuikae, extra_rounds, bust, "
                 "dealer_stop, tenhou_rounding, start_points, target, uma, kuitan, "
                 "kiriage, double_yakuman, kazoe, open_pinfu_fu)",
                 key ? key : luaL_typename(L, -2));
    if (flag) {
      if (!lua_isboolean(L, -1))
        luaL_error(L, "mahjong.table: rule '%s' must be true or false (got %s)", key,
                   luaL_typename(L, -1));
      *flag = lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
  }
  bool red = rules->red[0];
  read_flag(L, idx, "red", &red);
  rules->red[0] = rules->red[1] = rules->red[2] = red;
  read_flag(L, idx, "double_ron", &rules->double_ron);
  read_flag(L, idx, "triple_ron_draw", &rules->triple_ron_draw);
  read_flag(L, idx, "nagashi", &rules->nagashi);
  read_flag(L, idx, "abortive", &rules->abortive);
  read_flag(L, idx, "kuikae", &rules->kuikae);
  read_flag(L, idx, "extra_rounds", &rules->extra_rounds);
  read_flag(L, idx, "bust", &rules->bust);
  read_flag(L, idx, "dealer_stop", &rules->dealer_stop);
  read_flag(L, idx, "tenhou_rounding", &rules->tenhou_rounding);
  read_number(L, idx, "start_points", &rules->start_points, 1000, 1000000);
  read_number(L, idx, "target", &rules->target, 0, 1000000);
  lua_getfield(L, idx, "uma");
  if (!lua_isnil(L, -1)) {
    bool ok = lua_istable(L, -1) && luaL_len(L, -1) == 4;
    for (int i = 0; ok && i < 4; i++) {
      lua_geti(L, -1, i + 1);
      int isint;
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      ok = isint && v > -1000000 && v < 1000000 && v % 100 == 0;
      rules->uma[i] = (int)v;
      lua_pop(L, 1);
    }
    if (!ok)
      luaL_error(L, "mahjong.table: rule 'uma' must be four whole hundreds of points "
                 "like {20000, 10000, -10000, -20000}");
  }
  lua_pop(L, 1);
}

/* The players at arg: four functions or tables with a discard method;
   copied to a list only the table holds, with their names. */
static void read_players(lua_State *L, int arg) {
  if (!lua_istable(L, arg) || luaL_len(L, arg) != 4)
    luaL_error(L, "mahjong.table: players must be a list of four players (got %s)",
               lua_istable(L, arg) ? "a list of another length" : luaL_typename(L, arg));
  lua_createtable(L, 4, 0);
  int players = lua_gettop(L);
  lua_createtable(L, 4, 0);
  for (int s = 0; s < 4; s++) {
    lua_geti(L, arg, s + 1);
    int type = lua_type(L, -1);
    bool ok = type == LUA_TFUNCTION;
    const char *name = NULL;
    if (type == LUA_TTABLE) {
      lua_getfield(L, -1, "discard");
      ok = lua_type(L, -1) == LUA_TFUNCTION;
      lua_getfield(L, -2, "name");
      if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1);
      lua_pushstring(L, name ? name : "");
      lua_replace(L, -3);
      lua_pop(L, 1);                          /* the name string stays */
    } else {
      lua_pushliteral(L, "");
    }
    if (!ok)
      luaL_error(L, "mahjong.table: player %d must be a function or a table with a "
                 "discard method (got %s)", s + 1, luaL_typename(L, -2));
    if (!*lua_tostring(L, -1)) {
      lua_pop(L, 1);
      lua_pushfstring(L, "player %d", s + 1);
    }
    lua_rawseti(L, players + 1, s + 1);       /* the name */
    lua_rawseti(L, players, s + 1);           /* the player */
  }
}

/* table{players={a, b, c, d}, seed=, rounds="south"|"east", rules=} */
static int mahjong_table(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  /* a field misspelt (round = "east") would play another game in silence */
  static const char *const fields[] = {"players", "seed", "rounds", "rules", NULL};
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int i = 0;
    while (key && fields[i] && strcmp(key, fields[i])) i++;
    if (!key || !fields[i])
      return luaL_error(L, "mahjong.table: unknown field %s%s%s (fields: players, "
                        "seed, rounds, rules)", key ? "'" : "",
                        key ? key : luaL_typename(L, -1), key ? "'" : "");
  }
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  lua_getfield(L, 1, "rules");                          /* 2 */
  read_rules(L, 2, &rules);
  static const char *const lengths[] = {"east", "south", NULL};
  lua_getfield(L, 1, "rounds");                         /* 3 */
  if (!lua_isnil(L, 3)) {
    const char *s = lua_tostring(L, 3);
    int i = 0;
    while (lengths[i] && (!s || lua_type(L, 3) != LUA_TSTRING || strcmp(s, lengths[i]))) i++;
    if (!lengths[i])
      return luaL_error(L, "mahjong.table: rounds must be \"east\" or \"south\" (got %s)",
                        s && lua_type(L, 3) == LUA_TSTRING ? s : luaL_typename(L, 3));
    rules.length = i + 1;
  }
  lua_getfield(L, 1, "seed");                           /* 4 */
  uint64_t seed;
  if (lua_isnil(L, 4)) {
    seed = ludus_fresh_seed();
  } else {
    int isint;
    lua_Integer v = lua_tointegerx(L, 4, &isint);
    if (!isint || lua_type(L, 4) != LUA_TNUMBER)
      return luaL_error(L, "mahjong.table: seed must be an integer (got %s)",
                        luaL_typename(L, 4));
    seed = (uint64_t)v;
  }
  lua_getfield(L, 1, "players");                        /* 5 */
  read_players(L, 5);                                   /* 6 players, 7 names */
  table *tb = lua_newuserdatauv(L, sizeof *tb, UV_COUNT);   /* 8 */
  memset(tb, 0, sizeof *tb);
  mj_table_init(&tb->t, &rules, seed);
  tb->asking = -1;
  push_names(L);
  for (int i = 1; i < NAMES; i++) {
    lua_rawgeti(L, -1, i);
    tb->tile_names[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  for (int tile = 0; tile < MJ_TILES; tile++) {   /* red as mj_round_red says */
    int k = mj_tile_kind(tile);
    bool red = tile % 4 == 0 && k < MJ_HONORS && k % 9 == 4 && rules.red[k / 9];
    tb->name_of[tile] = (uint8_t)(red ? NAME_RED + k / 9 : k + 1);
  }
  luaL_setmetatable(L, TABLE_TYPE);
  lua_pushvalue(L, 6);
  lua_setiuservalue(L, 8, UV_PLAYERS);
  lua_createtable(L, 4, 0);
  for (int s = 0; s < 4; s++) {
    view *v = lua_newuserdatauv(L, sizeof *v, 1);
    v->table = tb;
    v->seat = s;
    luaL_setmetatable(L, VIEW_TYPE);
    lua_pushvalue(L, 8);
    lua_setiuservalue(L, -2, 1);
    lua_rawseti(L, -2, s + 1);
  }
  lua_setiuservalue(L, 8, UV_VIEWS);
  lua_pushvalue(L, 7);
  lua_setiuservalue(L, 8, UV_NAMES);
  return 1;
}

/* ---- the finished game ---- */

/* game:save([path]) -> the record (tenhou.net/6 JSON); with a path,
   written there, and true */
static int game_save(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  lua_getfield(L, LUA_REGISTRYINDEX, GAMES_KEY);
  lua_pushvalue(L, 1);
  lua_rawget(L, -2);                                    /* 4: the table */
  table *tb = luaL_testudata(L, 4, TABLE_TYPE);
  if (!tb) return luaL_error(L, "mahjong: save needs a game that a table played");
  lua_getiuservalue(L, 4, UV_NAMES);                    /* 5 */
  const char *names[MJ_SEATS];
  for (int s = 0; s < MJ_SEATS; s++) {
    lua_geti(L, 5, s + 1);
    names[s] = lua_tostring(L, -1);       /* held by the names table */
    lua_pop(L, 1);
  }
  size_t len;
  char *text = mj_record_json(&tb->t.record, names, &len);
  if (!text) return luaL_error(L, "mahjong: not enough memory for the record");
  lua_pushlstring(L, text, len);
  free(text);
  const char *json = lua_tostring(L, -1);
  if (lua_isnoneornil(L, 2)) return 1;
  const char *path = luaL_checkstring(L, 2);
  FILE *f = fopen(path, "wb");
  if (!f) {
    lua_pushnil(L);
    lua_pushfstring(L, "mahjong: cannot write '%s' (%s)", path, strerror(errno));
    return 2;
  }
  bool ok = fwrite(json, 1, len, f) == len;
  int failed = ok ? 0 : errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    failed = errno;
  }
  if (!ok) {
    lua_pushnil(L);
    lua_pushfstring(L, "mahjong: cannot write '%s' (%s)", path, strerror(failed));
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

static int game_tostring(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_getfield(L, 1, "names");                  /* 2 */
  lua_getfield(L, 1, "scores");                 /* 3 */
  lua_getfield(L, 1, "places");                 /* 4 */
  lua_pushliteral(L, "mahjong game:");
  for (int s = 1; s <= 4; s++) {
    const char *text[3];
    for (int i = 0; i < 3; i++) {
      lua_geti(L, 2 + i, s);
      text[i] = luaL_tolstring(L, -1, NULL);
    }
    lua_pushfstring(L, " %s %s (%s)%s", text[0], text[1], text[2], s < 4 ? "," : "");
    lua_replace(L, 6);
    lua_settop(L, 6);
    lua_concat(L, 2);
  }
  return 1;
}

/* match{players=, games=, seed=, rounds=, rules=}: scripts/ludus/
   mahjong_match.lua */
static int mahjong_match(lua_State *L) {
  lua_settop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "ludus.mahjong_match");
  lua_call(L, 1, 1);
  lua_insert(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

void lmahjong_open_table(lua_State *L) {
  make_names(L);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, GAMES_KEY);
  lua_pushcfunction(L, mahjong_table);
  lua_setfield(L, -2, "table");
  lua_pushcfunction(L, mahjong_match);
  lua_setfield(L, -2, "match");
  luaL_newmetatable(L, TABLE_TYPE);
  luaL_newlib(L, table_methods);
  ludus_strict_methods(L, -1, "mahjong table", NULL);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, table_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, table_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  luaL_newmetatable(L, VIEW_TYPE);
  luaL_newlib(L, view_methods);
  ludus_strict_methods(L, -1, "mahjong view", NULL);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, view_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  luaL_newmetatable(L, GAME_TYPE);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, game_save);
  lua_setfield(L, -2, "save");
  ludus_strict_methods(L, -1, "mahjong game", "seed names scores places points rounds");
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, game_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
}
