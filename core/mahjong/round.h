/*
** round.h: a round of riichi mahjong for four players, and the game of
** rounds around it (a hanchan or a tonpuusen).
**
** A round is a plain struct changed by steps, each checked before it is
** made: the deal, draws, discards (with riichi), calls (chi, pon, open
** kan), the kans made from the hand (added and closed, each with its
** replacement draw), the kan dora, wins (tsumo, ron, double ron,
** chankan) and the draws of a round (an exhausted wall with tenpai
** payments and nagashi mangan; nine terminals, four winds, four riichi,
** four kans, three rons).  A step that is not allowed changes nothing
** and says why (mj_round_status).  Scores come from mj_score_hand; the
** round gives it what only the round knows: riichi, ippatsu, haitei,
** houtei, rinshan, chankan, tenhou and chiihou, the winds, the dora.
**
** Tiles are numbered 0..135 as Tenhou numbers them: tile t is of kind
** t / 4, and with red fives the first copy of each five (16, 52, 88) is
** red.  Seats are 0..3; seat 0 is the first dealer, and the turn goes
** 0, 1, 2, 3.
**
** The wall is known (a shuffled wall, mj_wall_shuffle: the round deals,
** draws and reveals from it) or unknown (a replayed log: each step names
** its tile, which must be one not seen yet).  A known wall is laid out
** as: wall[0..51] dealt (four tiles to each seat from the dealer, three
** times, then one each), the draws from wall[52] on, and the dead wall
** wall[122..135]: the replacement draws wall[122..125], the dora
** indicators wall[126], [128], ... and the ura indicators under them,
** wall[127], [129], ....
**
** The rules are Tenhou's where nothing says otherwise: red fives, open
** tanyao, double ron (the riichi sticks to the first winner after the
** discarder, honba from each), furiten on a winning tile let pass
** (until the seat's next discard, for good in riichi) whether it had a
** yaku or not, three rons a draw, nagashi mangan, no
** swap-calling (kuikae), riichi with 1000 points and four tiles left
** to draw, the kan dora of a closed kan at once and of an open or
** added kan at the next discard, pao for daisangen and daisuushii,
** tenpai payments of 3000, the dealer staying on a win or tenpai, and
** in the game: 25,000 to start, 30,000 needed at the end (else extra
** rounds, sudden death), a score below zero ends it, the dealer's
** win or tenpai in the last round ends it when he leads with 30,000,
** sticks left to the top, uma 20/10 and oka 20 rounded as Tenhou does.
*/
#ifndef LUDUS_MAHJONG_ROUND_H
#define LUDUS_MAHJONG_ROUND_H

#include "mahjong/mahjong.h"

#define MJ_SEATS 4
#define MJ_TILES 136
#define MJ_NO_TILE 255
#define MJ_MAX_RIVER 48           /* discards of one seat in a round */
#define MJ_MAX_KANS 4

/* The kind of tile t (0..135). */
static inline int mj_tile_kind(int tile) { return tile >> 2; }

typedef struct mj_round_rules {
  mj_rules score;             /* yaku and points (score.aka: red fives are
                                 dora) */
  uint8_t red[3];             /* red fives in the wall, m p s (1 1 1) */
  bool double_ron;            /* two rons on one discard both win (true);
                                 else the first after the discarder */
  bool triple_ron_draw;       /* three rons draw the round (true) */
  bool nagashi;               /* nagashi mangan (true) */
  bool abortive;              /* nine terminals, four winds, four riichi,
                                 four kans (true) */
  bool kuikae;                /* after a call its tile may be discarded
                                 (false) */
  int length;                 /* 1 east (tonpuusen), 2 east-south (hanchan) */
  int start_points;           /* 25000 */
  int target;                 /* 30000: the top needs it at the end (else
                                 extra rounds); oka returns from it */
  bool extra_rounds;          /* sudden death rounds when nobody has the
                                 target (true) */
  bool bust;                  /* a score below zero ends the game (true) */
  bool dealer_stop;           /* the dealer's win or tenpai in the last
                                 round ends it when he leads (true) */
  int uma[4];                 /* points to the places: 20000 10000 -10000
                                 -20000 */
  bool tenhou_rounding;       /* final points in whole thousands as Tenhou
                                 rounds them (true), else exact */
} mj_round_rules;

void mj_round_rules_default(mj_round_rules *rules);

/* The yes-or-no rules by name, as mahjong.table names them
   ("double_ron", "kuitan" ...): the flag, or NULL for no such rule;
   mj_round_flag_name(i) the i-th name, NULL past the last. */
bool *mj_round_rules_flag(mj_round_rules *rules, const char *name, size_t len);
const char *mj_round_flag_name(int i);

/* The 136 tiles in an order that depends only on the seed: a
   Fisher-Yates shuffle of 0..135 with rng_below (core/base/rng.h), from
   the last place down. */
void mj_wall_shuffle(uint8_t wall[MJ_TILES], uint64_t seed);

/* ---- steps ---- */

typedef enum mj_act_type {
  MJ_ACT_DRAW,                /* tile: the tile drawn (a replacement after a
                                 kan); MJ_NO_TILE: the wall's next */
  MJ_ACT_DISCARD,             /* tile; riichi: declared with it */
  MJ_ACT_CHI,                 /* tile: the discard taken; tiles[0..1] from
                                 the hand */
  MJ_ACT_PON,                 /* the same, tiles[0..1] */
  MJ_ACT_KAN,                 /* an open kan of the discard, tiles[0..2] */
  MJ_ACT_KAKAN,               /* tile: added to a pon (a kan then) */
  MJ_ACT_ANKAN,               /* tiles[0..3]: a closed kan */
  MJ_ACT_TSUMO,               /* seat wins on its draw */
  MJ_ACT_RON,                 /* seat wins on the open tile (a discard, or
                                 the tile of an added kan: chankan) */
  MJ_ACT_PASS,                /* nobody takes the open tile */
  MJ_ACT_NINE_TERMINALS,      /* seat ends the round on its first draw */
  MJ_ACT_DORA,                /* tile: a kan dora indicator revealed (an
                                 unknown wall only; a known wall reveals by
                                 itself) */
  MJ_ACT_TYPES
} mj_act_type;

typedef struct mj_act {
  uint8_t type;               /* mj_act_type */
  uint8_t seat;
  uint8_t tile;
  uint8_t tiles[4];
  bool riichi;
} mj_act;

typedef enum mj_round_status {
  MJ_ROUND_OK = 0,
  MJ_RE_OVER,                 /* the round is over */
  MJ_RE_PHASE,                /* not now: another step is due */
  MJ_RE_TURN,                 /* not this seat's turn */
  MJ_RE_SEAT,                 /* no such seat */
  MJ_RE_TILE,                 /* no such tile */
  MJ_RE_SEEN,                 /* the tile is in play already: a fifth copy */
  MJ_RE_WALL,                 /* not the wall's next tile */
  MJ_RE_EMPTY,                /* the wall is empty */
  MJ_RE_NOT_HELD,             /* a tile not in the hand */
  MJ_RE_RIICHI_DISCARD,       /* after riichi, only the tile drawn */
  MJ_RE_KUIKAE,               /* the tile just called, or its other end */
  MJ_RE_RIICHI_OPEN,          /* riichi with a call made */
  MJ_RE_RIICHI_AGAIN,
  MJ_RE_RIICHI_POINTS,        /* riichi with less than 1000 points */
  MJ_RE_RIICHI_LATE,          /* riichi with fewer than 4 tiles to draw */
  MJ_RE_NOT_READY,            /* riichi that is not tenpai */
  MJ_RE_CALL_TILE,            /* the call does not take the open tile */
  MJ_RE_CALL_FROM,            /* chi only from the seat before */
  MJ_RE_CALL_SHAPE,           /* not a sequence, triplet or kan */
  MJ_RE_CALL_RIICHI,          /* a riichi hand calls only ron */
  MJ_RE_CALL_LAST,            /* no call on the last discard */
  MJ_RE_CALL_STUCK,           /* nothing could be discarded after it */
  MJ_RE_KAN_COUNT,            /* no fifth kan */
  MJ_RE_KAN_RIICHI,           /* a kan after riichi that is not allowed */
  MJ_RE_NO_PON,               /* an added kan without its pon */
  MJ_RE_NOT_WINNING,
  MJ_RE_NO_YAKU,
  MJ_RE_FURITEN,
  MJ_RE_RON_ORDER,            /* rons come in turn from the discarder */
  MJ_RE_HEAD_BUMP,            /* a second ron without double ron */
  MJ_RE_NINE,                 /* not nine kinds on a first draw */
  MJ_RE_ENDS,                 /* the round ends here (four riichi, four
                                 kans): only ron or pass */
  MJ_RE_DORA_DUE,             /* a kan dora indicator must come first */
  MJ_RE_NO_DORA,              /* no indicator is due */
  MJ_RE_URA,                  /* ura indicators that do not fit */
  MJ_RE_RIVER,                /* more discards than a round can hold */
  MJ_RE_SCORE,                /* the win cannot be scored */
  MJ_RE_COUNT
} mj_round_status;

/* "draw", "discard", "chi" ... (replay.c). */
const char *mj_act_name(int type);

/* A phrase for a status: "a tile not in the hand". */
const char *mj_round_status_text(int status);

/* ---- the state ---- */

typedef struct mj_round_meld {
  uint8_t kind;               /* MJ_CHI, MJ_PON, MJ_KAN (open, or added to a
                                 pon: added), MJ_ANKAN */
  bool added;
  uint8_t from;               /* the seat the called tile came from (own:
                                 ankan) */
  uint8_t called;             /* that tile (MJ_NO_TILE: ankan) */
  uint8_t n;                  /* tiles: 3 or 4 */
  uint8_t tiles[4];           /* tiles[n - 1] is the added one of a kakan */
} mj_round_meld;

enum {                        /* flags of a discard */
  MJ_DISCARD_TSUMOGIRI = 1,   /* the tile just drawn */
  MJ_DISCARD_RIICHI = 2,      /* riichi declared with it */
  MJ_DISCARD_CALLED = 4,      /* taken by a call (or a ron) */
};

typedef struct mj_round_seat {
  mj_tiles hand;              /* the concealed tiles */
  uint64_t held[3];           /* the same as tile numbers: bit t % 64 of
                                 word t / 64 */
  mj_round_meld meld[4];
  int nmelds;
  uint8_t river[MJ_MAX_RIVER], river_flags[MJ_MAX_RIVER];
  int nriver;
  int score;
  bool riichi, double_riichi, ippatsu;
  bool open;                  /* a chi, pon or open kan */
  bool nagashi;               /* every discard a terminal or honor, none
                                 called */
  uint8_t drawn;              /* the tile just drawn, MJ_NO_TILE if none */
  int8_t pao;                 /* the seat liable for daisangen or
                                 daisuushii, or -1 */
  uint64_t discarded;         /* kinds discarded (furiten) */
  uint64_t passed;            /* kinds let pass since this seat's discard */
  uint64_t passed_kan;        /* the same from added kans (chankan) */
  uint64_t passed_riichi;     /* kinds let pass since riichi */
  uint64_t kuikae;            /* kinds the next discard may not be */
} mj_round_seat;

typedef enum mj_round_phase {
  MJ_PHASE_DRAW,              /* turn draws (a replacement if kan_draw) */
  MJ_PHASE_ACT,               /* turn discards, wins, kans or aborts */
  MJ_PHASE_CLAIM,             /* the open tile may be taken */
  MJ_PHASE_OVER
} mj_round_phase;

typedef enum mj_round_end {
  MJ_END_NONE, MJ_END_WIN, MJ_END_EXHAUSTED, MJ_END_NINE_TERMINALS,
  MJ_END_FOUR_WINDS, MJ_END_FOUR_RIICHI, MJ_END_FOUR_KANS,
  MJ_END_TRIPLE_RON
} mj_round_end;

/* "win", "exhausted", "nine terminals" ... */
const char *mj_round_end_name(int end);

typedef struct mj_round_win {
  int who, from;              /* from == who: tsumo */
  int pao;                    /* the liable seat, or -1 */
  int sticks;                 /* riichi sticks taken, in sticks */
  int deltas[MJ_SEATS];       /* what this win moved, sticks included */
  mj_context ctx;             /* as scored */
  mj_score score;
} mj_round_win;

typedef struct mj_round_result {
  int end;                    /* mj_round_end */
  int nwins;
  mj_round_win win[3];
  int deltas[MJ_SEATS];       /* all it moved (not the riichi sticks paid
                                 during the round) */
  bool tenpai[MJ_SEATS];      /* an exhausted wall: who was ready */
  int nagashi;                /* seats with nagashi mangan, a bit each */
  bool dealer_stays;          /* the dealer keeps the seat */
} mj_round_result;

/* What a round starts from: the game gives it (mj_game_setup), or a log. */
typedef struct mj_round_setup {
  int round;                  /* 0..3 east, 4..7 south, 8..11 west, ... */
  int honba, sticks;
  int scores[MJ_SEATS];
  const uint8_t *wall;        /* 136 tiles, or NULL: unknown */
} mj_round_setup;

typedef struct mj_round {
  mj_round_rules rules;
  int round, dealer, honba, sticks;
  int phase;                  /* mj_round_phase */
  int turn;                   /* the seat to draw or act; in a claim, the
                                 seat that opened the tile */
  mj_round_seat seat[MJ_SEATS];
  bool known_wall;
  uint8_t wall[MJ_TILES];
  uint8_t where[MJ_TILES];    /* MJ_AT_* | seat << 4 */
  bool dealt[MJ_SEATS];
  int draws;                  /* from the live wall */
  int live;                   /* tiles left in the live wall */
  int kans;                   /* kans made */
  int kan_seats;              /* the seats that made them, a bit each */
  uint8_t dora[MJ_MAX_KANS + 1], ura[MJ_MAX_KANS + 1];
  int ndora, nura;
  int dora_at_draw;           /* kan dora to reveal at the next replacement
                                 draw */
  int dora_at_discard;        /* ... at the next discard or closed kan */
  int dora_now;               /* ... at once (a closed kan) */
  bool kan_draw;              /* the next draw is a replacement */
  bool rinshan;               /* the tile drawn is a replacement */
  bool first_go_around;       /* no call yet, and nobody's second turn */
  int first_discards;         /* discards of the first go-around */
  uint8_t first_wind;         /* the kind all four discarded first, or 255 */
  /* the open tile of a claim: a discard, or the tile of an added kan */
  uint8_t open_tile;
  bool open_kan;              /* the open tile is an added kan's */
  bool riichi_pending;        /* the discard declared riichi */
  bool four_kans;             /* the round ends at this discard's pass */
  int rons;                   /* rons declared on the open tile */
  int total;                  /* scores and sticks at the start, for the
                                 invariant */
  mj_round_result result;
} mj_round;

enum {                        /* where a tile is */
  MJ_AT_WALL, MJ_AT_HAND, MJ_AT_RIVER, MJ_AT_MELD, MJ_AT_DORA, MJ_AT_URA
};

/* Starts a round.  With a known wall, deals and reveals the first dora
   indicator; with none, mj_round_deal and mj_round_reveal_first must
   come before the first draw. */
void mj_round_start(mj_round *r, const mj_round_rules *rules,
                    const mj_round_setup *setup);
/* An unknown wall: the 13 tiles dealt to seat, and the first dora
   indicator. */
mj_round_status mj_round_deal(mj_round *r, int seat, const uint8_t tiles[13]);
mj_round_status mj_round_reveal_first(mj_round *r, int tile);
/* An unknown wall: the ura indicators, one under each dora indicator,
   before the win that shows them. */
mj_round_status mj_round_set_ura(mj_round *r, const uint8_t *tiles, int n);

/* Checks a step (nothing changes), or makes it. */
mj_round_status mj_round_check(const mj_round *r, const mj_act *act);
mj_round_status mj_round_play(mj_round *r, const mj_act *act);
/* Makes a step known to be allowed, as a table knows it: a discard
   mj_round_options listed in this very state, the draw of the seat
   whose turn it is, a pass on an open tile.  Those are made without
   their checks (a fifth of a table's steps' cost); any other step is
   checked as mj_round_play does.  Under AddressSanitizer the checks
   run anyway, and a step they refuse aborts. */
mj_round_status mj_round_play_known(mj_round *r, const mj_act *act);

/* What seat may do now (options.c): the steps mj_round_check allows,
   one of each that differs only in which copy of a tile it moves (a red
   five apart from the others; of equal copies, the tile just drawn, else
   the lowest).  Its own turn: tsumo, the discards, the riichi discards,
   the kans, nine terminals.  An open tile: ron, pon, open kan, chi (the
   draw that lets it pass is not listed).  The draws and MJ_ACT_PASS are
   never listed.  Returns how many, at most MJ_MAX_OPTIONS. */
#define MJ_MAX_OPTIONS 64
int mj_round_options(const mj_round *r, int seat, mj_act *out);
/* The same on the seat's own turn, with what is known of its hand
   before the tile drawn: its waits and shanten (mj_round_waits,
   mj_shanten; any number from 2 up when the shanten is known to be at
   least 2, and from 1 up for a hand known not to be ready when the seat
   may not declare riichi (an open hand, or one in riichi already); 99
   when nothing is known).  A table that keeps them from one discard to
   the next spares a shanten at most draws. */
int mj_round_turn_options(const mj_round *r, int seat, uint64_t waits, int shanten,
                          mj_act *out);
/* The same on an open tile, with the waits of the seat's hand known
   (mj_round_waits): a table that keeps them from one discard to the
   next spares a shanten for each seat at each discard. */
int mj_round_claim_options(const mj_round *r, int seat, uint64_t waits,
                           mj_act *out);

/* Whether tile is a red five under the round's rules. */
bool mj_round_red(const mj_round *r, int tile);

/* The seat's wind, MJ_EAST..MJ_NORTH, and the round's. */
int mj_round_seat_wind(const mj_round *r, int seat);
int mj_round_wind(const mj_round *r);
/* Whether a hand (its concealed tiles) is ready, and its waits. */
uint64_t mj_round_waits(const mj_round *r, int seat);
/* Every tile is in one place, hands hold what their melds leave, and
   scores and sticks add up to what they did at the start.  NULL, or
   what is wrong. */
const char *mj_round_invariant(const mj_round *r);

/* ---- the game ---- */

typedef struct mj_game {
  mj_round_rules rules;
  int scores[MJ_SEATS];
  int round, honba, sticks;
  int rounds;                 /* played */
  bool over;
} mj_game;

void mj_game_init(mj_game *g, const mj_round_rules *rules);
/* The next round's start. */
void mj_game_setup(const mj_game *g, mj_round_setup *setup);
/* Takes a finished round's result: scores, honba, sticks, the next
   round, the end of the game. */
void mj_game_next(mj_game *g, const mj_round *r);
/* Final places (0 first) and points in tenths of a thousand (uma and
   oka; the sticks left go to the top, scores[] after that). */
void mj_game_final(const mj_game *g, int scores[MJ_SEATS],
                   int place[MJ_SEATS], int points[MJ_SEATS]);
/* "E1", "S4", "W1" ... (buf of 4 bytes). */
void mj_round_name(int round, char *buf);

#endif
