/*
** lai.c: ludus.ai, the searches of core/base for every game.
**
** ai.search(game, options) runs one search and returns what it found;
** ai.alphabeta, ai.mcts, ai.greedy and ai.random make players: tables
** with choose(game) -> move and an info table filled after each choice.
** A player's options are fields of the player, read at every choice, so
** p.depth = 6 takes effect at the next move.  Games written in Lua are
** searched through the bridge in lgame.c.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lgame.h"
#include "ludus.h"
#include "base/rng.h"
#include "base/search.h"
#include "base/tt.h"

#define TABLE_TYPE "ludus.ai.table"
#define PLAYER_TYPE "ludus.ai.player"
#define DEFAULT_TABLE_MIB 16
#define AI_MAX_TABLE_MIB 1024         /* the ceiling: a table of 1 GiB */
#define DEFAULT_SECONDS 1.0
#define DEFAULT_PLAYOUTS 10000

/* ---- options ---- */

typedef enum algorithm { ALPHABETA, MCTS, GREEDY, RANDOM } algorithm;
static const char *const algorithm_names[] = {
  "alphabeta", "mcts", "greedy", "random", NULL
};

/* The option names each algorithm takes, to catch misspelt ones. */
static const char *const known_options[] = {
  "algorithm depth time nodes eval tt name",
  "algorithm playouts time c seed name",
  "algorithm eval name",
  "algorithm seed name",
};

/* The algorithm named by the value at idx, which is field key of an
   options table or a player; raises naming key when it names none. */
static algorithm check_algorithm(lua_State *L, int idx, const char *key,
                                 const char *where) {
  const char *name = lua_type(L, idx) == LUA_TSTRING ? lua_tostring(L, idx) : NULL;
  for (int a = 0; name && algorithm_names[a]; a++)
    if (strcmp(name, algorithm_names[a]) == 0) return (algorithm)a;
  luaL_error(L, "%s: %s '%s' must be \"alphabeta\", \"mcts\", \"greedy\" or "
             "\"random\" (got %s)", where, strcmp(key, "kind") ? "option" : "field",
             key, name ? lua_pushfstring(L, "'%s'", name) : luaL_typename(L, idx));
  return ALPHABETA;
}

/* Raises on a key of the options table at arg that the algorithm does not
   take; the player fields kind, info and those starting with '_' pass. */
static void check_option_names(lua_State *L, int arg, algorithm a,
                               const char *where, bool player) {
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) {
      luaL_error(L, "%s: option names are strings (got a %s key)", where,
                 luaL_typename(L, -1));
    }
    size_t len;
    const char *key = lua_tolstring(L, -1, &len);
    const char *list = known_options[a];
    bool found = player && ((len > 0 && key[0] == '_') ||
                            strcmp(key, "kind") == 0 || strcmp(key, "info") == 0);
    if (!found && !lgame_in_word_list(list, key, len))
      luaL_error(L, "%s: unknown option '%s' (it takes: %s)", where, key, list);
  }
}

/* The options every search reads, checked once in lgame.c. */
static lua_Integer opt_count(lua_State *L, int arg, const char *key,
                             lua_Integer def, const char *where) {
  return lgame_opt_integer(L, arg, key, def, 1, LGAME_MAX_COUNT, where);
}

static double opt_seconds(lua_State *L, int arg, const char *key, double def,
                          const char *where) {
  return lgame_opt_number(L, arg, key, def, LGAME_MAX_SECONDS, where);
}

static bool has_option(lua_State *L, int arg, const char *key) {
  bool present = lua_getfield(L, arg, key) != LUA_TNIL;
  lua_pop(L, 1);
  return present;
}

/* The tt option: the table size in MiB, 0 for none, at most
   AI_MAX_TABLE_MIB. */
static size_t table_mib(lua_State *L, int arg, const char *where) {
  return (size_t)lgame_opt_integer(L, arg, "tt", DEFAULT_TABLE_MIB, 0,
                                   AI_MAX_TABLE_MIB, where);
}

/* The index of the eval option when it is a Lua function, else 0; raises
   on anything but a function or nil. */
static int opt_eval(lua_State *L, int arg, const char *where) {
  int type = lua_getfield(L, arg, "eval");
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  if (type != LUA_TFUNCTION)
    luaL_error(L, "%s: option 'eval' must be a function (got %s)", where,
               luaL_typename(L, -1));
  return lua_gettop(L);
}

/* ---- transposition tables kept by players ---- */

typedef struct table_box {
  tt_table *table;
  size_t mib;
  const void *identity;      /* the game module it holds positions of */
} table_box;

static int table_gc(lua_State *L) {
  table_box *box = luaL_checkudata(L, 1, TABLE_TYPE);
  tt_free(box->table);
  box->table = NULL;
  return 0;
}

/* Pushes a box holding a table of mib MiB; raises without the memory. */
static table_box *push_table(lua_State *L, size_t mib) {
  table_box *box = lua_newuserdatauv(L, sizeof *box, 0);
  box->table = NULL;
  box->identity = NULL;
  box->mib = mib;
  luaL_setmetatable(L, TABLE_TYPE);
  box->table = tt_new(mib);
  if (!box->table)
    luaL_error(L, "ai: not enough memory for a %d MiB table", (int)mib);
  return box;
}

/* ---- the searches ---- */

static void set_number(lua_State *L, const char *key, double value) {
  lua_pushnumber(L, value);
  lua_setfield(L, -2, key);
}

static void set_integer(lua_State *L, const char *key, lua_Integer value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

/* How often the search called into Lua: only for a game written in Lua
   or an evaluation given as a Lua function. */
static void set_lua_calls(lua_State *L, uint64_t calls) {
  if (calls > 0) set_integer(L, "lua_calls", (lua_Integer)calls);
}

static void set_move(lua_State *L, lgame_target *target, game_move move) {
  if (move == GAME_NO_MOVE) return;
  lgame_target_push_line(L, target, &move, 1);
  lua_rawgeti(L, -1, 1);
  lua_setfield(L, -3, "move");
  lua_pop(L, 1);
}

static void set_timing(lua_State *L, const search_limit *limit,
                       uint64_t count) {
  double seconds = limit_elapsed(limit);
  set_number(L, "seconds", seconds);
  set_number(L, "nps", seconds > 0 ? (double)count / seconds : 0.0);
  const char *reason = lgame_finish_limit(L, limit);
  if (reason) {
    lua_pushstring(L, reason);
    lua_setfield(L, -2, "stopped");
  }
}

/* Alpha-beta (or greedy: depth 1, no table) on the game at 1 with the
   options at 2; pushes the info table.  box may be NULL. */
static void run_alphabeta(lua_State *L, algorithm a, table_box *box,
                          const char *where) {
  search_limit limit = {0};
  search_options options = {0};
  int eval = opt_eval(L, 2, where);
  if (a == GREEDY) {
    options.max_depth = 1;
  } else {
    lua_Integer depth = lgame_opt_integer(L, 2, "depth", 0, 1, LGAME_MAX_COUNT,
                                          where);
    options.max_depth = depth > SEARCH_MAX_PLY ? SEARCH_MAX_PLY : (int)depth;
    bool bounded = options.max_depth || has_option(L, 2, "nodes");
    limit.max_seconds = opt_seconds(L, 2, "time",
                                    bounded ? 0 : DEFAULT_SECONDS, where);
    limit.max_nodes = (uint64_t)opt_count(L, 2, "nodes", 0, where);
  }
  lgame_target *target = lgame_target_push(L, 1, eval, &limit);
  int target_index = lua_gettop(L);
  options.eval = target->eval;
  options.eval_context = target->eval_context;
  if (box && target->hashed) {
    if (box->identity && box->identity != target->identity)
      tt_clear(box->table);             /* a new table starts empty */
    box->identity = target->identity;
    options.tt = box->table;
  }
  limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  search_result result;
  search_alphabeta(target->cls, target->state, &options, &limit, &result);
  lgame_target_check(L, target);
  uint64_t lua_calls = target->lua_calls;

  lua_createtable(L, 0, 13);
  set_lua_calls(L, lua_calls);
  set_move(L, target, result.best);
  set_integer(L, "score", result.score);
  if (search_is_win_score(result.score) && result.best != GAME_NO_MOVE) {
    int plies = GAME_SCORE_WIN - abs(result.score);
    set_integer(L, "mate", result.score > 0 ? plies : -plies);
  }
  set_integer(L, "depth", result.depth);
  set_integer(L, "nodes", (lua_Integer)result.nodes);
  lua_pushboolean(L, result.exact);
  lua_setfield(L, -2, "exact");
  lgame_target_push_line(L, target, result.pv, result.pv_length);
  lua_setfield(L, -2, "pv");
  lgame_target_check(L, target);     /* naming the move and line calls Lua */
  set_timing(L, &limit, result.nodes);
  lua_remove(L, target_index);
  if (eval) lua_remove(L, eval);
}

static void run_mcts(lua_State *L, uint64_t seed, const char *where) {
  search_limit limit = {0};
  mcts_options options = {0};
  options.exploration = lgame_opt_number(L, 2, "c", sqrt(2.0), 1e6, where);
  options.seed = seed;
  limit.max_seconds = opt_seconds(L, 2, "time", 0, where);
  lua_Integer playouts = opt_count(L, 2, "playouts",
                                 limit.max_seconds > 0 ? 0 : DEFAULT_PLAYOUTS,
                                 where);
  limit.max_nodes = (uint64_t)playouts;
  lgame_target *target = lgame_target_push(L, 1, 0, &limit);
  int target_index = lua_gettop(L);
  limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  mcts_result result;
  search_mcts(target->cls, target->state, &options, &limit, &result);
  lgame_target_check(L, target);
  uint64_t lua_calls = target->lua_calls;

  lua_createtable(L, 0, 13);
  set_lua_calls(L, lua_calls);
  set_move(L, target, result.best);
  set_number(L, "value", result.value);
  if (result.proven) {
    lua_pushstring(L, result.proven > 0 ? "win" : "loss");
    lua_setfield(L, -2, "proven");
  }
  set_integer(L, "playouts", (lua_Integer)result.playouts);
  set_integer(L, "visits", result.best_visits);
  set_integer(L, "nodes", (lua_Integer)result.plies);
  set_integer(L, "tree", result.tree_nodes);
  lgame_target_push_line(L, target, result.pv, result.pv_length);
  lua_setfield(L, -2, "pv");
  lgame_target_check(L, target);     /* naming the move and line calls Lua */
  set_timing(L, &limit, result.playouts);
  /* Reaching the playout budget is the plan, not a stop. */
  if (limit.max_nodes && result.playouts >= limit.max_nodes &&
      !(limit.interrupt && *limit.interrupt)) {
    lua_pushnil(L);
    lua_setfield(L, -2, "stopped");
  }
  lua_remove(L, target_index);
}

static void run_random(lua_State *L, uint64_t *state) {
  search_limit limit = {0};
  lgame_target *target = lgame_target_push(L, 1, 0, &limit);
  int target_index = lua_gettop(L);
  game_move moves[GAME_MAX_MOVES];
  int n = 0;
  if (target->cls->status(target->state) == GAME_ONGOING)
    n = target->cls->moves(target->state, moves);
  lgame_target_check(L, target);
  lua_createtable(L, 0, 2);
  if (n > 0) {
    rng r;
    rng_seed(&r, *state);
    set_move(L, target, moves[rng_below(&r, (uint32_t)n)]);
    *state = r.state;
    set_integer(L, "choices", n);
  }
  lgame_target_check(L, target);
  lua_remove(L, target_index);
}

/* Runs algorithm a on the game at 1 with the options (or player) at 2 and
   pushes the info table.  For a player, its table and random state live
   in the player's fields. */
static void run(lua_State *L, algorithm a, bool player, const char *where) {
  luaL_checkany(L, 1);
  if (a == ALPHABETA || a == GREEDY) {
    size_t mib = a == ALPHABETA ? table_mib(L, 2, where) : 0;
    table_box *box = NULL;
    /* The box stays on the stack while the search runs, so that nothing
       a callback does to the player (dropping _table, a nested choose
       with another tt) can free the table under the search. */
    if (mib > 0 && player) {
      lua_getfield(L, 2, "_table");
      box = luaL_testudata(L, -1, TABLE_TYPE);
      if (!box || box->mib != mib || !box->table) {
        lua_pop(L, 1);
        box = push_table(L, mib);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, "_table");
      }
    } else if (mib > 0) {
      box = push_table(L, mib);
      lua_toclose(L, -1);           /* freed on return or error, not at GC */
    }
    run_alphabeta(L, a, box, where);
    if (mib > 0 && player) lua_remove(L, -2);
    return;
  }
  uint64_t seed;
  lua_getfield(L, 2, player ? "_state" : "seed");
  int isnum;
  lua_Integer given = lua_tointegerx(L, -1, &isnum);
  if (!lua_isnil(L, -1) && !isnum)
    luaL_error(L, "%s: option 'seed' must be an integer (got %s)", where,
               luaL_typename(L, -1));
  lua_pop(L, 1);
  seed = isnum ? (uint64_t)given : ludus_fresh_seed();
  if (a == MCTS) {
    run_mcts(L, seed, where);
    seed = hash_mix64(seed + 1);   /* the next choice searches afresh */
  } else {
    run_random(L, &seed);
  }
  if (player) {
    lua_pushinteger(L, (lua_Integer)seed);
    lua_setfield(L, 2, "_state");
  }
}

/* ai.search(game [, options]) -> info */
static int ai_search(lua_State *L) {
  luaL_checkany(L, 1);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_newtable(L);
  }
  luaL_checktype(L, 2, LUA_TTABLE);
  lua_settop(L, 2);
  lua_getfield(L, 2, "algorithm");
  int a = lua_isnil(L, -1) ? ALPHABETA
        : check_algorithm(L, -1, "algorithm", "ai.search");
  lua_pop(L, 1);
  check_option_names(L, 2, (algorithm)a, "ai.search", false);
  run(L, (algorithm)a, false, "ai.search");
  return 1;
}

/* ---- players ---- */

/* player:choose(game) -> move; fills player.info. */
static int player_choose(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_getfield(L, 1, "kind");
  int a = check_algorithm(L, -1, "kind", "ai: player");
  lua_pop(L, 1);
  char where[48];
  snprintf(where, sizeof where, "ai.%s", algorithm_names[a]);
  lua_settop(L, 2);
  lua_rotate(L, 1, 1);             /* game, player: as run() expects */
  check_option_names(L, 2, (algorithm)a, where, true);
  run(L, (algorithm)a, true, where);
  lua_pushvalue(L, -1);
  lua_setfield(L, 2, "info");
  if (lua_getfield(L, -1, "move") == LUA_TNIL) {
    lua_getfield(L, -2, "stopped");
    if (lua_isstring(L, -1))
      return luaL_error(L, "%s: stopped (%s) before it found a move", where,
                        lua_tostring(L, -1));
    return luaL_error(L, "%s: no move to choose (the game is over)", where);
  }
  return 1;
}

/* player:new_game(): forgets what the table learnt about other games. */
static int player_new_game(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "_table");
  table_box *box = luaL_testudata(L, -1, TABLE_TYPE);
  if (box && box->table) {
    tt_clear(box->table);
    box->identity = NULL;
  }
  return 0;
}

static int player_tostring(lua_State *L) {
  lua_getfield(L, 1, "name");
  lua_getfield(L, 1, "kind");
  lua_pushfstring(L, "ai.%s player '%s'", lua_tostring(L, -1),
                  lua_tostring(L, -2));
  return 1;
}

/* ai.alphabeta{...} and the others: upvalue 1 is the algorithm. */
static int new_player(lua_State *L) {
  algorithm a = (algorithm)lua_tointeger(L, lua_upvalueindex(1));
  char where[48];
  snprintf(where, sizeof where, "ai.%s", algorithm_names[a]);
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  check_option_names(L, 1, a, where, false);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, 1)) {              /* the options become fields */
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_settable(L, 2);
  }
  /* Check the values now rather than at the first move. */
  lua_settop(L, 2);
  if (a == ALPHABETA) {
    lgame_opt_integer(L, 2, "depth", 1, 1, LGAME_MAX_COUNT, where);
    opt_seconds(L, 2, "time", 1, where);
    opt_count(L, 2, "nodes", 1, where);
    table_mib(L, 2, where);
  }
  if (a == MCTS) {
    opt_count(L, 2, "playouts", 1, where);
    opt_seconds(L, 2, "time", 1, where);
    lgame_opt_number(L, 2, "c", 1, 1e6, where);
  }
  if (a == ALPHABETA || a == GREEDY) {
    if (opt_eval(L, 2, where)) lua_pop(L, 1);
  }
  if (a == MCTS || a == RANDOM) {
    lua_getfield(L, 2, "seed");
    if (!lua_isnil(L, -1) && !lua_isinteger(L, -1))
      luaL_error(L, "%s: option 'seed' must be an integer (got %s)", where,
                 luaL_typename(L, -1));
    lua_setfield(L, 2, "_state");
  }
  lua_pushstring(L, algorithm_names[a]);
  lua_setfield(L, 2, "kind");
  if (!has_option(L, 2, "name")) {
    lua_pushstring(L, algorithm_names[a]);
    lua_setfield(L, 2, "name");
  }
  lua_newtable(L);
  lua_setfield(L, 2, "info");
  luaL_setmetatable(L, PLAYER_TYPE);
  return 1;
}

static const luaL_Reg player_methods[] = {
  {"choose", player_choose},
  {"new_game", player_new_game},
  {NULL, NULL}
};

/* ai.uci{...}: a UCI engine as a player, written in Lua (scripts/ludus/
   uci.lua), loaded at its first use. */
static int ai_uci(lua_State *L) {
  lua_settop(L, 1);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  if (lua_getfield(L, -1, "ludus.uci") != LUA_TFUNCTION) {
    lua_pop(L, 1);
    ludus_open_script(L, "ludus.uci");
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "ludus.uci");
  }
  lua_insert(L, 1);
  lua_settop(L, 2);
  lua_call(L, 1, 1);
  return 1;
}

int luaopen_ludus_ai(lua_State *L) {
  luaL_newmetatable(L, TABLE_TYPE);
  lua_pushcfunction(L, table_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, table_gc);
  lua_setfield(L, -2, "__close");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  luaL_newmetatable(L, PLAYER_TYPE);
  luaL_newlib(L, player_methods);
  /* a player is a table of its options: one it lacks reads as nil */
  luaL_Buffer fields;
  luaL_buffinit(L, &fields);
  for (int a = ALPHABETA; a <= RANDOM; a++) {
    luaL_addstring(&fields, known_options[a]);
    luaL_addchar(&fields, ' ');
  }
  luaL_addstring(&fields, "kind info");
  luaL_pushresult(&fields);
  ludus_strict_methods(L, -2, "ai player", lua_tostring(L, -1));
  lua_pop(L, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, player_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);

  lua_newtable(L);
  lua_pushcfunction(L, ai_search);
  lua_setfield(L, -2, "search");
  lua_pushcfunction(L, ai_uci);
  lua_setfield(L, -2, "uci");
  for (int a = ALPHABETA; a <= RANDOM; a++) {
    lua_pushinteger(L, a);
    lua_pushcclosure(L, new_player, 1);
    lua_setfield(L, -2, algorithm_names[a]);
  }
  return 1;
}
