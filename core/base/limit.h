/*
** limit.h: when a long job must stop.
**
** Searches and solvers count their nodes through limit_tick, which says
** when a node budget, a time budget or an outside interrupt (the REPL's
** Ctrl-C sets a flag that the limit points at) calls for a stop.  The
** clock is read once every LIMIT_CLOCK_EVERY nodes, to keep ticks cheap,
** and so is the stop flag another thread may set (an engine protocol's
** "stop", read while the search runs).
*/
#ifndef LIMIT_H
#define LIMIT_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define LIMIT_CLOCK_EVERY 1024

typedef struct search_limit {
  uint64_t max_nodes;                      /* 0: no node budget */
  double max_seconds;                      /* 0: no time budget */
  const volatile sig_atomic_t *interrupt;  /* NULL: nothing to watch */
  const atomic_bool *stop;                 /* another thread's; NULL: none */
  uint64_t nodes;                          /* counted so far */
  double started;                          /* limit_clock() at the start */
  bool stopped;                            /* once set, stays set */
} search_limit;

/* Seconds on a monotonic clock. */
double limit_clock(void);

/* Starts counting: no nodes yet, the clock running. */
void limit_start(search_limit *limit);

/* Seconds since limit_start. */
double limit_elapsed(const search_limit *limit);

/* Why the limit stopped: "nodes", "time", "interrupted", "stopped" (the
   stop flag) or NULL. */
const char *limit_reason(const search_limit *limit);

bool limit_check_slow(search_limit *limit);

/* Counts one node; true when the job must stop now. */
static inline bool limit_tick(search_limit *limit) {
  limit->nodes++;
  if (limit->stopped) return true;
  if ((limit->interrupt && *limit->interrupt) ||
      (limit->max_nodes && limit->nodes >= limit->max_nodes) ||
      (limit->nodes % LIMIT_CLOCK_EVERY == 0 &&
       (limit->max_seconds > 0 || limit->stop)))
    return limit_check_slow(limit);
  return false;
}

#endif
