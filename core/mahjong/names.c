/*
** names.c: the words of a score and of a refusal to score, written once
** for mahjong.score (bindings/lmahjong.c) and the batch tools
** (batch.c), so that the two say the same.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mahjong/mahjong.h"

static const char *const limit_names[] = {
  NULL, "mangan", "haneman", "baiman", "sanbaiman", "yakuman", "kazoe yakuman"
};

static const char *const wait_names[] = {
  "ryanmen", "kanchan", "penchan", "shanpon", "tanki", "kokushi 13-sided"
};

/* The flags of a context, in the order of mj_context, and the rules, in
   the order of mj_rules. */
static const char *const flag_names[] = {
  "tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei",
  "rinshan", "chankan", "tenhou", "chiihou"
};

static const char *const rule_names[] = {
  "kuitan", "aka", "kiriage", "double_yakuman", "kazoe", "open_pinfu_fu"
};

static int index_of(const char *const *names, int n, const char *name,
                    size_t len) {
  for (int i = 0; i < n; i++)
    if (len > 0 && names[i][0] == name[0] && strlen(names[i]) == len &&
        memcmp(names[i], name, len) == 0)
      return i;
  return -1;
}

bool *mj_context_flag(mj_context *ctx, const char *name, size_t len) {
  bool *fields[] = {&ctx->tsumo, &ctx->riichi, &ctx->double_riichi,
                    &ctx->ippatsu, &ctx->haitei, &ctx->houtei, &ctx->rinshan,
                    &ctx->chankan, &ctx->tenhou, &ctx->chiihou};
  int i = index_of(flag_names, 10, name, len);
  return i < 0 ? NULL : fields[i];
}

bool *mj_rules_flag(mj_rules *rules, const char *name, size_t len) {
  bool *fields[] = {&rules->kuitan, &rules->aka, &rules->kiriage,
                    &rules->double_yakuman, &rules->kazoe,
                    &rules->open_pinfu_fu};
  int i = index_of(rule_names, 6, name, len);
  return i < 0 ? NULL : fields[i];
}

int mj_wind_of(const char *text, size_t len) {
  static const char winds[] = "ESWN";
  const char *w = len == 1 && text[0] ? strchr(winds, text[0]) : NULL;
  return w ? MJ_EAST + (int)(w - winds) : -1;
}

const char *mj_limit_name(int limit) {
  return limit > 0 && limit <= MJ_KAZOE_YAKUMAN ? limit_names[limit] : NULL;
}

const char *mj_wait_name(int wait) {
  return wait >= 0 && wait <= MJ_KOKUSHI_WAIT ? wait_names[wait] : "?";
}

void mj_fu_reason_text(const mj_fu_item *item, const mj_score *s, char *buf,
                  size_t size) {
  char tile[3];
  mj_tile_name(item->tile, false, tile);
  switch (item->reason) {
  case MJ_FU_BASE: snprintf(buf, size, "base"); break;
  case MJ_FU_CHIITOITSU: snprintf(buf, size, "seven pairs"); break;
  case MJ_FU_CLOSED_RON: snprintf(buf, size, "closed ron"); break;
  case MJ_FU_TSUMO: snprintf(buf, size, "tsumo"); break;
  case MJ_FU_OPEN_PINFU: snprintf(buf, size, "open hand, no other fu"); break;
  case MJ_FU_WAIT:
    snprintf(buf, size, "%s wait on %s", mj_wait_name(s->wait), tile);
    break;
  case MJ_FU_PAIR: snprintf(buf, size, "value pair %s", tile); break;
  default: {
    mj_meld m = {MJ_PON, item->tile, 0};
    char text[8];
    mj_tiles t;
    mj_clear(&t);
    mj_meld_tiles(&m, &t);
    if (item->reason == MJ_FU_KAN) t.count[item->tile]++;
    mj_format(&t, text, sizeof text);
    snprintf(buf, size, "%s %s %s", item->closed ? "closed" : "open",
             item->reason == MJ_FU_KAN ? "kan" : "triplet", text);
  }
  }
}

/* ---- messages ---- */

static const char *say(char *message, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *say(char *message, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsnprintf(message, MJ_MESSAGE, fmt, args);
  va_end(args);
  return message;
}

const char *mj_shown(const char *text, size_t len, size_t max, char *buf) {
  size_t n = 0, i = 0;
  while (i < len && n < max) {
    unsigned char c = (unsigned char)text[i];
    size_t size = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                : (c & 0xf8) == 0xf0 ? 4 : 0;
    bool ok = size > 0 && i + size <= len && !(size == 1 && (c < 32 || c == 127));
    for (size_t k = 1; ok && k < size; k++)
      ok = ((unsigned char)text[i + k] & 0xc0) == 0x80;
    if (!ok || n + size > max) {
      buf[n++] = '?';
      i++;
      continue;
    }
    memcpy(buf + n, text + i, size);
    n += size;
    i += size;
  }
  if (i < len) {
    memcpy(buf + n, "...", 3);
    n += 3;
  }
  buf[n] = '\0';
  return buf;
}

/* Hands and melds are short: this shows every one in full. */
#define SHOWN_TEXT 64

const char *mj_parse_message(const char *text, size_t len, mj_error e,
                             const mj_parse_error *err, char *message) {
  char shown[SHOWN_TEXT + 4];
  mj_shown(text, len, SHOWN_TEXT, shown);
  int at = err->at + 1;
  char c = err->at >= 0 && (size_t)err->at < len ? text[err->at] : '?';
  char tile[3];
  switch (e) {
  case MJ_EUNKNOWN:
    if (c >= 32 && c < 127)
      return say(message, "unknown character '%c' at position %d of '%s' "
                 "(tiles are digits followed by m, p, s or z)", c, at, shown);
    return say(message, "unknown byte %d at position %d (tiles are digits "
               "followed by m, p, s or z)", (unsigned char)c, at);
  case MJ_ENOSUIT:
    return say(message, "'%c' at position %d of '%s' has no suit (write m, p, "
               "s or z after the digits)", c, at, shown);
  case MJ_ENODIGIT:
    return say(message, "'%c' at position %d of '%s' follows no digit", c, at,
               shown);
  case MJ_EHONOR:
    return say(message, "'%cz' at position %d of '%s' is not a tile (honors "
               "are 1z to 7z)", c, at, shown);
  case MJ_EFIFTH:
    mj_tile_name(err->kind, false, tile);
    return say(message, "a fifth %s at position %d of '%s' (there are four of "
               "each tile)", tile, at, shown);
  default:
    return say(message, "cannot read '%s'", shown);
  }
}

const char *mj_status_message(mj_status status, const mj_tiles *hand,
                              const mj_context *ctx, char *message) {
  switch (status) {
  case MJ_NOT_WINNING: return say(message, "not a winning hand");
  case MJ_NO_YAKU: return say(message, "no yaku");
  case MJ_BAD_COUNT:
    return say(message, "%d concealed tiles with %d meld%s, expected %d",
               hand->n, ctx->nmelds, ctx->nmelds == 1 ? "" : "s",
               14 - 3 * ctx->nmelds);
  case MJ_FIFTH_TILE: return say(message, "hand and melds hold five of a tile");
  case MJ_WIN_NOT_IN_HAND: {
    char tile[3] = "?";
    if (ctx->win >= 0 && ctx->win < MJ_KINDS) mj_tile_name(ctx->win, false, tile);
    return say(message, "the winning tile %s is not in the hand (the hand "
               "includes it)", tile);
  }
  case MJ_OPEN_RIICHI: return say(message, "riichi with an open hand");
  case MJ_IPPATSU_WITHOUT_RIICHI: return say(message, "ippatsu without riichi");
  case MJ_URA_WITHOUT_RIICHI:
    return say(message, "ura dora indicators without riichi");
  case MJ_TSUMO_ONLY:
    return say(message, "haitei, rinshan, tenhou and chiihou need tsumo = true");
  case MJ_RON_ONLY:
    return say(message, "houtei and chankan are won by ron, not tsumo");
  case MJ_TENHOU_NOT_DEALER:
    return say(message, "tenhou is the dealer's (seat \"E\"), chiihou another's");
  case MJ_FIRST_TURN_OPEN: return say(message, "tenhou and chiihou take no melds");
  case MJ_RINSHAN_WITHOUT_KAN: return say(message, "rinshan without a kan");
  case MJ_NOT_LAST_TILE:
    return ctx->rinshan
           ? say(message, "haitei and rinshan: a replacement tile after a kan "
                 "is not the last tile of the wall (rinshan alone counts)")
           : say(message, "houtei and chankan: the tile of an added kan is not "
                 "the last discard (chankan alone counts)");
  case MJ_BAD_CONTEXT: return say(message, "the context is out of range");
  default: return say(message, "cannot score this hand");
  }
}
