/*
** batch.c: Connect Four for the batch tools (core/base/batch.h), on
** Pascal Pons' lines: the 1-based columns played from the empty 7x6
** board, then optionally the position's score for the side to move
** ("2252576253462244111563365343671351441 -1").
**
**   solve     the exact score and a best column (weak: the sign), and
**             whether the line's score agrees
**   replay    the moves, the position, the result by the rules, the
**             first illegal move
**   annotate  every move against the best one: the exact score of every
**             column before it, and what the move played gave away
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "book.h"
#include "connect4.h"
#include "solve.h"

/* The moves and the score of a line, or false with the error written. */
typedef struct pons_line {
  char moves[C4_MAX_CELLS + 1];
  bool has_score;
  int score;
} pons_line;

static bool read_line(const batch_record *r, pons_line *line, json_out *out) {
  if (batch_blank(r, out)) return false;
  size_t i = 0, n = 0;
  while (i < r->len && r->text[i] >= '0' && r->text[i] <= '9') {
    if (n == C4_MAX_CELLS) {
      batch_error(out, "more moves than the board has cells");
      return false;
    }
    line->moves[n++] = r->text[i++];
  }
  line->moves[n] = '\0';
  line->has_score = false;
  while (i < r->len && (r->text[i] == ' ' || r->text[i] == '\t')) i++;
  if (i < r->len && n == 0) {   /* as a blank line, not the empty board */
    batch_error(out, "no moves before the score '%s'",
                batch_shown(r->text + i, r->len - i));
    return false;
  }
  if (i < r->len) {
    char *end;
    char number[16];
    size_t len = r->len - i < sizeof number - 1 ? r->len - i : sizeof number - 1;
    memcpy(number, r->text + i, len);
    number[len] = '\0';
    long score = strtol(number, &end, 10);
    while (*end == ' ' || *end == '\t') end++;
    if (end == number || *end || r->len - i >= sizeof number - 1 ||
        score < -C4_MAX_CELLS || score > C4_MAX_CELLS) {
      batch_error(out, "'%s' at byte %zu is neither a column nor a score",
                  batch_shown(r->text + i, r->len - i), i + 1);
      return false;
    }
    line->has_score = true;
    line->score = (int)score;
  }
  return true;
}

/* Plays the line's moves; false with the error written. */
static bool play(const pons_line *line, c4_board *board, int *moves,
                 int *count, json_out *out) {
  c4_init(board, 7, 6);
  c4_parse_error err;
  int n = c4_load(board, line->moves, moves, &err);
  if (n >= 0) {
    *count = n;
    return true;
  }
  static const char *const why[] = {
    [C4_EBADCHAR] = "not a column", [C4_ECOLUMN] = "not a column of the board",
    [C4_EFULL] = "a full column", [C4_EOVER] = "after the end of the game",
  };
  json_key(out, "illegal");
  json_begin_object(out);
  json_key(out, "ply");
  json_int(out, err.at + 1);
  json_key(out, "move");
  json_string(out, line->moves + err.at, 1);
  json_key(out, "reason");
  json_cstring(out, err.code < 5 && why[err.code] ? why[err.code] : "illegal");
  json_end_object(out);
  batch_error(out, "move %d '%c' is %s", err.at + 1, line->moves[err.at],
              err.code < 5 && why[err.code] ? why[err.code] : "illegal");
  return false;
}

static const char *status_text(game_status status) {
  static const char *const text[] = {NULL, "yellow won", "red won", "draw"};
  return text[status];
}

/* A worker's table, and the book it consults when there is one. */
typedef struct worker {
  c4_table *table;
  c4_book *book;
} worker;

static void finish(void *data) {
  worker *w = data;
  c4_table_free(w->table);
  c4_book_free(w->book);
  free(w);
}

static void *start(const batch_options *o) {
  worker *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->table = c4_table_new();
  if (!w->table) {
    free(w);
    return NULL;
  }
  if (o->book) {                  /* book_ok has read it once already */
    c4_book_error error;
    w->book = c4_book_load(o->book, &error);
    if (!w->book) {
      finish(w);
      return NULL;
    }
    c4_table_use_book(w->table, w->book);
  }
  return w;
}

static bool book_ok(const char *path, char *message, size_t size) {
  c4_book_error error;
  errno = 0;
  c4_book *book = c4_book_load(path, &error);
  if (!book) {                    /* connect4.book's words */
    char reason[128];
    snprintf(message, size, "no book from '%s' (%s)", path,
             c4_book_reason(error, errno, reason, sizeof reason));
    return false;
  }
  c4_book_free(book);
  return true;
}

/* ---- solve ---- */

static batch_verdict solve_run(void *data, const batch_format *format,
                               const batch_record *r, const batch_options *o,
                               json_out *out, uint64_t *nodes) {
  (void)format;
  c4_table *table = ((worker *)data)->table;
  pons_line line;
  if (!read_line(r, &line, out)) return BATCH_ERROR;
  json_key(out, "moves");
  json_cstring(out, line.moves);
  c4_board board;
  int moves[C4_MAX_CELLS], count;
  if (!play(&line, &board, moves, &count, out)) return BATCH_ERROR;
  game_status status = c4_status(&board);
  if (status != GAME_ONGOING) {
    batch_error(out, "the game is over (%s)", status_text(status));
    return BATCH_ERROR;
  }
  search_limit limit;
  batch_limit(o, &limit);
  c4_result result = c4_solve(&board, table, &limit, o->weak);
  int best = result.complete
           ? c4_best_move(&board, table, &limit, o->weak, result.score) : -1;
  *nodes = limit.nodes;
  if (best < 0 && batch_interrupted(o)) return BATCH_STOPPED;
  if (best < 0) {
    json_key(out, "lower");
    json_int(out, result.lower);
    json_key(out, "upper");
    json_int(out, result.upper);
    json_key(out, "stopped");
    json_cstring(out, limit_reason(&limit));
  } else {
    json_key(out, "score");
    json_int(out, result.score);
    json_key(out, "best");
    json_int(out, best + 1);
  }
  if (o->all && best >= 0) {
    int scores[C4_MAX_WIDTH];
    if (c4_analyze(&board, table, &limit, o->weak, scores)) {
      json_key(out, "all");
      json_begin_object(out);
      for (int c = 0; c < board.width; c++) {
        if (scores[c] == C4_NO_SCORE) continue;
        char key[4] = {(char)('1' + c), '\0'};
        json_key(out, key);
        json_int(out, scores[c]);
      }
      json_end_object(out);
    }
    *nodes = limit.nodes;
    if (batch_interrupted(o)) return BATCH_STOPPED;
  }
  json_key(out, "nodes");
  json_int(out, (int64_t)*nodes);
  if (!line.has_score) return BATCH_DONE;
  int expected = o->weak ? (line.score > 0) - (line.score < 0) : line.score;
  json_key(out, "expected");
  json_int(out, expected);
  /* bounds that hold the expected score prove nothing about it */
  bool agrees = best >= 0 && result.score == expected;
  json_key(out, "agrees");
  json_bool(out, agrees);
  return agrees ? BATCH_AGREES : BATCH_DISAGREES;
}

/* ---- replay ---- */

static void write_position(json_out *out, const c4_board *board) {
  json_key(out, "rows");
  json_begin_array(out);
  for (int row = 0; row < board->height; row++) {          /* top first */
    char text[C4_MAX_WIDTH + 1];
    c4_row_text(board, row, text);
    json_cstring(out, text);
  }
  json_end_array(out);
}

static batch_verdict replay_run(void *unused, const batch_format *format,
                                const batch_record *r, const batch_options *o,
                                json_out *out, uint64_t *nodes) {
  (void)unused;
  (void)format;
  (void)o;
  (void)nodes;
  pons_line line;
  if (!read_line(r, &line, out)) return BATCH_ERROR;
  c4_board board;
  int moves[C4_MAX_CELLS], count;
  bool legal = play(&line, &board, moves, &count, out);
  if (!legal) return BATCH_ERROR;
  json_key(out, "moves");
  json_int(out, count);
  write_position(out, &board);
  game_status status = c4_status(&board);
  json_key(out, "result");
  if (status == GAME_ONGOING) json_null(out);
  else json_cstring(out, status_text(status));
  return BATCH_DONE;
}

/* ---- annotate ---- */


static batch_verdict annotate_run(void *data, const batch_format *format,
                                  const batch_record *r,
                                  const batch_options *o, json_out *out,
                                  uint64_t *nodes) {
  (void)format;
  c4_table *table = ((worker *)data)->table;
  pons_line line;
  if (!read_line(r, &line, out)) return BATCH_ERROR;
  c4_board final;
  int moves[C4_MAX_CELLS], count;
  if (!play(&line, &final, moves, &count, out)) return BATCH_ERROR;
  search_limit limit;
  batch_budget budget;
  batch_budget_start(&budget, o);
  c4_board board;
  c4_init(&board, 7, 6);
  int mistakes = 0;
  *nodes = 0;
  json_key(out, "moves");
  json_begin_array(out);
  for (int ply = 0; ply < count; ply++) {
    int scores[C4_MAX_WIDTH];
    bool complete;
    c4_board after = board;
    c4_play(&after, moves[ply]);
    if (c4_status(&after) != GAME_ONGOING && c4_status(&after) != GAME_DRAW) {
      /* a move that wins at once: no column does better, none to search */
      for (int c = 0; c < board.width; c++) scores[c] = C4_NO_SCORE;
      scores[moves[ply]] = o->weak ? 1 : c4_immediate_win_score(&board);
      complete = true;
    } else {
      /* the moves share the record's --time and --nodes */
      batch_budget_step(&budget, count - ply, &limit);
      complete = c4_analyze(&board, table, &limit, o->weak, scores);
      batch_budget_spent(&budget, &limit);
      *nodes += limit.nodes;
    }
    if (!complete && batch_interrupted(o)) return BATCH_STOPPED;
    json_begin_object(out);
    json_key(out, "ply");
    json_int(out, ply + 1);
    json_key(out, "move");
    json_int(out, moves[ply] + 1);
    if (complete) {
      int best = -C4_MAX_CELLS, best_column = 0;
      for (int c = 0; c < board.width; c++)
        if (scores[c] != C4_NO_SCORE && scores[c] > best) {
          best = scores[c];
          best_column = c;
        }
      int played = scores[moves[ply]];
      /* a mistake turns a win into a draw or a loss, or a draw into a
         loss; with --mistake, so does a loss of that many chips to spare
         (Pons' units), a win made slower */
      bool worse = (best > 0) != (played > 0) || (best >= 0) != (played >= 0);
      bool is_mistake = worse || (o->mistake > 0 && best - played >= o->mistake);
      json_key(out, "score");
      json_int(out, played);
      json_key(out, "best");
      json_int(out, best);
      json_key(out, "best_move");
      json_int(out, best_column + 1);
      json_key(out, "loss");
      json_int(out, best - played);
      json_key(out, "mistake");
      json_bool(out, is_mistake);
      mistakes += is_mistake;
    } else {
      json_key(out, "stopped");
      json_cstring(out, limit_reason(&limit));
    }
    json_end_object(out);
    c4_play(&board, moves[ply]);
  }
  json_end_array(out);
  json_key(out, "mistakes");
  json_int(out, mistakes);
  return BATCH_DONE;
}

/* ---- the tasks ---- */

const batch_format c4_format_pons = {
  .name = "pons", .extensions = "", .numbered = false, .sniff = NULL,
  .next = batch_next_line,
};

static const batch_format *const formats[] = {&c4_format_pons, NULL};

/* The empty cells of a position, which is what its solve costs: the
   moves played are the digits before the first space. */
static double solve_cost(const batch_format *format, const batch_record *r) {
  (void)format;
  size_t moves = 0;
  while (moves < r->len && r->text[moves] >= '1' && r->text[moves] <= '9')
    moves++;
  return -(double)moves;
}

const batch_task c4_batch_solve = {
  .game = "connect4", .command = "solve",
  .summary = "the exact score (Pons: 22-k for a win with your k-th chip) and "
             "a best column of every position; agrees with a score column",
  .formats = formats, .start = start, .finish = finish, .run = solve_run,
  .cost = solve_cost, .book_ok = book_ok,
  .options = "--time --nodes --all --weak",
};

const batch_task c4_batch_replay = {
  .game = "connect4", .command = "replay",
  .summary = "every record played out: its moves, final rows, result, and "
             "the first illegal move",
  .formats = formats, .start = NULL, .finish = NULL, .run = replay_run,
  .options = "",
};

const batch_task c4_batch_annotate = {
  .game = "connect4", .command = "annotate",
  .summary = "every move's exact score against the best column's, and the "
             "mistakes",
  .formats = formats, .start = start, .finish = finish, .run = annotate_run,
  .book_ok = book_ok, .options = "--time --nodes --weak --mistake",
};
