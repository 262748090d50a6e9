/*
** test_tictactoe.c: tic-tac-toe rules, through its own functions and
** through the protocol.  Known numbers: 255,168 possible games, 5,478
** reachable positions (Schaefer, "Tic-tac-toe", and many others), the
** game is a draw.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/limit.h"
#include "base/solve.h"
#include "tictactoe/tictactoe.h"

/* A board from a picture, row 3 first: "x.o/.x./..o". */
static ttt_board board_of(const char *rows) {
  ttt_board board = {0, 0};
  int row = 2, column = 0;
  for (const char *p = rows; *p; p++) {
    if (*p == '/') {
      row--;
      column = 0;
      continue;
    }
    int bit = 1 << (3 * row + column++);
    if (*p == 'x') board.x |= (uint16_t)bit;
    if (*p == 'o') board.o |= (uint16_t)bit;
  }
  return board;
}

static void test_start(void **unused) {
  (void)unused;
  ttt_board board;
  ttt_init(&board);
  assert_int_equal(ttt_turn(&board), TTT_X);
  assert_int_equal(ttt_status(&board), GAME_ONGOING);
  game_move moves[GAME_MAX_MOVES];
  assert_int_equal(ttt_moves(&board, moves), 9);
  for (int i = 0; i < 9; i++) assert_int_equal(moves[i], i);
}

static void test_make_unmake(void **unused) {
  (void)unused;
  ttt_board board;
  ttt_init(&board);
  ttt_make(&board, 4);
  assert_int_equal(board.x, 1 << 4);
  assert_int_equal(ttt_turn(&board), TTT_O);
  ttt_make(&board, 0);
  assert_int_equal(board.o, 1);
  assert_int_equal(ttt_turn(&board), TTT_X);
  ttt_unmake(&board, 0);
  ttt_unmake(&board, 4);
  assert_int_equal(board.x | board.o, 0);
}

/* Every line wins, for either side, and only when it is complete. */
static void test_all_lines_win(void **unused) {
  (void)unused;
  for (int i = 0; i < 8; i++) {
    ttt_board board = {ttt_lines[i], 0};
    assert_int_equal(ttt_status(&board), GAME_WIN_0);
    board = (ttt_board){0, ttt_lines[i]};
    assert_int_equal(ttt_status(&board), GAME_WIN_1);
    for (int square = 0; square < 9; square++) {
      if (!(ttt_lines[i] >> square & 1)) continue;
      board = (ttt_board){(uint16_t)(ttt_lines[i] & ~(1u << square)), 0};
      assert_int_equal(ttt_status(&board), GAME_ONGOING);
    }
  }
}

static void test_draw_and_no_moves_at_end(void **unused) {
  (void)unused;
  ttt_board drawn = board_of("xox/xoo/oxx");
  assert_int_equal(ttt_status(&drawn), GAME_DRAW);
  game_move moves[GAME_MAX_MOVES];
  assert_int_equal(ttt_moves(&drawn, moves), 0);
  ttt_board won = board_of("xxx/oo./...");
  assert_int_equal(ttt_status(&won), GAME_WIN_0);
  assert_int_equal(ttt_moves(&won, moves), 0);
}

static void test_squares(void **unused) {
  (void)unused;
  assert_int_equal(ttt_parse_square("a1"), 0);
  assert_int_equal(ttt_parse_square("C1"), 2);
  assert_int_equal(ttt_parse_square("b2"), 4);
  assert_int_equal(ttt_parse_square("c3"), 8);
  const char *bad[] = {"", "a", "d1", "a0", "a4", "a11", "1a", " a1", "a1 "};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    assert_int_equal(ttt_parse_square(bad[i]), -1);
  for (int square = 0; square < 9; square++) {
    char name[3];
    ttt_square_name(square, name);
    assert_int_equal(ttt_parse_square(name), square);
  }
}

static void test_render(void **unused) {
  (void)unused;
  ttt_board board = board_of("..o/.x./x..");
  char text[128];
  size_t n = ttt_render(&board, NULL, text, sizeof text);
  assert_string_equal(text, "  a b c\n3 . . o\n2 . x .\n1 x . .\no to move");
  assert_int_equal(n, strlen(text));
  char small[8];                 /* snprintf rules: cut, still terminated */
  assert_int_equal(ttt_render(&board, NULL, small, sizeof small), n);
  assert_int_equal(strlen(small), sizeof small - 1);
  /* in colour the last move (b2) is marked, the rest as in plain text */
  game_style style = {true, (game_move)ttt_parse_square("b2")};
  n = ttt_render(&board, &style, text, sizeof text);
  assert_int_equal(n, strlen(text));
  assert_string_equal(text, "  a b c\n3 . . o\n2 . \033[7mx\033[0m .\n1 x . .\no to move");
  style.color = false;
  ttt_render(&board, &style, text, sizeof text);
  assert_string_equal(text, "  a b c\n3 . . o\n2 . x .\n1 x . .\no to move");
}

static void test_parse_move_errors(void **unused) {
  (void)unused;
  ttt_board board = board_of(".../.x./...");
  const game_class *cls = &ttt_class;
  game_move move;
  const char *why = NULL;
  assert_int_equal(cls->parse_move(&board, "b2", &move, &why), GAME_EILLEGAL);
  assert_string_equal(why, "square is taken");
  assert_int_equal(cls->parse_move(&board, "z9", &move, &why), GAME_EBADTEXT);
  assert_int_equal(cls->parse_move(&board, "A1", &move, &why), GAME_OK);
  assert_int_equal(move, 0);
  ttt_board won = board_of("xxx/oo./...");
  assert_int_equal(cls->parse_move(&won, "c2", &move, &why), GAME_EOVER);
}

/* The number of complete games, through the protocol. */
static void test_count_games(void **unused) {
  (void)unused;
  ttt_board board;
  ttt_init(&board);
  assert_int_equal(game_count_games(&ttt_class, &board), 255168);
  assert_int_equal(board.x | board.o, 0);       /* left as it was */
}

/* Perft through the protocol: 9, 72, 504, 3024, 15120, then games end. */
static void test_perft(void **unused) {
  (void)unused;
  static const uint64_t expected[] = {1, 9, 72, 504, 3024, 15120, 54720,
                                      148176, 200448, 127872};
  ttt_board board;
  ttt_init(&board);
  for (int depth = 0; depth <= 9; depth++)
    assert_int_equal(game_perft(&ttt_class, &board, depth), expected[depth]);
}

/* Reachable positions: every board met on the way, counted once. */
enum { SEEN_SIZE = 1 << 14 };
typedef struct seen_set {
  uint64_t keys[SEEN_SIZE];
  int count;
} seen_set;

static void visit(seen_set *seen, ttt_board *board) {
  uint64_t key = ttt_hash(board);
  size_t i = (size_t)key & (SEEN_SIZE - 1);
  while (seen->keys[i] && seen->keys[i] != key) i = (i + 1) & (SEEN_SIZE - 1);
  if (seen->keys[i]) return;
  seen->keys[i] = key;
  seen->count++;
  game_move moves[GAME_MAX_MOVES];
  int n = ttt_moves(board, moves);
  for (int m = 0; m < n; m++) {
    ttt_make(board, (int)moves[m]);
    visit(seen, board);
    ttt_unmake(board, (int)moves[m]);
  }
}

static void test_reachable_positions(void **unused) {
  (void)unused;
  seen_set *seen = calloc(1, sizeof *seen);
  assert_non_null(seen);
  ttt_board board;
  ttt_init(&board);
  visit(seen, &board);
  assert_int_equal(seen->count, 5478);
  free(seen);
}

/* The hash is exact on tic-tac-toe: no two of the 3^9 boards collide. */
static void test_hash_exact(void **unused) {
  (void)unused;
  int n = 0;
  uint64_t *keys = malloc(19683 * sizeof *keys);
  assert_non_null(keys);
  for (int code = 0; code < 19683; code++) {
    ttt_board board = {0, 0};
    for (int square = 0, c = code; square < 9; square++, c /= 3) {
      if (c % 3 == 1) board.x |= (uint16_t)(1 << square);
      if (c % 3 == 2) board.o |= (uint16_t)(1 << square);
    }
    keys[n++] = ttt_hash(&board);
  }
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (keys[i] == keys[j]) fail_msg("boards %d and %d collide", i, j);
  free(keys);
}

static int solve_sign(ttt_board *board, game_move *best) {
  search_limit limit = {0};
  limit_start(&limit);
  game_solution solution;
  assert_true(game_solve(&ttt_class, board, &limit, &solution));
  *best = solution.best;
  return game_score_sign(solution.score);
}

static void test_solve(void **unused) {
  (void)unused;
  game_move best;
  ttt_board board;
  ttt_init(&board);
  assert_int_equal(solve_sign(&board, &best), 0);          /* a draw */
  assert_int_equal(board.x | board.o, 0);
  /* x to move wins at once on c1, and the solver takes the quickest win */
  board = board_of("x.o/.x./o..");
  assert_int_equal(solve_sign(&board, &best), 1);
  ttt_board after = board;
  ttt_make(&after, (int)best);
  assert_int_equal(ttt_status(&after), GAME_WIN_0);
  /* ... and o loses here: o must block a2, then x's c1 makes two threats. */
  board = board_of("x.o/.../x..");
  assert_int_equal(ttt_turn(&board), TTT_O);
  assert_int_equal(solve_sign(&board, &best), -1);
}

static void test_solve_stops_on_interrupt(void **unused) {
  (void)unused;
  volatile sig_atomic_t flag = 1;
  search_limit limit = {0};
  limit.interrupt = &flag;
  limit_start(&limit);
  ttt_board board;
  ttt_init(&board);
  game_solution solution;
  assert_false(game_solve(&ttt_class, &board, &limit, &solution));
  assert_string_equal(limit_reason(&limit), "interrupted");
  assert_int_equal(board.x | board.o, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_start),
    cmocka_unit_test(test_make_unmake),
    cmocka_unit_test(test_all_lines_win),
    cmocka_unit_test(test_draw_and_no_moves_at_end),
    cmocka_unit_test(test_squares),
    cmocka_unit_test(test_render),
    cmocka_unit_test(test_parse_move_errors),
    cmocka_unit_test(test_count_games),
    cmocka_unit_test(test_perft),
    cmocka_unit_test(test_reachable_positions),
    cmocka_unit_test(test_hash_exact),
    cmocka_unit_test(test_solve),
    cmocka_unit_test(test_solve_stops_on_interrupt),
  };
  return cmocka_run_group_tests_name("tictactoe", tests, NULL, NULL);
}
