/*
** lgame.h: C games seen from Lua.
**
** lgame_open turns a game_class into a Lua module: an object type whose
** methods are the protocol of docs/c-library.md (turn, moves, play, push, pop,
** is_over, result, copy, hash, history, save, tostring), one method per
** side that checks whose turn it is (t:x("b2")), and the functions new and
** load.  A game binding adds or replaces what is special to it.
*/
#ifndef LGAME_H
#define LGAME_H

#include <stdbool.h>

#include <lauxlib.h>
#include <lua.h>

#include "base/game.h"
#include "base/limit.h"
#include "base/search.h"

typedef struct lgame lgame;

/* Pushes the module table of cls.  methods and functions (either may be
   NULL) are added after the generic ones and replace them by name; they
   get the object metatable as their first upvalue. */
void lgame_open(lua_State *L, const game_class *cls, const luaL_Reg *methods,
                const luaL_Reg *functions);

/* Pushes the table of methods of cls's objects (their __index), for a
   binding that adds methods of its own after lgame_open. */
void lgame_push_methods(lua_State *L, const game_class *cls);

/* The game object at arg, or raises a type error. */
lgame *lgame_check(lua_State *L, int arg, const game_class *cls);

/* Pushes a new game object of cls whose history starts at start. */
lgame *lgame_push(lua_State *L, const game_class *cls, const void *start);

/* Its current position (the game's state struct). */
void *lgame_state(lgame *game);

/* The position its history starts from. */
const void *lgame_start(lgame *game);

/* The moves played from the start (valid until the game changes);
   returns how many. */
int lgame_moves(lgame *game, const game_move **moves);

/* Pushes the list of the moves played from the start, as history()
   returns it. */
void lgame_push_history(lua_State *L, lgame *game);


/* Plays a legal move in place, recording it in the history. */
void lgame_push_move(lua_State *L, lgame *game, game_move move);

/* load(record) from start, for a binding whose games take options: pushes
   the game after the moves of the record at arg, or nil and what was
   wrong; returns the number of values pushed. */
int lgame_load(lua_State *L, const game_class *cls, const void *start,
               int arg);

/* The arguments of a load function, (record [, options]), made ready:
   a record of ludus.match at 1 ({record = "4453", options = ...}, what
   a match returns) becomes its record string, and its options go to 2
   unless options are given.  Every load calls it first. */
void lgame_load_args(lua_State *L);

/* Pushes the drawing of the C game at arg for a terminal, in colour when
   color is true, its last move marked (what the REPL shows; tostring
   stays plain), and returns true; false, with nothing pushed, when arg
   is not a C game. */
bool lgame_push_drawing(lua_State *L, int arg, bool color);

/* g:play(m), for a game binding to offer under another name too. */
int lgame_play(lua_State *L);

/* g:solve() and G.solve(g) for small games (a method or a function):
   exact negamax to the end of the game (core/base/solve.h); returns the
   value for the side to move (1 win, 0 draw, -1 loss) and a best move;
   raises once the game is over.  Stopped by Ctrl-C: nil, nil and
   {stopped = "interrupted", nodes =, seconds =}. */
int lgame_solve(lua_State *L);

/* ---- options ---- */

/* The largest count a limit may be (2^53: nodes, playouts, solutions),
   and the longest time in seconds (about 31 years: "no limit" for an
   engine protocol's infinite search). */
#define LGAME_MAX_COUNT ((lua_Integer)1 << 53)
#define LGAME_MAX_SECONDS 1e9

/* Option key of the table at arg: a whole number from min to max, def
   when absent; raises "<where>: option 'key' must be a whole number from
   min to max (got x)" otherwise. */
lua_Integer lgame_opt_integer(lua_State *L, int arg, const char *key,
                              lua_Integer def, lua_Integer min,
                              lua_Integer max, const char *where);

/* Option key: a positive number, at most max; def when absent. */
double lgame_opt_number(lua_State *L, int arg, const char *key, double def,
                        double max, const char *where);

/* Option key: an integer of any value (the caller says which it takes),
   def when absent; raises "<where>: option 'key' must be an integer
   (got x)" on anything else. */
lua_Integer lgame_opt_whole(lua_State *L, int arg, const char *key,
                            lua_Integer def, const char *where);

/* Option key: true or false, def when absent. */
bool lgame_opt_boolean(lua_State *L, int arg, const char *key, bool def,
                       const char *where);

/* Whether word[0..len) is one of the space-separated words of list. */
bool lgame_in_word_list(const char *list, const char *word, size_t len);

/* Raises "<where>: unknown option 'key' (it takes: names)" for a key of
   the options at arg (a table, or absent) that is not one of names,
   space-separated (the message separates them with commas): a misspelt
   option is an error, not a default. */
void lgame_check_options(lua_State *L, int arg, const char *names,
                         const char *where);

/* Options time (seconds) and nodes of the table at arg (which may be
   absent) into limit, whose values stay where an option is absent. */
void lgame_read_limits(lua_State *L, int arg, search_limit *limit,
                       const char *where);

/* ---- what long jobs share ---- */

/* Zeroes limit, points it at the Ctrl-C flag and starts its clock. */
void lgame_start_limit(search_limit *limit);

/* After a job: why its limit stopped it ("nodes", "time", "interrupted")
   or NULL.  A job that Ctrl-C stopped returns what it found instead of
   raising, and this tells the REPL so (ludus_interrupt_consumed): every
   job calls it, or lgame_push_stopped, before it returns. */
const char *lgame_finish_limit(lua_State *L, const search_limit *limit);

/* lgame_finish_limit, then pushes {nodes=, seconds=, complete=,
   stopped=}: the info a stopped job returns. */
void lgame_push_stopped(lua_State *L, const search_limit *limit);

/* A C object kept in the registry under key for the life of the Lua
   state: made by make on first use (raising when make returns NULL) and
   given to release when the state closes.  *made, when not NULL, says
   whether this call made it. */
void *lgame_shared(lua_State *L, const char *key, void *(*make)(void),
                   void (*release)(void *), bool *made);

/* The same, for a job that uses the object (a solve, a search): marks it
   busy until the calling C function returns or raises, through a
   to-be-closed value it pushes (which must stay where it is on the
   stack).  Raises when the object is busy already, as when a progress
   callback of a solve starts another solve.  key is
   "ludus.<module>.<object>", job names the job ("solve"): both make the
   message. */
void *lgame_shared_job(lua_State *L, const char *key, void *(*make)(void),
                       void (*release)(void *), bool *made, const char *job);

/* The job using the object under key, or NULL when none is. */
const char *lgame_shared_busy(lua_State *L, const char *key);

/* The object under key, or NULL while none has been made. */
void *lgame_shared_find(lua_State *L, const char *key);

/* A solver's progress hook: calls the Lua function with (lower, upper,
   nodes), protected; an error in it stops the solve through limit and
   is raised by lgame_progress_check after the solver returns. */
typedef struct lgame_progress {
  lua_State *L;
  int function;              /* its stack index; 0 when there is none */
  int error;                 /* the stack slot kept for its error */
  search_limit *limit;
  bool failed;
} lgame_progress;

/* Reads the option progress of the table at arg (which may be absent):
   pushes the function (or nil) and the slot for its error; raises when
   it is neither a function nor nil.  where starts the message. */
void lgame_progress_init(lua_State *L, lgame_progress *call, int arg,
                         search_limit *limit, const char *where);

/* The hook to hand the solver, with the lgame_progress as context. */
void lgame_call_progress(void *progress, int lower, int upper,
                         uint64_t nodes);

/* Pushes the function and its three arguments, for a caller that calls
   it its own way. */
void lgame_push_progress(const lgame_progress *call, int lower, int upper,
                         uint64_t nodes);

/* After the solver: raises the error the function raised, if it did. */
void lgame_progress_check(const lgame_progress *call);

/* ---- searching from Lua ---- */

/* A game object made ready for the C searches (core/base/search.h).  For a
   C game the state is a private copy of the object's position; for a game
   defined in Lua (ludus.game.define) the class is a bridge whose functions
   call the spec's, so the searches drive it like any other. */
typedef struct lgame_target {
  const game_class *cls;
  void *state;
  search_eval eval;          /* the Lua evaluation, when one was given */
  void *eval_context;
  bool hashed;               /* cls->hash means something: use a table */
  const void *identity;      /* one per game module, to tell games apart */
  uint64_t lua_calls;        /* calls into Lua so far: spec functions and
                                the Lua evaluation */
} lgame_target;

/* Reads the game object at arg (raising when it is none) and pushes a
   value that owns the target: keep it on the stack while searching.
   eval_arg is the stack index of a Lua evaluation function, or 0.  A Lua
   callback that fails stops the search through limit. */
lgame_target *lgame_target_push(lua_State *L, int arg, int eval_arg,
                                search_limit *limit);

/* After a search: raises the error of a Lua callback that failed. */
void lgame_target_check(lua_State *L, lgame_target *target);

/* Pushes a table with the text of each move of line, played in turn from
   the target's position (which is left as it was). */
void lgame_target_push_line(lua_State *L, lgame_target *target,
                            const game_move *line, int n);

#endif
