/*
** test_connect4_solve.c: the solver against known values: Pascal Pons'
** test sets (../shared/data/connect4, or $LUDUS_DATA/connect4) and John
** Tromp's empty-board values for small boards.  The full sets run in
** `make bench`; here only what stays quick enough (see BEGIN_HARD).
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/hash.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"

static c4_table *table;

static int setup(void **unused) {
  (void)unused;
  table = c4_table_new();
  return table ? 0 : -1;
}

static int teardown(void **unused) {
  (void)unused;
  c4_table_free(table);
  return 0;
}

static c4_result solve(const c4_board *board, bool weak) {
  search_limit limit = {0};
  limit_start(&limit);
  return c4_solve(board, table, &limit, weak);
}

/* The first count lines of a set, strong and weak. */
static void check_set(const char *name, int count) {
  const char *data = getenv("LUDUS_DATA");
  char path[512];
  snprintf(path, sizeof path, "%s/connect4/%s", data ? data : "../shared/data",
           name);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside the "
                       "repository, or run make test DATA=folder)", path);
  char moves[128];
  int expected, n = 0;
  while (n < count && fscanf(f, "%127s %d", moves, &expected) == 2) {
    c4_board board;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    c4_init(&board, 7, 6);
    assert_int_equal(c4_load(&board, moves, played, &err), (int)strlen(moves));
    c4_result strong = solve(&board, false);
    assert_true(strong.complete);
    if (strong.score != expected)
      fail_msg("%s line %d (%s): %d, expected %d", name, n + 1, moves,
               strong.score, expected);
    c4_result weak = solve(&board, true);
    assert_int_equal(weak.score, (expected > 0) - (expected < 0));
    n++;
  }
  fclose(f);
  assert_int_equal(n, count);
}

static void test_end_easy(void **unused) { (void)unused; check_set("Test_L3_R1", 100); }
static void test_middle_easy(void **unused) { (void)unused; check_set("Test_L2_R1", 100); }
static void test_middle_medium(void **unused) { (void)unused; check_set("Test_L2_R2", 100); }
static void test_begin_easy(void **unused) { (void)unused; check_set("Test_L1_R1", 100); }
/* How many lines of the begin sets: the first 100 of Test_L1_R2 (62 M
   nodes, strong and weak, with the table of 2^23 entries), and the first
   100 of Test_L1_R3 (under 900 M nodes then, about 1.2 G with the table
   of 2^19; the suite takes about 99 s of one core on the shared
   machine).  Under the sanitizers, about twice as slow, the
   first 20 of Test_L1_R3 (128 M nodes), to keep `make test SANITIZE=1`
   within minutes; `make bench` runs the other sets in full.  The weak
   solve after the strong one costs next to nothing: the table holds
   its answer. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
enum { BEGIN_MEDIUM = 100, BEGIN_HARD = 20 };
#else
enum { BEGIN_MEDIUM = 100, BEGIN_HARD = 100 };
#endif

static void test_begin_medium(void **unused) { (void)unused; check_set("Test_L1_R2", BEGIN_MEDIUM); }
static void test_begin_hard(void **unused) { (void)unused; check_set("Test_L1_R3", BEGIN_HARD); }

/* Tromp's values, with Pons' scores: draws, and 6x4 lost by the first
   player with the last chips of the board.  Then the tallest boards, of
   63 and 62 cells, whose scores reach the ends of what an entry of the
   table holds: no one can make four on them (a column of one alternates,
   and two columns let the other side block), so both are draws. */
static void test_small_boards(void **unused) {
  (void)unused;
  static const int boards[][3] = {
    {4, 4, 0}, {5, 4, 0}, {6, 4, -1}, {5, 5, 0}, {6, 5, 0}, {7, 4, 0},
    {4, 6, 0}, {5, 6, 0}, {1, 63, 0}, {2, 31, 0},
  };
  for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
    c4_board board;
    c4_init(&board, boards[i][0], boards[i][1]);
    c4_result r = solve(&board, false);
    assert_true(r.complete);
    if (r.score != boards[i][2])
      fail_msg("%dx%d: %d, expected %d", boards[i][0], boards[i][1], r.score,
               boards[i][2]);
  }
}

/* Mirror images score the same, column by column mirrored (on 5x4,
   where column d mirrors to 6 - d). */
static void test_mirror(void **unused) {
  (void)unused;
  const char *records[] = {"4453", "3324", "15", "444555", "2345", ""};
  for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
    char mirrored[16];
    size_t n = strlen(records[i]);
    for (size_t j = 0; j < n; j++)
      mirrored[j] = (char)('0' + 6 - (records[i][j] - '0'));
    mirrored[n] = '\0';
    c4_board a, b;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    c4_init(&a, 5, 4);
    c4_init(&b, 5, 4);
    assert_int_equal(c4_load(&a, records[i], played, &err), (int)n);
    assert_int_equal(c4_load(&b, mirrored, played, &err), (int)n);
    int sa[C4_MAX_WIDTH], sb[C4_MAX_WIDTH];
    search_limit limit = {0};
    limit_start(&limit);
    assert_true(c4_analyze(&a, table, &limit, false, sa));
    assert_true(c4_analyze(&b, table, &limit, false, sb));
    for (int c = 0; c < 5; c++) assert_int_equal(sa[c], sb[4 - c]);
  }
}

/* The heuristic for ludus.ai: even at the start, a centre chip counts
   for its owner, a threat counts more, and mirrored boards agree. */
static void test_eval(void **unused) {
  (void)unused;
  struct { const char *record; int sign; } cases[] = {
    {"", 0},          /* yellow to move, nothing on the board */
    {"4", -1},        /* red to move against yellow's centre chip */
    {"41", 1},        /* yellow to move, centre against edge */
    {"4455", 0},      /* the same chips for both */
    {"44556", -1},    /* red to move faces threats on 3 and 7 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    c4_board board, mirror;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    char mirrored[16];
    size_t n = strlen(cases[i].record);
    for (size_t j = 0; j < n; j++)
      mirrored[j] = (char)('0' + 8 - (cases[i].record[j] - '0'));
    mirrored[n] = '\0';
    c4_init(&board, 7, 6);
    c4_init(&mirror, 7, 6);
    assert_int_equal(c4_load(&board, cases[i].record, played, &err), (int)n);
    assert_int_equal(c4_load(&mirror, mirrored, played, &err), (int)n);
    int score = c4_eval(&board);
    assert_int_equal((score > 0) - (score < 0), cases[i].sign);
    assert_int_equal(score, c4_eval(&mirror));
  }
}

/* The move c4_best_move picks keeps the score, by analyze's count, strong
   and weak, on positions of every kind: winning, drawn, lost. */
static void test_best_move_keeps_score(void **unused) {
  (void)unused;
  const char *data = getenv("LUDUS_DATA");
  const char *sets[] = {"Test_L3_R1", "Test_L2_R1"};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/connect4/%s",
             data ? data : "../shared/data", sets[i]);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside the "
                       "repository, or run make test DATA=folder)", path);
    char moves[128];
    int expected;
    for (int n = 0; n < 30 && fscanf(f, "%127s %d", moves, &expected) == 2; n++) {
      c4_board board;
      int played[C4_MAX_CELLS];
      c4_parse_error err;
      c4_init(&board, 7, 6);
      assert_true(c4_load(&board, moves, played, &err) > 0);
      for (int weak = 0; weak <= 1; weak++) {
        search_limit limit = {0};
        limit_start(&limit);
        c4_result r = c4_solve(&board, table, &limit, weak);
        int best = c4_best_move(&board, table, &limit, weak, r.score);
        int scores[C4_MAX_WIDTH];
        assert_true(c4_analyze(&board, table, &limit, weak, scores));
        assert_true(best >= 0);
        if (scores[best] != r.score)
          fail_msg("%s %s%s: column %d scores %d, the position %d", sets[i],
                   moves, weak ? " (weak)" : "", best + 1, scores[best], r.score);
      }
    }
    fclose(f);
  }
}

/* A node limit stops the search with the bounds proved so far: they
   hold the true score, and a bigger budget proves at least as much.
   Test_L1_R3, line 1, scores 3 and takes some 18 M nodes; before any
   search its score is known to lie in [-18, 19]. */
static void test_limit_keeps_bounds(void **unused) {
  (void)unused;
  c4_board board;
  int played[C4_MAX_CELLS];
  c4_parse_error err;
  c4_init(&board, 7, 6);
  assert_int_equal(c4_load(&board, "13712", played, &err), 5);
  int width = 19 - -18;
  for (uint64_t budget = 1000; budget <= 1000000; budget *= 10) {
    c4_table_clear(table);
    search_limit limit = {0};
    limit.max_nodes = budget;
    limit_start(&limit);
    c4_result r = c4_solve(&board, table, &limit, false);
    assert_false(r.complete);
    assert_string_equal(limit_reason(&limit), "nodes");
    if (r.lower > 3 || r.upper < 3 || r.upper - r.lower > width)
      fail_msg("%llu nodes: [%d, %d], after [%d wide]",
               (unsigned long long)budget, r.lower, r.upper, width);
    width = r.upper - r.lower;
  }
  assert_true(width < 19 - -18);      /* a million nodes prove something */
}

/* An interrupt (the REPL's Ctrl-C sets the flag) stops the solve at once,
   with the bounds known before any search. */
static void test_interrupt(void **unused) {
  (void)unused;
  c4_board board;
  c4_init(&board, 7, 6);
  volatile sig_atomic_t flag = 1;
  search_limit limit = {0};
  limit.interrupt = &flag;
  limit_start(&limit);
  c4_result r = c4_solve(&board, table, &limit, false);
  assert_false(r.complete);
  assert_string_equal(limit_reason(&limit), "interrupted");
  assert_int_equal(r.lower, -21);
  assert_int_equal(r.upper, 21);
  assert_true(limit.nodes <= 1);
}

/* One table serves boards of every size in turn: positions of another
   size, whose keys mean other boards, are never read as this one's. */
static void test_table_across_sizes(void **unused) {
  (void)unused;
  static const struct { int width, height; const char *record; int score; }
  cases[] = {
    {7, 6, "2416615552", 4},          /* Test_L1_R2, line 3 */
    {4, 4, "", 0}, {6, 4, "", -1}, {5, 4, "", 0},
    {7, 6, "335662333565", -2},       /* Test_L1_R2, line 2 */
    {6, 4, "", -1},
  };
  c4_table_clear(table);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    c4_board board;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    c4_init(&board, cases[i].width, cases[i].height);
    assert_int_equal(c4_load(&board, cases[i].record, played, &err),
                     (int)strlen(cases[i].record));
    c4_result r = solve(&board, false);
    if (r.score != cases[i].score)
      fail_msg("%dx%d '%s': %d, expected %d", cases[i].width,
               cases[i].height, cases[i].record, r.score, cases[i].score);
  }
}

/* The exact score by plain alpha-beta, from the definition (solve.h):
   a win that lands the board's n-th chip scores (width*height + 2 - n)
   / 2, a full board with no four is a draw. */
static int plain_score(c4_board *b, int alpha, int beta) {
  int cells = b->width * b->height, best = -cells;
  bool any = false;
  for (int c = 0; c < b->width; c++) {
    if (!c4_can_play(b, c)) continue;
    any = true;
    c4_play(b, c);
    int score = c4_has_four(b, c4_last_mover(b)) ? (cells + 2 - b->moves) / 2
              : b->moves == cells ? 0
              : -plain_score(b, -beta, -(alpha > best ? alpha : best));
    c4_undo(b, c);
    if (score > best && (best = score) >= beta) break;
  }
  return any ? best : 0;
}

/* Random positions of the small boards, every size up to 24 cells,
   with 6 to 13 empty cells: the solver, strong and weak, and each
   column's score by c4_analyze, against the plain search.  Boards of
   other shapes than 7x6 meet parts of the solver (the spare bit of each
   column, the masks of its lines, the table's keys) that Pons' sets
   never reach. */
static void test_random_small_positions(void **unused) {
  (void)unused;
  uint64_t seed = 7;
  int checked = 0;
  for (int width = 1; width <= C4_MAX_WIDTH; width++)
    for (int height = 1; width * height <= 24; height++) {
      if (!c4_size_ok(width, height)) continue;
      for (int k = 0; k < 20; k++) {
        c4_board b;
        c4_init(&b, width, height);
        int cells = width * height, empties = 6 + (int)(hash_next(&seed) % 8);
        while (cells - b.moves > empties && c4_status(&b) == GAME_ONGOING) {
          int c = (int)(hash_next(&seed) % (uint64_t)width);
          if (c4_can_play(&b, c)) c4_play(&b, c);
        }
        if (c4_status(&b) != GAME_ONGOING) continue;
        int want = plain_score(&b, -cells, cells);
        c4_result strong = solve(&b, false), weak = solve(&b, true);
        if (!strong.complete || strong.score != want ||
            weak.score != (want > 0) - (want < 0))
          fail_msg("%dx%d, %d chips: %d and %d (weak), expected %d", width,
                   height, b.moves, strong.score, weak.score, want);
        search_limit limit = {0};
        limit_start(&limit);
        int scores[C4_MAX_WIDTH];
        assert_true(c4_analyze(&b, table, &limit, false, scores));
        for (int c = 0; c < width; c++) {
          int column = C4_NO_SCORE;
          if (c4_can_play(&b, c)) {
            c4_play(&b, c);
            column = c4_has_four(&b, c4_last_mover(&b)) ? (cells + 2 - b.moves) / 2
                   : b.moves == cells ? 0 : -plain_score(&b, -cells, cells);
            c4_undo(&b, c);
          }
          if (scores[c] != column)
            fail_msg("%dx%d, %d chips, column %d: %d, expected %d", width,
                     height, b.moves, c + 1, scores[c], column);
        }
        checked++;
      }
    }
  assert_true(checked > 500);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_end_easy),
    cmocka_unit_test(test_middle_easy),
    cmocka_unit_test(test_middle_medium),
    cmocka_unit_test(test_begin_easy),
    cmocka_unit_test(test_begin_medium),
    cmocka_unit_test(test_begin_hard),
    cmocka_unit_test(test_small_boards),
    cmocka_unit_test(test_mirror),
    cmocka_unit_test(test_eval),
    cmocka_unit_test(test_best_move_keeps_score),
    cmocka_unit_test(test_limit_keeps_bounds),
    cmocka_unit_test(test_interrupt),
    cmocka_unit_test(test_table_across_sizes),
    cmocka_unit_test(test_random_small_positions),
  };
  return cmocka_run_group_tests_name("connect4 solver", tests, setup, teardown);
}
