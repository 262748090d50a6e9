/*
** lmnk.c: ludus.mnk and ludus.gomoku, the m,n,k-game in C
** (core/mnk/mnk.h) under its two usual names.
*/
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lgame.h"
#include "ludus.h"
#include "mnk/mnk.h"

/* An integer option of the table at arg, def when absent. */
static int int_option(lua_State *L, int arg, const char *key, int def,
                      const char *where) {
  int type = lua_getfield(L, arg, key);
  int value = def;
  if (type != LUA_TNIL) {
    int isint;
    lua_Integer v = lua_tointegerx(L, -1, &isint);
    if (!isint || v < 1 || v > 99)
      luaL_error(L, "%s: option '%s' must be a whole number from 1 to %d "
                 "(got %s)", where, key, MNK_MAX_SIDE, luaL_tolstring(L, -1, NULL));
    value = (int)v;
  }
  lua_pop(L, 1);
  return value;
}

/* Reads the options at arg (a table or nothing) into an empty board;
   fn ("new", "load") names the function in the messages. */
static void board_from_options(lua_State *L, int arg, const game_class *cls,
                               const char *fn, mnk_board *board) {
  bool gomoku = cls == &gomoku_class;
  char where[32];
  snprintf(where, sizeof where, "%s.%s", gomoku ? "gomoku" : "mnk", fn);
  int m = gomoku ? 15 : 3, n = m, k = gomoku ? 5 : 3;
  bool exact = false;
  if (!lua_isnoneornil(L, arg)) {
    lgame_check_options(L, arg, gomoku ? "size exact" : "m n k exact", where);
    if (gomoku) {
      m = n = int_option(L, arg, "size", 15, where);
    } else {
      m = int_option(L, arg, "m", 3, where);
      n = int_option(L, arg, "n", m, where);
      k = int_option(L, arg, "k", m < n ? m : n, where);
    }
    exact = lgame_opt_boolean(L, arg, "exact", false, where);
  }
  if (!mnk_size_ok(m, n, k))
    luaL_error(L, "%s: no %d,%d,%d game (sides 1 to %d, k at most the longer "
               "side)", where, m, n, k, MNK_MAX_SIDE);
  mnk_init(board, m, n, k, exact);
}

#define CLASS() ((const game_class *)lua_touserdata(L, lua_upvalueindex(2)))

/* new{m=, n=, k=, exact=} or new{size=, exact=} */
static int mnk_new(lua_State *L) {
  mnk_board board;
  board_from_options(L, 1, CLASS(), "new", &board);
  lgame_push(L, CLASS(), &board);
  return 1;
}

/* load(record [, options]) */
static int mnk_load(lua_State *L) {
  lgame_load_args(L);
  mnk_board board;
  board_from_options(L, 2, CLASS(), "load", &board);
  return lgame_load(L, CLASS(), &board, 1);
}

/* g:size() -> m, n, k */
static int mnk_size(lua_State *L) {
  const mnk_board *board = lgame_state(lgame_check(L, 1, CLASS()));
  lua_pushinteger(L, board->m);
  lua_pushinteger(L, board->n);
  lua_pushinteger(L, board->k);
  return 3;
}

static const luaL_Reg functions[] = {
  {"new", mnk_new},
  {"load", mnk_load},
  {NULL, NULL}
};

static const luaL_Reg methods[] = {
  {"size", mnk_size},
  {NULL, NULL}
};

int luaopen_ludus_mnk(lua_State *L) {
  lgame_open(L, &mnk_class, methods, functions);
  return 1;
}

int luaopen_ludus_gomoku(lua_State *L) {
  lgame_open(L, &gomoku_class, methods, functions);
  return 1;
}
