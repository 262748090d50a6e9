/*
** record.c: a table's record written as tenhou.net/6 JSON (table.h), the
** form Tenhou's viewer opens and tenhou.c reads.  Each round is played
** again from its wall and steps, and written as Tenhou writes one: the
** round, honba and sticks, the scores, the dora and ura indicators, then
** for each seat its 13 tiles dealt, what it took (draws, and calls as
** "c123456", "p414141", "m41414141") and what it gave (discards, 60 for
** the tile just drawn, "r" before a riichi discard, 0 after an open kan,
** "k" and "a" for the kans from the hand), and the result.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mahjong/table.h"
#include "mahjong/tenhou.h"

typedef struct buffer {
  char *text;
  size_t len, cap;
  bool failed;
} buffer;

static void put(buffer *b, const char *fmt, ...) {
  if (b->failed) return;
  for (;;) {
    va_list args;
    va_start(args, fmt);
    /* no buffer yet: only the length is wanted (NULL + 0 is undefined) */
    int n = vsnprintf(b->text ? b->text + b->len : NULL, b->cap - b->len, fmt, args);
    va_end(args);
    if (n < 0) {
      b->failed = true;
      return;
    }
    if (b->len + (size_t)n < b->cap) {
      b->len += (size_t)n;
      return;
    }
    size_t cap = 2 * b->cap + (size_t)n + 1;
    char *more = realloc(b->text, cap);
    if (!more) {
      b->failed = true;
      return;
    }
    b->text = more;
    b->cap = cap;
  }
}

/* A JSON string, escaped. */
static void put_string(buffer *b, const char *s) {
  put(b, "\"");
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') put(b, "\\%c", c);
    else if (c < 0x20) put(b, "\\u%04x", c);
    else put(b, "%c", c);
  }
  put(b, "\"");
}

/* Tenhou's code of a tile: 11..19 man, 21..29 pin, 31..39 sou, 41..47
   honors, 51..53 the red fives. */
static int code(const mj_round *r, int tile) {
  int k = mj_tile_kind(tile);
  if (mj_round_red(r, tile)) return 51 + k / 9;
  return k < MJ_HONORS ? 10 * (k / 9 + 1) + k % 9 + 1 : 41 + k - MJ_HONORS;
}

/* A seat's list: JSON values as text. */
#define MAX_ITEMS 96

typedef struct items {
  char item[MAX_ITEMS][24];
  int n;
} items;

static void item(items *list, const char *fmt, ...) {
  if (list->n == MAX_ITEMS) return;
  va_list args;
  va_start(args, fmt);
  vsnprintf(list->item[list->n++], sizeof list->item[0], fmt, args);
  va_end(args);
}

/* Where a called tile goes among the others, by the seat it came from
   (1 the next seat, 2 across, 3 the seat before). */
static int group_of(int from, bool kan) {
  if (from == 3) return 0;
  if (from == 2) return 1;
  return kan ? 3 : 2;
}

/* "p414141", "4141m4141": the hand codes with the letter and the called
   code put at its group. */
static void call_text(char *out, size_t size, char letter, int called,
                      const int *hand, int n, int group) {
  size_t at = 0;
  for (int i = 0; i <= n; i++) {
    if (i == group)
      at += (size_t)snprintf(out + at, size - at, "%c%d", letter, called);
    if (i < n) at += (size_t)snprintf(out + at, size - at, "%d", hand[i]);
    if (at >= size) return;
  }
}

static void write_win(buffer *b, const mj_round *r, const mj_round_win *w) {
  static const char *const limits[] = {"", "満貫", "跳満", "倍満", "三倍満",
                                       "役満", "役満"};
  const mj_score *sc = &w->score;
  int honba = 100 * r->honba;
  put(b, ",[%d,%d,%d,%d],[%d,%d,%d,", w->deltas[0], w->deltas[1],
      w->deltas[2], w->deltas[3], w->who, w->from, w->pao >= 0 ? w->pao : w->who);
  put(b, "\"");
  if (sc->limit > MJ_NO_LIMIT && sc->limit <= MJ_KAZOE_YAKUMAN) put(b, "%s", limits[sc->limit]);
  else put(b, "%d符%d飜", sc->fu, sc->han);
  if (w->from != w->who) put(b, "%d点", sc->ron - 3 * honba);
  else if (sc->dealer) put(b, "%d点∀", sc->tsumo_all - honba);
  else put(b, "%d-%d点", sc->tsumo_other - honba, sc->tsumo_dealer - honba);
  put(b, "\"");
  int seat_wind = mj_round_seat_wind(r, w->who), wind = mj_round_wind(r);
  for (int i = 0; i < sc->nyaku; i++) {
    int id = mj_tenhou_yaku(sc->yaku[i].yaku, seat_wind, wind);
    if (id < 0) continue;
    if (sc->limit == MJ_YAKUMAN) put(b, ",\"%s(役満)\"", mj_tenhou_yaku_name(id));
    else put(b, ",\"%s(%d飜)\"", mj_tenhou_yaku_name(id), sc->yaku[i].han);
  }
  put(b, "]");
}

static void write_result(buffer *b, const mj_round *r) {
  const mj_round_result *res = &r->result;
  const int *d = res->deltas;
  switch (res->end) {
  case MJ_END_WIN:
    put(b, "[\"和了\"");
    for (int i = 0; i < res->nwins; i++) write_win(b, r, &res->win[i]);
    put(b, "]");
    return;
  case MJ_END_EXHAUSTED: {
    int ready = 0;
    for (int s = 0; s < MJ_SEATS; s++) ready += res->tenpai[s];
    if (res->nagashi) put(b, "[\"流し満貫\",[%d,%d,%d,%d]]", d[0], d[1], d[2], d[3]);
    else if (ready == 4) put(b, "[\"全員聴牌\"]");
    else if (ready == 0) put(b, "[\"全員不聴\"]");
    else put(b, "[\"流局\",[%d,%d,%d,%d]]", d[0], d[1], d[2], d[3]);
    return;
  }
  case MJ_END_NINE_TERMINALS: put(b, "[\"九種九牌\"]"); return;
  case MJ_END_FOUR_RIICHI: put(b, "[\"四家立直\"]"); return;
  case MJ_END_FOUR_WINDS: put(b, "[\"四風連打\"]"); return;
  case MJ_END_FOUR_KANS: put(b, "[\"四槓散了\"]"); return;
  default: put(b, "[\"三家和了\"]"); return;
  }
}

static void put_items(buffer *b, const items *list) {
  put(b, ",[");
  for (int i = 0; i < list->n; i++) put(b, "%s%s", i ? "," : "", list->item[i]);
  put(b, "]");
}

typedef struct writer {
  mj_round round;
  items took[MJ_SEATS], gave[MJ_SEATS];
} writer;

/* One round: played again from its wall, written as it goes. */
static bool write_round(buffer *b, const mj_record *rec, const mj_record_round *rr,
                        writer *w) {
  mj_round *r = &w->round;
  items *took = w->took, *gave = w->gave;
  mj_round_setup setup = rr->setup;
  setup.wall = rr->wall;
  mj_round_start(r, &rec->rules, &setup);
  int dealt[MJ_SEATS][13];
  for (int s = 0; s < MJ_SEATS; s++) {
    int n = 0;
    for (int t = 0; t < MJ_TILES; t++)
      if (r->where[t] == (MJ_AT_HAND | s << 4)) dealt[s][n++] = code(r, t);
  }
  for (int s = 0; s < MJ_SEATS; s++) took[s].n = gave[s].n = 0;
  for (int i = 0; i < rr->nacts; i++) {
    const mj_act *a = &rec->acts[rr->first_act + i];
    int s = a->seat;
    const mj_round_seat *seat = &r->seat[s];
    int from = (r->turn - s + MJ_SEATS) % MJ_SEATS;
    int hand[4], n = a->type == MJ_ACT_KAN ? 3 : 2;
    char text[24];
    switch (a->type) {
    case MJ_ACT_DRAW:
      item(&took[s], "%d", code(r, a->tile));
      break;
    case MJ_ACT_DISCARD:
      if (a->tile == seat->drawn) item(&gave[s], a->riichi ? "\"r60\"" : "60");
      else item(&gave[s], a->riichi ? "\"r%d\"" : "%d", code(r, a->tile));
      break;
    case MJ_ACT_CHI: case MJ_ACT_PON: case MJ_ACT_KAN:
      for (int j = 0; j < n; j++) hand[j] = code(r, a->tiles[j]);
      call_text(text, sizeof text, a->type == MJ_ACT_CHI ? 'c'
                : a->type == MJ_ACT_PON ? 'p' : 'm', code(r, a->tile), hand, n,
                a->type == MJ_ACT_CHI ? 0 : group_of(from, a->type == MJ_ACT_KAN));
      item(&took[s], "\"%s\"", text);
      if (a->type == MJ_ACT_KAN) item(&gave[s], "0");
      break;
    case MJ_ACT_KAKAN: {
      int k = mj_tile_kind(a->tile);
      const mj_round_meld *m = seat->meld;
      while (!(m->kind == MJ_PON && mj_tile_kind(m->tiles[0]) == k)) m++;
      for (int j = 0; j < 3; j++) hand[j] = code(r, m->tiles[j]);
      call_text(text, sizeof text, 'k', code(r, a->tile), hand, 3,
                group_of((m->from - s + MJ_SEATS) % MJ_SEATS, false));
      item(&gave[s], "\"%s\"", text);
      break;
    }
    case MJ_ACT_ANKAN:
      for (int j = 0; j < 4; j++) hand[j] = code(r, a->tiles[j]);
      call_text(text, sizeof text, 'a', hand[3], hand, 3, 3);
      item(&gave[s], "\"%s\"", text);
      break;
    default:
      break;
    }
    if (mj_round_play(r, a) != MJ_ROUND_OK) return false;
  }
  if (r->phase != MJ_PHASE_OVER) return false;
  put(b, "%s[[%d,%d,%d],[%d,%d,%d,%d],[", rr == rec->rounds ? "" : ",",
      setup.round, setup.honba, setup.sticks, setup.scores[0], setup.scores[1],
      setup.scores[2], setup.scores[3]);
  for (int i = 0; i < r->ndora; i++) put(b, "%s%d", i ? "," : "", code(r, r->dora[i]));
  put(b, "],[");
  bool riichi = false;
  for (int i = 0; i < r->result.nwins; i++)
    riichi |= r->seat[r->result.win[i].who].riichi;
  for (int i = 0; riichi && i < r->ndora; i++)
    put(b, "%s%d", i ? "," : "", code(r, r->ura[i]));
  put(b, "]");
  for (int s = 0; s < MJ_SEATS; s++) {
    put(b, ",[");
    for (int i = 0; i < 13; i++) put(b, "%s%d", i ? "," : "", dealt[s][i]);
    put(b, "]");
    put_items(b, &took[s]);
    put_items(b, &gave[s]);
  }
  put(b, ",");
  write_result(b, r);
  put(b, "]");
  return true;
}

/* The rules that are not Tenhou's, as "ludus":{"double_ron":false,
   "uma":[...], ...} in the rule object (Tenhou's viewer reads only its
   own keys there), so that the record replays under them. */
static void put_rules(buffer *b, const mj_round_rules *rules) {
  mj_round_rules ours = *rules, tenhou;
  mj_round_rules_default(&tenhou);
  bool any = false;
  for (int i = 0; mj_round_flag_name(i); i++) {
    const char *name = mj_round_flag_name(i);
    bool *mine = mj_round_rules_flag(&ours, name, strlen(name));
    bool *theirs = mj_round_rules_flag(&tenhou, name, strlen(name));
    if (*mine == *theirs) continue;
    put(b, "%s\"%s\":%s", any ? "," : ",\"ludus\":{", name, *mine ? "true" : "false");
    any = true;
  }
  static const char *const numbers[] = {"start_points", "target"};
  const int mine[] = {rules->start_points, rules->target};
  const int theirs[] = {tenhou.start_points, tenhou.target};
  for (int i = 0; i < 2; i++) {
    if (mine[i] == theirs[i]) continue;
    put(b, "%s\"%s\":%d", any ? "," : ",\"ludus\":{", numbers[i], mine[i]);
    any = true;
  }
  if (memcmp(rules->uma, tenhou.uma, sizeof tenhou.uma)) {
    put(b, "%s\"uma\":[%d,%d,%d,%d]", any ? "," : ",\"ludus\":{", rules->uma[0],
        rules->uma[1], rules->uma[2], rules->uma[3]);
    any = true;
  }
  if (any) put(b, "}");
}

char *mj_record_json(const mj_record *rec, const char *const names[MJ_SEATS],
                     size_t *len) {
  buffer b = {NULL, 0, 0, false};
  writer *w = malloc(sizeof *w);
  if (!w) return NULL;
  put(&b, "{\"title\":[\"ludus\",\"\"],\"name\":[");
  for (int s = 0; s < MJ_SEATS; s++) {
    char fallback[24];
    snprintf(fallback, sizeof fallback, "seat %d", s);
    if (s) put(&b, ",");
    put_string(&b, names && names[s] ? names[s] : fallback);
  }
  const uint8_t *red = rec->rules.red;
  put(&b, "],\"rule\":{\"disp\":\"般%s%s%s\",", rec->rules.length == 1 ? "東" : "南",
      rec->rules.score.kuitan ? "喰" : "", red[0] || red[1] || red[2] ? "赤" : "");
  if (red[0] == red[1] && red[1] == red[2]) put(&b, "\"aka\":%d", red[0] ? 1 : 0);
  else put(&b, "\"aka51\":%d,\"aka52\":%d,\"aka53\":%d", red[0], red[1], red[2]);
  put_rules(&b, &rec->rules);
  put(&b, "},");
  put(&b, "\"log\":[");
  bool ok = true;
  for (int i = 0; i < rec->nrounds && ok; i++) ok = write_round(&b, rec, &rec->rounds[i], w);
  put(&b, "]");
  if (rec->over) {
    put(&b, ",\"sc\":[");
    for (int s = 0; s < MJ_SEATS; s++) {
      int p = rec->points[s];
      put(&b, "%s%d,%s%d.%d", s ? "," : "", rec->scores[s], p < 0 ? "-" : "",
          abs(p) / 10, abs(p) % 10);
    }
    put(&b, "]");
  }
  put(&b, "}\n");
  free(w);
  if (!ok || b.failed) {
    free(b.text);
    return NULL;
  }
  *len = b.len;
  return b.text;
}
