/*
** xiangqi.h: Chinese chess.
**
** The board is a 16x16 mailbox: file f (0..8, a..i) and rank r (0..9,
** red's back rank is 0) live at square (r + 3) * 16 + f + 3, and every
** other byte holds XQ_OFF, so a horse's or an elephant's jump off the
** edge lands on a border that is never a target.  Each piece has a fixed
** id for the whole game: 16..31 red, 32..47 black, within a side 0 the
** general, 1-2 advisors, 3-4 elephants, 5-6 horses, 7-8 chariots, 9-10
** cannons, 11-15 soldiers.  board[square] is the id standing there (0
** when empty) and square[id] where an id stands (0 once captured).
**
** Positions since the last capture are kept (their keys and the moves
** between them) so that repetitions can be judged: a capture makes every
** earlier position unreachable.
*/
#ifndef XIANGQI_H
#define XIANGQI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/game.h"
#include "base/limit.h"

enum { XQ_RED, XQ_BLACK };

typedef enum xq_kind {
  XQ_KING, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_ROOK, XQ_CANNON, XQ_PAWN,
  XQ_KINDS
} xq_kind;

#define XQ_OFF 64                 /* board bytes outside the 9x10 points */
#define XQ_HISTORY 256            /* a power of two */
#define XQ_MAX_MOVES 128          /* no position has more (111 is known) */

/* Rules a position is judged by (xq_status); perft ignores them all. */
#define XQ_RULE_REPETITION 1      /* third occurrence: perpetual check
                                     or chase loses, else a draw */
#define XQ_RULE_MOVE_LIMIT 2      /* 120 plies without a capture: a draw */
#define XQ_RULES_ALL (XQ_RULE_REPETITION | XQ_RULE_MOVE_LIMIT)

#define XQ_NO_CAPTURE_LIMIT 120

/* The largest move number or clock a FEN may give. */
#define XQ_MAX_COUNTER 999999999

/* A move is from | to << 8, both board squares. */
typedef uint16_t xq_move;
#define XQ_FROM(m) ((int)((m) & 0xff))
#define XQ_TO(m) ((int)((m) >> 8))
#define XQ_MOVE(from, to) ((xq_move)((from) | (to) << 8))

typedef struct xq_position {
  uint8_t board[256];
  uint8_t square[48];
  uint64_t key;                   /* Zobrist: pieces and side to move */
  uint8_t turn;                   /* XQ_RED or XQ_BLACK */
  uint8_t rules;                  /* XQ_RULE_* */
  uint32_t fullmove;              /* FEN's move number */
  uint32_t quiet;                 /* plies since the last capture */
  uint32_t window;                /* plies since then that history holds */
  uint32_t ply;                   /* plies since the history started */
  /* history[ply % XQ_HISTORY] is this position's key, moves[i] the move
     that led to history[i]; the last `window` plies count. */
  uint64_t history[XQ_HISTORY];
  xq_move moves[XQ_HISTORY];
} xq_position;

/* What make overwrote: the history's slot held the position 256 plies
   back, which unmake puts back so that a game taken back past that far
   still sees its repetitions. */
typedef struct xq_undo {
  uint64_t old_key;               /* the slot's key before the move */
  uint32_t quiet, window;         /* before a capture */
  xq_move old_move;               /* the slot's move before the move */
  uint8_t captured;               /* id, or 0 */
  uint8_t unused[5];
} xq_undo;

/* ---- board.c ---- */

static inline int xq_square(int file, int rank) {
  return (rank + 3) * 16 + file + 3;
}
static inline int xq_file(int square) { return (square & 15) - 3; }
static inline int xq_rank(int square) { return (square >> 4) - 3; }
static inline bool xq_on_board(int square) {
  return square >= 0 && square < 256 && xq_file(square) >= 0 &&
         xq_file(square) < 9 && xq_rank(square) >= 0 && xq_rank(square) < 10;
}

/* The side (16 red, 32 black) and kind of a piece id. */
static inline int xq_side_of(int id) { return id >> 5; }
xq_kind xq_kind_of(int id);
/* 'K', 'A', 'B', 'N', 'R', 'C', 'P' (red) or lower case (black). */
char xq_letter(int id);

/* An empty board: no pieces, red to move, every rule on. */
void xq_clear(xq_position *pos);
/* The start position. */
void xq_init(xq_position *pos);
/* Puts a piece of side and kind on an empty point, taking the next free
   id; false when the side has all its pieces of that kind already. */
bool xq_put(xq_position *pos, int side, xq_kind kind, int square);
/* Recomputes the key and starts the history at this position. */
void xq_reset_history(xq_position *pos);

void xq_make(xq_position *pos, xq_move move, xq_undo *undo);
void xq_unmake(xq_position *pos, xq_move move, const xq_undo *undo);
/* Passes the turn (for null-move pruning); no repetition reaches back
   past a pass. */
void xq_make_null(xq_position *pos, xq_undo *undo);
void xq_unmake_null(xq_position *pos, const xq_undo *undo);

/* Whether side's pieces attack square (a general "attacks" along an
   open file: the flying-general rule). */
bool xq_attacked(const xq_position *pos, int square, int by_side);
/* The squares of side's pieces that attack square: that could take a
   piece standing there, by the moves of their kind (the general's one
   step in its palace, and along an open file to the other general),
   whatever stands there now and whether or not the move would leave
   their own general attacked.  Returns how many (at most 16). */
int xq_attackers(const xq_position *pos, int square, int side, int out[16]);
bool xq_in_check(const xq_position *pos);
/* Whether the side that just moved left its own general attacked. */
bool xq_exposed(const xq_position *pos);

/* ---- movegen.c ---- */

/* Moves by the rules of each piece, some of which may leave one's own
   general attacked; returns how many. */
int xq_pseudo_moves(const xq_position *pos, xq_move *out);
/* Only the captures among them. */
int xq_pseudo_captures(const xq_position *pos, xq_move *out);
/* The legal moves, in a stable order (pieces by id, then directions). */
int xq_legal_moves(const xq_position *pos, xq_move *out);
bool xq_is_legal(const xq_position *pos, xq_move move);
bool xq_has_legal_move(const xq_position *pos);
/* Leaf nodes of the legal move tree, repetition rules ignored; 0 for a
   position without both generals (which no FEN gives). */
uint64_t xq_perft(xq_position *pos, int depth);
/* The same, stopped by limit (when not NULL): then the count is partial. */
uint64_t xq_perft_limited(xq_position *pos, int depth, search_limit *limit);

/* ---- rules.c ---- */

/* Judges the position by its rules: no legal move loses, then the
   repetition and move-limit rules when they are on. */
game_status xq_status(const xq_position *pos);

typedef enum xq_ending {
  XQ_PLAYING, XQ_CHECKMATE, XQ_STALEMATE, XQ_PERPETUAL_CHECK,
  XQ_PERPETUAL_CHASE, XQ_REPETITION, XQ_MOVE_LIMIT
} xq_ending;
/* Why the game ended, and the status it ended with. */
xq_ending xq_ending_of(const xq_position *pos, game_status *status);

/* How an earlier position recurs, for the search: 0 when this position
   has not occurred since the last capture, else 1 and *value is its
   worth for the side to move as the repetition rules judge the cycle
   (-1 a loss, 0 a draw, 1 a win). */
int xq_repeats(const xq_position *pos, int *value);

/* ---- fen.c ---- */

typedef enum xq_fen_error {
  XQ_FEN_OK,
  XQ_FEN_SYNTAX,                  /* not ten ranks of nine points */
  XQ_FEN_PIECE,                   /* an unknown letter */
  XQ_FEN_COUNT,                   /* too many pieces of one kind */
  XQ_FEN_NO_KING,                 /* a side without its general */
  XQ_FEN_PLACE,                   /* a piece where it can never stand */
  XQ_FEN_SIDE,                    /* not w, r or b to move */
  XQ_FEN_CLOCK,                   /* a bad move counter */
  XQ_FEN_CAPTURE_KING             /* the side to move can take the general */
} xq_fen_error;

typedef struct xq_fen_problem {
  xq_fen_error code;
  size_t offset;                  /* where in the text */
  int square;                     /* the point in question, or -1 */
  char letter;                    /* the piece in question */
} xq_fen_problem;

/* Reads a FEN; the position is changed only when it returns XQ_FEN_OK. */
xq_fen_error xq_from_fen(xq_position *pos, const char *fen,
                         xq_fen_problem *problem);
/* A lowercase message for a problem, written as snprintf does. */
size_t xq_fen_message(const xq_fen_problem *problem, char *buf, size_t size);
/* Writes the FEN (with 'B' and 'N'); as snprintf. */
size_t xq_to_fen(const xq_position *pos, char *buf, size_t size);
/* Whether the position is the standard start, side to move and move
   counters included. */
bool xq_is_start(const xq_position *pos);

#define XQ_START_FEN \
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

/* ---- notation.c ---- */

typedef enum xq_notation { XQ_ICCS, XQ_WXF, XQ_CHINESE } xq_notation;

/* Writes a legal move in a notation, as snprintf does. */
size_t xq_format_move(const xq_position *pos, xq_move move,
                      xq_notation notation, char *buf, size_t size);
/* Reads a move in any of the notations: ICCS ("h2e2", "H2-E2"), WXF
   ("C2.5", "R+.3", "H8+7") or Chinese ("炮二平五", "前车平四", "马8进7").
   On failure returns why, with a short lowercase reason in *why. */
game_error xq_parse_move(const xq_position *pos, const char *text,
                         xq_move *move, const char **why);
/* The same, without asking first whether the game is over by its rules:
   a record replays what was played, and its moves after a repetition
   that ended the game still count.  A position with no legal move
   refuses every move. */
game_error xq_read_move(const xq_position *pos, const char *text,
                        xq_move *move, const char **why);

/* ---- text.c, pgn.c, epd.c: record files ----
**
** A reader takes the whole text of a file (which the caller keeps while
** reading) and yields one record at a time, with no allocation per move;
** what it hands back stays valid until the next call.  Moves are read
** in any notation, checked for legality (not for the repetition and
** move-limit rules: a record holds what was played) and kept as moves.
*/

typedef enum xq_encoding {
  XQ_ENCODING_AUTO,               /* found line by line (text.c says how) */
  XQ_ENCODING_UTF8, XQ_ENCODING_GBK, XQ_ENCODING_BIG5
} xq_encoding;
/* "auto", "utf-8", "gbk", "big5", then NULL: by xq_encoding. */
extern const char *const xq_encoding_names[];
/* Whether text[0..size) is valid UTF-8 without zero bytes: what the
   writers write, and so what a tag or an operation given them must be. */
bool xq_is_utf8(const char *text, size_t size);

typedef enum xq_format {
  XQ_FORMAT_PGN,                  /* games: pgn.c */
  XQ_FORMAT_EPD                   /* a position a line: EPD or FEN lines */
} xq_format;
/* The format of a file: by the extension of name (.pgn; .epd, .fen)
   when it has one of those, else by the first line of text that holds
   something: a FEN (nine '/' in its first word) for EPD, else PGN. */
xq_format xq_guess_format(const char *name, const char *text, size_t size);

typedef enum xq_read_status {
  XQ_READ_OK,                     /* a record, read to its end */
  XQ_READ_BAD,                    /* one that could not be: message says
                                     why, and what came before is there */
  XQ_READ_END                     /* no more records */
} xq_read_status;

typedef struct xq_tag {
  const char *name, *value;
} xq_tag;

#define XQ_PGN_MAX_TAGS 64
#define XQ_MAX_PLIES (1 << 20)     /* the longest game a reader takes */

typedef struct xq_pgn_game {
  int number;                     /* 1 for the first game of the text */
  int line;                       /* the line it starts on */
  xq_encoding encoding;           /* UTF-8, or the legacy encoding that a
                                     line of it was read in */
  xq_tag tags[XQ_PGN_MAX_TAGS];   /* in the order of the text (any more
                                     are dropped) */
  int tag_count;
  const char *result;             /* "1-0", "0-1", "1/2-1/2" or "*": the
                                     result token, else [Result]; "" when
                                     neither says */
  xq_position start;              /* [FEN]'s, else the start position */
  xq_position end;                /* after the moves */
  const xq_move *moves;
  int plies;
  /* A bad game: the line and the ply (0: no move) where it went wrong. */
  int error_line, error_ply;
  char message[256];
  /* A move that could not be played: its text, and why ("" else). */
  char error_move[64], error_reason[160];
  /* Where the game's text is: bytes [offset, offset + length) of the
     text read (from the end of the game before; length 0 when the text
     was UTF-16, read converted), for a tool that hands games out. */
  size_t offset, length;
} xq_pgn_game;

typedef struct xq_pgn_reader xq_pgn_reader;

/* A reader of the PGN games of text, in encoding (XQ_ENCODING_AUTO to
   find it); NULL when out of memory. */
xq_pgn_reader *xq_pgn_open(const char *text, size_t size,
                           xq_encoding encoding);
/* Reads the next game: tags, [FEN], the moves (move numbers, comments,
   NAGs and variations skipped) up to a result token or the next game's
   tags.  A game stops at its first bad move, and the next call goes on
   with the next game. */
xq_read_status xq_pgn_next(xq_pgn_reader *reader, xq_pgn_game *game);
void xq_pgn_close(xq_pgn_reader *reader);
/* The value of the last tag of that name, or NULL. */
const char *xq_pgn_tag(const xq_pgn_game *game, const char *name);
/* Writes a game (its tags, result, start and moves; the rest is not
   read) as PGN with moves in notation, as snprintf does: [Game] first
   unless given, [Result] from result ("*" when empty), [FEN] when the
   start is not the standard one (or a [FEN] tag is given), [Format];
   then the moves, wrapped (Chinese: a move pair a line, black's numbers
   in full-width digits), the result token and a blank line.  Writing
   stops at a move that is not legal. */
size_t xq_pgn_write(const xq_pgn_game *game, xq_notation notation,
                    char *buf, size_t size);

#define XQ_EPD_MAX_MOVES 16       /* in bm and am */
#define XQ_EPD_MAX_OPS 32

typedef struct xq_epd_record {
  int number;                     /* 1 for the first record of the text */
  int line;
  xq_encoding encoding;
  xq_position start;              /* the FEN's */
  xq_position end;                /* after the moves, when there are */
  const xq_move *moves;
  int plies;
  xq_move bm[XQ_EPD_MAX_MOVES];   /* best moves */
  int bm_count;
  xq_move am[XQ_EPD_MAX_MOVES];   /* moves to avoid */
  int am_count;
  int dm;                         /* mate in dm moves; 0: not given */
  const char *id;                 /* "" when not given */
  xq_tag ops[XQ_EPD_MAX_OPS];     /* the other operations: name and
                                     operands as written */
  int op_count;
  int error_ply;                  /* a bad move of `moves`, else 0 */
  char message[256];
} xq_epd_record;

typedef struct xq_epd_reader xq_epd_reader;

/* A reader of EPD and FEN lines: a FEN (its first two fields at least;
   the halfmove and move counters may follow, or come as the operations
   hmvc and fmvn), then operations, each `name operands;` (a name begins
   with a letter; a string operand is quoted, with \" and \\): bm, am (moves
   in any notation, legal after the moves), dm (a count), id (a string),
   moves (the moves played from the FEN, to the end of the line unless a
   ';' ends them; "FEN moves h2e2 h9g7" is a FEN line), and any other,
   kept as text.  A line may begin with "position" and "fen", or be
   "startpos moves ..."; blank lines and lines starting with '#' are
   skipped. */
xq_epd_reader *xq_epd_open(const char *text, size_t size,
                           xq_encoding encoding);
xq_read_status xq_epd_next(xq_epd_reader *reader, xq_epd_record *record);
void xq_epd_close(xq_epd_reader *reader);
/* Writes a record as one line, as snprintf does: a record without
   operations as a FEN line ("<FEN> moves ..." when it has moves), else
   as EPD: the FEN's first four fields, hmvc and fmvn when the counters
   are not 0 and 1, moves, bm, am, dm, id and the other operations, in
   notation. */
size_t xq_epd_write(const xq_epd_record *record, xq_notation notation,
                    char *buf, size_t size);

/* ---- render.c ---- */

/* The board drawn with Chinese pieces, the river and file labels (or in
   plain letters when ascii), then whose turn it is; in style (NULL: plain
   text; game.h), as snprintf. */
size_t xq_render(const xq_position *pos, bool ascii, const game_style *style,
                 char *buf, size_t size);

/* ---- eval.c ---- */

/* Material and placement from the side to move, on a scale where a
   chariot is worth about 600: the searches' heuristic. */
int xq_evaluate(const xq_position *pos);

/* ---- the protocol ---- */

extern const game_class xq_class;

/* ---- batch.c: the tasks of the batch tools (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task xq_batch_solve, xq_batch_replay,
    xq_batch_annotate;

#endif
