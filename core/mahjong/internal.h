/*
** internal.h: what yaku.c and score.c share.  A shape is one reading
** of the whole hand with the winning tile placed: the concealed groups
** and the called melds, the pair and the wait.
*/
#ifndef LUDUS_MAHJONG_INTERNAL_H
#define LUDUS_MAHJONG_INTERNAL_H

#include "mahjong/mahjong.h"

enum { SET_SEQUENCE, SET_TRIPLET, SET_KAN };

typedef struct mj_set {
  uint8_t kind;               /* SET_SEQUENCE, SET_TRIPLET, SET_KAN */
  uint8_t tile;               /* the lowest kind */
  bool closed;                /* concealed, and not completed by a ron */
} mj_set;

typedef struct mj_shape {
  int form;                   /* mj_form */
  int nsets;
  mj_set set[4];
  int pair;                   /* MJ_STANDARD */
  int wait;                   /* mj_wait */
  int win;
} mj_shape;

/* What the whole hand shows, whatever the reading. */
typedef struct mj_facts {
  uint8_t all[MJ_KINDS];      /* concealed tiles and melds */
  bool open;                  /* a chi, pon or open kan */
  int kans;
  int dora, ura, aka;         /* han from each */
  int suits;                  /* bit set of the number suits present */
  bool honors, simples, terminals;
  bool green;                 /* only 2s 3s 4s 6s 8s 6z */
  int dragon_sets, wind_sets; /* honors held three or four times */
  int dragon_pair, wind_pair; /* honors held twice */
} mj_facts;

typedef struct mj_yaku_list {
  int n;
  struct { uint8_t yaku, han; } item[24];
  int han;                    /* of them all, dora included */
  int yakuman;                /* multiples of 13 han */
} mj_yaku_list;

void mj_find_facts(const mj_tiles *hand, const mj_context *ctx, mj_facts *f);
/* The yaku of a shape, yakuman alone when there are any; dora are added
   only to another yaku, so out->n == 0 means no yaku. */
void mj_find_yaku(const mj_facts *f, const mj_context *ctx,
                  const mj_shape *s, mj_yaku_list *out);
/* Closed, four sequences, a pair of no value, a two-sided wait: pinfu
   when yaku are counted, and 20 fu on a tsumo even beside a yakuman. */
bool mj_is_pinfu_shape(const mj_facts *f, const mj_context *ctx,
                       const mj_shape *s);

#endif
