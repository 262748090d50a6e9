/*
** game.c: the rounds of a game (round.h): scores carried from round to
** round, honba and riichi sticks, the dealer staying or passing, the end
** (the last round, extra rounds, a bust), and the final places and
** points.
**
** Tenhou's extra rounds (west after a hanchan, south after a tonpuusen)
** are sudden death: each ends the game as the last round does, once
** somebody has the target, and the fourth of them ends it whatever the
** scores, unless its dealer stays.  The dealer staying comes first: a
** dealer who stays goes on, and ends the game only when he leads with
** the target (after a win or tenpai, not an abortive draw).
*/
#include <string.h>

#include "mahjong/round.h"

void mj_game_init(mj_game *g, const mj_round_rules *rules) {
  memset(g, 0, sizeof *g);
  g->rules = *rules;
  for (int s = 0; s < MJ_SEATS; s++) g->scores[s] = rules->start_points;
}

void mj_game_setup(const mj_game *g, mj_round_setup *setup) {
  memset(setup, 0, sizeof *setup);
  setup->round = g->round;
  setup->honba = g->honba;
  setup->sticks = g->sticks;
  memcpy(setup->scores, g->scores, sizeof setup->scores);
}

/* The seat that leads: the highest score, a tie to the seat nearer the
   first dealer. */
static int leader(const int scores[MJ_SEATS]) {
  int top = 0;
  for (int s = 1; s < MJ_SEATS; s++)
    if (scores[s] > scores[top]) top = s;
  return top;
}

void mj_game_next(mj_game *g, const mj_round *r) {
  const mj_round_result *res = &r->result;
  for (int s = 0; s < MJ_SEATS; s++)
    g->scores[s] = r->seat[s].score + res->deltas[s];
  g->sticks = r->sticks;
  g->rounds++;
  bool stays = res->dealer_stays;
  bool won = res->end == MJ_END_WIN;
  g->honba = won && !stays ? 0 : r->honba + 1;
  g->round = r->round;
  const mj_round_rules *rules = &g->rules;
  for (int s = 0; s < MJ_SEATS; s++)
    if (rules->bust && g->scores[s] < 0) g->over = true;
  if (g->over) return;
  int last = 4 * rules->length - 1;
  int final = rules->extra_rounds ? last + 4 : last;
  if (r->round < last) {
    if (!stays) g->round++;
    return;
  }
  int top = leader(g->scores);
  bool target = g->scores[top] >= rules->target;
  if (stays) {
    bool chose = res->end == MJ_END_WIN || res->end == MJ_END_EXHAUSTED;
    if (rules->dealer_stop && chose && top == r->dealer && target) g->over = true;
    return;
  }
  if (target || !rules->extra_rounds || r->round >= final) g->over = true;
  else g->round++;
}

/* Tenhou's rounding of (score - target) to whole thousands, in tenths:
   by size, .5 down and .6 up. */
static int tenhou_round(int diff) {
  int tenths = (diff < 0 ? -diff : diff) / 100;
  int whole = tenths / 10 + (tenths % 10 >= 6);
  return (diff < 0 ? -whole : whole) * 10;
}

void mj_game_final(const mj_game *g, int scores[MJ_SEATS],
                   int place[MJ_SEATS], int points[MJ_SEATS]) {
  const mj_round_rules *rules = &g->rules;
  memcpy(scores, g->scores, sizeof g->scores);
  int order[MJ_SEATS] = {0, 1, 2, 3};
  for (int i = 1; i < MJ_SEATS; i++)            /* stable: ties by seat */
    for (int j = i; j > 0 && scores[order[j]] > scores[order[j - 1]]; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  scores[order[0]] += 1000 * g->sticks;
  int others = 0;
  for (int i = 0; i < MJ_SEATS; i++) {
    int s = order[i];
    place[s] = i;
    if (i == 0) continue;
    int diff = scores[s] - rules->target;
    points[s] = (rules->tenhou_rounding ? tenhou_round(diff) : diff / 100) +
                rules->uma[i] / 100;
    others += points[s];
  }
  points[order[0]] = -others;
}
