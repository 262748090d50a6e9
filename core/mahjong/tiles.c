/*
** tiles.c: tiles as text.  The Tenhou forms: digits followed by their
** suit letter (m, p, s, z), red fives as 0; melds as "chi:234m".
*/
#include <string.h>

#include "mahjong/mahjong.h"

static const char suits[] = "mpsz";

void mj_clear(mj_tiles *t) {
  memset(t, 0, sizeof *t);
}

static int suit_of(char c) {
  const char *s = c ? strchr(suits, c) : NULL;
  return s ? (int)(s - suits) : -1;
}

/* Adds digit d of suit s, read at offset at. */
static mj_error add_tile(mj_tiles *t, int d, int s, int at,
                         mj_parse_error *err) {
  bool red = d == 0;
  if (s == 3 && (d < 1 || d > 7)) {
    err->at = at;
    return MJ_EHONOR;
  }
  int kind = s * 9 + (red ? 5 : d) - 1;
  if (t->count[kind] == 4) {
    err->at = at;
    err->kind = kind;
    return MJ_EFIFTH;
  }
  t->count[kind]++;
  if (red) t->red[s]++;
  t->n++;
  return MJ_OK;
}

mj_error mj_parse(const char *text, size_t len, mj_tiles *out,
                  mj_parse_error *err) {
  mj_parse_error ignored;
  if (!err) err = &ignored;
  memset(err, 0, sizeof *err);
  mj_clear(out);
  size_t first = 0, pending = 0;   /* digits waiting for their suit */
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (c >= '0' && c <= '9') {
      if (!pending) first = i;
      pending++;
    } else if (suit_of(c) >= 0) {
      if (!pending) {
        err->at = (int)i;
        return MJ_ENODIGIT;
      }
      for (size_t j = first; j < i; j++) {
        mj_error e = add_tile(out, text[j] - '0', suit_of(c), (int)j, err);
        if (e != MJ_OK) return e;
      }
      pending = 0;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (pending) break;
    } else {
      err->at = (int)i;
      return MJ_EUNKNOWN;
    }
  }
  if (pending) {
    err->at = (int)first;
    return MJ_ENOSUIT;
  }
  err->tiles = out->n;
  return MJ_OK;
}

void mj_tile_name(int kind, bool red, char *buf) {
  buf[0] = red ? '0' : (char)('0' + MJ_NUMBER(kind));
  buf[1] = suits[MJ_SUIT(kind)];
  buf[2] = '\0';
}

int mj_tile_from_name(const char *name, size_t len, bool *red) {
  *red = false;
  if (len != 2 || name[0] < '0' || name[0] > '9') return -1;
  int s = suit_of(name[1]), d = name[0] - '0';
  if (s < 0 || (s == 3 && (d < 1 || d > 7))) return -1;
  *red = d == 0;
  return s * 9 + (d == 0 ? 5 : d) - 1;
}

int mj_format(const mj_tiles *t, char *buf, size_t size) {
  size_t len = 0;
  for (int s = 0; s < 4; s++) {
    bool any = false;
    for (int k = s * 9; k < s * 9 + 9 && k < MJ_KINDS; k++) {
      for (int i = 0; i < t->count[k]; i++) {
        bool red = s < 3 && k % 9 == 4 && i < t->red[s];
        if (len + 1 < size) buf[len] = red ? '0' : (char)('0' + MJ_NUMBER(k));
        len++;
        any = true;
      }
    }
    if (any) {
      if (len + 1 < size) buf[len] = suits[s];
      len++;
    }
  }
  if (size) buf[len < size ? len : size - 1] = '\0';
  return (int)len;
}

int mj_dora_of(int indicator) {
  if (indicator < MJ_HONORS)
    return indicator % 9 == 8 ? indicator - 8 : indicator + 1;
  if (indicator < MJ_WHITE) return indicator == MJ_NORTH ? MJ_EAST : indicator + 1;
  return indicator == MJ_RED ? MJ_WHITE : indicator + 1;
}

/* ---- melds ---- */

static const struct { const char *prefix; mj_meld_kind kind; } meld_kinds[] = {
  {"chi:", MJ_CHI}, {"pon:", MJ_PON}, {"kan:", MJ_KAN}, {"minkan:", MJ_KAN},
  {"daiminkan:", MJ_KAN}, {"shouminkan:", MJ_KAN}, {"kakan:", MJ_KAN},
  {"ankan:", MJ_ANKAN},
};

mj_error mj_parse_meld(const char *text, size_t len, mj_meld *out,
                       mj_parse_error *err) {
  mj_parse_error ignored;
  if (!err) err = &ignored;
  memset(err, 0, sizeof *err);
  memset(out, 0, sizeof *out);
  size_t skip = 0;
  int kind = -1;
  for (size_t i = 0; i < sizeof meld_kinds / sizeof meld_kinds[0]; i++) {
    size_t n = strlen(meld_kinds[i].prefix);
    if (len >= n && memcmp(text, meld_kinds[i].prefix, n) == 0) {
      kind = (int)meld_kinds[i].kind;
      skip = n;
      break;
    }
  }
  if (kind < 0) return MJ_EMELD;
  mj_tiles t;
  mj_error e = mj_parse(text + skip, len - skip, &t, err);
  if (e != MJ_OK) {
    err->at += (int)skip;
    return e;
  }
  int low = 0;
  while (low < MJ_KINDS && !t.count[low]) low++;
  bool ok;
  if (kind == MJ_CHI)
    ok = t.n == 3 && !MJ_IS_HONOR(low) && low % 9 <= 6 &&
         t.count[low] == 1 && t.count[low + 1] == 1 && t.count[low + 2] == 1;
  else
    ok = low < MJ_KINDS && t.count[low] == t.n &&
         t.n == (kind == MJ_PON ? 3 : 4);
  err->tiles = t.n;
  if (!ok) return MJ_EMELD;
  out->kind = (uint8_t)kind;
  out->tile = (uint8_t)low;
  out->red = low < MJ_HONORS ? t.red[MJ_SUIT(low)] : 0;
  return MJ_OK;
}

void mj_meld_tiles(const mj_meld *m, mj_tiles *t) {
  int n = m->kind == MJ_CHI || m->kind == MJ_PON ? 3 : 4;
  for (int i = 0; i < n; i++) t->count[m->kind == MJ_CHI ? m->tile + i : m->tile]++;
  if (m->red) t->red[MJ_SUIT(m->tile)] += m->red;
  t->n += n;
}

int mj_meld_text(const mj_meld *m, char *buf, size_t size) {
  mj_tiles t;
  mj_clear(&t);
  mj_meld_tiles(m, &t);
  return mj_format(&t, buf, size);
}
