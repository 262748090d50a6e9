/*
** replay.c: a log's rounds played through the round (round.h), each
** recorded result compared with what the round and the scoring make of
** it (tenhou.h).  The kan dora indicators are revealed when the round
** says one is due, so the two formats' different places for them (the
** mjlog writes DORA where Tenhou's server sent it) do not matter.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mahjong/tenhou.h"

static void note(mj_replay *out, int round, int event, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void note(mj_replay *out, int round, int event, const char *fmt, ...) {
  out->disagreements++;
  if (out->nnotes == MJ_REPLAY_NOTES) return;
  mj_log_error *e = &out->notes[out->nnotes++];
  e->round = round;
  e->event = event;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->text, sizeof e->text, fmt, ap);
  va_end(ap);
}

/* Compares two numbers, noting a difference. */
static void same(mj_replay *out, int round, int event, const char *what,
                 int ludus, int log) {
  out->checks++;
  if (ludus != log)
    note(out, round, event, "%s: ludus %d, the log %d", what, ludus, log);
}

static void same_deltas(mj_replay *out, int round, int event,
                        const char *what, const int *ludus, const int *log) {
  out->checks++;
  if (memcmp(ludus, log, 4 * sizeof *ludus))
    note(out, round, event,
         "%s: ludus %+d %+d %+d %+d, the log %+d %+d %+d %+d", what,
         ludus[0], ludus[1], ludus[2], ludus[3], log[0], log[1], log[2], log[3]);
}

/* The yaku as multisets of (Tenhou id, han); the log's 0-han dora left
   out. */
static void same_yaku(mj_replay *out, int round, int event, const mj_round *r,
                      const mj_round_win *w, const mj_log_result *res) {
  int ours[64] = {0}, theirs[64] = {0};
  int seat = mj_round_seat_wind(r, w->who), wind = mj_round_wind(r);
  for (int i = 0; i < w->score.nyaku; i++) {
    int id = mj_tenhou_yaku(w->score.yaku[i].yaku, seat, wind);
    if (id < 0) continue;
    ours[id] += res->yakuman ? 1 : w->score.yaku[i].han;
  }
  for (int i = 0; i < res->nyaku; i++)
    theirs[res->yaku[i].id] += res->yakuman ? 1 : res->yaku[i].han;
  out->checks++;
  for (int id = 0; id < 64; id++) {
    if (ours[id] == theirs[id]) continue;
    note(out, round, event, "yaku %s: ludus %d, the log %d",
         mj_tenhou_yaku_name(id), ours[id], theirs[id]);
    return;
  }
}

/* How many yakuman a logged win is worth.  Tenhou writes a double
   yakuman (suuankou tanki, 13-sided kokushi, ...) as one entry "(役満)",
   as it writes a single one: its points tell, 8000 basic points a
   yakuman, where the log has them (without honba). */
static int logged_yakuman(const mj_log_result *res, bool dealer) {
  int basic = -1;
  if (res->points >= 0) basic = res->points / (dealer ? 6 : 4);
  else if (res->ron >= 0) basic = res->ron / (dealer ? 6 : 4);
  else if (res->tsumo_all >= 0) basic = res->tsumo_all / 2;
  else if (res->tsumo_other >= 0) basic = res->tsumo_other;
  if (basic >= 8000) return basic / 8000;
  int n = 0;
  for (int i = 0; i < res->nyaku; i++) n += res->yaku[i].han / 13;
  return n;
}

static void check_win(mj_replay *out, int round, int event, const mj_round *r,
                      const mj_log_result *res) {
  const mj_round_result *rr = &r->result;
  if (rr->end != MJ_END_WIN || rr->nwins == 0) {
    note(out, round, event, "the log has a win, ludus does not");
    return;
  }
  const mj_round_win *w = &rr->win[rr->nwins - 1];
  const mj_score *sc = &w->score;
  out->wins++;
  same(out, round, event, "winner", w->who, res->who);
  same(out, round, event, "from", w->from, res->from);
  if (res->pao >= 0 || w->pao >= 0) same(out, round, event, "pao", w->pao, res->pao);
  if (res->yakuman) {
    int n = logged_yakuman(res, w->who == r->dealer);
    same(out, round, event, "yakuman", sc->yakuman, n);
  } else {
    if (res->han >= 0) same(out, round, event, "han", sc->han, res->han);
    if (res->fu >= 0) same(out, round, event, "fu", sc->fu, res->fu);
  }
  if (res->limit >= 0) {
    int limit = sc->limit == MJ_KAZOE_YAKUMAN ? MJ_YAKUMAN : sc->limit;
    same(out, round, event, "limit", limit, res->limit);
  }
  if (!res->unknown_yaku) same_yaku(out, round, event, r, w, res);
  int honba = 100 * r->honba;
  if (res->points >= 0) {
    int points = w->from != w->who ? sc->ron - 3 * honba
                 : sc->dealer ? 3 * (sc->tsumo_all - honba)
                 : sc->tsumo_dealer + 2 * sc->tsumo_other - 3 * honba;
    same(out, round, event, "points", points, res->points);
  }
  if (res->ron >= 0) same(out, round, event, "ron", sc->ron - 3 * honba, res->ron);
  if (res->tsumo_all >= 0)
    same(out, round, event, "tsumo (each)", sc->tsumo_all - honba, res->tsumo_all);
  if (res->tsumo_dealer >= 0)
    same(out, round, event, "tsumo (dealer)", sc->tsumo_dealer - honba,
         res->tsumo_dealer);
  if (res->tsumo_other >= 0)
    same(out, round, event, "tsumo (others)", sc->tsumo_other - honba,
         res->tsumo_other);
  if (res->ndora) {
    out->checks++;
    if (res->ndora != r->ndora || memcmp(res->dora, r->dora, (size_t)r->ndora))
      note(out, round, event, "dora indicators: ludus %d, the log %d",
           r->ndora, res->ndora);
  }
  if (res->has_before) {
    int before[4];
    for (int s = 0; s < 4; s++)
      before[s] = r->seat[s].score + rr->deltas[s] - w->deltas[s];
    same_deltas(out, round, event, "scores before the win", before, res->before);
  }
  if (res->has_deltas)
    same_deltas(out, round, event, "score changes", w->deltas, res->deltas);
}

static void check_draw(mj_replay *out, int round, int event, const mj_round *r,
                       const mj_log_result *res) {
  const mj_round_result *rr = &r->result;
  out->draws++;
  out->checks++;
  if (rr->end != res->end) {
    note(out, round, event, "the round's end: ludus %s, the log %s",
         mj_round_end_name(rr->end), mj_round_end_name(res->end));
    return;
  }
  if (res->shown >= 0 && !rr->nagashi) {
    int ready = 0;
    for (int s = 0; s < 4; s++) ready |= rr->tenpai[s] << s;
    same(out, round, event, "ready hands (a bit a seat)", ready, res->shown);
  }
  if (res->has_before) {
    int before[4];
    for (int s = 0; s < 4; s++) before[s] = r->seat[s].score;
    same_deltas(out, round, event, "scores before the draw", before, res->before);
  }
  if (res->has_deltas)
    same_deltas(out, round, event, "score changes", rr->deltas, res->deltas);
}

/* Plays a step, revealing the kan dora the round wants first. */
static mj_round_status play(mj_round *r, const mj_act *a, const mj_log_round *lr,
                            int *kan_dora) {
  for (;;) {
    mj_round_status st = mj_round_play(r, a);
    if (st != MJ_RE_DORA_DUE || *kan_dora >= lr->nkan_dora) return st;
    mj_act d;
    memset(&d, 0, sizeof d);
    d.type = MJ_ACT_DORA;
    d.tile = lr->kan_dora[(*kan_dora)++];
    st = mj_round_play(r, &d);
    if (st != MJ_ROUND_OK) return st;
  }
}

static const char *const act_names[MJ_ACT_TYPES] = {
  "draw", "discard", "chi", "pon", "kan", "added kan", "closed kan", "tsumo",
  "ron", "pass", "nine terminals", "dora"
};

const char *mj_act_name(int type) {
  return type >= 0 && type < MJ_ACT_TYPES ? act_names[type] : "?";
}

void mj_log_where(const mj_log *log, const mj_log_error *e, char *buf,
                  size_t size) {
  if (e->round < 0 || e->round >= log->nrounds) {
    snprintf(buf, size, "the game");
    return;
  }
  const mj_log_round *lr = &log->rounds[e->round];
  char name[4];
  mj_round_name(lr->round, name);
  if (e->event < 0 || e->event >= lr->nevents) {
    snprintf(buf, size, "round %s-%d", name, lr->honba);
    return;
  }
  const mj_act *a = &log->events[lr->first_event + e->event].act;
  snprintf(buf, size, "round %s-%d, step %d (%s by seat %d)", name, lr->honba,
           e->event + 1, mj_act_name(a->type), a->seat);
}

static bool stop(mj_replay *out, int round, int event, const char *fmt,
                 const char *what) {
  out->failed = true;
  out->error.round = round;
  out->error.event = event;
  snprintf(out->error.text, sizeof out->error.text, fmt, what);
  return false;
}

bool mj_replay_log(const mj_log *log, mj_replay *out, mj_replay_hook hook,
                   void *data) {
  memset(out, 0, sizeof *out);
  out->error.round = out->error.event = -1;
  mj_game_init(&out->game, &log->rules);
  mj_round r;
  for (int ri = 0; ri < log->nrounds; ri++) {
    const mj_log_round *lr = &log->rounds[ri];
    mj_game *g = &out->game;
    if (ri > 0) {
      if (g->over) note(out, ri, -1, "ludus ended the game before this round");
      same(out, ri, -1, "round", g->round, lr->round);
      same(out, ri, -1, "honba", g->honba, lr->honba);
      same(out, ri, -1, "riichi sticks", g->sticks, lr->sticks);
      same_deltas(out, ri, -1, "scores at the start", g->scores, lr->scores);
    }
    /* go on from what the log says, so that one difference is one note */
    g->round = lr->round;
    g->honba = lr->honba;
    g->sticks = lr->sticks;
    g->over = false;
    memcpy(g->scores, lr->scores, sizeof g->scores);
    mj_round_setup setup;
    mj_game_setup(g, &setup);
    mj_round_start(&r, &log->rules, &setup);
    for (int s = 0; s < 4; s++) {
      mj_round_status st = mj_round_deal(&r, s, lr->hands[s]);
      if (st != MJ_ROUND_OK)
        return stop(out, ri, -1, "the deal: %s", mj_round_status_text(st));
    }
    mj_round_status st = mj_round_reveal_first(&r, lr->dora);
    if (st != MJ_ROUND_OK)
      return stop(out, ri, -1, "the dora indicator: %s", mj_round_status_text(st));
    if (hook) hook(data, log, ri, -1, &r);
    int kan_dora = 0;
    for (int ei = 0; ei < lr->nevents; ei++) {
      const mj_log_event *e = &log->events[lr->first_event + ei];
      mj_act a = e->act;
      const mj_log_result *res = e->result >= 0 ? &log->results[e->result] : NULL;
      if (res && res->nura && (a.type == MJ_ACT_RON || a.type == MJ_ACT_TSUMO)) {
        st = mj_round_set_ura(&r, res->ura, res->nura);
        if (st != MJ_ROUND_OK)
          return stop(out, ri, ei, "the ura indicators: %s", mj_round_status_text(st));
      }
      if (a.type == MJ_ACT_NINE_TERMINALS) a.seat = (uint8_t)r.turn;
      st = play(&r, &a, lr, &kan_dora);
      if (st != MJ_ROUND_OK) return stop(out, ri, ei, "%s", mj_round_status_text(st));
      if (hook) hook(data, log, ri, ei, &r);
      if (!res) continue;
      if (res->end == MJ_END_WIN) check_win(out, ri, ei, &r, res);
      else check_draw(out, ri, ei, &r, res);
    }
    if (r.phase != MJ_PHASE_OVER) return stop(out, ri, -1, "%s", "the round does not end");
    out->rounds++;
    mj_game_next(&out->game, &r);
  }
  mj_game_final(&out->game, out->scores, out->place, out->points);
  if (log->has_final) {
    out->checks++;
    if (!out->game.over) note(out, log->nrounds - 1, -1, "the game goes on after its last round");
    same_deltas(out, -1, -1, "final scores", out->scores, log->final_scores);
    same_deltas(out, -1, -1, "final points (tenths)", out->points, log->final_points);
  }
  return true;
}
