/*
** match.c: `ludus match GAME A B ...`.  The command is Lua
** (scripts/ludus/match_cli.lua, on ludus.match); this file gives it a Lua
** state of its own with every ludus module, and Ctrl-C as a flag that
** the match polls between games (ludus.interrupted), so that a stopped
** match still writes its results and says how to resume.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "ludus.h"
#include "match.h"

const char match_usage_summary[] =
  "  match GAME A B...      players against each other: Elo, SPRT, shards\n";

static void on_interrupt(int sig) {
  (void)sig;
  ludus_interrupted = 1;
}

static int message_handler(lua_State *L) {
  const char *message = lua_tostring(L, 1);
  if (!message) message = "(error object is not a string)";
  lua_pushstring(L, message);
  return 1;
}

/* The command in protected mode: match_cli.main(progname, args...). */
static int run(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  const char *progname = lua_tostring(L, 3);
  luaL_openlibs(L);
  ludus_preload(L);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "ludus.match_cli");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "main");
  lua_pushstring(L, progname);
  luaL_checkstack(L, argc, "too many arguments");
  for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
  lua_call(L, argc, 1);
  return 1;
}

int match_main(const char *progname, int argc, char **argv) {
  lua_State *L = luaL_newstate();
  if (!L) {
    fprintf(stderr, "%s: not enough memory\n", progname);
    return 1;
  }
  struct sigaction sa = {0}, before;
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &before);
  lua_pushcfunction(L, message_handler);
  lua_pushcfunction(L, run);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  lua_pushstring(L, progname);
  int status = lua_pcall(L, 3, 1, 1);
  int code;
  if (status != LUA_OK) {
    fprintf(stderr, "%s: %s\n", progname, lua_tostring(L, -1));
    code = ludus_interrupted ? 130 : 1;
  } else {
    code = (int)lua_tointeger(L, -1);
  }
  fflush(stdout);
  lua_close(L);
  sigaction(SIGINT, &before, NULL);
  return code;
}
