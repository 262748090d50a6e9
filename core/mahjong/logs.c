/*
** logs.c: the batch tasks on Tenhou's logs (core/base/batch.h): `ludus
** replay mahjong` replays each game and says whether every result and
** score agrees with the log; `ludus annotate mahjong` marks each discard
** against the one that keeps the fewest shanten and the most tiles
** accepted (mj_discards).  A record is one game (mj_log_next).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "mahjong/tenhou.h"

static bool sniff_log(const char *data, size_t len) {
  return mj_log_sniff(data, len) >= 0;
}

static bool next_game(const char *data, size_t len, size_t *at,
                      batch_record *r) {
  size_t start, end;
  if (!mj_log_next(data, len, at, &start, &end)) return false;
  r->text = data + start;
  r->len = end - start;
  r->line = 1;
  for (size_t i = 0; i < start; i++) r->line += data[i] == '\n';
  r->number++;
  return true;
}

static const batch_format mj_format_tenhou = {
  .name = "tenhou", .extensions = ".mjlog .xml .json", .numbered = true,
  .sniff = sniff_log, .next = next_game,
};

static const batch_format *const log_formats[] = {&mj_format_tenhou, NULL};

/* What a worker keeps: the log's memory from one game to the next. */
static void *logs_start(const batch_options *o) {
  (void)o;
  mj_log *log = malloc(sizeof *log);
  if (log) mj_log_init(log);
  return log;
}

static void logs_finish(void *worker) {
  mj_log_free(worker);
  free(worker);
}

static void ints(json_out *out, const int *v, int n) {
  json_begin_array(out);
  for (int i = 0; i < n; i++) json_int(out, v[i]);
  json_end_array(out);
}

static bool read_game(mj_log *log, const batch_record *r, json_out *out) {
  mj_log_error err;
  if (mj_log_read(log, r->text, r->len, &err)) return true;
  char where[120];
  mj_log_where(log, &err, where, sizeof where);
  batch_error(out, "%s: %s", where, err.text);
  return false;
}

static batch_verdict replayed(mj_log *log, mj_replay *rp, json_out *out,
                              mj_replay_hook hook, void *data) {
  if (!mj_replay_log(log, rp, hook, data)) {
    char where[120];
    mj_log_where(log, &rp->error, where, sizeof where);
    batch_error(out, "%s: %s", where, rp->error.text);
    return BATCH_ERROR;
  }
  JSON_KEY(out, "rounds");
  json_int(out, rp->rounds);
  JSON_KEY(out, "wins");
  json_int(out, rp->wins);
  JSON_KEY(out, "draws");
  json_int(out, rp->draws);
  JSON_KEY(out, "scores");
  ints(out, rp->scores, MJ_SEATS);
  JSON_KEY(out, "points");
  ints(out, rp->points, MJ_SEATS);
  JSON_KEY(out, "checks");
  json_int(out, rp->checks);
  JSON_KEY(out, "disagreements");
  json_begin_array(out);
  for (int i = 0; i < rp->nnotes; i++) {
    char where[120], text[400];
    mj_log_where(log, &rp->notes[i], where, sizeof where);
    snprintf(text, sizeof text, "%s: %s", where, rp->notes[i].text);
    json_cstring(out, text);
  }
  json_end_array(out);
  JSON_KEY(out, "agrees");
  json_bool(out, rp->disagreements == 0);
  return rp->disagreements ? BATCH_DISAGREES : BATCH_AGREES;
}

static batch_verdict replay_run(void *worker, const batch_format *format,
                                const batch_record *r, const batch_options *o,
                                json_out *out, uint64_t *nodes) {
  (void)format;
  (void)o;
  mj_log *log = worker;
  if (!read_game(log, r, out)) return BATCH_ERROR;
  mj_replay rp;
  batch_verdict v = replayed(log, &rp, out, NULL, NULL);
  *nodes = (uint64_t)log->nevents;
  return v;
}

const batch_task mj_batch_replay = {
  .game = "mahjong", .command = "replay",
  .summary = "Tenhou's games (mjlog or tenhou.net/6 JSON) replayed: rounds, "
             "final scores and points; agrees when every win, score change "
             "and final score is the log's",
  .formats = log_formats, .start = logs_start, .finish = logs_finish,
  .run = replay_run, .options = "",
};

/* ---- annotate ---- */

typedef struct annotation {
  json_out *out;
  mj_tiles before[MJ_SEATS];   /* each seat's hand after its last step */
  int discards[MJ_SEATS], best[MJ_SEATS], slower[MJ_SEATS], worse[MJ_SEATS];
  int shown;                   /* the discards written, at most MAX_SHOWN */
} annotation;

#define MAX_SHOWN 400

static void annotate_step(void *data, const mj_log *log, int round, int event,
                          const mj_round *r) {
  annotation *a = data;
  if (event >= 0) {
    const mj_log_round *lr = &log->rounds[round];
    const mj_act *act = &log->events[lr->first_event + event].act;
    int s = act->seat;
    const mj_tiles *h = &a->before[s];
    if (act->type == MJ_ACT_DISCARD && h->n % 3 == 2 && !r->seat[s].riichi) {
      mj_discard options[MJ_KINDS];
      int n = mj_discards(h->count, h->n, options);
      int k = mj_tile_kind(act->tile), mine = -1;
      for (int i = 0; i < n; i++)
        if (options[i].tile == k) mine = i;
      if (n > 0 && mine >= 0) {
        const mj_discard *best = &options[0], *got = &options[mine];
        a->discards[s]++;
        bool worse = got->shanten > best->shanten;
        bool slower = !worse && got->unseen < best->unseen;
        a->worse[s] += worse;
        a->slower[s] += slower;
        a->best[s] += !worse && !slower;
        if ((worse || slower) && a->shown < MAX_SHOWN) {
          json_out *out = a->out;
          char name[4], text[64], tile[3];
          a->shown++;
          json_begin_object(out);
          mj_round_name(lr->round, name);
          snprintf(text, sizeof text, "%s-%d", name, lr->honba);
          JSON_KEY(out, "round");
          json_cstring(out, text);
          JSON_KEY(out, "step");
          json_int(out, event + 1);
          JSON_KEY(out, "seat");
          json_int(out, s);
          mj_format(h, text, sizeof text);
          JSON_KEY(out, "hand");
          json_cstring(out, text);
          mj_tile_name(k, false, tile);
          JSON_KEY(out, "discard");
          json_cstring(out, tile);
          JSON_KEY(out, "shanten");
          json_int(out, got->shanten);
          JSON_KEY(out, "accepted");
          json_int(out, got->unseen);
          mj_tile_name(best->tile, false, tile);
          JSON_KEY(out, "best");
          json_cstring(out, tile);
          JSON_KEY(out, "best_shanten");
          json_int(out, best->shanten);
          JSON_KEY(out, "best_accepted");
          json_int(out, best->unseen);
          json_end_object(out);
        }
      }
    }
  }
  for (int s = 0; s < MJ_SEATS; s++) a->before[s] = r->seat[s].hand;
}

static batch_verdict annotate_run(void *worker, const batch_format *format,
                                  const batch_record *r, const batch_options *o,
                                  json_out *out, uint64_t *nodes) {
  (void)format;
  (void)o;
  mj_log *log = worker;
  if (!read_game(log, r, out)) return BATCH_ERROR;
  annotation *a = calloc(1, sizeof *a);
  if (!a) {
    batch_error(out, "not enough memory");
    return BATCH_ERROR;
  }
  a->out = out;
  JSON_KEY(out, "marked");
  json_begin_array(out);
  mj_replay rp;
  bool ok = mj_replay_log(log, &rp, annotate_step, a);
  json_end_array(out);
  batch_verdict v;
  if (!ok) {
    char where[120];
    mj_log_where(log, &rp.error, where, sizeof where);
    batch_error(out, "%s: %s", where, rp.error.text);
    v = BATCH_ERROR;
  } else {
    JSON_KEY(out, "discards");
    ints(out, a->discards, MJ_SEATS);
    JSON_KEY(out, "best");
    ints(out, a->best, MJ_SEATS);
    JSON_KEY(out, "slower");
    ints(out, a->slower, MJ_SEATS);
    JSON_KEY(out, "worse");
    ints(out, a->worse, MJ_SEATS);
    JSON_KEY(out, "scores");
    ints(out, rp.scores, MJ_SEATS);
    v = BATCH_DONE;
  }
  *nodes = (uint64_t)log->nevents;
  free(a);
  return v;
}

const batch_task mj_batch_annotate = {
  .game = "mahjong", .command = "annotate",
  .summary = "Tenhou's games replayed, each discard marked against the one "
             "that keeps the fewest shanten and the most tiles accepted "
             "(mahjong.discards): best, slower or worse, per seat",
  .formats = log_formats, .start = logs_start, .finish = logs_finish,
  .run = annotate_run, .options = "",
};
