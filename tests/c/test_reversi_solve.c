/*
** test_reversi_solve.c: the endgame solver against the FFO problems
** #1-#19 (../shared/data/othello, or $LUDUS_DATA/othello: every move's
** exact score), against a plain alpha-beta on random endgames, under the
** eight symmetries of the board, on the whole 4x4 game; and stable discs
** that random play never turns over.
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
#include "reversi/reversi.h"
#include "reversi/solve.h"

static reversi_solver *solver;

static int setup(void **unused) {
  (void)unused;
  solver = reversi_solver_new(18);
  return solver ? 0 : -1;
}

static int teardown(void **unused) {
  (void)unused;
  reversi_solver_free(solver);
  return 0;
}

static reversi_solution solve(const reversi_board *b) {
  reversi_solution r = reversi_solve(solver, b, NULL);
  assert_true(r.complete);
  return r;
}

/* ---- FFO #1-#19 ---- */

static FILE *open_data(const char *name) {
  const char *data = getenv("LUDUS_DATA");
  char path[512];
  snprintf(path, sizeof path, "%s/othello/%s", data ? data : "../shared/data",
           name);
  FILE *f = fopen(path, "r");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside the "
                   "repository, or run make test DATA=folder)", path);
  return f;
}

/* Reads a line of an FFO file: the board into b, each listed move's
   score into expected[square] (99 for a square not listed); returns the
   best score and counts the listed moves in *listed. */
static int read_ffo(const char *line, reversi_board *b, int expected[64],
                    int *listed) {
  const char *semi = strchr(line, ';');
  assert_non_null(semi);
  assert_null(reversi_parse_board(line, (size_t)(semi - line), b));
  int best = -99;
  *listed = 0;
  for (int i = 0; i < 64; i++) expected[i] = 99;
  for (const char *q = semi + 1; (q = strchr(q, ':')); q++) {
    int square = reversi_parse_square(b, q - 2, 2);
    assert_in_range(square, 0, 63);
    expected[square] = atoi(q + 1);
    if (expected[square] > best) best = expected[square];
    (*listed)++;
  }
  return best;
}

/* Where a listed score is wrong: FFO #31 (line 12 of fforum-20-39.obf)
   lists G1:-30, but after g1 white scores 32, as the solver says and
   test_errata proves with a plain alpha-beta (32 too if the empty
   squares were left out of the count). */
static const struct {
  const char *file;
  int line;
  const char *move;
  int score;
} errata[] = {{"fforum-20-39.obf", 12, "g1", -32}};

static int corrected(const char *name, int line, const reversi_board *b,
                     int square, int listed) {
  for (size_t i = 0; i < sizeof errata / sizeof *errata; i++)
    if (strcmp(errata[i].file, name) == 0 && errata[i].line == line &&
        reversi_parse_square(b, errata[i].move, 2) == square)
      return errata[i].score;
  return listed;
}

/* Solves every line of an FFO file with s whose position has from
   fewest to most empty squares: the best score and a best move that
   scores it; with every_move, also the score of every move as listed
   ("G8:+18; H1:+12; ...").  Returns how many were solved. */
static int solve_ffo(reversi_solver *s, const char *name, int fewest, int most,
                     bool every_move) {
  FILE *f = open_data(name);
  char line[512];
  int n = 0, solved = 0;
  while (fgets(line, sizeof line, f)) {
    reversi_board b;
    int expected[64], listed;
    int best = read_ffo(line, &b, expected, &listed);
    n++;
    int empties = __builtin_popcountll(b.mask & ~(b.player | b.opponent));
    if (empties < fewest || empties > most) continue;
    solved++;
    assert_int_equal(listed, __builtin_popcountll(reversi_legal(&b)));
    reversi_solution r = reversi_solve(s, &b, NULL);
    assert_true(r.complete);
    if (r.score != best) fail_msg("%s, line %d: %d, expected %d", name, n, r.score, best);
    assert_int_equal(expected[r.best], best);
    if (!every_move) continue;
    int scores[64];
    assert_true(reversi_solve_all(s, &b, NULL, scores));
    for (int i = 0; i < 64; i++)
      if (expected[i] != 99 && scores[i] != corrected(name, n, &b, i, expected[i]))
        fail_msg("%s, line %d, move %d: %d, expected %d", name, n, i,
                 scores[i], expected[i]);
  }
  fclose(f);
  return solved;
}

static void test_ffo_1_to_19(void **unused) {
  (void)unused;
  assert_int_equal(solve_ffo(solver, "fforum-1-19.obf", 0, 64, true), 19);
}

/* From 18 empty squares on, the exact search follows a selective one,
   whose cut-offs may be wrong: the table must keep none of its bounds.
   The problems of FFO #20-#39 with 18 to 20 empties, every move
   (solved one by one, those with 19 or 20 empties after a selective
   pass of their own). */
static void test_ffo_selective(void **unused) {
  (void)unused;
  assert_int_equal(solve_ffo(solver, "fforum-20-39.obf", 18, 20, true), 12);
}

/* With the smallest tables (one bucket of three positions, four slots in
   the small table), nearly every store replaces another position: the
   scores and best moves stay right. */
static void test_tiny_tables(void **unused) {
  (void)unused;
  reversi_solver *tiny = reversi_solver_new(2);
  assert_non_null(tiny);
  assert_int_equal(solve_ffo(tiny, "fforum-1-19.obf", 0, 64, false), 19);
  assert_int_equal(solve_ffo(tiny, "fforum-20-39.obf", 18, 18, false), 1);
  reversi_solver_free(tiny);
}

/* ---- against a plain alpha-beta ---- */

/* Fail-hard alpha-beta, the moves leaving the fewest replies first and
   nothing else (no table, no bound but the window): a null window on 19
   empty squares takes a few million nodes. */
static int alpha_beta(uint64_t p, uint64_t o, uint64_t mask, int alpha,
                      int beta, bool passed) {
  uint64_t moves = reversi_moves_of(p, o) & mask;
  if (!moves) {
    if (passed) return -reversi_final_score(o, p, mask);
    return -alpha_beta(o, p, mask, -beta, -alpha, true);
  }
  int square[64], replies[64], n = 0;
  for (; moves; moves &= moves - 1, n++) {
    square[n] = __builtin_ctzll(moves);
    uint64_t flips = reversi_flips(p, o, square[n]);
    replies[n] = __builtin_popcountll(
        reversi_moves_of(o & ~flips, p | flips | (uint64_t)1 << square[n]) & mask);
  }
  for (int i = 0; i < n; i++) {
    int first = i;
    for (int j = i + 1; j < n; j++)
      if (replies[j] < replies[first]) first = j;
    int t = square[i];
    square[i] = square[first];
    square[first] = t;
    replies[first] = replies[i];
    uint64_t flips = reversi_flips(p, o, square[i]);
    int score = -alpha_beta(o & ~flips, p | flips | (uint64_t)1 << square[i],
                            mask, -beta, -alpha, false);
    if (score >= beta) return beta;
    if (score > alpha) alpha = score;
  }
  return alpha;
}

/* The exact score, by a window wider than any score. */
static int negamax(uint64_t p, uint64_t o, uint64_t mask, bool passed) {
  return alpha_beta(p, o, mask, -100, 100, passed);
}

/* Each erratum's score, proved without the solver: at least it (a null
   window just below holds) and at most it (one just above fails). */
static void test_errata(void **unused) {
  (void)unused;
  for (size_t i = 0; i < sizeof errata / sizeof *errata; i++) {
    FILE *f = open_data(errata[i].file);
    char line[512];
    for (int n = 0; n < errata[i].line; n++) assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    reversi_board b;
    int expected[64], listed;
    read_ffo(line, &b, expected, &listed);
    int square = reversi_parse_square(&b, errata[i].move, 2);
    assert_in_range(square, 0, 63);
    assert_int_not_equal(expected[square], errata[i].score);   /* still wrong there */
    uint64_t flips = reversi_flips(b.player, b.opponent, square);
    uint64_t p = b.opponent & ~flips, o = b.player | flips | (uint64_t)1 << square;
    int score = -errata[i].score;   /* the opponent's, to move after it */
    assert_int_equal(alpha_beta(p, o, b.mask, score - 1, score, false), score);
    assert_int_equal(alpha_beta(p, o, b.mask, score, score + 1, false), score);
  }
}

/* Plays random moves from the start of size until empties are left (or
   the game ends). */
static void random_position(reversi_board *b, int size, int empties,
                            uint64_t *seed) {
  reversi_init(b, size);
  while (__builtin_popcountll(b->mask & ~(b->player | b->opponent)) > empties &&
         !reversi_is_over(b)) {
    uint64_t moves = reversi_legal(b);
    int square = REVERSI_PASS;
    if (moves) {
      int k = (int)(hash_next(seed) % (uint64_t)__builtin_popcountll(moves));
      while (k--) moves &= moves - 1;
      square = __builtin_ctzll(moves);
    }
    reversi_make(b, square);
  }
}

static void test_against_negamax(void **unused) {
  (void)unused;
  uint64_t seed = 2026;
  for (int i = 0; i < 60; i++) {
    reversi_board b;
    int size = i % 3 == 0 ? 6 : 8;
    random_position(&b, size, 5 + i % 6, &seed);
    int expected = reversi_is_over(&b)
                       ? reversi_final_score(b.player, b.opponent, b.mask)
                       : negamax(b.player, b.opponent, b.mask, false);
    reversi_solution r = solve(&b);
    assert_int_equal(r.score, expected);
    if (reversi_is_over(&b)) {
      assert_int_equal(r.best, -1);
      continue;
    }
    /* the move it names reaches the score */
    uint64_t flipped = reversi_make(&b, r.best);
    reversi_solution next = solve(&b);
    reversi_unmake(&b, r.best, flipped);
    assert_int_equal(-next.score, expected);
  }
}

/* ---- symmetries ---- */

/* Symmetry k square by square, as reversi.h describes it. */
static uint64_t slow_symmetry(uint64_t x, int k) {
  uint64_t out = 0;
  for (int sq = 0; sq < 64; sq++) {
    if (!(x >> sq & 1)) continue;
    int row = sq / 8, col = sq % 8;
    if (k & 1) col = 7 - col;
    if (k & 2) row = 7 - row;
    if (k & 4) {
      int t = row;
      row = col;
      col = t;
    }
    out |= (uint64_t)1 << (row * 8 + col);
  }
  return out;
}

static void test_symmetries(void **unused) {
  (void)unused;
  uint64_t seed = 99;
  for (int i = 0; i < 100; i++) {
    uint64_t x = hash_next(&seed);
    for (int k = 0; k < 8; k++)
      assert_int_equal(reversi_symmetry(x, k), slow_symmetry(x, k));
  }
  FILE *f = open_data("fforum-1-19.obf");
  char line[512];
  for (int n = 0; n < 4 && fgets(line, sizeof line, f); n++) {
    reversi_board b;
    assert_null(reversi_parse_board(line, (size_t)(strchr(line, ';') - line), &b));
    int score = solve(&b).score;
    for (int k = 1; k < 8; k++) {
      reversi_board t = b;
      t.player = reversi_symmetry(b.player, k);
      t.opponent = reversi_symmetry(b.opponent, k);
      assert_int_equal(solve(&t).score, score);
    }
  }
  fclose(f);
  /* and a 6x6 endgame: its centred mask maps to itself */
  seed = 7;
  reversi_board b;
  random_position(&b, 6, 12, &seed);
  int score = solve(&b).score;
  for (int k = 1; k < 8; k++) {
    reversi_board t = b;
    t.player = reversi_symmetry(b.player, k);
    t.opponent = reversi_symmetry(b.opponent, k);
    assert_int_equal(reversi_symmetry(b.mask, k), b.mask);
    assert_int_equal(solve(&t).score, score);
  }
}

/* ---- whole games ---- */

/* 4x4 under perfect play: white wins 11-3, the two empty squares going
   to white, -10 for black to move. */
static void test_4x4(void **unused) {
  (void)unused;
  reversi_board b;
  reversi_init(&b, 4);
  reversi_solution r = solve(&b);
  assert_int_equal(r.score, -10);
  /* play the solver's moves to the end: the score holds all the way */
  int sign = 1;
  while (!reversi_is_over(&b)) {
    r = solve(&b);
    assert_int_equal(sign * r.score, -10);
    reversi_make(&b, r.best);
    sign = -sign;
  }
  assert_int_equal(reversi_count(&b, REVERSI_BLACK), 3);
  assert_int_equal(reversi_count(&b, REVERSI_WHITE), 11);
  assert_int_equal(sign * reversi_final_score(b.player, b.opponent, b.mask), -10);
}

/* Near the start the solver skips moves that mirror a sibling's: every
   4x4 position of the first four plies against the plain negamax. */
static void check_opening(reversi_board *b, int plies) {
  int expected = reversi_is_over(b)
                     ? reversi_final_score(b->player, b->opponent, b->mask)
                     : negamax(b->player, b->opponent, b->mask, false);
  assert_int_equal(solve(b).score, expected);
  if (plies == 0 || reversi_is_over(b)) return;
  uint64_t moves = reversi_legal(b);
  if (!moves) {
    uint64_t flipped = reversi_make(b, REVERSI_PASS);
    check_opening(b, plies - 1);
    reversi_unmake(b, REVERSI_PASS, flipped);
  }
  for (; moves; moves &= moves - 1) {
    int square = __builtin_ctzll(moves);
    uint64_t flipped = reversi_make(b, square);
    check_opening(b, plies - 1);
    reversi_unmake(b, square, flipped);
  }
}

static void test_4x4_openings(void **unused) {
  (void)unused;
  reversi_board b;
  reversi_init(&b, 4);
  check_opening(&b, 4);
}

/* A board whose game is over: the final score, no move; one that must
   pass: the pass. */
static void test_over_and_pass(void **unused) {
  (void)unused;
  reversi_board b;
  /* black X to move, full board but for one square no one can take */
  assert_null(reversi_parse_board(
      "XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX "
      "OOOOOOO- X", 73, &b));
  assert_true(reversi_is_over(&b));
  reversi_solution r = solve(&b);
  assert_int_equal(r.best, -1);
  assert_int_equal(r.score, 56 - 7 + 1);
  /* positions where the side to move must pass, from random games */
  uint64_t seed = 11;
  int found = 0;
  for (int i = 0; i < 2000 && found < 10; i++) {
    random_position(&b, 4 + 2 * (i % 2), (int)(hash_next(&seed) % 12), &seed);
    if (reversi_legal(&b) || reversi_is_over(&b)) continue;
    found++;
    r = solve(&b);
    assert_int_equal(r.best, REVERSI_PASS);
    assert_int_equal(r.score, negamax(b.player, b.opponent, b.mask, false));
  }
  assert_int_equal(found, 10);
}

static void test_limit(void **unused) {
  (void)unused;
  FILE *f = open_data("fforum-1-19.obf");
  char line[512];
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  reversi_board b;
  assert_null(reversi_parse_board(line, (size_t)(strchr(line, ';') - line), &b));
  reversi_solver *fresh = reversi_solver_new(10);
  search_limit limit = {0};
  limit.max_nodes = 500;
  limit_start(&limit);
  reversi_solution r = reversi_solve(fresh, &b, &limit);
  assert_false(r.complete);
  assert_string_equal(limit_reason(&limit), "nodes");
  /* the stopped solve left nothing wrong in the table */
  r = reversi_solve(fresh, &b, NULL);
  assert_true(r.complete);
  assert_int_equal(r.score, 18);
  reversi_solver_free(fresh);
  assert_null(reversi_solver_new(0));
}

static void first_step(void *context, int lower, int upper, uint64_t nodes) {
  (void)lower;
  (void)upper;
  uint64_t *at = context;
  if (!*at) *at = nodes;
}

/* From 18 empties on: stopped before the exact pass proves its first
   bound (a quarter of the way there, in the selective pass or the
   exact pass's first step), a solve says it proved nothing; stopped
   just after, the bound holds; either way the table stays sound. */
static void test_limit_selective(void **unused) {
  (void)unused;
  FILE *f = open_data("fforum-20-39.obf");
  char line[512];
  for (int n = 0; n < 7; n++) assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  reversi_board b;
  int expected[64], listed;
  int best = read_ffo(line, &b, expected, &listed);
  assert_int_equal(__builtin_popcountll(b.mask & ~(b.player | b.opponent)), 20);
  reversi_solver *fresh = reversi_solver_new(16);
  uint64_t at = 0;             /* the nodes when the exact pass proved a bound */
  reversi_solution r = reversi_solve_watched(fresh, &b, NULL, first_step, &at);
  assert_true(r.complete);
  assert_int_equal(r.score, best);
  assert_true(at > 0);
  for (int round = 0; round < 2; round++) {
    reversi_solver *s = reversi_solver_new(16);
    search_limit limit = {0};
    limit.max_nodes = round == 0 ? at / 4 : at + 1;
    limit_start(&limit);
    r = reversi_solve(s, &b, &limit);
    assert_false(r.complete);
    if (round == 0) {
      assert_int_equal(r.lower, -64);
      assert_int_equal(r.upper, 64);
    } else {
      assert_true(r.lower > -64 || r.upper < 64);
    }
    assert_true(r.lower <= best && best <= r.upper);
    r = reversi_solve(s, &b, NULL);
    assert_true(r.complete);
    assert_int_equal(r.score, best);
    assert_int_equal(expected[r.best], best);
    reversi_solver_free(s);
  }
  reversi_solver_free(fresh);
}

/* ---- stability ---- */

/* A disc named stable keeps its colour through random games to the end. */
static void test_stable_discs_stay(void **unused) {
  (void)unused;
  uint64_t seed = 99;
  int seen = 0;
  for (int i = 0; i < 300; i++) {
    reversi_board b;
    int size = 4 + 2 * (i % 3);
    random_position(&b, size, (int)(hash_next(&seed) % 30), &seed);
    uint64_t black = reversi_discs(&b, REVERSI_BLACK);
    uint64_t white = reversi_discs(&b, REVERSI_WHITE);
    uint64_t sb = reversi_stable(black, white, b.mask);
    uint64_t sw = reversi_stable(white, black, b.mask);
    assert_int_equal(sb & ~black, 0);
    assert_int_equal(sw & ~white, 0);
    seen += __builtin_popcountll(sb | sw);
    for (int game = 0; game < 5; game++) {
      reversi_board t = b;
      while (!reversi_is_over(&t)) {
        uint64_t moves = reversi_legal(&t);
        int square = REVERSI_PASS;
        if (moves) {
          int k = (int)(hash_next(&seed) % (uint64_t)__builtin_popcountll(moves));
          while (k--) moves &= moves - 1;
          square = __builtin_ctzll(moves);
        }
        reversi_make(&t, square);
        assert_int_equal(reversi_discs(&t, REVERSI_BLACK) & sb, sb);
        assert_int_equal(reversi_discs(&t, REVERSI_WHITE) & sw, sw);
      }
    }
  }
  assert_true(seen > 1000);   /* the test saw stable discs at all */
  /* a full board is stable throughout */
  assert_int_equal(reversi_stable(0xffu, ~(uint64_t)0xff, ~(uint64_t)0), 0xffu);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ffo_1_to_19),
    cmocka_unit_test(test_ffo_selective),
    cmocka_unit_test(test_errata),
    cmocka_unit_test(test_tiny_tables),
    cmocka_unit_test(test_against_negamax),
    cmocka_unit_test(test_symmetries),
    cmocka_unit_test(test_4x4),
    cmocka_unit_test(test_4x4_openings),
    cmocka_unit_test(test_over_and_pass),
    cmocka_unit_test(test_limit),
    cmocka_unit_test(test_limit_selective),
    cmocka_unit_test(test_stable_discs_stay),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
