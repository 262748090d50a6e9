/*
** score.c: fu, han, limits and payments, and the choice of the reading
** and winning tile worth most.  The rules are Tenhou's (the options in
** mj_rules change them); the numbers are the standard tables: basic
** points fu * 2^(han+2), at most 2000 below the limits, a ron paid 4
** times that (6 by the dealer's win), a tsumo once by each other
** player and twice by the dealer, every payment rounded up to 100.
*/
#include <string.h>

#include "mahjong/internal.h"

void mj_default_rules(mj_rules *rules) {
  rules->kuitan = true;
  rules->aka = true;
  rules->kiriage = false;
  rules->double_yakuman = true;
  rules->kazoe = true;
  rules->open_pinfu_fu = true;
}

void mj_default_context(mj_context *ctx) {
  memset(ctx, 0, sizeof *ctx);
  ctx->win = -1;
  ctx->seat = ctx->round = -1;
  mj_default_rules(&ctx->rules);
}

static mj_status check_context(const mj_tiles *hand, const mj_context *ctx,
                               const mj_facts *f) {
  if (hand->n != 14 - 3 * ctx->nmelds) return MJ_BAD_COUNT;
  for (int k = 0; k < MJ_KINDS; k++)
    if (f->all[k] > 4) return MJ_FIFTH_TILE;
  if (ctx->win >= 0 && (ctx->win >= MJ_KINDS || !hand->count[ctx->win]))
    return MJ_WIN_NOT_IN_HAND;
  if ((ctx->riichi || ctx->double_riichi) && f->open) return MJ_OPEN_RIICHI;
  if (ctx->ippatsu && !ctx->riichi && !ctx->double_riichi)
    return MJ_IPPATSU_WITHOUT_RIICHI;
  if (ctx->nura && !ctx->riichi && !ctx->double_riichi)
    return MJ_URA_WITHOUT_RIICHI;
  if (!ctx->tsumo && (ctx->haitei || ctx->rinshan || ctx->tenhou || ctx->chiihou))
    return MJ_TSUMO_ONLY;
  if (ctx->tsumo && (ctx->houtei || ctx->chankan)) return MJ_RON_ONLY;
  if ((ctx->haitei && ctx->rinshan) || (ctx->houtei && ctx->chankan))
    return MJ_NOT_LAST_TILE;
  if ((ctx->tenhou && ctx->seat != MJ_EAST) ||
      (ctx->chiihou && ctx->seat == MJ_EAST))
    return MJ_TENHOU_NOT_DEALER;
  if ((ctx->tenhou || ctx->chiihou) && ctx->nmelds) return MJ_FIRST_TURN_OPEN;
  if (ctx->rinshan && !f->kans) return MJ_RINSHAN_WITHOUT_KAN;
  return MJ_SCORED;
}

/* ---- fu ---- */

static void add_fu(mj_score *out, int reason, int fu, int tile, bool closed) {
  mj_fu_item *item = &out->fu_item[out->nfu++];
  item->reason = (uint8_t)reason;
  item->fu = (uint8_t)fu;
  item->tile = (uint8_t)tile;
  item->closed = closed;
}

static void count_fu(const mj_facts *f, const mj_context *ctx,
                     const mj_shape *s, mj_score *out) {
  out->nfu = 0;
  if (s->form == MJ_KOKUSHI) {
    out->fu = 0;
    return;
  }
  if (s->form == MJ_CHIITOITSU) {
    add_fu(out, MJ_FU_CHIITOITSU, 25, 0, true);
    out->fu = 25;
    return;
  }
  add_fu(out, MJ_FU_BASE, 20, 0, true);
  if (mj_is_pinfu_shape(f, ctx, s) && ctx->tsumo) {
    out->fu = 20;
    return;
  }
  int fu = 20;
  if (!f->open && !ctx->tsumo) {
    add_fu(out, MJ_FU_CLOSED_RON, 10, 0, true);
    fu += 10;
  }
  if (ctx->tsumo) {
    add_fu(out, MJ_FU_TSUMO, 2, 0, true);
    fu += 2;
  }
  if (s->wait == MJ_KANCHAN || s->wait == MJ_PENCHAN || s->wait == MJ_TANKI) {
    add_fu(out, MJ_FU_WAIT, 2, s->win, true);
    fu += 2;
  }
  int pair = (s->pair >= MJ_WHITE ? 2 : 0) + (s->pair == ctx->seat ? 2 : 0) +
             (s->pair == ctx->round ? 2 : 0);
  if (pair) {
    add_fu(out, MJ_FU_PAIR, pair, s->pair, true);
    fu += pair;
  }
  for (int i = 0; i < s->nsets; i++) {
    const mj_set *m = &s->set[i];
    if (m->kind == SET_SEQUENCE) continue;
    int x = 2 * (m->closed ? 2 : 1) * (MJ_IS_ORPHAN(m->tile) ? 2 : 1) *
            (m->kind == SET_KAN ? 4 : 1);
    add_fu(out, m->kind == SET_KAN ? MJ_FU_KAN : MJ_FU_TRIPLET, x, m->tile,
           m->closed);
    fu += x;
  }
  if (fu == 20 && f->open && !ctx->tsumo && ctx->rules.open_pinfu_fu) {
    add_fu(out, MJ_FU_OPEN_PINFU, 10, 0, false);
    fu = 30;
  }
  out->fu = (fu + 9) / 10 * 10;
}

/* ---- points ---- */

static int basic_points(const mj_rules *rules, int han, int fu, int yakuman,
                        int *limit) {
  static const struct { int han, limit, basic; } limits[] = {
    {11, MJ_SANBAIMAN, 6000}, {8, MJ_BAIMAN, 4000}, {6, MJ_HANEMAN, 3000},
    {5, MJ_MANGAN, 2000},
  };
  if (yakuman) {
    *limit = MJ_YAKUMAN;
    return 8000 * yakuman;
  }
  if (han >= 13 && rules->kazoe) {
    *limit = MJ_KAZOE_YAKUMAN;
    return 8000;
  }
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    if (han >= limits[i].han) {
      *limit = limits[i].limit;
      return limits[i].basic;
    }
  }
  int basic = fu << (han + 2);
  if (basic >= 2000 ||
      (rules->kiriage && ((han == 4 && fu == 30) || (han == 3 && fu == 60)))) {
    *limit = MJ_MANGAN;
    return 2000;
  }
  *limit = MJ_NO_LIMIT;
  return basic;
}

static int round_up(int points) {
  return (points + 99) / 100 * 100;
}

static void pay(const mj_context *ctx, mj_score *out) {
  int basic = out->basic, honba = ctx->honba;
  out->dealer = ctx->seat == MJ_EAST;
  out->tsumo = ctx->tsumo;
  out->ron = out->tsumo_dealer = out->tsumo_other = out->tsumo_all = 0;
  if (!ctx->tsumo) {
    out->ron = round_up(basic * (out->dealer ? 6 : 4)) + 300 * honba;
    out->total = out->ron;
  } else if (out->dealer) {
    out->tsumo_all = round_up(basic * 2) + 100 * honba;
    out->total = 3 * out->tsumo_all;
  } else {
    out->tsumo_dealer = round_up(basic * 2) + 100 * honba;
    out->tsumo_other = round_up(basic) + 100 * honba;
    out->total = out->tsumo_dealer + 2 * out->tsumo_other;
  }
  out->total += 1000 * ctx->kyoutaku;
}

/* ---- the best reading ---- */

/* Scores one shape into *trial; true when it has a yaku and is worth
   more than *best (basic points, then han, then fu). */
static bool try_shape(const mj_facts *f, const mj_context *ctx,
                      const mj_shape *s, const mj_score *best, bool have_best,
                      mj_score *trial) {
  mj_yaku_list yaku;
  mj_find_yaku(f, ctx, s, &yaku);
  if (!yaku.n) return false;
  count_fu(f, ctx, s, trial);
  trial->han = yaku.han;
  trial->yakuman = yaku.yakuman;
  trial->basic = basic_points(&ctx->rules, yaku.han, trial->fu, yaku.yakuman,
                              &trial->limit);
  if (trial->limit == MJ_KAZOE_YAKUMAN) trial->yakuman = 1;
  if (have_best &&
      (trial->basic != best->basic ? trial->basic < best->basic
       : trial->han != best->han ? trial->han < best->han
       : trial->fu <= best->fu))
    return false;
  trial->nyaku = yaku.n;
  for (int i = 0; i < yaku.n; i++) {
    trial->yaku[i].yaku = yaku.item[i].yaku;
    trial->yaku[i].han = yaku.item[i].han;
  }
  trial->win = s->win;
  trial->wait = s->wait;
  return true;
}

static int sequence_wait(int tile, int win) {
  int at = win - tile;
  if (at == 1) return MJ_KANCHAN;
  if ((at == 0 && tile % 9 == 6) || (at == 2 && tile % 9 == 0)) return MJ_PENCHAN;
  return MJ_RYANMEN;
}

/* The shape of reading r with the winning tile in group `placed` (-1:
   the pair). */
static void make_shape(const mj_reading *r, const mj_context *ctx, int win,
                       int placed, mj_shape *s) {
  s->form = MJ_STANDARD;
  s->pair = r->pair;
  s->win = win;
  s->nsets = 0;
  s->wait = MJ_TANKI;
  for (int i = 0; i < r->n; i++) {
    mj_set *m = &s->set[s->nsets++];
    m->tile = r->group[i].tile;
    m->kind = r->group[i].kind == MJ_SEQUENCE ? SET_SEQUENCE : SET_TRIPLET;
    m->closed = true;
    if (i != placed) continue;
    if (m->kind == SET_SEQUENCE) {
      s->wait = sequence_wait(m->tile, win);
    } else {
      s->wait = MJ_SHANPON;
      m->closed = ctx->tsumo;
    }
  }
  for (int i = 0; i < ctx->nmelds; i++) {
    const mj_meld *meld = &ctx->meld[i];
    mj_set *m = &s->set[s->nsets++];
    m->tile = meld->tile;
    m->kind = meld->kind == MJ_CHI ? SET_SEQUENCE
              : meld->kind == MJ_PON ? SET_TRIPLET : SET_KAN;
    m->closed = meld->kind == MJ_ANKAN;
  }
}

static bool in_group(const mj_group *g, int win) {
  return g->kind == MJ_SEQUENCE ? win >= g->tile && win <= g->tile + 2
                                : win == g->tile;
}

/* Every placement of win in every reading; true if any had a yaku. */
static bool best_for_win(const mj_facts *f, const mj_context *ctx,
                         const mj_reading *readings, int n, int win,
                         mj_score *best, bool have_best) {
  mj_score trial;
  mj_shape s;
  bool found = false;
  for (int i = 0; i < n; i++) {
    const mj_reading *r = &readings[i];
    if (r->form != MJ_STANDARD) {
      memset(&s, 0, sizeof s);
      s.form = r->form;
      s.win = win;
      s.wait = r->form == MJ_KOKUSHI && f->all[win] == 2 ? MJ_KOKUSHI_WAIT
                                                         : MJ_TANKI;
      s.pair = r->form == MJ_KOKUSHI ? r->pair : win;
      if (try_shape(f, ctx, &s, best, have_best || found, &trial)) {
        trial.reading = *r;
        *best = trial;
        found = true;
      }
      continue;
    }
    for (int placed = -1; placed < r->n; placed++) {
      if (placed < 0 ? r->pair != win : !in_group(&r->group[placed], win))
        continue;
      if (placed > 0 && r->group[placed].tile == r->group[placed - 1].tile &&
          r->group[placed].kind == r->group[placed - 1].kind)
        continue;                     /* the same as the group before */
      make_shape(r, ctx, win, placed, &s);
      if (try_shape(f, ctx, &s, best, have_best || found, &trial)) {
        trial.reading = *r;
        *best = trial;
        found = true;
      }
    }
  }
  return found;
}

/* How many fives a meld holds: its red fives are some of them. */
static int fives_in(const mj_meld *m) {
  if (MJ_IS_HONOR(m->tile)) return 0;
  if (m->kind == MJ_CHI) return m->tile % 9 >= 2 && m->tile % 9 <= 4;
  return m->tile % 9 == 4 ? (m->kind == MJ_PON ? 3 : 4) : 0;
}

/* What a C caller could get wrong that the text forms never give. */
static bool context_in_range(const mj_context *ctx) {
  if (ctx->nmelds < 0 || ctx->nmelds > 4 || ctx->ndora < 0 || ctx->nura < 0 ||
      ctx->ndora > MJ_MAX_INDICATORS || ctx->nura > MJ_MAX_INDICATORS ||
      ctx->honba < 0 || ctx->kyoutaku < 0 || ctx->honba > MJ_MAX_STICKS ||
      ctx->kyoutaku > MJ_MAX_STICKS)
    return false;
  if ((ctx->seat != -1 && (ctx->seat < MJ_EAST || ctx->seat > MJ_NORTH)) ||
      (ctx->round != -1 && (ctx->round < MJ_EAST || ctx->round > MJ_NORTH)))
    return false;
  for (int i = 0; i < ctx->ndora; i++)
    if (ctx->dora[i] >= MJ_KINDS) return false;
  for (int i = 0; i < ctx->nura; i++)
    if (ctx->ura[i] >= MJ_KINDS) return false;
  for (int i = 0; i < ctx->nmelds; i++) {
    const mj_meld *m = &ctx->meld[i];
    if (m->tile >= MJ_KINDS || m->kind > MJ_ANKAN ||
        (m->kind == MJ_CHI && (MJ_IS_HONOR(m->tile) || m->tile % 9 > 6)) ||
        m->red > fives_in(m))
      return false;
  }
  return true;
}

mj_status mj_score_hand(const mj_tiles *hand, const mj_context *ctx,
                        mj_score *out) {
  if (!context_in_range(ctx)) return MJ_BAD_CONTEXT;
  mj_facts f;
  mj_find_facts(hand, ctx, &f);
  mj_status status = check_context(hand, ctx, &f);
  if (status != MJ_SCORED) return status;
  mj_reading readings[MJ_MAX_READINGS];
  int n = mj_decompose(hand->count, 4 - ctx->nmelds, readings);
  if (!n) return MJ_NOT_WINNING;
  memset(out, 0, sizeof *out);
  bool found = false;
  for (int win = 0; win < MJ_KINDS; win++) {
    if (ctx->win >= 0 ? win != ctx->win : !hand->count[win]) continue;
    found |= best_for_win(&f, ctx, readings, n, win, out, found);
  }
  if (!found) return MJ_NO_YAKU;
  pay(ctx, out);
  return MJ_SCORED;
}
