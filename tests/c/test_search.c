/*
** test_search.c: the generic searches of core/base on tic-tac-toe:
** alpha-beta against plain minimax, solved values, limits, and MCTS.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/game.h"
#include "base/rng.h"
#include "base/search.h"
#include "base/tt.h"
#include "tictactoe/tictactoe.h"

static const game_class *cls = &ttt_class;

/* ---------------------------------------------------------------- oracle */

/* Plain minimax to depth plies, scored the way search.h documents: a win
   at ply p is WIN - p, the horizon is the game's eval. */
static int minimax(ttt_board *b, int depth, int ply) {
  if (cls->status(b) != GAME_ONGOING) {
    int score = game_final_score(cls, b);
    return score > 0 ? score - ply : score < 0 ? score + ply : 0;
  }
  if (depth == 0) return cls->eval(b);
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(b, moves);
  int best = -GAME_SCORE_WIN - 1;
  for (int i = 0; i < n; i++) {
    game_undo undo;
    cls->make(b, moves[i], &undo);
    int score = -minimax(b, depth - 1, ply + 1);
    cls->unmake(b, moves[i], &undo);
    if (score > best) best = score;
  }
  return best;
}

/* A position after `plies` random moves that is still going, or false. */
static bool random_position(rng *r, int plies, ttt_board *b) {
  cls->init(b);
  for (int i = 0; i < plies; i++) {
    if (cls->status(b) != GAME_ONGOING) return false;
    game_move moves[GAME_MAX_MOVES];
    int n = cls->moves(b, moves);
    game_undo undo;
    cls->make(b, moves[rng_below(r, (uint32_t)n)], &undo);
  }
  return cls->status(b) == GAME_ONGOING;
}

static bool is_legal(const ttt_board *b, game_move move) {
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(b, moves);
  for (int i = 0; i < n; i++)
    if (moves[i] == move) return true;
  return false;
}

static void search(ttt_board *b, int depth, tt_table *tt,
                   search_result *result) {
  search_options options = {.max_depth = depth, .tt = tt};
  search_limit limit = {0};
  limit_start(&limit);
  search_alphabeta(cls, b, &options, &limit, result);
}

/* ------------------------------------------------------------ alpha-beta */

static void test_empty_board_is_a_draw(void **unused) {
  (void)unused;
  ttt_board b, before;
  cls->init(&b);
  before = b;
  search_result result;
  search(&b, 0, NULL, &result);
  assert_int_equal(result.score, 0);
  assert_true(result.exact);
  assert_int_equal(result.depth, 9);
  assert_true(is_legal(&b, result.best));
  assert_memory_equal(&b, &before, sizeof b);        /* left unchanged */
}

static void test_same_score_as_minimax(void **unused) {
  (void)unused;
  tt_table *tt = tt_new(1);
  assert_non_null(tt);
  rng r;
  rng_seed(&r, 2026);
  int compared = 0;
  for (int trial = 0; trial < 300; trial++) {
    ttt_board b;
    if (!random_position(&r, (int)rng_below(&r, 7), &b)) continue;
    for (int depth = 1; depth <= 5; depth++) {
      int expected = minimax(&b, depth, 0);
      search_result plain, tabled;
      search(&b, depth, NULL, &plain);
      tt_clear(tt);
      search(&b, depth, tt, &tabled);
      assert_int_equal(plain.score, expected);
      assert_int_equal(tabled.score, expected);
      assert_true(is_legal(&b, plain.best));
      assert_true(is_legal(&b, tabled.best));
      compared++;
    }
  }
  assert_true(compared > 500);
  tt_free(tt);
}

/* With every position searched to the end, alpha-beta gives the solved
   value of each reachable position, and its best move keeps that value. */
static void check_solved(ttt_board *b, tt_table *tt, int *positions) {
  if (cls->status(b) != GAME_ONGOING) return;
  search_result result;
  search(b, 0, tt, &result);
  assert_true(result.exact);
  assert_int_equal(result.score, minimax(b, 9, 0));
  game_undo undo;
  cls->make(b, result.best, &undo);
  int after = minimax(b, 9, 0);
  cls->unmake(b, result.best, &undo);
  int moved = after > 0 ? -(after - 1) : after < 0 ? -(after + 1) : 0;
  assert_int_equal(moved, result.score);
  (*positions)++;
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(b, moves);
  for (int i = 0; i < n; i++) {
    cls->make(b, moves[i], &undo);
    check_solved(b, tt, positions);
    cls->unmake(b, moves[i], &undo);
  }
}

static void test_every_position_solved(void **unused) {
  (void)unused;
  tt_table *tt = tt_new(1);
  ttt_board b;
  cls->init(&b);
  int positions = 0;
  check_solved(&b, tt, &positions);   /* paths, not distinct positions */
  assert_int_equal(positions, 294778);
  tt_free(tt);
}

static void test_finds_the_quickest_win(void **unused) {
  (void)unused;
  ttt_board b;
  cls->init(&b);
  /* x: a1, b2; o: a3, c1 ... x to move wins at once on c3. */
  const int squares[] = {0, 6, 4, 2};
  for (int i = 0; i < 4; i++) ttt_make(&b, squares[i]);
  search_result result;
  search(&b, 0, NULL, &result);
  assert_int_equal(result.score, GAME_SCORE_WIN - 1);
  assert_true(result.exact);
  char name[3];
  ttt_square_name((int)result.best, name);
  assert_string_equal(name, "c3");
  assert_int_equal(result.pv_length, 1);
}

static void test_node_limit_still_gives_a_move(void **unused) {
  (void)unused;
  ttt_board b;
  cls->init(&b);
  search_options options = {0};
  search_limit limit = {.max_nodes = 5};
  limit_start(&limit);
  search_result result;
  search_alphabeta(cls, &b, &options, &limit, &result);
  assert_true(limit.stopped);
  assert_false(result.exact);
  assert_true(is_legal(&b, result.best));
}

static void test_finished_game_has_no_move(void **unused) {
  (void)unused;
  ttt_board b;
  cls->init(&b);
  const int squares[] = {0, 3, 1, 4, 2};             /* x takes row 1 */
  for (int i = 0; i < 5; i++) ttt_make(&b, squares[i]);
  search_result result;
  search(&b, 0, NULL, &result);
  assert_true(result.best == GAME_NO_MOVE);
  assert_int_equal(result.score, -GAME_SCORE_WIN);   /* o to move, lost */
}

/* ------------------------------------------------------------------ table */

static void test_table_keeps_deeper_and_proven(void **unused) {
  (void)unused;
  tt_table *tt = tt_new(1);
  uint64_t key = 0x123456789abcdef0u;
  assert_null(tt_probe(tt, key));
  tt_store(tt, key, 5, TT_EXACT, 17, 3, false);
  tt_store(tt, key, 2, TT_LOWER, 40, 4, false);     /* shallower: ignored */
  const tt_entry *e = tt_probe(tt, key);
  assert_non_null(e);
  assert_int_equal(e->score, 17);
  assert_int_equal(e->move, 3);
  tt_store(tt, key, 1, TT_EXACT, 0, 5, true);       /* proven wins */
  e = tt_probe(tt, key);
  assert_int_equal(e->move, 5);
  assert_true(e->proven);
  assert_null(tt_probe(tt, key ^ (1ull << 40)));    /* other check bits */
  tt_clear(tt);
  assert_null(tt_probe(tt, key));
  assert_int_equal(tt_bytes(tt), 1 << 20);
  tt_free(tt);
}

/* ------------------------------------------------------------------- MCTS */

static void mcts(ttt_board *b, uint64_t playouts, uint64_t seed,
                 mcts_result *result) {
  mcts_options options = {.exploration = 1.4, .seed = seed};
  search_limit limit = {.max_nodes = playouts};
  limit_start(&limit);
  search_mcts(cls, b, &options, &limit, result);
}

static void test_mcts_is_reproducible(void **unused) {
  (void)unused;
  ttt_board b, before;
  cls->init(&b);
  before = b;
  mcts_result one, two, other;
  mcts(&b, 3000, 7, &one);
  mcts(&b, 3000, 7, &two);
  mcts(&b, 3000, 8, &other);
  assert_int_equal(one.playouts, 3000);
  assert_true(one.best == two.best);
  assert_true(one.value == two.value);
  assert_int_equal(one.tree_nodes, two.tree_nodes);
  assert_true(one.tree_nodes != other.tree_nodes || one.value != other.value);
  assert_memory_equal(&b, &before, sizeof b);
  assert_true(is_legal(&b, one.best));
  assert_true(one.pv_length >= 2);
  assert_true(one.pv[0] == one.best);
}

static void test_mcts_wins_and_blocks(void **unused) {
  (void)unused;
  ttt_board b;
  cls->init(&b);
  const int squares[] = {0, 6, 4};        /* x a1 b2, o a3: o must take c3 */
  for (int i = 0; i < 3; i++) ttt_make(&b, squares[i]);
  mcts_result result;
  mcts(&b, 2000, 1, &result);
  char name[3];
  ttt_square_name((int)result.best, name);
  assert_string_equal(name, "c3");
  ttt_make(&b, 1);                        /* o b1 instead: x wins on c3 */
  mcts(&b, 2000, 1, &result);
  ttt_square_name((int)result.best, name);
  assert_string_equal(name, "c3");
  assert_true(result.value > 0.9);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_empty_board_is_a_draw),
    cmocka_unit_test(test_same_score_as_minimax),
    cmocka_unit_test(test_every_position_solved),
    cmocka_unit_test(test_finds_the_quickest_win),
    cmocka_unit_test(test_node_limit_still_gives_a_move),
    cmocka_unit_test(test_finished_game_has_no_move),
    cmocka_unit_test(test_table_keeps_deeper_and_proven),
    cmocka_unit_test(test_mcts_is_reproducible),
    cmocka_unit_test(test_mcts_wins_and_blocks),
  };
  return cmocka_run_group_tests(tests, 0, NULL);
}
