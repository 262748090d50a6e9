/*
** table.h: four players at one table.  The table deals each round from a
** seeded wall, makes the steps that need no choice (draws, the end of a
** round, the next round) and stops at each decision, with the seat to
** ask and its options (mj_round_options); the caller answers with one of
** them (or a pass on an open tile), and the table goes on.  On an open
** tile every seat with an option is asked before any is played: rons
** first (in turn from the discarder, as the rules allow), then a pon or
** kan, then a chi.
**
** What was played is kept as a record (each round's start, its wall and
** its steps) that record.c writes as tenhou.net/6 JSON.
*/
#ifndef LUDUS_MAHJONG_TABLE_H
#define LUDUS_MAHJONG_TABLE_H

#include <stddef.h>

#include "mahjong/round.h"

typedef struct mj_record_round {
  mj_round_setup setup;       /* setup.wall is NULL: the wall is below */
  uint8_t wall[MJ_TILES];
  int first_act, nacts;
  mj_round_result result;
  int dora[MJ_MAX_KANS + 1], ndora;   /* revealed by the end */
} mj_record_round;

/* A game as played: enough to play it again step by step. */
typedef struct mj_record {
  mj_round_rules rules;
  mj_record_round *rounds;
  mj_act *acts;
  int nrounds, nacts, cap_rounds, cap_acts;
  bool over;
  int scores[MJ_SEATS], place[MJ_SEATS], points[MJ_SEATS];   /* final */
} mj_record;

typedef enum mj_ask {
  MJ_ASK_NONE,                /* the game is over */
  MJ_ASK_TURN,                /* the seat's own turn: a discard, or tsumo,
                                 a kan, nine terminals */
  MJ_ASK_CLAIM                /* an open tile: ron, pon, kan, chi or pass */
} mj_ask;

typedef struct mj_table {
  mj_round_rules rules;
  uint64_t seed;
  mj_game game;
  mj_round round;
  bool in_round;
  int ask;                    /* mj_ask */
  int seat;                   /* the seat asked */
  mj_act options[MJ_MAX_OPTIONS];
  int noptions;
  bool claim_open;            /* the answers to an open tile are coming */
  bool answered[MJ_SEATS];
  mj_act answer[MJ_SEATS];    /* MJ_ACT_PASS: none */
  struct mj_table_hand {      /* each hand's shanten and waits, while it
                                 stays as it is (held: its tiles) */
    uint64_t held[3];
    uint64_t waits;
    int tiles;
    int shanten;              /* or a bound, when not exact (table.c) */
    bool exact;
    bool current;             /* no step of the seat since held was taken
                                 (without the tile `without`) */
    uint8_t without;
  } hands[MJ_SEATS];
  mj_record record;
} mj_table;

void mj_table_init(mj_table *t, const mj_round_rules *rules, uint64_t seed);
void mj_table_free(mj_table *t);

/* Plays on to the next decision (t->ask, t->seat, t->options); false
   when the game is over, or when memory ran out (t->ask is MJ_ASK_NONE
   either way; t->record.over says which). */
bool mj_table_next(mj_table *t);

/* Answers the decision with option i, or -1 for a pass (an open tile
   only).  false when i is not an answer. */
bool mj_table_choose(mj_table *t, int i);

/* The wall of round n of a game from seed. */
void mj_table_wall(uint64_t seed, int n, uint8_t wall[MJ_TILES]);

/* ---- record.c: the record as tenhou.net/6 JSON ---- */

/* Writes the record as one JSON document (names: four UTF-8 strings, or
   NULL).  The text is malloc'd, its length in *len; NULL when memory ran
   out or a step of the record cannot be played again. */
char *mj_record_json(const mj_record *rec, const char *const names[MJ_SEATS],
                     size_t *len);

#endif
