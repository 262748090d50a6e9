/*
** fuzz_epd.c: the EPD and FEN-lines reader and writer of core/xiangqi
** (epd.c, text.c).
**
** The input: a byte of choices (the encoding to read in, the notation to
** write in), then the text.  Every record read holds moves that replay
** legally from its FEN, and bm and am moves legal at their end; a good
** record written and read again is the same: position, counters, moves,
** bm, am, dm, id and the other operations.  A difference aborts.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi/xiangqi.h"

#define CHECK(condition, ...)                                              \
  do {                                                                     \
    if (!(condition)) {                                                    \
      fprintf(stderr, "fuzz_epd: " __VA_ARGS__);                           \
      fputc('\n', stderr);                                                 \
      abort();                                                             \
    }                                                                      \
  } while (0)

static void check_replay(const xq_epd_record *r) {
  xq_position pos = r->start;
  for (int i = 0; i < r->plies; i++) {
    CHECK(xq_is_legal(&pos, r->moves[i]), "line %d: ply %d is not legal",
          r->line, i + 1);
    xq_undo undo;
    xq_make(&pos, r->moves[i], &undo);
  }
  char a[128], b[128];
  xq_to_fen(&pos, a, sizeof a);
  xq_to_fen(&r->end, b, sizeof b);
  CHECK(!strcmp(a, b), "line %d: replayed to %s, the reader says %s", r->line,
        a, b);
}

static void check_same(const xq_epd_record *a, const xq_epd_record *b,
                       const char *written) {
  char fa[128], fb[128];
  xq_to_fen(&a->start, fa, sizeof fa);
  xq_to_fen(&b->start, fb, sizeof fb);
  CHECK(!strcmp(fa, fb), "%s read back as %s from: %s", fa, fb, written);
  CHECK(a->plies == b->plies, "the moves differ in: %s", written);
  for (int i = 0; i < a->plies; i++)
    CHECK(a->moves[i] == b->moves[i], "ply %d differs in: %s", i + 1, written);
  CHECK(a->bm_count == b->bm_count &&
        !memcmp(a->bm, b->bm, (size_t)a->bm_count * sizeof *a->bm),
        "bm differs in: %s", written);
  CHECK(a->am_count == b->am_count &&
        !memcmp(a->am, b->am, (size_t)a->am_count * sizeof *a->am),
        "am differs in: %s", written);
  CHECK(a->dm == b->dm, "dm %d read back as %d", a->dm, b->dm);
  CHECK(!strcmp(a->id, b->id), "id '%s' read back as '%s' from: %s", a->id,
        b->id, written);
  CHECK(a->op_count == b->op_count, "%d operations read back as %d from: %s",
        a->op_count, b->op_count, written);
  for (int i = 0; i < a->op_count; i++)
    CHECK(!strcmp(a->ops[i].name, b->ops[i].name) &&
          !strcmp(a->ops[i].value, b->ops[i].value),
          "operation %s '%s' read back as %s '%s' from: %s", a->ops[i].name,
          a->ops[i].value, b->ops[i].name, b->ops[i].value, written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  xq_encoding encoding = (xq_encoding)(data[0] & 3);
  xq_notation notation = (xq_notation)((data[0] >> 2) % 3);
  xq_epd_reader *reader = xq_epd_open((const char *)data + 1, size - 1,
                                      encoding);
  if (!reader) return 0;
  static xq_epd_record record, back;
  xq_read_status status;
  int records = 0;
  while ((status = xq_epd_next(reader, &record)) != XQ_READ_END) {
    records++;
    CHECK(record.number == records, "record %d numbered %d", records,
          record.number);
    check_replay(&record);
    if (status != XQ_READ_OK) {
      CHECK(record.message[0], "a bad record says nothing");
      continue;
    }
    for (int i = 0; i < record.bm_count; i++)
      CHECK(xq_is_legal(&record.end, record.bm[i]), "bm %d is not legal", i);
    for (int i = 0; i < record.am_count; i++)
      CHECK(xq_is_legal(&record.end, record.am[i]), "am %d is not legal", i);
    size_t needed = xq_epd_write(&record, notation, NULL, 0) + 1;
    char *written = malloc(needed);
    CHECK(written, "no memory");
    CHECK(xq_epd_write(&record, notation, written, needed) == needed - 1,
          "the writer's two lengths differ");
    CHECK(memchr(written, '\n', needed - 1) == written + needed - 2,
          "not one line: %s", written);
    xq_epd_reader *again = xq_epd_open(written, needed - 1, XQ_ENCODING_AUTO);
    if (again) {
      CHECK(xq_epd_next(again, &back) == XQ_READ_OK,
            "'%s' does not read back (%s)", written, back.message);
      check_same(&record, &back, written);
      CHECK(xq_epd_next(again, &back) == XQ_READ_END, "two records: %s",
            written);
      xq_epd_close(again);
    }
    free(written);
  }
  xq_epd_close(reader);
  return 0;
}
