/*
** text.c: the lines of a record file as UTF-8, whatever it was written in.
**
** Xiangqi records come in UTF-8 (with or without a byte-order mark), in
** GBK (GB2312's superset, from mainland software) and in Big5 (from
** Taiwan and Hong Kong, as the CCPD files are).  Each line is read on its
** own: a line that is valid UTF-8 is UTF-8; any other is in the file's
** legacy encoding, which is found once, at the first such line, by
** decoding up to 64 KiB from there both ways and scoring what comes out
** (score_text): the characters of moves (车 馬 進 五 ８ ...) count most,
** other CJK characters a little, and what no Chinese record holds (kana,
** Greek, box drawing, private use, undecodable bytes: what Big5 read as
** GBK or GBK read as Big5 turns into) counts against.  Big5 must score
** higher to be chosen; GBK is the default.  Since '\n' is never part of
** a GBK or Big5 character, lines split the same in every encoding, and
** one bad line spoils only itself.  Text in UTF-16 (with its mark) is
** converted whole first.  A byte that is not text in the line's encoding
** becomes U+FFFD, and the line says so (replaced).
*/
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

#define SAMPLE_BYTES 65536
#define REPLACEMENT "\xEF\xBF\xBD"       /* U+FFFD */

const char *const xq_encoding_names[] = {"auto", "utf-8", "gbk", "big5", NULL};

/* iconv's names: GB18030 reads all of GBK (and CP936); Big5 is CP950,
   Microsoft's, which is what Big5 files in the wild are. */
static const char *const iconv_names[] = {NULL, "UTF-8", "GB18030", "CP950"};

/* How long the valid UTF-8 character at s is (1 for ASCII), or 0 when
   the bytes there are not one; a zero byte is not one either. */
static size_t utf8_char(const unsigned char *s, size_t left) {
  unsigned char c = s[0];
  if (c && c < 0x80) return 1;
  size_t n;
  unsigned min;
  if (c >= 0xC2 && c <= 0xDF) n = 2, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, min = 0x10000;
  else return 0;
  if (left < n) return 0;
  unsigned code = c & (0x3F >> (n - 1));
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    code = code << 6 | (s[i] & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return 0;
  return n;
}

/* Whether the bytes are all valid UTF-8, zero bytes allowed or not. */
static bool valid_utf8(const unsigned char *s, size_t n, bool zero) {
  size_t at = 0;
  while (at < n) {
    while (at < n && s[at] < 0x80 && (s[at] || zero)) at++;
    if (at == n) return true;
    size_t k = utf8_char(s + at, n - at);
    if (!k) return false;
    at += k;
  }
  return true;
}

bool xq_is_utf8(const char *text, size_t size) {
  return valid_utf8((const unsigned char *)text, size, false);
}

static bool reserve(xq_lines *lines, size_t needed) {
  if (needed <= lines->capacity) return true;
  size_t capacity = lines->capacity ? lines->capacity : 256;
  while (capacity < needed) capacity *= 2;
  char *grown = realloc(lines->buffer, capacity);
  if (!grown) return false;
  lines->buffer = grown;
  lines->capacity = capacity;
  return true;
}

/* Copies the UTF-8 bytes to the buffer, each byte that is not part of a
   valid character (and each zero byte) as U+FFFD; returns how many were. */
static size_t copy_utf8(xq_lines *lines, const unsigned char *s, size_t n) {
  size_t out = 0, replaced = 0;
  for (size_t at = 0; at < n;) {
    size_t k = utf8_char(s + at, n - at);
    if (k) {
      memcpy(lines->buffer + out, s + at, k);
      out += k;
      at += k;
    } else {
      memcpy(lines->buffer + out, REPLACEMENT, 3);
      out += 3;
      at++;
      replaced++;
    }
  }
  lines->length = out;
  return replaced;
}

static iconv_t converter(xq_lines *lines, xq_encoding encoding) {
  void **slot = &lines->iconv[encoding == XQ_ENCODING_BIG5];
  if (!*slot) {
    iconv_t cd = iconv_open("UTF-8", iconv_names[encoding]);
    *slot = cd == (iconv_t)-1 ? (void *)-1 : (void *)cd;
  }
  return *slot == (void *)-1 ? (iconv_t)-1 : (iconv_t)*slot;
}

/* Decodes n bytes of encoding into out (room for 3n + 4 bytes: a GBK or
   Big5 character of two bytes takes at most three, one of four at most
   four, a bad byte three); a byte that is not text becomes U+FFFD, as
   does a zero byte.  Returns the length, and the count of bytes replaced
   in *replaced. */
static size_t decode(xq_lines *lines, xq_encoding encoding,
                     const unsigned char *s, size_t n, char *out,
                     size_t *replaced) {
  iconv_t cd = converter(lines, encoding);
  char *to = out;
  *replaced = 0;
  if (cd == (iconv_t)-1) {                 /* no converter in this libc */
    for (size_t i = 0; i < n; i++) {
      if (s[i] && s[i] < 0x80) {
        *to++ = (char)s[i];
      } else {
        memcpy(to, REPLACEMENT, 3);
        to += 3;
        ++*replaced;
      }
    }
    return (size_t)(to - out);
  }
  iconv(cd, NULL, NULL, NULL, NULL);
  char *in = (char *)s;
  size_t in_left = n, out_left = 3 * n + 4;
  while (in_left > 0) {
    if (iconv(cd, &in, &in_left, &to, &out_left) != (size_t)-1) break;
    if (errno == E2BIG || out_left < 3) break;       /* cannot happen */
    memcpy(to, REPLACEMENT, 3);                      /* EILSEQ, EINVAL */
    to += 3;
    out_left -= 3;
    in++;
    in_left--;
    ++*replaced;
  }
  size_t length = (size_t)(to - out);
  for (size_t i = 0; i < length; i++) {         /* zero bytes: rare */
    if (out[i]) continue;
    memmove(out + i + 3, out + i + 1, length - i - 1);
    memcpy(out + i, REPLACEMENT, 3);
    length += 2;
    ++*replaced;
  }
  return length;
}

/* ---- which legacy encoding ---- */

/* The characters of moves in either script, and the full-width digits:
   each three bytes in UTF-8, sorted (by code point, as UTF-8 sorts) for
   the binary search. */
static const char move_chars[] =
  "一七三中九二五仕俥傌八六兵前包卒后四士将將帅帥平後炮相砲象車车进退進馬马"
  "１２３４５６７８９";

static unsigned three_bytes(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  return (unsigned)u[0] << 16 | (unsigned)u[1] << 8 | u[2];
}

static bool is_move_char(const char *s, size_t k) {
  if (k != 3) return false;
  unsigned wanted = three_bytes(s);
  size_t low = 0, high = (sizeof move_chars - 1) / 3;
  while (low < high) {
    size_t mid = (low + high) / 2;
    unsigned here = three_bytes(move_chars + 3 * mid);
    if (here == wanted) return true;
    if (here < wanted) low = mid + 1;
    else high = mid;
  }
  return false;
}

/* The score of decoded text, as the header comment says. */
static long score_text(const char *s, size_t n) {
  long score = 0;
  for (size_t at = 0; at < n;) {
    size_t k = utf8_char((const unsigned char *)s + at, n - at);
    if (!k) k = 1;
    if (k == 1) {
      at++;
      continue;
    }
    const unsigned char *u = (const unsigned char *)s + at;
    unsigned code = k == 2 ? (u[0] & 0x1Fu) << 6 | (u[1] & 0x3Fu)
                  : k == 3 ? (u[0] & 0x0Fu) << 12 | (u[1] & 0x3Fu) << 6 |
                             (u[2] & 0x3Fu)
                  : 0x10000;
    if (is_move_char(s + at, k)) score += 8;
    else if ((code >= 0x4E00 && code <= 0x9FFF) ||    /* CJK ideographs */
             (code >= 0x3000 && code <= 0x303F) ||    /* CJK punctuation */
             (code >= 0xFF01 && code <= 0xFF5E) ||    /* full-width forms */
             (code >= 0x2010 && code <= 0x2027))      /* dashes, quotes */
      score += 1;
    else score -= 4;                  /* U+FFFD, kana, Greek, boxes ... */
    at += k;
  }
  return score;
}

/* GBK or Big5, by the text from `from` on. */
static xq_encoding find_legacy(xq_lines *lines, size_t from) {
  size_t n = lines->size - from;
  if (n > SAMPLE_BYTES) {
    n = SAMPLE_BYTES;
    while (n > 0 && lines->data[from + n - 1] != '\n') n--;
    if (n == 0) n = SAMPLE_BYTES;
  }
  char *out = malloc(3 * n + 4);
  if (!out) return XQ_ENCODING_GBK;
  size_t replaced;
  size_t length = decode(lines, XQ_ENCODING_GBK, lines->data + from, n, out,
                         &replaced);
  long gbk = score_text(out, length);
  length = decode(lines, XQ_ENCODING_BIG5, lines->data + from, n, out,
                  &replaced);
  long big5 = score_text(out, length);
  free(out);
  return big5 > gbk ? XQ_ENCODING_BIG5 : XQ_ENCODING_GBK;
}

/* ---- lines ---- */

bool xq_lines_open(xq_lines *lines, const char *data, size_t size,
                   xq_encoding encoding) {
  memset(lines, 0, sizeof *lines);
  lines->data = (const unsigned char *)data;
  lines->size = size;
  lines->asked = encoding;
  const unsigned char *d = lines->data;
  if (size >= 2 && ((d[0] == 0xFF && d[1] == 0xFE) ||
                    (d[0] == 0xFE && d[1] == 0xFF))) {
    iconv_t cd = iconv_open("UTF-8", "UTF-16");
    if (cd == (iconv_t)-1) return true;          /* read as it is: garbage */
    size_t capacity = size / 2 * 3 + 4;
    char *out = malloc(capacity);
    if (!out) {
      iconv_close(cd);
      return false;
    }
    char *in = (char *)data, *to = out;
    size_t in_left = size, out_left = capacity;
    while (in_left > 1 &&
           iconv(cd, &in, &in_left, &to, &out_left) == (size_t)-1 &&
           errno == EILSEQ && out_left >= 3) {
      memcpy(to, REPLACEMENT, 3);
      to += 3;
      out_left -= 3;
      in += 2;
      in_left -= 2;
    }
    iconv_close(cd);
    lines->converted = out;
    lines->data = (const unsigned char *)out;
    lines->size = (size_t)(to - out);
    lines->asked = XQ_ENCODING_UTF8;
  }
  return true;
}

bool xq_lines_next(xq_lines *lines) {
  if (lines->at >= lines->size) return false;
  const unsigned char *s = lines->data + lines->at;
  size_t left = lines->size - lines->at;
  const unsigned char *end = memchr(s, '\n', left);
  size_t n = end ? (size_t)(end - s) : left;
  lines->start = lines->at;
  lines->at += end ? n + 1 : n;
  lines->number++;
  if (n > 0 && s[n - 1] == '\r') n--;
  if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    s += 3;                                    /* a byte-order mark */
    n -= 3;
  }
  lines->replaced = 0;
  xq_encoding encoding = lines->asked;
  if (encoding == XQ_ENCODING_AUTO || encoding == XQ_ENCODING_UTF8) {
    if (valid_utf8(s, n, false)) {
      lines->text = (const char *)s;           /* the usual case: no copy */
      lines->length = n;
      lines->encoding = XQ_ENCODING_UTF8;
      return true;
    }
    if (encoding == XQ_ENCODING_AUTO && !valid_utf8(s, n, true)) {
      if (lines->legacy == XQ_ENCODING_AUTO)
        lines->legacy = find_legacy(lines, (size_t)(s - lines->data));
      encoding = lines->legacy;
    } else {
      encoding = XQ_ENCODING_UTF8;          /* its zero bytes are replaced */
    }
  }
  lines->encoding = encoding;
  if (!reserve(lines, 3 * n + 4)) {
    lines->text = "";
    lines->length = 0;
    lines->replaced = n ? n : 1;
    return true;
  }
  if (encoding == XQ_ENCODING_UTF8)
    lines->replaced = copy_utf8(lines, s, n);
  else
    lines->length = decode(lines, encoding, s, n, lines->buffer,
                           &lines->replaced);
  lines->text = lines->buffer;
  return true;
}

void xq_lines_close(xq_lines *lines) {
  for (int i = 0; i < 2; i++)
    if (lines->iconv[i] && lines->iconv[i] != (void *)-1)
      iconv_close((iconv_t)lines->iconv[i]);
  free(lines->buffer);
  free(lines->converted);
  memset(lines, 0, sizeof *lines);
}

/* ---- what the readers share ---- */

int xq_shown(const char *s, size_t n, size_t max) {
  if (n <= max) return (int)n;
  while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) max--;
  return (int)max;
}

size_t xq_space(const char *s, size_t left) {
  unsigned char c = (unsigned char)s[0];
  if (c <= ' ' || c == 0x7F) return 1;
  if (c == 0xC2 && left >= 2 && (unsigned char)s[1] == 0xA0) return 2;
  if (c == 0xE3 && left >= 3 && memcmp(s, "\xE3\x80\x80", 3) == 0) return 3;
  return 0;
}

static bool ends_with(const char *name, const char *suffix) {
  size_t n = strlen(name), k = strlen(suffix);
  if (n < k) return false;
  for (size_t i = 0; i < k; i++)
    if ((name[n - k + i] | 0x20) != suffix[i]) return false;
  return true;
}

xq_format xq_guess_format(const char *name, const char *text, size_t size) {
  if (name && ends_with(name, ".pgn")) return XQ_FORMAT_PGN;
  if (name && (ends_with(name, ".epd") || ends_with(name, ".fen")))
    return XQ_FORMAT_EPD;
  size_t at = 0;
  if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) at = 3;
  for (;;) {
    while (at < size && xq_space(text + at, size - at))
      at += xq_space(text + at, size - at);
    if (at >= size) return XQ_FORMAT_PGN;
    if (text[at] != '#') break;               /* a comment line of EPD */
    const char *end = memchr(text + at, '\n', size - at);
    if (!end) return XQ_FORMAT_PGN;
    at = (size_t)(end - text);
  }
  static const char *const prefixes[] = {"position ", "fen ", "startpos"};
  for (int i = 0; i < 3; i++) {
    size_t k = strlen(prefixes[i]);
    if (size - at >= k && memcmp(text + at, prefixes[i], k) == 0)
      return XQ_FORMAT_EPD;
  }
  int slashes = 0;
  for (; at < size && !xq_space(text + at, size - at); at++)
    slashes += text[at] == '/';
  return slashes == 9 ? XQ_FORMAT_EPD : XQ_FORMAT_PGN;
}
