/*
** hash.h: 64-bit hashing for positions.
**
** hash_mix64 turns any small exact encoding of a position into a well
** spread 64-bit key; hash_zobrist_fill makes the random tables for
** Zobrist hashing (one key per piece and square, xor-ed together) from a
** fixed seed, so keys are the same in every run and on every machine.
*/
#ifndef HASH_H
#define HASH_H

#include <stddef.h>
#include <stdint.h>

/* The splitmix64 finaliser (Steele, Lea and Flood 2014): a bijection. */
static inline uint64_t hash_mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9u;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebu;
  x ^= x >> 31;
  return x;
}

/* The next number of a splitmix64 sequence whose state is *seed. */
static inline uint64_t hash_next(uint64_t *seed) {
  *seed += 0x9e3779b97f4a7c15u;
  return hash_mix64(*seed);
}

/* Fills keys[0..n) with distinct nonzero keys drawn from seed. */
void hash_zobrist_fill(uint64_t *keys, size_t n, uint64_t seed);

#endif
