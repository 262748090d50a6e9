/*
** generate.c: puzzles with exactly one solution.
**
** A full grid first: the boxes on the diagonal share no row, column or
** box, so each takes a random permutation, and the solver fills the
** rest.  Past 49x49 that search thrashes, so the grid is built instead:
** a pattern grid, shuffled by the moves that keep a grid a grid (values
** renamed, bands, stacks and the lines within them reordered, and many
** swaps of a cycle of cells between two rows of a band or two columns of
** a stack).  Then givens are taken away in a random order (in pairs
** symmetric about the centre when asked), each kept only when the puzzle
** without it has more than one solution.  A given that cannot go at one
** point cannot go later either (fewer givens, more solutions), so one
** pass that tries every given leaves a minimal puzzle.
**
** From 25x25 up a first pass, in the same order, takes away the givens
** whose puzzle the general solver still solves by its logic alone, with
** no guess (then the solution is the only one): a check that costs
** milliseconds.  The exact pass then tries every given left.  Without
** the first pass, near the minimum of a 36x36 a check took from seconds
** to minutes (one took 427 s at 688 givens), and seed 1 made no minimal
** 36x36 in hours; with it, that puzzle (588 givens) takes 43 minutes,
** and seed 1's minimal 25x25 3.6 s instead of 36.
*/
#include <stdlib.h>
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

/* Whether the puzzle, with the givens at cells[0..n-1] just taken away
   (values[i] in the solution), has still only that solution: 1 when no
   solution differs there (the first cell other, or it the same and the
   second other), 2 when one does, -1 when the limit stopped it.  Faster
   than counting on the large sides: a search that must put another value
   in a cell it knows from the start mostly fails at once, where the
   count finds the solution first and then proves it alone.  The answer
   is the same.  rules holds the variant's rules (or none), and is left as
   it was. */
static int differs(const sudoku_grid *puzzle, const sudoku_grid *solution,
                   const int *cells, const int *values, int n,
                   sudoku_rules *rules, search_limit *limit) {
  sudoku_mask kept[2];
  for (int i = 0; i < n; i++) kept[i] = rules->allowed[cells[i]];
  int answer = 1;
  for (int i = 0; i < n && answer == 1; i++) {
    sudoku_mask bit = UINT64_C(1) << (values[i] - 1);
    for (int k = 0; k < i; k++)
      rules->allowed[cells[k]] = kept[k] & UINT64_C(1) << (values[k] - 1);
    rules->allowed[cells[i]] = kept[i] & ~bit;
    sudoku_search s;
    memset(&s, 0, sizeof s);
    s.max_solutions = 1;
    s.limit = limit;
    s.rules = rules;
    s.prefer = solution;
    if (sudoku_solve(puzzle, &s) != SUDOKU_OK || (!s.complete && !s.solutions))
      answer = -1;
    else if (s.solutions)
      answer = 2;
  }
  for (int i = 0; i < n; i++) rules->allowed[cells[i]] = kept[i];
  return answer;
}

/* Whether the general solver's logic alone (no guess) solves the
   puzzle: then its solution is the only one. */
static bool by_logic(const sudoku_grid *puzzle, const sudoku_rules *rules) {
  search_limit no_guess = {0};
  no_guess.max_nodes = 1;                       /* the first guess stops it */
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = 2;
  s.limit = &no_guess;
  s.rules = rules;
  s.complete = true;
  return sudoku_solve_general(puzzle, &s) && s.complete && s.solutions == 1;
}

#define LOGIC_FROM 25             /* the side from which the first pass runs */

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

/* Swaps values between lines a and b (rows when rows is true, else
   columns) of one band or stack, from place start along them until the
   values of each line are again those it had: the cycle of places where
   a's value is found in b, and so on.  Each swap stays within a column
   (or row) and a box, so the grid stays a grid. */
static void swap_cycle(sudoku_grid *g, bool rows, int a, int b, int start) {
  int n = g->size;
  uint8_t *cell = g->cell;
  int step = rows ? 1 : n;                      /* along a line */
  int first_a = rows ? a * n : a, first_b = rows ? b * n : b;
  int place_in_a[SUDOKU_MAX_SIDE + 1];          /* where a has each value */
  for (int i = 0; i < n; i++) place_in_a[cell[first_a + i * step]] = i;
  int wanted = cell[first_a + start * step];    /* a's value, to come back */
  for (int i = start;;) {
    int x = first_a + i * step, y = first_b + i * step;
    uint8_t t = cell[x];
    cell[x] = cell[y];
    cell[y] = t;
    if (cell[x] == wanted) break;               /* a has its values again */
    i = place_in_a[cell[x]];                    /* a's other copy of it */
  }
}

/* A full grid for the large sides: value (r mod rows) * cols + r / rows
   + c, mod size, is a grid (each row, column and box takes every
   value); then shuffled. */
static void built_grid(rng *r, int size, int rows, int cols, sudoku_grid *out) {
  sudoku_init_shape(out, size, rows, cols);
  int name[SUDOKU_MAX_SIDE], row_of[SUDOKU_MAX_SIDE], col_of[SUDOKU_MAX_SIDE];
  for (int v = 0; v < size; v++) name[v] = v + 1;
  shuffle(r, name, size);
  /* rows: the bands in a random order, and the rows within each */
  int bands = size / rows, stacks = size / cols, order[SUDOKU_MAX_SIDE];
  for (int i = 0; i < bands; i++) order[i] = i;
  shuffle(r, order, bands);
  for (int i = 0; i < bands; i++) {
    int within[SUDOKU_MAX_SIDE];
    for (int k = 0; k < rows; k++) within[k] = k;
    shuffle(r, within, rows);
    for (int k = 0; k < rows; k++) row_of[i * rows + k] = order[i] * rows + within[k];
  }
  for (int i = 0; i < stacks; i++) order[i] = i;
  shuffle(r, order, stacks);
  for (int i = 0; i < stacks; i++) {
    int within[SUDOKU_MAX_SIDE];
    for (int k = 0; k < cols; k++) within[k] = k;
    shuffle(r, within, cols);
    for (int k = 0; k < cols; k++) col_of[i * cols + k] = order[i] * cols + within[k];
  }
  for (int i = 0; i < size; i++)
    for (int j = 0; j < size; j++) {
      int row = row_of[i], col = col_of[j];
      int v = (row % rows * cols + row / rows + col) % size;
      out->cell[i * size + j] = (uint8_t)name[v];
    }
  /* cycles of swaps, as many as eight a cell */
  for (int k = 0; k < 8 * size * size; k++) {
    bool by_rows = rng_below(r, 2) == 0;
    int span = by_rows ? rows : cols;           /* lines in a band or stack */
    if (span < 2) continue;
    int group = (int)rng_below(r, (uint32_t)(size / span));
    int a = (int)rng_below(r, (uint32_t)span), b = (int)rng_below(r, (uint32_t)span - 1);
    if (b >= a) b++;
    swap_cycle(out, by_rows, group * span + a, group * span + b,
               (int)rng_below(r, (uint32_t)size));
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
      : size > 49 ? (built_grid(&r, size, rows, cols, puzzle), SUDOKU_OK)
                  : full_grid(&r, size, rows, cols, options->limit, puzzle);
  if (e != SUDOKU_OK) return e;

  int cells = size * size, order[SUDOKU_MAX_CELLS], n = 0;
  for (int cell = 0; cell < cells; cell++)
    if (!options->symmetric || cell <= cells - 1 - cell) order[n++] = cell;
  shuffle(&r, order, n);
  int givens = cells;
  int floor = options->minimal ? 0 : options->clues;
  /* from 16x16 up, uniqueness by a search for a solution that differs,
     tried near the one known first: another solution mostly differs in
     a few cells */
  sudoku_rules *rules = NULL;
  sudoku_grid *solution = NULL;
  if (size >= 16) {
    rules = malloc(sizeof *rules);
    solution = malloc(sizeof *solution);
    if (!rules || !solution) {
      free(rules);
      free(solution);
      return SUDOKU_ENOMEM;
    }
    sudoku_copy(solution, puzzle);
    if (options->rules) memcpy(rules, options->rules, sizeof *rules);
    else sudoku_rules_init(rules, size);
  }
  /* two passes in that order: from LOGIC_FROM up first the logic's (a
     given goes when the logic alone still solves the puzzle), then the
     exact one, over every given left (e is SUDOKU_OK here) */
  for (int pass = size >= LOGIC_FROM ? 0 : 1; pass < 2 && e == SUDOKU_OK; pass++)
    for (int i = 0; i < n && givens > floor; i++) {
      int cell = order[i], mirror = cells - 1 - cell;
      bool pair = options->symmetric && mirror != cell;
      if (!puzzle->cell[cell]) continue;        /* gone in the first pass */
      if (pair && givens - 2 < floor) continue;
      uint8_t kept = puzzle->cell[cell], kept_mirror = puzzle->cell[mirror];
      puzzle->cell[cell] = 0;
      if (pair) puzzle->cell[mirror] = 0;
      int at[2] = {cell, mirror}, was[2] = {kept, kept_mirror}, solutions;
      if (pass == 0)
        solutions = options->limit && limit_check_slow(options->limit) ? -1
                    : by_logic(puzzle, options->rules) ? 1 : 2;
      else
        solutions = rules ? differs(puzzle, solution, at, was, pair ? 2 : 1,
                                    rules, options->limit)
                          : count_two(puzzle, options->rules, options->limit);
      if (solutions < 0) {
        e = SUDOKU_ESTOPPED;
        break;
      }
      if (solutions == 1) {
        givens -= pair ? 2 : 1;
      } else {
        puzzle->cell[cell] = kept;
        puzzle->cell[mirror] = kept_mirror;
      }
    }
  free(rules);
  free(solution);
  return e;
}
