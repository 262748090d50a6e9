/*
** decompose.c: the readings of a complete hand.  A standard reading is
** found from the lowest tile up: it must start a triplet or sequences,
** and with c copies there is either one triplet and c-3 sequences or c
** sequences starting there.  Choosing that number once per kind, never
** a triplet and then a sequence separately, makes every reading come
** out once and in order.
*/
#include <string.h>

#include "mahjong/mahjong.h"

typedef struct search {
  uint8_t count[MJ_KINDS];
  mj_reading current;
  mj_reading *out;
  int found, melds;
} search;

static void emit(search *s) {
  if (s->found < MJ_MAX_READINGS) s->out[s->found] = s->current;
  s->found++;
}

static void push_group(search *s, int kind, int tile) {
  mj_group *g = &s->current.group[s->current.n++];
  g->kind = (uint8_t)kind;
  g->tile = (uint8_t)tile;
}

static void split(search *s, int from) {
  int i = from;
  while (i < MJ_KINDS && !s->count[i]) i++;
  if (i == MJ_KINDS) {
    if (s->current.n == s->melds) emit(s);
    return;
  }
  int c = s->count[i], room = s->melds - s->current.n;
  uint8_t n = s->current.n;
  if (MJ_IS_HONOR(i)) {
    if (c == 3 && room >= 1) {
      push_group(s, MJ_TRIPLET, i);
      s->count[i] = 0;
      split(s, i + 1);
      s->count[i] = (uint8_t)c;
      s->current.n = n;
    }
    return;
  }
  for (int triplets = c >= 3 ? 1 : 0; triplets >= 0; triplets--) {
    int runs = c - 3 * triplets;
    if (triplets + runs > room) continue;
    if (runs && (i % 9 > 6 || s->count[i + 1] < runs || s->count[i + 2] < runs))
      continue;
    if (triplets) push_group(s, MJ_TRIPLET, i);
    for (int r = 0; r < runs; r++) push_group(s, MJ_SEQUENCE, i);
    s->count[i] = 0;
    if (runs) {
      s->count[i + 1] = (uint8_t)(s->count[i + 1] - runs);
      s->count[i + 2] = (uint8_t)(s->count[i + 2] - runs);
    }
    split(s, i + 1);
    s->count[i] = (uint8_t)c;
    if (runs) {
      s->count[i + 1] = (uint8_t)(s->count[i + 1] + runs);
      s->count[i + 2] = (uint8_t)(s->count[i + 2] + runs);
    }
    s->current.n = n;
  }
}

bool mj_is_chiitoitsu(const uint8_t count[MJ_KINDS]) {
  int pairs = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    if (count[k] != 0 && count[k] != 2) return false;
    pairs += count[k] == 2;
  }
  return pairs == 7;
}

bool mj_is_kokushi(const uint8_t count[MJ_KINDS]) {
  int tiles = 0;
  for (int k = 0; k < MJ_KINDS; k++) {
    if (MJ_IS_ORPHAN(k) ? count[k] < 1 || count[k] > 2 : count[k] != 0)
      return false;
    tiles += count[k];
  }
  return tiles == 14;
}

int mj_decompose(const uint8_t count[MJ_KINDS], int melds, mj_reading *out) {
  search s;
  memcpy(s.count, count, sizeof s.count);
  s.out = out;
  s.found = 0;
  s.melds = melds;
  int tiles = 0;
  for (int k = 0; k < MJ_KINDS; k++) tiles += count[k];
  if (tiles != 3 * melds + 2) return 0;
  for (int pair = 0; pair < MJ_KINDS; pair++) {
    if (s.count[pair] < 2) continue;
    s.count[pair] -= 2;
    memset(&s.current, 0, sizeof s.current);
    s.current.form = MJ_STANDARD;
    s.current.pair = (uint8_t)pair;
    split(&s, 0);
    s.count[pair] += 2;
  }
  if (melds == 4 && mj_is_chiitoitsu(count)) {
    memset(&s.current, 0, sizeof s.current);
    s.current.form = MJ_CHIITOITSU;
    for (int k = 0; k < MJ_KINDS; k++)
      if (count[k] == 2) push_group(&s, MJ_TRIPLET, k);
    emit(&s);
  }
  if (melds == 4 && mj_is_kokushi(count)) {
    memset(&s.current, 0, sizeof s.current);
    s.current.form = MJ_KOKUSHI;
    for (int k = 0; k < MJ_KINDS; k++)
      if (count[k] == 2) s.current.pair = (uint8_t)k;
    emit(&s);
  }
  return s.found < MJ_MAX_READINGS ? s.found : MJ_MAX_READINGS;
}
