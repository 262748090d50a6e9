/*
** fen.c: positions as FEN, the form of xqbase and UCCI: ten ranks from
** black's back rank (9) down to red's (0), red in upper case, then the
** side to move, two unused fields and the two move counters.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

static const char *const kind_names[XQ_KINDS] = {
  "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"
};
static const char *const kind_plurals[XQ_KINDS] = {
  "generals", "advisors", "elephants", "horses", "chariots", "cannons",
  "soldiers"
};
static const int kind_limits[XQ_KINDS] = {1, 2, 2, 2, 2, 2, 5};

/* The kind a FEN letter names (either case), or -1. */
static int kind_of_letter(char c) {
  switch (c | 0x20) {
  case 'k': return XQ_KING;
  case 'a': return XQ_ADVISOR;
  case 'b': case 'e': return XQ_ELEPHANT;
  case 'n': case 'h': return XQ_HORSE;
  case 'r': return XQ_ROOK;
  case 'c': return XQ_CANNON;
  case 'p': return XQ_PAWN;
  default: return -1;
  }
}

/* Whether a piece of side and kind can ever stand on square.  Points are
   seen from red's side: black's are mirrored rank for rank. */
static bool reachable(int side, int kind, int square) {
  int file = xq_file(square), rank = xq_rank(square);
  if (side == XQ_BLACK) rank = 9 - rank;
  switch (kind) {
  case XQ_KING:
    return file >= 3 && file <= 5 && rank <= 2;
  case XQ_ADVISOR:
    return (rank == 1 && file == 4) ||
           ((rank == 0 || rank == 2) && (file == 3 || file == 5));
  case XQ_ELEPHANT:
    return ((rank == 0 || rank == 4) && (file == 2 || file == 6)) ||
           (rank == 2 && file % 4 == 0);
  case XQ_PAWN:
    return rank >= 5 || (rank >= 3 && file % 2 == 0);
  default:
    return true;
  }
}

static xq_fen_error fail(xq_fen_problem *problem, xq_fen_error code,
                         size_t offset, int square, char letter) {
  problem->code = code;
  problem->offset = offset;
  problem->square = square;
  problem->letter = letter;
  return code;
}

/* Reads an unsigned number at *at (advancing it); -1 if there is none. */
/* A move counter: digits, at most XQ_MAX_COUNTER; -1 (with *at on the
   first byte that is wrong) for anything else. */
static long read_number(const char *text, size_t *at) {
  if (text[*at] < '0' || text[*at] > '9') return -1;
  long value = 0;
  size_t start = *at;
  while (text[*at] >= '0' && text[*at] <= '9') {
    value = value * 10 + (text[*at] - '0');
    if (value > XQ_MAX_COUNTER) {
      *at = start;
      return -1;
    }
    (*at)++;
  }
  return value;
}

static void skip_spaces(const char *text, size_t *at) {
  while (text[*at] == ' ' || text[*at] == '\t') (*at)++;
}

xq_fen_error xq_from_fen(xq_position *out, const char *fen,
                         xq_fen_problem *problem) {
  xq_position pos;
  xq_clear(&pos);
  size_t at = 0;
  skip_spaces(fen, &at);
  for (int rank = 9; rank >= 0; rank--) {
    int file = 0;
    for (; fen[at] && fen[at] != '/' && fen[at] != ' '; at++) {
      char c = fen[at];
      if (c >= '1' && c <= '9') {
        file += c - '0';
        if (file > 9) return fail(problem, XQ_FEN_SYNTAX, at, -1, c);
        continue;
      }
      int kind = kind_of_letter(c);
      if (kind < 0) return fail(problem, XQ_FEN_PIECE, at, -1, c);
      if (file >= 9) return fail(problem, XQ_FEN_SYNTAX, at, -1, c);
      int side = c >= 'a' ? XQ_BLACK : XQ_RED;
      int square = xq_square(file, rank);
      if (!reachable(side, kind, square))
        return fail(problem, XQ_FEN_PLACE, at, square, c);
      if (!xq_put(&pos, side, (xq_kind)kind, square))
        return fail(problem, XQ_FEN_COUNT, at, square, c);
      file++;
    }
    if (file != 9) return fail(problem, XQ_FEN_SYNTAX, at, -1, fen[at]);
    if (rank > 0) {
      if (fen[at] != '/') return fail(problem, XQ_FEN_SYNTAX, at, -1, fen[at]);
      at++;
    }
  }
  for (int side = XQ_RED; side <= XQ_BLACK; side++)
    if (!pos.square[XQ_KING_ID(side)])
      return fail(problem, XQ_FEN_NO_KING, at, -1, side == XQ_RED ? 'K' : 'k');
  skip_spaces(fen, &at);
  if (fen[at]) {
    char c = fen[at];
    if (c == 'b' || c == 'B') pos.turn = XQ_BLACK;
    else if (c != 'w' && c != 'W' && c != 'r' && c != 'R')
      return fail(problem, XQ_FEN_SIDE, at, -1, c);
    at++;
    if (fen[at] && fen[at] != ' ' && fen[at] != '\t')
      return fail(problem, XQ_FEN_SIDE, at, -1, fen[at]);
    skip_spaces(fen, &at);
    for (int dash = 0; dash < 2 && fen[at] == '-'; dash++) {
      at++;
      skip_spaces(fen, &at);
    }
    long quiet = 0, fullmove = 1;
    if (fen[at]) {
      if ((quiet = read_number(fen, &at)) < 0)
        return fail(problem, XQ_FEN_CLOCK, at, -1, fen[at]);
      skip_spaces(fen, &at);
      if (fen[at] && (fullmove = read_number(fen, &at)) < 0)
        return fail(problem, XQ_FEN_CLOCK, at, -1, fen[at]);
      skip_spaces(fen, &at);
      if (fen[at]) return fail(problem, XQ_FEN_CLOCK, at, -1, fen[at]);
      if (fullmove < 1) fullmove = 1;
    }
    pos.quiet = (uint32_t)quiet;
    pos.fullmove = (uint32_t)fullmove;
  }
  xq_reset_history(&pos);
  if (xq_exposed(&pos))
    return fail(problem, XQ_FEN_CAPTURE_KING, at, -1,
                pos.turn == XQ_RED ? 'k' : 'K');
  *out = pos;
  problem->code = XQ_FEN_OK;
  return XQ_FEN_OK;
}

/* "d1": the ICCS name of a point. */
static void point_name(int square, char name[3]) {
  name[0] = (char)('a' + xq_file(square));
  name[1] = (char)('0' + xq_rank(square));
  name[2] = '\0';
}

/* Where a piece of side and kind may stand, as "d0 f0 e1 d2 f2". */
static void reachable_list(int side, int kind, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (int rank = 0; rank < 10; rank++)
    for (int file = 0; file < 9; file++) {
      int square = xq_square(file, rank);
      if (!reachable(side, kind, square)) continue;
      char name[3];
      point_name(square, name);
      n = game_append(buf, size, n, "%s%s", n ? " " : "", name);
    }
}

size_t xq_fen_message(const xq_fen_problem *problem, char *buf, size_t size) {
  char c = problem->letter;
  int kind = kind_of_letter(c);
  const char *side = c >= 'a' ? "black" : "red";
  char name[3] = "?", list[64];
  if (problem->square >= 0) point_name(problem->square, name);
  switch (problem->code) {
  case XQ_FEN_OK:
    return (size_t)snprintf(buf, size, "no problem");
  case XQ_FEN_SYNTAX:
    return (size_t)snprintf(buf, size, "not ten ranks of nine points "
                            "separated by '/' (at byte %zu)",
                            problem->offset + 1);
  case XQ_FEN_PIECE:
    return (size_t)snprintf(buf, size, "'%c' at byte %zu is not a piece "
                            "(pieces are K A B/E N/H R C P, red in upper "
                            "case)", c > 32 && c < 127 ? c : '?',
                            problem->offset + 1);
  case XQ_FEN_COUNT:
    return (size_t)snprintf(buf, size, "%s has more than %d %s",
                            side, kind_limits[kind],
                            kind_limits[kind] == 1 ? kind_names[kind]
                                                   : kind_plurals[kind]);
  case XQ_FEN_NO_KING:
    return (size_t)snprintf(buf, size, "%s has no general", side);
  case XQ_FEN_PLACE:
    reachable_list(c >= 'a' ? XQ_BLACK : XQ_RED, kind, list, sizeof list);
    if (kind == XQ_PAWN)
      return (size_t)snprintf(buf, size, "the %s soldier on %s stands where "
                              "no soldier can go (soldiers never step back, "
                              "and start on files a c e g i)", side, name);
    return (size_t)snprintf(buf, size, "the %s %s on %s stands where no %s "
                            "can go (%s %s keep to %s)", side,
                            kind_names[kind], name, kind_names[kind], side,
                            kind_plurals[kind], list);
  case XQ_FEN_SIDE:
    return (size_t)snprintf(buf, size, "the side to move must be w (or r) "
                            "for red, b for black (at byte %zu)",
                            problem->offset + 1);
  case XQ_FEN_CLOCK:
    return (size_t)snprintf(buf, size, "expected the move counters, two "
                            "numbers up to %d, at byte %zu", XQ_MAX_COUNTER,
                            problem->offset + 1);
  case XQ_FEN_CAPTURE_KING:
    return (size_t)snprintf(buf, size, "the %s general is attacked with %s "
                            "to move: the side to move could take it",
                            side, c >= 'a' ? "red" : "black");
  }
  return (size_t)snprintf(buf, size, "not a position");
}

size_t xq_to_fen(const xq_position *pos, char *buf, size_t size) {
  size_t n = 0;
  for (int rank = 9; rank >= 0; rank--) {
    int empty = 0;
    for (int file = 0; file < 9; file++) {
      int id = pos->board[xq_square(file, rank)];
      if (!id) {
        empty++;
        continue;
      }
      if (empty) n = game_append(buf, size, n, "%d", empty);
      empty = 0;
      n = game_append(buf, size, n, "%c", xq_letter(id));
    }
    if (empty) n = game_append(buf, size, n, "%d", empty);
    if (rank > 0) n = game_append(buf, size, n, "/");
  }
  return game_append(buf, size, n, " %c - - %u %u",
                     pos->turn == XQ_RED ? 'w' : 'b', (unsigned)pos->quiet,
                     (unsigned)pos->fullmove);
}

bool xq_is_start(const xq_position *pos) {
  char fen[128];
  xq_to_fen(pos, fen, sizeof fen);
  return strcmp(fen, XQ_START_FEN) == 0;
}
