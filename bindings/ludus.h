/*
** ludus.h: what the binding files share with each other and with the
** `ludus` executable.
*/
#ifndef LUDUS_H
#define LUDUS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include <lua.h>

#define LUDUS_VERSION "0.1.0"
#define LUDUS_COPYRIGHT "ludus " LUDUS_VERSION ", " LUA_RELEASE

/* Set by the SIGINT handler of `ludus` (the REPL's, or a script's);
   long C jobs poll it through their search limit and stop early.  It
   stays set until the call typed at the prompt (or the script) ends, so
   that every job after the first stops at once too; jobs never clear
   it. */
extern volatile sig_atomic_t ludus_interrupted;

/* A job that stopped for Ctrl-C says so here before it returns what it
   found: the interrupt has done its work, and the Lua code that called
   the job gets its results instead of an "interrupted!" error.  The
   `ludus` executable sets the function that does this (repl.c); in a
   stock lua5.4 there is none and this does nothing. */
void ludus_interrupt_consumed(lua_State *L);
extern void (*ludus_on_interrupt_consumed)(lua_State *L);

/* A seed from the clock, different at each call, for players and
   generators that were given none. */
uint64_t ludus_fresh_seed(void);

/* Hides the metatable at mt from Lua code: getmetatable returns its
   __name instead, and setmetatable refuses to replace it.  Every ludus
   object type does this, so that no Lua code can change or copy what C
   code trusts. */
void ludus_protect_metatable(lua_State *L, int mt);

/* Pushes the path of the data file name (the Connect Four book) where
   the build or `make install` puts it beside the running binary (ludus
   or ludus.so): its folder's build/, else ../share/ludus/ for an
   installed ludus, ../../../share/ludus/ for an installed ludus.so.
   Returns the path, or NULL with nothing pushed when none is there. */
const char *ludus_push_data_file(lua_State *L, const char *name);

/* The same without Lua: the path into out (PATH_MAX bytes), or false. */
bool ludus_data_file(const char *name, char *out);

/* Whether two paths name one file: the same text, or the same file on
   the disk when both exist (an output that would write over an input). */
bool ludus_same_file(const char *a, const char *b);

/* Makes the methods table at index methods strict: reading a name it
   lacks raises "<name>: no method 'solv' (did you mean 'solve'?)", the
   nearest method by edit distance.  A name in fields (space-separated:
   the data fields a table object may lack, as a player's options), a
   name starting with '_' and a key that is not a string still read as
   nil.  Every ludus object type calls it on its methods table. */
void ludus_strict_methods(lua_State *L, int methods, const char *name,
                          const char *fields);

/* `require "ludus.strict"`: ludus_strict_methods for game.define. */
int luaopen_ludus_strict(lua_State *L);

/* `require "ludus.process"`: child processes for the games of a match
   (lprocess.c). */
int luaopen_ludus_process(lua_State *L);

/* The module table: `require "ludus"`. */
int luaopen_ludus(lua_State *L);

/* What the `ludus` executable adds to the globals before it runs
   anything: `ludus`, each game module by its name, help, ai, match,
   sudoku and mahjong, each unless a global of that name is set already.
   The REPL, scripts and -e code see the same names; ludus.so in a stock
   lua5.4 adds none. */
int ludus_open_globals(lua_State *L);

/* Every ludus module, C and Lua, into package.preload. */
void ludus_preload(lua_State *L);

/* One per game module (also reachable as `require "ludus.<game>"` from a
   stock lua5.4 through ludus.so). */
int luaopen_ludus_tictactoe(lua_State *L);
int luaopen_ludus_connect4(lua_State *L);
int luaopen_ludus_mnk(lua_State *L);
int luaopen_ludus_gomoku(lua_State *L);
int luaopen_ludus_reversi(lua_State *L);
int luaopen_ludus_xiangqi(lua_State *L);

/* reversi.read and reversi.write (lreversi_formats.c): adds them to the
   module table on the top of the stack. */
void lreversi_open_formats(lua_State *L);

/* ludus.ai: the searches and AI players for every game (lai.c). */
int luaopen_ludus_ai(lua_State *L);

/* ludus.sudoku: puzzles, solver, generator and hints (lsudoku.c). */
int luaopen_ludus_sudoku(lua_State *L);

/* ludus.mahjong: riichi hand analysis (lmahjong.c). */
int luaopen_ludus_mahjong(lua_State *L);
/* mahjong.table and mahjong.match (lmahjong_table.c): adds them to the
   module table on the top of the stack. */
void lmahjong_open_table(lua_State *L);

/* ludus.program: another program on a socket pair (lprogram.c), for
   players that are other programs. */
int luaopen_ludus_program(lua_State *L);

/* The pure-Lua modules compiled in from scripts/ludus/ (embedded.c). */
typedef struct ludus_script {
  const char *name;          /* "ludus.help" */
  const char *source;
  size_t size;
} ludus_script;
extern const ludus_script ludus_scripts[];   /* ends with a NULL name */

/* luaopen_ludus_players_minimax and the like, for the scripts: preloads
   every ludus module, then loads the script called name (its module
   name). */
int ludus_open_script(lua_State *L, const char *name);

#endif
