/*
** ggf.c: the Generic Game Format of the Othello servers (GGS) and Edax,
** as Igor Durdanovic's specification has it:
**
**   (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[a]PW[b]
**     RB[2197.01]RW[2199.73]TI[15:00//02:00]TY[8]RE[+4.000]
**     BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
**     B[d3//0.01]W[c5/-1.02/0.01]B[PA]...;)
**
** A move is B[square/evaluation/seconds], the last two optional, PA
** for a pass; KB and KW are the moves of a komi game, KM its komi.  RE
** is black's disc difference, with :r (resigned), :t (time) or :s
** (agreed).  TY is the board size with letters: s (synchro), k (komi),
** r with a count (random start), b or w (colour asked for), a (anti
** Othello, where fewer discs win: refused, as is a board that is not
** 4x4, 6x6 or 8x8).  Property values escape ']' and '\' with a '\'.
**
** Numbers are read and written here rather than by strtod and printf,
** whose decimal point depends on the locale.
*/
#include <math.h>
#include <string.h>

#include "formats.h"

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_letter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static char upper(char c) { return c >= 'a' && c <= 'z' ? (char)(c - 32) : c; }

static bool same_word(const char *text, size_t len, const char *word) {
  if (strlen(word) != len) return false;
  for (size_t i = 0; i < len; i++)
    if (upper(text[i]) != upper(word[i])) return false;
  return true;
}

/* ---- numbers ---- */

/* A decimal number, all of text[0..len): [+-]digits[.digits], or
   minutes and seconds 1:05.5 (and hours, 1:02:03) when colons is true;
   at most 9 digits before the point and 9 after, 15 in all when the
   minutes and hours are turned into seconds, and less than 10^9: so
   the value is the double nearest to the decimal, and append_number
   writes it back as that decimal.  False when it is not one. */
static bool read_number(const char *text, size_t len, bool colons, double *value) {
  static const uint64_t ten[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                 100000000, 1000000000};
  const uint64_t limit = 1000000000000000;            /* 10^15 */
  size_t i = 0;
  bool negative = false;
  if (i < len && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  uint64_t before = 0;                    /* hours and minutes, in seconds */
  for (int parts = 1;; parts++) {
    uint64_t mantissa = 0;
    int whole = 0, decimals = 0;
    bool point = false;
    for (; i < len; i++) {
      if (is_digit(text[i])) {
        if (point) decimals++;
        else whole++;
        if (whole > 9 || decimals > 9) return false;
        mantissa = mantissa * 10 + (uint64_t)(text[i] - '0');
      } else if (text[i] == '.' && !point) {
        point = true;
      } else {
        break;
      }
    }
    if (whole + decimals == 0) return false;
    if (i < len && text[i] == ':' && colons && parts < 3 && !point) {
      before = (before + mantissa) * 60;
      i++;
      continue;
    }
    if (i != len || before >= limit / ten[decimals]) return false;
    uint64_t total = before * ten[decimals] + mantissa;
    if (total >= limit || total >= 1000000000 * ten[decimals]) return false;
    double x = (double)total / (double)ten[decimals];
    *value = negative ? -x : x;
    return true;
  }
}

/* Appends value with decimals digits after the point (at most 9). */
static size_t append_fixed(char *buf, size_t size, size_t used, double value,
                           int decimals, bool sign) {
  static const uint64_t ten[] = {1, 10, 100, 1000, 10000, 100000, 1000000,
                                 10000000, 100000000, 1000000000};
  bool negative = value < 0;
  double magnitude = negative ? -value : value;
  if (magnitude >= 1e9) magnitude = 1e9;             /* no such evaluation */
  uint64_t scaled = (uint64_t)(magnitude * (double)ten[decimals] + 0.5);
  uint64_t whole = scaled / ten[decimals], fraction = scaled % ten[decimals];
  if (scaled == 0) negative = false;
  used = game_append(buf, size, used, "%s%llu", negative ? "-" : sign ? "+" : "",
                     (unsigned long long)whole);
  if (decimals > 0)
    used = game_append(buf, size, used, ".%0*llu", decimals,
                       (unsigned long long)fraction);
  return used;
}

/* Appends value in the fewest decimals from min_decimals on that read
   back as the same number (9 at most). */
static size_t append_number(char *buf, size_t size, size_t used, double value,
                            int min_decimals, bool sign) {
  for (int decimals = min_decimals; decimals <= 9; decimals++) {
    char text[48];
    size_t n = append_fixed(text, sizeof text, 0, value, decimals, sign);
    double back;
    if (n < sizeof text && read_number(text, n, false, &back) && back == value)
      return game_append(buf, size, used, "%s", text);
  }
  return append_fixed(buf, size, used, value, 9, sign);
}

/* ---- the year of a date ---- */

/* The year of a day counted from 1970-01-01 (Howard Hinnant's
   civil_from_days). */
static int64_t year_of_day(int64_t days) {
  days += 719468;
  int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  int64_t day_of_era = days - era * 146097;
  int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 -
                         day_of_era / 146096) / 365;
  int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  int64_t month = (5 * day_of_year + 2) / 153;
  return year_of_era + era * 400 + (month >= 10 ? 1 : 0);
}

/* DT: 2003.12.15_13:24:03.MST, a year alone, or seconds since 1970. */
static int year_of_date(const char *date) {
  size_t n = 0;
  while (is_digit(date[n])) n++;
  if (n == 4 &&
      (date[4] == '\0' || date[4] == '.' || date[4] == '-' || date[4] == '_')) {
    int year = 0;
    for (int i = 0; i < 4; i++) year = year * 10 + (date[i] - '0');
    return year;
  }
  if (n >= 5 && n <= 12 && date[n] == '\0') {
    int64_t seconds = 0;
    for (size_t i = 0; i < n; i++) seconds = seconds * 10 + (date[i] - '0');
    return (int)year_of_day(seconds / 86400);
  }
  return -1;
}

/* ---- texts ---- */

/* The length of the UTF-8 sequence at s[0..len), 0 when it is not one. */
static size_t utf8_length(const unsigned char *s, size_t len) {
  unsigned c = s[0];
  size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
           : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n == 0 || n > len) return 0;
  for (size_t i = 1; i < n; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  if (n == 3 && ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0))) return 0;
  if (n == 4 && ((c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))) return 0;
  return n;
}

static bool is_utf8(const char *text, size_t len) {
  for (size_t i = 0; i < len;) {
    size_t n = utf8_length((const unsigned char *)text + i, len - i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/* Where the texts of a record go: the caller's buffer of 2 * len + 64. */
typedef struct strings {
  char *data;
  size_t used;
} strings;

/* A property's value, escapes undone, as UTF-8 (ISO-8859-1 turned into
   it when the bytes are not UTF-8), NUL ended in the strings. */
static const char *keep_text(strings *s, const char *value, size_t len) {
  char *out = s->data + s->used;
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (value[i] == '\\' && i + 1 < len &&
        (value[i + 1] == ']' || value[i + 1] == '\\'))
      i++;
    out[n++] = value[i];
  }
  if (!is_utf8(out, n)) {                  /* ISO-8859-1: from the end, in place */
    size_t wide = n;
    for (size_t i = 0; i < n; i++) wide += (unsigned char)out[i] >= 0x80;
    for (size_t i = n, j = wide; i > 0;) {
      unsigned char c = (unsigned char)out[--i];
      if (c < 0x80) {
        out[--j] = (char)c;
      } else {
        out[--j] = (char)(0x80 | (c & 0x3f));
        out[--j] = (char)(0xc0 | c >> 6);
      }
    }
    n = wide;
  }
  out[n] = '\0';
  s->used += n + 1;
  return out;
}

/* ---- reading ---- */

typedef struct pending_move {
  char colour;                       /* 'B' or 'W' */
  const char *text;                  /* the square, or PA */
  size_t len, at;
  double eval, seconds;
} pending_move;

typedef struct game_type {
  int size;                          /* 0 when TY does not say */
} game_type;

static const char *read_type(const char *text, size_t len, game_type *type) {
  type->size = 0;
  for (size_t i = 0; i < len;) {
    char c = (char)(text[i] | 0x20);
    if (is_digit(text[i])) {
      if (type->size) return "a game type with two board sizes";
      int n = 0;
      while (i < len && is_digit(text[i]) && n < 100) n = n * 10 + (text[i++] - '0');
      type->size = n;
      continue;
    }
    i++;
    if (c == 'r') {                      /* a random start: BO has it */
      while (i < len && is_digit(text[i])) i++;
    } else if (c == 'a') {
      return "anti Othello (TY with 'a', fewer discs win): ludus plays the "
             "standard game";
    } else if (c != 's' && c != 'k' && c != 'b' && c != 'w') {
      return "a game type (TY) of letters ludus does not know (s, k, r, a, b, w)";
    }
  }
  if (type->size && !reversi_size_ok(type->size))
    return "a board that is not 4x4, 6x6 or 8x8 (TY)";
  return NULL;
}

/* BO[8 -------- ... *]: the size, the cells from a1, the side to move. */
static const char *read_board(const char *text, size_t len, reversi_board *board) {
  size_t i = 0;
  while (i < len && is_space(text[i])) i++;
  int size = 0;
  while (i < len && is_digit(text[i]) && size < 100)
    size = size * 10 + (text[i++] - '0');
  if (!reversi_size_ok(size)) return "a board (BO) that is not 4x4, 6x6 or 8x8";
  for (size_t j = i; j < len; j++)
    if (text[j] == ';') return "a board (BO) of '*', 'O' and '-'";
  const char *why = reversi_parse_board(text + i, len - i, board);
  if (why) return why;
  if (board->size != size) return "a board (BO) whose cells are not its size squared";
  return NULL;
}

/* B[f5/1.23/4.5]: the move, then its evaluation and time when given. */
static const char *read_move(const char *value, size_t len, pending_move *m) {
  size_t slash = 0;
  while (slash < len && value[slash] != '/') slash++;
  size_t start = 0, end = slash;
  while (start < end && is_space(value[start])) start++;
  while (end > start && is_space(value[end - 1])) end--;
  m->text = value + start;
  m->len = end - start;
  m->eval = m->seconds = NAN;
  if (m->len == 0) return "a move without its square";
  if (slash == len) return NULL;
  size_t second = slash + 1;
  while (second < len && value[second] != '/') second++;
  double number;
  if (second > slash + 1) {
    if (!read_number(value + slash + 1, second - slash - 1, false, &number))
      return "a move's evaluation is not a number";
    m->eval = number;
  }
  if (second < len && second + 1 < len) {
    size_t third = second + 1;
    while (third < len && value[third] != '/') third++;
    if (!read_number(value + second + 1, third - second - 1, true, &number) ||
        number < 0)
      return "a move's time is not a number of seconds";
    m->seconds = number;
  }
  return NULL;
}

static const char *read_result(const char *text, size_t len, reversi_record *rec) {
  size_t end = 0;
  while (end < len && text[end] != ':') end++;
  if (len == 1 && text[0] == '?') return NULL;
  if (!read_number(text, end, false, &rec->result) || fabs(rec->result) > 64)
    return "a result (RE) that is not a disc difference";
  if (end < len) {
    if (end + 2 != len ||
        (text[end + 1] != 'r' && text[end + 1] != 't' && text[end + 1] != 's'))
      return "a result (RE) whose flag is not :r, :t or :s";
    rec->result_how = text[end + 1];
  }
  return NULL;
}

/* Plays the moves read, each for the side to move; a move of the other
   side follows an implicit pass when the side to move has none. */
static const char *play_moves(reversi_record *rec, const pending_move *moves,
                              int count, size_t *at) {
  for (int i = 0; i < count; i++) {
    const pending_move *m = &moves[i];
    *at = m->at;
    if (reversi_is_over(&rec->board)) return "a move after the end of the game";
    int colour = m->colour == 'B' ? REVERSI_BLACK : REVERSI_WHITE;
    int square = same_word(m->text, m->len, "pa")
                   ? REVERSI_PASS
                   : reversi_parse_square(&rec->board, m->text, m->len);
    if (square < 0) return "a move that is not a square of the board";
    bool pass = square == REVERSI_PASS;
    uint64_t legal = reversi_legal(&rec->board);
    if (colour != rec->board.turn) {
      if (legal || pass) return "a move of the side that is not to move";
      reversi_record_play(rec, REVERSI_PASS);
      legal = reversi_legal(&rec->board);
    }
    if (pass ? legal != 0 : !(legal >> square & 1))
      return pass ? "a pass while a move exists" : "an illegal move";
    rec->eval[rec->plies] = m->eval;
    rec->seconds[rec->plies] = m->seconds;
    reversi_record_play(rec, square);
  }
  return NULL;
}

const char *reversi_ggf_read(const char *text, size_t len, reversi_record *rec,
                             char *strings_out, size_t *at) {
  strings s = {strings_out, 0};
  pending_move moves[REVERSI_MAX_PLIES];
  int count = 0;
  game_type type = {0};
  const char *board_text = NULL;
  size_t board_len = 0, board_at = 0;
  size_t i = 0;
  while (i < len && is_space(text[i])) i++;
  *at = i;
  if (i + 1 >= len || text[i] != '(' || text[i + 1] != ';')
    return "a game starts with '(;'";
  i += 2;
  for (;;) {
    while (i < len && is_space(text[i])) i++;
    *at = i;
    if (i + 1 < len && text[i] == ';' && text[i + 1] == ')') break;
    if (i >= len) return "the game has no end (';)')";
    size_t name = i;
    while (i < len && is_letter(text[i])) i++;
    size_t name_len = i - name;
    if (name_len == 0 || name_len > 8)
      return "a property is letters and a value in brackets, as PB[name]";
    while (i < len && is_space(text[i])) i++;
    if (i >= len || text[i] != '[') return "a property without its value in brackets";
    size_t values = 0;
    while (i < len && text[i] == '[') {
      size_t value = ++i;
      while (i < len && text[i] != ']') {
        if (text[i] == '\\' && i + 1 < len) i++;
        if (text[i] == '\0') {
          *at = i;
          return "a zero byte in a property's value";
        }
        i++;
      }
      if (i >= len) return "a property's value has no end (']')";
      size_t value_len = i++ - value;
      if (++values > 1) continue;       /* a property takes one value here */
      const char *v = text + value;
      const char *p = text + name;
      const char *why = NULL;
      *at = value;
      if (same_word(p, name_len, "GM")) {
        if (!same_word(v, value_len, "othello"))
          why = "a game (GM) that is not Othello";
      } else if (same_word(p, name_len, "B") || same_word(p, name_len, "W") ||
                 same_word(p, name_len, "KB") || same_word(p, name_len, "KW")) {
        if (count == REVERSI_MAX_PLIES) return "more moves than a game can have";
        pending_move *m = &moves[count++];
        m->colour = upper(p[name_len - 1]);
        m->at = value;
        why = read_move(v, value_len, m);
      } else if (same_word(p, name_len, "PB")) {
        rec->black = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "PW")) {
        rec->white = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "PC")) {
        rec->place = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "DT")) {
        rec->date = keep_text(&s, v, value_len);
        rec->year = year_of_date(rec->date);
      } else if (same_word(p, name_len, "TI")) {
        rec->clock = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "RB")) {
        rec->black_rating = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "RW")) {
        rec->white_rating = keep_text(&s, v, value_len);
      } else if (same_word(p, name_len, "TY")) {
        rec->type = keep_text(&s, v, value_len);
        why = read_type(v, value_len, &type);
      } else if (same_word(p, name_len, "RE")) {
        why = read_result(v, value_len, rec);
      } else if (same_word(p, name_len, "KM")) {
        if (!read_number(v, value_len, false, &rec->komi) || fabs(rec->komi) > 64)
          why = "a komi (KM) that is not a number of discs";
      } else if (same_word(p, name_len, "BO")) {
        board_text = v;
        board_len = value_len;
        board_at = value;
      }
      if (why) return why;
      while (i < len && is_space(text[i])) i++;
    }
  }
  if (board_text) {
    *at = board_at;
    reversi_board start;
    const char *why = read_board(board_text, board_len, &start);
    if (why) return why;
    if (type.size && type.size != start.size)
      return "the board (BO) is not of the size the type (TY) says";
    rec->start = rec->board = start;
  } else if (type.size && type.size != 8) {
    reversi_init(&rec->start, type.size);
    rec->board = rec->start;
  }
  return play_moves(rec, moves, count, at);
}

int reversi_ggf_span(const char *text, size_t len, size_t *length) {
  bool in_value = false;
  for (size_t i = 2; i < len; i++) {
    char c = text[i];
    if (in_value) {
      if (c == '\\') i++;
      else if (c == ']') in_value = false;
    } else if (c == '[') {
      in_value = true;
    } else if (c == ';' && i + 1 < len && text[i + 1] == ')') {
      *length = i + 2;
      return 1;
    } else if (c == '(' && i + 1 < len && text[i + 1] == ';') {
      *length = i;
      return -1;
    }
  }
  return 0;
}

/* ---- writing ---- */

static size_t append_text(char *buf, size_t size, size_t used, const char *name,
                          const char *value) {
  if (!value) return used;
  used = game_append(buf, size, used, "%s[", name);
  for (const char *c = value; *c; c++)
    used = game_append(buf, size, used, *c == ']' || *c == '\\' ? "\\%c" : "%c", *c);
  return game_append(buf, size, used, "]");
}

static size_t append_board(char *buf, size_t size, size_t used,
                           const reversi_board *board) {
  used = game_append(buf, size, used, "BO[%d", board->size);
  int first = (8 - board->size) / 2;
  uint64_t black = reversi_discs(board, REVERSI_BLACK);
  uint64_t white = reversi_discs(board, REVERSI_WHITE);
  for (int row = 0; row < board->size; row++) {
    used = game_append(buf, size, used, " ");
    for (int column = 0; column < board->size; column++) {
      int square = (row + first) * 8 + column + first;
      used = game_append(buf, size, used, "%c", black >> square & 1   ? '*'
                                                : white >> square & 1 ? 'O'
                                                                      : '-');
    }
  }
  return game_append(buf, size, used, " %c]", board->turn == REVERSI_BLACK ? '*' : 'O');
}

size_t reversi_ggf_write(const reversi_record *rec, char *buf, size_t size) {
  if (size > 0) buf[0] = '\0';
  size_t used = game_append(buf, size, 0, "(;GM[Othello]");
  used = append_text(buf, size, used, "PC", rec->place ? rec->place : rec->tournament);
  if (rec->date) {
    used = append_text(buf, size, used, "DT", rec->date);
  } else if (rec->year >= 1000 && rec->year <= 9999) {
    used = game_append(buf, size, used, "DT[%d]", rec->year);
  }
  used = append_text(buf, size, used, "PB", rec->black);
  used = append_text(buf, size, used, "PW", rec->white);
  used = append_text(buf, size, used, "RB", rec->black_rating);
  used = append_text(buf, size, used, "RW", rec->white_rating);
  used = append_text(buf, size, used, "TI", rec->clock);
  if (rec->type) {
    used = append_text(buf, size, used, "TY", rec->type);
  } else {
    used = game_append(buf, size, used, "TY[%d]", rec->start.size);
  }
  double result = rec->result;
  if (isnan(result) && reversi_is_over(&rec->board)) {
    int squares = rec->board.size * rec->board.size;
    result = 2 * reversi_wthor_black_discs(&rec->board) - squares;
  } else if (isnan(result) && rec->black_discs >= 0 && rec->start.size == 8) {
    result = 2 * rec->black_discs - 64;
  }
  if (!isnan(result)) {
    used = game_append(buf, size, used, "RE[");
    used = append_number(buf, size, used, result, 3, true);
    if (rec->result_how) used = game_append(buf, size, used, ":%c", rec->result_how);
    used = game_append(buf, size, used, "]");
  }
  if (!isnan(rec->komi)) {
    used = game_append(buf, size, used, "KM[");
    used = append_number(buf, size, used, rec->komi, 1, true);
    used = game_append(buf, size, used, "]");
  }
  used = append_board(buf, size, used, &rec->start);
  reversi_board board = rec->start;
  for (int i = 0; i < rec->plies; i++) {
    char name[5];
    reversi_square_name(&board, rec->moves[i], name);
    char colour = board.turn == REVERSI_BLACK ? 'B' : 'W';
    used = game_append(buf, size, used, "%c[%s", colour,
                       rec->moves[i] == REVERSI_PASS ? "PA" : name);
    bool eval = !isnan(rec->eval[i]), seconds = !isnan(rec->seconds[i]);
    if (eval || seconds) used = game_append(buf, size, used, "/");
    if (eval) used = append_number(buf, size, used, rec->eval[i], 0, false);
    if (seconds) {
      used = game_append(buf, size, used, "/");
      used = append_number(buf, size, used, rec->seconds[i], 0, false);
    }
    used = game_append(buf, size, used, "]");
    reversi_make(&board, rec->moves[i]);
  }
  return game_append(buf, size, used, ";)\n");
}
