/*
** lreversi.c: `ludus.reversi`.  The protocol comes from lgame.c; this
** file adds board sizes, passes, the result with both disc counts,
** transcripts and board strings, perft, the exact solver and a midgame
** search.
*/
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "lgame.h"
#include "ludus.h"
#include "reversi/formats.h"
#include "reversi/reversi.h"
#include "reversi/solve.h"

#define GAME(L) lgame_check(L, 1, &reversi_class)
#define SOLVER_KEY "ludus.reversi.solver"
#define TABLE_KEY "ludus.reversi.table"
#define SOLVER_BITS 20                 /* 2^20 entries of 24 bytes */
#define TABLE_MIB 16
#define EXACT_EMPTIES 14               /* search solves from here on */

/* Reads {size=} at arg (absent: 8); raises on a size there is no board
   for. */
static int check_size(lua_State *L, int arg, const char *where) {
  lua_Integer size = 8;
  if (!lua_isnoneornil(L, arg)) {
    lgame_check_options(L, arg, "size", where);
    size = lgame_opt_whole(L, arg, "size", 8, where);
  }
  if (!reversi_size_ok((int)size) || size != (int)size)
    luaL_error(L, "reversi: no %I x %I board (sizes are 4, 6 and 8)", size, size);
  return (int)size;
}

static int rv_new(lua_State *L) {
  reversi_board board;
  reversi_init(&board, check_size(L, 1, "reversi.new"));
  lgame_push(L, &reversi_class, &board);
  return 1;
}

/* ---- load and save ---- */

typedef struct replay {
  lua_State *L;
  lgame *game;
} replay;

static void replayed(int square, void *context) {
  replay *r = context;
  lgame_push_move(r->L, r->game, (game_move)square);
}

/* Pushes text[0..len) as it may be shown in a message. */
static const char *push_shown(lua_State *L, const char *text, size_t len) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (size_t i = 0; i < len && i < 40; i++) {
    unsigned char c = (unsigned char)text[i];
    luaL_addchar(&b, c < 32 || c == 127 ? '?' : (char)c);
  }
  if (len > 40) luaL_addstring(&b, "...");
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

/* load(text [, {size=}]): a transcript ("f5d6c3", passes implicit), a
   board string ("---...XO--- X", as in OBF files: cells a1 to h8, then
   the side to move; the rest of the line after ';' ignored), or a board
   string followed by the moves played from it, the form save writes for
   a game that did not start from the standard 8x8 position. */
static int rv_load(lua_State *L) {
  lgame_load_args(L);
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  int size = check_size(L, 2, "reversi.load");
  if (strlen(text) != len) {
    lua_pushnil(L);
    lua_pushliteral(L, "reversi: bad record (it contains a zero byte)");
    return 2;
  }
  reversi_board board;
  size_t at;
  const char *why = reversi_read_start(text, len, size, &board, &at);
  if (why) {
    lua_pushfstring(L, "reversi: bad board string '%s' (%s)", push_shown(L, text, at),
                    why);
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  bool sized = !lua_isnoneornil(L, 2) && lua_getfield(L, 2, "size") != LUA_TNIL;
  if (sized && board.size != size) {   /* a board string has its own size */
    lua_pushnil(L);
    lua_pushfstring(L, "reversi: the board string is %dx%d, not %dx%d as option "
                    "'size' says", board.size, board.size, size, size);
    return 2;
  }
  replay r = {L, lgame_push(L, &reversi_class, &board)};
  reversi_record_error err;
  if (!reversi_play_record(&board, text + at, len - at, replayed, &r, &err)) {
    lua_pushfstring(L, "reversi: bad record: move %d '%s' (%s)", err.move,
                    push_shown(L, text + at + err.offset, err.length), err.why);
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  return 1;
}

static void push_board_string(lua_State *L, const reversi_board *board) {
  char buf[80];
  size_t n = reversi_format_board(board, buf, sizeof buf);
  lua_pushlstring(L, buf, n);
}

/* g:save(): the transcript, passes left out ("f5d6c3") but a last one,
   which no move after it implies ("... d1 pass"); after the board
   string of the start when that is not the standard 8x8 one, so that
   load reads every game back. */
static int rv_save(lua_State *L) {
  lgame *g = GAME(L);
  const reversi_board *start = lgame_start(g);
  reversi_board standard;
  reversi_init(&standard, 8);
  bool from_board = memcmp(start, &standard, sizeof standard) != 0;
  lgame_push_history(L, g);
  int history = lua_gettop(L), n = (int)lua_rawlen(L, history);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (from_board) {
    push_board_string(L, start);
    luaL_addvalue(&b);
    if (n > 0) luaL_addchar(&b, ' ');
  }
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, history, i);
    bool pass = strcmp(lua_tostring(L, -1), "pass") == 0;
    lua_pop(L, 1);
    if (pass && i < n) continue;  /* the next move says it */
    if (pass && i > 1) luaL_addchar(&b, ' ');  /* a last one: nothing does */
    lua_rawgeti(L, history, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

static int rv_board_string(lua_State *L) {
  push_board_string(L, lgame_state(GAME(L)));
  return 1;
}

/* ---- passes, counts and the result ---- */

/* g:pass([side]): the side to move (checked against side when given)
   passes; it raises when that side has a move. */
static int rv_pass(lua_State *L) {
  GAME(L);
  static const char *const sides[] = {"black", "white", NULL};
  int side = lua_isnoneornil(L, 2) ? -1 : luaL_checkoption(L, 2, NULL, sides);
  lua_settop(L, 1);
  if (side >= 0) {
    lua_getfield(L, 1, reversi_class.side[side]);
  } else {
    lua_getfield(L, 1, "play");
  }
  lua_insert(L, 1);
  lua_pushliteral(L, "pass");
  lua_call(L, 2, 1);
  return 1;
}

static int rv_side_pass(lua_State *L) {
  lua_settop(L, 1);
  lua_pushvalue(L, lua_upvalueindex(3));
  return rv_pass(L);
}

static void push_counts(lua_State *L, const reversi_board *board) {
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, reversi_count(board, REVERSI_BLACK));
  lua_setfield(L, -2, "black");
  lua_pushinteger(L, reversi_count(board, REVERSI_WHITE));
  lua_setfield(L, -2, "white");
}

/* g:result(): nil while the game goes on, then {winner=, draw=,
   score={black=, white=}}, winner nil for a draw. */
static int rv_result(lua_State *L) {
  const reversi_board *board = lgame_state(GAME(L));
  if (!reversi_is_over(board)) {
    lua_pushnil(L);
    return 1;
  }
  int black = reversi_count(board, REVERSI_BLACK);
  int white = reversi_count(board, REVERSI_WHITE);
  lua_createtable(L, 0, 3);
  if (black != white) {
    lua_pushstring(L, black > white ? "black" : "white");
    lua_setfield(L, -2, "winner");
  }
  lua_pushboolean(L, black == white);
  lua_setfield(L, -2, "draw");
  push_counts(L, board);
  lua_setfield(L, -2, "score");
  return 1;
}

/* g:bitboards() -> black's discs, white's; g:bitboards("turn") -> the
   side to move's, the other's.  Bit 8 * (row - 1) + (column - 1) is a
   square, a1 = bit 0, h8 = bit 63; a 6x6 or 4x4 board is the centred
   square of the 8x8 one (on 6x6, a1 is bit 9). */
static int rv_bitboards(lua_State *L) {
  const reversi_board *board = lgame_state(GAME(L));
  static const char *const orders[] = {"colour", "turn", NULL};
  int by_turn = luaL_checkoption(L, 2, "colour", orders);
  bool player_first = by_turn || board->turn == REVERSI_BLACK;
  lua_pushinteger(L, (lua_Integer)(player_first ? board->player : board->opponent));
  lua_pushinteger(L, (lua_Integer)(player_first ? board->opponent : board->player));
  return 2;
}

static int rv_size(lua_State *L) {
  lua_pushinteger(L, ((const reversi_board *)lgame_state(GAME(L)))->size);
  return 1;
}

/* ---- perft ---- */

/* reversi.perft(g, depth): leaves depth plies ahead, a pass counting as
   a ply and a finished game as a leaf. */
static int rv_perft(lua_State *L) {
  const reversi_board *board = lgame_state(GAME(L));
  lua_Integer depth = luaL_checkinteger(L, 2);
  luaL_argcheck(L, depth >= 0 && depth <= 60, 2, "depth must be 0 to 60");
  search_limit limit;
  lgame_start_limit(&limit);
  uint64_t leaves = reversi_perft(board, (int)depth, &limit);
  if (limit.stopped) {                  /* Ctrl-C: nil and why */
    lua_pushnil(L);
    lgame_push_stopped(L, &limit);
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)leaves);
  return 1;
}

/* ---- solving and searching ---- */

static void *make_solver(void) { return reversi_solver_new(SOLVER_BITS); }
static void release_solver(void *solver) { reversi_solver_free(solver); }
static void *make_table(void) { return tt_new(TABLE_MIB); }
static void release_table(void *table) { tt_free(table); }

static reversi_board *check_ongoing(lua_State *L, const char *what) {
  reversi_board *board = lgame_state(GAME(L));
  if (reversi_is_over(board)) {
    int black = reversi_count(board, REVERSI_BLACK);
    int white = reversi_count(board, REVERSI_WHITE);
    luaL_error(L, "reversi: nothing to %s, the game is over (%s)", what,
               black == white ? "a draw"
               : black > white ? lua_pushfstring(L, "black won %d-%d", black, white)
                               : lua_pushfstring(L, "white won %d-%d", white, black));
  }
  return board;
}

/* Starts limit with {time=, nodes=} at arg (time default_seconds when
   absent; 0: none). */
static void check_limits(lua_State *L, int arg, search_limit *limit,
                         double default_seconds) {
  lgame_start_limit(limit);
  limit->max_seconds = default_seconds;
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lgame_read_limits(L, arg, limit, "reversi");
}

static void push_move(lua_State *L, const reversi_board *board, int square) {
  char name[5];
  reversi_square_name(board, square, name);
  lua_pushstring(L, name);
}

/* Pushes {nodes=, seconds=, complete=, stopped=}. */
static void push_info(lua_State *L, const search_limit *limit, bool complete) {
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, (lua_Integer)limit->nodes);
  lua_setfield(L, -2, "nodes");
  lua_pushnumber(L, limit_elapsed(limit));
  lua_setfield(L, -2, "seconds");
  lua_pushboolean(L, complete);
  lua_setfield(L, -2, "complete");
  const char *reason = lgame_finish_limit(L, limit);
  if (!complete && reason) {
    lua_pushstring(L, reason);
    lua_setfield(L, -2, "stopped");
  }
}

/* g:solve{all=, time=, nodes=, progress=} -> score, best move, info: the
   exact final disc difference for the side to move, the empty squares
   going to the winner.  With all=true: {move=score, ...} for every move,
   and info.  Stopped by a limit: nil, nil, info (or nil, info), info
   with the bounds proved (info.lower, info.upper) for a single solve.
   progress(lower, upper, nodes) hears of each step of a single solve
   (of its exact pass, from 18 empties on: solve.c). */
static int rv_solve(lua_State *L) {
  reversi_board position = *check_ongoing(L, "solve");
  reversi_board *board = &position;    /* a callback may change the game */
  lgame_check_options(L, 2, "all time nodes progress", "reversi: solve");
  search_limit limit;
  check_limits(L, 2, &limit, 0);
  bool all = !lua_isnoneornil(L, 2) && lgame_opt_boolean(L, 2, "all", false,
                                                         "reversi: solve");
  lgame_progress call;
  lgame_progress_init(L, &call, 2, &limit, "reversi");
  if (call.function && all)
    return luaL_error(L, "reversi: progress follows a single solve, "
                         "not all=true");
  reversi_solver *solver = lgame_shared_job(L, SOLVER_KEY, make_solver,
                                            release_solver, NULL, "solve");
  if (all) {
    int scores[64];
    bool complete = reversi_solve_all(solver, board, &limit, scores);
    if (!complete) {
      lua_pushnil(L);
    } else {
      lua_newtable(L);
      uint64_t moves = reversi_legal(board);
      for (; moves; moves &= moves - 1) {
        int square = __builtin_ctzll(moves);
        push_move(L, board, square);
        lua_pushinteger(L, scores[square]);
        lua_settable(L, -3);
      }
      if (!reversi_legal(board)) {            /* the pass is the one move */
        reversi_solution r = reversi_solve(solver, board, &limit);
        lua_pushinteger(L, r.score);
        lua_setfield(L, -2, "pass");
        complete = r.complete;
        if (!complete) {
          lua_pop(L, 1);
          lua_pushnil(L);
        }
      }
    }
    push_info(L, &limit, complete);
    return 2;
  }
  reversi_progress *progress = call.function ? lgame_call_progress : NULL;
  reversi_solution r = reversi_solve_watched(solver, board, &limit, progress,
                                             &call);
  lgame_progress_check(&call);
  if (!r.complete) {
    lua_pushnil(L);
    lua_pushnil(L);
  } else {
    lua_pushinteger(L, r.score);
    push_move(L, board, r.best);
  }
  push_info(L, &limit, r.complete);
  if (!r.complete) {
    lua_pushinteger(L, r.lower);
    lua_setfield(L, -2, "lower");
    lua_pushinteger(L, r.upper);
    lua_setfield(L, -2, "upper");
  }
  return 3;
}

/* g:search{depth=, time=, nodes=, exact=} -> move, score, info: a move
   of the midgame search (alpha-beta with the evaluation), the score in
   discs for the side to move; with exact (default 14) empty squares or
   fewer, the solver's move and exact score when it finishes in time.
   Without depth or nodes the search takes a second. */
static int rv_search(lua_State *L) {
  reversi_board position = *check_ongoing(L, "search");
  reversi_board *board = &position;
  lua_Integer depth = 0, exact = EXACT_EMPTIES;
  bool bounded = false;         /* by depth or nodes: no default time */
  if (!lua_isnoneornil(L, 2)) {
    lgame_check_options(L, 2, "depth time nodes exact", "reversi: search");
    depth = lgame_opt_integer(L, 2, "depth", 0, 1, 60, "reversi");
    exact = lgame_opt_integer(L, 2, "exact", exact, 0, 64, "reversi");
    bounded = depth > 0 || lua_getfield(L, 2, "nodes") != LUA_TNIL;
    lua_settop(L, 2);
  }
  search_limit limit;
  check_limits(L, 2, &limit, bounded ? 0 : 1.0);
  int empties = __builtin_popcountll(board->mask & ~(board->player | board->opponent));
  reversi_solver *solver = lgame_shared_job(L, SOLVER_KEY, make_solver,
                                            release_solver, NULL, "search");
  const char *exact_stopped = NULL;
  if (empties <= exact) {
    reversi_solution r = reversi_solve(solver, board, &limit);
    if (r.complete) {
      push_move(L, board, r.best);
      lua_pushinteger(L, r.score);
      push_info(L, &limit, true);
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, "exact");
      return 3;
    }
    /* out of time or nodes, or Ctrl-C: a short search still gives a
       move, and the info says why the exact one stopped */
    exact_stopped = lgame_finish_limit(L, &limit);
    lgame_start_limit(&limit);
    limit.interrupt = NULL;
    depth = 4;
  }
  search_options options = {0};
  options.max_depth = (int)depth;
  options.tt = lgame_shared(L, TABLE_KEY, make_table, release_table, NULL);
  reversi_board copy = *board;
  search_result result;
  search_alphabeta(&reversi_class, &copy, &options, &limit, &result);
  if (result.best == GAME_NO_MOVE) lua_pushnil(L);   /* stopped at once */
  else push_move(L, board, (int)result.best);
  if (search_is_win_score(result.score))
    lua_pushnumber(L, result.score > 0 ? HUGE_VAL : -HUGE_VAL);
  else
    lua_pushnumber(L, result.score / 100.0);
  push_info(L, &limit, !limit.stopped);
  if (exact_stopped) {
    lua_pushstring(L, exact_stopped);
    lua_setfield(L, -2, "stopped");
  }
  lua_pushinteger(L, result.depth);
  lua_setfield(L, -2, "depth");
  lua_pushboolean(L, result.exact);
  lua_setfield(L, -2, "exact");
  lua_createtable(L, result.pv_length, 0);
  for (int i = 0; i < result.pv_length; i++) {
    push_move(L, &copy, (int)result.pv[i]);
    lua_rawseti(L, -2, i + 1);
    reversi_make(&copy, (int)result.pv[i]);
  }
  lua_setfield(L, -2, "pv");
  return 3;
}

static const luaL_Reg methods[] = {
  {"pass", rv_pass},
  {"result", rv_result},
  {"size", rv_size},
  {"bitboards", rv_bitboards},
  {"save", rv_save},
  {"board_string", rv_board_string},
  {"solve", rv_solve},
  {"search", rv_search},
  {NULL, NULL}
};

static const luaL_Reg functions[] = {
  {"new", rv_new},
  {"load", rv_load},
  {"perft", rv_perft},
  {NULL, NULL}
};

int luaopen_ludus_reversi(lua_State *L) {
  lgame_open(L, &reversi_class, methods, functions);
  /* g:black_pass(), g:white_pass() */
  lgame_push_methods(L, &reversi_class);
  luaL_getmetatable(L, "ludus.reversi");      /* the methods' first upvalue */
  for (int side = 0; side < 2; side++) {
    lua_pushvalue(L, -1);
    lua_pushnil(L);
    lua_pushstring(L, reversi_class.side[side]);
    lua_pushcclosure(L, rv_side_pass, 3);
    lua_pushfstring(L, "%s_pass", reversi_class.side[side]);
    lua_insert(L, -2);
    lua_settable(L, -4);
  }
  lua_pop(L, 2);
  lreversi_open_formats(L);
  return 1;
}
