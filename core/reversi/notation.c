/*
** notation.c: Reversi squares ("f5"), transcripts ("f5d6c3"), board
** strings (the first field of an OBF line) and the drawn board.
*/
#include <ctype.h>
#include <string.h>

#include "formats.h"
#include "reversi.h"

/* The 8x8 column and row of a small board's first square. */
static int offset(const reversi_board *board) { return (8 - board->size) / 2; }

static bool is_pass(const char *text, size_t len) {
  static const char *const names[] = {"pass", "ps", "--"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    size_t n = strlen(names[i]);
    if (len != n) continue;
    size_t j = 0;
    while (j < n && tolower((unsigned char)text[j]) == names[i][j]) j++;
    if (j == n) return true;
  }
  return false;
}

int reversi_parse_square(const reversi_board *board, const char *text,
                         size_t len) {
  if (is_pass(text, len)) return REVERSI_PASS;
  if (len != 2) return -1;
  int column = tolower((unsigned char)text[0]) - 'a', row = text[1] - '1';
  if (column < 0 || column >= board->size || row < 0 || row >= board->size)
    return -1;
  return (row + offset(board)) * 8 + column + offset(board);
}

void reversi_square_name(const reversi_board *board, int square,
                         char name[5]) {
  if (square == REVERSI_PASS) {
    memcpy(name, "pass", 5);
    return;
  }
  name[0] = (char)('a' + square % 8 - offset(board));
  name[1] = (char)('1' + square / 8 - offset(board));
  name[2] = '\0';
}

/* ---- transcripts ---- */

static bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' ||
         c == ';';
}

/* The length of the move text at text[0..len): a pass word, or a letter
   and a digit. */
static size_t token_length(const char *text, size_t len) {
  for (size_t n = 4; n >= 2; n--)
    if (n <= len && is_pass(text, n)) return n;
  size_t n = 0;
  while (n < len && n < 2 && !is_separator(text[n])) n++;
  return n;
}

bool reversi_play_record(reversi_board *board, const char *text, size_t len,
                         void (*played)(int square, void *context),
                         void *context, reversi_record_error *err) {
  int number = 0;
  size_t at = 0;
  for (;;) {
    while (at < len && is_separator(text[at])) at++;
    if (at == len) return true;
    size_t n = token_length(text + at, len - at);
    number++;
    err->move = number;
    err->offset = at;
    err->length = n;
    int square = reversi_parse_square(board, text + at, n);
    if (square < 0) {
      err->why = "not a square of this board";
      return false;
    }
    if (reversi_is_over(board)) {
      err->why = "the game is already over";
      return false;
    }
    uint64_t legal = reversi_legal(board);
    if (square != REVERSI_PASS && !legal) {
      /* The side to move cannot: its pass goes without saying. */
      reversi_make(board, REVERSI_PASS);
      if (played) played(REVERSI_PASS, context);
      legal = reversi_legal(board);
    }
    if (square == REVERSI_PASS ? legal != 0 : !(legal >> square & 1)) {
      err->why = square == REVERSI_PASS ? "a pass while a move exists"
                                        : "illegal move";
      return false;
    }
    reversi_make(board, square);
    if (played) played(square, context);
    at += n;
  }
}

/* ---- board strings ---- */

const char *reversi_parse_board(const char *text, size_t len,
                                reversi_board *board) {
  char symbols[65];               /* the cells, then the side to move */
  int n = 0;
  for (size_t i = 0; i < len && text[i] != ';'; i++) {
    char c = (char)toupper((unsigned char)text[i]);
    if (isspace((unsigned char)c)) continue;
    if (c != 'X' && c != '*' && c != 'O' && c != '-' && c != '.')
      return "a board string holds only X, O, '-' and the side to move";
    if (n == 65) return "a board string has at most 64 cells and the side to move";
    symbols[n++] = c;
  }
  int cells = n - 1, size = cells == 16 ? 4 : cells == 36 ? 6 : cells == 64 ? 8 : 0;
  if (!size)
    return "a board string has 16, 36 or 64 cells and then the side to move";
  char side = symbols[cells];
  if (side != 'X' && side != '*' && side != 'O')
    return "the side to move must be X (black) or O (white)";
  reversi_init(board, size);
  uint64_t disc[2] = {0, 0};
  int first = offset(board);
  for (int i = 0; i < cells; i++) {
    uint64_t bit = (uint64_t)1 << ((i / size + first) * 8 + i % size + first);
    if (symbols[i] == 'X' || symbols[i] == '*') disc[REVERSI_BLACK] |= bit;
    if (symbols[i] == 'O') disc[REVERSI_WHITE] |= bit;
  }
  board->turn = side == 'O' ? REVERSI_WHITE : REVERSI_BLACK;
  board->player = disc[board->turn];
  board->opponent = disc[board->turn ^ 1];
  return NULL;
}

size_t reversi_format_board(const reversi_board *board, char *buf,
                            size_t size) {
  char text[8 * 8 + 3];         /* the cells, a space, the side to move */
  size_t n = 0;
  int first = offset(board);
  uint64_t black = reversi_discs(board, REVERSI_BLACK);
  uint64_t white = reversi_discs(board, REVERSI_WHITE);
  for (int row = 0; row < board->size; row++)
    for (int column = 0; column < board->size; column++) {
      int square = (row + first) * 8 + column + first;
      text[n++] = black >> square & 1 ? 'X' : white >> square & 1 ? 'O' : '-';
    }
  text[n++] = ' ';
  text[n++] = board->turn == REVERSI_BLACK ? 'X' : 'O';
  if (size > 0) {               /* as snprintf: cut, and a NUL after */
    size_t copied = n < size ? n : size - 1;
    memcpy(buf, text, copied);
    buf[copied] = '\0';
  }
  return n;
}

/* ---- lines of a file of transcripts ---- */

static bool is_board_symbol(char c) {
  return c != '\0' && strchr("XxOo*-.", c) != NULL;
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

const char *reversi_read_start(const char *text, size_t len, int size,
                               reversi_board *start, size_t *moves_at) {
  size_t at = 0;
  while (at < len && is_blank(text[at])) at++;
  reversi_init(start, size);
  /* "--" alone is a pass, not the start of a board string */
  if (at < len && is_board_symbol(text[at]) &&
      !(text[at] == '-' && at + 1 < len && text[at + 1] == '-' &&
        (at + 2 == len || !is_board_symbol(text[at + 2])))) {
    size_t end = at;
    while (end < len && (is_board_symbol(text[end]) || is_blank(text[end]))) end++;
    const char *why = reversi_parse_board(text, end, start);
    *moves_at = end;
    if (why) return why;
    at = end < len && text[end] == ';' ? len : end;
  }
  *moves_at = at;
  return NULL;
}

static void record_move(int square, void *context) {
  reversi_record *rec = context;
  if (rec->plies < REVERSI_MAX_PLIES) rec->moves[rec->plies++] = (uint8_t)square;
}

const char *reversi_transcript_read(const char *text, size_t len, int size,
                                    reversi_record *rec, reversi_record_error *err) {
  size_t at;
  reversi_board start;
  const char *why = reversi_read_start(text, len, size, &start, &at);
  if (why) {
    err->move = 0;
    err->offset = 0;
    err->length = at;
    err->why = why;
    return why;
  }
  rec->start = rec->board = start;
  rec->plies = 0;
  if (!reversi_play_record(&rec->board, text + at, len - at, record_move, rec, err)) {
    err->offset += at;
    return err->why;
  }
  return NULL;
}

size_t reversi_transcript_write(const reversi_record *rec, char *buf, size_t size) {
  reversi_board standard;
  reversi_init(&standard, 8);
  size_t used = 0;
  if (size > 0) buf[0] = '\0';
  /* a game without moves keeps its start: a blank line would be skipped */
  if (memcmp(&rec->start, &standard, sizeof standard) != 0 || rec->plies == 0) {
    used = reversi_format_board(&rec->start, buf, size);
    if (rec->plies > 0) used = game_append(buf, size, used, " ");
  }
  for (int i = 0; i < rec->plies; i++) {
    if (rec->moves[i] == REVERSI_PASS) {
      /* the next move implies a pass; a last one, nothing does */
      if (i == rec->plies - 1)
        used = game_append(buf, size, used, "%spass", i > 0 ? " " : "");
      continue;
    }
    char name[5];
    reversi_square_name(&rec->start, rec->moves[i], name);
    used = game_append(buf, size, used, "%s", name);
  }
  return game_append(buf, size, used, "\n");
}

/* ---- the picture ---- */

size_t reversi_render(const reversi_board *board, const game_style *style,
                      char *buf, size_t size) {
  if (size > 0) buf[0] = '\0';
  int first = offset(board);
  bool over = reversi_is_over(board);
  uint64_t legal = reversi_legal(board);
  size_t used = game_append(buf, size, 0, " ");
  for (int column = 0; column < board->size; column++)
    used = game_append(buf, size, used, " %c", 'a' + column);
  for (int row = 0; row < board->size; row++) {
    used = game_append(buf, size, used, "\n%d", row + 1);
    for (int column = 0; column < board->size; column++) {
      int square = (row + first) * 8 + column + first;
      const char *mark = reversi_discs(board, REVERSI_BLACK) >> square & 1 ? "\u25cf"
                         : reversi_discs(board, REVERSI_WHITE) >> square & 1 ? "\u25cb"
                         : legal >> square & 1 ? "\u00b7" : ".";
      used = game_append(buf, size, used,
                         game_marks(style, (game_move)square)
                           ? " " GAME_ANSI_MARK "%s" GAME_ANSI_RESET : " %s", mark);
    }
  }
  int black = reversi_count(board, REVERSI_BLACK);
  int white = reversi_count(board, REVERSI_WHITE);
  used = game_append(buf, size, used, "\n\u25cf %d \u25cb %d, ", black, white);
  if (!over) {
    const char *side = reversi_class.side[board->turn];
    return game_append(buf, size, used, legal ? "%s to move" : "%s must pass", side);
  }
  if (black == white) return game_append(buf, size, used, "a draw");
  return game_append(buf, size, used, "%s won",
                     black > white ? "black" : "white");
}
