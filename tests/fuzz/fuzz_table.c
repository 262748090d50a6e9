/*
** fuzz_table.c: the mahjong table (table.c) played by the input.
**
** The input: a seed (eight bytes), the yes-or-no rules (mj_round_flag_name's,
** a bit each from the next bytes), the length and the start points; then
** a byte for each decision, the option the seat takes (or a pass, where
** one is allowed).  Most games end for want of input: the table is left
** in the middle of a round, as a caller that stops playing leaves it.
**
** After every step the round must keep its invariants (mj_round_invariant)
** and the table's answer must be taken: the table never lists an option it
** then refuses.  The table makes the steps it lists without checking them
** again (mj_round_play_known); in this build, under ASan, it checks them
** anyway and aborts on one refused.  A game that ends has four final
** scores that add up to what was dealt, and its record can be written.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mahjong/mahjong.h"
#include "mahjong/table.h"

#define MAX_DECISIONS 4000

/* The shanten tables are built before the first input, as fuzz_tenhou
   does: their few seconds (over 30 on a loaded machine, under the
   sanitizers: a run of 2026-11-29 took that for a timeout) are not an
   input's time. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  mj_shanten_init();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  uint64_t seed = 0;
  for (int i = 0; i < 8; i++) seed = seed << 8 | fuzz_byte(&in);
  mj_round_rules rules;
  mj_round_rules_default(&rules);
  unsigned bits = 0;
  int have = 0;
  for (int i = 0; mj_round_flag_name(i); i++) {
    if (have == 0) {
      bits = fuzz_byte(&in);
      have = 8;
    }
    const char *name = mj_round_flag_name(i);
    bool *flag = mj_round_rules_flag(&rules, name, strlen(name));
    FUZZ_CHECK(flag != NULL, "the rule '%s' it names is not found", name);
    *flag = bits & 1;
    bits >>= 1;
    have--;
  }
  unsigned shape = fuzz_byte(&in);
  rules.length = 1 + (shape & 1);
  rules.start_points = 1000 * (1 + (int)(shape >> 1) % 40);  /* 1,000 to 40,000 */
  rules.target = rules.start_points + 5000;

  mj_table t;
  mj_table_init(&t, &rules, seed);
  int decisions = 0;
  while (decisions < MAX_DECISIONS && in.at < in.size && mj_table_next(&t)) {
    const char *broken = mj_round_invariant(&t.round);
    FUZZ_CHECK(broken == NULL, "before a decision: %s", broken);
    FUZZ_CHECK(t.noptions > 0 && t.noptions <= MJ_MAX_OPTIONS,
               "a decision with %d options", t.noptions);
    bool may_pass = t.ask == MJ_ASK_CLAIM;
    int n = t.noptions + may_pass;
    int pick = (int)(fuzz_byte(&in) % (unsigned)n) - may_pass;
    FUZZ_CHECK(mj_table_choose(&t, pick), "option %d of %d refused", pick,
               t.noptions);
    decisions++;
  }
  const char *broken = mj_round_invariant(&t.round);
  FUZZ_CHECK(broken == NULL, "at the end: %s", broken);
  if (t.record.over) {
    int total = 0;
    for (int s = 0; s < MJ_SEATS; s++) total += t.record.scores[s];
    FUZZ_CHECK(total == MJ_SEATS * rules.start_points,
               "the final scores add up to %d, %d were dealt", total,
               MJ_SEATS * rules.start_points);
    size_t len;
    char *json = mj_record_json(&t.record, NULL, &len);
    FUZZ_CHECK(json != NULL, "a game played cannot be written");
    free(json);
  }
  mj_table_free(&t);
  return 0;
}
