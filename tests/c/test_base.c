/*
** test_base.c: the shared pieces of core/base: hashing, limits, and
** replaying records through the protocol.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/game.h"
#include "base/hash.h"
#include "base/limit.h"
#include "tictactoe/tictactoe.h"

/* splitmix64 from seed 0 starts with these (Vigna's reference output). */
static void test_hash_next_known_values(void **unused) {
  (void)unused;
  uint64_t seed = 0;
  assert_true(hash_next(&seed) == 0xe220a8397b1dcdafu);
  assert_true(hash_next(&seed) == 0x6e789e6aa1b965f4u);
  assert_true(hash_next(&seed) == 0x06c45d188009454fu);
}

static void test_zobrist_fill(void **unused) {
  (void)unused;
  uint64_t a[512], b[512];
  hash_zobrist_fill(a, 512, 42);
  hash_zobrist_fill(b, 512, 42);
  assert_memory_equal(a, b, sizeof a);           /* the same every run */
  for (int i = 0; i < 512; i++) {
    assert_true(a[i] != 0);
    for (int j = 0; j < i; j++) assert_true(a[i] != a[j]);
  }
  hash_zobrist_fill(b, 512, 43);
  assert_true(memcmp(a, b, sizeof a) != 0);
}

static void test_limit_nodes(void **unused) {
  (void)unused;
  search_limit limit = {0};
  limit.max_nodes = 1000;
  limit_start(&limit);
  uint64_t ticks = 0;
  while (!limit_tick(&limit)) ticks++;
  assert_int_equal(ticks, 999);
  assert_true(limit.stopped);
  assert_string_equal(limit_reason(&limit), "nodes");
  assert_true(limit_tick(&limit));               /* stays stopped */
}

static void test_limit_time(void **unused) {
  (void)unused;
  search_limit limit = {0};
  limit.max_seconds = 0.02;
  limit_start(&limit);
  while (!limit_tick(&limit)) {}
  assert_true(limit_elapsed(&limit) >= 0.02);
  assert_string_equal(limit_reason(&limit), "time");
}

static void test_limit_none_and_interrupt(void **unused) {
  (void)unused;
  volatile sig_atomic_t flag = 0;
  search_limit limit = {0};
  limit.interrupt = &flag;
  limit_start(&limit);
  for (int i = 0; i < 100000; i++) assert_false(limit_tick(&limit));
  assert_null(limit_reason(&limit));
  flag = 1;
  assert_true(limit_tick(&limit));
  assert_string_equal(limit_reason(&limit), "interrupted");
}

static void test_replay(void **unused) {
  (void)unused;
  ttt_board board;
  ttt_init(&board);
  game_move moves[16];
  game_undo undos[16];
  game_replay_error err;
  int n = game_replay(&ttt_class, &board, " b2,a1;  c3\ta3 ", moves, undos,
                      16, &err);
  assert_int_equal(n, 4);
  assert_int_equal(board.x, 1 << 4 | 1 << 8);
  assert_int_equal(board.o, 1 << 0 | 1 << 6);
  ttt_init(&board);
  assert_int_equal(game_replay(&ttt_class, &board, "", moves, undos, 16, &err),
                   0);
}

static void expect_replay_error(const char *text, int ply, size_t offset,
                                size_t length, game_error code) {
  ttt_board board;
  ttt_init(&board);
  game_move moves[16];
  game_undo undos[16];
  game_replay_error err;
  assert_int_equal(game_replay(&ttt_class, &board, text, moves, undos, 16,
                               &err), -1);
  assert_int_equal(err.ply, ply);
  assert_int_equal(err.offset, offset);
  assert_int_equal(err.length, length);
  assert_int_equal(err.code, code);
  assert_non_null(err.why);
  assert_int_equal(board.x | board.o, 0);     /* unwound to the start */
}

static void test_replay_errors(void **unused) {
  (void)unused;
  expect_replay_error("b2 b2", 2, 3, 2, GAME_EILLEGAL);
  expect_replay_error("b2 a1 d7", 3, 6, 2, GAME_EBADTEXT);
  expect_replay_error("a1 b1 a2 b2 a3 c3", 6, 15, 2, GAME_EOVER);
  expect_replay_error("a1 b1b2", 2, 3, 4, GAME_EBADTEXT);
}

static void test_replay_capacity(void **unused) {
  (void)unused;
  ttt_board board;
  ttt_init(&board);
  game_move moves[2];
  game_undo undos[2];
  game_replay_error err;
  assert_int_equal(game_replay(&ttt_class, &board, "a1 b1 c1", moves, undos,
                               2, &err), -1);
  assert_int_equal(err.ply, 3);
  assert_int_equal(board.x | board.o, 0);
}

static void test_final_score(void **unused) {
  (void)unused;
  ttt_board board = {0x007, 0x018};       /* x made row 1; o to move */
  assert_int_equal(game_final_score(&ttt_class, &board), -GAME_SCORE_WIN);
  ttt_init(&board);
  assert_int_equal(game_final_score(&ttt_class, &board), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_hash_next_known_values),
    cmocka_unit_test(test_zobrist_fill),
    cmocka_unit_test(test_limit_nodes),
    cmocka_unit_test(test_limit_time),
    cmocka_unit_test(test_limit_none_and_interrupt),
    cmocka_unit_test(test_replay),
    cmocka_unit_test(test_replay_errors),
    cmocka_unit_test(test_replay_capacity),
    cmocka_unit_test(test_final_score),
  };
  return cmocka_run_group_tests_name("base", tests, NULL, NULL);
}
