/*
** board.c: Connect Four rules on Pons' bitboard.
*/
#include <string.h>

#include "connect4.h"
#include "base/hash.h"

bool c4_size_ok(int width, int height) {
  return width >= 1 && width <= C4_MAX_WIDTH && height >= 1 &&
         width * (height + 1) <= C4_MAX_CELLS;
}

void c4_init(c4_board *board, int width, int height) {
  memset(board, 0, sizeof *board);
  board->width = (uint8_t)width;
  board->height = (uint8_t)height;
}

static uint64_t bottom_bit(const c4_board *board, int column) {
  return UINT64_C(1) << (column * (board->height + 1));
}

static uint64_t top_bit(const c4_board *board, int column) {
  return UINT64_C(1) << (column * (board->height + 1) + board->height - 1);
}

static uint64_t column_bits(const c4_board *board, int column) {
  return ((UINT64_C(1) << board->height) - 1) << (column * (board->height + 1));
}

bool c4_can_play(const c4_board *board, int column) {
  return column >= 0 && column < board->width &&
         !(board->mask & top_bit(board, column));
}

/* Adding the column's bottom bit to the mask carries into the lowest
   empty cell: Pons' trick. */
void c4_play(c4_board *board, int column) {
  board->current ^= board->mask;
  board->mask |= board->mask + bottom_bit(board, column);
  board->moves++;
  board->turn ^= 1;
}

void c4_undo(c4_board *board, int column) {
  uint64_t in_column = board->mask & column_bits(board, column);
  uint64_t top = in_column ^ (in_column >> 1 & in_column);  /* highest chip */
  board->mask ^= top;
  board->current ^= board->mask;
  board->moves--;
  board->turn ^= 1;
}

uint64_t c4_last_mover(const c4_board *board) {
  return board->current ^ board->mask;
}

bool c4_has_four(const c4_board *board, uint64_t chips) {
  const int h = board->height;
  const int shifts[4] = {1, h + 1, h, h + 2};  /* |, -, \, / */
  /* A board narrower than four has lines up only; across it, twice the
     shift could pass 63 (2x30), which C leaves undefined. */
  const int directions = board->width < 4 ? 1 : 4;
  for (int i = 0; i < directions; i++) {
    uint64_t pairs = chips & chips >> shifts[i];
    if (pairs & pairs >> 2 * shifts[i]) return true;
  }
  return false;
}

game_status c4_status(const c4_board *board) {
  if (c4_has_four(board, c4_last_mover(board)))
    return board->turn == C4_YELLOW ? GAME_WIN_1 : GAME_WIN_0;
  if (board->moves == board->width * board->height) return GAME_DRAW;
  return GAME_ONGOING;
}

/* current + mask is unique for a size (Pons); the rest tells sizes and the
   colour to move apart. */
uint64_t c4_hash(const c4_board *board) {
  uint64_t shape = (uint64_t)board->width << 8 | board->height << 1 |
                   board->turn;
  return hash_mix64(board->current + board->mask) ^ hash_mix64(shape);
}

int c4_cell(const c4_board *board, int column, int row) {
  uint64_t bit = bottom_bit(board, column) << row;
  if (!(board->mask & bit)) return -1;
  return board->current & bit ? board->turn : board->turn ^ 1;
}

/* ---- positions from a picture ---- */

static int count_bits(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/* Whether the side that just moved holds four that its last chip made:
   some top chip of its own, taken away, leaves it without four. */
static bool last_chip_made_four(const c4_board *board) {
  uint64_t mover = c4_last_mover(board);
  for (int column = 0; column < board->width; column++) {
    uint64_t in_column = board->mask & column_bits(board, column);
    uint64_t top = in_column ^ (in_column >> 1 & in_column);
    if (top && (mover & top) && !c4_has_four(board, mover ^ top)) return true;
  }
  return false;
}

c4_error c4_from_cells(c4_board *board, int width, int height,
                       const signed char *cells, int to_move, int first,
                       c4_parse_error *err) {
  c4_board b;
  c4_init(&b, width, height);
  uint64_t colour[2] = {0, 0};
  err->at = err->row = -1;
  for (int column = 0; column < width; column++) {
    for (int row = 0; row < height; row++) {     /* row 0 is the bottom */
      int cell = cells[(height - 1 - row) * width + column];
      if (cell < 0) continue;
      if (row > 0 && !((colour[0] | colour[1]) & bottom_bit(&b, column) << (row - 1))) {
        err->row = height - 1 - row;
        err->at = column;
        return err->code = C4_EFLOATING;
      }
      colour[cell] |= bottom_bit(&b, column) << row;
    }
  }
  int yellow = count_bits(colour[C4_YELLOW]), red = count_bits(colour[C4_RED]);
  err->yellow = yellow;
  err->red = red;
  int firsts = first == C4_YELLOW ? yellow : red;
  int seconds = first == C4_YELLOW ? red : yellow;
  if (to_move < 0) to_move = firsts > seconds ? first ^ 1 : first;
  if (firsts - seconds != (to_move == first ? 0 : 1))
    return err->code = C4_ECOUNT;
  b.mask = colour[0] | colour[1];
  b.current = colour[to_move];
  b.turn = (uint8_t)to_move;
  b.moves = (uint8_t)(yellow + red);
  bool four_to_move = c4_has_four(&b, b.current);
  bool four_moved = c4_has_four(&b, c4_last_mover(&b));
  err->colour = four_to_move ? to_move : to_move ^ 1;
  if (four_to_move && four_moved) return err->code = C4_ETWOWINNERS;
  if (four_to_move) return err->code = C4_EWINNER;
  if (four_moved && !last_chip_made_four(&b)) return err->code = C4_EPLAYEDON;
  *board = b;
  return err->code = C4_OK;
}
