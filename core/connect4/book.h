/*
** book.h: an opening book for the exact solver, made by the engine.
**
** A book holds, for positions within its first plies, the bounds on the
** score that the engine proved while it solved the empty board and the
** positions of the first few plies exactly (lower == upper where the
** score is exact), one entry for a position and its mirror image.  The
** solver reads it through the table (c4_table_use_book) and narrows its
** window with it as with the table; without a book it is as correct,
** only slower.
**
** The file: the 8 bytes "LUDUSC4B", then bytes version (1), width,
** height, plies, then the entry count as 4 bytes little-endian, then the
** entries, 8 bytes little-endian each, in increasing order of key:
**   bits 12..63  key: current + mask of the position or of its mirror
**                image, whichever is smaller
**   bits  6..11  lower bound + 32
**   bits  0..5   upper bound + 32
** Books exist for boards with width * (height + 1) <= 52 (7x6 has 49).
*/
#ifndef C4_BOOK_H
#define C4_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/limit.h"
#include "connect4.h"
#include "solve.h"

typedef struct c4_book c4_book;

typedef enum c4_book_error {
  C4_BOOK_OK,
  C4_BOOK_EOPEN,        /* the file cannot be opened or read (errno: why) */
  C4_BOOK_EFORMAT,      /* not a book: wrong magic bytes or version */
  C4_BOOK_ESIZE,        /* a board size books do not cover */
  C4_BOOK_ETRUNCATED,   /* shorter or longer than its entry count says */
  C4_BOOK_EENTRY,       /* entries out of order, or bounds out of range */
  C4_BOOK_ENOMEM,
  C4_BOOK_EWRITE,       /* the file cannot be written */
  C4_BOOK_ESTOPPED      /* a limit stopped the generation */
} c4_book_error;

/* A message for the error, lowercase, no trailing period. */
const char *c4_book_strerror(c4_book_error error);
/* The same in buf, with the system's reason (errno_value, errno just
   after the call) for a file that cannot be opened or read; returns buf. */
const char *c4_book_reason(c4_book_error error, int errno_value, char *buf,
                           size_t size);

/* Whether books cover width x height. */
bool c4_book_size_ok(int width, int height);

/* Reads a book; NULL with *error set when the file is missing, short,
   or not a well-formed book. */
c4_book *c4_book_load(const char *path, c4_book_error *error);

/* The same from a stream that can seek (an open file, or bytes in
   memory through fmemopen), from its start; the caller closes it. */
c4_book *c4_book_read(FILE *file, c4_book_error *error);

c4_book_error c4_book_save(const c4_book *book, const char *path);
void c4_book_free(c4_book *book);

int c4_book_width(const c4_book *book);
int c4_book_height(const c4_book *book);
int c4_book_plies(const c4_book *book);
size_t c4_book_entries(const c4_book *book);

/* The bounds the book holds for the position (its mirror image counts
   too); false when it holds none. */
bool c4_book_lookup(const c4_book *book, const c4_board *board, int *lower,
                    int *upper);

/* Solves the empty width x height board with a cleared table, and every
   position of at most exact_plies chips (<= plies), recording the exact
   scores of those and the best bounds the solves proved on every
   position of at most plies chips (or its mirror image).  NULL with
   *error set when the size or plies are out of range, memory runs out,
   or the limit stops a solve. */
c4_book *c4_book_generate(int width, int height, int plies, int exact_plies,
                          c4_table *table, search_limit *limit,
                          c4_progress *progress, void *context,
                          c4_book_error *error);

/* ---- for the solver ---- */

/* The key books use for key (current + mask): the smaller of it and its
   mirror image. */
uint64_t c4_book_key(const c4_book *book, uint64_t key);

/* Bounds of a key from c4_book_key; false when the book has none. */
bool c4_book_bounds(const c4_book *book, uint64_t book_key, int *lower,
                    int *upper);

/* While a book is generated: adds bounds proved on a position. */
void c4_book_record(c4_book *book, uint64_t key, int lower, int upper);

#endif
