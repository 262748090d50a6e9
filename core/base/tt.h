/*
** tt.h: the transposition table of the generic searches.
**
** One 16-byte entry per slot, indexed by the low bits of the position's
** hash and checked against its high 32 bits.  An entry keeps the bound a
** search proved for the position, the depth it searched to and its best
** move.  A "proven" entry comes from a subtree that reached the end of the
** game everywhere it looked, so its bound holds at any depth.
*/
#ifndef TT_H
#define TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"

typedef enum tt_bound {
  TT_EMPTY,
  TT_UPPER,           /* the score is at most this */
  TT_LOWER,           /* at least this */
  TT_EXACT
} tt_bound;

typedef struct tt_entry {
  uint32_t check;     /* the high half of the hash */
  game_move move;     /* the best move found, or GAME_NO_MOVE */
  int32_t score;      /* wins counted from this position (search.c) */
  int16_t depth;
  uint8_t bound;      /* tt_bound */
  uint8_t proven;
} tt_entry;

typedef struct tt_table {
  tt_entry *entries;
  uint64_t mask;      /* entries - 1: a power of two */
} tt_table;

/* A cleared table of at most mib MiB (at least one entry); NULL when the
   memory is not there. */
tt_table *tt_new(size_t mib);
void tt_free(tt_table *table);
void tt_clear(tt_table *table);

/* Bytes the table occupies. */
size_t tt_bytes(const tt_table *table);

/* The entry of this position, or NULL when the table has none. */
static inline const tt_entry *tt_probe(const tt_table *table, uint64_t key) {
  const tt_entry *entry = &table->entries[key & table->mask];
  if (entry->bound == TT_EMPTY || entry->check != (uint32_t)(key >> 32))
    return NULL;
  return entry;
}

/* Records what a search found.  An entry of another position is
   replaced; one of the same position only by a proven result or by a
   search at least as deep. */
void tt_store(tt_table *table, uint64_t key, int depth, tt_bound bound,
              int score, game_move move, bool proven);

#endif
