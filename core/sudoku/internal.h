/*
** internal.h: what the Sudoku solvers share; not part of the public API.
*/
#ifndef SUDOKU_INTERNAL_H
#define SUDOKU_INTERNAL_H

#include "sudoku.h"

/* Bit tricks.  The builtins are one instruction on gcc and clang; the
   fallbacks keep the code plain C11 elsewhere. */
static inline int sudoku_lowest_bit(uint32_t x) {   /* x != 0 */
#if defined(__GNUC__)
  return __builtin_ctz(x);
#else
  int n = 0;
  while (!(x & 1)) { x >>= 1; n++; }
  return n;
#endif
}

static inline int sudoku_lowest_bit_64(uint64_t x) {   /* x != 0 */
#if defined(__GNUC__)
  return __builtin_ctzll(x);
#else
  int n = 0;
  while (!(x & 1)) { x >>= 1; n++; }
  return n;
#endif
}

static inline int sudoku_highest_bit_64(uint64_t x) {   /* x != 0 */
#if defined(__GNUC__)
  return 63 - __builtin_clzll(x);
#else
  int n = 0;
  while (x >>= 1) n++;
  return n;
#endif
}

/* Without -mpopcnt the builtin becomes a library call; this is as fast. */
static inline int sudoku_bit_count(uint32_t x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (int)((x * 0x01010101u) >> 24);
}

static inline int sudoku_bit_count_64(uint64_t x) {
  return sudoku_bit_count((uint32_t)x) + sudoku_bit_count((uint32_t)(x >> 32));
}

/* The values 1..size, as a mask. */
static inline sudoku_mask sudoku_all_values(int size) {
  return size >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << size) - 1;
}

#define SUDOKU_MAX_UNITS (3 * SUDOKU_MAX_SIDE)

/* The box (0-based, boxes row by row) of a cell of a grid of that side
   and box shape. */
static inline int sudoku_box_of(int size, int box_rows, int box_cols,
                                int cell) {
  int r = cell / size, c = cell % size;
  return r / box_rows * box_rows + c / box_cols;
}

/* The units of a grid of side size with boxes of box_rows x box_cols:
   unit[u][i] is the i-th cell of unit u (the rows, then the columns,
   then the boxes), unit_of[cell] its row, column and box, place_in[cell]
   its place in each. */
void sudoku_map_units(int size, int box_rows, int box_cols,
                      uint16_t unit[][SUDOKU_MAX_SIDE], uint8_t unit_of[][3],
                      uint8_t place_in[][3]);

/* The units the general solver keeps, each a list of size cells that
   take every value once: the rows, the columns, the boxes (or regions
   that replace them), then extra units a variant adds (diagonals,
   windows ...). */
#define SUDOKU_MAX_UNITS_ALL (SUDOKU_MAX_UNITS + SUDOKU_MAX_EXTRA_UNITS)
#define SUDOKU_MAX_CELL_UNITS 16

typedef struct sudoku_layout {
  int size, units;
  int box_rows, box_cols;
  bool boxes;         /* units 2*size.. are boxes of box_rows x box_cols,
                         both 2 or more: what the band rule needs */
  uint16_t unit[SUDOKU_MAX_UNITS_ALL][SUDOKU_MAX_SIDE];
  uint8_t count[SUDOKU_MAX_CELLS];                       /* units of a cell */
  uint16_t unit_of[SUDOKU_MAX_CELLS][SUDOKU_MAX_CELL_UNITS];
  uint8_t place_in[SUDOKU_MAX_CELLS][SUDOKU_MAX_CELL_UNITS];
} sudoku_layout;

/* The rows, columns and boxes of a grid of that shape. */
void sudoku_layout_boxes(sudoku_layout *l, int size, int box_rows,
                         int box_cols);

/* The units of a grid of that shape under rules (NULL: none): the rows,
   the columns, the regions or else the boxes, and the rules' units;
   false when a cell is in too many. */
bool sudoku_layout_of(sudoku_layout *l, int size, int box_rows, int box_cols,
                      const sudoku_rules *rules);

/* Adds a unit of size cells; false when there is no room (too many
   units, or a cell in too many). */
bool sudoku_layout_add(sudoku_layout *l, const uint16_t *cells);

/* One solution found: counts it, passes it on; true when the search must
   stop (max_solutions reached or visit asked to).  The solution may be
   NULL when neither visit nor first (for the first solution) reads it. */
bool sudoku_found(sudoku_search *s, const sudoku_grid *solution);

/* Whether the next sudoku_found reads its solution: an engine that has
   to build the grid may skip it otherwise. */
static inline bool sudoku_needs_grid(const sudoku_search *s) {
  return s->visit || (s->first && s->solutions == 0);
}

/* One guess: counts it; true when the budget is spent. */
static inline bool sudoku_guess(sudoku_search *s) {
  s->guesses++;
  return s->limit && limit_tick(s->limit);
}

/* Whether the clause-learning solver takes grids of that side under
   rules (NULL: none): sides 25 to 36, and rules that only take values
   from cells. */
bool sudoku_learns(int size, const sudoku_rules *rules);

/* The engines.  The grid is valid (size, values); each returns false only
   for lack of memory, and stops early when sudoku_found or sudoku_guess
   say so, setting s->complete to false. */
bool sudoku_solve9(const sudoku_grid *grid, sudoku_search *s);
bool sudoku_solve_general(const sudoku_grid *grid, sudoku_search *s);
bool sudoku_solve_cdcl(const sudoku_grid *grid, sudoku_search *s);

#endif
