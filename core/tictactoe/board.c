/*
** board.c: tic-tac-toe rules on two 9-bit masks.
*/
#include "tictactoe.h"
#include "base/hash.h"

const uint16_t ttt_lines[8] = {
  0x007, 0x038, 0x1c0,          /* rows 1, 2, 3 */
  0x049, 0x092, 0x124,          /* columns a, b, c */
  0x111, 0x054                  /* diagonals a1-c3, c1-a3 */
};

static int count_bits(unsigned mask) {
  int n = 0;
  for (; mask; mask &= mask - 1) n++;
  return n;
}

static int has_line(unsigned mask) {
  for (int i = 0; i < 8; i++)
    if ((mask & ttt_lines[i]) == ttt_lines[i]) return 1;
  return 0;
}

void ttt_init(ttt_board *board) {
  board->x = board->o = 0;
}

int ttt_turn(const ttt_board *board) {
  return count_bits(board->x) > count_bits(board->o) ? TTT_O : TTT_X;
}

game_status ttt_status(const ttt_board *board) {
  if (has_line(board->x)) return GAME_WIN_0;
  if (has_line(board->o)) return GAME_WIN_1;
  if ((board->x | board->o) == TTT_FULL) return GAME_DRAW;
  return GAME_ONGOING;
}

int ttt_moves(const ttt_board *board, game_move *out) {
  if (ttt_status(board) != GAME_ONGOING) return 0;
  int n = 0;
  unsigned taken = board->x | board->o;
  for (int square = 0; square < TTT_SQUARES; square++)
    if (!(taken >> square & 1)) out[n++] = (game_move)square;
  return n;
}

void ttt_make(ttt_board *board, int square) {
  if (ttt_turn(board) == TTT_X)
    board->x |= (uint16_t)(1u << square);
  else
    board->o |= (uint16_t)(1u << square);
}

void ttt_unmake(ttt_board *board, int square) {
  uint16_t keep = (uint16_t)~(1u << square);
  board->x &= keep;
  board->o &= keep;
}

/* The two masks side by side are an exact key; mixing spreads it. */
uint64_t ttt_hash(const ttt_board *board) {
  return hash_mix64((uint64_t)board->x | (uint64_t)board->o << 9);
}

/* Open lines weighted by how far along they are, for the side to move. */
int ttt_eval(const ttt_board *board) {
  unsigned mine = board->x, theirs = board->o;
  if (ttt_turn(board) == TTT_O) {
    mine = board->o;
    theirs = board->x;
  }
  int score = 0;
  for (int i = 0; i < 8; i++) {
    int m = count_bits(mine & ttt_lines[i]);
    int t = count_bits(theirs & ttt_lines[i]);
    if (t == 0) score += m * m;
    if (m == 0) score -= t * t;
  }
  return score;
}

/* ---- the protocol ---- */

static void class_init(void *state) { ttt_init(state); }
static int class_turn(const void *state) { return ttt_turn(state); }
static int class_moves(const void *state, game_move *out) {
  return ttt_moves(state, out);
}
static void class_make(void *state, game_move move, game_undo *undo) {
  (void)undo;                   /* unmake only needs the square */
  ttt_make(state, (int)move);
}
static void class_unmake(void *state, game_move move, const game_undo *undo) {
  (void)undo;
  ttt_unmake(state, (int)move);
}
static game_status class_status(const void *state) { return ttt_status(state); }
static uint64_t class_hash(const void *state) { return ttt_hash(state); }
static int class_eval(const void *state) { return ttt_eval(state); }

static game_error class_parse_move(const void *state, const char *text,
                                   game_move *move, const char **why) {
  const ttt_board *board = state;
  int square = ttt_parse_square(text);
  if (square < 0) {
    *why = "squares are a1 to c3";
    return GAME_EBADTEXT;
  }
  if (ttt_status(board) != GAME_ONGOING) {
    *why = "the game is over";
    return GAME_EOVER;
  }
  if ((board->x | board->o) >> square & 1) {
    *why = "square is taken";
    return GAME_EILLEGAL;
  }
  *move = (game_move)square;
  return GAME_OK;
}

static size_t class_format_move(const void *state, game_move move,
                                char *buf, size_t size) {
  (void)state;
  char name[3];
  ttt_square_name((int)move, name);
  if (size > 0) {
    size_t n = size - 1 < 2 ? size - 1 : 2;
    for (size_t i = 0; i < n; i++) buf[i] = name[i];
    buf[n] = '\0';
  }
  return 2;
}

static size_t class_render(const void *state, const game_style *style,
                           char *buf, size_t size) {
  return ttt_render(state, style, buf, size);
}

static int class_squares(const void *state) {
  (void)state;
  return TTT_SQUARES;
}

static int class_parse_square(const void *state, const char *text) {
  (void)state;
  return ttt_parse_square(text);
}

static size_t class_format_square(const void *state, int square, char *buf,
                                  size_t size) {
  return class_format_move(state, (game_move)square, buf, size);
}

static int class_owner(const void *state, int square) {
  const ttt_board *board = state;
  if (square < 0 || square >= TTT_SQUARES) return -1;
  return board->x >> square & 1 ? 0 : board->o >> square & 1 ? 1 : -1;
}

const game_class ttt_class = {
  .name = "tictactoe",
  .side = {"x", "o"},
  .state_size = sizeof(ttt_board),
  .max_moves = TTT_SQUARES,
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
  .squares = class_squares,
  .parse_square = class_parse_square,
  .format_square = class_format_square,
  .owner = class_owner,
};
