/*
** train_xiangqi.c: fits the weights of the xiangqi evaluation
** (core/xiangqi/eval.h) to the results of real games, Texel's way.
**
**   train_xiangqi positions OUT NODES PGN...
**   train_xiangqi fit POSITIONS WEIGHTS [EPOCHS [LAMBDA]]
**
** positions reads the games of the PGN files and writes OUT, a line a
** position: its FEN, the game's result for red (1, 0.5 or 0) and the
** game's number, separated by '|'.
** A game's result is its [Result] when it has one; else (the ICCS file
** has none, and its games mostly end in a resignation) the engine's
** search of NODES nodes on the last position, with the hand-set weights
** of train_xiangqi_prior.h, decides: a side ahead by more than
** RESULT_MARGIN there won, anything closer was a draw.  The
** positions are those from ply OPENING_PLIES on that are quiet: the side
** to move is not in check and has no capture of an unprotected piece or
** of a piece worth more than the one that takes it.
**
** fit finds the weights that predict the results best: the result is
** taken as the probability 1 / (1 + 10^(-K e / 400)) of the evaluation
** e from red's side, K first chosen to fit the hand-set weights, then the
** weights by gradient descent (Adam) on the mean squared error, from the
** hand-set weights, with a ridge penalty LAMBDA pulling each weight back
** to its hand-set value (a square that few positions see keeps it).  The
** evaluation is a sum of weights times counts (eval.h's trace), so each
** position is traced once.  Positions where the no-win rule shrank the
** value are left out.  Every tenth game is held out to report the error
** on games the fit did not see; WEIGHTS (core/xiangqi/weights.c)
** is then written with the weights rounded.  `make xiangqi-weights` runs
** both.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limit.h"
#include "xiangqi/eval.h"
#include "xiangqi/search.h"
#include "xiangqi/xiangqi.h"

#include "train_xiangqi_prior.h"

#define RESULT_MARGIN 150
#define OPENING_PLIES 10
#define HELD_OUT 10                 /* every tenth game */

static void die(const char *message, const char *detail) {
  fprintf(stderr, "train_xiangqi: %s%s%s\n", message, detail ? " " : "",
          detail ? detail : "");
  exit(1);
}

static char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) die("cannot read", path);
  size_t capacity = 1 << 20, n;
  char *bytes = malloc(capacity);
  *size = 0;
  while (bytes && (n = fread(bytes + *size, 1, capacity - *size, f)) > 0) {
    *size += n;
    if (*size == capacity) bytes = realloc(bytes, capacity *= 2);
  }
  fclose(f);
  if (!bytes) die("out of memory", NULL);
  return bytes;
}

/* ---- positions ---- */

static const int worth[XQ_KINDS] = {10000, 120, 120, 270, 600, 285, 60};

/* Not in check, and nothing to win at once by a capture. */
static bool quiet(const xq_position *pos) {
  if (xq_in_check(pos)) return false;
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_pseudo_captures(pos, moves);
  for (int i = 0; i < n; i++) {
    int piece = pos->board[XQ_FROM(moves[i])], victim = pos->board[XQ_TO(moves[i])];
    int defenders[16];
    if (!xq_is_legal(pos, moves[i])) continue;
    if (worth[xq_kind_of(victim)] > worth[xq_kind_of(piece)] ||
        xq_attackers(pos, XQ_TO(moves[i]), pos->turn ^ 1, defenders) == 0)
      return false;
  }
  return true;
}

/* The result for red: from the record, else from a search of the end. */
static double result_of(const xq_pgn_game *game, uint64_t nodes, tt_table *tt) {
  if (!strcmp(game->result, "1-0")) return 1;
  if (!strcmp(game->result, "0-1")) return 0;
  if (!strcmp(game->result, "1/2-1/2")) return 0.5;
  xq_position end = game->end;
  game_status status = xq_status(&end);
  if (status == GAME_WIN_0) return 1;
  if (status == GAME_WIN_1) return 0;
  if (status == GAME_DRAW) return 0.5;
  search_limit limit = {0};
  limit.max_nodes = nodes;
  limit_start(&limit);
  xq_search_options options = {.tt = tt, .weights = prior_weights};
  xq_search_result found;
  tt_clear(tt);
  xq_search(&end, &options, &limit, &found);
  int red = end.turn == XQ_RED ? found.score : -found.score;
  return red > RESULT_MARGIN ? 1 : red < -RESULT_MARGIN ? 0 : 0.5;
}

static int positions(const char *out_path, uint64_t nodes, char **files,
                     int count) {
  for (int f = 0; f < count; f++) {
    FILE *in = fopen(files[f], "rb");
    if (!in) die("cannot read", files[f]);
    fclose(in);
  }
  FILE *out = fopen(out_path, "w");
  if (!out) die("cannot write", out_path);
  tt_table *tt = tt_new(16);
  if (!tt) die("out of memory", NULL);
  static xq_pgn_game game;
  long games = 0, written = 0, decided[3] = {0, 0, 0};
  for (int f = 0; f < count; f++) {
    size_t size;
    char *text = slurp(files[f], &size);
    xq_pgn_reader *reader = xq_pgn_open(text, size, XQ_ENCODING_AUTO);
    if (!reader) die("out of memory", NULL);
    xq_read_status status;
    while ((status = xq_pgn_next(reader, &game)) != XQ_READ_END) {
      if (status != XQ_READ_OK || game.plies <= OPENING_PLIES) continue;
      double result = result_of(&game, nodes, tt);
      decided[(int)(result * 2)]++;
      games++;
      xq_position pos = game.start;
      for (int ply = 0; ply < game.plies; ply++) {
        if (ply >= OPENING_PLIES && quiet(&pos)) {
          char fen[128];
          xq_to_fen(&pos, fen, sizeof fen);
          fprintf(out, "%s|%g|%ld\n", fen, result, games);
          written++;
        }
        xq_undo undo;
        xq_make(&pos, game.moves[ply], &undo);
      }
    }
    xq_pgn_close(reader);
    free(text);
  }
  tt_free(tt);
  fclose(out);
  printf("%ld games (red won %ld, drew %ld, lost %ld), %ld quiet positions\n",
         games, decided[2], decided[1], decided[0], written);
  return 0;
}

/* ---- fitting ---- */

typedef struct sample {
  double result;
  int first, count;                 /* its terms in the shared arrays */
  bool held_out;
} sample;

typedef struct data {
  sample *samples;
  int n;
  int *index;                       /* weight of each term */
  double *coef;                     /* and its count, blended by phase */
  long terms, capacity;
} data;

static void add_term(data *d, int index, double coef) {
  if (d->terms == d->capacity) {
    d->capacity = d->capacity ? 2 * d->capacity : 1 << 20;
    d->index = realloc(d->index, (size_t)d->capacity * sizeof *d->index);
    d->coef = realloc(d->coef, (size_t)d->capacity * sizeof *d->coef);
    if (!d->index || !d->coef) die("out of memory", NULL);
  }
  d->index[d->terms] = index;
  d->coef[d->terms++] = coef;
}

static void bad_line(const char *path, long number, const char *why) {
  fprintf(stderr, "train_xiangqi: line %ld of %s is not a position "
                  "(FEN|result|game): %s\n", number, path, why);
  exit(1);
}

static void load(const char *path, data *d) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot read", path);
  char line[256];
  int capacity = 0;
  long number = 0;
  static xq_eval_trace trace;
  while (fgets(line, sizeof line, f)) {
    number++;
    char *bar = strchr(line, '|'), *game = bar ? strchr(bar + 1, '|') : NULL;
    if (!game) bad_line(path, number, "two '|' expected");
    *bar = 0;
    xq_position pos;
    xq_fen_problem problem;
    if (xq_from_fen(&pos, line, &problem) != XQ_FEN_OK) {
      char message[256];
      xq_fen_message(&problem, message, sizeof message);
      bad_line(path, number, message);
    }
    char *end;
    double result = strtod(bar + 1, &end);
    if (end != game || (result != 0 && result != 0.5 && result != 1))
      bad_line(path, number, "the result is 1, 0.5 or 0");
    long game_number = strtol(game + 1, &end, 10);
    if (end == game + 1 || game_number < 0)
      bad_line(path, number, "the game's number is a whole number");
    xq_evaluate_with(&pos, prior_weights, &trace);
    if (trace.scaled) continue;
    if (d->n == capacity) {
      capacity = capacity ? 2 * capacity : 1 << 16;
      d->samples = realloc(d->samples, (size_t)capacity * sizeof *d->samples);
      if (!d->samples) die("out of memory", NULL);
    }
    sample *s = &d->samples[d->n++];
    s->result = result;
    s->held_out = game_number % HELD_OUT == 0;
    s->first = (int)d->terms;
    /* the trace counts for the side to move: red's view flips black's */
    double sign = pos.turn == XQ_RED ? 1 : -1;
    for (int i = 0; i < XQ_WEIGHTS; i++) {
      if (!trace.mg[i] && !trace.eg[i]) continue;
      double c = (trace.mg[i] * trace.phase +
                  trace.eg[i] * (XQ_PHASE_MAX - trace.phase)) / (double)XQ_PHASE_MAX;
      if (c != 0) add_term(d, i, sign * c);
    }
    s->count = (int)d->terms - s->first;
  }
  fclose(f);
}

static double predict(const data *d, const sample *s, const double *w) {
  double e = 0;
  for (int t = s->first; t < s->first + s->count; t++) e += w[d->index[t]] * d->coef[t];
  return e;
}

static double sigmoid(double e, double k) {
  return 1 / (1 + pow(10, -k * e / 400));
}

/* The mean squared error on the fitted (held_out false) or the held-out
   positions. */
static double error(const data *d, const double *w, double k, bool held_out) {
  double sum = 0;
  int n = 0;
  for (int i = 0; i < d->n; i++) {
    const sample *s = &d->samples[i];
    if (s->held_out != held_out) continue;
    double r = s->result - sigmoid(predict(d, s, w), k);
    sum += r * r;
    n++;
  }
  return n ? sum / n : 0;
}

/* Whether weight i is fitted: the general's material is no weight. */
static bool free_weight(int i) {
  return i != XQ_W_MATERIAL_MG + XQ_KING && i != XQ_W_MATERIAL_EG + XQ_KING;
}

static void write_weights(const char *path, const double *w) {
  FILE *out = fopen(path, "w");
  if (!out) die("cannot write", path);
  fprintf(out, "/*\n** weights.c: the evaluation's weights (eval.h names them), as\n"
               "** tools/train_xiangqi.c writes them: `make xiangqi-weights` fits them\n"
               "** anew.\n*/\n#include \"eval.h\"\n\n"
               "const int16_t xq_weights[XQ_WEIGHTS] = {\n");
  for (const xq_weight_block *b = xq_weight_blocks; b->name; b++) {
    int per = b->size == XQ_TABLE_SIZE || b->size == 25 ? 5
            : b->size == 6 ? 2 : b->size == XQ_DANGER_STEPS ? 8 : b->size;
    fprintf(out, "  /* %s */\n", b->name);
    for (int i = 0; i < b->size; i++) {
      double v = w[b->first + i];
      fprintf(out, "%s%d,%s", i % per ? " " : "  ", (int)lround(v),
              i % per == per - 1 || i == b->size - 1 ? "\n" : "");
    }
  }
  fprintf(out, "};\n");
  fclose(out);
}

static int fit(const char *positions_path, const char *weights_path, int epochs,
               double lambda) {
  data d = {0};
  load(positions_path, &d);
  if (d.n == 0) die("no positions to fit in", positions_path);
  double w[XQ_WEIGHTS], start[XQ_WEIGHTS];
  for (int i = 0; i < XQ_WEIGHTS; i++) w[i] = start[i] = prior_weights[i];
  /* K: the scale that fits the present weights best */
  double k = 1, best = 1e9;
  for (double trial = 0.2; trial <= 3.0; trial += 0.05) {
    double e = error(&d, w, trial, false);
    if (e < best) {
      best = e;
      k = trial;
    }
  }
  printf("%d positions, K %.2f; error now %.6f (held out %.6f)\n", d.n, k,
         best, error(&d, w, k, true));
  /* Adam on the mean squared error plus the ridge penalty */
  double m[XQ_WEIGHTS] = {0}, v[XQ_WEIGHTS] = {0}, grad[XQ_WEIGHTS];
  const double rate = 1.0, beta1 = 0.9, beta2 = 0.999;
  int fitted = 0;
  for (int i = 0; i < d.n; i++) fitted += !d.samples[i].held_out;
  if (fitted == 0) die("no positions outside the held-out games in", positions_path);
  for (int epoch = 1; epoch <= epochs; epoch++) {
    memset(grad, 0, sizeof grad);
    for (int i = 0; i < d.n; i++) {
      const sample *s = &d.samples[i];
      if (s->held_out) continue;
      double p = sigmoid(predict(&d, s, w), k);
      double g = 2 * (p - s->result) * p * (1 - p) * k * log(10) / 400;
      for (int t = s->first; t < s->first + s->count; t++)
        grad[d.index[t]] += g * d.coef[t];
    }
    for (int i = 0; i < XQ_WEIGHTS; i++) {
      if (!free_weight(i)) continue;
      double g = grad[i] / fitted + 2 * lambda * (w[i] - start[i]);
      m[i] = beta1 * m[i] + (1 - beta1) * g;
      v[i] = beta2 * v[i] + (1 - beta2) * g * g;
      double mh = m[i] / (1 - pow(beta1, epoch)), vh = v[i] / (1 - pow(beta2, epoch));
      w[i] -= rate * mh / (sqrt(vh) + 1e-12);
    }
    if (epoch % 100 == 0 || epoch == epochs)
      printf("epoch %4d: error %.6f (held out %.6f)\n", epoch,
             error(&d, w, k, false), error(&d, w, k, true));
  }
  write_weights(weights_path, w);
  printf("wrote %s\n", weights_path);
  free(d.samples);
  free(d.index);
  free(d.coef);
  return 0;
}

/* A whole number above 0, or the reason it is not one. */
static long long count_of(const char *text, const char *name) {
  char *end;
  long long n = strtoll(text, &end, 10);
  if (end == text || *end || n <= 0) die(name, "must be a whole number above 0");
  return n;
}

int main(int argc, char **argv) {
  if (argc >= 5 && !strcmp(argv[1], "positions"))
    return positions(argv[2], (uint64_t)count_of(argv[3], "NODES"), argv + 4,
                     argc - 4);
  if (argc >= 4 && argc <= 6 && !strcmp(argv[1], "fit")) {
    int epochs = argc > 4 ? (int)count_of(argv[4], "EPOCHS") : 600;
    double lambda = 3e-8;
    if (argc > 5) {
      char *end;
      lambda = strtod(argv[5], &end);
      if (end == argv[5] || *end || !(lambda >= 0))
        die("LAMBDA", "must be a number, 0 or more");
    }
    return fit(argv[2], argv[3], epochs, lambda);
  }
  fprintf(stderr, "usage: train_xiangqi positions OUT NODES PGN...\n"
                  "       train_xiangqi fit POSITIONS WEIGHTS [EPOCHS [LAMBDA]]\n");
  return 2;
}
