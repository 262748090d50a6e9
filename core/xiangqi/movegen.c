/*
** movegen.c: moves by the rules of each piece on the mailbox, and the
** legality filter (bitboard.c counts them faster, for perft).
*/
#include "xiangqi.h"
#include "internal.h"

static const int orthogonal[4] = {1, -1, 16, -16};
static const int diagonal[4] = {17, 15, -15, -17};

/* Appends from->to when the target is empty (unless only captures are
   wanted) or holds an enemy piece. */
#define TRY(to)                                                       \
  do {                                                                \
    int t_ = (to), p_ = b[t_];                                        \
    if (p_ == 0 ? !captures_only : (p_ & enemy) != 0)                 \
      out[n++] = XQ_MOVE(from, t_);                                   \
  } while (0)

static int generate(const xq_position *pos, xq_move *out, bool captures_only) {
  const uint8_t *b = pos->board;
  int side = pos->turn, enemy = 16 << (side ^ 1), n = 0;
  int first = 16 << side;
  for (int id = first; id < first + 16; id++) {
    int from = pos->square[id];
    if (!from) continue;
    switch (xq_kind_table[id]) {
    case XQ_KING:
      for (int i = 0; i < 4; i++) {
        int to = from + orthogonal[i];
        if (xq_point[to] & XQ_PALACE(side)) TRY(to);
      }
      break;
    case XQ_ADVISOR:
      for (int i = 0; i < 4; i++) {
        int to = from + diagonal[i];
        if (xq_point[to] & XQ_PALACE(side)) TRY(to);
      }
      break;
    case XQ_ELEPHANT:
      for (int i = 0; i < 4; i++) {
        int eye = from + diagonal[i], to = eye + diagonal[i];
        if (b[eye] == 0 && (xq_point[to] & XQ_HALF(side))) TRY(to);
      }
      break;
    case XQ_HORSE:
      for (int i = 0; i < 4; i++) {
        int d = orthogonal[i], leg = from + d;
        if (b[leg] != 0) continue;
        int side_step = d == 1 || d == -1 ? 16 : 1;
        TRY(leg + d + side_step);
        TRY(leg + d - side_step);
      }
      break;
    case XQ_ROOK:
      for (int i = 0; i < 4; i++) {
        int d = orthogonal[i], to = from + d;
        for (; b[to] == 0; to += d)
          if (!captures_only) out[n++] = XQ_MOVE(from, to);
        if (b[to] & enemy) out[n++] = XQ_MOVE(from, to);
      }
      break;
    case XQ_CANNON:
      for (int i = 0; i < 4; i++) {
        int d = orthogonal[i], to = from + d;
        for (; b[to] == 0; to += d)
          if (!captures_only) out[n++] = XQ_MOVE(from, to);
        if (b[to] == XQ_OFF) continue;
        for (to += d; b[to] == 0; to += d) {}
        if (b[to] & enemy) out[n++] = XQ_MOVE(from, to);
      }
      break;
    case XQ_PAWN: {
      TRY(from + (side == XQ_RED ? 16 : -16));
      if (!(xq_point[from] & XQ_HALF(side))) {
        TRY(from + 1);
        TRY(from - 1);
      }
      break;
    }
    default:
      break;
    }
  }
  return n;
}

/* How many pieces stand strictly between from and to, which share a
   rank or a file (and differ); -1 when they share neither. */
static int between(const uint8_t *b, int from, int to) {
  int d;
  if ((from & 15) == (to & 15)) d = to > from ? 16 : -16;
  else if ((from >> 4) == (to >> 4)) d = to > from ? 1 : -1;
  else return -1;
  int n = 0;
  for (int s = from + d; s != to; s += d) n += b[s] != 0;
  return n;
}

int xq_attackers(const xq_position *pos, int square, int side, int out[16]) {
  const uint8_t *b = pos->board;
  int n = 0, first = 16 << side;
  for (int id = first; id < first + 16; id++) {
    int from = pos->square[id];
    if (!from || from == square) continue;
    int diff = square - from;
    bool hits = false;
    switch (xq_kind_table[id]) {
    case XQ_KING:
      hits = ((diff == 1 || diff == -1 || diff == 16 || diff == -16) &&
              (xq_point[square] & XQ_PALACE(side))) ||
             (square == pos->square[XQ_KING_ID(side ^ 1)] &&
              (diff & 15) == 0 && between(b, from, square) == 0);
      break;
    case XQ_ADVISOR:
      hits = (diff == 17 || diff == 15 || diff == -15 || diff == -17) &&
             (xq_point[square] & XQ_PALACE(side));
      break;
    case XQ_ELEPHANT:
      hits = (diff == 34 || diff == 30 || diff == -30 || diff == -34) &&
             b[from + diff / 2] == 0 && (xq_point[square] & XQ_HALF(side));
      break;
    case XQ_HORSE:
      for (int i = 0; i < 4 && !hits; i++) {
        int d = orthogonal[i], leg = from + d;
        int side_step = d == 1 || d == -1 ? 16 : 1;
        hits = b[leg] == 0 && (square == leg + d + side_step ||
                               square == leg + d - side_step);
      }
      break;
    case XQ_ROOK:
      hits = between(b, from, square) == 0;
      break;
    case XQ_CANNON:
      hits = between(b, from, square) == 1;
      break;
    case XQ_PAWN:
      hits = diff == (side == XQ_RED ? 16 : -16) ||
             ((diff == 1 || diff == -1) && !(xq_point[from] & XQ_HALF(side)));
      break;
    default:
      break;
    }
    if (hits && xq_on_board(square)) out[n++] = from;
  }
  return n;
}

int xq_pseudo_moves(const xq_position *pos, xq_move *out) {
  return generate(pos, out, false);
}

int xq_pseudo_captures(const xq_position *pos, xq_move *out) {
  return generate(pos, out, true);
}

/* Whether square lies on a line (file or rank) or a horse leg away from
   the general: only a move touching such a point can expose it. */
static bool near_king(int square, int king) {
  int diff = square - king;
  return (square & 15) == (king & 15) || (square >> 4) == (king >> 4) ||
         diff == 17 || diff == 15 || diff == -15 || diff == -17;
}

bool xq_move_is_safe(xq_position *pos, xq_move move, bool in_check) {
  int side = pos->turn, from = XQ_FROM(move), to = XQ_TO(move);
  int king_id = XQ_KING_ID(side), king = pos->square[king_id];
  int piece = pos->board[from];
  if (!in_check && piece != king_id && !near_king(from, king) &&
      !near_king(to, king))
    return true;
  int captured = pos->board[to];
  pos->board[to] = (uint8_t)piece;
  pos->board[from] = 0;
  int at = piece == king_id ? to : king;
  bool safe = !xq_attacked(pos, at, side ^ 1);
  pos->board[from] = (uint8_t)piece;
  pos->board[to] = (uint8_t)captured;
  return safe;
}

/* The filter tries each move on the board and puts it back: the caller's
   position is left as it was. */
int xq_legal_moves(const xq_position *pos, xq_move *out) {
  xq_position *p = (xq_position *)pos;
  xq_move pseudo[XQ_MAX_MOVES];
  int count = generate(pos, pseudo, false), n = 0;
  bool check = xq_in_check(pos);
  for (int i = 0; i < count; i++)
    if (xq_move_is_safe(p, pseudo[i], check)) out[n++] = pseudo[i];
  return n;
}

/* Only the move asked about is tried on the board. */
bool xq_is_legal(const xq_position *pos, xq_move move) {
  xq_move moves[XQ_MAX_MOVES];
  int n = generate(pos, moves, false);
  for (int i = 0; i < n; i++)
    if (moves[i] == move)
      return xq_move_is_safe((xq_position *)pos, move, xq_in_check(pos));
  return false;
}

bool xq_has_legal_move(const xq_position *pos) {
  xq_position *p = (xq_position *)pos;
  xq_move pseudo[XQ_MAX_MOVES];
  int count = generate(pos, pseudo, false);
  bool check = xq_in_check(pos);
  for (int i = 0; i < count; i++)
    if (xq_move_is_safe(p, pseudo[i], check)) return true;
  return false;
}
