/*
** table.c: four players at one table (table.h).  The table only ever
** plays steps the round allows: its own (draws, passes) and the options
** it listed, so a round can refuse nothing here but what memory refuses.
*/
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "mahjong/table.h"

void mj_table_wall(uint64_t seed, int n, uint8_t wall[MJ_TILES]) {
  uint64_t state = seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(n + 1));
  mj_wall_shuffle(wall, hash_next(&state));
}

void mj_table_init(mj_table *t, const mj_round_rules *rules, uint64_t seed) {
  memset(t, 0, sizeof *t);
  t->rules = *rules;
  t->seed = seed;
  t->record.rules = *rules;
  mj_game_init(&t->game, rules);
}

void mj_table_free(mj_table *t) {
  free(t->record.rounds);
  free(t->record.acts);
  t->record.rounds = NULL;
  t->record.acts = NULL;
  t->record.nrounds = t->record.nacts = 0;
  t->record.cap_rounds = t->record.cap_acts = 0;
}

static bool grow(void **items, int *cap, int n, size_t size) {
  if (n < *cap) return true;
  int more = *cap ? 2 * *cap : 16;
  void *p = realloc(*items, (size_t)more * size);
  if (!p) return false;
  *items = p;
  *cap = more;
  return true;
}

/* Plays a step the round allows, and keeps it (a draw with its tile). */
static bool play(mj_table *t, const mj_act *a) {
  mj_record *rec = &t->record;
  if (!grow((void **)&rec->acts, &rec->cap_acts, rec->nacts, sizeof *rec->acts))
    return false;
  if (mj_round_play_known(&t->round, a) != MJ_ROUND_OK) return false;
  t->hands[a->seat].current = false;
  mj_act *kept = &rec->acts[rec->nacts++];
  *kept = *a;
  if (a->type == MJ_ACT_DRAW) kept->tile = t->round.seat[a->seat].drawn;
  rec->rounds[rec->nrounds - 1].nacts++;
  return true;
}

static bool start_round(mj_table *t) {
  mj_record *rec = &t->record;
  if (!grow((void **)&rec->rounds, &rec->cap_rounds, rec->nrounds, sizeof *rec->rounds))
    return false;
  mj_record_round *rr = &rec->rounds[rec->nrounds++];
  memset(rr, 0, sizeof *rr);
  mj_game_setup(&t->game, &rr->setup);
  mj_table_wall(t->seed, rec->nrounds - 1, rr->wall);
  rr->first_act = rec->nacts;
  rr->setup.wall = rr->wall;
  mj_round_start(&t->round, &t->rules, &rr->setup);
  rr->setup.wall = NULL;
  t->in_round = true;
  t->claim_open = false;
  memset(t->hands, 0, sizeof t->hands);   /* no hand holds nothing */
  return true;
}

static void end_round(mj_table *t) {
  mj_record_round *rr = &t->record.rounds[t->record.nrounds - 1];
  rr->result = t->round.result;
  rr->ndora = t->round.ndora;
  for (int i = 0; i < t->round.ndora; i++) rr->dora[i] = t->round.dora[i];
  mj_game_next(&t->game, &t->round);
  t->in_round = false;
}

/* The shanten and waits of seat's concealed tiles, or of them without
   the tile drawn (without: that tile, or MJ_NO_TILE), counted again
   only when those tiles changed and what is known does not say enough.
   A hand that swapped one tile since it was known is at most one nearer
   to ready: that bound is kept instead of a count while it is enough or
   more.  Enough is 1 where only the waits matter (a hand one or more
   from ready has none: an open tile, the turn of an open hand or one in
   riichi), 2 where riichi may follow (a hand two or more from ready
   before the draw is not ready after a discard).  A seat that made no
   step since is not looked at again. */
static const struct mj_table_hand *hand_of(mj_table *t, int seat, int without,
                                           int enough) {
  struct mj_table_hand *known = &t->hands[seat];
  if (known->current && known->without == without &&
      (known->exact || known->shanten >= enough))
    return known;
  const mj_round_seat *s = &t->round.seat[seat];
  known->current = true;
  known->without = (uint8_t)without;
  uint64_t held[3] = {s->held[0], s->held[1], s->held[2]};
  if (without != MJ_NO_TILE) held[without >> 6] &= ~(1ull << (without & 63));
  int n = s->hand.n - (without != MJ_NO_TILE);
  if (memcmp(known->held, held, sizeof held)) {
    int changed = 0;
    for (int w = 0; w < 3; w++) changed += __builtin_popcountll(known->held[w] ^ held[w]);
    memcpy(known->held, held, sizeof held);
    if (changed == 2 && known->tiles == n && known->shanten > enough) {
      known->shanten--;
      known->exact = false;
      known->waits = 0;
      return known;
    }
  } else if (known->exact || known->shanten >= enough) {
    return known;
  }
  uint8_t count[MJ_KINDS];
  memcpy(count, s->hand.count, sizeof count);
  if (without != MJ_NO_TILE) count[mj_tile_kind(without)]--;
  known->tiles = n;
  known->shanten = mj_shanten(count, n);
  known->exact = true;
  known->waits = known->shanten == 0 && n % 3 == 1 ? mj_ukeire(count, n, NULL) : 0;
  return known;
}

/* The seat d places after seat (unsigned: a mask, not a division). */
static inline int after(int seat, int d) {
  return (int)((unsigned)(seat + d) % MJ_SEATS);
}

/* Whether the open tile could be anything to seat (its waits known):
   a ron, a pon or kan of two or three of its kind, a chi from the seat
   after the discarder; most open tiles are nothing to most seats, and
   are spared the listing of options. */
static bool may_claim(const mj_round *r, int seat, uint64_t waits) {
  int k = mj_tile_kind(r->open_tile);
  const uint8_t *count = r->seat[seat].hand.count;
  if ((waits >> k & 1) || count[k] >= 2) return true;
  if (seat != after(r->turn, 1) || k >= MJ_HONORS) return false;
  int n = k % 9;
  return (n >= 2 && count[k - 2] && count[k - 1]) ||
         (n >= 1 && n <= 7 && count[k - 1] && count[k + 1]) ||
         (n <= 6 && count[k + 1] && count[k + 2]);
}

/* Who takes the open tile, once every seat asked has answered: rons in
   turn, else a pon or kan, else a chi, else nobody. */
static bool resolve(mj_table *t) {
  const mj_round *r = &t->round;
  int rons = 0, pon = -1, chi = -1;
  t->claim_open = false;
  for (int d = 1; d < MJ_SEATS; d++) {
    int s = after(r->turn, d), type = t->answer[s].type;
    if (type == MJ_ACT_RON) {
      if (rons && !t->rules.double_ron) continue;
      if (!play(t, &t->answer[s])) return false;
      rons++;
    } else if ((type == MJ_ACT_PON || type == MJ_ACT_KAN) && pon < 0) {
      pon = s;
    } else if (type == MJ_ACT_CHI && chi < 0) {
      chi = s;
    }
  }
  if (rons) return true;
  if (pon >= 0) return play(t, &t->answer[pon]);
  if (chi >= 0) return play(t, &t->answer[chi]);
  mj_act p = {.type = MJ_ACT_PASS, .seat = (uint8_t)r->turn};
  return play(t, &p);
}

bool mj_table_next(mj_table *t) {
  t->ask = MJ_ASK_NONE;
  t->noptions = 0;
  for (;;) {
    if (!t->in_round) {
      if (t->game.over) {
        mj_record *rec = &t->record;
        rec->over = true;
        mj_game_final(&t->game, rec->scores, rec->place, rec->points);
        return false;
      }
      if (!start_round(t)) return false;
    }
    mj_round *r = &t->round;
    switch (r->phase) {
    case MJ_PHASE_DRAW: {
      mj_act a = {.type = MJ_ACT_DRAW, .seat = (uint8_t)r->turn, .tile = MJ_NO_TILE};
      if (!play(t, &a)) return false;
      break;
    }
    case MJ_PHASE_ACT: {
      const mj_round_seat *s = &r->seat[r->turn];
      const struct mj_table_hand *h = hand_of(t, r->turn, s->drawn,
                                              s->riichi || s->open ? 1 : 2);
      t->ask = MJ_ASK_TURN;
      t->seat = r->turn;
      t->noptions = mj_round_turn_options(r, r->turn, h->waits, h->shanten, t->options);
      return t->noptions > 0;
    }
    case MJ_PHASE_CLAIM:
      if (!t->claim_open) {
        t->claim_open = true;
        for (int s = 0; s < MJ_SEATS; s++) {
          t->answered[s] = s == r->turn;
          t->answer[s].type = MJ_ACT_PASS;
        }
      }
      for (int d = 1; d < MJ_SEATS; d++) {
        int s = after(r->turn, d);
        if (t->answered[s]) continue;
        uint64_t waits = hand_of(t, s, MJ_NO_TILE, 1)->waits;
        t->noptions = may_claim(r, s, waits)
                    ? mj_round_claim_options(r, s, waits, t->options) : 0;
        if (!t->noptions) {
          t->answered[s] = true;
          continue;
        }
        t->ask = MJ_ASK_CLAIM;
        t->seat = s;
        return true;
      }
      if (!resolve(t)) return false;
      break;
    case MJ_PHASE_OVER:
      end_round(t);
      break;
    }
  }
}

bool mj_table_choose(mj_table *t, int i) {
  if (t->ask == MJ_ASK_NONE || i < -1 || i >= t->noptions) return false;
  if (t->ask == MJ_ASK_TURN) {
    if (i < 0) return false;
    t->ask = MJ_ASK_NONE;
    return play(t, &t->options[i]);
  }
  t->answered[t->seat] = true;
  if (i >= 0) t->answer[t->seat] = t->options[i];
  t->ask = MJ_ASK_NONE;
  return true;
}
