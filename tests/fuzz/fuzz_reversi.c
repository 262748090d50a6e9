/*
** fuzz_reversi.c: board strings (reversi_parse_board), transcripts
** (reversi_play_record), squares (reversi_parse_square) and records
** through the protocol (game_replay with reversi_class's parse_move).
**
** The input: a byte of choices, a line with a board string (empty: the
** start position of the size the choices say), then by the choices a
** transcript, a record, a square, or bytes that pick the moves of a
** walk.  A board read is written and read back the same, a transcript
** played is written again and replays the same; the flips and moves of
** the build (AVX2 or AVX-512 where the CPU has them) are checked against
** the plain rays square by square.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "reversi/reversi.h"

/* The flips along the rays one at a time, as the plain build has them. */
static uint64_t plain_flips(uint64_t player, uint64_t opponent, int square) {
  const uint64_t *r = reversi_ray[square];
  uint64_t flips = 0;
  for (int d = 0; d < 4; d++) flips |= reversi_ray_up(player, opponent, r[d]);
  for (int d = 4; d < 8; d++) flips |= reversi_ray_down(player, opponent, r[d]);
  return flips;
}

static void check_board(const reversi_board *board) {
  FUZZ_CHECK(reversi_size_ok(board->size), "size %d", board->size);
  FUZZ_CHECK(!(board->player & board->opponent), "a square of both sides");
  FUZZ_CHECK(!((board->player | board->opponent) & ~board->mask),
             "a disc off the board");
  uint64_t empty = board->mask & ~(board->player | board->opponent);
  uint64_t legal = 0;
  for (int square = 0; square < 64; square++) {
    uint64_t flips = plain_flips(board->player, board->opponent, square);
    if (!(empty >> square & 1)) continue;
    FUZZ_CHECK(reversi_flips(board->player, board->opponent, square) == flips,
               "flips on square %d differ from the rays'", square);
    if (flips) legal |= (uint64_t)1 << square;
  }
  FUZZ_CHECK(reversi_legal(board) == legal, "moves differ from the rays'");

  /* written and read back */
  char text[80];
  size_t len = reversi_format_board(board, text, sizeof text);
  FUZZ_CHECK(len < sizeof text && strlen(text) == len, "board of %zu bytes", len);
  reversi_board back;
  const char *why = reversi_parse_board(text, len, &back);
  FUZZ_CHECK(!why, "'%s' is refused: %s", text, why);
  FUZZ_CHECK(memcmp(&back, board, sizeof back) == 0,
             "'%s' reads back as another board", text);

  /* every square's name reads back as the square */
  for (int square = 0; square < 64; square++) {
    if (!(board->mask >> square & 1)) continue;
    char name[5];
    reversi_square_name(board, square, name);
    FUZZ_CHECK(reversi_parse_square(board, name, strlen(name)) == square,
               "'%s' is not square %d", name, square);
  }
}

typedef struct transcript {
  int square[256];
  int n;
} transcript;

static void played(int square, void *context) {
  transcript *t = context;
  FUZZ_CHECK(t->n < 256, "more than 256 moves played");
  t->square[t->n++] = square;
}

/* The moves played, replayed by make alone, and as a text written from
   them, reach the same board. */
static void check_transcript(const reversi_board *start,
                             const reversi_board *end, const transcript *t,
                             bool complete) {
  reversi_board board = *start;
  char text[5 * 256 + 1];
  size_t len = 0;
  for (int i = 0; i < t->n; i++) {
    int square = t->square[i];
    uint64_t legal = reversi_legal(&board);
    FUZZ_CHECK(!reversi_is_over(&board), "move %d after the end", i + 1);
    FUZZ_CHECK(square == REVERSI_PASS ? !legal : (legal >> square & 1),
               "move %d (square %d) is not legal", i + 1, square);
    char name[5];
    reversi_square_name(&board, square, name);
    memcpy(text + len, name, strlen(name));
    len += strlen(name);
    reversi_make(&board, square);
  }
  FUZZ_CHECK(memcmp(&board, end, sizeof board) == 0,
             "the moves made again give another board");
  if (!complete) return;
  reversi_board again = *start;
  transcript u = {.n = 0};
  reversi_record_error err;
  FUZZ_CHECK(reversi_play_record(&again, text, len, played, &u, &err),
             "'%.*s' is refused: %s", (int)len, text, err.why);
  FUZZ_CHECK(u.n == t->n && memcmp(u.square, t->square,
                                   sizeof *t->square * (size_t)t->n) == 0,
             "'%.*s' replays other moves", (int)len, text);
  FUZZ_CHECK(memcmp(&again, end, sizeof again) == 0,
             "'%.*s' replays to another board", (int)len, text);
}

static void read_transcript(reversi_board *board, const uint8_t *bytes,
                            size_t len) {
  char *text = fuzz_copy(bytes, len, false);
  reversi_board start = *board;
  transcript t = {.n = 0};
  reversi_record_error err;
  bool ok = reversi_play_record(board, text, len, played, &t, &err);
  if (!ok) {
    FUZZ_CHECK(err.why && err.move >= 1 && err.offset + err.length <= len,
               "a refusal of move %d at bytes %zu+%zu of %zu", err.move,
               err.offset, err.length, len);
  }
  check_transcript(&start, board, &t, ok);
  check_board(board);
  free(text);
}

static void read_square(const reversi_board *board, const uint8_t *bytes,
                        size_t len) {
  char *text = fuzz_copy(bytes, len, false);
  int square = reversi_parse_square(board, text, len);
  free(text);
  if (square < 0) return;
  FUZZ_CHECK(square == REVERSI_PASS || (board->mask >> square & 1),
             "square %d is off the board", square);
  char name[5];
  reversi_square_name(board, square, name);
  FUZZ_CHECK(reversi_parse_square(board, name, strlen(name)) == square,
             "'%s' is not square %d", name, square);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int sizes[4] = {8, 4, 6, 8};
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in);
  size_t len;
  const uint8_t *line = fuzz_line(&in, &len);
  reversi_board board;
  if (len == 0) {
    reversi_init(&board, sizes[choice >> 2 & 3]);
  } else {
    char *text = fuzz_copy(line, len, false);
    const char *why = reversi_parse_board(text, len, &board);
    free(text);
    if (why) return 0;
  }
  check_board(&board);
  fuzz_check_position(&reversi_class, &board);
  const uint8_t *rest = data + in.at;
  size_t rest_len = size - in.at;
  switch (choice & 3) {
  case 0:
    read_transcript(&board, rest, rest_len);
    break;
  case 1: {
    char *text = fuzz_copy(rest, rest_len, true);
    if (fuzz_check_replay(&reversi_class, &board, text, 200) > 0)
      check_board(&board);
    free(text);
    break;
  }
  case 2:
    read_square(&board, rest, rest_len);
    break;
  default:
    fuzz_walk(&reversi_class, &board, &in, 64);
  }
  return 0;
}
