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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lgame.h"
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

/* Modules for the library's own Lua parts, not fields of ludus. */
static const luaL_Reg internal_modules[] = {
  {"ludus.strict", luaopen_ludus_strict},
  {"ludus.process", luaopen_ludus_process},
  {"ludus.program", luaopen_ludus_program},
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
  for (const luaL_Reg *m = internal_modules; m->name; m++) {
    lua_pushcfunction(L, m->func);
    lua_setfield(L, -2, m->name);
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

/* ---- misspelt methods ---- */

/* The edit distance of a and b (insertions, deletions, changes and swaps
   of two neighbours, each 1), or limit + 1 when it is more than limit. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb,
                            size_t limit) {
  enum { LONGEST = 32 };
  if (la > LONGEST || lb > LONGEST) return limit + 1;
  if ((la > lb ? la - lb : lb - la) > limit) return limit + 1;
  size_t d[LONGEST + 1][LONGEST + 1];
  for (size_t i = 0; i <= la; i++) d[i][0] = i;
  for (size_t j = 0; j <= lb; j++) d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

/*
** __index of a methods table: (methods, key), with the object type's
** name and the set of its data fields as upvalues.  A method it has is
** found before this runs; here a data field the object may lack, a name
** starting with '_' (private, or a metamethod like __gc) or a key that
** is not a string reads as nil, and any other name is a misspelt method.
*/
static int strict_index(lua_State *L) {
  size_t len;
  const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len)
                                                   : NULL;
  if (!key || key[0] == '_') return 0;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL) return 0;
  const char *best = NULL;
  size_t best_distance = len >= 5 ? 2 : 1;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) continue;
    size_t n;
    const char *name = lua_tolstring(L, -1, &n);
    size_t d = edit_distance(key, len, name, n, best_distance);
    if (d < best_distance || (d == best_distance && (!best || strcmp(name, best) < 0))) {
      best = name;               /* kept alive by the table, which holds it */
      best_distance = d;
    }
  }
  const char *what = lua_tostring(L, lua_upvalueindex(1));
  if (best)
    return luaL_error(L, "%s: no method '%s' (did you mean '%s'?)", what, key, best);
  return luaL_error(L, "%s: no method '%s' (help(object) lists the methods)", what,
                    key);
}

void ludus_strict_methods(lua_State *L, int methods, const char *name,
                          const char *fields) {
  methods = lua_absindex(L, methods);
  lua_createtable(L, 0, 1);                  /* the metatable */
  lua_pushstring(L, name);
  lua_newtable(L);                           /* the data fields, as a set */
  for (const char *p = fields ? fields : ""; *p; ) {
    size_t n = strcspn(p, " ");
    if (n > 0) {
      lua_pushlstring(L, p, n);
      lua_pushboolean(L, 1);
      lua_rawset(L, -3);
    }
    p += n + strspn(p + n, " ");
  }
  lua_pushcclosure(L, strict_index, 2);
  lua_setfield(L, -2, "__index");
  lua_pushliteral(L, "ludus.methods");       /* hidden, as every ludus metatable */
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, methods);
}

/* require "ludus.strict": the same for a methods table made in Lua
   (game.define): strict(methods, name [, fields]) -> methods. */
static int strict_lua(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const char *name = luaL_checkstring(L, 2);
  const char *fields = luaL_optstring(L, 3, NULL);
  lua_settop(L, 1);
  ludus_strict_methods(L, 1, name, fields);
  return 1;
}

int luaopen_ludus_strict(lua_State *L) {
  lua_pushcfunction(L, strict_lua);
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

bool ludus_data_file(const char *name, char *out) {
  char path[PATH_MAX];
  if (!binary_path(path)) return false;
  *strrchr(path, '/') = '\0';                /* the folder */
  for (int i = 0; data_folders[i]; i++) {
    char file[PATH_MAX];
    int n = snprintf(file, sizeof file, "%s/%s/%s", path, data_folders[i], name);
    if (n > 0 && (size_t)n < sizeof file && access(file, R_OK) == 0 &&
        realpath(file, out))
      return true;
  }
  return false;
}

bool ludus_same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return strcmp(a, b) == 0 ||
         (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
          sa.st_ino == sb.st_ino);
}

const char *ludus_push_data_file(lua_State *L, const char *name) {
  char path[PATH_MAX];
  return ludus_data_file(name, path) ? lua_pushstring(L, path) : NULL;
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

/* ludus.interrupted(): whether Ctrl-C was pressed during this call at the
   prompt (or this script), for Lua loops that call jobs: each job stops
   and returns what it found, and the loop can stop too.  Asking takes
   the interrupt over, as a job does: the next Ctrl-C interrupts again. */
static int ludus_interrupted_lua(lua_State *L) {
  lua_pushboolean(L, ludus_interrupted != 0);
  if (ludus_interrupted) ludus_interrupt_consumed(L);
  return 1;
}

/* ludus.check_options(options, names, where) -> options (a new table for
   nil): refuses a value that is not a table, and a key that is not one of
   the space-separated names, with the message ludus's own functions give.
   For Lua code that takes options, such as the variant files. */
static int ludus_check_options_lua(lua_State *L) {
  const char *names = luaL_checkstring(L, 2), *where = luaL_checkstring(L, 3);
  if (lua_isnoneornil(L, 1)) {
    lua_newtable(L);
    return 1;
  }
  if (!lua_istable(L, 1))
    return luaL_error(L, "%s: options must be a table (got %s)", where,
                      luaL_typename(L, 1));
  lgame_check_options(L, 1, names, where);
  lua_settop(L, 1);
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
  lua_pushcfunction(L, ludus_check_options_lua);
  lua_setfield(L, -2, "check_options");
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
