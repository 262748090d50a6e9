/*
** train_reversi.c: fits the weights of the trained 8x8 evaluation
** (core/reversi/eval.h) to exact scores that our solver computes.
**
**   train_reversi positions OUT GAMES SEED [THREADS]
**   train_reversi fit WEIGHTS POSITIONS [LAMBDA]
**
** positions plays GAMES semi-random games (game i from seed SEED and i,
** so the output does not depend on THREADS): each move is random with a
** probability the game draws, else the best by the classic evaluation one
** ply deep.  From a position with LABEL_HIGH to LABEL_HIGH - 4 empty
** squares on, every position of the game down to LABEL_LOW empties is
** solved exactly; OUT gets them as records (player, opponent, score,
** empties, game).  fit finds the weights that predict those scores best
** in the least-squares sense, with a ridge penalty LAMBDA (conjugate
** gradients on the normal equations), checks them on the games whose
** number ends in 0 (held out), then refits on all and writes WEIGHTS.
** `make reversi-weights` runs both.
*/
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
  int games, threads, thread;
  uint64_t seed;
  record *records;              /* (LABEL_HIGH - LABEL_LOW + 1) a game */
  int *counts;                  /* records of each game */
  uint64_t nodes;
} job;

#define PER_GAME (LABEL_HIGH - LABEL_LOW + 1)

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

static void play_game(job *j, reversi_solver *solver, int game) {
  uint64_t state = hash_mix64(j->seed * 0x9e3779b97f4a7c15u + (uint64_t)game);
  int randomness = 32 + random_below(&state, 225);
  /* one game in 8 from 17 or 18 empties, the others from 14 to 16 (an
     empty square more costs about 2.5 times the nodes) */
  int start = random_below(&state, 8) ? LABEL_HIGH - 2 - random_below(&state, 3)
                                      : LABEL_HIGH - random_below(&state, 2);
  record *out = j->records + (size_t)game * PER_GAME;
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
      reversi_solution r = reversi_solve(solver, &b, &limit);
      j->nodes += limit.nodes;
      out[n++] = (record){b.player, b.opponent, (int8_t)r.score,
                          (uint8_t)empties, 0, (uint32_t)game};
    }
    reversi_make(&b, moves ? choose(&b, moves, &state, randomness) : REVERSI_PASS);
  }
  j->counts[game] = n;
}

static void *run_job(void *arg) {
  job *j = arg;
  reversi_solver *solver = reversi_solver_new(TABLE_BITS);
  if (!solver) abort();
  for (int game = j->thread; game < j->games; game += j->threads) {
    play_game(j, solver, game);
    if (j->thread == 0 && game % (100 * j->threads) == 0) {
      fprintf(stderr, "\rgame %d of %d", game, j->games);
      fflush(stderr);
    }
  }
  reversi_solver_free(solver);
  return NULL;
}

static int positions(const char *path, int games, uint64_t seed, int threads) {
  record *records = malloc((size_t)games * PER_GAME * sizeof *records);
  int *counts = calloc((size_t)games, sizeof *counts);
  job jobs[64];
  pthread_t ids[64];
  if (!records || !counts || threads < 1 || threads > 64) return 1;
  double t = limit_clock();
  for (int i = 0; i < threads; i++) {
    jobs[i] = (job){games, threads, i, seed, records, counts, 0};
    if (pthread_create(&ids[i], NULL, run_job, &jobs[i])) return 1;
  }
  uint64_t nodes = 0;
  for (int i = 0; i < threads; i++) {
    pthread_join(ids[i], NULL);
    nodes += jobs[i].nodes;
  }
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    return 1;
  }
  size_t total = 0;
  for (int game = 0; game < games; game++) {
    fwrite(records + (size_t)game * PER_GAME, sizeof *records,
           (size_t)counts[game], f);
    total += (size_t)counts[game];
  }
  fclose(f);
  fprintf(stderr, "\r%d games, %zu positions, %llu nodes, %.1f s\n", games,
          total, (unsigned long long)nodes, limit_clock() - t);
  return 0;
}

/* ---- fitting ---- */

typedef struct sample {
  float score;
  float share[EVAL_ANCHORS];
  int count;                    /* features */
  uint32_t first;               /* in the feature array */
} sample;

typedef struct problem {
  sample *samples;
  size_t n;
  uint32_t *features;
  int weights;                  /* of an anchor */
  double lambda;
} problem;

/* out = X w for the samples that count. */
static void predict(const problem *pb, const double *w, const bool *use,
                    double *out) {
  for (size_t i = 0; i < pb->n; i++) {
    const sample *s = &pb->samples[i];
    double sum = 0;
    if (use[i])
      for (int a = 0; a < EVAL_ANCHORS; a++) {
        if (s->share[a] == 0) continue;
        const double *wa = w + (size_t)a * pb->weights;
        double part = 0;
        for (int f = 0; f < s->count; f++) part += wa[pb->features[s->first + f]];
        sum += s->share[a] * part;
      }
    out[i] = sum;
  }
}

/* out = X^T r + lambda v (v may be NULL). */
static void transpose_times(const problem *pb, const double *r, const bool *use,
                            const double *v, double *out) {
  size_t total = (size_t)pb->weights * EVAL_ANCHORS;
  for (size_t k = 0; k < total; k++) out[k] = v ? pb->lambda * v[k] : 0;
  for (size_t i = 0; i < pb->n; i++) {
    if (!use[i]) continue;
    const sample *s = &pb->samples[i];
    for (int a = 0; a < EVAL_ANCHORS; a++) {
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
  size_t total = (size_t)pb->weights * EVAL_ANCHORS;
  double *r = calloc(total, sizeof *r), *d = calloc(total, sizeof *d);
  double *q = calloc(total, sizeof *q), *xw = calloc(pb->n, sizeof *xw);
  double *y = calloc(pb->n, sizeof *y);
  if (!r || !d || !q || !xw || !y) abort();
  for (size_t i = 0; i < pb->n; i++) y[i] = use[i] ? pb->samples[i].score : 0;
  predict(pb, w, use, xw);
  for (size_t i = 0; i < pb->n; i++) xw[i] = y[i] - xw[i];
  transpose_times(pb, xw, use, NULL, r);           /* r = X^T (y - X w) - lambda w */
  for (size_t k = 0; k < total; k++) r[k] -= pb->lambda * w[k];
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

/* The root mean square error, in discs, on the samples that count, and
   by empties into by[]. */
static double error_of(const problem *pb, const double *w, const bool *use,
                       double by[65]) {
  double *xw = malloc(pb->n * sizeof *xw), sum = 0, part[65] = {0};
  int n = 0, counts[65] = {0};
  if (!xw) abort();
  predict(pb, w, use, xw);
  for (size_t i = 0; i < pb->n; i++) {
    if (!use[i]) continue;
    double e = xw[i] - pb->samples[i].score;
    sum += e * e;
    n++;
  }
  (void)part, (void)counts, (void)by;
  free(xw);
  return sqrt(sum / (n ? n : 1));
}

static int fit(const char *out_path, const char *in_path, double lambda) {
  FILE *f = fopen(in_path, "rb");
  if (!f) {
    perror(in_path);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  size_t n = (size_t)ftell(f) / sizeof(record);
  fseek(f, 0, SEEK_SET);
  record *records = malloc(n * sizeof *records);
  if (!records || fread(records, sizeof *records, n, f) != n) return 1;
  fclose(f);
  problem pb = {calloc(n, sizeof(sample)), n,
                malloc(n * EVAL_FEATURES * sizeof(uint32_t)),
                reversi_eval_weight_count(), lambda};
  bool *train = malloc(n), *held = malloc(n), *all = malloc(n);
  if (!pb.samples || !pb.features || !train || !held || !all) return 1;
  uint32_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const record *r = &records[i];
    sample *s = &pb.samples[i];
    s->score = r->score;
    double share[EVAL_ANCHORS];
    reversi_eval_shares(r->empties, share);
    for (int a = 0; a < EVAL_ANCHORS; a++) s->share[a] = (float)share[a];
    s->first = at;
    s->count = reversi_eval_features(r->player, r->opponent, pb.features + at);
    at += (uint32_t)s->count;
    held[i] = r->game % 10 == 0;
    train[i] = !held[i];
    all[i] = true;
  }
  size_t total = (size_t)pb.weights * EVAL_ANCHORS;
  double *w = calloc(total, sizeof *w);
  if (!w) return 1;
  fprintf(stderr, "%zu positions, %d weights an anchor, lambda %g\n", n,
          pb.weights, lambda);
  double t = limit_clock();
  for (int round = 1; round <= 4; round++) {
    solve_ridge(&pb, train, w, 50);
    fprintf(stderr, "  %d iterations: error %.3f discs, held out %.3f (%.0f s)\n",
            50 * round, error_of(&pb, w, train, NULL),
            error_of(&pb, w, held, NULL), limit_clock() - t);
  }
  solve_ridge(&pb, all, w, 100);
  fprintf(stderr, "  all: error %.3f discs\n", error_of(&pb, w, all, NULL));
  int16_t *weights = malloc(total * sizeof *weights);
  size_t size = total * 3 + 8;
  unsigned char *bytes = malloc(size);
  if (!weights || !bytes) return 1;
  for (size_t k = 0; k < total; k++) {
    double v = round(100 * w[k]);
    weights[k] = (int16_t)(v > 32767 ? 32767 : v < -32767 ? -32767 : v);
  }
  size = reversi_eval_encode(weights, pb.weights, bytes, size);
  f = fopen(out_path, "wb");
  if (!f || !size || fwrite(bytes, 1, size, f) != size) return 1;
  fclose(f);
  fprintf(stderr, "wrote %s: %zu bytes\n", out_path, size);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && strcmp(argv[1], "positions") == 0)
    return positions(argv[2], atoi(argv[3]), strtoull(argv[4], NULL, 10),
                     argc > 5 ? atoi(argv[5]) : 2);
  if (argc >= 4 && strcmp(argv[1], "fit") == 0)
    return fit(argv[2], argv[3], argc > 4 ? atof(argv[4]) : 1.0);
  fprintf(stderr, "usage: train_reversi positions OUT GAMES SEED [THREADS]\n"
                  "       train_reversi fit WEIGHTS POSITIONS [LAMBDA]\n");
  return 2;
}
