/*
** tt.c: the transposition table.
*/
#include <stdlib.h>
#include <string.h>

#include "tt.h"

tt_table *tt_new(size_t mib) {
  size_t want = mib * ((size_t)1 << 20) / sizeof(tt_entry);
  size_t entries = 1;
  while (entries * 2 <= want) entries *= 2;
  tt_table *table = malloc(sizeof *table);
  if (!table) return NULL;
  table->entries = calloc(entries, sizeof(tt_entry));
  if (!table->entries) {
    free(table);
    return NULL;
  }
  table->mask = entries - 1;
  return table;
}

void tt_free(tt_table *table) {
  if (!table) return;
  free(table->entries);
  free(table);
}

void tt_clear(tt_table *table) {
  memset(table->entries, 0, tt_bytes(table));
}

size_t tt_bytes(const tt_table *table) {
  return (size_t)(table->mask + 1) * sizeof(tt_entry);
}

void tt_store(tt_table *table, uint64_t key, int depth, tt_bound bound,
              int score, game_move move, bool proven) {
  tt_entry *entry = &table->entries[key & table->mask];
  uint32_t check = (uint32_t)(key >> 32);
  if (entry->bound != TT_EMPTY && entry->check == check) {
    bool better = proven == entry->proven ? depth >= entry->depth : proven;
    if (!better) return;
    if (move == GAME_NO_MOVE) move = entry->move;
  }
  entry->check = check;
  entry->move = move;
  entry->score = score;
  entry->depth = (int16_t)depth;
  entry->bound = (uint8_t)bound;
  entry->proven = proven;
}
