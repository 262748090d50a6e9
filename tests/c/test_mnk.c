/*
** test_mnk.c: the m,n,k-game: 3,3,3 is tic-tac-toe move for move, the
** small games have their known values, and gomoku's exact-five rule.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/game.h"
#include "base/hash.h"
#include "base/search.h"
#include "base/solve.h"
#include "mnk/mnk.h"
#include "tictactoe/tictactoe.h"

static void play(mnk_board *b, const char *moves) {
  char text[8];
  for (const char *p = moves; *p;) {
    while (*p == ' ') p++;
    size_t n = 0;
    while (p[n] && p[n] != ' ') n++;
    memcpy(text, p, n);
    text[n] = '\0';
    int cell = mnk_parse_cell(b, text);
    assert_true(cell >= 0);
    assert_true(mnk_is_empty(b, cell));
    mnk_make(b, cell);
    p += n;
  }
}

static void test_333_is_tictactoe(void **unused) {
  (void)unused;
  mnk_board b;
  ttt_board t;
  mnk_init(&b, 3, 3, 3, false);
  ttt_init(&t);
  for (int depth = 1; depth <= 9; depth++)
    assert_int_equal(game_perft(&mnk_class, &b, depth),
                     game_perft(&ttt_class, &t, depth));
  assert_int_equal(game_count_games(&mnk_class, &b), 255168);
  /* The same move order: the protocol's moves name the same squares. */
  game_move a[GAME_MAX_MOVES], c[GAME_MAX_MOVES];
  int n = mnk_class.moves(&b, a);
  assert_int_equal(n, ttt_class.moves(&t, c));
  for (int i = 0; i < n; i++) {
    char x[8], y[8];
    mnk_class.format_move(&b, a[i], x, sizeof x);
    ttt_class.format_move(&t, c[i], y, sizeof y);
    assert_string_equal(x, y);
  }
}

static int solve(int m, int n, int k) {
  mnk_board b;
  mnk_init(&b, m, n, k, false);
  tt_table *tt = tt_new(16);
  search_options options = {.tt = tt};
  search_limit limit = {0};
  limit_start(&limit);
  search_result result;
  search_alphabeta(&mnk_class, &b, &options, &limit, &result);
  tt_free(tt);
  assert_true(result.exact);
  return game_score_sign(result.score);
}

/* Known values: 3,3,3 and 4,4,4 are draws, 4,4,3 a first-player win. */
static void test_small_games_solved(void **unused) {
  (void)unused;
  assert_int_equal(solve(3, 3, 3), 0);
  assert_int_equal(solve(4, 4, 3), 1);
  assert_int_equal(solve(4, 4, 4), 0);
  assert_int_equal(solve(3, 3, 4), 0);            /* no line fits */
}

/* Plain minimax to depth plies, scored as search.h says. */
static int minimax(mnk_board *b, int depth, int ply) {
  if (mnk_status(b) != GAME_ONGOING) {
    int score = game_final_score(&mnk_class, b);
    return score > 0 ? score - ply : score < 0 ? score + ply : 0;
  }
  if (depth == 0) return mnk_eval(b);
  game_move moves[GAME_MAX_MOVES];
  int n = mnk_class.moves(b, moves), best = -GAME_SCORE_WIN - 1;
  for (int i = 0; i < n; i++) {
    game_undo undo;
    mnk_class.make(b, moves[i], &undo);
    int score = -minimax(b, depth - 1, ply + 1);
    mnk_class.unmake(b, moves[i], &undo);
    if (score > best) best = score;
  }
  return best;
}

/* Alpha-beta with and without a table equals minimax on random 4,4,3
   positions: a position's stone count fixes its ply, so a table entry is
   always met at the depth it was stored for. */
static void test_alphabeta_is_minimax(void **unused) {
  (void)unused;
  tt_table *tt = tt_new(1);
  uint64_t seed = 99;
  int compared = 0;
  for (int trial = 0; trial < 60; trial++) {
    mnk_board b;
    mnk_init(&b, 4, 4, 3, false);
    int plies = (int)(hash_next(&seed) % 5);
    for (int i = 0; i < plies && mnk_status(&b) == GAME_ONGOING; i++) {
      game_move moves[GAME_MAX_MOVES];
      int n = mnk_class.moves(&b, moves);
      mnk_make(&b, (int)moves[hash_next(&seed) % (uint64_t)n]);
    }
    if (mnk_status(&b) != GAME_ONGOING) continue;
    for (int depth = 1; depth <= 4; depth++) {
      int expected = minimax(&b, depth, 0);
      for (int with_table = 0; with_table <= 1; with_table++) {
        if (with_table) tt_clear(tt);
        search_options options = {.max_depth = depth, .tt = with_table ? tt : NULL};
        search_limit limit = {0};
        limit_start(&limit);
        search_result result;
        search_alphabeta(&mnk_class, &b, &options, &limit, &result);
        assert_int_equal(result.score, expected);
      }
      compared++;
    }
  }
  assert_true(compared > 150);
  tt_free(tt);
}

static void test_five_and_the_exact_rule(void **unused) {
  (void)unused;
  for (int exact = 0; exact <= 1; exact++) {
    mnk_board b;
    mnk_init(&b, 15, 15, 5, exact);
    /* Black: d8 e8 f8 h8 i8; white far away; then g8 joins six. */
    play(&b, "d8 a1 e8 a2 f8 a3 h8 a4 i8 a6");
    assert_int_equal(mnk_status(&b), GAME_ONGOING);
    play(&b, "g8");
    assert_int_equal(mnk_status(&b), exact ? GAME_ONGOING : GAME_WIN_0);
  }
  mnk_board b;
  mnk_init(&b, 15, 15, 5, true);
  play(&b, "h8 a1 h9 a2 h10 a3 h11 a4 h12");        /* exactly five */
  assert_int_equal(mnk_status(&b), GAME_WIN_0);
  mnk_init(&b, 15, 15, 5, false);
  play(&b, "a1 h8 b1 i9 c1 j10 d1 k11 o15 l12");   /* white's diagonal */
  assert_int_equal(mnk_status(&b), GAME_WIN_1);
}

static void test_unmake_restores(void **unused) {
  (void)unused;
  mnk_board b, before;
  mnk_init(&b, 15, 15, 5, false);
  play(&b, "h8 a1 h9 a2 h10 a3 h11 a4");
  before = b;
  game_undo undo;
  game_move move = (game_move)mnk_parse_cell(&b, "h12");
  mnk_class.make(&b, move, &undo);
  assert_int_equal(mnk_status(&b), GAME_WIN_0);
  mnk_class.unmake(&b, move, &undo);
  assert_memory_equal(&b, &before, sizeof b);
}

/* The evaluation counted from scratch: every line of k cells, across, up
   and on both diagonals, that one side alone holds stones in. */
static int eval_from_scratch(const mnk_board *b) {
  static const int weight[8] = {0, 1, 4, 16, 64, 256, 1024, 4096};
  static const int steps[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  int m = b->m, n = b->n, k = b->k, score[2] = {0, 0};
  for (int d = 0; d < 4; d++)
    for (int row = 0; row < n; row++)
      for (int column = 0; column < m; column++) {
        int last_column = column + steps[d][0] * (k - 1);
        int last_row = row + steps[d][1] * (k - 1);
        if (last_column >= m || last_row < 0 || last_row >= n) continue;
        int count[2] = {0, 0};
        for (int i = 0; i < k; i++) {
          int side = mnk_cell(b, (row + steps[d][1] * i) * m + column + steps[d][0] * i);
          if (side >= 0) count[side]++;
        }
        for (int side = 0; side < 2; side++)
          if (count[side] && !count[1 - side])
            score[side] += weight[count[side] < 7 ? count[side] : 7];
      }
  int side = mnk_turn(b);
  return score[side] - score[1 - side];
}

static void test_eval_kept_up_to_date(void **unused) {
  (void)unused;
  static const int sizes[][3] = {{3, 3, 3}, {7, 6, 4}, {15, 15, 5}, {16, 16, 16},
                                 {5, 9, 3}, {16, 4, 9}, {1, 1, 1}};
  uint64_t seed = 7;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    for (int game = 0; game < 20; game++) {
      mnk_board b, start;
      mnk_init(&b, sizes[s][0], sizes[s][1], sizes[s][2], game % 2);
      start = b;
      int cells[MNK_MAX_CELLS], winners[MNK_MAX_CELLS], plies = 0;
      while (mnk_status(&b) == GAME_ONGOING) {
        game_move moves[MNK_MAX_CELLS];
        int count = mnk_class.moves(&b, moves);
        winners[plies] = b.winner;
        cells[plies] = (int)moves[hash_next(&seed) % (uint64_t)count];
        mnk_make(&b, cells[plies++]);
        assert_int_equal(mnk_eval(&b), eval_from_scratch(&b));
      }
      while (plies > 0) {
        plies--;
        mnk_unmake(&b, cells[plies], winners[plies]);
        assert_int_equal(mnk_eval(&b), eval_from_scratch(&b));
      }
      assert_memory_equal(&b, &start, sizeof b);
    }
  }
}

static void test_cells_by_name(void **unused) {
  (void)unused;
  mnk_board b;
  mnk_init(&b, 15, 15, 5, false);
  assert_int_equal(mnk_parse_cell(&b, "a1"), 0);
  assert_int_equal(mnk_parse_cell(&b, "O15"), 224);
  assert_int_equal(mnk_parse_cell(&b, "b2"), 16);
  const char *bad[] = {"p1", "a16", "a0", "a", "1a", "a01", "a1x", "", "a100"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    assert_int_equal(mnk_parse_cell(&b, bad[i]), -1);
  char name[8];
  mnk_cell_name(&b, 224, name);
  assert_string_equal(name, "o15");
}

static void test_render(void **unused) {
  (void)unused;
  mnk_board b;
  mnk_init(&b, 4, 3, 3, false);
  play(&b, "b2 a1");
  char text[256];
  static const char *const marks[2] = {"x", "o"};
  mnk_render(&b, marks, mnk_class.side, NULL, text, sizeof text);
  assert_string_equal(text, "3 . . . .\n2 . x . .\n1 o . . .\n  a b c d\nx to move");
  game_style style = {true, (game_move)mnk_parse_cell(&b, "a1")};
  mnk_render(&b, marks, mnk_class.side, &style, text, sizeof text);
  assert_string_equal(text,
    "3 . . . .\n2 . x . .\n1 \033[7mo\033[0m . . .\n  a b c d\nx to move");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_333_is_tictactoe),
    cmocka_unit_test(test_small_games_solved),
    cmocka_unit_test(test_alphabeta_is_minimax),
    cmocka_unit_test(test_five_and_the_exact_rule),
    cmocka_unit_test(test_unmake_restores),
    cmocka_unit_test(test_eval_kept_up_to_date),
    cmocka_unit_test(test_cells_by_name),
    cmocka_unit_test(test_render),
  };
  return cmocka_run_group_tests(tests, 0, NULL);
}
