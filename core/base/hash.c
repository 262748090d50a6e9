/*
** hash.c: Zobrist tables.
*/
#include "hash.h"

void hash_zobrist_fill(uint64_t *keys, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    uint64_t key;
    int fresh;
    do {               /* a zero or repeated key would hide a difference */
      key = hash_next(&seed);
      fresh = key != 0;
      for (size_t j = 0; j < i && fresh; j++)
        fresh = keys[j] != key;
    } while (!fresh);
    keys[i] = key;
  }
}
