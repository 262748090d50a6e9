/*
** board.c: m,n,k rules, hashing and evaluation.
*/
#include <string.h>

#include "base/hash.h"
#include "mnk.h"

/* The four directions a line runs in, as (column, row) steps. */
static const int8_t directions[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

bool mnk_size_ok(int m, int n, int k) {
  return m >= 1 && n >= 1 && m <= MNK_MAX_SIDE && n <= MNK_MAX_SIDE &&
         k >= 1 && k <= (m > n ? m : n);
}

/* Zobrist keys made on the fly: a mix of the side and the cell. */
static uint64_t cell_key(int side, int cell) {
  return hash_mix64(0x6d6e6b2d6b657973u + (uint64_t)(side * MNK_MAX_CELLS + cell));
}

void mnk_init(mnk_board *board, int m, int n, int k, bool exact) {
  memset(board, 0, sizeof *board);
  board->m = (uint8_t)m;
  board->n = (uint8_t)n;
  board->k = (uint8_t)k;
  board->exact = exact;
  /* The size is part of every key, so tables never mix boards. */
  board->hash = hash_mix64((uint64_t)(m << 24 | n << 16 | k << 8 | exact));
}

int mnk_turn(const mnk_board *board) { return board->placed & 1; }

int mnk_cell(const mnk_board *board, int cell) { return board->cell[cell] - 1; }

bool mnk_is_empty(const mnk_board *board, int cell) {
  return mnk_cell(board, cell) < 0;
}

/* Stones of side in a row from (column, row), stepping by (dc, dr). */
static int run(const mnk_board *board, int side, int column, int row,
               int dc, int dr) {
  int count = 0;
  for (;;) {
    column += dc;
    row += dr;
    if (column < 0 || row < 0 || column >= board->m || row >= board->n)
      return count;
    if (board->cell[row * board->m + column] != side + 1) return count;
    count++;
  }
}

static bool wins_through(const mnk_board *board, int side, int cell) {
  int column = cell % board->m, row = cell / board->m;
  for (int d = 0; d < 4; d++) {
    int dc = directions[d][0], dr = directions[d][1];
    int line = 1 + run(board, side, column, row, dc, dr) +
               run(board, side, column, row, -dc, -dr);
    if (board->exact ? line == board->k : line >= board->k) return true;
  }
  return false;
}

/* What a line holding a stones of one side and b of the other is worth
   to the first: weight[a] while the other has none there. */
static int worth(int a, int b) {
  static const int weight[8] = {0, 1, 4, 16, 64, 256, 1024, 4096};
  return b ? 0 : weight[a < 7 ? a : 7];
}

/* Adds sign times what a stone of side on the (empty) cell changes in
   both sides' scores: only the lines through the cell change. */
static void rescore(mnk_board *board, int cell, int side, int sign) {
  int m = board->m, n = board->n, k = board->k;
  int column = cell % m, row = cell / m;
  for (int d = 0; d < 4; d++) {
    int dc = directions[d][0], dr = directions[d][1];
    for (int i = 0; i < k; i++) {       /* the line that starts i back */
      int c0 = column - i * dc, r0 = row - i * dr;
      int c1 = c0 + (k - 1) * dc, r1 = r0 + (k - 1) * dr;
      if (c0 < 0 || c0 >= m || c1 < 0 || c1 >= m || r0 < 0 || r0 >= n ||
          r1 < 0 || r1 >= n)
        continue;
      int count[3] = {0, 0, 0};
      for (int j = 0; j < k; j++)
        count[board->cell[(r0 + j * dr) * m + c0 + j * dc]]++;
      int mine = count[1 + side], theirs = count[2 - side];
      board->score[side] += sign * (worth(mine + 1, theirs) - worth(mine, theirs));
      board->score[1 - side] +=
          sign * (worth(theirs, mine + 1) - worth(theirs, mine));
    }
  }
}

void mnk_make(mnk_board *board, int cell) {
  int side = mnk_turn(board);
  rescore(board, cell, side, 1);
  board->cell[cell] = (uint8_t)(side + 1);
  board->stones[side][cell >> 6] |= (uint64_t)1 << (cell & 63);
  board->hash ^= cell_key(side, cell);
  board->placed++;
  if (!board->winner && wins_through(board, side, cell))
    board->winner = (uint8_t)(side + 1);
}

void mnk_unmake(mnk_board *board, int cell, int old_winner) {
  board->placed--;
  int side = mnk_turn(board);
  board->cell[cell] = 0;
  rescore(board, cell, side, -1);
  board->stones[side][cell >> 6] &= ~((uint64_t)1 << (cell & 63));
  board->hash ^= cell_key(side, cell);
  board->winner = (uint8_t)old_winner;
}

game_status mnk_status(const mnk_board *board) {
  if (board->winner) return board->winner == 1 ? GAME_WIN_0 : GAME_WIN_1;
  if (board->placed == board->m * board->n) return GAME_DRAW;
  return GAME_ONGOING;
}

int mnk_eval(const mnk_board *board) {
  int side = mnk_turn(board);
  return board->score[side] - board->score[1 - side];
}

/* ---- the protocol ---- */

static void class_init(void *state) { mnk_init(state, 3, 3, 3, false); }
static void gomoku_init(void *state) { mnk_init(state, 15, 15, 5, false); }
static int class_turn(const void *state) { return mnk_turn(state); }

static int class_moves(const void *state, game_move *out) {
  const mnk_board *board = state;
  if (mnk_status(board) != GAME_ONGOING) return 0;
  int count = 0, cells = board->m * board->n;
  for (int word = 0; word * 64 < cells; word++) {
    uint64_t free = ~(board->stones[0][word] | board->stones[1][word]);
    if (cells - word * 64 < 64) free &= ((uint64_t)1 << (cells - word * 64)) - 1;
    while (free) {
      out[count++] = (game_move)(word * 64 + __builtin_ctzll(free));
      free &= free - 1;
    }
  }
  return count;
}

static void class_make(void *state, game_move move, game_undo *undo) {
  mnk_board *board = state;
  undo->word[0] = board->winner;
  mnk_make(board, (int)move);
}

static void class_unmake(void *state, game_move move, const game_undo *undo) {
  mnk_unmake(state, (int)move, (int)undo->word[0]);
}

static game_status class_status(const void *state) { return mnk_status(state); }
static uint64_t class_hash(const void *state) {
  return ((const mnk_board *)state)->hash;
}
static int class_eval(const void *state) { return mnk_eval(state); }

static game_error class_parse_move(const void *state, const char *text,
                                   game_move *move, const char **why) {
  const mnk_board *board = state;
  int cell = mnk_parse_cell(board, text);
  if (cell < 0) {
    *why = "not a square of this board";
    return GAME_EBADTEXT;
  }
  if (mnk_status(board) != GAME_ONGOING) {
    *why = "the game is over";
    return GAME_EOVER;
  }
  if (!mnk_is_empty(board, cell)) {
    *why = "square is taken";
    return GAME_EILLEGAL;
  }
  *move = (game_move)cell;
  return GAME_OK;
}

static size_t class_format_move(const void *state, game_move move, char *buf,
                                size_t size) {
  char name[8];
  mnk_cell_name(state, (int)move, name);
  return game_append(buf, size, 0, "%s", name);
}

static size_t class_render(const void *state, const game_style *style,
                           char *buf, size_t size) {
  static const char *const marks[2] = {"x", "o"};
  return mnk_render(state, marks, mnk_class.side, style, buf, size);
}

static size_t gomoku_render(const void *state, const game_style *style,
                            char *buf, size_t size) {
  static const char *const marks[2] = {"\u25cf", "\u25cb"};
  return mnk_render(state, marks, gomoku_class.side, style, buf, size);
}

static int class_squares(const void *state) {
  const mnk_board *board = state;
  return board->m * board->n;
}

static int class_parse_square(const void *state, const char *text) {
  return mnk_parse_cell(state, text);
}

static size_t class_format_square(const void *state, int square, char *buf,
                                  size_t size) {
  return class_format_move(state, (game_move)square, buf, size);
}

static int class_owner(const void *state, int square) {
  if (square < 0 || square >= class_squares(state)) return -1;
  return mnk_cell(state, square);
}

const game_class mnk_class = {
  .name = "mnk",
  .side = {"x", "o"},
  .state_size = sizeof(mnk_board),
  .max_moves = MNK_MAX_CELLS,
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

const game_class gomoku_class = {
  .name = "gomoku",
  .side = {"black", "white"},
  .state_size = sizeof(mnk_board),
  .max_moves = MNK_MAX_CELLS,
  .init = gomoku_init,
  .turn = class_turn,
  .moves = class_moves,
  .make = class_make,
  .unmake = class_unmake,
  .status = class_status,
  .hash = class_hash,
  .eval = class_eval,
  .parse_move = class_parse_move,
  .format_move = class_format_move,
  .render = gomoku_render,
  .squares = class_squares,
  .parse_square = class_parse_square,
  .format_square = class_format_square,
  .owner = class_owner,
};
