/*
** test_connect4.c: the Connect Four bitboard against a plain grid.
**
** The grid below is the rules written the slow, obvious way: an array of
** cells and a scan of every line of four.  Random games on many board
** sizes must agree with the bitboard move for move, and perft through the
** protocol must agree with a grid perft.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/game.h"
#include "base/hash.h"
#include "connect4/connect4.h"

typedef struct grid {
  int width, height, turn;
  int cells[C4_MAX_WIDTH][16];     /* [column][row], -1 empty */
  int heights[C4_MAX_WIDTH];
} grid;

static void grid_init(grid *g, int width, int height) {
  g->width = width;
  g->height = height;
  g->turn = C4_YELLOW;
  for (int c = 0; c < width; c++) {
    g->heights[c] = 0;
    for (int r = 0; r < height; r++) g->cells[c][r] = -1;
  }
}

static void grid_play(grid *g, int column) {
  g->cells[column][g->heights[column]++] = g->turn;
  g->turn ^= 1;
}

static int grid_four(const grid *g, int colour) {
  static const int dirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
  for (int c = 0; c < g->width; c++)
    for (int r = 0; r < g->height; r++)
      for (int d = 0; d < 4; d++) {
        int k = 0;
        while (k < 4) {
          int cc = c + k * dirs[d][0], rr = r + k * dirs[d][1];
          if (cc < 0 || cc >= g->width || rr < 0 || rr >= g->height ||
              g->cells[cc][rr] != colour)
            break;
          k++;
        }
        if (k == 4) return 1;
      }
  return 0;
}

static uint64_t grid_perft(grid *g, int depth) {
  if (depth == 0) return 1;
  if (grid_four(g, g->turn ^ 1)) return 0;
  uint64_t leaves = 0;
  for (int c = 0; c < g->width; c++) {
    if (g->heights[c] == g->height) continue;
    grid_play(g, c);
    leaves += grid_perft(g, depth - 1);
    g->heights[c]--;
    g->cells[c][g->heights[c]] = -1;
    g->turn ^= 1;
  }
  return leaves;
}

static void test_sizes(void **unused) {
  (void)unused;
  assert_true(c4_size_ok(7, 6));
  assert_true(c4_size_ok(4, 4));
  assert_true(c4_size_ok(8, 7));       /* 8 * 8 = 64 */
  assert_true(c4_size_ok(9, 6));       /* 9 * 7 = 63 */
  assert_false(c4_size_ok(8, 8));
  assert_false(c4_size_ok(10, 4));     /* columns are one digit */
  assert_false(c4_size_ok(0, 6));
  assert_false(c4_size_ok(7, 0));
}

/* Random games on every size agree with the grid on every cell, on the
   status, and undo restores every byte. */
static void test_random_games_match_grid(void **unused) {
  (void)unused;
  static const int sizes[][2] = {{7, 6}, {4, 4}, {5, 4}, {6, 5}, {8, 7},
                                 {9, 6}, {4, 11}, {1, 5}, {2, 2}, {5, 9}};
  uint64_t seed = 12345;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int width = sizes[s][0], height = sizes[s][1];
    for (int game = 0; game < 300; game++) {
      c4_board board, before[C4_MAX_CELLS];
      int columns[C4_MAX_CELLS];
      grid g;
      c4_init(&board, width, height);
      grid_init(&g, width, height);
      int n = 0;
      while (c4_status(&board) == GAME_ONGOING) {
        int column;
        do column = (int)(hash_next(&seed) % (uint64_t)width);
        while (!c4_can_play(&board, column));
        before[n] = board;
        columns[n++] = column;
        c4_play(&board, column);
        grid_play(&g, column);
        for (int c = 0; c < width; c++)
          for (int r = 0; r < height; r++)
            assert_int_equal(c4_cell(&board, c, r), g.cells[c][r]);
        int yellow = grid_four(&g, C4_YELLOW), red = grid_four(&g, C4_RED);
        game_status expected = yellow ? GAME_WIN_0 : red ? GAME_WIN_1
                               : n == width * height ? GAME_DRAW : GAME_ONGOING;
        assert_int_equal(c4_status(&board), expected);
      }
      while (n > 0) {
        c4_undo(&board, columns[--n]);
        assert_memory_equal(&board, &before[n], sizeof board);
      }
    }
  }
}

static void test_perft_matches_grid(void **unused) {
  (void)unused;
  static const int sizes[][3] = {{7, 6, 7}, {4, 4, 9}, {9, 6, 5}, {5, 5, 8}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    c4_board board;
    grid g;
    c4_init(&board, sizes[s][0], sizes[s][1]);
    grid_init(&g, sizes[s][0], sizes[s][1]);
    for (int depth = 0; depth <= sizes[s][2]; depth++)
      assert_int_equal(game_perft(&c4_class, &board, depth),
                       grid_perft(&g, depth));
  }
  /* With no game able to end before ply 7, 7x6 perft is 7^d up to 6. */
  c4_board board;
  c4_init(&board, 7, 6);
  assert_int_equal(game_perft(&c4_class, &board, 6), 117649);
}

static c4_error from_picture_first(const char *picture, int to_move,
                                   int first, c4_board *board) {
  signed char cells[C4_MAX_CELLS];
  int bad;
  assert_int_equal(c4_parse_row(picture, cells, C4_MAX_CELLS, &bad), 42);
  c4_parse_error err;
  return c4_from_cells(board, 7, 6, cells, to_move, first, &err);
}

static c4_error from_picture(const char *picture, int to_move, c4_board *board) {
  return from_picture_first(picture, to_move, C4_YELLOW, board);
}

/* Four in a row must not wrap from the top of a column into the bottom of
   the next: the spare bit between them is what stops it. */
static void test_no_wrap(void **unused) {
  (void)unused;
  c4_board board;
  assert_int_equal(from_picture("Y......"
                                "Y......"
                                "Y......"
                                "R......"
                                "R......"
                                "RY.....", -1, &board), C4_OK);
  assert_int_equal(board.turn, C4_RED);
  assert_int_equal(c4_status(&board), GAME_ONGOING);
}

static void test_load_errors(void **unused) {
  (void)unused;
  struct { const char *text; c4_error code; int at; } cases[] = {
    {"4x", C4_EBADCHAR, 1}, {"48", C4_ECOLUMN, 1}, {"0", C4_ECOLUMN, 0},
    {"1111111", C4_EFULL, 6}, {"12121213", C4_EOVER, 7},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    c4_board board;
    c4_init(&board, 7, 6);
    int moves[C4_MAX_CELLS];
    c4_parse_error err;
    assert_int_equal(c4_load(&board, cases[i].text, moves, &err), -1);
    assert_int_equal(err.code, cases[i].code);
    assert_int_equal(err.at, cases[i].at);
    assert_int_equal(board.mask, 0);          /* left as it was */
  }
}

static void test_from_cells(void **unused) {
  (void)unused;
  c4_board board, played;
  assert_int_equal(from_picture(". . . . . . ."
                                ". . . . . . ."
                                ". . . . . . ."
                                ". . . . . . ."
                                ". . . R . . ."
                                ". . R Y Y . .", -1, &board), C4_OK);
  int moves[C4_MAX_CELLS];
  c4_parse_error err;
  c4_init(&played, 7, 6);
  assert_int_equal(c4_load(&played, "4453", moves, &err), 4);
  assert_memory_equal(&board, &played, sizeof board);
  assert_int_equal(from_picture("......." "......." "......." "......."
                                "...R..." ".......", -1, &board), C4_EFLOATING);
  assert_int_equal(from_picture("......." "......." "......." "......."
                                "......." "...YY..", -1, &board), C4_ECOUNT);
  /* yellow moves first: with yellow to move the counts are equal, with
     red to move yellow has one more; a game that red began is told so */
  assert_int_equal(from_picture("......." "......." "......." "......."
                                "......." "...YR..", C4_RED, &board), C4_ECOUNT);
  assert_int_equal(from_picture("......." "......." "......." "......."
                                "......." "...R...", -1, &board), C4_ECOUNT);
  assert_int_equal(from_picture("......." "......." "......." "......."
                                "......." "...Y...", -1, &board), C4_OK);
  assert_int_equal(board.turn, C4_RED);
  assert_int_equal(from_picture_first("......." "......." "......." "......."
                                      "......." "...YR..", C4_RED, C4_RED,
                                      &board), C4_OK);
  assert_int_equal(board.turn, C4_RED);
  assert_int_equal(from_picture_first("......." "......." "......." "......."
                                      "......." "...R...", -1, C4_RED, &board),
                   C4_OK);
  assert_int_equal(board.turn, C4_YELLOW);
}

static void test_render(void **unused) {
  (void)unused;
  c4_board board;
  c4_init(&board, 4, 4);
  int moves[C4_MAX_CELLS];
  c4_parse_error err;
  assert_int_equal(c4_load(&board, "12", moves, &err), 2);
  char text[512];
  c4_render(&board, NULL, text, sizeof text);
  assert_string_equal(text,
    "|  |  |  |  |\n|  |  |  |  |\n|  |  |  |  |\n"
    "|\xf0\x9f\x9f\xa1|\xf0\x9f\x94\xb4|  |  |\n  1  2  3  4\nyellow to move");
  /* in colour: a blue frame, the last chip (column 2) marked */
  game_style style = {true, 1};
  size_t n = c4_render(&board, &style, text, sizeof text);
  assert_int_equal(n, strlen(text));
  assert_non_null(strstr(text, "\033[34m|\033[0m\xf0\x9f\x9f\xa1\033[34m|\033[0m"
                               "\033[7m\xf0\x9f\x94\xb4\033[0m\033[34m|\033[0m  "));
  assert_non_null(strstr(text, "\n  1  2  3  4\nyellow to move"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sizes),
    cmocka_unit_test(test_random_games_match_grid),
    cmocka_unit_test(test_perft_matches_grid),
    cmocka_unit_test(test_no_wrap),
    cmocka_unit_test(test_load_errors),
    cmocka_unit_test(test_from_cells),
    cmocka_unit_test(test_render),
  };
  return cmocka_run_group_tests_name("connect4", tests, NULL, NULL);
}
