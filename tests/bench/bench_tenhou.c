/*
** bench_tenhou.c: hanchan replayed a second, every win rescored and
** checked: the shared Tenhou games (mjlog and JSON) read and replayed
** over and over for about two seconds of CPU time (the machine is
** shared: its wall time says little), three runs, the median shown with
** the games and steps played beside it.
**
**   bench_tenhou DATA_DIR
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mahjong/tenhou.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  const char *data = argc > 1 ? argv[1] : "../shared/data";
  static const char *const games[] = {
    "2010081709gm-00a9-0000-fe3371ad", "2010102910gm-00a9-0000-cdb9804c",
    "2010110100gm-00a9-0000-de3472e8", "2010112714gm-00a9-0000-d497e395",
    "2010122717gm-00a9-0000-8e787e61", "2011020401gm-00a9-0000-f6eff225",
    "2011020414gm-00a9-0000-ef18f336", "2011020415gm-00a9-0000-e037b629",
    "2011020416gm-00a9-0000-025480d4", "2011020417gm-00a9-0000-b67fcaa3",
    "2011020613gm-00a9-0000-3774f8d1",
  };
  char *text[22];
  size_t len[22];
  for (int i = 0; i < 22; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s/mahjong/tenhou/%s/%s.%s", data,
             i < 11 ? "mjlog" : "json", games[i % 11], i < 11 ? "mjlog" : "json");
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "bench_tenhou: cannot read %s\n", path); return 1; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    text[i] = malloc((size_t)n);
    len[i] = fread(text[i], 1, (size_t)n, f);
    fclose(f);
  }
  mj_shanten_init();
  mj_log log;
  mj_log_init(&log);
  for (int form = 0; form < 2; form++) {
    double rates[3];
    long games_played = 0, steps = 0;
    for (int run = 0; run < 3; run++) {
      double start = now(), t;
      games_played = steps = 0;
      do {
        for (int i = 11 * form; i < 11 * form + 11; i++) {
          mj_log_error err;
          mj_replay rp;
          if (!mj_log_read(&log, text[i], len[i], &err) ||
              !mj_replay_log(&log, &rp, NULL, NULL) || rp.disagreements) {
            fprintf(stderr, "bench_tenhou: %s does not replay\n", games[i % 11]);
            return 1;
          }
          games_played++;
          steps += log.nevents;
        }
        t = now() - start;
      } while (t < 2.0 / 3);
      rates[run] = (double)games_played / t;
    }
    for (int i = 0; i < 3; i++)
      for (int j = i + 1; j < 3; j++)
        if (rates[j] < rates[i]) { double x = rates[i]; rates[i] = rates[j]; rates[j] = x; }
    printf("tenhou %-5s replay: %7.0f hanchan/s (median of 3; goal 2000), "
           "%ld games, %ld steps a run\n", form ? "json" : "mjlog", rates[1],
           games_played, steps);
  }
  mj_log_free(&log);
  for (int i = 0; i < 22; i++) free(text[i]);
  return 0;
}
