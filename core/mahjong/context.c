/*
** context.c: the context of a win read from text, in the two forms of
** mahjong.h: a line of words ("234p234m45688s win=6s tsumo dora=1m") and
** a JSON object with mahjong.score's fields.  Both read each field with
** the same functions, and say what is wrong in mahjong.score's words.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/json.h"
#include "mahjong/mahjong.h"

/* What a message shows of a value from outside. */
#define SHOWN 40

static bool say(char *message, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static bool say(char *message, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, MJ_MESSAGE, fmt, args);
  va_end(args);
  return false;
}

/* ---- names ---- */

/* The fields of both forms, besides the flags and the rules (names.c). */
enum field {
  F_HAND, F_WIN, F_SEAT, F_ROUND, F_DORA, F_URA, F_MELDS, F_HONBA,
  F_KYOUTAKU, F_RULES, F_ID, F_COUNT
};

static const char *const field_names[F_COUNT] = {
  "hand", "win", "seat", "round", "dora", "ura", "melds", "honba",
  "kyoutaku", "rules", "id"
};

static bool is(const char *name, size_t len, const char *word) {
  return len > 0 && name[0] == word[0] && strlen(word) == len &&
         memcmp(name, word, len) == 0;
}

static int field_of(const char *name, size_t len) {
  for (int f = 0; f < F_COUNT; f++)
    if (is(name, len, field_names[f])) return f;
  return -1;
}

/* The rule a word names, alone or after no_ (*off then). */
static bool *rule_of_word(mj_rules *rules, const char *word, size_t len,
                          bool *off) {
  *off = len > 3 && memcmp(word, "no_", 3) == 0;
  return mj_rules_flag(rules, word + (*off ? 3 : 0), len - (*off ? 3 : 0));
}

/* ---- one field, from its text ---- */

/* What a reader keeps between fields: what was given, so that nothing
   is given twice. */
typedef struct reading {
  mj_request *out;
  char *message;
  uint32_t seen;              /* fields, by enum field */
  const bool *set[16];        /* flags and rules */
  int nset;
} reading;

static bool once(reading *r, int f) {
  if (r->seen >> f & 1)
    return say(r->message, "%s given twice", field_names[f]);
  r->seen |= 1u << f;
  return true;
}

static bool was_set(const reading *r, const bool *flag) {
  for (int i = 0; i < r->nset; i++)
    if (r->set[i] == flag) return true;
  return false;
}

/* A flag or a rule, by the name it was given as ("the rule kiriage"). */
static bool set_once(reading *r, bool *flag, bool value, const char *as,
                     const char *name, size_t len) {
  char shown[SHOWN + 4];
  if (was_set(r, flag))
    return say(r->message, "%s%s given twice", as,
               mj_shown(name, len, SHOWN, shown));
  if (r->nset < (int)(sizeof r->set / sizeof r->set[0])) r->set[r->nset++] = flag;
  *flag = value;
  return true;
}

static bool read_tile(const char *field, const char *text, size_t len,
                      uint8_t *kind, char *message) {
  bool red;
  int k = mj_tile_from_name(text, len, &red);
  if (k < 0) {
    char shown[SHOWN + 4];
    return say(message, "%s must be a tile like '5m' or '7z' (got %s)", field,
               mj_shown(text, len, SHOWN, shown));
  }
  *kind = (uint8_t)k;
  return true;
}

static bool read_wind(const char *field, const char *text, size_t len,
                      int *wind, char *message) {
  *wind = mj_wind_of(text, len);
  if (*wind >= 0) return true;
  char shown[SHOWN + 4];
  return say(message, "%s must be \"E\", \"S\", \"W\" or \"N\" (got %s)",
             field, mj_shown(text, len, SHOWN, shown));
}

static bool add_indicator(const char *field, uint8_t *list, int *n, int kind,
                          char *message) {
  if (*n == MJ_MAX_INDICATORS)
    return say(message, "%s: at most %d indicators", field, MJ_MAX_INDICATORS);
  list[(*n)++] = (uint8_t)kind;
  return true;
}

/* Indicators written as tiles, "1m5p". */
static bool read_indicators(const char *field, const char *text, size_t len,
                            uint8_t *list, int *n, char *message) {
  mj_tiles t;
  mj_parse_error err;
  mj_error e = mj_parse(text, len, &t, &err);
  if (e != MJ_OK) {
    char why[MJ_MESSAGE];
    mj_parse_message(text, len, e, &err, why);
    return say(message, "%s: %s", field, why);
  }
  for (int k = 0; k < MJ_KINDS; k++)
    for (int i = 0; i < t.count[k]; i++)
      if (!add_indicator(field, list, n, k, message)) return false;
  return true;
}

static bool add_meld(mj_context *ctx, const char *text, size_t len,
                     char *message) {
  if (ctx->nmelds == 4) return say(message, "at most 4 melds (got 5)");
  mj_parse_error err;
  mj_error e = mj_parse_meld(text, len, &ctx->meld[ctx->nmelds], &err);
  if (e == MJ_EMELD) {
    char shown[SHOWN + 4];
    return say(message, "meld %d is '%s', expected chi:234m, pon:555z, "
               "kan:1111p or ankan:1111p", ctx->nmelds + 1,
               mj_shown(text, len, SHOWN, shown));
  }
  if (e != MJ_OK) {
    mj_parse_message(text, len, e, &err, message);
    return false;
  }
  ctx->nmelds++;
  return true;
}

static bool count_failure(const char *field, char *message) {
  return say(message, "%s must be a whole number from 0 to %d", field,
             MJ_MAX_STICKS);
}

/* ---- the words form ---- */

static bool is_space(char c) { return c == ' ' || c == '\t'; }

static bool is_tile_char(char c) {
  return (c >= '0' && c <= '9') || c == 'm' || c == 'p' || c == 's' || c == 'z';
}

static bool word_count(const char *field, const char *text, size_t len,
                       int *out, char *message) {
  if (len == 0 || len > 2) return count_failure(field, message);
  int n = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] < '0' || text[i] > '9') return count_failure(field, message);
    n = n * 10 + text[i] - '0';
  }
  *out = n;
  return true;
}

static bool word_melds(const char *text, size_t len, mj_context *ctx,
                       char *message) {
  size_t start = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i < len && text[i] != ',') continue;
    if (!add_meld(ctx, text + start, i - start, message)) return false;
    start = i + 1;
  }
  return true;
}

static bool unknown_word(const char *word, size_t len, char *message) {
  char shown[SHOWN + 4];
  return say(message, "unknown word '%s' (words: win=, seat=, round=, dora=, "
             "ura=, melds=, honba=, kyoutaku=; tsumo or ron, riichi, "
             "double_riichi, ippatsu, haitei, houtei, rinshan, chankan, "
             "tenhou, chiihou; rules kuitan, aka, kiriage, double_yakuman, "
             "kazoe, open_pinfu_fu, or no_ and one)",
             mj_shown(word, len, SHOWN, shown));
}

/* One word: a flag or a rule alone, or name=value. */
static bool read_word(reading *r, const char *word, size_t len) {
  mj_context *ctx = &r->out->ctx;
  char *message = r->message;
  char shown[SHOWN + 4];
  const char *eq = memchr(word, '=', len);
  size_t name_len = eq ? (size_t)(eq - word) : len;
  const char *value = eq ? eq + 1 : NULL;
  size_t value_len = eq ? len - name_len - 1 : 0;
  bool ron = is(word, name_len, "ron");
  bool *flag = ron ? &ctx->tsumo : mj_context_flag(ctx, word, name_len);
  if (flag) {
    if (eq) {
      mj_shown(word, name_len, SHOWN, shown);
      return say(message, "'%s' takes no value (write %s alone)", shown, shown);
    }
    if (flag == &ctx->tsumo && was_set(r, flag) && ctx->tsumo == ron)
      return say(message, "tsumo and ron: a win is one or the other");
    return set_once(r, flag, !ron, "", word, name_len);
  }
  bool off;
  bool *rule = rule_of_word(&ctx->rules, word, name_len, &off);
  if (rule) {
    const char *name = word + (off ? 3 : 0);
    size_t n = name_len - (off ? 3 : 0);
    if (eq) {
      mj_shown(name, n, SHOWN, shown);
      return say(message, "the rule '%s' takes no value (write %s to turn it "
                 "on, no_%s to turn it off)", shown, shown, shown);
    }
    return set_once(r, rule, !off, "the rule ", name, n);
  }
  int f = field_of(word, name_len);
  if (f < 0 || f == F_HAND || f == F_RULES || f == F_ID)
    return unknown_word(word, len, message);
  const char *name = field_names[f];
  if (!eq) return say(message, "%s needs a value (%s=...)", name, name);
  if (!once(r, f)) return false;
  switch (f) {
  case F_WIN: {
    uint8_t k = 0;
    if (!read_tile(name, value, value_len, &k, message)) return false;
    ctx->win = k;
    return true;
  }
  case F_SEAT: return read_wind(name, value, value_len, &ctx->seat, message);
  case F_ROUND: return read_wind(name, value, value_len, &ctx->round, message);
  case F_DORA:
    return read_indicators(name, value, value_len, ctx->dora, &ctx->ndora,
                           message);
  case F_URA:
    return read_indicators(name, value, value_len, ctx->ura, &ctx->nura,
                           message);
  case F_MELDS: return word_melds(value, value_len, ctx, message);
  case F_HONBA: return word_count(name, value, value_len, &ctx->honba, message);
  default:
    return word_count(name, value, value_len, &ctx->kyoutaku, message);
  }
}

/* Whether the first word of a line is a word of the context rather than
   the hand. */
static bool context_word(mj_context *ctx, const char *word, size_t len) {
  bool off;
  return memchr(word, '=', len) || is(word, len, "ron") ||
         mj_context_flag(ctx, word, len) || rule_of_word(&ctx->rules, word, len, &off);
}

bool mj_read_words(const char *text, size_t len, mj_request *out,
                   char *message) {
  mj_default_context(&out->ctx);
  reading r = {.out = out, .message = message};
  size_t i = 0;
  while (i < len && is_space(text[i])) i++;
  /* the hand: the first word, and the words of tiles alone after it */
  size_t start = i, end = i;
  while (i < len) {
    size_t j = i;
    while (j < len && !is_space(text[j])) j++;
    bool tiles = true;
    for (size_t k = i; k < j && tiles; k++) tiles = is_tile_char(text[k]);
    if (i == start && !tiles) tiles = !context_word(&out->ctx, text + i, j - i);
    if (!tiles) break;
    end = j;
    while (j < len && is_space(text[j])) j++;
    i = j;
  }
  out->hand = text + start;
  out->hand_len = end - start;
  if (end == start)
    return say(message, "no hand at the start of the line (tiles like "
               "234p234m45688s, then words like win=6s tsumo)");
  while (i < len) {
    size_t j = i;
    while (j < len && !is_space(text[j])) j++;
    if (!read_word(&r, text + i, j - i)) return false;
    while (j < len && is_space(text[j])) j++;
    i = j;
  }
  return true;
}

/* ---- the JSON form ---- */

static const char *type_name(const json_value *v) {
  static const char *const names[] = {"null", "false", "true", "a number",
                                      "a string", "an array", "an object"};
  return names[v->type];
}

/* "(got ...)" of a value: a string as it is, else its type. */
static const char *got(const json_value *v, char *buf) {
  if (v->type != JSON_STRING) return type_name(v);
  return mj_shown(v->string, v->len, SHOWN, buf);
}

static bool json_count(const char *field, const json_value *v, int *out,
                       char *message) {
  if (v->type != JSON_NUMBER || !(v->number >= 0 && v->number <= MJ_MAX_STICKS) ||
      v->number != (int)v->number)
    return count_failure(field, message);
  *out = (int)v->number;
  return true;
}

/* dora or ura: a list of tile names, or one string of tiles */
static bool json_indicators(const char *field, const json_value *v,
                            uint8_t *list, int *n, char *message) {
  char shown[SHOWN + 4];
  if (v->type == JSON_STRING)
    return read_indicators(field, v->string, v->len, list, n, message);
  if (v->type != JSON_ARRAY)
    return say(message, "%s must be a list of tiles (got %s)", field,
               type_name(v));
  if (v->len > MJ_MAX_INDICATORS)
    return say(message, "%s: at most %d indicators (got %zu)", field,
               MJ_MAX_INDICATORS, v->len);
  for (const json_value *e = v->child; e; e = e->next) {
    uint8_t k = 0;
    if (e->type != JSON_STRING)
      return say(message, "%s must be a tile like '5m' or '7z' (got %s)",
                 field, got(e, shown));
    if (!read_tile(field, e->string, e->len, &k, message) ||
        !add_indicator(field, list, n, k, message))
      return false;
  }
  return true;
}

static bool json_melds(const json_value *v, mj_context *ctx, char *message) {
  char shown[SHOWN + 4];
  if (v->type != JSON_ARRAY)
    return say(message, "melds must be a list like [\"chi:234m\", \"pon:555z\"] "
               "(got %s)", type_name(v));
  if (v->len > 4) return say(message, "at most 4 melds (got %zu)", v->len);
  for (const json_value *e = v->child; e; e = e->next) {
    if (e->type != JSON_STRING)
      return say(message, "meld %d is %s, expected chi:234m, pon:555z, "
                 "kan:1111p or ankan:1111p", ctx->nmelds + 1, got(e, shown));
    if (!add_meld(ctx, e->string, e->len, message)) return false;
  }
  return true;
}

static bool json_rules(reading *r, const json_value *v) {
  mj_rules *rules = &r->out->ctx.rules;
  char *message = r->message;
  char shown[SHOWN + 4];
  if (v->type != JSON_OBJECT)
    return say(message, "rules must be an object (got %s)", type_name(v));
  for (const json_value *m = v->child; m; m = m->next) {
    size_t len = strlen(m->key);
    bool *rule = mj_rules_flag(rules, m->key, len);
    mj_shown(m->key, len, SHOWN, shown);
    if (!rule)
      return say(message, "unknown rule '%s' (rules: kuitan, aka, kiriage, "
                 "double_yakuman, kazoe, open_pinfu_fu)", shown);
    bool kazoe = rule == &rules->kazoe;
    bool value;
    if (m->type == JSON_TRUE || m->type == JSON_FALSE) {
      value = m->type == JSON_TRUE;
    } else if (kazoe && m->type == JSON_STRING &&
               (is(m->string, m->len, "sanbaiman") ||
                is(m->string, m->len, "yakuman"))) {
      value = is(m->string, m->len, "yakuman");
    } else {
      return say(message, "rule '%s' must be true or false%s", shown,
                 kazoe ? " (or \"sanbaiman\", \"yakuman\")" : "");
    }
    if (!set_once(r, rule, value, "the rule ", m->key, len)) return false;
  }
  return true;
}

/* A field other than a flag. */
static bool json_field(reading *r, int f, const json_value *v) {
  mj_context *ctx = &r->out->ctx;
  char *message = r->message;
  const char *name = field_names[f];
  if (f == F_ID) return true;                /* the record's own name */
  if (f == F_HAND) {
    if (v->type != JSON_STRING)
      return say(message, "hand must be a string of tiles like "
                 "\"234p234m45688s\" (got %s)", type_name(v));
    r->out->hand = v->string;
    r->out->hand_len = v->len;
    return true;
  }
  if (v->type == JSON_NULL) return true;     /* as if not given */
  switch (f) {
  case F_WIN: case F_SEAT: case F_ROUND:
    if (v->type != JSON_STRING && f == F_WIN)
      return say(message, "win must be a tile like '5m' or '7z' (got %s)",
                 type_name(v));
    if (v->type != JSON_STRING)
      return say(message, "%s must be \"E\", \"S\", \"W\" or \"N\" (got %s)",
                 name, type_name(v));
    if (f == F_SEAT) return read_wind(name, v->string, v->len, &ctx->seat, message);
    if (f == F_ROUND) return read_wind(name, v->string, v->len, &ctx->round, message);
    uint8_t k = 0;
    if (!read_tile(name, v->string, v->len, &k, message)) return false;
    ctx->win = k;
    return true;
  case F_DORA: return json_indicators(name, v, ctx->dora, &ctx->ndora, message);
  case F_URA: return json_indicators(name, v, ctx->ura, &ctx->nura, message);
  case F_MELDS: return json_melds(v, ctx, message);
  case F_HONBA: return json_count(name, v, &ctx->honba, message);
  case F_KYOUTAKU: return json_count(name, v, &ctx->kyoutaku, message);
  default: return json_rules(r, v);
  }
}

/* A flag: true, false, or null (not given). */
static bool json_flag(reading *r, bool *flag, const json_value *v,
                      const char *key, size_t len) {
  char shown[SHOWN + 4], value[SHOWN + 4];
  if (v->type != JSON_TRUE && v->type != JSON_FALSE && v->type != JSON_NULL)
    return say(r->message, "%s must be true or false (got %s)",
               mj_shown(key, len, SHOWN, shown), got(v, value));
  return set_once(r, flag, v->type == JSON_TRUE, "", key, len);
}

static bool json_request(const json_value *v, mj_request *out, char *message) {
  reading r = {.out = out, .message = message};
  for (const json_value *m = v->child; m; m = m->next) {
    size_t key_len = strlen(m->key);
    bool *flag = mj_context_flag(&out->ctx, m->key, key_len);
    if (flag) {
      if (!json_flag(&r, flag, m, m->key, key_len)) return false;
      continue;
    }
    int f = field_of(m->key, key_len);
    if (f < 0) {
      char shown[SHOWN + 4];
      return say(message, "unknown field '%s' (fields: hand, win, tsumo, "
                 "riichi, double_riichi, ippatsu, haitei, houtei, rinshan, "
                 "chankan, tenhou, chiihou, seat, round, dora, ura, melds, "
                 "honba, kyoutaku, rules, id)",
                 mj_shown(m->key, key_len, SHOWN, shown));
    }
    if (!once(&r, f) || !json_field(&r, f, m)) return false;
  }
  if (!(r.seen >> F_HAND & 1))
    return say(message, "no hand (\"hand\": \"234p234m45688s\")");
  return true;
}

bool mj_read_json(const json_value *value, mj_request *out, char *message) {
  mj_default_context(&out->ctx);
  out->hand = NULL;
  out->hand_len = 0;
  if (value->type != JSON_OBJECT)
    return say(message, "a request is a JSON object (got %s)", type_name(value));
  const json_value *request = json_get(value, "request");
  if (!request) return json_request(value, out, message);
  for (const json_value *m = value->child; m; m = m->next) {
    if (strcmp(m->key, "request") && strcmp(m->key, "expect")) {
      char shown[SHOWN + 4];
      return say(message, "unknown member '%s' beside the request (a record "
                 "is {\"request\": {...}, \"expect\": {...}})",
                 mj_shown(m->key, strlen(m->key), SHOWN, shown));
    }
  }
  if (request->type != JSON_OBJECT)
    return say(message, "request must be an object (got %s)", type_name(request));
  return json_request(request, out, message);
}
