/*
** pgn.c: games in Chinese chess PGN, read and written.
**
** The form is chess's PGN (tag pairs, then the moves and a result
** token) as xqbase and the CCPD write it for xiangqi: [Game "Chinese
** Chess"], [FEN] for a game that does not begin at the start, [Format]
** naming the notation, moves in ICCS, WXF or Chinese.  The reader takes
** what files in the wild hold: move numbers ("1.", "1...", glued to the
** move or not), comments ({...} over lines, and ; to the end of the
** line), NAGs ($1), variations ((...), nested) and "!?" marks skipped;
** full-width spaces; games without tags, without a result token (the
** next tag line ends them) or with tags and nothing else.  A line
** starting with '%' is skipped, as PGN says.
*/
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

#define MAX_MOVE_TEXT 40

struct xq_pgn_reader {
  xq_lines lines;
  const char *rest;               /* what is left of the current line */
  size_t rest_length;
  bool pending;                   /* whether there is a current line */
  bool whole;                     /* whether rest is all of it */
  int games;
  xq_move *moves;
  int capacity;
  char *strings;                  /* the tags of the game, NUL-terminated */
  size_t used, size;
  size_t tag_at[XQ_PGN_MAX_TAGS][2];
};

/* What reading one game keeps track of. */
typedef struct parse {
  xq_pgn_reader *reader;
  xq_pgn_game *game;
  bool found;                     /* tags, a move or a result: a game */
  bool movetext;                  /* a move or a result was seen */
  bool failed;
  bool in_comment;
  int comment_line;
  size_t brace_at;                /* the next brace past a line, once found */
  bool brace_closes;              /* and whether it is a '}' */
  int depth;                      /* of variations */
  int variation_line;
  int legacy_line;                /* a line read as GBK or Big5 */
  int replaced_line;              /* a line with bytes that are no text */
} parse;

xq_pgn_reader *xq_pgn_open(const char *text, size_t size,
                           xq_encoding encoding) {
  xq_pgn_reader *reader = calloc(1, sizeof *reader);
  if (!reader) return NULL;
  if (!xq_lines_open(&reader->lines, text, size, encoding)) {
    free(reader);
    return NULL;
  }
  return reader;
}

void xq_pgn_close(xq_pgn_reader *reader) {
  if (!reader) return;
  xq_lines_close(&reader->lines);
  free(reader->moves);
  free(reader->strings);
  free(reader);
}

const char *xq_pgn_tag(const xq_pgn_game *game, const char *name) {
  for (int i = game->tag_count - 1; i >= 0; i--)
    if (strcmp(game->tags[i].name, name) == 0) return game->tags[i].value;
  return NULL;
}

/* ---- errors ---- */

static void fail(parse *p, int ply, const char *format, ...)
  __attribute__((format(printf, 3, 4)));

/* The first error of a game is the one it reports. */
static void fail(parse *p, int ply, const char *format, ...) {
  if (p->failed) return;
  p->failed = true;
  p->game->error_line = p->reader->lines.number;
  p->game->error_ply = ply;
  va_list args;
  va_start(args, format);
  vsnprintf(p->game->message, sizeof p->game->message, format, args);
  va_end(args);
}

/* ---- tags ---- */

static bool add_string(xq_pgn_reader *r, const char *s, size_t n) {
  if (r->used + n + 1 > r->size) {
    size_t size = r->size ? r->size : 1024;
    while (size < r->used + n + 1) size *= 2;
    char *grown = realloc(r->strings, size);
    if (!grown) return false;
    r->strings = grown;
    r->size = size;
  }
  memcpy(r->strings + r->used, s, n);
  r->strings[r->used + n] = '\0';
  r->used += n + 1;
  return true;
}

static bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (c >= '0' && c <= '9') || c == '_';
}

static bool read_fen_tag(parse *p, const char *value) {
  xq_fen_problem problem;
  xq_position pos;
  if (xq_from_fen(&pos, value, &problem) != XQ_FEN_OK) {
    char why[200];
    xq_fen_message(&problem, why, sizeof why);
    fail(p, 0, "bad FEN '%.*s' (%s)", xq_shown(value, strlen(value), 60),
         value, why);
    return false;
  }
  pos.rules = p->game->start.rules;
  p->game->start = pos;
  p->game->end = pos;
  return true;
}

/* Keeps a tag; [FEN] sets the start. */
static void add_tag(parse *p, const char *name, size_t name_length,
                    const char *value, size_t value_length) {
  xq_pgn_reader *r = p->reader;
  xq_pgn_game *g = p->game;
  size_t name_at = r->used;
  if (!add_string(r, name, name_length)) {
    fail(p, 0, "out of memory");
    return;
  }
  size_t value_at = r->used;
  char *out = NULL;
  if (add_string(r, value, value_length)) {
    out = r->strings + value_at;  /* undo the escapes in place; a value is
                                     one line of text, control characters
                                     become spaces */
    size_t k = 0;
    for (size_t i = 0; i < value_length; i++) {
      if (out[i] == '\\' && i + 1 < value_length &&
          (out[i + 1] == '"' || out[i + 1] == '\\'))
        i++;
      unsigned char c = (unsigned char)out[i];
      out[k++] = c < ' ' || c == 0x7F ? ' ' : (char)c;
    }
    out[k] = '\0';
  }
  if (!out) {
    fail(p, 0, "out of memory");
    return;
  }
  if (name_length == 3 && memcmp(name, "FEN", 3) == 0 && !p->failed &&
      g->plies == 0)
    read_fen_tag(p, out);
  if (g->tag_count < XQ_PGN_MAX_TAGS) {
    r->tag_at[g->tag_count][0] = name_at;
    r->tag_at[g->tag_count][1] = value_at;
    g->tag_count++;
  }
}

/* Reads the tag pairs of a line: [Name "value"], any number of them; a
   value may be bare ([Date 2005]), and a lone tag's value may hold
   quotes that are not escaped (everything up to its last quote). */
static void read_tags(parse *p, const char *s, size_t n) {
  size_t at = 0;
  for (;;) {
    while (at < n && xq_space(s + at, n - at)) at += xq_space(s + at, n - at);
    if (at == n) return;
    if (s[at++] != '[') break;
    while (at < n && (s[at] == ' ' || s[at] == '\t')) at++;
    size_t name = at;
    while (at < n && is_name_char(s[at])) at++;
    size_t name_length = at - name;
    if (!name_length) break;
    while (at < n && (s[at] == ' ' || s[at] == '\t')) at++;
    if (at < n && s[at] == '"') {
      size_t value = ++at;
      while (at < n && s[at] != '"') at += s[at] == '\\' && at + 1 < n ? 2 : 1;
      size_t close = at + 1;
      while (close < n && (s[close] == ' ' || s[close] == '\t')) close++;
      if (at >= n || close >= n || s[close] != ']') {
        /* quotes inside the value: up to the last quote before a final ] */
        size_t end = n;
        while (end > value && xq_space(s + end - 1, 1)) end--;
        if (end < value + 2 || s[end - 1] != ']') break;
        size_t quote = end - 1;
        while (quote > value && s[quote - 1] != '"') quote--;
        if (quote <= value) break;
        add_tag(p, s + name, name_length, s + value, quote - 1 - value);
        return;
      }
      add_tag(p, s + name, name_length, s + value, at - value);
      at = close + 1;
    } else {
      size_t value = at;
      while (at < n && s[at] != ']') at++;
      if (at == n) break;
      size_t end = at;
      while (end > value && (s[end - 1] == ' ' || s[end - 1] == '\t')) end--;
      add_tag(p, s + name, name_length, s + value, end - value);
      at++;
    }
  }
  fail(p, 0, "bad tag pair '%.*s' (tags are [Name \"value\"])",
       xq_shown(s, n, 60), s);
}

/* Whether a line is a tag pair's start: [Name "... */
static bool looks_like_tag(const char *s, size_t n) {
  size_t at = 0;
  while (at < n && xq_space(s + at, n - at)) at += xq_space(s + at, n - at);
  if (at == n || s[at] != '[') return false;
  size_t name = ++at;
  while (at < n && is_name_char(s[at])) at++;
  if (at == name) return false;
  while (at < n && s[at] == ' ') at++;
  return at < n && s[at] == '"';
}

/* ---- moves ---- */

static bool is_result(const char *s, size_t n, const char **result) {
  static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  static const size_t lengths[] = {3, 3, 7, 1};
  if (s[0] != '0' && s[0] != '1' && s[0] != '*' && s[0] != '\xC2')
    return false;
  for (int i = 0; i < 4; i++)
    if (n == lengths[i] && memcmp(s, results[i], n) == 0) {
      *result = results[i];
      return true;
    }
  if (n == 5 && memcmp(s, "\xC2\xBD-\xC2\xBD", 5) == 0) {    /* ½-½ */
    *result = results[2];
    return true;
  }
  return false;
}

static const char *result_of_tag(const char *value) {
  const char *result;
  if (value && is_result(value, strlen(value), &result)) return result;
  return "";
}

static bool room_for_move(parse *p) {
  xq_pgn_reader *r = p->reader;
  if (p->game->plies < r->capacity) return true;
  if (p->game->plies >= XQ_MAX_PLIES) {
    fail(p, p->game->plies + 1, "more than %d plies", XQ_MAX_PLIES);
    return false;
  }
  int capacity = r->capacity ? 2 * r->capacity : 512;
  xq_move *grown = realloc(r->moves, (size_t)capacity * sizeof *grown);
  if (!grown) {
    fail(p, p->game->plies + 1, "out of memory");
    return false;
  }
  r->moves = grown;
  r->capacity = capacity;
  return true;
}

/* What to add to the reason a move could not be read when its line was
   not plain UTF-8. */
static void encoding_note(const parse *p, char *buf, size_t size) {
  const xq_lines *lines = &p->reader->lines;
  static const char *const names[] = {"", "UTF-8", "GBK", "Big5"};
  buf[0] = '\0';
  if (lines->replaced)
    snprintf(buf, size, "; the line has bytes that are not %s text",
             names[lines->encoding]);
  else if (lines->encoding != XQ_ENCODING_UTF8)
    snprintf(buf, size, "; the line was read as %s", names[lines->encoding]);
}

/* Plays the move of a token (its move number and marks taken off). */
static void play_token(parse *p, const char *s, size_t n) {
  xq_pgn_game *g = p->game;
  size_t digits = 0;
  while (digits < n && s[digits] >= '0' && s[digits] <= '9') digits++;
  size_t dots = digits;               /* '.', '…' or the full-width '．' */
  for (;;) {
    if (dots < n && s[dots] == '.') dots++;
    else if (n - dots >= 3 && (memcmp(s + dots, "\xE2\x80\xA6", 3) == 0 ||
                               memcmp(s + dots, "\xEF\xBC\x8E", 3) == 0))
      dots += 3;
    else break;
  }
  const char *whole = s;
  size_t whole_length = n;
  if (digits > 0 && dots > digits) {               /* "12." or "12...h2e2" */
    s += dots;
    n -= dots;
    if (n == 0) return;
  }
  while (n > 0 && (s[n - 1] == '!' || s[n - 1] == '?')) n--;
  if (n == 0) return;
  if (p->failed || !room_for_move(p)) return;
  const char *tries[3] = {s, whole, NULL};
  size_t lengths[3] = {n, whole_length, 0};
  int count = s == whole ? 1 : 2;
  if (n > 1 && (s[n - 1] == '+' || s[n - 1] == '#')) {   /* a check mark */
    tries[count] = s;
    lengths[count++] = n - 1;
  }
  xq_move move = 0;
  game_error code = GAME_EBADTEXT;
  const char *why = "too long for a move";
  char text[MAX_MOVE_TEXT];
  for (int i = 0; i < count && code != GAME_OK; i++) {
    if (lengths[i] >= sizeof text) continue;
    memcpy(text, tries[i], lengths[i]);
    text[lengths[i]] = '\0';
    game_error c = xq_read_move(&g->end, text, &move, &why);
    if (i == 0 || c == GAME_OK) code = c;
  }
  if (code != GAME_OK) {
    int ply = g->plies + 1;
    int shown = xq_shown(s, n, 60);
    char note[80];
    encoding_note(p, note, sizeof note);
    if (!p->failed) {
      snprintf(g->error_move, sizeof g->error_move, "%.*s", shown, s);
      snprintf(g->error_reason, sizeof g->error_reason, "%s",
               !xq_has_legal_move(&g->end)
                   ? "the game is over"
                   : why);
    }
    if (!xq_has_legal_move(&g->end))
      fail(p, ply, "move '%.*s' at ply %d comes after the end of the game "
           "(%s)", shown, s, ply,
           xq_in_check(&g->end) ? "checkmate" : "stalemate");
    else if (code == GAME_EILLEGAL)
      fail(p, ply, "illegal move '%.*s' at ply %d (%s%s)", shown, s, ply,
           why, note);
    else
      fail(p, ply, "unreadable move '%.*s' at ply %d (%s%s)", shown, s, ply,
           why, note);
    return;
  }
  xq_undo undo;
  xq_make(&g->end, move, &undo);
  p->reader->moves[g->plies++] = move;
}

/* The end of a token: white space or one of {}(); */
static size_t token_length(const char *s, size_t n) {
  size_t at = 0;
  while (at < n && !xq_space(s + at, n - at) && s[at] != '{' &&
         s[at] != '}' && s[at] != '(' && s[at] != ')' && s[at] != ';')
    at++;
  return at;
}

/* Reads what is left of the current line as moves.  Returns true when a
   result token ended the game (what follows it stays for the next). */
static bool read_movetext(parse *p) {
  xq_pgn_reader *r = p->reader;
  const char *s = r->rest;
  size_t n = r->rest_length, at = 0;
  bool ended = false;
  while (at < n && !ended) {
    if (p->in_comment) {
      const char *close = memchr(s + at, '}', n - at);
      if (!close) {
        at = n;
        break;
      }
      p->in_comment = false;
      at = (size_t)(close - s) + 1;
      continue;
    }
    size_t space = xq_space(s + at, n - at);
    if (space) {
      at += space;
      continue;
    }
    char c = s[at];
    if (c == '{') {
      p->in_comment = true;
      p->comment_line = r->lines.number;
      at++;
    } else if (c == ';') {
      at = n;
    } else if (c == '(') {
      if (p->depth++ == 0) p->variation_line = r->lines.number;
      at++;
    } else if (c == ')') {
      if (p->depth > 0) p->depth--;
      at++;
    } else if (c == '}') {
      at++;                                 /* a stray close: nothing */
    } else {
      size_t k = token_length(s + at, n - at);
      const char *result;
      if (p->depth == 0 && c != '$') {
        p->found = p->movetext = true;
        if (is_result(s + at, k, &result)) {
          p->game->result = result;
          ended = true;
        } else {
          play_token(p, s + at, k);
        }
      }
      at += k;
    }
  }
  r->rest = s + at;
  r->rest_length = n - at;
  r->whole = false;
  if (at >= n) r->pending = false;
  return ended;
}

/* Where reading goes on in the text: at what is left of the current
   line (when the line was not converted, that is in the text itself;
   else at its start), or after it. */
static size_t text_offset(const xq_pgn_reader *r) {
  const xq_lines *lines = &r->lines;
  if (!r->pending) return lines->at;
  const char *data = (const char *)lines->data;
  if (r->rest >= data && r->rest <= data + lines->size)
    return (size_t)(r->rest - data);
  return lines->start;
}

/* Takes the next line as the current one; false at the end of the text. */
static bool next_line(xq_pgn_reader *r) {
  if (r->pending) return true;
  if (!xq_lines_next(&r->lines)) return false;
  r->rest = r->lines.text;
  r->rest_length = r->lines.length;
  r->pending = true;
  r->whole = true;
  return true;
}

/* How many bytes the character at s takes: a UTF-8 sequence, else two
   (a GBK or Big5 character, whose second byte may look like a brace). */
static size_t char_length(const unsigned char *s, size_t n) {
  size_t k = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 0;
  if (k == 0 || k > n) return n < 2 ? n : 2;
  for (size_t i = 1; i < k; i++)
    if ((s[i] & 0xC0) != 0x80) return 2;
  return k;
}

/* How much of a line (n bytes at s) is tag pairs: up to its last ']'
   when it looks like one, else nothing.  A brace in there is a tag's
   text ([Site "a}b"]), not a comment's end or start. */
static size_t tags_length(const unsigned char *s, size_t n) {
  if (!looks_like_tag((const char *)s, n)) return 0;
  size_t at = 0, end = 0;
  while (at < n) {
    if (s[at] == ']') end = at + 1;
    at += s[at] < 0x80 ? 1 : char_length(s + at, n - at);
  }
  return end;
}

/* Whether the comment open at the current line, a line that looks like
   a tag pair, goes on past it: a '}' comes before any '{' from the
   line's start, the braces of tag pairs left out.  Then the line is the
   comment's text (a game quoted in it); else the comment was left open,
   and the line is the next game's tags: a '}' in a later game's tag
   does not close it.  The brace found is kept for the comment's next
   such lines, so that a long comment is looked through once. */
static bool comment_goes_on(parse *p, const xq_lines *lines) {
  if (p->brace_at > lines->start) return p->brace_closes;
  const unsigned char *s = lines->data;
  size_t at = lines->start, line_end = at, tags_end = at;
  while (at < lines->size) {
    if (at == line_end) {
      const unsigned char *newline = memchr(s + at, '\n', lines->size - at);
      line_end = newline ? (size_t)(newline - s) + 1 : lines->size;
      tags_end = at + tags_length(s + at, line_end - at);
    }
    if ((s[at] == '}' || s[at] == '{') && at >= tags_end) break;
    at += s[at] < 0x80 ? 1 : char_length(s + at, line_end - at);
  }
  p->brace_at = at < lines->size ? at : SIZE_MAX;
  p->brace_closes = at < lines->size && s[at] == '}';
  return p->brace_closes;
}

xq_read_status xq_pgn_next(xq_pgn_reader *r, xq_pgn_game *g) {
  g->tag_count = 0;
  g->result = "";
  xq_init(&g->start);
  g->end = g->start;
  g->moves = r->moves;
  g->plies = 0;
  g->error_line = g->error_ply = 0;
  g->error_move[0] = g->error_reason[0] = '\0';
  g->message[0] = '\0';
  g->encoding = XQ_ENCODING_UTF8;
  g->line = 0;
  r->used = 0;
  parse p = {.reader = r, .game = g};
  g->offset = text_offset(r);
  while (next_line(r)) {
    const xq_lines *lines = &r->lines;
    if (r->whole) {
      const char *s = r->rest;
      size_t n = r->rest_length, at = 0;
      while (at < n && xq_space(s + at, n - at)) at += xq_space(s + at, n - at);
      bool free_text = !p.in_comment && p.depth == 0;
      bool quoted = p.in_comment && looks_like_tag(s, n) && comment_goes_on(&p, lines);
      if (quoted) {             /* the comment's text, braces and all */
        size_t k = tags_length((const unsigned char *)s, n);
        r->rest += k;
        r->rest_length -= k;
      }
      if (!free_text && !quoted && !p.found && looks_like_tag(s, n)) {
        p.in_comment = false;          /* before any game: forgotten */
        p.depth = 0;
        free_text = true;
      }
      if (at < n && s[at] == '%' && free_text) {
        r->pending = false;                     /* PGN's escape line */
        continue;
      }
      if (at < n && s[at] == '[' && !quoted && (free_text || looks_like_tag(s, n))) {
        if (p.movetext || !free_text) {
          if (!free_text)
            fail(&p, 0, "the %s opened on line %d is not closed before the "
                 "next game's tags", p.in_comment ? "comment '{'"
                 : "variation '('", p.in_comment ? p.comment_line
                 : p.variation_line);
          break;                               /* the next game's tags */
        }
        if (!p.found) g->line = lines->number;
        p.found = true;
        if (lines->encoding != XQ_ENCODING_UTF8) g->encoding = lines->encoding;
        read_tags(&p, s, n);
        r->pending = false;
        continue;
      }
    }
    bool was_found = p.found;
    int line = lines->number;
    xq_encoding encoding = lines->encoding;
    bool ended = read_movetext(&p);
    if (p.found && !was_found) g->line = line;
    if (p.found && encoding != XQ_ENCODING_UTF8) g->encoding = encoding;
    if (ended) break;
  }
  if (!p.found) return XQ_READ_END;
  g->length = r->lines.converted ? 0 : text_offset(r) - g->offset;
  if (p.in_comment || p.depth > 0)
    fail(&p, 0, "the %s opened on line %d is not closed at the end of the "
         "game", p.in_comment ? "comment '{'" : "variation '('",
         p.in_comment ? p.comment_line : p.variation_line);
  g->number = ++r->games;
  g->moves = r->moves;
  for (int i = 0; i < g->tag_count; i++) {
    g->tags[i].name = r->strings + r->tag_at[i][0];
    g->tags[i].value = r->strings + r->tag_at[i][1];
  }
  if (!*g->result) g->result = result_of_tag(xq_pgn_tag(g, "Result"));
  return p.failed ? XQ_READ_BAD : XQ_READ_OK;
}

/* ---- writing ---- */

static const char *const format_names[] = {"ICCS", "WXF", "Chinese"};

static size_t write_tag(char *buf, size_t size, size_t n, const char *name,
                        const char *value) {
  n = game_append(buf, size, n, "[%s \"", name);
  for (const char *c = value; *c; c++) {
    if (*c == '"' || *c == '\\') n = game_append(buf, size, n, "\\%c", *c);
    else if (*c == '\n' || *c == '\r') n = game_append(buf, size, n, " ");
    else n = game_append(buf, size, n, "%c", *c);
  }
  return game_append(buf, size, n, "\"]\n");
}

static bool good_name(const char *name) {
  if (!*name) return false;
  for (const char *c = name; *c; c++)
    if (!is_name_char(*c)) return false;
  return true;
}

/* A move as the notation writes it; black's numbers in Chinese are
   full-width digits, as Chinese records write them. */
static void move_text(const xq_position *pos, xq_move move,
                      xq_notation notation, char *out, size_t size) {
  char text[64];
  xq_format_move(pos, move, notation, text, sizeof text);
  if (notation != XQ_CHINESE || pos->turn == XQ_RED) {
    snprintf(out, size, "%s", text);
    return;
  }
  size_t n = 0;
  for (const char *c = text; *c && n + 4 < size; c++) {
    if (*c >= '1' && *c <= '9') {
      out[n++] = '\xEF';
      out[n++] = '\xBC';
      out[n++] = (char)(0x90 + (*c - '0'));
    } else {
      out[n++] = *c;
    }
  }
  out[n] = '\0';
}

size_t xq_pgn_write(const xq_pgn_game *game, xq_notation notation,
                    char *buf, size_t size) {
  size_t n = 0;
  const char *result = *game->result ? game->result : "*";
  bool standard = xq_is_start(&game->start);
  char fen[128];
  xq_to_fen(&game->start, fen, sizeof fen);
  bool has_game = false, has_result = false, has_fen = false,
       has_format = false;
  /* At most XQ_PGN_MAX_TAGS tags, as many as a reader keeps: the tags
     this adds to the game's own go only where there is room, so that the
     text reads back with the same tags, all but [FEN], which the reader
     takes wherever it stands ([Game] and [Format] say what the text
     says anyway, and the result follows the moves). */
  int room = XQ_PGN_MAX_TAGS;
  for (int i = 0; i < game->tag_count; i++) {
    has_game |= strcmp(game->tags[i].name, "Game") == 0;
    has_result |= strcmp(game->tags[i].name, "Result") == 0;
    room -= good_name(game->tags[i].name);
  }
  if (!has_game && room-- > 0) n = write_tag(buf, size, n, "Game", "Chinese Chess");
  for (int i = 0; i < game->tag_count; i++) {
    const char *name = game->tags[i].name, *value = game->tags[i].value;
    if (!good_name(name)) continue;
    if (strcmp(name, "Result") == 0) {
      value = result;
    } else if (strcmp(name, "FEN") == 0) {
      value = fen;
      has_fen = true;
    } else if (strcmp(name, "Format") == 0) {
      value = format_names[notation];
      has_format = true;
    }
    n = write_tag(buf, size, n, name, value);
  }
  if (!has_result && room-- > 0) n = write_tag(buf, size, n, "Result", result);
  if (!has_fen && !standard) n = write_tag(buf, size, n, "FEN", fen);
  if (!has_format && room-- > 0)
    n = write_tag(buf, size, n, "Format", format_names[notation]);
  n = game_append(buf, size, n, "\n");

  xq_position pos = game->start;
  size_t column = 0;
  unsigned number = pos.fullmove;
  for (int i = 0; i < game->plies; i++) {
    xq_move move = game->moves[i];
    if (!xq_is_legal(&pos, move)) break;
    char word[80], text[64];
    move_text(&pos, move, notation, text, sizeof text);
    if (pos.turn == XQ_RED)
      snprintf(word, sizeof word, "%u. %s", number, text);
    else if (i == 0)
      snprintf(word, sizeof word, "%u... %s", number, text);
    else
      snprintf(word, sizeof word, "%s", text);
    size_t length = strlen(word);
    if (notation == XQ_CHINESE) {
      if (pos.turn == XQ_RED && column > 0) {
        n = game_append(buf, size, n, "\n");
        column = 0;
      }
    } else if (column > 0 && column + 1 + length > 79) {
      n = game_append(buf, size, n, "\n");
      column = 0;
    }
    n = game_append(buf, size, n, "%s%s", column ? " " : "", word);
    column += (column ? 1 : 0) + length;
    if (pos.turn == XQ_BLACK) number++;
    xq_undo undo;
    xq_make(&pos, move, &undo);
  }
  if (column > 0 &&
      (notation == XQ_CHINESE || column + 1 + strlen(result) > 79)) {
    n = game_append(buf, size, n, "\n");
    column = 0;
  }
  return game_append(buf, size, n, "%s%s\n\n", column ? " " : "", result);
}
