/*
** batch.c: Sudoku for the batch tools (core/base/batch.h): one puzzle a
** line, of any side the solver takes (16, 36, 64, 81 ... 4096 cells, '.' or
** '0' empty), and after it, optionally, the number of solutions it has
** (and the solution, as in puzzles7_serg_counts: "puzzle:count:solution").
**
**   solve   the number of solutions (counted to two: one or more than
**           one; --all counts them all) and the first one (in symbols up
**           to 35x35, numbers between spaces past that, as sudoku_format
**           writes it), and whether the count on the line agrees
*/
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "sudoku.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static bool separator(char c) {
  return c == ' ' || c == '\t' || c == ':' || c == ',';
}

/* Where the grid of a line ends: at a space, a tab, ':' or ',' (sixteen
   bytes a step where the machine has SSE2: the fastest puzzles take two
   microseconds in all). */
static size_t grid_end(const char *text, size_t len) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t'),
                colon = _mm_set1_epi8(':'), comma = _mm_set1_epi8(',');
  for (; i + 16 <= len; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(text + i));
    __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
        _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma)));
    unsigned mask = (unsigned)_mm_movemask_epi8(hit);
    if (mask) return i + (size_t)__builtin_ctz(mask);
  }
#endif
  while (i < len && !separator(text[i])) i++;
  return i;
}

/* The grid of a line, and the count after it (-1 when there is none). */
static bool read_line(const batch_record *r, sudoku_grid *grid, long *count,
                      json_out *out) {
  if (batch_blank(r, out)) return false;
  size_t start = 0;             /* spaces before the grid are not its end */
  while (r->text[start] == ' ' || r->text[start] == '\t') start++;
  size_t end = start + grid_end(r->text + start, r->len - start);
  sudoku_parse_error err;
  if (sudoku_parse(r->text + start, end - start, NULL, grid, &err) !=
      SUDOKU_OK) {
    if (err.code == SUDOKU_ECOUNT)
      batch_error(out, "%d cells, not the square of a side from 4 to 64", err.cells);
    else if (err.code == SUDOKU_ERANGE)
      batch_error(out, "cell %d holds %d, more than the side %d", err.cell + 1,
                  err.value, err.size);
    else
      batch_error(out, "'%s' at byte %zu is not a cell",
                  batch_shown(r->text + start + err.at,
                              end - start - (size_t)err.at),
                  start + (size_t)err.at + 1);
    return false;
  }
  *count = -1;
  size_t i = end;
  while (i < r->len && separator(r->text[i])) i++;
  if (i < r->len) {
    /* the count, then the end or a separator (a solution may follow) */
    size_t first = i;
    while (i < r->len && r->text[i] >= '0' && r->text[i] <= '9') i++;
    size_t n = i - first;
    if (n == 0 || (i < r->len && !separator(r->text[i]))) {
      batch_error(out, "'%s' after the grid is not a number of solutions",
                  batch_shown(r->text + first, r->len - first));
      return false;
    }
    if (n >= 19) {
      batch_error(out, "'%s' after the grid is too large a number of "
                  "solutions (at most 18 digits)",
                  batch_shown(r->text + first, n));
      return false;
    }
    char number[20];
    memcpy(number, r->text + first, n);
    number[n] = '\0';
    *count = strtol(number, NULL, 10);
  }
  return true;
}

static batch_verdict solve_run(void *unused, const batch_format *format,
                               const batch_record *r, const batch_options *o,
                               json_out *out, uint64_t *nodes) {
  (void)unused;
  (void)format;
  sudoku_grid grid, solution;
  long expected;
  if (!read_line(r, &grid, &expected, out)) return BATCH_ERROR;
  search_limit limit;
  memset(&limit, 0, sizeof limit);
  limit.max_seconds = o->seconds;
  limit.max_nodes = o->nodes;
  limit.interrupt = o->interrupt;
  if (o->seconds > 0) limit_start(&limit);   /* the clock, only when timed */
  sudoku_search s;
  memset(&s, 0, sizeof s);
  /* two tells one from many; a count to check needs one more than it */
  s.max_solutions = o->all ? 0 : expected >= 2 ? (uint64_t)expected + 1 : 2;
  s.first = &solution;
  s.limit = &limit;
  sudoku_error e = sudoku_solve(&grid, &s);
  *nodes = s.guesses;
  if (e == SUDOKU_ENOMEM) {
    batch_error(out, "not enough memory for the solver");
    return BATCH_ERROR;
  }
  if (!s.complete && limit.stopped && o->interrupt && *o->interrupt)
    return BATCH_STOPPED;
  JSON_KEY(out, "solutions");
  json_int(out, (int64_t)s.solutions);
  if (!s.complete && s.solutions >= s.max_solutions && s.max_solutions) {
    JSON_KEY(out, "more");                /* counted to the limit */
    json_bool(out, true);
  }
  if (s.solutions > 0 && solution.size > SUDOKU_MAX_LETTERED) {
    /* no symbol past Z: numbers between spaces, "1 2 ... 64" at most
       three bytes a cell */
    char text[3 * SUDOKU_MAX_CELLS + 1];
    size_t len = sudoku_format(&solution, text, sizeof text);
    JSON_KEY(out, "solution");
    json_plain(out, text, len);
  } else if (s.solutions > 0) {
    static const char symbols[] = "." SUDOKU_SYMBOLS;
    char text[SUDOKU_MAX_CELLS + 8];
    int cells = solution.size * solution.size, i = 0;
    if (solution.size == 9)              /* digits: '0' + value, 8 at once */
      for (; i + 8 <= cells; i += 8) {
        uint64_t word;
        memcpy(&word, solution.cell + i, 8);
        word += UINT64_C(0x3030303030303030);
        memcpy(text + i, &word, 8);
      }
    for (; i < cells; i++) text[i] = symbols[solution.cell[i]];
    JSON_KEY(out, "solution");
    json_plain(out, text, (size_t)cells);
  }
  if (limit.stopped) {
    JSON_KEY(out, "stopped");
    json_cstring(out, limit_reason(&limit));
  }
  JSON_KEY(out, "guesses");
  json_int(out, (int64_t)s.guesses);
  if (expected < 0) return BATCH_DONE;
  JSON_KEY(out, "expected");
  json_int(out, expected);
  bool agrees = (uint64_t)expected == s.solutions && !limit.stopped;
  JSON_KEY(out, "agrees");
  json_bool(out, agrees);
  return agrees ? BATCH_AGREES : BATCH_DISAGREES;
}

const batch_format sudoku_format_lines = {
  .name = "lines", .extensions = "", .numbered = false, .sniff = NULL,
  .next = batch_next_line,
};

static const batch_format *const formats[] = {&sudoku_format_lines, NULL};

const batch_task sudoku_batch_solve = {
  .game = "sudoku", .command = "solve",
  .summary = "the solutions of every puzzle (counted to two, or all with "
             "--all) and the first; agrees with a count after the grid",
  .formats = formats, .start = NULL, .finish = NULL, .run = solve_run,
  .options = "--time --nodes --all",
};
