/*
** solve.c: counting and collecting solutions; picks the engine: the band
** solver for 9x9, clause learning for 25x25 and for counts up to 36x36
** (where the search trees are large enough for learning to pay), the
** general solver otherwise.
*/
#include <string.h>

#include "internal.h"

bool sudoku_found(sudoku_search *s, const sudoku_grid *solution) {
  s->solutions++;
  if (s->first && s->solutions == 1) sudoku_copy(s->first, solution);
  bool stop = s->visit && s->visit(solution, s->context);
  return stop || (s->max_solutions && s->solutions >= s->max_solutions);
}

/* Whether one of 81 cells holds more than 9, eight at a time: adding
   0x76 to a byte sets its top bit from 10 up (a carry out of a byte only
   comes from one that is over already). */
static bool over_nine(const uint8_t *cell) {
  uint64_t over = cell[80] > 9 ? 0x80 : 0;
  for (int i = 0; i < 80; i += 8) {
    uint64_t x;
    memcpy(&x, cell + i, 8);
    over |= x | (x + UINT64_C(0x7676767676767676));
  }
  return (over & UINT64_C(0x8080808080808080)) != 0;
}

bool sudoku_learns(int size, const sudoku_rules *rules) {
  return size >= 25 && size <= 36 &&
         (!rules || (!rules->has_regions && !rules->units && !rules->rules));
}

#define GENERAL_BUDGET 100        /* guesses */

/* Whether another engine may take the search over, from the start: not
   when the caller's limit is spent (the first engine's count stands,
   incomplete). */
static bool start_again(sudoku_search *s) {
  if (s->limit && limit_check_slow(s->limit)) return false;
  s->solutions = 0;
  s->complete = true;
  return true;
}

/* The general solver on a budget of guesses, as most searches end in a
   few; past it clause learning, which takes milliseconds to set up but
   proves the hard ones far sooner, from the start.  The caller's limit
   holds across both. */
static bool general_then_learning(const sudoku_grid *grid, sudoku_search *s) {
  search_limit *limit = s->limit, budget;
  if (limit) budget = *limit;
  else memset(&budget, 0, sizeof budget);
  uint64_t end = budget.nodes + GENERAL_BUDGET;
  if (!budget.max_nodes || end < budget.max_nodes) budget.max_nodes = end;
  s->limit = &budget;
  bool ok = sudoku_solve_general(grid, s);
  s->limit = limit;
  if (limit) limit->nodes = budget.nodes;
  if (!ok || s->complete ||
      (s->max_solutions && s->solutions >= s->max_solutions))
    return ok;
  return start_again(s) ? sudoku_solve_cdcl(grid, s) : true;
}

/* Clause learning excludes each solution it counts by a clause, and
   past a few dozen of them each costs more than the last; a grid with
   that many solutions is easy for the general solver, which counts them
   all again, from the start.  The hard grids (Frisch's, the generator's
   checks) end long before.  Only where no solution is read: the general
   solver would show the first ones again. */
#define LEARNT_SOLUTIONS 64

static bool learning(const sudoku_grid *grid, sudoku_search *s, bool general_first) {
  uint64_t wanted = s->max_solutions;
  bool hand_over = !s->visit && !s->first &&
                   (wanted == 0 || wanted > LEARNT_SOLUTIONS);
  if (hand_over) s->max_solutions = LEARNT_SOLUTIONS + 1;
  bool ok = general_first ? general_then_learning(grid, s)
                          : sudoku_solve_cdcl(grid, s);
  s->max_solutions = wanted;
  if (!ok || !hand_over || s->solutions <= LEARNT_SOLUTIONS) return ok;
  return start_again(s) ? sudoku_solve_general(grid, s) : true;
}

sudoku_error sudoku_solve(const sudoku_grid *grid, sudoku_search *s) {
  s->solutions = 0;
  s->guesses = 0;
  s->conflicts = 0;
  s->complete = true;
  sudoku_error e;
  int rows = 0, cols = 0;
  bool shaped = sudoku_grid_shape(grid, &rows, &cols);
  const sudoku_rules *rules = s->rules;
  bool nine = grid->size == 9 && rows == 3 && !s->general && !rules &&
              !s->check && !s->shuffle;
  if (rules && (rules->size != grid->size || !shaped)) {
    s->complete = false;
    return SUDOKU_ESIZE;
  }
  if (nine) {
    /* the 9x9 engine finds clashing givens itself: only the range here */
    e = over_nine(grid->cell) ? SUDOKU_ERANGE : SUDOKU_OK;
  } else {
    e = sudoku_check_givens(grid, NULL);
    /* regions replace the boxes: the general solver finds a clash there */
    if (e == SUDOKU_ECLASH && rules && rules->has_regions) e = SUDOKU_OK;
  }
  if (e == SUDOKU_ESIZE || e == SUDOKU_ERANGE) {
    s->complete = false;
    return e;
  }
  if (e == SUDOKU_ECLASH) return SUDOKU_OK;     /* no solutions, certainly */
  (void)shaped;
  /* clause learning on 25x25; on sides 25 to 36 where no solution is
     read (a count, whether one exists, the generator's checks), after
     the general solver's budget: which solution comes first stays the
     general solver's there, as the generator's full grids are */
  bool plain = !s->general && !s->check && !s->shuffle;
  bool ok = nine ? sudoku_solve9(grid, s)
            : plain && grid->size == 25 && rows == 5 && !rules
                ? learning(grid, s, false)
            : plain && sudoku_learns(grid->size, rules) && !s->visit && !s->first
                ? learning(grid, s, true)
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
