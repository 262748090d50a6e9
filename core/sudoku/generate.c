/*
** generate.c: puzzles with exactly one solution.
**
** A full grid first: the boxes on the diagonal share no row, column or
** box, so each takes a random permutation, and the solver fills the
** rest.  Then givens are taken away in a random order (in pairs
** symmetric about the centre when asked), each kept only when the puzzle
** without it has more than one solution.  A given that cannot go at one
** point cannot go later either (fewer givens, more solutions), so one
** pass that tries every given leaves a minimal puzzle.
*/
#include <string.h>

#include "base/rng.h"
#include "internal.h"

/* The solution count up to two, or -1 when the limit stopped it. */
static int count_two(const sudoku_grid *grid, const sudoku_rules *rules,
                     search_limit *limit) {
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 2;
  s.limit = limit;
  s.rules = rules;
  if (sudoku_solve(grid, &s) != SUDOKU_OK) return -1;
  if (!s.complete && s.solutions < 2) return -1;
  return (int)s.solutions;
}

static void shuffle(rng *r, int *items, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)rng_below(r, (uint32_t)i + 1);
    int t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
}

/* The boxes on the diagonal (band i, stack i) share no row or column.
   On small sides they can leave no way to fill the rest; then it draws
   again.  On the larger sides every draw seen has a solution. */
static sudoku_error full_grid(rng *r, int size, int rows, int cols,
                              search_limit *limit, sudoku_grid *out) {
  int diagonal = rows < cols ? rows : cols;
  for (;;) {
    sudoku_grid seeds;
    sudoku_init_shape(&seeds, size, rows, cols);
    int values[SUDOKU_MAX_SIDE];
    for (int b = 0; b < diagonal && rows > 1 && cols > 1; b++) {
      for (int v = 0; v < size; v++) values[v] = v + 1;
      shuffle(r, values, size);
      for (int k = 0; k < size; k++) {
        int row = b * rows + k / cols, col = b * cols + k % cols;
        seeds.cell[row * size + col] = (uint8_t)values[k];
      }
    }
    sudoku_search s;
    memset(&s, 0, sizeof s);
    s.max_solutions = 1;
    s.limit = limit;
    s.first = out;
    sudoku_error e = sudoku_solve(&seeds, &s);
    if (e != SUDOKU_OK) return e;
    if (s.solutions == 1) return SUDOKU_OK;
    if (!s.complete) return SUDOKU_ESTOPPED;
  }
}

/* Under a variant's rules, a full grid is the first solution of the
   empty grid found with the choices of each branch shuffled. */
static sudoku_error ruled_grid(uint64_t seed, int size, int rows, int cols,
                               const sudoku_rules *rules, search_limit *limit,
                               sudoku_grid *out) {
  sudoku_grid empty;
  sudoku_init_shape(&empty, size, rows, cols);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 1;
  s.limit = limit;
  s.first = out;
  s.rules = rules;
  s.shuffle = seed * UINT64_C(0x9e3779b97f4a7c15) | 1;
  sudoku_error e = sudoku_solve(&empty, &s);
  if (e != SUDOKU_OK) return e;
  if (s.solutions == 1) return SUDOKU_OK;
  return s.complete ? SUDOKU_ENOSOLUTION : SUDOKU_ESTOPPED;
}

sudoku_error sudoku_generate(const sudoku_generate_options *options,
                             sudoku_grid *puzzle) {
  int size = options->size, rows = options->box_rows, cols = options->box_cols;
  if (rows == 0 && cols == 0 ? !sudoku_default_box(size, &rows, &cols)
                             : !sudoku_shape_ok(size, rows, cols))
    return SUDOKU_ESIZE;
  rng r;
  rng_seed(&r, options->seed);
  sudoku_error e = options->rules
      ? ruled_grid(options->seed, size, rows, cols, options->rules,
                   options->limit, puzzle)
      : full_grid(&r, size, rows, cols, options->limit, puzzle);
  if (e != SUDOKU_OK) return e;

  int cells = size * size, order[SUDOKU_MAX_CELLS], n = 0;
  for (int cell = 0; cell < cells; cell++)
    if (!options->symmetric || cell <= cells - 1 - cell) order[n++] = cell;
  shuffle(&r, order, n);
  int givens = cells;
  int floor = options->minimal ? 0 : options->clues;
  for (int i = 0; i < n && givens > floor; i++) {
    int cell = order[i], mirror = cells - 1 - cell;
    bool pair = options->symmetric && mirror != cell;
    if (pair && givens - 2 < floor) continue;
    uint8_t kept = puzzle->cell[cell], kept_mirror = puzzle->cell[mirror];
    puzzle->cell[cell] = 0;
    if (pair) puzzle->cell[mirror] = 0;
    int solutions = count_two(puzzle, options->rules, options->limit);
    if (solutions < 0) return SUDOKU_ESTOPPED;
    if (solutions == 1) {
      givens -= pair ? 2 : 1;
    } else {
      puzzle->cell[cell] = kept;
      puzzle->cell[mirror] = kept_mirror;
    }
  }
  return SUDOKU_OK;
}
