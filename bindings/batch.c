/*
** batch.c: `ludus solve`, `ludus replay` and `ludus annotate`: a game's
** task (core/base/batch.h) over every record of some files, one JSON
** line a record, in the order of the input.
**
** All the input is read first and split into records; the shard, and
** the records an earlier run has written (--resume), leave the records to
** do.  With one job they are done here; with more, forked workers take
** runs of them from a counter they share (the longest records first
** where the task can tell), and write their lines, each with its
** record's place, to a pipe each; this process keeps the lines that come
** early and writes them in the order of the input.  A worker that dies
** is followed by a careful one, which does what it had taken and not
** written and writes each line as it is done: a record that kills it is
** an error line, not the end of the run.  Ctrl-C stops every worker at
** once; what is written is whole lines in order, so --resume carries on
** from there.
*/
/* madvise's MADV_HUGEPAGE and fcntl's F_SETPIPE_SZ are Linux
   extensions, hidden by the build's _POSIX_C_SOURCE */
#define _GNU_SOURCE

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "batch.h"
#include "lgame.h"
#include "ludus.h"
#include "base/batch.h"
#include "base/json.h"
#include "connect4/connect4.h"
#include "mahjong/mahjong.h"
#include "mahjong/tenhou.h"
#include "reversi/formats.h"
#include "sudoku/sudoku.h"
#include "xiangqi/xiangqi.h"

/* ---- the tasks ---- */

static const batch_task *const tasks[] = {
  &c4_batch_solve, &c4_batch_replay, &c4_batch_annotate,
  &sudoku_batch_solve,
  &xq_batch_solve, &xq_batch_replay, &xq_batch_annotate,
  &reversi_batch_solve, &reversi_batch_replay, &reversi_batch_annotate,
  &mj_batch_solve, &mj_batch_replay, &mj_batch_annotate,
  NULL
};

static const char *const commands[] = {"solve", "replay", "annotate", "merge",
                                       NULL};

bool batch_is_command(const char *word) {
  for (int i = 0; commands[i]; i++)
    if (strcmp(word, commands[i]) == 0) return true;
  return false;
}

const char batch_usage_summary[] =
  "commands (ludus COMMAND --help says more):\n"
  "  solve GAME FILE...     solve or search every position of the files\n"
  "  replay GAME FILE...    replay every game record of the files\n"
  "  annotate GAME FILE...  replay, with the value of every move\n"
  "  merge FILE...          the outputs of --shard 1/N ... N/N as one\n";

static const char *progname = "ludus";

/* ---- the command line ---- */

typedef struct config {
  const char *command, *game, *format, *out_path, *record_path, *book;
  bool csv, resume, quiet;
  long jobs;
  long shard, shards;           /* --shard K/N: K from 1 */
  batch_options options;
  const char *work_options[8];  /* the options of a record's work given,
                                   for the task to say it takes them */
  int nwork_options;
  char **files;
  int nfiles;
} config;

static int fail(const char *format, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s: ", progname);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  return 2;
}

static void print_help(const char *command) {
  printf("usage: %s %s GAME FILE... [options]   (FILE - is standard input)\n\n",
         progname, command);
  printf("games and formats:\n");
  for (int i = 0; tasks[i]; i++) {
    if (strcmp(tasks[i]->command, command) != 0) continue;
    printf("  %-9s", tasks[i]->game);
    for (int f = 0; tasks[i]->formats[f]; f++)
      printf("%s%s", f ? ", " : " ", tasks[i]->formats[f]->name);
    printf("\n            %s\n", tasks[i]->summary);
  }
  printf("\noptions:\n"
    "  --format NAME   the input's format (else found from the file's name\n"
    "                  and content)\n"
    "  --out FILE      the JSON lines go to FILE (else standard output)\n"
    "  --csv           a table with a header line instead of JSON lines\n"
    "  --records FILE  annotate: the annotated games go to FILE in the\n"
    "                  game's own format (PGN for xiangqi, GGF for othello)\n"
    "  --jobs N        N worker processes (default: the machine's cores)\n"
    "  --shard K/N     only records K, K+N, K+2N, ...: N machines split a\n"
    "                  file, and `ludus merge` puts their N outputs back\n"
    "                  together as what one machine writes\n"
    "  --resume        skip the records whose id --out has already\n"
    "  --time S        at most S seconds a record\n"
    "  --nodes N       at most N nodes a record\n"
    "  --depth D       search depth (xiangqi; othello annotate)\n"
    "  --all           solve: the score of every move (mahjong: the whole\n"
    "                  score sheet of every hand; sudoku: every solution)\n"
    "  --weak          connect4: win, draw or loss only\n"
    "  --exact N       othello annotate: exact scores from N empty squares\n"
    "                  on (20; 0: none)\n"
    "  --mistake X     annotate: a loss of X or more is a mistake\n"
    "                  (a task that does not read one of these seven\n"
    "                  refuses it)\n"
    "  --book FILE     connect4 solve, annotate: the opening book to use\n"
    "                  (\"\": none; else $LUDUS_BOOK, or the one make book or\n"
    "                  make install put beside ludus); one that cannot be\n"
    "                  used is an error\n"
    "  --quiet         no progress line on a terminal\n"
    "  --help          this\n\n"
    "Each record gives one JSON line, in the order of the input, with its\n"
    "id (file:line, or file#game); a bad record gives an \"error\". A summary\n"
    "goes to standard error. Exit status: 0 when every record was read and\n"
    "agreed with its answer, 1 when not, 2 for a bad command line, 130\n"
    "after Ctrl-C.\n\n"
    "example: %s solve connect4 Test_L2_R2 --jobs 2 --out l2r2.jsonl\n",
    progname);
}

/* The number of an option's value, or -1 when it is not one. */
static double number_of(const char *text, double low, double high) {
  char *end;
  errno = 0;
  double x = strtod(text, &end);
  if (end == text || *end || errno || !(x >= low && x <= high)) return -1;
  return x;
}

/* A whole number written as plain decimal digits, from low to high, or
   -1 for anything else: a sign, a space, "1e3", "0x2", or past high
   (which stops an overflow before it happens). */
static long long whole_of(const char *text, long long low, long long high) {
  long long x = 0;
  if (!*text) return -1;
  for (; *text; text++) {
    int digit = *text - '0';
    if (digit < 0 || digit > 9 || x > (high - digit) / 10) return -1;
    x = x * 10 + digit;
  }
  return x >= low ? x : -1;
}

static const char *const work_options[] = {"--time", "--nodes", "--depth",
  "--all", "--weak", "--exact", "--mistake", NULL};

/* Keeps arg when it is an option of a record's work, once. */
static void note_work_option(config *c, const char *arg) {
  for (int i = 0; work_options[i]; i++)
    if (strcmp(arg, work_options[i]) == 0) {
      for (int k = 0; k < c->nwork_options; k++)
        if (c->work_options[k] == work_options[i]) return;
      c->work_options[c->nwork_options++] = work_options[i];
    }
}

/* 0 when the task takes every option of a record's work given, else 2
   with a message that names one it does not and those it takes. */
static int check_work_options(const config *c, const batch_task *task) {
  for (int k = 0; k < c->nwork_options; k++) {
    const char *option = c->work_options[k];
    if (lgame_in_word_list(task->options, option, strlen(option))) continue;
    fprintf(stderr, "%s: %s does not apply to %s %s (", progname,
            c->work_options[k], c->command, c->game);
    if (!*task->options) {
      fprintf(stderr, "it takes none of");
      for (int i = 0; work_options[i]; i++)
        fprintf(stderr, "%s %s", i ? "," : "", work_options[i]);
    } else {
      fprintf(stderr, "its options are");
      for (const char *at = task->options; *at;) {
        size_t n = strcspn(at, " ");
        fprintf(stderr, "%s %.*s", at == task->options ? "" : ",", (int)n, at);
        at += n + (at[n] == ' ');
      }
    }
    fprintf(stderr, ")\n");
    return 2;
  }
  return 0;
}

static int parse_args(int argc, char **argv, config *c) {
  memset(c, 0, sizeof *c);
  c->command = argv[0];
  c->jobs = sysconf(_SC_NPROCESSORS_ONLN);
  if (c->jobs < 1) c->jobs = 1;
  c->shard = 1;
  c->shards = 1;
  c->options.exact = -1;
  c->files = calloc((size_t)argc, sizeof *c->files);
  if (!c->files) return fail("not enough memory");
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      print_help(c->command);
      return 0;
    }
    if (arg[0] != '-' || strcmp(arg, "-") == 0) {
      if (!c->game) c->game = arg;
      else c->files[c->nfiles++] = argv[i];
      continue;
    }
    static const char *const flags[] = {"--csv", "--resume", "--quiet", "--all",
                                        "--weak", NULL};
    bool *values[] = {&c->csv, &c->resume, &c->quiet, &c->options.all,
                      &c->options.weak};
    bool flag = false;
    for (int f = 0; flags[f]; f++)
      if (strcmp(arg, flags[f]) == 0) flag = *values[f] = true;
    if (flag) {
      note_work_option(c, arg);
      continue;
    }
    static const char *const valued[] = {"--format", "--out", "--records",
      "--book", "--jobs", "--shard", "--time", "--nodes", "--depth", "--exact",
      "--mistake", NULL};
    int known = 0;
    while (valued[known] && strcmp(arg, valued[known]) != 0) known++;
    if (!valued[known])
      return fail("unknown option '%s' (%s %s --help lists them)", arg,
                  progname, c->command);
    if (i + 1 >= argc) return fail("'%s' needs a value (%s %s --help)", arg,
                                   progname, c->command);
    const char *value = argv[++i];
    note_work_option(c, arg);
    double x = 0;
    long long whole = 0;
    if (strcmp(arg, "--format") == 0) {
      c->format = value;
    } else if (strcmp(arg, "--out") == 0) {
      c->out_path = value;
    } else if (strcmp(arg, "--records") == 0) {
      c->record_path = value;
    } else if (strcmp(arg, "--book") == 0) {
      c->book = value;
    } else if (strcmp(arg, "--jobs") == 0) {
      if ((whole = whole_of(value, 1, 1024)) < 0)
        return fail("--jobs takes a whole number from 1 to 1024 (got '%s')", value);
      c->jobs = (long)whole;
    } else if (strcmp(arg, "--shard") == 0) {
      const char *slash = strchr(value, '/');
      char k[24];
      size_t k_len = slash ? (size_t)(slash - value) : sizeof k;
      if (k_len < sizeof k) {
        memcpy(k, value, k_len);
        k[k_len] = '\0';
        c->shard = (long)whole_of(k, 1, LONG_MAX);
        c->shards = (long)whole_of(slash + 1, 1, LONG_MAX);
      }
      if (k_len >= sizeof k || c->shard < 0 || c->shards < 0 ||
          c->shard > c->shards)
        return fail("--shard takes K/N, whole numbers with 1 <= K <= N "
                    "(got '%s')", value);
    } else if (strcmp(arg, "--time") == 0) {
      if ((x = number_of(value, 1e-9, 1e9)) < 0)
        return fail("--time takes a positive number of seconds (got '%s')", value);
      c->options.seconds = x;
    } else if (strcmp(arg, "--nodes") == 0) {
      if ((whole = whole_of(value, 1, LLONG_MAX)) < 0)
        return fail("--nodes takes a whole number from 1 (got '%s')", value);
      c->options.nodes = (uint64_t)whole;
    } else if (strcmp(arg, "--depth") == 0) {
      if ((whole = whole_of(value, 1, 1000)) < 0)
        return fail("--depth takes a whole number from 1 to 1000 (got '%s')", value);
      c->options.depth = (int)whole;
    } else if (strcmp(arg, "--exact") == 0) {
      if ((whole = whole_of(value, 0, 64)) < 0)
        return fail("--exact takes a whole number from 0 to 64 (got '%s')", value);
      c->options.exact = (int)whole;
    } else if (strcmp(arg, "--mistake") == 0) {
      if ((x = number_of(value, 1e-9, 1e9)) < 0)
        return fail("--mistake takes a positive number (got '%s')", value);
      c->options.mistake = x;
    } else {
      return fail("unknown option '%s' (%s %s --help lists them)", arg,
                  progname, c->command);
    }
  }
  if (!c->game) return fail("which game? (%s %s --help)", progname, c->command);
  if (c->nfiles == 0) return fail("no file given (- is standard input)");
  if (c->resume && !c->out_path) return fail("--resume needs --out FILE");
  /* a table's rows are not read back: resuming one would write its
     header and every row again */
  if (c->resume && c->csv)
    return fail("--resume reads the ids of JSON lines; it cannot carry on "
                "a --csv table (run without --csv, then convert)");
  if (c->record_path && strcmp(c->command, "annotate") != 0)
    return fail("--records is for annotate");
  if (c->record_path && c->out_path &&
      ludus_same_file(c->record_path, c->out_path))
    return fail("--records and --out name the same file ('%s'): one would "
                "write over the other", c->record_path);
  for (int i = 0; i < c->nfiles; i++) {
    const char *in = c->files[i];
    const char *both[] = {c->out_path, c->record_path};
    for (int k = 0; k < 2; k++)
      if (both[k] && strcmp(in, "-") != 0 && ludus_same_file(in, both[k]))
        return fail("%s names the input file '%s': it would write over it",
                    k == 0 ? "--out" : "--records", in);
    /* its records twice: ids that --resume and merge take for one */
    for (int j = 0; j < i; j++)
      if (strcmp(in, c->files[j]) == 0 ||
          (strcmp(in, "-") != 0 && ludus_same_file(in, c->files[j])))
        return fail("the input '%s' is named twice (its records would come "
                    "twice, with the same ids)", in);
  }
  return -1;                                  /* go on */
}

static const batch_task *find_task(const char *command, const char *game) {
  if (strcmp(game, "othello") == 0) game = "reversi";
  for (int i = 0; tasks[i]; i++)
    if (strcmp(tasks[i]->command, command) == 0 &&
        strcmp(tasks[i]->game, game) == 0)
      return tasks[i];
  return NULL;
}

/* ---- inputs ---- */

typedef struct input {
  const char *name;             /* as given; "-" is standard input */
  char *data;
  size_t len;
  const batch_format *format;
  void *records;                /* its format's reader, open to the end:
                                   records may point into it */
  char id[256];                 /* its ids' start as JSON: "name: or "name# */
  size_t id_len;                /* 0: too long a name, written record by record */
} input;

/* Room for n bytes of input, of records or of lines: on huge pages from
   256 KiB up (rounded up to 2 MiB), where the system has them: a page
   fault costs tens of microseconds on a virtual machine, and a file of
   49,000 puzzles is solved in a tenth of a second. */
static void *big_alloc(size_t n) {
  size_t huge = (size_t)1 << 21;
  if (n < huge / 8) return malloc(n ? n : 1);
  void *p = aligned_alloc(huge, (n + huge - 1) & ~(huge - 1));
#ifdef MADV_HUGEPAGE
  if (p) madvise(p, (n + huge - 1) & ~(huge - 1), MADV_HUGEPAGE);
#endif
  return p;
}

/* Reads the rest of f: at once when its size is known, else in chunks. */
static bool read_all(FILE *f, char **data, size_t *len) {
  struct stat st;
  size_t cap = 1 << 16, n = 0;
  if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
    cap = (size_t)st.st_size + 1;        /* + 1: the end is seen at once */
  char *buf = big_alloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char *more = realloc(buf, cap * 2);
    if (!more) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = more;
    cap *= 2;
  }
  if (!buf || ferror(f)) {
    free(buf);
    return false;
  }
  *data = buf;
  *len = n;
  return true;
}

static bool has_extension(const char *name, const char *extensions) {
  size_t len = strlen(name);
  for (const char *e = extensions; *e; ) {
    size_t n = strcspn(e, " ");
    if (n && n <= len && strncmp(name + len - n, e, n) == 0) return true;
    e += n;
    while (*e == ' ') e++;
  }
  return false;
}

/* The format of an input: --format's; else the one its name's extension
   names, unless that one's sniff refuses the content and another's takes
   it (GGF games in a .txt); else the first whose sniff takes the content;
   else the task's first.  NULL when --format names none of the task's
   formats, or when the extension is that of a format the game reads
   for its other commands only (a WTHOR database given to solve): that
   format is then *other. */
static const batch_format *pick_format(const batch_task *task, const config *c,
                                       const input *in,
                                       const batch_format **other) {
  const batch_format *const *f = task->formats;
  *other = NULL;
  if (c->format) {
    for (; *f; f++)
      if (strcmp((*f)->name, c->format) == 0) return *f;
    return NULL;
  }
  const batch_format *named = NULL;
  for (; *f && !named; f++)
    if (has_extension(in->name, (*f)->extensions)) named = *f;
  if (named && (!named->sniff || named->sniff(in->data, in->len))) return named;
  for (f = task->formats; *f; f++)
    if (*f != named && (*f)->sniff && (*f)->sniff(in->data, in->len)) return *f;
  if (named) return named;
  for (int i = 0; tasks[i]; i++) {
    if (strcmp(tasks[i]->game, task->game) != 0) continue;
    for (f = tasks[i]->formats; *f; f++)
      if (has_extension(in->name, (*f)->extensions)) {
        *other = *f;
        return NULL;
      }
  }
  return task->formats[0];
}

/* A record to do, and the id it has. */
typedef struct item {
  int input;
  batch_record record;
} item;

/* Writes n in decimal at out; returns the digits written. */
static size_t put_digits(char *out, uint64_t n) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233"
      "34353637383940414243444546474849505152535455565758596061626364656667"
      "6869707172737475767778798081828384858687888990919293949596979899";
  size_t k = 1;                 /* the digits, then written from the last */
  for (uint64_t m = n; m >= 10; m /= 10) k++;
  char *at = out + k;
  for (; n >= 100; n /= 100) {
    at -= 2;
    memcpy(at, pairs + 2 * (n % 100), 2);
  }
  if (n >= 10) memcpy(at - 2, pairs + 2 * n, 2);
  else at[-1] = (char)('0' + n);
  return k;
}

/* The id of a record: "file:line", or "file#game" for a database (done
   by hand: it is written once a record, and the fastest records take a
   couple of microseconds). */
static size_t format_id(const input *in, const batch_record *r, char *buf,
                        size_t size) {
  size_t name = strlen(in->name);
  if (name > size - 24) name = size - 24;
  memcpy(buf, in->name, name);
  buf[name] = in->format->numbered ? '#' : ':';
  size_t n = name + 1 + put_digits(buf + name + 1,
                                   in->format->numbered ? r->number : r->line);
  buf[n] = '\0';
  return n;
}

/* ---- the ids an earlier run wrote (--resume) ---- */

typedef struct id_set {
  char **slots;
  size_t cap, count;
} id_set;

static uint64_t hash_text(const char *s) {
  uint64_t h = 1469598103934665603u;                /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static bool id_add(id_set *set, const char *id, size_t len) {
  if (2 * (set->count + 1) > set->cap) {
    size_t cap = set->cap ? set->cap * 2 : 1024;
    char **slots = calloc(cap, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < set->cap; i++) {
      if (!set->slots[i]) continue;
      size_t j = hash_text(set->slots[i]) & (cap - 1);
      while (slots[j]) j = (j + 1) & (cap - 1);
      slots[j] = set->slots[i];
    }
    free(set->slots);
    set->slots = slots;
    set->cap = cap;
  }
  char *copy = malloc(len + 1);
  if (!copy) return false;
  memcpy(copy, id, len);
  copy[len] = '\0';
  size_t j = hash_text(copy) & (set->cap - 1);
  while (set->slots[j]) {
    if (strcmp(set->slots[j], copy) == 0) {
      free(copy);
      return true;
    }
    j = (j + 1) & (set->cap - 1);
  }
  set->slots[j] = copy;
  set->count++;
  return true;
}

static bool id_has(const id_set *set, const char *id) {
  if (!set->cap) return false;
  size_t j = hash_text(id) & (set->cap - 1);
  for (; set->slots[j]; j = (j + 1) & (set->cap - 1))
    if (strcmp(set->slots[j], id) == 0) return true;
  return false;
}

static void id_free(id_set *set) {
  for (size_t i = 0; i < set->cap; i++) free(set->slots[i]);
  free(set->slots);
}

/* Reads the ids of the lines of path; *whole_length gets the length of its
   whole lines, short of a last line that a stopped run left unfinished
   (cut_unfinished cuts it, once the run is known to be the file's).  A
   missing file has none.  A file that is not what a run writes (a line
   that is not a JSON object with an id) is refused rather than appended
   to; false with why in message. */
static bool read_done(const char *path, id_set *done, off_t *whole_length,
                      char *message, size_t size) {
  *whole_length = -1;
  FILE *f = fopen(path, "rb");
  if (!f && errno == ENOENT) return true;
  char *data;
  size_t len;
  if (!f || !read_all(f, &data, &len)) {
    snprintf(message, size, "cannot read '%s' to resume from it: %s", path,
             f ? "a read failed" : strerror(errno));
    if (f) fclose(f);
    return false;
  }
  fclose(f);
  bool ok = true;
  size_t whole = len, line = 1;
  while (whole > 0 && data[whole - 1] != '\n') whole--;
  for (size_t at = 0; ok && at < whole; line++) {
    const char *end = memchr(data + at, '\n', whole - at);
    size_t n = (size_t)(end - (data + at));
    json_value *v = json_parse(data + at, n, NULL);
    const json_value *id = json_get(v, "id");
    if (!id || id->type != JSON_STRING) {
      snprintf(message, size, "'%s' is not the JSON lines of a run (line %zu "
               "has no \"id\"): --resume appends only to them", path, line);
      ok = false;
    } else if (!id_add(done, id->string, id->len)) {
      snprintf(message, size, "not enough memory for the ids of '%s'", path);
      ok = false;
    }
    json_free_value(v);
    at += n + 1;
  }
  /* a run stopped mid-line left the start of a line: "{"id":... */
  if (ok && whole < len && data[whole] != '{') {
    snprintf(message, size, "'%s' is not the JSON lines of a run (line %zu "
             "does not start with '{'): --resume appends only to them",
             path, line);
    ok = false;
  }
  free(data);
  if (ok && whole < len) *whole_length = (off_t)whole;
  return ok;
}

/* Cuts the unfinished last line that read_done found (if any). */
static bool cut_unfinished(const char *path, off_t whole_length, char *message,
                           size_t size) {
  if (whole_length < 0 || truncate(path, whole_length) == 0) return true;
  snprintf(message, size, "cannot cut the unfinished last line of '%s': %s",
           path, strerror(errno));
  return false;
}

/* ---- one record ---- */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static volatile sig_atomic_t interrupted = 0;

static void on_interrupt(int sig) {
  (void)sig;
  interrupted = 1;
}

/* Does one record into line: {"id": ..., what the task writes,
   "seconds": ...}.  *clock is when it starts (the end of the record
   before: one reading of the clock a record), and becomes when it
   ends. */
static batch_verdict do_record(const batch_task *task, void *worker,
                               const config *c, const input *in,
                               const item *it, json_out *line,
                               uint64_t *nodes, double *clock) {
  char id[512];
  json_reset(line);
  json_begin_object(line);
  JSON_KEY(line, "id");
  if (in->id_len) {             /* the quoted name, then the number */
    memcpy(id, in->id, in->id_len);
    size_t n = in->id_len;
    n += put_digits(id + n, in->format->numbered ? it->record.number
                                                 : it->record.line);
    id[n++] = '"';
    json_raw(line, id, n);
  } else {
    size_t id_len = format_id(in, &it->record, id, sizeof id);
    json_string(line, id, id_len);
  }
  *nodes = 0;
  double start = *clock;
  batch_verdict v = task->run(worker, in->format, &it->record, &c->options,
                              line, nodes);
  *clock = now();
  /* microseconds, as a decimal number of seconds: "0.000012", "1.5" */
  uint64_t us = (uint64_t)((*clock - start) * 1e6 + 0.5);
  char seconds[40], digits[24];
  size_t n = put_digits(seconds, us / 1000000);
  seconds[n++] = '.';
  size_t k = put_digits(digits, us % 1000000);
  memset(seconds + n, '0', 6 - k);              /* the fraction's leading 0s */
  memcpy(seconds + n + 6 - k, digits, k);
  n += 6;
  while (seconds[n - 1] == '0' && seconds[n - 2] != '.') n--;
  JSON_KEY(line, "seconds");
  json_raw(line, seconds, n);
  json_end_object(line);
  return v;
}

/* ---- the output ---- */

typedef struct output {
  FILE *file;
  FILE *records;                /* --records: each line's "record" */
  bool csv;
  char **columns;               /* CSV: the first line's keys */
  int ncolumns;
  double flushed;               /* when it was last flushed */
  size_t len;                   /* JSON lines in buf, not yet in file */
  int error;                    /* errno of the first flush that failed */
  char buf[1 << 16];
} output;

/* Hands what buf holds to the file: stdio's fwrite and fputc cost more
   than a short record's line is worth. */
static void output_drain(output *o) {
  fwrite(o->buf, 1, o->len, o->file);
  o->len = 0;
}

static void csv_cell(FILE *f, const char *text, size_t len) {
  bool quote = len == 0 ? false : strpbrk(text, ",\"\n\r") != NULL;
  if (!quote) {
    fwrite(text, 1, len, f);
    return;
  }
  fputc('"', f);
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '"') fputc('"', f);
    fputc(text[i], f);
  }
  fputc('"', f);
}

/* Writes value as JSON text, for a CSV cell that holds a list. */
static void json_write_value(json_out *out, const json_value *v) {
  switch (v->type) {
  case JSON_NULL: json_null(out); break;
  case JSON_TRUE: json_bool(out, true); break;
  case JSON_FALSE: json_bool(out, false); break;
  case JSON_NUMBER: json_number(out, v->number); break;
  case JSON_STRING: json_string(out, v->string, v->len); break;
  case JSON_ARRAY: case JSON_OBJECT:
    if (v->type == JSON_ARRAY) json_begin_array(out);
    else json_begin_object(out);
    for (const json_value *m = v->child; m; m = m->next) {
      if (v->type == JSON_OBJECT) json_key(out, m->key);
      json_write_value(out, m);
    }
    if (v->type == JSON_ARRAY) json_end_array(out);
    else json_end_object(out);
    break;
  }
}

static void write_csv(output *o, const char *text, size_t len) {
  json_value *v = json_parse(text, len, NULL);
  if (!v) return;
  if (!o->columns) {
    /* the header: this line's keys, and "error" before "seconds" when
       it has none, so that a bad record's row says why */
    o->columns = calloc(v->len + 2, sizeof *o->columns);
    bool has_error = json_get(v, "error") != NULL;
    for (const json_value *m = v->child; m && o->columns; m = m->next) {
      if (!has_error && strcmp(m->key, "seconds") == 0) {
        o->columns[o->ncolumns] = strdup("error");
        if (o->columns[o->ncolumns]) o->ncolumns++;
        has_error = true;
      }
      o->columns[o->ncolumns] = strdup(m->key);
      if (o->columns[o->ncolumns]) o->ncolumns++;
    }
    for (int i = 0; i < o->ncolumns; i++) {
      if (i) fputc(',', o->file);
      csv_cell(o->file, o->columns[i], strlen(o->columns[i]));
    }
    fputc('\n', o->file);
  }
  json_out cell;
  json_init(&cell);
  for (int i = 0; i < o->ncolumns; i++) {
    if (i) fputc(',', o->file);
    const json_value *m = json_get(v, o->columns[i]);
    if (!m) continue;
    if (m->type == JSON_STRING) {
      csv_cell(o->file, m->string, m->len);
    } else {
      json_reset(&cell);
      json_write_value(&cell, m);
      if (!cell.failed) csv_cell(o->file, cell.data, cell.len);
    }
  }
  json_free(&cell);
  fputc('\n', o->file);
  json_free_value(v);
}

/* Writes one line; flushes a tenth of a second after the last time, so
   that a reader sees the lines come without a write for each. */
static void write_line(output *o, const char *text, size_t len, double t) {
  if (o->records) {
    json_value *v = json_parse(text, len, NULL);
    const json_value *m = v ? json_get(v, "record") : NULL;
    if (m && m->type == JSON_STRING) {
      fwrite(m->string, 1, m->len, o->records);
      if (m->len && m->string[m->len - 1] != '\n') fputc('\n', o->records);
    }
    json_free_value(v);
  }
  if (o->csv) {
    write_csv(o, text, len);
  } else if (len < sizeof o->buf) {
    if (o->len + len + 1 > sizeof o->buf) output_drain(o);
    memcpy(o->buf + o->len, text, len);
    o->buf[o->len + len] = '\n';
    o->len += len + 1;
  } else {
    output_drain(o);
    fwrite(text, 1, len, o->file);
    fputc('\n', o->file);
  }
  if (t - o->flushed >= 0.1) {
    output_drain(o);
    if (fflush(o->file) != 0 && !o->error) o->error = errno;
    o->flushed = t;
  }
}

/* Flushes a file written to and closes it (not standard output): 0, or
   the errno of a write that failed, a full disk say, which lost lines. */
static int output_close(FILE *f) {
  errno = 0;
  bool failed = fflush(f) != 0 || ferror(f);
  int why = errno;
  if (f != stdout && fclose(f) != 0 && !failed) {
    failed = true;
    why = errno;
  }
  return failed ? (why ? why : EIO) : 0;
}

/* ---- progress and the summary ---- */

typedef struct tally {
  size_t total, done, errors, disagree, agree;
  uint64_t nodes;
  double started, shown;
  bool progress;                /* a line on a terminal */
  int width;                    /* of the progress line last shown */
} tally;

/* The noun of a count: "1 error", "2 errors". */
static const char *noun(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

static void show_progress(tally *t, double at, bool last) {
  if (!t->progress || (!last && at - t->shown < 0.1)) return;
  t->shown = at;
  double rate = t->done / (at - t->started + 1e-9);
  double left = rate > 0 ? (t->total - t->done) / rate : 0;
  char line[200];
  int width = snprintf(line, sizeof line,
                       "%zu/%zu %s  %.0f/s  %d:%02d left  %zu %s  %zu %s",
                       t->done, t->total, noun(t->total, "record", "records"),
                       rate, (int)left / 60, (int)left % 60, t->errors,
                       noun(t->errors, "error", "errors"), t->disagree,
                       noun(t->disagree, "mismatch", "mismatches"));
  /* a line can be shorter than the last ("1 error" after "0 errors",
     9:59 after 10:00): spaces cover what the last one left */
  fprintf(stderr, "\r%s%*s", line, t->width > width ? t->width - width : 0, "");
  t->width = width;
  if (last) fputc('\n', stderr);
  fflush(stderr);
}

static void count(tally *t, batch_verdict v, uint64_t nodes) {
  t->done++;
  t->nodes += nodes;
  if (v == BATCH_ERROR) t->errors++;
  if (v == BATCH_DISAGREES) t->disagree++;
  if (v == BATCH_AGREES) t->agree++;
}

/* ---- workers ---- */

/* A worker's pipe, where the system lets it be this large, and the most a
   worker keeps before it writes (a quarter of it): each write wakes the
   merging process, and on a virtual machine a wake costs tens of
   microseconds, as does each page of fresh memory. */
#define PIPE_BYTES ((size_t)1 << 20)
#define WORKER_WRITE (PIPE_BYTES / 4)
#define READ_BYTES (PIPE_BYTES / 2)     /* what the merge reads at once */

/* What a worker has done and not yet written to its pipe. */
typedef struct pending {
  char *data;
  size_t len, cap;
} pending;

static bool pending_add(pending *p, const char *text, size_t len) {
  if (!p->data && p->len + len <= 2 * WORKER_WRITE) {   /* one huge page */
    p->data = big_alloc(2 * WORKER_WRITE);
    if (!p->data) return false;
    p->cap = 2 * WORKER_WRITE;
  }
  if (p->len + len > p->cap) {
    size_t cap = p->cap ? p->cap : 1 << 16;
    while (cap < p->len + len) cap *= 2;
    char *more = realloc(p->data, cap);
    if (!more) return false;
    p->data = more;
    p->cap = cap;
  }
  memcpy(p->data + p->len, text, len);
  p->len += len;
  return true;
}

/* Writes what is pending to fd, through interruptions. */
static bool pending_write(pending *p, int fd) {
  for (size_t done = 0; done < p->len; ) {
    ssize_t w = write(fd, p->data + done, p->len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += (size_t)w;
  }
  p->len = 0;
  return true;
}

/* A worker's line on its pipe: the record's place among those to do,
   the verdict and the nodes, a tab, then the JSON line. */
static bool put_line(pending *p, size_t k, batch_verdict v, uint64_t nodes,
                     const json_out *line) {
  char head[80];
  size_t n = put_digits(head, k);
  head[n++] = ' ';
  n += put_digits(head + n, (uint64_t)v);
  head[n++] = ' ';
  n += put_digits(head + n, nodes);
  head[n++] = '\t';
  return pending_add(p, head, n) && pending_add(p, line->data, line->len) &&
         pending_add(p, "\n", 1);
}

/* Reads what put_line wrote before the JSON line; false if it is not
   there. */
static bool get_head(const char *line, size_t len, uint64_t numbers[3],
                     size_t *skip) {
  const char *tab = memchr(line, '\t', len);
  if (!tab) return false;
  int k = 0;
  numbers[0] = numbers[1] = numbers[2] = 0;
  for (const char *c = line; c < tab; c++) {
    if (*c == ' ' && k < 2) k++;
    else if (*c >= '0' && *c <= '9') numbers[k] = numbers[k] * 10 + (uint64_t)(*c - '0');
    else return false;
  }
  *skip = (size_t)(tab - line) + 1;
  return k == 2;
}

/* What the workers share, in memory mapped by every one of them: the
   first record nobody has taken, and the records each worker has taken
   and not yet written.  A worker takes a run of records at a time, as
   many as it did in a few milliseconds before (one at first), so that
   a fast task's records cost no more than a few system calls a run, a
   slow task's are handed out one by one, and both end together: the
   records of uneven length no longer fall to one worker by their
   place.  It writes its lines before it takes the next run, so when a
   worker dies, what it leaves undone is the end of its last run. */
typedef struct shared {
  _Atomic size_t next;
  size_t taken[][2];            /* [worker]: first, end */
} shared;

typedef struct run_state {
  const config *c;
  const batch_task *task;
  const input *inputs;
  const item *todo;
  size_t ntodo;
  size_t jobs;
  shared *share;
  size_t *order;                /* the records in the order workers take them */
  size_t doomed;                /* tests: a worker dies at this record (from
                                   1, among those to do; 0: none) */
} run_state;

/* How long a run of records should take a worker: long enough that the
   write after it costs nothing, short enough that the workers end
   together. */
#define RUN_SECONDS 0.004


/* A worker: runs of records taken from s->share until none is left, or
   (careful, started again where one died) the records from first to end,
   each line written as soon as it is done, so that the record it dies on
   is the one with no line.  Then exits. */
static void work(const run_state *s, size_t slot, size_t first, size_t end,
                 int fd, bool careful) {
  void *worker = s->task->start ? s->task->start(&s->c->options) : NULL;
  if (s->task->start && !worker) _exit(3);
  json_out line;
  json_init(&line);
  pending out = {0};
  double clock = now();
  size_t size = 1;
  while (!interrupted) {
    if (!careful) {
      size_t taken = atomic_load(&s->share->next);
      if (taken >= s->ntodo) break;
      size_t left = s->ntodo - taken;
      size_t most = left / (4 * s->jobs);        /* the end comes evenly */
      size_t take = size < most ? size : most > 0 ? most : 1;
      first = atomic_fetch_add(&s->share->next, take);
      if (first >= s->ntodo) break;
      end = first + take < s->ntodo ? first + take : s->ntodo;
      s->share->taken[slot][0] = first;
      s->share->taken[slot][1] = end;
    } else if (first >= end) {
      break;
    }
    double began = clock;
    size_t k;
    for (k = first; k < end && !interrupted; k++) {
      uint64_t nodes;
      if (s->order[k] + 1 == s->doomed) _exit(9);
      const item *it = &s->todo[s->order[k]];
      batch_verdict v = do_record(s->task, worker, s->c,
                                  &s->inputs[it->input], it, &line, &nodes,
                                  &clock);
      if (v == BATCH_STOPPED || line.failed) break;
      if (!put_line(&out, s->order[k], v, nodes, &line)) break;
      if ((careful || out.len >= WORKER_WRITE) && !pending_write(&out, fd))
        break;
    }
    if (k < end || !pending_write(&out, fd)) break;
    if (careful) break;
    double took = clock - began;
    if (took < RUN_SECONDS / 2 && size < ((size_t)1 << 20)) size *= 2;
    else if (took > RUN_SECONDS * 2 && size > 1) size /= 2;
  }
  pending_write(&out, fd);
  free(out.data);
  json_free(&line);
  if (s->task->finish) s->task->finish(worker);
  _exit(0);
}

typedef struct reader {
  pid_t pid;
  int fd;
  bool careful;                 /* it writes each line when it is done */
  size_t first, end;            /* a careful one's records */
  char *buf;                    /* in the readers' block, or owned */
  bool owned;
  size_t garbled;               /* lines that were not a worker's line */
  size_t len, cap, start;
} reader;

/* The workers, so that Ctrl-C (which may reach this process alone, as
   kill -INT does) reaches them too. */
static reader *workers;
static size_t nworkers;
static bool forwarded;

static void forward_interrupt(void) {
  if (forwarded) return;
  forwarded = true;
  for (size_t j = 0; j < nworkers; j++)
    if (workers[j].pid > 0) kill(workers[j].pid, SIGINT);
}

/* Starts worker slot: taking runs, or careful from first to end. */
static bool spawn(const run_state *s, reader *r, size_t slot, bool careful,
                  size_t first, size_t end) {
  int p[2];
  if (pipe(p) != 0) return false;
#ifdef F_SETPIPE_SZ
  fcntl(p[1], F_SETPIPE_SZ, (int)PIPE_BYTES);   /* where allowed; else 64 KiB */
#endif
  s->share->taken[slot][0] = s->share->taken[slot][1] = 0;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return false;
  }
  if (pid == 0) {
    close(p[0]);
    for (size_t j = 0; j < nworkers; j++)        /* the others' pipes */
      if (workers[j].fd >= 0) close(workers[j].fd);
    work(s, slot, first, end, p[1], careful);
  }
  close(p[1]);
  r->pid = pid;
  r->careful = careful;
  r->first = first;
  r->end = end;
  r->fd = p[0];
  r->len = r->start = 0;
  return true;
}

static void reap(reader *r) {
  if (r->fd >= 0) close(r->fd);
  r->fd = -1;
  if (r->pid > 0) waitpid(r->pid, NULL, 0);
  r->pid = 0;
}

/* The lines that came before the ones ahead of them were written: each
   copied into a chunk of memory, and the chunks used again once their
   lines are written.  A page of fresh memory costs a fault, and on a
   virtual machine faults cost more than all of a short record's
   merging: the chunks are carved from blocks of one huge page where the
   system has them, and few are ever live at once (the lines of the runs
   that wait for an earlier one), so one block is faulted in. */
#define BLOCK ((size_t)1 << 21)
#define CHUNK (BLOCK / 8)

typedef struct chunk {
  struct chunk *next_free;
  size_t used, cap;
  size_t live;                  /* its lines not yet written */
  char data[];
} chunk;

typedef struct slot {
  const char *text;             /* the JSON line, in *in */
  chunk *in;
  uint64_t nodes;
  size_t len;
  unsigned char verdict;
  bool got;                     /* its line came (and may be written) */
} slot;

typedef struct waiting {
  slot *slots;                  /* [k]: record k's */
  chunk *current, *free;
  void **blocks;                /* what the chunks were carved from */
  size_t nblocks;
} waiting;

static chunk *new_chunk(waiting *w, size_t need) {
  chunk *c = w->free;
  if (c && c->cap >= need) {
    w->free = c->next_free;
  } else {
    /* a block of chunks, or one chunk of its own for a line longer */
    size_t each = need + sizeof *c > CHUNK ? need + sizeof *c : CHUNK;
    size_t bytes = each > CHUNK ? each : BLOCK;
    void **blocks = realloc(w->blocks, (w->nblocks + 1) * sizeof *blocks);
    if (!blocks) return NULL;
    w->blocks = blocks;
    char *b = big_alloc(bytes);
    if (!b) return NULL;
    w->blocks[w->nblocks++] = b;
    for (size_t at = each; at + each <= bytes; at += each) {
      chunk *spare = (chunk *)(b + at);
      spare->cap = each - sizeof *spare;
      spare->next_free = w->free;
      w->free = spare;
    }
    c = (chunk *)b;
    c->cap = each - sizeof *c;
  }
  c->used = c->live = 0;
  c->next_free = NULL;
  return c;
}

static bool keep(waiting *w, size_t k, const char *text, size_t len,
                 batch_verdict v, uint64_t nodes) {
  slot *sl = &w->slots[k];
  if (sl->got) return true;                     /* twice: the first stands */
  chunk *c = w->current;
  if (!c || c->used + len > c->cap) {
    if (c && c->live == 0) {                    /* every line written */
      c->next_free = w->free;
      w->free = c;
    }
    c = w->current = new_chunk(w, len);
    if (!c) return false;
  }
  memcpy(c->data + c->used, text, len);
  sl->text = c->data + c->used;
  sl->in = c;
  sl->len = len;
  sl->nodes = nodes;
  sl->verdict = (unsigned char)v;
  sl->got = true;
  c->used += len;
  c->live++;
  return true;
}

/* Record k's line is written: its chunk may be used again. */
static void written(waiting *w, size_t k) {
  chunk *c = w->slots[k].in;
  if (--c->live == 0 && c != w->current) {
    c->next_free = w->free;
    w->free = c;
  }
}

/* Reads what worker r has written and keeps its whole lines; false at
   the end of its output. */
static bool take_lines(const run_state *s, reader *r, waiting *w) {
  if (r->len == r->cap) {                       /* a line longer than that */
    size_t cap = r->cap * 2;
    char *more = malloc(cap);
    if (!more) return false;
    memcpy(more, r->buf, r->len);
    if (r->owned) free(r->buf);
    r->buf = more;
    r->cap = cap;
    r->owned = true;
  }
  ssize_t n = read(r->fd, r->buf + r->len, r->cap - r->len);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  r->len += (size_t)n;
  for (;;) {
    char *line = r->buf + r->start;
    char *nl = memchr(line, '\n', r->len - r->start);
    if (!nl) break;
    size_t len = (size_t)(nl - line), skip;
    r->start += len + 1;
    uint64_t head[3];
    if (!get_head(line, len, head, &skip) || head[0] >= s->ntodo)
      r->garbled++;             /* a bug: its record is done again */
    else if (!keep(w, (size_t)head[0], line + skip, len - skip,
                   (batch_verdict)head[1], head[2]))
      return false;
  }
  memmove(r->buf, r->buf + r->start, r->len - r->start);  /* a part line */
  r->len -= r->start;
  r->start = 0;
  return true;
}

/* An error line for record k, whose worker stopped on it. */
static bool keep_death(const run_state *s, waiting *w, size_t k) {
  const item *it = &s->todo[k];
  char id[512];
  format_id(&s->inputs[it->input], &it->record, id, sizeof id);
  json_out error;
  json_init(&error);
  json_begin_object(&error);
  json_key(&error, "id");
  json_cstring(&error, id);
  batch_error(&error, "the worker doing it stopped without an answer");
  json_end_object(&error);
  bool kept = !error.failed && keep(w, k, error.data, error.len, BATCH_ERROR, 0);
  json_free(&error);
  return kept;
}

/* Worker slot j ended: a careful worker takes what it left undone; a
   careful one that left some undone died on the first of them, which
   gets an error line.  False if a worker could not be started. */
static bool after_end(const run_state *s, reader *r, size_t j, waiting *w) {
  bool was_careful = r->careful;
  size_t first = was_careful ? r->first : s->share->taken[j][0];
  size_t end = was_careful ? r->end : s->share->taken[j][1];
  reap(r);
  if (interrupted) return true;
  while (first < end && w->slots[s->order[first]].got) first++;
  if (first < end && was_careful) {
    if (!keep_death(s, w, s->order[first])) return false;
    first++;
  }
  if (first < end) return spawn(s, r, j, true, first, end);
  if (atomic_load(&s->share->next) < s->ntodo)   /* back to taking runs */
    return spawn(s, r, j, false, 0, 0);
  return true;
}

/* The records in the order the workers take them: the task's longest
   first when it can tell (a long record taken last would leave one
   worker to finish it alone), else as they come. */
typedef struct costed {
  double cost;
  size_t k;
} costed;

static int longest_first(const void *a, const void *b) {
  const costed *x = a, *y = b;
  if (x->cost != y->cost) return x->cost < y->cost ? 1 : -1;
  return x->k < y->k ? -1 : x->k > y->k;
}

static size_t *by_cost(const run_state *s) {
  size_t n = s->ntodo, *order = malloc(n * sizeof *order);
  costed *c = s->task->cost ? malloc(n * sizeof *c) : NULL;
  if (order && c) {
    for (size_t k = 0; k < n; k++) {
      const item *it = &s->todo[k];
      c[k].cost = s->task->cost(s->inputs[it->input].format, &it->record);
      c[k].k = k;
    }
    qsort(c, n, sizeof *c, longest_first);
    for (size_t k = 0; k < n; k++) order[k] = c[k].k;
  } else if (order) {
    for (size_t k = 0; k < n; k++) order[k] = k;
  }
  free(c);
  return order;
}

/* Runs the records with jobs workers; returns false when interrupted. */
static bool run_workers(run_state *s, output *out, tally *t) {
  size_t jobs = s->jobs, n = s->ntodo;
  size_t share_size = sizeof(shared) + jobs * sizeof s->share->taken[0];
  s->share = mmap(NULL, share_size, PROT_READ | PROT_WRITE,
                  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  reader *readers = calloc(jobs, sizeof *readers);
  waiting w = {NULL, NULL, NULL, NULL, 0};
  struct pollfd *polls = calloc(jobs, sizeof *polls);
  size_t *slot_of = calloc(jobs, sizeof *slot_of);
  /* what each reads at once, from one block of fresh memory;
     LUDUS_TEST_READ_BYTES=N makes it N bytes, so that tests/batch.sh
     sees lines longer than that */
  size_t read_bytes = READ_BYTES;
  const char *test_read = getenv("LUDUS_TEST_READ_BYTES");
  unsigned long test_bytes = test_read ? strtoul(test_read, NULL, 10) : 0;
  if (test_bytes > 0 && test_bytes < READ_BYTES) read_bytes = test_bytes;
  char *reads = big_alloc(jobs * read_bytes);
  bool complete = false;
  s->order = by_cost(s);
  if (s->share == MAP_FAILED || !readers || !polls || !slot_of || !reads ||
      !s->order) {
    fprintf(stderr, "%s: not enough memory for %zu workers\n", progname, jobs);
    goto done;
  }
  atomic_init(&s->share->next, 0);
  workers = readers;
  nworkers = jobs;
  for (size_t j = 0; j < jobs; j++) {
    readers[j].fd = -1;
    readers[j].buf = reads + j * read_bytes;
    readers[j].cap = read_bytes;
  }
  for (size_t j = 0; j < jobs; j++)
    if (!spawn(s, &readers[j], j, false, 0, 0)) {
      fprintf(stderr, "%s: cannot start a worker: %s\n", progname, strerror(errno));
      goto done;
    }
  /* After the forks: memory the workers share until it is written costs
     a fault a page when it is (a huge page is split to be copied). */
  w.slots = big_alloc(n * sizeof *w.slots);
  if (!w.slots) {
    fprintf(stderr, "%s: not enough memory for %zu records\n", progname, n);
    goto done;
  }
  memset(w.slots, 0, n * sizeof *w.slots);
  size_t k = 0;                 /* the next line to write */
  double at = now();
  for (;;) {
    for (; k < n && w.slots[k].got; k++) {
      const slot *sl = &w.slots[k];
      write_line(out, sl->text, sl->len, at);
      count(t, (batch_verdict)sl->verdict, sl->nodes);
      written(&w, k);
    }
    show_progress(t, at, false);
    if (k == n) break;
    nfds_t live = 0;
    for (size_t j = 0; j < jobs; j++)
      if (readers[j].fd >= 0) {
        polls[live].fd = readers[j].fd;
        polls[live].events = POLLIN;
        slot_of[live++] = j;
      }
    if (live == 0) {
      /* Every worker has ended and record k has no line (its worker was
         killed as it took its run): a careful worker does it and those
         after it that have none. */
      if (interrupted) break;
      size_t first = 0, end;
      while (w.slots[s->order[first]].got) first++;
      for (end = first; end < n && !w.slots[s->order[end]].got; end++) {}
      if (!spawn(s, &readers[0], 0, true, first, end)) break;
      continue;
    }
    if (poll(polls, live, -1) < 0) {
      if (errno != EINTR) break;
      if (interrupted) forward_interrupt();
      continue;
    }
    at = now();
    for (nfds_t p = 0; p < live; p++) {
      if (!(polls[p].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      size_t j = slot_of[p];
      if (!take_lines(s, &readers[j], &w) && !after_end(s, &readers[j], j, &w)) {
        fprintf(stderr, "%s: cannot start a worker: %s\n", progname,
                strerror(errno));
        goto done;
      }
    }
    if (interrupted) forward_interrupt();
  }
  complete = k == n;
done:
  if (!complete) forward_interrupt();
  size_t garbled = 0;
  for (size_t j = 0; readers && j < jobs; j++) garbled += readers[j].garbled;
  if (garbled)
    fprintf(stderr, "%s: %zu %s from the workers could not be read; %s "
            "done again\n", progname, garbled, noun(garbled, "line", "lines"),
            noun(garbled, "its record was", "their records were"));
  for (size_t j = 0; readers && j < jobs; j++) {
    reap(&readers[j]);
    if (readers[j].owned) free(readers[j].buf);
  }
  for (size_t b = 0; b < w.nblocks; b++) free(w.blocks[b]);
  free(w.blocks);
  free(w.slots);
  free(s->order);
  free(reads);
  free(polls);
  free(slot_of);
  workers = NULL;
  nworkers = 0;
  free(readers);
  if (s->share != MAP_FAILED && s->share) munmap(s->share, share_size);
  return complete;
}

/* The same in this process. */
static bool run_here(const run_state *s, output *out, tally *t) {
  void *worker = s->task->start ? s->task->start(&s->c->options) : NULL;
  if (s->task->start && !worker) {
    fprintf(stderr, "%s: not enough memory for the %s %s\n", progname,
            s->task->game, s->task->command);
    return false;
  }
  json_out line;
  json_init(&line);
  bool complete = true;
  double at = now();
  for (size_t k = 0; k < s->ntodo; k++) {
    uint64_t nodes;
    const item *it = &s->todo[k];
    batch_verdict v = do_record(s->task, worker, s->c, &s->inputs[it->input],
                                it, &line, &nodes, &at);
    if (v == BATCH_STOPPED || interrupted) {
      complete = false;
      break;
    }
    write_line(out, line.data, line.len, at);
    count(t, v, nodes);
    show_progress(t, at, false);
  }
  json_free(&line);
  if (s->task->finish) s->task->finish(worker);
  return complete;
}

/* ---- merge ---- */

/* The place of a line in its run's input: its id (a JSON line begins
   {"id":"...", a CSV line with it, unquoted) split into the input
   ("file") and the number after the last ':' or '#'; false for a line
   with no such id, or one written with escapes, which the merge does not
   look at.  Read from the line's start, with no parse: merges are of
   millions of lines. */
static bool place_of(const char *line, char *source, size_t size,
                     unsigned long long *number) {
  const char *id = line;
  size_t n = strcspn(line, ",\"\r\n");
  if (line[0] == '{') {
    if (strncmp(line, "{\"id\":\"", 7) != 0) return false;
    id = line + 7;
    n = strcspn(id, "\"\\");
    if (id[n] != '"') return false;
  } else if (line[n] == '"') {
    return false;
  }
  size_t digits = 0;
  while (digits < n && isdigit((unsigned char)id[n - 1 - digits])) digits++;
  if (digits == 0 || digits > 18 || digits == n || n >= size ||
      (id[n - 1 - digits] != ':' && id[n - 1 - digits] != '#'))
    return false;
  memcpy(source, id, n - digits);
  source[n - digits] = '\0';
  *number = strtoull(id + n - digits, NULL, 10);
  return true;
}

/* `ludus merge FILE...`: the outputs of shards 1/N ... N/N, given in that
   order, as the one output of the whole run: shard K wrote the records
   K, K + N, ..., so the merge takes a line from each file in turn.  A
   file named twice is refused (status 2).  What makes the lines another
   run's is said after them, with status 1: a shard whose last line is
   cut short, and counts of lines that N shards of one run cannot have
   (each has as many as the first, or one fewer, and none more than the
   one before it): a shard that did not finish, or the files in another
   order, which the ids show too (a record of an input after a later one
   of it). */
static int merge_main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    printf("usage: %s merge FILE...\n"
           "The outputs of `%s COMMAND ... --shard K/N` for K = 1 ... N, in that\n"
           "order, as one: a line of each in turn, which is the order of the\n"
           "input. (The same as `paste -d '\\n' FILE... | grep -v '^$'`.)\n"
           "A file named twice is refused; a last line cut short, shards whose\n"
           "counts of lines one run cannot give (a shard that did not finish,\n"
           "files in another order), or ids out of their order, are said after\n"
           "the lines, with exit status 1.\n",
           progname, progname);
    return argc < 2 ? 2 : 0;
  }
  int n = argc - 1;
  FILE **files = calloc((size_t)n, sizeof *files);
  size_t *lines = calloc((size_t)n, sizeof *lines);
  bool *cut = calloc((size_t)n, sizeof *cut);
  int status = files && lines && cut ? 0 : fail("not enough memory");
  for (int i = 0; i < n && status == 0; i++)
    for (int j = 0; j < i && status == 0; j++)
      if (strcmp(argv[i + 1], "-") != 0 && ludus_same_file(argv[j + 1], argv[i + 1]))
        status = fail("'%s' is named twice: each shard's output once, in the order "
                      "1/N ... N/N", argv[i + 1]);
  for (int i = 0; i < n && status == 0; i++) {
    files[i] = strcmp(argv[i + 1], "-") == 0 ? stdin : fopen(argv[i + 1], "rb");
    if (!files[i]) status = fail("cannot open '%s': %s", argv[i + 1], strerror(errno));
  }
  char *line = NULL;
  size_t cap = 0;
  char source[512], last_source[512] = "", backwards[1200] = "";
  unsigned long long number, last_number = 0;
  char *header = NULL;          /* a CSV output's first line, written once */
  bool first_round = true;
  for (int open = n; status == 0 && open > 0; first_round = false) {
    open = 0;
    for (int i = 0; i < n; i++) {
      if (!files[i]) continue;
      ssize_t len = getline(&line, &cap, files[i]);
      if (len < 0) {
        if (files[i] != stdin) fclose(files[i]);
        files[i] = NULL;
        continue;
      }
      open++;
      lines[i]++;
      if (len > 0 && line[len - 1] != '\n') {
        line[len++] = '\n';    /* getline left room for its '\0' */
        cut[i] = true;
      }
      if (first_round && line[0] != '{') {     /* --csv: a header line */
        if (header && strcmp(line, header) == 0) continue;
        if (!header && !(header = strdup(line))) {
          status = fail("not enough memory");
          break;
        }
      }
      fwrite(line, 1, (size_t)len, stdout);
      if (!place_of(line, source, sizeof source, &number)) continue;
      if (!*backwards && strcmp(source, last_source) == 0 && number <= last_number)
        snprintf(backwards, sizeof backwards, "'%s' has %s%llu after %s%llu",
                 argv[i + 1], source, number, last_source, last_number);
      memcpy(last_source, source, sizeof source);
      last_number = number;
    }
  }
  for (int i = 0; i < n && status == 0; i++) {
    if (cut[i])
      status = fail("'%s': its last line is cut short (a shard stopped while "
                    "writing: --resume finishes it)", argv[i + 1]);
    else if (i > 0 && (lines[i] > lines[i - 1] || lines[i] + 1 < lines[0]))
      status = fail("'%s' has %zu lines and '%s' %zu: not the shards of one run, "
                    "given in the order 1/N ... N/N (one that did not finish "
                    "carries on with --resume)", argv[1], lines[0], argv[i + 1],
                    lines[i]);
    if (status) status = 1;   /* the lines are written: not a usage error */
  }
  if (status == 0 && *backwards) {
    fail("%s: not the shards of one run in the order 1/N ... N/N", backwards);
    status = 1;
  }
  for (int i = 0; files && i < n; i++)
    if (files[i] && files[i] != stdin) fclose(files[i]);
  free(line);
  free(header);
  free(files);
  free(lines);
  free(cut);
  return status;
}

/* ---- the command ---- */

int batch_main(const char *name, int argc, char **argv) {
  if (name && *name) progname = name;
  if (strcmp(argv[0], "merge") == 0) return merge_main(argc, argv);
  config c;
  int status = parse_args(argc, argv, &c);
  if (status >= 0) {
    free(c.files);
    return status;
  }
  const batch_task *task = find_task(c.command, c.game);
  if (!task) {
    fprintf(stderr, "%s: no %s for '%s'; the games it has:", progname,
            c.command, c.game);
    for (int i = 0; tasks[i]; i++)
      if (strcmp(tasks[i]->command, c.command) == 0)
        fprintf(stderr, " %s", tasks[i]->game);
    fputc('\n', stderr);
    free(c.files);
    return 2;
  }
  if (c.record_path && !task->record_format) {
    fprintf(stderr, "%s: --records: annotate %s writes no game records; "
            "the games it has them for:", progname, c.game);
    for (int i = 0; tasks[i]; i++)
      if (tasks[i]->record_format)
        fprintf(stderr, " %s (%s)", tasks[i]->game, tasks[i]->record_format);
    fputc('\n', stderr);
    free(c.files);
    return 2;
  }
  if (check_work_options(&c, task)) {
    free(c.files);
    return 2;
  }
  c.options.interrupt = &interrupted;
  /* Connect Four's opening book, where the REPL finds it; one that is
     named and cannot be used is an error, as from connect4.book */
  if (c.book && *c.book && !task->book_ok) {
    fprintf(stderr, "%s: --book does not apply to %s %s (it uses no "
            "opening book)\n", progname, c.command, task->game);
    free(c.files);
    return 2;
  }
  char book[PATH_MAX];
  if (!c.book) c.book = getenv("LUDUS_BOOK");
  if (!c.book && ludus_data_file("connect4-7x6.book", book)) c.book = book;
  c.options.book = c.book && *c.book && task->book_ok ? c.book : NULL;
  char why[PATH_MAX + 200];
  if (c.options.book && !task->book_ok(c.options.book, why, sizeof why)) {
    fprintf(stderr, "%s: %s\n", progname, why);
    free(c.files);
    return 2;
  }
  input *inputs = calloc((size_t)c.nfiles, sizeof *inputs);
  size_t nitems = 0, cap = 0;
  item *items = NULL;
  id_set done = {0};
  status = 2;
  if (!inputs) goto out;
  for (int i = 0; i < c.nfiles; i++) {
    input *in = &inputs[i];
    in->name = c.files[i];
    bool stdin_file = strcmp(in->name, "-") == 0;
    FILE *f = stdin_file ? stdin : fopen(in->name, "rb");
    if (!f) {
      fprintf(stderr, "%s: cannot open '%s': %s\n", progname, in->name,
              strerror(errno));
      goto out;
    }
    struct stat st;             /* fopen opens a directory for reading */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
      fprintf(stderr, "%s: cannot read '%s': it is a directory\n", progname,
              in->name);
      if (!stdin_file) fclose(f);
      goto out;
    }
    bool ok = read_all(f, &in->data, &in->len);
    if (!stdin_file) fclose(f);
    if (!ok) {
      fprintf(stderr, "%s: cannot read '%s'\n", progname, in->name);
      goto out;
    }
    const batch_format *other;
    in->format = pick_format(task, &c, in, &other);
    if (in->format) {           /* the ids' start, quoted once */
      json_out quoted;
      json_init(&quoted);
      json_string(&quoted, in->name, strlen(in->name));
      if (!quoted.failed && quoted.len + 1 <= sizeof in->id) {
        memcpy(in->id, quoted.data, quoted.len - 1);       /* no end quote */
        in->id[quoted.len - 1] = in->format->numbered ? '#' : ':';
        in->id_len = quoted.len;
      }
      json_free(&quoted);
    }
    if (!in->format && other) {
      fprintf(stderr, "%s: %s %s does not read '%s', a %s file; it reads:",
              progname, c.game, c.command, in->name, other->name);
      for (int f2 = 0; task->formats[f2]; f2++)
        fprintf(stderr, " %s", task->formats[f2]->name);
      fprintf(stderr, " (");
      for (int k = 0, said = 0; tasks[k]; k++) {
        if (strcmp(tasks[k]->game, task->game) != 0) continue;
        for (int f2 = 0; tasks[k]->formats[f2]; f2++)
          if (tasks[k]->formats[f2] == other)
            fprintf(stderr, "%s%s", said++ ? " and " : "", tasks[k]->command);
      }
      fprintf(stderr, " read it)\n");
      goto out;
    }
    if (!in->format) {
      fprintf(stderr, "%s: %s %s reads no format '%s'; it reads:", progname,
              c.game, c.command, c.format);
      for (int f2 = 0; task->formats[f2]; f2++)
        fprintf(stderr, " %s", task->formats[f2]->name);
      fputc('\n', stderr);
      goto out;
    }
  }
  off_t whole_length = -1;
  if (c.resume && !read_done(c.out_path, &done, &whole_length, why, sizeof why)) {
    fprintf(stderr, "%s: %s\n", progname, why);
    goto out;
  }
  /* every record, then the ones this run does; room for a record every
     64 bytes at first (a Sudoku line is 82, a WTHOR game 68) */
  size_t index = 0, skipped = 0, bytes = 0;
  for (int i = 0; i < c.nfiles; i++) bytes += inputs[i].len;
  cap = bytes / 64 + 1024;
  items = big_alloc(cap * sizeof *items);
  if (!items) {
    fprintf(stderr, "%s: not enough memory for the records\n", progname);
    goto out;
  }
  for (int i = 0; i < c.nfiles; i++) {
    size_t at = 0;
    batch_record r = {0};
    const batch_format *format = inputs[i].format;
    void *records = NULL;
    if (format->open) {
      const char *path = strcmp(inputs[i].name, "-") == 0 ? NULL : inputs[i].name;
      records = inputs[i].records =
          format->open(path, inputs[i].data, inputs[i].len);
    }
    if (format->open && !records) {
      fprintf(stderr, "%s: not enough memory to read '%s'\n", progname,
              inputs[i].name);
      goto out;
    }
    while (records ? format->read(records, &r)
                   : format->next(inputs[i].data, inputs[i].len, &at, &r)) {
      bool mine = (long)(index++ % (size_t)c.shards) == c.shard - 1;
      if (!mine) continue;
      if (done.count) {
        char id[512];
        format_id(&inputs[i], &r, id, sizeof id);
        if (id_has(&done, id)) {
          skipped++;
          continue;
        }
      }
      if (nitems == cap) {
        cap *= 2;
        item *more = realloc(items, cap * sizeof *items);
        if (!more) {
          fprintf(stderr, "%s: not enough memory for the records\n", progname);
          goto out;
        }
        items = more;
      }
      items[nitems].input = i;
      items[nitems].record = r;
      nitems++;
    }
  }
  /* Every id that --out has must be a record this run skips: the lines
     of another shard, or of other inputs, would make the file two runs
     in one (a shard resumed on its neighbour's output). */
  if (skipped < done.count) {
    fprintf(stderr, "%s: --resume: %zu of the %zu ids in '%s' are not records "
            "of this run (another shard's, or of other inputs): it carries on "
            "only its own output\n", progname, done.count - skipped, done.count,
            c.out_path);
    goto out;
  }
  if (c.resume && !cut_unfinished(c.out_path, whole_length, why, sizeof why)) {
    fprintf(stderr, "%s: %s\n", progname, why);
    goto out;
  }
  output o = {0};
  o.csv = c.csv;
  o.file = stdout;
  if (c.out_path) {
    o.file = fopen(c.out_path, c.resume ? "ab" : "wb");
    if (!o.file) {
      fprintf(stderr, "%s: cannot write '%s': %s\n", progname, c.out_path,
              strerror(errno));
      goto out;
    }
  }
  if (c.record_path) {
    o.records = fopen(c.record_path, c.resume ? "ab" : "wb");
    if (!o.records) {
      fprintf(stderr, "%s: cannot write '%s': %s\n", progname, c.record_path,
              strerror(errno));
      if (o.file != stdout) fclose(o.file);
      goto out;
    }
  }
  struct sigaction sa = {0}, before;
  sa.sa_handler = on_interrupt;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &before);
  tally t = {0};
  t.total = nitems;
  t.started = t.shown = now();
  t.progress = !c.quiet && isatty(STDERR_FILENO);
  size_t jobs = (size_t)c.jobs < nitems ? (size_t)c.jobs : nitems;
  /* LUDUS_TEST_WORKER_DIES=N: the worker that does record N dies, and so
     does the careful one after it; tests/batch.sh checks the error line. */
  const char *doomed = getenv("LUDUS_TEST_WORKER_DIES");
  run_state s = {&c, task, inputs, items, nitems, jobs, NULL, NULL,
                 doomed ? strtoul(doomed, NULL, 10) : 0};
  bool complete = jobs > 1 ? run_workers(&s, &o, &t) : run_here(&s, &o, &t);
  sigaction(SIGINT, &before, NULL);
  output_drain(&o);
  int out_error = output_close(o.file);
  if (out_error && o.error) out_error = o.error;
  int records_error = o.records ? output_close(o.records) : 0;
  for (int i = 0; i < o.ncolumns; i++) free(o.columns[i]);
  free(o.columns);
  double seconds = now() - t.started;
  show_progress(&t, now(), true);
  char skipped_text[64] = "";
  if (skipped)
    snprintf(skipped_text, sizeof skipped_text, ", %zu done before", skipped);
  fprintf(stderr, "%s %s %s: %zu %s (%zu %s, %zu disagree, %zu agree"
          "%s), %llu %s, %.2f s, %.0f records/s%s%s\n",
          progname, c.command, task->game, t.done,
          noun(t.done, "record", "records"), t.errors,
          noun(t.errors, "error", "errors"), t.disagree, t.agree, skipped_text,
          (unsigned long long)t.nodes, noun(t.nodes, "node", "nodes"),
          seconds, t.done / (seconds + 1e-9),
          complete ? "" : "; interrupted: ",
          complete ? "" : "--resume carries on");
  status = !complete ? 130 : t.errors || t.disagree ? 1 : 0;
  if (out_error || records_error) {
    fprintf(stderr, "%s: cannot write '%s': %s\n", progname,
            out_error ? (c.out_path ? c.out_path : "standard output")
                      : c.record_path,
            strerror(out_error ? out_error : records_error));
    if (complete) status = 1;
  }
out:
  for (int i = 0; inputs && i < c.nfiles; i++) {
    if (inputs[i].records) inputs[i].format->close(inputs[i].records);
    free(inputs[i].data);
  }
  free(inputs);
  free(items);
  id_free(&done);
  free(c.files);
  return status;
}
