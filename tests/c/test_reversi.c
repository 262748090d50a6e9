/*
** test_reversi.c: Reversi rules on every size: perft against the
** published counts, the seed's 4x4 start, transcripts and board strings
** both ways, make/unmake, passes and the end of the game.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/game.h"
#include "base/hash.h"
#include "reversi/eval.h"
#include "reversi/reversi.h"

/* From the 8x8 start (Aart Bik's counts), and 6x6 to depth 9. */
static void test_perft(void **unused) {
  (void)unused;
  static const uint64_t eight[] = {4, 12, 56, 244, 1396, 8200, 55092, 390216,
                                   3005288};
  static const uint64_t six[] = {4, 12, 56, 244, 1364, 7604, 47740, 308716,
                                 2114912};
  reversi_board b;
  reversi_init(&b, 8);
  for (int d = 1; d <= 9; d++) assert_int_equal(reversi_perft(&b, d, NULL), eight[d - 1]);
  reversi_init(&b, 6);
  for (int d = 1; d <= 9; d++) assert_int_equal(reversi_perft(&b, d, NULL), six[d - 1]);
  /* The protocol's perft counts the same, passes being moves there. */
  reversi_init(&b, 8);
  assert_int_equal(game_perft(&reversi_class, &b, 6), eight[5]);
  reversi_init(&b, 4);
  assert_int_equal(game_perft(&reversi_class, &b, 7), reversi_perft(&b, 7, NULL));
}

static int square(const reversi_board *b, const char *name) {
  return reversi_parse_square(b, name, strlen(name));
}

/* The seed's board: b2, c3 white, c2, b3 black; black plays a2 b1 c4 d3. */
static void test_seed_start(void **unused) {
  (void)unused;
  reversi_board b;
  reversi_init(&b, 4);
  assert_true(reversi_discs(&b, REVERSI_WHITE) ==
              ((uint64_t)1 << square(&b, "b2") | (uint64_t)1 << square(&b, "c3")));
  assert_true(reversi_discs(&b, REVERSI_BLACK) ==
              ((uint64_t)1 << square(&b, "c2") | (uint64_t)1 << square(&b, "b3")));
  uint64_t want = 0;
  for (const char *const *m = (const char *const[]){"a2", "b1", "c4", "d3", NULL}; *m; m++)
    want |= (uint64_t)1 << square(&b, *m);
  assert_true(reversi_legal(&b) == want);
  assert_int_equal(square(&b, "e1"), -1);         /* off a 4x4 board */
  assert_int_equal(square(&b, "A5"), -1);
  assert_int_equal(square(&b, "PASS"), REVERSI_PASS);
  char name[5];
  reversi_square_name(&b, square(&b, "D4"), name);
  assert_string_equal(name, "d4");
}

/* The picture, plain and for a terminal (the last move marked). */
static void test_render(void **unused) {
  (void)unused;
  reversi_board b;
  reversi_init(&b, 4);
  int a2 = square(&b, "a2");
  reversi_make(&b, a2);
  char text[512];
  size_t n = reversi_render(&b, NULL, text, sizeof text);
  assert_int_equal(n, strlen(text));
  assert_string_equal(text, "  a b c d\n1 \u00b7 . \u00b7 .\n2 \u25cf \u25cf \u25cf .\n"
                            "3 \u00b7 \u25cf \u25cb .\n4 . . . .\n\u25cf 4 \u25cb 1, white to move");
  game_style style = {true, (game_move)a2};
  n = reversi_render(&b, &style, text, sizeof text);
  assert_int_equal(n, strlen(text));
  assert_non_null(strstr(text, "\n2 \033[7m\u25cf\033[0m \u25cf \u25cf .\n"));
  style.last = REVERSI_PASS;                /* a pass marks nothing */
  reversi_render(&b, &style, text, sizeof text);
  assert_null(strstr(text, "\033[7m"));
}

static void count_played(int square, void *context) {
  (void)square;
  (*(int *)context)++;
}

/* Plays random games on each size: make/unmake restore the board, the
   transcript and board string read back to the same position. */
static void test_random_games(void **unused) {
  (void)unused;
  uint64_t seed = 11;
  for (int size = 4; size <= 8; size += 2) {
    for (int game = 0; game < 30; game++) {
      reversi_board b, start;
      reversi_init(&b, size);
      start = b;
      char record[400] = "";
      int squares[128], plies = 0;
      uint64_t flips[128];
      while (!reversi_is_over(&b)) {
        game_move moves[64];
        int n = reversi_class.moves(&b, moves);
        assert_true(n > 0);
        int sq = (int)moves[hash_next(&seed) % (uint64_t)n];
        reversi_board before = b;
        flips[plies] = reversi_make(&b, sq);
        squares[plies++] = sq;
        assert_int_equal(__builtin_popcountll(b.player | b.opponent),
                         __builtin_popcountll(before.player | before.opponent) +
                             (sq != REVERSI_PASS));
        assert_true((b.player | b.opponent) == ((b.player | b.opponent) & b.mask));
        char name[5];
        reversi_square_name(&b, sq, name);
        if (sq != REVERSI_PASS) strcat(record, name);   /* passes implicit */
      }
      /* The transcript replays to the same end. */
      reversi_board replay;
      reversi_init(&replay, size);
      int played = 0;
      reversi_record_error err;
      assert_true(reversi_play_record(&replay, record, strlen(record), count_played,
                                      &played, &err));
      assert_int_equal(played, plies);
      assert_memory_equal(&replay, &b, sizeof b);
      /* The board string too. */
      char text[80];
      reversi_format_board(&b, text, sizeof text);
      reversi_board read;
      assert_null(reversi_parse_board(text, strlen(text), &read));
      assert_memory_equal(&read, &b, sizeof b);
      /* A finished game takes no more moves. */
      reversi_board after = b;
      assert_false(reversi_play_record(&after, "a1", 2, NULL, NULL, &err));
      assert_string_equal(err.why, "the game is already over");
      /* And unmaking everything gives the start back. */
      while (plies > 0) {
        plies--;
        reversi_unmake(&b, squares[plies], flips[plies]);
      }
      assert_memory_equal(&b, &start, sizeof b);
    }
  }
}

/* The discs a disc of p on square turns, walking each direction a square
   at a time. */
static uint64_t walked_flips(uint64_t p, uint64_t o, int square) {
  static const int step[8][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1},
                                 {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};
  uint64_t flips = 0;
  for (int d = 0; d < 8; d++) {
    uint64_t run = 0;
    int row = square / 8 + step[d][0], col = square % 8 + step[d][1];
    for (; row >= 0 && row < 8 && col >= 0 && col < 8;
         row += step[d][0], col += step[d][1]) {
      uint64_t bit = (uint64_t)1 << (row * 8 + col);
      if (o & bit) {
        run |= bit;
        continue;
      }
      if (p & bit) flips |= run;
      break;
    }
  }
  return flips;
}

/* Moves and flips against the walk, on boards of random discs (not all
   reachable in a game, which tries every edge). */
static void test_flips_by_walking(void **unused) {
  (void)unused;
  uint64_t seed = 5;
  for (int board = 0; board < 3000; board++) {
    uint64_t a = hash_next(&seed), b = hash_next(&seed);
    uint64_t p = a & b, o = a & ~b;       /* a quarter each, half empty */
    if (board % 3 == 0) o |= ~(p | o) & hash_next(&seed);  /* fuller */
    uint64_t moves = 0;
    for (int square = 0; square < 64; square++) {
      if ((p | o) >> square & 1) continue;
      uint64_t flips = walked_flips(p, o, square);
      if (flips) moves |= (uint64_t)1 << square;
      assert_true(reversi_flips(p, o, square) == flips);
    }
    assert_true(reversi_moves_of(p, o) == moves);
  }
}

static void test_bad_records(void **unused) {
  (void)unused;
  reversi_board b;
  reversi_record_error err;
  reversi_init(&b, 8);
  assert_false(reversi_play_record(&b, "f5d6c3 a1", 9, NULL, NULL, &err));
  assert_int_equal(err.move, 4);
  assert_int_equal(err.offset, 7);
  assert_string_equal(err.why, "illegal move");
  reversi_init(&b, 8);
  assert_false(reversi_play_record(&b, "f5z9", 4, NULL, NULL, &err));
  assert_int_equal(err.move, 2);
  assert_string_equal(err.why, "not a square of this board");
  reversi_init(&b, 8);
  assert_false(reversi_play_record(&b, "f5 pass", 7, NULL, NULL, &err));
  assert_string_equal(err.why, "a pass while a move exists");
  static const char *const bad_boards[] = {
    "", "X", "---------------------------OX------XO--------------------------- Z",
    "---------------------------OX------XO--------------------------- X X",
    "---------------------------OQ------XO--------------------------- X",
    "---------------------------OX------XO-------------------------- X",
  };
  for (size_t i = 0; i < sizeof bad_boards / sizeof bad_boards[0]; i++)
    assert_non_null(reversi_parse_board(bad_boards[i], strlen(bad_boards[i]), &b));
}

/* The final score gives the empty squares to the winner. */
static void test_final_score(void **unused) {
  (void)unused;
  uint64_t mask = ~(uint64_t)0;
  assert_int_equal(reversi_final_score(0xff, 0xf00, mask), 4 + 52);
  assert_int_equal(reversi_final_score(0xf, 0xff00, mask), -4 - 52);
  assert_int_equal(reversi_final_score(0xf, 0xf0, mask), 0);
  reversi_board b;
  reversi_init(&b, 4);
  assert_int_equal(reversi_final_score(b.player, b.opponent, b.mask), 0);
}

/* The evaluation sees the same position in each of its 8 symmetries, on
   every size and at every stage of random games; on 8x8 the trained
   weights are in, and the features are what it adds up. */
static void test_eval_symmetric(void **unused) {
  (void)unused;
  assert_true(reversi_eval_trained());
  uint64_t seed = 5;
  for (int size = 4; size <= 8; size += 2) {
    for (int game = 0; game < 40; game++) {
      reversi_board b;
      reversi_init(&b, size);
      while (!reversi_is_over(&b)) {
        int value = reversi_eval(&b);
        for (int k = 1; k < 8; k++) {
          reversi_board image = b;
          image.player = reversi_symmetry(b.player, k);
          image.opponent = reversi_symmetry(b.opponent, k);
          assert_int_equal(reversi_eval(&image), value);
        }
        uint64_t moves = reversi_legal(&b);
        int n = __builtin_popcountll(moves);
        if (n) {
          int k = (int)(hash_next(&seed) % (uint64_t)n);
          while (k--) moves &= moves - 1;
        }
        reversi_make(&b, moves ? __builtin_ctzll(moves) : REVERSI_PASS);
      }
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_perft),
    cmocka_unit_test(test_seed_start),
    cmocka_unit_test(test_render),
    cmocka_unit_test(test_random_games),
    cmocka_unit_test(test_flips_by_walking),
    cmocka_unit_test(test_bad_records),
    cmocka_unit_test(test_final_score),
    cmocka_unit_test(test_eval_symmetric),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
