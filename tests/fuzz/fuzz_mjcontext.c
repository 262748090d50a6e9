/*
** fuzz_mjcontext.c: the context of a win read from text
** (core/mahjong/context.c) and scored, and the batch task that does
** both for `ludus solve mahjong` (core/mahjong/batch.c).
**
** The input is one line: a hand and its context in words, or JSON (a
** request, or a score.jsonl record with its expectation).  It is read,
** scored, and given to the task in both its formats; nothing may crash,
** a refusal must say why, a score must be one a hand can have, and the
** task's line must be JSON that reads back, the same on a second run.
**
** make build/fuzz/fuzz_mjcontext builds it (tests/fuzz/README.md); seeds
** in tests/fuzz/corpus/fuzz_mjcontext, words in fuzz_mjcontext.dict.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "base/json.h"
#include "mahjong/mahjong.h"

#define CHECK(cond, what)                                                    \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz_mjcontext: %s\n", what);                         \
      abort();                                                               \
    }                                                                        \
  } while (0)

static void check_message(const char *message) {
  const char *end = memchr(message, '\0', MJ_MESSAGE);
  CHECK(end && end > message, "a refusal without a message");
}

/* A score a hand can have: han and fu, and payments that add up. */
static void check_score(const mj_score *s, const mj_context *ctx) {
  CHECK(s->han >= 1 && s->nyaku >= 1 && s->nyaku <= 24, "a score with no han");
  CHECK(s->yakuman > 0 || (s->fu >= 20 && s->fu <= 130 && s->fu % 10 == 0) ||
            s->fu == 25,
        "fu out of range");
  int honba = ctx->honba, sticks = 1000 * ctx->kyoutaku;
  if (!s->tsumo)
    CHECK(s->total == s->ron + sticks && s->ron >= 1000 + 300 * honba,
          "a ron that does not add up");
  else if (s->dealer)
    CHECK(s->total == 3 * s->tsumo_all + sticks, "a dealer's tsumo that does "
          "not add up");
  else
    CHECK(s->total == s->tsumo_dealer + 2 * s->tsumo_other + sticks &&
              s->tsumo_dealer >= s->tsumo_other,
          "a tsumo that does not add up");
  char reason[64];
  for (int i = 0; i < s->nfu; i++) {
    mj_fu_reason_text(&s->fu_item[i], s, reason, sizeof reason);
    CHECK(reason[0], "a fu item with no reason");
  }
  CHECK(mj_wait_name(s->wait)[0] != '?', "a wait with no name");
}

static void score(const mj_request *r) {
  mj_tiles hand;
  mj_parse_error err;
  char message[MJ_MESSAGE];
  mj_error e = mj_parse(r->hand, r->hand_len, &hand, &err);
  if (e != MJ_OK) {
    mj_parse_message(r->hand, r->hand_len, e, &err, message);
    check_message(message);
    return;
  }
  mj_score s;
  mj_status st = mj_score_hand(&hand, &r->ctx, &s);
  if (st == MJ_SCORED) {
    check_score(&s, &r->ctx);
  } else {
    mj_status_message(st, &hand, &r->ctx, message);
    check_message(message);
  }
}

/* The task's line for the input as a record of a format. */
static void run_task(const batch_format *format, const uint8_t *data,
                     size_t size, json_out *out) {
  batch_record record = {.text = (const char *)data, .len = size, .line = 1,
                         .number = 1};
  batch_options options;
  memset(&options, 0, sizeof options);
  options.all = size & 1;                 /* the whole sheet, or the line */
  uint64_t nodes;
  json_reset(out);
  json_begin_object(out);
  batch_verdict v = mj_batch_solve.run(NULL, format, &record, &options, out,
                                       &nodes);
  json_end_object(out);
  CHECK(v != BATCH_STOPPED && !out->failed, "the task stopped");
  json_value *line = json_parse(out->data, out->len, NULL);
  CHECK(line, "the task's line is not JSON");
  bool error = json_get(line, "error") != NULL;
  CHECK(error == (v == BATCH_ERROR) || v == BATCH_AGREES ||
            v == BATCH_DISAGREES,
        "an error line with no error, or the other way");
  CHECK(error || json_get(line, "han") || json_get(line, "no_score"),
        "a line with neither a score nor why not");
  json_free_value(line);
}

/* The shanten tables are built before the first input: their few
   seconds (many more on a loaded machine, under the sanitizers) are not
   an input's time. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  mj_shanten_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  mj_request r;
  char message[MJ_MESSAGE];
  size_t first = 0;
  while (first < size && (text[first] == ' ' || text[first] == '\t')) first++;
  if (first < size && text[first] == '{') {
    json_value *v = json_parse(text, size, NULL);
    if (v) {
      if (mj_read_json(v, &r, message)) score(&r);
      else check_message(message);
      json_free_value(v);
    }
  } else if (mj_read_words(text, size, &r, message)) {
    CHECK(r.hand >= text && r.hand + r.hand_len <= text + size,
          "the hand is not in the line");
    score(&r);
  } else {
    check_message(message);
  }
  json_out a, b;
  json_init(&a);
  json_init(&b);
  for (int f = 0; mj_batch_solve.formats[f]; f++) {
    run_task(mj_batch_solve.formats[f], data, size, &a);
    run_task(mj_batch_solve.formats[f], data, size, &b);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
          "two runs, two lines");
  }
  json_free(&a);
  json_free(&b);
  return 0;
}
