/*
** main.c: the `ludus` executable, a Lua 5.4 host with every ludus module
** preloaded and the REPL's names global, for scripts as for the REPL.  It
** takes the command line of the stock `lua5.4` so that Lua users feel at
** home, plus --help and --version; the interactive loop is in repl.c.
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "batch.h"
#include "ludus.h"
#include "match.h"
#include "repl.h"
#include "uci.h"

static const char usage_text[] =
  "usage: %s [options] [script [args]]\n"
  "       %s COMMAND GAME FILE... [options]   (commands below)\n"
  "  -e code   run the code (may be given more than once)\n"
  "  -l mod    require \"mod\" into the global mod (-l g=mod: into g)\n"
  "  -i        the REPL, after the script if there is one\n"
  "  -v        the version (also --version)\n"
  "  -h        this help (also --help)\n"
  "  -E        ignore LUA_INIT, LUA_PATH and LUA_CPATH\n"
  "  -W        turn warnings on\n"
  "  --        end of options\n"
  "  -         run standard input as the script\n"
  "With no script, no -e and no -v: the REPL when standard input is a\n"
  "terminal, else standard input runs as a script.  Every ludus module\n"
  "is preloaded (require \"ludus.tictactoe\"), and ludus, the games, help,\n"
  "ai, match, sudoku and mahjong are globals.\n";

/* What the command line asks for. */
typedef struct options {
  int script;            /* argv index of the script ("-" for stdin), or 0 */
  int first_arg;         /* argv index where the options end */
  bool interactive, version, help, ignore_env, warnings, runs_code;
  const char *bad;       /* the option that is wrong, or NULL */
  bool needs_value;      /* ... because its value is missing */
} options;

static const char *progname = "ludus";

static void print_error(const char *message) {
  fprintf(stderr, "%s: %s\n", progname, message);
  fflush(stderr);
}

/* Prints the error on the top of the stack, if status says there is one. */
static int report(lua_State *L, int status) {
  if (status != LUA_OK) {
    const char *message = lua_tostring(L, -1);
    print_error(message ? message : "(error object is not a string)");
    lua_pop(L, 1);
  }
  return status;
}

static bool is_flag(const char *arg, const char *flag) {
  return strcmp(arg, flag) == 0;
}

/* Reads the options; stops at the script, which takes the rest. */
static void parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  int i;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || is_flag(arg, "-")) {
      o->script = i;
      break;
    }
    if (is_flag(arg, "--")) {
      i++;
      if (i < argc) o->script = i;
      break;
    }
    if (is_flag(arg, "-h") || is_flag(arg, "--help")) o->help = true;
    else if (is_flag(arg, "-v") || is_flag(arg, "--version")) o->version = true;
    else if (is_flag(arg, "-i")) o->interactive = true;
    else if (is_flag(arg, "-E")) o->ignore_env = true;
    else if (is_flag(arg, "-W")) o->warnings = true;
    else if (arg[1] == 'e' || arg[1] == 'l') {
      if (arg[1] == 'e') o->runs_code = true;
      if (arg[2] == '\0' && ++i == argc) {   /* the value is the next arg */
        o->bad = arg;
        o->needs_value = true;
        return;
      }
    } else {
      o->bad = arg;
      return;
    }
  }
  o->first_arg = o->script ? o->script : i;
}

/* The global arg: the script at 0, its arguments after it, and what came
   before it (the interpreter and its options) at negative indexes. */
static void set_arg_table(lua_State *L, int argc, char **argv, int script) {
  lua_createtable(L, argc, 1);
  for (int i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

static int run_chunk(lua_State *L, int status, int nargs) {
  if (status == LUA_OK)
    status = repl_docall(L, nargs, 0);
  else if (nargs > 0)
    lua_pop(L, nargs);
  return report(L, status);
}

static int run_code(lua_State *L, const char *code, const char *chunkname) {
  return run_chunk(L, luaL_loadbuffer(L, code, strlen(code), chunkname), 0);
}

/* -l spec: "mod" sets the global mod, "g=mod" the global g. */
static int require_global(lua_State *L, const char *spec) {
  const char *equals = strchr(spec, '=');
  const char *module = equals ? equals + 1 : spec;
  lua_getglobal(L, "require");
  lua_pushstring(L, module);
  int status = repl_docall(L, 1, 1);
  if (status == LUA_OK) {
    lua_pushlstring(L, spec, equals ? (size_t)(equals - spec) : strlen(spec));
    lua_insert(L, -2);
    lua_setglobal(L, lua_tostring(L, -2));
    lua_pop(L, 1);
  }
  return report(L, status);
}

/* LUA_INIT_5_4, or else LUA_INIT: code, or "@file" to run a file. */
static int run_init(lua_State *L) {
  const char *name = "LUA_INIT" LUA_VERSUFFIX;
  const char *init = getenv(name);
  if (!init) init = getenv(name = "LUA_INIT");
  if (!init) return LUA_OK;
  if (init[0] == '@') return run_chunk(L, luaL_loadfile(L, init + 1), 0);
  lua_pushfstring(L, "=%s", name);
  int status = run_code(L, init, lua_tostring(L, -1));
  lua_pop(L, 1);
  return status;
}

/* Runs -e and -l in the order given; false at the first error. */
static bool run_options(lua_State *L, char **argv, int end) {
  for (int i = 1; i < end; i++) {
    const char *arg = argv[i];
    if (is_flag(arg, "-W")) {
      lua_warning(L, "@on", 0);
      continue;
    }
    if (arg[0] != '-' || (arg[1] != 'e' && arg[1] != 'l')) continue;
    const char *value = arg[2] ? arg + 2 : argv[++i];
    int status = arg[1] == 'e' ? run_code(L, value, "=(command line)")
                               : require_global(L, value);
    if (status != LUA_OK) return false;
  }
  return true;
}

/* The script with its arguments; "-" is standard input. */
static int run_script(lua_State *L, int argc, char **argv, int script) {
  const char *name = argv[script];
  bool from_stdin = is_flag(name, "-") && !is_flag(argv[script - 1], "--");
  int status = luaL_loadfile(L, from_stdin ? NULL : name);
  int nargs = argc - script - 1;
  if (status == LUA_OK) {
    luaL_checkstack(L, nargs, "too many arguments to the script");
    for (int i = script + 1; i < argc; i++) lua_pushstring(L, argv[i]);
  }
  return status == LUA_OK ? run_chunk(L, status, nargs) : report(L, status);
}

/* Everything, in protected mode; leaves true when all went well. */
static int ludus_main(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  options o;
  parse_options(argc, argv, &o);
  if (o.bad) {
    fprintf(stderr, o.needs_value ? "%s: '%s' needs a value\n"
                                  : "%s: unknown option '%s'\n",
            progname, o.bad);
    fprintf(stderr, usage_text, progname, progname);
    return 0;
  }
  if (o.help) {
    printf(usage_text, progname, progname);
    printf("%s", batch_usage_summary);
    printf("%s", match_usage_summary);
    printf("%s", uci_usage_summary);
    lua_pushboolean(L, 1);
    return 1;
  }
  if (o.version) puts(LUDUS_COPYRIGHT);
  if (o.ignore_env) {          /* package reads this to skip LUA_PATH */
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "LUA_NOENV");
  }
  luaL_openlibs(L);
  ludus_preload(L);
  ludus_open_globals(L);       /* the REPL's names, for scripts and -e too */
  set_arg_table(L, argc, argv, o.script);
  lua_gc(L, LUA_GCGEN, 0, 0);
  if (!o.ignore_env && run_init(L) != LUA_OK) return 0;
  if (!run_options(L, argv, o.first_arg)) return 0;
  if (o.script && run_script(L, argc, argv, o.script) != LUA_OK) return 0;
  if (o.interactive) {
    repl_run(L);
  } else if (!o.script && !o.runs_code && !o.version) {
    if (isatty(STDIN_FILENO))
      repl_run(L);
    else if (run_chunk(L, luaL_loadfile(L, NULL), 0) != LUA_OK)
      return 0;
  }
  lua_pushboolean(L, 1);
  return 1;
}

int main(int argc, char **argv) {
  static char *no_args[] = {"ludus", NULL};
  if (argc < 1) {
    argc = 1;
    argv = no_args;
  }
  if (argv[0][0]) progname = argv[0];
  if (argc > 1 && strcmp(argv[1], "match") == 0)
    return match_main(progname, argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "uci") == 0)
    return uci_main(progname, argc - 1, argv + 1);
  if (argc > 1 && batch_is_command(argv[1]))    /* ludus solve ... */
    return batch_main(progname, argc - 1, argv + 1);
  lua_State *L = luaL_newstate();
  if (!L) {
    print_error("cannot create the Lua state: not enough memory");
    return EXIT_FAILURE;
  }
  lua_pushcfunction(L, ludus_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  int status = lua_pcall(L, 2, 1, 0);
  bool ok = status == LUA_OK && lua_toboolean(L, -1);
  report(L, status);
  lua_close(L);
  return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
