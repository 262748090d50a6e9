/*
** yaku.c: the yaku of a hand read one way, by Tenhou's rules.  What
** depends only on the tiles (one suit, all simples, the honors held) is
** found once per hand in the facts; what depends on the reading (pinfu,
** peikou, chanta, sanshoku, concealed triplets) per shape.
*/
#include <string.h>

#include "mahjong/internal.h"

static const struct { const char *name, *ja; } names[MJ_YAKU_COUNT] = {
  {"riichi", "立直"}, {"double_riichi", "ダブル立直"}, {"ippatsu", "一発"},
  {"menzen_tsumo", "門前清自摸和"}, {"pinfu", "平和"}, {"tanyao", "断幺九"},
  {"iipeikou", "一盃口"}, {"yakuhai_haku", "役牌 白"},
  {"yakuhai_hatsu", "役牌 發"}, {"yakuhai_chun", "役牌 中"},
  {"yakuhai_seat_wind", "自風牌"}, {"yakuhai_round_wind", "場風牌"},
  {"haitei", "海底摸月"}, {"houtei", "河底撈魚"}, {"rinshan", "嶺上開花"},
  {"chankan", "槍槓"}, {"chiitoitsu", "七対子"}, {"chanta", "混全帯幺九"},
  {"ittsu", "一気通貫"}, {"sanshoku_doujun", "三色同順"},
  {"sanshoku_doukou", "三色同刻"}, {"sankantsu", "三槓子"},
  {"toitoi", "対々和"}, {"sanankou", "三暗刻"}, {"shousangen", "小三元"},
  {"honroutou", "混老頭"}, {"ryanpeikou", "二盃口"},
  {"junchan", "純全帯幺九"}, {"honitsu", "混一色"}, {"chinitsu", "清一色"},
  {"dora", "ドラ"}, {"ura_dora", "裏ドラ"}, {"aka_dora", "赤ドラ"},
  {"kokushi", "国士無双"}, {"kokushi_13", "国士無双十三面待ち"},
  {"suuankou", "四暗刻"}, {"suuankou_tanki", "四暗刻単騎"},
  {"daisangen", "大三元"}, {"shousuushii", "小四喜"},
  {"daisuushii", "大四喜"}, {"tsuuiisou", "字一色"},
  {"chinroutou", "清老頭"}, {"ryuuiisou", "緑一色"},
  {"chuuren", "九蓮宝燈"}, {"chuuren_9", "純正九蓮宝燈"},
  {"suukantsu", "四槓子"}, {"tenhou", "天和"}, {"chiihou", "地和"},
};

const char *mj_yaku_name(int yaku) {
  return yaku >= 0 && yaku < MJ_YAKU_COUNT ? names[yaku].name : NULL;
}

const char *mj_yaku_name_ja(int yaku) {
  return yaku >= 0 && yaku < MJ_YAKU_COUNT ? names[yaku].ja : NULL;
}

static bool is_green(int k) {
  return k == 19 || k == 20 || k == 21 || k == 23 || k == 25 || k == MJ_GREEN;
}

void mj_find_facts(const mj_tiles *hand, const mj_context *ctx, mj_facts *f) {
  memset(f, 0, sizeof *f);
  memcpy(f->all, hand->count, sizeof f->all);
  int red = hand->red[0] + hand->red[1] + hand->red[2];
  for (int i = 0; i < ctx->nmelds; i++) {
    const mj_meld *m = &ctx->meld[i];
    mj_tiles t;
    mj_clear(&t);
    mj_meld_tiles(m, &t);
    for (int k = 0; k < MJ_KINDS; k++) f->all[k] = (uint8_t)(f->all[k] + t.count[k]);
    f->open |= m->kind != MJ_ANKAN;
    f->kans += m->kind == MJ_KAN || m->kind == MJ_ANKAN;
    red += m->red;
  }
  for (int i = 0; i < ctx->ndora; i++) f->dora += f->all[mj_dora_of(ctx->dora[i])];
  if (ctx->riichi || ctx->double_riichi)
    for (int i = 0; i < ctx->nura; i++) f->ura += f->all[mj_dora_of(ctx->ura[i])];
  f->aka = ctx->rules.aka ? red : 0;
  f->green = true;
  for (int k = 0; k < MJ_KINDS; k++) {
    int c = f->all[k];
    if (!c) continue;
    if (MJ_IS_HONOR(k)) f->honors = true;
    else f->suits |= 1 << MJ_SUIT(k);
    if (!MJ_IS_ORPHAN(k)) f->simples = true;
    if (MJ_IS_TERMINAL(k)) f->terminals = true;
    if (!is_green(k)) f->green = false;
    if (k >= MJ_WHITE) {
      f->dragon_sets += c >= 3;
      f->dragon_pair += c == 2;
    } else if (k >= MJ_EAST) {
      f->wind_sets += c >= 3;
      f->wind_pair += c == 2;
    }
  }
}

static void add(mj_yaku_list *out, int yaku, int han) {
  out->item[out->n].yaku = (uint8_t)yaku;
  out->item[out->n].han = (uint8_t)han;
  out->n++;
  out->han += han;
}

static bool has_set(const mj_shape *s, int kind, int tile) {
  for (int i = 0; i < s->nsets; i++)
    if (s->set[i].tile == tile &&
        (kind == SET_SEQUENCE ? s->set[i].kind == SET_SEQUENCE
                              : s->set[i].kind != SET_SEQUENCE))
      return true;
  return false;
}

/* 1112345678999 in one suit, closed, no kan; *pure when those were the
   13 tiles before the winning one (nine-sided). */
static bool is_chuuren(const mj_facts *f, const mj_context *ctx, int win,
                       bool *pure) {
  static const int pattern[9] = {3, 1, 1, 1, 1, 1, 1, 1, 3};
  if (ctx->nmelds || f->honors || (f->suits & (f->suits - 1))) return false;
  int base = win - win % 9;
  *pure = true;
  for (int i = 0; i < 9; i++) {
    int c = f->all[base + i];
    if (c < pattern[i]) return false;
    if (c - (base + i == win) != pattern[i]) *pure = false;
  }
  return true;
}

static int closed_sets(const mj_shape *s) {
  int n = 0;
  for (int i = 0; i < s->nsets; i++)
    n += s->set[i].kind != SET_SEQUENCE && s->set[i].closed;
  return n;
}

static void find_yakuman(const mj_facts *f, const mj_context *ctx,
                         const mj_shape *s, mj_yaku_list *out) {
  int twice = ctx->rules.double_yakuman ? 26 : 13;
  if (ctx->tenhou) add(out, MJ_TENHOU, 13);
  if (ctx->chiihou) add(out, MJ_CHIIHOU, 13);
  if (s->form == MJ_KOKUSHI) {
    if (f->all[s->win] == 2) add(out, MJ_KOKUSHI_13, twice);
    else add(out, MJ_KOKUSHI_YAKU, 13);
  }
  if (s->form == MJ_STANDARD) {
    if (closed_sets(s) == 4) {
      if (s->wait == MJ_TANKI) add(out, MJ_SUUANKOU_TANKI, twice);
      else add(out, MJ_SUUANKOU, 13);
    }
    if (f->dragon_sets == 3) add(out, MJ_DAISANGEN, 13);
    if (f->wind_sets == 4) add(out, MJ_DAISUUSHII, twice);
    else if (f->wind_sets == 3 && f->wind_pair) add(out, MJ_SHOUSUUSHII, 13);
    if (f->kans == 4) add(out, MJ_SUUKANTSU, 13);
    if (!f->honors && !f->simples) add(out, MJ_CHINROUTOU, 13);
    bool pure;
    if (is_chuuren(f, ctx, s->win, &pure))
      add(out, pure ? MJ_CHUUREN_9 : MJ_CHUUREN, pure ? twice : 13);
  }
  if (!f->suits) add(out, MJ_TSUUIISOU, 13);
  if (f->green) add(out, MJ_RYUUIISOU, 13);
  out->yakuman = out->han / 13;
}

static bool is_value_pair(const mj_context *ctx, int pair) {
  return pair >= MJ_WHITE || pair == ctx->seat || pair == ctx->round;
}

bool mj_is_pinfu_shape(const mj_facts *f, const mj_context *ctx,
                       const mj_shape *s) {
  if (f->open || s->form != MJ_STANDARD || s->wait != MJ_RYANMEN ||
      is_value_pair(ctx, s->pair))
    return false;
  for (int i = 0; i < s->nsets; i++)
    if (s->set[i].kind != SET_SEQUENCE) return false;
  return true;
}

/* Identical concealed sequences, counted by twos. */
static int peikou(const mj_shape *s) {
  int seq[4], n = 0;
  for (int i = 0; i < s->nsets; i++)
    if (s->set[i].kind == SET_SEQUENCE) seq[n++] = s->set[i].tile;
  int pairs = 0;
  /* the concealed sets come sorted by tile */
  for (int i = 0; i + 1 < n; i++) {
    if (seq[i] == seq[i + 1]) {
      pairs++;
      i++;
    }
  }
  return pairs;
}

/* Every set and the pair hold a terminal or an honor, and there is a
   sequence (without one it is honroutou). */
static bool is_chanta(const mj_shape *s) {
  if (!MJ_IS_ORPHAN(s->pair)) return false;
  bool sequence = false;
  for (int i = 0; i < s->nsets; i++) {
    const mj_set *m = &s->set[i];
    if (m->kind == SET_SEQUENCE) {
      sequence = true;
      if (m->tile % 9 != 0 && m->tile % 9 != 6) return false;
    } else if (!MJ_IS_ORPHAN(m->tile)) {
      return false;
    }
  }
  return sequence;
}

static void find_standard(const mj_facts *f, const mj_shape *s, bool closed,
                          mj_yaku_list *out) {
  if (closed) {
    int p = peikou(s);
    if (p == 2) add(out, MJ_RYANPEIKOU, 3);
    else if (p == 1) add(out, MJ_IIPEIKOU, 1);
  }
  if (is_chanta(s)) {
    if (f->honors) add(out, MJ_CHANTA, closed ? 2 : 1);
    else add(out, MJ_JUNCHAN, closed ? 3 : 2);
  }
  for (int suit = 0; suit < 27; suit += 9) {
    if (has_set(s, SET_SEQUENCE, suit) && has_set(s, SET_SEQUENCE, suit + 3) &&
        has_set(s, SET_SEQUENCE, suit + 6))
      add(out, MJ_ITTSU, closed ? 2 : 1);
  }
  for (int n = 0; n < 7; n++) {
    if (has_set(s, SET_SEQUENCE, n) && has_set(s, SET_SEQUENCE, n + 9) &&
        has_set(s, SET_SEQUENCE, n + 18))
      add(out, MJ_SANSHOKU_DOUJUN, closed ? 2 : 1);
  }
  for (int n = 0; n < 9; n++) {
    if (has_set(s, SET_TRIPLET, n) && has_set(s, SET_TRIPLET, n + 9) &&
        has_set(s, SET_TRIPLET, n + 18))
      add(out, MJ_SANSHOKU_DOUKOU, 2);
  }
  if (f->kans == 3) add(out, MJ_SANKANTSU, 2);
  bool sequences = false;
  for (int i = 0; i < s->nsets; i++) sequences |= s->set[i].kind == SET_SEQUENCE;
  if (!sequences) add(out, MJ_TOITOI, 2);
  if (closed_sets(s) == 3) add(out, MJ_SANANKOU, 2);
  if (f->dragon_sets == 2 && f->dragon_pair) add(out, MJ_SHOUSANGEN, 2);
}

void mj_find_yaku(const mj_facts *f, const mj_context *ctx,
                  const mj_shape *s, mj_yaku_list *out) {
  out->n = out->han = out->yakuman = 0;
  find_yakuman(f, ctx, s, out);
  if (out->n) return;
  bool closed = !f->open;
  if (ctx->double_riichi) add(out, MJ_DOUBLE_RIICHI, 2);
  else if (ctx->riichi) add(out, MJ_RIICHI, 1);
  if (ctx->ippatsu) add(out, MJ_IPPATSU, 1);
  if (closed && ctx->tsumo) add(out, MJ_MENZEN_TSUMO, 1);
  if (mj_is_pinfu_shape(f, ctx, s)) add(out, MJ_PINFU, 1);
  if (!f->honors && !f->terminals && (closed || ctx->rules.kuitan))
    add(out, MJ_TANYAO, 1);
  if (f->all[MJ_WHITE] >= 3) add(out, MJ_YAKUHAI_HAKU, 1);
  if (f->all[MJ_GREEN] >= 3) add(out, MJ_YAKUHAI_HATSU, 1);
  if (f->all[MJ_RED] >= 3) add(out, MJ_YAKUHAI_CHUN, 1);
  if (ctx->seat >= 0 && f->all[ctx->seat] >= 3) add(out, MJ_YAKUHAI_SEAT_WIND, 1);
  if (ctx->round >= 0 && f->all[ctx->round] >= 3)
    add(out, MJ_YAKUHAI_ROUND_WIND, 1);
  if (ctx->haitei) add(out, MJ_HAITEI, 1);
  if (ctx->houtei) add(out, MJ_HOUTEI, 1);
  if (ctx->rinshan) add(out, MJ_RINSHAN, 1);
  if (ctx->chankan) add(out, MJ_CHANKAN, 1);
  if (s->form == MJ_CHIITOITSU) add(out, MJ_CHIITOITSU_YAKU, 2);
  else find_standard(f, s, closed, out);
  if (!f->simples) add(out, MJ_HONROUTOU, 2);
  if (f->suits && !(f->suits & (f->suits - 1)))
    add(out, f->honors ? MJ_HONITSU : MJ_CHINITSU,
        f->honors ? (closed ? 3 : 2) : (closed ? 6 : 5));
  if (!out->n) return;
  if (f->dora) add(out, MJ_DORA, f->dora);
  if (f->aka) add(out, MJ_AKA_DORA, f->aka);
  if (f->ura) add(out, MJ_URA_DORA, f->ura);
}
