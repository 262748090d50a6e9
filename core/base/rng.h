/*
** rng.h: a small seeded random number generator for searches and games.
**
** splitmix64 (hash.h) is fast, passes the usual statistical tests and
** needs one word of state, so equal seeds give equal games on every
** machine: that is what makes a seeded MCTS or a random opening
** reproducible.
*/
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

#include "hash.h"

typedef struct rng {
  uint64_t state;
} rng;

static inline void rng_seed(rng *r, uint64_t seed) { r->state = seed; }

static inline uint64_t rng_next(rng *r) { return hash_next(&r->state); }

/* A number in [0, n), for n >= 1; multiplying the high half by n keeps
   the bias below 2^-32 for every n a game needs. */
static inline uint32_t rng_below(rng *r, uint32_t n) {
  return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* A number in [0, 1) with 53 random bits. */
static inline double rng_unit(rng *r) {
  return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif
