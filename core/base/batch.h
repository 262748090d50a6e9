/*
** batch.h: what a game gives the batch tools, `ludus solve`, `ludus
** replay` and `ludus annotate` (bindings/batch.c): the formats its files
** come in, how a file splits into records, and what to do with one
** record.  The front end does the rest: files, jobs, shards, the order
** of the output, resuming, progress.
**
** A task turns one record into the members of one JSON object (the front
** end writes "id" first, and "seconds" last); it never prints, and it
** reports a record it cannot read as an error member rather than
** failing.  The same task, with the same options, gives the same line
** for the same record, whichever worker does it.
*/
#ifndef BATCH_H
#define BATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "json.h"

typedef struct batch_options {
  double seconds;          /* per record; 0: none */
  uint64_t nodes;          /* per record; 0: none */
  int depth;               /* 0: the task's own */
  int exact;               /* annotate: exact scores from this many empties
                              on (Othello); -1: the task's own */
  bool all;                /* solve: the score of every move */
  bool weak;               /* solve: win, draw or loss only */
  double mistake;          /* annotate: a loss this large is a mistake; 0:
                              the task's own */
  const char *book;        /* an opening book to use, or NULL (Connect
                              Four's: the front end finds it, and the
                              task's book_ok has said it can be used) */
  const volatile sig_atomic_t *interrupt;   /* Ctrl-C, for long records */
} batch_options;

/* One record: its bytes in the file (a line without its end, a game) and
   where it is, for its id. */
typedef struct batch_record {
  const char *text;
  size_t len;
  size_t line;             /* 1-based line it starts on */
  size_t number;           /* 1-based, among the file's records */
  /* What the format's reader knows of the record beyond its bytes (the
     names beside a WTHOR file), or NULL; it lives while the reader is
     open, which is to the end of the run. */
  const void *context;
} batch_record;

typedef struct batch_format {
  const char *name;        /* "pons", "obf", "wtb", "pgn" ... */
  const char *extensions;  /* ".obf .txt": what names it, space separated */
  /* Whether a record's id is "file#number" (a game of a database) rather
     than "file:line". */
  bool numbered;
  /* Whether data (the start of a file, len bytes) looks like this format;
     NULL: only the extension or --format says so. */
  bool (*sniff)(const char *data, size_t len);
  /* The record that starts at or after *at, which moves past it; false
     at the end of the data.  Text a format cannot even delimit is a
     record all the same: the task says what is wrong with it. */
  bool (*next)(const char *data, size_t len, size_t *at, batch_record *r);
  /* Or, for a format whose records only a reader of the whole file can
     find (PGN, where the encoding is found once for the file; WTHOR,
     whose names are in files beside it): a reader of data, read from
     path (NULL for standard input), and its records one by one (false at
     the end).  The task then reads each record's bytes again, alone.
     The reader stays open until the run ends. */
  void *(*open)(const char *path, const char *data, size_t len);
  bool (*read)(void *reader, batch_record *r);
  void (*close)(void *reader);
} batch_format;

typedef enum batch_verdict {
  BATCH_DONE,              /* done; the record had no answer to check */
  BATCH_AGREES,            /* done, and ludus agrees with the record's own
                              answer (a score, a result, a count) */
  BATCH_DISAGREES,         /* done, and it does not */
  BATCH_ERROR,             /* the record is bad: out has "error" */
  BATCH_STOPPED            /* Ctrl-C stopped it: no line for it */
} batch_verdict;

typedef struct batch_task {
  const char *game;        /* "connect4" */
  const char *command;     /* "solve", "replay" or "annotate" */
  const char *summary;     /* one line for --help */
  const batch_format *const *formats;   /* NULL-terminated, default first */
  /* annotate: the format of the games its lines carry as "record" (what
     --records writes: "GGF", "PGN"), or NULL when it writes none */
  const char *record_format;
  /* What a worker keeps between records (tables, a solver); NULL when
     it cannot be had.  NULL start: nothing to keep. */
  void *(*start)(const batch_options *options);
  void (*finish)(void *worker);
  /* Does one record; writes its members to out, counts its nodes. */
  batch_verdict (*run)(void *worker, const batch_format *format,
                       const batch_record *record,
                       const batch_options *options, json_out *out,
                       uint64_t *nodes);
  /* How long a record may take beside the others (only the order
     counts: more empty squares, say), or NULL when the task cannot tell.
     With more than one job the workers take the longest first; the
     output keeps the order of the input. */
  double (*cost)(const batch_format *format, const batch_record *record);
  /* Whether the opening book at path can be used: checked once, before
     any worker starts, so that a book that cannot be is an error and not
     a run without it; false with why in message (size bytes).  NULL: the
     task takes no book. */
  bool (*book_ok)(const char *path, char *message, size_t size);
  /* The options of a record's work it reads, of --time, --nodes,
     --depth, --all, --weak, --exact and --mistake, between spaces: the
     front end refuses the others rather than ignore them. */
  const char *options;
} batch_task;

/* ---- formats every game may use ---- */

/* One record a line: the line's end (LF or CRLF) is not part of it, a
   byte-order mark at the start of the file is skipped, and lines that
   start with '#' are comments.  Blank lines are records: a task says
   they are empty, so that nothing is skipped without a word; but empty
   lines with nothing after them to the end of the file are not. */
bool batch_next_line(const char *data, size_t len, size_t *at,
                     batch_record *r);

/* The error member of a bad record: "error": text (formatted). */
void batch_error(json_out *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Text from a record as an error may show it: at most 40 bytes, control
   bytes and what is not UTF-8 as '?', "..." when cut.  The text lives
   until the next call. */
const char *batch_shown(const char *text, size_t len);

/* A record's limit as the options set it (--time, --nodes, Ctrl-C),
   started. */
struct search_limit;
void batch_limit(const batch_options *o, struct search_limit *limit);

/* A record's budget (--time, --nodes) shared among its steps, the
   searches of a game's moves: each step may use what is left divided by
   the steps left, so that the record keeps to the budget as a whole and
   what one step does not use goes to the ones after it. */
typedef struct batch_budget {
  const batch_options *options;
  double started;          /* limit_clock() when the record began */
  uint64_t nodes;          /* used by the steps so far */
} batch_budget;

void batch_budget_start(batch_budget *budget, const batch_options *o);

/* The limit of the next step, started: its share of what is left when
   steps_left steps (this one too) share it.  A budget used up leaves a
   step the least there is, which stops it at once. */
void batch_budget_step(batch_budget *budget, double steps_left,
                       struct search_limit *limit);

/* Counts what a step's limit says it used. */
void batch_budget_spent(batch_budget *budget,
                        const struct search_limit *limit);

/* Whether Ctrl-C has stopped the batch. */
static inline bool batch_interrupted(const batch_options *o) {
  return o->interrupt && *o->interrupt;
}

/* Whether a record is blank (spaces only); writes the error if so. */
bool batch_blank(const batch_record *r, json_out *out);

#endif
