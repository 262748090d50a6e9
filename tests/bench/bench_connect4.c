/*
** bench_connect4.c: the solver on Pascal Pons' six test sets, measured as
** he measures: the transposition table cleared before each position, no
** opening book.  One line per set with the reference figures beside ours
** (Pons' solver on this machine class, 2^24-entry table, as issue #4 gives
** them; ours has 2^C4_TABLE_BITS entries, as the first line says).  Like
** his, the table is allocated, and its memory touched, before any clock
** starts, and clearing it before each position is not timed.
**
**   bench_connect4 DATA_DIR [max_positions] [weak]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"

typedef struct set {
  const char *name;
  double ref_nodes, ref_us, ref_weak_nodes;
} set;

static const set sets[] = {
  {"Test_L3_R1", 51.3, 7, 29.4},
  {"Test_L2_R1", 449.1, 47, 532.3},
  {"Test_L2_R2", 39807.5, 4400, 20177.6},
  {"Test_L1_R1", 3295.5, 320, 22176.7},
  {"Test_L1_R2", 1187922.8, 128000, 534679.7},
  {"Test_L1_R3", 25.6e6, 2.95e6, 38.1e6},   /* first 20 positions */
};

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/data/connect4";
  int max_positions = argc > 2 ? atoi(argv[2]) : 1000;
  int weak = argc > 3 && strcmp(argv[3], "weak") == 0;
  c4_table *table = c4_table_new();
  if (!table) {
    fprintf(stderr, "bench_connect4: no memory for the table\n");
    return 1;
  }
  printf("connect4 %s solve, table of 2^%d entries (%llu MiB) cleared per "
         "position, %d positions at most\n", weak ? "weak" : "strong",
         C4_TABLE_BITS, (unsigned long long)(C4_TABLE_ENTRIES * 8 >> 20),
         max_positions);
  printf("%-11s %9s %6s %14s %14s %12s %12s\n", "set", "positions", "wrong",
         "mean nodes", "reference", "mean us", "reference");
  int failures = 0;
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, sets[i].name);
    FILE *f = fopen(path, "r");
    if (!f) {
      fprintf(stderr, "bench_connect4: cannot read %s\n", path);
      return 1;
    }
    int limit_here = max_positions;
    if (i == 5 && limit_here > 20) limit_here = 20;   /* seconds each */
    char moves[128];
    int expected, n = 0, wrong = 0;
    double nodes = 0, seconds = 0;
    while (n < limit_here && fscanf(f, "%127s %d", moves, &expected) == 2) {
      c4_board board;
      c4_init(&board, 7, 6);
      int played[C4_MAX_CELLS];
      c4_parse_error err;
      if (c4_load(&board, moves, played, &err) < 0) {
        fprintf(stderr, "bench_connect4: bad line in %s: %s\n", path, moves);
        return 1;
      }
      c4_table_clear(table);
      search_limit limit = {0};
      limit_start(&limit);
      c4_result r = c4_solve(&board, table, &limit, weak);
      seconds += limit_elapsed(&limit);
      nodes += (double)limit.nodes;
      int want = weak ? (expected > 0) - (expected < 0) : expected;
      if (r.score != want) wrong++;
      n++;
    }
    fclose(f);
    failures += wrong;
    printf("%-11s %9d %6d %14.1f %14.1f %12.1f ", sets[i].name, n, wrong,
           nodes / n, weak ? sets[i].ref_weak_nodes : sets[i].ref_nodes,
           seconds * 1e6 / n);
    if (weak)
      printf("%12s\n", "-");          /* Pons gives no weak timings */
    else
      printf("%12.0f\n", sets[i].ref_us);
    fflush(stdout);
  }
  c4_table_free(table);
  return failures ? 1 : 0;
}
