/*
** fuzz_pgn.c: the PGN reader and writer of core/xiangqi (pgn.c, text.c).
**
** The input: a byte of choices (the encoding to read in, the notation to
** write in), then the text.  Every game read, good or bad, holds moves
** that replay legally from its start to its end position; written in the
** notation and read again it is one good game, the same: start, moves,
** result and tags.  A difference aborts.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi/xiangqi.h"

#define CHECK(condition, ...)                                              \
  do {                                                                     \
    if (!(condition)) {                                                    \
      fprintf(stderr, "fuzz_pgn: " __VA_ARGS__);                           \
      fputc('\n', stderr);                                                 \
      abort();                                                             \
    }                                                                      \
  } while (0)

static bool is_result(const char *r) {
  return !strcmp(r, "") || !strcmp(r, "1-0") || !strcmp(r, "0-1") ||
         !strcmp(r, "1/2-1/2") || !strcmp(r, "*");
}

/* The moves replay from the start to the end position. */
static void check_replay(const xq_pgn_game *g) {
  xq_position pos = g->start;
  for (int i = 0; i < g->plies; i++) {
    CHECK(xq_is_legal(&pos, g->moves[i]), "game %d: ply %d is not legal",
          g->number, i + 1);
    xq_undo undo;
    xq_make(&pos, g->moves[i], &undo);
  }
  char a[128], b[128];
  xq_to_fen(&pos, a, sizeof a);
  xq_to_fen(&g->end, b, sizeof b);
  CHECK(!strcmp(a, b), "game %d: replayed to %s, the reader says %s",
        g->number, a, b);
}

static void check_same(const xq_pgn_game *a, const xq_pgn_game *b,
                       const char *written) {
  char fa[128], fb[128];
  xq_to_fen(&a->start, fa, sizeof fa);
  xq_to_fen(&b->start, fb, sizeof fb);
  CHECK(!strcmp(fa, fb), "start %s read back as %s in:\n%s", fa, fb, written);
  CHECK(a->plies == b->plies, "%d plies read back as %d in:\n%s", a->plies,
        b->plies, written);
  for (int i = 0; i < a->plies; i++)
    CHECK(a->moves[i] == b->moves[i], "ply %d read back as another in:\n%s",
          i + 1, written);
  const char *result = *a->result ? a->result : "*";
  CHECK(!strcmp(result, b->result), "result %s read back as %s", result,
        b->result);
  for (int i = 0; i < a->tag_count; i++) {
    const char *name = a->tags[i].name;
    if (!strcmp(name, "Result") || !strcmp(name, "FEN") ||
        !strcmp(name, "Format"))
      continue;
    int k = 0;                         /* the same tag, in the same place
                                          among those of its name */
    for (int j = 0; j < i; j++) k += !strcmp(a->tags[j].name, name);
    const char *value = NULL;
    for (int j = 0; j < b->tag_count && !value; j++)
      if (!strcmp(b->tags[j].name, name) && k-- == 0) value = b->tags[j].value;
    CHECK(value && !strcmp(value, a->tags[i].value),
          "tag %s '%s' read back as '%s' in:\n%s", name, a->tags[i].value,
          value ? value : "(none)", written);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  xq_encoding encoding = (xq_encoding)(data[0] & 3);
  xq_notation notation = (xq_notation)((data[0] >> 2) % 3);
  const char *text = (const char *)data + 1;
  size_t length = size - 1;
  xq_pgn_reader *reader = xq_pgn_open(text, length, encoding);
  if (!reader) return 0;
  static xq_pgn_game game, back;
  xq_read_status status;
  int games = 0;
  while ((status = xq_pgn_next(reader, &game)) != XQ_READ_END) {
    games++;
    CHECK(game.number == games, "game %d numbered %d", games, game.number);
    CHECK(status == XQ_READ_OK || game.message[0], "a bad game says nothing");
    CHECK(is_result(game.result), "result '%s'", game.result);
    CHECK(game.tag_count <= XQ_PGN_MAX_TAGS, "%d tags", game.tag_count);
    check_replay(&game);
    /* written, then read back: what was read, bad games up to their error */
    size_t needed = xq_pgn_write(&game, notation, NULL, 0) + 1;
    char *written = malloc(needed);
    CHECK(written, "no memory");
    CHECK(xq_pgn_write(&game, notation, written, needed) == needed - 1,
          "the writer's two lengths differ");
    xq_pgn_reader *again = xq_pgn_open(written, needed - 1, XQ_ENCODING_AUTO);
    if (again) {
      xq_read_status first = xq_pgn_next(again, &back);
      CHECK(first == XQ_READ_OK, "written game %d does not read back (%s) "
            "from:\n%s", games, back.message, written);
      check_same(&game, &back, written);
      CHECK(xq_pgn_next(again, &back) == XQ_READ_END,
            "written game %d reads back as two:\n%s", games, written);
      xq_pgn_close(again);
    }
    free(written);
  }
  CHECK(xq_pgn_next(reader, &game) == XQ_READ_END, "no end after the end");
  xq_pgn_close(reader);
  return 0;
}
