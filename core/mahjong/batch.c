/*
** batch.c: mahjong for the batch tools (core/base/batch.h): a winning
** hand a line with its context, in words or in JSON (context.c).
**
**   solve   the score, as mahjong.score gives it (han, fu, yakuman,
**           limit, points, yaku, win; with --all, or when it disagrees,
**           the rest of the sheet: Japanese names, wait, dealer, basic
**           points, decomposition, fu details), or why there is none;
**           and when the line is a reference record ({"request": ...,
**           "expect": ...}, as score.jsonl has them), whether ludus
**           agrees with it
**
** The expected answers are the Python mahjong library's: "cost" holds
** the payments, and a refusal is one of its error codes.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/batch.h"
#include "mahjong.h"

/* ---- formats ---- */

/* Whether the first line that is not a comment or blank is a JSON
   object. */
static bool sniff_jsonl(const char *data, size_t len) {
  size_t at = 0;
  batch_record r = {0};
  while (batch_next_line(data, len, &at, &r)) {
    size_t i = 0;
    while (i < r.len && (r.text[i] == ' ' || r.text[i] == '\t')) i++;
    if (i < r.len) return r.text[i] == '{';
  }
  return false;
}

static const batch_format mj_format_hands = {
  .name = "hands", .extensions = ".txt", .numbered = false, .sniff = NULL,
  .next = batch_next_line,
};

static const batch_format mj_format_jsonl = {
  .name = "jsonl", .extensions = ".jsonl .json", .numbered = false,
  .sniff = sniff_jsonl, .next = batch_next_line,
};

static const batch_format *const formats[] = {&mj_format_hands,
                                              &mj_format_jsonl, NULL};

/* ---- what ludus says of a hand ---- */

/* What a line shows of the record's own id at most. */
#define MAX_ID 200

typedef enum outcome_kind { SCORED, REFUSED, BAD_HAND } outcome_kind;

typedef struct outcome {
  outcome_kind kind;
  mj_status status;           /* REFUSED */
  mj_error error;             /* BAD_HAND: why the hand did not read */
  mj_parse_error where;
  int fifth;                  /* the kind held five times, or -1 */
  char message[MJ_MESSAGE];
} outcome;

/* Scores the request; the hand, once it reads, goes to out. */
static void score(const mj_request *req, mj_score *s, outcome *o,
                  json_out *out) {
  mj_tiles hand;
  o->fifth = -1;
  o->error = mj_parse(req->hand, req->hand_len, &hand, &o->where);
  if (o->error == MJ_OK) {          /* digits, suits and spaces only */
    json_key(out, "hand");
    json_string(out, req->hand, req->hand_len);
  } else {
    o->kind = BAD_HAND;
    if (o->error == MJ_EFIFTH) o->fifth = o->where.kind;
    mj_parse_message(req->hand, req->hand_len, o->error, &o->where, o->message);
    return;
  }
  o->status = mj_score_hand(&hand, &req->ctx, s);
  o->kind = o->status == MJ_SCORED ? SCORED : REFUSED;
  if (o->kind == SCORED) return;
  mj_status_message(o->status, &hand, &req->ctx, o->message);
  if (o->status == MJ_FIFTH_TILE) {
    for (int i = 0; i < req->ctx.nmelds; i++)
      mj_meld_tiles(&req->ctx.meld[i], &hand);
    for (int k = 0; k < MJ_KINDS && o->fifth < 0; k++)
      if (hand.count[k] > 4) o->fifth = k;
  }
}

/* ---- writing a score, as push_score in bindings/lmahjong.c ---- */

static void write_tile(json_out *out, int kind) {
  char name[3];
  mj_tile_name(kind, false, name);
  json_string(out, name, 2);
}

static const char *const meld_prefix[] = {"chi:", "pon:", "kan:", "ankan:"};

static void write_reading(json_out *out, const mj_reading *r,
                          const mj_context *ctx) {
  json_begin_object(out);
  if (r->form == MJ_KOKUSHI) {
    json_key(out, "form");
    json_cstring(out, "kokushi");
  } else if (r->form == MJ_CHIITOITSU) {
    json_key(out, "form");
    json_cstring(out, "chiitoitsu");
    json_key(out, "pairs");
    json_begin_array(out);
    for (int i = 0; i < r->n; i++) write_tile(out, r->group[i].tile);
    json_end_array(out);
  } else {
    json_key(out, "pair");
    write_tile(out, r->pair);
    json_key(out, "melds");
    json_begin_array(out);
    char text[16];
    for (int i = 0; i < r->n; i++) {       /* "234m", "555z" */
      int tile = r->group[i].tile;
      bool run = r->group[i].kind == MJ_SEQUENCE;
      for (int k = 0; k < 3; k++) text[k] = (char)('0' + MJ_NUMBER(tile) + run * k);
      text[3] = "mpsz"[MJ_SUIT(tile)];
      json_string(out, text, 4);
    }
    for (int i = 0; i < ctx->nmelds; i++) {
      const mj_meld *m = &ctx->meld[i];
      size_t n = strlen(meld_prefix[m->kind]);
      memcpy(text, meld_prefix[m->kind], n);
      n += (size_t)mj_meld_text(m, text + n, sizeof text - n);
      json_string(out, text, n);
    }
    json_end_array(out);
  }
  json_end_object(out);
}

/* The score: what a line always has, then with `sheet` the rest of
   mahjong.score's result. */
static void write_score(json_out *out, const mj_score *s, const mj_context *ctx,
                        bool sheet) {
  json_key(out, "han");
  json_int(out, s->han);
  json_key(out, "fu");
  json_int(out, s->fu);
  json_key(out, "yakuman");
  json_int(out, s->yakuman);
  json_key(out, "limit");
  const char *limit = mj_limit_name(s->limit);
  if (limit) json_cstring(out, limit);
  else json_null(out);
  json_key(out, "points");
  json_begin_object(out);
  if (!s->tsumo) {
    json_key(out, "ron");
    json_int(out, s->ron);
  } else if (s->dealer) {
    json_key(out, "tsumo_all");
    json_int(out, s->tsumo_all);
  } else {
    json_key(out, "tsumo_dealer");
    json_int(out, s->tsumo_dealer);
    json_key(out, "tsumo_other");
    json_int(out, s->tsumo_other);
  }
  json_key(out, "total");
  json_int(out, s->total);
  json_end_object(out);
  json_key(out, "yaku");
  json_begin_array(out);
  for (int i = 0; i < s->nyaku; i++) {
    json_begin_object(out);
    json_key(out, "name");
    json_cstring(out, mj_yaku_name(s->yaku[i].yaku));
    if (sheet) {
      json_key(out, "name_ja");
      json_cstring(out, mj_yaku_name_ja(s->yaku[i].yaku));
    }
    json_key(out, "han");
    json_int(out, s->yaku[i].han);
    json_end_object(out);
  }
  json_end_array(out);
  json_key(out, "win");
  write_tile(out, s->win);
  if (!sheet) return;
  json_key(out, "wait");
  json_cstring(out, mj_wait_name(s->wait));
  json_key(out, "dealer");
  json_bool(out, s->dealer);
  json_key(out, "basic");
  json_int(out, s->basic);
  json_key(out, "decomposition");
  write_reading(out, &s->reading, ctx);
  json_key(out, "fu_details");
  json_begin_array(out);
  for (int i = 0; i < s->nfu; i++) {
    char reason[64];
    mj_fu_reason_text(&s->fu_item[i], s, reason, sizeof reason);
    json_begin_object(out);
    json_key(out, "fu");
    json_int(out, s->fu_item[i].fu);
    json_key(out, "reason");
    json_cstring(out, reason);
    json_end_object(out);
  }
  json_end_array(out);
}

/* ---- the expected answer of a reference record ---- */

/* The Python library's refusals, as ludus says them. */
static const struct { const char *code; mj_status status; } refusals[] = {
  {"no_yaku", MJ_NO_YAKU},
  {"hand_not_winning", MJ_NOT_WINNING},
  {"hand_not_correct", MJ_BAD_COUNT},
  {"winning_tile_not_in_hand", MJ_WIN_NOT_IN_HAND},
  {"open_hand_riichi_not_allowed", MJ_OPEN_RIICHI},
  {"open_hand_daburi_not_allowed", MJ_OPEN_RIICHI},
  {"ippatsu_without_riichi_not_allowed", MJ_IPPATSU_WITHOUT_RIICHI},
  {"chankan_with_tsumo_not_allowed", MJ_RON_ONLY},
  {"houtei_with_tsumo_not_allowed", MJ_RON_ONLY},
  {"rinshan_without_tsumo_not_allowed", MJ_TSUMO_ONLY},
  {"haitei_without_tsumo_not_allowed", MJ_TSUMO_ONLY},
  {"tenhou_without_tsumo_not_allowed", MJ_TSUMO_ONLY},
  {"chiihou_without_tsumo_not_allowed", MJ_TSUMO_ONLY},
  {"tenhou_not_as_dealer_not_allowed", MJ_TENHOU_NOT_DEALER},
  {"chiihou_as_dealer_not_allowed", MJ_TENHOU_NOT_DEALER},
  {"tenhou_with_meld_not_allowed", MJ_FIRST_TURN_OPEN},
  {"chiihou_with_meld_not_allowed", MJ_FIRST_TURN_OPEN},
};

#define FIFTH_CODE "more than 4 copies of "

typedef struct expected {
  bool ok;
  const json_value *han, *fu, *yaku, *cost;   /* ok: those given */
  const json_value *error;                    /* not ok: the code */
} expected;

/* (In range before the cast: a double past int64_t's is undefined.) */
static bool is_whole(const json_value *v) {
  return v && v->type == JSON_NUMBER && v->number > -1e15 &&
         v->number < 1e15 && v->number == (double)(int64_t)v->number;
}

/* Reads "expect"; false with the error written when it is not one. */
static bool read_expected(const json_value *v, expected *e, json_out *out) {
  memset(e, 0, sizeof *e);
  const json_value *ok = json_get(v, "ok");
  if (v->type != JSON_OBJECT || !ok ||
      (ok->type != JSON_TRUE && ok->type != JSON_FALSE)) {
    batch_error(out, "expect must be an object with \"ok\": true or false");
    return false;
  }
  e->ok = ok->type == JSON_TRUE;
  if (!e->ok) {
    e->error = json_get(v, "error");
    if (!e->error || e->error->type != JSON_STRING) {
      batch_error(out, "expect: \"ok\": false needs the \"error\" code");
      return false;
    }
    return true;
  }
  e->han = json_get(v, "han");
  e->fu = json_get(v, "fu");
  e->yaku = json_get(v, "yaku");
  e->cost = json_get(v, "cost");
  if ((e->han && !is_whole(e->han)) || (e->fu && !is_whole(e->fu))) {
    batch_error(out, "expect: han and fu must be whole numbers");
    return false;
  }
  if (e->yaku) {
    bool good = e->yaku->type == JSON_ARRAY;
    for (const json_value *y = good ? e->yaku->child : NULL; y; y = y->next) {
      const json_value *name = json_get(y, "name");
      good = y->type == JSON_OBJECT && name && name->type == JSON_STRING &&
             is_whole(json_get(y, "han"));
      if (!good) break;
    }
    if (!good) {
      batch_error(out, "expect: yaku must be a list of {\"name\": ..., "
                  "\"han\": ...}");
      return false;
    }
  }
  if (e->cost) {
    static const char *const keys[] = {"main", "additional", "main_bonus",
                                       "additional_bonus", "total"};
    bool good = e->cost->type == JSON_OBJECT;
    for (int i = 0; i < 5 && good; i++) {
      const json_value *c = json_get(e->cost, keys[i]);
      good = !c || is_whole(c);
    }
    if (!good) {
      batch_error(out, "expect: cost must hold whole numbers (main, "
                  "additional, main_bonus, additional_bonus, total)");
      return false;
    }
  }
  return true;
}

static int64_t cost_of(const json_value *cost, const char *key) {
  const json_value *v = json_get(cost, key);
  return v ? (int64_t)v->number : 0;
}

/* What differs, appended to a message of `size` bytes. */
typedef struct differences {
  char text[1024];
  size_t len;
} differences;

static void differ(differences *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void differ(differences *d, const char *fmt, ...) {
  if (d->len >= sizeof d->text - 1) return;
  if (d->len) d->len += (size_t)snprintf(d->text + d->len,
                                         sizeof d->text - d->len, "; ");
  if (d->len >= sizeof d->text - 1) return;
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(d->text + d->len, sizeof d->text - d->len, fmt, args);
  va_end(args);
  if (n > 0) d->len += (size_t)n;
  if (d->len > sizeof d->text - 1) d->len = sizeof d->text - 1;
}

static void compare_yaku(const mj_score *s, const json_value *list,
                         differences *d) {
  bool matched[24] = {false};
  char shown[48];
  for (const json_value *y = list->child; y; y = y->next) {
    const json_value *name = json_get(y, "name");
    int64_t han = (int64_t)json_get(y, "han")->number;
    int i = 0;
    while (i < s->nyaku && strcmp(mj_yaku_name(s->yaku[i].yaku), name->string))
      i++;
    if (i == s->nyaku) {
      /* a name given twice counts once, as in a set */
      bool again = false;
      for (const json_value *z = list->child; z != y && !again; z = z->next)
        again = strcmp(json_get(z, "name")->string, name->string) == 0;
      if (!again)
        differ(d, "no %s (expected %lld han)",
               mj_shown(name->string, name->len, 40, shown), (long long)han);
    } else {
      matched[i] = true;
      if (s->yaku[i].han != han)
        differ(d, "%s %d han, expected %lld", mj_yaku_name(s->yaku[i].yaku),
               s->yaku[i].han, (long long)han);
    }
  }
  for (int i = 0; i < s->nyaku; i++)
    if (!matched[i])
      differ(d, "%s %d han, not expected", mj_yaku_name(s->yaku[i].yaku),
             s->yaku[i].han);
}

static void compare_points(const mj_score *s, const json_value *cost,
                           differences *d) {
  int64_t main = cost_of(cost, "main") + cost_of(cost, "main_bonus");
  int64_t other = cost_of(cost, "additional") + cost_of(cost, "additional_bonus");
  int64_t total = cost_of(cost, "total");
  if (!s->tsumo && s->ron != main)
    differ(d, "ron %d, expected %lld", s->ron, (long long)main);
  if (s->tsumo && s->dealer && s->tsumo_all != main)
    differ(d, "tsumo %d all, expected %lld", s->tsumo_all, (long long)main);
  if (s->tsumo && !s->dealer && (s->tsumo_dealer != main || s->tsumo_other != other))
    differ(d, "tsumo %d/%d, expected %lld/%lld", s->tsumo_other,
           s->tsumo_dealer, (long long)other, (long long)main);
  if (json_get(cost, "total") && s->total != total)
    differ(d, "total %d, expected %lld", s->total, (long long)total);
}

/* Whether ludus refused as the code says. */
static bool same_refusal(const outcome *o, const json_value *code) {
  size_t n = strlen(FIFTH_CODE);
  if (code->len == n + 2 && memcmp(code->string, FIFTH_CODE, n) == 0) {
    bool red;
    int kind = mj_tile_from_name(code->string + n, 2, &red);
    return kind >= 0 && o->fifth == kind;
  }
  if (o->kind != REFUSED) return false;
  for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++)
    if (strlen(refusals[i].code) == code->len &&
        memcmp(refusals[i].code, code->string, code->len) == 0)
      return o->status == refusals[i].status;
  return false;
}

static bool compare(const outcome *o, const mj_score *s, const expected *e,
                    differences *d) {
  char shown[48];
  if (!e->ok) {
    if (same_refusal(o, e->error)) return true;
    const char *code = mj_shown(e->error->string, e->error->len, 40, shown);
    if (o->kind == SCORED)
      differ(d, "scored %d han %d fu, expected the error %s", s->han, s->fu,
             code);
    else
      differ(d, "%s, expected the error %s", o->message, code);
    return false;
  }
  if (o->kind != SCORED) {
    differ(d, "%s, expected a score", o->message);
    return false;
  }
  if (e->han && s->han != (int64_t)e->han->number)
    differ(d, "han %d, expected %lld", s->han, (long long)e->han->number);
  if (e->fu && s->fu != (int64_t)e->fu->number)
    differ(d, "fu %d, expected %lld", s->fu, (long long)e->fu->number);
  if (e->yaku) compare_yaku(s, e->yaku, d);
  if (e->cost) compare_points(s, e->cost, d);
  return d->len == 0;
}

/* ---- solve ---- */

static batch_verdict solve_run(void *unused, const batch_format *format,
                               const batch_record *r, const batch_options *o,
                               json_out *out, uint64_t *nodes) {
  (void)unused;
  *nodes = 0;
  if (batch_blank(r, out)) return BATCH_ERROR;
  size_t first = 0;
  while (first < r->len && (r->text[first] == ' ' || r->text[first] == '\t'))
    first++;
  bool json = format == &mj_format_jsonl || r->text[first] == '{';
  mj_request req;
  char message[MJ_MESSAGE];
  json_value *record = NULL;
  const json_value *expect = NULL;
  batch_verdict verdict = BATCH_ERROR;
  if (json) {
    size_t at = 0;
    record = json_parse(r->text, r->len, &at);
    if (!record) {
      if (at >= r->len)
        batch_error(out, "not JSON (it ends too soon)");
      else
        batch_error(out, "not JSON (at byte %zu: %s)", at + 1,
                    batch_shown(r->text + at, r->len - at));
      return BATCH_ERROR;
    }
    if (!mj_read_json(record, &req, message)) {
      batch_error(out, "%s", message);
      goto done;
    }
    const json_value *request = json_get(record, "request");
    const json_value *id = json_get(request ? request : record, "id");
    expect = request ? json_get(record, "expect") : NULL;
    if (id && (id->type == JSON_STRING || id->type == JSON_NUMBER)) {
      json_key(out, "request_id");
      char shown[MAX_ID + 4];
      if (id->type == JSON_STRING)
        json_cstring(out, mj_shown(id->string, id->len, MAX_ID, shown));
      else
        json_number(out, id->number);
    }
  } else if (!mj_read_words(r->text, r->len, &req, message)) {
    batch_error(out, "%s", message);
    return BATCH_ERROR;
  }
  expected e;
  if (expect && !read_expected(expect, &e, out)) goto done;
  mj_score s;
  outcome result;
  score(&req, &s, &result, out);
  differences d;
  d.len = 0;
  d.text[0] = '\0';
  bool agrees = expect && compare(&result, &s, &e, &d);
  if (result.kind == SCORED) {
    /* a line that disagrees has what it takes to see why */
    write_score(out, &s, &req.ctx, o->all || (expect && !agrees));
    verdict = BATCH_DONE;
  } else if (result.kind == REFUSED && (result.status == MJ_NO_YAKU ||
                                        result.status == MJ_NOT_WINNING)) {
    json_key(out, "no_score");
    json_cstring(out, result.message);
    verdict = BATCH_DONE;
  } else {
    batch_error(out, "%s", result.message);
  }
  if (expect) {
    json_key(out, "agrees");
    json_bool(out, agrees);
    if (!agrees) {
      json_key(out, "mismatch");
      json_string(out, d.text, d.len);
    }
    verdict = agrees ? BATCH_AGREES : BATCH_DISAGREES;
  }
done:
  json_free_value(record);
  return verdict;
}

const batch_task mj_batch_solve = {
  .game = "mahjong", .command = "solve",
  .summary = "the score of every hand and its context (in words or JSON) "
             "as mahjong.score gives it (--all: the whole sheet); agrees "
             "with an \"expect\"",
  .formats = formats, .start = NULL, .finish = NULL, .run = solve_run,
  .options = "--all",
};
