/*
** epd.c: positions a line, as EPD or FEN lines, read and written.
**
** EPD (chess's Extended Position Description) is a FEN's first four
** fields and then operations, `bm h2e2; id "a name";`; puzzle sets and
** test suites use it.  A FEN line is a FEN, possibly followed by the
** moves played from it as UCI writes them: "<FEN> moves h2e2 h9g7".  One
** grammar reads both: after the FEN come operations, and `moves` is one
** whose operands run to a ';' or the end of the line.  bm and am name
** moves in the position after those moves.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

#define MAX_MOVE_TEXT 40
#define MAX_DM 999

struct xq_epd_reader {
  xq_lines lines;
  int records;
  xq_move *moves;
  int capacity;
  char *strings;                 /* id and operations, NUL-terminated */
  size_t used, size;
  size_t op_at[XQ_EPD_MAX_OPS][2];
  size_t id_at;                  /* where the id is, when has_id */
  bool has_id;
};

xq_epd_reader *xq_epd_open(const char *text, size_t size,
                           xq_encoding encoding) {
  xq_epd_reader *reader = calloc(1, sizeof *reader);
  if (!reader) return NULL;
  if (!xq_lines_open(&reader->lines, text, size, encoding)) {
    free(reader);
    return NULL;
  }
  return reader;
}

void xq_epd_close(xq_epd_reader *reader) {
  if (!reader) return;
  xq_lines_close(&reader->lines);
  free(reader->moves);
  free(reader->strings);
  free(reader);
}

/* Copies n bytes to the strings; returns where, or (size_t)-1. */
static size_t add_string(xq_epd_reader *r, const char *s, size_t n) {
  if (r->used + n + 1 > r->size) {
    size_t size = r->size ? r->size : 256;
    while (size < r->used + n + 1) size *= 2;
    char *grown = realloc(r->strings, size);
    if (!grown) return (size_t)-1;
    r->strings = grown;
    r->size = size;
  }
  size_t at = r->used;
  memcpy(r->strings + at, s, n);
  r->strings[at + n] = '\0';
  r->used += n + 1;
  return at;
}

static size_t skip_spaces(const char *s, size_t n, size_t at) {
  while (at < n && xq_space(s + at, n - at)) at += xq_space(s + at, n - at);
  return at;
}

static size_t word_end(const char *s, size_t n, size_t at) {
  while (at < n && !xq_space(s + at, n - at) && s[at] != ';') at++;
  return at;
}

static bool starts_word(const char *s, size_t n, size_t at, const char *word) {
  size_t k = strlen(word);
  return n - at >= k && memcmp(s + at, word, k) == 0 &&
         (at + k == n || xq_space(s + at + k, n - at - k) || s[at + k] == ';');
}

/* An operation as the line has it. */
typedef struct span {
  size_t name, name_end, operands, operands_end;
} span;

static bool set_error(xq_epd_record *record, const char *format, ...)
  __attribute__((format(printf, 2, 3)));

static bool set_error(xq_epd_record *record, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(record->message, sizeof record->message, format, args);
  va_end(args);
  return false;
}

/* Reads a count of up to nine digits; -1 if it is not one. */
static long read_count(const char *s, size_t n) {
  if (n == 0 || n > 9) return -1;
  long value = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    value = value * 10 + (s[i] - '0');
  }
  return value;
}

/* Reads one move of text[0..n) in pos; false with the message set. */
static bool read_one(xq_epd_record *record, const xq_position *pos,
                     const char *s, size_t n, const char *where,
                     xq_move *move) {
  char text[MAX_MOVE_TEXT];
  const char *why = "too long for a move";
  game_error code = GAME_EBADTEXT;
  if (n < sizeof text) {
    memcpy(text, s, n);
    text[n] = '\0';
    code = xq_read_move(pos, text, move, &why);
  }
  if (code == GAME_OK) return true;
  int shown = xq_shown(s, n, 60);
  return set_error(record, "%s move '%.*s' in %s (%s)",
                   code == GAME_EILLEGAL ? "illegal" : "unreadable", shown, s,
                   where, why);
}

/* The moves of an operand list (bm, am), in the end position. */
static bool read_list(xq_epd_record *record, const char *s, size_t n,
                      const char *name, xq_move *out, int *count) {
  for (size_t at = skip_spaces(s, n, 0); at < n; at = skip_spaces(s, n, at)) {
    size_t end = word_end(s, n, at);
    if (*count == XQ_EPD_MAX_MOVES)
      return set_error(record, "more than %d moves in %s", XQ_EPD_MAX_MOVES,
                       name);
    if (!read_one(record, &record->end, s + at, end - at, name, &out[*count]))
      return false;
    ++*count;
    at = end;
  }
  if (*count == 0) return set_error(record, "%s names no move", name);
  return true;
}

/* The moves played from the FEN, move numbers skipped. */
static bool read_moves(xq_epd_reader *r, xq_epd_record *record, const char *s,
                       size_t n) {
  for (size_t at = skip_spaces(s, n, 0); at < n; at = skip_spaces(s, n, at)) {
    size_t end = word_end(s, n, at), digits = at;
    while (digits < end && s[digits] >= '0' && s[digits] <= '9') digits++;
    size_t dots = digits;
    while (dots < end && s[dots] == '.') dots++;
    if (digits > at && dots > digits) at = dots;          /* "1." */
    if (at == end) continue;
    if (record->plies == r->capacity) {
      if (record->plies >= XQ_MAX_PLIES)
        return set_error(record, "more than %d plies", XQ_MAX_PLIES);
      int capacity = r->capacity ? 2 * r->capacity : 256;
      xq_move *grown = realloc(r->moves, (size_t)capacity * sizeof *grown);
      if (!grown) return set_error(record, "out of memory");
      r->moves = grown;
      r->capacity = capacity;
      record->moves = grown;
    }
    xq_move move;
    char where[32];
    snprintf(where, sizeof where, "moves at ply %d", record->plies + 1);
    if (!read_one(record, &record->end, s + at, end - at, where, &move)) {
      record->error_ply = record->plies + 1;
      return false;
    }
    xq_undo undo;
    xq_make(&record->end, move, &undo);
    r->moves[record->plies++] = move;
    at = end;
  }
  return true;
}

/* A string operand: "..." with \" and \\, or the text as it stands. */
static size_t add_operand_string(xq_epd_reader *r, const char *s, size_t n) {
  if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
    size_t at = add_string(r, s + 1, n - 2);
    if (at == (size_t)-1) return at;
    char *out = r->strings + at;
    size_t k = 0;
    for (size_t i = 0; out[i]; i++) {
      if (out[i] == '\\' && (out[i + 1] == '"' || out[i + 1] == '\\')) i++;
      out[k++] = out[i];
    }
    out[k] = '\0';
    return at;
  }
  return add_string(r, s, n);
}

/* Splits what follows the FEN into operations; false with the message
   set on an unclosed string or too many. */
static bool split_ops(xq_epd_record *record, const char *s, size_t n,
                      size_t at, span *ops, int *count) {
  *count = 0;
  for (;;) {
    at = skip_spaces(s, n, at);
    if (at >= n) return true;
    if (s[at] == ';') {
      at++;
      continue;
    }
    span op;
    op.name = at;
    op.name_end = word_end(s, n, at);
    char first = s[at];
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z')))
      return set_error(record, "an operation's name begins with a letter "
                       "(got '%.*s')",
                       xq_shown(s + at, op.name_end - at, 20), s + at);
    at = skip_spaces(s, n, op.name_end);
    op.operands = at;
    bool quoted = false;
    while (at < n && (quoted || s[at] != ';')) {
      if (s[at] == '"') quoted = !quoted;
      else if (s[at] == '\\' && quoted && at + 1 < n) at++;
      at++;
    }
    if (quoted)
      return set_error(record, "a string of '%.*s' is not closed",
                       xq_shown(s + op.name, op.name_end - op.name, 40),
                       s + op.name);
    op.operands_end = at;
    while (op.operands_end > op.operands &&
           xq_space(s + op.operands_end - 1, 1))
      op.operands_end--;
    if (*count == XQ_EPD_MAX_OPS + 8)
      return set_error(record, "more than %d operations", XQ_EPD_MAX_OPS);
    ops[(*count)++] = op;
  }
}

static bool name_is(const char *s, const span *op, const char *name) {
  size_t k = strlen(name);
  return op->name_end - op->name == k && memcmp(s + op->name, name, k) == 0;
}

/* Reads the FEN at the start of a line into record->start; returns where
   it ends, or (size_t)-1 with the message set. */
static size_t read_fen(xq_epd_record *record, const char *s, size_t n) {
  size_t at = skip_spaces(s, n, 0);
  if (starts_word(s, n, at, "position")) at = skip_spaces(s, n, at + 8);
  if (starts_word(s, n, at, "startpos")) {
    xq_init(&record->start);
    return at + 8;
  }
  if (starts_word(s, n, at, "fen")) at = skip_spaces(s, n, at + 3);
  char fen[160];
  size_t used = 0, end = word_end(s, n, at);
  if (end - at >= 100 || end == at) {
    set_error(record, "not a FEN: '%.*s'", xq_shown(s + at, n - at, 40),
              s + at);
    return (size_t)-1;
  }
  memcpy(fen, s + at, end - at);
  used = end - at;
  at = end;
  /* the side, two '-', two counters: each as far as the line has them */
  for (int field = 0; field < 5; field++) {
    size_t next = skip_spaces(s, n, at), stop = word_end(s, n, next);
    size_t k = stop - next;
    bool fits = field == 0 ? k == 1 && strchr("wWrRbB", s[next])
              : field < 3 ? k == 1 && s[next] == '-'
              : read_count(s + next, k) >= 0;
    if (field == 1 && !fits && read_count(s + next, k) >= 0) {
      fen[used++] = ' ';                      /* counters without dashes */
      fen[used++] = '-';
      fen[used++] = ' ';
      fen[used++] = '-';
      field = 2;
      fits = true;
    }
    /* One character where the side or a dash belongs is the FEN's, and
       wrong ('x' for the side): xq_from_fen refuses it as xiangqi.load
       does, rather than the line going on as red to move with 'x' read
       as an EPD operation (their names are words). */
    if (!fits && field < 3 && k == 1 && !(s[next] >= '0' && s[next] <= '9'))
      fits = true;
    if (!fits || k == 0) break;
    fen[used++] = ' ';
    memcpy(fen + used, s + next, k);
    used += k;
    at = stop;
  }
  fen[used] = '\0';
  xq_fen_problem problem;
  if (xq_from_fen(&record->start, fen, &problem) != XQ_FEN_OK) {
    char why[200];
    xq_fen_message(&problem, why, sizeof why);
    set_error(record, "bad FEN '%s' (%s)", fen, why);
    return (size_t)-1;
  }
  return at;
}

/* Reads a line into the record: false with the message set. */
static bool read_line(xq_epd_reader *r, xq_epd_record *record, const char *s,
                      size_t n) {
  size_t at = read_fen(record, s, n);
  if (at == (size_t)-1) return false;
  record->end = record->start;
  span ops[XQ_EPD_MAX_OPS + 8];
  int count;
  if (!split_ops(record, s, n, at, ops, &count)) return false;
  for (int i = 0; i < count; i++) {             /* the counters first */
    const span *op = &ops[i];
    bool half = name_is(s, op, "hmvc");
    if (!half && !name_is(s, op, "fmvn")) continue;
    long value = read_count(s + op->operands, op->operands_end - op->operands);
    record->end = record->start;
    if (value < 0)
      return set_error(record, "%s wants a count (got '%.*s')",
                       half ? "hmvc" : "fmvn",
                       xq_shown(s + op->operands,
                                op->operands_end - op->operands, 40),
                       s + op->operands);
    if (half) record->start.quiet = (uint32_t)value;
    else record->start.fullmove = (uint32_t)(value > 0 ? value : 1);
  }
  record->end = record->start;
  for (int i = 0; i < count; i++)
    if (name_is(s, &ops[i], "moves") &&
        !read_moves(r, record, s + ops[i].operands,
                    ops[i].operands_end - ops[i].operands))
      return false;
  for (int i = 0; i < count; i++) {
    const span *op = &ops[i];
    const char *operands = s + op->operands;
    size_t length = op->operands_end - op->operands;
    if (name_is(s, op, "moves") || name_is(s, op, "hmvc") ||
        name_is(s, op, "fmvn"))
      continue;
    if (name_is(s, op, "bm") || name_is(s, op, "am")) {
      bool best = name_is(s, op, "bm");
      if (!read_list(record, operands, length, best ? "bm" : "am",
                     best ? record->bm : record->am,
                     best ? &record->bm_count : &record->am_count))
        return false;
    } else if (name_is(s, op, "dm")) {
      long value = read_count(operands, length);
      if (value < 1 || value > MAX_DM)
        return set_error(record, "dm wants a count of moves from 1 to %d "
                         "(got '%.*s')", MAX_DM, xq_shown(operands, length, 40),
                         operands);
      record->dm = (int)value;
    } else if (name_is(s, op, "id")) {
      size_t where = add_operand_string(r, operands, length);
      if (where == (size_t)-1) return set_error(record, "out of memory");
      r->id_at = where;
      r->has_id = true;
    } else {
      if (record->op_count == XQ_EPD_MAX_OPS)
        return set_error(record, "more than %d operations", XQ_EPD_MAX_OPS);
      size_t name = add_string(r, s + op->name, op->name_end - op->name);
      size_t text = add_string(r, operands, length);
      if (name == (size_t)-1 || text == (size_t)-1)
        return set_error(record, "out of memory");
      r->op_at[record->op_count][0] = name;
      r->op_at[record->op_count][1] = text;
      record->op_count++;
    }
  }
  return true;
}

xq_read_status xq_epd_next(xq_epd_reader *r, xq_epd_record *record) {
  while (xq_lines_next(&r->lines)) {
    const char *s = r->lines.text;
    size_t n = r->lines.length, at = skip_spaces(s, n, 0);
    if (at == n || s[at] == '#') continue;
    record->number = ++r->records;
    record->line = r->lines.number;
    record->encoding = r->lines.encoding;
    xq_init(&record->start);
    record->end = record->start;
    record->moves = r->moves;
    record->plies = record->bm_count = record->am_count = 0;
    record->dm = record->op_count = record->error_ply = 0;
    record->message[0] = '\0';
    r->used = 0;
    r->has_id = false;
    bool ok = read_line(r, record, s, n);
    record->id = r->has_id ? r->strings + r->id_at : "";
    record->moves = r->moves;
    for (int i = 0; i < record->op_count; i++) {
      record->ops[i].name = r->strings + r->op_at[i][0];
      record->ops[i].value = r->strings + r->op_at[i][1];
    }
    if (!ok && r->lines.replaced) {
      size_t k = strlen(record->message);
      static const char *const names[] = {"", "UTF-8", "GBK", "Big5"};
      snprintf(record->message + k, sizeof record->message - k,
               " (the line has bytes that are not %s text)",
               names[r->lines.encoding]);
    }
    return ok ? XQ_READ_OK : XQ_READ_BAD;
  }
  return XQ_READ_END;
}

/* ---- writing ---- */

/* An operation listing moves: the legal ones of the list, if any. */
static size_t write_list(char *buf, size_t size, size_t n, const char *name,
                         const xq_position *pos, const xq_move *moves,
                         int count, xq_notation notation) {
  bool named = false;
  for (int i = 0; i < count; i++) {
    char text[64];
    if (!xq_is_legal(pos, moves[i])) continue;
    if (!named) n = game_append(buf, size, n, " %s", name);
    named = true;
    xq_format_move(pos, moves[i], notation, text, sizeof text);
    n = game_append(buf, size, n, " %s", text);
  }
  return named ? game_append(buf, size, n, ";") : n;
}

size_t xq_epd_write(const xq_epd_record *record, xq_notation notation,
                    char *buf, size_t size) {
  xq_position end = record->start;
  int plies = 0;
  for (; plies < record->plies; plies++) {
    if (!xq_is_legal(&end, record->moves[plies])) break;
    xq_undo undo;
    xq_make(&end, record->moves[plies], &undo);
  }
  bool ops = record->bm_count || record->am_count || record->dm ||
             (record->id && *record->id) || record->op_count;
  char fen[128];
  size_t n = 0;
  xq_to_fen(&record->start, fen, sizeof fen);
  xq_position pos = record->start;
  if (!ops) {
    n = game_append(buf, size, n, "%s", fen);
    if (plies) {
      n = game_append(buf, size, n, " moves");
      for (int i = 0; i < plies; i++) {
        char text[64];
        xq_format_move(&pos, record->moves[i], notation, text, sizeof text);
        n = game_append(buf, size, n, " %s", text);
        xq_undo undo;
        xq_make(&pos, record->moves[i], &undo);
      }
    }
    return game_append(buf, size, n, "\n");
  }
  *strstr(fen, " - - ") = '\0';                    /* four fields */
  n = game_append(buf, size, n, "%s - -", fen);
  if (record->start.quiet)
    n = game_append(buf, size, n, " hmvc %u;", (unsigned)record->start.quiet);
  if (record->start.fullmove != 1)
    n = game_append(buf, size, n, " fmvn %u;",
                    (unsigned)record->start.fullmove);
  if (plies) {
    n = game_append(buf, size, n, " moves");
    for (int i = 0; i < plies; i++) {
      char text[64];
      xq_format_move(&pos, record->moves[i], notation, text, sizeof text);
      n = game_append(buf, size, n, " %s", text);
      xq_undo undo;
      xq_make(&pos, record->moves[i], &undo);
    }
    n = game_append(buf, size, n, ";");
  }
  n = write_list(buf, size, n, "bm", &end, record->bm, record->bm_count,
                 notation);
  n = write_list(buf, size, n, "am", &end, record->am, record->am_count,
                 notation);
  if (record->dm) n = game_append(buf, size, n, " dm %d;", record->dm);
  if (record->id && *record->id) {
    n = game_append(buf, size, n, " id \"");
    for (const char *c = record->id; *c; c++)
      n = game_append(buf, size, n, *c == '"' || *c == '\\' ? "\\%c" : "%c",
                      *c);
    n = game_append(buf, size, n, "\";");
  }
  for (int i = 0; i < record->op_count; i++)
    n = game_append(buf, size, n, " %s%s%s;", record->ops[i].name,
                    *record->ops[i].value ? " " : "", record->ops[i].value);
  return game_append(buf, size, n, "\n");
}
