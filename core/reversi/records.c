/*
** records.c: files of Reversi games and positions, read and written
** one record at a time in any format of formats.h.
**
** The reader keeps a window on the file: a .wtb is read 68 bytes at a
** time, a text a line or a GGF game at a time, the window growing to
** hold the longest (up to REVERSI_MAX_RECORD).  So a file of any length
** goes through in little memory, and a file that changes while it is
** read gives bad records, never a crash: nothing is trusted that was
** not read.  Text may start with UTF-8's byte-order mark; lines may end
** in CRLF; blank lines and lines starting with '#' or '%' are skipped
** in the formats of one record a line.
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "formats.h"

#define CHUNK ((size_t)1 << 16)

/* ---- formats and records ---- */

static const char *const format_names[] = {NULL, "wtb", "ggf", "obf", "transcript"};

const char *reversi_format_name(reversi_format format) {
  return format > REVERSI_FORMAT_UNKNOWN && format <= REVERSI_FORMAT_TRANSCRIPT
           ? format_names[format]
           : NULL;
}

reversi_format reversi_format_named(const char *name) {
  for (int f = REVERSI_FORMAT_WTB; f <= REVERSI_FORMAT_TRANSCRIPT; f++)
    if (strcmp(name, format_names[f]) == 0) return (reversi_format)f;
  return REVERSI_FORMAT_UNKNOWN;
}

static bool ends_with(const char *path, const char *ext) {
  size_t n = strlen(path), m = strlen(ext);
  if (n < m) return false;
  for (size_t i = 0; i < m; i++) {
    char c = path[n - m + i];
    if ((c >= 'A' && c <= 'Z' ? c + 32 : c) != ext[i]) return false;
  }
  return true;
}

reversi_format reversi_format_of_path(const char *path) {
  if (ends_with(path, ".wtb")) return REVERSI_FORMAT_WTB;
  if (ends_with(path, ".ggf")) return REVERSI_FORMAT_GGF;
  if (ends_with(path, ".obf")) return REVERSI_FORMAT_OBF;
  if (ends_with(path, ".txt")) return REVERSI_FORMAT_TRANSCRIPT;
  return REVERSI_FORMAT_UNKNOWN;
}

void reversi_record_init(reversi_record *rec, int size) {
  memset(rec, 0, sizeof *rec);
  reversi_init(&rec->start, size);
  rec->board = rec->start;
  rec->year = -1;
  rec->black_index = rec->white_index = rec->tournament_index = -1;
  rec->black_discs = rec->theoretical = rec->depth = -1;
  rec->result = rec->komi = NAN;
  for (int i = 0; i < REVERSI_MAX_PLIES; i++) rec->eval[i] = rec->seconds[i] = NAN;
}

void reversi_record_play(reversi_record *rec, int square) {
  if (rec->plies < REVERSI_MAX_PLIES) rec->moves[rec->plies++] = (uint8_t)square;
  reversi_make(&rec->board, square);
}

/* ---- the reader's window ---- */

static bool fail(reversi_reader *r, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static bool fail(reversi_reader *r, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(r->error, sizeof r->error, format, args);
  va_end(args);
  r->failed = true;
  return false;
}

static size_t available(const reversi_reader *r) { return r->end - r->at; }

/* Makes at least need bytes available from at (fewer at the end of the
   file); false when the file cannot be read. */
static bool fill(reversi_reader *r, size_t need) {
  while (available(r) < need && !r->eof) {
    if (r->at > 0) {                    /* what was read goes */
      memmove(r->buffer, r->buffer + r->at, available(r));
      r->end -= r->at;
      r->at = 0;
    }
    if (r->capacity - r->end < CHUNK / 2 || r->capacity < need) {
      size_t capacity = r->capacity ? 2 * r->capacity : CHUNK;
      while (capacity < need) capacity *= 2;
      uint8_t *buffer = realloc(r->buffer, capacity);
      if (!buffer) {
        snprintf(r->error, sizeof r->error, "not enough memory to read it");
        return false;
      }
      r->buffer = buffer;
      r->capacity = capacity;
    }
    size_t got = fread(r->buffer + r->end, 1, r->capacity - r->end, r->file);
    r->end += got;
    if (got == 0) {
      if (ferror(r->file)) {
        snprintf(r->error, sizeof r->error, "cannot read it (%s)", strerror(errno));
        return false;
      }
      r->eof = true;
    }
  }
  return true;
}

static const uint8_t *bytes(const reversi_reader *r) { return r->buffer + r->at; }

/* The line breaks in p[0..n).  (memchr, not a loop that compilers
   vectorise: clang 14 fails on that one with AVX-512.) */
static uint64_t count_lines(const uint8_t *p, size_t n) {
  uint64_t lines = 0;
  for (const uint8_t *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
    lines++;
  return lines;
}

/* Passes n bytes, counting the lines they end. */
static void consume(reversi_reader *r, size_t n) {
  r->line += count_lines(bytes(r), n);
  r->at += n;
}

/* Room for the texts of a record of len bytes. */
static bool reserve_strings(reversi_reader *r, size_t len) {
  size_t need = 2 * len + 1024;
  if (need <= r->strings_capacity) return true;
  char *strings = realloc(r->strings, need);
  if (!strings) return false;
  r->strings = strings;
  r->strings_capacity = need;
  return true;
}

/* ---- opening ---- */

static bool is_blank(uint8_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* The format of a text from its first line that holds something: a GGF
   game, a board string before ';' (OBF), or a transcript (which may be
   a board string and moves, or a board string alone). */
static reversi_format guess_text(reversi_reader *r) {
  size_t i = r->at;
  for (;;) {
    while (i < r->end && is_blank(r->buffer[i])) i++;
    if (i == r->end) return REVERSI_FORMAT_TRANSCRIPT;
    if (r->buffer[i] == '#' || r->buffer[i] == '%') {
      while (i < r->end && r->buffer[i] != '\n') i++;
      continue;
    }
    break;
  }
  if (i + 1 < r->end && r->buffer[i] == '(' && r->buffer[i + 1] == ';')
    return REVERSI_FORMAT_GGF;
  size_t eol = i;
  while (eol < r->end && r->buffer[eol] != '\n') eol++;
  reversi_board start;
  size_t moves_at;
  const char *line = (const char *)r->buffer + i;
  if (!reversi_read_start(line, eol - i, 8, &start, &moves_at) && moves_at > 0 &&
      memchr(line, ';', eol - i))
    return REVERSI_FORMAT_OBF;
  return REVERSI_FORMAT_TRANSCRIPT;
}

/* What the first bytes say: the encoding, the format when not known. */
static bool start_reading(reversi_reader *r, reversi_format format, int size) {
  r->size = reversi_size_ok(size) ? size : 8;
  r->line = 1;
  if (!fill(r, 4096)) return fail(r, "%s", r->error);
  const uint8_t *b = bytes(r);
  size_t n = available(r);
  if (n >= 2 && ((b[0] == 0xff && b[1] == 0xfe) || (b[0] == 0xfe && b[1] == 0xff)))
    return fail(r, "UTF-16 text (its byte-order mark says so): ludus reads UTF-8");
  if (n >= 4 && b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff)
    return fail(r, "UTF-32 text (its byte-order mark says so): ludus reads UTF-8");
  bool bom = n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf;
  bool binary = n > 0 && b[0] < 0x20 && !is_blank(b[0]);
  if (format == REVERSI_FORMAT_UNKNOWN) {
    format = binary ? REVERSI_FORMAT_WTB : guess_text(r);
    if (bom) r->at += 3, format = guess_text(r);
  } else if (bom && format != REVERSI_FORMAT_WTB) {
    r->at += 3;
  }
  r->format = format;
  if (format == REVERSI_FORMAT_WTB) {
    if (n < REVERSI_WTHOR_HEADER_SIZE)
      return fail(r, "not a WTHOR file: %zu bytes, fewer than its 16-byte header", n);
    const char *why = reversi_wthor_read_header(bytes(r), &r->header);
    if (why) return fail(r, "not a WTHOR file: %s", why);
    consume(r, REVERSI_WTHOR_HEADER_SIZE);
    r->line = 0;
  } else {
    for (size_t i = r->at; i < r->end; i++)
      if (r->buffer[i] == 0)
        return fail(r, "binary data or UTF-16, not text (a zero byte near the start)");
  }
  return true;
}

bool reversi_reader_open_file(reversi_reader *reader, FILE *file,
                              reversi_format format, int size) {
  memset(reader, 0, sizeof *reader);
  reader->file = file;
  struct stat st;
  if (fstat(fileno(file), &st) == 0 && S_ISDIR(st.st_mode))
    return fail(reader, "a folder, not a file");
  if (start_reading(reader, format, size)) return true;
  free(reader->buffer);                 /* the error stays */
  reader->buffer = NULL;
  reader->file = NULL;
  return false;
}

bool reversi_reader_open_memory(reversi_reader *reader, const void *data,
                                size_t len, reversi_format format, int size) {
  memset(reader, 0, sizeof *reader);
  reader->buffer = (uint8_t *)(uintptr_t)data;   /* never written: see close */
  reader->end = len;
  reader->eof = true;
  return start_reading(reader, format, size);
}

/* The file name beside path: path's folder and name. */
static void beside(const char *path, const char *name, char *out, size_t cap) {
  const char *slash = strrchr(path, '/');
  int folder = slash ? (int)(slash - path + 1) : 0;
  snprintf(out, cap, "%.*s%s", folder, path, name);
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool reversi_reader_open(reversi_reader *reader, const char *path,
                         reversi_format format, int size) {
  /* .txt says text, not which: the first line says */
  if (format == REVERSI_FORMAT_UNKNOWN) format = reversi_format_of_path(path);
  if (format == REVERSI_FORMAT_TRANSCRIPT && ends_with(path, ".txt"))
    format = REVERSI_FORMAT_UNKNOWN;
  FILE *file = fopen(path, "rb");
  if (!file) {
    memset(reader, 0, sizeof *reader);
    return fail(reader, "cannot open it (%s)", strerror(errno));
  }
  if (!reversi_reader_open_file(reader, file, format, size)) {
    fclose(file);
    return false;
  }
  reader->owns_file = true;
  if (reader->format == REVERSI_FORMAT_WTB) {
    char players[4096], tournaments[4096];
    beside(path, "WTHOR.JOU", players, sizeof players);
    beside(path, "WTHOR.TRN", tournaments, sizeof tournaments);
    if (!reversi_reader_names(reader, exists(players) ? players : NULL,
                              exists(tournaments) ? tournaments : NULL)) {
      char error[sizeof reader->error];
      memcpy(error, reader->error, sizeof error);
      reversi_reader_close(reader);
      memcpy(reader->error, error, sizeof error);   /* the close forgot it */
      return false;
    }
  }
  return true;
}

/* Reads a file of names whole. */
static bool read_names(reversi_reader *r, const char *path, int width, int which) {
  const char *name = width == REVERSI_WTHOR_PLAYER_SIZE ? "the players' names"
                                                        : "the tournaments' names";
  FILE *f = fopen(path, "rb");
  if (!f) return fail(r, "cannot open %s (%s)", name, strerror(errno));
  size_t max = REVERSI_WTHOR_HEADER_SIZE + (size_t)65535 * width;
  uint8_t *data = malloc(max + 1);
  size_t got = data ? fread(data, 1, max + 1, f) : 0;
  bool error = ferror(f);
  fclose(f);
  if (!data) return fail(r, "not enough memory for %s", name);
  free(r->names_data[which]);
  r->names_data[which] = data;
  if (error) return fail(r, "cannot read %s", name);
  reversi_wthor_names *names = which ? &r->tournaments : &r->players;
  const char *why = got > max ? "too long for a file of names"
                              : reversi_wthor_names_open(names, data, got, width);
  if (why) return fail(r, "%s: %s", name, why);
  return true;
}

bool reversi_reader_names(reversi_reader *reader, const char *players,
                          const char *tournaments) {
  if (players && !read_names(reader, players, REVERSI_WTHOR_PLAYER_SIZE, 0))
    return false;
  if (tournaments && !read_names(reader, tournaments, REVERSI_WTHOR_TOURNAMENT_SIZE, 1))
    return false;
  return true;
}

void reversi_reader_close(reversi_reader *reader) {
  if (reader->file) {
    free(reader->buffer);
    if (reader->owns_file) fclose(reader->file);
  }
  free(reader->names_data[0]);
  free(reader->names_data[1]);
  free(reader->strings);
  memset(reader, 0, sizeof *reader);
  reader->failed = true;
}

/* ---- reading records ---- */

static reversi_status bad(reversi_reader *r, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static reversi_status bad(reversi_reader *r, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(r->error, sizeof r->error, format, args);
  va_end(args);
  return REVERSI_BAD_RECORD;
}

/* The end: a file that cannot be read any more stops here with why. */
static reversi_status stop(reversi_reader *r, reversi_status status) {
  r->failed = true;
  return status;
}

static reversi_status next_wthor(reversi_reader *r, reversi_record *rec) {
  uint64_t n = r->games + 1;
  rec->number = n;
  rec->line = 0;
  if (!fill(r, REVERSI_WTHOR_GAME_SIZE)) return stop(r, REVERSI_BAD_RECORD);
  size_t got = available(r);
  if (r->games == r->header.games) {
    if (got == 0) return stop(r, REVERSI_END);
    return stop(r, bad(r, "more bytes after the %llu games the header counts",
                       (unsigned long long)r->header.games));
  }
  if (got < REVERSI_WTHOR_GAME_SIZE) {
    if (got == 0)
      return stop(r, bad(r, "the file ends before game %llu (the header counts %llu)",
                         (unsigned long long)n, (unsigned long long)r->header.games));
    return stop(r, bad(r, "game %llu is cut short: %zu of its 68 bytes",
                       (unsigned long long)n, got));
  }
  r->games++;
  reversi_wthor_game game;
  int move;
  const char *why = reversi_wthor_read_game(bytes(r), &game, &move);
  if (why && move) {
    int byte = bytes(r)[7 + move];
    r->at += REVERSI_WTHOR_GAME_SIZE;
    return bad(r, "game %llu: move %d (byte %d): %s", (unsigned long long)n, move,
               byte, why);
  }
  r->at += REVERSI_WTHOR_GAME_SIZE;
  if (why) return bad(r, "game %llu: %s", (unsigned long long)n, why);
  reversi_record_init(rec, 8);
  rec->format = REVERSI_FORMAT_WTB;
  rec->number = n;
  rec->year = r->header.game_year;
  rec->depth = r->header.depth;
  rec->black_index = game.black;
  rec->white_index = game.white;
  rec->tournament_index = game.tournament;
  rec->black_discs = game.black_discs;
  rec->theoretical = game.theoretical;
  int illegal = reversi_wthor_replay(&game, rec);
  if (illegal) {
    char name[5];
    reversi_square_name(&rec->board, game.moves[illegal - 1], name);
    return bad(r, "game %llu: move %d '%s' (illegal move)", (unsigned long long)n,
               illegal, name);
  }
  if (reversi_is_over(&rec->board) &&
      reversi_wthor_black_discs(&rec->board) != game.black_discs)
    return bad(r, "game %llu: black's count is %d, the moves give %d",
               (unsigned long long)n, game.black_discs,
               reversi_wthor_black_discs(&rec->board));
  if (!reserve_strings(r, 0)) return bad(r, "not enough memory");
  char *s = r->strings;
  rec->black = reversi_wthor_name(&r->players, game.black, s, 64);
  rec->white = reversi_wthor_name(&r->players, game.white, s + 64, 64);
  rec->tournament = reversi_wthor_name(&r->tournaments, game.tournament, s + 128, 64);
  return REVERSI_RECORD;
}

/* A window that holds the whole record at at, of up to REVERSI_MAX_RECORD
   bytes: false when the file cannot be read. */
static bool fill_more(reversi_reader *r) {
  size_t have = available(r);
  return fill(r, have < CHUNK ? CHUNK : 2 * have);
}

static reversi_status next_ggf(reversi_reader *r, reversi_record *rec) {
  for (;;) {
    if (!fill(r, 2)) return stop(r, REVERSI_BAD_RECORD);
    while (available(r) > 0 && is_blank(bytes(r)[0])) {
      consume(r, 1);
      if (available(r) < 2 && !fill(r, 2)) return stop(r, REVERSI_BAD_RECORD);
    }
    if (available(r) == 0) return stop(r, REVERSI_END);
    const char *text = (const char *)bytes(r);
    rec->number = ++r->number;
    rec->line = r->line;
    if (available(r) < 2 || text[0] != '(' || text[1] != ';') {
      /* text outside a game: up to the next game */
      size_t n = 0;
      for (;;) {
        text = (const char *)bytes(r);
        while (n < available(r) &&
               !(text[n] == '(' && n + 1 < available(r) && text[n + 1] == ';'))
          n++;
        if (n < available(r) || r->eof || available(r) >= REVERSI_MAX_RECORD) break;
        if (!fill_more(r)) return stop(r, REVERSI_BAD_RECORD);
      }
      char shown[24];
      size_t k = 0;
      for (; k < n && k < 20; k++) {
        char c = text[k];
        shown[k] = c < 32 || c == 127 ? '?' : c;
      }
      shown[k] = '\0';
      consume(r, n);
      r->number--;
      rec->number = 0;
      return bad(r, "line %llu: text outside a game: '%s%s'",
                 (unsigned long long)rec->line, shown, n > 20 ? "..." : "");
    }
    size_t length = 0;
    int found;
    for (;;) {
      found = reversi_ggf_span((const char *)bytes(r), available(r), &length);
      if (found || r->eof || available(r) >= REVERSI_MAX_RECORD) break;
      if (!fill_more(r)) return stop(r, REVERSI_BAD_RECORD);
    }
    if (found == 0) {
      consume(r, available(r));
      if (!r->eof) return stop(r, bad(r, "game %llu (line %llu): longer than %zu MiB",
                                      (unsigned long long)rec->number,
                                      (unsigned long long)rec->line,
                                      REVERSI_MAX_RECORD >> 20));
      return bad(r, "game %llu (line %llu): the file ends before its ';)'",
                 (unsigned long long)rec->number, (unsigned long long)rec->line);
    }
    if (found < 0) {
      consume(r, length);
      return bad(r, "game %llu (line %llu): another game starts before its ';)'",
                 (unsigned long long)rec->number, (unsigned long long)rec->line);
    }
    if (!reserve_strings(r, length)) return bad(r, "not enough memory");
    uint64_t number = rec->number, line = rec->line;
    reversi_record_init(rec, 8);
    rec->format = REVERSI_FORMAT_GGF;
    rec->number = number;
    rec->line = line;
    size_t at = 0;
    const char *why =
        reversi_ggf_read((const char *)bytes(r), length, rec, r->strings, &at);
    if (why) {
      uint64_t where = r->line + count_lines(bytes(r), at < length ? at : length);
      consume(r, length);
      if (where != line)
        return bad(r, "game %llu (line %llu, line %llu): %s",
                   (unsigned long long)number, (unsigned long long)line,
                   (unsigned long long)where, why);
      return bad(r, "game %llu (line %llu): %s", (unsigned long long)number,
                 (unsigned long long)line, why);
    }
    consume(r, length);
    return REVERSI_RECORD;
  }
}

/* Shows text[0..len) in a message: control bytes as '?', cut at 40. */
static const char *shown(const char *text, size_t len, char out[48]) {
  size_t n = 0;
  for (; n < len && n < 40; n++) {
    unsigned char c = (unsigned char)text[n];
    out[n] = c < 32 || c == 127 ? '?' : (char)c;
  }
  if (len > 40) memcpy(out + n, "...", 3), n += 3;
  out[n] = '\0';
  return out;
}

static reversi_status next_line(reversi_reader *r, reversi_record *rec) {
  for (;;) {
    size_t n = 0;
    for (;;) {
      const uint8_t *p = bytes(r);
      const uint8_t *nl = memchr(p + n, '\n', available(r) - n);
      if (nl) {
        n = (size_t)(nl - p);
        break;
      }
      n = available(r);
      if (r->eof || n >= REVERSI_MAX_RECORD) break;
      if (!fill_more(r)) return stop(r, REVERSI_BAD_RECORD);
    }
    if (n == 0 && available(r) == 0) return stop(r, REVERSI_END);
    const char *text = (const char *)bytes(r);
    uint64_t line = r->line;
    size_t len = n;
    bool cut = n == available(r) && !r->eof;      /* longer than the limit */
    if (len > 0 && text[len - 1] == '\r') len--;
    size_t first = 0;
    while (first < len && is_blank((uint8_t)text[first])) first++;
    if (first == len || text[first] == '#' || text[first] == '%') {
      consume(r, n < available(r) ? n + 1 : n);
      if (cut) return stop(r, bad(r, "line %llu: longer than %zu MiB",
                                  (unsigned long long)line, REVERSI_MAX_RECORD >> 20));
      continue;
    }
    rec->number = ++r->number;
    rec->line = line;
    if (cut) {
      consume(r, n);
      return stop(r, bad(r, "line %llu: longer than %zu MiB", (unsigned long long)line,
                         REVERSI_MAX_RECORD >> 20));
    }
    reversi_record_init(rec, r->size);
    rec->format = r->format;
    rec->number = r->number;
    rec->line = line;
    const char *why = NULL;
    char detail[48];
    if (memchr(text, '\0', len)) {
      why = "a zero byte: binary data, not text";
    } else if (r->format == REVERSI_FORMAT_OBF) {
      size_t at;
      why = reversi_obf_read(text, len, rec, &at);
    } else {
      reversi_record_error err;
      if (reversi_transcript_read(text, len, r->size, rec, &err)) {
        if (err.move > 0) {
          consume(r, n < available(r) ? n + 1 : n);
          return bad(r, "line %llu: move %d '%s' (%s)", (unsigned long long)line,
                     err.move, shown(text + err.offset, err.length, detail), err.why);
        }
        consume(r, n < available(r) ? n + 1 : n);
        return bad(r, "line %llu: bad board string '%s' (%s)", (unsigned long long)line,
                   shown(text, err.length, detail), err.why);
      }
    }
    consume(r, n < available(r) ? n + 1 : n);
    if (why) return bad(r, "line %llu: %s", (unsigned long long)line, why);
    return REVERSI_RECORD;
  }
}

reversi_status reversi_reader_next(reversi_reader *reader, reversi_record *rec) {
  if (reader->failed) return REVERSI_END;
  switch (reader->format) {
  case REVERSI_FORMAT_WTB: return next_wthor(reader, rec);
  case REVERSI_FORMAT_GGF: return next_ggf(reader, rec);
  case REVERSI_FORMAT_OBF:
  case REVERSI_FORMAT_TRANSCRIPT: return next_line(reader, rec);
  default: return REVERSI_END;
  }
}

/* ---- the writer ---- */

static bool write_failed(reversi_writer *w, const char *what) {
  snprintf(w->error, sizeof w->error, "cannot write %s (%s)", what, strerror(errno));
  return false;
}

bool reversi_writer_open_file(reversi_writer *writer, FILE *file,
                              reversi_format format,
                              const reversi_wthor_header *header) {
  memset(writer, 0, sizeof *writer);
  writer->format = format;
  writer->file = file;
  if (!reversi_format_name(format)) {
    snprintf(writer->error, sizeof writer->error, "no format to write in");
    return false;
  }
  if (format != REVERSI_FORMAT_WTB) return true;
  if (header) {
    writer->header = *header;
    writer->header_set = true;
  } else {
    time_t now = time(NULL);
    struct tm today;
    if (localtime_r(&now, &today)) {
      writer->header.century = (today.tm_year + 1900) / 100;
      writer->header.year = (today.tm_year + 1900) % 100;
      writer->header.month = today.tm_mon + 1;
      writer->header.day = today.tm_mday;
    }
    writer->header.board_size = 8;
  }
  writer->header.games = 0;
  uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE];
  reversi_wthor_write_header(&writer->header, bytes);
  if (fwrite(bytes, 1, sizeof bytes, file) != sizeof bytes)
    return write_failed(writer, "the header");
  return true;
}

bool reversi_writer_open(reversi_writer *writer, const char *path,
                         reversi_format format, const reversi_wthor_header *header) {
  if (format == REVERSI_FORMAT_UNKNOWN) format = reversi_format_of_path(path);
  if (!reversi_format_name(format)) {
    memset(writer, 0, sizeof *writer);
    snprintf(writer->error, sizeof writer->error, "no format to write in");
    return false;
  }
  FILE *file = fopen(path, "wb");
  if (!file) {
    memset(writer, 0, sizeof *writer);
    snprintf(writer->error, sizeof writer->error, "cannot create it (%s)",
             strerror(errno));
    return false;
  }
  if (!reversi_writer_open_file(writer, file, format, header)) {
    fclose(file);
    writer->file = NULL;
    return false;
  }
  writer->owns_file = true;
  return true;
}

reversi_status reversi_writer_add(reversi_writer *writer,
                                  const reversi_record *rec) {
  if (!writer->file) {
    snprintf(writer->error, sizeof writer->error, "the file is closed");
    return REVERSI_END;
  }
  if (writer->format == REVERSI_FORMAT_WTB) {
    reversi_wthor_game game;
    const char *why = reversi_wthor_from_record(rec, &game);
    if (why) {
      snprintf(writer->error, sizeof writer->error, "%s", why);
      return REVERSI_BAD_RECORD;
    }
    if (writer->count == UINT32_MAX) {
      snprintf(writer->error, sizeof writer->error,
               "a .wtb holds 2^32 - 1 games at most");
      return REVERSI_BAD_RECORD;
    }
    if (!writer->header_set && writer->count == 0) {
      if (rec->year >= 0 && rec->year <= 65535)
        writer->header.game_year = (uint16_t)rec->year;
      if (rec->depth >= 0 && rec->depth <= 60)
        writer->header.depth = (uint8_t)rec->depth;
    }
    uint8_t bytes[REVERSI_WTHOR_GAME_SIZE];
    reversi_wthor_write_game(&game, bytes);
    if (fwrite(bytes, 1, sizeof bytes, writer->file) != sizeof bytes)
      return write_failed(writer, "a game"), REVERSI_END;
    writer->count++;
    return REVERSI_RECORD;
  }
  for (;;) {
    size_t n;
    if (writer->format == REVERSI_FORMAT_GGF) {
      n = reversi_ggf_write(rec, writer->buffer, writer->capacity);
    } else if (writer->format == REVERSI_FORMAT_OBF) {
      n = reversi_obf_write(rec, writer->buffer, writer->capacity);
    } else {
      n = reversi_transcript_write(rec, writer->buffer, writer->capacity);
    }
    if (n < writer->capacity) {
      if (fwrite(writer->buffer, 1, n, writer->file) != n)
        return write_failed(writer, "a record"), REVERSI_END;
      writer->count++;
      return REVERSI_RECORD;
    }
    size_t capacity = n + 1 > 4096 ? n + 1 : 4096;
    char *buffer = realloc(writer->buffer, capacity);
    if (!buffer) {
      snprintf(writer->error, sizeof writer->error, "not enough memory");
      return REVERSI_END;
    }
    writer->buffer = buffer;
    writer->capacity = capacity;
  }
}

bool reversi_writer_close(reversi_writer *writer) {
  bool ok = writer->file != NULL;
  if (ok && writer->format == REVERSI_FORMAT_WTB) {
    writer->header.games = (uint32_t)writer->count;
    uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE];
    reversi_wthor_write_header(&writer->header, bytes);
    if (fseek(writer->file, 0, SEEK_SET) != 0 ||
        fwrite(bytes, 1, sizeof bytes, writer->file) != sizeof bytes)
      ok = write_failed(writer, "the header's count");
  }
  if (ok && fflush(writer->file) != 0) ok = write_failed(writer, "the file");
  if (writer->file && writer->owns_file && fclose(writer->file) != 0 && ok)
    ok = write_failed(writer, "the file");
  free(writer->buffer);
  writer->buffer = NULL;
  writer->capacity = 0;
  writer->file = NULL;
  return ok;
}
