/*
** json.c: JSON lines, written and read (RFC 8259).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* ---- writing ---- */

void json_init(json_out *out) {
  memset(out, 0, sizeof *out);
  out->first[0] = true;
}

void json_free(json_out *out) {
  free(out->data);
  json_init(out);
}

void json_reset(json_out *out) {
  out->len = 0;
  if (out->data) out->data[0] = '\0';
  out->failed = false;
  out->depth = 0;
  out->first[0] = true;
  out->after_key = false;
}

/* The rare case of json_append (json.h): the buffer grows. */
void json_append_slow(json_out *out, const char *text, size_t len) {
  if (out->failed) return;
  if (out->len + len + 1 > out->cap) {
    size_t cap = out->cap ? out->cap : 256;
    while (cap < out->len + len + 1) cap *= 2;
    char *data = realloc(out->data, cap);
    if (!data) {
      out->failed = true;
      return;
    }
    out->data = data;
    out->cap = cap;
  }
  memcpy(out->data + out->len, text, len);
  out->len += len;
  out->data[out->len] = '\0';
}

static void open_nested(json_out *out, char c) {
  json_before_value(out);
  if (out->depth + 1 >= JSON_MAX_DEPTH) {
    out->failed = true;
    return;
  }
  json_append(out, &c, 1);
  out->first[++out->depth] = true;
}

static void close_nested(json_out *out, char c) {
  if (out->depth > 0) out->depth--;
  json_append(out, &c, 1);
}

void json_begin_object(json_out *out) { open_nested(out, '{'); }
void json_end_object(json_out *out) { close_nested(out, '}'); }
void json_begin_array(json_out *out) { open_nested(out, '['); }
void json_end_array(json_out *out) { close_nested(out, ']'); }

/* The bytes a string cannot hold as they are: controls, quote, backslash. */
static const bool needs_escape[256] = {
  [0 ... 0x1f] = true, ['"'] = true, ['\\'] = true,
};

static void quoted(json_out *out, const char *text, size_t len) {
  static const char hex[] = "0123456789abcdef";
  json_append(out, "\"", 1);
  size_t start = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (!needs_escape[c]) continue;
    json_append(out, text + start, i - start);
    start = i + 1;
    char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
    switch (c) {
    case '"': json_append(out, "\\\"", 2); break;
    case '\\': json_append(out, "\\\\", 2); break;
    case '\n': json_append(out, "\\n", 2); break;
    case '\r': json_append(out, "\\r", 2); break;
    case '\t': json_append(out, "\\t", 2); break;
    default: json_append(out, escape, 6); break;
    }
  }
  json_append(out, text + start, len - start);
  json_append(out, "\"", 1);
}

void json_key(json_out *out, const char *key) {
  json_before_value(out);
  size_t len = strlen(key);
  bool plain = true;
  for (size_t i = 0; i < len && plain; i++)
    plain = !needs_escape[(unsigned char)key[i]];
  if (plain) {                      /* a name in the code: most of them */
    json_append(out, "\"", 1);
    json_append(out, key, len);
    json_append(out, "\":", 2);
  } else {
    quoted(out, key, len);
    json_append(out, ":", 1);
  }
  out->after_key = true;
}


void json_string(json_out *out, const char *text, size_t len) {
  json_before_value(out);
  quoted(out, text, len);
}

void json_cstring(json_out *out, const char *text) {
  json_string(out, text, strlen(text));
}


void json_int(json_out *out, int64_t value) {
  char buf[24];
  size_t n = sizeof buf;
  uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
  do buf[--n] = (char)('0' + magnitude % 10); while ((magnitude /= 10) > 0);
  if (value < 0) buf[--n] = '-';
  json_before_value(out);
  json_append(out, buf + n, sizeof buf - n);
}

void json_number(json_out *out, double value) {
  if (!isfinite(value)) {
    json_null(out);
    return;
  }
  /* a whole number as digits, not "1e+01"; -0 as "-0" below */
  if (fabs(value) < 1e15 && value == (double)(int64_t)value &&
      (value != 0 || !signbit(value))) {
    json_int(out, (int64_t)value);
    return;
  }
  char buf[32];
  int n = snprintf(buf, sizeof buf, "%.17g", value);
  /* the shortest text that reads back as the same double */
  for (int digits = 1; digits < 17; digits++) {
    char shorter[32];
    int m = snprintf(shorter, sizeof shorter, "%.*g", digits, value);
    if (strtod(shorter, NULL) == value) {
      memcpy(buf, shorter, (size_t)m + 1);
      n = m;
      break;
    }
  }
  json_before_value(out);
  json_append(out, buf, (size_t)n);
}

void json_bool(json_out *out, bool value) {
  json_before_value(out);
  json_append(out, value ? "true" : "false", value ? 4 : 5);
}

void json_null(json_out *out) {
  json_before_value(out);
  json_append(out, "null", 4);
}


/* ---- reading ----
**
** Two passes over the text with the same code: the first checks it and
** counts the values and the bytes their strings need, the second fills
** the one block the first sized.
*/

typedef struct parser {
  const char *text;
  size_t len, at;
  int depth;
  /* the first pass counts, the second builds */
  size_t values, bytes;
  json_value *value_pool;
  char *byte_pool;
} parser;

static void skip_space(parser *p) {
  while (p->at < p->len && (p->text[p->at] == ' ' || p->text[p->at] == '\t' ||
                            p->text[p->at] == '\n' || p->text[p->at] == '\r'))
    p->at++;
}

static bool literal(parser *p, const char *word) {
  size_t n = strlen(word);
  if (p->len - p->at < n || memcmp(p->text + p->at, word, n) != 0) return false;
  p->at += n;
  return true;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool hex4(parser *p, unsigned *code) {
  if (p->len - p->at < 4) return false;
  *code = 0;
  for (int i = 0; i < 4; i++) {
    int d = hex_digit(p->text[p->at + i]);
    if (d < 0) return false;
    *code = *code << 4 | (unsigned)d;
  }
  p->at += 4;
  return true;
}

/* Writes code point c as UTF-8 at out (when out is not NULL); returns
   the bytes it takes. */
static size_t utf8(unsigned c, char *out) {
  char buf[4];
  size_t n;
  if (c < 0x80) {
    buf[0] = (char)c;
    n = 1;
  } else if (c < 0x800) {
    buf[0] = (char)(0xc0 | c >> 6);
    buf[1] = (char)(0x80 | (c & 0x3f));
    n = 2;
  } else if (c < 0x10000) {
    buf[0] = (char)(0xe0 | c >> 12);
    buf[1] = (char)(0x80 | (c >> 6 & 0x3f));
    buf[2] = (char)(0x80 | (c & 0x3f));
    n = 3;
  } else {
    buf[0] = (char)(0xf0 | c >> 18);
    buf[1] = (char)(0x80 | (c >> 12 & 0x3f));
    buf[2] = (char)(0x80 | (c >> 6 & 0x3f));
    buf[3] = (char)(0x80 | (c & 0x3f));
    n = 4;
  }
  if (out) memcpy(out, buf, n);
  return n;
}

/* A string at p->at (its opening quote); in the second pass, its bytes
   go to the pool and *string, *len say where. */
static bool string(parser *p, const char **string_out, size_t *len_out) {
  p->at++;                                    /* the quote */
  char *out = p->byte_pool ? p->byte_pool + p->bytes : NULL;
  size_t n = 0;
  for (;;) {
    if (p->at >= p->len) return false;
    unsigned char c = (unsigned char)p->text[p->at++];
    if (c == '"') break;
    if (c < 0x20) return false;
    if (c != '\\') {
      if (out) out[n] = (char)c;
      n++;
      continue;
    }
    if (p->at >= p->len) return false;
    char e = p->text[p->at++];
    const char *simple = strchr("\"\\/bfnrt", e);
    if (e && simple) {
      static const char values[] = "\"\\/\b\f\n\r\t";
      if (out) out[n] = values[simple - "\"\\/bfnrt"];
      n++;
      continue;
    }
    unsigned code;
    if (e != 'u' || !hex4(p, &code)) return false;
    if (code >= 0xd800 && code < 0xdc00) {     /* a surrogate pair */
      unsigned low;
      if (!literal(p, "\\u") || !hex4(p, &low) || low < 0xdc00 || low > 0xdfff)
        return false;
      code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
    } else if (code >= 0xdc00 && code < 0xe000) {
      return false;
    }
    n += utf8(code, out ? out + n : NULL);
  }
  if (out) {
    out[n] = '\0';
    *string_out = out;
    *len_out = n;
  }
  p->bytes += n + 1;
  return true;
}

static bool number(parser *p, double *value) {
  size_t start = p->at;
  if (p->at < p->len && p->text[p->at] == '-') p->at++;
  if (p->at >= p->len) return false;
  if (p->text[p->at] == '0') {
    p->at++;
  } else if (p->text[p->at] >= '1' && p->text[p->at] <= '9') {
    while (p->at < p->len && p->text[p->at] >= '0' && p->text[p->at] <= '9') p->at++;
  } else {
    return false;
  }
  if (p->at < p->len && p->text[p->at] == '.') {
    p->at++;
    size_t digits = p->at;
    while (p->at < p->len && p->text[p->at] >= '0' && p->text[p->at] <= '9') p->at++;
    if (p->at == digits) return false;
  }
  if (p->at < p->len && (p->text[p->at] == 'e' || p->text[p->at] == 'E')) {
    p->at++;
    if (p->at < p->len && (p->text[p->at] == '+' || p->text[p->at] == '-')) p->at++;
    size_t digits = p->at;
    while (p->at < p->len && p->text[p->at] >= '0' && p->text[p->at] <= '9') p->at++;
    if (p->at == digits) return false;
  }
  if (p->value_pool) {              /* strtod wants a terminated text */
    char small[64];
    size_t n = p->at - start;
    char *buf = n < sizeof small ? small : malloc(n + 1);
    if (!buf) return false;
    memcpy(buf, p->text + start, n);
    buf[n] = '\0';
    *value = strtod(buf, NULL);
    if (buf != small) free(buf);
  }
  return true;
}

static bool value(parser *p, json_value **out);

/* The members of an array or an object (p->at on its opening bracket),
   linked under parent in the second pass. */
static bool members(parser *p, json_value *parent, bool object) {
  char end = object ? '}' : ']';
  p->at++;
  if (++p->depth > JSON_MAX_DEPTH) return false;
  skip_space(p);
  json_value **link = parent ? &parent->child : NULL;
  if (p->at < p->len && p->text[p->at] == end) {
    p->at++;
    p->depth--;
    return true;
  }
  for (;;) {
    const char *key = NULL;
    size_t key_len = 0;
    if (object) {
      if (p->at >= p->len || p->text[p->at] != '"' || !string(p, &key, &key_len))
        return false;
      skip_space(p);
      if (p->at >= p->len || p->text[p->at] != ':') return false;
      p->at++;
    }
    json_value *member = NULL;
    if (!value(p, parent ? &member : NULL)) return false;
    if (parent) {
      member->key = key;
      *link = member;
      link = &member->next;
      parent->len++;
    }
    skip_space(p);
    if (p->at >= p->len) return false;
    if (p->text[p->at] == end) {
      p->at++;
      p->depth--;
      return true;
    }
    if (p->text[p->at] != ',') return false;
    p->at++;
    skip_space(p);
  }
}

static bool value(parser *p, json_value **out) {
  skip_space(p);
  if (p->at >= p->len) return false;
  json_value *v = NULL;
  if (p->value_pool) {
    v = &p->value_pool[p->values];
    memset(v, 0, sizeof *v);
    *out = v;
  }
  p->values++;
  json_value scratch;
  if (!v) v = &scratch;
  char c = p->text[p->at];
  switch (c) {
  case '{':
    v->type = JSON_OBJECT;
    return members(p, p->value_pool ? v : NULL, true);
  case '[':
    v->type = JSON_ARRAY;
    return members(p, p->value_pool ? v : NULL, false);
  case '"':
    v->type = JSON_STRING;
    return string(p, &v->string, &v->len);
  case 't':
    v->type = JSON_TRUE;
    return literal(p, "true");
  case 'f':
    v->type = JSON_FALSE;
    return literal(p, "false");
  case 'n':
    v->type = JSON_NULL;
    return literal(p, "null");
  default:
    v->type = JSON_NUMBER;
    return number(p, &v->number);
  }
}

/* One pass; the root in *root in the second. */
static bool parse_pass(parser *p, json_value **root) {
  p->at = 0;
  p->depth = 0;
  p->values = p->bytes = 0;
  if (!value(p, root)) return false;
  skip_space(p);
  return p->at == p->len;
}

json_value *json_parse(const char *text, size_t len, size_t *error_at) {
  parser p = {0};
  p.text = text;
  p.len = len;
  if (!parse_pass(&p, NULL)) {
    if (error_at) *error_at = p.at;
    return NULL;
  }
  size_t values = p.values, bytes = p.bytes;
  char *block = malloc(values * sizeof(json_value) + bytes);
  if (!block) {
    if (error_at) *error_at = 0;
    return NULL;
  }
  p.value_pool = (json_value *)(void *)block;
  p.byte_pool = block + values * sizeof(json_value);
  json_value *root = NULL;
  parse_pass(&p, &root);               /* the same text: it cannot fail now */
  return root;
}

void json_free_value(json_value *value) { free(value); }

const json_value *json_get(const json_value *object, const char *key) {
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (const json_value *m = object->child; m; m = m->next)
    if (strcmp(m->key, key) == 0) return m;
  return NULL;
}
