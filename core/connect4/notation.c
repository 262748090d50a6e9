/*
** notation.c: column digits, pictures of the board, and the protocol.
*/
#include <stdio.h>
#include <string.h>

#include "connect4.h"
#include "solve.h"

#define YELLOW_CIRCLE "\xf0\x9f\x9f\xa1"     /* U+1F7E1 */
#define RED_CIRCLE "\xf0\x9f\x94\xb4"        /* U+1F534 */

int c4_load(c4_board *board, const char *text, int *moves,
            c4_parse_error *err) {
  c4_board start = *board;
  int count = 0;
  err->row = -1;
  for (int at = 0; text[at]; at++) {
    char c = text[at];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    c4_error code = C4_OK;
    int column = c - '1';
    if (c < '0' || c > '9')
      code = C4_EBADCHAR;
    else if (column < 0 || column >= board->width)
      code = C4_ECOLUMN;
    else if (c4_status(board) != GAME_ONGOING)
      code = C4_EOVER;
    else if (!c4_can_play(board, column))
      code = C4_EFULL;
    if (code != C4_OK) {
      err->code = code;
      err->at = at;
      *board = start;
      return -1;
    }
    c4_play(board, column);
    moves[count++] = column;
  }
  err->code = C4_OK;
  return count;
}

int c4_parse_cell(const char *text, size_t len) {
  if (len == 4 && memcmp(text, YELLOW_CIRCLE, 4) == 0) return C4_YELLOW;
  if (len == 4 && memcmp(text, RED_CIRCLE, 4) == 0) return C4_RED;
  if (len == 1 && (text[0] == 'Y' || text[0] == 'y')) return C4_YELLOW;
  if (len == 1 && (text[0] == 'R' || text[0] == 'r')) return C4_RED;
  if (len == 1 && text[0] == '.') return -1;
  size_t spaces = 0;
  while (spaces < len && text[spaces] == ' ') spaces++;
  return spaces == len ? -1 : -2;
}

int c4_parse_row(const char *text, signed char *cells, int cap, int *bad) {
  int n = 0;
  size_t len = strlen(text);
  for (size_t at = 0; at < len;) {
    if (text[at] == ' ' || text[at] == '|') {
      at++;
      continue;
    }
    size_t width = (unsigned char)text[at] >= 0xf0 ? 4 : 1;
    int cell = width <= len - at ? c4_parse_cell(text + at, width) : -2;
    if (cell == -2) {
      *bad = (int)at;
      return -1;
    }
    if (n < cap) cells[n] = (signed char)cell;
    n++;
    at += width;
  }
  return n;
}

void c4_row_text(const c4_board *board, int row, char *out) {
  for (int column = 0; column < board->width; column++) {
    int cell = c4_cell(board, column, board->height - 1 - row);
    out[column] = cell == C4_YELLOW ? 'Y' : cell == C4_RED ? 'R' : '.';
  }
  out[board->width] = '\0';
}

/*
** |  |  |  |  |  |  |  |
** |  |  |🟡|🔴|  |  |  |
**   1  2  3  4  5  6  7
** red to move
*/
size_t c4_render(const c4_board *board, const game_style *style, char *buf,
                 size_t size) {
  if (size > 0) buf[0] = '\0';
  /* in colour: the frame blue, the chip the last move dropped marked */
  const char *bar = game_color(style) ? GAME_ANSI_BLUE "|" GAME_ANSI_RESET : "|";
  int last_column = -1, last_row = -1;
  if (game_color(style) && style->last < (game_move)board->width) {
    last_column = (int)style->last;
    for (int row = board->height - 1; row >= 0 && last_row < 0; row--)
      if (c4_cell(board, last_column, row) >= 0) last_row = row;
  }
  size_t used = 0;
  for (int row = board->height - 1; row >= 0; row--) {
    for (int column = 0; column < board->width; column++) {
      int cell = c4_cell(board, column, row);
      bool mark = column == last_column && row == last_row;
      used = game_append(buf, size, used, "%s%s%s%s", bar,
                         mark ? GAME_ANSI_MARK : "",
                         cell == C4_YELLOW ? YELLOW_CIRCLE
                         : cell == C4_RED ? RED_CIRCLE : "  ",
                         mark ? GAME_ANSI_RESET : "");
    }
    used = game_append(buf, size, used, "%s\n", bar);
  }
  for (int column = 0; column < board->width; column++)
    used = game_append(buf, size, used, "  %d", column + 1);
  static const char *const ending[] = {NULL, "yellow won", "red won", "draw"};
  game_status status = c4_status(board);
  return game_append(buf, size, used, "\n%s",
                     status != GAME_ONGOING ? ending[status]
                     : board->turn == C4_YELLOW ? "yellow to move" : "red to move");
}

/* ---- the protocol: a move is a 0-based column, written 1-based ---- */

static void class_init(void *state) { c4_init(state, 7, 6); }
static int class_turn(const void *state) {
  return ((const c4_board *)state)->turn;
}
static int class_moves(const void *state, game_move *out) {
  const c4_board *board = state;
  if (c4_status(board) != GAME_ONGOING) return 0;
  int n = 0;
  for (int column = 0; column < board->width; column++)
    if (c4_can_play(board, column)) out[n++] = (game_move)column;
  return n;
}
static void class_make(void *state, game_move move, game_undo *undo) {
  (void)undo;
  c4_play(state, (int)move);
}
static void class_unmake(void *state, game_move move, const game_undo *undo) {
  (void)undo;
  c4_undo(state, (int)move);
}
static game_status class_status(const void *state) { return c4_status(state); }
static uint64_t class_hash(const void *state) { return c4_hash(state); }

static game_error class_parse_move(const void *state, const char *text,
                                   game_move *move, const char **why) {
  const c4_board *board = state;
  int column = text[0] - '1';
  if (text[0] < '0' || text[0] > '9' || text[1] != '\0' || column < 0 ||
      column >= board->width) {
    static const char *const range[C4_MAX_WIDTH + 1] = {
      "", "the only column is 1", "columns are 1 to 2", "columns are 1 to 3",
      "columns are 1 to 4", "columns are 1 to 5", "columns are 1 to 6",
      "columns are 1 to 7", "columns are 1 to 8", "columns are 1 to 9"};
    *why = range[board->width];
    return GAME_EBADTEXT;
  }
  if (c4_status(board) != GAME_ONGOING) {
    *why = "the game is over";
    return GAME_EOVER;
  }
  if (!c4_can_play(board, column)) {
    *why = "the column is full";
    return GAME_EILLEGAL;
  }
  *move = (game_move)column;
  return GAME_OK;
}

static size_t class_format_move(const void *state, game_move move, char *buf,
                                size_t size) {
  (void)state;
  return (size_t)snprintf(buf, size, "%d", (int)move + 1);
}

static size_t class_render(const void *state, const game_style *style,
                           char *buf, size_t size) {
  return c4_render(state, style, buf, size);
}

static int class_eval(const void *state) { return c4_eval(state); }

const game_class c4_class = {
  .name = "connect4",
  .side = {"yellow", "red"},
  .state_size = sizeof(c4_board),
  .max_moves = C4_MAX_WIDTH,
  .init = class_init,
  .turn = class_turn,
  .moves = class_moves,
  .make = class_make,
  .unmake = class_unmake,
  .status = class_status,
  .hash = class_hash,
  .eval = class_eval,
  .parse_move = class_parse_move,
  .format_move = class_format_move,
  .render = class_render,
};
