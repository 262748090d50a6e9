/*
** test_connect4_book.c: the opening book.  Books of small boards are made
** on the fly (a 7x6 book takes minutes: `make book`), written to a
** temporary file and read back; their bounds must hold the scores that
** solves without a book find, and solves with the book must agree with
** those without.  Damaged files must be refused with the right error.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "connect4/book.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"

static c4_table *table;
static char path[64];

static int setup(void **unused) {
  (void)unused;
  table = c4_table_new();
  snprintf(path, sizeof path, "/tmp/ludus-book-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  close(fd);
  return table ? 0 : -1;
}

static int teardown(void **unused) {
  (void)unused;
  c4_table_free(table);
  remove(path);
  return 0;
}

static c4_book *generate(int width, int height, int plies) {
  search_limit limit = {0};
  limit_start(&limit);
  c4_book_error error;
  c4_book *book = c4_book_generate(width, height, plies, plies / 2, table,
                                   &limit, NULL, NULL, &error);
  assert_non_null(book);
  assert_int_equal(error, C4_BOOK_OK);
  return book;
}

static int solve_score(const c4_board *board) {
  search_limit limit = {0};
  limit_start(&limit);
  c4_result r = c4_solve(board, table, &limit, false);
  assert_true(r.complete);
  return r.score;
}

/* Every position of up to plies chips, depth first: the book's bounds
   hold the score found without a book, and a solve with the book finds
   the same score.  Collects the entries found.  (The table is not cleared
   between solves: what it holds is exact either way.) */
typedef struct seen {
  uint64_t keys[4096];
  int count;
} seen;

static void check_positions(const c4_book *book, c4_board *board, int plies,
                            seen *held) {
  if (c4_status(board) != GAME_ONGOING) return;
  int lower, upper;
  bool in_book = c4_book_lookup(book, board, &lower, &upper);
  c4_table_use_book(table, NULL);
  int score = solve_score(board);
  if (in_book) {
    uint64_t key = c4_book_key(book, board->current + board->mask);
    int i = 0;
    while (i < held->count && held->keys[i] != key) i++;
    if (i == held->count && held->count < 4096) held->keys[held->count++] = key;
    if (lower > score || score > upper)
      fail_msg("book bounds [%d, %d] miss the score %d", lower, upper, score);
  }
  c4_table_use_book(table, book);
  assert_int_equal(solve_score(board), score);
  c4_table_use_book(table, NULL);
  if (board->moves == plies) return;
  for (int c = 0; c < board->width; c++) {
    if (!c4_can_play(board, c)) continue;
    c4_play(board, c);
    check_positions(book, board, plies, held);
    c4_undo(board, c);
  }
}

/* Positions of up to exact plies have their exact score in the book. */
static void check_exact(const c4_book *book, c4_board *board, int exact) {
  if (c4_status(board) != GAME_ONGOING) return;
  int lower, upper;
  assert_true(c4_book_lookup(book, board, &lower, &upper));
  assert_int_equal(lower, upper);
  if (board->moves == exact) return;
  for (int c = 0; c < board->width; c++) {
    if (!c4_can_play(board, c)) continue;
    c4_play(board, c);
    check_exact(book, board, exact);
    c4_undo(board, c);
  }
}

static void test_book_agrees_with_search(void **unused) {
  (void)unused;
  static const int sizes[][3] = {{5, 4, 4}, {6, 4, 3}, {4, 5, 4}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    c4_book *made = generate(sizes[i][0], sizes[i][1], sizes[i][2]);
    assert_int_equal(c4_book_save(made, path), C4_BOOK_OK);
    c4_book_error error;
    c4_book *book = c4_book_load(path, &error);
    assert_non_null(book);
    assert_int_equal(c4_book_entries(book), c4_book_entries(made));
    assert_int_equal(c4_book_plies(book), sizes[i][2]);
    assert_true(c4_book_entries(book) > 0);
    c4_board board;
    c4_init(&board, sizes[i][0], sizes[i][1]);
    int lower, upper;
    assert_true(c4_book_lookup(book, &board, &lower, &upper));
    assert_int_equal(lower, upper);     /* the empty board is solved */
    check_exact(book, &board, sizes[i][2] / 2);
    static seen held;
    held.count = 0;
    check_positions(book, &board, sizes[i][2] + 1, &held);
    assert_int_equal(held.count, (int)c4_book_entries(book));
    c4_book_free(made);
    c4_book_free(book);
  }
}

/* A position and its mirror image share an entry. */
static void test_book_mirror(void **unused) {
  (void)unused;
  c4_book *book = generate(5, 4, 3);
  const char *records[][2] = {{"1", "5"}, {"12", "54"}, {"332", "334"}};
  for (size_t i = 0; i < sizeof records / sizeof records[0]; i++) {
    c4_board a, b;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    c4_init(&a, 5, 4);
    c4_init(&b, 5, 4);
    assert_true(c4_load(&a, records[i][0], played, &err) > 0);
    assert_true(c4_load(&b, records[i][1], played, &err) > 0);
    int la, ua, lb, ub;
    bool ina = c4_book_lookup(book, &a, &la, &ua);
    assert_int_equal(ina, c4_book_lookup(book, &b, &lb, &ub));
    if (ina) {
      assert_int_equal(la, lb);
      assert_int_equal(ua, ub);
    }
  }
  /* not for another size, nor past its plies */
  c4_board other;
  int lower, upper;
  c4_init(&other, 6, 4);
  assert_false(c4_book_lookup(book, &other, &lower, &upper));
  c4_init(&other, 5, 4);
  int played[C4_MAX_CELLS];
  c4_parse_error err;
  assert_true(c4_load(&other, "3333", played, &err) == 4);
  assert_false(c4_book_lookup(book, &other, &lower, &upper));
  c4_book_free(book);
}

/* A solve of a book position answers from it, without a node. */
static void test_book_answers_at_once(void **unused) {
  (void)unused;
  c4_book *book = generate(6, 4, 2);
  c4_table_use_book(table, book);
  c4_table_clear(table);
  c4_board board;
  c4_init(&board, 6, 4);
  uint64_t hits = c4_table_book_hits(table);
  search_limit limit = {0};
  limit_start(&limit);
  c4_result r = c4_solve(&board, table, &limit, false);
  assert_true(r.complete);
  assert_int_equal(r.score, -1);       /* Tromp: 6x4 is lost by the first */
  assert_int_equal(limit.nodes, 0);
  assert_true(c4_table_book_hits(table) > hits);
  c4_table_use_book(table, NULL);
  c4_book_free(book);
}

static void write_bytes(const unsigned char *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(bytes, 1, n, f), n);
  fclose(f);
}

static void expect_error(c4_book_error expected) {
  c4_book_error error = C4_BOOK_OK;
  c4_book *book = c4_book_load(path, &error);
  assert_null(book);
  assert_int_equal(error, expected);
  assert_true(strlen(c4_book_strerror(error)) > 0);
}

/* Damaged files are refused, never read past their end. */
static void test_bad_files(void **unused) {
  (void)unused;
  c4_book_error error;
  assert_null(c4_book_load("/nonexistent/ludus.book", &error));
  assert_int_equal(error, C4_BOOK_EOPEN);

  c4_book *book = generate(5, 4, 3);
  assert_int_equal(c4_book_save(book, path), C4_BOOK_OK);
  size_t entries = c4_book_entries(book);
  c4_book_free(book);
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  unsigned char good[4096];
  size_t n = fread(good, 1, sizeof good, f);
  fclose(f);
  assert_int_equal(n, 16 + 8 * entries);
  unsigned char bad[4096];

  write_bytes(good, 0);                 /* empty */
  expect_error(C4_BOOK_EFORMAT);
  write_bytes((const unsigned char *)"#!/bin/sh\necho hi\n", 18);
  expect_error(C4_BOOK_EFORMAT);
  write_bytes(good, 12);                /* a cut header */
  expect_error(C4_BOOK_ETRUNCATED);
  write_bytes(good, n - 3);             /* a cut entry */
  expect_error(C4_BOOK_ETRUNCATED);
  write_bytes(good, n - 8);             /* one entry missing */
  expect_error(C4_BOOK_ETRUNCATED);
  memcpy(bad, good, n);
  bad[n] = 0;
  write_bytes(bad, n + 1);              /* a byte too many */
  expect_error(C4_BOOK_ETRUNCATED);
  memcpy(bad, good, n);
  bad[12] = bad[13] = bad[14] = bad[15] = 0xff;   /* a huge count */
  write_bytes(bad, n);
  expect_error(C4_BOOK_ETRUNCATED);
  memcpy(bad, good, n);
  bad[8] = 9;                           /* an unknown version */
  write_bytes(bad, n);
  expect_error(C4_BOOK_EFORMAT);
  memcpy(bad, good, n);
  bad[9] = 8;
  bad[10] = 7;                          /* 8x7: keys too long for books */
  write_bytes(bad, n);
  expect_error(C4_BOOK_ESIZE);
  memcpy(bad, good, n);
  bad[9] = 0;
  write_bytes(bad, n);
  expect_error(C4_BOOK_ESIZE);
  if (entries >= 2) {
    memcpy(bad, good, n);               /* two entries swapped */
    memcpy(bad + 16, good + 24, 8);
    memcpy(bad + 24, good + 16, 8);
    write_bytes(bad, n);
    expect_error(C4_BOOK_EENTRY);
  }
  memcpy(bad, good, n);
  bad[16] = 0x3f;                       /* upper bound 31 on a 5x4 board */
  write_bytes(bad, n);
  expect_error(C4_BOOK_EENTRY);
  memcpy(bad, good, n);
  bad[16] = (unsigned char)(bad[16] & 0xc0);      /* upper below lower */
  write_bytes(bad, n);
  expect_error(C4_BOOK_EENTRY);

  write_bytes(good, n);                 /* and the good file still reads */
  book = c4_book_load(path, &error);
  assert_non_null(book);
  assert_int_equal(c4_book_save(book, "/nonexistent/ludus.book"), C4_BOOK_EOPEN);
  c4_book_free(book);
}

/* Generation refuses sizes books do not cover, and a stopped solve
   makes no book; the table's own book is back in place after. */
static void test_generate_refuses(void **unused) {
  (void)unused;
  search_limit limit = {0};
  limit_start(&limit);
  c4_book_error error;
  assert_null(c4_book_generate(8, 7, 4, 0, table, &limit, NULL, NULL, &error));
  assert_int_equal(error, C4_BOOK_ESIZE);
  assert_null(c4_book_generate(5, 4, -1, 0, table, &limit, NULL, NULL, &error));
  assert_int_equal(error, C4_BOOK_ESIZE);
  assert_null(c4_book_generate(5, 4, 2, 3, table, &limit, NULL, NULL, &error));
  assert_int_equal(error, C4_BOOK_ESIZE);
  c4_book *book = generate(4, 4, 2);
  c4_table_use_book(table, book);
  limit.max_nodes = 1000;
  limit_start(&limit);
  assert_null(c4_book_generate(7, 6, 4, 1, table, &limit, NULL, NULL, &error));
  assert_int_equal(error, C4_BOOK_ESTOPPED);
  assert_ptr_equal(c4_table_book(table), book);
  c4_table_use_book(table, NULL);
  c4_book_free(book);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_book_agrees_with_search),
    cmocka_unit_test(test_book_mirror),
    cmocka_unit_test(test_book_answers_at_once),
    cmocka_unit_test(test_bad_files),
    cmocka_unit_test(test_generate_refuses),
  };
  return cmocka_run_group_tests_name("connect4 book", tests, setup, teardown);
}
