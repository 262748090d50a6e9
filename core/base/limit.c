/*
** limit.c: node, time and interrupt limits for long jobs.
*/
#include <time.h>

#include "limit.h"

double limit_clock(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

void limit_start(search_limit *limit) {
  limit->nodes = 0;
  limit->stopped = false;
  limit->started = limit_clock();
}

double limit_elapsed(const search_limit *limit) {
  return limit_clock() - limit->started;
}

/* Called by limit_tick only when one of the budgets may be spent. */
bool limit_check_slow(search_limit *limit) {
  if ((limit->interrupt && *limit->interrupt) ||
      (limit->max_nodes && limit->nodes >= limit->max_nodes) ||
      (limit->stop && atomic_load_explicit(limit->stop, memory_order_relaxed)) ||
      (limit->max_seconds > 0 && limit_elapsed(limit) >= limit->max_seconds))
    limit->stopped = true;
  return limit->stopped;
}

const char *limit_reason(const search_limit *limit) {
  if (!limit->stopped) return NULL;
  if (limit->interrupt && *limit->interrupt) return "interrupted";
  if (limit->max_nodes && limit->nodes >= limit->max_nodes) return "nodes";
  if (limit->stop && atomic_load_explicit(limit->stop, memory_order_relaxed))
    return "stopped";
  return "time";
}
