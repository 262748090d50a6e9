/*
** board.c: Reversi rules on bitboards: legal moves, flips, make and
** unmake, the end of the game, perft.
**
** Moves go all eight directions at once with shifts: a run of opponent
** discs grows from one end, a step at a time to two discs and then two
** at a time, to six at most, since no line holds more than six discs
** between two others.  Shifting across the left or right edge would wrap
** to the next row, so in the six directions with a sideways step the
** opponent discs are first cut to columns b-g: a run never reaches the
** edge column, and the last shift out of it cannot wrap.  With AVX2 the
** same runs grow four directions at a time (reversi.h).  Flips, one
** square at a time, go along precomputed rays, four at a time with
** AVX-512 (the far end of each found by counting leading zeros), one at
** a time without AVX2; with AVX2 alone they grow runs from the new disc
** as moves do (reversi.h).
*/
#include <string.h>

#include "base/hash.h"
#include "reversi.h"

#define NOT_EDGE_COLUMNS 0x7e7e7e7e7e7e7e7eu

bool reversi_size_ok(int size) { return size == 4 || size == 6 || size == 8; }

/* The centred size x size square of the 8x8 board. */
static uint64_t board_mask(int size) {
  int first = (8 - size) / 2;
  uint64_t row = ((1u << size) - 1) << first, mask = 0;
  for (int r = first; r < first + size; r++) mask |= row << (8 * r);
  return mask;
}

void reversi_init(reversi_board *board, int size) {
  memset(board, 0, sizeof *board);
  board->size = (uint8_t)size;
  board->mask = board_mask(size);
  /* d4, e5 white and d5, e4 black on every size: the centre is the same. */
  uint64_t white = (uint64_t)1 << 27 | (uint64_t)1 << 36;
  uint64_t black = (uint64_t)1 << 28 | (uint64_t)1 << 35;
  board->player = black;
  board->opponent = white;
  board->turn = REVERSI_BLACK;
}

/* ---- the eight directions ---- */

/* Shifts towards higher bits (right, down and the two lower diagonals)
   and towards lower bits; n is 1, 7, 8 or 9. */
#define UP(x, n) ((x) << (n))
#define DOWN(x, n) ((x) >> (n))

/* The squares beyond runs of o (opponent discs, already cut to the right
   columns) that start next to a disc of p, in one direction: the runs
   grow to two discs one at a time, then to four and six two at a time
   through the discs whose neighbour behind is o too. */
#define MOVES_DIR(SHIFT, p, o, n, out) do {                          \
    uint64_t run_ = SHIFT(p, n) & (o);                               \
    uint64_t pair_ = (o) & SHIFT(o, n);                              \
    run_ |= SHIFT(run_, n) & (o);                                    \
    run_ |= SHIFT(run_, 2 * (n)) & pair_;                            \
    run_ |= SHIFT(run_, 2 * (n)) & pair_;                            \
    (out) |= SHIFT(run_, n);                                         \
  } while (0)

#ifndef __AVX2__            /* with AVX2: reversi.h */
uint64_t reversi_moves_of(uint64_t player, uint64_t opponent) {
  uint64_t inner = opponent & NOT_EDGE_COLUMNS, moves = 0;
  MOVES_DIR(UP, player, inner, 1, moves);
  MOVES_DIR(DOWN, player, inner, 1, moves);
  MOVES_DIR(UP, player, opponent, 8, moves);
  MOVES_DIR(DOWN, player, opponent, 8, moves);
  MOVES_DIR(UP, player, inner, 7, moves);
  MOVES_DIR(DOWN, player, inner, 7, moves);
  MOVES_DIR(UP, player, inner, 9, moves);
  MOVES_DIR(DOWN, player, inner, 9, moves);
  return moves & ~(player | opponent);
}
#endif

/* The rays of every square (reversi.h), made once before main. */
_Alignas(64) uint64_t reversi_ray[64][8];

__attribute__((constructor)) static void make_rays(void) {
  static const int step[8][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1},
                                 {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};
  for (int square = 0; square < 64; square++)
    for (int d = 0; d < 8; d++) {
      uint64_t squares = 0;
      int row = square / 8 + step[d][0], col = square % 8 + step[d][1];
      for (; row >= 0 && row < 8 && col >= 0 && col < 8;
           row += step[d][0], col += step[d][1])
        squares |= (uint64_t)1 << (row * 8 + col);
      reversi_ray[square][d] = squares;
    }
}

uint64_t reversi_legal(const reversi_board *board) {
  return reversi_moves_of(board->player, board->opponent) & board->mask;
}

uint64_t reversi_make(reversi_board *board, int square) {
  uint64_t flipped = 0;
  if (square != REVERSI_PASS) {
    flipped = reversi_flips(board->player, board->opponent, square);
    board->player |= flipped | (uint64_t)1 << square;
    board->opponent &= ~flipped;
  }
  uint64_t player = board->player;
  board->player = board->opponent;
  board->opponent = player;
  board->turn ^= 1;
  return flipped;
}

void reversi_unmake(reversi_board *board, int square, uint64_t flipped) {
  uint64_t player = board->opponent;
  board->opponent = board->player;
  board->player = player;
  board->turn ^= 1;
  if (square != REVERSI_PASS) {
    board->player &= ~(flipped | (uint64_t)1 << square);
    board->opponent |= flipped;
  }
}

bool reversi_is_over(const reversi_board *board) {
  return !reversi_legal(board) &&
         !(reversi_moves_of(board->opponent, board->player) & board->mask);
}

uint64_t reversi_discs(const reversi_board *board, int colour) {
  return colour == board->turn ? board->player : board->opponent;
}

int reversi_count(const reversi_board *board, int colour) {
  return __builtin_popcountll(reversi_discs(board, colour));
}

int reversi_final_score(uint64_t player, uint64_t opponent, uint64_t mask) {
  int mine = __builtin_popcountll(player), theirs = __builtin_popcountll(opponent);
  int empties = __builtin_popcountll(mask & ~(player | opponent));
  int diff = mine - theirs;
  if (diff > 0) return diff + empties;
  if (diff < 0) return diff - empties;
  return 0;
}

uint64_t reversi_hash(const reversi_board *board) {
  uint64_t extra = 0x7265766572736921u + board->turn + 2u * board->size;
  return hash_mix64(board->player ^ hash_mix64(board->opponent ^ hash_mix64(extra)));
}

/* ---- perft ---- */

static uint64_t perft(uint64_t player, uint64_t opponent, uint64_t mask,
                      int depth, search_limit *limit) {
  uint64_t moves = reversi_moves_of(player, opponent) & mask;
  if (depth == 1) return moves ? (uint64_t)__builtin_popcountll(moves) : 1;
  if (limit && limit_tick(limit)) return 0;
  if (!moves) {
    if (!(reversi_moves_of(opponent, player) & mask)) return 1;  /* finished */
    return perft(opponent, player, mask, depth - 1, limit);      /* a pass */
  }
  uint64_t leaves = 0;
  while (moves) {
    int square = __builtin_ctzll(moves);
    moves &= moves - 1;
    uint64_t flipped = reversi_flips(player, opponent, square);
    leaves += perft(opponent & ~flipped, player | flipped | (uint64_t)1 << square,
                    mask, depth - 1, limit);
  }
  return leaves;
}

uint64_t reversi_perft(const reversi_board *board, int depth,
                       search_limit *limit) {
  if (depth <= 0) return 1;
  return perft(board->player, board->opponent, board->mask, depth, limit);
}

/* ---- the protocol ---- */

static void class_init(void *state) { reversi_init(state, 8); }
static int class_turn(const void *state) {
  return ((const reversi_board *)state)->turn;
}

static int class_moves(const void *state, game_move *out) {
  const reversi_board *board = state;
  uint64_t moves = reversi_legal(board);
  if (!moves) {
    if (reversi_is_over(board)) return 0;
    out[0] = REVERSI_PASS;
    return 1;
  }
  int n = 0;
  for (; moves; moves &= moves - 1) out[n++] = (game_move)__builtin_ctzll(moves);
  return n;
}

static void class_make(void *state, game_move move, game_undo *undo) {
  undo->word[0] = reversi_make(state, (int)move);
}

static void class_unmake(void *state, game_move move, const game_undo *undo) {
  reversi_unmake(state, (int)move, undo->word[0]);
}

static game_status class_status(const void *state) {
  const reversi_board *board = state;
  if (!reversi_is_over(board)) return GAME_ONGOING;
  int black = reversi_count(board, REVERSI_BLACK);
  int white = reversi_count(board, REVERSI_WHITE);
  return black > white ? GAME_WIN_0 : white > black ? GAME_WIN_1 : GAME_DRAW;
}

static uint64_t class_hash(const void *state) { return reversi_hash(state); }

static int class_eval(const void *state) { return reversi_eval(state); }

static game_error class_parse_move(const void *state, const char *text,
                                   game_move *move, const char **why) {
  const reversi_board *board = state;
  int square = reversi_parse_square(board, text, strlen(text));
  if (square < 0) {
    *why = "not a square of this board";
    return GAME_EBADTEXT;
  }
  if (reversi_is_over(board)) {
    *why = "the game is over";
    return GAME_EOVER;
  }
  uint64_t legal = reversi_legal(board);
  if (square == REVERSI_PASS ? legal != 0
                             : !(legal >> square & 1)) {
    *why = square == REVERSI_PASS ? "a pass while a move exists"
           : board->player >> square & 1 || board->opponent >> square & 1
               ? "square is taken"
               : legal ? "it turns no disc over" : "the side to move must pass";
    return GAME_EILLEGAL;
  }
  *move = (game_move)square;
  return GAME_OK;
}

static size_t class_format_move(const void *state, game_move move, char *buf,
                                size_t size) {
  char name[5];
  reversi_square_name(state, (int)move, name);
  return game_append(buf, size, 0, "%s", name);
}

static size_t class_render(const void *state, const game_style *style,
                           char *buf, size_t size) {
  return reversi_render(state, style, buf, size);
}

/* Squares are the 64 bits, a1 first; a small board's outside ones are
   never occupied and have no name. */
static int class_squares(const void *state) {
  (void)state;
  return 64;
}

static int class_parse_square(const void *state, const char *text) {
  int square = reversi_parse_square(state, text, strlen(text));
  return square == REVERSI_PASS ? -1 : square;
}

static size_t class_format_square(const void *state, int square, char *buf,
                                  size_t size) {
  return class_format_move(state, (game_move)square, buf, size);
}

static int class_owner(const void *state, int square) {
  const reversi_board *board = state;
  if (square < 0 || square >= 64) return -1;
  if (board->player >> square & 1) return board->turn;
  if (board->opponent >> square & 1) return board->turn ^ 1;
  return -1;
}

const game_class reversi_class = {
  .name = "reversi",
  .side = {"black", "white"},
  .state_size = sizeof(reversi_board),
  .max_moves = 64,
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

/* ---- symmetries ---- */

uint64_t reversi_symmetry(uint64_t x, int k) {
  if (k & 1) x = reversi_mirror(x);
  if (k & 2) x = __builtin_bswap64(x);
  if (k & 4) x = reversi_transpose(x);
  return x;
}
