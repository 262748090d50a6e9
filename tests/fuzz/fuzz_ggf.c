/*
** fuzz_ggf.c: the text formats of core/reversi/formats.h (GGF, OBF
** lines, transcripts) through the reader of records.c.  The first byte
** of the input picks the format (its value modulo 4: GGF, OBF,
** transcripts, or whatever the text looks like); the rest is the text.
**
** Every record read is written again in its format and read back as the
** same game (start, moves, end; names, result, komi, evaluations and
** times for GGF; answers for OBF), and written once more as the same
** text.  The same text read through a FILE gives the same records.  A
** failed check aborts, so libFuzzer keeps the input.
**
** Built by make fuzz (on the fuzz branch), or by hand: clang-14
** -fsanitize=fuzzer,address,undefined -Icore, this file, every .c file
** of core's folders and build/release/reversi_weights.c, then -lm.
*/
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reversi/formats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond, what) \
  do { \
    if (!(cond)) { \
      fprintf(stderr, "fuzz_ggf: %s (%s:%d)\n", what, __FILE__, __LINE__); \
      abort(); \
    } \
  } while (0)

static bool same_text(const char *a, const char *b) {
  return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_number(double a, double b) {
  return (isnan(a) && isnan(b)) || a == b;
}

static size_t write_record(reversi_format format, const reversi_record *rec, char *buf,
                           size_t size) {
  return format == REVERSI_FORMAT_GGF ? reversi_ggf_write(rec, buf, size)
         : format == REVERSI_FORMAT_OBF ? reversi_obf_write(rec, buf, size)
                                        : reversi_transcript_write(rec, buf, size);
}

/* The one record of text, or false. */
static bool read_one(reversi_format format, const char *text, size_t len,
                     int board_size, reversi_reader *r, reversi_record *rec) {
  if (!reversi_reader_open_memory(r, text, len, format, board_size)) return false;
  if (reversi_reader_next(r, rec) != REVERSI_RECORD) {
    fprintf(stderr, "%s\n%.*s\n", r->error, (int)len, text);
    return false;
  }
  reversi_record extra;
  bool one = reversi_reader_next(r, &extra) == REVERSI_END;
  return one;
}

/* Written and read back, rec is the same; written again, the same text. */
static void check_again(reversi_format format, const reversi_record *rec) {
  static char text[1 << 16], again[1 << 16];
  size_t n = write_record(format, rec, text, sizeof text);
  CHECK(n < sizeof text, "a record longer than any");
  reversi_reader r;
  reversi_record back;
  CHECK(read_one(format, text, n, rec->start.size, &r, &back),
        "a record written is not read");
  CHECK(memcmp(&back.board, &rec->board, sizeof back.board) == 0,
        "read back, it ends elsewhere");
  if (format == REVERSI_FORMAT_OBF) {
    CHECK(back.answers == rec->answers &&
          memcmp(back.answer_square, rec->answer_square, (size_t)rec->answers) == 0 &&
          memcmp(back.answer_score, rec->answer_score, (size_t)rec->answers) == 0,
          "read back, other answers");
  } else {
    CHECK(memcmp(&back.start, &rec->start, sizeof back.start) == 0,
          "read back, another start");
    CHECK(back.plies == rec->plies &&
              memcmp(back.moves, rec->moves, (size_t)rec->plies) == 0,
          "read back, other moves");
  }
  if (format == REVERSI_FORMAT_GGF) {
    CHECK(same_text(back.black, rec->black) && same_text(back.white, rec->white) &&
              same_text(back.place, rec->place) && same_text(back.date, rec->date) &&
              same_text(back.clock, rec->clock) &&
              (rec->type ? same_text(back.type, rec->type)
                         : back.type != NULL) && /* TY[8] */
              same_text(back.black_rating, rec->black_rating) &&
              same_text(back.white_rating, rec->white_rating),
          "read back, other texts");
    CHECK(back.year == rec->year, "read back, another year");
    CHECK(isnan(rec->result) ? isnan(back.result) || reversi_is_over(&rec->board)
                             : back.result == rec->result, "read back, another result");
    CHECK(back.result_how == rec->result_how, "read back, another way it ended");
    CHECK(same_number(back.komi, rec->komi), "read back, another komi");
    for (int i = 0; i < rec->plies; i++)
      CHECK(same_number(back.eval[i], rec->eval[i]) &&
                same_number(back.seconds[i], rec->seconds[i]),
            "read back, another evaluation or time");
  }
  size_t m = write_record(format, &back, again, sizeof again);
  CHECK(m == n && memcmp(again, text, n) == 0, "written again, another text");
  reversi_reader_close(&r);
}

typedef struct seen {
  reversi_status status;
  uint64_t number, line;
  reversi_board board;
} seen;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static seen from_memory[4096];
  if (size == 0) return 0;
  static const reversi_format formats[] = { REVERSI_FORMAT_GGF, REVERSI_FORMAT_OBF,
                                            REVERSI_FORMAT_TRANSCRIPT,
                                            REVERSI_FORMAT_UNKNOWN };
  reversi_format format = formats[data[0] % 4];
  int board_size = data[0] & 4 ? 6 : 8;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  reversi_reader r;
  reversi_record rec;
  reversi_status status;
  int n = 0;
  if (reversi_reader_open_memory(&r, text, len, format, board_size)) {
    while ((status = reversi_reader_next(&r, &rec)) != REVERSI_END && n < 4096) {
      from_memory[n++] = (seen){status, rec.number, rec.line, rec.board};
      CHECK(status != REVERSI_BAD_RECORD || r.error[0], "a bad record without a word");
      if (status == REVERSI_RECORD) {
        CHECK(rec.format == r.format, "a record of another format");
        CHECK(rec.plies <= REVERSI_MAX_PLIES, "more moves than a game has");
        /* bytes that look binary are guessed to be a .wtb: their games
           go through transcripts here (fuzz_wthor is for the .wtb) */
        bool wtb = r.format == REVERSI_FORMAT_WTB;
        check_again(wtb ? REVERSI_FORMAT_TRANSCRIPT : r.format, &rec);
      }
    }
    reversi_reader_close(&r);
  }
  FILE *f = fmemopen((void *)(uintptr_t)text, len, "rb");
  if (!f) return 0;
  if (reversi_reader_open_file(&r, f, format, board_size)) {
    int m = 0;
    while ((status = reversi_reader_next(&r, &rec)) != REVERSI_END && m < n) {
      seen *s = &from_memory[m++];
      CHECK(s->status == status && s->number == rec.number && s->line == rec.line,
            "a FILE gives other records");
      CHECK(status != REVERSI_RECORD ||
                memcmp(&s->board, &rec.board, sizeof rec.board) == 0,
            "a FILE gives other games");
    }
    CHECK(m == n, "a FILE gives fewer records");
    reversi_reader_close(&r);
  }
  fclose(f);
  return 0;
}
