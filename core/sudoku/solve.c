/*
** solve.c: counting and collecting solutions; picks the engine: the band
** solver for 9x9, clause learning for 25x25 (where the search trees are
** large enough for learning to pay), the general solver otherwise.
*/
#include <string.h>

#include "internal.h"

bool sudoku_found(sudoku_search *s, const sudoku_grid *solution) {
  s->solutions++;
  if (s->first && s->solutions == 1) *s->first = *solution;
  bool stop = s->visit && s->visit(solution, s->context);
  return stop || (s->max_solutions && s->solutions >= s->max_solutions);
}

sudoku_error sudoku_solve(const sudoku_grid *grid, sudoku_search *s) {
  s->solutions = 0;
  s->guesses = 0;
  s->complete = true;
  sudoku_error e = sudoku_check_givens(grid, NULL);
  if (e == SUDOKU_ESIZE || e == SUDOKU_ERANGE) {
    s->complete = false;
    return e;
  }
  if (e == SUDOKU_ECLASH) return SUDOKU_OK;     /* no solutions, certainly */
  bool ok = grid->size == 9 && !s->general ? sudoku_solve9(grid, s)
            : grid->size == 25                ? sudoku_solve_cdcl(grid, s)
                                              : sudoku_solve_general(grid, s);
  if (!ok) {
    s->complete = false;
    return SUDOKU_ENOMEM;
  }
  return SUDOKU_OK;
}

uint64_t sudoku_count(const sudoku_grid *grid, uint64_t limit,
                      sudoku_grid *solution) {
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = limit;
  s.first = solution;
  if (sudoku_solve(grid, &s) != SUDOKU_OK) return 0;
  return s.solutions;
}

typedef struct collector {
  sudoku_grid *out;
  int cap, n;
} collector;

static bool collect(const sudoku_grid *solution, void *context) {
  collector *c = context;
  c->out[c->n++] = *solution;
  return c->n >= c->cap;
}

int sudoku_solutions(const sudoku_grid *grid, sudoku_grid *out, int cap) {
  if (cap <= 0) return 0;
  collector c = {out, cap, 0};
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.visit = collect;
  s.context = &c;
  sudoku_solve(grid, &s);
  return c.n;
}
