/*
** bitboard.c: the position as bitboards, to count and list the legal
** moves fast: perft.
**
** A set of points is a 128-bit integer with a rank in one 64-bit half:
** the point of file f and rank r is bit (r / 5) * 64 + r % 5 * 9 + f, so
** red's half of the board is the low word and black's the high.  A
** chariot's or a cannon's reach along a rank is then a table entry for
** the nine bits of that rank; along a file it comes from a second copy
** of the occupancy kept file by file (bit (f / 6) * 64 + f % 6 * 10 + r),
** and the ten bits found are spread back over the ranks.
**
** Each node first works out what the pieces pinned to the general may
** do: a piece alone between the general and an enemy chariot (or the
** other general) must stay on that line; of the two pieces between the
** general and an enemy cannon, neither may leave the line or take the
** other; the piece on the leg of an enemy horse that would reach the
** general may only take that horse; and no piece may step between the
** general and a cannon with nothing between them.  Every other move is
** legal when the general is not in check, so the moves of a node are
** counted a piece at a time from bit counts, and only the general's
** moves, and every move when in check, are tried on the board.
*/
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

__extension__ typedef unsigned __int128 bits;

#define BIT(i) ((bits)1 << (i))

/* A board byte: 0, or 1 + kind + 8 * side. */
#define CODE(side, kind) (1 + (kind) + 8 * (side))
#define KIND(code) (((code) - 1) & 7)
#define SIDE(code) ((code) >> 3)

typedef struct board {
  bits pieces[2][XQ_KINDS];       /* by side and kind */
  bits side[2];
  bits files;                     /* every piece, file by file */
  uint8_t at[128];                /* the board byte of each bit */
  uint8_t king[2];                /* the generals' bits */
  uint8_t turn;
} board;

/* ---- tables, built once ---- */

/* What a chariot and a cannon reach along a line from a point, by the
   points of the line between its ends that hold a piece: the chariot's
   empty points and the first piece each way (to take, if an enemy's),
   the cannon's piece to take beyond the first piece. */
typedef struct line {
  uint16_t rook, cannon;
} line;

static line rank_lines[9][128], file_lines[10][256];
static uint64_t spread[32];       /* five bits of a file onto the ranks */

static uint8_t bit_of[256];       /* of a mailbox square */
static uint8_t square_of[128];    /* the mailbox square of a bit */
static uint8_t rank_of[128], file_of[128];
static uint8_t file_bit[128];     /* the point's bit in board.files */
static uint8_t bit_at[10][9];

static bits king_moves[2][128], advisor_moves[2][128], pawn_moves[2][128];
static bits pawn_attackers[2][128];  /* the soldiers that reach a point */
/* By direction: the point a piece must find empty, and where it goes. */
static uint8_t horse_legs[128][4], elephant_eyes[128][4];
static bits horse_moves[128][4], elephant_moves[2][128][4];
/* The horses that reach a point through each diagonal neighbour (their
   leg), and that neighbour. */
static uint8_t attacker_legs[128][4];
static bits horse_attackers[128][4], any_horse_attacker[128];
/* The points of the rank and the file through a point, and of each of
   the four rays from it (along the rank up and down, along the file up
   and down). */
static bits lines[128], rays[128][4];

static bool on_board(int file, int rank) {
  return file >= 0 && file < 9 && rank >= 0 && rank < 10;
}

static bits bit_or_none(int file, int rank) {
  return on_board(file, rank) ? BIT(bit_at[rank][file]) : 0;
}

static void build_line(line *entries, int n, int at) {
  for (unsigned inner = 0; inner < 1u << (n - 2); inner++) {
    unsigned occupied = inner << 1;
    line l = {0, 0};
    for (int step = -1; step <= 1; step += 2) {
      int j = at + step;
      for (; j >= 0 && j < n; j += step) {
        l.rook |= (uint16_t)(1u << j);
        if (j == 0 || j == n - 1 || (occupied >> j & 1)) break;
      }
      /* the ends are taken as held: a cannon takes there if an enemy is */
      if (j <= 0 || j >= n - 1) continue;
      for (j += step; j >= 0 && j < n; j += step)
        if (j == 0 || j == n - 1 || (occupied >> j & 1)) {
          l.cannon |= (uint16_t)(1u << j);
          break;
        }
    }
    entries[inner] = l;
  }
}

void xq_bitboard_init(void) {
  for (int file = 0; file < 9; file++) build_line(rank_lines[file], 9, file);
  for (int rank = 0; rank < 10; rank++) build_line(file_lines[rank], 10, rank);
  for (unsigned m = 0; m < 32; m++) {
    spread[m] = 0;
    for (int k = 0; k < 5; k++)
      if (m >> k & 1) spread[m] |= 1ULL << (9 * k);
  }
  for (int rank = 0; rank < 10; rank++)
    for (int file = 0; file < 9; file++) {
      int b = (rank / 5) * 64 + rank % 5 * 9 + file;
      bit_at[rank][file] = (uint8_t)b;
      bit_of[xq_square(file, rank)] = (uint8_t)b;
      square_of[b] = (uint8_t)xq_square(file, rank);
      rank_of[b] = (uint8_t)rank;
      file_of[b] = (uint8_t)file;
      file_bit[b] = (uint8_t)((file / 6) * 64 + file % 6 * 10 + rank);
    }
  static const int orthogonal[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  static const int diagonal[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};
  for (int rank = 0; rank < 10; rank++)
    for (int file = 0; file < 9; file++) {
      int b = bit_at[rank][file], sq = xq_square(file, rank);
      any_horse_attacker[b] = 0;
      for (int side = XQ_RED; side <= XQ_BLACK; side++) {
        int forward = side == XQ_RED ? 1 : -1;
        king_moves[side][b] = advisor_moves[side][b] = 0;
        for (int d = 0; d < 4; d++) {
          int f = file + orthogonal[d][0], r = rank + orthogonal[d][1];
          if (on_board(f, r) && (xq_point[xq_square(f, r)] & XQ_PALACE(side)))
            king_moves[side][b] |= BIT(bit_at[r][f]);
          f = file + diagonal[d][0];
          r = rank + diagonal[d][1];
          if (on_board(f, r) && (xq_point[xq_square(f, r)] & XQ_PALACE(side)))
            advisor_moves[side][b] |= BIT(bit_at[r][f]);
          f = file + 2 * diagonal[d][0];
          r = rank + 2 * diagonal[d][1];
          elephant_moves[side][b][d] =
              on_board(f, r) && (xq_point[xq_square(f, r)] & XQ_HALF(side))
                  ? BIT(bit_at[r][f]) : 0;
        }
        bool crossed = !(xq_point[sq] & XQ_HALF(side));
        pawn_moves[side][b] = bit_or_none(file, rank + forward);
        if (crossed)
          pawn_moves[side][b] |= bit_or_none(file + 1, rank) |
                                 bit_or_none(file - 1, rank);
      }
      for (int d = 0; d < 4; d++) {
        int dx = orthogonal[d][0], dy = orthogonal[d][1];
        bool leg = on_board(file + dx, rank + dy);
        horse_legs[b][d] = leg ? bit_at[rank + dy][file + dx] : (uint8_t)b;
        horse_moves[b][d] =
            leg ? bit_or_none(file + 2 * dx + dy, rank + 2 * dy + dx) |
                      bit_or_none(file + 2 * dx - dy, rank + 2 * dy - dx)
                : 0;
        dx = diagonal[d][0];
        dy = diagonal[d][1];
        bool eye = on_board(file + dx, rank + dy);
        elephant_eyes[b][d] = eye ? bit_at[rank + dy][file + dx] : (uint8_t)b;
        attacker_legs[b][d] = elephant_eyes[b][d];
        horse_attackers[b][d] =
            eye ? bit_or_none(file + 2 * dx, rank + dy) |
                      bit_or_none(file + dx, rank + 2 * dy)
                : 0;
        any_horse_attacker[b] |= horse_attackers[b][d];
      }
    }
  static const int ray_steps[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
  for (int rank = 0; rank < 10; rank++)
    for (int file = 0; file < 9; file++) {
      int b = bit_at[rank][file];
      lines[b] = 0;
      for (int d = 0; d < 4; d++) {
        rays[b][d] = 0;
        for (int f = file + ray_steps[d][0], r = rank + ray_steps[d][1];
             on_board(f, r); f += ray_steps[d][0], r += ray_steps[d][1])
          rays[b][d] |= BIT(bit_at[r][f]);
        lines[b] |= rays[b][d];
      }
    }
  /* pawn_attackers is pawn_moves read backwards */
  for (int side = XQ_RED; side <= XQ_BLACK; side++)
    for (int b = 0; b < 128; b++) {
      pawn_attackers[side][b] = 0;
      for (int from = 0; from < 128; from++)
        if (square_of[from] && (pawn_moves[side][from] & BIT(b)))
          pawn_attackers[side][b] |= BIT(from);
    }
}

/* ---- sets ---- */

static inline int count_bits(bits b) {
  return __builtin_popcountll((uint64_t)b) +
         __builtin_popcountll((uint64_t)(b >> 64));
}

static inline int first_bit(bits b) {
  uint64_t low = (uint64_t)b;
  return low ? __builtin_ctzll(low) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

static inline uint64_t word(bits b, int high) {
  return high ? (uint64_t)(b >> 64) : (uint64_t)b;
}

/* The table entries for the rank and the file through point b. */
static inline line rank_line(bits occupied, int b) {
  int file = file_of[b];
  uint64_t w = word(occupied, b >= 64);
  return rank_lines[file][(w >> ((b & 63) - file + 1)) & 127];
}

static inline line file_line(bits files, int b) {
  int rank = rank_of[b], f = file_bit[b];
  uint64_t w = word(files, f >= 64);
  return file_lines[rank][(w >> ((f & 63) - rank + 1)) & 255];
}

/* The points of a line mask: of the rank through b, of the file. */
static inline bits on_rank(unsigned mask, int b) {
  uint64_t m = (uint64_t)mask << ((b & 63) - file_of[b]);
  return b >= 64 ? (bits)m << 64 : (bits)m;
}

static inline bits on_file(unsigned mask, int b) {
  int file = file_of[b];
  return (bits)(spread[mask & 31] << file) |
         (bits)(spread[mask >> 5] << file) << 64;
}

static inline bits rook_reach(bits occupied, bits files, int b) {
  return on_rank(rank_line(occupied, b).rook, b) |
         on_file(file_line(files, b).rook, b);
}

static inline bits horse_reach(const board *bd, int b) {
  bits to = 0;
  for (int d = 0; d < 4; d++)
    if (!bd->at[horse_legs[b][d]]) to |= horse_moves[b][d];
  return to;
}

static inline bits elephant_reach(const board *bd, int side, int b) {
  bits to = 0;
  for (int d = 0; d < 4; d++)
    if (!bd->at[elephant_eyes[b][d]]) to |= elephant_moves[side][b][d];
  return to;
}

/* Where the piece on b may go by the rules of its kind, own pieces not
   yet taken out. */
static bits reach(const board *bd, int b, bits occupied, bits enemy) {
  int code = bd->at[b], side = SIDE(code);
  switch (KIND(code)) {
  case XQ_KING: return king_moves[side][b];
  case XQ_ADVISOR: return advisor_moves[side][b];
  case XQ_ELEPHANT: return elephant_reach(bd, side, b);
  case XQ_HORSE: return horse_reach(bd, b);
  case XQ_ROOK: return rook_reach(occupied, bd->files, b);
  case XQ_CANNON: {
    line r = rank_line(occupied, b), f = file_line(bd->files, b);
    return ((on_rank(r.rook, b) | on_file(f.rook, b)) & ~occupied) |
           ((on_rank(r.cannon, b) | on_file(f.cannon, b)) & enemy);
  }
  default: return pawn_moves[side][b];
  }
}

/* Whether the side not to move attacks point b when the points held are
   occupied (and files), counting only its pieces in alive. */
static bool attacked(const board *bd, int b, bits occupied, bits files,
                     bits alive) {
  int them = bd->turn ^ 1;
  const bits *p = bd->pieces[them];
  if (pawn_attackers[them][b] & p[XQ_PAWN] & alive) return true;
  for (int d = 0; d < 4; d++)
    if ((horse_attackers[b][d] & p[XQ_HORSE] & alive) &&
        !(occupied & BIT(attacker_legs[b][d])))
      return true;
  line r = rank_line(occupied, b), f = file_line(files, b);
  bits file_rook = on_file(f.rook, b);
  if ((on_rank(r.rook, b) | file_rook) & p[XQ_ROOK] & alive) return true;
  if (file_rook & p[XQ_KING] & alive) return true;
  return ((on_rank(r.cannon, b) | on_file(f.cannon, b)) & p[XQ_CANNON] &
          alive) != 0;
}

/* Whether the general of the side to move may step to point to, given
   occupied and files without the general: of the points a step changes,
   the one it leaves counts only along the line it steps on (occupied has
   it empty), and the one it takes neither attacks to nor is a horse's
   leg for it, so one occupancy serves every step. */
static bool king_safe(const board *bd, int to, bits occupied, bits files) {
  int them = bd->turn ^ 1;
  const bits *p = bd->pieces[them];
  if (pawn_attackers[them][to] & p[XQ_PAWN]) return false;
  if (any_horse_attacker[to] & p[XQ_HORSE])
    for (int d = 0; d < 4; d++)
      if ((horse_attackers[to][d] & p[XQ_HORSE]) &&
          !(occupied & BIT(attacker_legs[to][d])))
        return false;
  if (!(lines[to] & (p[XQ_ROOK] | p[XQ_CANNON] | p[XQ_KING]))) return true;
  line r = rank_line(occupied, to), f = file_line(files, to);
  bits file_rook = on_file(f.rook, to);
  if ((on_rank(r.rook, to) | file_rook) & p[XQ_ROOK]) return false;
  if (file_rook & p[XQ_KING]) return false;
  return !((on_rank(r.cannon, to) | on_file(f.cannon, to)) & p[XQ_CANNON]);
}

/* Whether a move of a piece other than the general leaves the general
   safe. */
static bool safe_after(const board *bd, int from, int to) {
  bits occupied = ((bd->side[0] | bd->side[1]) & ~BIT(from)) | BIT(to);
  bits files = (bd->files & ~BIT(file_bit[from])) | BIT(file_bit[to]);
  return !attacked(bd, bd->king[bd->turn], occupied, files, ~BIT(to));
}

/* ---- what the general's position forbids ---- */

#define MAX_PINS 12

typedef struct node {
  bits checkers;
  bits evasions;                  /* in check: where a move may help */
  bits screens;                   /* in check: cannon screens, free to go */
  bits forbidden;                 /* no piece may go there */
  bits pinned;
  int pins;
  uint8_t pin_point[MAX_PINS];
  bits pin_allowed[MAX_PINS];     /* where each pinned piece may go */
} node;

static void pin(node *n, int b, bits allowed) {
  for (int i = 0; i < n->pins; i++)
    if (n->pin_point[i] == b) {
      n->pin_allowed[i] &= allowed;
      return;
    }
  n->pinned |= BIT(b);
  n->pin_point[n->pins] = (uint8_t)b;
  n->pin_allowed[n->pins++] = allowed;
}

/* One of the four lines from the general: the first three pieces on it
   (their bits) and the points between the general and each. */
static void ray(const board *bd, node *n, bool file, int count,
                const int *piece, const bits *between) {
  int us = bd->turn;
  if (count == 0) return;
  int c1 = bd->at[piece[0]], k1 = KIND(c1);
  bool mine1 = SIDE(c1) == us;
  if (!mine1 && (k1 == XQ_ROOK || (k1 == XQ_KING && file))) {
    n->checkers |= BIT(piece[0]);
    n->evasions |= between[0] | BIT(piece[0]);
  } else if (!mine1 && k1 == XQ_CANNON) {
    n->forbidden |= between[0];
  }
  if (count == 1) return;
  int c2 = bd->at[piece[1]], k2 = KIND(c2);
  bool mine2 = SIDE(c2) == us;
  if (!mine2 && k2 == XQ_CANNON) {
    n->checkers |= BIT(piece[1]);
    n->evasions |= between[1] | BIT(piece[1]);
    n->screens |= BIT(piece[0]);
  } else if (mine1 && !mine2 && (k2 == XQ_ROOK || (k2 == XQ_KING && file))) {
    pin(n, piece[0], between[1] | BIT(piece[1]));
  }
  if (count == 2) return;
  int c3 = bd->at[piece[2]];
  if (SIDE(c3) != us && KIND(c3) == XQ_CANNON) {
    bits allowed = (between[2] & ~BIT(piece[0]) & ~BIT(piece[1])) |
                   BIT(piece[2]);
    if (mine1) pin(n, piece[0], allowed);
    if (mine2) pin(n, piece[1], allowed);
  }
}

/* Up to three pieces of a line's occupancy from position at, upwards or
   downwards; their positions, and the line's points between at and
   each. */
static int scan(unsigned occupied, int at, bool up, int *position,
                unsigned *between) {
  int n = 0;
  if (up) {
    unsigned m = occupied & ~((2u << at) - 1);
    for (; m && n < 3; m &= m - 1, n++) {
      int j = __builtin_ctz(m);
      position[n] = j;
      between[n] = ((1u << j) - 1) & ~((2u << at) - 1);
    }
  } else {
    unsigned m = occupied & ((1u << at) - 1);
    for (; m && n < 3; n++) {
      int j = 31 - __builtin_clz(m);
      m ^= 1u << j;
      position[n] = j;
      between[n] = ((1u << at) - 1) & ~((2u << j) - 1);
    }
  }
  return n;
}

static void analyse(const board *bd, node *n) {
  int us = bd->turn, them = us ^ 1, king = bd->king[us];
  memset(n, 0, offsetof(node, pin_point));
  bits occupied = bd->side[0] | bd->side[1];
  int file = file_of[king], rank = rank_of[king];
  unsigned rank_occupied =
      (unsigned)(word(occupied, king >= 64) >> ((king & 63) - file)) & 511;
  int fb = file_bit[king];
  unsigned file_occupied =
      (unsigned)(word(bd->files, fb >= 64) >> ((fb & 63) - rank)) & 1023;
  const bits *p = bd->pieces[them];
  bits sliders = p[XQ_ROOK] | p[XQ_CANNON] | p[XQ_KING];
  for (int dir = 0; dir < 4; dir++) {
    if (!(rays[king][dir] & sliders)) continue;   /* nothing to pin or check */
    int position[3], piece[3] = {0, 0, 0}, count;
    unsigned between[3];
    bits between_bits[3];
    bool on_file_line = dir >= 2;
    if (!on_file_line)
      count = scan(rank_occupied, file, dir == 0, position, between);
    else
      count = scan(file_occupied, rank, dir == 2, position, between);
    for (int i = 0; i < count; i++) {
      if (on_file_line) {
        piece[i] = bit_at[position[i]][file];
        between_bits[i] = on_file(between[i], king);
      } else {
        piece[i] = king - file + position[i];
        between_bits[i] = on_rank(between[i], king);
      }
    }
    ray(bd, n, on_file_line, count, piece, between_bits);
  }
  bits horses = p[XQ_HORSE];
  if (!(any_horse_attacker[king] & horses)) horses = 0;
  for (int d = 0; horses && d < 4; d++) {
    bits h = horse_attackers[king][d] & horses;
    if (!h) continue;
    int leg = attacker_legs[king][d], code = bd->at[leg];
    if (!code) {
      n->checkers |= h;
      n->evasions |= h | BIT(leg);
    } else if (SIDE(code) == us) {
      pin(n, leg, count_bits(h) == 1 ? h : 0);
    }
  }
  bits pawns = pawn_attackers[them][king] & bd->pieces[them][XQ_PAWN];
  n->checkers |= pawns;
  n->evasions |= pawns;
  if (count_bits(n->checkers) > 1) n->evasions = ~(bits)0;
}

/* ---- counting and listing ---- */

/* A move is from | to << 8 (bits).  The functions below write the moves
   they find to out when it is not NULL, and return how many. */

static int write_moves(int from, bits to, uint16_t *out) {
  int n = 0;
  for (; to; to &= to - 1) out[n++] = (uint16_t)(from | first_bit(to) << 8);
  return n;
}

/* The general's steps. */
static int king_steps(const board *bd, uint16_t *out) {
  int us = bd->turn, king = bd->king[us], n = 0;
  bits occupied = (bd->side[0] | bd->side[1]) ^ BIT(king);
  bits files = bd->files ^ BIT(file_bit[king]);
  for (bits to = king_moves[us][king] & ~bd->side[us]; to; to &= to - 1) {
    int t = first_bit(to);
    if (king_safe(bd, t, occupied, files)) {
      if (out) out[n] = (uint16_t)(king | t << 8);
      n++;
    }
  }
  return n;
}

/* In check, the other pieces' moves that take or block a checker, or
   take a cannon's screen away, each tried on the board. */
static int evasions(const board *bd, const node *nd, uint16_t *out) {
  int us = bd->turn, n = 0;
  bits own = bd->side[us], enemy = bd->side[us ^ 1], occupied = own | enemy;
  for (bits m = own & ~BIT(bd->king[us]); m; m &= m - 1) {
    int from = first_bit(m);
    bits to = reach(bd, from, occupied, enemy) & ~own;
    if (!(nd->screens & BIT(from))) to &= nd->evasions;
    for (; to; to &= to - 1) {
      int t = first_bit(to);
      if (safe_after(bd, from, t)) {
        if (out) out[n] = (uint16_t)(from | t << 8);
        n++;
      }
    }
  }
  return n;
}

/* The legal moves, listed: for the nodes above the last ply. */
static int list_legal(const board *bd, uint16_t *out) {
  node nd;
  analyse(bd, &nd);
  int n = 0;
  if (nd.checkers) {
    n = evasions(bd, &nd, out);
  } else {
    int us = bd->turn;
    bits own = bd->side[us], enemy = bd->side[us ^ 1];
    bits occupied = own | enemy, target = ~own & ~nd.forbidden;
    for (bits m = own & ~nd.pinned & ~BIT(bd->king[us]); m; m &= m - 1) {
      int from = first_bit(m);
      n += write_moves(from, reach(bd, from, occupied, enemy) & target,
                       out + n);
    }
    for (int i = 0; i < nd.pins; i++) {
      int from = nd.pin_point[i];
      n += write_moves(from, reach(bd, from, occupied, enemy) & target &
                                 nd.pin_allowed[i], out + n);
    }
  }
  return n + king_steps(bd, out + n);
}

/* How many legal moves there are: the last ply, counted a kind of piece
   at a time. */
static int count_legal(const board *bd) {
  node nd;
  analyse(bd, &nd);
  if (nd.checkers) return evasions(bd, &nd, NULL) + king_steps(bd, NULL);
  int us = bd->turn, n = 0;
  bits own = bd->side[us], enemy = bd->side[us ^ 1];
  bits occupied = own | enemy, target = ~own & ~nd.forbidden;
  const bits *p = bd->pieces[us];
  bits free = ~nd.pinned;
  for (bits m = p[XQ_ROOK] & free; m; m &= m - 1)
    n += count_bits(rook_reach(occupied, bd->files, first_bit(m)) & target);
  for (bits m = p[XQ_CANNON] & free; m; m &= m - 1) {
    int from = first_bit(m);
    line r = rank_line(occupied, from), f = file_line(bd->files, from);
    n += count_bits(((on_rank(r.rook, from) | on_file(f.rook, from)) &
                     ~occupied & target) |
                    ((on_rank(r.cannon, from) | on_file(f.cannon, from)) &
                     enemy));
  }
  for (bits m = p[XQ_HORSE] & free; m; m &= m - 1)
    n += count_bits(horse_reach(bd, first_bit(m)) & target);
  for (bits m = p[XQ_ELEPHANT] & free; m; m &= m - 1)
    n += count_bits(elephant_reach(bd, us, first_bit(m)) & target);
  for (bits m = p[XQ_ADVISOR] & free; m; m &= m - 1)
    n += count_bits(advisor_moves[us][first_bit(m)] & target);
  for (bits m = p[XQ_PAWN] & free; m; m &= m - 1)
    n += count_bits(pawn_moves[us][first_bit(m)] & target);
  for (int i = 0; i < nd.pins; i++)
    n += count_bits(reach(bd, nd.pin_point[i], occupied, enemy) & target &
                    nd.pin_allowed[i]);
  return n + king_steps(bd, NULL);
}

/* ---- perft ---- */

static void set_up(board *bd, const xq_position *pos) {
  memset(bd, 0, sizeof *bd);
  for (int id = 16; id < 48; id++) {
    int sq = pos->square[id];
    if (!sq) continue;
    int b = bit_of[sq], side = xq_side_of(id), kind = xq_kind_table[id];
    bd->pieces[side][kind] |= BIT(b);
    bd->side[side] |= BIT(b);
    bd->files |= BIT(file_bit[b]);
    bd->at[b] = (uint8_t)CODE(side, kind);
    if (kind == XQ_KING) bd->king[side] = (uint8_t)b;
  }
  bd->turn = pos->turn;
}

/* The bit boards' part of a move by side us, its own inverse: make and
   unmake both call it. */
static inline void flip(board *bd, int us, int piece, int from, int to, int captured) {
  bits move = BIT(from) | BIT(to);
  bd->pieces[us][KIND(piece)] ^= move;
  bd->side[us] ^= move;
  bd->files ^= BIT(file_bit[from]);
  if (captured) {
    bd->pieces[us ^ 1][KIND(captured)] ^= BIT(to);
    bd->side[us ^ 1] ^= BIT(to);
  } else {
    bd->files ^= BIT(file_bit[to]);
  }
}

static inline int make(board *bd, int from, int to) {
  int piece = bd->at[from], captured = bd->at[to], us = bd->turn;
  flip(bd, us, piece, from, to, captured);
  bd->at[to] = (uint8_t)piece;
  bd->at[from] = 0;
  if (KIND(piece) == XQ_KING) bd->king[us] = (uint8_t)to;
  bd->turn = (uint8_t)(us ^ 1);
  return captured;
}

static inline void unmake(board *bd, int from, int to, int captured) {
  int us = bd->turn ^ 1, piece = bd->at[to];
  bd->turn = (uint8_t)us;
  flip(bd, us, piece, from, to, captured);
  bd->at[from] = (uint8_t)piece;
  bd->at[to] = (uint8_t)captured;
  if (KIND(piece) == XQ_KING) bd->king[us] = (uint8_t)from;
}

static uint64_t perft(board *bd, int depth, search_limit *limit) {
  if (depth == 1) return (uint64_t)count_legal(bd);
  uint16_t moves[XQ_MAX_MOVES];
  int n = list_legal(bd, moves);
  if (limit && limit_tick(limit)) return 0;
  uint64_t leaves = 0;
  for (int i = 0; i < n; i++) {
    int from = moves[i] & 0xff, to = moves[i] >> 8;
    int captured = make(bd, from, to);
    leaves += perft(bd, depth - 1, limit);
    unmake(bd, from, to, captured);
  }
  return leaves;
}

uint64_t xq_perft(xq_position *pos, int depth) {
  return xq_perft_limited(pos, depth, NULL);
}

uint64_t xq_perft_limited(xq_position *pos, int depth, search_limit *limit) {
  if (depth <= 0) return 1;
  if (!pos->square[XQ_KING_ID(XQ_RED)] || !pos->square[XQ_KING_ID(XQ_BLACK)])
    return 0;                     /* no legality without a general */
  board bd;
  set_up(&bd, pos);
  return perft(&bd, depth, limit);
}
