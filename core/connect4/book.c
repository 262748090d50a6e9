/*
** book.c: the opening book (see book.h): reading, writing, lookups, and
** generation by recording what a solve of the empty board proved.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"

#define MAGIC "LUDUSC4B"
#define VERSION 1
#define HEADER_BYTES 16
#define BOUND_BIAS 32           /* a bound b is stored as b + 32 in 6 bits */

struct c4_book {
  int width, height, plies;
  size_t count;
  uint64_t *entries;            /* sorted by key: key << 12 | lower | upper */
  /* while generating: an open-addressing set of the same words, 0 for an
     empty slot, growing at half full */
  uint64_t *slots;
  size_t capacity;              /* a power of two */
  bool out_of_memory;
};

const char *c4_book_strerror(c4_book_error error) {
  switch (error) {
  case C4_BOOK_OK: return "no error";
  case C4_BOOK_EOPEN: return "cannot open the file";
  case C4_BOOK_EFORMAT: return "not a connect4 book (wrong header)";
  case C4_BOOK_ESIZE: return "a board size books do not cover";
  case C4_BOOK_ETRUNCATED: return "the file does not hold the entries its header counts";
  case C4_BOOK_EENTRY: return "a bad entry (out of order, or bounds out of range)";
  case C4_BOOK_ENOMEM: return "not enough memory";
  case C4_BOOK_EWRITE: return "cannot write the file";
  case C4_BOOK_ESTOPPED: return "the solve was stopped before the end";
  }
  return "unknown error";
}

const char *c4_book_reason(c4_book_error error, int errno_value, char *buf,
                           size_t size) {
  if (error == C4_BOOK_EOPEN && errno_value)
    snprintf(buf, size, "%s: %s", c4_book_strerror(error), strerror(errno_value));
  else
    snprintf(buf, size, "%s", c4_book_strerror(error));
  return buf;
}

bool c4_book_size_ok(int width, int height) {
  return c4_size_ok(width, height) && width * (height + 1) <= 52 &&
         width * height + 1 < 2 * BOUND_BIAS;
}

int c4_book_width(const c4_book *book) { return book->width; }
int c4_book_height(const c4_book *book) { return book->height; }
int c4_book_plies(const c4_book *book) { return book->plies; }
size_t c4_book_entries(const c4_book *book) { return book->count; }

void c4_book_free(c4_book *book) {
  if (!book) return;
  free(book->entries);
  free(book->slots);
  free(book);
}

/* ---- keys and entries ---- */

uint64_t c4_book_key(const c4_book *book, uint64_t key) {
  const int step = book->height + 1;
  const uint64_t column = (UINT64_C(1) << step) - 1;
  uint64_t mirror = 0;
  for (int c = 0; c < book->width; c++)
    mirror |= (key >> (c * step) & column) << ((book->width - 1 - c) * step);
  return mirror < key ? mirror : key;
}

static uint64_t pack(uint64_t key, int lower, int upper) {
  return key << 12 | (uint64_t)(lower + BOUND_BIAS) << 6 |
         (uint64_t)(upper + BOUND_BIAS);
}

static int entry_lower(uint64_t entry) { return (int)(entry >> 6 & 63) - BOUND_BIAS; }
static int entry_upper(uint64_t entry) { return (int)(entry & 63) - BOUND_BIAS; }

/* The score range of the book's board: a bound outside it is corrupt. */
static bool bounds_ok(const c4_book *book, int lower, int upper) {
  int cells = book->width * book->height;
  return -cells / 2 <= lower && lower <= upper && upper <= (cells + 1) / 2;
}

bool c4_book_bounds(const c4_book *book, uint64_t book_key, int *lower,
                    int *upper) {
  size_t low = 0, high = book->count;
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    uint64_t key = book->entries[mid] >> 12;
    if (key == book_key) {
      *lower = entry_lower(book->entries[mid]);
      *upper = entry_upper(book->entries[mid]);
      return true;
    }
    if (key < book_key) low = mid + 1;
    else high = mid;
  }
  return false;
}

bool c4_book_lookup(const c4_book *book, const c4_board *board, int *lower,
                    int *upper) {
  if (board->width != book->width || board->height != book->height ||
      board->moves > book->plies)
    return false;
  return c4_book_bounds(book, c4_book_key(book, board->current + board->mask),
                        lower, upper);
}

/* ---- the file ---- */

static void put_le(unsigned char *out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; i++) out[i] = (unsigned char)(value >> (8 * i));
}

static uint64_t get_le(const unsigned char *in, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; i++) value |= (uint64_t)in[i] << (8 * i);
  return value;
}

c4_book_error c4_book_save(const c4_book *book, const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f) return C4_BOOK_EOPEN;
  unsigned char header[HEADER_BYTES];
  memcpy(header, MAGIC, 8);
  header[8] = VERSION;
  header[9] = (unsigned char)book->width;
  header[10] = (unsigned char)book->height;
  header[11] = (unsigned char)book->plies;
  put_le(header + 12, book->count, 4);
  bool ok = fwrite(header, 1, sizeof header, f) == sizeof header;
  for (size_t i = 0; ok && i < book->count; i++) {
    unsigned char entry[8];
    put_le(entry, book->entries[i], 8);
    ok = fwrite(entry, 1, sizeof entry, f) == sizeof entry;
  }
  if (fclose(f) != 0) ok = false;
  return ok ? C4_BOOK_OK : C4_BOOK_EWRITE;
}

static c4_book *fail(c4_book *book, c4_book_error code, c4_book_error *error) {
  c4_book_free(book);
  *error = code;
  return NULL;
}

c4_book *c4_book_read(FILE *f, c4_book_error *error) {
  unsigned char header[HEADER_BYTES];
  size_t got = fread(header, 1, sizeof header, f);
  if (ferror(f)) return fail(NULL, C4_BOOK_EOPEN, error);  /* a directory */
  if (got < 8 || memcmp(header, MAGIC, 8) != 0)
    return fail(NULL, C4_BOOK_EFORMAT, error);
  if (got < sizeof header) return fail(NULL, C4_BOOK_ETRUNCATED, error);
  if (header[8] != VERSION) return fail(NULL, C4_BOOK_EFORMAT, error);
  if (!c4_book_size_ok(header[9], header[10]) ||
      header[11] > header[9] * header[10])
    return fail(NULL, C4_BOOK_ESIZE, error);
  c4_book *book = calloc(1, sizeof *book);
  if (!book) return fail(NULL, C4_BOOK_ENOMEM, error);
  book->width = header[9];
  book->height = header[10];
  book->plies = header[11];
  size_t count = (size_t)get_le(header + 12, 4);
  /* the size on disk must agree before any memory is taken for it */
  if (fseek(f, 0, SEEK_END) != 0) return fail(book, C4_BOOK_ETRUNCATED, error);
  long size = ftell(f);
  if (size < 0 || (uint64_t)size != HEADER_BYTES + (uint64_t)count * 8 ||
      fseek(f, HEADER_BYTES, SEEK_SET) != 0)
    return fail(book, C4_BOOK_ETRUNCATED, error);
  book->entries = malloc((count ? count : 1) * sizeof *book->entries);
  if (!book->entries) return fail(book, C4_BOOK_ENOMEM, error);
  const uint64_t key_limit = UINT64_C(1) << (book->width * (book->height + 1));
  for (size_t i = 0; i < count; i++) {
    unsigned char bytes[8];
    if (fread(bytes, 1, sizeof bytes, f) != sizeof bytes)
      return fail(book, C4_BOOK_ETRUNCATED, error);
    uint64_t entry = get_le(bytes, 8);
    if ((entry >> 12) >= key_limit ||
        (i > 0 && entry >> 12 <= book->entries[i - 1] >> 12) ||
        !bounds_ok(book, entry_lower(entry), entry_upper(entry)))
      return fail(book, C4_BOOK_EENTRY, error);
    book->entries[i] = entry;
    book->count = i + 1;
  }
  *error = C4_BOOK_OK;
  return book;
}

c4_book *c4_book_load(const char *path, c4_book_error *error) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail(NULL, C4_BOOK_EOPEN, error);
  c4_book *book = c4_book_read(f, error);
  fclose(f);
  return book;
}

/* ---- generation ---- */

static size_t slot_of(uint64_t key, size_t capacity) {
  return (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 20) & (capacity - 1);
}

static bool grow(c4_book *book) {
  size_t capacity = book->capacity ? 2 * book->capacity : 1 << 16;
  uint64_t *slots = calloc(capacity, sizeof *slots);
  if (!slots) return false;
  for (size_t i = 0; i < book->capacity; i++) {
    uint64_t entry = book->slots[i];
    if (!entry) continue;
    size_t j = slot_of(entry >> 12, capacity);
    while (slots[j]) j = (j + 1) & (capacity - 1);
    slots[j] = entry;
  }
  free(book->slots);
  book->slots = slots;
  book->capacity = capacity;
  return true;
}

void c4_book_record(c4_book *book, uint64_t key, int lower, int upper) {
  if (book->out_of_memory) return;
  if (2 * (book->count + 1) > book->capacity && !grow(book)) {
    book->out_of_memory = true;
    return;
  }
  key = c4_book_key(book, key);
  size_t i = slot_of(key, book->capacity);
  for (; book->slots[i]; i = (i + 1) & (book->capacity - 1)) {
    uint64_t entry = book->slots[i];
    if (entry >> 12 != key) continue;
    if (lower < entry_lower(entry)) lower = entry_lower(entry);
    if (upper > entry_upper(entry)) upper = entry_upper(entry);
    book->slots[i] = pack(key, lower, upper);
    return;
  }
  book->slots[i] = pack(key, lower, upper);
  book->count++;
}

static int compare_entries(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a >> 12, y = *(const uint64_t *)b >> 12;
  return (x > y) - (x < y);
}

/* The recorded set, sorted into the array lookups search. */
static bool finish(c4_book *book) {
  book->entries = malloc((book->count ? book->count : 1) * sizeof *book->entries);
  if (!book->entries) return false;
  size_t n = 0;
  for (size_t i = 0; i < book->capacity; i++)
    if (book->slots[i]) book->entries[n++] = book->slots[i];
  qsort(book->entries, n, sizeof *book->entries, compare_entries);
  free(book->slots);
  book->slots = NULL;
  book->capacity = 0;
  return true;
}

/* The bounds recorded so far for a position; false when none. */
static bool recorded(const c4_book *book, uint64_t key, int *lower, int *upper) {
  key = c4_book_key(book, key);
  for (size_t i = slot_of(key, book->capacity); book->slots[i];
       i = (i + 1) & (book->capacity - 1)) {
    if (book->slots[i] >> 12 != key) continue;
    *lower = entry_lower(book->slots[i]);
    *upper = entry_upper(book->slots[i]);
    return true;
  }
  return false;
}

/* Solves board exactly, and every position below it of at most plies
   chips, unless the book in the making already has its score; false
   when the limit stopped a solve. */
static bool solve_exactly(c4_book *book, c4_board *board, int plies,
                          c4_table *table, search_limit *limit,
                          c4_progress *progress, void *context) {
  if (c4_status(board) != GAME_ONGOING) return true;
  uint64_t key = board->current + board->mask;
  int lower, upper;
  if (!recorded(book, key, &lower, &upper) || lower != upper) {
    c4_result r = c4_solve_progress(board, table, limit, false, progress,
                                    context);
    if (!r.complete) return false;
    c4_book_record(book, key, r.score, r.score);
  }
  if (board->moves >= plies) return true;
  for (int c = 0; c < board->width; c++) {
    if (!c4_can_play(board, c)) continue;
    c4_play(board, c);
    bool done = solve_exactly(book, board, plies, table, limit, progress,
                              context);
    c4_undo(board, c);
    if (!done) return false;
  }
  return true;
}

c4_book *c4_book_generate(int width, int height, int plies, int exact_plies,
                          c4_table *table, search_limit *limit,
                          c4_progress *progress, void *context,
                          c4_book_error *error) {
  if (!c4_book_size_ok(width, height) || plies < 0 || plies > width * height ||
      exact_plies < 0 || exact_plies > plies)
    return fail(NULL, C4_BOOK_ESIZE, error);
  c4_book *book = calloc(1, sizeof *book);
  if (!book || !grow(book)) return fail(book, C4_BOOK_ENOMEM, error);
  book->width = width;
  book->height = height;
  book->plies = plies;
  c4_board board;
  c4_init(&board, width, height);
  const c4_book *used = c4_table_book(table);
  c4_table_use_book(table, NULL);
  c4_table_clear(table);
  c4_table_record(table, book);
  bool complete = solve_exactly(book, &board, exact_plies, table, limit,
                                progress, context);
  c4_table_record(table, NULL);
  c4_table_use_book(table, used);
  if (!complete) return fail(book, C4_BOOK_ESTOPPED, error);
  if (book->out_of_memory || !finish(book))
    return fail(book, C4_BOOK_ENOMEM, error);
  *error = C4_BOOK_OK;
  return book;
}
