/*
** rules.c: the rules of Sudoku variants: building them with checks that
** say what cannot hold, checking givens and full grids against them.
** The solver's side (propagating them) is in general.c.
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"

void sudoku_rules_init(sudoku_rules *rules, int size) {
  rules->size = size;
  rules->has_regions = false;
  rules->units = 0;
  rules->rules = 0;
  rules->cells = 0;
  sudoku_mask all = sudoku_all_values(size);
  for (int cell = 0; cell < size * size; cell++) rules->allowed[cell] = all;
}

static void cell_name(int size, int cell, char *buf, size_t bufsize) {
  snprintf(buf, bufsize, "r%dc%d", cell / size + 1, cell % size + 1);
}

bool sudoku_rules_set_regions(sudoku_rules *rules, const uint8_t *region,
                              char *message, size_t size) {
  int n = rules->size, count[SUDOKU_MAX_SIDE] = {0};
  for (int cell = 0; cell < n * n; cell++) {
    if (region[cell] >= n) {
      char name[32];
      cell_name(n, cell, name, sizeof name);
      snprintf(message, size, "%s is in region %d, but a %dx%d has regions "
               "1 to %d", name, region[cell] + 1, n, n, n);
      return false;
    }
    count[region[cell]]++;
  }
  for (int k = 0; k < n; k++)
    if (count[k] != n) {
      snprintf(message, size, "region %d has %d cells, but every region of a "
               "%dx%d has %d", k + 1, count[k], n, n, n);
      return false;
    }
  memcpy(rules->region, region, (size_t)(n * n));
  rules->has_regions = true;
  return true;
}

/* Whether count cells are different cells of the grid; a message if not. */
static bool distinct_cells(int n, const uint16_t *cells, int count,
                           char *message, size_t size) {
  for (int i = 0; i < count; i++) {
    if (cells[i] >= n * n) {
      snprintf(message, size, "cell %d is off the %dx%d grid", cells[i] + 1,
               n, n);
      return false;
    }
    for (int j = 0; j < i; j++)
      if (cells[j] == cells[i]) {
        char name[32];
        cell_name(n, cells[i], name, sizeof name);
        snprintf(message, size, "%s comes twice", name);
        return false;
      }
  }
  return true;
}

bool sudoku_rules_add_unit(sudoku_rules *rules, const uint16_t *cells,
                           char *message, size_t size) {
  int n = rules->size;
  if (rules->units == SUDOKU_MAX_EXTRA_UNITS) {
    snprintf(message, size, "more than %d extra units", SUDOKU_MAX_EXTRA_UNITS);
    return false;
  }
  if (!distinct_cells(n, cells, n, message, size)) return false;
  memcpy(rules->unit[rules->units++], cells, (size_t)n * sizeof *cells);
  return true;
}

bool sudoku_rules_add(sudoku_rules *rules, sudoku_rule_kind kind,
                      sudoku_relation relation, const uint16_t *cells,
                      int count, int target, int group, char *message,
                      size_t size) {
  int n = rules->size;
  if (rules->rules == SUDOKU_MAX_RULES ||
      rules->cells + count > SUDOKU_MAX_RULE_CELLS) {
    snprintf(message, size, "more than %d constraints or %d of their cells",
             SUDOKU_MAX_RULES, SUDOKU_MAX_RULE_CELLS);
    return false;
  }
  if (count < 1 || (kind == SUDOKU_RULE_PAIR && count != 2) ||
      (kind == SUDOKU_RULE_ARROW && count < 2)) {
    snprintf(message, size, "%d cells (a pair has 2, an arrow a circle and "
             "at least one cell more)", count);
    return false;
  }
  if (!distinct_cells(n, cells, count, message, size)) return false;
  if (kind == SUDOKU_RULE_CAGE) {
    if (count > n) {
      snprintf(message, size, "a cage of %d cells cannot hold different "
               "values of a %dx%d", count, n, n);
      return false;
    }
    /* the smallest and largest sums of count different values */
    int least = count * (count + 1) / 2, most = count * (2 * n - count + 1) / 2;
    if (target != 0 && (target < least || target > most)) {
      snprintf(message, size, "a cage of %d cells cannot sum to %d (different "
               "values of a %dx%d make %d to %d)", count, target, n, n, least,
               most);
      return false;
    }
  }
  if (kind == SUDOKU_RULE_ARROW && count - 1 > n) {
    snprintf(message, size, "an arrow of %d cells sums to more than %d",
             count - 1, n);
    return false;
  }
  sudoku_rule *r = &rules->rule[rules->rules++];
  r->kind = (uint8_t)kind;
  r->relation = (uint8_t)relation;
  r->count = (uint16_t)count;
  r->first = rules->cells;
  r->target = target;
  r->group = group;
  memcpy(rules->cell + rules->cells, cells, (size_t)count * sizeof *cells);
  rules->cells += count;
  return true;
}

bool sudoku_layout_of(sudoku_layout *l, int size, int box_rows, int box_cols,
                      const sudoku_rules *rules) {
  sudoku_layout_boxes(l, size, box_rows, box_cols);
  if (!rules) return true;
  if (rules->has_regions) {
    /* the boxes' units become the regions' */
    sudoku_layout_boxes(l, size, 1, size);
    l->units = 2 * size;
    for (int cell = 0; cell < size * size; cell++) l->count[cell] = 2;
    uint16_t unit[SUDOKU_MAX_SIDE];
    for (int k = 0; k < size; k++) {
      for (int cell = 0, i = 0; cell < size * size; cell++)
        if (rules->region[cell] == k) unit[i++] = (uint16_t)cell;
      sudoku_layout_add(l, unit);
    }
    l->boxes = false;
    l->box_rows = box_rows;
    l->box_cols = box_cols;
  }
  for (int u = 0; u < rules->units; u++)
    if (!sudoku_layout_add(l, rules->unit[u])) return false;
  return true;
}

/* ---- checking ---- */

static bool relation_holds(sudoku_relation relation, int a, int b) {
  switch (relation) {
    case SUDOKU_DIFFERENT: return a != b;
    case SUDOKU_LESS: return a < b;
    case SUDOKU_CONSECUTIVE: return a - b == 1 || b - a == 1;
    case SUDOKU_NOT_CONSECUTIVE: return a - b != 1 && b - a != 1;
    case SUDOKU_DOUBLE: return a == 2 * b || b == 2 * a;
    case SUDOKU_NO_DOT:
      return a - b != 1 && b - a != 1 && a != 2 * b && b != 2 * a;
  }
  return false;
}

/* What a relation asks of two cells, after "but". */
static const char *relation_rule(sudoku_relation relation) {
  switch (relation) {
    case SUDOKU_DIFFERENT: return "they must differ";
    case SUDOKU_LESS: return "the first must be less than the second";
    case SUDOKU_CONSECUTIVE: return "they must be consecutive";
    case SUDOKU_NOT_CONSECUTIVE: return "they must not be consecutive";
    case SUDOKU_DOUBLE: return "one must be twice the other";
    case SUDOKU_NO_DOT:
      return "without a dot they must be neither consecutive nor one twice "
             "the other";
  }
  return "?";
}

/* Whether a rule holds with the values given: every value in grid
   known (complete) or some 0 (then only what the givens decide). */
static bool rule_holds(const sudoku_rules *rules, const sudoku_rule *r,
                       const sudoku_grid *grid, bool complete) {
  const uint16_t *cells = rules->cell + r->first;
  if (r->kind == SUDOKU_RULE_PAIR) {
    int a = grid->cell[cells[0]], b = grid->cell[cells[1]];
    return !a || !b || relation_holds((sudoku_relation)r->relation, a, b);
  }
  int sum = 0, open = 0;
  sudoku_mask seen = 0;
  for (int i = r->kind == SUDOKU_RULE_ARROW ? 1 : 0; i < r->count; i++) {
    int v = grid->cell[cells[i]];
    if (!v) {
      open++;
      continue;
    }
    sudoku_mask bit = UINT64_C(1) << (v - 1);
    if (r->kind == SUDOKU_RULE_CAGE && (seen & bit)) return false;
    seen |= bit;
    sum += v;
  }
  (void)complete;           /* a full grid simply has nothing open */
  if (r->kind == SUDOKU_RULE_CAGE)
    return r->target == 0 ||
           (open ? sum + open <= r->target : sum == r->target);
  int circle = grid->cell[cells[0]];
  if (!circle) return true;
  return open ? sum + open <= circle : sum == circle;
}

sudoku_error sudoku_rules_check(const sudoku_rules *rules,
                                const sudoku_grid *grid, char *message,
                                size_t size) {
  int n = rules->size;
  if (grid->size != n) {
    snprintf(message, size, "rules for a %dx%d on a %dx%d", n, n, grid->size,
             grid->size);
    return SUDOKU_ESIZE;
  }
  char a[32], b[32];
  for (int cell = 0; cell < n * n; cell++) {
    int v = grid->cell[cell];
    if (v && !(rules->allowed[cell] >> (v - 1) & 1)) {
      cell_name(n, cell, a, sizeof a);
      snprintf(message, size, "%s cannot be %d (the rules leave it other "
               "values)", a, v);
      return SUDOKU_ECLASH;
    }
  }
  /* the regions, then the extra units: a value twice */
  for (int k = 0; k < (rules->has_regions ? n : 0) + rules->units; k++) {
    int first_of[SUDOKU_MAX_SIDE + 1] = {0};
    bool region = rules->has_regions && k < n;
    int unit = region ? k : k - (rules->has_regions ? n : 0);
    for (int i = 0, found = 0; i < n * n && found < n; i++) {
      int cell = region ? i : rules->unit[unit][found];
      if (region && rules->region[cell] != k) continue;
      found++;
      int v = grid->cell[cell];
      if (!v) continue;
      if (first_of[v]) {
        cell_name(n, first_of[v] - 1, a, sizeof a);
        cell_name(n, cell, b, sizeof b);
        if (region)
          snprintf(message, size, "%s and %s are both %d (region %d)", a, b,
                   v, k + 1);
        else
          snprintf(message, size, "%s and %s are both %d (unit %d of the "
                   "variant)", a, b, v, unit + 1);
        return SUDOKU_ECLASH;
      }
      first_of[v] = cell + 1;
    }
  }
  for (int i = 0; i < rules->rules; i++) {
    const sudoku_rule *r = &rules->rule[i];
    if (rule_holds(rules, r, grid, false)) continue;
    const uint16_t *cells = rules->cell + r->first;
    cell_name(n, cells[0], a, sizeof a);
    cell_name(n, cells[1 % r->count], b, sizeof b);
    if (r->kind == SUDOKU_RULE_PAIR)
      snprintf(message, size, "%s and %s are given %d and %d, but %s", a, b,
               grid->cell[cells[0]], grid->cell[cells[1]],
               relation_rule((sudoku_relation)r->relation));
    else if (r->kind == SUDOKU_RULE_CAGE)
      snprintf(message, size, "the givens of cage %d (from %s) repeat a value "
               "or pass its sum %d", r->group, a, r->target);
    else
      snprintf(message, size, "the givens of arrow %d (circle %s) pass its "
               "circle", r->group, a);
    return SUDOKU_ECLASH;
  }
  if (size) message[0] = '\0';
  return SUDOKU_OK;
}

bool sudoku_rules_hold(const sudoku_rules *rules, const sudoku_grid *grid) {
  int n = rules->size, rows, cols;
  if (grid->size != n || !sudoku_grid_shape(grid, &rows, &cols)) return false;
  sudoku_mask all = sudoku_all_values(n);
  sudoku_mask row[SUDOKU_MAX_SIDE] = {0}, col[SUDOKU_MAX_SIDE] = {0},
              box[SUDOKU_MAX_SIDE] = {0};
  for (int cell = 0; cell < n * n; cell++) {
    int v = grid->cell[cell];
    if (v < 1 || v > n || !(rules->allowed[cell] >> (v - 1) & 1)) return false;
    sudoku_mask bit = UINT64_C(1) << (v - 1);
    row[cell / n] |= bit;
    col[cell % n] |= bit;
    box[rules->has_regions ? rules->region[cell]
                           : sudoku_box_of(n, rows, cols, cell)] |= bit;
  }
  for (int k = 0; k < n; k++)
    if (row[k] != all || col[k] != all || box[k] != all) return false;
  for (int u = 0; u < rules->units; u++) {
    sudoku_mask seen = 0;
    for (int i = 0; i < n; i++)
      seen |= UINT64_C(1) << (grid->cell[rules->unit[u][i]] - 1);
    if (seen != all) return false;
  }
  for (int i = 0; i < rules->rules; i++)
    if (!rule_holds(rules, &rules->rule[i], grid, true)) return false;
  return true;
}
