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
#define RULES_TYPE "ludus.sudoku.variant"

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
  int rules;                  /* the stack index of a variant, or 0 */
  int side;                   /* the side of the variant's grids, or 0 */
} read_options;

static int side_of(lua_Integer cells) {
  for (int size = SUDOKU_MIN_SIDE; size <= SUDOKU_MAX_SIDE; size++)
    if (size * size == cells) return size;
  return 0;
}

/* A grid of another side than the variant's: said before the variant's
   box, which cannot make that side, is blamed for it. */
static int other_side(lua_State *L, int side, const read_options *o) {
  return fail(L, "the variant is for a %dx%d, the puzzle a %dx%d", o->side,
              o->side, side, side);
}

static int read_text(lua_State *L, const char *text, size_t len,
                     const read_options *o, puzzle *out) {
  char message[256];
  if (o->side) {
    const char *symbols = o->symbols ? o->symbols
                                     : sudoku_guess_symbols(text, len);
    int side = side_of(sudoku_count_cells(text, len, symbols));
    if (side && side != o->side) return other_side(L, side, o);
  }
  if (sudoku_read(text, len, o->symbols, o->box_rows, o->box_cols, out,
                  message, sizeof message) != SUDOKU_OK)
    return fail(L, "%s", message);
  return 0;
}

static int make_puzzle(lua_State *L, sudoku_grid *grid, const read_options *o,
                       puzzle *out) {
  char message[256];
  if (o->side && grid->size != o->side) return other_side(L, grid->size, o);
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

/* The n strings at idx, read together as out, must be its rows, each of
   size cells (else they would run together), or its cells, one each. */
static int check_row_strings(lua_State *L, int idx, lua_Integer n,
                             const puzzle *out) {
  int size = out->grid.size;
  if (n != size && n != size * size)
    return fail(L, "%I strings given: a %dx%d is %d rows (or %d cells, one "
                "a string)", n, size, size, size, size * size);
  for (lua_Integer i = 1; i <= n; i++) {
    size_t len;
    lua_rawgeti(L, idx, i);
    const char *row = lua_tolstring(L, -1, &len);
    int cells = sudoku_count_cells(row, len, out->symbols);
    lua_pop(L, 1);
    if (cells != (n == size ? size : 1))
      return n == size
          ? fail(L, "row %I has %d cells, expected %d", i, cells, size)
          : fail(L, "item %I has %d cells, expected 1 (one a string)", i, cells);
  }
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
    return check_row_strings(L, idx, n, out);
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

/* The box option at idx given with a variant whose grids have boxes of
   rows x cols (1 x n for regions): the variant's rules were made for
   those boxes (its windows, its regions), so another box is refused, not
   put in their place. */
static void check_variant_box(lua_State *L, int idx, int rows, int cols,
                              bool regions) {
  int given_rows, given_cols;
  check_box_option(L, idx, &given_rows, &given_cols);
  if (given_rows == rows && given_cols == cols) return;
  if (regions)
    luaL_error(L, "sudoku: box {%d, %d} is not for this variant, whose "
               "regions are its boxes", given_rows, given_cols);
  luaL_error(L, "sudoku: box {%d, %d} is not for this variant, whose boxes "
             "are %dx%d (give the box to sudoku.variant)", given_rows,
             given_cols, rows, cols);
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
    if (strcmp(key, "symbols") && strcmp(key, "box") && strcmp(key, "rules"))
      luaL_error(L, "sudoku: parse takes the options 'symbols', 'box' and "
                 "'rules' (got '%s')", luaL_tolstring(L, -1, NULL));
  }
  if (lua_getfield(L, arg, "rules") != LUA_TNIL) {
    const sudoku_rules *r = luaL_testudata(L, -1, RULES_TYPE);
    if (!r)
      luaL_error(L, "sudoku: rules must be a variant (sudoku.variant{...}), "
                 "not %s", luaL_typename(L, -1));
    o->rules = lua_gettop(L);               /* kept on the stack */
    o->side = r->size;
    lua_getiuservalue(L, -1, 1);
    lua_getfield(L, -1, "box_rows");
    lua_getfield(L, -2, "box_cols");
    if (!o->box_rows) {
      o->box_rows = (int)lua_tointeger(L, -2);
      o->box_cols = (int)lua_tointeger(L, -1);
    }
    if (r->has_regions) {                   /* the regions are the boxes */
      o->box_rows = 1;
      o->box_cols = r->size;
    }
    lua_pop(L, 3);
  } else {
    lua_pop(L, 1);
  }
  if (lua_getfield(L, arg, "box") != LUA_TNIL) {
    if (o->rules)
      check_variant_box(L, lua_gettop(L), o->box_rows, o->box_cols,
                        ((const sudoku_rules *)lua_touserdata(L, o->rules))->has_regions);
    else
      check_box_option(L, lua_gettop(L), &o->box_rows, &o->box_cols);
  }
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
  if (o.rules) {
    const sudoku_rules *r = lua_touserdata(L, o.rules);
    char message[256];
    if (r->size != read->grid.size) {
      fail(L, "the variant is for a %dx%d, the puzzle a %dx%d", r->size,
           r->size, read->grid.size, read->grid.size);
      return NULL;
    }
    if (sudoku_rules_check(r, &read->grid, message, sizeof message)) {
      fail(L, "%s", message);
      return NULL;
    }
  }
  p = push_puzzle(L, read);
  if (o.rules) {
    lua_pushvalue(L, o.rules);
    lua_setiuservalue(L, -2, 1);
  }
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

/* The rules of the puzzle at idx (its user value), or NULL. */
static const sudoku_rules *rules_of(lua_State *L, int idx) {
  const sudoku_rules *r = NULL;
  if (lua_getiuservalue(L, idx, 1) == LUA_TUSERDATA)
    r = luaL_testudata(L, -1, RULES_TYPE);
  lua_pop(L, 1);              /* the puzzle holds it */
  return r;
}

/* The predicate of a variant, called from the solver: its function at
   index fn; an error is kept on the stack and stops the search. */
typedef struct predicate {
  lua_State *L;
  int fn;
  const char *symbols;
  bool failed;
} predicate;

static int call_predicate(const sudoku_grid *grid, bool complete,
                          void *context) {
  predicate *pr = context;
  lua_State *L = pr->L;
  if (pr->failed) return -1;
  lua_pushvalue(L, pr->fn);
  size_t bytes = sudoku_puzzle_bytes(grid->size);
  puzzle *p = lua_newuserdatauv(L, bytes, 1);
  memcpy(p->symbols, pr->symbols, sizeof p->symbols);
  sudoku_copy(&p->grid, grid);
  luaL_setmetatable(L, PUZZLE_TYPE);
  lua_pushboolean(L, complete);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    pr->failed = true;        /* the error stays on the stack */
    return -1;
  }
  int verdict = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return verdict;
}

/* Pushes the predicate of the variant at index variant and returns its
   index, with whether it is asked about partial grids too; returns 0,
   pushing nothing, when the variant has none. */
static int push_predicate(lua_State *L, int variant, bool *partial) {
  lua_getiuservalue(L, variant, 1);         /* the variant's description */
  if (lua_getfield(L, -1, "check") != LUA_TFUNCTION) {
    lua_pop(L, 2);
    return 0;
  }
  lua_getfield(L, -2, "partial");
  *partial = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_remove(L, -2);
  return lua_gettop(L);
}

/* The predicate of the puzzle at 1 asked about it, as a search asks:
   about a full grid, and with partial = true about any.  1 when it
   stands (or nothing was asked), 0 when not, -1 with the predicate's
   error on top of the stack. */
static int ask_predicate(lua_State *L, const puzzle *p) {
  int top = lua_gettop(L), cells = p->grid.size * p->grid.size;
  if (lua_getiuservalue(L, 1, 1) != LUA_TUSERDATA) {
    lua_settop(L, top);
    return 1;
  }
  bool partial = false, full = true;
  predicate pr = {L, push_predicate(L, lua_gettop(L), &partial), p->symbols,
                  false};
  for (int i = 0; i < cells && full; i++) full = p->grid.cell[i] != 0;
  int verdict = 1;
  if (pr.fn && (partial || full))
    verdict = call_predicate(&p->grid, full, &pr);
  if (verdict >= 0) lua_settop(L, top);
  return verdict;
}

/* Copies the rules of the puzzle at from to the one on top. */
static void inherit_rules(lua_State *L, int from) {
  lua_getiuservalue(L, from, 1);
  lua_setiuservalue(L, -2, 1);
}

/* Runs the solver on p (at index 1), watching Ctrl-C, under its rules
   and predicate; solutions into f when not NULL. */
static const char *run_search(lua_State *L, const puzzle *p,
                              sudoku_search *s, found *f) {
  predicate pr = {L, 0, p->symbols, false};
  s->rules = rules_of(L, 1);
  if (s->rules) {
    lua_getiuservalue(L, 1, 1);
    pr.fn = push_predicate(L, lua_gettop(L), &s->check_partial);
    if (pr.fn) {
      s->check = call_predicate;
      s->check_context = &pr;
    }
  }
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
  if (pr.failed) {
    if (f) free(f->grids);
    lua_error(L);             /* the predicate's error, raised now */
  }
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
  inherit_rules(L, 1);
  int at = lua_gettop(L);
  s.first = &solution->grid;
  const char *stopped = run_search(L, p, &s, NULL);
  if (s.solutions == 0) {
    lua_pushnil(L);
    if (s.complete) lua_pushliteral(L, "no solution");
    else lua_pushfstring(L, "stopped before a solution (%s)", stopped);
    return 2;
  }
  lua_settop(L, at);
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
  lua_settop(L, 1);
  if (all && f.n > SOLUTIONS_CEILING) {
    free(f.grids);
    return luaL_error(L, "sudoku: more than %d solutions (give a limit, "
                      "solutions(p, n), or count them with count(p))",
                      SOLUTIONS_CEILING);
  }
  lua_createtable(L, (int)(f.n < 1000000 ? f.n : 0), 0);
  for (size_t i = 0; i < f.n; i++) {
    puzzle *q = push_puzzle(L, p);
    inherit_rules(L, 1);
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
  lua_settop(L, 1);
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
  lua_settop(L, 1);
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
  static const char *const known =
      " size box seed clues symmetric minimal rules ";
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
      luaL_error(L, "sudoku: generate takes size, box, seed, clues, symmetric, "
                 "minimal and rules (got '%s')", luaL_tolstring(L, -1, NULL));
  }
  sudoku_generate_options o;
  memset(&o, 0, sizeof o);
  lua_Integer size = opt_integer(L, 1, "size", 9);
  if (lua_getfield(L, 1, "box") != LUA_TNIL)
    check_box_option(L, lua_gettop(L), &o.box_rows, &o.box_cols);
  lua_pop(L, 1);
  int rules_at = 0;
  if (lua_getfield(L, 1, "rules") != LUA_TNIL) {
    o.rules = luaL_testudata(L, -1, RULES_TYPE);
    if (!o.rules)
      luaL_error(L, "sudoku: rules must be a variant (sudoku.variant{...}), "
                 "not %s", luaL_typename(L, -1));
    rules_at = lua_gettop(L);               /* kept on the stack */
    if (lua_getfield(L, 1, "size") != LUA_TNIL && size != o.rules->size)
      luaL_error(L, "sudoku: the variant is for a %dx%d, size asks for a "
                 "%Ix%I", o.rules->size, o.rules->size, size, size);
    lua_pop(L, 1);
    size = o.rules->size;
    lua_getiuservalue(L, rules_at, 1);
    lua_getfield(L, -1, "box_rows");
    lua_getfield(L, -2, "box_cols");
    o.box_rows = (int)lua_tointeger(L, -2);
    o.box_cols = (int)lua_tointeger(L, -1);
    if (o.rules->has_regions) {
      o.box_rows = 1;
      o.box_cols = o.rules->size;
    }
    lua_pop(L, 3);
    if (lua_getfield(L, 1, "box") != LUA_TNIL)
      check_variant_box(L, lua_gettop(L), o.box_rows, o.box_cols,
                        o.rules->has_regions);
    lua_pop(L, 1);
    /* The shuffled search for a full grid meets a rule in Lua only where
       it fills the cells the rule reads, and thrashes: the magic square's
       took minutes with no grid.  Without the rule the puzzle could have
       no solution, or several, under its own rules. */
    bool partial;
    if (push_predicate(L, rules_at, &partial))
      luaL_error(L, "sudoku: generate cannot follow a variant's check (a "
                 "rule in Lua): give it rules in C only");
  } else {
    lua_pop(L, 1);
  }
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
  if (rules_at) {
    lua_pushvalue(L, rules_at);
    lua_setiuservalue(L, -2, 1);
  }
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
  sudoku_find_hint_rules(&p->grid, rules_of(L, 1), &hint);
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
    /* its cells are written as numbers: "5" is 5 */
    size_t digits = strspn(s, "0123456789");
    if (digits == len && len <= 2 && atoi(s) <= size) return atoi(s);
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
  const sudoku_rules *rules = rules_of(L, 1);
  char message[256];
  char value[8];
  value_text(p, v, value);
  if (rules && sudoku_rules_check(rules, &p->grid, message, sizeof message)) {
    p->grid.cell[cell] = old;
    luaL_error(L, "sudoku: r%dc%d cannot be %s: %s", r + 1, c + 1, value,
               message);
  }
  /* the predicate as a search asks it; a refusal or an error leaves the
     puzzle as it was */
  int verdict = rules ? ask_predicate(L, p) : 1;
  if (verdict < 1) {
    p->grid.cell[cell] = old;
    if (verdict < 0) lua_error(L);
    luaL_error(L, "sudoku: r%dc%d cannot be %s: the variant's check refuses "
               "the grid", r + 1, c + 1, value);
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
  const sudoku_rules *rules = rules_of(L, 1);
  bool solved = rules ? sudoku_rules_hold(rules, &p->grid)
                      : sudoku_is_solution(&p->grid, NULL);
  if (solved && rules) {
    int verdict = ask_predicate(L, p);
    if (verdict < 0) lua_error(L);
    solved = verdict == 1;
  }
  lua_pushboolean(L, solved);
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
  inherit_rules(L, 1);
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


/* ---- variants ----
**
** sudoku.variant{...} reads a description (see docs/sudoku.md) into the
** rules the C solver propagates; a puzzle read with {rules = v} keeps
** them as its user value, and so do its copies and solutions.  The
** description's own table, with the predicate, is the rules' user value
** (a copy: changing the description later changes nothing). */

static const char *const variant_keys[] = {
  "name", "size", "box", "diagonals", "windows", "regions", "units", "cages",
  "even", "odd", "thermos", "arrows", "consecutive", "nonconsecutive",
  "white", "black", "alldots", "less", "different", "antiknight", "antiking",
  "check", "partial", NULL
};

/* A cell at idx: "r3c4", {3, 4} or its number 1..size*size, row by row. */
static int read_cell(lua_State *L, int idx, int size, const char *what) {
  idx = lua_absindex(L, idx);
  int r = 0, c = 0;
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *text = lua_tostring(L, idx);
    char rest;
    if (sscanf(text, "%*[rR]%d%*[cC]%d%c", &r, &c, &rest) != 2) r = 0;
  } else if (lua_type(L, idx) == LUA_TTABLE) {
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    r = (int)lua_tointeger(L, -2);
    c = (int)lua_tointeger(L, -1);
    lua_pop(L, 2);
  } else if (lua_isinteger(L, idx)) {
    lua_Integer n = lua_tointeger(L, idx);
    if (n >= 1 && n <= size * size) {
      r = (int)((n - 1) / size) + 1;
      c = (int)((n - 1) % size) + 1;
    }
  }
  if (r < 1 || r > size || c < 1 || c > size)
    luaL_error(L, "%s: %s is not a cell of a %dx%d (cells are \"r1c1\", "
               "{row, col} or 1 to %d)", what, luaL_tolstring(L, idx, NULL),
               size, size, size * size);
  return (r - 1) * size + c - 1;
}

/* The cells of the list at idx; returns how many (at most max). */
static int read_cells(lua_State *L, int idx, int size, uint16_t *cells,
                      int max, const char *what) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE)
    luaL_error(L, "%s: a list of cells expected, got %s", what,
               luaL_typename(L, idx));
  lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
  if (n > max) luaL_error(L, "%s: %I cells, at most %d", what, n, max);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, idx, i);
    cells[i - 1] = (uint16_t)read_cell(L, -1, size, what);
    lua_pop(L, 1);
  }
  return (int)n;
}

static void add_rule(lua_State *L, sudoku_rules *r, sudoku_rule_kind kind,
                     sudoku_relation relation, const uint16_t *cells,
                     int count, int target, int group, const char *what) {
  char message[256];
  if (!sudoku_rules_add(r, kind, relation, cells, count, target, group,
                        message, sizeof message))
    luaL_error(L, "%s: %s", what, message);
}

/* Every item of the list field key: fn(L, rules, item index, i) with the
   item on top. */
typedef void item_reader(lua_State *L, sudoku_rules *r, int i,
                         const char *what);

static void each_item(lua_State *L, int desc, sudoku_rules *r,
                      const char *key, const char *one, item_reader *fn) {
  if (lua_getfield(L, desc, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  if (!lua_istable(L, -1))
    luaL_error(L, "%s: a list expected, got %s", key, luaL_typename(L, -1));
  lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    char what[64];
    snprintf(what, sizeof what, "%s %d", one, (int)i);
    fn(L, r, (int)i, what);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static void read_cage(lua_State *L, sudoku_rules *r, int i, const char *what) {
  uint16_t cells[SUDOKU_MAX_SIDE + 1];
  int n = read_cells(L, -1, r->size, cells, r->size + 1, what);
  lua_getfield(L, -1, "sum");
  int isnum;
  lua_Integer sum = lua_tointegerx(L, -1, &isnum);
  lua_pop(L, 1);
  if (!isnum || sum < 0)
    luaL_error(L, "%s: sum must be a whole number (0 for none)", what);
  add_rule(L, r, SUDOKU_RULE_CAGE, SUDOKU_DIFFERENT, cells, n,
           sum > 100000 ? 100000 : (int)sum, i, what);
}

static void read_unit(lua_State *L, sudoku_rules *r, int i, const char *what) {
  (void)i;
  uint16_t cells[SUDOKU_MAX_SIDE];
  char message[256];
  int n = read_cells(L, -1, r->size, cells, r->size, what);
  if (n != r->size)
    luaL_error(L, "%s: %d cells, a unit has %d", what, n, r->size);
  if (!sudoku_rules_add_unit(r, cells, message, sizeof message))
    luaL_error(L, "%s: %s", what, message);
}

static void read_thermo(lua_State *L, sudoku_rules *r, int i,
                        const char *what) {
  uint16_t cells[SUDOKU_MAX_SIDE + 1];
  int n = read_cells(L, -1, r->size, cells, r->size + 1, what);
  if (n < 2 || n > r->size)
    luaL_error(L, "%s: %d cells (a thermometer has 2 to %d)", what, n, r->size);
  /* its values rise: a cell twice could never hold (a cage says the
     same of its cells) */
  for (int k = 1; k < n; k++)
    for (int j = 0; j < k; j++)
      if (cells[j] == cells[k])
        luaL_error(L, "%s: r%dc%d comes twice", what, cells[k] / r->size + 1,
                   cells[k] % r->size + 1);
  for (int k = 0; k + 1 < n; k++)
    add_rule(L, r, SUDOKU_RULE_PAIR, SUDOKU_LESS, cells + k, 2, 0, i, what);
}

static void read_arrow(lua_State *L, sudoku_rules *r, int i, const char *what) {
  uint16_t cells[SUDOKU_MAX_SIDE + 2];
  int n = read_cells(L, -1, r->size, cells, r->size + 1, what);
  add_rule(L, r, SUDOKU_RULE_ARROW, SUDOKU_DIFFERENT, cells, n, 0, i, what);
}

static void read_pair(lua_State *L, sudoku_rules *r, int i, const char *what,
                      sudoku_relation relation) {
  uint16_t cells[3];
  int n = read_cells(L, -1, r->size, cells, 3, what);
  if (n != 2) luaL_error(L, "%s: %d cells, a pair has 2", what, n);
  add_rule(L, r, SUDOKU_RULE_PAIR, relation, cells, 2, 0, i, what);
}

static void read_consecutive(lua_State *L, sudoku_rules *r, int i, const char *w) {
  read_pair(L, r, i, w, SUDOKU_CONSECUTIVE);
}
static void read_black(lua_State *L, sudoku_rules *r, int i, const char *w) {
  read_pair(L, r, i, w, SUDOKU_DOUBLE);
}
static void read_less(lua_State *L, sudoku_rules *r, int i, const char *w) {
  read_pair(L, r, i, w, SUDOKU_LESS);
}
static void read_different(lua_State *L, sudoku_rules *r, int i, const char *w) {
  read_pair(L, r, i, w, SUDOKU_DIFFERENT);
}

static void restrict_cells(lua_State *L, int desc, sudoku_rules *r,
                           const char *key, sudoku_mask values) {
  if (lua_getfield(L, desc, key) != LUA_TNIL) {
    uint16_t *cells = lua_newuserdatauv(L, SUDOKU_MAX_CELLS * sizeof *cells, 0);
    int n = read_cells(L, -2, r->size, cells, r->size * r->size, key);
    for (int i = 0; i < n; i++) r->allowed[cells[i]] &= values;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static bool desc_flag(lua_State *L, int desc, const char *key) {
  lua_getfield(L, desc, key);
  bool on = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return on;
}

/* Pairs of cells a step apart (knight's or king's moves, or orthogonal
   neighbours), each once, in a relation. */
static void add_steps(lua_State *L, sudoku_rules *r, const int (*step)[2],
                      int steps, sudoku_relation relation, const char *what,
                      const uint8_t *skip) {
  int n = r->size;
  for (int cell = 0; cell < n * n; cell++)
    for (int k = 0; k < steps; k++) {
      int row = cell / n + step[k][0], col = cell % n + step[k][1];
      if (row < 0 || row >= n || col < 0 || col >= n) continue;
      int other = row * n + col;
      if (other < cell || (skip && skip[cell] & skip[other] & 0)) continue;
      uint16_t cells[2] = {(uint16_t)cell, (uint16_t)other};
      add_rule(L, r, SUDOKU_RULE_PAIR, relation, cells, 2, 0, 0, what);
    }
}

/* A relation on every pair of orthogonal neighbours that no pair rule of
   the relations in 'marks' (a bit each) joins yet. */
static void add_unmarked(lua_State *L, sudoku_rules *r, unsigned marks,
                         sudoku_relation relation, const char *what) {
  int n = r->size;
  uint8_t *marked = lua_newuserdatauv(L, SUDOKU_MAX_CELLS, 0);   /* bit 0: the
                                   right neighbour, bit 1: the one below */
  memset(marked, 0, (size_t)(n * n));
  for (int i = 0; i < r->rules; i++) {
    const sudoku_rule *m = &r->rule[i];
    if (m->kind != SUDOKU_RULE_PAIR || !(marks >> m->relation & 1)) continue;
    int a = r->cell[m->first], b = r->cell[m->first + 1];
    int low = a < b ? a : b, high = a < b ? b : a;
    if (high == low + 1 && high % n != 0) marked[low] |= 1;
    else if (high == low + n) marked[low] |= 2;
  }
  for (int cell = 0; cell < n * n; cell++)
    for (int k = 0; k < 2; k++) {
      int other = k == 0 ? cell + 1 : cell + n;
      if ((k == 0 && other % n == 0) || other >= n * n || marked[cell] >> k & 1)
        continue;
      uint16_t cells[2] = {(uint16_t)cell, (uint16_t)other};
      add_rule(L, r, SUDOKU_RULE_PAIR, relation, cells, 2, 0, 0, what);
    }
  lua_pop(L, 1);
}

static void read_regions(lua_State *L, int desc, sudoku_rules *r) {
  int n = r->size, type = lua_getfield(L, desc, "regions");
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    return;
  }
  uint8_t region[SUDOKU_MAX_CELLS];
  char message[256];
  int cells = 0;
  if (type == LUA_TSTRING) {
    /* a symbol a region, in the order they first appear */
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    int id[256];
    for (int c = 0; c < 256; c++) id[c] = -1;
    int regions = 0;
    for (size_t i = 0; i < len; i++) {
      unsigned char c = (unsigned char)text[i];
      if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '|') continue;
      if (id[c] < 0) id[c] = regions < 255 ? regions++ : 255;
      if (cells < n * n) region[cells] = (uint8_t)id[c];
      cells++;
    }
  } else if (type == LUA_TTABLE) {
    lua_Integer len = (lua_Integer)lua_rawlen(L, -1);
    for (lua_Integer i = 1; i <= len && i <= n * n; i++) {
      lua_rawgeti(L, -1, i);
      int isnum;
      lua_Integer k = lua_tointegerx(L, -1, &isnum);
      if (!isnum || k < 1 || k > n)
        luaL_error(L, "regions: item %I is %s, expected a region 1 to %d", i,
                   luaL_tolstring(L, -1, NULL), n);
      region[i - 1] = (uint8_t)(k - 1);
      lua_pop(L, 1);
    }
    cells = (int)len;
  } else {
    luaL_error(L, "regions: a string or a list expected, got %s",
               luaL_typename(L, -1));
  }
  if (cells != n * n)
    luaL_error(L, "regions: %d cells given, a %dx%d has %d", cells, n, n, n * n);
  if (!sudoku_rules_set_regions(r, region, message, sizeof message))
    luaL_error(L, "regions: %s", message);
  lua_pop(L, 1);
}

/* Reads the description at 1 into the rules at 2 (protected: errors
   become nil, message). */
static int build_rules(lua_State *L) {
  sudoku_rules *r = lua_touserdata(L, 2);
  int n = r->size, rows = 0, cols = 0;       /* 0: a prime side has none */
  sudoku_default_box(n, &rows, &cols);
  if (lua_getfield(L, 1, "box") != LUA_TNIL)
    check_box_option(L, lua_gettop(L), &rows, &cols);
  lua_pop(L, 1);
  read_regions(L, 1, r);
  if (!r->has_regions && rows == 0)
    luaL_error(L, "a %dx%d has no default boxes (%d is prime): give box = "
               "{1, %d} (a Latin square) or regions", n, n, n, n);
  if (!r->has_regions && !sudoku_shape_ok(n, rows, cols))
    luaL_error(L, "boxes of %dx%d do not make a %dx%d", rows, cols, n, n);
  uint16_t unit[SUDOKU_MAX_SIDE];
  char message[256];
  if (desc_flag(L, 1, "diagonals")) {
    for (int k = 0; k < 2; k++) {
      for (int i = 0; i < n; i++)
        unit[i] = (uint16_t)(i * n + (k ? n - 1 - i : i));
      if (!sudoku_rules_add_unit(r, unit, message, sizeof message))
        luaL_error(L, "diagonals: %s", message);
    }
  }
  if (desc_flag(L, 1, "windows")) {
    /* boxes one cell in from the edges, one cell apart */
    for (int top = 1; top + rows <= n - 1; top += rows + 1)
      for (int left = 1; left + cols <= n - 1; left += cols + 1) {
        for (int i = 0; i < n; i++)
          unit[i] = (uint16_t)((top + i / cols) * n + left + i % cols);
        if (!sudoku_rules_add_unit(r, unit, message, sizeof message))
          luaL_error(L, "windows: %s", message);
      }
  }
  each_item(L, 1, r, "units", "unit", read_unit);
  each_item(L, 1, r, "cages", "cage", read_cage);
  each_item(L, 1, r, "thermos", "thermometer", read_thermo);
  each_item(L, 1, r, "arrows", "arrow", read_arrow);
  each_item(L, 1, r, "consecutive", "consecutive mark", read_consecutive);
  each_item(L, 1, r, "white", "white dot", read_consecutive);
  each_item(L, 1, r, "black", "black dot", read_black);
  each_item(L, 1, r, "less", "less sign", read_less);
  each_item(L, 1, r, "different", "different pair", read_different);
  sudoku_mask even = 0;
  for (int v = 2; v <= n; v += 2) even |= UINT64_C(1) << (v - 1);
  restrict_cells(L, 1, r, "even", even);
  sudoku_mask all = n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
  restrict_cells(L, 1, r, "odd", all & ~even);
  for (int cell = 0; cell < n * n; cell++)
    if (!r->allowed[cell])
      luaL_error(L, "even and odd: r%dc%d is in both", cell / n + 1,
                 cell % n + 1);
  static const int knight[8][2] = {{1, 2}, {2, 1}, {1, -2}, {2, -1},
                                   {-1, 2}, {-2, 1}, {-1, -2}, {-2, -1}};
  static const int king[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  if (desc_flag(L, 1, "antiknight"))
    add_steps(L, r, knight, 8, SUDOKU_DIFFERENT, "antiknight", NULL);
  /* a king's orthogonal steps stay in a row or column already */
  if (desc_flag(L, 1, "antiking"))
    add_steps(L, r, king, 4, SUDOKU_DIFFERENT, "antiking", NULL);
  /* neighbours not marked consecutive are not; with every Kropki dot
     given, those without a dot are neither consecutive nor double */
  if (desc_flag(L, 1, "nonconsecutive"))
    add_unmarked(L, r, 1 << SUDOKU_CONSECUTIVE, SUDOKU_NOT_CONSECUTIVE,
                 "nonconsecutive");
  if (desc_flag(L, 1, "alldots"))
    add_unmarked(L, r, 1 << SUDOKU_CONSECUTIVE | 1 << SUDOKU_DOUBLE,
                 SUDOKU_NO_DOT, "alldots");
  /* the rules' own table: name, size, box, predicate */
  lua_createtable(L, 0, 5);
  lua_getfield(L, 1, "name");
  lua_setfield(L, -2, "name");
  lua_getfield(L, 1, "check");
  if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
    luaL_error(L, "check: a function expected, got %s", luaL_typename(L, -1));
  lua_setfield(L, -2, "check");
  lua_pushboolean(L, desc_flag(L, 1, "partial"));
  lua_setfield(L, -2, "partial");
  lua_pushinteger(L, rows);
  lua_setfield(L, -2, "box_rows");
  lua_pushinteger(L, cols);
  lua_setfield(L, -2, "box_cols");
  lua_setiuservalue(L, 2, 1);
  return 0;
}

/* variant{...} -> the rules of a variant, or nil, message */
static int sudoku_variant_lua(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    int k = 0;
    while (variant_keys[k] && strcmp(variant_keys[k], key)) k++;
    if (!variant_keys[k])
      return fail(L, "variant: no rule '%s' (the rules: name, size, box, "
                  "diagonals, windows, regions, units, cages, even, odd, "
                  "thermos, arrows, consecutive, nonconsecutive, white, "
                  "black, alldots, less, different, antiknight, antiking, "
                  "check, partial)", luaL_tolstring(L, -1, NULL));
  }
  lua_getfield(L, 1, "size");
  int isnum;
  lua_Integer size = lua_isnil(L, -1) ? 9 : lua_tointegerx(L, -1, &isnum);
  if (!lua_isnil(L, -1) && !isnum) size = 0;
  lua_pop(L, 1);
  if (size < SUDOKU_MIN_SIDE || size > SUDOKU_MAX_SIDE)
    return fail(L, "variant: size must be from 4 to 64");
  sudoku_rules *r = lua_newuserdatauv(L, sizeof *r, 1);
  sudoku_rules_init(r, (int)size);
  lua_pushcfunction(L, build_rules);
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  if (lua_pcall(L, 2, 0, 0) != LUA_OK)
    return fail(L, "variant: %s", lua_tostring(L, -1));
  luaL_setmetatable(L, RULES_TYPE);
  return 1;
}

static sudoku_rules *check_rules(lua_State *L, int arg) {
  return luaL_checkudata(L, arg, RULES_TYPE);
}

/* Calls the module's function name (an upvalue) with the arguments from
   2 to options - 1, then a copy of the table at options (none: empty)
   with rules = v: v:parse and v:generate are the module's functions with
   the variant's rules. */
static int call_with_rules(lua_State *L, const char *name, int options) {
  check_rules(L, 1);
  lua_settop(L, options);
  if (!lua_isnil(L, options) && !lua_istable(L, options))
    return luaL_error(L, "sudoku variant: %s: options must be a table (got %s)",
                      name, luaL_typename(L, options));
  lua_newtable(L);                          /* the options, with rules */
  int copy = lua_gettop(L);
  if (lua_istable(L, options)) {
    lua_pushnil(L);
    while (lua_next(L, options)) {
      if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "rules") == 0)
        return luaL_error(L, "sudoku variant: %s: the rules are the variant's "
                          "(got option 'rules')", name);
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_settable(L, copy);
    }
  }
  lua_pushvalue(L, 1);
  lua_setfield(L, copy, "rules");
  lua_getfield(L, lua_upvalueindex(1), name);
  for (int i = 2; i < options; i++) lua_pushvalue(L, i);
  lua_pushvalue(L, copy);
  lua_call(L, options - 1, LUA_MULTRET);
  return lua_gettop(L) - copy;
}

/* v:parse(text [, options]) -> as sudoku.parse(text, {rules = v}) */
static int rules_parse(lua_State *L) { return call_with_rules(L, "parse", 3); }

/* v:generate([options]) -> as sudoku.generate{rules = v, ...} */
static int rules_generate(lua_State *L) { return call_with_rules(L, "generate", 2); }

/* v:size() -> the side of its grids */
static int rules_size(lua_State *L) {
  lua_pushinteger(L, check_rules(L, 1)->size);
  return 1;
}

/* "sudoku variant 'killer' (9x9: 12 constraints, 0 extra units)" */
static int rules_tostring(lua_State *L) {
  sudoku_rules *r = check_rules(L, 1);
  lua_getiuservalue(L, 1, 1);
  lua_getfield(L, -1, "name");
  const char *name = lua_isstring(L, -1) ? lua_tostring(L, -1) : "unnamed";
  lua_pushfstring(L, "sudoku variant '%s' (%dx%d%s: %d constraints, %d extra "
                  "units)", name, r->size, r->size,
                  r->has_regions ? " with regions" : "", r->rules, r->units);
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
  {"variant", sudoku_variant_lua},
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
  /* the variants: v:parse, v:generate, v:size */
  luaL_newmetatable(L, RULES_TYPE);
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, -3);                     /* the module, for parse */
  lua_pushcclosure(L, rules_parse, 1);
  lua_setfield(L, -2, "parse");
  lua_pushvalue(L, -3);                     /* and for generate */
  lua_pushcclosure(L, rules_generate, 1);
  lua_setfield(L, -2, "generate");
  lua_pushcfunction(L, rules_size);
  lua_setfield(L, -2, "size");
  ludus_strict_methods(L, -1, "sudoku variant", NULL);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, rules_tostring);
  lua_setfield(L, -2, "__tostring");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  return 1;
}
