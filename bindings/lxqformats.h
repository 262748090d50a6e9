/*
** lxqformats.h: what lxiangqi.c and lxqformats.c (xiangqi's record
** files: read, write, g:pgn, and load's PGN path) share.
*/
#ifndef LXQFORMATS_H
#define LXQFORMATS_H

#include <stdbool.h>

#include <lua.h>

#include "xiangqi/xiangqi.h"

/* Reads {rules=false} or {repetition=, move_limit=} at arg into the
   position's rules (lxiangqi.c). */
void lxq_check_rules(lua_State *L, int arg, xq_position *pos);

/* xiangqi.read(source [, options]) -> an iterator of records. */
int lxq_read(lua_State *L);

/* xiangqi.write(path, records [, options]) -> how many were written. */
int lxq_write(lua_State *L);

/* g:pgn{notation=, tags=, result=} -> the game as PGN text. */
int lxq_pgn_method(lua_State *L);

/* Whether load's text is a PGN game rather than a list of moves: it
   begins with a tag or a comment, holds a comment, a variation or a
   NAG, or ends with a result token. */
bool lxq_is_pgn(const char *text, size_t len);

/* load() of a PGN game with the rules of `rules`: pushes the game, or
   nil and why (also when the text holds more than one game); returns
   how many values it pushed. */
int lxq_load_pgn(lua_State *L, const char *text, size_t len,
                 const xq_position *rules);

#endif
