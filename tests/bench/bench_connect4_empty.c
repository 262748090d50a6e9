/*
** bench_connect4_empty.c: the empty 7x6 board, printing what is proved
** after each null window.  The answer is +1 (the first player wins with
** its last chip; John Tromp and James Allen, 1988).  Pons' solver without
** a book did not finish in ten minutes on this machine class (issue #4).
**
**   bench_connect4_empty [seconds]          from scratch (default 1800)
**   bench_connect4_empty seconds BOOK       with the opening book in BOOK:
**                                           solve, then every first move
*/
#include <stdio.h>
#include <stdlib.h>

#include "base/limit.h"
#include "connect4/book.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"

static void report(void *context, int lower, int upper, uint64_t nodes) {
  const search_limit *limit = context;
  printf("  %8.1f s  %14llu nodes  score in [%d, %d]\n", limit_elapsed(limit),
         (unsigned long long)nodes, lower, upper);
  fflush(stdout);
}

/* The book's run: the empty board, then the score of every first move. */
static int with_book(c4_table *table, const char *path, double seconds) {
  c4_book_error error;
  c4_book *book = c4_book_load(path, &error);
  if (!book) {
    fprintf(stderr, "bench_connect4_empty: no book from %s (%s)\n", path,
            c4_book_strerror(error));
    return 1;
  }
  c4_table_use_book(table, book);
  printf("connect4: the empty 7x6 board with the book %s (%zu positions, "
         "%d plies), at most %.0f s\n", path, c4_book_entries(book),
         c4_book_plies(book), seconds);
  c4_board board;
  c4_init(&board, 7, 6);
  search_limit limit = {0};
  limit.max_seconds = seconds;
  limit_start(&limit);
  c4_result r = c4_solve(&board, table, &limit, false);
  int best = r.complete ? c4_best_move(&board, table, &limit, false, r.score) : -1;
  bool ok = r.complete && best >= 0 && r.score == 1;
  if (r.complete && best >= 0)
    printf("solved: score %d, best column %d, in %.2f s, %llu nodes\n",
           r.score, best + 1, limit_elapsed(&limit),
           (unsigned long long)limit.nodes);
  else
    printf("stopped after %.1f s\n", limit_elapsed(&limit));
  int scores[C4_MAX_WIDTH];
  limit_start(&limit);
  if (c4_analyze(&board, table, &limit, false, scores)) {
    printf("every first move:");
    for (int c = 0; c < 7; c++) printf(" %d", scores[c]);
    printf("  in %.2f s, %llu nodes (expected -2 -1 0 1 0 -1 -2)\n",
           limit_elapsed(&limit), (unsigned long long)limit.nodes);
  } else {
    printf("every first move: stopped after %.1f s\n", limit_elapsed(&limit));
    ok = false;
  }
  c4_table_use_book(table, NULL);
  c4_book_free(book);
  return !ok;
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1800;
  c4_table *table = c4_table_new();
  if (!table) {
    fprintf(stderr, "bench_connect4_empty: no memory for the table\n");
    return 1;
  }
  if (argc > 2) {
    int status = with_book(table, argv[2], seconds);
    c4_table_free(table);
    return status;
  }
  c4_board board;
  c4_init(&board, 7, 6);
  search_limit limit = {0};
  limit.max_seconds = seconds;
  limit_start(&limit);
  printf("connect4: the empty 7x6 board, no book, at most %.0f s "
         "(expected score +1; reference: Pons' solver, no book, did not "
         "finish in 600 s)\n", seconds);
  c4_result r = c4_solve_progress(&board, table, &limit, false, report, &limit);
  if (r.complete)
    printf("solved: score %d in %.1f s, %llu nodes\n", r.score,
           limit_elapsed(&limit), (unsigned long long)limit.nodes);
  else
    printf("stopped (%s) after %.1f s: score in [%d, %d]\n",
           limit_reason(&limit), limit_elapsed(&limit), r.lower, r.upper);
  c4_table_free(table);
  return r.complete && r.score != 1;
}
