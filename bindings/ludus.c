/*
** ludus.c: the module table.  `require "ludus"` returns a table with every
** game module and the Lua helpers; ludus_preload makes each of them
** reachable by its own name as well (`require "ludus.tictactoe"`).
*/
#define _GNU_SOURCE             /* dladdr */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"

volatile sig_atomic_t ludus_interrupted = 0;

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

int ludus_open_script(lua_State *L, const char *name) {
  ludus_preload(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_getfield(L, -1, name);
  lua_pushstring(L, name);
  lua_call(L, 1, 1);
  return 1;
}

void ludus_protect_metatable(lua_State *L, int mt) {
  mt = lua_absindex(L, mt);
  lua_getfield(L, mt, "__name");
  lua_setfield(L, mt, "__metatable");
}

/* ---- data files beside the binary ---- */

/* The binary this code runs in: ludus.so, whose file dladdr names, or
   the ludus executable, for which dladdr has only argv[0] and
   /proc/self/exe is sure.  False when neither says. */
static bool binary_path(char path[PATH_MAX]) {
  char exe[PATH_MAX] = "";
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  Dl_info info;
  if (dladdr((void *)binary_path, &info) && info.dli_fname &&
      strchr(info.dli_fname, '/') && realpath(info.dli_fname, path) &&
      strcmp(path, exe) != 0)
    return true;
  if (!exe[0]) return false;
  strcpy(path, exe);
  return true;
}

/* Where a data file may be, from the binary's folder: the source tree
   (./ludus, ./ludus.so; `make book` writes into build/), then an
   installation (PREFIX/bin/ludus, PREFIX/lib/lua/5.4/ludus.so, with the
   data in PREFIX/share/ludus). */
static const char *const data_folders[] = {
  "build", "../share/ludus", "../../../share/ludus", NULL
};

const char *ludus_push_data_file(lua_State *L, const char *name) {
  char path[PATH_MAX];
  if (!binary_path(path)) return NULL;
  *strrchr(path, '/') = '\0';                /* the folder */
  for (int i = 0; data_folders[i]; i++) {
    const char *file = lua_pushfstring(L, "%s/%s/%s", path, data_folders[i], name);
    char real[PATH_MAX];
    if (access(file, R_OK) == 0 && realpath(file, real)) {
      lua_pop(L, 1);
      return lua_pushstring(L, real);
    }
    lua_pop(L, 1);
  }
  return NULL;
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

/* The names the `ludus` executable makes global, beside `ludus` and the
   games: what the REPL, scripts and -e all see. */
static const char *const global_fields[] = {
  "help", "ai", "match", "sudoku", "mahjong", NULL
};

/* Sets global name to the value on the top, unless it is set already;
   pops the value. */
static void set_global(lua_State *L, const char *name) {
  if (lua_getglobal(L, name) == LUA_TNIL) {
    lua_pushvalue(L, -2);
    lua_setglobal(L, name);
  }
  lua_pop(L, 2);
}

int ludus_open_globals(lua_State *L) {
  luaL_requiref(L, "ludus", luaopen_ludus, 0);
  int ludus = lua_gettop(L);
  lua_pushvalue(L, ludus);
  set_global(L, "ludus");
  lua_getfield(L, ludus, "games");
  lua_Integer n = luaL_len(L, -1);
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_geti(L, -1, i) == LUA_TSTRING) {
      lua_getfield(L, ludus, lua_tostring(L, -1));
      set_global(L, lua_tostring(L, -2));
    }
    lua_pop(L, 1);                       /* the name */
  }
  lua_pop(L, 1);                         /* the games */
  for (int i = 0; global_fields[i]; i++) {
    lua_getfield(L, ludus, global_fields[i]);
    set_global(L, global_fields[i]);
  }
  lua_pop(L, 1);
  return 0;
}

/* ludus.isatty("stderr"): whether progress output would reach a person. */
static int ludus_isatty(lua_State *L) {
  static const char *const names[] = {"stdin", "stdout", "stderr", NULL};
  int fd = luaL_checkoption(L, 1, "stdout", names);
  lua_pushboolean(L, isatty(fd));
  return 1;
}

int luaopen_ludus(lua_State *L) {
  ludus_preload(L);
  lua_newtable(L);
  lua_pushliteral(L, LUDUS_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushcfunction(L, ludus_isatty);
  lua_setfield(L, -2, "isatty");
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
