/*
** uci.c: the xiangqi engine over UCI (see uci.h).
**
** Three threads share an engine: the caller's, which hands in the lines;
** the search's, started by `go`, which writes the info lines and the
** bestmove; and the clock's, started by a `go` with a time limit, which
** sets the stop flag at the deadline.  The mutex guards the output and
** what the threads tell each other (whether the search is pondering or
** over, the deadline); the stop flag is atomic, read by the search every
** LIMIT_CLOCK_EVERY nodes.  What the search works on (its position, its
** go, its result) is the search thread's while it runs: the caller's
** thread touches it only after joining it, and a command that needs the
** table (ucinewgame, Hash, Clear Hash, go) stops the search first.
*/
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "uci.h"
#include "base/search.h"
#include "search.h"

#define HASH_DEFAULT 16             /* MiB */
#define HASH_MAX 4096
#define OVERHEAD_DEFAULT 10         /* ms kept back from each move's time */
#define OVERHEAD_MAX 5000
#define MOVES_TO_GO 30              /* assumed when go does not say */
#define MOVES_TO_GO_MAX 50
#define PERFT_MAX 20
#define LINE_SIZE 1024              /* an info line with the longest pv */

typedef struct go_command {
  bool ponder, infinite;
  int depth, mate, perft;           /* 0, 0, -1: not given */
  uint64_t nodes;                   /* 0: not given */
  long long movetime;               /* ms; -1: not given */
  long long time[2], inc[2];        /* red's (w) and black's (b); -1, 0 */
  long long movestogo;              /* 0: not given */
  xq_move searchmoves[XQ_MAX_MOVES];
  int searchmove_count;
} go_command;

struct xq_uci {
  char name[64];
  xq_uci_output *output;
  void *data;
  /* the caller's thread's */
  xq_position position;             /* the last position command's */
  tt_table *tt;                     /* made at the first go after Hash */
  int hash_mib, lines, overhead_ms;
  bool ponder_option;               /* only told: pondering is the GUI's */
  bool running, timed;              /* threads to join: search, clock */
  pthread_t search_thread, clock_thread;
  /* the search thread's while it runs */
  xq_position root;
  go_command go;
  int search_lines;                 /* MultiPV when it started */
  xq_search_result result;
  xq_move reported;                 /* the best move of the last info */
  double started;                   /* when go came */
  /* under the lock */
  pthread_mutex_t lock;             /* also makes the output one line at
                                       a time */
  pthread_cond_t changed;           /* any of these changed */
  bool pondering, over;
  double armed;                     /* the clock started: go or ponderhit */
  double soft, hard;                /* seconds after armed; 0: no limit */
  atomic_bool stop;
};

/* ---- output ---- */

static void vsay(xq_uci *u, const char *format, va_list args) {
  char line[LINE_SIZE];
  vsnprintf(line, sizeof line, format, args);
  u->output(u->data, line);
}

/* Writes a line; the caller holds the lock. */
static void say_locked(xq_uci *u, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsay(u, format, args);
  va_end(args);
}

static void say(xq_uci *u, const char *format, ...) {
  va_list args;
  va_start(args, format);
  pthread_mutex_lock(&u->lock);
  vsay(u, format, args);
  pthread_mutex_unlock(&u->lock);
  va_end(args);
}

/* ICCS needs no position: the two points. */
static int format_move(xq_move move, char *buf, size_t size) {
  int from = XQ_FROM(move), to = XQ_TO(move);
  return snprintf(buf, size, "%c%d%c%d", 'a' + xq_file(from), xq_rank(from),
                  'a' + xq_file(to), xq_rank(to));
}

/* UCI counts mates in moves: mating in p plies is mate (p + 1) / 2, being
   mated in p plies (always even) mate -p / 2. */
static int format_score(int score, char *buf, size_t size) {
  if (!search_is_win_score(score)) return snprintf(buf, size, "cp %d", score);
  int plies = GAME_SCORE_WIN - abs(score);
  return snprintf(buf, size, "mate %d", score > 0 ? (plies + 1) / 2 : -(plies / 2));
}

/* One line of a search's result as an info line; the caller holds the
   lock. */
static void report_line(xq_uci *u, const xq_search_result *r, int depth,
                        int index, const xq_search_line *line) {
  char text[LINE_SIZE], score[32];
  double seconds = limit_clock() - u->started;
  format_score(line->score, score, sizeof score);
  int n = snprintf(text, sizeof text, "info depth %d seldepth %d", depth,
                   r->seldepth > depth ? r->seldepth : depth);
  if (u->search_lines > 1) n += snprintf(text + n, sizeof text - (size_t)n, " multipv %d", index + 1);
  n += snprintf(text + n, sizeof text - (size_t)n, " score %s nodes %llu nps %llu time %lld pv",
                score, (unsigned long long)r->nodes,
                (unsigned long long)(seconds > 0 ? (double)r->nodes / seconds : 0),
                (long long)(seconds * 1000));
  for (int i = 0; i < line->pv_length && (size_t)n + 8 < sizeof text; i++) {
    text[n++] = ' ';
    n += format_move(line->pv[i], text + n, sizeof text - (size_t)n);
  }
  u->output(u->data, text);
}

/* ---- the search thread ---- */

/* After each iteration: its lines, then whether to go on. */
static bool iteration_done(void *data, const xq_search_result *r) {
  xq_uci *u = data;
  pthread_mutex_lock(&u->lock);
  for (int i = 0; i < r->line_count; i++)
    report_line(u, r, r->depth, i, &r->lines[i]);
  u->reported = r->best;
  bool go_on = true;
  if (u->go.mate > 0 && r->score > 0 && search_is_win_score(r->score) &&
      (GAME_SCORE_WIN - r->score + 1) / 2 <= u->go.mate)
    go_on = false;
  /* the next iteration would take longer than the rest of the share */
  if (!u->pondering && u->soft > 0 && limit_clock() - u->armed >= u->soft / 2)
    go_on = false;
  pthread_mutex_unlock(&u->lock);
  return go_on;
}

/* The move the engine expects in reply to best: the pv's second, else
   the table's move after best if it is legal; 0 when none. */
static xq_move ponder_move(xq_uci *u, const xq_search_result *r) {
  if (r->pv_length >= 2) return r->pv[1];
  xq_position after = u->root;
  xq_undo undo;
  xq_make(&after, r->best, &undo);
  const tt_entry *entry = u->tt ? tt_probe(u->tt, after.key) : NULL;
  if (entry && entry->move && xq_is_legal(&after, (xq_move)entry->move))
    return (xq_move)entry->move;
  return 0;
}

static void perft(xq_uci *u) {
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_legal_moves(&u->root, moves);
  search_limit limit = {0};
  limit.stop = &u->stop;
  limit_start(&limit);
  uint64_t total = u->go.perft == 0 ? 1 : 0;
  for (int i = 0; u->go.perft > 0 && i < n && !limit.stopped; i++) {
    xq_undo undo;
    xq_make(&u->root, moves[i], &undo);
    uint64_t leaves = xq_perft_limited(&u->root, u->go.perft - 1, &limit);
    xq_unmake(&u->root, moves[i], &undo);
    if (limit.stopped) break;
    char move[8];
    format_move(moves[i], move, sizeof move);
    say(u, "%s: %llu", move, (unsigned long long)leaves);
    total += leaves;
  }
  if (limit.stopped) {
    say(u, "info string perft stopped: the count is not complete");
    return;
  }
  say(u, "");
  say(u, "Nodes searched: %llu", (unsigned long long)total);
}

static void *think(void *arg) {
  xq_uci *u = arg;
  if (u->go.perft >= 0) {
    perft(u);
    pthread_mutex_lock(&u->lock);
    u->over = true;
    pthread_cond_broadcast(&u->changed);
    pthread_mutex_unlock(&u->lock);
    return NULL;
  }
  search_limit limit = {0};
  limit.max_nodes = u->go.nodes;
  limit.stop = &u->stop;
  limit_start(&limit);
  xq_search_options options = {0};
  options.max_depth = u->go.depth;
  options.tt = u->tt;
  options.lines = u->search_lines;
  options.root_moves = u->go.searchmove_count ? u->go.searchmoves : NULL;
  options.root_move_count = u->go.searchmove_count;
  options.iteration = iteration_done;
  options.data = u;
  xq_search_result *r = &u->result;
  xq_search(&u->root, &options, &limit, r);
  pthread_mutex_lock(&u->lock);
  u->over = true;
  pthread_cond_broadcast(&u->changed);
  if (!r->best) say_locked(u, "info depth 0 score mate 0");
  /* UCI: no bestmove while pondering or infinite, until stop or
     ponderhit, even when the search is over */
  while ((u->pondering || u->go.infinite) && !atomic_load(&u->stop))
    pthread_cond_wait(&u->changed, &u->lock);
  if (!r->best) {
    say_locked(u, "bestmove (none)");
  } else {
    /* a stopped iteration that changed the best move: its line too */
    if (r->best != u->reported) {
      xq_search_line line = {.score = r->score, .pv_length = r->pv_length};
      memcpy(line.pv, r->pv, sizeof line.pv);
      report_line(u, r, r->depth + 1, 0, &line);
    }
    char best[8], reply[8];
    format_move(r->best, best, sizeof best);
    xq_move ponder = ponder_move(u, r);
    if (ponder) {
      format_move(ponder, reply, sizeof reply);
      say_locked(u, "bestmove %s ponder %s", best, reply);
    } else {
      say_locked(u, "bestmove %s", best);
    }
  }
  pthread_mutex_unlock(&u->lock);
  return NULL;
}

/* ---- the clock thread ---- */

static struct timespec monotonic_time(double seconds) {
  struct timespec t;
  t.tv_sec = (time_t)seconds;
  t.tv_nsec = (long)((seconds - (double)t.tv_sec) * 1e9);
  if (t.tv_nsec >= 1000000000L) t.tv_nsec = 999999999L;
  return t;
}

/* Sets the stop flag at the deadline; waits while pondering. */
static void *keep_time(void *arg) {
  xq_uci *u = arg;
  pthread_mutex_lock(&u->lock);
  while (!u->over && !atomic_load(&u->stop)) {
    if (u->pondering || u->hard <= 0) {
      pthread_cond_wait(&u->changed, &u->lock);
      continue;
    }
    double deadline = u->armed + u->hard;
    if (limit_clock() >= deadline) {
      atomic_store(&u->stop, true);
      break;
    }
    struct timespec until = monotonic_time(deadline);
    pthread_cond_timedwait(&u->changed, &u->lock, &until);
  }
  pthread_mutex_unlock(&u->lock);
  return NULL;
}

/* ---- starting and ending a search ---- */

static void request_stop(xq_uci *u) {
  pthread_mutex_lock(&u->lock);
  atomic_store(&u->stop, true);
  pthread_cond_broadcast(&u->changed);
  pthread_mutex_unlock(&u->lock);
}

/* Waits for the search (stopped first when told) and its clock to end. */
static void end_search(xq_uci *u, bool stop) {
  if (!u->running) return;
  if (stop) request_stop(u);
  pthread_join(u->search_thread, NULL);
  if (u->timed) pthread_join(u->clock_thread, NULL);
  u->running = u->timed = false;
}

/* The seconds to think, as the clock allows: a share of the time left
   (what is left over the moves to go, and three quarters of the
   increment) that the search stops starting iterations at half of,
   and three times that at most; never more than half of the time left,
   or 90% of it for the last move before the time control. */
static void plan_time(xq_uci *u, const go_command *go) {
  double overhead = u->overhead_ms / 1000.0;
  u->soft = u->hard = 0;
  if (go->movetime >= 0) {
    u->hard = go->movetime / 1000.0 - overhead;
    if (u->hard < 0.001) u->hard = 0.001;
    return;
  }
  int side = u->root.turn;
  if (go->time[side] < 0) return;
  double usable = go->time[side] / 1000.0 - overhead;
  if (usable < 0.001) usable = 0.001;
  long long togo = go->movestogo > 0 ? go->movestogo : MOVES_TO_GO;
  if (togo > MOVES_TO_GO_MAX) togo = MOVES_TO_GO_MAX;
  double most = usable * (togo == 1 ? 0.9 : 0.5);
  double share = usable / (double)togo + 0.75 * (double)go->inc[side] / 1000.0;
  u->soft = share < most ? share : most;
  u->hard = 3 * u->soft < most ? 3 * u->soft : most;
}

static void start_search(xq_uci *u, const go_command *go) {
  if (!u->tt && !(u->tt = tt_new((size_t)u->hash_mib)))
    say(u, "info string no memory for a table of %d MiB: searching with a "
           "small one of its own", u->hash_mib);
  u->root = u->position;
  u->go = *go;
  u->search_lines = u->lines;
  u->reported = 0;
  u->started = limit_clock();
  pthread_mutex_lock(&u->lock);
  atomic_store(&u->stop, false);
  u->over = false;
  u->pondering = go->ponder && go->perft < 0;
  u->armed = u->started;
  if (go->perft < 0) plan_time(u, go);
  else u->soft = u->hard = 0;
  pthread_mutex_unlock(&u->lock);
  if (pthread_create(&u->search_thread, NULL, think, u) != 0) {
    /* no thread: a search of one ply here, which cannot be stopped */
    say(u, "info string cannot start a thread: searching one ply");
    u->go.depth = 1;
    u->go.infinite = false;
    u->pondering = false;
    think(u);
    return;
  }
  u->running = true;
  if (u->hard > 0) {
    if (pthread_create(&u->clock_thread, NULL, keep_time, u) == 0)
      u->timed = true;
    else
      request_stop(u);     /* no clock: the first iteration, and no more */
  }
}

/* ---- reading the commands ---- */

/* The words of a line, split in place at blanks. */
typedef struct words {
  char *copy;
  char **word;
  int count;
} words;

static bool split(const char *line, words *w) {
  size_t len = strlen(line);
  w->copy = malloc(len + 1);
  w->word = malloc((len / 2 + 2) * sizeof *w->word);
  w->count = 0;
  if (!w->copy || !w->word) return false;
  memcpy(w->copy, line, len + 1);
  for (char *p = w->copy; *p;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') *p++ = '\0';
    if (!*p) break;
    w->word[w->count++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') p++;
  }
  return true;
}

static void free_words(words *w) {
  free(w->copy);
  free(w->word);
}

/* A message names a word as the user wrote it, cut short if long. */
static const char *shown(const char *word, char *buf, size_t size) {
  snprintf(buf, size, "%s", word);
  if (strlen(word) >= size) memcpy(buf + size - 4, "...", 4);
  return buf;
}

static bool read_integer(const char *text, long long *value) {
  char *end;
  if (!*text) return false;
  long long v = strtoll(text, &end, 10);
  if (*end) return false;
  *value = v;
  return true;
}

static void uci_hello(xq_uci *u) {
  pthread_mutex_lock(&u->lock);
  say_locked(u, "id name %s", u->name);
  say_locked(u, "id author the ludus project");
  say_locked(u, "option name Hash type spin default %d min 1 max %d",
             HASH_DEFAULT, HASH_MAX);
  say_locked(u, "option name Threads type spin default 1 min 1 max 1");
  say_locked(u, "option name MultiPV type spin default 1 min 1 max %d",
             XQ_MAX_LINES);
  say_locked(u, "option name Ponder type check default false");
  say_locked(u, "option name Move Overhead type spin default %d min 0 max %d",
             OVERHEAD_DEFAULT, OVERHEAD_MAX);
  say_locked(u, "option name Clear Hash type button");
  say_locked(u, "uciok");
  pthread_mutex_unlock(&u->lock);
}

/* setoption name <name, perhaps of several words> [value <value>] */
static void set_option(xq_uci *u, const words *w) {
  char name[64] = "", value[64] = "", shown_name[64];
  int i = 1;
  if (i >= w->count || strcmp(w->word[i], "name") != 0) {
    say(u, "info string setoption: expected 'setoption name <option> "
           "[value <value>]'");
    return;
  }
  for (i++; i < w->count && strcmp(w->word[i], "value") != 0; i++) {
    size_t at = strlen(name);
    snprintf(name + at, sizeof name - at, "%s%s", at ? " " : "", w->word[i]);
  }
  if (i < w->count) {
    for (i++; i < w->count; i++) {
      size_t at = strlen(value);
      snprintf(value + at, sizeof value - at, "%s%s", at ? " " : "", w->word[i]);
    }
  }
  shown(name, shown_name, sizeof shown_name);
  long long number = 0;
  bool numeric = read_integer(value, &number);
  if (strcasecmp(name, "Clear Hash") == 0) {
    end_search(u, true);
    if (u->tt) tt_clear(u->tt);
  } else if (strcasecmp(name, "Ponder") == 0) {
    if (strcasecmp(value, "true") == 0 || strcasecmp(value, "false") == 0)
      u->ponder_option = strcasecmp(value, "true") == 0;
    else
      say(u, "info string setoption: Ponder is true or false, not '%s'", value);
  } else if (strcasecmp(name, "Hash") == 0) {
    if (!numeric || number < 1 || number > HASH_MAX) {
      say(u, "info string setoption: Hash is 1 to %d (MiB), not '%s'; it stays %d",
          HASH_MAX, value, u->hash_mib);
      return;
    }
    end_search(u, true);
    tt_free(u->tt);
    u->tt = NULL;
    u->hash_mib = (int)number;
  } else if (strcasecmp(name, "Threads") == 0) {
    if (!numeric || number != 1)
      say(u, "info string setoption: Threads is 1 only (ludus searches on "
             "one thread), not '%s'", value);
  } else if (strcasecmp(name, "MultiPV") == 0) {
    if (!numeric || number < 1 || number > XQ_MAX_LINES)
      say(u, "info string setoption: MultiPV is 1 to %d, not '%s'; it stays %d",
          XQ_MAX_LINES, value, u->lines);
    else
      u->lines = (int)number;
  } else if (strcasecmp(name, "Move Overhead") == 0) {
    if (!numeric || number < 0 || number > OVERHEAD_MAX)
      say(u, "info string setoption: Move Overhead is 0 to %d (ms), not '%s'; "
             "it stays %d", OVERHEAD_MAX, value, u->overhead_ms);
    else
      u->overhead_ms = (int)number;
  } else {
    say(u, "info string setoption: no option '%s' (options: Hash, Threads, "
           "MultiPV, Ponder, Move Overhead, Clear Hash)", shown_name);
    return;
  }
}

/* position startpos|fen <fen> [moves <move>...]: all of it, or nothing. */
static void set_position(xq_uci *u, const words *w) {
  static const char refused[] = "; the position stays as it was";
  xq_position pos;
  int i = 2;
  if (w->count >= 2 && strcmp(w->word[1], "startpos") == 0) {
    xq_init(&pos);
  } else if (w->count >= 2 && strcmp(w->word[1], "fen") == 0) {
    char fen[256] = "";
    for (; i < w->count && strcmp(w->word[i], "moves") != 0; i++) {
      size_t at = strlen(fen);
      snprintf(fen + at, sizeof fen - at, "%s%s", at ? " " : "", w->word[i]);
    }
    xq_fen_problem problem;
    if (!fen[0]) {
      say(u, "info string position: the fen is missing%s", refused);
      return;
    }
    if (xq_from_fen(&pos, fen, &problem) != XQ_FEN_OK) {
      char message[256];
      xq_fen_message(&problem, message, sizeof message);
      say(u, "info string position: bad fen (%s)%s", message, refused);
      return;
    }
  } else {
    say(u, "info string position: expected 'startpos' or 'fen' after "
           "'position'%s", refused);
    return;
  }
  if (i < w->count && strcmp(w->word[i], "moves") != 0) {
    char word[40];
    say(u, "info string position: expected 'moves', got '%s'%s",
        shown(w->word[i], word, sizeof word), refused);
    return;
  }
  for (int ply = 1, j = i + 1; j < w->count; j++, ply++) {
    xq_move move;
    const char *why;
    game_error error = xq_read_move(&pos, w->word[j], &move, &why);
    if (error != GAME_OK) {
      char word[40];
      say(u, "info string position: %s move '%s' (move %d of the list: %s)%s",
          error == GAME_EILLEGAL ? "illegal" : "unreadable",
          shown(w->word[j], word, sizeof word), ply, why, refused);
      return;
    }
    xq_undo undo;
    xq_make(&pos, move, &undo);
  }
  u->position = pos;
}

static bool is_go_word(const char *word) {
  static const char *const names[] = {
    "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
    "depth", "nodes", "mate", "movetime", "infinite", "perft", NULL};
  for (int i = 0; names[i]; i++)
    if (strcmp(word, names[i]) == 0) return true;
  return false;
}

/* Reads a go command; what it cannot take is told and left out. */
static void read_go(xq_uci *u, const words *w, go_command *go) {
  memset(go, 0, sizeof *go);
  go->perft = -1;
  go->movetime = go->time[0] = go->time[1] = -1;
  char word[40];
  for (int i = 1; i < w->count; i++) {
    const char *key = w->word[i];
    if (strcmp(key, "ponder") == 0) {
      go->ponder = true;
    } else if (strcmp(key, "infinite") == 0) {
      go->infinite = true;
    } else if (strcmp(key, "searchmoves") == 0) {
      for (; i + 1 < w->count && !is_go_word(w->word[i + 1]); i++) {
        xq_move move;
        const char *why;
        if (xq_read_move(&u->position, w->word[i + 1], &move, &why) != GAME_OK) {
          say(u, "info string go: searchmoves: '%s' left out (%s)",
              shown(w->word[i + 1], word, sizeof word), why);
        } else if (go->searchmove_count < XQ_MAX_MOVES) {
          go->searchmoves[go->searchmove_count++] = move;
        }
      }
    } else if (is_go_word(key)) {
      long long value;
      if (i + 1 >= w->count || !read_integer(w->word[i + 1], &value)) {
        say(u, "info string go: '%s' needs a whole number%s%s%s", key,
            i + 1 < w->count ? " (got '" : "",
            i + 1 < w->count ? shown(w->word[i + 1], word, sizeof word) : "",
            i + 1 < w->count ? "')" : "");
        if (i + 1 < w->count && !is_go_word(w->word[i + 1])) i++;
        continue;
      }
      i++;
      bool positive = strcmp(key, "depth") == 0 || strcmp(key, "nodes") == 0 ||
                      strcmp(key, "mate") == 0;
      if ((positive && value < 1) || (strcmp(key, "perft") == 0 &&
                                      (value < 0 || value > PERFT_MAX))) {
        say(u, "info string go: '%s' must be %s, not %lld", key,
            positive ? "at least 1" : "0 to 20", value);
        continue;
      }
      if (value < 0) value = 0;      /* a clock run out, as some GUIs send */
      if (strcmp(key, "wtime") == 0) go->time[XQ_RED] = value;
      else if (strcmp(key, "btime") == 0) go->time[XQ_BLACK] = value;
      else if (strcmp(key, "winc") == 0) go->inc[XQ_RED] = value;
      else if (strcmp(key, "binc") == 0) go->inc[XQ_BLACK] = value;
      else if (strcmp(key, "movestogo") == 0) go->movestogo = value;
      else if (strcmp(key, "movetime") == 0) go->movetime = value;
      else if (strcmp(key, "depth") == 0)
        go->depth = value > XQ_MAX_PLY ? XQ_MAX_PLY : (int)value;
      else if (strcmp(key, "nodes") == 0) go->nodes = (uint64_t)value;
      else if (strcmp(key, "mate") == 0)
        go->mate = value > XQ_MAX_PLY ? XQ_MAX_PLY : (int)value;
      else go->perft = (int)value;
    } else {
      say(u, "info string go: '%s' is not a word of go; left out",
          shown(key, word, sizeof word));
    }
  }
  if (go->searchmove_count == 0 && w->count > 1) {
    for (int i = 1; i < w->count; i++)
      if (strcmp(w->word[i], "searchmoves") == 0)
        say(u, "info string go: searchmoves names no legal move; searching "
               "every move");
  }
}

static void display(xq_uci *u) {
  char board[4096], fen[256];
  xq_render(&u->position, true, NULL, board, sizeof board);
  xq_to_fen(&u->position, fen, sizeof fen);
  pthread_mutex_lock(&u->lock);
  for (char *line = board, *end; *line; line = end + 1) {
    end = strchr(line, '\n');
    if (!end) {
      say_locked(u, "%s", line);
      break;
    }
    *end = '\0';
    say_locked(u, "%s", line);
  }
  say_locked(u, "Fen: %s", fen);
  say_locked(u, "Key: %016llx", (unsigned long long)u->position.key);
  pthread_mutex_unlock(&u->lock);
}

bool xq_uci_command(xq_uci *u, const char *line) {
  words w;
  if (!split(line, &w)) {
    free_words(&w);
    say(u, "info string out of memory for a line of %zu bytes", strlen(line));
    return true;
  }
  const char *command = w.count ? w.word[0] : "";
  bool going_on = true;
  if (w.count == 0) {
    /* an empty line says nothing */
  } else if (strcmp(command, "quit") == 0) {
    end_search(u, true);
    going_on = false;
  } else if (strcmp(command, "isready") == 0) {
    say(u, "readyok");
  } else if (strcmp(command, "stop") == 0) {
    if (u->running) request_stop(u);
  } else if (strcmp(command, "ponderhit") == 0) {
    pthread_mutex_lock(&u->lock);
    if (u->running && u->pondering) {
      u->pondering = false;
      u->armed = limit_clock();
      pthread_cond_broadcast(&u->changed);
    }
    pthread_mutex_unlock(&u->lock);
  } else if (strcmp(command, "go") == 0) {
    go_command go;
    read_go(u, &w, &go);
    end_search(u, true);
    start_search(u, &go);
  } else if (strcmp(command, "position") == 0) {
    set_position(u, &w);
  } else if (strcmp(command, "uci") == 0) {
    uci_hello(u);
  } else if (strcmp(command, "setoption") == 0) {
    set_option(u, &w);
  } else if (strcmp(command, "ucinewgame") == 0) {
    end_search(u, true);
    if (u->tt) tt_clear(u->tt);
    xq_init(&u->position);
  } else if (strcmp(command, "d") == 0) {
    display(u);
  } else if (strcmp(command, "debug") == 0 || strcmp(command, "register") == 0) {
    /* nothing to debug, nothing to register */
  } else {
    char word[40];
    say(u, "info string unknown command '%s' (commands: uci isready setoption "
           "ucinewgame position go stop ponderhit quit d)",
        shown(command, word, sizeof word));
  }
  free_words(&w);
  return going_on;
}

/* ---- the engine ---- */

xq_uci *xq_uci_new(const char *name, xq_uci_output *output, void *data) {
  xq_uci *u = calloc(1, sizeof *u);
  if (!u) return NULL;
  pthread_condattr_t attributes;
  bool cond = pthread_condattr_init(&attributes) == 0;
  if (cond) {
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    cond = pthread_cond_init(&u->changed, &attributes) == 0;
    pthread_condattr_destroy(&attributes);
  }
  if (!cond || pthread_mutex_init(&u->lock, NULL) != 0) {
    if (cond) pthread_cond_destroy(&u->changed);
    free(u);
    return NULL;
  }
  snprintf(u->name, sizeof u->name, "%s", name);
  u->output = output;
  u->data = data;
  u->hash_mib = HASH_DEFAULT;
  u->lines = 1;
  u->overhead_ms = OVERHEAD_DEFAULT;
  atomic_init(&u->stop, false);
  xq_init(&u->position);
  return u;
}

void xq_uci_finish(xq_uci *u) {
  if (!u->running) return;
  bool bounded = u->go.depth || u->go.nodes || u->go.perft >= 0;
  pthread_mutex_lock(&u->lock);
  bounded = (bounded || u->hard > 0) && !u->pondering && !u->go.infinite;
  pthread_mutex_unlock(&u->lock);
  end_search(u, !bounded);
}

void xq_uci_free(xq_uci *u) {
  if (!u) return;
  end_search(u, true);
  pthread_cond_destroy(&u->changed);
  pthread_mutex_destroy(&u->lock);
  tt_free(u->tt);
  free(u);
}
