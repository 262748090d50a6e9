/*
** batch.c: xiangqi for the batch tools (core/base/batch.h).
**
**   solve     each position of an EPD or FEN file searched (--depth,
**             --time, --nodes; a second without them): the move, score,
**             mate, depth and line, and whether the move agrees with the
**             record's bm, am and dm
**   replay    each game of a PGN file (or each FEN line with its moves):
**             the moves, the final FEN, the result by the rules, the
**             first illegal move, and whether [Result] agrees where the
**             rules end the game
**   annotate  each game of a PGN file with the engine's score before
**             every move and after it, the mistakes, and the game again
**             as PGN with the scores as comments
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/batch.h"
#include "base/search.h"
#include "search.h"
#include "xiangqi.h"

/* ---- formats ---- */

typedef struct pgn_records {
  xq_pgn_reader *reader;
  xq_pgn_game *game;
  const char *data;
  size_t len;
} pgn_records;

static void *pgn_open(const char *path, const char *data, size_t len) {
  (void)path;
  pgn_records *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->reader = xq_pgn_open(data, len, XQ_ENCODING_AUTO);
  r->game = malloc(sizeof *r->game);
  if (!r->reader || !r->game) {
    xq_pgn_close(r->reader);
    free(r->game);
    free(r);
    return NULL;
  }
  r->data = data;
  r->len = len;
  return r;
}

/* The next game's bytes (the whole text when it was UTF-16 and has no
   offsets: the task reads its first game then). */
static bool pgn_read(void *records, batch_record *r) {
  pgn_records *p = records;
  if (xq_pgn_next(p->reader, p->game) == XQ_READ_END) return false;
  bool known = p->game->length > 0 || p->game->offset > 0;
  r->text = known ? p->data + p->game->offset : p->data;
  r->len = known ? p->game->length : p->len;
  r->line = (size_t)p->game->line;
  r->number = (size_t)p->game->number;
  return true;
}

static void pgn_close(void *records) {
  pgn_records *p = records;
  xq_pgn_close(p->reader);
  free(p->game);
  free(p);
}

static bool pgn_sniff(const char *data, size_t len) {
  return xq_guess_format("", data, len) == XQ_FORMAT_PGN;
}

static bool epd_sniff(const char *data, size_t len) {
  return xq_guess_format("", data, len) == XQ_FORMAT_EPD;
}

const batch_format xq_format_pgn = {
  .name = "pgn", .extensions = ".pgn", .numbered = true, .sniff = pgn_sniff,
  .open = pgn_open, .read = pgn_read, .close = pgn_close,
};

/* An EPD file's lines, blank ones skipped as EPD files have them
   between groups of positions. */
static bool epd_next(const char *data, size_t len, size_t *at,
                     batch_record *r) {
  while (batch_next_line(data, len, at, r)) {
    size_t i = 0;
    while (i < r->len && (r->text[i] == ' ' || r->text[i] == '\t')) i++;
    if (i < r->len) return true;
    r->number--;
  }
  return false;
}

const batch_format xq_format_epd = {
  .name = "epd", .extensions = ".epd .fen", .numbered = false,
  .sniff = epd_sniff, .next = epd_next,
};

/* ---- reading one record ---- */

/* The EPD or FEN line of a record, read by a reader that the caller
   closes (its strings are the record's), or NULL with the error
   written. */
static xq_epd_reader *read_epd(const batch_record *r, xq_epd_record *record,
                               json_out *out) {
  if (batch_blank(r, out)) return NULL;
  xq_epd_reader *reader = xq_epd_open(r->text, r->len, XQ_ENCODING_AUTO);
  if (!reader) {
    batch_error(out, "not enough memory");
    return NULL;
  }
  xq_read_status status = xq_epd_next(reader, record);
  if (status == XQ_READ_OK) return reader;
  if (status == XQ_READ_END) batch_error(out, "no position on the line");
  else batch_error(out, "%s", record->message);
  xq_epd_close(reader);
  return NULL;
}

/* The PGN game of a record, read by a reader that the caller closes
   (the game's tags and moves are its), or NULL with the error written.
   *illegal: the game stops at a move that could not be played. */
static xq_pgn_reader *read_pgn(const batch_record *r, xq_pgn_game *game,
                               bool *illegal, json_out *out) {
  xq_pgn_reader *reader = xq_pgn_open(r->text, r->len, XQ_ENCODING_AUTO);
  if (!reader) {
    batch_error(out, "not enough memory");
    return NULL;
  }
  xq_read_status status = xq_pgn_next(reader, game);
  *illegal = status == XQ_READ_BAD;
  if (status != XQ_READ_END) return reader;
  batch_error(out, "no game in the record");
  xq_pgn_close(reader);
  return NULL;
}

/* ---- writing ---- */

static void write_move(json_out *out, const xq_position *pos, xq_move move) {
  char text[16];
  size_t n = xq_format_move(pos, move, XQ_ICCS, text, sizeof text);
  json_plain(out, text, n < sizeof text ? n : sizeof text - 1);
}

static void write_fen(json_out *out, const char *key, const xq_position *pos) {
  char fen[128];
  size_t n = xq_to_fen(pos, fen, sizeof fen);
  json_key(out, key);
  json_string(out, fen, n < sizeof fen ? n : sizeof fen - 1);
}

/* The result the rules give, as PGN writes results, or NULL while the
   game goes on; *reason says why. */
static const char *rules_result(const xq_position *pos, const char **reason) {
  static const char *const reasons[] = {
    [XQ_CHECKMATE] = "checkmate", [XQ_STALEMATE] = "stalemate",
    [XQ_PERPETUAL_CHECK] = "perpetual check",
    [XQ_PERPETUAL_CHASE] = "perpetual chase", [XQ_REPETITION] = "repetition",
    [XQ_MOVE_LIMIT] = "move limit",
  };
  game_status status;
  xq_ending ending = xq_ending_of(pos, &status);
  if (ending == XQ_PLAYING) return NULL;
  *reason = reasons[ending];
  return status == GAME_WIN_0 ? "1-0" : status == GAME_WIN_1 ? "0-1" : "1/2-1/2";
}

/* ---- searching ---- */

#define DEFAULT_SECONDS 1.0
#define TABLE_MIB 16

static void *start(const batch_options *o) {
  (void)o;
  return tt_new(TABLE_MIB);
}

static void finish(void *table) { tt_free(table); }

/* Searches pos as the options say, within its share of the record's
   --time and --nodes (steps_left: batch_budget_step), or for a second
   when no option limits it; false when Ctrl-C stopped it. */
static bool search(tt_table *table, xq_position *pos, const batch_options *o,
                   batch_budget *budget, double steps_left,
                   xq_search_result *result) {
  search_limit limit;
  batch_budget_step(budget, steps_left, &limit);
  if (!o->seconds && !o->nodes && !o->depth) limit.max_seconds = DEFAULT_SECONDS;
  xq_search_options options = {0};
  options.max_depth = o->depth > XQ_MAX_PLY ? XQ_MAX_PLY : o->depth;
  options.tt = table;
  xq_search(pos, &options, &limit, result);
  batch_budget_spent(budget, &limit);
  return !(o->interrupt && *o->interrupt);
}

static void write_search(json_out *out, xq_position *pos,
                         const xq_search_result *result) {
  if (result->best) {
    JSON_KEY(out, "move");
    write_move(out, pos, result->best);
  }
  JSON_KEY(out, "score");
  json_int(out, result->score);
  if (search_is_win_score(result->score)) {
    int plies = GAME_SCORE_WIN - abs(result->score);
    JSON_KEY(out, "mate");
    json_int(out, result->score > 0 ? (plies + 1) / 2 : -(plies / 2));
  }
  JSON_KEY(out, "depth");
  json_int(out, result->depth);
  JSON_KEY(out, "pv");
  json_begin_array(out);
  xq_undo undos[XQ_MAX_PLY];
  int made = 0;
  for (; made < result->pv_length; made++) {
    write_move(out, pos, result->pv[made]);
    xq_make(pos, result->pv[made], &undos[made]);
  }
  while (made-- > 0) xq_unmake(pos, result->pv[made], &undos[made]);
  json_end_array(out);
}

static batch_verdict solve_record(tt_table *table, xq_epd_record *record,
                                  const batch_options *o, json_out *out,
                                  uint64_t *nodes);

static bool in_list(const xq_move *list, int n, xq_move move) {
  for (int i = 0; i < n; i++)
    if (list[i] == move) return true;
  return false;
}

static batch_verdict solve_run(void *table, const batch_format *format,
                               const batch_record *r, const batch_options *o,
                               json_out *out, uint64_t *nodes) {
  (void)format;
  xq_epd_record record;
  xq_epd_reader *reader = read_epd(r, &record, out);
  if (!reader) return BATCH_ERROR;
  batch_verdict v = solve_record(table, &record, o, out, nodes);
  xq_epd_close(reader);
  return v;
}

static batch_verdict solve_record(tt_table *table, xq_epd_record *record_,
                                  const batch_options *o, json_out *out,
                                  uint64_t *nodes) {
  xq_epd_record record = *record_;
  xq_position pos = record.plies ? record.end : record.start;
  if (*record.id) {
    JSON_KEY(out, "epd_id");
    json_cstring(out, record.id);
  }
  write_fen(out, "fen", &pos);
  if (xq_status(&pos) != GAME_ONGOING) {
    const char *reason = "";
    rules_result(&pos, &reason);
    batch_error(out, "the game is over (%s)", reason);
    return BATCH_ERROR;
  }
  xq_search_result result;
  tt_clear(table);              /* the line owes nothing to the records before */
  batch_budget budget;
  batch_budget_start(&budget, o);
  if (!search(table, &pos, o, &budget, 1, &result)) return BATCH_STOPPED;
  *nodes = result.nodes;
  write_search(out, &pos, &result);
  JSON_KEY(out, "nodes");
  json_int(out, (int64_t)result.nodes);
  bool checked = record.bm_count || record.am_count || record.dm;
  if (!checked) return BATCH_DONE;
  bool agrees = true;
  if (record.bm_count) agrees &= in_list(record.bm, record.bm_count, result.best);
  if (record.am_count) agrees &= !in_list(record.am, record.am_count, result.best);
  if (record.dm) {
    int plies = GAME_SCORE_WIN - result.score;
    agrees &= search_is_win_score(result.score) && result.score > 0 &&
              (plies + 1) / 2 <= record.dm;
    JSON_KEY(out, "dm");
    json_int(out, record.dm);
  }
  if (record.bm_count) {
    JSON_KEY(out, "bm");
    json_begin_array(out);
    for (int i = 0; i < record.bm_count; i++) write_move(out, &pos, record.bm[i]);
    json_end_array(out);
  }
  if (record.am_count) {
    JSON_KEY(out, "am");
    json_begin_array(out);
    for (int i = 0; i < record.am_count; i++) write_move(out, &pos, record.am[i]);
    json_end_array(out);
  }
  JSON_KEY(out, "agrees");
  json_bool(out, agrees);
  return agrees ? BATCH_AGREES : BATCH_DISAGREES;
}

/* ---- replay ---- */

/* What replay and annotate say of a game: the tags that name it, the
   moves, the end; false (with the error written) for a game that could
   not be read at all. */
static void write_tags(json_out *out, const xq_pgn_game *game) {
  static const char *const names[] = {"Event", "Date", "Red", "Black", NULL};
  for (int i = 0; names[i]; i++) {
    const char *value = xq_pgn_tag(game, names[i]);
    if (!value) continue;
    char key[16];
    snprintf(key, sizeof key, "%c%s", names[i][0] - 'A' + 'a', names[i] + 1);
    json_key(out, key);
    json_cstring(out, value);
  }
}

static batch_verdict replay_game(const xq_pgn_game *game, bool illegal,
                                 json_out *out) {
  write_tags(out, game);
  JSON_KEY(out, "moves");
  json_int(out, game->plies);
  write_fen(out, "fen", &game->end);
  if (illegal) {
    JSON_KEY(out, "illegal");
    json_begin_object(out);
    JSON_KEY(out, "ply");
    json_int(out, game->error_ply);
    if (*game->error_move) {
      JSON_KEY(out, "move");
      json_cstring(out, game->error_move);
      JSON_KEY(out, "reason");
      json_cstring(out, game->error_reason);
    }
    JSON_KEY(out, "line");
    json_int(out, game->error_line);
    json_end_object(out);
    batch_error(out, "%s", game->message);
    return BATCH_ERROR;
  }
  const char *reason = NULL;
  const char *by_rules = rules_result(&game->end, &reason);
  JSON_KEY(out, "result");
  if (by_rules) json_cstring(out, by_rules);
  else json_null(out);
  if (reason) {
    JSON_KEY(out, "reason");
    json_cstring(out, reason);
  }
  if (*game->result && strcmp(game->result, "*") != 0) {
    JSON_KEY(out, "recorded");
    json_cstring(out, game->result);
    /* A game that the rules end must end as the record says; one that
       they do not (a resignation, a draw agreed) cannot be checked. */
    if (by_rules) {
      bool agrees = strcmp(by_rules, game->result) == 0;
      JSON_KEY(out, "agrees");
      json_bool(out, agrees);
      return agrees ? BATCH_AGREES : BATCH_DISAGREES;
    }
  }
  return BATCH_DONE;
}

static batch_verdict replay_run(void *unused, const batch_format *format,
                                const batch_record *r, const batch_options *o,
                                json_out *out, uint64_t *nodes) {
  (void)unused;
  (void)o;
  (void)nodes;
  if (format == &xq_format_epd) {           /* a FEN line and its moves */
    xq_epd_record record;
    xq_epd_reader *reader = read_epd(r, &record, out);
    if (!reader) return BATCH_ERROR;
    xq_epd_close(reader);                   /* what is used is copied */
    JSON_KEY(out, "moves");
    json_int(out, record.plies);
    write_fen(out, "fen", record.plies ? &record.end : &record.start);
    const char *reason = NULL;
    const char *by_rules = rules_result(record.plies ? &record.end : &record.start,
                                        &reason);
    JSON_KEY(out, "result");
    if (by_rules) json_cstring(out, by_rules);
    else json_null(out);
    return BATCH_DONE;
  }
  xq_pgn_game *game = malloc(sizeof *game);
  if (!game) {
    batch_error(out, "not enough memory");
    return BATCH_ERROR;
  }
  bool illegal;
  xq_pgn_reader *reader = read_pgn(r, game, &illegal, out);
  batch_verdict v = reader ? replay_game(game, illegal, out) : BATCH_ERROR;
  xq_pgn_close(reader);
  free(game);
  return v;
}

/* ---- annotate ---- */

/* A loss of this much (in the evaluation's units: a soldier is 30, a
   rook 600) against the best move is a mistake unless --mistake says. */
#define DEFAULT_MISTAKE 100

/* The annotated game as PGN: ICCS moves, each mistake followed by a
   comment with its score, the best move and its score. */
typedef struct annotated {
  char *text;
  size_t len, cap;
  bool failed;
} annotated;

static void add(annotated *a, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void add(annotated *a, const char *format, ...) {
  if (a->failed) return;
  for (;;) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(a->text ? a->text + a->len : NULL,
                      a->text ? a->cap - a->len : 0, format, args);
    va_end(args);
    if (n < 0) {
      a->failed = true;
      return;
    }
    if (a->text && a->len + (size_t)n < a->cap) {
      a->len += (size_t)n;
      return;
    }
    size_t cap = a->cap ? a->cap * 2 : 4096;
    while (cap <= a->len + (size_t)n) cap *= 2;
    char *more = realloc(a->text, cap);
    if (!more) {
      a->failed = true;
      return;
    }
    a->text = more;
    a->cap = cap;
  }
}

static batch_verdict annotate_run(void *table, const batch_format *format,
                                  const batch_record *r,
                                  const batch_options *o, json_out *out,
                                  uint64_t *nodes) {
  (void)format;
  xq_pgn_game *game = malloc(sizeof *game);
  if (!game) {
    batch_error(out, "not enough memory");
    return BATCH_ERROR;
  }
  bool illegal;
  xq_pgn_reader *reader = read_pgn(r, game, &illegal, out);
  if (!reader) {
    free(game);
    return BATCH_ERROR;
  }
  int threshold = o->mistake > 0 ? (int)o->mistake : DEFAULT_MISTAKE;
  /* What the table kept from the games before would change this game's
     scores: each starts from a clean one, as solve's positions do. */
  tt_clear(table);
  /* --time and --nodes are the game's, shared among its moves: two
     searches a move, the position's and, when another move was played,
     that move's own */
  batch_budget budget;
  batch_budget_start(&budget, o);
  annotated pgn = {0};
  for (int i = 0; i < game->tag_count; i++)
    add(&pgn, "[%s \"%s\"]\n", game->tags[i].name, game->tags[i].value);
  add(&pgn, "\n");
  write_tags(out, game);
  xq_position pos = game->start;
  int mistakes = 0;
  batch_verdict v = BATCH_DONE;
  JSON_KEY(out, "moves");
  json_begin_array(out);
  for (int ply = 0; ply < game->plies; ply++) {
    xq_search_result best, after;
    double steps_left = 2.0 * (game->plies - ply);
    if (!search(table, &pos, o, &budget, steps_left, &best)) {
      v = BATCH_STOPPED;
      break;
    }
    *nodes += best.nodes;
    xq_move move = game->moves[ply];
    char text[16], best_text[16];
    xq_format_move(&pos, move, XQ_ICCS, text, sizeof text);
    xq_format_move(&pos, best.best, XQ_ICCS, best_text, sizeof best_text);
    int played = best.score;
    if (move != best.best) {                /* the move's own value */
      xq_undo undo;
      xq_make(&pos, move, &undo);
      bool over = xq_status(&pos) != GAME_ONGOING;
      if (over) {
        played = -game_final_score(&xq_class, &pos);
      } else if (search(table, &pos, o, &budget, steps_left - 1, &after)) {
        *nodes += after.nodes;
        played = -after.score;
      } else {
        xq_unmake(&pos, move, &undo);
        v = BATCH_STOPPED;
        break;
      }
      xq_unmake(&pos, move, &undo);
    }
    if (played > best.score) {     /* the deeper look found it better */
      best.score = played;
      best.best = move;
      memcpy(best_text, text, sizeof text);
    }
    int loss = best.score - played;
    bool mistake = loss >= threshold;
    mistakes += mistake;
    json_begin_object(out);
    JSON_KEY(out, "ply");
    json_int(out, ply + 1);
    JSON_KEY(out, "move");
    json_cstring(out, text);
    JSON_KEY(out, "score");
    json_int(out, played);
    JSON_KEY(out, "best");
    json_cstring(out, best_text);
    JSON_KEY(out, "best_score");
    json_int(out, best.score);
    JSON_KEY(out, "loss");
    json_int(out, loss);
    JSON_KEY(out, "mistake");
    json_bool(out, mistake);
    json_end_object(out);
    if (ply % 2 == 0 || ply == 0)
      add(&pgn, "%s%d.%s ", ply ? "\n" : "", ply / 2 + 1,
          pos.turn == XQ_BLACK && ply == 0 ? ".." : "");
    add(&pgn, "%s ", text);
    if (mistake)
      add(&pgn, "{%d, best %s %d} ", played, best_text, best.score);
    xq_undo undo;
    xq_make(&pos, move, &undo);
  }
  json_end_array(out);
  if (v != BATCH_STOPPED) {
    add(&pgn, "%s\n", *game->result ? game->result : "*");
    JSON_KEY(out, "mistakes");
    json_int(out, mistakes);
    if (!pgn.failed) {
      JSON_KEY(out, "record");
      json_string(out, pgn.text, pgn.len);
    }
    if (illegal) {
      batch_error(out, "%s", game->message);
      v = BATCH_ERROR;
    }
  }
  free(pgn.text);
  xq_pgn_close(reader);
  free(game);
  return v;
}

/* ---- the tasks ---- */

static const batch_format *const solve_formats[] = {&xq_format_epd, NULL};
static const batch_format *const game_formats[] = {&xq_format_pgn,
                                                   &xq_format_epd, NULL};
static const batch_format *const pgn_only[] = {&xq_format_pgn, NULL};

const batch_task xq_batch_solve = {
  .game = "xiangqi", .command = "solve",
  .summary = "each position searched (a second, or --depth, --time, --nodes): "
             "move, score, mate, depth, line; agrees with bm, am and dm",
  .formats = solve_formats, .start = start, .finish = finish,
  .run = solve_run, .options = "--time --nodes --depth",
};

const batch_task xq_batch_replay = {
  .game = "xiangqi", .command = "replay",
  .summary = "each game (PGN in ICCS, WXF or Chinese; UTF-8, GBK, Big5): "
             "moves, final FEN, result by the rules, first illegal move; "
             "agrees with [Result] where the rules end the game",
  .formats = game_formats, .start = NULL, .finish = NULL, .run = replay_run,
  .options = "",
};

const batch_task xq_batch_annotate = {
  .game = "xiangqi", .command = "annotate",
  .summary = "each game with the engine's score of every move against the "
             "best (--depth, --time), the mistakes, and the game as PGN "
             "with them as comments",
  .formats = pgn_only, .record_format = "PGN", .start = start,
  .finish = finish, .run = annotate_run,
  .options = "--time --nodes --depth --mistake",
};
