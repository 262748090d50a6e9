/*
** fuzz_batch.c: the tasks of the batch tools (`ludus solve|replay|
** annotate`, core/base/batch.h) on files of any bytes (mahjong's solve
** has its own harness, fuzz_mjcontext).
**
** The first byte of the input picks a task and one of its formats; the
** rest is the file.  It is cut into records as the front end cuts it
** (a format's next, or its reader's open, read and close), and each of
** the first records goes to the task with small limits, so that a record
** takes at most a few thousand nodes.  Nothing may crash; a record is an
** error line exactly when the task says it is bad, and every line is
** JSON that reads back.  The workers (tables, solvers) are made once and
** kept, as a worker process keeps them between records.
**
** make build/fuzz/fuzz_batch builds it (tests/fuzz/README.md); seeds in
** tests/fuzz/corpus/fuzz_batch.
*/
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "base/json.h"
#include "connect4/connect4.h"
#include "fuzz.h"
#include "mahjong/tenhou.h"
#include "reversi/formats.h"
#include "sudoku/sudoku.h"
#include "xiangqi/xiangqi.h"

#define MAX_RECORDS 6

static const batch_task *const tasks[] = {
  &c4_batch_solve, &c4_batch_replay, &c4_batch_annotate,
  &sudoku_batch_solve,
  &xq_batch_solve, &xq_batch_replay, &xq_batch_annotate,
  &reversi_batch_solve, &reversi_batch_replay, &reversi_batch_annotate,
  &mj_batch_replay, &mj_batch_annotate,
};
#define NTASKS (sizeof tasks / sizeof tasks[0])

static void *workers[NTASKS];
static bool started[NTASKS];

static void run(size_t t, const batch_format *format, const batch_record *r,
                const batch_options *o, json_out *out) {
  const batch_task *task = tasks[t];
  if (task->start && !started[t]) {
    workers[t] = task->start(o);
    started[t] = true;
  }
  if (task->start && !workers[t]) return;       /* no memory: nothing to do */
  uint64_t nodes = 0;
  json_reset(out);
  json_begin_object(out);
  batch_verdict v = task->run(workers[t], format, r, o, out, &nodes);
  json_end_object(out);
  FUZZ_CHECK(v != BATCH_STOPPED, "%s %s stopped with no Ctrl-C", task->game,
             task->command);
  FUZZ_CHECK(!out->failed, "the line could not be written");
  json_value *line = json_parse(out->data, out->len, NULL);
  FUZZ_CHECK(line, "%s %s wrote a line that is not JSON: %.*s", task->game,
             task->command, (int)(out->len < 300 ? out->len : 300), out->data);
  bool error = json_get(line, "error") != NULL;
  FUZZ_CHECK(error == (v == BATCH_ERROR), "%s %s: an error line is %s",
             task->game, task->command,
             error ? "not called bad" : "missing for a bad record");
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t t = data[0] % NTASKS;
  const batch_task *task = tasks[t];
  int nformats = 0;
  while (task->formats[nformats]) nformats++;
  const batch_format *format = task->formats[(data[0] / NTASKS) % nformats];
  /* the file alone in memory, so that a read past it is reported */
  char *file = fuzz_copy(data + 1, size - 1, false);
  size_t len = size - 1;
  batch_options o;
  memset(&o, 0, sizeof o);
  o.nodes = 3000;
  o.depth = 2;
  o.exact = 6;
  o.all = data[0] & 0x80;
  json_out out;
  json_init(&out);
  batch_record r;
  memset(&r, 0, sizeof r);
  size_t at = 0;
  void *records = format->open ? format->open(NULL, file, len) : NULL;
  for (int n = 0; n < MAX_RECORDS; n++) {
    size_t before = at;
    if (format->open ? !records || !format->read(records, &r)
                     : !format->next(file, len, &at, &r))
      break;
    FUZZ_CHECK(format->open || at > before, "a record that reads nothing");
    FUZZ_CHECK(r.len == 0 || (r.text >= file && r.text + r.len <= file + len),
               "a record outside the file");
    FUZZ_CHECK(format->open || at <= len, "the reading went past the end");
    run(t, format, &r, &o, &out);
  }
  if (records) format->close(records);
  json_free(&out);
  free(file);
  return 0;
}
