/*
** bench_reversi.c: perft from the 8x8 start and the exact solver on FFO
** endgame problems and on the whole 6x6 game, with the reference figures
** of issue #5 beside ours (Edax on this machine class, one thread; its
** perft time and nodes per second measured side by side with ours).
** Node counts change only when the search does: a signature, as in
** Stockfish's bench.  Times are CPU seconds of this process, as the
** references are: the machines are shared.
**
**   bench_reversi DATA_DIR perft DEPTH...       leaves per second
**   bench_reversi DATA_DIR ffo FIRST LAST       FFO problems FIRST..LAST
**   bench_reversi DATA_DIR six [EMPTIES [SEED]]  the 6x6 game from the start,
**                                               or from a random game's position
**   bench_reversi DATA_DIR wthor [ROUNDS]       the WTHOR games replayed, ROUNDS
**                                               times (games per second)
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/hash.h"
#include "base/limit.h"
#include "reversi/formats.h"
#include "reversi/reversi.h"
#include "reversi/solve.h"

/* About 2^20 positions, 22 MiB: the table `ludus solve` and Lua's solver
   have.  With 2^22 (90 MiB) FFO #40-#49 took 3% fewer nodes and more
   time, as more of the table's reads came from memory. */
#define TABLE_BITS 20

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int perft(int argc, char **argv) {
  reversi_board b;
  reversi_init(&b, 8);
  for (int i = 0; i < argc; i++) {
    int depth = atoi(argv[i]);
    double t = cpu_seconds();
    uint64_t leaves = reversi_perft(&b, depth, NULL);
    t = cpu_seconds() - t;
    printf("perft(%d) = %llu in %.2f s: %.0f M leaves/s   (Edax, side by "
           "side: perft(12) in 3.82 s)\n", depth,
           (unsigned long long)leaves, t, leaves / t / 1e6);
  }
  return 0;
}

/* The FFO file holding problem number (20 per file from #20). */
static FILE *ffo_file(const char *dir, int number, int *first) {
  static const struct { int first; const char *name; } files[] = {
    {1, "fforum-1-19.obf"}, {20, "fforum-20-39.obf"},
    {40, "fforum-40-59.obf"}, {60, "fforum-60-79.obf"},
  };
  for (int i = 3; i >= 0; i--)
    if (number >= files[i].first) {
      char path[512];
      snprintf(path, sizeof path, "%s/othello/%s", dir, files[i].name);
      *first = files[i].first;
      return fopen(path, "r");
    }
  return NULL;
}

/* The best score an OBF line lists. */
static int listed_best(const char *line) {
  int best = -99;
  for (const char *q = strchr(line, ';'); q && (q = strchr(q, ':')); q++) {
    int v = atoi(q + 1);
    if (v > best) best = v;
  }
  return best;
}

/* When a solve started and after how long its steps are worth printing,
   CPU seconds. */
typedef struct watch {
  double start, quiet;
} watch;

/* Prints the bounds a solve has proved after each step (context: its
   watch). */
static void progress(void *context, int lower, int upper, uint64_t nodes) {
  const watch *w = context;
  double t = cpu_seconds() - w->start;
  if (t < w->quiet) return;
  printf("  %+3d <= score <= %+3d after %llu nodes, %.1f s\n", lower, upper,
         (unsigned long long)nodes, t);
  fflush(stdout);
}

static int ffo(const char *dir, int first, int last, reversi_solver *solver) {
  int mismatches = 0, solved = 0;
  uint64_t nodes = 0;
  double seconds = 0;
  printf("FFO #%d-#%d, exact solve, one thread, table of about 2^%d positions, "
         "CPU seconds\n",
         first, last, TABLE_BITS);
  printf("   #  empties  score  move         nodes      time      nodes/s\n");
  for (int number = first; number <= last; number++) {
    int file_first;
    FILE *f = ffo_file(dir, number, &file_first);
    if (!f) {
      fprintf(stderr, "bench_reversi: no FFO file for #%d in %s/othello\n",
              number, dir);
      return 1;
    }
    char line[512];
    int n = file_first - 1;
    while (n < number && fgets(line, sizeof line, f)) n++;
    fclose(f);
    if (n != number) continue;
    reversi_board b;
    const char *semi = strchr(line, ';');
    if (!semi || reversi_parse_board(line, (size_t)(semi - line), &b)) continue;
    search_limit limit = {0};
    limit_start(&limit);
    watch w = {cpu_seconds(), 10};     /* steps of the long ones only */
    reversi_solution r = reversi_solve_watched(solver, &b, &limit, progress, &w);
    double t = cpu_seconds() - w.start;
    int expected = listed_best(line);
    char move[5];
    reversi_square_name(&b, r.best, move);
    printf("  %2d  %7d  %+5d  %-4s  %12llu  %7.2f s  %6.1f M%s\n", number,
           __builtin_popcountll(b.mask & ~(b.player | b.opponent)), r.score,
           move, (unsigned long long)limit.nodes, t, limit.nodes / t / 1e6,
           r.score == expected ? "" : "   MISMATCH");
    mismatches += r.score != expected;
    nodes += limit.nodes;
    seconds += t;
    solved++;
  }
  printf("  total: %d problems, %llu nodes, %.1f s, %.1f M nodes/s, %d "
         "mismatches\n", solved, (unsigned long long)nodes, seconds,
         nodes / seconds / 1e6, mismatches);
  if (first == 40 && last == 49)
    printf("  Edax (measured by hand on this machine class, 2026-11-27): 1.06 G\n"
           "  nodes with its evaluation; with zero weights 5.17 to 6.57 G nodes\n"
           "  at 26 M nodes/s of CPU (load 4) to 37.3 M (a lighter load).  Edax\n"
           "  also counts as nodes the last square's counts and the moves it\n"
           "  keys for ordering, which ludus does not: counted so on 2026-11-28,\n"
           "  ludus's 577.5 M nodes were 1.15 G\n");
  return mismatches != 0;
}

/* The 6x6 game from the start, or (empties > 0) from the position a
   fixed random game reaches with that many empty squares left. */
static int six(reversi_solver *solver, int empties, unsigned seed) {
  reversi_board b;
  reversi_init(&b, 6);
  uint64_t state = seed;
  while (empties > 0 &&
         __builtin_popcountll(b.mask & ~(b.player | b.opponent)) > empties) {
    uint64_t moves = reversi_legal(&b);
    if (!moves) {
      if (reversi_is_over(&b)) break;
      reversi_make(&b, REVERSI_PASS);
      continue;
    }
    int k = (int)(hash_next(&state) % (uint64_t)__builtin_popcountll(moves));
    while (k--) moves &= moves - 1;
    reversi_make(&b, __builtin_ctzll(moves));
  }
  search_limit limit = {0};
  limit_start(&limit);
  watch w = {cpu_seconds(), 0};
  reversi_solution r = reversi_solve_watched(solver, &b, &limit, progress, &w);
  double t = cpu_seconds() - w.start;
  if (empties > 0) {
    char text[80];
    reversi_format_board(&b, text, sizeof text);
    printf("6x6 %s: %+d, %llu nodes, %.2f s\n", text, r.score,
           (unsigned long long)limit.nodes, t);
    return 0;
  }
  printf("6x6 from the start: %+d (white wins 20-16: -4 expected), %llu nodes, "
         "%.1f s%s\n", r.score, (unsigned long long)limit.nodes, t,
         r.score == -4 ? "" : "   MISMATCH");
  return r.score != -4;
}

/* ---- WTHOR ---- */

static const char *const wthor_files[] = {"WTH_2001.wtb", "WTH_2002.wtb",
                                          "WTH_2019.wtb", "WTH_2020.wtb"};
#define WTHOR_FILES 4

/* The whole of a file, or NULL. */
static uint8_t *read_whole(const char *dir, const char *name, size_t *size) {
  char path[512];
  snprintf(path, sizeof path, "%s/othello/wthor/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  uint8_t *data = NULL;
  size_t cap = 0, n = 0, got;
  do {
    if (n == cap) {
      cap = cap ? 2 * cap : 1 << 20;
      uint8_t *more = realloc(data, cap);
      if (!more) break;
      data = more;
    }
    got = fread(data + n, 1, cap - n, f);
    n += got;
  } while (got > 0);
  fclose(f);
  *size = n;
  return data;
}

/* The games of the shared WTHOR files replayed rounds times, in memory:
   the moves alone (reversi_wthor_read_game, reversi_wthor_replay_board), then through
   the reader (records with their passes, the final counts checked, the
   names from WTHOR.JOU and WTHOR.TRN).  The sum of black's final discs
   is the signature: it changes only when the replay does. */
static int wthor(const char *dir, int rounds) {
  uint8_t *data[WTHOR_FILES], *names[2];
  size_t size[WTHOR_FILES], names_size[2];
  for (int i = 0; i < WTHOR_FILES; i++) {
    data[i] = read_whole(dir, wthor_files[i], &size[i]);
    if (!data[i]) {
      fprintf(stderr, "bench_reversi: cannot read %s/othello/wthor/%s\n", dir,
              wthor_files[i]);
      return 1;
    }
  }
  names[0] = read_whole(dir, "WTHOR.JOU", &names_size[0]);
  names[1] = read_whole(dir, "WTHOR.TRN", &names_size[1]);
  if (!names[0] || !names[1]) {
    fprintf(stderr, "bench_reversi: cannot read WTHOR.JOU and WTHOR.TRN\n");
    return 1;
  }
  int failures = 0;
  uint64_t games = 0, discs = 0;
  double t = cpu_seconds();
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < WTHOR_FILES; i++)
      for (size_t at = REVERSI_WTHOR_HEADER_SIZE;
           at + REVERSI_WTHOR_GAME_SIZE <= size[i]; at += REVERSI_WTHOR_GAME_SIZE) {
        reversi_wthor_game game;
        reversi_board board;
        int move;
        if (reversi_wthor_read_game(data[i] + at, &game, &move) ||
            reversi_wthor_replay_board(&game, &board)) {
          failures++;
          continue;
        }
        games++;
        discs += (uint64_t)reversi_count(&board, REVERSI_BLACK);
      }
  t = cpu_seconds() - t;
  printf("WTHOR, moves only:  %llu games (%d rounds of %llu) in %.3f s: %.0f games/s, "
         "black's discs %llu   (issue #17 asks 300000 games/s)\n",
         (unsigned long long)games, rounds, (unsigned long long)(games / rounds), t,
         games / t, (unsigned long long)(discs / rounds));
  games = discs = 0;
  uint64_t plies = 0;
  t = cpu_seconds();
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < WTHOR_FILES; i++) {
      reversi_reader reader;
      reversi_record rec;
      if (!reversi_reader_open_memory(&reader, data[i], size[i], REVERSI_FORMAT_WTB,
                                      8)) {
        failures++;
        continue;
      }
      reversi_wthor_names_open(&reader.players, names[0], names_size[0],
                               REVERSI_WTHOR_PLAYER_SIZE);
      reversi_wthor_names_open(&reader.tournaments, names[1], names_size[1],
                               REVERSI_WTHOR_TOURNAMENT_SIZE);
      reversi_status status;
      while ((status = reversi_reader_next(&reader, &rec)) != REVERSI_END) {
        if (status != REVERSI_RECORD || !rec.black || !rec.tournament) {
          failures++;
          continue;
        }
        games++;
        plies += (uint64_t)rec.plies;
        discs += (uint64_t)reversi_count(&rec.board, REVERSI_BLACK);
      }
      reversi_reader_close(&reader);
    }
  t = cpu_seconds() - t;
  printf("WTHOR, the reader:  %llu games in %.3f s: %.0f games/s, black's discs %llu, "
         "%llu plies   (a Lua loop over reversi.load: about 11000 games/s)\n",
         (unsigned long long)games, t, games / t, (unsigned long long)(discs / rounds),
         (unsigned long long)(plies / rounds));
  if (failures) printf("  %d games did not replay: FAILED\n", failures);
  for (int i = 0; i < WTHOR_FILES; i++) free(data[i]);
  free(names[0]);
  free(names[1]);
  return failures != 0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_reversi DATA_DIR perft DEPTH... | ffo FIRST "
                    "LAST | six [EMPTIES [SEED]] | wthor [ROUNDS]\n");
    return 2;
  }
  if (strcmp(argv[2], "perft") == 0) return perft(argc - 3, argv + 3);
  if (strcmp(argv[2], "wthor") == 0)
    return wthor(argv[1], argc > 3 ? atoi(argv[3]) : 100);
  reversi_solver *solver = reversi_solver_new(TABLE_BITS);
  if (!solver) {
    fprintf(stderr, "bench_reversi: no memory for the table\n");
    return 1;
  }
  int status = 2;
  if (strcmp(argv[2], "ffo") == 0 && argc == 5)
    status = ffo(argv[1], atoi(argv[3]), atoi(argv[4]), solver);
  else if (strcmp(argv[2], "six") == 0)
    status = six(solver, argc > 3 ? atoi(argv[3]) : 0,
                 argc > 4 ? (unsigned)atoi(argv[4]) : 1);
  reversi_solver_free(solver);
  return status;
}
