/*
** json.h: JSON lines, written and read, for the batch tools.
**
** The writer appends to a growing buffer: json_begin/json_end an object
** or an array, json_key before a member's value, and the values; commas
** go where they belong by themselves.  A failed allocation leaves the
** buffer marked failed and every later call does nothing.
**
** The reader parses one JSON text (a line) into a tree of json_value,
** all in one allocation that json_free gives back; a text that is not
** JSON comes back NULL with the byte where it went wrong.
*/
#ifndef JSON_H
#define JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- writing ---- */

#define JSON_MAX_DEPTH 32

typedef struct json_out {
  char *data;                 /* NUL-terminated while not failed */
  size_t len, cap;
  bool failed;                /* out of memory, or nested too deep */
  int depth;
  bool first[JSON_MAX_DEPTH]; /* no member written yet at this depth */
  bool after_key;             /* a key is waiting for its value */
} json_out;

void json_init(json_out *out);
void json_free(json_out *out);
/* Empties the buffer, keeping its memory. */
void json_reset(json_out *out);

void json_begin_object(json_out *out);
void json_end_object(json_out *out);
void json_begin_array(json_out *out);
void json_end_array(json_out *out);
void json_key(json_out *out, const char *key);
/* json_key for a name written in the code, quoted when compiled: one
   copy, no scan (a batch writes a few a record, and a record may take
   two microseconds). */
#define JSON_KEY(out, name) json_key_text((out), "\"" name "\":", \
                                          sizeof("\"" name "\":") - 1)
static inline void json_key_text(json_out *out, const char *quoted_key,
                                 size_t len);

void json_string(json_out *out, const char *text, size_t len);
void json_cstring(json_out *out, const char *text);   /* NUL-terminated */
void json_int(json_out *out, int64_t value);
void json_number(json_out *out, double value);        /* NaN, inf: null */
void json_bool(json_out *out, bool value);
void json_null(json_out *out);
/* A string the caller knows needs no escape (printable ASCII without
   quote or backslash: a board, a solution): quoted as it is. */
static inline void json_plain(json_out *out, const char *text, size_t len);
/* Appends text that is JSON already (a value made elsewhere). */
static inline void json_raw(json_out *out, const char *text, size_t len);

/* The few calls a batch makes for every record are inline: the common
   case is a copy into room the buffer has. */
void json_append_slow(json_out *out, const char *text, size_t len);

static inline void json_append(json_out *out, const char *text, size_t len) {
  if (out->len + len + 1 <= out->cap && !out->failed) {
    memcpy(out->data + out->len, text, len);
    out->len += len;
    out->data[out->len] = '\0';
    return;
  }
  json_append_slow(out, text, len);
}

/* The comma before a value, unless it is the first or a key has just
   been written. */
static inline void json_before_value(json_out *out) {
  if (out->after_key) {
    out->after_key = false;
    return;
  }
  if (!out->first[out->depth]) json_append(out, ",", 1);
  out->first[out->depth] = false;
}

static inline void json_key_text(json_out *out, const char *quoted_key,
                                 size_t len) {
  json_before_value(out);
  json_append(out, quoted_key, len);
  out->after_key = true;
}

static inline void json_plain(json_out *out, const char *text, size_t len) {
  json_before_value(out);
  json_append(out, "\"", 1);
  json_append(out, text, len);
  json_append(out, "\"", 1);
}

static inline void json_raw(json_out *out, const char *text, size_t len) {
  json_before_value(out);
  json_append(out, text, len);
}

/* ---- reading ---- */

typedef enum json_type {
  JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY,
  JSON_OBJECT
} json_type;

typedef struct json_value json_value;
struct json_value {
  json_type type;
  double number;
  const char *string;         /* STRING: the text, NUL-terminated; may hold
                                 zero bytes, len says how long */
  size_t len;                 /* STRING: bytes; ARRAY, OBJECT: members */
  const char *key;            /* a member of an OBJECT: its name */
  json_value *child;          /* ARRAY, OBJECT: the first member */
  json_value *next;           /* the next member of its parent */
};

/* Parses len bytes of text (one JSON value, space around it allowed).
   NULL when it is not JSON or nests deeper than JSON_MAX_DEPTH, with
   *error_at the byte where it went wrong (when error_at is not NULL). */
json_value *json_parse(const char *text, size_t len, size_t *error_at);
void json_free_value(json_value *value);

/* The member key of an object, or NULL. */
const json_value *json_get(const json_value *object, const char *key);

#endif
