/*
** sudoku.h: Sudoku of every shape: sides from 4 to 64 with boxes of r x c
** cells (r x c = side: 6x6 with 2x3 boxes, 12x12 with 3x4 ...).
**
** A grid is its side, its box shape and its cells row by row, 0 for an
** empty cell and 1..side for a value.  Text uses the symbols 1-9 and then
** A=10 ... Z=35 (letters in either case), with '.' or '0' for an empty
** cell, or decimal numbers between spaces (the form of sides past 35);
** the side follows from the number of cells, the box shape from the side
** unless given (the squarest, boxes no taller than wide: 2x3 for 6x6).
**
** The solver counts solutions up to a limit.  9x9 grids go to a fast
** path that keeps, for each digit, one 27-bit word per band of three rows;
** other sides go to a general solver on per-cell candidate masks.  Both
** propagate naked and hidden singles and locked candidates before they
** guess (see solve9.c and solve.c for what exactly and why).
*/
#ifndef SUDOKU_H
#define SUDOKU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limit.h"

#define SUDOKU_MIN_SIDE 4
#define SUDOKU_MAX_SIDE 64
#define SUDOKU_MAX_CELLS (SUDOKU_MAX_SIDE * SUDOKU_MAX_SIDE)

/* A set of values, bit v - 1 for value v. */
typedef uint64_t sudoku_mask;

typedef struct sudoku_grid {
  int size;                         /* the side: 4 to 64 */
  int box_rows, box_cols;           /* a box's shape: box_rows x box_cols =
                                       size; 0, 0: the side's default */
  uint8_t cell[SUDOKU_MAX_CELLS];   /* row by row; 0 empty, else 1..size */
} sudoku_grid;

typedef enum sudoku_error {
  SUDOKU_OK,
  SUDOKU_ESIZE,       /* a side out of 4..64, or a box shape that does
                         not make it */
  SUDOKU_ECOUNT,      /* text with a number of cells that fits no side */
  SUDOKU_ESYMBOL,     /* a byte that is neither a cell nor decoration */
  SUDOKU_ERANGE,      /* a value past the side ('G' on a 9x9, 17 in a cell) */
  SUDOKU_ECLASH,      /* two equal givens in one row, column or box */
  SUDOKU_ENOMEM,      /* the general solver could not grow its stack */
  SUDOKU_ESTOPPED,    /* a search limit (nodes, time, Ctrl-C) stopped it */
  SUDOKU_EALPHABET,   /* symbols that are not one for each value of the side */
  SUDOKU_ENOSOLUTION  /* generate: rules that no full grid keeps */
} sudoku_error;

/* Whether a grid of that side has a default box shape: 4 to 64 and not
   prime. */
bool sudoku_size_ok(int size);

/* The default box of a side: the most rows r <= c, r >= 2, with r x c =
   size (2x3 for 6, 3x4 for 12, 5x5 for 25); false when there is none. */
bool sudoku_default_box(int size, int *rows, int *cols);

/* Whether boxes of rows x cols make a grid of that side: size from 4 to
   64 and rows x cols = size (a box of 1 x size is a row: allowed when
   asked for, for grids whose regions replace the boxes). */
bool sudoku_shape_ok(int size, int rows, int cols);

/* The empty grid of that side, with its default box (size must be
   sudoku_size_ok); sudoku_init_shape with a box given (sudoku_shape_ok). */
void sudoku_init(sudoku_grid *grid, int size);
void sudoku_init_shape(sudoku_grid *grid, int size, int rows, int cols);

/* The box shape of a grid (the default when the grid says 0, 0); false
   when the side or the shape is not one. */
bool sudoku_grid_shape(const sudoku_grid *grid, int *rows, int *cols);

/* Copies the header and the size x size cells of a grid, not the rest. */
void sudoku_copy(sudoku_grid *to, const sudoku_grid *from);

/* Whether two grids have the same side, box and cells. */
bool sudoku_same(const sudoku_grid *a, const sudoku_grid *b);

/* ---- text ---- */

typedef struct sudoku_parse_error {
  sudoku_error code;
  int at;             /* ESYMBOL, ERANGE: 0-based byte offset in the text */
  int cell;           /* ERANGE: the 0-based cell, row-major */
  int cells;          /* ECOUNT: the number of cells found */
  int value;          /* ERANGE: the value the symbol stands for */
  int size;           /* ERANGE: the side the cell count gave */
} sudoku_parse_error;

/* The default alphabet: the symbol of value v is SUDOKU_SYMBOLS[v - 1],
   for sides up to 35; larger sides are written in numbers. */
#define SUDOKU_SYMBOLS "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define SUDOKU_MAX_LETTERED 35

/* The alphabet that stands for decimal numbers between separators. */
#define SUDOKU_NUMBERS ""

/* Reads a grid from len bytes of text.  Cells are '.', '0' (empty) or a
   symbol; whitespace and the decoration bytes '|', '-', '+' (and ','
   and ';' between numbers) are skipped.  alphabet names the symbols of
   values 1, 2, ... in order (NULL for SUDOKU_SYMBOLS; SUDOKU_NUMBERS for
   numbers, each cell a decimal number or '.', separated); letters match
   in either case, and '.' is always empty, '0' only when the alphabet
   does not use it (so "0123456789ABCDEF" reads the common 16x16 form
   where '0' is a value).  The grid gets its side's default box.  Returns
   SUDOKU_OK, or an error with err filled and the grid unspecified.
   Clashing givens are not an error here: see sudoku_check_givens. */
sudoku_error sudoku_parse(const char *text, size_t len, const char *alphabet,
                          sudoku_grid *grid, sudoku_parse_error *err);

/* The cells sudoku_parse would count in len bytes of text with that
   alphabet (one row of a grid, say), or -1 when a byte is not a cell. */
int sudoku_count_cells(const char *text, size_t len, const char *alphabet);

/* The symbol of a value (SUDOKU_SYMBOLS), '.' for 0 and '?' past 35. */
char sudoku_symbol(int value);

/* The grid on one line, and a zero byte; as snprintf (returns the length
   it needed): size*size symbols, '.' for empty, for sides up to 35, and
   numbers separated by spaces past that. */
size_t sudoku_format(const sudoku_grid *grid, char *buf, size_t bufsize);

/* ---- puzzles as people write them (text.c) ---- */

/* A grid and the symbols it is written with: value v is symbols[v - 1],
   one symbol for each value of the side, then zeros; no symbols at all
   (an empty string) for a grid written in numbers.  The grid comes last,
   so that a copy may stop after its size x size cells. */
typedef struct sudoku_puzzle {
  char symbols[SUDOKU_MAX_SIDE + 1];
  sudoku_grid grid;
} sudoku_puzzle;

/* The bytes of a puzzle of that side up to its last cell. */
size_t sudoku_puzzle_bytes(int size);

/* Whether symbols (len bytes) can write the values of a grid: from 4 to
   64 printable bytes, different even when letters are read in either
   case, none of them '.', '|', '-', '+', ',' or ';'. */
bool sudoku_symbols_ok(const char *symbols, size_t len);

/* The symbols a text is most likely written with: SUDOKU_NUMBERS when
   every cell is a number or '.' between separators and some number is
   over 9, "0123456789ABCDEF" for 256 cells where '0' is a value,
   "ABCDEFGHIJKLMNOPQRSTUVWXY" for 625 cells without a digit 1-9; NULL
   (SUDOKU_SYMBOLS) otherwise. */
const char *sudoku_guess_symbols(const char *text, size_t len);

/* Reads a puzzle as sudoku_parse does, rows on lines of their own or
   not, with symbols (sudoku_symbols_ok, SUDOKU_NUMBERS, or NULL:
   guessed) that must write every value of the side the cells give,
   boxes of box_rows x box_cols (0, 0: the side's default), and givens
   that must not clash.  Returns SUDOKU_OK with puzzle filled, or an
   error with a lowercase message in message (as snprintf; 256 bytes hold
   any): ECOUNT, ESIZE, ESYMBOL, EALPHABET, ERANGE or ECLASH. */
sudoku_error sudoku_read(const char *text, size_t len, const char *symbols,
                         int box_rows, int box_cols, sudoku_puzzle *puzzle,
                         char *message, size_t size);

/* A puzzle of a grid read some other way, with symbols (NULL: those of
   SUDOKU_SYMBOLS up to 35x35, numbers past that): checked as sudoku_read
   checks it. */
sudoku_error sudoku_make_puzzle(const sudoku_grid *grid, const char *symbols,
                                sudoku_puzzle *puzzle, char *message,
                                size_t size);

/* The puzzle on one line in its symbols, '.' for empty (numbers between
   spaces when it has none); as snprintf. */
size_t sudoku_write(const sudoku_puzzle *puzzle, char *buf, size_t size);

/* The puzzle drawn with its boxes, "5 3 . | . 7 . | . . ." and rules of
   "------+-------+------" between bands; as snprintf.  sudoku_read reads
   it back. */
size_t sudoku_draw(const sudoku_puzzle *puzzle, char *buf, size_t size);

/* ---- givens ---- */

typedef struct sudoku_clash {
  int row1, col1;     /* 0-based: the earlier cell in row-major order */
  int row2, col2;     /* the later one (ERANGE: the same cell) */
  int value;
} sudoku_clash;

/* SUDOKU_OK when no row, column or box holds a value twice.  Else
   SUDOKU_ECLASH with the first clash found in row-major order of the
   later cell, SUDOKU_ERANGE for a cell value past the side, or
   SUDOKU_ESIZE; clash (may be NULL) says where. */
sudoku_error sudoku_check_givens(const sudoku_grid *grid, sudoku_clash *clash);

/* The unit (see sudoku_unit_name) where two clashing cells meet. */
int sudoku_clash_unit(const sudoku_clash *clash, int size);

/* For every cell, the mask of values the givens leave it (bit v - 1 for
   value v): a given cell has its own value, an empty one the values no
   given of its row, column or box holds.  No deduction beyond that.
   Returns false (masks unspecified) when sudoku_check_givens fails. */
bool sudoku_candidates(const sudoku_grid *grid, sudoku_mask *masks);

/* Whether grid is a complete solution (every row, column, box a
   permutation of 1..size) that keeps every given of puzzle (when puzzle
   is not NULL; it must then have the same side). */
bool sudoku_is_solution(const sudoku_grid *grid, const sudoku_grid *puzzle);

/* ---- solving ---- */

/* Called with each solution, in the order found; returning true stops
   the search there. */
typedef bool sudoku_visit(const sudoku_grid *solution, void *context);

/* ---- variants (rules.c) ----
**
** Rules added to a grid's rows, columns and boxes: regions that replace
** the boxes (jigsaw), extra units of size cells that take every value
** once (diagonals, windows), the values each cell may take (even, odd),
** and constraints on a few cells: a relation between two cells, a cage
** (different values with a given sum), an arrow (a cell that is the sum
** of others).  The general solver propagates them all; a predicate the
** caller gives is asked about solutions (and, if asked, partial grids). */

#define SUDOKU_MAX_EXTRA_UNITS 128
#define SUDOKU_MAX_RULES 16384
#define SUDOKU_MAX_RULE_CELLS 32768

typedef enum sudoku_relation {
  SUDOKU_DIFFERENT,         /* a != b */
  SUDOKU_LESS,              /* a < b */
  SUDOKU_CONSECUTIVE,       /* |a - b| = 1 */
  SUDOKU_NOT_CONSECUTIVE,   /* |a - b| != 1 */
  SUDOKU_DOUBLE,            /* one is twice the other */
  SUDOKU_NO_DOT             /* neither consecutive nor one twice the other
                               (Kropki with every dot given) */
} sudoku_relation;

typedef enum sudoku_rule_kind {
  SUDOKU_RULE_PAIR,         /* cell 0 and cell 1 in a relation */
  SUDOKU_RULE_CAGE,         /* different values, summing to target (0: any) */
  SUDOKU_RULE_ARROW         /* cell 0 is the sum of the others */
} sudoku_rule_kind;

typedef struct sudoku_rule {
  uint8_t kind, relation;
  uint16_t count;           /* cells */
  int first;                /* its cells: rules->cell[first ...] */
  int target;
  int group;                /* the item of the description it comes from */
} sudoku_rule;

/* The predicate: 1 the grid is fine, 0 it is not, -1 stop the search
   (the predicate failed).  Empty cells are 0 when complete is false. */
typedef int sudoku_check(const sudoku_grid *grid, bool complete,
                         void *context);

typedef struct sudoku_rules {
  int size;
  bool has_regions;
  uint8_t region[SUDOKU_MAX_CELLS];       /* has_regions: 0-based region */
  int units;
  uint16_t unit[SUDOKU_MAX_EXTRA_UNITS][SUDOKU_MAX_SIDE];
  sudoku_mask allowed[SUDOKU_MAX_CELLS];  /* the values a cell may take */
  int rules;
  sudoku_rule rule[SUDOKU_MAX_RULES];
  int cells;
  uint16_t cell[SUDOKU_MAX_RULE_CELLS];
} sudoku_rules;

/* No rules yet, for a grid of that side. */
void sudoku_rules_init(sudoku_rules *rules, int size);

/* Regions replacing the boxes: region[cell] from 0 to size - 1, size
   cells each.  False, with a message (as snprintf), when they are not. */
bool sudoku_rules_set_regions(sudoku_rules *rules, const uint8_t *region,
                              char *message, size_t size);

/* An extra unit of size different cells; false with a message. */
bool sudoku_rules_add_unit(sudoku_rules *rules, const uint16_t *cells,
                           char *message, size_t size);

/* A constraint on count cells; false with a message when it cannot hold
   (a cage whose sum no different values reach, a cell twice ...). */
bool sudoku_rules_add(sudoku_rules *rules, sudoku_rule_kind kind,
                      sudoku_relation relation, const uint16_t *cells,
                      int count, int target, int group, char *message,
                      size_t size);

/* Whether the givens of grid break no rule among themselves (a value
   twice in a unit or region, a given a cell may not take, a relation two
   givens break, a cage over its sum).  SUDOKU_OK, or SUDOKU_ECLASH with
   a message. */
sudoku_error sudoku_rules_check(const sudoku_rules *rules,
                                const sudoku_grid *grid, char *message,
                                size_t size);

/* Whether a full grid keeps its rows, columns, boxes (or regions) and
   every rule; the predicate is not asked. */
bool sudoku_rules_hold(const sudoku_rules *rules, const sudoku_grid *grid);

typedef struct sudoku_search {
  /* what to do */
  uint64_t max_solutions;   /* stop on reaching this many; 0: no limit */
  search_limit *limit;      /* NULL, or a budget: one limit_tick per guess.
                               The caller runs limit_start. */
  sudoku_visit *visit;      /* NULL, or called with each solution */
  void *context;            /* passed to visit */
  sudoku_grid *first;       /* NULL, or receives the first solution */
  bool general;             /* the general solver on every side (not the
                               9x9 band solver nor clause learning) */
  const sudoku_rules *rules;   /* NULL, or the rules of a variant (then the
                                  general solver, on the rules' side) */
  uint64_t shuffle;         /* nonzero: the choices of a branch in an
                               order this seeds (for full grids) */
  sudoku_check *check;      /* NULL, or asked about every solution (then
                               the general solver) */
  void *check_context;
  bool check_partial;       /* ... and about every partial grid searched */
  const sudoku_grid *prefer;   /* NULL, or a full grid whose value each
                                  branch tries first (a solution near it
                                  is found sooner) */
  /* what happened */
  uint64_t solutions;       /* found, at most max_solutions */
  uint64_t guesses;         /* branches tried: changes only with the search */
  uint64_t conflicts;       /* dead ends met (the general and the clause-
                               learning solvers; the 9x9 path leaves 0) */
  bool complete;            /* every solution was counted: neither
                               max_solutions, visit nor limit stopped it */
} sudoku_search;

/* Searches the solutions of grid as s says.  Returns SUDOKU_OK (with
   s->solutions 0 when the givens clash), SUDOKU_ESIZE or SUDOKU_ERANGE
   for a grid that is not one, or SUDOKU_ENOMEM. */
sudoku_error sudoku_solve(const sudoku_grid *grid, sudoku_search *s);

/* The number of solutions, counting at most limit of them (0: all; two
   answers "is it unique?").  The first solution found goes to solution
   when it is not NULL.  A grid that is not one, or whose givens clash,
   has none. */
uint64_t sudoku_count(const sudoku_grid *grid, uint64_t limit,
                      sudoku_grid *solution);

/* Up to cap solutions into out; returns how many (fewer than cap when
   there are no more). */
int sudoku_solutions(const sudoku_grid *grid, sudoku_grid *out, int cap);

/* ---- generating ---- */

typedef struct sudoku_generate_options {
  int size;                 /* 4 to 64 */
  int box_rows, box_cols;   /* 0, 0: the side's default */
  uint64_t seed;            /* equal seeds, equal puzzles */
  int clues;                /* stop taking givens away at this many */
  bool symmetric;           /* givens symmetric about the centre */
  bool minimal;             /* take away every given that can go (then
                               clues is ignored) */
  search_limit *limit;      /* NULL, or a budget for the whole job */
  const sudoku_rules *rules;   /* NULL, or a variant's (then the full grid
                                  is a shuffled search's first solution) */
} sudoku_generate_options;

/* A puzzle with exactly one solution.  Without clues (0) or with minimal,
   every given left is needed: removing any one (with symmetric, any
   symmetric pair) allows a second solution.  With clues, givens are
   taken away until that many are left, or none more can go.  Returns
   SUDOKU_OK, SUDOKU_ESIZE, SUDOKU_ENOMEM or SUDOKU_ESTOPPED. */
sudoku_error sudoku_generate(const sudoku_generate_options *options,
                             sudoku_grid *puzzle);

/* ---- hints ---- */

/* Units are numbered rows 0..size-1, columns size..2*size-1, boxes
   2*size..3*size-1 (boxes row by row). */

typedef enum sudoku_technique {
  SUDOKU_NAKED_SINGLE,      /* a cell with one value left */
  SUDOKU_HIDDEN_SINGLE,     /* a value with one place left in a unit */
  SUDOKU_POINTING,          /* a value of a box confined to one line */
  SUDOKU_CLAIMING,          /* a value of a line confined to one box */
  SUDOKU_NAKED_SUBSET,      /* k cells of a unit with k values between them */
  SUDOKU_HIDDEN_SUBSET      /* k values of a unit that fit only k cells */
} sudoku_technique;

#define SUDOKU_SUBSET_MAX 4

/* One elimination on the way to a hint. */
typedef struct sudoku_step {
  sudoku_technique technique;
  int unit;                 /* where it is seen */
  int other;                /* POINTING, CLAIMING: the unit it clears */
  sudoku_mask values;       /* the values it is about, bit v - 1 for v */
  int subset[SUDOKU_SUBSET_MAX], subset_size;   /* SUBSETs: the cells */
  sudoku_mask removed_values;   /* what it took away, from the cells ... */
  int removed[SUDOKU_MAX_SIDE], removed_count;   /* ... in unit order */
} sudoku_step;

#define SUDOKU_HINT_STEPS 8

typedef enum sudoku_hint_kind {
  SUDOKU_HINT_PLACE,        /* cell must be value */
  SUDOKU_HINT_SOLVED,       /* no empty cell left */
  SUDOKU_HINT_STUCK,        /* nothing follows without guessing */
  SUDOKU_HINT_BROKEN        /* a cell (cell >= 0) with no value left, or a
                               value (value) with no place in unit */
} sudoku_hint_kind;

typedef struct sudoku_hint {
  sudoku_hint_kind kind;
  int cell, value;          /* PLACE: 0-based cell, value 1..size */
  sudoku_technique technique;   /* PLACE: NAKED_ or HIDDEN_SINGLE */
  int unit;                 /* HIDDEN_SINGLE, BROKEN value: the unit */
  int steps;                /* eliminations that came first (all of them) */
  sudoku_step step[SUDOKU_HINT_STEPS];   /* the first of those */
  bool regions;             /* units 2*size.. are a variant's regions, and
                               3*size.. its extra units */
} sudoku_hint;

/* The next logical step: a cell whose value follows from the givens by
   singles, after the eliminations (locked candidates, naked and hidden
   subsets up to SUDOKU_SUBSET_MAX) it needs, cheapest first.  Returns
   SUDOKU_OK with hint filled, or what sudoku_check_givens returns. */
sudoku_error sudoku_find_hint(const sudoku_grid *grid, sudoku_hint *hint);

/* As sudoku_find_hint under a variant's rules: its regions and extra
   units are units like the others, and the values its rules forbid a
   cell (even, odd) are gone from the start; the other rules (cages,
   pairs) take no part in hints. */
sudoku_error sudoku_find_hint_rules(const sudoku_grid *grid,
                                    const sudoku_rules *rules,
                                    sudoku_hint *hint);

/* The hint in words, "r3c5 must be 7: it is the only place for 7 in box
   2", with symbols[v - 1] for value v (NULL: decimal numbers); as
   snprintf. */
size_t sudoku_hint_text(const sudoku_grid *grid, const sudoku_hint *hint,
                        const char *symbols, char *buf, size_t bufsize);

/* The name of unit k of a grid of that side, "row 3", "box 2"; as
   snprintf. */
size_t sudoku_unit_name(int size, int unit, char *buf, size_t bufsize);

/* ---- batch.c: the tasks of the batch tools (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task sudoku_batch_solve;

#endif
