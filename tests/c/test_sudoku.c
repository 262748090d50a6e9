/*
** test_sudoku.c: the Sudoku core: text in and out, givens, and the
** solver against known answers: the seed's 4x4 examples, the first
** puzzles of the 9x9 reference sets (../shared/data/sudoku, or
** $LUDUS_DATA/sudoku), exact solution counts from puzzles7_serg_counts,
** and the Gecode 16x16 and 25x25 instances.  Both engines (the 9x9 fast
** path and the general solver) must agree.  Then the generator (unique,
** minimal, reproducible) and the hints (each one true to the solution).  The full sets and the hard
** 25x25 instances are in `make bench`.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sudoku/sudoku.h"

/* ---- helpers ---- */

static sudoku_grid from_values(int size, const int *values) {
  sudoku_grid g;
  sudoku_init(&g, size);
  for (int i = 0; i < size * size; i++) g.cell[i] = (uint8_t)values[i];
  return g;
}

static sudoku_grid parse_ok(const char *text) {
  sudoku_grid g;
  sudoku_parse_error err;
  sudoku_error e = sudoku_parse(text, strlen(text), NULL, &g, &err);
  if (e != SUDOKU_OK)
    fail_msg("cannot parse '%s': error %d at %d (%d cells)", text, e, err.at,
             err.cells);
  return g;
}

typedef struct counted {
  uint64_t solutions;
  bool complete;
} counted;

/* Searches g for up to max solutions (0: all), by the general solver
   when asked, under rules (or none), trying prefer's values first (or
   not); the first solution to first (or nowhere). */
static sudoku_search searched(const sudoku_grid *g, uint64_t max, bool general,
                              sudoku_grid *first, const sudoku_rules *rules,
                              const sudoku_grid *prefer) {
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.max_solutions = max;
  s.general = general;
  s.first = first;
  s.rules = rules;
  s.prefer = prefer;
  assert_int_equal(sudoku_solve(g, &s), SUDOKU_OK);
  return s;
}

/* Counts with either engine, checking every solution found. */
static counted count(const sudoku_grid *g, uint64_t limit, bool general,
                     sudoku_grid *first) {
  sudoku_search s = searched(g, limit, general, first, NULL, NULL);
  if (s.solutions && first && !sudoku_is_solution(first, g)) {
    char text[SUDOKU_MAX_CELLS + 1];
    sudoku_format(g, text, sizeof text);
    fail_msg("not a solution of %s", text);
  }
  return (counted){s.solutions, s.complete};
}

/* The reference data: one puzzle a line, '#' comments.  Each line is
   handed over with its length; NULL at the end. */
typedef struct data_file {
  FILE *f;
  char path[512];
  char line[2048];
  int number;                 /* of the line last read, from 1 */
} data_file;

static void data_open(data_file *d, const char *name) {
  const char *dir = getenv("LUDUS_DATA");
  snprintf(d->path, sizeof d->path, "%s/sudoku/%s", dir ? dir : "../shared/data",
           name);
  d->f = fopen(d->path, "r");
  d->number = 0;
  if (!d->f)
    fail_msg("cannot read %s (the reference data: keep shared/ beside the "
             "repository, or run make test DATA=folder)", d->path);
}

static const char *data_next(data_file *d) {
  while (fgets(d->line, sizeof d->line, d->f)) {
    d->number++;
    d->line[strcspn(d->line, "\r\n")] = '\0';
    if (d->line[0] && d->line[0] != '#') return d->line;
  }
  return NULL;
}

static void data_close(data_file *d) {
  fclose(d->f);
}

/* ---- text ---- */

static void test_parse_forms(void **unused) {
  (void)unused;
  const char *dots =
      "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
  sudoku_grid a = parse_ok(dots);
  assert_int_equal(a.size, 9);
  assert_int_equal(a.cell[0], 4);
  assert_int_equal(a.cell[1], 0);
  assert_int_equal(a.cell[80], 0);
  /* zeros for empty cells, and a drawn grid with decoration */
  char zeros[82];
  for (int i = 0; i < 81; i++) zeros[i] = dots[i] == '.' ? '0' : dots[i];
  zeros[81] = '\0';
  sudoku_grid b = parse_ok(zeros);
  assert_memory_equal(a.cell, b.cell, 81);
  const char *drawn =
      "4 . . | . . . | 8 . 5\n"
      ". 3 . | . . . | . . .\n"
      ". . . | 7 . . | . . .\n"
      "------+-------+------\n"
      ". 2 . | . . . | . 6 .\n"
      ". . . | . 8 . | 4 . .\n"
      ". . . | . 1 . | . . .\n"
      "------+-------+------\n"
      ". . . | 6 . 3 | . 7 .\n"
      "5 . . | 2 . . | . . .\n"
      "1 . 4 | . . . | . . .\n";
  sudoku_grid c = parse_ok(drawn);
  assert_memory_equal(a.cell, c.cell, 81);
  /* 4x4 and 16x16, letters in either case */
  sudoku_grid d = parse_ok("1...3.12430 1...3");
  assert_int_equal(d.size, 4);
  assert_int_equal(d.cell[6], 1);
  assert_int_equal(d.cell[11], 1);
  char big[257];
  for (int i = 0; i < 256; i++) big[i] = '.';
  big[256] = '\0';
  big[0] = 'G';
  big[1] = 'a';
  big[2] = '9';
  sudoku_grid e = parse_ok(big);
  assert_int_equal(e.size, 16);
  assert_int_equal(e.cell[0], 16);
  assert_int_equal(e.cell[1], 10);
  assert_int_equal(e.cell[2], 9);
}

static void test_parse_errors(void **unused) {
  (void)unused;
  sudoku_grid g;
  sudoku_parse_error err;
  char text[700];
  /* 80 cells */
  memset(text, '.', 80);
  assert_int_equal(sudoku_parse(text, 80, NULL, &g, &err), SUDOKU_ECOUNT);
  assert_int_equal(err.cells, 80);
  assert_int_equal(sudoku_parse("", 0, NULL, &g, &err), SUDOKU_ECOUNT);
  assert_int_equal(err.cells, 0);
  /* a stray byte, reported where it is */
  memset(text, '.', 81);
  text[40] = '*';
  assert_int_equal(sudoku_parse(text, 81, NULL, &g, &err), SUDOKU_ESYMBOL);
  assert_int_equal(err.at, 40);
  /* a value past the side: 'A' is 10 on a 9x9, 'Q' is 26 everywhere */
  memset(text, '.', 81);
  text[17] = 'a';
  assert_int_equal(sudoku_parse(text, 81, NULL, &g, &err), SUDOKU_ERANGE);
  assert_int_equal(err.at, 17);
  assert_int_equal(err.cell, 17);
  assert_int_equal(err.value, 10);
  assert_int_equal(err.size, 9);
  memset(text, '.', 625);
  text[600] = 'Q';
  assert_int_equal(sudoku_parse(text, 625, NULL, &g, &err), SUDOKU_ERANGE);
  assert_int_equal(err.value, 26);
  assert_int_equal(err.size, 25);
  /* the length given counts, not a terminating zero */
  memset(text, '1', 16);
  assert_int_equal(sudoku_parse(text, 15, NULL, &g, &err), SUDOKU_ECOUNT);
  assert_int_equal(err.cells, 15);
}

static void test_parse_alphabet(void **unused) {
  (void)unused;
  /* 0-F: '0' is a value, only '.' is empty */
  char text[257];
  for (int i = 0; i < 256; i++) text[i] = '.';
  text[256] = '\0';
  text[0] = '0';
  text[1] = 'f';
  text[2] = '1';
  sudoku_grid g;
  sudoku_parse_error err;
  assert_int_equal(sudoku_parse(text, 256, "0123456789ABCDEF", &g, &err),
                   SUDOKU_OK);
  assert_int_equal(g.cell[0], 1);
  assert_int_equal(g.cell[1], 16);
  assert_int_equal(g.cell[2], 2);
  text[3] = 'G';
  assert_int_equal(sudoku_parse(text, 256, "0123456789ABCDEF", &g, &err),
                   SUDOKU_ESYMBOL);
  assert_int_equal(err.at, 3);
}

/* sudoku_read: symbols guessed or given, and they must fit the side; a
   puzzle drawn with its boxes reads back as itself. */
static void test_read(void **unused) {
  (void)unused;
  sudoku_puzzle p, back;
  char message[256], text[SUDOKU_MAX_CELLS + 1];
  assert_int_equal(sudoku_read("...............d", 16, "abcd", 0, 0, &p, message,
                               sizeof message), SUDOKU_OK);
  assert_int_equal(p.grid.cell[15], 4);
  assert_string_equal(p.symbols, "abcd");
  /* four symbols on a 9x9 once let a puzzle read past them */
  memset(text, '.', 81);
  assert_int_equal(sudoku_read(text, 81, "1234", 0, 0, &p, message, sizeof message),
                   SUDOKU_EALPHABET);
  assert_string_equal(message, "symbols '1234' has 4 symbols, but a 9x9 needs 9");
  sudoku_grid g;
  sudoku_init(&g, 9);
  assert_int_equal(sudoku_make_puzzle(&g, "1234", &p, message, sizeof message),
                   SUDOKU_EALPHABET);
  /* letters fold, so 'a' and 'A' cannot both be symbols */
  assert_false(sudoku_symbols_ok("abcA", 4));
  assert_true(sudoku_symbols_ok("abcd", 4));
  assert_false(sudoku_symbols_ok("abc", 3));
  assert_false(sudoku_symbols_ok("ab.d", 4));
  /* 0-F guessed when '0' is a value, named in the clash message */
  memset(text, '.', 256);
  text[0] = text[1] = '0';
  assert_int_equal(sudoku_read(text, 256, NULL, 0, 0, &p, message, sizeof message),
                   SUDOKU_ECLASH);
  assert_string_equal(message, "r1c1 and r1c2 are both 0 (row 1)");
  text[1] = 'F';
  assert_int_equal(sudoku_read(text, 256, NULL, 0, 0, &p, message, sizeof message),
                   SUDOKU_OK);
  assert_string_equal(p.symbols, "0123456789ABCDEF");
  char drawn[2048];
  size_t len = sudoku_draw(&p, drawn, sizeof drawn);
  assert_int_equal(len, strlen(drawn));
  assert_int_equal(sudoku_read(drawn, len, p.symbols, 0, 0, &back, message,
                               sizeof message), SUDOKU_OK);
  assert_true(sudoku_same(&back.grid, &p.grid));
  assert_int_equal(sudoku_write(&p, text, sizeof text), 256);
  assert_int_equal(text[1], 'F');
}

static void test_format(void **unused) {
  (void)unused;
  const char *line =
      "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D.B.E13.6.D........7A...8BC3....954.";
  sudoku_grid g = parse_ok(line);
  char out[SUDOKU_MAX_CELLS + 1];
  assert_int_equal(sudoku_format(&g, out, sizeof out), 256);
  assert_string_equal(out, line);
  /* as snprintf: the length it needed, cut to fit */
  char small[10];
  assert_int_equal(sudoku_format(&g, small, sizeof small), 256);
  assert_string_equal(small, "D92.....G");
  assert_int_equal(sudoku_symbol(0), '.');
  assert_int_equal(sudoku_symbol(25), 'P');
  assert_int_equal(sudoku_symbol(35), 'Z');
  assert_int_equal(sudoku_symbol(36), '?');
}

static void test_shapes(void **unused) {
  (void)unused;
  int rows, cols;
  static const int sides[][3] = {{4, 2, 2}, {6, 2, 3}, {8, 2, 4}, {10, 2, 5},
                                 {12, 3, 4}, {15, 3, 5}, {20, 4, 5},
                                 {36, 6, 6}, {64, 8, 8}};
  for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++) {
    assert_true(sudoku_default_box(sides[i][0], &rows, &cols));
    assert_int_equal(rows, sides[i][1]);
    assert_int_equal(cols, sides[i][2]);
  }
  assert_false(sudoku_size_ok(7));
  assert_false(sudoku_size_ok(65));
  assert_true(sudoku_shape_ok(7, 1, 7));
  assert_false(sudoku_shape_ok(9, 2, 4));
  /* a clash inside a 2x3 box that a 3x2 box would not see */
  sudoku_grid g = parse_ok("1.......1" "...........................");
  assert_int_equal(g.size, 6);
  sudoku_clash clash;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ECLASH);
  assert_int_equal(clash.row2, 1);
  assert_int_equal(clash.col2, 2);
  g.box_rows = 3;
  g.box_cols = 2;
  assert_int_equal(sudoku_check_givens(&g, NULL), SUDOKU_OK);
  g.box_rows = 4;
  assert_int_equal(sudoku_check_givens(&g, NULL), SUDOKU_ESIZE);
  /* a 36x36 in numbers, through sudoku_format and back */
  static char text[4 * SUDOKU_MAX_CELLS];
  sudoku_init(&g, 36);
  g.cell[0] = 36;
  g.cell[1295] = 7;
  size_t len = sudoku_format(&g, text, sizeof text);
  assert_int_equal(len, strlen(text));
  assert_memory_equal(text, "36 . .", 6);
  sudoku_puzzle p;
  char message[256];
  assert_int_equal(sudoku_read(text, len, NULL, 0, 0, &p, message,
                               sizeof message), SUDOKU_OK);
  assert_true(sudoku_same(&p.grid, &g));
  assert_string_equal(p.symbols, "");
  assert_int_equal(sudoku_read(text, len, NULL, 4, 8, &p, message,
                               sizeof message), SUDOKU_ESIZE);
  assert_string_equal(message, "boxes of 4x8 do not make a 36x36 (4 x 8 must be 36)");
  assert_int_equal(sudoku_read(text, len, NULL, 4, 9, &p, message,
                               sizeof message), SUDOKU_OK);
  assert_int_equal(p.grid.box_rows, 4);
  assert_int_equal(sudoku_count(&p.grid, 1, NULL), 1);
  /* a 9x9 of boxes other than 3x3 is not the 9x9 engine's: without its
     boxes a unique puzzle has other solutions (a Latin square's) */
  sudoku_grid nine = parse_ok("4.....8.5.3..........7......2.....6....."
                              "8.4......1.......6.3.7.5..2.....1.4......");
  assert_int_equal(sudoku_count(&nine, 2, NULL), 1);
  nine.box_rows = nine.box_cols = 3;
  assert_int_equal(sudoku_count(&nine, 2, NULL), 1);
  nine.box_rows = 1;
  nine.box_cols = 9;
  assert_int_equal(sudoku_count(&nine, 2, NULL), 2);
  nine.box_rows = 9;
  nine.box_cols = 1;
  assert_int_equal(sudoku_count(&nine, 2, NULL), 2);
}

/* ---- givens ---- */

static void test_clashes(void **unused) {
  (void)unused;
  sudoku_clash clash;
  sudoku_grid g;
  sudoku_init(&g, 9);
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_OK);
  /* r1c3 and r1c7 are both 5 */
  g.cell[2] = 5;
  g.cell[6] = 5;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ECLASH);
  assert_int_equal(clash.row1, 0);
  assert_int_equal(clash.col1, 2);
  assert_int_equal(clash.row2, 0);
  assert_int_equal(clash.col2, 6);
  assert_int_equal(clash.value, 5);
  assert_int_equal(sudoku_count(&g, 0, NULL), 0);
  /* a column */
  sudoku_init(&g, 9);
  g.cell[4 * 9 + 8] = 7;
  g.cell[8 * 9 + 8] = 7;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ECLASH);
  assert_int_equal(clash.row1, 4);
  assert_int_equal(clash.col1, 8);
  assert_int_equal(clash.row2, 8);
  assert_int_equal(clash.col2, 8);
  assert_int_equal(clash.value, 7);
  /* a box only, on 16x16 */
  sudoku_init(&g, 16);
  g.cell[1 * 16 + 5] = 12;
  g.cell[3 * 16 + 6] = 12;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ECLASH);
  assert_int_equal(clash.row1, 1);
  assert_int_equal(clash.col1, 5);
  assert_int_equal(clash.row2, 3);
  assert_int_equal(clash.col2, 6);
  assert_int_equal(clash.value, 12);
  /* values past the side, and sides that are no Sudoku */
  sudoku_init(&g, 4);
  g.cell[7] = 5;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ERANGE);
  assert_int_equal(clash.row1, 1);
  assert_int_equal(clash.col1, 3);
  assert_int_equal(clash.value, 5);
  assert_int_equal(sudoku_count(&g, 0, NULL), 0);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  assert_int_equal(sudoku_solve(&g, &s), SUDOKU_ERANGE);
  g.size = 8;
  assert_int_equal(sudoku_check_givens(&g, &clash), SUDOKU_ESIZE);
  assert_int_equal(sudoku_solve(&g, &s), SUDOKU_ESIZE);
  g.size = 36;
  assert_int_equal(sudoku_count(&g, 0, NULL), 0);
}

static void test_candidates(void **unused) {
  (void)unused;
  static const int seed[16] = {1, 0, 0, 0, 3, 0, 1, 2, 4, 3, 0, 1, 0, 0, 0, 3};
  sudoku_grid g = from_values(4, seed);
  sudoku_mask masks[SUDOKU_MAX_CELLS];
  assert_true(sudoku_candidates(&g, masks));
  assert_int_equal(masks[0], 1);          /* the given 1 */
  assert_int_equal(masks[1], (1u << 1) | (1u << 3));  /* r1c2: 2 or 4 */
  assert_int_equal(masks[5], 1u << 3);    /* r2c2: 4 alone */
  assert_int_equal(masks[15], 1u << 2);   /* the given 3 */
  assert_int_equal(masks[12], 1u << 1);   /* r4c1: 2 alone */
  assert_int_equal(masks[14], (1u << 1) | (1u << 3));  /* r4c3: 2 or 4 */
  g.cell[1] = 1;
  assert_false(sudoku_candidates(&g, masks));
}

/* ---- solving ---- */

/* The seed's 4x4: one solution; without its first clue, two; the empty
   grid has 288 (the number of 4x4 Sudoku grids). */
static void test_seed_4x4(void **unused) {
  (void)unused;
  static const int seed[16] = {1, 0, 0, 0, 3, 0, 1, 2, 4, 3, 0, 1, 0, 0, 0, 3};
  static const int answer[16] = {1, 2, 3, 4, 3, 4, 1, 2, 4, 3, 2, 1, 2, 1, 4, 3};
  for (int general = 0; general <= 1; general++) {
    sudoku_grid g = from_values(4, seed), solution;
    counted c = count(&g, 0, general, &solution);
    assert_int_equal(c.solutions, 1);
    assert_true(c.complete);
    for (int i = 0; i < 16; i++) assert_int_equal(solution.cell[i], answer[i]);
    g.cell[0] = 0;
    c = count(&g, 0, general, &solution);
    assert_int_equal(c.solutions, 2);
    assert_true(c.complete);
    sudoku_init(&g, 4);
    c = count(&g, 0, general, &solution);
    assert_int_equal(c.solutions, 288);
    assert_true(c.complete);
    /* a limit stops the count there, and says it did */
    c = count(&g, 10, general, NULL);
    assert_int_equal(c.solutions, 10);
    assert_false(c.complete);
  }
}

static bool count_distinct(const sudoku_grid *solution, void *context) {
  sudoku_grid *seen = context;
  int n = 0;
  while (seen[n].size) {
    if (!memcmp(seen[n].cell, solution->cell, sizeof solution->cell))
      fail_msg("solution %d reported twice", n);
    n++;
  }
  assert_true(n < 300);
  seen[n] = *solution;
  return false;
}

/* Every solution reported once, each a solution. */
static void test_visit_all(void **unused) {
  (void)unused;
  static sudoku_grid seen[301];
  for (int general = 0; general <= 1; general++) {
    memset(seen, 0, sizeof seen);
    sudoku_grid g;
    sudoku_init(&g, 4);
    sudoku_search s;
    memset(&s, 0, sizeof s);
    s.visit = count_distinct;
    s.context = seen;
    s.general = general;
    assert_int_equal(sudoku_solve(&g, &s), SUDOKU_OK);
    assert_int_equal(s.solutions, 288);
    for (int i = 0; i < 288; i++) assert_true(sudoku_is_solution(&seen[i], &g));
  }
}

static void test_solutions_cap(void **unused) {
  (void)unused;
  static const int two[16] = {0, 0, 0, 0, 3, 0, 1, 2, 4, 3, 0, 1, 0, 0, 0, 3};
  sudoku_grid g = from_values(4, two), out[5];
  assert_int_equal(sudoku_solutions(&g, out, 5), 2);
  assert_true(sudoku_is_solution(&out[0], &g));
  assert_true(sudoku_is_solution(&out[1], &g));
  assert_memory_not_equal(out[0].cell, out[1].cell, 16);
  assert_int_equal(sudoku_solutions(&g, out, 1), 1);
  assert_int_equal(sudoku_solutions(&g, out, 0), 0);
  /* 9x9, 16x16 and 25x25 empty grids: as many as asked */
  static sudoku_grid many[3];
  for (int size = 9; size <= 25; size += size == 9 ? 7 : 9) {
    sudoku_init(&g, size);
    assert_int_equal(sudoku_solutions(&g, many, 3), 3);
    for (int i = 0; i < 3; i++) assert_true(sudoku_is_solution(&many[i], &g));
    assert_memory_not_equal(many[0].cell, many[1].cell, (size_t)(size * size));
    assert_memory_not_equal(many[1].cell, many[2].cell, (size_t)(size * size));
    assert_memory_not_equal(many[0].cell, many[2].cell, (size_t)(size * size));
  }
}

/* A node budget stops a count that would take forever. */
static void test_limit_stops(void **unused) {
  (void)unused;
  sudoku_grid g;
  sudoku_init(&g, 16);
  search_limit limit = {0};
  limit.max_nodes = 2000;
  limit_start(&limit);
  sudoku_search s;
  memset(&s, 0, sizeof s);
  s.limit = &limit;
  assert_int_equal(sudoku_solve(&g, &s), SUDOKU_OK);
  assert_false(s.complete);
  assert_true(s.solutions > 0);
  assert_string_equal(limit_reason(&limit), "nodes");
  /* an interrupt, already raised */
  volatile sig_atomic_t flag = 1;
  search_limit stop = {0};
  stop.interrupt = &flag;
  limit_start(&stop);
  sudoku_init(&g, 9);
  memset(&s, 0, sizeof s);
  s.limit = &stop;
  assert_int_equal(sudoku_solve(&g, &s), SUDOKU_OK);
  assert_false(s.complete);
  assert_string_equal(limit_reason(&stop), "interrupted");
}

/* The first count puzzles of a 9x9 set: each has exactly one solution,
   which both engines find. */
static void check_unique_set(const char *name, int n, int general_every) {
  data_file d;
  data_open(&d, name);
  int done = 0;
  for (const char *line; done < n && (line = data_next(&d));) {
    sudoku_grid g = parse_ok(line), a, b;
    counted c = count(&g, 2, false, &a);
    if (c.solutions != 1 || !c.complete)
      fail_msg("%s line %d: %d solutions, expected 1", name, d.number,
               (int)c.solutions);
    if (done % general_every == 0) {
      counted e = count(&g, 2, true, &b);
      assert_int_equal(e.solutions, 1);
      assert_memory_equal(a.cell, b.cell, 81);
    }
    done++;
  }
  data_close(&d);
  assert_int_equal(done, n);
}

static void test_17_clue(void **unused) {
  (void)unused;
  check_unique_set("puzzles2_17_clue", 500, 5);
}

static void test_magictour(void **unused) {
  (void)unused;
  check_unique_set("puzzles3_magictour_top1465", 300, 5);
}

static void test_forum_hardest(void **unused) {
  (void)unused;
  check_unique_set("puzzles5_forum_hardest_1905_11+", 200, 5);
  check_unique_set("puzzles6_forum_hardest_1106", 100, 5);
}

/* Exact counts (puzzle:count:solution-if-unique), both engines. */
static void test_serg_counts(void **unused) {
  (void)unused;
  data_file d;
  data_open(&d, "puzzles7_serg_counts");
  int done = 0;
  for (const char *line; done < 200 && (line = data_next(&d));) {
    const char *colon = strchr(line, ':');
    assert_non_null(colon);
    sudoku_grid g, first;
    sudoku_parse_error err;
    assert_int_equal(sudoku_parse(line, (size_t)(colon - line), NULL, &g, &err),
                     SUDOKU_OK);
    uint64_t expected = strtoull(colon + 1, NULL, 10);
    for (int general = 0; general <= 1; general++) {
      counted c = count(&g, 0, general, &first);
      if (c.solutions != expected || !c.complete)
        fail_msg("serg line %d (%s engine): %llu solutions, expected %llu",
                 d.number, general ? "general" : "9x9",
                 (unsigned long long)c.solutions, (unsigned long long)expected);
      /* a limit above the count changes nothing */
      c = count(&g, expected + 1, general, NULL);
      assert_int_equal(c.solutions, expected);
      assert_true(c.complete);
    }
    if (expected == 1) {
      const char *solution = strchr(colon + 1, ':');
      assert_non_null(solution);
      sudoku_grid want = parse_ok(solution + 1);
      assert_memory_equal(want.cell, first.cell, 81);
    }
    done++;
  }
  data_close(&d);
  assert_int_equal(done, 200);
}

static void check_big_set(const char *name, int n) {
  data_file d;
  data_open(&d, name);
  int done = 0;
  for (const char *line; done < n && (line = data_next(&d));) {
    sudoku_grid g = parse_ok(line), solution;
    counted c = count(&g, 2, false, &solution);
    if (c.solutions != 1 || !c.complete)
      fail_msg("%s line %d: %d solutions, expected 1", name, d.number,
               (int)c.solutions);
    done++;
  }
  data_close(&d);
  assert_int_equal(done, n);
}

static void test_16x16(void **unused) {
  (void)unused;
  check_big_set("big/gecode_16x16_janko55.txt", 55);
}

/* The lightest (each under half a second: lines 2, 3, 14, 17 and 18 of
   the file); the rest are in the benchmark.  #2, #3 and #14 meet from
   2,500 to 9,500 conflicts, so the learnt clauses are thinned (and the
   clauses left slid down, their watches and reasons with them) once to
   three times on the way. */
static void test_25x25(void **unused) {
  (void)unused;
  static const int light[] = {2, 3, 14, 17, 18};
  data_file d;
  data_open(&d, "big/gecode_25x25_frisch16.txt");
  int done = 0, index = 0;
  for (const char *line; (line = data_next(&d));) {
    index++;
    bool wanted = false;
    for (size_t i = 0; i < sizeof light / sizeof light[0]; i++)
      wanted = wanted || light[i] == index;
    if (!wanted) continue;
    sudoku_grid g = parse_ok(line), solution;
    counted c = count(&g, 2, false, &solution);
    if (c.solutions != 1 || !c.complete)
      fail_msg("25x25 #%d: %d solutions, expected 1", index, (int)c.solutions);
    done++;
  }
  data_close(&d);
  assert_int_equal(done, 5);
}

/* A solved 25x25 grid with a rectangle of two values over two boxes
   emptied has exactly two solutions, the values either way round: the
   count must find both and then prove there is no third. */
static void test_25x25_two_solutions(void **unused) {
  (void)unused;
  data_file d;
  data_open(&d, "big/gecode_25x25_frisch16.txt");
  const char *line = NULL;
  for (int i = 0; i < 18; i++) line = data_next(&d);
  assert_non_null(line);
  sudoku_grid g = parse_ok(line), full;
  data_close(&d);
  assert_int_equal(count(&g, 1, false, &full).solutions, 1);
  int n = 25, found = 0;
  for (int r1 = 0; r1 < n && !found; r1++)
    for (int r2 = r1 + 1; r2 < r1 / 5 * 5 + 5 && !found; r2++)
      for (int c1 = 0; c1 < n && !found; c1++)
        for (int c2 = (c1 / 5 + 1) * 5; c2 < n && !found; c2++)
          if (full.cell[r1 * n + c1] == full.cell[r2 * n + c2] &&
              full.cell[r1 * n + c2] == full.cell[r2 * n + c1]) {
            g = full;
            g.cell[r1 * n + c1] = g.cell[r1 * n + c2] = 0;
            g.cell[r2 * n + c1] = g.cell[r2 * n + c2] = 0;
            found = 1;
          }
  assert_true(found);
  counted c = count(&g, 3, false, NULL);
  assert_int_equal(c.solutions, 2);
  assert_true(c.complete);
  static sudoku_grid two[3];
  assert_int_equal(sudoku_solutions(&g, two, 3), 2);
  assert_true(sudoku_is_solution(&two[0], &g));
  assert_true(sudoku_is_solution(&two[1], &g));
  assert_memory_not_equal(two[0].cell, two[1].cell, 625);
}

/* From 26x26 to 36x36 clause learning counts where no solution is read
   (and the generator asks it whether a solution differs), once the
   general solver has spent 100 guesses: its counts must be the general
   solver's alone.  Puzzles from a solved 36x36 with 600
   cells emptied have a hundred to some thousands of solutions, and the
   learning meets hundreds of conflicts there; a rectangle of two values
   over two boxes emptied, exactly two. */
/* Takes n givens away from g, at cells drawn from the generator *x. */
static void take_away(sudoku_grid *g, int n, uint32_t *x) {
  int cells = g->size * g->size;
  for (int k = 0; k < n;) {
    *x = *x * 1103515245u + 12345u;
    int cell = (int)(*x >> 8) % cells;
    if (g->cell[cell]) {
      g->cell[cell] = 0;
      k++;
    }
  }
}

static bool count_each(const sudoku_grid *solution, void *context) {
  (void)solution;
  (*(uint64_t *)context)++;
  return false;
}

/* Past 64 solutions a count on 25x25 goes from clause learning to the
   general solver, from the start; a search that reads its solutions
   stays with clause learning.  All three count the same. */
static void test_25x25_many_solutions(void **unused) {
  (void)unused;
  sudoku_generate_options o = {.size = 25, .seed = 1, .clues = 625};
  static sudoku_grid full, fewer;
  assert_int_equal(sudoku_generate(&o, &full), SUDOKU_OK);
  uint32_t x = 777;
  int over = 0;
  for (int round = 0; round < 4; round++) {
    fewer = full;
    take_away(&fewer, 290 + 4 * round, &x);
    counted general = count(&fewer, 5000, true, NULL);
    if (!general.complete) continue;              /* too many for a test */
    counted handed = count(&fewer, 0, false, NULL);
    uint64_t seen = 0;
    sudoku_search s;
    memset(&s, 0, sizeof s);
    s.visit = count_each;
    s.context = &seen;
    assert_int_equal(sudoku_solve(&fewer, &s), SUDOKU_OK);
    assert_true(handed.complete && s.complete);
    assert_int_equal(handed.solutions, general.solutions);
    assert_int_equal(s.solutions, general.solutions);
    assert_int_equal(seen, general.solutions);
    over += general.solutions > 64;
  }
  assert_true(over >= 1);
}

static void test_36x36_learning(void **unused) {
  (void)unused;
  sudoku_generate_options o = {.size = 36, .seed = 1, .clues = 1000};
  static sudoku_grid g, full, fewer;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
  assert_int_equal(count(&g, 2, false, &full).solutions, 1);
  int learnt = 0;
  uint32_t x = 12345;
  for (int round = 0; round < 4; round++) {
    fewer = full;
    take_away(&fewer, 600, &x);
    sudoku_search s;
    memset(&s, 0, sizeof s);
    assert_int_equal(sudoku_solve(&fewer, &s), SUDOKU_OK);
    counted general = count(&fewer, 0, false, &g);
    assert_true(s.complete && general.complete);
    assert_int_equal(s.solutions, general.solutions);
    /* past the general solver's 100 guesses the learning counts */
    learnt += s.guesses > 100 && s.conflicts > 0;
  }
  assert_true(learnt >= 2);
  int n = 36, found = 0, at[4] = {0};
  for (int r1 = 0; r1 < n && !found; r1++)
    for (int r2 = r1 + 1; r2 < r1 / 6 * 6 + 6 && !found; r2++)
      for (int c1 = 0; c1 < n && !found; c1++)
        for (int c2 = (c1 / 6 + 1) * 6; c2 < n && !found; c2++)
          if (full.cell[r1 * n + c1] == full.cell[r2 * n + c2] &&
              full.cell[r1 * n + c2] == full.cell[r2 * n + c1]) {
            at[0] = r1 * n + c1, at[1] = r1 * n + c2;
            at[2] = r2 * n + c1, at[3] = r2 * n + c2;
            found = 1;
          }
  assert_true(found);
  fewer = full;
  for (int i = 0; i < 4; i++) fewer.cell[at[i]] = 0;
  counted c = count(&fewer, 3, false, NULL);
  assert_int_equal(c.solutions, 2);
  assert_true(c.complete);
  /* the generator's question: a solution other than full at at[0]; then
     with the other way round taken away too, none */
  static sudoku_rules rules;
  sudoku_rules_init(&rules, 36);
  rules.allowed[at[0]] &= ~((sudoku_mask)1 << (full.cell[at[0]] - 1));
  /* the generator asks so: no solution read, the known one tried first */
  sudoku_search s = searched(&fewer, 2, false, NULL, &rules, &full);
  assert_int_equal(s.solutions, 1);
  assert_true(s.complete);
  rules.allowed[at[0]] &= ~((sudoku_mask)1 << (full.cell[at[1]] - 1));
  s = searched(&fewer, 2, false, NULL, &rules, &full);
  assert_int_equal(s.solutions, 0);
  assert_true(s.complete);
}

/* ---- generating ---- */

static int givens(const sudoku_grid *g) {
  int n = 0;
  for (int i = 0; i < g->size * g->size; i++) n += g->cell[i] != 0;
  return n;
}

/* Exactly one solution, and every given needed. */
static void check_minimal(const sudoku_grid *g) {
  assert_int_equal(sudoku_count(g, 2, NULL), 1);
  for (int i = 0; i < g->size * g->size; i++) {
    if (!g->cell[i]) continue;
    sudoku_grid fewer = *g;
    fewer.cell[i] = 0;
    if (sudoku_count(&fewer, 2, NULL) != 2)
      fail_msg("size %d: given %d can go", g->size, i);
  }
}

static void test_generate(void **unused) {
  (void)unused;
  static const struct { int size, seeds; } plan[] = {{4, 12}, {9, 12}, {16, 1}};
  for (int k = 0; k < 3; k++)
    for (int seed = 1; seed <= plan[k].seeds; seed++) {
      sudoku_generate_options o = {0};
      o.size = plan[k].size;
      o.seed = (uint64_t)seed;
      sudoku_grid a, b;
      assert_int_equal(sudoku_generate(&o, &a), SUDOKU_OK);
      assert_int_equal(a.size, plan[k].size);
      check_minimal(&a);
      /* the same seed, the same puzzle; the next seed, another */
      assert_int_equal(sudoku_generate(&o, &b), SUDOKU_OK);
      assert_true(sudoku_same(&a, &b));
      o.seed++;
      assert_int_equal(sudoku_generate(&o, &b), SUDOKU_OK);
      if (plan[k].size > 4)
        assert_false(sudoku_same(&a, &b));
    }
}

/* Past 49x49 the full grid is built, not searched for: every side's grid
   is one, the puzzles are unique and seeded.  From 16x16 up the
   generator asks whether a solution differs where a given went, and
   symmetric pairs are asked about both cells. */
static void test_generate_large(void **unused) {
  (void)unused;
  static const int sides[] = {50, 56, 58, 60, 63, 64};
  for (int k = 0; k < 6; k++) {
    sudoku_generate_options o = {0};
    o.size = sides[k];
    o.seed = 3;
    o.clues = sides[k] * sides[k] - 30;
    sudoku_grid a, b, solution;
    assert_int_equal(sudoku_generate(&o, &a), SUDOKU_OK);
    assert_int_equal(givens(&a), o.clues);
    assert_int_equal(sudoku_count(&a, 2, &solution), 1);
    assert_true(sudoku_is_solution(&solution, &a));
    assert_int_equal(sudoku_generate(&o, &b), SUDOKU_OK);
    assert_true(sudoku_same(&a, &b));
    o.seed = 4;
    assert_int_equal(sudoku_generate(&o, &b), SUDOKU_OK);
    assert_false(sudoku_same(&a, &b));
  }
  sudoku_generate_options o = {0};
  o.size = 16;
  o.seed = 5;
  o.symmetric = true;
  sudoku_grid g;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
  assert_int_equal(sudoku_count(&g, 2, NULL), 1);
  for (int i = 0; i < 256; i++) {
    assert_int_equal(g.cell[i] != 0, g.cell[255 - i] != 0);
    if (!g.cell[i] || i > 255 - i) continue;
    sudoku_grid fewer = g;
    fewer.cell[i] = fewer.cell[255 - i] = 0;
    assert_int_equal(sudoku_count(&fewer, 2, NULL), 2);
  }
}

/* From 25x25 up a first pass takes away the givens that the general
   solver's logic does without; the exact pass after it still leaves a
   minimal puzzle, symmetric when asked, never under the floor. */
static void test_generate_25x25(void **unused) {
  (void)unused;
  sudoku_generate_options o = {0};
  o.size = 25;
  /* a seed whose minimal puzzle comes quickly (1.4 s, where seed 4's
     takes 29 s): which seeds those are follows the first full grid that
     clause learning finds, and changes with it */
  o.seed = 5;
  o.minimal = true;
  static sudoku_grid g, fewer, solution;
  static sudoku_rules rules;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
  assert_int_equal(sudoku_count(&g, 2, &solution), 1);
  /* every given needed: without it a solution has another value there
     (check_minimal's question, asked as the generator asks it, which is
     three times faster than counting here) */
  for (int i = 0; i < 625; i++) {
    if (!g.cell[i]) continue;
    fewer = g;
    fewer.cell[i] = 0;
    sudoku_rules_init(&rules, 25);
    rules.allowed[i] &= ~((sudoku_mask)1 << (g.cell[i] - 1));
    if (searched(&fewer, 1, false, NULL, &rules, &solution).solutions != 1)
      fail_msg("given %d can go", i);
  }
  o.minimal = false;
  o.symmetric = true;
  o.clues = 401;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
  assert_int_equal(sudoku_count(&g, 2, NULL), 1);
  assert_true(givens(&g) == 401 || givens(&g) == 402);
  for (int i = 0; i < 625; i++)
    assert_int_equal(g.cell[i] != 0, g.cell[624 - i] != 0);
}

static void test_generate_options(void **unused) {
  (void)unused;
  for (int seed = 1; seed <= 6; seed++) {
    sudoku_generate_options o = {0};
    o.size = 9;
    o.seed = (uint64_t)seed;
    o.symmetric = true;
    sudoku_grid g;
    assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
    assert_int_equal(sudoku_count(&g, 2, NULL), 1);
    for (int i = 0; i < 81; i++)
      assert_int_equal(g.cell[i] != 0, g.cell[80 - i] != 0);
    /* no symmetric pair can go */
    for (int i = 0; i <= 40; i++) {
      if (!g.cell[i]) continue;
      sudoku_grid fewer = g;
      fewer.cell[i] = fewer.cell[80 - i] = 0;
      assert_int_equal(sudoku_count(&fewer, 2, NULL), 2);
    }
    /* a number of clues: stops there, still unique */
    o.symmetric = false;
    o.clues = 40;
    assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
    assert_int_equal(givens(&g), 40);
    assert_int_equal(sudoku_count(&g, 2, NULL), 1);
    /* minimal overrides clues */
    o.minimal = true;
    assert_int_equal(sudoku_generate(&o, &g), SUDOKU_OK);
    assert_true(givens(&g) < 40);
    check_minimal(&g);
  }
  sudoku_generate_options o = {0};
  sudoku_grid g;
  o.size = 7;                   /* prime: no boxes */
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_ESIZE);
  o.size = 65;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_ESIZE);
  o.size = 12;
  o.box_rows = 5;               /* 5 x 2 is not 12 */
  o.box_cols = 2;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_ESIZE);
  o.box_rows = o.box_cols = 0;
  /* Ctrl-C, already pressed */
  volatile sig_atomic_t flag = 1;
  search_limit stop = {0};
  stop.interrupt = &flag;
  limit_start(&stop);
  o.size = 16;
  o.limit = &stop;
  assert_int_equal(sudoku_generate(&o, &g), SUDOKU_ESTOPPED);
}

/* ---- hints ---- */

static const char *hint_text(const sudoku_grid *g, const sudoku_hint *h) {
  static char text[4096];
  sudoku_hint_text(g, h, NULL, text, sizeof text);
  return text;
}

static void test_hint_kinds(void **unused) {
  (void)unused;
  sudoku_hint h;
  sudoku_grid g = parse_ok(
      "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......");
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
  assert_int_equal(h.kind, SUDOKU_HINT_PLACE);
  /* 4 is in column 1 (r1c1), column 3 (r9c3) and row 5 (r5c7) */
  assert_string_equal(hint_text(&g, &h),
                      "r6c2 must be 4: it is the only place for 4 in box 4");
  /* a cell whose row and column hold every value */
  g = parse_ok("12345678.........9" "...............................................................");
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
  assert_int_equal(h.kind, SUDOKU_HINT_BROKEN);
  assert_string_equal(hint_text(&g, &h), "r1c9 has no value left");
  /* the seed's 4x4: r2c2 is left only 4 */
  g = parse_ok("1...3.1243.1...3");
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
  assert_int_equal(h.kind, SUDOKU_HINT_PLACE);
  assert_int_equal(h.value, h.cell == 5 ? 4 : h.value);
  /* solved, empty, clashing */
  sudoku_count(&g, 1, &g);
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
  assert_int_equal(h.kind, SUDOKU_HINT_SOLVED);
  sudoku_init(&g, 9);
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
  assert_int_equal(h.kind, SUDOKU_HINT_STUCK);
  g.cell[0] = g.cell[1] = 3;
  assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_ECLASH);
}

/* Hints followed to the end: each placement is the solution's value, and
   no elimination on the way takes a cell's solution value away. */
static void follow_hints(sudoku_grid g, int uses[6], bool *stuck) {
  sudoku_grid solution;
  assert_int_equal(sudoku_count(&g, 2, &solution), 1);
  int size = g.size;
  for (;;) {
    sudoku_hint h;
    assert_int_equal(sudoku_find_hint(&g, &h), SUDOKU_OK);
    if (h.kind != SUDOKU_HINT_PLACE) {
      assert_int_not_equal(h.kind, SUDOKU_HINT_BROKEN);
      *stuck = h.kind == SUDOKU_HINT_STUCK;
      return;
    }
    if (solution.cell[h.cell] != h.value)
      fail_msg("wrong hint: %s", hint_text(&g, &h));
    uses[h.technique]++;
    for (int i = 0; i < h.steps && i < SUDOKU_HINT_STEPS; i++) {
      const sudoku_step *s = &h.step[i];
      uses[s->technique]++;
      assert_true(s->removed_count > 0);
      for (int j = 0; j < s->removed_count; j++) {
        int cell = s->removed[j];
        if (s->removed_values >> (solution.cell[cell] - 1) & 1)
          fail_msg("r%dc%d lost its value: %s", cell / size + 1,
                   cell % size + 1, hint_text(&g, &h));
      }
    }
    g.cell[h.cell] = (uint8_t)h.value;
  }
}

static void test_hints_follow_solution(void **unused) {
  (void)unused;
  int uses[6] = {0}, stuck = 0, n = 0;
  const char *sets[] = {"puzzles2_17_clue", "puzzles3_magictour_top1465"};
  for (int k = 0; k < 2; k++) {
    data_file d;
    data_open(&d, sets[k]);
    for (const char *line; n < 150 * (k + 1) && (line = data_next(&d)); n++) {
      bool was_stuck;
      follow_hints(parse_ok(line), uses, &was_stuck);
      stuck += was_stuck;
    }
    data_close(&d);
  }
  data_file d;
  data_open(&d, "big/gecode_16x16_janko55.txt");
  for (int i = 0; i < 3; i++) {
    bool was_stuck;
    follow_hints(parse_ok(data_next(&d)), uses, &was_stuck);
  }
  data_close(&d);
  /* every technique was needed somewhere; most 17-clue puzzles fall to
     them, few of the magictour ones do */
  for (int t = 0; t < 6; t++)
    if (!uses[t]) fail_msg("technique %d never used", t);
  assert_true(stuck > 0 && stuck < n);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse_forms),
    cmocka_unit_test(test_parse_errors),
    cmocka_unit_test(test_parse_alphabet),
    cmocka_unit_test(test_read),
    cmocka_unit_test(test_format),
      cmocka_unit_test(test_shapes),
    cmocka_unit_test(test_clashes),
    cmocka_unit_test(test_candidates),
    cmocka_unit_test(test_seed_4x4),
    cmocka_unit_test(test_visit_all),
    cmocka_unit_test(test_solutions_cap),
    cmocka_unit_test(test_limit_stops),
    cmocka_unit_test(test_17_clue),
    cmocka_unit_test(test_magictour),
    cmocka_unit_test(test_forum_hardest),
    cmocka_unit_test(test_serg_counts),
    cmocka_unit_test(test_16x16),
    cmocka_unit_test(test_25x25),
    cmocka_unit_test(test_25x25_two_solutions),
    cmocka_unit_test(test_25x25_many_solutions),
    cmocka_unit_test(test_36x36_learning),
    cmocka_unit_test(test_generate),
    cmocka_unit_test(test_generate_options),
    cmocka_unit_test(test_generate_large),
    cmocka_unit_test(test_generate_25x25),
    cmocka_unit_test(test_hint_kinds),
    cmocka_unit_test(test_hints_follow_solution),
  };
  return cmocka_run_group_tests_name("sudoku", tests, NULL, NULL);
}
