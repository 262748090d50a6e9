/*
** batch.c: Othello for the batch tools (core/base/batch.h), on the
** community's files (formats.h): OBF lines with their answers (the FFO
** endgame tests), transcripts, WTHOR databases and GGF games.
**
**   solve     each position solved exactly: the score and a best move
**             (--all: every move's), and whether the OBF answers agree
**   replay    each game: the moves, the final board, the result by the
**             rules, the first illegal move, and whether WTHOR's count
**             or GGF's result agrees
**   annotate  each game with the value of every move against the best
**             one: exact from --exact empty squares on (20), the
**             search's before; the mistakes; the game again as GGF with
**             the values as its evaluations
**
** Scores are disc differences for the side to move, the empty squares
** going to the winner, as the FFO tests count them.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/batch.h"
#include "base/search.h"
#include "base/tt.h"
#include "formats.h"
#include "reversi.h"
#include "solve.h"

/* ---- lines: OBF and transcripts ---- */

/* A line a record, blank lines and comments ('#', '%') skipped as
   reversi.read skips them. */
static bool text_next(const char *data, size_t len, size_t *at,
                      batch_record *r) {
  while (batch_next_line(data, len, at, r)) {
    size_t i = 0;
    while (i < r->len && (r->text[i] == ' ' || r->text[i] == '\t')) i++;
    if (i < r->len && r->text[i] != '%') return true;
    r->number--;
  }
  return false;
}

/* The first record line of data, for the sniffers. */
static bool first_line(const char *data, size_t len, batch_record *r) {
  size_t at = 0;
  memset(r, 0, sizeof *r);
  return text_next(data, len, &at, r);
}

static bool obf_sniff(const char *data, size_t len) {
  batch_record r;
  reversi_board board;
  return first_line(data, len, &r) && memchr(r.text, ';', r.len) &&
         reversi_parse_board(r.text, r.len, &board) == NULL;
}

static bool transcript_sniff(const char *data, size_t len) {
  batch_record r;
  if (!first_line(data, len, &r)) return false;
  reversi_record rec;
  reversi_record_error err;
  return reversi_transcript_read(r.text, r.len, 8, &rec, &err) == NULL;
}

const batch_format reversi_format_obf = {
  .name = "obf", .extensions = ".obf", .numbered = false,
  .sniff = obf_sniff, .next = text_next,
};

const batch_format reversi_format_transcript = {
  .name = "transcript", .extensions = ".txt", .numbered = false,
  .sniff = transcript_sniff, .next = text_next,
};

/* ---- GGF ---- */

static bool ggf_sniff(const char *data, size_t len) {
  size_t i = 0;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                     data[i] == '\n'))
    i++;
  return i + 1 < len && data[i] == '(' && data[i + 1] == ';';
}

static size_t lines_in(const char *from, const char *to) {
  size_t n = 0;
  while (from < to && (from = memchr(from, '\n', (size_t)(to - from)))) {
    n++;
    from++;
  }
  return n;
}

/* A game from "(;" to ";)"; text before a game that is not blank is a
   record too (the task says it is not a game), and so is a game the file
   ends in. */
static bool ggf_next(const char *data, size_t len, size_t *at,
                     batch_record *r) {
  size_t i = *at;
  while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' ||
                     data[i] == '\n'))
    i++;
  if (i >= len) {
    *at = len;
    return false;
  }
  size_t length = 0;
  if (data[i] == '(' && i + 1 < len && data[i + 1] == ';') {
    if (reversi_ggf_span(data + i, len - i, &length) == 0) length = len - i;
  } else {                                  /* up to the next game */
    while (i + length < len &&
           !(data[i + length] == '(' && i + length + 1 < len &&
             data[i + length + 1] == ';'))
      length++;
  }
  r->line = r->text ? r->line + lines_in(r->text, data + i)
                    : 1 + lines_in(data, data + i);
  r->text = data + i;
  r->len = length;
  r->number++;
  *at = i + length;
  return true;
}

const batch_format reversi_format_ggf = {
  .name = "ggf", .extensions = ".ggf", .numbered = true,
  .sniff = ggf_sniff, .next = ggf_next,
};

/* ---- WTHOR ---- */

/* A .wtb: its header, the names beside it, and what is wrong with the
   end of it, which the record after its last whole game reports. */
typedef struct wtb_file {
  reversi_wthor_header header;
  reversi_reader names;         /* only its names are used */
  char names_error[256];        /* why they could not be read, or "" */
  const char *data;
  size_t games;                 /* whole games to hand out */
  size_t given;
  char tail[256];               /* what is wrong after them, or "" */
} wtb_file;

static bool wtb_sniff(const char *data, size_t len) {
  reversi_wthor_header h;
  return len >= REVERSI_WTHOR_HEADER_SIZE &&
         (len - REVERSI_WTHOR_HEADER_SIZE) % REVERSI_WTHOR_GAME_SIZE == 0 &&
         !reversi_wthor_read_header((const uint8_t *)data, &h) &&
         h.games == (len - REVERSI_WTHOR_HEADER_SIZE) / REVERSI_WTHOR_GAME_SIZE;
}

/* The file name beside path. */
static void beside(const char *path, const char *name, char *out, size_t cap) {
  const char *slash = strrchr(path, '/');
  int folder = slash ? (int)(slash - path + 1) : 0;
  snprintf(out, cap, "%.*s%s", folder, path, name);
}

static const char *if_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? path : NULL;
}

static void *wtb_open(const char *path, const char *data, size_t len) {
  wtb_file *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->data = data;
  const char *why = len < REVERSI_WTHOR_HEADER_SIZE
                  ? "shorter than a WTHOR header (16 bytes)"
                  : reversi_wthor_read_header((const uint8_t *)data, &f->header);
  if (why) {
    snprintf(f->tail, sizeof f->tail, "not a WTHOR file: %s", why);
    return f;
  }
  size_t whole = (len - REVERSI_WTHOR_HEADER_SIZE) / REVERSI_WTHOR_GAME_SIZE;
  size_t extra = (len - REVERSI_WTHOR_HEADER_SIZE) % REVERSI_WTHOR_GAME_SIZE;
  size_t counted = f->header.games;
  f->games = whole < counted ? whole : counted;
  if (whole < counted && extra)
    snprintf(f->tail, sizeof f->tail, "game %zu is cut short: %zu of its 68 bytes",
             whole + 1, extra);
  else if (whole < counted)
    snprintf(f->tail, sizeof f->tail,
             "the file ends before game %zu (the header counts %zu)", whole + 1,
             counted);
  else if (whole > counted || extra)
    snprintf(f->tail, sizeof f->tail,
             "more bytes after the %zu games the header counts", counted);
  if (path) {
    char players[4096], tournaments[4096];
    beside(path, "WTHOR.JOU", players, sizeof players);
    beside(path, "WTHOR.TRN", tournaments, sizeof tournaments);
    if (!reversi_reader_names(&f->names, if_file(players), if_file(tournaments)))
      snprintf(f->names_error, sizeof f->names_error, "%s", f->names.error);
  }
  return f;
}

static bool wtb_read(void *file, batch_record *r) {
  wtb_file *f = file;
  if (f->given > f->games || (f->given == f->games && !*f->tail)) return false;
  r->text = f->data + REVERSI_WTHOR_HEADER_SIZE +
            f->given * REVERSI_WTHOR_GAME_SIZE;
  r->len = f->given < f->games ? REVERSI_WTHOR_GAME_SIZE : 0;
  r->line = 0;
  r->number = ++f->given;
  r->context = f;
  return true;
}

static void wtb_close(void *file) {
  wtb_file *f = file;
  reversi_reader_close(&f->names);
  free(f);
}

const batch_format reversi_format_wtb = {
  .name = "wtb", .extensions = ".wtb", .numbered = true, .sniff = wtb_sniff,
  .open = wtb_open, .read = wtb_read, .close = wtb_close,
};

/* ---- reading one record ---- */

/* A record read: the game (or position) and where its moves stopped. */
typedef struct read_game {
  reversi_record rec;
  char *strings;                /* GGF's texts */
  char names[3][64];            /* WTHOR's */
  int illegal;                  /* 1-based ply of a move not played, or 0 */
  char illegal_move[48];
  const char *illegal_why;
} read_game;

static void set_illegal(read_game *g, int ply, const char *text, size_t len,
                        const char *why) {
  g->illegal = ply;
  size_t n = len < sizeof g->illegal_move - 1 ? len : sizeof g->illegal_move - 1;
  memcpy(g->illegal_move, text, n);
  g->illegal_move[n] = '\0';
  g->illegal_why = why;
}

static bool read_wtb(const batch_record *r, read_game *g, json_out *out) {
  const wtb_file *f = r->context;
  if (r->number > f->games) {
    batch_error(out, "%s", f->tail);
    return false;
  }
  reversi_wthor_game game;
  int move;
  const char *why = reversi_wthor_read_game((const uint8_t *)r->text, &game,
                                            &move);
  if (why) {
    if (move)
      batch_error(out, "move %d (byte %d): %s", move,
                  (uint8_t)r->text[7 + move], why);
    else
      batch_error(out, "%s", why);
    return false;
  }
  reversi_record *rec = &g->rec;
  reversi_record_init(rec, 8);
  rec->format = REVERSI_FORMAT_WTB;
  rec->year = f->header.game_year;
  rec->depth = f->header.depth;
  rec->black_index = game.black;
  rec->white_index = game.white;
  rec->tournament_index = game.tournament;
  rec->black_discs = game.black_discs;
  rec->theoretical = game.theoretical;
  rec->black = reversi_wthor_name(&f->names.players, game.black, g->names[0], 64);
  rec->white = reversi_wthor_name(&f->names.players, game.white, g->names[1], 64);
  rec->tournament = reversi_wthor_name(&f->names.tournaments, game.tournament,
                                       g->names[2], 64);
  int bad = reversi_wthor_replay(&game, rec);
  if (bad) {
    char name[5];
    reversi_square_name(&rec->board, game.moves[bad - 1], name);
    set_illegal(g, rec->plies + 1, name, strlen(name), "illegal move");
  }
  return true;
}

static bool read_text(const batch_format *format, const batch_record *r,
                      read_game *g, json_out *out) {
  reversi_record *rec = &g->rec;
  reversi_record_init(rec, 8);          /* every field absent until read */
  if (memchr(r->text, '\0', r->len)) {
    batch_error(out, "a zero byte: binary data, not text");
    return false;
  }
  if (format == &reversi_format_obf) {
    size_t at;
    const char *why = reversi_obf_read(r->text, r->len, rec, &at);
    if (why) batch_error(out, "%s (at byte %zu)", why, at + 1);
    return !why;
  }
  reversi_record_error err;
  const char *why = reversi_transcript_read(r->text, r->len, 8, rec, &err);
  if (why && err.move == 0) {
    batch_error(out, "bad board string '%s' (%s)",
                batch_shown(r->text, err.length), why);
    return false;
  }
  if (why) set_illegal(g, err.move, r->text + err.offset, err.length, err.why);
  return true;
}

static bool read_ggf(const batch_record *r, read_game *g, json_out *out) {
  if (r->len < 2 || r->text[0] != '(' || r->text[1] != ';') {
    batch_error(out, "text outside a game: '%s'", batch_shown(r->text, r->len));
    return false;
  }
  g->strings = malloc(2 * r->len + 64);
  if (!g->strings) {
    batch_error(out, "not enough memory");
    return false;
  }
  reversi_record_init(&g->rec, 8);
  size_t at = 0;
  const char *why = reversi_ggf_read(r->text, r->len, &g->rec, g->strings, &at);
  if (why) {
    batch_error(out, "%s (line %zu)", why,
                r->line + lines_in(r->text, r->text + (at < r->len ? at : r->len)));
    return false;
  }
  return true;
}

/* Reads the record; false with the error written.  Free g->strings. */
static bool read_record(const batch_format *format, const batch_record *r,
                        read_game *g, json_out *out) {
  memset(g, 0, sizeof *g);
  if (format == &reversi_format_wtb) return read_wtb(r, g, out);
  if (format == &reversi_format_ggf) return read_ggf(r, g, out);
  return read_text(format, r, g, out);
}

/* ---- writing ---- */

static void write_square(json_out *out, const reversi_board *board, int square) {
  char name[5];
  reversi_square_name(board, square, name);
  json_cstring(out, name);
}

/* An annotated move's object begun: its ply (from 1) and its square. */
static void begin_ply(json_out *out, int ply, const reversi_board *board,
                      int square) {
  json_begin_object(out);
  JSON_KEY(out, "ply");
  json_int(out, ply + 1);
  JSON_KEY(out, "move");
  write_square(out, board, square);
}

static void write_board(json_out *out, const char *key,
                        const reversi_board *board) {
  char text[80];
  size_t n = reversi_format_board(board, text, sizeof text);
  json_key(out, key);
  json_string(out, text, n < sizeof text ? n : sizeof text - 1);
}

static void write_names(json_out *out, const reversi_record *rec) {
  const char *keys[] = {"black", "white", "tournament"};
  const char *values[] = {rec->black, rec->white, rec->tournament};
  for (int i = 0; i < 3; i++) {
    if (!values[i] || !*values[i]) continue;
    json_key(out, keys[i]);
    json_cstring(out, values[i]);
  }
  if (rec->year > 0) {
    JSON_KEY(out, "year");
    json_int(out, rec->year);
  }
}

/* Black's discs minus white's at the end of a game, the empty squares
   going to the winner. */
static int black_margin(const reversi_board *board) {
  int score = reversi_final_score(board->player, board->opponent, board->mask);
  return board->turn == REVERSI_BLACK ? score : -score;
}

/* The discs placed (passes not counted). */
static int discs_played(const reversi_record *rec) {
  int n = 0;
  for (int i = 0; i < rec->plies; i++) n += rec->moves[i] != REVERSI_PASS;
  return n;
}

static int empties(const reversi_board *board) {
  return __builtin_popcountll(board->mask & ~(board->player | board->opponent));
}

static void write_illegal(json_out *out, const read_game *g) {
  JSON_KEY(out, "illegal");
  json_begin_object(out);
  JSON_KEY(out, "ply");
  json_int(out, g->illegal);
  JSON_KEY(out, "move");
  json_cstring(out, g->illegal_move);
  JSON_KEY(out, "reason");
  json_cstring(out, g->illegal_why);
  json_end_object(out);
  batch_error(out, "move %d '%s' is not legal (%s)", g->illegal,
              g->illegal_move, g->illegal_why);
}

/* ---- the worker: a solver, and a table for the midgame search ---- */

#define SOLVER_BITS 20
#define TABLE_MIB 16
#define DEFAULT_EXACT 20        /* annotate: exact from this many empties */
#define DEFAULT_DEPTH 8         /* annotate: the search before */
#define DEFAULT_MISTAKE 4       /* discs */

typedef struct worker {
  reversi_solver *solver;
  tt_table *table;
} worker;

static void *start(const batch_options *o) {
  (void)o;
  worker *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->solver = reversi_solver_new(SOLVER_BITS);
  w->table = tt_new(TABLE_MIB);
  if (!w->solver || !w->table) {
    reversi_solver_free(w->solver);
    tt_free(w->table);
    free(w);
    return NULL;
  }
  return w;
}

static void finish(void *data) {
  worker *w = data;
  reversi_solver_free(w->solver);
  tt_free(w->table);
  free(w);
}

/* ---- solve ---- */

/* The listed score of square among the OBF answers, or false. */
static bool answer_of(const reversi_record *rec, int square, int *score) {
  for (int i = 0; i < rec->answers; i++)
    if (rec->answer_square[i] == square) {
      *score = rec->answer_score[i];
      return true;
    }
  return false;
}

static batch_verdict solve_run(void *data, const batch_format *format,
                               const batch_record *r, const batch_options *o,
                               json_out *out, uint64_t *nodes) {
  worker *w = data;
  read_game g;
  bool ok = read_record(format, r, &g, out);
  free(g.strings);
  if (!ok) return BATCH_ERROR;
  if (g.illegal) {
    write_illegal(out, &g);
    return BATCH_ERROR;
  }
  reversi_board board = g.rec.board;
  write_board(out, "board", &board);
  JSON_KEY(out, "empties");
  json_int(out, empties(&board));
  if (reversi_is_over(&board)) {
    batch_error(out, "the game is over (black %+d)", black_margin(&board));
    return BATCH_ERROR;
  }
  search_limit limit;
  batch_limit(o, &limit);
  /* among moves of one score, the one found depends on what the table
     holds: a clean one, so that the line owes nothing to the records
     before it */
  reversi_solver_clear(w->solver);
  reversi_solution s = reversi_solve(w->solver, &board, &limit);
  *nodes = limit.nodes;
  if (!s.complete && batch_interrupted(o)) return BATCH_STOPPED;
  if (!s.complete) {
    JSON_KEY(out, "lower");
    json_int(out, s.lower);
    JSON_KEY(out, "upper");
    json_int(out, s.upper);
    JSON_KEY(out, "stopped");
    json_cstring(out, limit_reason(&limit));
  } else {
    JSON_KEY(out, "score");
    json_int(out, s.score);
    JSON_KEY(out, "best");
    write_square(out, &board, s.best);
  }
  int scores[64];
  bool all = o->all && s.complete && reversi_legal(&board) &&
             reversi_solve_all(w->solver, &board, &limit, scores);
  *nodes = limit.nodes;
  if (o->all && s.complete && !all && batch_interrupted(o)) return BATCH_STOPPED;
  if (all) {
    JSON_KEY(out, "all");
    json_begin_object(out);
    for (uint64_t m = reversi_legal(&board); m; m &= m - 1) {
      char name[5];
      reversi_square_name(&board, __builtin_ctzll(m), name);
      json_key(out, name);
      json_int(out, scores[__builtin_ctzll(m)]);
    }
    json_end_object(out);
  }
  JSON_KEY(out, "nodes");
  json_int(out, (int64_t)*nodes);
  if (g.rec.answers == 0) return BATCH_DONE;
  int expected = g.rec.answer_score[0];
  for (int i = 1; i < g.rec.answers; i++)
    if (g.rec.answer_score[i] > expected) expected = g.rec.answer_score[i];
  JSON_KEY(out, "expected");
  json_int(out, expected);
  /* bounds that hold the expected score prove nothing about it */
  bool agrees = s.complete && s.score == expected;
  int listed;                   /* the move found, where the file scores it */
  if (s.complete && answer_of(&g.rec, s.best, &listed) && listed != expected)
    agrees = false;
  if (all) {                    /* every move the file scores */
    JSON_KEY(out, "wrong");
    json_begin_array(out);
    for (int i = 0; i < g.rec.answers; i++) {
      int square = g.rec.answer_square[i];
      if (square != REVERSI_PASS && scores[square] != g.rec.answer_score[i]) {
        write_square(out, &board, square);
        agrees = false;
      }
    }
    json_end_array(out);
  }
  JSON_KEY(out, "agrees");
  json_bool(out, agrees);
  return agrees ? BATCH_AGREES : BATCH_DISAGREES;
}

/* ---- replay ---- */

static batch_verdict replay_run(void *unused, const batch_format *format,
                                const batch_record *r, const batch_options *o,
                                json_out *out, uint64_t *nodes) {
  (void)unused;
  (void)o;
  (void)nodes;
  read_game g;
  if (!read_record(format, r, &g, out)) {
    free(g.strings);
    return BATCH_ERROR;
  }
  const reversi_record *rec = &g.rec;
  write_names(out, rec);                    /* texts in g.strings */
  free(g.strings);
  JSON_KEY(out, "moves");
  json_int(out, discs_played(rec));
  write_board(out, "board", &rec->board);
  if (g.illegal) {
    write_illegal(out, &g);
    return BATCH_ERROR;
  }
  bool over = reversi_is_over(&rec->board);
  int margin = black_margin(&rec->board);
  JSON_KEY(out, "result");
  if (!over) json_null(out);
  else json_cstring(out, margin > 0 ? "black" : margin < 0 ? "white" : "draw");
  if (over) {
    JSON_KEY(out, "margin");                /* black's discs minus white's */
    json_int(out, margin);
  }
  if (rec->black_discs >= 0) {              /* WTHOR: black's count */
    JSON_KEY(out, "recorded");
    json_int(out, rec->black_discs);
    if (!over) return BATCH_DONE;
    int discs = reversi_wthor_black_discs(&rec->board);
    JSON_KEY(out, "black_discs");
    json_int(out, discs);
    JSON_KEY(out, "agrees");
    json_bool(out, discs == rec->black_discs);
    return discs == rec->black_discs ? BATCH_AGREES : BATCH_DISAGREES;
  }
  if (!isnan(rec->result)) {                /* GGF: black's margin */
    JSON_KEY(out, "recorded");
    json_number(out, rec->result);
    if (rec->result_how) {
      char how[2] = {rec->result_how, '\0'};
      JSON_KEY(out, "how");
      json_cstring(out, how);
    }
    if (!over || rec->result_how) return BATCH_DONE;
    JSON_KEY(out, "agrees");
    json_bool(out, rec->result == margin);
    return rec->result == margin ? BATCH_AGREES : BATCH_DISAGREES;
  }
  return BATCH_DONE;
}

/* ---- annotate ---- */

/* The value of a position for the side to move: the solver's when it
   has at most exact empty squares, else the search's, in discs. */
typedef struct value {
  double score;
  int best;
  bool exact;
} value;

/* Every move's exact score; false when a limit stopped it. */
static bool exact_scores(worker *w, const reversi_board *board,
                         search_limit *limit, int scores[64], value *v) {
  if (!reversi_solve_all(w->solver, board, limit, scores)) return false;
  v->exact = true;
  v->best = -1;
  for (uint64_t m = reversi_legal(board); m; m &= m - 1) {
    int square = __builtin_ctzll(m);
    if (v->best < 0 || scores[square] > v->score) {
      v->best = square;
      v->score = scores[square];
    }
  }
  return true;
}

/* The search's value of board, within its share of the record's budget
   (steps_left: batch_budget_step); false when Ctrl-C stopped it. */
static bool searched(worker *w, const reversi_board *board,
                     const batch_options *o, batch_budget *budget,
                     double steps_left, int depth, value *v,
                     uint64_t *nodes) {
  search_limit limit;
  batch_budget_step(budget, steps_left, &limit);
  search_options options = {0};
  options.max_depth = depth;
  options.tt = w->table;
  reversi_board copy = *board;
  search_result result;
  search_alphabeta(&reversi_class, &copy, &options, &limit, &result);
  batch_budget_spent(budget, &limit);
  *nodes += result.nodes;
  if (batch_interrupted(o)) return false;
  v->best = (int)result.best;
  v->exact = result.exact;
  v->score = search_is_win_score(result.score)
           ? (result.score > 0 ? 64 : -64) : result.score / 100.0;
  return true;
}

static void write_value(json_out *out, double score, bool exact) {
  if (exact) json_int(out, (int64_t)score);
  else json_number(out, round(score * 100) / 100);
}

static batch_verdict annotate_run(void *data, const batch_format *format,
                                  const batch_record *r,
                                  const batch_options *o, json_out *out,
                                  uint64_t *nodes) {
  worker *w = data;
  read_game *g = malloc(sizeof *g);
  if (!g) {
    batch_error(out, "not enough memory");
    return BATCH_ERROR;
  }
  batch_verdict verdict = BATCH_ERROR;
  if (!read_record(format, r, g, out)) goto done;
  if (g->illegal) {
    write_illegal(out, g);
    goto done;
  }
  reversi_record *rec = &g->rec;
  write_names(out, rec);
  /* What the table kept from the records before would change the scores
     and best moves of this one (a depth 8 entry read by a depth 2
     search): each record starts from a clean table, so that its line is
     the same whichever worker does it, and after whichever records. */
  tt_clear(w->table);
  reversi_solver_clear(w->solver);      /* and the node counts too */
  int exact = o->exact >= 0 ? o->exact : DEFAULT_EXACT;
  int depth = o->depth > 0 ? o->depth
            : o->seconds > 0 || o->nodes > 0 ? 0 : DEFAULT_DEPTH;
  double threshold = o->mistake > 0 ? o->mistake : DEFAULT_MISTAKE;
  reversi_board board = rec->start;
  /* --time and --nodes are the record's, shared among its moves: a move
     is two steps (the position's search, then the move's own), or one
     exact solve in their stead */
  batch_budget budget;
  batch_budget_start(&budget, o);
  int moves_left = 0;
  for (int ply = 0; ply < rec->plies; ply++)
    moves_left += rec->moves[ply] != REVERSI_PASS;
  int mistakes = 0;
  const char *stopped = NULL;           /* why a limit left a move unscored */
  verdict = BATCH_DONE;
  JSON_KEY(out, "moves");
  json_begin_array(out);
  for (int ply = 0; ply < rec->plies; ply++) {
    int move = rec->moves[ply];
    if (move == REVERSI_PASS) {
      reversi_make(&board, move);
      continue;
    }
    double steps_left = 2.0 * moves_left--;
    value best = {0}, played = {0};
    int scores[64];
    if (empties(&board) <= exact) {
      search_limit limit;
      batch_budget_step(&budget, steps_left / 2, &limit);
      bool done = exact_scores(w, &board, &limit, scores, &best);
      batch_budget_spent(&budget, &limit);
      *nodes += limit.nodes;
      if (!done && batch_interrupted(o)) {
        verdict = BATCH_STOPPED;
        goto done;
      }
      if (!done) {              /* this move unscored; the next may be */
        if (!stopped) stopped = limit_reason(&limit);
        begin_ply(out, ply, &board, move);
        JSON_KEY(out, "stopped");
        json_cstring(out, limit_reason(&limit));
        json_end_object(out);
        reversi_make(&board, move);
        continue;
      }
      played.score = scores[move];
      played.exact = true;
    } else {
      if (!searched(w, &board, o, &budget, steps_left, depth, &best, nodes)) {
        verdict = BATCH_STOPPED;
        goto done;
      }
      played = best;
      if (move != best.best) {
        reversi_board after = board;
        reversi_make(&after, move);
        value v;
        if (reversi_is_over(&after)) {
          v.score = -reversi_final_score(after.player, after.opponent, after.mask);
          v.exact = true;
        } else if (!searched(w, &after, o, &budget, steps_left - 1,
                             depth > 1 ? depth - 1 : depth, &v, nodes)) {
          verdict = BATCH_STOPPED;
          goto done;
        } else {
          v.score = -v.score;
        }
        played.score = v.score;
        played.exact = false;
        if (played.score > best.score) {   /* the deeper look found it better */
          best.score = played.score;
          best.best = move;
        }
      }
      played.exact = best.exact = false;
    }
    double loss = best.score - played.score;
    bool mistake = loss >= threshold;
    mistakes += mistake;
    rec->eval[ply] = played.score;
    begin_ply(out, ply, &board, move);
    JSON_KEY(out, "score");
    write_value(out, played.score, played.exact);
    JSON_KEY(out, "best");
    write_square(out, &board, best.best);
    JSON_KEY(out, "best_score");
    write_value(out, best.score, best.exact);
    JSON_KEY(out, "loss");
    write_value(out, loss, played.exact);
    JSON_KEY(out, "exact");
    json_bool(out, played.exact);
    JSON_KEY(out, "mistake");
    json_bool(out, mistake);
    json_end_object(out);
    reversi_make(&board, move);
  }
  json_end_array(out);
  if (stopped) {
    JSON_KEY(out, "stopped");
    json_cstring(out, stopped);
  }
  JSON_KEY(out, "mistakes");
  json_int(out, mistakes);
  JSON_KEY(out, "nodes");
  json_int(out, (int64_t)*nodes);
  char *text = malloc(1 << 16);
  if (text) {
    size_t n = reversi_ggf_write(rec, text, 1 << 16);
    if (n < 1 << 16) {
      JSON_KEY(out, "record");
      json_string(out, text, n);
    }
    free(text);
  }
done:
  free(g->strings);
  free(g);
  return verdict;
}

/* ---- the tasks ---- */

/* solve is for positions: not WTHOR's finished games, which replay and
   annotate read (the front end says so, once, rather than an error line
   a game) */
static const batch_format *const positions[] = {
  &reversi_format_obf, &reversi_format_transcript, &reversi_format_ggf, NULL,
};
static const batch_format *const games[] = {
  &reversi_format_wtb, &reversi_format_ggf, &reversi_format_transcript,
  &reversi_format_obf, NULL,
};

/* The empty squares of a position: each one more multiplies its solve's
   tree by about three.  Only OBF lines and transcripts tell without
   being read; the others count alike. */
static double solve_cost(const batch_format *format, const batch_record *r) {
  if (format == &reversi_format_obf) {
    int empty = 0;
    for (size_t i = 0; i < r->len && i < 64; i++)
      empty += r->text[i] == '-' || r->text[i] == '.';
    return empty;
  }
  if (format == &reversi_format_transcript) return 60 - (double)(r->len / 2);
  return 0;
}

const batch_task reversi_batch_solve = {
  .game = "reversi", .command = "solve",
  .summary = "each position solved exactly: score and best move (--all:\n"
             "            every move); an OBF line's answers checked",
  .formats = positions, .start = start, .finish = finish, .run = solve_run,
  .cost = solve_cost, .options = "--time --nodes --all",
};

const batch_task reversi_batch_replay = {
  .game = "reversi", .command = "replay",
  .summary = "each game: moves, final board, result, first illegal move;\n"
             "            WTHOR's count and GGF's result checked",
  .formats = games, .run = replay_run, .options = "",
};

const batch_task reversi_batch_annotate = {
  .game = "reversi", .command = "annotate",
  .summary = "every move against the best: exact from --exact empties (20),\n"
             "            the search's score before; --records FILE: GGF",
  .formats = games, .record_format = "GGF", .start = start,
  .finish = finish, .run = annotate_run,
  .options = "--time --nodes --depth --exact --mistake",
};
