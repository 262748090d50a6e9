/*
** reversi.h: Reversi (Othello) on 4x4, 6x6 and 8x8 boards.
**
** A position is two bitboards, the discs of the side to move (player)
** and of the other side (opponent), as in Edax.  Bit 8 * row + column is
** a square, a1 = bit 0 at the top left as every Othello program draws it,
** h8 = bit 63.  A smaller board is the centred square of the 8x8 one
** (mask), so one move generator serves every size: outside squares are
** never occupied, and lines of discs stop at them as at empty squares.
** A small board names its squares from its own corner: on 4x4, a1 is the
** 8x8 board's c3.
**
** Black moves first.  A side without a legal move passes (REVERSI_PASS);
** the game ends when neither side can move.
*/
#ifndef REVERSI_H
#define REVERSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "base/game.h"
#include "base/limit.h"

#define REVERSI_PASS 64             /* the move of a side that cannot move */

enum { REVERSI_BLACK, REVERSI_WHITE };

typedef struct reversi_board {
  uint64_t player;                  /* discs of the side to move */
  uint64_t opponent;
  uint64_t mask;                    /* the squares of this board's size */
  uint8_t size;                     /* 4, 6 or 8 */
  uint8_t turn;                     /* REVERSI_BLACK or REVERSI_WHITE */
  uint8_t unused[6];
} reversi_board;

/* ---- rules (board.c) ---- */

bool reversi_size_ok(int size);

/* The start position of a board of that size (which must be ok): the
   four centre squares, white on the a1-h8 diagonal, black to move. */
void reversi_init(reversi_board *board, int size);

/* The squares of the 8x8 board where player may play against opponent:
   each outflanks at least one line of opponent discs.  A smaller board
   keeps those inside its mask.  (With AVX2 it is inline, below.) */
#ifndef __AVX2__
uint64_t reversi_moves_of(uint64_t player, uint64_t opponent);
#endif

/* The squares next to any of discs, in the eight directions. */
static inline uint64_t reversi_neighbours(uint64_t discs) {
  uint64_t side = (discs << 1 & 0xfefefefefefefefeu) |   /* not column a */
                  (discs >> 1 & 0x7f7f7f7f7f7f7f7fu);    /* not column h */
  uint64_t row = discs | side;
  return side | row << 8 | row >> 8;
}

/* reversi_ray[square][d]: the squares beyond square in direction d, up
   to the edge; directions 0-3 run to higher bits, 4-7 to lower ones. */
extern _Alignas(64) uint64_t reversi_ray[64][8];

/* Along a ray the first square that is not an opponent disc is the
   lowest (or highest) of its other squares; the discs before it turn
   when it holds a player disc.  Branch-free. */
static inline uint64_t reversi_ray_up(uint64_t p, uint64_t o, uint64_t ray) {
  uint64_t others = ray & ~o, first = others & (0 - others);
  return (first - 1) & ray & (0 - (uint64_t)((first & p) != 0));
}

static inline uint64_t reversi_ray_down(uint64_t p, uint64_t o, uint64_t ray) {
  uint64_t others = ray & ~o;
  uint64_t first = ((uint64_t)1 << (63 - __builtin_clzll(others | 1))) & others;
  return ray & (0 - (first << 1)) & (0 - (uint64_t)((first & p) != 0));
}

#ifdef __AVX2__
/* With AVX2, moves and flips go four directions at a time, one in each
   lane of a vector: steps of 1, 8, 9 and 7 squares, towards higher bits
   or lower ones.  The sideways directions see only the opponent discs of
   columns b-g (reversi_lanes), so no shift wraps round an edge. */
static inline __m256i reversi_lanes(uint64_t opponent) {
  const long long inner = 0x7e7e7e7e7e7e7e7e;
  return _mm256_and_si256(_mm256_set1_epi64x((long long)opponent),
                          _mm256_set_epi64x(inner, inner, -1, inner));
}

static inline __m256i reversi_step(__m256i x, int times, bool up) {
  __m256i n = _mm256_set_epi64x(7 * times, 9 * times, 8 * times, times);
  return up ? _mm256_sllv_epi64(x, n) : _mm256_srlv_epi64(x, n);
}

/* The runs of o that start next to a square of from, in each lane's
   direction: grown one step, then two at a time through discs whose
   neighbour behind is in o too, to six at most (no line holds more
   between two discs), as board.c grows them. */
static inline __m256i reversi_runs(__m256i from, __m256i o, bool up) {
  __m256i run = _mm256_and_si256(o, reversi_step(from, 1, up));
  __m256i pair = _mm256_and_si256(o, reversi_step(o, 1, up));
  run = _mm256_or_si256(run, _mm256_and_si256(o, reversi_step(run, 1, up)));
  run = _mm256_or_si256(run, _mm256_and_si256(pair, reversi_step(run, 2, up)));
  return _mm256_or_si256(run, _mm256_and_si256(pair, reversi_step(run, 2, up)));
}

static inline uint64_t reversi_or_lanes(__m256i x) {
  __m128i half = _mm_or_si128(_mm256_castsi256_si128(x),
                              _mm256_extracti128_si256(x, 1));
  half = _mm_or_si128(half, _mm_unpackhi_epi64(half, half));
  return (uint64_t)_mm_cvtsi128_si64(half);
}

/* The squares beyond the runs that start next to a player disc. */
static inline uint64_t reversi_moves_of(uint64_t player, uint64_t opponent) {
  __m256i p = _mm256_set1_epi64x((long long)player), o = reversi_lanes(opponent);
  __m256i moves = _mm256_or_si256(reversi_step(reversi_runs(p, o, true), 1, true),
                                  reversi_step(reversi_runs(p, o, false), 1, false));
  return reversi_or_lanes(moves) & ~(player | opponent);
}

#if defined(__AVX512VL__) && defined(__AVX512CD__)
/* With AVX-512's counts of leading zeros on 256-bit vectors, flips go
   along the rays (reversi_ray) four directions at a time: towards higher
   bits the first square that is not an opponent disc is the lowest of
   the others, towards lower bits the highest. */
static inline uint64_t reversi_flips(uint64_t player, uint64_t opponent,
                                     int square) {
  const __m256i *ray = (const __m256i *)reversi_ray[square];
  __m256i p = _mm256_set1_epi64x((long long)player);
  __m256i o = _mm256_set1_epi64x((long long)opponent);
  __m256i up = _mm256_load_si256(ray), down = _mm256_load_si256(ray + 1);
  __m256i others = _mm256_andnot_si256(o, up);
  __m256i first = _mm256_and_si256(others, _mm256_sub_epi64(_mm256_setzero_si256(), others));
  __m256i flips = _mm256_maskz_and_epi64(_mm256_test_epi64_mask(first, p), up,
                                         _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
  others = _mm256_andnot_si256(o, down);
  first = _mm256_srlv_epi64(_mm256_set1_epi64x(INT64_MIN), _mm256_lzcnt_epi64(others));
  __m256i beyond = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_add_epi64(first, first));
  flips = _mm256_mask_or_epi64(flips, _mm256_test_epi64_mask(first, p), flips,
                               _mm256_and_si256(down, beyond));
  return reversi_or_lanes(flips);
}
#else
/* The runs from the new disc that a player disc ends, in one sense. */
static inline __m256i reversi_turned(__m256i x, __m256i p, __m256i o,
                                     bool up) {
  __m256i run = reversi_runs(x, o, up);
  __m256i end = _mm256_and_si256(p, reversi_step(run, 1, up));
  return _mm256_andnot_si256(_mm256_cmpeq_epi64(end, _mm256_setzero_si256()), run);
}

/* The opponent discs a player disc on square turns over (0: not a move). */
static inline uint64_t reversi_flips(uint64_t player, uint64_t opponent,
                                     int square) {
  __m256i x = _mm256_set1_epi64x((long long)((uint64_t)1 << square));
  __m256i p = _mm256_set1_epi64x((long long)player), o = reversi_lanes(opponent);
  return reversi_or_lanes(_mm256_or_si256(reversi_turned(x, p, o, true),
                                          reversi_turned(x, p, o, false)));
}
#endif
#else
/* The opponent discs a player disc on square turns over (0: not a move). */
static inline uint64_t reversi_flips(uint64_t player, uint64_t opponent,
                                     int square) {
  const uint64_t *r = reversi_ray[square];
  return reversi_ray_up(player, opponent, r[0]) |
         reversi_ray_up(player, opponent, r[1]) |
         reversi_ray_up(player, opponent, r[2]) |
         reversi_ray_up(player, opponent, r[3]) |
         reversi_ray_down(player, opponent, r[4]) |
         reversi_ray_down(player, opponent, r[5]) |
         reversi_ray_down(player, opponent, r[6]) |
         reversi_ray_down(player, opponent, r[7]);
}
#endif

/* The legal squares of the side to move (0: it must pass or the game is
   over). */
uint64_t reversi_legal(const reversi_board *board);

/* Plays square (or REVERSI_PASS), which must be legal; returns the flipped
   discs, which unmake needs. */
uint64_t reversi_make(reversi_board *board, int square);
void reversi_unmake(reversi_board *board, int square, uint64_t flipped);

bool reversi_is_over(const reversi_board *board);

/* The image of a set of squares by symmetry k (0..7) of the 8x8 square:
   bit 0 of k mirrors the columns, bit 1 flips the rows, bit 2 swaps rows
   and columns (after the others).  The centred small boards map onto
   themselves. */
uint64_t reversi_symmetry(uint64_t squares, int k);

static inline uint64_t reversi_mirror(uint64_t x) {     /* columns a <-> h */
  x = (x >> 1 & 0x5555555555555555u) | (x & 0x5555555555555555u) << 1;
  x = (x >> 2 & 0x3333333333333333u) | (x & 0x3333333333333333u) << 2;
  return (x >> 4 & 0x0f0f0f0f0f0f0f0fu) | (x & 0x0f0f0f0f0f0f0f0fu) << 4;
}

static inline uint64_t reversi_transpose(uint64_t x) {  /* a1-h8 fixed */
  uint64_t t = (x ^ x >> 7) & 0x00aa00aa00aa00aau;
  x ^= t ^ t << 7;
  t = (x ^ x >> 14) & 0x0000cccc0000ccccu;
  x ^= t ^ t << 14;
  t = (x ^ x >> 28) & 0x00000000f0f0f0f0u;
  return x ^ t ^ t << 28;
}

/* Discs of each colour. */
int reversi_count(const reversi_board *board, int colour);
uint64_t reversi_discs(const reversi_board *board, int colour);

/* The final score for the side to move, as the solvers and the FFO tests
   count it: its discs minus the other's, the empty squares going to the
   side with more discs. */
int reversi_final_score(uint64_t player, uint64_t opponent, uint64_t mask);

uint64_t reversi_hash(const reversi_board *board);

/* Leaf positions depth plies ahead, a pass counting as a ply and a
   finished game as a leaf (Aart Bik's convention).  limit may be NULL;
   when it stops the count, the result is partial. */
uint64_t reversi_perft(const reversi_board *board, int depth,
                       search_limit *limit);

/* ---- evaluation (eval.c) ---- */

/* A heuristic value for the side to move, in hundredths of a disc: on
   8x8 with at most 32 empty squares, weights of patterns and mobility
   fitted to exact scores (eval.h); elsewhere mobility, potential
   mobility, corners, the squares next to empty corners, stable discs,
   parity, and the discs late in the game. */
int reversi_eval(const reversi_board *board);

/* ---- notation (notation.c) ---- */

/* "c4" (either case) -> its square on this board, "pass" (also "ps",
   "--") -> REVERSI_PASS, anything else -> -1. */
int reversi_parse_square(const reversi_board *board, const char *text,
                         size_t len);
/* The name of square (or "pass"); name holds at least 5 bytes. */
void reversi_square_name(const reversi_board *board, int square,
                         char name[5]);

typedef struct reversi_record_error {
  int move;          /* 1-based number of the move that went wrong */
  size_t offset;     /* where its text starts */
  size_t length;     /* and how long it is */
  const char *why;   /* "not a square", "illegal move", ... */
} reversi_record_error;

/* Plays a transcript such as "f5d6c3" (spaces allowed, passes implicit or
   written "pass"/"ps"/"--") from board, calling played(square, context)
   for every move, passes included.  Returns false with err filled at the
   first bad move, the moves before it played. */
bool reversi_play_record(reversi_board *board, const char *text, size_t len,
                         void (*played)(int square, void *context),
                         void *context, reversi_record_error *err);

/* Reads a board string: size*size cells from a1 on ('X' or '*' black,
   'O' white, '-' or '.' empty; spaces skipped) and then the side to move
   ('X' or 'O'); anything after a ';' is ignored, as in OBF files.  The
   size follows from the number of cells.  Returns NULL and fills board,
   or a message saying what was wrong. */
const char *reversi_parse_board(const char *text, size_t len,
                                reversi_board *board);
/* The board string: size*size cells, a space, the side to move. */
size_t reversi_format_board(const reversi_board *board, char *buf,
                            size_t size);

/* The board for a person: column letters, row numbers, discs as ● and
   ○, the legal moves marked, then the disc counts and whose turn it is
   or the result; in style (NULL: plain text; game.h). */
size_t reversi_render(const reversi_board *board, const game_style *style,
                      char *buf, size_t size);

extern const game_class reversi_class;

#endif
