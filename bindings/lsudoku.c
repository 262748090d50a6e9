/*
** lsudoku.c: `ludus.sudoku`.  A puzzle is a userdata holding a grid and
** the symbols it is written with; every function takes a puzzle or
** anything parse reads (a string, a flat list of numbers, a list of
** rows), and the module table is the puzzles' __index, so p:solve() is
** sudoku.solve(p).  Reading input that may be bad returns nil, message;
** misuse (p:set out of range, a bad option) raises.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"
#include "sudoku/sudoku.h"

#define PUZZLE_TYPE "ludus.sudoku"

typedef sudoku_puzzle puzzle;

static const char *const sizes_allowed =
    "a square, from 16 (4x4) to 4096 (64x64)";

/* A puzzle's userdata ends after its last cell (a 9x9 takes 160 bytes,
   not the 4 KB of a 64x64), so it is never copied whole: only through
   push_puzzle and sudoku_copy. */
static puzzle *push_puzzle(lua_State *L, const puzzle *from) {
  size_t bytes = sudoku_puzzle_bytes(from->grid.size);
  puzzle *p = lua_newuserdatauv(L, bytes, 1);
  memcpy(p, from, bytes);
  luaL_setmetatable(L, PUZZLE_TYPE);
  return p;
}

/* A value as its puzzle writes it: its symbol, or its number. */
static const char *value_text(const puzzle *p, int v, char *buf) {
  if (p->symbols[0] && v >= 1 && v <= p->grid.size)
    snprintf(buf, 8, "%c", p->symbols[v - 1]);
  else
    snprintf(buf, 8, "%d", v);
  return buf;
}

static puzzle *check_puzzle(lua_State *L, int arg) {
  return luaL_checkudata(L, arg, PUZZLE_TYPE);
}

static int fail(lua_State *L, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  lua_pushnil(L);
  lua_pushliteral(L, "sudoku: ");
  lua_pushvfstring(L, fmt, args);
  va_end(args);
  lua_concat(L, 2);
  return 2;
}

/* ---- reading puzzles ---- */

/* What parse takes besides the puzzle: its symbols and box shape. */
typedef struct read_options {
  const char *symbols;        /* NULL: guessed */
  int box_rows, box_cols;     /* 0, 0: the side's default */
} read_options;

static int read_text(lua_State *L, const char *text, size_t len,
                     const read_options *o, puzzle *out) {
  char message[256];
  if (sudoku_read(text, len, o->symbols, o->box_rows, o->box_cols, out,
                  message, sizeof message) != SUDOKU_OK)
    return fail(L, "%s", message);
  return 0;
}

static int make_puzzle(lua_State *L, sudoku_grid *grid, const read_options *o,
                       puzzle *out) {
  char message[256];
  if (o->box_rows || o->box_cols) {
    if (!sudoku_shape_ok(grid->size, o->box_rows, o->box_cols))
      return fail(L, "boxes of %dx%d do not make a %dx%d (%d x %d must be %d)",
                  o->box_rows, o->box_cols, grid->size, grid->size,
                  o->box_rows, o->box_cols, grid->size);
    grid->box_rows = o->box_rows;
    grid->box_cols = o->box_cols;
  }
  if (sudoku_make_puzzle(grid, o->symbols, out, message, sizeof message) !=
      SUDOKU_OK)
    return fail(L, "%s", message);
  return 0;
}

/* One cell of a Lua table: a number 0..size.  Returns -1 after pushing
   nil and a message. */
static int table_cell(lua_State *L, int size, int cell) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, -1, &isnum);
  int type = lua_type(L, -1);
  lua_pop(L, 1);
  if (!isnum || type != LUA_TNUMBER) {
    fail(L, "r%dc%d is %s, expected a number from 0 (empty) to %d",
         cell / size + 1, cell % size + 1,
         type == LUA_TNUMBER ? "not a whole number" : lua_typename(L, type),
         size);
    return -1;
  }
  if (v < 0 || v > size) {
    fail(L, "r%dc%d is %I, expected 0 (empty) to %d", cell / size + 1,
         cell % size + 1, v, size);
    return -1;
  }
  return (int)v;
}

static int side_of(lua_Integer cells) {
  for (int size = SUDOKU_MIN_SIDE; size <= SUDOKU_MAX_SIDE; size++)
    if (size * size == cells) return size;
  return 0;
}

/* A table at idx: flat numbers, rows of numbers, or strings (rows, or
   one cell each) read as text. */
static int parse_table(lua_State *L, int idx, const read_options *o,
                       puzzle *out) {
  lua_Integer n = luaL_len(L, idx);
  int first = lua_rawgeti(L, idx, 1);
  lua_pop(L, 1);
  if (first == LUA_TSTRING) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (lua_Integer i = 1; i <= n; i++) {
      if (lua_rawgeti(L, idx, i) != LUA_TSTRING) {
        int type = lua_type(L, -1);
        lua_pop(L, 1);
        return fail(L, "item %I is a %s, but item 1 is a string", i,
                    lua_typename(L, type));
      }
      luaL_addvalue(&b);
      luaL_addchar(&b, '\n');
    }
    luaL_pushresult(&b);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    int r = read_text(L, text, len, o, out);
    if (r) return r;
    lua_pop(L, 1);
    return 0;
  }
  sudoku_grid grid;
  if (first == LUA_TTABLE) {
    int size = n <= SUDOKU_MAX_SIDE ? side_of(n * n) : 0;
    if (!size)
      return fail(L, "%I rows given, expected 4 to 64", n);
    sudoku_init(&grid, size);
    for (int r = 0; r < size; r++) {
      if (lua_rawgeti(L, idx, r + 1) != LUA_TTABLE) {
        int type = lua_type(L, -1);
        lua_pop(L, 1);
        return fail(L, "row %d is a %s, expected a table of %d numbers",
                    r + 1, lua_typename(L, type), size);
      }
      lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
      if (len != size) {
        lua_pop(L, 1);
        return fail(L, "row %d has %I cells, expected %d", r + 1, len, size);
      }
      for (int c = 0; c < size; c++) {
        lua_rawgeti(L, -1, c + 1);
        int v = table_cell(L, size, r * size + c);
        if (v < 0) {
          lua_remove(L, -3);    /* the row, under nil and the message */
          return 2;
        }
        grid.cell[r * size + c] = (uint8_t)v;
      }
      lua_pop(L, 1);
    }
    return make_puzzle(L, &grid, o, out);
  }
  int size = side_of(n);
  if (!size) return fail(L, "%I cells given, expected %s", n, sizes_allowed);
  sudoku_init(&grid, size);
  for (int cell = 0; cell < size * size; cell++) {
    lua_rawgeti(L, idx, cell + 1);
    int v = table_cell(L, size, cell);
    if (v < 0) return 2;
    grid.cell[cell] = (uint8_t)v;
  }
  return make_puzzle(L, &grid, o, out);
}

/* A box option at idx: {rows, cols}. */
static void check_box_option(lua_State *L, int idx, int *rows, int *cols) {
  if (lua_type(L, idx) != LUA_TTABLE || luaL_len(L, idx) != 2)
    luaL_error(L, "sudoku: box must be {rows, cols}, as box = {2, 3} (got %s)",
               luaL_typename(L, idx));
  int at[2];
  for (int i = 0; i < 2; i++) {
    lua_rawgeti(L, idx, i + 1);
    int isnum;
    lua_Integer v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < 1 || v > SUDOKU_MAX_SIDE)
      luaL_error(L, "sudoku: box must be {rows, cols} of whole numbers from 1 "
                 "to 64 (got %s)", luaL_tolstring(L, -1, NULL));
    at[i] = (int)v;
    lua_pop(L, 1);
  }
  *rows = at[0];
  *cols = at[1];
}

/* The options of a parse: {symbols =, box = {r, c}}. */
static void check_read_options(lua_State *L, int arg, read_options *o) {
  memset(o, 0, sizeof *o);
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    if (strcmp(key, "symbols") && strcmp(key, "box"))
      luaL_error(L, "sudoku: parse takes the options 'symbols' and 'box' "
                 "(got '%s')", luaL_tolstring(L, -1, NULL));
  }
  if (lua_getfield(L, arg, "box") != LUA_TNIL)
    check_box_option(L, lua_gettop(L), &o->box_rows, &o->box_cols);
  lua_pop(L, 1);
  if (lua_getfield(L, arg, "symbols") == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  size_t len;
  const char *symbols = luaL_checklstring(L, -1, &len);
  if (strcmp(symbols, "numbers") == 0) {
    o->symbols = SUDOKU_NUMBERS;
  } else if (!sudoku_symbols_ok(symbols, len)) {
    luaL_error(L, "sudoku: symbols must be 4 to 64 different printable "
               "characters, none of them '.', '|', '-', '+', ',' or ';', or "
               "\"numbers\" (got '%s')", symbols);
  } else {
    o->symbols = symbols;
  }
  lua_pop(L, 1);      /* still referenced by the options table */
}

/* Reads the value at arg as a puzzle: the userdata itself, or a new one
   pushed from what parse reads.  NULL after pushing nil and a message. */
static puzzle *to_puzzle(lua_State *L, int arg, int options) {
  puzzle *p = luaL_testudata(L, arg, PUZZLE_TYPE);
  if (p) return p;
  read_options o;
  memset(&o, 0, sizeof o);
  if (options) check_read_options(L, options, &o);
  /* a full-size scratch puzzle, freed by the collector whatever raises */
  puzzle *read = lua_newuserdatauv(L, sizeof *read, 0);
  int type = lua_type(L, arg), failed;
  if (type == LUA_TSTRING) {
    size_t len;
    const char *text = lua_tolstring(L, arg, &len);
    failed = read_text(L, text, len, &o, read);
  } else if (type == LUA_TTABLE) {
    failed = parse_table(L, arg, &o, read);
  } else {
    failed = fail(L, "a puzzle is a string or a table, not %s",
                  lua_typename(L, type));
  }
  if (failed) return NULL;
  p = push_puzzle(L, read);
  lua_replace(L, arg);
  lua_pop(L, 1);                              /* the scratch */
  return p;
}

#define TO_PUZZLE(L, arg) \
  puzzle *p = to_puzzle(L, arg, 0); \
  if (!p) return 2

/* parse(text_or_table [, {symbols=, box=}]) -> puzzle, symbols | nil,
   message */
static int sudoku_parse_lua(lua_State *L) {
  luaL_checkany(L, 1);
  lua_settop(L, 2);
  if (luaL_testudata(L, 1, PUZZLE_TYPE)) {
    push_puzzle(L, check_puzzle(L, 1));
  } else {
    puzzle *p = to_puzzle(L, 1, 2);
    if (!p) return 2;
    lua_pushvalue(L, 1);
  }
  const char *symbols = ((puzzle *)lua_touserdata(L, -1))->symbols;
  if (symbols[0]) lua_pushstring(L, symbols);
  else lua_pushliteral(L, "numbers");
  return 2;
}

/* ---- solving ---- */

/* The most solutions solutions() lists: 100,000 grids take about 130 MB
   in C and Lua together. */
#define SOLUTIONS_CEILING 100000

/* The solutions found, their cells only (cells bytes each). */
typedef struct found {
  uint8_t *grids;
  size_t n, cap, cells;
  bool out_of_memory;
} found;

static bool keep(const sudoku_grid *solution, void *context) {
  found *f = context;
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 16;
    uint8_t *more = realloc(f->grids, cap * f->cells);
    if (!more) {
      f->out_of_memory = true;
      return true;
    }
    f->grids = more;
    f->cap = cap;
  }
  memcpy(f->grids + f->n++ * f->cells, solution->cell, f->cells);
  return false;
}

/* A limit of solutions at arg: nil for none (0), else a whole number
   from 1 to max. */
static uint64_t check_count_limit(lua_State *L, int arg, lua_Integer max) {
  if (lua_isnoneornil(L, arg)) return 0;
  lua_Integer limit = luaL_checkinteger(L, arg);
  luaL_argcheck(L, limit >= 1 && limit <= max, arg,
                lua_pushfstring(L, "a limit is from 1 to %I", max));
  return (uint64_t)limit;
}

/* Runs the solver on p, watching Ctrl-C; solutions into f when not NULL. */
static const char *run_search(lua_State *L, const puzzle *p,
                              sudoku_search *s, found *f) {
  search_limit limit;
  memset(&limit, 0, sizeof limit);
  limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  s->limit = &limit;
  if (f) {
    s->visit = keep;
    s->context = f;
  }
  sudoku_error e = sudoku_solve(&p->grid, s);
  s->limit = NULL;
  if (f && f->out_of_memory) {
    free(f->grids);
    luaL_error(L, "sudoku: not enough memory for %d solutions", (int)f->n);
  }
  if (e == SUDOKU_ENOMEM) {
    if (f) free(f->grids);
    luaL_error(L, "sudoku: not enough memory for the solver");
  }
  /* Ctrl-C: the call returns what it found (see ludus.h) */
  if (ludus_interrupted && limit.stopped) ludus_interrupt_consumed(L);
  return limit_reason(&limit);
}

/* Pushes {stopped = reason}, the info a stopped count or list returns. */
static int push_stopped(lua_State *L, const char *reason) {
  lua_createtable(L, 0, 1);
  lua_pushstring(L, reason);
  lua_setfield(L, -2, "stopped");
  return 1;
}

/* solve(p) -> the solution found first, or nil, "no solution" */
static int sudoku_solve_lua(lua_State *L) {
  TO_PUZZLE(L, 1);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 1;
  puzzle *solution = push_puzzle(L, p);       /* the solution goes here */
  s.first = &solution->grid;
  const char *stopped = run_search(L, p, &s, NULL);
  if (s.solutions == 0) {
    lua_pushnil(L);
    if (s.complete) lua_pushliteral(L, "no solution");
    else lua_pushfstring(L, "stopped before a solution (%s)", stopped);
    return 2;
  }
  return 1;
}

/* solutions(p [, limit]) -> a list of up to limit solutions; all of them
   without a limit, but no more than SOLUTIONS_CEILING, past which it
   raises rather than fill the memory. */
static int sudoku_solutions_lua(lua_State *L) {
  TO_PUZZLE(L, 1);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = check_count_limit(L, 2, SOLUTIONS_CEILING);
  bool all = s.max_solutions == 0;
  if (all) s.max_solutions = SOLUTIONS_CEILING + 1;
  found f = {NULL, 0, 0, (size_t)(p->grid.size * p->grid.size), false};
  const char *stopped = run_search(L, p, &s, &f);
  if (all && f.n > SOLUTIONS_CEILING) {
    free(f.grids);
    return luaL_error(L, "sudoku: more than %d solutions (give a limit, "
                      "solutions(p, n), or count them with count(p))",
                      SOLUTIONS_CEILING);
  }
  lua_createtable(L, (int)(f.n < 1000000 ? f.n : 0), 0);
  for (size_t i = 0; i < f.n; i++) {
    puzzle *q = push_puzzle(L, p);
    memcpy(q->grid.cell, f.grids + i * f.cells, f.cells);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  free(f.grids);
  return stopped ? 1 + push_stopped(L, stopped) : 1;
}

/* count(p [, limit]) -> the number of solutions, at most limit */
static int sudoku_count_lua(lua_State *L) {
  TO_PUZZLE(L, 1);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = check_count_limit(L, 2, LUA_MAXINTEGER);
  const char *stopped = run_search(L, p, &s, NULL);
  lua_pushinteger(L, (lua_Integer)s.solutions);
  return stopped ? 1 + push_stopped(L, stopped) : 1;
}

/* is_unique(p) -> true, or false and why */
static int sudoku_is_unique_lua(lua_State *L) {
  TO_PUZZLE(L, 1);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 2;
  const char *stopped = run_search(L, p, &s, NULL);
  lua_pushboolean(L, s.solutions == 1 && s.complete);
  if (s.solutions == 1 && s.complete) return 1;
  if (s.solutions >= 2) lua_pushliteral(L, "more than one solution");
  else if (s.complete) lua_pushliteral(L, "no solution");
  else lua_pushfstring(L, "stopped before the end (%s)", stopped);
  return 2;
}

/* ---- generating ---- */

static lua_Integer opt_integer(lua_State *L, int arg, const char *key,
                               lua_Integer fallback) {
  lua_Integer v = fallback;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum)
      luaL_error(L, "sudoku: option '%s' must be an integer (got %s)", key,
                 luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}

/* generate{size=9, seed=, clues=, symmetric=, minimal=} -> puzzle, seed */
static int sudoku_generate_lua(lua_State *L) {
  static const char *const known = " size box seed clues symmetric minimal ";
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    char word[40];
    snprintf(word, sizeof word, " %s ", key);
    if (!*key || strlen(key) > 20 || !strstr(known, word))
      luaL_error(L, "sudoku: generate takes size, box, seed, clues, symmetric "
                 "and minimal (got '%s')", luaL_tolstring(L, -1, NULL));
  }
  sudoku_generate_options o;
  memset(&o, 0, sizeof o);
  lua_Integer size = opt_integer(L, 1, "size", 9);
  if (lua_getfield(L, 1, "box") != LUA_TNIL)
    check_box_option(L, lua_gettop(L), &o.box_rows, &o.box_cols);
  lua_pop(L, 1);
  if (size < SUDOKU_MIN_SIDE || size > SUDOKU_MAX_SIDE)
    luaL_error(L, "sudoku: size must be from 4 to 64 (got %I)", size);
  if (o.box_rows ? !sudoku_shape_ok((int)size, o.box_rows, o.box_cols)
                 : !sudoku_size_ok((int)size))
    luaL_error(L, o.box_rows ? "sudoku: boxes of %dx%d do not make a %Ix%I"
                             : "sudoku: a %Ix%I has no boxes (%I is prime)",
               o.box_rows ? o.box_rows : size, o.box_rows ? o.box_cols : size,
               size, size);
  o.size = (int)size;
  lua_Integer clues = opt_integer(L, 1, "clues", 0);
  if (clues < 0 || clues > size * size)
    luaL_error(L, "sudoku: clues must be from 0 to %I (got %I)", size * size,
               clues);
  o.clues = (int)clues;
  lua_getfield(L, 1, "seed");
  bool seeded = !lua_isnil(L, -1);
  lua_pop(L, 1);
  o.seed = seeded ? (uint64_t)opt_integer(L, 1, "seed", 0) : ludus_fresh_seed();
  lua_getfield(L, 1, "symmetric");
  o.symmetric = lua_toboolean(L, -1);
  lua_getfield(L, 1, "minimal");
  o.minimal = lua_toboolean(L, -1);
  lua_pop(L, 2);
  search_limit limit;
  memset(&limit, 0, sizeof limit);
  limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  o.limit = &limit;
  struct {
    puzzle made;
    sudoku_grid grid;
  } *scratch = lua_newuserdatauv(L, sizeof *scratch, 0);
  puzzle *made = &scratch->made;
  sudoku_grid *grid = &scratch->grid;
  sudoku_error e = sudoku_generate(&o, grid);
  if (ludus_interrupted && limit.stopped) ludus_interrupt_consumed(L);
  if (e == SUDOKU_ENOMEM) luaL_error(L, "sudoku: not enough memory to generate");
  if (e != SUDOKU_OK) return fail(L, "generate stopped (%s)",
                                  limit_reason(&limit) ? limit_reason(&limit)
                                                       : "no full grid found");
  char message[256];
  if (sudoku_make_puzzle(grid, NULL, made, message, sizeof message) !=
      SUDOKU_OK)
    luaL_error(L, "sudoku: generate made a bad puzzle (%s)", message);
  push_puzzle(L, made);
  lua_pushinteger(L, (lua_Integer)o.seed);
  return 2;
}

/* ---- reasoning ---- */

/* hint(p) -> text, {row=, col=, value=, technique=, steps=} | nil, why */
static int sudoku_hint_lua(lua_State *L) {
  static const char *const techniques[] = {
    "naked single", "hidden single", "pointing", "claiming", "naked subset",
    "hidden subset",
  };
  TO_PUZZLE(L, 1);
  sudoku_hint hint;
  sudoku_find_hint(&p->grid, &hint);
  char text[2048];
  sudoku_hint_text(&p->grid, &hint, p->symbols, text, sizeof text);
  if (hint.kind != SUDOKU_HINT_PLACE) {
    lua_pushnil(L);
    lua_pushstring(L, text);
    return 2;
  }
  int size = p->grid.size;
  lua_pushstring(L, text);
  lua_createtable(L, 0, 5);
  lua_pushinteger(L, hint.cell / size + 1);
  lua_setfield(L, -2, "row");
  lua_pushinteger(L, hint.cell % size + 1);
  lua_setfield(L, -2, "col");
  lua_pushinteger(L, hint.value);
  lua_setfield(L, -2, "value");
  lua_pushstring(L, techniques[hint.technique]);
  lua_setfield(L, -2, "technique");
  lua_pushinteger(L, hint.steps);
  lua_setfield(L, -2, "eliminations");
  return 2;
}

/* candidates(p) -> rows of lists: the values each cell may take given
   its row, column and box (a filled cell: its value) */
static int sudoku_candidates_lua(lua_State *L) {
  TO_PUZZLE(L, 1);
  sudoku_mask *masks = lua_newuserdatauv(L, SUDOKU_MAX_CELLS * sizeof *masks, 0);
  sudoku_candidates(&p->grid, masks);
  int size = p->grid.size;
  lua_createtable(L, size, 0);
  for (int r = 0; r < size; r++) {
    lua_createtable(L, size, 0);
    for (int c = 0; c < size; c++) {
      sudoku_mask m = masks[r * size + c];
      lua_createtable(L, size, 0);
      int n = 0;
      for (int v = 0; v < size; v++)
        if (m >> v & 1) {
          lua_pushinteger(L, v + 1);
          lua_rawseti(L, -2, ++n);
        }
      lua_rawseti(L, -2, c + 1);
    }
    lua_rawseti(L, -2, r + 1);
  }
  return 1;
}

/* ---- puzzle methods ---- */

static int check_index(lua_State *L, int arg, int size, const char *what) {
  lua_Integer i = luaL_checkinteger(L, arg);
  if (i < 1 || i > size)
    luaL_error(L, "sudoku: %s %I is off the grid (1 to %d)", what, i, size);
  return (int)i - 1;
}

/* p:get(row, col) -> the value there, 0 when empty */
static int puzzle_get(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  int size = p->grid.size;
  int r = check_index(L, 2, size, "row"), c = check_index(L, 3, size, "column");
  lua_pushinteger(L, p->grid.cell[r * size + c]);
  return 1;
}

/* A value at arg: a number 0..size, or one of the puzzle's symbols
   ('.' or "" for empty). */
static int check_value(lua_State *L, int arg, const puzzle *p) {
  int size = p->grid.size;
  if (lua_type(L, arg) == LUA_TSTRING && !p->symbols[0]) {
    size_t len;
    const char *s = lua_tolstring(L, arg, &len);
    if (len == 0 || (len == 1 && s[0] == '.')) return 0;
    return luaL_error(L, "sudoku: '%s' is not a value of this puzzle (it is "
                      "written in numbers: 1 to %d, 0 or '.' for empty)", s,
                      size);
  }
  if (lua_type(L, arg) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, arg, &len);
    if (len == 0 || (len == 1 && s[0] == '.')) return 0;
    for (int v = 1; len == 1 && v <= size; v++)
      if (p->symbols[v - 1] == s[0] ||
          (s[0] >= 'a' && s[0] <= 'z' && p->symbols[v - 1] == s[0] - 32))
        return v;
    if (len == 1 && s[0] == '0' && !strchr(p->symbols, '0')) return 0;
    return luaL_error(L, "sudoku: '%s' is not a symbol of this puzzle "
                      "(symbols: %s, '.' for empty)", s, p->symbols);
  }
  lua_Integer v = luaL_checkinteger(L, arg);
  if (v < 0 || v > size)
    luaL_error(L, "sudoku: %I is not a value of a %dx%d (0 for empty, 1 to %d)",
               v, size, size, size);
  return (int)v;
}

/* p:set(row, col, value) -> p, changed in place; raises on a value that
   clashes with another cell */
static int puzzle_set(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  int size = p->grid.size;
  int r = check_index(L, 2, size, "row"), c = check_index(L, 3, size, "column");
  int v = check_value(L, 4, p);
  int cell = r * size + c;
  uint8_t old = p->grid.cell[cell];
  p->grid.cell[cell] = (uint8_t)v;
  sudoku_clash clash;
  if (sudoku_check_givens(&p->grid, &clash) != SUDOKU_OK) {
    p->grid.cell[cell] = old;
    int other = clash.row1 * size + clash.col1 == cell
                    ? clash.row2 * size + clash.col2
                    : clash.row1 * size + clash.col1;
    char unit[32], value[8];
    int rows, cols;
    sudoku_grid_shape(&p->grid, &rows, &cols);
    int k = clash.row1 == clash.row2   ? clash.row1
            : clash.col1 == clash.col2 ? size + clash.col1
            : 2 * size + clash.row1 / rows * rows + clash.col1 / cols;
    sudoku_unit_name(size, k, unit, sizeof unit);
    value_text(p, v, value);
    luaL_error(L, "sudoku: r%dc%d cannot be %s: r%dc%d is %s already (%s)",
               r + 1, c + 1, value, other / size + 1, other % size + 1, value,
               unit);
  }
  lua_settop(L, 1);
  return 1;
}

/* p:to_string() -> the grid on one line, '.' for empty */
static int puzzle_to_string(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  size_t size = sudoku_write(p, NULL, 0) + 1;
  luaL_Buffer b;
  char *text = luaL_buffinitsize(L, &b, size);
  sudoku_write(p, text, size);
  luaL_pushresultsize(&b, size - 1);
  return 1;
}

/* The grid drawn with box lines:  5 3 . | . 7 . | . . . */
static int puzzle_tostring(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  size_t size = sudoku_draw(p, NULL, 0) + 1;
  luaL_Buffer b;
  char *text = luaL_buffinitsize(L, &b, size);
  sudoku_draw(p, text, size);
  luaL_pushresultsize(&b, size - 1);
  return 1;
}

/* p:is_solved() -> whether every cell is filled and no unit repeats */
static int puzzle_is_solved(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  lua_pushboolean(L, sudoku_is_solution(&p->grid, NULL));
  return 1;
}

/* p:size() -> the side, 4 to 64 */
static int puzzle_size(lua_State *L) {
  lua_pushinteger(L, check_puzzle(L, 1)->grid.size);
  return 1;
}

/* p:box() -> rows, cols: the shape of a box */
static int puzzle_box(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  int rows, cols;
  sudoku_grid_shape(&p->grid, &rows, &cols);
  lua_pushinteger(L, rows);
  lua_pushinteger(L, cols);
  return 2;
}

/* p:symbols() -> the symbols of values 1, 2, ... as one string, or
   "numbers" */
static int puzzle_symbols(lua_State *L) {
  const char *symbols = check_puzzle(L, 1)->symbols;
  if (symbols[0]) lua_pushstring(L, symbols);
  else lua_pushliteral(L, "numbers");
  return 1;
}

/* p:givens() -> the number of filled cells */
static int puzzle_givens(lua_State *L) {
  puzzle *p = check_puzzle(L, 1);
  int n = 0;
  for (int i = 0; i < p->grid.size * p->grid.size; i++) n += p->grid.cell[i] != 0;
  lua_pushinteger(L, n);
  return 1;
}

/* p:copy() -> an independent copy */
static int puzzle_copy(lua_State *L) {
  push_puzzle(L, check_puzzle(L, 1));
  return 1;
}

/* p == q: the same cells.  Lua asks this of any userdata compared with a
   puzzle, so anything else is simply not equal. */
static int puzzle_eq(lua_State *L) {
  puzzle *a = luaL_testudata(L, 1, PUZZLE_TYPE);
  puzzle *b = luaL_testudata(L, 2, PUZZLE_TYPE);
  lua_pushboolean(L, a && b && sudoku_same(&a->grid, &b->grid));
  return 1;
}

static const luaL_Reg methods[] = {
  {"get", puzzle_get},
  {"set", puzzle_set},
  {"to_string", puzzle_to_string},
  {"is_solved", puzzle_is_solved},
  {"size", puzzle_size},
  {"box", puzzle_box},
  {"symbols", puzzle_symbols},
  {"givens", puzzle_givens},
  {"copy", puzzle_copy},
  {NULL, NULL}
};

static const luaL_Reg functions[] = {
  {"parse", sudoku_parse_lua},
  {"solve", sudoku_solve_lua},
  {"solutions", sudoku_solutions_lua},
  {"count", sudoku_count_lua},
  {"is_unique", sudoku_is_unique_lua},
  {"generate", sudoku_generate_lua},
  {"hint", sudoku_hint_lua},
  {"candidates", sudoku_candidates_lua},
  {NULL, NULL}
};

int luaopen_ludus_sudoku(lua_State *L) {
  luaL_newlib(L, functions);
  luaL_newmetatable(L, PUZZLE_TYPE);
  luaL_newlib(L, methods);
  /* the functions that take a puzzle are its methods too */
  static const char *const shared[] = {
    "solve", "solutions", "count", "is_unique", "hint", "candidates", NULL
  };
  for (int i = 0; shared[i]; i++) {
    lua_getfield(L, -3, shared[i]);
    lua_setfield(L, -2, shared[i]);
  }
  ludus_strict_methods(L, -1, "sudoku", NULL);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, puzzle_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pushcfunction(L, puzzle_eq);
  lua_setfield(L, -2, "__eq");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  return 1;
}
