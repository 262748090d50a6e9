/*
** fuzz_c4book.c: Connect Four opening books (c4_book_read, the reader
** behind c4_book_load), the input being the bytes of a book file.
**
** A book read holds what the bytes say, entry for entry; saved, it is
** the same bytes; looked up along a line of play, a position and its
** mirror image get the same bounds; and a small board's solver, told to
** trust the book, still ends with a score its position can have.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "connect4/book.h"
#include "connect4/solve.h"

static char path[64];

static void remove_file(void) { remove(path); }

/* A file of this process's own, for c4_book_save. */
static const char *scratch_path(void) {
  if (!path[0]) {
    snprintf(path, sizeof path, "/tmp/fuzz-c4book-XXXXXX");
    int fd = mkstemp(path);
    FUZZ_CHECK(fd >= 0, "no temporary file");
    close(fd);
    atexit(remove_file);
  }
  return path;
}

static uint64_t get_le(const uint8_t *in, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; i++) value |= (uint64_t)in[i] << (8 * i);
  return value;
}

/* The book holds the header's size and every entry as the bytes say. */
static void check_entries(const c4_book *book, const uint8_t *data,
                          size_t size) {
  FUZZ_CHECK(size >= 16 && memcmp(data, "LUDUSC4B", 8) == 0 && data[8] == 1,
             "a book read from bytes that are not one");
  FUZZ_CHECK(c4_book_width(book) == data[9] && c4_book_height(book) == data[10] &&
             c4_book_plies(book) == data[11], "the header read otherwise");
  size_t count = (size_t)get_le(data + 12, 4);
  FUZZ_CHECK(c4_book_entries(book) == count && size == 16 + 8 * count,
             "%zu entries read of %zu", c4_book_entries(book), count);
  for (size_t i = 0; i < count; i++) {
    uint64_t entry = get_le(data + 16 + 8 * i, 8);
    int lower, upper;
    FUZZ_CHECK(c4_book_bounds(book, entry >> 12, &lower, &upper) &&
               lower == (int)(entry >> 6 & 63) - 32 &&
               upper == (int)(entry & 63) - 32,
               "entry %zu is not found as written", i);
  }
}

/* Saved, the book is the bytes it was read from. */
static void check_saved(const c4_book *book, const uint8_t *data, size_t size) {
  FUZZ_CHECK(c4_book_save(book, scratch_path()) == C4_BOOK_OK, "cannot save");
  FILE *f = fopen(path, "rb");
  FUZZ_CHECK(f, "cannot read back");
  uint8_t *saved = malloc(size + 1);
  FUZZ_CHECK(saved, "out of memory");
  size_t got = fread(saved, 1, size + 1, f);
  fclose(f);
  FUZZ_CHECK(got == size && memcmp(saved, data, size) == 0,
             "saved as %zu other bytes", got);
  free(saved);
}

/* The board with every column in the other order. */
static c4_board mirror(const c4_board *board, const int *moves, int n) {
  c4_board image;
  c4_init(&image, board->width, board->height);
  for (int i = 0; i < n; i++) c4_play(&image, board->width - 1 - moves[i]);
  return image;
}

/* Positions along a line of play that the input picks. */
static void check_lookups(const c4_book *book, fuzz_input *in) {
  c4_board board;
  c4_init(&board, c4_book_width(book), c4_book_height(book));
  int moves[C4_MAX_CELLS], n = 0;
  for (;;) {
    c4_board image = mirror(&board, moves, n);
    int lower, upper, image_lower, image_upper;
    bool found = c4_book_lookup(book, &board, &lower, &upper);
    FUZZ_CHECK(found == c4_book_lookup(book, &image, &image_lower, &image_upper),
               "a position and its mirror image are not both in the book");
    FUZZ_CHECK(!found || (lower == image_lower && upper == image_upper),
               "a position and its mirror image have other bounds");
    FUZZ_CHECK(!found || board.moves <= c4_book_plies(book),
               "a position past the book's plies is found");
    if (c4_status(&board) != GAME_ONGOING || in->at >= in->size) break;
    int playable[C4_MAX_WIDTH], count = 0;
    for (int c = 0; c < board.width; c++)
      if (c4_can_play(&board, c)) playable[count++] = c;
    moves[n] = playable[fuzz_byte(in) % (unsigned)count];
    c4_play(&board, moves[n++]);
  }
}

/* The solver of the empty 4x4 board that trusts the book ends inside
   the scores that board can have, or says it did not finish.  The table
   is not cleared between inputs (4 MiB each time): the solver keeps its
   interval inside the board's scores whatever the table holds. */
static void check_solve(const c4_book *book) {
  static c4_table *table;
  if (c4_book_width(book) != 4 || c4_book_height(book) != 4) return;
  if (!table) table = c4_table_new();
  FUZZ_CHECK(table, "no table");
  c4_table_use_book(table, book);
  c4_board board;
  c4_init(&board, 4, 4);
  search_limit limit = {.max_nodes = 20000};
  limit_start(&limit);
  c4_result r = c4_solve(&board, table, &limit, false);
  c4_table_use_book(table, NULL);
  FUZZ_CHECK(!r.complete || (r.score >= -8 && r.score <= 8 &&
                             r.lower == r.score && r.upper == r.score),
             "a solve ends with %d in [%d, %d]", r.score, r.lower, r.upper);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* fmemopen wants at least one byte */
  FILE *f = fmemopen(size ? (void *)data : (void *)"", size, "rb");
  FUZZ_CHECK(f || !size, "fmemopen failed");
  if (!f) return 0;
  c4_book_error error;
  c4_book *book = c4_book_read(f, &error);
  fclose(f);
  FUZZ_CHECK((book != NULL) == (error == C4_BOOK_OK), "error %d with%s a book",
             (int)error, book ? "" : "out");
  FUZZ_CHECK(c4_book_strerror(error)[0], "no message");
  if (!book) return 0;
  check_entries(book, data, size);
  check_saved(book, data, size);
  fuzz_input in = {data, size, size > 24 ? size - 24 : 0};
  check_lookups(book, &in);
  check_solve(book);
  c4_book_free(book);
  return 0;
}
