/*
** rules.c: how a game ends.
**
** A side with no legal move loses, in check or not.  With the repetition
** rule on, the third occurrence of a position ends the game: the plies
** since the first of the three are judged by the Asian rules, simplified:
** a side whose every move there gave check loses (a draw if both did);
** failing that, a side whose every move there attacked anew one and the
** same enemy piece (not the general, not a soldier still at home) that
** was unprotected, or a chariot with a horse or cannon, loses for
** perpetual chasing; the general and soldiers may chase.  A piece that
** attacks one of its own kind that can take it back (chariot and
** chariot on an open line, say) offers an exchange and does not chase
** it: the Asian Xiangqi Federation's rule 24 rules such a repetition a
** draw, and a chase only when the attacked piece cannot take back
** (pinned, or a horse whose leg is blocked).  Anything else is a draw.  With the move-limit rule on, 120 plies without a capture
** are a draw.
*/
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

/* How many earlier positions since the last capture equal this one (at
   most want), and where the earliest of those counted stands. */
static int occurrences(const xq_position *pos, int want, uint32_t *earliest) {
  uint32_t w = pos->window, ply = pos->ply;
  uint32_t reach = w < XQ_HISTORY ? w : XQ_HISTORY - 1;
  int n = 0;
  for (uint32_t back = 4; back <= reach && n < want; back += 2) {
    if (pos->history[(ply - back) & (XQ_HISTORY - 1)] == pos->key) {
      n++;
      *earliest = ply - back;
    }
  }
  return n;
}

/* The enemy pieces (bits by id - enemy base) that the piece on from can
   take with a legal move. */
static uint32_t targets(xq_position *pos, int from) {
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_pseudo_captures(pos, moves);
  bool check = xq_in_check(pos);
  int base = 16 << (pos->turn ^ 1);
  uint32_t set = 0;
  for (int i = 0; i < n; i++) {
    if (XQ_FROM(moves[i]) != from || !xq_move_is_safe(pos, moves[i], check))
      continue;
    set |= 1u << (pos->board[XQ_TO(moves[i])] - base);
  }
  return set;
}

/* Whether the piece on to could be taken back after the piece on from
   took it: by any piece of its side, as that piece moves (xq_attacked
   asks what reaches a general, and counts a general at any distance down
   an open file: not what protects a piece). */
static bool protected_after(xq_position *pos, int from, int to) {
  int piece = pos->board[from], victim = pos->board[to];
  int side = xq_side_of(victim), victim_square = pos->square[victim];
  pos->board[to] = (uint8_t)piece;
  pos->board[from] = 0;
  pos->square[piece] = (uint8_t)to;
  pos->square[victim] = 0;
  int defenders[16];
  bool back = xq_attackers(pos, to, side, defenders) > 0;
  pos->square[victim] = (uint8_t)victim_square;
  pos->square[piece] = (uint8_t)from;
  pos->board[from] = (uint8_t)piece;
  pos->board[to] = (uint8_t)victim;
  return back;
}

/* Whether the piece on from may legally take the piece on to, the turn
   being the other side's. */
static bool takes_back(xq_position *pos, int from, int to) {
  pos->turn ^= 1;
  bool legal = xq_is_legal(pos, XQ_MOVE(from, to));
  pos->turn ^= 1;
  return legal;
}

/* What the move just made (by the side not to move now) chases: the
   pieces the moved piece attacks now and did not before, that count as
   chased.  before is what it attacked before the move. */
static uint32_t chased(xq_position *pos, int to, uint32_t before) {
  int piece = pos->board[to];
  int kind = xq_kind_table[piece];
  if (kind == XQ_KING || kind == XQ_PAWN) return 0;
  pos->turn ^= 1;                  /* as if the mover moved again */
  uint32_t now = targets(pos, to) & ~before, set = 0;
  int base = 16 << (pos->turn ^ 1);
  for (int bit = 0; bit < 16; bit++) {
    if (!(now & (1u << bit))) continue;
    int victim = base + bit, at = pos->square[victim];
    int vkind = xq_kind_table[victim];
    if (vkind == XQ_KING) continue;
    if (vkind == XQ_PAWN && (xq_point[at] & XQ_HALF(xq_side_of(victim))))
      continue;
    /* a piece of the same kind that can take the chaser back is offered
       an exchange, not chased (the Asian rules, rule 24) */
    if (vkind == kind && takes_back(pos, at, to)) continue;
    if ((vkind == XQ_ROOK && (kind == XQ_HORSE || kind == XQ_CANNON)) ||
        !protected_after(pos, to, at))
      set |= 1u << bit;
  }
  pos->turn ^= 1;
  return set;
}

/* Moves the piece on from to the empty point to and passes the turn: a
   move without a capture made or unmade. */
static void shift(xq_position *pos, int from, int to) {
  int piece = pos->board[from];
  pos->board[to] = (uint8_t)piece;
  pos->board[from] = 0;
  pos->square[piece] = (uint8_t)to;
  pos->turn ^= 1;
}

/* Judges the plies after history index start up to now: -1 when the
   side to move loses by it, 1 when it wins, 0 for a draw; *why says
   which rule decided. */
static int judge_cycle(const xq_position *pos, uint32_t start, xq_ending *why) {
  xq_position scratch;
  memcpy(&scratch, pos, offsetof(xq_position, history));
  bool checks[2] = {true, true}, moved[2] = {false, false};
  uint32_t chase[2] = {~0u, ~0u};
  /* Walk back: the window holds no capture, so unmaking is moving the
     piece back. */
  for (uint32_t i = pos->ply; i != start; i--) {
    xq_move move = pos->moves[i & (XQ_HISTORY - 1)];
    int from = XQ_FROM(move), to = XQ_TO(move);
    int mover = scratch.turn ^ 1;
    moved[mover] = true;
    bool check = xq_in_check(&scratch);
    if (!check) checks[mover] = false;
    /* the position before the move, to see what the piece attacked */
    shift(&scratch, to, from);
    uint32_t before = targets(&scratch, from);
    shift(&scratch, from, to);
    chase[mover] &= check ? 0 : chased(&scratch, to, before);
    shift(&scratch, to, from);
  }
  int me = pos->turn, other = me ^ 1;
  bool check_me = moved[me] && checks[me];
  bool check_other = moved[other] && checks[other];
  *why = XQ_PERPETUAL_CHECK;
  if (check_me != check_other) return check_me ? -1 : 1;
  *why = XQ_REPETITION;
  if (check_me) return 0;
  bool chase_me = moved[me] && chase[me];
  bool chase_other = moved[other] && chase[other];
  *why = XQ_PERPETUAL_CHASE;
  if (chase_me != chase_other) return chase_me ? -1 : 1;
  *why = XQ_REPETITION;
  return 0;
}

int xq_repeats(const xq_position *pos, int *value) {
  uint32_t earliest;
  if (occurrences(pos, 1, &earliest) == 0) return 0;
  xq_ending why;
  *value = judge_cycle(pos, earliest, &why);
  return 1;
}

static game_status win_for(int side) {
  return side == XQ_RED ? GAME_WIN_0 : GAME_WIN_1;
}

xq_ending xq_ending_of(const xq_position *pos, game_status *status) {
  if (!xq_has_legal_move(pos)) {
    *status = win_for(pos->turn ^ 1);
    return xq_in_check(pos) ? XQ_CHECKMATE : XQ_STALEMATE;
  }
  uint32_t earliest;
  if ((pos->rules & XQ_RULE_REPETITION) && occurrences(pos, 2, &earliest) == 2) {
    xq_ending why;
    int value = judge_cycle(pos, earliest, &why);
    *status = value == 0 ? GAME_DRAW
            : win_for(value > 0 ? pos->turn : pos->turn ^ 1);
    return why;
  }
  if ((pos->rules & XQ_RULE_MOVE_LIMIT) && pos->quiet >= XQ_NO_CAPTURE_LIMIT) {
    *status = GAME_DRAW;
    return XQ_MOVE_LIMIT;
  }
  *status = GAME_ONGOING;
  return XQ_PLAYING;
}

game_status xq_status(const xq_position *pos) {
  game_status status;
  xq_ending_of(pos, &status);
  return status;
}
