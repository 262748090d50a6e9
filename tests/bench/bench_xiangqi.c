/*
** bench_xiangqi.c: reading PGN, perft speed on the published counts, then
** the search.
**
** PGN: the ICCS file (1,125 games) and the 165 CCPD files (Big5, Chinese
** moves) read and replayed, the best of several runs, in games per
** second on one core beside issue 17's floor of 10,000; the game and ply
** counts beside them say that every game was read.
**
** Perft: every count of perft.txt up to a node cap, checked, with CPU
** time and nodes per second, and beside each the time of Pikafish's
** AVX-512 build (`go perft`, one thread, CPU time of the count, last ply
** counted in bulk as ours is), measured side by side with ours on this
** machine class: medians of five runs each, alternated, on 27 November
** 2026 with the load at about 13, when ours took 2.38 s for the 23 cases
** that Pikafish took 10.14 s for.  (Fairy-Stockfish: about 9.6 M nodes/s,
** 13.9 s for the start at depth 5, as issue 7 gave it, on another
** machine.)  Search: depth reached, nodes and nodes per second in a fixed
** time (1 s unless told) from the start and the middlegame positions,
** beside the figures of the search before issue #21's engine work.
**
**   bench_xiangqi DATA_DIR [search_seconds] [perft_node_cap]
**
** (DATA_DIR is the xiangqi folder of the reference data; search_seconds
** 0 leaves the search out, a cap of 0 the perft counts.)
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/limit.h"
#include "xiangqi/search.h"
#include "xiangqi/xiangqi.h"

static double cpu_seconds(void) {
  return (double)clock() / CLOCKS_PER_SEC;
}

/* The middlegame positions of perft.txt that the search is timed on. */
static const char *const search_positions[] = {
  XQ_START_FEN,
  "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
  "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
  "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
  "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1",
};

/* ---- PGN ---- */

typedef struct file_text {
  char *bytes;
  size_t size;
} file_text;

static bool slurp(const char *path, file_text *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return false;
  size_t capacity = 1 << 16;
  out->bytes = malloc(capacity);
  out->size = 0;
  size_t n;
  while (out->bytes &&
         (n = fread(out->bytes + out->size, 1, capacity - out->size, f)) > 0) {
    out->size += n;
    if (out->size == capacity) out->bytes = realloc(out->bytes, capacity *= 2);
  }
  fclose(f);
  return out->bytes != NULL;
}

/* Reads every game of the files runs times; prints the best run. */
static int bench_pgn_set(const char *name, file_text *files, int count,
                         int want_games, int want_plies) {
  double best = 1e9;
  int games = 0, plies = 0, bad = 0;
  static xq_pgn_game game;
  for (int run = 0; run < 7; run++) {
    double start = cpu_seconds();
    games = plies = bad = 0;
    for (int repeat = 0; repeat < 4; repeat++)
      for (int i = 0; i < count; i++) {
        xq_pgn_reader *reader = xq_pgn_open(files[i].bytes, files[i].size,
                                            XQ_ENCODING_AUTO);
        xq_read_status status;
        while (reader && (status = xq_pgn_next(reader, &game)) != XQ_READ_END) {
          games++;
          plies += game.plies;
          bad += status != XQ_READ_OK;
        }
        xq_pgn_close(reader);
      }
    double seconds = cpu_seconds() - start;
    if (seconds < best) best = seconds;
  }
  games /= 4;
  plies /= 4;
  bad /= 4;
  bool right = games == want_games && plies == want_plies && bad == 0;
  printf("%-28s %6d %8d %10.0f %10.2f  10,000 games/s (issue #17)%s\n", name,
         games, plies, best > 0 ? 4 * games / best : 0.0,
         best > 0 ? 4 * plies / best / 1e6 : 0.0, right ? "" : "  WRONG");
  return right ? 0 : 1;
}

static int bench_pgn(const char *dir) {
  char path[512];
  file_text iccs, ccpd[165];
  snprintf(path, sizeof path, "%s/pgn/iccs/Liu_Dahua_1125_UCI_games.pgn", dir);
  if (!slurp(path, &iccs)) {
    fprintf(stderr, "bench_xiangqi: cannot read %s\n", path);
    return 1;
  }
  for (int i = 0; i < 165; i++) {
    if (i < 100)
      snprintf(path, sizeof path, "%s/pgn/ccpd-masters/game%03d.pgn", dir, i + 1);
    else
      snprintf(path, sizeof path, "%s/pgn/ccpd-mates/mate%03d.pgn", dir, i - 99);
    if (!slurp(path, &ccpd[i])) {
      fprintf(stderr, "bench_xiangqi: cannot read %s\n", path);
      return 1;
    }
  }
  printf("xiangqi PGN read and replayed, one core, CPU time, best of 7 runs\n");
  printf("%-28s %6s %8s %10s %10s  %s\n", "files", "games", "plies",
         "games/s", "M plies/s", "reference");
  int wrong = bench_pgn_set("ICCS file (UTF-8, ICCS)", &iccs, 1, 1125, 101321);
  wrong += bench_pgn_set("CCPD files (Big5, Chinese)", ccpd, 165, 165, 11517);
  free(iccs.bytes);
  for (int i = 0; i < 165; i++) free(ccpd[i].bytes);
  printf("\n");
  return wrong;
}

/* Pikafish's seconds for the counts of perft.txt, by count (see above). */
static const struct {
  unsigned long long nodes;
  double seconds;
} pikafish[] = {
  {3290240ULL, 0.034},
  {133312995ULL, 1.338},
  {1339047ULL, 0.019},
  {53112976ULL, 0.769},
  {10369923ULL, 0.157},
  {4739553ULL, 0.061},
  {100055401ULL, 1.744},
  {11842230ULL, 0.132},
  {3500505ULL, 0.046},
  {81195154ULL, 1.306},
  {1914306ULL, 0.023},
  {23496493ULL, 0.558},
  {3513104ULL, 0.044},
  {71287903ULL, 1.087},
  {12250386ULL, 0.252},
  {17920736ULL, 0.350},
  {8148177ULL, 0.122},
  {4485547ULL, 0.080},
  {2605437ULL, 0.041},
  {140822416ULL, 1.292},
  {1777662ULL, 0.018},
  {67407683ULL, 0.647},
  {1259434ULL, 0.019},
};

static double pikafish_seconds(unsigned long long nodes) {
  for (size_t i = 0; i < sizeof pikafish / sizeof *pikafish; i++)
    if (pikafish[i].nodes == nodes) return pikafish[i].seconds;
  return 0;
}

static int bench_perft(const char *dir, unsigned long long cap) {
  char path[512];
  snprintf(path, sizeof path, "%s/perft.txt", dir);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "bench_xiangqi: cannot read %s\n", path);
    return -1;
  }
  printf("xiangqi perft, every count of perft.txt up to %llu nodes, CPU time\n",
         cap);
  printf("%-4s %-5s %12s %9s %9s %9s  %s\n", "line", "depth", "nodes",
         "seconds", "M nodes/s", "Pikafish", "position");
  int wrong = 0, line_number = 0;
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    line_number++;
    if (line[0] == '#' || !strchr(line, ';')) continue;
    char *fields = strchr(line, ';');
    *fields++ = '\0';
    xq_position pos;
    xq_fen_problem problem;
    if (xq_from_fen(&pos, line, &problem) != XQ_FEN_OK) continue;
    int depth;
    unsigned long long expected;
    for (char *at = fields; sscanf(at, "D%d %llu", &depth, &expected) == 2;) {
      if (expected <= cap && expected >= 1000000) {
        double start = cpu_seconds();
        uint64_t got = xq_perft(&pos, depth);
        double seconds = cpu_seconds() - start;
        if (got != expected) wrong++;
        double reference = pikafish_seconds(expected);
        char shown[16] = "-";
        if (reference > 0) snprintf(shown, sizeof shown, "%.3f", reference);
        printf("%-4d D%-4d %12llu %9.3f %9.1f %9s  %.40s%s\n", line_number,
               depth, (unsigned long long)got, seconds,
               seconds > 0 ? (double)got / seconds / 1e6 : 0.0, shown, line,
               got == expected ? "" : "  WRONG");
      }
      at = strchr(at, ';');
      if (!at) break;
      at += strspn(at, "; ");
    }
  }
  fclose(f);
  printf("%d wrong\n", wrong);
  return wrong;
}

/* The same search before issue #21's engine work (the PVS of commit
   24a08ef: a plainer evaluation, no exchange evaluation or continuation
   history), 1 s a position: depth reached and M nodes/s, the medians of
   three runs alternated with three of ours on the shared machine (load
   16 on its 2 cores: both slowed alike). */
static const struct {
  int depth;
  double mnps;
} search_before[] = {{7, 0.41}, {7, 0.40}, {11, 1.04}, {12, 1.19}, {8, 1.19}};

static void bench_search(double seconds) {
  printf("\nxiangqi search, %g s a position, 16 MiB table; before: depth and "
         "M nodes/s at 1 s before issue #21's engine work\n", seconds);
  printf("%-5s %10s %9s %6s %7s %12s  %s\n", "depth", "nodes", "M nodes/s",
         "move", "score", "before", "position");
  for (size_t i = 0; i < sizeof search_positions / sizeof *search_positions;
       i++) {
    xq_position pos;
    xq_fen_problem problem;
    if (xq_from_fen(&pos, search_positions[i], &problem) != XQ_FEN_OK) continue;
    search_limit limit = {0};
    limit.max_seconds = seconds;
    limit_start(&limit);
    xq_search_options options = {0};
    xq_search_result result;
    double start = cpu_seconds();
    xq_search(&pos, &options, &limit, &result);
    double used = cpu_seconds() - start;
    char move[16];
    xq_format_move(&pos, result.best, XQ_ICCS, move, sizeof move);
    char before[32];
    snprintf(before, sizeof before, "%d, %.2f", search_before[i].depth,
             search_before[i].mnps);
    printf("%-5d %10llu %9.2f %6s %7d %12s  %.40s\n", result.depth,
           (unsigned long long)result.nodes,
           used > 0 ? (double)result.nodes / used / 1e6 : 0.0, move,
           result.score, before, search_positions[i]);
  }
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "../shared/data/xiangqi";
  double seconds = argc > 2 ? atof(argv[2]) : 1;
  unsigned long long cap = argc > 3 ? strtoull(argv[3], NULL, 10) : 150000000ULL;
  int wrong = bench_pgn(dir);
  wrong += bench_perft(dir, cap);
  if (seconds > 0) bench_search(seconds);
  return wrong == 0 ? 0 : 1;
}
