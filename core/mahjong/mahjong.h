/*
** mahjong.h: riichi mahjong hand analysis.  Tiles, the text forms that
** write them, the readings of a complete hand (pair and melds, seven
** pairs, thirteen orphans), shanten and waits, and scoring by Tenhou's
** rules: every yaku, fu, han, limits and payments.
**
** A tile kind is a number 0..33: 1m..9m are 0..8, 1p..9p 9..17, 1s..9s
** 18..26 and the honors 1z..7z (east, south, west, north, white, green,
** red) 27..33.  A hand is the count of each kind, with the red fives
** (written 0m, 0p, 0s) counted among the fives and once more in red[].
*/
#ifndef LUDUS_MAHJONG_H
#define LUDUS_MAHJONG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MJ_KINDS 34
#define MJ_HONORS 27          /* the first honor kind, 1z */
#define MJ_MAX_HAND 14        /* concealed tiles at most */

#define MJ_SUIT(k) ((k) / 9)  /* 0 m, 1 p, 2 s, 3 z */
#define MJ_NUMBER(k) ((k) % 9 + 1)
#define MJ_IS_HONOR(k) ((k) >= MJ_HONORS)
#define MJ_IS_TERMINAL(k) (!MJ_IS_HONOR(k) && ((k) % 9 == 0 || (k) % 9 == 8))
#define MJ_IS_ORPHAN(k) (MJ_IS_HONOR(k) || (k) % 9 == 0 || (k) % 9 == 8)

enum { MJ_EAST = 27, MJ_SOUTH, MJ_WEST, MJ_NORTH, MJ_WHITE, MJ_GREEN, MJ_RED };

typedef struct mj_tiles {
  uint8_t count[MJ_KINDS];
  uint8_t red[3];             /* red fives among the fives of m, p, s */
  int n;                      /* tiles in all */
} mj_tiles;

typedef enum mj_error {
  MJ_OK = 0,
  MJ_EUNKNOWN,                /* a character that is no digit, suit or space */
  MJ_ENOSUIT,                 /* a digit with no suit letter after it */
  MJ_ENODIGIT,                /* a suit letter with no digit before it */
  MJ_EHONOR,                  /* 0z, 8z or 9z */
  MJ_EFIFTH,                  /* a fifth copy of a kind */
  MJ_ECOUNT,                  /* the wrong number of tiles for the call */
  MJ_EMELD,                   /* a meld that is no chi, pon or kan */
} mj_error;

typedef struct mj_parse_error {
  int at;                     /* byte offset of the offending character */
  int kind;                   /* the tile concerned (MJ_EFIFTH) */
  int tiles;                  /* tiles read (MJ_ECOUNT) */
} mj_parse_error;

/* ---- tiles (tiles.c) ---- */

void mj_clear(mj_tiles *t);
/* Reads tiles written as digits then a suit, in the compact form
   ("234p45688s11z") or one at a time ("2p3p4p"), in any order, spaces
   allowed between groups.  Never more than 4 of a kind. */
mj_error mj_parse(const char *text, size_t len, mj_tiles *out,
                  mj_parse_error *err);
/* "5m", or "0m" for a red five; buf holds 3 bytes. */
void mj_tile_name(int kind, bool red, char *buf);
/* Reads one tile name ("5m", "0p", "7z"); -1 if it is not one. */
int mj_tile_from_name(const char *name, size_t len, bool *red);
/* The compact form, suits in the order m p s z, red fives first among
   the fives: "0556m11z".  Returns the length. */
int mj_format(const mj_tiles *t, char *buf, size_t size);
/* The tile a dora indicator points at: the next in its suit, 9 -> 1,
   north -> east, red dragon -> white. */
int mj_dora_of(int indicator);

/* ---- melds ---- */

typedef enum mj_meld_kind { MJ_CHI, MJ_PON, MJ_KAN, MJ_ANKAN } mj_meld_kind;

typedef struct mj_meld {
  uint8_t kind;               /* mj_meld_kind */
  uint8_t tile;               /* the lowest kind in it */
  uint8_t red;                /* red fives in it */
} mj_meld;

/* "chi:234m", "pon:555z", "kan:1111p" or "minkan:", "daiminkan:",
   "shouminkan:", "kakan:" (open: the last two as mahjong.read's events
   and a table's views write an added kan), "ankan:1111p" (closed). */
mj_error mj_parse_meld(const char *text, size_t len, mj_meld *out,
                       mj_parse_error *err);
/* Adds the meld's tiles to t (counts only). */
void mj_meld_tiles(const mj_meld *m, mj_tiles *t);
/* "234m" or "1111p"; returns the length. */
int mj_meld_text(const mj_meld *m, char *buf, size_t size);

/* ---- readings of a complete hand (decompose.c) ---- */

typedef enum mj_form { MJ_STANDARD, MJ_CHIITOITSU, MJ_KOKUSHI } mj_form;
typedef enum mj_group_kind { MJ_TRIPLET, MJ_SEQUENCE } mj_group_kind;

typedef struct mj_group {
  uint8_t kind;               /* mj_group_kind */
  uint8_t tile;               /* the lowest kind in it */
} mj_group;

typedef struct mj_reading {
  uint8_t form;               /* mj_form */
  uint8_t pair;               /* MJ_STANDARD: the pair's kind */
  uint8_t n;                  /* groups: melds (standard), pairs (chiitoitsu) */
  mj_group group[7];          /* melds by tile, triplet first; or the pairs */
} mj_reading;

/* No hand of 14 tiles has more readings than this (test_mahjong checks
   every complete one-suit hand). */
#define MJ_MAX_READINGS 16

/* Every distinct reading of count[] as a pair and `melds` melds, in
   order of the pair, then of the melds; with melds == 4, also as seven
   pairs and as thirteen orphans.  Returns how many. */
int mj_decompose(const uint8_t count[MJ_KINDS], int melds, mj_reading *out);
bool mj_is_chiitoitsu(const uint8_t count[MJ_KINDS]);
bool mj_is_kokushi(const uint8_t count[MJ_KINDS]);

/* ---- shanten, waits and ukeire (shanten.c) ---- */

/* Builds the tables on first use (about 0.1 s); later calls return at
   once.  Every function below calls it. */
void mj_shanten_init(void);
/* Tiles from a complete hand of `melds` melds and a pair, less one: -1
   is complete, 0 is ready (tenpai).  A hand of 3k+1 or 3k+2 tiles
   with k = melds (0 to 4).  Here and below count[] is a real hand: at
   most 4 of a kind and 14 tiles. */
int mj_shanten_regular(const uint8_t count[MJ_KINDS], int melds);
int mj_shanten_chiitoitsu(const uint8_t count[MJ_KINDS]);
int mj_shanten_kokushi(const uint8_t count[MJ_KINDS]);
/* The least of the three; seven pairs and thirteen orphans only for a
   hand of 13 or 14 tiles. */
int mj_shanten(const uint8_t count[MJ_KINDS], int tiles);

/* The kinds that lower the shanten of a hand of 3k+1 tiles (the waits
   when it is ready), as a bit set; a kind held four times is never
   one.  *shanten gets the hand's. */
uint64_t mj_ukeire(const uint8_t count[MJ_KINDS], int tiles, int *shanten);

typedef struct mj_discard {
  uint8_t tile;
  int8_t shanten;             /* after the discard */
  uint64_t accepted;          /* kinds that lower it then */
  int unseen;                 /* copies of those not in the 14 tiles */
} mj_discard;

/* For each kind held in a hand of 3k+2 tiles, what discarding it
   leaves; best first (lowest shanten, then most tiles accepted, then
   by kind).  Returns how many. */
int mj_discards(const uint8_t count[MJ_KINDS], int tiles, mj_discard *out);

/* ---- scoring (yaku.c, score.c) ---- */

typedef enum mj_yaku {
  MJ_RIICHI, MJ_DOUBLE_RIICHI, MJ_IPPATSU, MJ_MENZEN_TSUMO, MJ_PINFU,
  MJ_TANYAO, MJ_IIPEIKOU, MJ_YAKUHAI_HAKU, MJ_YAKUHAI_HATSU, MJ_YAKUHAI_CHUN,
  MJ_YAKUHAI_SEAT_WIND, MJ_YAKUHAI_ROUND_WIND, MJ_HAITEI, MJ_HOUTEI,
  MJ_RINSHAN, MJ_CHANKAN, MJ_CHIITOITSU_YAKU, MJ_CHANTA, MJ_ITTSU,
  MJ_SANSHOKU_DOUJUN, MJ_SANSHOKU_DOUKOU, MJ_SANKANTSU, MJ_TOITOI,
  MJ_SANANKOU, MJ_SHOUSANGEN, MJ_HONROUTOU, MJ_RYANPEIKOU, MJ_JUNCHAN,
  MJ_HONITSU, MJ_CHINITSU, MJ_DORA, MJ_URA_DORA, MJ_AKA_DORA,
  MJ_KOKUSHI_YAKU, MJ_KOKUSHI_13, MJ_SUUANKOU, MJ_SUUANKOU_TANKI,
  MJ_DAISANGEN, MJ_SHOUSUUSHII, MJ_DAISUUSHII, MJ_TSUUIISOU, MJ_CHINROUTOU,
  MJ_RYUUIISOU, MJ_CHUUREN, MJ_CHUUREN_9, MJ_SUUKANTSU, MJ_TENHOU,
  MJ_CHIIHOU,
  MJ_YAKU_COUNT
} mj_yaku;

const char *mj_yaku_name(int yaku);       /* "sanshoku_doujun" */
const char *mj_yaku_name_ja(int yaku);    /* "三色同順" */

typedef struct mj_rules {
  bool kuitan;                /* open tanyao counts (true) */
  bool aka;                   /* red fives are dora (true) */
  bool kiriage;               /* 4 han 30 fu and 3 han 60 fu are mangan */
  bool double_yakuman;        /* 13-sided kokushi, suuankou tanki, 9-sided
                                 chuuren and daisuushii count twice (true) */
  bool kazoe;                 /* 13 han and more is a yakuman (true), else
                                 sanbaiman */
  bool open_pinfu_fu;         /* an open hand with 20 fu on ron scores 30
                                 (true) */
} mj_rules;

void mj_default_rules(mj_rules *rules);

#define MJ_MAX_INDICATORS 10
#define MJ_MAX_STICKS 99      /* honba and riichi sticks at most: the
                                 payments stay far inside an int */

typedef struct mj_context {
  int win;                    /* the winning kind; -1: the best of the hand */
  bool tsumo, riichi, double_riichi, ippatsu, haitei, houtei, rinshan,
       chankan, tenhou, chiihou;
  int seat, round;            /* MJ_EAST..MJ_NORTH, or -1: none given
                                 (not the dealer, no wind yaku) */
  uint8_t dora[MJ_MAX_INDICATORS], ura[MJ_MAX_INDICATORS];  /* indicators */
  int ndora, nura;
  mj_meld meld[4];
  int nmelds;
  int honba, kyoutaku;         /* 0 to MJ_MAX_STICKS */
  mj_rules rules;
} mj_context;

void mj_default_context(mj_context *ctx);

typedef enum mj_status {
  MJ_SCORED = 0,
  MJ_NOT_WINNING,             /* no reading is complete */
  MJ_NO_YAKU,
  MJ_BAD_COUNT,               /* concealed tiles do not fit the melds */
  MJ_FIFTH_TILE,              /* hand and melds hold a kind 5 times */
  MJ_WIN_NOT_IN_HAND,
  MJ_OPEN_RIICHI,             /* riichi with a chi, pon or open kan */
  MJ_IPPATSU_WITHOUT_RIICHI,
  MJ_URA_WITHOUT_RIICHI,      /* ura dora are shown to a riichi winner only */
  MJ_TSUMO_ONLY,              /* haitei, rinshan, tenhou, chiihou on a ron */
  MJ_RON_ONLY,                /* houtei or chankan on a tsumo */
  MJ_TENHOU_NOT_DEALER,       /* tenhou needs seat east, chiihou another */
  MJ_FIRST_TURN_OPEN,         /* tenhou or chiihou with melds */
  MJ_RINSHAN_WITHOUT_KAN,
  MJ_NOT_LAST_TILE,           /* haitei with rinshan, houtei with chankan:
                                 a replacement draw is not the wall's last
                                 tile, nor a kan's tile the last discard */
  MJ_BAD_CONTEXT,             /* a kind, wind, meld or count out of range */
} mj_status;

typedef enum mj_limit {
  MJ_NO_LIMIT, MJ_MANGAN, MJ_HANEMAN, MJ_BAIMAN, MJ_SANBAIMAN, MJ_YAKUMAN,
  MJ_KAZOE_YAKUMAN
} mj_limit;

typedef enum mj_wait {
  MJ_RYANMEN, MJ_KANCHAN, MJ_PENCHAN, MJ_SHANPON, MJ_TANKI, MJ_KOKUSHI_WAIT
} mj_wait;

typedef enum mj_fu_reason {
  MJ_FU_BASE, MJ_FU_CHIITOITSU, MJ_FU_CLOSED_RON, MJ_FU_TSUMO,
  MJ_FU_OPEN_PINFU, MJ_FU_WAIT, MJ_FU_PAIR, MJ_FU_TRIPLET, MJ_FU_KAN,
} mj_fu_reason;

typedef struct mj_fu_item {
  uint8_t reason;             /* mj_fu_reason */
  uint8_t fu;
  uint8_t tile;               /* the pair, triplet or kan; the wait kind */
  bool closed;                /* of a triplet or kan */
} mj_fu_item;

typedef struct mj_score {
  int han, fu;
  int yakuman;                /* how many yakuman (0: none; kazoe is 1) */
  int nyaku;
  struct { uint8_t yaku, han; } yaku[24];
  int limit;                  /* mj_limit */
  int basic;                  /* basic points: fu * 2^(han+2), capped */
  bool dealer, tsumo;
  /* Payments, honba included: ron from the discarder; on a tsumo the
     dealer's share and each other's (non-dealer win), or each one's
     (dealer win, in tsumo_all). */
  int ron, tsumo_dealer, tsumo_other, tsumo_all;
  int total;                  /* what the winner gets, riichi sticks too */
  int win;                    /* the winning kind used */
  mj_reading reading;         /* the concealed part as read */
  int wait;                   /* mj_wait */
  int nfu;
  mj_fu_item fu_item[12];
} mj_score;

/* Scores hand (the concealed tiles, winning tile included) in ctx: the
   reading and winning tile worth most.  MJ_SCORED, or why not. */
mj_status mj_score_hand(const mj_tiles *hand, const mj_context *ctx,
                        mj_score *out);

/* ---- names and messages (names.c) ----
**
** The words of a context, of a score and of a refusal to score, as
** mahjong.score and the batch tools read and write them; a message
** holds MJ_MESSAGE bytes.
*/

#define MJ_MESSAGE 320

/* The flag named name ("tsumo" ... "chiihou", as mj_context has them),
   or NULL. */
bool *mj_context_flag(mj_context *ctx, const char *name, size_t len);
/* The rule named name ("kuitan", "aka", "kiriage", "double_yakuman",
   "kazoe", "open_pinfu_fu"), or NULL. */
bool *mj_rules_flag(mj_rules *rules, const char *name, size_t len);
/* MJ_EAST .. MJ_NORTH for "E", "S", "W", "N"; -1 for anything else. */
int mj_wind_of(const char *text, size_t len);

const char *mj_limit_name(int limit);     /* "haneman"; NULL: no limit */
const char *mj_wait_name(int wait);       /* "ryanmen" ... "kokushi 13-sided" */
/* A fu item as a score sheet says it: "closed triplet 999m". */
void mj_fu_reason_text(const mj_fu_item *item, const mj_score *s, char *buf,
                       size_t size);
/* Why text did not read as tiles or a meld, with the 1-based position:
   "a fifth 1m at position 5 of '11111m'".  Returns message. */
const char *mj_parse_message(const char *text, size_t len, mj_error e,
                             const mj_parse_error *err, char *message);
/* Why a hand does not score: "no yaku", "riichi with an open hand" ... */
const char *mj_status_message(mj_status status, const mj_tiles *hand,
                              const mj_context *ctx, char *message);
/* Text from outside as a message may show it: at most `max` bytes,
   control bytes and what is not UTF-8 as '?', "..." when cut; buf holds
   max + 4 bytes.  Returns buf. */
const char *mj_shown(const char *text, size_t len, size_t max, char *buf);

/* ---- the context of a win, read from text (context.c) ----
**
** What mahjong.score takes, written outside Lua: a line of words,
**
**   234p234m45688s win=6s tsumo riichi seat=E dora=1m melds=chi:234m
**
** or a JSON object with the hand and the fields of mahjong.score's
** context table, alone or as the "request" of a reference record:
**
**   {"hand": "234p234m45688s", "win": "6s", "tsumo": true, "dora": ["1m"]}
**   {"request": {"hand": ...}, "expect": {...}}
**
** A reader fills an mj_request, or writes to message (MJ_MESSAGE bytes)
** what is wrong, naming the field and saying what would be right.  The
** hand's tiles are left to mj_parse, so that a hand that cannot be read
** is refused like one that cannot score.
*/

struct json_value;

typedef struct mj_request {
  const char *hand;           /* the hand's text, inside what was read */
  size_t hand_len;
  mj_context ctx;
} mj_request;

/* The words form: the hand (groups of tiles, with no other character),
   then words separated by spaces: win=6s, the flags (tsumo, ron, riichi,
   double_riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou,
   chiihou), seat=E, round=S, dora=1m5p and ura=... (indicators),
   melds=chi:234m,pon:555z, honba=2, kyoutaku=1, and the rules (kuitan,
   aka, kiriage, double_yakuman, kazoe, open_pinfu_fu) by name to turn
   one on, with no_ before it to turn it off.  Each at most once. */
bool mj_read_words(const char *text, size_t len, mj_request *out,
                   char *message);
/* The JSON form, from json_parse (core/base/json.h): the fields with
   the values mahjong.score takes (dora and ura a list of tiles or one
   string of them; rules an object), null for a field not given, "id"
   passed over.  out->hand points into value. */
bool mj_read_json(const struct json_value *value, mj_request *out,
                  char *message);

/* ---- batch.c: the task of the batch tools (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task mj_batch_solve;

#endif
