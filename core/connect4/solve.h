/*
** solve.h: the exact Connect Four solver.
**
** Scores follow Pascal Pons ("Solving Connect Four", blog.gamesolver.org):
** from the side to move, 0 for a draw, and for a win that lands its last
** chip as the n-th chip of the board, (width*height + 2 - n) / 2 rounded
** down, so on 7x6 a win with your k-th chip scores 22 - k; a loss is the
** negative.
** The search is negamax with alpha-beta on null windows, the window
** narrowed step by step, moves tried centre first and then by the
** threats they make, no move under a cell where the opponent would win,
** and a transposition table holding upper and lower bounds.
*/
#ifndef C4_SOLVE_H
#define C4_SOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/limit.h"
#include "connect4.h"

#define C4_NO_SCORE (-1000)

typedef struct c4_table c4_table;

/* Slots of the transposition table, 8 bytes each: 2^19, 4 MiB.  Larger
   tables save nodes but cost more time on this machine class, on every
   set measured (docs/connect4.md). */
#define C4_TABLE_BITS 19
#define C4_TABLE_ENTRIES (UINT64_C(1) << C4_TABLE_BITS)

/* A new, empty table; NULL when out of memory.  It may serve any number
   of solves, on any board size. */
c4_table *c4_table_new(void);
void c4_table_free(c4_table *table);
void c4_table_clear(c4_table *table);

typedef struct c4_book c4_book;     /* book.h */

/* Has every solve made with the table consult book (NULL: none) for the
   positions it covers.  The book must outlive that use. */
void c4_table_use_book(c4_table *table, const c4_book *book);
const c4_book *c4_table_book(const c4_table *table);

/* How many positions the book has answered in solves with this table. */
uint64_t c4_table_book_hits(const c4_table *table);

/* While book is generated (NULL after): solves with the table record in
   it what they prove about the positions it covers. */
void c4_table_record(c4_table *table, c4_book *book);

typedef struct c4_result {
  int score;            /* exact when complete */
  int lower, upper;     /* what is known: lower <= score <= upper */
  bool complete;        /* false when the limit stopped the search */
} c4_result;

/* Solves an ongoing position.  Weak: only the sign (win, draw or loss),
   reported as 1, 0 or -1.  The limit's node count says the work done. */
c4_result c4_solve(const c4_board *board, c4_table *table,
                   search_limit *limit, bool weak);

/* Called after each null-window search with what is known so far. */
typedef void c4_progress(void *context, int lower, int upper, uint64_t nodes);

/* c4_solve, reporting progress (when progress is not NULL). */
c4_result c4_solve_progress(const c4_board *board, c4_table *table,
                            search_limit *limit, bool weak,
                            c4_progress *progress, void *context);

/* The score of every column (C4_NO_SCORE where the column is full), and
   whether all were found before the limit. */
bool c4_analyze(const c4_board *board, c4_table *table, search_limit *limit,
                bool weak, int scores[C4_MAX_WIDTH]);

/* A column that keeps score, the value c4_solve found (weak or not), the
   most central first among equals; -1 if the limit stopped it first. */
int c4_best_move(const c4_board *board, c4_table *table, search_limit *limit,
                 bool weak, int score);

/* Score of a position whose side to move can win at once. */
int c4_immediate_win_score(const c4_board *board);

/* A heuristic for the generic searches (ludus.ai), from the side to move:
   cells where one more chip makes four (threats), and chips near the
   centre, which take part in more lines. */
int c4_eval(const c4_board *board);

#endif
