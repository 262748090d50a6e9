/*
** batch.c: what the batch tasks of every game share.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "batch.h"
#include "limit.h"

bool batch_next_line(const char *data, size_t len, size_t *at,
                     batch_record *r) {
  size_t i = *at;
  size_t line = r->line ? r->line + 1 : 1;
  if (i == 0 && len >= 3 && memcmp(data, "\xef\xbb\xbf", 3) == 0) i = 3;
  for (;;) {
    if (i >= len) {
      *at = len;
      return false;
    }
    const char *end = memchr(data + i, '\n', len - i);
    size_t stop = end ? (size_t)(end - data) : len;
    size_t next = end ? stop + 1 : len;
    size_t text_end = stop > i && data[stop - 1] == '\r' ? stop - 1 : stop;
    if (data[i] == '#') {                       /* a comment */
      i = next;
      line++;
      continue;
    }
    /* empty lines that end the file are its last line end doubled, not
       records: a blank line is an error only with a record after it */
    size_t rest = i;
    while (rest < len && (data[rest] == '\n' || data[rest] == '\r')) rest++;
    if (rest == len) {
      *at = len;
      return false;
    }
    r->text = data + i;
    r->len = text_end - i;
    r->line = line;
    r->number++;
    *at = next;
    return true;
  }
}

void batch_error(json_out *out, const char *format, ...) {
  char message[512];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(message, sizeof message, format, args);
  va_end(args);
  if (n < 0) n = 0;
  if ((size_t)n >= sizeof message) n = (int)sizeof message - 1;
  json_key(out, "error");
  json_string(out, message, (size_t)n);
}

const char *batch_shown(const char *text, size_t len) {
  static char shown[64];
  size_t n = 0, i = 0;
  while (i < len && n < 40) {
    unsigned char c = (unsigned char)text[i];
    size_t size = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                : (c & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = size > 0 && i + size <= len && !(size == 1 && (c < 32 || c == 127));
    for (size_t k = 1; ok && k < size; k++)
      ok = ((unsigned char)text[i + k] & 0xc0) == 0x80;
    if (!ok || n + size > 40) {
      shown[n++] = '?';
      i++;
      continue;
    }
    memcpy(shown + n, text + i, size);
    n += size;
    i += size;
  }
  if (i < len) {
    memcpy(shown + n, "...", 3);
    n += 3;
  }
  shown[n] = '\0';
  return shown;
}

bool batch_blank(const batch_record *r, json_out *out) {
  for (size_t i = 0; i < r->len; i++)
    if (r->text[i] != ' ' && r->text[i] != '\t') return false;
  batch_error(out, "a blank line");
  return true;
}

void batch_limit(const batch_options *o, search_limit *limit) {
  memset(limit, 0, sizeof *limit);
  limit->max_seconds = o->seconds;
  limit->max_nodes = o->nodes;
  limit->interrupt = o->interrupt;
  limit_start(limit);
}

void batch_budget_start(batch_budget *budget, const batch_options *o) {
  budget->options = o;
  budget->started = limit_clock();
  budget->nodes = 0;
}

void batch_budget_step(batch_budget *budget, double steps_left,
                       search_limit *limit) {
  const batch_options *o = budget->options;
  batch_limit(o, limit);
  if (steps_left < 1) steps_left = 1;
  /* 0 would mean no limit: a budget used up is the least one instead */
  if (o->seconds > 0) {
    double left = o->seconds - (limit_clock() - budget->started);
    limit->max_seconds = left > 0 ? left / steps_left : 1e-9;
  }
  if (o->nodes > 0) {
    uint64_t left = o->nodes > budget->nodes ? o->nodes - budget->nodes : 0;
    uint64_t share = (uint64_t)((double)left / steps_left);
    limit->max_nodes = share > 0 ? share : 1;
  }
}

void batch_budget_spent(batch_budget *budget, const search_limit *limit) {
  budget->nodes += limit->nodes;
}
