/*
** tenhou.h: Tenhou's game logs, read (tenhou.c) and replayed through the
** round with every recorded result checked (replay.c).
**
** Both forms Tenhou writes are read: the mjlog XML (<mjloggm>: INIT,
** draws T U V W, discards D E F G, calls N with their packed m, REACH,
** DORA, AGARI, RYUUKYOKU, owari) and the tenhou.net/6 JSON ({"log":
** [[round, scores, dora, ura, then each seat's deal, draws and
** discards, result], ...]}), one game at a time from a byte buffer.
** A JSON game may be split over several documents, one a round, as
** some tools write them: documents that follow on (the same players,
** the first round not East 1 with no honba) join the game before them.
**
** The JSON form keeps each seat's draws and discards apart, so their
** order is found again by playing them through a round: who calls a
** discard, when the same tile is discarded twice running, is a choice
** tried and taken back when it leads nowhere.  Its tiles are kinds, so
** each gets a copy not in play (the red one for a red five).
**
** What a reader gives is a list of steps for the round (mj_act), each
** maybe ending on a result as the log records it (a win with its han,
** fu, points, yaku and score changes; a draw of the round with its
** changes), the rounds' starts, and the game's final scores.
*/
#ifndef LUDUS_MAHJONG_TENHOU_H
#define LUDUS_MAHJONG_TENHOU_H

#include <stddef.h>

#include "mahjong/round.h"

#define MJ_LOG_NAME 64
#define MJ_LOG_TEXT 200

enum { MJ_LOG_MJLOG, MJ_LOG_JSON };

/* A result as the log records it; what it does not record is -1 or
   false. */
typedef struct mj_log_result {
  int end;                    /* mj_round_end */
  int who, from, pao;         /* a win (pao: -1 none) */
  int han, fu;                /* JSON leaves fu and han out at limits */
  int limit;                  /* Tenhou's: 0 none, 1 mangan ... 5 yakuman */
  int points;                 /* mjlog: a ron's or a tsumo's whole, without
                                 honba and sticks */
  int ron, tsumo_dealer, tsumo_other, tsumo_all;   /* JSON, likewise */
  bool yakuman;
  int nyaku;
  struct { uint8_t id, han; } yaku[24];   /* Tenhou's yaku ids */
  int unknown_yaku;           /* names the reader did not know */
  bool has_deltas;
  int deltas[MJ_SEATS];       /* what the result moved */
  bool has_before;
  int before[MJ_SEATS];       /* mjlog: the scores before it */
  int honba, sticks;          /* mjlog's ba */
  int ndora, nura;
  uint8_t dora[MJ_MAX_KANS + 1], ura[MJ_MAX_KANS + 1];
  int nhand;                  /* mjlog: the winner's concealed tiles */
  uint8_t hand[14];
  int machi;                  /* mjlog: the winning tile */
  int shown;                  /* a draw: the seats that showed a ready
                                 hand, a bit each; -1 unknown */
} mj_log_result;

typedef struct mj_log_event {
  mj_act act;
  int16_t result;             /* the result the step ends on, or -1 */
} mj_log_event;

typedef struct mj_log_round {
  int round, honba, sticks;
  int scores[MJ_SEATS];
  uint8_t hands[MJ_SEATS][13];
  uint8_t dora;               /* the first indicator */
  int nkan_dora;              /* the kan dora indicators, in order: the
                                 replay reveals each when the round says
                                 one is due */
  uint8_t kan_dora[MJ_MAX_KANS];
  int first_event, nevents;
  int first_result, nresults;
} mj_log_round;

typedef struct mj_log {
  int format;                 /* MJ_LOG_MJLOG, MJ_LOG_JSON */
  char names[MJ_SEATS][MJ_LOG_NAME];
  mj_round_rules rules;
  bool has_final;
  int final_scores[MJ_SEATS];
  int final_points[MJ_SEATS]; /* tenths of a thousand */
  mj_log_round *rounds;
  mj_log_event *events;
  mj_log_result *results;
  int nrounds, nevents, nresults;
  int cap_rounds, cap_events, cap_results;
} mj_log;

/* Where reading or replaying stopped: a round (-1: before any) and a
   step in it (-1: none), and why. */
typedef struct mj_log_error {
  int round, event;
  char text[MJ_LOG_TEXT];
} mj_log_error;

void mj_log_init(mj_log *log);
void mj_log_free(mj_log *log);

/* MJ_LOG_MJLOG or MJ_LOG_JSON for text that looks like one, else -1. */
int mj_log_sniff(const char *data, size_t len);

/* The bytes of the game at or after *at, found without reading it
   (an <mjloggm> element, or JSON documents that follow on); *at moves
   past it.  false at the end of the data. */
bool mj_log_next(const char *data, size_t len, size_t *at, size_t *start,
                 size_t *end);

/* Reads one game (the bytes mj_log_next found) into log, which keeps its
   memory from one game to the next.  false with err when the text is
   not a game that can be played. */
bool mj_log_read(mj_log *log, const char *text, size_t len,
                 mj_log_error *err);

/* Tenhou's yaku id of a ludus yaku (mj_yaku) in a round, and back
   (-1: none; renhou, 36, has none). */
int mj_tenhou_yaku(int yaku, int seat_wind, int round_wind);
int mj_yaku_of_tenhou(int id);
/* The name Tenhou gives a yaku id: "平和". */
const char *mj_tenhou_yaku_name(int id);

/* ---- the replay ---- */

#define MJ_REPLAY_NOTES 16

typedef struct mj_replay {
  int rounds;                 /* rounds played */
  int wins, draws;            /* results checked */
  int checks;                 /* values compared */
  int disagreements;
  int nnotes;
  mj_log_error notes[MJ_REPLAY_NOTES];   /* the first disagreements */
  bool failed;                /* a step could not be played */
  mj_log_error error;
  mj_game game;               /* where the game got to */
  int scores[MJ_SEATS], place[MJ_SEATS], points[MJ_SEATS];  /* final */
} mj_replay;

/* Called after every step played (event: its index in the log), and
   once at the start of each round (event -1), with the round as it is. */
typedef void (*mj_replay_hook)(void *data, const mj_log *log, int round,
                               int event, const mj_round *r);

/* Plays every round of log and compares every result, score change and
   final score with the log's.  false when a step could not be played
   (out->error says where); disagreements do not stop it. */
bool mj_replay_log(const mj_log *log, mj_replay *out, mj_replay_hook hook,
                   void *data);

/* "round S2-1, step 57 (ron by seat 3)": where an error or a note is. */
void mj_log_where(const mj_log *log, const mj_log_error *e, char *buf,
                  size_t size);

/* ---- logs.c: the batch tasks (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task mj_batch_replay, mj_batch_annotate;

#endif
