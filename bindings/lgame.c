/*
** lgame.c: the protocol bridge, C games seen from Lua.
**
** A game object is a full userdata holding the class, the start position,
** the current position and the history (moves with their undo data, in
** arrays that grow as needed), so push and pop work in place and
** history() can name every move from the start.  Methods are closures
** whose first upvalue is the object metatable: checking self is one
** pointer comparison.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lgame.h"
#include "ludus.h"
#include "base/solve.h"

struct lgame {
  const game_class *cls;
  game_move *moves;
  game_undo *undos;
  int count, capacity;
  /* then the start position and the current one, each padded to 16 */
};

_Static_assert(sizeof(struct lgame) % 16 == 0, "positions stay aligned");

static size_t padded(size_t size) { return (size + 15) & ~(size_t)15; }
static void *start_of(lgame *g) { return (char *)(g + 1); }
void *lgame_state(lgame *g) {
  return (char *)(g + 1) + padded(g->cls->state_size);
}

const void *lgame_start(lgame *g) { return start_of(g); }

#define METATABLE lua_upvalueindex(1)

/* ---- objects ---- */

static int game_gc(lua_State *L) {
  lgame *g = lua_touserdata(L, 1);
  free(g->moves);
  free(g->undos);
  g->moves = NULL;
  g->undos = NULL;
  g->count = g->capacity = 0;
  return 0;
}

/* A new object with an empty history; the metatable is at mt. */
static lgame *new_game(lua_State *L, const game_class *cls, int mt) {
  mt = lua_absindex(L, mt);
  lgame *g = lua_newuserdatauv(L, sizeof *g + 2 * padded(cls->state_size), 0);
  memset(g, 0, sizeof *g + 2 * padded(cls->state_size));
  g->cls = cls;
  lua_pushvalue(L, mt);
  lua_setmetatable(L, -2);
  return g;
}

static void push_metatable(lua_State *L, const game_class *cls) {
  lua_pushfstring(L, "ludus.%s", cls->name);
  luaL_getmetatable(L, lua_tostring(L, -1));
  lua_remove(L, -2);
}

lgame *lgame_push(lua_State *L, const game_class *cls, const void *start) {
  push_metatable(L, cls);
  lgame *g = new_game(L, cls, -1);
  lua_remove(L, -2);
  memcpy(start_of(g), start, cls->state_size);
  memcpy(lgame_state(g), start, cls->state_size);
  return g;
}

/* The name is built in C: pushing it would shift an absent argument. */
lgame *lgame_check(lua_State *L, int arg, const game_class *cls) {
  char name[64];
  snprintf(name, sizeof name, "ludus.%s", cls->name);
  return luaL_checkudata(L, arg, name);
}

static lgame *check_self(lua_State *L) {
  lgame *g = lua_touserdata(L, 1);
  if (g && lua_getmetatable(L, 1)) {
    int same = lua_rawequal(L, -1, METATABLE);
    lua_pop(L, 1);
    if (same) return g;
  }
  /* The name lives on in the metatable; popping it keeps arg 1 as it was. */
  lua_getfield(L, METATABLE, "__name");
  const char *name = lua_tostring(L, -1);
  lua_pop(L, 1);
  luaL_typeerror(L, 1, name);
  return NULL;
}

/* Room for one more move in the history, before anything changes. */
static void reserve(lua_State *L, lgame *g, int needed) {
  if (needed <= g->capacity) return;
  int capacity = g->capacity ? g->capacity : 16;
  while (capacity < needed) capacity *= 2;
  game_move *moves = realloc(g->moves, (size_t)capacity * sizeof *moves);
  if (moves) g->moves = moves;
  game_undo *undos = moves ? realloc(g->undos, (size_t)capacity * sizeof *undos)
                           : NULL;
  if (undos) g->undos = undos;
  if (!moves || !undos) luaL_error(L, "not enough memory for the history");
  g->capacity = capacity;
}

static lgame *copy_game(lua_State *L, lgame *from) {
  lgame *g = new_game(L, from->cls, METATABLE);
  memcpy(start_of(g), start_of(from), 2 * padded(from->cls->state_size));
  reserve(L, g, from->count);
  if (from->count) {
    memcpy(g->moves, from->moves, (size_t)from->count * sizeof *g->moves);
    memcpy(g->undos, from->undos, (size_t)from->count * sizeof *g->undos);
  }
  g->count = from->count;
  return g;
}

/* ---- text ---- */

static void push_move_text(lua_State *L, const game_class *cls,
                           const void *state, game_move move) {
  char buf[64];
  size_t n = cls->format_move(state, move, buf, sizeof buf);
  lua_pushlstring(L, buf, n < sizeof buf ? n : sizeof buf - 1);
}

/* Pushes how the game ended: "x won" or "a draw". */
static const char *push_ending(lua_State *L, const game_class *cls,
                               game_status status) {
  if (status == GAME_DRAW) return lua_pushliteral(L, "a draw");
  return lua_pushfstring(L, "%s won", cls->side[status == GAME_WIN_0 ? 0 : 1]);
}

/* Pushes text as it may be shown in a message: cut short, with no
   control bytes. */
static const char *push_shown(lua_State *L, const char *text, size_t len) {
  char buf[40];
  size_t n = len < sizeof buf ? len : sizeof buf - 4;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)text[i];
    buf[i] = c < 32 || c == 127 ? '?' : (char)c;
  }
  if (n < len) {
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  return lua_pushlstring(L, buf, n);
}

/* Pushes the legal moves joined by spaces. */
static const char *push_legal_list(lua_State *L, const game_class *cls,
                                   const void *state) {
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(state, moves);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; i < n; i++) {
    if (i) luaL_addchar(&b, ' ');
    push_move_text(L, cls, state, moves[i]);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* Reads the move at arg and checks that it is legal here; raises with a
   message that says what is wrong otherwise. */
static game_move check_move(lua_State *L, lgame *g, int arg) {
  const game_class *cls = g->cls;
  const void *state = lgame_state(g);
  int type = lua_type(L, arg);
  if (type != LUA_TSTRING && type != LUA_TNUMBER)
    luaL_typeerror(L, arg, "string");
  size_t len;
  const char *text = lua_tolstring(L, arg, &len);
  game_status status = cls->status(state);
  if (status != GAME_ONGOING)
    luaL_error(L, "%s: no move after the end of the game (%s)", cls->name,
               push_ending(L, cls, status));
  game_move move = GAME_NO_MOVE;
  const char *why = "not a move";
  game_error code = GAME_EBADTEXT;
  if (strlen(text) == len) code = cls->parse_move(state, text, &move, &why);
  if (code == GAME_OK) return move;
  const char *shown = push_shown(L, text, len);
  if (code == GAME_EILLEGAL)
    luaL_error(L, "%s: illegal move '%s' for %s (%s; legal: %s)", cls->name,
               shown, cls->side[cls->turn(state)], why,
               push_legal_list(L, cls, state));
  luaL_error(L, "%s: bad move '%s' (%s)", cls->name, shown, why);
  return GAME_NO_MOVE;
}

void lgame_push_move(lua_State *L, lgame *g, game_move move) {
  reserve(L, g, g->count + 1);
  g->cls->make(lgame_state(g), move, &g->undos[g->count]);
  g->moves[g->count++] = move;
}

/* ---- methods ---- */

static int game_turn(lua_State *L) {
  lgame *g = check_self(L);
  const void *state = lgame_state(g);
  if (g->cls->status(state) != GAME_ONGOING)
    lua_pushnil(L);
  else
    lua_pushstring(L, g->cls->side[g->cls->turn(state)]);
  return 1;
}

static int game_moves(lua_State *L) {
  lgame *g = check_self(L);
  const void *state = lgame_state(g);
  game_move moves[GAME_MAX_MOVES];
  int n = g->cls->moves(state, moves);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    push_move_text(L, g->cls, state, moves[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int game_push(lua_State *L) {
  lgame *g = check_self(L);
  lgame_push_move(L, g, check_move(L, g, 2));
  lua_settop(L, 1);
  return 1;
}

int lgame_play(lua_State *L) {
  lgame *g = check_self(L);
  game_move move = check_move(L, g, 2);
  lgame_push_move(L, copy_game(L, g), move);
  return 1;
}

/* g:x(m), g:o(m): play, naming the side that moves (upvalue 2). */
static int game_play_side(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  const void *state = lgame_state(g);
  int side = (int)lua_tointeger(L, lua_upvalueindex(2));
  if (cls->status(state) == GAME_ONGOING && cls->turn(state) != side)
    return luaL_error(L, "%s: it is %s's turn, not %s's", cls->name,
                      cls->side[1 - side], cls->side[side]);
  game_move move = check_move(L, g, 2);
  lgame_push_move(L, copy_game(L, g), move);
  return 1;
}

static int game_pop(lua_State *L) {
  lgame *g = check_self(L);
  if (g->count == 0)
    return luaL_error(L, "%s: no move to pop (the history is empty)",
                      g->cls->name);
  void *state = lgame_state(g);
  g->count--;
  g->cls->unmake(state, g->moves[g->count], &g->undos[g->count]);
  push_move_text(L, g->cls, state, g->moves[g->count]);
  return 1;
}

static int game_is_over(lua_State *L) {
  lgame *g = check_self(L);
  lua_pushboolean(L, g->cls->status(lgame_state(g)) != GAME_ONGOING);
  return 1;
}

static int game_result(lua_State *L) {
  lgame *g = check_self(L);
  game_status status = g->cls->status(lgame_state(g));
  if (status == GAME_ONGOING) {
    lua_pushnil(L);
    return 1;
  }
  lua_createtable(L, 0, 2);
  if (status != GAME_DRAW) {
    lua_pushstring(L, g->cls->side[status == GAME_WIN_0 ? 0 : 1]);
    lua_setfield(L, -2, "winner");
  }
  lua_pushboolean(L, status == GAME_DRAW);
  lua_setfield(L, -2, "draw");
  return 1;
}

static int game_copy(lua_State *L) {
  copy_game(L, check_self(L));
  return 1;
}

static int game_hash(lua_State *L) {
  lgame *g = check_self(L);
  lua_pushinteger(L, (lua_Integer)g->cls->hash(lgame_state(g)));
  return 1;
}

/* The moves from the start, each named in the position it was played in. */
static int game_history(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  void *replay = lua_newuserdatauv(L, cls->state_size, 0);
  memcpy(replay, start_of(g), cls->state_size);
  lua_createtable(L, g->count, 0);
  for (int i = 0; i < g->count; i++) {
    push_move_text(L, cls, replay, g->moves[i]);
    lua_rawseti(L, -2, i + 1);
    game_undo undo;
    cls->make(replay, g->moves[i], &undo);
  }
  return 1;
}

/* The history as one line, the form load reads back. */
static int game_save(lua_State *L) {
  game_history(L);
  int n = (int)lua_rawlen(L, -1);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, ' ');
    lua_rawgeti(L, -2, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

static int game_tostring(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  if (!cls->render) {
    lua_pushfstring(L, "%s position", cls->name);
    return 1;
  }
  const void *state = lgame_state(g);
  size_t size = cls->render(state, NULL, 0);
  luaL_Buffer b;
  char *text = luaL_buffinitsize(L, &b, size + 1);
  cls->render(state, text, size + 1);
  luaL_pushresultsize(&b, size);
  return 1;
}

int lgame_solve(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  void *state = lua_newuserdatauv(L, cls->state_size, 0);
  memcpy(state, lgame_state(g), cls->state_size);
  search_limit limit = {0};
  limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  game_solution solution;
  if (!game_solve(cls, state, &limit, &solution))
    return luaL_error(L, "%s: solve stopped (%s)", cls->name,
                      limit_reason(&limit));
  lua_pushinteger(L, game_score_sign(solution.score));
  if (solution.best == GAME_NO_MOVE)
    lua_pushnil(L);
  else
    push_move_text(L, cls, state, solution.best);
  return 2;
}

static const luaL_Reg game_methods[] = {
  {"turn", game_turn},
  {"moves", game_moves},
  {"play", lgame_play},
  {"push", game_push},
  {"pop", game_pop},
  {"is_over", game_is_over},
  {"result", game_result},
  {"copy", game_copy},
  {"hash", game_hash},
  {"history", game_history},
  {"save", game_save},
  {"__tostring", game_tostring},
  {"__gc", game_gc},
  {NULL, NULL}
};

/* ---- module functions (upvalues: the metatable, the class) ---- */

#define CLASS() ((const game_class *)lua_touserdata(L, lua_upvalueindex(2)))

static lgame *new_start_game(lua_State *L) {
  const game_class *cls = CLASS();
  lgame *g = new_game(L, cls, METATABLE);
  cls->init(start_of(g));
  cls->init(lgame_state(g));
  return g;
}

static int module_new(lua_State *L) {
  new_start_game(L);
  return 1;
}

/* load(record): the game after the moves of record, or nil and why. */
static int module_load(lua_State *L) {
  const game_class *cls = CLASS();
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  lgame *g = new_start_game(L);
  if (strlen(text) != len) {
    lua_pushnil(L);
    lua_pushfstring(L, "%s: bad record (it contains a zero byte)", cls->name);
    return 2;
  }
  int cap = (int)(len / 2 + 1);     /* every move takes a byte and a gap */
  reserve(L, g, cap);
  game_replay_error err;
  int n = game_replay(cls, lgame_state(g), text, g->moves, g->undos, cap, &err);
  if (n >= 0) {
    g->count = n;
    return 1;
  }
  const char *shown = push_shown(L, text + err.offset, err.length);
  lua_pushnil(L);
  if (err.code == GAME_EOVER)
    lua_pushfstring(L, "%s: bad record: move %d '%s' comes after the end "
                    "of the game", cls->name, err.ply, shown);
  else
    lua_pushfstring(L, "%s: bad record: %s move %d '%s' (%s)", cls->name,
                    err.code == GAME_EILLEGAL ? "illegal" : "unreadable",
                    err.ply, shown, err.why);
  return 2;
}

static const luaL_Reg module_functions[] = {
  {"new", module_new},
  {"load", module_load},
  {NULL, NULL}
};

/* Registers regs into the table at -1 as closures over the metatable
   (at mt) and the class. */
static void set_closures(lua_State *L, const luaL_Reg *regs, int mt,
                         const game_class *cls) {
  for (; regs && regs->name; regs++) {
    lua_pushvalue(L, mt);
    lua_pushlightuserdata(L, (void *)cls);
    lua_pushcclosure(L, regs->func, 2);
    lua_setfield(L, -2, regs->name);
  }
}

void lgame_open(lua_State *L, const game_class *cls, const luaL_Reg *methods,
                const luaL_Reg *functions) {
  lua_pushfstring(L, "ludus.%s", cls->name);
  luaL_newmetatable(L, lua_tostring(L, -1));
  lua_remove(L, -2);
  int mt = lua_gettop(L);
  set_closures(L, game_methods, mt, cls);
  for (int side = 0; side < 2; side++) {
    lua_pushvalue(L, mt);
    lua_pushinteger(L, side);
    lua_pushcclosure(L, game_play_side, 2);
    lua_setfield(L, mt, cls->side[side]);
  }
  set_closures(L, methods, mt, cls);
  lua_pushvalue(L, mt);
  lua_setfield(L, mt, "__index");
  lua_newtable(L);
  set_closures(L, module_functions, mt, cls);
  set_closures(L, functions, mt, cls);
  lua_remove(L, mt);
}
