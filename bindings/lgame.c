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
#include <stdarg.h>
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

/* A new object with an empty history; the metatable is at mt.  Its user
   value is true for a position lent to an evaluation and the games made
   from it: their start is no start of the game, so they have no record. */
static lgame *new_game(lua_State *L, const game_class *cls, int mt) {
  mt = lua_absindex(L, mt);
  lgame *g = lua_newuserdatauv(L, sizeof *g + 2 * padded(cls->state_size), 1);
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

/* A copy of from, the object at 1. */
static lgame *copy_game(lua_State *L, lgame *from) {
  lgame *g = new_game(L, from->cls, METATABLE);
  lua_getiuservalue(L, 1, 1);
  lua_setiuservalue(L, -2, 1);
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

/* Pushes what an error message shows of the value at idx, as game.lua
   does: a string in quotes (cut short), a number, boolean or nil as
   itself, anything else by its type. */
static const char *push_value_shown(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
      size_t len;
      const char *text = lua_tolstring(L, idx, &len);
      push_shown(L, text, len);
      lua_pushfstring(L, "'%s'", lua_tostring(L, -1));
      lua_remove(L, -2);
      return lua_tostring(L, -1);
    }
    case LUA_TNUMBER: case LUA_TBOOLEAN: case LUA_TNIL:
      return luaL_tolstring(L, idx, NULL);
    default:
      return lua_pushstring(L, luaL_typename(L, idx));
  }
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
  int whole = 0;
  lua_Integer number = type == LUA_TNUMBER ? lua_tointegerx(L, arg, &whole) : 0;
  if (whole) lua_pushfstring(L, "%I", number);   /* 4.0 is column 4, as 4 is */
  else lua_pushvalue(L, arg);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
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

int lgame_moves(lgame *g, const game_move **moves) {
  *moves = g->moves;
  return g->count;
}

void lgame_push_move(lua_State *L, lgame *g, game_move move) {
  reserve(L, g, g->count + 1);
  g->cls->make(lgame_state(g), move, &g->undos[g->count]);
  g->moves[g->count++] = move;
}

/* ---- options ----
**
** Every limit a call takes is read here, so that all of them say the
** same about the same mistake: a count is a whole number (3 or 3.0, not
** 0.5) in its range, a time a positive number of seconds.
*/

lua_Integer lgame_opt_integer(lua_State *L, int arg, const char *key,
                              lua_Integer def, lua_Integer min,
                              lua_Integer max, const char *where) {
  lua_Integer value = def;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    int whole = 0;
    if (lua_type(L, -1) == LUA_TNUMBER) value = lua_tointegerx(L, -1, &whole);
    if (!whole || value < min || value > max)
      luaL_error(L, "%s: option '%s' must be a whole number from %I to %I "
                 "(got %s)", where, key, min, max, push_value_shown(L, -1));
  }
  lua_pop(L, 1);
  return value;
}

double lgame_opt_number(lua_State *L, int arg, const char *key, double def,
                        double max, const char *where) {
  double value = def;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    value = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(value > 0) || !(value <= max)) {
      char most[32];
      snprintf(most, sizeof most, "%.15g", max);
      luaL_error(L, "%s: option '%s' must be a positive number, at most %s "
                 "(got %s)", where, key, most, push_value_shown(L, -1));
    }
  }
  lua_pop(L, 1);
  return value;
}

lua_Integer lgame_opt_whole(lua_State *L, int arg, const char *key,
                            lua_Integer def, const char *where) {
  lua_Integer value = def;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    int whole = 0;
    if (lua_type(L, -1) == LUA_TNUMBER) value = lua_tointegerx(L, -1, &whole);
    if (!whole)
      luaL_error(L, "%s: option '%s' must be an integer (got %s)", where, key,
                 push_value_shown(L, -1));
  }
  lua_pop(L, 1);
  return value;
}

bool lgame_opt_boolean(lua_State *L, int arg, const char *key, bool def,
                       const char *where) {
  bool value = def;
  int type = lua_getfield(L, arg, key);
  if (type == LUA_TBOOLEAN) value = lua_toboolean(L, -1);
  else if (type != LUA_TNIL)
    luaL_error(L, "%s: option '%s' must be true or false (got %s)", where, key,
               push_value_shown(L, -1));
  lua_pop(L, 1);
  return value;
}

bool lgame_in_word_list(const char *list, const char *word, size_t len) {
  for (const char *p = list; *p; ) {
    size_t n = strcspn(p, " ");
    if (n == len && memcmp(p, word, len) == 0) return true;
    p += n;
    while (*p == ' ') p++;
  }
  return false;
}

void lgame_check_options(lua_State *L, int arg, const char *names,
                         const char *where) {
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    size_t len = 0;
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len)
                                                      : NULL;
    if (!key || !lgame_in_word_list(names, key, len)) {
      const char *shown = push_value_shown(L, -1);
      luaL_error(L, "%s: unknown option %s (%s)", where, shown,
                 *names ? lua_pushfstring(L, "it takes: %s",
                                          luaL_gsub(L, names, " ", ", "))
                        : "it takes none");
    }
  }
}

void lgame_read_limits(lua_State *L, int arg, search_limit *limit,
                       const char *where) {
  if (lua_isnoneornil(L, arg)) return;
  limit->max_seconds = lgame_opt_number(L, arg, "time", limit->max_seconds,
                                        LGAME_MAX_SECONDS, where);
  limit->max_nodes = (uint64_t)lgame_opt_integer(
      L, arg, "nodes", (lua_Integer)limit->max_nodes, 1, LGAME_MAX_COUNT,
      where);
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

void lgame_push_history(lua_State *L, lgame *g) {
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
  lua_remove(L, -2);
}

/* The moves from the start, each named in the position it was played in. */
static int game_history(lua_State *L) {
  lgame_push_history(L, check_self(L));
  return 1;
}

/* The history as one line, the form load reads back. */
static int game_save(lua_State *L) {
  lgame *g = check_self(L);
  if (lua_getiuservalue(L, 1, 1) != LUA_TNIL)
    return luaL_error(L, "%s: this position came from a search and has no "
                      "record from the start", g->cls->name);
  lua_pop(L, 1);
  lgame_push_history(L, g);
  int history = lua_gettop(L), n = (int)lua_rawlen(L, history);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    if (i > 1) luaL_addchar(&b, ' ');
    lua_rawgeti(L, history, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

/* Pushes the drawing of g in style (NULL: the plain text of tostring). */
static void push_drawing(lua_State *L, lgame *g, const game_style *style) {
  const game_class *cls = g->cls;
  if (!cls->render) {
    lua_pushfstring(L, "%s position", cls->name);
    return;
  }
  const void *state = lgame_state(g);
  size_t size = cls->render(state, style, NULL, 0);
  luaL_Buffer b;
  char *text = luaL_buffinitsize(L, &b, size + 1);
  cls->render(state, style, text, size + 1);
  luaL_pushresultsize(&b, size);
}

static int game_tostring(lua_State *L) {
  push_drawing(L, check_self(L), NULL);
  return 1;
}

int lgame_solve(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  game_status status = cls->status(lgame_state(g));
  if (status != GAME_ONGOING)   /* as the solvers of reversi and connect4 */
    return luaL_error(L, "%s: nothing to solve, the game is over (%s)", cls->name,
                      push_ending(L, cls, status));
  void *state = lua_newuserdatauv(L, cls->state_size, 0);
  memcpy(state, lgame_state(g), cls->state_size);
  search_limit limit;
  lgame_start_limit(&limit);
  game_solution solution;
  if (!game_solve(cls, state, &limit, &solution)) {
    lua_pushnil(L);
    lua_pushnil(L);
    lgame_push_stopped(L, &limit);
    return 3;
  }
  lua_pushinteger(L, game_score_sign(solution.score));
  if (solution.best == GAME_NO_MOVE)
    lua_pushnil(L);
  else
    push_move_text(L, cls, state, solution.best);
  return 2;
}

/* ---- what long jobs share ---- */

void lgame_start_limit(search_limit *limit) {
  memset(limit, 0, sizeof *limit);
  limit->interrupt = &ludus_interrupted;
  limit_start(limit);
}

const char *lgame_finish_limit(lua_State *L, const search_limit *limit) {
  const char *reason = limit_reason(limit);
  if (reason && strcmp(reason, "interrupted") == 0) ludus_interrupt_consumed(L);
  return reason;
}

void lgame_push_stopped(lua_State *L, const search_limit *limit) {
  const char *reason = lgame_finish_limit(L, limit);
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, (lua_Integer)limit->nodes);
  lua_setfield(L, -2, "nodes");
  lua_pushnumber(L, limit_elapsed(limit));
  lua_setfield(L, -2, "seconds");
  lua_pushboolean(L, reason == NULL);
  lua_setfield(L, -2, "complete");
  if (reason) {
    lua_pushstring(L, reason);
    lua_setfield(L, -2, "stopped");
  }
}

/* ---- progress callbacks ----
**
** A solver's progress function runs protected: an error in it must not
** jump over the solver, which may hold memory or a shared object.  It
** stops the solve through the limit instead, and lgame_progress_check
** raises it once the solver has returned.
*/

void lgame_progress_init(lua_State *L, lgame_progress *call, int arg,
                         search_limit *limit, const char *where) {
  call->L = L;
  call->function = 0;
  call->limit = limit;
  call->failed = false;
  int type = LUA_TNIL;
  if (lua_istable(L, arg)) type = lua_getfield(L, arg, "progress");
  else lua_pushnil(L);
  if (type != LUA_TNIL && type != LUA_TFUNCTION)
    luaL_error(L, "%s: progress must be a function (got %s)", where,
               luaL_typename(L, -1));
  if (type == LUA_TFUNCTION) call->function = lua_gettop(L);
  lua_pushnil(L);                          /* where its error will go */
  call->error = lua_gettop(L);
}

void lgame_push_progress(const lgame_progress *call, int lower, int upper,
                         uint64_t nodes) {
  lua_State *L = call->L;
  lua_pushvalue(L, call->function);
  lua_pushinteger(L, lower);
  lua_pushinteger(L, upper);
  lua_pushinteger(L, (lua_Integer)nodes);
}

void lgame_call_progress(void *progress, int lower, int upper,
                         uint64_t nodes) {
  lgame_progress *call = progress;
  if (call->failed || !call->function) return;
  lgame_push_progress(call, lower, upper, nodes);
  if (lua_pcall(call->L, 3, 0, 0) != LUA_OK) {
    lua_replace(call->L, call->error);
    call->failed = true;
    call->limit->stopped = true;
  }
  /* The solver reads the clock once every so many nodes; a slow
     function between two readings must not carry it past its time. */
  limit_check_slow(call->limit);
}

void lgame_progress_check(const lgame_progress *call) {
  if (!call->failed) return;
  lua_pushvalue(call->L, call->error);
  lua_error(call->L);
}

/* ---- objects shared by the calls of a Lua state ---- */

typedef struct shared_box {
  void *object;                 /* first: lgame_shared_find reads it */
  void (*release)(void *);
  const char *job;              /* what uses it now, or NULL */
} shared_box;

static int shared_gc(lua_State *L) {
  shared_box *box = lua_touserdata(L, 1);
  if (box->object) box->release(box->object);
  box->object = NULL;
  return 0;
}

static shared_box *find_box(lua_State *L, const char *key) {
  shared_box *box = NULL;
  if (lua_getfield(L, LUA_REGISTRYINDEX, key) == LUA_TUSERDATA)
    box = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return box;
}

void *lgame_shared_find(lua_State *L, const char *key) {
  shared_box *box = find_box(L, key);
  return box ? box->object : NULL;
}

void *lgame_shared(lua_State *L, const char *key, void *(*make)(void),
                   void (*release)(void *), bool *made) {
  void *object = lgame_shared_find(L, key);
  if (made) *made = object == NULL;
  if (object) return object;
  shared_box *box = lua_newuserdatauv(L, sizeof *box, 0);
  box->object = NULL;
  box->release = release;
  box->job = NULL;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, shared_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  box->object = make();
  if (!box->object) luaL_error(L, "not enough memory for %s", key);
  lua_setfield(L, LUA_REGISTRYINDEX, key);
  return box->object;
}

/* The guard of a job: a to-be-closed value whose closing (the C function
   returning or raising) sets the object free. */
static int job_close(lua_State *L) {
  shared_box **box = lua_touserdata(L, 1);
  if (*box) (*box)->job = NULL;
  *box = NULL;
  return 0;
}

void *lgame_shared_job(lua_State *L, const char *key, void *(*make)(void),
                       void (*release)(void *), bool *made, const char *job) {
  void *object = lgame_shared(L, key, make, release, made);
  shared_box *box = find_box(L, key);
  if (box->job) {
    /* key is "ludus.<module>.<object>" */
    const char *object_name = strrchr(key, '.') + 1;
    char module[32];
    snprintf(module, sizeof module, "%.*s",
             (int)(object_name - 1 - (key + 6)), key + 6);
    luaL_error(L, "%s: cannot %s now: a %s is running and uses the %s (a "
               "callback of it cannot start another job on the %s)",
               module, job, box->job, object_name, object_name);
  }
  shared_box **guard = lua_newuserdatauv(L, sizeof *guard, 0);
  *guard = NULL;
  if (luaL_newmetatable(L, "ludus.job")) {
    lua_pushcfunction(L, job_close);
    lua_setfield(L, -2, "__close");
    ludus_protect_metatable(L, -1);
  }
  lua_setmetatable(L, -2);
  lua_toclose(L, -1);
  *guard = box;
  box->job = job;
  return object;
}

const char *lgame_shared_busy(lua_State *L, const char *key) {
  shared_box *box = find_box(L, key);
  return box ? box->job : NULL;
}

/* ---- the board, for code that looks at it ---- */

/* g:last_move() -> the last move played, as history() names it; nil
   when none has been. */
static int game_last_move(lua_State *L) {
  lgame *g = check_self(L);
  lua_pushnil(L);
  if (g->count == 0) return 1;
  const game_class *cls = g->cls;
  /* the move is named in the position before it: take it back on a copy */
  void *before = lua_newuserdatauv(L, cls->state_size, 0);
  memcpy(before, lgame_state(g), cls->state_size);
  cls->unmake(before, g->moves[g->count - 1], &g->undos[g->count - 1]);
  push_move_text(L, cls, before, g->moves[g->count - 1]);
  return 1;
}

/* The square the text at arg names, or raises. */
static int check_square(lua_State *L, lgame *g, int arg) {
  const char *text = luaL_checkstring(L, arg);
  int square = g->cls->parse_square(lgame_state(g), text);
  if (square < 0)
    luaL_error(L, "%s: '%s' is not a square of this board", g->cls->name,
               push_shown(L, text, strlen(text)));
  return square;
}

/* g:at(square) -> the side whose stone or disc is there ("x", "white"),
   or nil. */
static int game_at(lua_State *L) {
  lgame *g = check_self(L);
  int side = g->cls->owner(lgame_state(g), check_square(L, g, 2));
  if (side < 0) lua_pushnil(L);
  else lua_pushstring(L, g->cls->side[side]);
  return 1;
}

/* The iterator of pieces(): upvalues are the game, the next square to
   look at and the side wanted (-1: both). */
static int next_piece(lua_State *L) {
  lgame *g = lua_touserdata(L, lua_upvalueindex(1));
  int square = (int)lua_tointeger(L, lua_upvalueindex(2));
  int wanted = (int)lua_tointeger(L, lua_upvalueindex(3));
  const game_class *cls = g->cls;
  const void *state = lgame_state(g);
  for (int n = cls->squares(state); square < n; square++) {
    int side = cls->owner(state, square);
    if (side < 0 || (wanted >= 0 && side != wanted)) continue;
    lua_pushinteger(L, square + 1);
    lua_replace(L, lua_upvalueindex(2));
    char name[16];
    size_t len = cls->format_square(state, square, name, sizeof name);
    lua_pushlstring(L, name, len < sizeof name ? len : sizeof name - 1);
    lua_pushstring(L, cls->side[side]);
    return 2;
  }
  return 0;
}

/* The side named at arg (-1 when absent), or raises. */
static int check_side(lua_State *L, const game_class *cls, int arg) {
  if (lua_isnoneornil(L, arg)) return -1;
  const char *name = luaL_checkstring(L, arg);
  for (int side = 0; side < 2; side++)
    if (strcmp(name, cls->side[side]) == 0) return side;
  return luaL_error(L, "%s: no side '%s' (the sides are %s and %s)",
                    cls->name, push_shown(L, name, strlen(name)), cls->side[0],
                    cls->side[1]);
}

/* g:pieces([side]) -> an iterator over the occupied squares, in the
   order the game lists its squares: for square, side in g:pieces(). */
static int game_pieces(lua_State *L) {
  lgame *g = check_self(L);
  int side = check_side(L, g->cls, 2);
  lua_settop(L, 1);
  lua_pushinteger(L, 0);
  lua_pushinteger(L, side);
  lua_pushcclosure(L, next_piece, 3);
  return 1;
}

/* g:count() -> {side = stones or discs, ...} for both sides. */
static int game_count(lua_State *L) {
  lgame *g = check_self(L);
  const game_class *cls = g->cls;
  const void *state = lgame_state(g);
  int counts[2] = {0, 0};
  for (int square = 0, n = cls->squares(state); square < n; square++) {
    int side = cls->owner(state, square);
    if (side >= 0) counts[side]++;
  }
  lua_createtable(L, 0, 2);
  for (int side = 0; side < 2; side++) {
    lua_pushinteger(L, counts[side]);
    lua_setfield(L, -2, cls->side[side]);
  }
  return 1;
}

static const luaL_Reg board_methods[] = {
  {"at", game_at},
  {"pieces", game_pieces},
  {"count", game_count},
  {NULL, NULL}
};

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
  {"last_move", game_last_move},
  {NULL, NULL}
};

/* Metamethods live in the metatable only, out of reach of g.__gc. */
static const luaL_Reg game_metamethods[] = {
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

/* new(): a game of these modules has no options, so a table of them is
   a mistake (a match's --option), not something to ignore. */
static int module_new(lua_State *L) {
  char where[64];
  snprintf(where, sizeof where, "%s.new", CLASS()->name);
  lgame_check_options(L, 1, "", where);
  new_start_game(L);
  return 1;
}

void lgame_load_args(lua_State *L) {
  if (lua_type(L, 1) != LUA_TTABLE) return;
  if (lua_gettop(L) < 2) lua_settop(L, 2);
  if (lua_getfield(L, 1, "record") != LUA_TSTRING)
    luaL_typeerror(L, 1, "string or match record");
  if (lua_isnil(L, 2)) {
    lua_getfield(L, 1, "options");
    lua_replace(L, 2);
  }
  lua_replace(L, 1);
}

int lgame_load(lua_State *L, const game_class *cls, const void *start,
               int arg) {
  size_t len;
  const char *text = luaL_checklstring(L, arg, &len);
  lgame *g = lgame_push(L, cls, start);
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

/* load(record): the game after the moves of record, or nil and why. */
static int module_load(lua_State *L) {
  lgame_load_args(L);
  const game_class *cls = CLASS();
  char where[64];
  snprintf(where, sizeof where, "%s.load", cls->name);
  lgame_check_options(L, 2, "", where);
  _Alignas(16) unsigned char start[1024];
  if (cls->state_size > sizeof start)
    return luaL_error(L, "%s: position too large", cls->name);
  cls->init(start);
  return lgame_load(L, cls, start, 1);
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

/* The registry table from game metatables to their classes: how
   ludus.ai knows a C game, with no pointer where Lua code can reach it. */
#define CLASSES_KEY "ludus.classes"

void lgame_open(lua_State *L, const game_class *cls, const luaL_Reg *methods,
                const luaL_Reg *functions) {
  lua_pushfstring(L, "ludus.%s", cls->name);
  luaL_newmetatable(L, lua_tostring(L, -1));
  lua_remove(L, -2);
  int mt = lua_gettop(L);
  set_closures(L, game_metamethods, mt, cls);
  lua_newtable(L);                           /* the methods: __index */
  set_closures(L, game_methods, mt, cls);
  if (cls->owner) set_closures(L, board_methods, mt, cls);
  for (int side = 0; side < 2; side++) {
    lua_pushvalue(L, mt);
    lua_pushinteger(L, side);
    lua_pushcclosure(L, game_play_side, 2);
    lua_setfield(L, -2, cls->side[side]);
  }
  set_closures(L, methods, mt, cls);
  ludus_strict_methods(L, -1, cls->name, NULL);   /* g:solv() says 'solve' */
  lua_setfield(L, mt, "__index");
  ludus_protect_metatable(L, mt);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, CLASSES_KEY);
  lua_pushvalue(L, mt);
  lua_pushlightuserdata(L, (void *)cls);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_newtable(L);
  set_closures(L, module_functions, mt, cls);
  set_closures(L, functions, mt, cls);
  lua_remove(L, mt);
}

void lgame_push_methods(lua_State *L, const game_class *cls) {
  push_metatable(L, cls);
  lua_getfield(L, -1, "__index");
  lua_remove(L, -2);
}

/* ---- searching: C games, and Lua-defined games through callbacks ---- */

/* The spec functions a Lua-defined game's bridge calls, fetched once so
   that no metamethod runs in the middle of a search. */
enum { F_TURN = 1, F_MOVES, F_PLAY, F_PUSH, F_POP, F_IS_OVER, F_RESULT,
       F_HASH, F_EVAL, F_COUNT = F_EVAL };
static const char *const spec_keys[] = {
  NULL, "turn", "moves", "play", "push", "pop", "is_over", "result", "hash",
  "eval"
};

/* The target's user values. */
enum { UV_FUNCTIONS = 1, UV_POSITIONS, UV_LISTS, UV_ERROR, UV_EVAL, UV_INFO,
       UV_META, UV_COUNT = UV_META };

#define MOVERS (SEARCH_MAX_PLY + 2)

typedef struct target {
  lgame_target public;
  lua_State *L;
  int self;                  /* this userdata's index on the stack */
  search_limit *limit;
  double clock_read;         /* when watch_clock last read the clock */
  bool slow_calls;           /* the last 16 calls took over a millisecond */
  bool failed;
  /* A Lua-defined game: positions[ply + 1] is the position at ply (only
     [1] with push and pop), lists[ply + 1] its legal moves while they are
     known; a move is an index into that list. */
  bool lua_game, push_pop;
  int ply;
  signed char movers[MOVERS];  /* the side to move at each ply, once asked */
  game_class cls;
  struct target *self_pointer; /* the "state" of a Lua-defined game */
  /* then, for a C game, its private position, padded to 16 */
} target;

static target *of(const void *state) { return *(target *const *)state; }

/* Records the failure whose message is at the top of the stack, and
   stops the search. */
static void fail_with_top(target *t) {
  lua_State *L = t->L;
  if (!t->failed) {
    t->failed = true;
    lua_setiuservalue(L, t->self, UV_ERROR);
  } else {
    lua_pop(L, 1);
  }
  t->limit->stopped = true;
}

static void failf(target *t, const char *format, ...) {
  va_list args;
  va_start(args, format);
  lua_pushvfstring(t->L, format, args);
  va_end(args);
  fail_with_top(t);
}

/* Counts a call into Lua.  The search reads the clock once every so many
   nodes; Lua code may be slow enough between two readings to carry it
   far past its time, so every 16th call reads it too, and every call
   while 16 of them take over a millisecond (an evaluation of 10 ms would
   otherwise run 16 times past the time). */
static void watch_clock(target *t) {
  bool sixteenth = (++t->public.lua_calls & 15) == 0;
  if (t->limit->max_seconds <= 0 || !(sixteenth || t->slow_calls)) return;
  limit_check_slow(t->limit);
  if (sixteenth) {
    double now = limit_clock();
    t->slow_calls = now - t->clock_read > 0.001;
    t->clock_read = now;
  }
}

/* After a callback raised (its error on the stack): when Ctrl-C made it
   raise ("interrupted!" from the REPL's hook), pops the error and stops
   the search, which returns what it found; else false. */
static bool stopped_by_interrupt(target *t) {
  if (!ludus_interrupted) return false;
  lua_pop(t->L, 1);
  t->limit->stopped = true;
  return true;
}

/* Calls function f of the spec with the position at the current ply and
   the nargs values on top of the stack; leaves nresults, or nothing and
   false when it raised or an earlier call failed. */
static bool call_spec(target *t, int f, int nargs, int nresults) {
  lua_State *L = t->L;
  if (t->failed) {
    lua_pop(L, nargs);
    return false;
  }
  lua_getiuservalue(L, t->self, UV_FUNCTIONS);
  lua_rawgeti(L, -1, f);
  lua_remove(L, -2);
  lua_getiuservalue(L, t->self, UV_POSITIONS);
  lua_rawgeti(L, -1, t->push_pop ? 1 : t->ply + 1);
  lua_remove(L, -2);
  lua_rotate(L, -(nargs + 2), 2);          /* function, position, args */
  int status = lua_pcall(L, nargs + 1, nresults, 0);
  watch_clock(t);
  if (status == LUA_OK) return true;
  if (stopped_by_interrupt(t)) return false;
  int pushed = 1;
  const char *message = lua_tostring(L, -1);
  if (!message) {
    message = lua_pushfstring(L, "(error object is a %s value)",
                              luaL_typename(L, -1));
    pushed++;
  }
  failf(t, "%s: '%s' raised an error: %s", t->cls.name, spec_keys[f], message);
  lua_pop(L, pushed);
  return false;
}

static void bridge_init(void *state) { (void)state; }

/* The side the string at at names, or -1: all of its bytes ("x\0" is no
   side, as game.lua finds too). */
static int bridge_side(target *t, int at) {
  lua_State *L = t->L;
  if (lua_type(L, at) == LUA_TSTRING) {
    size_t len;
    const char *side = lua_tolstring(L, at, &len);
    for (int i = 0; i < 2; i++)
      if (len == strlen(t->cls.side[i]) && memcmp(side, t->cls.side[i], len) == 0)
        return i;
  }
  return -1;
}

static game_status bridge_status(const void *state) {
  target *t = of(state);
  lua_State *L = t->L;
  if (!call_spec(t, F_IS_OVER, 0, 1)) return GAME_DRAW;
  bool over = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (!over) return GAME_ONGOING;
  if (!call_spec(t, F_RESULT, 0, 1)) return GAME_DRAW;
  game_status status = GAME_DRAW;
  if (!lua_istable(L, -1)) {
    failf(t, "%s: 'result' must return a table like {winner = \"%s\"} (got %s)",
          t->cls.name, t->cls.side[0], luaL_typename(L, -1));
  } else {
    lua_pushliteral(L, "winner");
    lua_rawget(L, -2);
    int winner = bridge_side(t, -1);
    if (winner >= 0)
      status = winner == 0 ? GAME_WIN_0 : GAME_WIN_1;
    else if (!lua_isnil(L, -1)) {
      failf(t, "%s: 'result' names an unknown winner %s", t->cls.name,
            push_value_shown(L, -1));
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return status;
}

static int bridge_turn(const void *state) {
  target *t = of(state);
  lua_State *L = t->L;
  if (!call_spec(t, F_TURN, 0, 1)) return 0;
  int side = bridge_side(t, -1);
  /* A finished game may say nil (as g:turn() does); one still going may
     not, as g:turn() refuses it. */
  if (side < 0 && t->ply > 0 && t->ply <= MOVERS && t->movers[t->ply - 1] >= 0 &&
      lua_isnil(L, -1) && call_spec(t, F_IS_OVER, 0, 1)) {
    if (lua_toboolean(L, -1)) side = 1 - t->movers[t->ply - 1];
    lua_pop(L, 1);
  }
  if (side < 0) {
    failf(t, "%s: 'turn' returned %s (expected '%s' or '%s')", t->cls.name,
          push_value_shown(L, -1), t->cls.side[0], t->cls.side[1]);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (side < 0) return 0;
  if (t->ply < MOVERS) t->movers[t->ply] = (signed char)side;
  return side;
}

/* Pushes the list of legal moves at the current ply, asking the spec when
   it is not known yet; nil after a failure. */
static void push_list(target *t) {
  lua_State *L = t->L;
  lua_getiuservalue(L, t->self, UV_LISTS);
  if (lua_rawgeti(L, -1, t->ply + 1) == LUA_TTABLE || t->failed) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  if (!call_spec(t, F_MOVES, 0, 1)) {
    lua_pop(L, 1);
    lua_pushnil(L);
    return;
  }
  const char *problem = NULL;
  if (!lua_istable(L, -1)) {
    problem = lua_pushfstring(L, "must return a table of moves (got %s)",
                              luaL_typename(L, -1));
  } else {
    lua_Unsigned n = lua_rawlen(L, -1);
    if (n > GAME_MAX_MOVES)
      problem = lua_pushfstring(L, "returned %I moves, more than a search can "
                                "take (256)", (lua_Integer)n);
    for (lua_Unsigned i = 1; i <= n && !problem; i++) {
      int type = lua_rawgeti(L, -1, (lua_Integer)i);
      lua_pop(L, 1);
      if (type != LUA_TSTRING && type != LUA_TNUMBER)
        problem = lua_pushfstring(L, "returned a %s at index %I (moves are "
                                  "strings)", lua_typename(L, type), (lua_Integer)i);
    }
  }
  if (!problem && lua_rawlen(L, -1) == 0) {   /* only when it is over */
    bool over = call_spec(t, F_IS_OVER, 0, 1) && lua_toboolean(L, -1);
    if (!t->failed) lua_pop(L, 1);
    if (!over && !t->failed)
      failf(t, "%s: 'moves' returned no moves, but 'is_over' says the game "
            "goes on", t->cls.name);
    if (t->failed) {
      lua_pop(L, 2);
      lua_pushnil(L);
      return;
    }
  }
  if (problem) {
    failf(t, "%s: 'moves' %s", t->cls.name, problem);
    lua_pop(L, 3);
    lua_pushnil(L);
    return;
  }
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, t->ply + 1);
  lua_remove(L, -2);
}

static int bridge_moves(const void *state, game_move *out) {
  target *t = of(state);
  lua_State *L = t->L;
  /* Asked again at the same ply, the spec answers for this position. */
  lua_getiuservalue(L, t->self, UV_LISTS);
  lua_pushnil(L);
  lua_rawseti(L, -2, t->ply + 1);
  lua_pop(L, 1);
  push_list(t);
  int n = lua_istable(L, -1) ? (int)lua_rawlen(L, -1) : 0;
  lua_pop(L, 1);
  for (int i = 0; i < n; i++) out[i] = (game_move)i;
  return n;
}

/* Pushes the spec's move with index move at the current ply (nil if none). */
static void push_spec_move(target *t, game_move move) {
  lua_State *L = t->L;
  push_list(t);
  if (lua_istable(L, -1))
    lua_rawgeti(L, -1, (lua_Integer)move + 1);
  else
    lua_pushnil(L);
  lua_remove(L, -2);
}

static void bridge_make(void *state, game_move move, game_undo *undo) {
  target *t = of(state);
  lua_State *L = t->L;
  (void)undo;
  push_spec_move(t, move);
  if (t->push_pop) {
    call_spec(t, F_PUSH, 1, 0);
  } else if (call_spec(t, F_PLAY, 1, 1)) {
    lua_getiuservalue(L, t->self, UV_POSITIONS);
    lua_rawgeti(L, -1, t->ply + 1);
    bool same = lua_rawequal(L, -1, -3) && lua_type(L, -1) == LUA_TTABLE;
    lua_pop(L, 2);
    if (lua_isnil(L, -1))
      failf(t, "%s: 'play' returned nil (expected the new position)",
            t->cls.name);
    else if (same)
      failf(t, "%s: 'play' returned the position it was given (play must "
            "return a new position and leave its argument unchanged; or "
            "define push and pop)", t->cls.name);
    lua_getiuservalue(L, t->self, UV_POSITIONS);
    lua_rotate(L, -2, 1);
    lua_rawseti(L, -2, t->ply + 2);
    lua_pop(L, 1);
  }
  t->ply++;
  lua_getiuservalue(L, t->self, UV_LISTS);   /* a new position: not known */
  lua_pushnil(L);
  lua_rawseti(L, -2, t->ply + 1);
  lua_pop(L, 1);
}

static void bridge_unmake(void *state, game_move move, const game_undo *undo) {
  target *t = of(state);
  lua_State *L = t->L;
  (void)move;
  (void)undo;
  if (t->push_pop) {
    call_spec(t, F_POP, 0, 0);
  } else {
    lua_getiuservalue(L, t->self, UV_POSITIONS);
    lua_pushnil(L);
    lua_rawseti(L, -2, t->ply + 1);
    lua_pop(L, 1);
  }
  t->ply--;
}

static uint64_t bridge_hash(const void *state) {
  target *t = of(state);
  if (!call_spec(t, F_HASH, 0, 1)) return 0;
  lua_State *L = t->L;
  lua_Integer h = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
  if (!lua_isinteger(L, -1)) {
    failf(t, "%s: 'hash' must return an integer (got %s)", t->cls.name,
          push_value_shown(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return (uint64_t)h;
}

/* A Lua number as a search score; false (and a failure) if it is none. */
static bool to_score(target *t, const char *what, int *score) {
  lua_State *L = t->L;
  lua_Number x = lua_tonumber(L, -1);
  if (lua_type(L, -1) != LUA_TNUMBER || x != x) {
    failf(t, "%s: %s must return a number (got %s)", t->cls.name, what,
          push_value_shown(L, -1));
    lua_pop(L, 2);
    return false;
  }
  lua_pop(L, 1);
  double limit = GAME_SCORE_EVAL_MAX - 1;
  x = x > limit ? limit : x < -limit ? -limit : x;
  *score = (int)(x < 0 ? x - 0.5 : x + 0.5);
  return true;
}

static int bridge_eval(const void *state) {
  target *t = of(state);
  int score = 0;
  if (call_spec(t, F_EVAL, 0, 1)) to_score(t, "'eval'", &score);
  return score;
}

static game_error bridge_parse_move(const void *state, const char *text,
                                    game_move *move, const char **why) {
  (void)state;
  (void)text;
  (void)move;
  *why = "moves of a Lua-defined game are read in Lua";
  return GAME_EBADTEXT;
}

static size_t bridge_format_move(const void *state, game_move move, char *buf,
                                 size_t size) {
  target *t = of(state);
  lua_State *L = t->L;
  push_spec_move(t, move);
  size_t len = 1;
  const char *text = lua_isnil(L, -1) ? "?" : lua_tolstring(L, -1, &len);
  if (size > 0) {                /* all its bytes, a NUL among them too */
    size_t n = len < size ? len : size - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
  }
  lua_pop(L, 1);
  return len;
}

static const game_class bridge_class = {
  .state_size = sizeof(target *),
  .max_moves = GAME_MAX_MOVES,
  .init = bridge_init,
  .turn = bridge_turn,
  .moves = bridge_moves,
  .make = bridge_make,
  .unmake = bridge_unmake,
  .status = bridge_status,
  .hash = bridge_hash,
  .eval = bridge_eval,
  .parse_move = bridge_parse_move,
  .format_move = bridge_format_move,
};

/* The Lua evaluation: called with a game object of the position. */
/* The body of lua_eval, run protected so that nothing in it (the
   evaluation, making the game object, a full stack) can jump over the C
   search: (eval, wrap, position) for a Lua-defined game, (eval,
   metatable, class, state) for a C game. */
static int protected_eval(lua_State *L) {
  if (lua_type(L, 2) == LUA_TFUNCTION) {
    lua_call(L, 1, 1);                     /* wrap(position) */
  } else {
    const game_class *cls = lua_touserdata(L, 3);
    const void *state = lua_touserdata(L, 4);
    lgame *g = new_game(L, cls, 2);
    memcpy(start_of(g), state, cls->state_size);
    memcpy(lgame_state(g), state, cls->state_size);
    lua_pushboolean(L, 1);                 /* it has no record */
    lua_setiuservalue(L, -2, 1);
    lua_replace(L, 2);
    lua_settop(L, 2);
  }
  lua_call(L, 1, 1);
  return 1;
}

/* The Lua evaluation: called with a game object of the position. */
static int lua_eval(void *context, const void *state) {
  target *t = context;
  lua_State *L = t->L;
  if (t->failed) return 0;
  lua_pushcfunction(L, protected_eval);
  lua_getiuservalue(L, t->self, UV_EVAL);
  int nargs;
  if (t->lua_game) {
    lua_getiuservalue(L, t->self, UV_INFO);
    lua_getfield(L, -1, "wrap");
    lua_remove(L, -2);
    lua_getiuservalue(L, t->self, UV_POSITIONS);
    lua_rawgeti(L, -1, t->push_pop ? 1 : t->ply + 1);
    lua_remove(L, -2);
    nargs = 3;
  } else {
    lua_getiuservalue(L, t->self, UV_META);
    lua_pushlightuserdata(L, (void *)t->public.cls);
    lua_pushlightuserdata(L, (void *)state);
    nargs = 4;
  }
  int status = lua_pcall(L, nargs, 1, 0);
  watch_clock(t);
  if (status != LUA_OK && stopped_by_interrupt(t)) return 0;
  if (status != LUA_OK) {
    const char *message = lua_tostring(L, -1);
    failf(t, "%s: the evaluation raised an error: %s", t->cls.name,
          message ? message : "(not a string)");
    lua_pop(L, 1);
    return 0;
  }
  int score = 0;
  to_score(t, "the evaluation", &score);
  return score;
}

/* Copies field key of the table at from into the table at to, raising
   unless it has the given type: what game.lua handed over is read once,
   into a table that only this target holds, so no change made to it
   while a search runs can reach the search. */
static void copy_field(lua_State *L, int from, int to, const char *key,
                       int type) {
  if (lua_getfield(L, from, key) != type)
    luaL_error(L, "game: a Lua game whose '%s' is a %s", key,
               luaL_typename(L, -1));
  lua_setfield(L, to, key);
}

/* Fills the bridge of the Lua-defined game at arg, whose game.lua
   description (the __ludus_game table of its metatable) is at info. */
static void open_lua_game(lua_State *L, target *t, int arg, int info) {
  lua_createtable(L, 2, 4);
  int own = lua_gettop(L);
  copy_field(L, info, own, "name", LUA_TSTRING);
  copy_field(L, info, own, "root", LUA_TFUNCTION);
  copy_field(L, info, own, "wrap", LUA_TFUNCTION);
  if (lua_getfield(L, info, "sides") != LUA_TTABLE)
    luaL_error(L, "game: a Lua game without sides");
  for (int i = 1; i <= 2; i++) {
    if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
      luaL_error(L, "game: a Lua game whose side %d is a %s", i,
                 luaL_typename(L, -1));
    lua_rawseti(L, own, i);
  }
  lua_pop(L, 1);
  t->lua_game = true;
  t->cls = bridge_class;
  /* the strings live as long as the table, which nothing else can reach */
  lua_getfield(L, own, "name");
  t->cls.name = lua_tostring(L, -1);
  lua_pop(L, 1);
  for (int i = 0; i < 2; i++) {
    lua_rawgeti(L, own, i + 1);
    t->cls.side[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  lua_pushvalue(L, own);
  lua_setiuservalue(L, t->self, UV_INFO);
  if (lua_getfield(L, info, "spec") != LUA_TTABLE)
    luaL_error(L, "game: a Lua game without its spec");
  int spec = lua_gettop(L);
  t->public.identity = lua_topointer(L, spec);
  lua_createtable(L, F_COUNT, 0);
  for (int f = 1; f <= F_COUNT; f++) {
    lua_getfield(L, spec, spec_keys[f]);
    lua_rawseti(L, -2, f);
  }
  lua_rawgeti(L, -1, F_PUSH);
  t->push_pop = !lua_isnil(L, -1);
  lua_pop(L, 1);
  lua_rawgeti(L, -1, F_HASH);
  t->public.hashed = !lua_isnil(L, -1);
  lua_pop(L, 1);
  lua_rawgeti(L, -1, F_EVAL);
  if (lua_isnil(L, -1)) t->cls.eval = NULL;
  lua_pop(L, 1);
  lua_setiuservalue(L, t->self, UV_FUNCTIONS);
  lua_newtable(L);                         /* positions: a private copy */
  lua_getfield(L, own, "root");
  lua_pushvalue(L, arg);
  lua_call(L, 1, 1);
  lua_rawseti(L, -2, 1);
  lua_setiuservalue(L, t->self, UV_POSITIONS);
  lua_newtable(L);
  lua_setiuservalue(L, t->self, UV_LISTS);
  lua_settop(L, own - 1);
  t->self_pointer = t;
  t->public.cls = &t->cls;
  t->public.state = &t->self_pointer;
}

/* The class of the C game at arg, found by its metatable's identity;
   NULL for anything else. */
static const game_class *class_of(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TUSERDATA || !lua_getmetatable(L, arg))
    return NULL;
  const game_class *cls = NULL;
  if (lua_getfield(L, LUA_REGISTRYINDEX, CLASSES_KEY) == LUA_TTABLE) {
    lua_pushvalue(L, -2);
    lua_rawget(L, -2);
    cls = lua_touserdata(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return cls;
}

/* Pushes the description game.lua keeps for the Lua-defined game at arg
   and returns true; false, with nothing pushed, for anything else. */
static bool push_lua_game(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TTABLE || !lua_getmetatable(L, arg)) return false;
  lua_pushliteral(L, "__ludus_game");
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 2);
    return false;
  }
  lua_remove(L, -2);
  return true;
}

lgame_target *lgame_target_push(lua_State *L, int arg, int eval_arg,
                                search_limit *limit) {
  arg = lua_absindex(L, arg);
  /* The callbacks keep their stack balanced, within this much. */
  luaL_checkstack(L, 2 * LUA_MINSTACK, "no room on the stack for a search");
  const game_class *cls = class_of(L, arg);
  int info = 0;
  if (!cls) {
    if (!push_lua_game(L, arg)) luaL_typeerror(L, arg, "game");
    info = lua_gettop(L);
  }
  size_t extra = cls ? padded(cls->state_size) : 0;
  target *t = lua_newuserdatauv(L, padded(sizeof *t) + extra, UV_COUNT);
  memset(t, 0, sizeof *t);
  t->L = L;
  t->self = lua_gettop(L);
  t->limit = limit;
  memset(t->movers, -1, sizeof t->movers);
  t->slow_calls = true;                    /* until the first 16 tell */
  if (info) {
    open_lua_game(L, t, arg, info);
    lua_remove(L, info);                   /* the target takes its place */
    t->self = info;
  } else {
    lgame *g = lua_touserdata(L, arg);
    t->public.cls = cls;
    t->public.state = (char *)t + padded(sizeof *t);
    memcpy(t->public.state, lgame_state(g), cls->state_size);
    t->public.hashed = true;
    t->public.identity = cls;
    t->cls = *cls;
    lua_getmetatable(L, arg);              /* for the evaluation's objects */
    lua_setiuservalue(L, t->self, UV_META);
  }
  if (eval_arg) {
    lua_pushvalue(L, eval_arg);
    lua_setiuservalue(L, t->self, UV_EVAL);
    t->public.eval = lua_eval;
    t->public.eval_context = t;
  }
  return &t->public;
}

void lgame_target_check(lua_State *L, lgame_target *target_) {
  target *t = (target *)target_;
  if (!t->failed) return;
  lua_getiuservalue(L, t->self, UV_ERROR);
  lua_error(L);
}

/* Pushes the text of move at the target's position: for a Lua-defined
   game the spec's own move, whole, as g:moves() gives it (a class's
   text is cut at 63 bytes). */
static void push_target_move(lua_State *L, target *t, game_move move) {
  if (!t->lua_game) {
    push_move_text(L, t->public.cls, t->public.state, move);
    return;
  }
  push_spec_move(t, move);
  luaL_tolstring(L, -1, NULL);     /* a number, as tostring shows it */
  lua_remove(L, -2);
}

void lgame_target_push_line(lua_State *L, lgame_target *target_,
                            const game_move *line, int n) {
  target *t = (target *)target_;
  const game_class *cls = t->public.cls;
  void *state = t->public.state;
  game_undo undos[SEARCH_MAX_PLY];
  if (n > SEARCH_MAX_PLY) n = SEARCH_MAX_PLY;
  lua_createtable(L, n, 0);
  int made = 0;
  for (; made < n && !t->failed; made++) {
    game_move moves[GAME_MAX_MOVES];
    int count = cls->moves(state, moves);   /* checks the line is legal */
    bool legal = false;
    for (int i = 0; i < count && !legal; i++) legal = moves[i] == line[made];
    if (!legal) break;
    push_target_move(L, t, line[made]);
    lua_rawseti(L, -2, made + 1);
    cls->make(state, line[made], &undos[made]);
  }
  while (made > 0) {
    made--;
    cls->unmake(state, line[made], &undos[made]);
  }
}

bool lgame_push_drawing(lua_State *L, int arg, bool color) {
  if (!class_of(L, arg)) return false;
  lgame *g = lua_touserdata(L, arg);
  game_style style = {color, g->count > 0 ? g->moves[g->count - 1] : GAME_NO_MOVE};
  push_drawing(L, g, &style);
  return true;
}
