/*
** board.c: the mailbox, Zobrist keys, make and unmake, attacks.
*/
#include <string.h>

#include "xiangqi.h"
#include "internal.h"
#include "base/hash.h"

/* ---- read-only tables, built once ---- */

uint8_t xq_point[256];
uint64_t xq_zobrist[2 * XQ_KINDS][256];
uint64_t xq_zobrist_turn;

static const uint8_t kind_of_slot[16] = {
  XQ_KING, XQ_ADVISOR, XQ_ADVISOR, XQ_ELEPHANT, XQ_ELEPHANT, XQ_HORSE,
  XQ_HORSE, XQ_ROOK, XQ_ROOK, XQ_CANNON, XQ_CANNON, XQ_PAWN, XQ_PAWN,
  XQ_PAWN, XQ_PAWN, XQ_PAWN
};

/* The first slot of each kind within a side, and how many it has. */
static const uint8_t first_slot[XQ_KINDS] = {0, 1, 3, 5, 7, 9, 11};
static const uint8_t slots[XQ_KINDS] = {1, 2, 2, 2, 2, 2, 5};

uint8_t xq_kind_table[XQ_OFF + 1];

static void build_tables(void) {
  static bool built = false;
  if (built) return;
  for (int sq = 0; sq < 256; sq++) {
    xq_point[sq] = 0;
    if (!xq_on_board(sq)) continue;
    int file = xq_file(sq), rank = xq_rank(sq);
    uint8_t bits = XQ_POINT;
    bits |= rank <= 4 ? XQ_HALF_RED : XQ_HALF_BLACK;
    if (file >= 3 && file <= 5 && rank <= 2) bits |= XQ_PALACE_RED;
    if (file >= 3 && file <= 5 && rank >= 7) bits |= XQ_PALACE_BLACK;
    xq_point[sq] = bits;
  }
  for (int i = 0; i <= XQ_OFF; i++) xq_kind_table[i] = XQ_KINDS;
  for (int id = 16; id < 48; id++) xq_kind_table[id] = kind_of_slot[id & 15];
  uint64_t keys[2 * XQ_KINDS * 90 + 1];
  hash_zobrist_fill(keys, sizeof keys / sizeof *keys, 0x58514b4559ULL);
  int k = 0;
  for (int piece = 0; piece < 2 * XQ_KINDS; piece++)
    for (int sq = 0; sq < 256; sq++)
      xq_zobrist[piece][sq] = xq_on_board(sq) ? keys[k++] : 0;
  xq_zobrist_turn = keys[k];
  xq_bitboard_init();
  built = true;
}

xq_kind xq_kind_of(int id) { return (xq_kind)kind_of_slot[id & 15]; }

char xq_letter(int id) {
  static const char letters[] = "KAABBNNRRCCPPPPP";
  char c = letters[id & 15];
  return xq_side_of(id) == XQ_RED ? c : (char)(c - 'A' + 'a');
}

/* ---- setting up ---- */

void xq_clear(xq_position *pos) {
  build_tables();
  memset(pos, 0, sizeof *pos);
  for (int sq = 0; sq < 256; sq++)
    pos->board[sq] = xq_point[sq] ? 0 : XQ_OFF;
  pos->rules = XQ_RULES_ALL;
  pos->fullmove = 1;
}

bool xq_put(xq_position *pos, int side, xq_kind kind, int square) {
  int base = 16 << side;
  for (int slot = first_slot[kind]; slot < first_slot[kind] + slots[kind];
       slot++) {
    if (pos->square[base + slot]) continue;
    pos->square[base + slot] = (uint8_t)square;
    pos->board[square] = (uint8_t)(base + slot);
    return true;
  }
  return false;
}

void xq_reset_history(xq_position *pos) {
  uint64_t key = pos->turn == XQ_BLACK ? xq_zobrist_turn : 0;
  for (int id = 16; id < 48; id++)
    if (pos->square[id]) key ^= XQ_PIECE_KEY(id, pos->square[id]);
  pos->key = key;
  pos->window = 0;
  pos->ply = 0;
  memset(pos->history, 0, sizeof pos->history);
  memset(pos->moves, 0, sizeof pos->moves);
  pos->history[0] = key;
}

void xq_init(xq_position *pos) {
  static const xq_kind back[9] = {
    XQ_ROOK, XQ_HORSE, XQ_ELEPHANT, XQ_ADVISOR, XQ_KING, XQ_ADVISOR,
    XQ_ELEPHANT, XQ_HORSE, XQ_ROOK
  };
  xq_clear(pos);
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    int home = side == XQ_RED ? 0 : 9, step = side == XQ_RED ? 1 : -1;
    for (int file = 0; file < 9; file++)
      xq_put(pos, side, back[file], xq_square(file, home));
    xq_put(pos, side, XQ_CANNON, xq_square(1, home + 2 * step));
    xq_put(pos, side, XQ_CANNON, xq_square(7, home + 2 * step));
    for (int file = 0; file < 9; file += 2)
      xq_put(pos, side, XQ_PAWN, xq_square(file, home + 3 * step));
  }
  xq_reset_history(pos);
}

/* ---- make and unmake ---- */

void xq_make(xq_position *pos, xq_move move, xq_undo *undo) {
  int from = XQ_FROM(move), to = XQ_TO(move);
  int piece = pos->board[from], captured = pos->board[to];
  memset(undo, 0, sizeof *undo);
  undo->captured = (uint8_t)captured;
  pos->board[to] = (uint8_t)piece;
  pos->board[from] = 0;
  pos->square[piece] = (uint8_t)to;
  uint64_t key = pos->key ^ xq_zobrist_turn ^ XQ_PIECE_KEY(piece, from) ^
                 XQ_PIECE_KEY(piece, to);
  if (captured) {
    pos->square[captured] = 0;
    key ^= XQ_PIECE_KEY(captured, to);
    undo->quiet = pos->quiet;
    undo->window = pos->window;
    pos->quiet = 0;
    pos->window = 0;
  } else {
    pos->quiet++;
    pos->window++;
  }
  if (pos->turn == XQ_BLACK) pos->fullmove++;
  pos->turn ^= 1;
  pos->key = key;
  pos->ply++;
  int slot = (int)(pos->ply & (XQ_HISTORY - 1));
  undo->old_key = pos->history[slot];
  undo->old_move = pos->moves[slot];
  pos->history[slot] = key;
  pos->moves[slot] = move;
}

void xq_unmake(xq_position *pos, xq_move move, const xq_undo *undo) {
  int from = XQ_FROM(move), to = XQ_TO(move);
  int piece = pos->board[to], captured = undo->captured;
  int slot = (int)(pos->ply & (XQ_HISTORY - 1));
  pos->history[slot] = undo->old_key;
  pos->moves[slot] = undo->old_move;
  pos->ply--;
  pos->board[from] = (uint8_t)piece;
  pos->board[to] = (uint8_t)captured;
  pos->square[piece] = (uint8_t)from;
  uint64_t key = pos->key ^ xq_zobrist_turn ^ XQ_PIECE_KEY(piece, from) ^
                 XQ_PIECE_KEY(piece, to);
  if (captured) {
    pos->square[captured] = (uint8_t)to;
    key ^= XQ_PIECE_KEY(captured, to);
  }
  pos->key = key;
  pos->turn ^= 1;
  if (pos->turn == XQ_BLACK) pos->fullmove--;
  if (captured) {
    pos->quiet = undo->quiet;
    pos->window = undo->window;
  } else {
    pos->quiet--;
    pos->window--;
  }
}

void xq_make_null(xq_position *pos, xq_undo *undo) {
  memset(undo, 0, sizeof *undo);
  undo->window = pos->window;
  pos->window = 0;
  pos->turn ^= 1;
  pos->key ^= xq_zobrist_turn;
  pos->ply++;
  int slot = (int)(pos->ply & (XQ_HISTORY - 1));
  undo->old_key = pos->history[slot];
  undo->old_move = pos->moves[slot];
  pos->history[slot] = pos->key;
  pos->moves[slot] = 0;
}

void xq_unmake_null(xq_position *pos, const xq_undo *undo) {
  int slot = (int)(pos->ply & (XQ_HISTORY - 1));
  pos->history[slot] = undo->old_key;
  pos->moves[slot] = undo->old_move;
  pos->ply--;
  pos->key ^= xq_zobrist_turn;
  pos->turn ^= 1;
  pos->window = undo->window;
}

/* ---- attacks ---- */

static const int orthogonal[4] = {1, -1, 16, -16};
static const int diagonal[4] = {17, 15, -15, -17};

bool xq_attacked(const xq_position *pos, int square, int by_side) {
  const uint8_t *b = pos->board;
  int tag = 16 << by_side;
  /* Chariots, cannons, the facing general and adjacent soldiers, along
     the four lines through the square. */
  for (int i = 0; i < 4; i++) {
    int d = orthogonal[i], s = square + d;
    while (b[s] == 0) s += d;
    int p = b[s];
    if (p & tag) {
      int kind = xq_kind_table[p];
      if (kind == XQ_ROOK) return true;
      if (kind == XQ_KING && (d == 16 || d == -16)) return true;
      if (kind == XQ_PAWN && s == square + d) {
        int forward = by_side == XQ_RED ? 16 : -16;
        if (d == -forward) return true;
        if ((d == 1 || d == -1) && !(xq_point[s] & XQ_HALF(by_side)))
          return true;
      }
    }
    if (p == XQ_OFF) continue;
    s += d;
    while (b[s] == 0) s += d;
    p = b[s];
    if ((p & tag) && xq_kind_table[p] == XQ_CANNON) return true;
  }
  /* Horses: the leg of a horse that reaches the square is the diagonal
     neighbour between them. */
  for (int i = 0; i < 4; i++) {
    int leg = square + diagonal[i];
    if (b[leg] != 0) continue;
    int dx = diagonal[i] > 0 ? diagonal[i] - 16 : diagonal[i] + 16;
    int dy = diagonal[i] - dx;
    int a = b[leg + dx], c = b[leg + dy];
    if ((a & tag) && xq_kind_table[a] == XQ_HORSE) return true;
    if ((c & tag) && xq_kind_table[c] == XQ_HORSE) return true;
  }
  return false;
}

bool xq_in_check(const xq_position *pos) {
  return xq_attacked(pos, pos->square[XQ_KING_ID(pos->turn)], pos->turn ^ 1);
}

bool xq_exposed(const xq_position *pos) {
  return xq_attacked(pos, pos->square[XQ_KING_ID(pos->turn ^ 1)], pos->turn);
}
