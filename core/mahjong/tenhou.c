/*
** tenhou.c: Tenhou's game logs read into steps for the round
** (tenhou.h): the mjlog XML and the tenhou.net/6 JSON, and Tenhou's
** yaku ids.
**
** Facts of the formats: in the mjlog a call's m packs the meld in bits
** (bit 2 chi, bit 3 pon, bit 4 added kan, else a kan; the base tile and
** the called one in the high bits, the seat it came from in bits 0-1);
** in the JSON a tile is 11..19 (m), 21..29 (p), 31..39 (s), 41..47 (z),
** 51..53 a red five, 60 the tile just drawn, and a call is a string
** whose letter (c p m k a r) sits where the called tile is shown.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "mahjong/tenhou.h"

/* ---- the log's memory ---- */

void mj_log_init(mj_log *log) { memset(log, 0, sizeof *log); }

void mj_log_free(mj_log *log) {
  free(log->rounds);
  free(log->events);
  free(log->results);
  mj_log_init(log);
}

static void clear(mj_log *log) {
  mj_log_round *rounds = log->rounds;
  mj_log_event *events = log->events;
  mj_log_result *results = log->results;
  int cr = log->cap_rounds, ce = log->cap_events, cres = log->cap_results;
  memset(log, 0, sizeof *log);
  log->rounds = rounds;
  log->events = events;
  log->results = results;
  log->cap_rounds = cr;
  log->cap_events = ce;
  log->cap_results = cres;
  mj_round_rules_default(&log->rules);
}

/* Grows an array to hold one more; false when memory or the ceiling
   runs out. */
static bool grow(void **items, int *cap, int n, size_t size) {
  if (n < *cap) return true;
  if (n >= 1 << 20) return false;
  int cap2 = *cap ? 2 * *cap : 64;
  void *p = realloc(*items, (size_t)cap2 * size);
  if (!p) return false;
  *items = p;
  *cap = cap2;
  return true;
}

static mj_log_round *new_round(mj_log *log) {
  if (!grow((void **)&log->rounds, &log->cap_rounds, log->nrounds,
            sizeof *log->rounds))
    return NULL;
  mj_log_round *r = &log->rounds[log->nrounds++];
  memset(r, 0, sizeof *r);
  r->first_event = log->nevents;
  r->first_result = log->nresults;
  return r;
}

static mj_log_event *new_event(mj_log *log, int type, int seat) {
  if (!grow((void **)&log->events, &log->cap_events, log->nevents,
            sizeof *log->events))
    return NULL;
  mj_log_event *e = &log->events[log->nevents++];
  memset(e, 0, sizeof *e);
  e->act.type = (uint8_t)type;
  e->act.seat = (uint8_t)seat;
  e->act.tile = MJ_NO_TILE;
  e->result = -1;
  log->rounds[log->nrounds - 1].nevents++;
  return e;
}

static mj_log_result *new_result(mj_log *log) {
  if (!grow((void **)&log->results, &log->cap_results, log->nresults,
            sizeof *log->results))
    return NULL;
  mj_log_result *res = &log->results[log->nresults++];
  memset(res, 0, sizeof *res);
  res->end = MJ_END_NONE;
  res->who = res->from = res->pao = -1;
  res->han = res->fu = res->limit = res->points = -1;
  res->ron = res->tsumo_dealer = res->tsumo_other = res->tsumo_all = -1;
  res->machi = -1;
  res->shown = -1;
  log->rounds[log->nrounds - 1].nresults++;
  return res;
}

/* A draw by three rons: the logs name no winner, for each seat but the
   one that gave the tile declares ron, in turn after it; the round ends
   on the third.  The result goes on the last of these steps. */
static bool three_rons(mj_log *log, int from) {
  for (int d = 1; d <= 3; d++)
    if (!new_event(log, MJ_ACT_RON, (from + d) % 4)) return false;
  return true;
}

static bool fail(mj_log_error *err, const mj_log *log, const char *fmt,
                 const char *what) {
  err->round = log->nrounds - 1;
  err->event = -1;
  snprintf(err->text, sizeof err->text, fmt, what);
  return false;
}

/* ---- sniffing and finding games ---- */

static size_t skip_space(const char *d, size_t len, size_t at) {
  while (at < len && (d[at] == ' ' || d[at] == '\t' || d[at] == '\r' ||
                      d[at] == '\n'))
    at++;
  if (at + 3 <= len && !memcmp(d + at, "\xEF\xBB\xBF", 3)) return skip_space(d, len, at + 3);
  return at;
}

static const char *find(const char *d, size_t len, size_t at, const char *s) {
  size_t n = strlen(s);
  for (; at + n <= len; at++)
    if (d[at] == s[0] && !memcmp(d + at, s, n)) return d + at;
  return NULL;
}

int mj_log_sniff(const char *data, size_t len) {
  size_t at = skip_space(data, len, 0);
  if (at < len && data[at] == '{') return MJ_LOG_JSON;
  if (find(data, len < 4096 ? len : 4096, at, "<mjloggm")) return MJ_LOG_MJLOG;
  return -1;
}

/* The end of the JSON value at at (strings and nesting followed), or len
   when it does not end. */
static size_t json_end(const char *d, size_t len, size_t at) {
  int depth = 0;
  bool string = false;
  for (; at < len; at++) {
    char c = d[at];
    if (string) {
      if (c == '\\') at++;
      else if (c == '"') string = false;
    } else if (c == '"') {
      string = true;
    } else if (c == '{' || c == '[') {
      depth++;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) return at + 1;
    }
  }
  return len;
}

/* Whether the JSON document at at starts a game: its first round is
   East 1 with no honba (or it cannot be told). */
static bool json_starts_game(const char *d, size_t len, size_t at) {
  const char *p = find(d, len, at, "\"log\"");
  if (!p) return true;
  size_t i = (size_t)(p - d) + 5;
  int brackets = 0;
  for (; i < len && brackets < 3; i++) {
    if (d[i] == '[') brackets++;
    else if (d[i] != ' ' && d[i] != ':' && d[i] != '\n' && d[i] != '\r')
      return true;
  }
  int round = 0, honba = 0;
  char head[32];                       /* the data has no NUL to stop sscanf */
  size_t n = len - i < sizeof head - 1 ? len - i : sizeof head - 1;
  memcpy(head, d + i, n);
  head[n] = '\0';
  if (sscanf(head, "%d , %d", &round, &honba) != 2) {
    if (i < len && d[i] == ']') return true;
  }
  return round == 0 && honba == 0;
}

bool mj_log_next(const char *data, size_t len, size_t *at, size_t *start,
                 size_t *end) {
  size_t i = skip_space(data, len, *at);
  if (i >= len) {
    *at = len;
    return false;
  }
  if (data[i] == '{') {
    size_t e = json_end(data, len, i);
    for (;;) {
      size_t j = skip_space(data, len, e);
      if (j >= len || data[j] != '{' || json_starts_game(data, len, j)) break;
      e = json_end(data, len, j);
    }
    *start = i;
    *end = *at = e;
    return true;
  }
  const char *open = find(data, len, i, "<mjloggm");
  if (!open) {
    /* text that is neither: one record, for the reader to refuse */
    *start = i;
    *end = *at = len;
    return true;
  }
  const char *close = find(data, len, (size_t)(open - data), "</mjloggm>");
  *start = (size_t)(open - data);
  *end = *at = close ? (size_t)(close - data) + 10 : len;
  return true;
}

/* ---- Tenhou's yaku ---- */

/* Tenhou's yaku by id, as the JSON names them. */
static const char *const tenhou_names[] = {
  "門前清自摸和", "立直", "一発", "槍槓", "嶺上開花", "海底摸月", "河底撈魚",
  "平和", "断幺九", "一盃口", "自風 東", "自風 南", "自風 西", "自風 北",
  "場風 東", "場風 南", "場風 西", "場風 北", "役牌 白", "役牌 發", "役牌 中",
  "両立直", "七対子", "混全帯幺九", "一気通貫", "三色同順", "三色同刻",
  "三槓子", "対々和", "三暗刻", "小三元", "混老頭", "二盃口", "純全帯幺九",
  "混一色", "清一色", "人和", "天和", "地和", "大三元", "四暗刻",
  "四暗刻単騎", "字一色", "緑一色", "清老頭", "九蓮宝燈", "純正九蓮宝燈",
  "国士無双", "国士無双１３面", "大四喜", "小四喜", "四槓子", "ドラ",
  "裏ドラ", "赤ドラ"
};
#define TENHOU_YAKU ((int)(sizeof tenhou_names / sizeof *tenhou_names))

/* English names some tools write, for the ids that have them. */
static const struct { const char *name; int id; } english_names[] = {
  {"Riichi", 1}, {"Ippatsu", 2}, {"Dora", 52}, {"Ura Dora", 53},
  {"Red Five", 54}, {"Aka Dora", 54}, {"Tanyao", 8}, {"Pinfu", 7},
  {"Fully Concealed Hand", 0}, {"Menzen Tsumo", 0},
};

/* ludus's yaku in Tenhou's order of ids, the winds apart. */
static const int8_t yaku_ids[MJ_YAKU_COUNT] = {
  [MJ_RIICHI] = 1, [MJ_DOUBLE_RIICHI] = 21, [MJ_IPPATSU] = 2,
  [MJ_MENZEN_TSUMO] = 0, [MJ_PINFU] = 7, [MJ_TANYAO] = 8, [MJ_IIPEIKOU] = 9,
  [MJ_YAKUHAI_HAKU] = 18, [MJ_YAKUHAI_HATSU] = 19, [MJ_YAKUHAI_CHUN] = 20,
  [MJ_YAKUHAI_SEAT_WIND] = 10, [MJ_YAKUHAI_ROUND_WIND] = 14, [MJ_HAITEI] = 5,
  [MJ_HOUTEI] = 6, [MJ_RINSHAN] = 4, [MJ_CHANKAN] = 3,
  [MJ_CHIITOITSU_YAKU] = 22, [MJ_CHANTA] = 23, [MJ_ITTSU] = 24,
  [MJ_SANSHOKU_DOUJUN] = 25, [MJ_SANSHOKU_DOUKOU] = 26, [MJ_SANKANTSU] = 27,
  [MJ_TOITOI] = 28, [MJ_SANANKOU] = 29, [MJ_SHOUSANGEN] = 30,
  [MJ_HONROUTOU] = 31, [MJ_RYANPEIKOU] = 32, [MJ_JUNCHAN] = 33,
  [MJ_HONITSU] = 34, [MJ_CHINITSU] = 35, [MJ_DORA] = 52, [MJ_URA_DORA] = 53,
  [MJ_AKA_DORA] = 54, [MJ_KOKUSHI_YAKU] = 47, [MJ_KOKUSHI_13] = 48,
  [MJ_SUUANKOU] = 40, [MJ_SUUANKOU_TANKI] = 41, [MJ_DAISANGEN] = 39,
  [MJ_SHOUSUUSHII] = 50, [MJ_DAISUUSHII] = 49, [MJ_TSUUIISOU] = 42,
  [MJ_CHINROUTOU] = 44, [MJ_RYUUIISOU] = 43, [MJ_CHUUREN] = 45,
  [MJ_CHUUREN_9] = 46, [MJ_SUUKANTSU] = 51, [MJ_TENHOU] = 37,
  [MJ_CHIIHOU] = 38,
};

int mj_tenhou_yaku(int yaku, int seat_wind, int round_wind) {
  if (yaku < 0 || yaku >= MJ_YAKU_COUNT) return -1;
  if (yaku == MJ_YAKUHAI_SEAT_WIND) return 10 + seat_wind - MJ_EAST;
  if (yaku == MJ_YAKUHAI_ROUND_WIND) return 14 + round_wind - MJ_EAST;
  return yaku_ids[yaku];
}

int mj_yaku_of_tenhou(int id) {
  if (id >= 10 && id <= 13) return MJ_YAKUHAI_SEAT_WIND;
  if (id >= 14 && id <= 17) return MJ_YAKUHAI_ROUND_WIND;
  for (int y = 0; y < MJ_YAKU_COUNT; y++)
    if (yaku_ids[y] == id) return y;
  return -1;
}

const char *mj_tenhou_yaku_name(int id) {
  return id >= 0 && id < TENHOU_YAKU ? tenhou_names[id] : "?";
}

/* ---- the mjlog ---- */

typedef struct tag {
  const char *name;
  size_t nlen;
  const char *attrs, *end;    /* the text between the name and '>' */
} tag;

/* The next tag at or after *at; false at the end. */
static bool next_tag(const char *d, size_t len, size_t *at, tag *t) {
  const char *lt = memchr(d + *at, '<', len - *at);
  if (!lt) return false;
  const char *gt = memchr(lt, '>', (size_t)(d + len - lt));
  if (!gt) return false;
  t->name = lt + 1;
  const char *p = t->name;
  while (p < gt && *p != ' ' && *p != '/' && *p != '\t' && *p != '\n') p++;
  t->nlen = (size_t)(p - t->name);
  t->attrs = p;
  t->end = gt;
  *at = (size_t)(gt - d) + 1;
  return true;
}

static bool is_tag(const tag *t, const char *name) {
  return t->nlen == strlen(name) && !memcmp(t->name, name, t->nlen);
}

/* The value of an attribute, and its length; NULL if absent. */
static const char *attr(const tag *t, const char *name, size_t *vlen) {
  size_t n = strlen(name);
  for (const char *p = t->attrs; p + n + 2 <= t->end; p++) {
    if ((p == t->attrs || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') &&
        !memcmp(p, name, n) && p[n] == '=' && p[n + 1] == '"') {
      const char *v = p + n + 2;
      const char *q = memchr(v, '"', (size_t)(t->end - v));
      if (!q) return NULL;
      *vlen = (size_t)(q - v);
      return v;
    }
  }
  return NULL;
}

/* Numbers separated by commas (a decimal part read as tenths); how many,
   or -1 when one is not a number. */
static int numbers(const char *v, size_t len, int *out, int max, bool tenths) {
  int n = 0;
  size_t i = 0;
  if (len == 0) return 0;
  for (;;) {
    if (n == max) return -1;
    bool neg = false;
    if (i < len && v[i] == '-') { neg = true; i++; }
    if (i >= len || v[i] < '0' || v[i] > '9') return -1;
    long x = 0;
    while (i < len && v[i] >= '0' && v[i] <= '9') {
      x = x * 10 + (v[i++] - '0');
      /* scores in hundreds, 10^8 points at most: four of them, added up
         by the round (with its sticks and payments), still fit an int */
      if (x > 1000000) return -1;
    }
    if (tenths) {
      x *= 10;
      if (i < len && v[i] == '.') {
        i++;
        if (i < len && v[i] >= '0' && v[i] <= '9') x += v[i++] - '0';
        while (i < len && v[i] >= '0' && v[i] <= '9') i++;
      }
    }
    out[n++] = (int)(neg ? -x : x);
    if (i == len) return n;
    if (v[i++] != ',') return -1;
  }
}

static int attr_numbers(const tag *t, const char *name, int *out, int max,
                        bool tenths) {
  size_t vlen;
  const char *v = attr(t, name, &vlen);
  return v ? numbers(v, vlen, out, max, tenths) : -2;
}

static int attr_int(const tag *t, const char *name, int fallback) {
  int x;
  return attr_numbers(t, name, &x, 1, false) == 1 ? x : fallback;
}

/* Reads tiles 0..135; false if one is not a tile. */
static bool attr_tiles(const tag *t, const char *name, uint8_t *out, int max,
                       int *n) {
  int v[16];
  int k = attr_numbers(t, name, v, max < 16 ? max : 16, false);
  if (k == -2) { *n = 0; return true; }
  if (k < 0 || k > max) return false;  /* numbers() keeps to max: said for
                                          gcc -O3, which cannot see it */
  for (int i = 0; i < k; i++) {
    if (v[i] < 0 || v[i] >= MJ_TILES) return false;
    out[i] = (uint8_t)v[i];
  }
  *n = k;
  return true;
}

static int hex_digit(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A name, %XX decoded when `encoded` (the mjlog's; the JSON's are plain
   text, where "100%41" is a name as it is), control bytes as '?'. */
static void read_name(const char *v, size_t len, bool encoded, char *out,
                      size_t size) {
  size_t o = 0;
  for (size_t i = 0; i < len && o + 1 < size; i++) {
    int c = (unsigned char)v[i];
    if (encoded && c == '%' && i + 2 < len && hex_digit(v[i + 1]) >= 0 &&
        hex_digit(v[i + 2]) >= 0) {
      c = 16 * hex_digit(v[i + 1]) + hex_digit(v[i + 2]);
      i += 2;
    }
    out[o++] = c < 32 || c == 127 ? '?' : (char)c;
  }
  out[o] = '\0';
}

/* A call's m: fills the act (its type, tiles, who it came from). */
static bool decode_meld(int who, int m, mj_act *a, int *from) {
  if (m & 4) {                                    /* chi */
    int t = m >> 10, called = t % 3;
    t /= 3;
    int base = (t / 7) * 9 + t % 7;
    if (base >= MJ_HONORS) return false;
    int n = 0;
    for (int i = 0; i < 3; i++) {
      int tile = 4 * (base + i) + (m >> (3 + 2 * i) & 3);
      if (i == called) a->tile = (uint8_t)tile;
      else a->tiles[n++] = (uint8_t)tile;
    }
    a->type = MJ_ACT_CHI;
    *from = (who + 3) % 4;
    return true;
  }
  if (m & 24) {                                   /* pon, added kan */
    int t = m >> 9, called = t % 3, kind = t / 3, unused = m >> 5 & 3;
    if (kind >= MJ_KINDS) return false;
    int n = 0, tiles[3];
    for (int c = 0; c < 4; c++)
      if (c != unused) tiles[n++] = 4 * kind + c;
    *from = (who + (m & 3)) % 4;
    if (m & 8) {
      a->type = MJ_ACT_PON;
      a->tile = (uint8_t)tiles[called];
      for (int i = 0, j = 0; i < 3; i++)
        if (i != called) a->tiles[j++] = (uint8_t)tiles[i];
    } else {
      a->type = MJ_ACT_KAKAN;
      a->tile = (uint8_t)(4 * kind + unused);
    }
    return (m & 3) != 0;
  }
  if (m & 32) return false;                       /* north (three players) */
  int t = m >> 8, kind = t / 4, called = t % 4;
  if (kind >= MJ_KINDS) return false;
  *from = (who + (m & 3)) % 4;
  if ((m & 3) == 0) {
    a->type = MJ_ACT_ANKAN;
    a->tile = MJ_NO_TILE;
    for (int i = 0; i < 4; i++) a->tiles[i] = (uint8_t)(4 * kind + i);
    return true;
  }
  a->type = MJ_ACT_KAN;
  a->tile = (uint8_t)(4 * kind + called);
  for (int c = 0, j = 0; c < 4; c++)
    if (c != called) a->tiles[j++] = (uint8_t)(4 * kind + c);
  return true;
}

/* The yaku of an AGARI. */
static bool agari_yaku(const tag *t, mj_log_result *res) {
  int v[48];
  int n = attr_numbers(t, "yaku", v, 48, false);
  if (n >= 0) {
    if (n % 2) return false;
    for (int i = 0; i < n; i += 2) {
      if (v[i] < 0 || v[i] >= TENHOU_YAKU || v[i + 1] < 0 || v[i + 1] > 99 ||
          res->nyaku == 24)
        return false;
      res->yaku[res->nyaku].id = (uint8_t)v[i];
      res->yaku[res->nyaku++].han = (uint8_t)v[i + 1];
    }
  }
  n = attr_numbers(t, "yakuman", v, 8, false);
  if (n > 0) {
    res->yakuman = true;
    for (int i = 0; i < n; i++) {
      if (v[i] < 0 || v[i] >= TENHOU_YAKU || res->nyaku == 24) return false;
      res->yaku[res->nyaku].id = (uint8_t)v[i];
      res->yaku[res->nyaku++].han = 13;
    }
  }
  return true;
}

/* sc="before,change,..." in hundreds, and owari. */
static bool read_sc(const tag *t, mj_log *log, mj_log_result *res) {
  int v[8];
  int n = attr_numbers(t, "sc", v, 8, false);
  if (n != 8) return false;
  res->has_before = res->has_deltas = true;
  for (int s = 0; s < 4; s++) {
    res->before[s] = 100 * v[2 * s];
    res->deltas[s] = 100 * v[2 * s + 1];
  }
  n = attr_numbers(t, "owari", v, 8, true);
  if (n == 8) {
    log->has_final = true;
    for (int s = 0; s < 4; s++) {
      log->final_scores[s] = 10 * v[2 * s];
      log->final_points[s] = v[2 * s + 1];
    }
  } else if (n != -2) {
    return false;
  }
  int ba[2];
  if (attr_numbers(t, "ba", ba, 2, false) == 2) {
    res->honba = ba[0];
    res->sticks = ba[1];
  }
  return true;
}

static bool read_mjlog(mj_log *log, const char *d, size_t len,
                       mj_log_error *err) {
  log->format = MJ_LOG_MJLOG;
  size_t at = 0;
  tag t;
  bool riichi[4] = {false}, seen_go = false, closed = false;
  int turn = -1;
  while (next_tag(d, len, &at, &t)) {
    if (t.nlen == 0) {          /* a closing tag: its name starts with '/' */
      if (t.end - t.name == 8 && !memcmp(t.name, "/mjloggm", 8)) {
        closed = true;
        break;
      }
      continue;
    }
    char c = t.name[0];
    if (is_tag(&t, "GO")) {
      int type = attr_int(&t, "type", 9);
      if (type & 16) return fail(err, log, "%s", "three-player games are not read");
      log->rules.length = type & 8 ? 2 : 1;
      bool aka = !(type & 2);
      log->rules.red[0] = log->rules.red[1] = log->rules.red[2] = aka;
      log->rules.score.kuitan = !(type & 4);
      seen_go = true;
    } else if (is_tag(&t, "UN")) {
      static const char *const keys[] = {"n0", "n1", "n2", "n3"};
      for (int s = 0; s < 4; s++) {
        size_t vlen;
        const char *v = attr(&t, keys[s], &vlen);
        if (v) read_name(v, vlen, true, log->names[s], MJ_LOG_NAME);
      }
    } else if (is_tag(&t, "INIT")) {
      mj_log_round *r = new_round(log);
      if (!r) return fail(err, log, "%s", "out of memory");
      int seed[6];
      if (attr_numbers(&t, "seed", seed, 6, false) != 6 || seed[0] < 0 ||
          seed[0] > 15 || seed[1] < 0 || seed[1] > MJ_MAX_STICKS ||
          seed[2] < 0 || seed[2] > MJ_MAX_STICKS || seed[5] < 0 ||
          seed[5] >= MJ_TILES)
        return fail(err, log, "%s", "INIT without a good seed");
      r->round = seed[0];
      r->honba = seed[1];
      r->sticks = seed[2];
      r->dora = (uint8_t)seed[5];
      int ten[4];
      if (attr_numbers(&t, "ten", ten, 4, false) != 4)
        return fail(err, log, "%s", "INIT without four scores");
      for (int s = 0; s < 4; s++) r->scores[s] = 100 * ten[s];
      if (attr_int(&t, "oya", r->round % 4) != r->round % 4)
        return fail(err, log, "%s", "INIT's dealer is not its round's");
      static const char *const keys[] = {"hai0", "hai1", "hai2", "hai3"};
      for (int s = 0; s < 4; s++) {
        int n;
        if (!attr_tiles(&t, keys[s], r->hands[s], 13, &n) || n != 13)
          return fail(err, log, "%s", "INIT without 13 tiles for each seat");
      }
      memset(riichi, 0, sizeof riichi);
      turn = r->round % 4;
    } else if (log->nrounds == 0) {
      if (is_tag(&t, "AGARI") || is_tag(&t, "RYUUKYOKU") || is_tag(&t, "N") ||
          is_tag(&t, "REACH") || is_tag(&t, "DORA"))
        return fail(err, log, "<%s> before any INIT", "tag");
      continue;
    } else if (t.nlen >= 2 && ((c >= 'D' && c <= 'G') || (c >= 'T' && c <= 'W')) &&
               t.name[1] >= '0' && t.name[1] <= '9') {
      int tile = 0;
      for (size_t i = 1; i < t.nlen; i++) {
        if (t.name[i] < '0' || t.name[i] > '9' || tile > 1000)
          return fail(err, log, "%s", "a draw or discard that is not a tile");
        tile = 10 * tile + t.name[i] - '0';
      }
      if (tile >= MJ_TILES) return fail(err, log, "%s", "a tile past 135");
      bool discard = c <= 'G';
      int seat = discard ? c - 'D' : c - 'T';
      mj_log_event *e = new_event(log, discard ? MJ_ACT_DISCARD : MJ_ACT_DRAW, seat);
      if (!e) return fail(err, log, "%s", "out of memory");
      e->act.tile = (uint8_t)tile;
      if (discard) {
        e->act.riichi = riichi[seat];
        riichi[seat] = false;
      }
      turn = seat;
    } else if (is_tag(&t, "N")) {
      int who = attr_int(&t, "who", -1), m = attr_int(&t, "m", -1);
      if (who < 0 || who > 3 || m < 0) return fail(err, log, "%s", "a call without who or m");
      mj_act a;
      memset(&a, 0, sizeof a);
      int from;
      if (!decode_meld(who, m, &a, &from))
        return fail(err, log, "%s", "a call whose m is no meld");
      mj_log_event *e = new_event(log, a.type, who);
      if (!e) return fail(err, log, "%s", "out of memory");
      a.seat = (uint8_t)who;
      e->act = a;
      turn = who;
    } else if (is_tag(&t, "REACH")) {
      int who = attr_int(&t, "who", -1), step = attr_int(&t, "step", 0);
      if (who < 0 || who > 3) return fail(err, log, "%s", "REACH without who");
      if (step == 1) riichi[who] = true;
    } else if (is_tag(&t, "DORA")) {
      mj_log_round *r = &log->rounds[log->nrounds - 1];
      int hai = attr_int(&t, "hai", -1);
      if (hai < 0 || hai >= MJ_TILES || r->nkan_dora == MJ_MAX_KANS)
        return fail(err, log, "%s", "a DORA that is not a tile, or a fifth");
      r->kan_dora[r->nkan_dora++] = (uint8_t)hai;
    } else if (is_tag(&t, "AGARI")) {
      int who = attr_int(&t, "who", -1), from = attr_int(&t, "fromWho", -1);
      if (who < 0 || who > 3 || from < 0 || from > 3)
        return fail(err, log, "%s", "AGARI without who and fromWho");
      mj_log_event *e = new_event(log, who == from ? MJ_ACT_TSUMO : MJ_ACT_RON, who);
      mj_log_result *res = e ? new_result(log) : NULL;
      if (!res) return fail(err, log, "%s", "out of memory");
      e->result = (int16_t)(log->nresults - 1);
      res->end = MJ_END_WIN;
      res->who = who;
      res->from = from;
      res->pao = attr_int(&t, "paoWho", -1);
      int ten[3];
      if (attr_numbers(&t, "ten", ten, 3, false) != 3)
        return fail(err, log, "%s", "AGARI without ten");
      res->fu = ten[0];
      res->points = ten[1];
      res->limit = ten[2];
      if (!agari_yaku(&t, res)) return fail(err, log, "%s", "AGARI with bad yaku");
      if (!res->yakuman) {
        res->han = 0;
        for (int i = 0; i < res->nyaku; i++) res->han += res->yaku[i].han;
      }
      if (!attr_tiles(&t, "doraHai", res->dora, MJ_MAX_KANS + 1, &res->ndora) ||
          !attr_tiles(&t, "doraHaiUra", res->ura, MJ_MAX_KANS + 1, &res->nura) ||
          !attr_tiles(&t, "hai", res->hand, 14, &res->nhand))
        return fail(err, log, "%s", "AGARI with tiles that are not tiles");
      res->machi = attr_int(&t, "machi", -1);
      if (!read_sc(&t, log, res)) return fail(err, log, "%s", "AGARI without sc");
    } else if (is_tag(&t, "RYUUKYOKU")) {
      size_t vlen;
      const char *type = attr(&t, "type", &vlen);
      int end = MJ_END_EXHAUSTED, act = MJ_ACT_PASS;
      if (type) {
        if (vlen == 4 && !memcmp(type, "yao9", 4)) { end = MJ_END_NINE_TERMINALS; act = MJ_ACT_NINE_TERMINALS; }
        else if (vlen == 6 && !memcmp(type, "reach4", 6)) end = MJ_END_FOUR_RIICHI;
        else if (vlen == 5 && !memcmp(type, "kaze4", 5)) end = MJ_END_FOUR_WINDS;
        else if (vlen == 4 && !memcmp(type, "kan4", 4)) end = MJ_END_FOUR_KANS;
        else if (vlen == 2 && !memcmp(type, "nm", 2)) end = MJ_END_EXHAUSTED;
        else if (vlen == 4 && !memcmp(type, "ron3", 4)) end = MJ_END_TRIPLE_RON;
        else return fail(err, log, "%s", "a RYUUKYOKU of a type not known");
      }
      if (end == MJ_END_TRIPLE_RON && (turn < 0 || !three_rons(log, turn)))
        return fail(err, log, "%s", turn < 0 ? "three rons before any discard"
                                             : "out of memory");
      mj_log_event *e = end == MJ_END_TRIPLE_RON ? &log->events[log->nevents - 1]
                                                 : new_event(log, act, turn < 0 ? 0 : turn);
      mj_log_result *res = e ? new_result(log) : NULL;
      if (!res) return fail(err, log, "%s", "out of memory");
      e->result = (int16_t)(log->nresults - 1);
      res->end = end;
      if (end == MJ_END_EXHAUSTED) {
        static const char *const keys[] = {"hai0", "hai1", "hai2", "hai3"};
        res->shown = 0;
        for (int s = 0; s < 4; s++) {
          size_t hl;
          if (attr(&t, keys[s], &hl)) res->shown |= 1 << s;
        }
      }
      if (!read_sc(&t, log, res)) return fail(err, log, "%s", "RYUUKYOKU without sc");
    }
  }
  /* A file cut short, in a tag or between two, is refused: what it
     still holds would replay as a whole game that agrees. */
  if (!closed)
    return fail(err, log, "%s", memchr(d + at, '<', len - at)
                ? "the log is cut short (a tag with no '>')"
                : "the log is cut short (no </mjloggm> at its end)");
  if (!seen_go && log->nrounds == 0) return fail(err, log, "%s", "no <GO> and no round: not an mjlog game");
  if (log->nrounds == 0) return fail(err, log, "%s", "a game without rounds");
  return true;
}

/* ---- the tenhou.net/6 JSON ---- */

/* An entry of a seat's draws or discards. */
enum { E_TILE, E_DRAWN, E_RIICHI, E_CHI, E_PON, E_KAN, E_KAKAN, E_ANKAN,
       E_ZERO };

typedef struct entry {
  uint8_t type;
  uint8_t code;               /* a tile (E_RIICHI: 60 for the tile drawn) */
  uint8_t from;               /* seats after this one the called tile came
                                 from: 1 shimocha ... 3 kamicha */
  uint8_t n;                  /* hand tiles of a call */
  uint8_t codes[4];
} entry;

#define MAX_ENTRIES 64

typedef struct json_round {
  entry draws[4][MAX_ENTRIES], discards[4][MAX_ENTRIES];
  int ndraws[4], ndiscards[4];
} json_round;

static int code_kind(int code) {
  if (code >= 51 && code <= 53) return 9 * (code - 51) + 4;
  int suit = code / 10 - 1, n = code % 10;
  if (suit < 0 || suit > 3 || n < 1 || n > 9 || (suit == 3 && n > 7)) return -1;
  return 9 * suit + n - 1;
}

static bool code_red(int code) { return code >= 51 && code <= 53; }

/* A call written as text: "p414141", "c262452", "3636k3636". */
static bool parse_call(const char *s, size_t len, entry *e) {
  size_t at = 0;
  while (at < len && s[at] >= '0' && s[at] <= '9') at++;
  if (at >= len || at % 2) return false;
  char letter = s[at];
  int group = (int)at / 2;
  int codes[5], n = 0;
  for (size_t i = 0; i < len; i += 2) {
    if (i == at) { i -= 1; continue; }
    if (i + 1 >= len || n == 5) return false;
    if (s[i] < '0' || s[i] > '9' || s[i + 1] < '0' || s[i + 1] > '9') return false;
    codes[n++] = 10 * (s[i] - '0') + s[i + 1] - '0';
  }
  for (int i = 0; i < n; i++)
    if (code_kind(codes[i]) < 0 && !(letter == 'r' && codes[i] == 60)) return false;
  memset(e, 0, sizeof *e);
  switch (letter) {
  case 'r':
    if (n != 1 || at != 0) return false;
    e->type = E_RIICHI;
    e->code = (uint8_t)codes[0];
    return true;
  case 'c': case 'p': case 'm': case 'k': {
    int need = letter == 'c' || letter == 'p' ? 3 : 4;
    if (n != need) return false;
    e->type = letter == 'c' ? E_CHI : letter == 'p' ? E_PON : letter == 'm' ? E_KAN : E_KAKAN;
    if (letter == 'c' && group != 0) return false;
    if (letter == 'm') e->from = (uint8_t)(group == 0 ? 3 : group == 1 ? 2 : group == 3 ? 1 : 0);
    else e->from = (uint8_t)(group == 0 ? 3 : group == 1 ? 2 : group == 2 ? 1 : 0);
    if (!e->from) return false;
    /* the code after the letter is the tile called (a kakan: added) */
    int called = group;
    e->code = (uint8_t)codes[called];
    for (int i = 0, j = 0; i < n; i++)
      if (i != called) e->codes[j++] = (uint8_t)codes[i];
    e->n = (uint8_t)(n - 1);
    for (int i = 0; i < n; i++)
      if (code_kind(codes[i]) != code_kind(codes[0]) && letter != 'c') return false;
    return true;
  }
  case 'a':
    if (n != 4) return false;
    e->type = E_ANKAN;
    for (int i = 0; i < 4; i++) {
      e->codes[i] = (uint8_t)codes[i];
      if (code_kind(codes[i]) != code_kind(codes[0])) return false;
    }
    e->n = 4;
    e->code = (uint8_t)codes[0];
    return true;
  default:
    return false;
  }
}

static bool read_entries(const json_value *v, entry *out, int *n, bool discards) {
  if (!v || v->type != JSON_ARRAY) return false;
  *n = 0;
  for (const json_value *e = v->child; e; e = e->next) {
    if (*n == MAX_ENTRIES) return false;
    entry *x = &out[(*n)++];
    memset(x, 0, sizeof *x);
    if (e->type == JSON_NUMBER) {
      double d = e->number;
      if (!(d >= 0 && d <= 60)) return false;
      if (d == 60 && discards) x->type = E_DRAWN;
      else if (d == 0 && discards) x->type = E_ZERO;
      else if (d >= 11 && d <= 53 && d == (int)d && code_kind((int)d) >= 0) {
        x->type = E_TILE;
        x->code = (uint8_t)d;
      } else {
        return false;
      }
    } else if (e->type == JSON_STRING) {
      if (!parse_call(e->string, e->len, x)) return false;
      bool in_draws = x->type == E_CHI || x->type == E_PON || x->type == E_KAN;
      if (in_draws == discards) return false;
    } else {
      return false;
    }
  }
  return true;
}

/* ---- the order of a JSON round: each seat's draws and discards put in
   one line by playing them (kinds only) ---- */

enum { P_DRAW, P_ACT, P_CLAIM, P_KAKAN };

typedef struct walk_state {
  uint8_t di[4], xi[4];
  uint8_t count[4][MJ_KINDS], red[4][3];
  int turn, phase;
  int open;                   /* the code of the open tile (claims) */
  int drawn;                  /* the code just drawn */
} walk_state;

enum { S_DRAW, S_DISCARD, S_CALL, S_OWN_KAN };

typedef struct step {
  uint8_t type, seat;
  const entry *e;
  int code;                   /* a draw's, a discard's tile */
  bool riichi;
} step;

#define MAX_STEPS 512

typedef struct walker {
  const json_round *jr;
  step steps[MAX_STEPS];
  int nsteps;
  long work;
  int end_phase;              /* P_ACT: the last seat ends on its draw */
} walker;

static bool held(const walk_state *s, int seat, int code) {
  int k = code_kind(code);
  if (k < 0) return false;
  if (code_red(code)) return s->red[seat][k / 9] > 0;
  int reds = k < MJ_HONORS && k % 9 == 4 ? s->red[seat][k / 9] : 0;
  return s->count[seat][k] > reds;
}

static void take(walk_state *s, int seat, int code) {
  int k = code_kind(code);
  if (k < 0) return;
  s->count[seat][k]--;
  if (code_red(code)) s->red[seat][k / 9]--;
}

static void give(walk_state *s, int seat, int code) {
  int k = code_kind(code);
  if (k < 0) return;
  s->count[seat][k]++;
  if (code_red(code)) s->red[seat][k / 9]++;
}

static bool push(walker *w, int type, int seat, const entry *e, int code,
                 bool riichi) {
  if (w->nsteps == MAX_STEPS) return false;
  step *st = &w->steps[w->nsteps++];
  st->type = (uint8_t)type;
  st->seat = (uint8_t)seat;
  st->e = e;
  st->code = code;
  st->riichi = riichi;
  return true;
}

static bool all_used(const walker *w, const walk_state *s) {
  for (int p = 0; p < 4; p++)
    if (s->di[p] != w->jr->ndraws[p] || s->xi[p] != w->jr->ndiscards[p])
      return false;
  return true;
}

static bool walk(walker *w, walk_state s) {
  const json_round *jr = w->jr;
  for (;;) {
    if (++w->work > 200000) return false;
    int t = s.turn;
    switch (s.phase) {
    case P_DRAW: {
      if (s.di[t] >= jr->ndraws[t]) {
        w->end_phase = P_CLAIM;
        return all_used(w, &s);
      }
      const entry *e = &jr->draws[t][s.di[t]];
      if (e->type != E_TILE) return false;
      s.di[t]++;
      give(&s, t, e->code);
      s.drawn = e->code;
      if (!push(w, S_DRAW, t, e, e->code, false)) return false;
      s.phase = P_ACT;
      break;
    }
    case P_ACT: {
      if (s.xi[t] >= jr->ndiscards[t]) {
        w->end_phase = P_ACT;
        return all_used(w, &s);
      }
      const entry *e = &jr->discards[t][s.xi[t]++];
      if (e->type == E_ANKAN || e->type == E_KAKAN) {
        int need = e->type == E_ANKAN ? 4 : 1;
        const uint8_t *codes = e->type == E_ANKAN ? e->codes : &e->code;
        for (int i = 0; i < need; i++) {
          if (!held(&s, t, codes[i])) return false;
          take(&s, t, codes[i]);
        }
        if (!push(w, S_OWN_KAN, t, e, e->code, false)) return false;
        s.phase = e->type == E_KAKAN ? P_KAKAN : P_DRAW;
        break;
      }
      int code = e->type == E_TILE ? e->code
                 : e->type == E_DRAWN ? s.drawn
                 : e->type == E_RIICHI ? (e->code == 60 ? s.drawn : e->code)
                 : -1;
      if (code < 0 || !held(&s, t, code)) return false;
      take(&s, t, code);
      if (!push(w, S_DISCARD, t, e, code, e->type == E_RIICHI)) return false;
      s.open = code;
      s.phase = P_CLAIM;
      break;
    }
    case P_KAKAN:
      /* a chankan ends the round here: the rinshan draw is not there */
      if (s.di[t] >= jr->ndraws[t]) {
        w->end_phase = P_KAKAN;
        return all_used(w, &s);
      }
      s.phase = P_DRAW;
      break;
    case P_CLAIM: {
      /* a seat whose next draw is a call of this tile from t takes it;
         if what follows leads nowhere, it passes instead */
      for (int pass = 0; pass < 2; pass++) {
        for (int d = 1; d < 4; d++) {
          int p = (t + d) % 4;
          if (s.di[p] >= jr->ndraws[p]) continue;
          const entry *e = &jr->draws[p][s.di[p]];
          bool pon = e->type == E_PON || e->type == E_KAN;
          if (e->type != E_CHI && !pon) continue;
          if (pon != (pass == 0)) continue;           /* pon and kan first */
          if ((p + e->from) % 4 != t || e->code != s.open) continue;
          walk_state c = s;
          bool ok = true;
          for (int i = 0; i < e->n && ok; i++) {
            ok = held(&c, p, e->codes[i]);
            if (ok) take(&c, p, e->codes[i]);
          }
          if (!ok) continue;
          c.di[p]++;
          c.turn = p;
          if (e->type == E_KAN) {
            if (c.xi[p] >= jr->ndiscards[p] || jr->discards[p][c.xi[p]].type != E_ZERO)
              continue;
            c.xi[p]++;
            c.phase = P_DRAW;
          } else {
            c.phase = P_ACT;
            c.drawn = -1;
          }
          int saved = w->nsteps;
          if (push(w, S_CALL, p, e, e->code, false) && walk(w, c)) return true;
          w->nsteps = saved;
        }
      }
      s.turn = (t + 1) % 4;
      s.phase = P_DRAW;
      break;
    }
    }
  }
}

/* Tile numbers for the JSON's kinds: each tile that comes into play
   takes a copy not in play yet (copy 0 of a five is the red one). */
typedef struct copies {
  bool used[MJ_TILES];
  bool aka[3];
  uint8_t hand[4][MJ_TILES];  /* 1 where the seat holds the tile */
} copies;

static int new_copy(copies *c, int code) {
  int k = code_kind(code);
  bool five = k < MJ_HONORS && k % 9 == 4 && c->aka[k / 9];
  if (code_red(code) && five) {
    if (c->used[4 * k]) return -1;
    c->used[4 * k] = true;
    return 4 * k;
  }
  for (int i = five ? 1 : 0; i < 4; i++)
    if (!c->used[4 * k + i]) {
      c->used[4 * k + i] = true;
      return 4 * k + i;
    }
  return -1;
}

/* The tile of that code the seat holds (the red one for a red code). */
static int held_copy(const copies *c, int seat, int code, int prefer) {
  int k = code_kind(code);
  bool five = k < MJ_HONORS && k % 9 == 4 && c->aka[k / 9];
  if (prefer >= 0 && prefer / 4 == k && c->hand[seat][prefer] &&
      (!five || (prefer % 4 == 0) == code_red(code)))
    return prefer;
  for (int i = 0; i < 4; i++) {
    int t = 4 * k + i;
    if (!c->hand[seat][t]) continue;
    if (five && (i == 0) != code_red(code)) continue;
    return t;
  }
  return -1;
}

static const char *result_names[] = {
  "和了", "流局", "全員聴牌", "全員不聴", "流し満貫", "九種九牌", "四家立直",
  "四風連打", "四槓散了", "三家和了"
};

/* "30符4飜7700点", "満貫2000-4000点", "30符3飜1300点∀". */
static bool read_points(const char *s, size_t len, mj_log_result *res) {
  static const char *const limits[] = {"満貫", "跳満", "倍満", "三倍満", "役満"};
  size_t at = 0;
  res->limit = 0;
  for (int i = 0; i < 5; i++) {
    size_t n = strlen(limits[i]);
    if (len >= n && !memcmp(s, limits[i], n)) {
      res->limit = i + 1;
      at = n;
    }
  }
  if (!res->limit) {
    int fu, han;
    int used = 0;
    char buf[64];
    size_t n = len < 63 ? len : 63;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (sscanf(buf, "%d符%d飜%n", &fu, &han, &used) != 2) return false;
    res->fu = fu;
    res->han = han;
    at = (size_t)used;
  }
  int a = 0, b = -1;
  char buf[64];
  size_t n = len - at < 63 ? len - at : 63;
  memcpy(buf, s + at, n);
  buf[n] = '\0';
  int used = 0;
  if (sscanf(buf, "%d-%d%n", &a, &b, &used) == 2) {
    res->tsumo_other = a;
    res->tsumo_dealer = b;
  } else if (sscanf(buf, "%d%n", &a, &used) == 1) {
    if (strstr(buf + used, "∀")) res->tsumo_all = a;
    else res->ron = a;
  } else {
    return false;
  }
  return true;
}

/* A yaku written "平和(1飜)" or "国士無双(役満)". */
static bool read_yaku(const char *s, size_t len, mj_log_result *res) {
  const char *paren = memchr(s, '(', len);
  if (!paren || res->nyaku == 24) return false;
  size_t n = (size_t)(paren - s);
  int id = -1;
  for (int i = 0; i < TENHOU_YAKU && id < 0; i++)
    if (strlen(tenhou_names[i]) == n && !memcmp(tenhou_names[i], s, n)) id = i;
  for (size_t i = 0; i < sizeof english_names / sizeof *english_names && id < 0; i++)
    if (strlen(english_names[i].name) == n && !memcmp(english_names[i].name, s, n))
      id = english_names[i].id;
  int han = 0;
  const char *rest = paren + 1;
  size_t rlen = len - n - 1;
  if (rlen >= strlen("役満") && !memcmp(rest, "役満", strlen("役満"))) {
    han = 13;
    res->yakuman = true;
  } else {
    while (rlen && *rest >= '0' && *rest <= '9') {
      han = 10 * han + *rest++ - '0';
      rlen--;
      if (han > 99) return false;
    }
  }
  if (id < 0) {
    res->unknown_yaku++;
    return true;
  }
  res->yaku[res->nyaku].id = (uint8_t)id;
  res->yaku[res->nyaku++].han = (uint8_t)han;
  return true;
}

static bool json_int_of(const json_value *v, int lo, int hi, int *out) {
  if (!v || v->type != JSON_NUMBER || !(v->number >= lo && v->number <= hi) ||
      v->number != (int)v->number)
    return false;
  *out = (int)v->number;
  return true;
}

static const json_value *nth(const json_value *a, int i) {
  if (!a || a->type != JSON_ARRAY) return NULL;
  const json_value *e = a->child;
  while (e && i-- > 0) e = e->next;
  return e;
}

/* Four scores or changes, as the mjlog's: 10^8 points at most (a table
   may start each seat with 10^6, and a game end with four times that). */
static bool read_deltas(const json_value *v, int *out) {
  for (int s = 0; s < 4; s++)
    if (!json_int_of(nth(v, s), -100000000, 100000000, &out[s])) return false;
  return v->len == 4;
}

/* The result of a JSON round: the events that end it. */
static bool json_result(mj_log *log, const json_value *res_v, walk_state *end,
                        int end_phase, copies *cp, const uint8_t *ura,
                        int nura, mj_log_error *err) {
  const json_value *name = nth(res_v, 0);
  if (!name || name->type != JSON_STRING)
    return fail(err, log, "%s", "a round without its result");
  int kind = -1;
  for (int i = 0; i < (int)(sizeof result_names / sizeof *result_names); i++)
    if (name->len == strlen(result_names[i]) && !memcmp(name->string, result_names[i], name->len))
      kind = i;
  if (kind < 0) return fail(err, log, "%s", "a result of a kind not known");
  if (kind == 0) {
    int wins = 0;
    for (const json_value *d = name->next; d; d = d->next ? d->next->next : NULL) {
      const json_value *info = d->next;
      int who, from, pao;
      if (!info || !json_int_of(nth(info, 0), 0, 3, &who) ||
          !json_int_of(nth(info, 1), 0, 3, &from) ||
          !json_int_of(nth(info, 2), 0, 3, &pao))
        return fail(err, log, "%s", "a win without who, from and pao");
      bool tsumo = who == from;
      if (tsumo && (end_phase != P_ACT || end->turn != who))
        return fail(err, log, "%s", "a tsumo by a seat that did not draw last");
      if (!tsumo && (end_phase == P_ACT || from != end->turn))
        return fail(err, log, "%s", "a ron not on the last tile");
      mj_log_event *e = new_event(log, tsumo ? MJ_ACT_TSUMO : MJ_ACT_RON, who);
      mj_log_result *res = e ? new_result(log) : NULL;
      if (!res) return fail(err, log, "%s", "out of memory");
      e->result = (int16_t)(log->nresults - 1);
      res->end = MJ_END_WIN;
      res->who = who;
      res->from = from;
      res->pao = pao == who ? -1 : pao;
      res->has_deltas = read_deltas(d, res->deltas);
      if (!res->has_deltas) return fail(err, log, "%s", "a win without four score changes");
      const json_value *pts = nth(info, 3);
      if (!pts || pts->type != JSON_STRING || !read_points(pts->string, pts->len, res))
        return fail(err, log, "%s", "a win without its points");
      for (const json_value *y = pts->next; y; y = y->next)
        if (y->type != JSON_STRING || !read_yaku(y->string, y->len, res))
          return fail(err, log, "%s", "a yaku that cannot be read");
      if (!res->yakuman) {
        int han = 0;
        for (int i = 0; i < res->nyaku; i++) han += res->yaku[i].han;
        if (res->han < 0 && !res->unknown_yaku) res->han = han;
      }
      bool riichi = false;
      for (int i = 0; i < res->nyaku; i++)
        riichi |= res->yaku[i].id == 1 || res->yaku[i].id == 21;
      if (riichi) {
        memcpy(res->ura, ura, (size_t)nura);
        res->nura = nura;
      }
      if (++wins > 3) return fail(err, log, "%s", "more than three wins");
    }
    if (!wins) return fail(err, log, "%s", "a win without its winner");
    (void)cp;
    return true;
  }
  int type = kind == 5 ? MJ_ACT_NINE_TERMINALS : MJ_ACT_PASS;
  if ((type == MJ_ACT_NINE_TERMINALS) != (end_phase == P_ACT))
    return fail(err, log, "%s", "a draw of the round where it cannot be");
  if (kind == 9 && !three_rons(log, end->turn))
    return fail(err, log, "%s", "out of memory");
  mj_log_event *e = kind == 9 ? &log->events[log->nevents - 1]
                              : new_event(log, type, end->turn);
  mj_log_result *res = e ? new_result(log) : NULL;
  if (!res) return fail(err, log, "%s", "out of memory");
  e->result = (int16_t)(log->nresults - 1);
  static const int ends[] = {
    0, MJ_END_EXHAUSTED, MJ_END_EXHAUSTED, MJ_END_EXHAUSTED, MJ_END_EXHAUSTED,
    MJ_END_NINE_TERMINALS, MJ_END_FOUR_RIICHI, MJ_END_FOUR_WINDS,
    MJ_END_FOUR_KANS, MJ_END_TRIPLE_RON
  };
  res->end = ends[kind];
  const json_value *d = name->next;
  if (d) {
    res->has_deltas = read_deltas(d, res->deltas);
    if (!res->has_deltas) return fail(err, log, "%s", "a draw with bad score changes");
  } else if (kind != 1 && kind != 4) {
    res->has_deltas = true;   /* nothing moved */
  }
  return true;
}

static bool json_round_read(mj_log *log, const json_value *rv, bool aka[3],
                            mj_log_error *err) {
  mj_log_round *r = new_round(log);
  if (!r) return fail(err, log, "%s", "out of memory");
  const json_value *info = nth(rv, 0), *scores = nth(rv, 1), *dora = nth(rv, 2),
                   *ura = nth(rv, 3);
  if (!json_int_of(nth(info, 0), 0, 15, &r->round) ||
      !json_int_of(nth(info, 1), 0, MJ_MAX_STICKS, &r->honba) ||
      !json_int_of(nth(info, 2), 0, MJ_MAX_STICKS, &r->sticks))
    return fail(err, log, "%s", "a round without [round, honba, sticks]");
  if (!scores || scores->type != JSON_ARRAY || !read_deltas(scores, r->scores))
    return fail(err, log, "%s", "a round without four scores");
  if (!dora || dora->type != JSON_ARRAY || dora->len < 1 || dora->len > 5 ||
      !ura || ura->type != JSON_ARRAY || ura->len > 5)
    return fail(err, log, "%s", "a round without its dora indicators");
  json_round *jr = malloc(sizeof *jr);
  walker *w = malloc(sizeof *w);
  copies *cp = malloc(sizeof *cp);
  bool ok = false;
  if (!jr || !w || !cp) {
    fail(err, log, "%s", "out of memory");
    goto done;
  }
  memset(cp, 0, sizeof *cp);
  memcpy(cp->aka, aka, sizeof cp->aka);
  walk_state s;
  memset(&s, 0, sizeof s);
  const json_value *e = nth(rv, 4);
  for (int p = 0; p < 4; p++) {
    const json_value *hand = e;
    if (!hand || hand->type != JSON_ARRAY || hand->len != 13) {
      fail(err, log, "%s", "a seat not dealt 13 tiles");
      goto done;
    }
    int i = 0;
    for (const json_value *t = hand->child; t; t = t->next, i++) {
      int code;
      if (!json_int_of(t, 11, 53, &code) || code_kind(code) < 0) {
        fail(err, log, "%s", "a tile dealt that is not a tile");
        goto done;
      }
      int tile = new_copy(cp, code);
      if (tile < 0) {
        fail(err, log, "%s", "a tile dealt five times");
        goto done;
      }
      r->hands[p][i] = (uint8_t)tile;
      cp->hand[p][tile] = 1;
      give(&s, p, code);
    }
    if (!read_entries(hand->next, jr->draws[p], &jr->ndraws[p], false) ||
        !read_entries(hand->next ? hand->next->next : NULL, jr->discards[p],
                      &jr->ndiscards[p], true)) {
      fail(err, log, "%s", "a seat's draws or discards cannot be read");
      goto done;
    }
    e = hand->next ? hand->next->next ? hand->next->next->next : NULL : NULL;
  }
  int codes[10], ncodes = 0;
  for (const json_value *t = dora->child; t; t = t->next) {
    if (!json_int_of(t, 11, 53, &codes[ncodes]) || code_kind(codes[ncodes]) < 0) {
      fail(err, log, "%s", "a dora indicator that is not a tile");
      goto done;
    }
    int tile = new_copy(cp, codes[ncodes++]);
    if (tile < 0) {
      fail(err, log, "%s", "a dora indicator is a fifth copy");
      goto done;
    }
    if (ncodes == 1) r->dora = (uint8_t)tile;
    else r->kan_dora[r->nkan_dora++] = (uint8_t)tile;
  }
  s.turn = r->round % 4;
  s.phase = P_DRAW;
  memset(w, 0, sizeof *w);
  w->jr = jr;
  if (!walk(w, s)) {
    fail(err, log, "%s", "the draws, discards and calls do not make a round");
    goto done;
  }
  /* the steps, with tile numbers */
  int drawn[4] = {-1, -1, -1, -1}, last_discard = -1;
  walk_state end;
  memset(&end, 0, sizeof end);
  for (int i = 0; i < w->nsteps; i++) {
    const step *st = &w->steps[i];
    int p = st->seat;
    mj_log_event *ev = NULL;
    switch (st->type) {
    case S_DRAW: {
      int tile = new_copy(cp, st->code);
      if (tile < 0) {
        char name[3], what[120];
        mj_tile_name(code_kind(st->code), code_red(st->code), name);
        snprintf(what, sizeof what, "step %d: seat %d draws a %s (%d), one copy "
                 "too many (four of a kind, the red five apart)", i + 1, p,
                 name, st->code);
        fail(err, log, "%s", what);
        goto done;
      }
      ev = new_event(log, MJ_ACT_DRAW, p);
      if (!ev) break;
      ev->act.tile = (uint8_t)tile;
      cp->hand[p][tile] = 1;
      drawn[p] = tile;
      break;
    }
    case S_DISCARD: {
      int tile = held_copy(cp, p, st->code, drawn[p]);
      ev = new_event(log, MJ_ACT_DISCARD, p);
      if (!ev || tile < 0) break;
      ev->act.tile = (uint8_t)tile;
      ev->act.riichi = st->riichi;
      cp->hand[p][tile] = 0;
      last_discard = tile;
      drawn[p] = -1;
      break;
    }
    case S_CALL: {
      const entry *x = st->e;
      int type = x->type == E_CHI ? MJ_ACT_CHI : x->type == E_PON ? MJ_ACT_PON : MJ_ACT_KAN;
      ev = new_event(log, type, p);
      if (!ev) break;
      ev->act.tile = (uint8_t)last_discard;
      for (int j = 0; j < x->n; j++) {
        int tile = held_copy(cp, p, x->codes[j], -1);
        if (tile < 0) {
          fail(err, log, "%s", "a call of tiles not held");
          goto done;
        }
        ev->act.tiles[j] = (uint8_t)tile;
        cp->hand[p][tile] = 0;
      }
      drawn[p] = -1;
      break;
    }
    case S_OWN_KAN: {
      const entry *x = st->e;
      if (x->type == E_KAKAN) {
        ev = new_event(log, MJ_ACT_KAKAN, p);
        int tile = held_copy(cp, p, x->code, -1);
        if (tile < 0) {
          /* the added tile as written may be the other copy */
          int k = code_kind(x->code);
          for (int c = 0; c < 4 && tile < 0; c++)
            if (cp->hand[p][4 * k + c]) tile = 4 * k + c;
        }
        if (!ev || tile < 0) break;
        ev->act.tile = (uint8_t)tile;
        cp->hand[p][tile] = 0;
      } else {
        ev = new_event(log, MJ_ACT_ANKAN, p);
        if (!ev) break;
        int k = code_kind(x->code), n = 0;
        for (int c = 0; c < 4; c++)
          if (cp->hand[p][4 * k + c]) {
            ev->act.tiles[n++] = (uint8_t)(4 * k + c);
            cp->hand[p][4 * k + c] = 0;
          }
        if (n != 4) {
          fail(err, log, "%s", "a closed kan of tiles not held");
          goto done;
        }
      }
      drawn[p] = -1;
      break;
    }
    }
    if (!ev) {
      fail(err, log, "%s", "out of memory, or a tile not held");
      goto done;
    }
  }
  /* where the round stopped, for its result */
  if (w->nsteps) {
    const step *last = &w->steps[w->nsteps - 1];
    end.turn = last->seat;
  } else {
    end.turn = r->round % 4;
  }
  uint8_t ura_tiles[5];
  int nura = 0;
  for (const json_value *t = ura->child; t; t = t->next) {
    int code, tile;
    if (!json_int_of(t, 11, 53, &code) || code_kind(code) < 0 ||
        (tile = new_copy(cp, code)) < 0) {
      fail(err, log, "%s", "an ura indicator that is not a tile, or a fifth copy");
      goto done;
    }
    ura_tiles[nura++] = (uint8_t)tile;
  }
  ok = json_result(log, nth(rv, 16), &end, w->end_phase, cp, ura_tiles, nura, err);
done:
  free(jr);
  free(w);
  free(cp);
  return ok;
}

/* The rules a ludus record gives that are not Tenhou's (record.c):
   flags by name, start_points, target and uma. */
static bool read_rules(mj_round_rules *rules, const json_value *ours) {
  if (ours->type != JSON_OBJECT) return false;
  for (const json_value *m = ours->child; m; m = m->next) {
    bool *flag = mj_round_rules_flag(rules, m->key, strlen(m->key));
    int n;
    if (flag) {
      if (m->type != JSON_TRUE && m->type != JSON_FALSE) return false;
      *flag = m->type == JSON_TRUE;
    } else if (!strcmp(m->key, "start_points")) {
      if (!json_int_of(m, 1000, 1000000, &rules->start_points)) return false;
    } else if (!strcmp(m->key, "target")) {
      if (!json_int_of(m, 0, 1000000, &rules->target)) return false;
    } else if (!strcmp(m->key, "uma")) {
      if (m->type != JSON_ARRAY || m->len != 4) return false;
      for (int i = 0; i < 4; i++)
        if (!json_int_of(nth(m, i), -999900, 999900, &n) || n % 100) return false;
        else rules->uma[i] = n;
    } else {
      return false;
    }
  }
  return true;
}

static bool read_json_doc(mj_log *log, const json_value *doc, bool first,
                          mj_log_error *err) {
  if (!doc || doc->type != JSON_OBJECT) return fail(err, log, "%s", "not a JSON object");
  const json_value *rule = json_get(doc, "rule"), *names = json_get(doc, "name");
  if (first) {
    bool aka[3] = {true, true, true};
    if (rule && rule->type == JSON_OBJECT) {
      const json_value *disp = json_get(rule, "disp");
      if (disp && disp->type == JSON_STRING) {
        bool east = strstr(disp->string, "東") != NULL ||
                    strstr(disp->string, "East") != NULL;
        log->rules.length = east ? 1 : 2;
        /* Tenhou's own ("般南喰赤"): 喰 is open tanyao, as the mjlog's
           GO type says it (a lobby without it replayed with open tanyao
           counted a han its wins did not have) */
        if (east || strstr(disp->string, "南"))
          log->rules.score.kuitan = strstr(disp->string, "喰") != NULL;
        if (strstr(disp->string, "三")) return fail(err, log, "%s", "three-player games are not read");
      }
      const json_value *a = json_get(rule, "aka");
      if (a && a->type == JSON_NUMBER) aka[0] = aka[1] = aka[2] = a->number != 0;
      static const char *const keys[] = {"aka51", "aka52", "aka53"};
      bool any = false;
      for (int i = 0; i < 3; i++) any |= json_get(rule, keys[i]) != NULL;
      if (any)
        for (int i = 0; i < 3; i++) {
          const json_value *x = json_get(rule, keys[i]);
          aka[i] = x && x->type == JSON_NUMBER && x->number != 0;
        }
    }
    for (int i = 0; i < 3; i++) log->rules.red[i] = aka[i];
    const json_value *ours = rule && rule->type == JSON_OBJECT ? json_get(rule, "ludus") : NULL;
    if (ours && !read_rules(&log->rules, ours))
      return fail(err, log, "%s", "rules of ludus that are not known (\"rule\":{\"ludus\":...})");
    if (names && names->type == JSON_ARRAY) {
      int s = 0;
      for (const json_value *n = names->child; n && s < 4; n = n->next, s++)
        if (n->type == JSON_STRING) read_name(n->string, n->len, false, log->names[s], MJ_LOG_NAME);
    }
  }
  const json_value *rounds = json_get(doc, "log");
  if (!rounds || rounds->type != JSON_ARRAY || !rounds->len)
    return fail(err, log, "%s", "no \"log\" of rounds");
  bool aka[3] = {log->rules.red[0], log->rules.red[1], log->rules.red[2]};
  for (const json_value *r = rounds->child; r; r = r->next) {
    if (r->type != JSON_ARRAY || r->len < 17)
      return fail(err, log, "%s", "a round that is not an array of 17");
    if (!json_round_read(log, r, aka, err)) return false;
  }
  const json_value *sc = json_get(doc, "sc");
  if (sc && sc->type == JSON_ARRAY && sc->len == 8) {
    const json_value *v = sc->child;
    for (int s = 0; s < 4; s++, v = v->next->next) {
      if (v->type != JSON_NUMBER || v->next->type != JSON_NUMBER)
        return fail(err, log, "%s", "final scores that are not numbers");
      double pts = v->next->number * 10;
      if (!(v->number > -1e8 && v->number < 1e8 && pts > -1e8 && pts < 1e8))
        return fail(err, log, "%s", "final scores out of range");
      log->final_scores[s] = (int)v->number;
      log->final_points[s] = (int)(pts < 0 ? pts - 0.5 : pts + 0.5);
    }
    log->has_final = true;
  }
  return true;
}

static bool read_json(mj_log *log, const char *d, size_t len, mj_log_error *err) {
  log->format = MJ_LOG_JSON;
  size_t at = skip_space(d, len, 0);
  bool first = true;
  while (at < len) {
    size_t end = json_end(d, len, at), error_at = 0;
    json_value *doc = json_parse(d + at, end - at, &error_at);
    if (!doc) {
      char what[64];
      snprintf(what, sizeof what, "%zu", at + error_at);
      return fail(err, log, "not JSON (at byte %s)", what);
    }
    bool ok = read_json_doc(log, doc, first, err);
    json_free_value(doc);
    if (!ok) return false;
    first = false;
    at = skip_space(d, len, end);
  }
  if (!log->nrounds) return fail(err, log, "%s", "no rounds");
  return true;
}

bool mj_log_read(mj_log *log, const char *text, size_t len, mj_log_error *err) {
  clear(log);
  err->round = err->event = -1;
  err->text[0] = '\0';
  int format = mj_log_sniff(text, len);
  if (format == MJ_LOG_JSON) return read_json(log, text, len, err);
  if (format == MJ_LOG_MJLOG) return read_mjlog(log, text, len, err);
  return fail(err, log, "%s", "neither an mjlog (<mjloggm>) nor tenhou.net/6 JSON");
}
