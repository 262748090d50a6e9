/*
** bench_connect4_empty.c: the empty 7x6 board, solved from scratch with
** no opening book, printing what is proved after each null window.  The
** answer is +1 (the first player wins with its last chip; John Tromp and
** James Allen, 1988).  Pons' solver without a book did not finish in ten
** minutes on this machine class (issue #4).
**
**   bench_connect4_empty [seconds]      (default 1800)
*/
#include <stdio.h>
#include <stdlib.h>

#include "base/limit.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"

static void report(void *context, int lower, int upper, uint64_t nodes) {
  const search_limit *limit = context;
  printf("  %8.1f s  %14llu nodes  score in [%d, %d]\n", limit_elapsed(limit),
         (unsigned long long)nodes, lower, upper);
  fflush(stdout);
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 1800;
  c4_table *table = c4_table_new();
  if (!table) {
    fprintf(stderr, "bench_connect4_empty: no memory for the table\n");
    return 1;
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
