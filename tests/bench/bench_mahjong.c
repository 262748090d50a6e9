/*
** bench_mahjong.c: the mahjong core against the figures of issue #6.
**
** Shanten: hands per second of CPU time on one thread, on a fixed
** seeded stream of random 14-tile hands drawn from a shuffled wall, the
** least of the three forms; the reference is the best table-driven
** calculators, about 450-600 ns a hand here (2 M/s).  The sum of the
** shanten numbers is the stream's signature.  Then ukeire (the tiles
** that lower the shanten) of random 13-tile hands, 34 shanten each.
**
** Scoring: complete hands per second (readings, yaku, fu, points) on a
** seeded stream of random complete hands with random contexts; the
** reference is the Python mahjong library, about 14,700 a second when
** measured side by side on this machine class (docs/benchmarks.md).  The
** number scored and the sum of their points are the signature.
**
**   bench_mahjong DATA_DIR [hands]
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/rng.h"
#include "mahjong/mahjong.h"

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* n random hands of `tiles` tiles each, 34 counts a hand. */
static uint8_t *random_hands(uint64_t seed, int n, int tiles) {
  uint8_t *hands = calloc((size_t)n, MJ_KINDS);
  if (!hands) {
    fprintf(stderr, "bench_mahjong: out of memory\n");
    exit(1);
  }
  rng r;
  rng_seed(&r, seed);
  uint8_t wall[136];
  for (int i = 0; i < 136; i++) wall[i] = (uint8_t)(i / 4);
  for (int h = 0; h < n; h++) {
    for (int i = 0; i < tiles; i++) {      /* a partial Fisher-Yates shuffle */
      int j = i + (int)rng_below(&r, (uint32_t)(136 - i));
      uint8_t t = wall[i];
      wall[i] = wall[j];
      wall[j] = t;
      hands[h * MJ_KINDS + wall[i]]++;
    }
  }
  return hands;
}

static void bench_shanten(int n) {
  mj_shanten_init();
  uint8_t *hands = random_hands(1, n, 14);
  double start = cpu_seconds();
  long signature = 0;
  for (int h = 0; h < n; h++) signature += mj_shanten(hands + h * MJ_KINDS, 14);
  double seconds = cpu_seconds() - start;
  printf("%-34s %9d hands %10.0f hands/s %7.0f ns  (reference 2 M/s, "
         "450-600 ns; goal 5 M/s)  sum %ld\n", "shanten, 14 random tiles", n,
         n / seconds, seconds * 1e9 / n, signature);
  start = cpu_seconds();
  signature = 0;
  for (int h = 0; h < n; h++)
    signature += mj_shanten_regular(hands + h * MJ_KINDS, 4);
  seconds = cpu_seconds() - start;
  printf("%-34s %9d hands %10.0f hands/s %7.0f ns  sum %ld\n",
         "shanten, regular form only", n, n / seconds, seconds * 1e9 / n,
         signature);
  free(hands);
}

static void bench_ukeire(int n) {
  uint8_t *hands = random_hands(2, n, 13);
  double start = cpu_seconds();
  long signature = 0;
  for (int h = 0; h < n; h++) {
    int shanten;
    uint64_t accepted = mj_ukeire(hands + h * MJ_KINDS, 13, &shanten);
    signature += __builtin_popcountll(accepted);
  }
  double seconds = cpu_seconds() - start;
  printf("%-34s %9d hands %10.0f hands/s %7.0f ns  kinds %ld\n",
         "ukeire, 13 random tiles", n, n / seconds, seconds * 1e9 / n, signature);
  free(hands);
}

/* ---- scoring ---- */

typedef struct deal {
  mj_tiles hand;
  mj_context ctx;
} deal;

/* Adds group g (0 triplet, 1 sequence) at tile k to counts, if it fits. */
static bool fits(const uint8_t *count, int kind, int k) {
  if (kind == 0) return count[k] <= 1;
  return k < MJ_HONORS && k % 9 <= 6 && count[k] < 4 && count[k + 1] < 4 &&
         count[k + 2] < 4;
}

/* A random complete hand: a pair and four sets, up to two of them
   called, with a random winning tile and a random context. */
static void random_deal(rng *r, deal *d) {
  uint8_t all[MJ_KINDS] = {0};
  mj_clear(&d->hand);
  mj_default_context(&d->ctx);
  mj_context *ctx = &d->ctx;
  int pair = (int)rng_below(r, MJ_KINDS);
  all[pair] = 2;
  d->hand.count[pair] = 2;
  int called = (int)rng_below(r, 3);
  for (int i = 0; i < 4; i++) {
    int kind, k;
    do {
      kind = (int)rng_below(r, 2);
      k = (int)rng_below(r, MJ_KINDS);
    } while (!fits(all, kind, k));
    for (int j = 0; j < 3; j++) all[kind ? k + j : k]++;
    if (i < called) {
      mj_meld *m = &ctx->meld[ctx->nmelds++];
      m->tile = (uint8_t)k;
      m->kind = kind ? MJ_CHI : (uint8_t)(MJ_PON + rng_below(r, 3));
      if (m->kind != MJ_PON && m->kind != MJ_CHI) all[k]++;
    } else {
      for (int j = 0; j < 3; j++) d->hand.count[kind ? k + j : k]++;
    }
  }
  for (int k = 0; k < MJ_KINDS; k++) d->hand.n += d->hand.count[k];
  for (int s = 0; s < 3; s++)
    if (d->hand.count[s * 9 + 4] && rng_below(r, 2)) d->hand.red[s] = 1;
  do ctx->win = (int)rng_below(r, MJ_KINDS); while (!d->hand.count[ctx->win]);
  bool open = false;
  for (int i = 0; i < ctx->nmelds; i++) open |= ctx->meld[i].kind != MJ_ANKAN;
  ctx->tsumo = rng_below(r, 2);
  ctx->riichi = !open && rng_below(r, 2);
  ctx->seat = MJ_EAST + (int)rng_below(r, 4);
  ctx->round = MJ_EAST + (int)rng_below(r, 2);
  ctx->ndora = 1 + (int)rng_below(r, 3);
  for (int i = 0; i < ctx->ndora; i++) ctx->dora[i] = (uint8_t)rng_below(r, MJ_KINDS);
  if (ctx->riichi) {
    ctx->nura = ctx->ndora;
    for (int i = 0; i < ctx->nura; i++) ctx->ura[i] = (uint8_t)rng_below(r, MJ_KINDS);
  }
  ctx->honba = (int)rng_below(r, 3);
}

static void bench_score(int n) {
  deal *deals = malloc((size_t)n * sizeof *deals);
  if (!deals) {
    fprintf(stderr, "bench_mahjong: out of memory\n");
    exit(1);
  }
  rng r;
  rng_seed(&r, 3);
  for (int i = 0; i < n; i++) random_deal(&r, &deals[i]);
  int scored = 0, no_yaku = 0, other = 0;
  long points = 0;
  double start = cpu_seconds();
  for (int i = 0; i < n; i++) {
    mj_score s;
    mj_status st = mj_score_hand(&deals[i].hand, &deals[i].ctx, &s);
    if (st == MJ_SCORED) {
      scored++;
      points += s.total;
    } else if (st == MJ_NO_YAKU) {
      no_yaku++;
    } else {
      other++;
    }
  }
  double seconds = cpu_seconds() - start;
  printf("%-34s %9d hands %10.0f hands/s %7.0f ns  (Python mahjong: 14,700/s "
         "side by side)  %d scored, %d no yaku, %d other, points %ld\n",
         "score, random complete hands", n, n / seconds, seconds * 1e9 / n,
         scored, no_yaku, other, points);
  /* the best winning tile of each hand, when none is named */
  for (int i = 0; i < n; i++) deals[i].ctx.win = -1;
  start = cpu_seconds();
  scored = 0;
  for (int i = 0; i < n; i++) {
    mj_score s;
    scored += mj_score_hand(&deals[i].hand, &deals[i].ctx, &s) == MJ_SCORED;
  }
  seconds = cpu_seconds() - start;
  printf("%-34s %9d hands %10.0f hands/s %7.0f ns  %d scored\n",
         "score, best of every winning tile", n, n / seconds, seconds * 1e9 / n,
         scored);
  free(deals);
}

int main(int argc, char **argv) {
  int n = argc > 2 ? atoi(argv[2]) : 2000000;
  bench_shanten(n);
  bench_ukeire(n / 10);
  bench_score(n / 2);
  return 0;
}
