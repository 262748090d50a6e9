/*
** ludus.c: the module table.  `require "ludus"` returns a table with every
** game module and the Lua helpers; ludus_preload makes each of them
** reachable by its own name as well (`require "ludus.tictactoe"`).
*/
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"

volatile sig_atomic_t ludus_interrupted = 0;
void (*ludus_on_interrupt_consumed)(lua_State *L) = NULL;

void ludus_interrupt_consumed(lua_State *L) {
  if (ludus_on_interrupt_consumed) ludus_on_interrupt_consumed(L);
}

/* The game modules written in C, in the order help() lists them. */
static const luaL_Reg game_modules[] = {
  {"tictactoe", luaopen_ludus_tictactoe},
  {"connect4", luaopen_ludus_connect4},
  {"mnk", luaopen_ludus_mnk},
  {"gomoku", luaopen_ludus_gomoku},
  {"reversi", luaopen_ludus_reversi},
  {"xiangqi", luaopen_ludus_xiangqi},
  {NULL, NULL}
};

/* The other modules written in C. */
static const luaL_Reg library_modules[] = {
  {"ai", luaopen_ludus_ai},
  {"sudoku", luaopen_ludus_sudoku},
  {"mahjong", luaopen_ludus_mahjong},
  {NULL, NULL}
};

/* The Lua helpers from scripts/ludus/ that the module table carries,
   as field name and module name. */
static const char *const helper_fields[][2] = {
  {"help", "ludus.help"},
  {"pretty", "ludus.pretty"},
  {"game", "ludus.game"},
  {"match", "ludus.match"},
  {NULL, NULL}
};

static int load_script(lua_State *L) {
  const ludus_script *script = lua_touserdata(L, lua_upvalueindex(1));
  char chunkname[64];
  /* "@ludus/help.lua" makes tracebacks name the file in scripts/. */
  snprintf(chunkname, sizeof chunkname, "@%s.lua", script->name);
  for (char *p = chunkname; *p; p++)
    if (*p == '.' && strcmp(p, ".lua") != 0) *p = '/';
  if (luaL_loadbuffer(L, script->source, script->size, chunkname) != LUA_OK)
    return lua_error(L);
  lua_pushvalue(L, 1);           /* the module name, as require passes it */
  lua_call(L, 1, 1);
  return 1;
}

void ludus_preload(lua_State *L) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_ludus);
  lua_setfield(L, -2, "ludus");
  for (const luaL_Reg *m = game_modules; m->name; m++) {
    lua_pushfstring(L, "ludus.%s", m->name);
    lua_pushcfunction(L, m->func);
    lua_settable(L, -3);
  }
  for (const luaL_Reg *m = library_modules; m->name; m++) {
    lua_pushfstring(L, "ludus.%s", m->name);
    lua_pushcfunction(L, m->func);
    lua_settable(L, -3);
  }
  for (const ludus_script *s = ludus_scripts; s->name; s++) {
    lua_pushlightuserdata(L, (void *)s);
    lua_pushcclosure(L, load_script, 1);
    lua_setfield(L, -2, s->name);
  }
  lua_pop(L, 1);
}

void ludus_protect_metatable(lua_State *L, int mt) {
  mt = lua_absindex(L, mt);
  lua_getfield(L, mt, "__name");
  lua_setfield(L, mt, "__metatable");
}

uint64_t ludus_fresh_seed(void) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  static uint64_t counter = 0;
  return (uint64_t)now.tv_nsec ^ ((uint64_t)now.tv_sec << 30) ^ (++counter << 52);
}

/* require(name) and leave its value on the stack. */
static void require_module(lua_State *L, const char *name) {
  lua_getglobal(L, "require");
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
}

/* ludus.isatty("stderr"): whether progress output would reach a person. */
static int ludus_isatty(lua_State *L) {
  static const char *const names[] = {"stdin", "stdout", "stderr", NULL};
  int fd = luaL_checkoption(L, 1, "stdout", names);
  lua_pushboolean(L, isatty(fd));
  return 1;
}

/* ludus.interrupted(): whether Ctrl-C was pressed during this call at the
   prompt (or this script), for Lua loops that call jobs: each job stops
   and returns what it found, and the loop can stop too.  Asking takes
   the interrupt over, as a job does: the next Ctrl-C interrupts again. */
static int ludus_interrupted_lua(lua_State *L) {
  lua_pushboolean(L, ludus_interrupted != 0);
  if (ludus_interrupted) ludus_interrupt_consumed(L);
  return 1;
}

int luaopen_ludus(lua_State *L) {
  ludus_preload(L);
  lua_newtable(L);
  lua_pushliteral(L, LUDUS_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushcfunction(L, ludus_isatty);
  lua_setfield(L, -2, "isatty");
  lua_pushcfunction(L, ludus_interrupted_lua);
  lua_setfield(L, -2, "interrupted");
  lua_newtable(L);               /* ludus.games: names in a stable order */
  int n = 0;
  for (const luaL_Reg *m = game_modules; m->name; m++) {
    lua_pushstring(L, m->name);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "games");
  for (const luaL_Reg *m = game_modules; m->name; m++) {
    luaL_requiref(L, lua_pushfstring(L, "ludus.%s", m->name), m->func, 0);
    lua_setfield(L, -3, m->name);
    lua_pop(L, 1);
  }
  for (const luaL_Reg *m = library_modules; m->name; m++) {
    luaL_requiref(L, lua_pushfstring(L, "ludus.%s", m->name), m->func, 0);
    lua_setfield(L, -3, m->name);
    lua_pop(L, 1);
  }
  /* The table is ludus before its helpers load, so they may require it. */
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "ludus.module");
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "ludus");
  lua_pop(L, 1);
  for (int i = 0; helper_fields[i][0]; i++) {
    require_module(L, helper_fields[i][1]);
    lua_setfield(L, -2, helper_fields[i][0]);
  }
  return 1;
}
