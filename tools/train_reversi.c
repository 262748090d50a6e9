/*
** train_reversi.c: fits the weights of the trained 8x8 evaluation
** (core/reversi/eval.h) to exact scores that our solver computes.
**
**   train_reversi positions OUT GAMES SEED [THREADS [FIRST]]
**   train_reversi fit WEIGHTS POSITIONS [LAMBDA [LAMBDA_STAGE]]
**
** positions plays GAMES semi-random games (game i from seed SEED and i,
** so the output does not depend on THREADS; FIRST > 0 plays games FIRST
** to GAMES - 1 only, to add to the file of a shorter run): each move is random with a
** probability the game draws, else the best by the classic evaluation one
** ply deep, a little noise added.  From 14 to 16 empty squares on (17 or
** 18 in one game of 8), every position of the game down to LABEL_LOW
** empties is solved exactly; OUT gets them as records (player, opponent,
** score, empties, game), 500 games at a time.  fit finds the weights that
** predict those scores best in the least-squares sense (conjugate
** gradients on the normal equations), each weight being a part common to
** all anchors plus the anchor's own, under ridge penalties LAMBDA and
** LAMBDA_STAGE; it checks them on the games whose number ends in 0 (held
** out), then fits again on all and writes WEIGHTS.
** `make reversi-weights` runs both.
*/
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/limit.h"
#include "reversi/eval.h"
#include "reversi/reversi.h"
#include "reversi/solve.h"

#define LABEL_HIGH 18
#define LABEL_LOW 8
#define TABLE_BITS 20

typedef struct record {
  uint64_t player, opponent;
  int8_t score;                 /* exact, for the player */
  uint8_t empties;
  uint16_t unused;
  uint32_t game;
} record;

/* ---- positions ---- */

typedef struct job {
  int first, last, threads, thread;    /* games first..last-1 */
  uint64_t seed;
  record *records;              /* PER_GAME a game */
  int *counts;                  /* records of each game */
  reversi_solver *solver;
  uint64_t nodes;
} job;

#define PER_GAME (LABEL_HIGH - LABEL_LOW + 1)
#define BLOCK 500               /* games written at a time */

static int random_below(uint64_t *state, int n) {
  return (int)(hash_next(state) % (uint64_t)n);
}

/* A move: random with probability randomness / 256, else the best by the
   classic evaluation one ply deep. */
static int choose(reversi_board *b, uint64_t moves, uint64_t *state,
                  int randomness) {
  int n = __builtin_popcountll(moves);
  if (random_below(state, 256) < randomness) {
    int k = random_below(state, n);
    while (k--) moves &= moves - 1;
    return __builtin_ctzll(moves);
  }
  int best = -1, best_score = 0;
  for (; moves; moves &= moves - 1) {
    int square = __builtin_ctzll(moves);
    uint64_t flipped = reversi_make(b, square);
    int score = -reversi_eval_classic(b) + random_below(state, 50);
    reversi_unmake(b, square, flipped);
    if (best < 0 || score > best_score) best = square, best_score = score;
  }
  return best;
}

static void play_game(job *j, int game) {
  uint64_t state = hash_mix64(j->seed * 0x9e3779b97f4a7c15u + (uint64_t)game);
  int randomness = 32 + random_below(&state, 225);
  /* one game in 8 from 17 or 18 empties, the others from 14 to 16 (an
     empty square more costs about 2.5 times the nodes) */
  int start = random_below(&state, 8) ? LABEL_HIGH - 2 - random_below(&state, 3)
                                      : LABEL_HIGH - random_below(&state, 2);
  record *out = j->records + (size_t)(game - j->first) * PER_GAME;
  int n = 0;
  reversi_board b;
  reversi_init(&b, 8);
  for (;;) {
    int empties = __builtin_popcountll(b.mask & ~(b.player | b.opponent));
    if (empties < LABEL_LOW || reversi_is_over(&b)) break;
    uint64_t moves = reversi_legal(&b);
    if (empties <= start && moves) {
      search_limit limit = {0};
      limit_start(&limit);
      reversi_solution r = reversi_solve(j->solver, &b, &limit);
      j->nodes += limit.nodes;
      out[n++] = (record){b.player, b.opponent, (int8_t)r.score,
                          (uint8_t)empties, 0, (uint32_t)game};
    }
    reversi_make(&b, moves ? choose(&b, moves, &state, randomness) : REVERSI_PASS);
  }
  j->counts[game - j->first] = n;
}

static void *run_job(void *arg) {
  job *j = arg;
  for (int game = j->first + j->thread; game < j->last; game += j->threads)
    play_game(j, game);
  return NULL;
}

/* Says what went wrong; the exit status of a run that failed. */
static int failed(const char *what) {
  fprintf(stderr, "train_reversi: %s\n", what);
  return 1;
}

/* The games in blocks, each written when done: a run stopped early has
   written the first games, as a shorter run would. */
static int positions(const char *path, int from, int games, uint64_t seed,
                     int threads) {
  record *records = malloc((size_t)BLOCK * PER_GAME * sizeof *records);
  int *counts = calloc(BLOCK, sizeof *counts);
  job jobs[64];
  pthread_t ids[64];
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    return 1;
  }
  if (!records || !counts) return failed("out of memory");
  for (int i = 0; i < threads; i++) {
    jobs[i] = (job){0, 0, threads, i, seed, records, counts,
                    reversi_solver_new(TABLE_BITS), 0};
    if (!jobs[i].solver) return failed("out of memory for a solver");
  }
  double t = limit_clock();
  uint64_t nodes = 0;
  size_t total = 0;
  for (int first = from; first < games; first += BLOCK) {
    int last = first + BLOCK < games ? first + BLOCK : games;
    for (int i = 0; i < threads; i++) {
      jobs[i].first = first;
      jobs[i].last = last;
      if (pthread_create(&ids[i], NULL, run_job, &jobs[i]))
        return failed("cannot start a thread");
    }
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    for (int game = first; game < last; game++) {
      fwrite(records + (size_t)(game - first) * PER_GAME, sizeof *records,
             (size_t)counts[game - first], f);
      total += (size_t)counts[game - first];
    }
    fflush(f);
    nodes = 0;
    for (int i = 0; i < threads; i++) nodes += jobs[i].nodes;
    fprintf(stderr, "%d games, %zu positions, %llu nodes, %.1f s\n", last,
            total, (unsigned long long)nodes, limit_clock() - t);
  }
  fclose(f);
  for (int i = 0; i < threads; i++) reversi_solver_free(jobs[i].solver);
  free(records);
  free(counts);
  return 0;
}

/* ---- fitting ---- */

/* The fit's unknowns: a weight per feature common to all anchors, and
   each anchor's difference from it, which a heavier penalty keeps small,
   so that what the stages share is learnt from them all. */
#define BLOCKS (EVAL_ANCHORS + 1)
#define COMMON EVAL_ANCHORS

typedef struct sample {
  float score;
  float share[BLOCKS];              /* COMMON: 1 */
  int count;                    /* features */
  uint32_t first;               /* in the feature array */
} sample;

typedef struct problem {
  sample *samples;
  size_t n;
  uint32_t *features;
  int weights;                  /* of an anchor */
  double lambda[BLOCKS];        /* the penalty of each block */
} problem;

/* out = X w for the samples that count. */
static void predict(const problem *pb, const double *w, const bool *use,
                    double *out) {
  for (size_t i = 0; i < pb->n; i++) {
    const sample *s = &pb->samples[i];
    double sum = 0;
    if (use[i])
      for (int a = 0; a < BLOCKS; a++) {
        if (s->share[a] == 0) continue;
        const double *wa = w + (size_t)a * pb->weights;
        double part = 0;
        for (int f = 0; f < s->count; f++) part += wa[pb->features[s->first + f]];
        sum += s->share[a] * part;
      }
    out[i] = sum;
  }
}

/* The penalty of unknown k. */
static double lambda_of(const problem *pb, size_t k) {
  return pb->lambda[k / (size_t)pb->weights];
}

/* out = X^T r + lambda v (v may be NULL). */
static void transpose_times(const problem *pb, const double *r, const bool *use,
                            const double *v, double *out) {
  size_t total = (size_t)pb->weights * BLOCKS;
  for (size_t k = 0; k < total; k++) out[k] = v ? lambda_of(pb, k) * v[k] : 0;
  for (size_t i = 0; i < pb->n; i++) {
    if (!use[i]) continue;
    const sample *s = &pb->samples[i];
    for (int a = 0; a < BLOCKS; a++) {
      if (s->share[a] == 0) continue;
      double *oa = out + (size_t)a * pb->weights, x = s->share[a] * r[i];
      for (int f = 0; f < s->count; f++) oa[pb->features[s->first + f]] += x;
    }
  }
}

static double dot(const double *a, const double *b, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += a[i] * b[i];
  return sum;
}

/* Ridge regression by conjugate gradients on (X^T X + lambda) w = X^T y. */
static void solve_ridge(const problem *pb, const bool *use, double *w,
                        int iterations) {
  size_t total = (size_t)pb->weights * BLOCKS;
  double *r = calloc(total, sizeof *r), *d = calloc(total, sizeof *d);
  double *q = calloc(total, sizeof *q), *xw = calloc(pb->n, sizeof *xw);
  double *y = calloc(pb->n, sizeof *y);
  if (!r || !d || !q || !xw || !y) abort();
  for (size_t i = 0; i < pb->n; i++) y[i] = use[i] ? pb->samples[i].score : 0;
  predict(pb, w, use, xw);
  for (size_t i = 0; i < pb->n; i++) xw[i] = y[i] - xw[i];
  transpose_times(pb, xw, use, NULL, r);           /* r = X^T (y - X w) - lambda w */
  for (size_t k = 0; k < total; k++) r[k] -= lambda_of(pb, k) * w[k];
  memcpy(d, r, total * sizeof *d);
  double rr = dot(r, r, total);
  for (int it = 0; it < iterations && rr > 1e-12; it++) {
    predict(pb, d, use, xw);
    transpose_times(pb, xw, use, d, q);
    double alpha = rr / dot(d, q, total);
    for (size_t k = 0; k < total; k++) {
      w[k] += alpha * d[k];
      r[k] -= alpha * q[k];
    }
    double next = dot(r, r, total);
    for (size_t k = 0; k < total; k++) d[k] = r[k] + next / rr * d[k];
    rr = next;
  }
  free(r), free(d), free(q), free(xw), free(y);
}

/* The root mean square error, in discs, on the samples that count; with
   by_empties, also for each number of empties, printed. */
static double error_of(const problem *pb, const double *w, const bool *use,
                       const record *records, bool by_empties) {
  double *xw = malloc(pb->n * sizeof *xw), sum = 0, part[65] = {0};
  int n = 0, counts[65] = {0};
  if (!xw) abort();
  predict(pb, w, use, xw);
  for (size_t i = 0; i < pb->n; i++) {
    if (!use[i]) continue;
    double e = xw[i] - pb->samples[i].score;
    sum += e * e;
    n++;
    part[records[i].empties] += e * e;
    counts[records[i].empties]++;
  }
  for (int e = 0; by_empties && e <= 64; e++)
    if (counts[e])
      fprintf(stderr, "    %2d empties: %6d positions, error %.2f discs\n", e,
              counts[e], sqrt(part[e] / counts[e]));
  free(xw);
  return sqrt(sum / (n ? n : 1));
}

/* The fit itself, on memory fit has made ready: weights w (common part
   last), their rounded sum per anchor in weights, encoded in bytes, then
   written to out_path.  Returns the exit status. */
static int fit_weights(problem *pb, const record *records, bool *train,
                       bool *held, bool *all, double *w, int16_t *weights,
                       unsigned char *bytes, size_t size, const char *out_path,
                       double lambda, double lambda_stage) {
  size_t n = pb->n;
  uint32_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const record *r = &records[i];
    sample *s = &pb->samples[i];
    s->score = r->score;
    double share[EVAL_ANCHORS];
    reversi_eval_shares(r->empties, share);
    for (int a = 0; a < EVAL_ANCHORS; a++) s->share[a] = (float)share[a];
    s->share[COMMON] = 1;
    s->first = at;
    s->count = reversi_eval_features(r->player, r->opponent, pb->features + at);
    at += (uint32_t)s->count;
    held[i] = r->game % 10 == 0;
    train[i] = !held[i];
    all[i] = true;
  }
  size_t total = (size_t)pb->weights * EVAL_ANCHORS;
  fprintf(stderr, "%zu positions, %d weights an anchor, lambda %g and %g\n",
          n, pb->weights, lambda, lambda_stage);
  double t = limit_clock();
  for (int round = 1; round <= 4; round++) {
    solve_ridge(pb, train, w, 50);
    fprintf(stderr, "  %d iterations: error %.3f discs, held out %.3f (%.0f s)\n",
            50 * round, error_of(pb, w, train, records, false),
            error_of(pb, w, held, records, round == 4), limit_clock() - t);
  }
  solve_ridge(pb, all, w, 100);
  fprintf(stderr, "  all: error %.3f discs\n", error_of(pb, w, all, records, false));
  for (size_t k = 0; k < total; k++) {
    double v = round(100 * (w[k] + w[total + k % (size_t)pb->weights]));
    weights[k] = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
  }
  size = reversi_eval_encode(weights, pb->weights, bytes, size);
  FILE *f = fopen(out_path, "wb");
  bool written = f && size && fwrite(bytes, 1, size, f) == size;
  if (f && fclose(f)) written = false;
  if (!written) {
    perror(out_path);
    return 1;
  }
  fprintf(stderr, "wrote %s: %zu bytes\n", out_path, size);
  return 0;
}

static int fit(const char *out_path, const char *in_path, double lambda,
               double lambda_stage) {
  FILE *f = fopen(in_path, "rb");
  if (!f) {
    perror(in_path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long length = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (length <= 0 || length % (long)sizeof(record)) {
    if (length <= 0)
      fprintf(stderr, "train_reversi: %s holds no positions\n", in_path);
    else
      fprintf(stderr, "train_reversi: %s holds %ld bytes, not a whole number "
                      "of %zu-byte positions (truncated?)\n", in_path, length,
              sizeof(record));
    fclose(f);
    return 1;
  }
  size_t n = (size_t)length / sizeof(record);
  record *records = malloc(n * sizeof *records);
  if (!records || fread(records, sizeof *records, n, f) != n) {
    fprintf(stderr, "train_reversi: cannot read %s\n", in_path);
    fclose(f);
    return 1;
  }
  fclose(f);
  for (size_t i = 0; i < n; i++) {
    const record *r = &records[i];
    if ((r->player & r->opponent) || r->score < -64 || r->score > 64 ||
        r->empties != 64 - __builtin_popcountll(r->player | r->opponent)) {
      fprintf(stderr, "train_reversi: position %zu of %s is not one "
                      "(overlapping discs, a wrong empty count or score)\n",
              i + 1, in_path);
      free(records);
      return 1;
    }
  }
  problem pb = {calloc(n, sizeof(sample)), n,
                malloc(n * EVAL_FEATURES * sizeof(uint32_t)),
                reversi_eval_weight_count(), {0}};
  for (int a = 0; a < EVAL_ANCHORS; a++) pb.lambda[a] = lambda_stage;
  pb.lambda[COMMON] = lambda;
  bool *train = malloc(n), *held = malloc(n), *all = malloc(n);
  size_t total = (size_t)pb.weights * EVAL_ANCHORS, size = total * 3 + 8;
  double *w = calloc(total + pb.weights, sizeof *w);
  int16_t *weights = malloc(total * sizeof *weights);
  unsigned char *bytes = malloc(size);
  int status = 1;
  if (pb.samples && pb.features && train && held && all && w && weights && bytes)
    status = fit_weights(&pb, records, train, held, all, w, weights, bytes,
                         size, out_path, lambda, lambda_stage);
  else
    failed("out of memory");
  free(records);
  free(pb.samples);
  free(pb.features);
  free(train);
  free(held);
  free(all);
  free(w);
  free(weights);
  free(bytes);
  return status;
}

/* A whole number from text within [low, high], or false with a message
   naming what: arguments are checked before any work starts. */
static bool number(const char *text, const char *what, long long low,
                   long long high, long long *out) {
  char *end;
  long long x = strtoll(text, &end, 10);
  if (end == text || *end || x < low || x > high) {
    fprintf(stderr, "train_reversi: %s must be a whole number from %lld to "
                    "%lld, not '%s'\n", what, low, high, text);
    return false;
  }
  *out = x;
  return true;
}

static bool positive(const char *text, const char *what, double *out) {
  char *end;
  *out = strtod(text, &end);
  if (end == text || *end || !(*out > 0)) {
    fprintf(stderr, "train_reversi: %s must be a number above 0, not '%s'\n",
            what, text);
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  if (argc >= 5 && argc <= 7 && strcmp(argv[1], "positions") == 0) {
    long long games, seed, threads = 2, first = 0;
    if (!number(argv[3], "GAMES", 1, 100000000, &games) ||
        !number(argv[4], "SEED", 0, LLONG_MAX, &seed) ||
        (argc > 5 && !number(argv[5], "THREADS", 1, 64, &threads)) ||
        (argc > 6 && !number(argv[6], "FIRST", 0, games - 1, &first)))
      return 2;
    return positions(argv[2], (int)first, (int)games, (uint64_t)seed,
                     (int)threads);
  }
  if (argc >= 4 && argc <= 6 && strcmp(argv[1], "fit") == 0) {
    double lambda = 10, lambda_stage = 300;
    if ((argc > 4 && !positive(argv[4], "LAMBDA", &lambda)) ||
        (argc > 5 && !positive(argv[5], "LAMBDA_STAGE", &lambda_stage)))
      return 2;
    return fit(argv[2], argv[3], lambda, lambda_stage);
  }
  fprintf(stderr, "usage: train_reversi positions OUT GAMES SEED [THREADS [FIRST]]\n"
                  "       train_reversi fit WEIGHTS POSITIONS [LAMBDA [LAMBDA_STAGE]]\n");
  return 2;
}
