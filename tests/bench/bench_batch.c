/*
** bench_batch.c: what the batch front end costs.  For each set, the
** same work two ways, alternated, CPU time, median of the runs: the bare
** loop in a process of its own (read the file, parse each record, solve
** it as the task does, no output; for mahjong, score.jsonl 200 times
** over) and `ludus solve` with
** one job, writing its JSON lines to
** /dev/null; then `ludus solve --jobs 2` against one job in wall time.
** The record and node counts are printed beside the times: they do not
** move with the load.  Last, the rates of `ludus replay` on WTHOR
** databases and on a PGN file, one job, in games per CPU second.
**
**   bench_batch LUDUS DATA [runs]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "connect4/connect4.h"
#include "connect4/solve.h"
#include "mahjong/mahjong.h"
#include "reversi/formats.h"
#include "reversi/solve.h"
#include "sudoku/sudoku.h"

static double cpu_children(void) {
  struct rusage u;
  getrusage(RUSAGE_CHILDREN, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 +
         (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec * 1e-6;
}

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, compare);
  return v[n / 2];
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  char *data = malloc((size_t)size + 1);
  if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  if (data) data[size] = '\0';
  *len = (size_t)size;
  return data;
}

/* The bare loops: what the tasks do, with no ids, no JSON, no clock. */

static long bare_connect4(const char *data, uint64_t *nodes) {
  c4_table *table = c4_table_new();
  long n = 0;
  *nodes = 0;
  for (const char *line = data; *line; ) {
    const char *end = strchr(line, '\n');
    char moves[C4_MAX_CELLS + 1];
    size_t len = strspn(line, "0123456789");
    if (len > C4_MAX_CELLS) len = C4_MAX_CELLS;
    memcpy(moves, line, len);
    moves[len] = '\0';
    c4_board board;
    int played[C4_MAX_CELLS];
    c4_parse_error err;
    c4_init(&board, 7, 6);
    if (c4_load(&board, moves, played, &err) >= 0) {
      search_limit limit = {0};
      limit_start(&limit);
      c4_result r = c4_solve(&board, table, &limit, false);
      c4_best_move(&board, table, &limit, false, r.score);
      *nodes += limit.nodes;
      n++;
    }
    line = end ? end + 1 : line + strlen(line);
  }
  c4_table_free(table);
  return n;
}

static long bare_sudoku(const char *data, uint64_t *nodes) {
  long n = 0;
  *nodes = 0;
  for (const char *line = data; *line; ) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len && line[0] != '#') {
      sudoku_grid grid, first;
      sudoku_parse_error err;
      if (sudoku_parse(line, len, NULL, &grid, &err) == SUDOKU_OK) {
        sudoku_search s;
        memset(&s, 0, sizeof s);
        s.max_solutions = 2;
        s.first = &first;
        sudoku_solve(&grid, &s);
        *nodes += s.guesses;
        n++;
      }
    }
    line = end ? end + 1 : line + len;
  }
  return n;
}

static long bare_mahjong(const char *data, uint64_t *nodes) {
  long n = 0;
  *nodes = 0;
  for (const char *line = data; *line; ) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    json_value *v = json_parse(line, len, NULL);
    mj_request r;
    char message[MJ_MESSAGE];
    mj_tiles hand;
    mj_score score;
    if (v && mj_read_json(v, &r, message) &&
        mj_parse(r.hand, r.hand_len, &hand, NULL) == MJ_OK)
      mj_score_hand(&hand, &r.ctx, &score);
    n++;
    json_free_value(v);
    line = end ? end + 1 : line + len;
  }
  return n;
}

static long bare_othello(const char *data, uint64_t *nodes) {
  reversi_solver *solver = reversi_solver_new(20);
  long n = 0;
  *nodes = 0;
  for (const char *line = data; solver && *line; ) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    reversi_record rec;
    size_t at;
    if (len && !reversi_obf_read(line, len, &rec, &at)) {
      search_limit limit = {0};
      limit_start(&limit);
      reversi_solve(solver, &rec.board, &limit);
      *nodes += limit.nodes;
      n++;
    }
    line = end ? end + 1 : line + len;
  }
  reversi_solver_free(solver);
  return n;
}

/* Runs ludus with args (NULL-terminated, args[0] the program) to
   /dev/null; returns its CPU time, and its wall time in *elapsed. */
static double run(char *const *args, double *elapsed) {
  double cpu = cpu_children(), start = wall();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
      _exit(127);
    execv(args[0], args);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  *elapsed = wall() - start;
  if (!WIFEXITED(status) || WEXITSTATUS(status) > 1)
    fprintf(stderr, "ludus %s %s failed (status %d)\n", args[1], args[2], status);
  return cpu_children() - cpu;
}

/* `ludus solve GAME FILE --jobs J --quiet` */
static double run_ludus(const char *ludus, const char *game, const char *file,
                        const char *jobs, double *elapsed) {
  char *args[] = {(char *)ludus, "solve", (char *)game, (char *)file, "--jobs",
                  (char *)jobs, "--quiet", "--book", "", NULL};
  return run(args, elapsed);
}

/* Games a CPU second of `ludus replay GAME` over the files, each given
   times times, one job. */
static void replay_rate(const char *ludus, const char *game, char **files,
                        int nfiles, int times, long games, int runs) {
  char *args[64];
  int n = 0;
  args[n++] = (char *)ludus;
  args[n++] = "replay";
  args[n++] = (char *)game;
  for (int t = 0; t < times; t++)
    for (int i = 0; i < nfiles && n < 58; i++) args[n++] = files[i];
  args[n++] = "--jobs";
  args[n++] = "1";
  args[n++] = "--quiet";
  args[n] = NULL;
  double cpu[16], elapsed;
  for (int r = 0; r < runs; r++) cpu[r] = run(args, &elapsed);
  double c = median(cpu, runs);
  printf("%-10s replay %9ld games  %7.3f s CPU  %9.0f games/s\n", game,
         games * times, c, games * times / c);
}

typedef long bare_loop(const char *data, uint64_t *nodes);

/* This program, run again as `bench_batch --bare GAME FILE` for the
   bare loop: a process of its own, which reads the file and starts cold
   as `ludus solve` does, so that the two differ only by the front end. */
static const char *self;

static void bench(const char *ludus, const char *game, const char *path,
                  bare_loop *bare, int runs) {
  size_t len;
  char *data = read_file(path, &len);
  if (!data) {
    fprintf(stderr, "cannot read %s\n", path);
    return;
  }
  double bare_cpu[16], batch_cpu[16], one[16], two[16], elapsed;
  uint64_t nodes = 0;
  long records = bare(data, &nodes);     /* the counts, untimed */
  for (int r = 0; r < runs; r++) {
    char *args[] = {(char *)self, "--bare", (char *)game, (char *)path, NULL};
    bare_cpu[r] = run(args, &elapsed);
    batch_cpu[r] = run_ludus(ludus, game, path, "1", &one[r]);
    run_ludus(ludus, game, path, "2", &two[r]);
  }
  double b = median(bare_cpu, runs), f = median(batch_cpu, runs);
  printf("%-10s %-24s %7ld records %12llu nodes  bare %7.3f s  ludus solve %7.3f s"
         "  front end %+5.1f%%  2 jobs %.2fx\n", game, strrchr(path, '/') + 1,
         records, (unsigned long long)nodes, b, f, 100 * (f - b) / b,
         median(one, runs) / median(two, runs));
  free(data);
}

static bare_loop *bare_of(const char *game) {
  if (strcmp(game, "connect4") == 0) return bare_connect4;
  if (strcmp(game, "sudoku") == 0) return bare_sudoku;
  if (strcmp(game, "mahjong") == 0) return bare_mahjong;
  if (strcmp(game, "othello") == 0) return bare_othello;
  return NULL;
}

int main(int argc, char **argv) {
  self = argv[0];
  if (argc == 4 && strcmp(argv[1], "--bare") == 0) {
    size_t len;
    char *data = read_file(argv[3], &len);
    bare_loop *bare = bare_of(argv[2]);
    uint64_t nodes;
    if (!data || !bare) return 1;
    long n = bare(data, &nodes);
    free(data);
    return n > 0 ? 0 : 1;
  }
  if (argc < 3) {
    fprintf(stderr, "usage: bench_batch LUDUS DATA [runs]\n");
    return 2;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 3;
  if (runs < 1) runs = 1;
  if (runs > 16) runs = 16;
  printf("batch front end: CPU time of `ludus solve --jobs 1` against the bare "
         "loop\n(parse and solve, no output), each a process of its own, median of %d\n"
         "alternated runs; then wall time of one job over two\n", runs);
  char path[4096];
  snprintf(path, sizeof path, "%s/connect4/Test_L2_R2", argv[2]);
  bench(argv[1], "connect4", path, bare_of("connect4"), runs);
  snprintf(path, sizeof path, "%s/sudoku/puzzles2_17_clue", argv[2]);
  bench(argv[1], "sudoku", path, bare_of("sudoku"), runs);
  /* score.jsonl's 456 requests take a millisecond: 200 times over */
  size_t len;
  snprintf(path, sizeof path, "%s/mahjong/score.jsonl", argv[2]);
  char *score = read_file(path, &len), dir[] = "/tmp/bench_batch-XXXXXX";
  if (score && mkdtemp(dir)) {
    snprintf(path, sizeof path, "%s/score.jsonl-x200", dir);
    FILE *f = fopen(path, "wb");
    for (int i = 0; f && i < 200; i++) fwrite(score, 1, len, f);
    if (f && fclose(f) == 0) bench(argv[1], "mahjong", path, bare_of("mahjong"), runs);
    remove(path);
    rmdir(dir);
  }
  free(score);
  snprintf(path, sizeof path, "%s/othello/fforum-20-39.obf", argv[2]);
  bench(argv[1], "othello", path, bare_of("othello"), runs);

  char wtb[4][4096], pgn[4096];
  char *wtbs[4];
  static const char *const years[] = {"2001", "2002", "2019", "2020"};
  long games = 0;
  for (int i = 0; i < 4; i++) {
    snprintf(wtb[i], sizeof wtb[i], "%s/othello/wthor/WTH_%s.wtb", argv[2],
             years[i]);
    wtbs[i] = wtb[i];
    size_t size;
    char *bytes = read_file(wtb[i], &size);
    if (bytes && size >= 16) games += (long)((size - 16) / 68);
    free(bytes);
  }
  replay_rate(argv[1], "othello", wtbs, 4, 10, games, runs);
  snprintf(pgn, sizeof pgn, "%s/xiangqi/pgn/iccs/Liu_Dahua_1125_UCI_games.pgn",
           argv[2]);
  char *pgns[] = {pgn};
  replay_rate(argv[1], "xiangqi", pgns, 1, 10, 1125, runs);
  return 0;
}
