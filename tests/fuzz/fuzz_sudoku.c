/*
** fuzz_sudoku.c: Sudoku text (sudoku_read: the symbols guessed or given,
** rows, decoration; and sudoku_parse under it).
**
** The input: a byte of choices, then by the choices a line of symbols,
** then the text.  A puzzle read is written on one line and drawn with
** its boxes, and both read back as itself.  Then it is solved, within a
** budget of guesses, by the engine its side has and by another (9x9: the
** band solver and the general one; 4x4 and 16x16: the general one and
** clause learning; 25x25: clause learning and the general one), which
** must agree; a solution found must keep the givens, lie within every
** cell's candidates, and agree with a hint when the solution is unique.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sudoku/internal.h"
#include "sudoku/sudoku.h"

static void check_same(const sudoku_puzzle *a, const sudoku_puzzle *b,
                       const char *what) {
  int cells = a->grid.size * a->grid.size;
  FUZZ_CHECK(a->grid.size == b->grid.size &&
             memcmp(a->grid.cell, b->grid.cell, (size_t)cells) == 0,
             "%s reads back as another grid", what);
  FUZZ_CHECK(strcmp(a->symbols, b->symbols) == 0,
             "%s reads back in symbols '%s', not '%s'", what, b->symbols,
             a->symbols);
}

/* Written on one line and drawn, the puzzle reads back as itself. */
static void check_text(const sudoku_puzzle *p) {
  static char line[3 * SUDOKU_MAX_CELLS + 1];
  char message[256];
  size_t len = sudoku_write(p, line, sizeof line);
  FUZZ_CHECK((p->symbols[0] ? len == (size_t)(p->grid.size * p->grid.size)
                            : len < sizeof line) && strlen(line) == len,
             "a line of %zu bytes", len);
  sudoku_puzzle back;
  sudoku_error e = sudoku_read(line, len, p->symbols, 0, 0, &back, message,
                               sizeof message);
  FUZZ_CHECK(e == SUDOKU_OK, "'%s' is refused: %s", line, message);
  check_same(p, &back, "the line");

  size_t size = sudoku_draw(p, NULL, 0);
  char *drawing = malloc(size + 1);
  FUZZ_CHECK(drawing, "out of memory");
  FUZZ_CHECK(sudoku_draw(p, drawing, size + 1) == size && strlen(drawing) == size,
             "a drawing not as long as said");
  e = sudoku_read(drawing, size, p->symbols, 0, 0, &back, message, sizeof message);
  FUZZ_CHECK(e == SUDOKU_OK, "the drawing is refused: %s", message);
  check_same(p, &back, "the drawing");
  free(drawing);

  /* the default symbols, through sudoku_format and sudoku_parse */
  static char plain[3 * SUDOKU_MAX_CELLS + 1];
  sudoku_format(&p->grid, plain, sizeof plain);
  sudoku_grid grid;
  sudoku_parse_error err;
  const char *alphabet = p->grid.size > SUDOKU_MAX_LETTERED ? SUDOKU_NUMBERS : NULL;
  FUZZ_CHECK(sudoku_parse(plain, strlen(plain), alphabet, &grid, &err) == SUDOKU_OK &&
             memcmp(grid.cell, p->grid.cell, (size_t)(p->grid.size * p->grid.size)) == 0,
             "'%s' reads back otherwise", plain);
}

/* Up to two solutions with a budget of guesses: the count, whether it is
   all of them, and the first. */
typedef struct outcome {
  uint64_t solutions;
  bool complete;
  sudoku_grid first;
} outcome;

static outcome solve(const sudoku_grid *grid, int engine, uint64_t guesses) {
  search_limit limit = {.max_nodes = guesses};
  limit_start(&limit);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 2;
  s.limit = &limit;
  s.first = NULL;
  outcome o;
  memset(&o, 0, sizeof o);
  s.first = &o.first;
  bool ok;
  if (engine == 0) {
    ok = sudoku_solve(grid, &s) == SUDOKU_OK;
  } else {
    s.solutions = 0;
    s.guesses = 0;
    s.complete = true;
    ok = engine == 1 ? sudoku_solve_general(grid, &s)
                     : sudoku_solve_cdcl(grid, &s);
  }
  FUZZ_CHECK(ok, "the solver ran out of memory");
  o.solutions = s.solutions;
  o.complete = s.complete || s.solutions == 2;
  return o;
}

static void check_solutions(const sudoku_puzzle *p) {
  const sudoku_grid *grid = &p->grid;
  int size = grid->size, cells = size * size;
  uint64_t budget = size >= 25 ? 40 : size >= 16 ? 400 : 4000;
  outcome first = solve(grid, 0, budget);
  /* the other engine: general for 9x9 and 25x25, clause learning else */
  outcome other = solve(grid, size == 9 || size >= 25 ? 1 : 2, budget);
  if (first.complete && other.complete)
    FUZZ_CHECK(first.solutions == other.solutions,
               "the engines count %d and %d solutions", (int)first.solutions,
               (int)other.solutions);
  outcome *known = first.complete ? &first : other.complete ? &other : NULL;
  sudoku_mask masks[SUDOKU_MAX_CELLS];
  FUZZ_CHECK(sudoku_candidates(grid, masks), "no candidates for a puzzle read");
  for (int k = 0; k < 2; k++) {
    outcome *o = k ? &other : &first;
    if (!o->solutions) continue;
    FUZZ_CHECK(sudoku_is_solution(&o->first, grid), "a solution that is not one");
    for (int i = 0; i < cells; i++)
      FUZZ_CHECK(masks[i] >> (o->first.cell[i] - 1) & 1,
                 "a solution outside the candidates of cell %d", i);
  }
  sudoku_hint hint;
  FUZZ_CHECK(sudoku_find_hint(grid, &hint) == SUDOKU_OK, "no hint");
  char text[2048];
  size_t len = sudoku_hint_text(grid, &hint, p->symbols, text, sizeof text);
  FUZZ_CHECK(len < sizeof text && strlen(text) == len, "a hint of %zu bytes", len);
  if (hint.kind == SUDOKU_HINT_PLACE) {
    FUZZ_CHECK(hint.cell >= 0 && hint.cell < cells && !grid->cell[hint.cell] &&
               hint.value >= 1 && hint.value <= size,
               "a hint to place %d in cell %d", hint.value, hint.cell);
    if (known && known->solutions == 1)
      FUZZ_CHECK(known->first.cell[hint.cell] == hint.value,
                 "the hint '%s' is not the solution's %d", text,
                 known->first.cell[hint.cell]);
  }
  if (known && known->solutions >= 1)
    FUZZ_CHECK(hint.kind != SUDOKU_HINT_BROKEN, "a hint says '%s' of a puzzle "
               "with a solution", text);
  int empty = 0;
  for (int i = 0; i < cells; i++) empty += !grid->cell[i];
  FUZZ_CHECK((hint.kind == SUDOKU_HINT_SOLVED) == (empty == 0),
             "hint kind %d with %d empty cells", (int)hint.kind, empty);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in);
  char *symbols = NULL;
  if (choice & 1) {
    size_t len;
    const uint8_t *line = fuzz_line(&in, &len);
    symbols = fuzz_copy(line, len, true);
    if (!sudoku_symbols_ok(symbols, len)) {
      free(symbols);
      return 0;
    }
  }
  size_t len = size - in.at;
  char *text = fuzz_copy(data + in.at, len, false);
  sudoku_puzzle p;
  char message[256];
  sudoku_error e = sudoku_read(text, len, symbols, 0, 0, &p, message, sizeof message);
  FUZZ_CHECK(strlen(message) < sizeof message - 1, "a message cut short");
  if (e != SUDOKU_OK) {
    FUZZ_CHECK(message[0] && (e == SUDOKU_ECOUNT || e == SUDOKU_ESYMBOL ||
                              e == SUDOKU_ERANGE || e == SUDOKU_ECLASH ||
                              e == SUDOKU_EALPHABET || e == SUDOKU_ESIZE),
               "error %d: '%s'", (int)e, message);
  } else {
    FUZZ_CHECK(p.symbols[0] == '\0' ||
               (sudoku_symbols_ok(p.symbols, strlen(p.symbols)) &&
                strlen(p.symbols) == (size_t)p.grid.size),
               "a puzzle with symbols '%s'", p.symbols);
    check_text(&p);
    if (choice & 2) check_solutions(&p);
  }
  free(text);
  free(symbols);
  return 0;
}
