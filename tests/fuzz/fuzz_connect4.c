/*
** fuzz_connect4.c: records of column digits (c4_load, and game_replay
** with c4_class's parse_move), rows of a picture (c4_parse_row,
** c4_from_cells) and single cells (c4_parse_cell).
**
** The input: a byte of choices and a byte for the size (any board
** c4_size_ok allows), then by the choices a record, rows
** (one a line, top first) or a cell, and bytes that pick the moves of a
** walk.  A position read is written as rows and read back the same; a
** record read is written again and replays the same.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "connect4/connect4.h"

/* Every height c4_size_ok allows (a board of 30 rows or more once
   misread its fours: a shift of 64 bits). */
enum { HEIGHT_LIMIT = C4_MAX_CELLS };

/* Whether the board is one a game can reach, by what c4_from_cells
   checks, and its rows read back as the same board. */
static void check_rows(const c4_board *board) {
  int width = board->width, height = board->height;
  signed char cells[C4_MAX_CELLS];
  for (int row = 0; row < height; row++) {
    char text[C4_MAX_WIDTH + 1];
    c4_row_text(board, row, text);
    FUZZ_CHECK((int)strlen(text) == width, "row '%s' of a board %d wide",
               text, width);
    int bad = -1;
    int n = c4_parse_row(text, cells + row * width, width, &bad);
    FUZZ_CHECK(n == width, "row '%s' reads as %d cells", text, n);
  }
  c4_board back;
  c4_parse_error err;
  c4_error code = c4_from_cells(&back, width, height, cells, board->turn,
                                C4_YELLOW, &err);
  FUZZ_CHECK(code == C4_OK, "the rows of a played board are refused (%d)",
             (int)code);
  FUZZ_CHECK(memcmp(&back, board, sizeof back) == 0,
             "the rows read back as another board");
}

static void check_board(c4_board *board) {
  FUZZ_CHECK(c4_size_ok(board->width, board->height), "size %dx%d",
             board->width, board->height);
  int chips = 0;
  for (int column = 0; column < board->width; column++) {
    bool gap = false;
    for (int row = 0; row < board->height; row++) {
      int cell = c4_cell(board, column, row);
      FUZZ_CHECK(!(gap && cell >= 0), "a chip floats in column %d", column + 1);
      gap |= cell < 0;
      chips += cell >= 0;
    }
  }
  FUZZ_CHECK(chips == board->moves, "%d chips, %d moves", chips, board->moves);
  check_rows(board);
  fuzz_check_position(&c4_class, board);
}

/* A record of column digits, and the same written back, play the same
   moves to the same board; a refusal leaves the board as it was. */
static void read_record(c4_board *board, const uint8_t *bytes, size_t len) {
  char *text = fuzz_copy(bytes, len, true);
  c4_board start = *board;
  int moves[C4_MAX_CELLS];
  c4_parse_error err;
  int n = c4_load(board, text, moves, &err);
  if (n < 0) {
    FUZZ_CHECK(memcmp(board, &start, sizeof start) == 0,
               "a refused record changed the board");
    FUZZ_CHECK(err.code != C4_OK && err.at >= 0 && (size_t)err.at < strlen(text),
               "a refusal at byte %d of %zu", err.at, strlen(text));
    free(text);
    return;
  }
  free(text);
  FUZZ_CHECK(n <= board->width * board->height, "%d moves", n);
  c4_board again = start;
  char record[C4_MAX_CELLS + 1];
  for (int i = 0; i < n; i++) {
    FUZZ_CHECK(c4_status(&again) == GAME_ONGOING && c4_can_play(&again, moves[i]),
               "move %d (column %d) cannot be played", i + 1, moves[i] + 1);
    c4_play(&again, moves[i]);
    record[i] = (char)('1' + moves[i]);
  }
  record[n] = '\0';
  FUZZ_CHECK(memcmp(&again, board, sizeof again) == 0,
             "the moves played again give another board");
  again = start;
  int replayed[C4_MAX_CELLS];
  FUZZ_CHECK(c4_load(&again, record, replayed, &err) == n &&
             memcmp(replayed, moves, sizeof *moves * (size_t)n) == 0 &&
             memcmp(&again, board, sizeof again) == 0,
             "'%s' replays otherwise", record);
  check_board(board);
}

/* Rows, one a line, top first, as a picture. */
static void read_rows(c4_board *board, fuzz_input *in, int to_move) {
  signed char cells[C4_MAX_CELLS];
  int width = -1, height = 0;
  while (in->at < in->size) {
    size_t len;
    const uint8_t *line = fuzz_line(in, &len);
    if (len == 0) break;                       /* an empty line ends them */
    char *text = fuzz_copy(line, len, true);
    signed char row[C4_MAX_WIDTH + 1];
    int bad = -1;
    int n = c4_parse_row(text, row, C4_MAX_WIDTH + 1, &bad);
    if (n < 0) {
      FUZZ_CHECK(bad >= 0 && (size_t)bad < strlen(text),
                 "a bad cell at byte %d of %zu", bad, strlen(text));
    }
    free(text);
    if (n < 0) return;
    if (width < 0) width = n;
    if (n != width || height == HEIGHT_LIMIT - 1 ||
        !c4_size_ok(width, height + 1))
      return;
    memcpy(cells + height * width, row, (size_t)width);
    height++;
  }
  if (height == 0) return;
  c4_parse_error err;
  if (c4_from_cells(board, width, height, cells, to_move, C4_YELLOW, &err) !=
      C4_OK)
    return;
  check_board(board);
  fuzz_walk(&c4_class, board, in, 64);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const int to_move[4] = {-1, C4_YELLOW, C4_RED, -1};
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in), shape = fuzz_byte(&in);
  int width = 1 + (int)shape % C4_MAX_WIDTH;
  int height = 1 + (int)shape / C4_MAX_WIDTH;
  if (!c4_size_ok(width, height) || height >= HEIGHT_LIMIT) {
    width = 7;
    height = 6;
  }
  c4_board board;
  c4_init(&board, width, height);
  switch (choice & 3) {
  case 0: {
    size_t len;
    const uint8_t *line = fuzz_line(&in, &len);
    read_record(&board, line, len);
    fuzz_walk(&c4_class, &board, &in, 64);
    break;
  }
  case 1:
    read_rows(&board, &in, to_move[choice >> 2 & 3]);
    break;
  case 2: {
    size_t len;
    const uint8_t *line = fuzz_line(&in, &len);
    char *text = fuzz_copy(line, len, true);
    if (fuzz_check_replay(&c4_class, &board, text, 64) > 0) check_board(&board);
    free(text);
    break;
  }
  default: {
    char *cell = fuzz_copy(data + in.at, size - in.at, false);
    int value = c4_parse_cell(cell, size - in.at);
    FUZZ_CHECK(value >= -2 && value <= 1, "a cell of value %d", value);
    free(cell);
  }
  }
  return 0;
}
