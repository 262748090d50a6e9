/*
** fuzz_tenhou.c: Tenhou's logs (tenhou.c) and their replay through the
** round (replay.c, round.c).  The input is a log, mjlog or tenhou.net/6
** JSON; every game mj_log_next finds is read, and a game read is
** replayed, the round's invariant checked after every step it plays.
** Nothing may crash; a game refused says where and why.
*/
#include <string.h>

#include "fuzz.h"
#include "mahjong/tenhou.h"

static void check_step(void *data, const mj_log *log, int round, int event,
                       const mj_round *r) {
  (void)data;
  (void)log;
  const char *bad = mj_round_invariant(r);
  FUZZ_CHECK(bad == NULL, "round %d, step %d: %s", round, event, bad);
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  static mj_log log;
  size_t at = 0, start, end;
  int games = 0;
  while (games++ < 8 && mj_log_next(text, size, &at, &start, &end)) {
    FUZZ_CHECK(start <= end && end <= size && at <= size, "a game outside the data");
    mj_log_error err;
    if (!mj_log_read(&log, text + start, end - start, &err)) {
      FUZZ_CHECK(err.text[0] != '\0', "a game refused without a word");
      continue;
    }
    mj_replay rp;
    if (!mj_replay_log(&log, &rp, check_step, NULL)) {
      char where[120];
      mj_log_where(&log, &rp.error, where, sizeof where);
      FUZZ_CHECK(rp.error.text[0] != '\0', "a replay stopped without a word");
    }
  }
  return 0;
}
