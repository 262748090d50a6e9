/*
** fuzz_wthor.c: WTHOR databases (core/reversi/wthor.c through the reader
** of records.c), the input being the bytes of a .wtb file.
**
** Every game read is written again as the same 68 bytes, and the header
** as its 16; its board is the one the fast replay reaches; written as GGF
** and read back it is the same game.  The same bytes read through a FILE
** give the same records and errors.  The input read as a file of names
** (WTHOR.JOU, WTHOR.TRN) gives names that fit their buffer.  A failed
** check aborts, so libFuzzer keeps the input.
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
      fprintf(stderr, "fuzz_wthor: %s (%s:%d)\n", what, __FILE__, __LINE__); \
      abort(); \
    } \
  } while (0)

/* Written as GGF and read back, rec is the same game. */
static void check_ggf(const reversi_record *rec) {
  static char text[1 << 14];
  static char strings[2 * sizeof text + 64];
  size_t n = reversi_ggf_write(rec, text, sizeof text);
  CHECK(n < sizeof text, "a GGF game longer than any");
  reversi_record back;
  reversi_record_init(&back, 8);
  size_t at;
  const char *why = reversi_ggf_read(text, n, &back, strings, &at);
  if (why) fprintf(stderr, "%s\n%.*s\n", why, (int)n, text);
  CHECK(!why, "GGF written is not read");
  CHECK(back.plies == rec->plies &&
            memcmp(back.moves, rec->moves, (size_t)rec->plies) == 0,
        "GGF read back has other moves");
  CHECK(memcmp(&back.board, &rec->board, sizeof back.board) == 0,
        "GGF read back ends elsewhere");
  CHECK(back.year == (rec->year >= 1000 && rec->year <= 9999 ? rec->year : -1),
        "GGF read back has another year");
  CHECK(!reversi_is_over(&rec->board) || back.result == 2 * rec->black_discs - 64,
        "GGF read back has another result");
}

static void check_game(const uint8_t *bytes, const reversi_record *rec) {
  reversi_wthor_game game;
  CHECK(!reversi_wthor_from_record(rec, &game), "a WTHOR game cannot be written");
  uint8_t again[REVERSI_WTHOR_GAME_SIZE];
  reversi_wthor_write_game(&game, again);
  CHECK(memcmp(again, bytes, REVERSI_WTHOR_GAME_SIZE) == 0,
        "a game written is other bytes");
  reversi_board board;
  int move;
  CHECK(!reversi_wthor_read_game(bytes, &game, &move), "a game read is not a game");
  CHECK(!reversi_wthor_replay_board(&game, &board), "the fast replay stops");
  CHECK(board.player == rec->board.player && board.opponent == rec->board.opponent &&
        board.turn == rec->board.turn, "the fast replay ends elsewhere");
  CHECK(!reversi_is_over(&board) ||
            reversi_wthor_black_discs(&board) == rec->black_discs,
        "a finished game read with another count");
  int passes = 0;
  for (int i = 0; i < rec->plies; i++) passes += rec->moves[i] == REVERSI_PASS;
  CHECK(rec->plies - passes == game.count, "moves lost or added");
  check_ggf(rec);
}

/* What a reader gives, in order: status, number and moves of each. */
typedef struct seen {
  reversi_status status;
  uint64_t number;
  int plies;
  uint8_t moves[REVERSI_MAX_PLIES];
} seen;

static int read_all(reversi_reader *r, const uint8_t *data, size_t size, seen *out,
                    int max) {
  int n = 0;
  reversi_record rec;
  reversi_status status;
  while ((status = reversi_reader_next(r, &rec)) != REVERSI_END && n < max) {
    seen *s = &out[n++];
    s->status = status;
    s->number = rec.number;
    s->plies = status == REVERSI_RECORD ? rec.plies : 0;
    memcpy(s->moves, rec.moves, (size_t)s->plies);
    if (status == REVERSI_RECORD && data) {
      size_t at =
          REVERSI_WTHOR_HEADER_SIZE + (rec.number - 1) * REVERSI_WTHOR_GAME_SIZE;
      CHECK(at + REVERSI_WTHOR_GAME_SIZE <= size, "a game read beyond the bytes");
      check_game(data + at, &rec);
    }
  }
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static seen from_memory[4096], from_file[4096];
  reversi_reader r;
  int n = 0;
  if (reversi_reader_open_memory(&r, data, size, REVERSI_FORMAT_WTB, 8)) {
    uint8_t header[REVERSI_WTHOR_HEADER_SIZE];
    reversi_wthor_write_header(&r.header, header);
    CHECK(memcmp(header, data, sizeof header) == 0,
          "the header written is other bytes");
    n = read_all(&r, data, size, from_memory, 4096);
    reversi_reader_close(&r);
  }
  FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
  if (f && size > 0) {
    if (reversi_reader_open_file(&r, f, REVERSI_FORMAT_WTB, 8)) {
      int m = read_all(&r, NULL, 0, from_file, 4096);
      CHECK(m == n, "a FILE gives another count of records");
      for (int i = 0; i < n; i++)
        CHECK(from_file[i].status == from_memory[i].status &&
                  from_file[i].number == from_memory[i].number &&
                  from_file[i].plies == from_memory[i].plies &&
                  memcmp(from_file[i].moves, from_memory[i].moves,
                         (size_t)from_file[i].plies) == 0,
              "a FILE gives other records");
      reversi_reader_close(&r);
    } else {
      CHECK(n == 0, "a FILE is refused where the memory was read");
    }
  }
  if (f) fclose(f);

  /* the input as a file of names */
  static const int widths[] = { REVERSI_WTHOR_PLAYER_SIZE,
                                REVERSI_WTHOR_TOURNAMENT_SIZE };
  for (int w = 0; w < 2; w++) {
    reversi_wthor_names names;
    if (reversi_wthor_names_open(&names, data, size, widths[w])) continue;
    for (unsigned i = 0; i < names.count && i < 256; i++) {
      char name[64];
      CHECK(reversi_wthor_name(&names, i, name, sizeof name),
            "a name there is not read");
      CHECK(strlen(name) < 2 * (size_t)widths[w], "a name longer than its bytes allow");
      /* written and read again, the same, unless it had ISO-8859-1's
         control characters (0x80-0x9f), which become '?' */
      const uint8_t *raw =
          data + REVERSI_WTHOR_HEADER_SIZE + (size_t)i * (size_t)widths[w];
      bool controls = false;
      for (int k = 0; k < widths[w] - 1 && raw[k]; k++)
        controls |= raw[k] >= 0x80 && raw[k] < 0xa0;
      uint8_t file[REVERSI_WTHOR_HEADER_SIZE + 32] = {0};
      file[8] = 1;
      reversi_wthor_write_name(name, file + REVERSI_WTHOR_HEADER_SIZE, widths[w]);
      reversi_wthor_names one;
      CHECK(!reversi_wthor_names_open(
                &one, file, REVERSI_WTHOR_HEADER_SIZE + (size_t)widths[w], widths[w]),
            "a file of one name is not one");
      char again[64];
      CHECK(reversi_wthor_name(&one, 0, again, sizeof again),
            "a name written is not read");
      CHECK(controls || strcmp(again, name) == 0, "a name written is read otherwise");
    }
  }
  return 0;
}
