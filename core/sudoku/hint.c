/*
** hint.c: the next step a person can take without guessing, and why.
**
** The candidates start as what the givens leave each cell.  A hint is a
** placement by a single: a value with one place left in a box, row or
** column (hidden single; boxes first, as people look there first), or a
** cell with one value left (naked single).  When there is none, the
** cheapest elimination that removes something is made and the singles
** looked for again: locked candidates (pointing and claiming), then
** naked and hidden subsets of two, three and four.  The eliminations made
** on the way are part of the reason.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct board {
  int size, cells, units;
  sudoku_mask all;
  uint8_t value[SUDOKU_MAX_CELLS];
  sudoku_mask cand[SUDOKU_MAX_CELLS];           /* 0 for a filled cell */
  sudoku_mask placed[SUDOKU_MAX_UNITS_ALL];     /* values each unit holds */
  sudoku_layout layout;
} board;

static void setup(board *b, const sudoku_grid *grid, const sudoku_rules *rules) {
  int n = grid->size, rows, cols;
  sudoku_grid_shape(grid, &rows, &cols);
  b->size = n;
  b->cells = n * n;
  b->all = sudoku_all_values(n);
  sudoku_layout_of(&b->layout, n, rows, cols, rules);
  b->units = b->layout.units;
  sudoku_candidates(grid, b->cand);
  if (rules)
    for (int cell = 0; cell < b->cells; cell++) b->cand[cell] &= rules->allowed[cell];
  memset(b->placed, 0, sizeof b->placed);
  for (int cell = 0; cell < b->cells; cell++) {
    b->value[cell] = grid->cell[cell];
    if (grid->cell[cell]) b->cand[cell] = 0;
  }
  for (int k = 0; k < b->units; k++) {
    for (int j = 0; j < n; j++) {
      int v = b->value[b->layout.unit[k][j]];
      if (v) b->placed[k] |= UINT64_C(1) << (v - 1);
    }
    for (int j = 0; j < n; j++) b->cand[b->layout.unit[k][j]] &= ~b->placed[k];
  }
}

/* The places of value v (0-based) in unit k, as a mask over its cells. */
static uint64_t places(const board *b, int k, int v) {
  uint64_t m = 0;
  for (int j = 0; j < b->size; j++)
    m |= (b->cand[b->layout.unit[k][j]] >> v & 1) << j;
  return m;
}

static bool one_bit(uint64_t m) { return m && !(m & (m - 1)); }

/* A single, or a contradiction, into hint; false when there is neither. */
static bool find_single(const board *b, sudoku_hint *hint) {
  int n = b->size;
  for (int cell = 0; cell < b->cells; cell++)
    if (!b->value[cell] && !b->cand[cell]) {
      hint->kind = SUDOKU_HINT_BROKEN;
      hint->cell = cell;
      return true;
    }
  /* boxes, then rows, then columns: contradictions first */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < b->units; i++) {
      int k = i < n ? i + 2 * n : i < 3 * n ? i - n : i;
      for (uint64_t open = b->all & ~b->placed[k]; open; open &= open - 1) {
        int v = sudoku_lowest_bit_64(open);
        uint64_t m = places(b, k, v);
        if (pass == 0 && !m) {
          hint->kind = SUDOKU_HINT_BROKEN;
          hint->cell = -1;
          hint->value = v + 1;
          hint->unit = k;
          return true;
        }
        if (pass == 1 && one_bit(m)) {
          hint->kind = SUDOKU_HINT_PLACE;
          hint->cell = b->layout.unit[k][sudoku_lowest_bit_64(m)];
          hint->value = v + 1;
          hint->technique = SUDOKU_HIDDEN_SINGLE;
          hint->unit = k;
          return true;
        }
      }
    }
  for (int cell = 0; cell < b->cells; cell++)
    if (one_bit(b->cand[cell])) {
      hint->kind = SUDOKU_HINT_PLACE;
      hint->cell = cell;
      hint->value = sudoku_lowest_bit_64(b->cand[cell]) + 1;
      hint->technique = SUDOKU_NAKED_SINGLE;
      return true;
    }
  return false;
}

/* ---- eliminations ---- */

/* Takes values from the cells of unit k that mask selects, noting them in
   step; true when anything went. */
static bool remove_from(board *b, int k, uint64_t mask, sudoku_mask values,
                        sudoku_step *step) {
  bool any = false;
  for (; mask; mask &= mask - 1) {
    int cell = b->layout.unit[k][sudoku_lowest_bit_64(mask)];
    sudoku_mask gone = b->cand[cell] & values;
    if (!gone) continue;
    b->cand[cell] &= ~gone;
    step->removed_values |= gone;
    step->removed[step->removed_count++] = cell;
    any = true;
  }
  return any;
}

static void start_step(sudoku_step *step, sudoku_technique t, int unit) {
  memset(step, 0, sizeof *step);
  step->technique = t;
  step->unit = unit;
}

/* The cells of unit k that are also in unit other, as a mask over k. */
static uint64_t shared(const board *b, int k, int other) {
  uint64_t m = 0;
  for (int j = 0; j < b->size; j++) {
    int cell = b->layout.unit[k][j];
    for (int i = 0; i < b->size; i++)
      if (b->layout.unit[other][i] == cell) m |= UINT64_C(1) << j;
  }
  return m;
}

/* Locked candidates: a value of a unit confined to the cells it shares
   with another unit goes from the rest of that one: pointing (from a
   box to a line) and claiming (from a line to a box); and the same with
   the units a variant adds. */
static bool locked(board *b, sudoku_step *step) {
  int n = b->size;
  const sudoku_layout *l = &b->layout;
  for (int i = 0; i < b->units; i++) {
    int k = i < n ? i + 2 * n : i < 3 * n ? i - n : i;   /* boxes first */
    for (uint64_t open = b->all & ~b->placed[k]; open; open &= open - 1) {
      int v = sudoku_lowest_bit_64(open);
      uint64_t m = places(b, k, v);
      if (!m || one_bit(m)) continue;
      int first = l->unit[k][sudoku_lowest_bit_64(m)];
      for (int t = 0; t < l->count[first]; t++) {
        int other = l->unit_of[first][t];
        if (other == k) continue;
        uint64_t inside = shared(b, k, other);
        if (m & ~inside) continue;      /* not confined to that unit */
        start_step(step, k >= 2 * n && k < 3 * n ? SUDOKU_POINTING
                                                 : SUDOKU_CLAIMING, k);
        step->other = other;
        step->values = UINT64_C(1) << v;
        uint64_t outside = ~shared(b, other, k) & sudoku_all_values(n);
        if (remove_from(b, other, outside, step->values, step)) return true;
      }
    }
  }
  return false;
}

typedef struct subset_search {
  board *b;
  int k, want;                /* the unit, the subset's size */
  bool hidden;
  int items[SUDOKU_MAX_SIDE]; /* cells (naked) or values (hidden) to pick from */
  uint64_t masks[SUDOKU_MAX_SIDE];   /* their values, or their places */
  int count;
  int chosen[SUDOKU_SUBSET_MAX];
  sudoku_step *step;
} subset_search;

/* Tries every subset of want items from 'from' on, union so far u. */
static bool pick(subset_search *ss, int from, int depth, uint64_t u) {
  if (depth == ss->want) {
    if (sudoku_bit_count_64(u) != ss->want) return false;
    board *b = ss->b;
    sudoku_step *step = ss->step;
    start_step(step, ss->hidden ? SUDOKU_HIDDEN_SUBSET : SUDOKU_NAKED_SUBSET,
               ss->k);
    step->subset_size = ss->want;
    uint64_t chosen_items = 0;
    for (int i = 0; i < ss->want; i++)
      chosen_items |= UINT64_C(1) << ss->items[ss->chosen[i]];
    if (!ss->hidden) {
      /* the chosen cells hold the values u between them */
      step->values = u;
      for (int i = 0; i < ss->want; i++)
        step->subset[i] = b->layout.unit[ss->k][ss->items[ss->chosen[i]]];
      return remove_from(b, ss->k, b->all & ~chosen_items, u, step);
    }
    /* the chosen values fit only the cells u */
    step->values = chosen_items;
    int i = 0;
    for (uint64_t m = u; m; m &= m - 1)
      step->subset[i++] = b->layout.unit[ss->k][sudoku_lowest_bit_64(m)];
    return remove_from(b, ss->k, u, b->all & ~chosen_items, step);
  }
  for (int i = from; i < ss->count; i++) {
    uint64_t next = u | ss->masks[i];
    if (sudoku_bit_count_64(next) > ss->want) continue;
    ss->chosen[depth] = i;
    if (pick(ss, i + 1, depth + 1, next)) return true;
  }
  return false;
}

static bool subsets(board *b, int want, bool hidden, sudoku_step *step) {
  subset_search ss;
  ss.b = b;
  ss.want = want;
  ss.hidden = hidden;
  ss.step = step;
  for (int k = 0; k < b->units; k++) {
    ss.k = k;
    ss.count = 0;
    if (hidden) {
      for (uint64_t open = b->all & ~b->placed[k]; open; open &= open - 1) {
        int v = sudoku_lowest_bit_64(open);
        uint64_t m = places(b, k, v);
        if (sudoku_bit_count_64(m) <= want) {
          ss.items[ss.count] = v;
          ss.masks[ss.count++] = m;
        }
      }
    } else {
      for (int j = 0; j < b->size; j++) {
        uint64_t m = b->cand[b->layout.unit[k][j]];
        if (m && sudoku_bit_count_64(m) <= want) {
          ss.items[ss.count] = j;
          ss.masks[ss.count++] = m;
        }
      }
    }
    if (ss.count >= want && pick(&ss, 0, 0, 0)) return true;
  }
  return false;
}

static bool eliminate(board *b, sudoku_step *step) {
  if (locked(b, step)) return true;
  for (int want = 2; want <= SUDOKU_SUBSET_MAX; want++)
    if (subsets(b, want, false, step) || subsets(b, want, true, step))
      return true;
  return false;
}

sudoku_error sudoku_find_hint(const sudoku_grid *grid, sudoku_hint *hint) {
  return sudoku_find_hint_rules(grid, NULL, hint);
}

sudoku_error sudoku_find_hint_rules(const sudoku_grid *grid,
                                    const sudoku_rules *rules,
                                    sudoku_hint *hint) {
  memset(hint, 0, sizeof *hint);
  sudoku_error e = sudoku_check_givens(grid, NULL);
  if (e != SUDOKU_OK) return e;
  if (rules && rules->size != grid->size) return SUDOKU_ESIZE;
  hint->regions = rules && rules->has_regions;
  bool empty = false;
  for (int cell = 0; cell < grid->size * grid->size; cell++)
    empty |= !grid->cell[cell];
  if (!empty) {
    hint->kind = SUDOKU_HINT_SOLVED;
    return SUDOKU_OK;
  }
  board *b = malloc(sizeof *b);
  if (!b) return SUDOKU_ENOMEM;
  setup(b, grid, rules);
  for (;;) {
    if (find_single(b, hint)) break;
    sudoku_step step;
    if (!eliminate(b, &step)) {
      hint->kind = SUDOKU_HINT_STUCK;
      break;
    }
    if (hint->steps < SUDOKU_HINT_STEPS) hint->step[hint->steps] = step;
    hint->steps++;
  }
  free(b);
  return SUDOKU_OK;
}

/* ---- words ---- */

typedef struct text {
  char *buf;
  size_t size, len;
} text;

static void add(text *t, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  size_t room = t->len < t->size ? t->size - t->len : 0;
  int n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, args);
  va_end(args);
  if (n > 0) t->len += (size_t)n;
}

size_t sudoku_unit_name(int size, int unit, char *buf, size_t bufsize) {
  static const char *const kinds[] = {"row", "column", "box"};
  if (size <= 0 || unit < 0 || unit >= 3 * size)
    return (size_t)snprintf(buf, bufsize, "unit %d", unit);
  return (size_t)snprintf(buf, bufsize, "%s %d", kinds[unit / size],
                          unit % size + 1);
}

static void add_unit(text *t, int size, int unit) {
  char name[32];
  sudoku_unit_name(size, unit, name, sizeof name);
  add(t, "%s", name);
}

/* Under a variant: its regions and extra units by their names. */
static void add_unit_of(text *t, const sudoku_hint *hint, int size, int unit) {
  if (unit >= 3 * size)
    add(t, "unit %d of the variant", unit - 3 * size + 1);
  else if (hint->regions && unit >= 2 * size)
    add(t, "region %d", unit - 2 * size + 1);
  else
    add_unit(t, size, unit);
}

static void add_cell(text *t, int size, int cell) {
  add(t, "r%dc%d", cell / size + 1, cell % size + 1);
}

static void add_symbol(text *t, const char *symbols, int v) {
  if (symbols && symbols[0]) add(t, "%c", symbols[v - 1]);
  else add(t, "%d", v);
}

/* "3", "3 or 8", "2, 3 or 8" ("and" for and). */
static void add_values(text *t, const char *symbols, sudoku_mask values,
                       const char *last) {
  int n = sudoku_bit_count_64(values), i = 0;
  for (; values; values &= values - 1, i++) {
    if (i > 0) add(t, i == n - 1 ? " %s " : ", ", last);
    add_symbol(t, symbols, sudoku_lowest_bit_64(values) + 1);
  }
}

static void add_cells(text *t, int size, const int *cells, int n) {
  for (int i = 0; i < n; i++) {
    if (i > 0) add(t, i == n - 1 ? " and " : ", ");
    add_cell(t, size, cells[i]);
  }
}

static void add_step(text *t, const sudoku_hint *hint, int size,
                     const char *symbols, const sudoku_step *s) {
  add(t, "in ");
  add_unit_of(t, hint, size, s->unit);
  add(t, ", ");
  switch (s->technique) {
    case SUDOKU_POINTING:
    case SUDOKU_CLAIMING:
      add_values(t, symbols, s->values, "or");
      add(t, " can only go in ");
      add_unit_of(t, hint, size, s->other);
      add(t, ", so ");
      add_cells(t, size, s->removed, s->removed_count);
      break;
    case SUDOKU_NAKED_SUBSET:
      add_cells(t, size, s->subset, s->subset_size);
      add(t, " hold ");
      add_values(t, symbols, s->values, "and");
      add(t, " between them, so ");
      add_cells(t, size, s->removed, s->removed_count);
      break;
    default:
      add_values(t, symbols, s->values, "and");
      add(t, " fit only ");
      add_cells(t, size, s->subset, s->subset_size);
      add(t, ", so those cells");
      break;
  }
  add(t, " cannot be ");
  add_values(t, symbols, s->removed_values, "or");
}

size_t sudoku_hint_text(const sudoku_grid *grid, const sudoku_hint *hint,
                        const char *symbols, char *buf, size_t bufsize) {
  text t = {buf, bufsize, 0};
  if (bufsize) buf[0] = '\0';
  int size = grid->size;
  switch (hint->kind) {
    case SUDOKU_HINT_SOLVED:
      add(&t, "the puzzle is solved");
      break;
    case SUDOKU_HINT_STUCK:
      add(&t, "no cell follows without guessing");
      break;
    case SUDOKU_HINT_BROKEN:
      if (hint->cell >= 0) {
        add_cell(&t, size, hint->cell);
        add(&t, " has no value left");
      } else {
        add(&t, "no place is left for ");
        add_symbol(&t, symbols, hint->value);
        add(&t, " in ");
        add_unit_of(&t, hint, size, hint->unit);
      }
      break;
    case SUDOKU_HINT_PLACE:
      add_cell(&t, size, hint->cell);
      add(&t, " must be ");
      add_symbol(&t, symbols, hint->value);
      if (hint->technique == SUDOKU_HIDDEN_SINGLE) {
        add(&t, ": it is the only place for ");
        add_symbol(&t, symbols, hint->value);
        add(&t, " in ");
        add_unit_of(&t, hint, size, hint->unit);
      } else {
        add(&t, ": it is the only value its row, column and box leave it");
      }
      break;
  }
  if (hint->kind == SUDOKU_HINT_PLACE && hint->steps > 0) {
    add(&t, ", once we see that ");
    int shown = hint->steps < SUDOKU_HINT_STEPS ? hint->steps : SUDOKU_HINT_STEPS;
    for (int i = 0; i < shown; i++) {
      if (i > 0) add(&t, "; ");
      add_step(&t, hint, size, symbols, &hint->step[i]);
    }
    if (hint->steps > shown)
      add(&t, "; and %d eliminations more", hint->steps - shown);
  }
  return t.len;
}
