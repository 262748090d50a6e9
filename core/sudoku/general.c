/*
** general.c: the solver for every side but 25 (9x9 has a faster path in
** solve9.c, 25x25 a clause-learning one in cdcl.c), and for every grid
** with extra rules.
**
** Sudoku as exact cover: every cell takes one value, and every unit (row,
** column, box) takes every value once.  The state keeps both sides as bit
** masks: for each cell the values it may take, and for each unit and
** value the places in the unit where the value may go.  Taking a value
** from a cell updates both, so a cell left with one value (naked single)
** and a value left with one place (hidden single) are seen the moment
** they appear, and a mask left empty is a contradiction.  Changes are
** written to a trail, so backing up is undoing them, not copying.
**
** On top of singles, from 12x12 up: all-different at full strength
** on every unit and on every value's rows-to-columns assignment (naked
** and hidden subsets, and every fish: X-wing, swordfish ...), and in each
** band and stack the rule that a value's mini-rows form a permutation
** (pointing and claiming, and more).
**
** The search branches on the constraint with fewest options, a cell or a
** unit's value alike, counted against how often it failed before
** (dom/wdeg, Boussemart et al. 2004): constraints that keep failing are
** settled first.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The state: cell words (the values a cell may take), then unit-value
   words (the places of a value in a unit), then one word a cell that is
   1 once it is assigned and its peers cleared. */
#define MAX_WORDS (2 * SUDOKU_MAX_CELLS + SUDOKU_MAX_UNITS_ALL * SUDOKU_MAX_SIDE)

typedef struct general {
  int size, cells, units, done;                 /* done: the first flag word */
  sudoku_mask all;                              /* every value */
  sudoku_layout layout;
  /* the state */
  uint64_t word[MAX_WORDS];
  int words;                                    /* cell and unit-value words */
  /* the trail: word index and old value of every change */
  uint16_t *trail_at;
  uint64_t *trail_old;
  int trail_top;
  /* assignments found and not yet made */
  uint16_t queue_cell[MAX_WORDS];
  uint8_t queue_value[MAX_WORDS];
  int queue_head, queue_tail;
  /* units and values changed since all-different last looked */
  uint64_t dirty_units[(SUDOKU_MAX_UNITS_ALL + 63) / 64];
  uint64_t dirty_values;
  bool strong;                                  /* use the heavy rules */
  /* a variant's rules: those of each cell, and those to look at again */
  const sudoku_rules *rules;
  int *watch_start, *watch;
  int *rule_queue, rule_head, rule_tail;
  uint8_t *queued;
  /* search */
  uint32_t weight[MAX_WORDS];                   /* failures, plus one */
  int culprit;                                  /* word that failed */
  uint64_t shuffle;                             /* xorshift state, or 0 */
  sudoku_search *s;
  bool stop;
} general;

static int place(const general *g, int k, int v) { return g->cells + k * g->size + v; }

static bool single(uint64_t m) { return !(m & (m - 1)); }

static bool is_done(const general *g, int cell) { return g->word[g->done + cell] != 0; }

/* ---- changes, undone through the trail ---- */

static void set_word(general *g, int i, uint64_t value) {
  g->trail_at[g->trail_top] = (uint16_t)i;
  g->trail_old[g->trail_top++] = g->word[i];
  g->word[i] = value;
}

static void undo(general *g, int mark) {
  while (g->trail_top > mark) {
    g->trail_top--;
    g->word[g->trail_at[g->trail_top]] = g->trail_old[g->trail_top];
  }
}

static bool fail(general *g, int word) {
  g->culprit = word;
  return false;
}

static void enqueue(general *g, int cell, int value) {
  g->queue_cell[g->queue_tail] = (uint16_t)cell;
  g->queue_value[g->queue_tail++] = (uint8_t)value;
}

static void mark_dirty(general *g, int cell, uint64_t values) {
  const sudoku_layout *l = &g->layout;
  for (int t = 0; t < l->count[cell]; t++) {
    int k = l->unit_of[cell][t];
    g->dirty_units[k >> 6] |= UINT64_C(1) << (k & 63);
  }
  g->dirty_values |= values;
}

/* Value v can no longer go to place j of unit k. */
static bool drop_place(general *g, int k, int v, int j) {
  int i = place(g, k, v);
  uint64_t x = g->word[i];
  if (!(x >> j & 1)) return true;
  x &= ~(UINT64_C(1) << j);
  set_word(g, i, x);
  if (!x) return fail(g, i);
  if (single(x)) {
    int cell = g->layout.unit[k][sudoku_lowest_bit_64(x)];
    if (!is_done(g, cell)) enqueue(g, cell, v);   /* hidden single */
  }
  return true;
}

static bool drop_places(general *g, int cell, uint64_t values) {
  const sudoku_layout *l = &g->layout;
  for (; values; values &= values - 1) {
    int v = sudoku_lowest_bit_64(values);
    for (int t = 0; t < l->count[cell]; t++)
      if (!drop_place(g, l->unit_of[cell][t], v, l->place_in[cell][t]))
        return false;
  }
  return true;
}

/* The rules on a cell are looked at again. */
static void wake(general *g, int cell) {
  for (int i = g->watch_start[cell]; i < g->watch_start[cell + 1]; i++) {
    int r = g->watch[i];
    if (!g->queued[r]) {
      g->queued[r] = 1;
      g->rule_queue[g->rule_tail++] = r;
      if (g->rule_tail == g->rules->rules + 1) g->rule_tail = 0;
    }
  }
}

/* Takes the values in 'values' from a cell. */
static bool remove_values(general *g, int cell, uint64_t values) {
  uint64_t m = g->word[cell];
  values &= m;
  if (!values) return true;
  if (is_done(g, cell)) return fail(g, cell);     /* its value itself */
  m &= ~values;
  set_word(g, cell, m);
  if (!m) return fail(g, cell);
  if (single(m)) enqueue(g, cell, sudoku_lowest_bit_64(m));   /* naked single */
  if (g->strong) mark_dirty(g, cell, values);
  if (g->rules) wake(g, cell);
  return drop_places(g, cell, values);
}

/* Gives a cell value v and takes v from its peers. */
static bool assign(general *g, int cell, int v) {
  uint64_t m = g->word[cell], bit = UINT64_C(1) << v;
  if (!(m & bit)) return fail(g, cell);
  if (is_done(g, cell)) return true;
  if (m != bit) set_word(g, cell, bit);
  set_word(g, g->done + cell, 1);
  uint64_t others = m & ~bit;
  if (g->strong) mark_dirty(g, cell, others | bit);
  if (g->rules && others) wake(g, cell);
  if (!drop_places(g, cell, others)) return false;
  const sudoku_layout *l = &g->layout;
  for (int t = 0; t < l->count[cell]; t++) {
    int k = l->unit_of[cell][t], j = l->place_in[cell][t];
    uint64_t rest = g->word[place(g, k, v)] & ~(UINT64_C(1) << j);
    for (; rest; rest &= rest - 1)
      if (!remove_values(g, l->unit[k][sudoku_lowest_bit_64(rest)], bit))
        return false;
  }
  return true;
}

static bool run_queue(general *g) {
  while (g->queue_head < g->queue_tail) {
    int cell = g->queue_cell[g->queue_head];
    int v = g->queue_value[g->queue_head++];
    if (!assign(g, cell, v)) return false;
  }
  g->queue_head = g->queue_tail = 0;
  return true;
}

/* ---- all-different at full strength ----
**
** Regin's filtering: n elements each take a different one of n values.
** A value stays with an element only if some perfect matching gives it
** there.  With one matching found, element x may take the value matched
** to element y exactly when x and y lie on a cycle of "x may take y's
** value" edges, that is, in one strongly connected component; with at
** most 25 elements, reachability as bit masks finds them. */

typedef struct matching {
  uint64_t options[SUDOKU_MAX_SIDE];
  int value_of[SUDOKU_MAX_SIDE];
  int owner[64];                    /* the element matched to a value, or -1 */
} matching;

static bool augment(matching *mt, int x, uint64_t *seen) {
  for (uint64_t options = mt->options[x] & ~*seen; options;
       options &= options - 1) {
    int v = sudoku_lowest_bit_64(options);
    *seen |= UINT64_C(1) << v;
    if (mt->owner[v] < 0 || augment(mt, mt->owner[v], seen)) {
      mt->owner[v] = x;
      mt->value_of[x] = v;
      return true;
    }
  }
  return false;
}

/* Narrows m[0..n-1] to the pairs some perfect matching uses; false when
   there is no perfect matching. */
static bool prune_open(uint64_t *m, int n) {
  matching mt;
  for (int v = 0; v < 64; v++) mt.owner[v] = -1;
  uint64_t used = 0, unmatched = 0;
  for (int x = 0; x < n; x++) {
    mt.options[x] = m[x];
    uint64_t free_values = m[x] & ~used;
    if (free_values) {
      int v = sudoku_lowest_bit_64(free_values);
      used |= UINT64_C(1) << v;
      mt.owner[v] = x;
      mt.value_of[x] = v;
    } else {
      unmatched |= UINT64_C(1) << x;
    }
  }
  for (; unmatched; unmatched &= unmatched - 1) {
    uint64_t seen = 0;
    if (!augment(&mt, sudoku_lowest_bit_64(unmatched), &seen)) return false;
  }
  uint64_t reach[SUDOKU_MAX_SIDE], back[SUDOKU_MAX_SIDE];
  for (int x = 0; x < n; x++) {
    uint64_t r = UINT64_C(1) << x;
    for (uint64_t o = m[x]; o; o &= o - 1)
      r |= UINT64_C(1) << mt.owner[sudoku_lowest_bit_64(o)];
    reach[x] = r;
    back[x] = 0;
  }
  for (int via = 0; via < n; via++)
    for (int x = 0; x < n; x++)
      if (reach[x] >> via & 1) reach[x] |= reach[via];
  for (int x = 0; x < n; x++)
    for (uint64_t r = reach[x]; r; r &= r - 1)
      back[sudoku_lowest_bit_64(r)] |= UINT64_C(1) << x;
  for (int x = 0; x < n; x++) {
    uint64_t allowed = 0;
    for (uint64_t scc = reach[x] & back[x]; scc; scc &= scc - 1)
      allowed |= UINT64_C(1) << mt.value_of[sudoku_lowest_bit_64(scc)];
    m[x] &= allowed;
  }
  return true;
}

/* As prune_open, on the elements with more than one value left: those
   with one keep it, and it goes from the others (which propagation does
   anyway), so on a grid with many givens the work is on what is open. */
static bool prune_matching(uint64_t *m, int n) {
  uint64_t fixed = 0, open[SUDOKU_MAX_SIDE];
  int at[SUDOKU_MAX_SIDE], k = 0;
  for (int x = 0; x < n; x++) {
    if (!m[x]) return false;
    if (single(m[x])) {
      if (fixed & m[x]) return false;
      fixed |= m[x];
    } else {
      at[k++] = x;
    }
  }
  if (k == 0) return true;
  for (int i = 0; i < k; i++) {
    open[i] = m[at[i]] & ~fixed;
    if (!open[i]) return false;
  }
  if (!prune_open(open, k)) return false;
  for (int i = 0; i < k; i++) m[at[i]] = open[i];
  return true;
}

/* The cells of unit k take different values. */
static bool unit_rule(general *g, int k) {
  const uint16_t *unit = g->layout.unit[k];
  uint64_t m[SUDOKU_MAX_SIDE];
  for (int j = 0; j < g->size; j++) m[j] = g->word[unit[j]];
  if (!prune_matching(m, g->size)) return fail(g, place(g, k, 0));
  for (int j = 0; j < g->size; j++)
    if (!remove_values(g, unit[j], g->word[unit[j]] & ~m[j])) return false;
  return true;
}

/* The rows put value v in different columns. */
static bool value_rule(general *g, int v) {
  uint64_t m[SUDOKU_MAX_SIDE], before[SUDOKU_MAX_SIDE];
  for (int r = 0; r < g->size; r++) m[r] = before[r] = g->word[place(g, r, v)];
  if (!prune_matching(m, g->size)) return fail(g, place(g, 0, v));
  for (int r = 0; r < g->size; r++)
    for (uint64_t gone = before[r] & ~m[r]; gone; gone &= gone - 1)
      if (!remove_values(g, r * g->size + sudoku_lowest_bit_64(gone),
                         UINT64_C(1) << v))
        return false;
  return true;
}

/* In a band of box_rows rows, the rows put value v in different boxes
   (there are box_rows of them across): a permutation of mini-rows; the
   same for the columns of a stack. */
static bool band_rule(general *g, int v) {
  int n = g->size;
  for (int dir = 0; dir < 2; dir++) {       /* rows in bands, columns in stacks */
    int lines = dir == 0 ? g->layout.box_rows : g->layout.box_cols;
    int width = n / lines;                  /* a box's extent along a line */
    uint64_t segment = (UINT64_C(1) << width) - 1;
    for (int first = 0; first < n; first += lines) {
      uint64_t m[SUDOKU_MAX_SIDE], before[SUDOKU_MAX_SIDE];
      for (int i = 0; i < lines; i++) {
        uint64_t line = g->word[place(g, dir * n + first + i, v)], boxes = 0;
        for (int j = 0; j < lines; j++)
          if (line >> (j * width) & segment) boxes |= UINT64_C(1) << j;
        m[i] = before[i] = boxes;
      }
      if (!prune_matching(m, lines)) return fail(g, place(g, dir * n + first, v));
      for (int i = 0; i < lines; i++) {
        int line = first + i;
        for (uint64_t gone = before[i] & ~m[i]; gone; gone &= gone - 1) {
          int j = sudoku_lowest_bit_64(gone);
          uint64_t cells = g->word[place(g, dir * n + line, v)] & segment << (j * width);
          for (; cells; cells &= cells - 1) {
            int along = sudoku_lowest_bit_64(cells);
            int cell = dir == 0 ? line * n + along : along * n + line;
            if (!remove_values(g, cell, UINT64_C(1) << v)) return false;
          }
        }
      }
    }
  }
  return true;
}

/* ---- the rules of variants ---- */

/* The values of the other cell of a pair that some value in m allows;
   forward: m is the first cell's (for LESS, first < second). */
static uint64_t support(const general *g, sudoku_relation relation,
                        uint64_t m, bool forward) {
  uint64_t all = g->all, out = 0;
  switch (relation) {
    case SUDOKU_DIFFERENT:
      return single(m) ? all & ~m : all;
    case SUDOKU_LESS:
      if (forward) return all & ~(((m & (0 - m)) << 1) - 1);     /* > min */
      return (UINT64_C(1) << sudoku_highest_bit_64(m)) - 1;     /* < max */
    case SUDOKU_CONSECUTIVE:
      return ((m << 1) | (m >> 1)) & all;
    case SUDOKU_NOT_CONSECUTIVE:
      if (sudoku_bit_count_64(m) >= 3) return all;
      for (int i = 0; i < g->size; i++) {
        uint64_t near = (i < 63 ? UINT64_C(1) << (i + 1) : 0) |
                        (i ? UINT64_C(1) << (i - 1) : 0);
        if (m & ~near) out |= UINT64_C(1) << i;
      }
      return out & all;
    case SUDOKU_DOUBLE:
      for (uint64_t x = m; x; x &= x - 1) {
        int v = sudoku_lowest_bit_64(x) + 1;
        if (2 * v <= g->size) out |= UINT64_C(1) << (2 * v - 1);
        if (v % 2 == 0) out |= UINT64_C(1) << (v / 2 - 1);
      }
      return out;
    case SUDOKU_NO_DOT:
      /* a value rules out at most four of the other's (v - 1, v + 1, 2v,
         v / 2): five or more leave every value some support */
      if (sudoku_bit_count_64(m) >= 5) return all;
      for (int i = 1; i <= g->size; i++) {
        uint64_t near = UINT64_C(1) << (i - 1) >> 1;               /* i - 1 */
        if (i < 64) near |= UINT64_C(1) << i;                       /* i + 1 */
        if (2 * i <= g->size) near |= UINT64_C(1) << (2 * i - 1);
        if (i % 2 == 0) near |= UINT64_C(1) << (i / 2 - 1);
        if (m & ~near) out |= UINT64_C(1) << (i - 1);
      }
      return out & all;
  }
  return all;
}

static bool pair_rule(general *g, const sudoku_rule *r) {
  const uint16_t *cells = g->rules->cell + r->first;
  sudoku_relation relation = (sudoku_relation)r->relation;
  int a = cells[0], b = cells[1];
  if (!remove_values(g, b, ~support(g, relation, g->word[a], true)) ||
      !remove_values(g, a, ~support(g, relation, g->word[b], false)))
    return false;
  return true;
}

/* Sums: every way to give the cells values from their masks (different
   values in a cage) that makes the sum, enumerated with bounds; the
   values some way uses are kept.  A sum with too many ways for the
   budget keeps what the bounds alone allow. */
typedef struct sum_search {
  int n, target;
  bool distinct;
  uint64_t mask[SUDOKU_MAX_SIDE + 1], used_by[SUDOKU_MAX_SIDE + 1];
  int sign[SUDOKU_MAX_SIDE + 1];
  int low[SUDOKU_MAX_SIDE + 2], high[SUDOKU_MAX_SIDE + 2];   /* of cells i.. */
  long budget;
} sum_search;

static int lowest_value(uint64_t m) { return sudoku_lowest_bit_64(m) + 1; }
static int highest_value(uint64_t m) { return sudoku_highest_bit_64(m) + 1; }

static bool sum_ways(sum_search *ss, int i, int sum, uint64_t used) {
  if (--ss->budget < 0) return false;
  if (i == ss->n) return sum == ss->target;
  bool any = false;
  uint64_t m = ss->mask[i] & (ss->distinct ? ~used : ~UINT64_C(0));
  for (; m; m &= m - 1) {
    int bit = sudoku_lowest_bit_64(m), next = sum + ss->sign[i] * (bit + 1);
    if (next + ss->low[i + 1] > ss->target || next + ss->high[i + 1] < ss->target)
      continue;
    if (sum_ways(ss, i + 1, next, used | UINT64_C(1) << bit)) {
      ss->used_by[i] |= UINT64_C(1) << bit;
      any = true;
    }
    if (ss->budget < 0) return false;
  }
  return any;
}

static bool sum_rule(general *g, const sudoku_rule *r) {
  const uint16_t *cells = g->rules->cell + r->first;
  sum_search ss;
  ss.n = r->count;
  ss.distinct = r->kind == SUDOKU_RULE_CAGE;
  ss.target = r->kind == SUDOKU_RULE_CAGE ? r->target : 0;
  for (int i = 0; i < ss.n; i++) {
    ss.mask[i] = g->word[cells[i]];
    ss.used_by[i] = 0;
    ss.sign[i] = r->kind == SUDOKU_RULE_ARROW && i == 0 ? -1 : 1;
  }
  if (ss.distinct) {           /* a value given goes from the others */
    uint64_t fixed = 0;
    for (int i = 0; i < ss.n; i++)
      if (single(ss.mask[i])) {
        if (fixed & ss.mask[i]) return fail(g, cells[i]);
        fixed |= ss.mask[i];
      }
    for (int i = 0; i < ss.n; i++)
      if (!single(ss.mask[i]) && !remove_values(g, cells[i], fixed))
        return false;
    if (r->kind == SUDOKU_RULE_CAGE && r->target == 0) return true;
    for (int i = 0; i < ss.n; i++) ss.mask[i] = g->word[cells[i]];
  }
  ss.low[ss.n] = ss.high[ss.n] = 0;
  for (int i = ss.n - 1; i >= 0; i--) {
    int lo = lowest_value(ss.mask[i]), hi = highest_value(ss.mask[i]);
    ss.low[i] = ss.low[i + 1] + (ss.sign[i] > 0 ? lo : -hi);
    ss.high[i] = ss.high[i + 1] + (ss.sign[i] > 0 ? hi : -lo);
  }
  ss.budget = 20000;
  bool any = sum_ways(&ss, 0, 0, 0);
  if (ss.budget >= 0) {
    if (!any) return fail(g, cells[0]);
    for (int i = 0; i < ss.n; i++)
      if (!remove_values(g, cells[i], ss.mask[i] & ~ss.used_by[i])) return false;
    return true;
  }
  /* bounds: a value of cell i with the others at their extremes */
  for (int i = 0; i < ss.n; i++) {
    int lo = lowest_value(ss.mask[i]), hi = highest_value(ss.mask[i]);
    int others_low = ss.low[0] - (ss.sign[i] > 0 ? lo : -hi);
    int others_high = ss.high[0] - (ss.sign[i] > 0 ? hi : -lo);
    uint64_t gone = 0;
    for (uint64_t m = ss.mask[i]; m; m &= m - 1) {
      int bit = sudoku_lowest_bit_64(m), part = ss.sign[i] * (bit + 1);
      if (part + others_low > ss.target || part + others_high < ss.target)
        gone |= UINT64_C(1) << bit;
    }
    if (!remove_values(g, cells[i], gone)) return false;
  }
  return true;
}

static bool run_rules(general *g) {
  while (g->rule_head != g->rule_tail) {
    if (!run_queue(g)) return false;
    int i = g->rule_queue[g->rule_head++];
    if (g->rule_head == g->rules->rules + 1) g->rule_head = 0;
    g->queued[i] = 0;
    const sudoku_rule *r = &g->rules->rule[i];
    if (!(r->kind == SUDOKU_RULE_PAIR ? pair_rule(g, r) : sum_rule(g, r)))
      return false;
  }
  return true;
}

/* The state the givens leave, made directly: a given cell has its value
   and is done, an empty one the values its units' givens leave it (and
   its rules allow), a unit's value the places whose cells may take it;
   the singles this shows are queued.  The propagation reaches the same
   state from the givens one by one, at many times the cost: on a 16x16
   that was most of the work.  False when the givens clash or leave a
   cell or a unit's value nothing. */
static bool start(general *g, const sudoku_grid *grid, const sudoku_rules *rules) {
  const sudoku_layout *l = &g->layout;
  uint64_t used[SUDOKU_MAX_UNITS_ALL];
  memset(used, 0, (size_t)g->units * sizeof *used);
  for (int cell = 0; cell < g->cells; cell++) {
    int v = grid->cell[cell];
    if (!v) continue;
    uint64_t bit = UINT64_C(1) << (v - 1);
    if (rules && !(rules->allowed[cell] & bit)) return false;
    for (int t = 0; t < l->count[cell]; t++) {
      int k = l->unit_of[cell][t];
      if (used[k] & bit) return false;
      used[k] |= bit;
    }
  }
  for (int cell = 0; cell < g->cells; cell++) {
    int v = grid->cell[cell];
    uint64_t m;
    if (v) {
      m = UINT64_C(1) << (v - 1);
    } else {
      m = rules ? g->all & rules->allowed[cell] : g->all;
      for (int t = 0; t < l->count[cell]; t++) m &= ~used[l->unit_of[cell][t]];
      if (!m) return false;
      if (single(m)) enqueue(g, cell, sudoku_lowest_bit_64(m));
    }
    g->word[cell] = m;
    g->word[g->done + cell] = v != 0;
  }
  for (int k = 0; k < g->units; k++) {
    const uint16_t *unit = l->unit[k];
    uint64_t *places = g->word + place(g, k, 0);
    for (int v = 0; v < g->size; v++) places[v] = 0;
    for (int j = 0; j < g->size; j++)
      for (uint64_t m = g->word[unit[j]]; m; m &= m - 1)
        places[sudoku_lowest_bit_64(m)] |= UINT64_C(1) << j;
    for (int v = 0; v < g->size; v++) {
      if (!places[v]) return false;
      int cell = unit[sudoku_lowest_bit_64(places[v])];
      if (single(places[v]) && !is_done(g, cell)) enqueue(g, cell, v);
    }
  }
  return true;
}

/* Kept out of search, whose frames stay small: on a 64x64 it recurses
   thousands of levels deep, and the rules' arrays take kilobytes. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static bool propagate(general *g) {
  for (;;) {
    if (!run_queue(g)) return false;
    if (g->rules && g->rule_head != g->rule_tail) {
      if (!run_rules(g)) return false;
      continue;
    }
    if (!g->strong) return true;
    if (g->dirty_values) {
      int v = sudoku_lowest_bit_64(g->dirty_values);
      g->dirty_values &= g->dirty_values - 1;
      if ((g->layout.boxes && !band_rule(g, v)) || !value_rule(g, v))
        return false;
      continue;
    }
    int part = 0, parts = (g->units + 63) / 64;
    while (part < parts && !g->dirty_units[part]) part++;
    if (part == parts) return true;
    int k = 64 * part + sudoku_lowest_bit_64(g->dirty_units[part]);
    g->dirty_units[part] &= g->dirty_units[part] - 1;
    if (!unit_rule(g, k)) return false;
  }
}

/* ---- search ---- */

/* Failures count against the constraint that failed: a cell or a unit's
   value directly, a rule on many through its parts. */
static void blame(general *g) {
  g->s->conflicts++;
  if (g->culprit >= 0) g->weight[g->culprit]++;
}

typedef struct branch {
  int n;
  uint16_t cell[SUDOKU_MAX_SIDE];
  uint8_t value[SUDOKU_MAX_SIDE];
} branch;

/* The choices of constraint i: a cell's values, or a unit value's places. */
static bool fill_branch(const general *g, int i, branch *br) {
  br->n = 0;
  if (i < g->cells) {
    for (uint64_t m = g->word[i]; m; m &= m - 1) {
      br->cell[br->n] = (uint16_t)i;
      br->value[br->n++] = (uint8_t)sudoku_lowest_bit_64(m);
    }
  } else {
    int k = (i - g->cells) / g->size, v = (i - g->cells) % g->size;
    for (uint64_t x = g->word[i]; x; x &= x - 1) {
      br->cell[br->n] = g->layout.unit[k][sudoku_lowest_bit_64(x)];
      br->value[br->n++] = (uint8_t)v;
    }
  }
  return true;
}

static bool choose(general *g, branch *br) {
  int best = -1;
  uint32_t best_options = 0, best_weight = 1;
  for (int i = 0; i < g->words; i++) {
    uint64_t x = g->word[i];
    if (i < g->cells ? is_done(g, i) : single(x)) continue;
    uint32_t options = (uint32_t)sudoku_bit_count_64(x), w = g->weight[i];
    if (best < 0 || options * best_weight < best_options * w) {
      best = i;
      best_options = options;
      best_weight = w;
    }
  }
  return best >= 0 && fill_branch(g, best, br);
}

static void reset(general *g) {
  if (g->rules) {
    while (g->rule_head != g->rule_tail) {
      g->queued[g->rule_queue[g->rule_head++]] = 0;
      if (g->rule_head == g->rules->rules + 1) g->rule_head = 0;
    }
    g->rule_head = g->rule_tail = 0;
  }
  g->queue_head = g->queue_tail = 0;
  memset(g->dirty_units, 0, sizeof g->dirty_units);
  g->dirty_values = 0;
}

/* Out of search too: a grid is 4 KB. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void report(general *g) {
  sudoku_grid solution;
  sudoku_init_shape(&solution, g->size, g->layout.box_rows, g->layout.box_cols);
  for (int cell = 0; cell < g->cells; cell++)
    solution.cell[cell] = (uint8_t)(sudoku_lowest_bit_64(g->word[cell]) + 1);
  if (g->s->check) {
    int verdict = g->s->check(&solution, true, g->s->check_context);
    if (verdict < 0) g->stop = true;
    if (verdict <= 0) return;
  }
  if (sudoku_found(g->s, &solution)) g->stop = true;
}

/* The predicate on a partial grid: 1 go on, 0 a dead end, -1 stop. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int check_partial(general *g) {
  sudoku_grid partial;
  sudoku_init_shape(&partial, g->size, g->layout.box_rows, g->layout.box_cols);
  for (int cell = 0; cell < g->cells; cell++)
    if (is_done(g, cell))
      partial.cell[cell] = (uint8_t)(sudoku_lowest_bit_64(g->word[cell]) + 1);
  return g->s->check(&partial, false, g->s->check_context);
}

/* The choice that agrees with the preferred grid goes first. */
static void prefer_branch(const general *g, branch *br) {
  const uint8_t *prefer = g->s->prefer->cell;
  for (int i = 1; i < br->n; i++)
    if (prefer[br->cell[i]] == br->value[i] + 1) {
      uint16_t cell = br->cell[i];
      uint8_t value = br->value[i];
      memmove(br->cell + 1, br->cell, (size_t)i * sizeof *br->cell);
      memmove(br->value + 1, br->value, (size_t)i * sizeof *br->value);
      br->cell[0] = cell;
      br->value[0] = value;
      return;
    }
}

static void shuffle_branch(general *g, branch *br) {
  for (int i = br->n - 1; i > 0; i--) {
    uint64_t x = g->shuffle;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    g->shuffle = x;
    int j = (int)(x % (uint64_t)(i + 1));
    uint16_t cell = br->cell[i];
    uint8_t value = br->value[i];
    br->cell[i] = br->cell[j];
    br->value[i] = br->value[j];
    br->cell[j] = cell;
    br->value[j] = value;
  }
}

static void search(general *g) {
  for (;;) {
    if (!propagate(g)) {
      blame(g);
      return;
    }
    if (g->s->check && g->s->check_partial) {
      int verdict = check_partial(g);
      if (verdict < 0) g->stop = true;
      if (verdict <= 0) return;
    }
    branch br;
    if (!choose(g, &br)) {
      report(g);
      return;
    }
    if (g->shuffle) shuffle_branch(g, &br);
    else if (g->s->prefer) prefer_branch(g, &br);
    for (int i = 0;; i++) {
      if (sudoku_guess(g->s)) {
        g->stop = true;
        return;
      }
      enqueue(g, br.cell[i], br.value[i]);
      if (i == br.n - 1) break;                 /* the last: no copy kept */
      int mark = g->trail_top;
      search(g);
      undo(g, mark);
      reset(g);
      if (g->stop) return;
      /* the other choices, knowing this one fails */
      if (!remove_values(g, br.cell[i], UINT64_C(1) << br.value[i]) ||
          !propagate(g)) {
        blame(g);
        return;
      }
    }
  }
}

bool sudoku_solve_general(const sudoku_grid *grid, sudoku_search *s) {
  general *g = malloc(sizeof *g);
  if (!g) return false;
  int rows, cols;
  sudoku_grid_shape(grid, &rows, &cols);
  const sudoku_rules *rules = s->rules;
  if (!sudoku_layout_of(&g->layout, grid->size, rows, cols, rules)) {
    free(g);
    return false;
  }
  int size = g->size = grid->size;
  g->cells = size * size;
  g->units = g->layout.units;
  g->words = g->cells + g->units * size;
  g->done = g->words;
  g->all = sudoku_all_values(size);
  /* every change takes at least one bit away or marks a cell done */
  size_t trail = (size_t)g->words * (size_t)size + 2 * (size_t)g->cells + 1;
  g->trail_at = malloc(trail * sizeof *g->trail_at);
  g->trail_old = malloc(trail * sizeof *g->trail_old);
  g->rules = rules && rules->rules ? rules : NULL;
  g->watch_start = g->watch = g->rule_queue = NULL;
  g->queued = NULL;
  g->rule_head = g->rule_tail = 0;
  if (g->rules) {
    g->watch_start = calloc((size_t)g->cells + 1, sizeof *g->watch_start);
    g->watch = malloc(((size_t)rules->cells + 1) * sizeof *g->watch);
    g->rule_queue = malloc(((size_t)rules->rules + 1) * sizeof *g->rule_queue);
    g->queued = calloc((size_t)rules->rules + 1, 1);
  }
  if (!g->trail_at || !g->trail_old ||
      (g->rules && (!g->watch_start || !g->watch || !g->rule_queue ||
                    !g->queued))) {
    free(g->trail_at);
    free(g->trail_old);
    free(g->watch_start);
    free(g->watch);
    free(g->rule_queue);
    free(g->queued);
    free(g);
    return false;
  }
  if (g->rules) {              /* the rules of each cell, cell by cell */
    for (int i = 0; i < rules->cells; i++) g->watch_start[rules->cell[i] + 1]++;
    for (int cell = 0; cell < g->cells; cell++)
      g->watch_start[cell + 1] += g->watch_start[cell];
    int *at = malloc((size_t)g->cells * sizeof *at);
    if (at) {
      memcpy(at, g->watch_start, (size_t)g->cells * sizeof *at);
      for (int r = 0; r < rules->rules; r++)
        for (int i = 0; i < rules->rule[r].count; i++)
          g->watch[at[rules->cell[rules->rule[r].first + i]]++] = r;
      free(at);
    } else {
      memset(g->watch_start, 0, ((size_t)g->cells + 1) * sizeof *g->watch_start);
    }
  }
  g->shuffle = s->shuffle;
  g->trail_top = 0;
  g->s = s;
  g->stop = false;
  g->strong = size >= 12;
  g->culprit = -1;
  for (int i = 0; i < g->words; i++) g->weight[i] = 1;
  reset(g);
  if (!start(g, grid, rules)) goto done;        /* no solution */
  for (int r = 0; g->rules && r < rules->rules; r++) {
    g->queued[r] = 1;
    g->rule_queue[g->rule_tail++] = r;
  }
  if (g->strong) {
    for (int k = 0; k < g->units; k++)
      g->dirty_units[k >> 6] |= UINT64_C(1) << (k & 63);
    g->dirty_values = g->all;
  }
  search(g);
done:
  if (g->stop) s->complete = false;
  free(g->trail_at);
  free(g->trail_old);
  free(g->watch_start);
  free(g->watch);
  free(g->rule_queue);
  free(g->queued);
  free(g);
  return true;
}
