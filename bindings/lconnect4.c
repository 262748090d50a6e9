/*
** lconnect4.c: `ludus.connect4`.  The protocol comes from lgame.c; this
** file adds board sizes, drop, state, the column-digit record and
** positions built from rows of cells, as in the seed article.
*/
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lgame.h"
#include "ludus.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"
#include "connect4/book.h"

#define GAME(L) lgame_check(L, 1, &c4_class)

/* Reads {width=, height=} at arg (absent: 7x6); raises on a bad size. */
static void check_size(lua_State *L, int arg, int *width, int *height,
                       const char *where) {
  lua_Integer w = 7, h = 6;
  if (!lua_isnoneornil(L, arg)) {
    lgame_check_options(L, arg, "width height", where);
    w = lgame_opt_whole(L, arg, "width", w, where);
    h = lgame_opt_whole(L, arg, "height", h, where);
  }
  if (w < 1 || w > C4_MAX_WIDTH || h < 1 || h > C4_MAX_CELLS ||
      !c4_size_ok((int)w, (int)h))
    luaL_error(L, "connect4: a %Ix%I board does not fit (width 1 to 9, "
               "height at least 1, width*(height+1) at most 64)", w, h);
  *width = (int)w;
  *height = (int)h;
}

static int c4_new(lua_State *L) {
  int width, height;
  check_size(L, 1, &width, &height, "connect4.new");
  c4_board board;
  c4_init(&board, width, height);
  lgame_push(L, &c4_class, &board);
  return 1;
}

/* load("4453" [, size]): the game after those 1-based columns. */
static int c4_load_record(lua_State *L) {
  lgame_load_args(L);
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  int width, height;
  check_size(L, 2, &width, &height, "connect4.load");
  c4_board board;
  c4_init(&board, width, height);
  lgame *g = lgame_push(L, &c4_class, &board);
  int moves[C4_MAX_CELLS];
  c4_parse_error err;
  int n = -1;
  if (strlen(text) != len) {           /* a zero byte inside */
    err.code = C4_EBADCHAR;
    err.at = (int)strlen(text);
  } else {
    n = c4_load(&board, text, moves, &err);   /* fills at most the board */
  }
  if (n < 0) {
    static const char *const why[] = {
      [C4_EBADCHAR] = "is not a column digit",
      [C4_ECOLUMN] = "is not a column of the board",
      [C4_EFULL] = "is a full column",
      [C4_EOVER] = "comes after the end of the game",
    };
    lua_pushnil(L);
    char c = err.at < (int)len ? text[err.at] : '?';
    if (c < 32 || c > 126) c = '?';
    lua_pushfstring(L, "connect4: bad record '%s': '%c' at position %d %s",
                    len > 40 ? "..." : text, c, err.at + 1, why[err.code]);
    return 2;
  }
  for (int i = 0; i < n; i++) lgame_push_move(L, g, (game_move)moves[i]);
  return 1;
}

/* The colour named at arg: "yellow", "red", their chips, Y or R. */
static int check_colour(lua_State *L, int arg) {
  size_t len;
  const char *name = luaL_checklstring(L, arg, &len);
  if (strcmp(name, "yellow") == 0) return C4_YELLOW;
  if (strcmp(name, "red") == 0) return C4_RED;
  int cell = c4_parse_cell(name, len);
  if (cell >= 0) return cell;
  return luaL_argerror(L, arg, "expected \"yellow\" or \"red\"");
}

static int rows_error(lua_State *L, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  lua_pushnil(L);
  lua_pushliteral(L, "connect4: ");
  lua_pushvfstring(L, fmt, args);
  va_end(args);
  lua_concat(L, 2);
  return 2;
}

/* Reads row i (1-based) at the top of the stack into cells (the first
   cap of them); returns how many cells it has, or -1 after pushing nil
   and a message. */
static int read_row(lua_State *L, int i, signed char *cells, int cap) {
  if (lua_type(L, -1) == LUA_TSTRING) {
    int bad;
    int n = c4_parse_row(lua_tostring(L, -1), cells, cap, &bad);
    if (n < 0) {
      rows_error(L, "row %d: '%s' is not a cell at byte %d (cells are "
                 "yellow and red circles, Y, R, '.' or spaces)", i,
                 lua_tostring(L, -1), bad + 1);
      return -1;
    }
    return n;
  }
  if (lua_type(L, -1) != LUA_TTABLE) {
    rows_error(L, "row %d is a %s, not a string or a table of cells", i,
               luaL_typename(L, -1));
    return -1;
  }
  int n = (int)lua_rawlen(L, -1);
  for (int j = 1; j <= n && j <= cap; j++) {
    size_t len;
    int cell = -2;
    if (lua_rawgeti(L, -1, j) == LUA_TSTRING) {
      const char *text = lua_tolstring(L, -1, &len);
      cell = c4_parse_cell(text, len);
    }
    lua_pop(L, 1);
    if (cell == -2) {
      rows_error(L, "row %d, cell %d is not a cell (cells are yellow and "
                 "red circles, Y, R, '.' or spaces)", i, j);
      return -1;
    }
    cells[j - 1] = (signed char)cell;
  }
  return n;
}

static const char *const colour_names[] = {"yellow", "red"};

/* from_rows(rows [, to_move [, first]]): the position in a picture, top
   row first, as the seed writes its test cases; nil and a message when no
   game could reach it.  first moved first (yellow unless told), so the
   counts say who is to move; to_move, when given, must agree. */
static int c4_from_rows(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  int to_move = lua_isnoneornil(L, 2) ? -1 : check_colour(L, 2);
  int first = lua_isnoneornil(L, 3) ? C4_YELLOW : check_colour(L, 3);
  int height = (int)lua_rawlen(L, 1);
  int width = -1;
  signed char cells[C4_MAX_CELLS];
  if (height == 0) return rows_error(L, "no rows given");
  for (int i = 1; i <= height; i++) {
    signed char row[C4_MAX_WIDTH + 1];
    lua_rawgeti(L, 1, i);
    int n = read_row(L, i, row, C4_MAX_WIDTH + 1);
    if (n < 0) return 2;
    lua_pop(L, 1);
    if (i == 1) {
      width = n;
      if (!c4_size_ok(width, height))
        return rows_error(L, "%d rows of %d cells do not make a board (width "
                          "1 to 9, width*(height+1) at most 64)", height, width);
    } else if (n != width) {
      return rows_error(L, "row %d has %d cells, but row 1 has %d", i, n, width);
    }
    memcpy(cells + (i - 1) * width, row, (size_t)width);
  }
  c4_board board;
  c4_parse_error err;
  switch (c4_from_cells(&board, width, height, cells, to_move, first, &err)) {
  case C4_OK:
    lgame_push(L, &c4_class, &board);
    return 1;
  case C4_EFLOATING:
    return rows_error(L, "the chip in row %d, column %d floats above an "
                      "empty cell", err.row + 1, err.at + 1);
  case C4_ECOUNT:
    return rows_error(L, "%s to move with %d yellow and %d red chips: no "
                      "game where %s moves first gets there (with %s to move "
                      "both have as many chips, else %s has one more)",
                      to_move >= 0 ? colour_names[to_move]
                      : colour_names[(first == C4_YELLOW ? err.yellow > err.red
                                                         : err.red > err.yellow)
                                     ? first ^ 1 : first],
                      err.yellow, err.red, colour_names[first],
                      colour_names[first], colour_names[first]);
  case C4_ETWOWINNERS:
    return rows_error(L, "both yellow and red have four in a row");
  case C4_EWINNER:
    return rows_error(L, "%s has four in a row but is to move: the game "
                      "ended before %s's turn", err.colour ? "red" : "yellow",
                      err.colour ? "red" : "yellow");
  case C4_EPLAYEDON:
    return rows_error(L, "%s has four in a row that its last chip did not "
                      "make: the game went on after it ended",
                      err.colour ? "red" : "yellow");
  default:
    return rows_error(L, "not a position");
  }
}

/* "yellow", "red", "yellow won", "red won" or "draw": the seed's states. */
static int c4_state(lua_State *L) {
  c4_board *board = lgame_state(GAME(L));
  static const char *const state[] = {NULL, "yellow won", "red won", "draw"};
  game_status status = c4_status(board);
  lua_pushstring(L, status != GAME_ONGOING ? state[status]
                    : board->turn == C4_YELLOW ? "yellow" : "red");
  return 1;
}

/* The moves as column digits, "4453": the form load reads. */
static int c4_save(lua_State *L) {
  lgame *g = GAME(L);
  const c4_board *start = lgame_start(g);
  if (start->moves != 0 || start->turn != C4_YELLOW)
    return luaL_error(L, "connect4: this position was built from rows and "
                      "has no move record");
  lgame_push_history(L, g);
  int n = (int)lua_rawlen(L, -1);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, -2, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

/* The rows, top first, as strings of Y, R and '.': what from_rows reads. */
static int c4_rows(lua_State *L) {
  c4_board *board = lgame_state(GAME(L));
  lua_createtable(L, board->height, 0);
  for (int row = 0; row < board->height; row++) {
    char text[C4_MAX_WIDTH + 1];
    c4_row_text(board, row, text);
    lua_pushstring(L, text);
    lua_rawseti(L, -2, row + 1);
  }
  return 1;
}

/* ---- the board, for code that looks at it ---- */

/* The cell at args arg, arg + 1: a column and a row, 1-based, row 1 at
   the bottom; raises when it is off the board. */
static void check_cell(lua_State *L, const c4_board *board, int arg,
                       int *column, int *row) {
  lua_Integer c = luaL_checkinteger(L, arg), r = luaL_checkinteger(L, arg + 1);
  if (c < 1 || c > board->width || r < 1 || r > board->height)
    luaL_error(L, "connect4: no cell (%I, %I) on a %dx%d board (columns 1 to "
               "%d, rows 1 to %d from the bottom)", c, r, board->width,
               board->height, board->width, board->height);
  *column = (int)c - 1;
  *row = (int)r - 1;
}

/* g:at(column, row) -> "yellow", "red" or nil; row 1 is the bottom. */
static int c4_at(lua_State *L) {
  const c4_board *board = lgame_state(GAME(L));
  int column, row;
  check_cell(L, board, 2, &column, &row);
  int colour = c4_cell(board, column, row);
  if (colour < 0) lua_pushnil(L);
  else lua_pushstring(L, colour_names[colour]);
  return 1;
}

/* The iterator of pieces(): upvalues are the game, the next cell (column
   * height + row) and the colour wanted (-1: both). */
static int next_chip(lua_State *L) {
  const c4_board *board = lgame_state(lua_touserdata(L, lua_upvalueindex(1)));
  int cell = (int)lua_tointeger(L, lua_upvalueindex(2));
  int wanted = (int)lua_tointeger(L, lua_upvalueindex(3));
  for (; cell < board->width * board->height; cell++) {
    int column = cell / board->height, row = cell % board->height;
    int colour = c4_cell(board, column, row);
    if (colour < 0 || (wanted >= 0 && colour != wanted)) continue;
    lua_pushinteger(L, cell + 1);
    lua_replace(L, lua_upvalueindex(2));
    lua_pushinteger(L, column + 1);
    lua_pushinteger(L, row + 1);
    lua_pushstring(L, colour_names[colour]);
    return 3;
  }
  return 0;
}

/* g:pieces([colour]) -> for column, row, colour in g:pieces() do ... end,
   column by column, each from the bottom up. */
static int c4_pieces(lua_State *L) {
  GAME(L);
  int wanted = lua_isnoneornil(L, 2) ? -1 : check_colour(L, 2);
  lua_settop(L, 1);
  lua_pushinteger(L, 0);
  lua_pushinteger(L, wanted);
  lua_pushcclosure(L, next_chip, 3);
  return 1;
}

/* g:count() -> {yellow = chips, red = chips}. */
static int c4_count(lua_State *L) {
  const c4_board *board = lgame_state(GAME(L));
  int mover = __builtin_popcountll(board->current);
  int other = board->moves - mover;
  lua_createtable(L, 0, 2);
  lua_pushinteger(L, board->turn == C4_YELLOW ? mover : other);
  lua_setfield(L, -2, "yellow");
  lua_pushinteger(L, board->turn == C4_YELLOW ? other : mover);
  lua_setfield(L, -2, "red");
  return 1;
}

/* g:bitboards() -> yellow's chips, red's chips; g:bitboards("turn") ->
   the side to move's, the other's.  Bit (column - 1) * (height + 1) +
   (row - 1) is a cell, row 1 at the bottom: a column takes height + 1
   bits, the one above its top always clear (Pascal Pons' layout). */
static int c4_bitboards(lua_State *L) {
  const c4_board *board = lgame_state(GAME(L));
  static const char *const orders[] = {"colour", "turn", NULL};
  int by_turn = luaL_checkoption(L, 2, "colour", orders);
  uint64_t mover = board->current, other = board->current ^ board->mask;
  bool yellow_first = by_turn || board->turn == C4_YELLOW;
  lua_pushinteger(L, (lua_Integer)(yellow_first ? mover : other));
  lua_pushinteger(L, (lua_Integer)(yellow_first ? other : mover));
  return 2;
}

/* The width and height of the board. */
static int c4_size(lua_State *L) {
  c4_board *board = lgame_state(GAME(L));
  lua_pushinteger(L, board->width);
  lua_pushinteger(L, board->height);
  return 2;
}

/* ---- the solver ---- */

#define TABLE_KEY "ludus.connect4.table"

static void *make_table(void) { return c4_table_new(); }
static void release_table(void *table) { c4_table_free(table); }

/* ---- the opening book ----
**
** The book in use is a userdata in the registry (BOOK_KEY): a book_box
** with the book and the file it came from, or false when there is none,
** with the reason in BOOK_WHY.  The first solve loads the default book:
** the file $LUDUS_BOOK names, or else DEFAULT_BOOK beside the binary,
** where `make book` and `make install` put it (ludus_push_data_file).  A
** missing or bad file leaves the solver without a book; connect4.book()
** says why.
*/

#define BOOK_KEY "ludus.connect4.book"
#define BOOK_WHY "ludus.connect4.book_why"
#define DEFAULT_BOOK "connect4-7x6.book"

typedef struct book_box {
  c4_book *book;
  char path[512];
} book_box;

static int book_gc(lua_State *L) {
  book_box *box = lua_touserdata(L, 1);
  c4_book_free(box->book);
  box->book = NULL;
  return 0;
}

static book_box *current_book(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, BOOK_KEY);
  book_box *box = lua_type(L, -1) == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
  lua_pop(L, 1);
  return box && box->book ? box : NULL;
}

/* Makes book (from path; NULL: none, for the reason why) the one in use,
   by the shared table too if it exists.  The old book is freed by the
   collector, after the table has let go of it. */
static void set_book(lua_State *L, c4_book *book, const char *path,
                     const char *why) {
  c4_table *table = lgame_shared_find(L, TABLE_KEY);
  if (table) c4_table_use_book(table, book);
  if (book) {
    book_box *box = lua_newuserdatauv(L, sizeof *box, 0);
    box->book = book;
    snprintf(box->path, sizeof box->path, "%s", path);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, book_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
  } else {
    lua_pushboolean(L, 0);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, BOOK_KEY);
  lua_pushstring(L, why ? why : "");
  lua_setfield(L, LUA_REGISTRYINDEX, BOOK_WHY);
}

/* Loads the book at path into use; false with the message why not on
   the stack. */
static bool load_book(lua_State *L, const char *path) {
  c4_book_error error;
  errno = 0;
  c4_book *book = c4_book_load(path, &error);
  if (!book) {
    char reason[128];
    lua_pushfstring(L, "connect4: no book from '%s' (%s)", path,
                    c4_book_reason(error, errno, reason, sizeof reason));
    set_book(L, NULL, NULL, lua_tostring(L, -1));
    return false;
  }
  set_book(L, book, path, NULL);
  return true;
}

static void load_default_book(lua_State *L) {
  const char *path = getenv("LUDUS_BOOK");
  if (path && !*path) {
    set_book(L, NULL, NULL, "connect4: no book (LUDUS_BOOK is empty)");
    return;
  }
  int top = lua_gettop(L);
  if (!path) path = ludus_push_data_file(L, DEFAULT_BOOK);
  if (!path)
    set_book(L, NULL, NULL, "connect4: no book (LUDUS_BOOK is not set, and "
             "no " DEFAULT_BOOK " is beside ludus: make book or make install "
             "puts it there)");
  else
    load_book(L, path);
  lua_settop(L, top);
}

static void push_book_info(lua_State *L, const book_box *box) {
  lua_createtable(L, 0, 5);
  lua_pushstring(L, box->path);
  lua_setfield(L, -2, "path");
  lua_pushinteger(L, c4_book_width(box->book));
  lua_setfield(L, -2, "width");
  lua_pushinteger(L, c4_book_height(box->book));
  lua_setfield(L, -2, "height");
  lua_pushinteger(L, c4_book_plies(box->book));
  lua_setfield(L, -2, "plies");
  lua_pushinteger(L, (lua_Integer)c4_book_entries(box->book));
  lua_setfield(L, -2, "entries");
}

/* The transposition table every solve shares, made on first use and
   freed with the Lua state; held for job until the calling function
   returns. */
static c4_table *shared_table(lua_State *L, const char *job) {
  bool made;
  c4_table *table = lgame_shared_job(L, TABLE_KEY, make_table, release_table,
                                     &made, job);
  if (made) {
    if (lua_getfield(L, LUA_REGISTRYINDEX, BOOK_KEY) == LUA_TNIL)
      load_default_book(L);
    lua_pop(L, 1);
    book_box *book = current_book(L);
    c4_table_use_book(table, book ? book->book : NULL);
  }
  return table;
}

/* Options {weak=, nodes=, time=, progress=} at arg into limit; returns
   weak, and reads progress into call (pushing what it pushes). */
static bool check_solve_options(lua_State *L, int arg, search_limit *limit,
                                lgame_progress *call, const char *names,
                                const char *where) {
  bool weak = false;
  lgame_start_limit(limit);
  if (!lua_isnoneornil(L, arg)) {
    lgame_check_options(L, arg, names, where);
    weak = lgame_opt_boolean(L, arg, "weak", false, where);
    lgame_read_limits(L, arg, limit, "connect4");
  }
  lgame_progress_init(L, call, arg, limit, "connect4");
  return weak;
}

static c4_board *check_ongoing(lua_State *L, const char *what) {
  c4_board *board = lgame_state(GAME(L));
  game_status status = c4_status(board);
  if (status != GAME_ONGOING)
    luaL_error(L, "connect4: nothing to %s, the game is over (%s)", what,
               status == GAME_DRAW ? "a draw"
               : status == GAME_WIN_0 ? "yellow won" : "red won");
  return board;
}

/* Pushes the search's statistics: {nodes=, seconds=, complete=, book=},
   book telling whether the opening book answered any position. */
static void push_info(lua_State *L, const search_limit *limit, bool complete,
                      bool book) {
  lua_createtable(L, 0, 5);
  lua_pushboolean(L, book);
  lua_setfield(L, -2, "book");
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

/* g:solve{weak=, nodes=, time=, progress=} -> score, best column, info.
   Stopped early: nil, nil, info with the bounds found (info.lower,
   info.upper).  progress(lower, upper, nodes) hears of each step. */
static int c4_solve_method(lua_State *L) {
  c4_board position = *check_ongoing(L, "solve");
  c4_board *board = &position;          /* a callback may change the game */
  search_limit limit;
  lgame_progress call;
  bool weak = check_solve_options(L, 2, &limit, &call, "weak nodes time progress",
                                  "connect4: solve");
  c4_table *table = shared_table(L, "solve");
  uint64_t hits = c4_table_book_hits(table);
  c4_progress *progress = call.function ? lgame_call_progress : NULL;
  c4_result r = c4_solve_progress(board, table, &limit, weak, progress, &call);
  lgame_progress_check(&call);
  int best = r.complete ? c4_best_move(board, table, &limit, weak, r.score) : -1;
  if (best < 0) {
    lua_pushnil(L);
    lua_pushnil(L);
    push_info(L, &limit, false, c4_table_book_hits(table) != hits);
    lua_pushinteger(L, r.lower);
    lua_setfield(L, -2, "lower");
    lua_pushinteger(L, r.upper);
    lua_setfield(L, -2, "upper");
    return 3;
  }
  lua_pushinteger(L, r.score);
  lua_pushinteger(L, best + 1);
  push_info(L, &limit, true, c4_table_book_hits(table) != hits);
  return 3;
}

/* g:analyze{weak=, nodes=, time=} -> {score of column 1, ...} with nil
   for a full column, and info; nil and info when stopped early. */
static int c4_analyze_method(lua_State *L) {
  c4_board position = *check_ongoing(L, "analyze");
  c4_board *board = &position;
  search_limit limit;
  lgame_progress call;
  bool weak = check_solve_options(L, 2, &limit, &call, "weak nodes time",
                                  "connect4: analyze");
  int scores[C4_MAX_WIDTH];
  c4_table *table = shared_table(L, "analyze");
  uint64_t hits = c4_table_book_hits(table);
  bool complete = c4_analyze(board, table, &limit, weak, scores);
  bool book = c4_table_book_hits(table) != hits;
  if (!complete) {
    lua_pushnil(L);
    push_info(L, &limit, false, book);
    return 2;
  }
  lua_createtable(L, board->width, 0);
  for (int c = 0; c < board->width; c++) {
    if (scores[c] == C4_NO_SCORE) continue;
    lua_pushinteger(L, scores[c]);
    lua_rawseti(L, -2, c + 1);
  }
  push_info(L, &limit, true, book);
  return 2;
}

/* connect4.book() -> info on the book in use, or nil and why there is
   none; connect4.book(path) loads one (nil and a message when it cannot);
   connect4.book(false) goes without. */
/* The file name at arg; a zero byte in it would cut it short. */
static const char *check_path(lua_State *L, int arg) {
  size_t len;
  const char *path = luaL_checklstring(L, arg, &len);
  luaL_argcheck(L, strlen(path) == len, arg, "a file name has no zero bytes");
  return path;
}

static int c4_book_function(lua_State *L) {
  const char *job = lgame_shared_busy(L, TABLE_KEY);
  if (job && !lua_isnoneornil(L, 1))
    return luaL_error(L, "connect4: cannot change the book now: a %s is "
                      "running and uses it", job);
  if (lua_getfield(L, LUA_REGISTRYINDEX, BOOK_KEY) == LUA_TNIL)
    load_default_book(L);
  lua_pop(L, 1);
  if (lua_isnoneornil(L, 1)) {
    book_box *box = current_book(L);
    if (box) {
      push_book_info(L, box);
      return 1;
    }
    lua_pushnil(L);
    lua_getfield(L, LUA_REGISTRYINDEX, BOOK_WHY);
    return 2;
  }
  if (lua_isboolean(L, 1) && !lua_toboolean(L, 1)) {
    set_book(L, NULL, NULL, "connect4: no book (turned off)");
    lua_pushboolean(L, 1);
    return 1;
  }
  const char *path = check_path(L, 1);
  if (!load_book(L, path)) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  push_book_info(L, current_book(L));
  return 1;
}

/* Whether a book can be written at path, so that a path that cannot take
   one is said before the minutes of making it; a file made to find out
   is removed.  errno says why not. */
static bool can_write(const char *path) {
  bool existed = access(path, F_OK) == 0;
  FILE *f = fopen(path, "ab");
  if (!f) return false;
  fclose(f);
  if (!existed) remove(path);
  return true;
}

/* connect4.make_book(path, {plies=, exact=, width=, height=, nodes=,
   time=, progress=}) solves the empty board and the positions of up to
   exact plies, writes the book and puts it in use; returns {entries=,
   nodes=, seconds=, ...}, or nil and a message. */
static int c4_make_book(lua_State *L) {
  const char *path = check_path(L, 1);
  search_limit limit;
  lgame_progress call;
  check_solve_options(L, 2, &limit, &call,
                      "plies exact width height nodes time progress",
                      "connect4.make_book");
  int width = 7, height = 6, plies = 12, exact = 0;
  if (!lua_isnoneornil(L, 2)) {
    width = (int)lgame_opt_integer(L, 2, "width", width, 1, C4_MAX_WIDTH,
                                   "connect4");
    height = (int)lgame_opt_integer(L, 2, "height", height, 1, C4_MAX_CELLS,
                                    "connect4");
    plies = (int)lgame_opt_integer(L, 2, "plies", plies, 0, C4_MAX_CELLS,
                                   "connect4");
    exact = (int)lgame_opt_integer(L, 2, "exact", exact, 0, C4_MAX_CELLS,
                                   "connect4");
  }
  if (!c4_book_size_ok(width, height))
    return luaL_error(L, "connect4: no book for a %d x %d board (books need "
                      "width * (height + 1) <= 52)", width, height);
  luaL_argcheck(L, plies <= width * height, 2, "plies out of range");
  luaL_argcheck(L, exact <= plies, 2, "exact out of range");
  if (!can_write(path)) {
    char reason[128];
    lua_pushnil(L);
    lua_pushfstring(L, "connect4: no book made at '%s' (%s)", path,
                    c4_book_reason(C4_BOOK_EOPEN, errno, reason, sizeof reason));
    return 2;
  }
  c4_table *table = shared_table(L, "make_book");
  c4_book_error error;
  c4_book *book = c4_book_generate(width, height, plies, exact, table, &limit,
                                   call.function ? lgame_call_progress : NULL,
                                   &call, &error);
  if (call.failed) {
    /* the generation stopped cleanly; the book in use goes back */
    book_box *box = current_book(L);
    c4_table_use_book(table, box ? box->book : NULL);
    c4_book_free(book);
    lgame_progress_check(&call);
  }
  const char *stopped = lgame_finish_limit(L, &limit);
  if (book) error = c4_book_save(book, path);
  if (error != C4_BOOK_OK) {
    book_box *box = current_book(L);
    c4_table_use_book(table, box ? box->book : NULL);
    c4_book_free(book);
    lua_pushnil(L);
    if (error == C4_BOOK_ESTOPPED && stopped)
      lua_pushfstring(L, "connect4: no book made at '%s' (%s: %s)", path,
                      c4_book_strerror(error), stopped);
    else
      lua_pushfstring(L, "connect4: no book made at '%s' (%s)", path,
                      c4_book_strerror(error));
    return 2;
  }
  set_book(L, book, path, NULL);
  push_book_info(L, current_book(L));
  lua_pushinteger(L, (lua_Integer)limit.nodes);
  lua_setfield(L, -2, "nodes");
  lua_pushnumber(L, limit_elapsed(&limit));
  lua_setfield(L, -2, "seconds");
  return 1;
}

static const luaL_Reg methods[] = {
  {"solve", c4_solve_method},
  {"analyze", c4_analyze_method},
  {"drop", lgame_play},
  {"state", c4_state},
  {"save", c4_save},
  {"size", c4_size},
  {"rows", c4_rows},
  {"at", c4_at},
  {"pieces", c4_pieces},
  {"count", c4_count},
  {"bitboards", c4_bitboards},
  {NULL, NULL}
};

static const luaL_Reg functions[] = {
  {"new", c4_new},
  {"load", c4_load_record},
  {"from_rows", c4_from_rows},
  {"book", c4_book_function},
  {"make_book", c4_make_book},
  {NULL, NULL}
};

int luaopen_ludus_connect4(lua_State *L) {
  lgame_open(L, &c4_class, methods, functions);
  return 1;
}
