/*
** lgame.h: C games seen from Lua.
**
** lgame_open turns a game_class into a Lua module: an object type whose
** methods are the protocol of DESIGN.md (turn, moves, play, push, pop,
** is_over, result, copy, hash, history, save, tostring), one method per
** side that checks whose turn it is (t:x("b2")), and the functions new and
** load.  A game binding adds or replaces what is special to it.
*/
#ifndef LGAME_H
#define LGAME_H

#include <lauxlib.h>
#include <lua.h>

#include "base/game.h"

typedef struct lgame lgame;

/* Pushes the module table of cls.  methods and functions (either may be
   NULL) are added after the generic ones and replace them by name; they
   get the object metatable as their first upvalue. */
void lgame_open(lua_State *L, const game_class *cls, const luaL_Reg *methods,
                const luaL_Reg *functions);

/* The game object at arg, or raises a type error. */
lgame *lgame_check(lua_State *L, int arg, const game_class *cls);

/* Pushes a new game object of cls whose history starts at start. */
lgame *lgame_push(lua_State *L, const game_class *cls, const void *start);

/* Its current position (the game's state struct). */
void *lgame_state(lgame *game);

/* The position its history starts from. */
const void *lgame_start(lgame *game);

/* Plays a legal move in place, recording it in the history. */
void lgame_push_move(lua_State *L, lgame *game, game_move move);

/* g:play(m), for a game binding to offer under another name too. */
int lgame_play(lua_State *L);

/* g:solve() and G.solve(g) for small games (a method or a function):
   exact negamax to the end of the game (core/base/solve.h); returns the
   value for the side to move (1 win, 0 draw, -1 loss) and a best move,
   nil once the game is over.  Ctrl-C stops it with an error. */
int lgame_solve(lua_State *L);

#endif
