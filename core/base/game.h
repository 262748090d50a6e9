/*
** game.h: the game protocol.
**
** One table of functions that every two-player, perfect-information,
** turn-based game fills in, so that perft, the searches and the Lua bridge
** are written once.  A position ("state") is plain memory of state_size
** bytes: copying it with memcpy gives an independent position, and two
** equal positions compare equal byte for byte (zero unused bytes).
*/
#ifndef GAME_H
#define GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A move as the game encodes it; the meaning is the game's own. */
typedef uint32_t game_move;
#define GAME_NO_MOVE UINT32_MAX

/* No game may have more legal moves than this in any position. */
#define GAME_MAX_MOVES 256

/* What make saves so that unmake can restore the position exactly
   (flipped discs, a captured piece, an old clock). */
typedef struct game_undo {
  uint64_t word[3];
} game_undo;

typedef enum game_status {
  GAME_ONGOING,
  GAME_WIN_0,         /* the side with index 0 (the side to move first) won */
  GAME_WIN_1,
  GAME_DRAW
} game_status;

/* Why a text is not a move here (parse_move). */
typedef enum game_error {
  GAME_OK,
  GAME_EBADTEXT,      /* not a move in this game's notation */
  GAME_EILLEGAL,      /* a move, but not a legal one in this position */
  GAME_EOVER          /* the game has ended */
} game_error;

/* Scores are from the side to move.  A won game scores GAME_SCORE_WIN
   minus the plies it takes, so faster wins score higher; heuristic
   evaluations stay strictly inside +-GAME_SCORE_EVAL_MAX. */
#define GAME_SCORE_WIN      1000000
#define GAME_SCORE_EVAL_MAX  900000

/* How a position is drawn.  No style (NULL) is the plain text tostring
   gives; color is for a terminal: ANSI colours where they help (the
   pieces of each side), and the last move marked, the same picture
   otherwise (without the escapes it is the plain text). */
typedef struct game_style {
  bool color;
  game_move last;                /* the last move played, or GAME_NO_MOVE */
} game_style;

/* The escapes the renderers use. */
#define GAME_ANSI_RESET "\033[0m"
#define GAME_ANSI_MARK  "\033[7m"     /* reverse video: the last move */
#define GAME_ANSI_DIM   "\033[2m"     /* the empty board */
#define GAME_ANSI_RED   "\033[1;31m"
#define GAME_ANSI_BOLD  "\033[1m"
#define GAME_ANSI_BLUE  "\033[34m"

/* Whether style asks for colour. */
static inline bool game_color(const game_style *style) {
  return style != NULL && style->color;
}

/* Whether style marks move as the last one played. */
static inline bool game_marks(const game_style *style, game_move move) {
  return game_color(style) && style->last != GAME_NO_MOVE && style->last == move;
}

typedef struct game_class {
  const char *name;              /* "tictactoe": module name, messages */
  const char *side[2];           /* "x", "o": side 0 moves first */
  size_t state_size;
  int max_moves;                 /* at most GAME_MAX_MOVES */

  void (*init)(void *state);     /* the standard start position */
  int (*turn)(const void *state);                /* 0 or 1 */
  /* Writes the legal moves to out (at most max_moves) in a stable order
     and returns how many; none once the game is over. */
  int (*moves)(const void *state, game_move *out);
  void (*make)(void *state, game_move move, game_undo *undo);
  void (*unmake)(void *state, game_move move, const game_undo *undo);
  game_status (*status)(const void *state);
  uint64_t (*hash)(const void *state);
  int (*eval)(const void *state);                /* NULL: no heuristic */

  /* Reads one move in the game's notation.  On failure returns why, and
     sets *why to a short lowercase reason ("square is taken"). */
  game_error (*parse_move)(const void *state, const char *text,
                           game_move *move, const char **why);
  /* Writes the move's text, as snprintf does: returns its length. */
  size_t (*format_move)(const void *state, game_move move,
                        char *buf, size_t size);
  /* Draws the position for a person, as snprintf does, in style (NULL:
     plain text); NULL: none. */
  size_t (*render)(const void *state, const game_style *style, char *buf,
                   size_t size);

  /* The board, for code that looks at what stands where; NULL in a game
     whose squares are not named (the binding then does its own).
     squares: how many there are, numbered from 0 in the order the game
     lists them (a1, b1, ...); parse_square: the square a text names in
     the game's notation, or -1; format_square: its name, as snprintf
     does; owner: the side (0 or 1) whose stone or disc is there, or -1
     for an empty square (or a number that is no square). */
  int (*squares)(const void *state);
  int (*parse_square)(const void *state, const char *text);
  size_t (*format_square)(const void *state, int square, char *buf,
                          size_t size);
  int (*owner)(const void *state, int square);
} game_class;

/* Score of a finished game for the side to move (0 while ongoing). */
int game_final_score(const game_class *cls, const void *state);

/* Leaf nodes of the move tree at exactly depth plies. */
uint64_t game_perft(const game_class *cls, void *state, int depth);

/* Complete games (paths to a finished position) from this position. */
uint64_t game_count_games(const game_class *cls, void *state);

/* Where replaying a move record went wrong. */
typedef struct game_replay_error {
  int ply;                       /* 1-based index of the bad move */
  size_t offset, length;         /* where its text stands */
  game_error code;
  const char *why;
} game_replay_error;

/* Plays the moves of text (separated by spaces, commas or semicolons)
   from state, storing at most cap of them in moves and their undo data in
   undos.  Returns how many it played, or -1 with err filled;
   on error state is back where it started. */
int game_replay(const game_class *cls, void *state, const char *text,
                game_move *moves, game_undo *undos, int cap,
                game_replay_error *err);

/* Appends to the used bytes of buf (size bytes) as snprintf does, and
   returns the new length, counting what did not fit: renderers build
   their picture with it. */
size_t game_append(char *buf, size_t size, size_t used, const char *format,
                   ...) __attribute__((format(printf, 4, 5)));

#endif
