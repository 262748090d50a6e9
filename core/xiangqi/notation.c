/*
** notation.c: moves as ICCS coordinates, WXF and Chinese text.
**
** ICCS names the two points: "h2e2" (files a-i from red's left, ranks 0-9
** from red's side).  WXF and Chinese name the piece, the file it stands
** on, the direction and a number: files are counted 1-9 from each
** player's right; a straight move counts the ranks it goes, any other
** names the file it lands on.  Two like pieces on one file are told apart
** as front and rear, and soldiers on a file of three to five by their
** place (the WXF's and the Chinese rules' forms, see wxf.org).
*/
#include <stdio.h>
#include <string.h>

#include "xiangqi.h"
#include "internal.h"

static const char wxf_letters[XQ_KINDS] = {'K', 'A', 'E', 'H', 'R', 'C', 'P'};
static const char *const chinese_red[XQ_KINDS] = {
  "帅", "仕", "相", "马", "车", "炮", "兵"
};
static const char *const chinese_black[XQ_KINDS] = {
  "将", "士", "象", "马", "车", "炮", "卒"
};
static const char *const numerals[10] = {
  "", "一", "二", "三", "四", "五", "六", "七", "八", "九"
};
static const char *const kind_names[XQ_KINDS] = {
  "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"
};

/* The file number a player gives file f (0 = a), and back. */
static int file_number(int side, int file) {
  return side == XQ_RED ? 9 - file : file + 1;
}
static int file_of_number(int side, int number) {
  return side == XQ_RED ? 9 - number : number - 1;
}

/* How far forward rank r is for side: 0 at its back rank. */
static int advance(int side, int rank) {
  return side == XQ_RED ? rank : 9 - rank;
}

/* The pieces of side and kind on file, front (most advanced) first;
   returns how many. */
static int on_file(const xq_position *pos, int side, int kind, int file,
                   int *ids) {
  int n = 0;
  for (int step = 0; step < 10; step++) {
    int rank = side == XQ_RED ? 9 - step : step;
    int id = pos->board[xq_square(file, rank)];
    if (id && xq_side_of(id) == side && xq_kind_table[id] == kind)
      ids[n++] = id;
  }
  return n;
}

/* How many files hold two or more soldiers of side. */
static int stacked_files(const xq_position *pos, int side) {
  int files = 0, ids[10];
  for (int file = 0; file < 9; file++)
    if (on_file(pos, side, XQ_PAWN, file, ids) >= 2) files++;
  return files;
}

/* ---- writing ---- */

/* How a piece is named: its file, or its place among like pieces. */
typedef enum place {
  BY_FILE, FRONT, REAR, MIDDLE, SECOND, THIRD, FOURTH, FOREMOST, REARMOST,
  FILE_FRONT, FILE_MIDDLE, FILE_REAR      /* soldiers stacked on two files */
} place;

static place place_of(const xq_position *pos, int id) {
  int side = xq_side_of(id), kind = xq_kind_table[id];
  int ids[10], c = on_file(pos, side, kind, xq_file(pos->square[id]), ids);
  if (c == 1 || kind == XQ_KING || kind == XQ_ADVISOR || kind == XQ_ELEPHANT)
    return BY_FILE;
  int at = 0;
  while (ids[at] != id) at++;
  if (kind == XQ_PAWN && stacked_files(pos, side) >= 2)
    return at == 0 ? FILE_FRONT : at == c - 1 ? FILE_REAR : FILE_MIDDLE;
  if (at == 0) return c >= 4 ? FOREMOST : FRONT;
  if (at == c - 1) return c >= 4 ? REARMOST : REAR;
  if (c == 3 || (c == 5 && at == 2)) return MIDDLE;
  return at == 1 ? SECOND : at == 2 ? THIRD : FOURTH;
}

size_t xq_format_move(const xq_position *pos, xq_move move,
                      xq_notation notation, char *buf, size_t size) {
  int from = XQ_FROM(move), to = XQ_TO(move);
  if (notation == XQ_ICCS)
    return (size_t)snprintf(buf, size, "%c%d%c%d", 'a' + xq_file(from),
                            xq_rank(from), 'a' + xq_file(to), xq_rank(to));
  int id = pos->board[from], side = xq_side_of(id), kind = xq_kind_table[id];
  int cf = xq_file(from), cr = xq_rank(from), tf = xq_file(to), tr = xq_rank(to);
  int act = tr == cr ? '.' : advance(side, tr) > advance(side, cr) ? '+' : '-';
  int number = act == '.' || kind == XQ_ADVISOR || kind == XQ_ELEPHANT ||
               kind == XQ_HORSE ? file_number(side, tf)
             : tr > cr ? tr - cr : cr - tr;
  int file = file_number(side, cf);
  place where = place_of(pos, id);
  if (notation == XQ_WXF) {
    char letter = wxf_letters[kind], head[8];
    switch (where) {
    case BY_FILE: case MIDDLE: snprintf(head, sizeof head, "%c%d", letter, file); break;
    case FRONT: case SECOND: snprintf(head, sizeof head, "%c+", letter); break;
    case REAR: case THIRD: case FOURTH: snprintf(head, sizeof head, "%c-", letter); break;
    case FOREMOST: snprintf(head, sizeof head, "++"); break;
    case REARMOST: snprintf(head, sizeof head, "--"); break;
    case FILE_FRONT: snprintf(head, sizeof head, "%d+", file); break;
    case FILE_MIDDLE: snprintf(head, sizeof head, "%d%d", file, file); break;
    case FILE_REAR: snprintf(head, sizeof head, "%d-", file); break;
    }
    return (size_t)snprintf(buf, size, "%s%c%d", head, act, number);
  }
  const char *piece = (side == XQ_RED ? chinese_red : chinese_black)[kind];
  char file_text[8], number_text[8];
  if (side == XQ_RED) {
    snprintf(file_text, sizeof file_text, "%s", numerals[file]);
    snprintf(number_text, sizeof number_text, "%s", numerals[number]);
  } else {
    snprintf(file_text, sizeof file_text, "%d", file);
    snprintf(number_text, sizeof number_text, "%d", number);
  }
  const char *action = act == '+' ? "进" : act == '-' ? "退" : "平";
  static const char *const prefix[] = {
    [FRONT] = "前", [REAR] = "后", [MIDDLE] = "中", [SECOND] = "二",
    [THIRD] = "三", [FOURTH] = "四", [FOREMOST] = "前", [REARMOST] = "后",
    [FILE_FRONT] = "前", [FILE_MIDDLE] = "中", [FILE_REAR] = "后",
  };
  if (where == BY_FILE)
    return (size_t)snprintf(buf, size, "%s%s%s%s", piece, file_text, action,
                            number_text);
  if (where >= FILE_FRONT)
    return (size_t)snprintf(buf, size, "%s%s%s%s", prefix[where], file_text,
                            action, number_text);
  return (size_t)snprintf(buf, size, "%s%s%s%s", prefix[where], piece, action,
                          number_text);
}

/* ---- reading ---- */

typedef enum token_type {
  T_PIECE, T_DIGIT, T_SIGN, T_SIDEWAYS, T_FRONT, T_MIDDLE, T_REAR,
  T_FORWARD, T_BACK                       /* 进 and 退: never a place */
} token_type;

typedef struct token {
  token_type type;
  int value;                              /* kind, digit or +1/-1 */
  bool chinese;
} token;

typedef struct word {
  const char *text;
  token_type type;
  int value;
} word;

static const word words[] = {
  {"帅", T_PIECE, XQ_KING}, {"帥", T_PIECE, XQ_KING}, {"将", T_PIECE, XQ_KING},
  {"將", T_PIECE, XQ_KING}, {"仕", T_PIECE, XQ_ADVISOR},
  {"士", T_PIECE, XQ_ADVISOR}, {"相", T_PIECE, XQ_ELEPHANT},
  {"象", T_PIECE, XQ_ELEPHANT}, {"马", T_PIECE, XQ_HORSE},
  {"馬", T_PIECE, XQ_HORSE}, {"傌", T_PIECE, XQ_HORSE},
  {"车", T_PIECE, XQ_ROOK}, {"車", T_PIECE, XQ_ROOK}, {"俥", T_PIECE, XQ_ROOK},
  {"炮", T_PIECE, XQ_CANNON}, {"砲", T_PIECE, XQ_CANNON},
  {"包", T_PIECE, XQ_CANNON}, {"兵", T_PIECE, XQ_PAWN},
  {"卒", T_PIECE, XQ_PAWN}, {"进", T_FORWARD, 1}, {"進", T_FORWARD, 1},
  {"退", T_BACK, -1}, {"平", T_SIDEWAYS, 0}, {"前", T_FRONT, 0},
  {"后", T_REAR, 0}, {"後", T_REAR, 0}, {"中", T_MIDDLE, 0},
  {"一", T_DIGIT, 1}, {"二", T_DIGIT, 2}, {"三", T_DIGIT, 3},
  {"四", T_DIGIT, 4}, {"五", T_DIGIT, 5}, {"六", T_DIGIT, 6},
  {"七", T_DIGIT, 7}, {"八", T_DIGIT, 8}, {"九", T_DIGIT, 9},
  {"１", T_DIGIT, 1}, {"２", T_DIGIT, 2}, {"３", T_DIGIT, 3},
  {"４", T_DIGIT, 4}, {"５", T_DIGIT, 5}, {"６", T_DIGIT, 6},
  {"７", T_DIGIT, 7}, {"８", T_DIGIT, 8}, {"９", T_DIGIT, 9},
  {"＋", T_SIGN, 1}, {"－", T_SIGN, -1}, {"＝", T_SIDEWAYS, 0},
};

#define MAX_TOKENS 6

/* Splits WXF or Chinese text into tokens; returns how many, or -1. */
static int tokenize(const char *text, token *out) {
  int n = 0;
  for (size_t at = 0; text[at];) {
    char c = text[at];
    if (c == ' ') {
      at++;
      continue;
    }
    if (n == MAX_TOKENS) return -1;
    token t = {T_DIGIT, 0, false};
    const char *letter = strchr("KGAEBHNRCPS", c & ~0x20);
    if ((unsigned char)c < 128) {
      at++;
      if (c >= '1' && c <= '9') {
        t.value = c - '0';
      } else if (c == '+' || c == '-') {
        t.type = T_SIGN;
        t.value = c == '+' ? 1 : -1;
      } else if (c == '.' || c == '=') {
        t.type = T_SIDEWAYS;
      } else if (((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) && letter) {
        static const int kinds[] = {
          XQ_KING, XQ_KING, XQ_ADVISOR, XQ_ELEPHANT, XQ_ELEPHANT, XQ_HORSE,
          XQ_HORSE, XQ_ROOK, XQ_CANNON, XQ_PAWN, XQ_PAWN
        };
        t.type = T_PIECE;
        t.value = kinds[letter - "KGAEBHNRCPS"];
      } else {
        return -1;
      }
    } else {
      /* every word is one character of three bytes in UTF-8 */
      size_t i = 0, count = sizeof words / sizeof *words;
      if (!text[at + 1] || !text[at + 2]) return -1;
      while (i < count && (words[i].text[0] != text[at] ||
                           words[i].text[1] != text[at + 1] ||
                           words[i].text[2] != text[at + 2]))
        i++;
      if (i == count) return -1;
      t.type = words[i].type;
      t.value = words[i].value;
      t.chinese = true;
      at += 3;
    }
    out[n++] = t;
  }
  return n;
}

/* Which of the like pieces on a file the text means. */
typedef enum pick {
  PICK_ANY,          /* every one (the middle of an odd stack if several
                        could make the move) */
  PICK_FRONT,        /* the index-th from the front */
  PICK_REAR,         /* the index-th from the rear */
  PICK_MIDDLE,
  PICK_WXF_FRONT,    /* WXF's P+: the front, or the second of four or five */
  PICK_WXF_REAR
} pick;

typedef struct designator {
  int kind;          /* -1 until known */
  int file;          /* board file, or -1: any file with a stack */
  pick pick;
  int index;
} designator;

static bool is_place(const token *t) {
  return t->type == T_SIGN || t->type == T_FRONT || t->type == T_REAR ||
         t->type == T_MIDDLE;
}

static pick place_pick(const token *t) {
  if (t->type == T_MIDDLE) return PICK_MIDDLE;
  bool front = t->type == T_FRONT || (t->type == T_SIGN && t->value > 0);
  return front ? PICK_FRONT : PICK_REAR;
}

/* Reads the tokens before the direction into d; false if they are no
   designator. */
static bool read_designator(const token *t, int n, int side, designator *d) {
  d->kind = -1;
  d->file = -1;
  d->pick = PICK_ANY;
  d->index = 0;
  if (n == 2 && t[0].type == T_PIECE && t[1].type == T_DIGIT) {
    d->kind = t[0].value;                              /* C2, 炮二 */
    d->file = file_of_number(side, t[1].value);
    return true;
  }
  if (n == 2 && t[0].type == T_PIECE && is_place(&t[1])) {
    d->kind = t[0].value;                              /* R+, 车前 */
    d->pick = place_pick(&t[1]);
    if (t[1].type == T_SIGN && !t[1].chinese)
      d->pick = d->pick == PICK_FRONT ? PICK_WXF_FRONT : PICK_WXF_REAR;
    return true;
  }
  if (n == 2 && is_place(&t[0]) && t[1].type == T_PIECE) {
    d->kind = t[1].value;                              /* +R, 前车, 中兵 */
    d->pick = place_pick(&t[0]);
    return true;
  }
  if (n == 2 && t[0].type == T_SIGN && t[1].type == T_SIGN &&
      t[0].value == t[1].value) {
    d->kind = XQ_PAWN;                                 /* ++, -- */
    d->pick = place_pick(&t[0]);
    return true;
  }
  if (n == 2 && t[0].type == T_DIGIT && t[1].type == T_PIECE &&
      t[0].value <= 5) {
    d->kind = t[1].value;                              /* 二兵: the second */
    d->pick = PICK_FRONT;
    d->index = t[0].value - 1;
    return true;
  }
  if (n == 2 && t[0].type == T_DIGIT && (t[1].type == T_SIGN ||
      (t[1].type == T_DIGIT && t[1].value == t[0].value))) {
    d->kind = XQ_PAWN;                                 /* 3+, 33, 3- */
    d->file = file_of_number(side, t[0].value);
    d->pick = t[1].type == T_DIGIT ? PICK_MIDDLE : place_pick(&t[1]);
    return true;
  }
  if (n == 2 && is_place(&t[0]) && t[1].type == T_DIGIT) {
    d->kind = XQ_PAWN;                                 /* 前七 */
    d->file = file_of_number(side, t[1].value);
    d->pick = place_pick(&t[0]);
    return true;
  }
  if (n == 3 && is_place(&t[0]) && t[1].type == T_PIECE &&
      t[2].type == T_DIGIT) {
    d->kind = t[1].value;                              /* 前兵七 */
    d->file = file_of_number(side, t[2].value);
    d->pick = place_pick(&t[0]);
    return true;
  }
  return false;
}

/* The one piece the designator picks among the c on a file (front
   first), or -1. */
static int pick_index(const designator *d, int c) {
  switch (d->pick) {
  case PICK_ANY: return -1;
  case PICK_FRONT: return c >= 2 && d->index < c ? d->index : -2;
  case PICK_REAR: return c >= 2 && d->index < c ? c - 1 - d->index : -2;
  case PICK_MIDDLE: return c == 3 || c == 5 ? c / 2 : -2;
  case PICK_WXF_FRONT: return c < 2 ? -2 : c >= 4 ? 1 : 0;
  case PICK_WXF_REAR: return c < 2 ? -2 : c >= 4 ? c - 2 : c - 1;
  }
  return -2;
}

/* Where the piece on from lands moving in direction act (+1, -1, 0 for
   sideways) with the number; 0 if nowhere. */
static int target_of(int side, int kind, int from, int act, int number) {
  int cf = xq_file(from), cr = xq_rank(from), forward = side == XQ_RED ? 1 : -1;
  int tf, tr;
  if (act == 0) {
    if (kind == XQ_ADVISOR || kind == XQ_ELEPHANT || kind == XQ_HORSE) return 0;
    tf = file_of_number(side, number);
    tr = cr;
  } else if (kind == XQ_ADVISOR || kind == XQ_ELEPHANT || kind == XQ_HORSE) {
    tf = file_of_number(side, number);
    int df = tf > cf ? tf - cf : cf - tf;
    int dr = kind == XQ_ADVISOR ? (df == 1 ? 1 : 0)
           : kind == XQ_ELEPHANT ? (df == 2 ? 2 : 0)
           : df == 1 ? 2 : df == 2 ? 1 : 0;
    if (!dr) return 0;
    tr = cr + act * forward * dr;
  } else {
    tf = cf;
    tr = cr + act * forward * number;
  }
  if (tf < 0 || tf > 8 || tr < 0 || tr > 9) return 0;
  return xq_square(tf, tr);
}

static const char *const side_names[2] = {"red", "black"};

/* Why from-to is not a legal move for the side to move.  The protocol
   hands back a reason as a pointer, so reasons that name points are
   written to a buffer of each thread's own. */
static const char *why_illegal(const xq_position *pos, int from, int to) {
  static _Thread_local char why[96];
  int id = pos->board[from];
  char name[3] = {(char)('a' + xq_file(from)), (char)('0' + xq_rank(from)), 0};
  if (!id) {
    snprintf(why, sizeof why, "there is no piece on %s", name);
    return why;
  }
  if (xq_side_of(id) != pos->turn) {
    snprintf(why, sizeof why, "the piece on %s is %s's", name,
             side_names[xq_side_of(id)]);
    return why;
  }
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_pseudo_moves(pos, moves);
  for (int i = 0; i < n; i++) {
    if (moves[i] != XQ_MOVE(from, to)) continue;
    xq_position *p = (xq_position *)pos;     /* tried and put back */
    int captured = p->board[to];
    p->board[to] = (uint8_t)id;
    p->board[from] = 0;
    int king = xq_kind_table[id] == XQ_KING ? to : p->square[XQ_KING_ID(pos->turn)];
    int other = p->square[XQ_KING_ID(pos->turn ^ 1)];
    bool facing = (king & 15) == (other & 15);
    for (int s = king + (king < other ? 16 : -16); facing && s != other;
         s += king < other ? 16 : -16)
      facing = p->board[s] == 0;
    p->board[from] = (uint8_t)id;
    p->board[to] = (uint8_t)captured;
    snprintf(why, sizeof why, facing ? "the generals would face each other"
             : "it would leave the %s general in check",
             side_names[pos->turn]);
    return why;
  }
  snprintf(why, sizeof why, "a %s cannot go from %s to %c%d",
           kind_names[xq_kind_table[id]], name, 'a' + xq_file(to),
           xq_rank(to));
  return why;
}

static int iccs_file(char c) {
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'i' ? c - 'a' : -1;
}

/* "h2e2", "H2-E2": the two points, or false. */
static bool read_iccs(const char *text, int *from, int *to) {
  size_t len = strlen(text);
  if (len != 4 && !(len == 5 && text[2] == '-')) return false;
  const char *second = text + len - 2;
  if (iccs_file(text[0]) < 0 || iccs_file(second[0]) < 0 ||
      text[1] < '0' || text[1] > '9' || second[1] < '0' || second[1] > '9')
    return false;
  *from = xq_square(iccs_file(text[0]), text[1] - '0');
  *to = xq_square(iccs_file(second[0]), second[1] - '0');
  return true;
}

game_error xq_parse_move(const xq_position *pos, const char *text,
                         xq_move *move, const char **why) {
  if (xq_status(pos) != GAME_ONGOING) {
    *why = "the game is over";
    return GAME_EOVER;
  }
  return xq_read_move(pos, text, move, why);
}

game_error xq_read_move(const xq_position *pos, const char *text,
                        xq_move *move, const char **why) {
  static _Thread_local char reason[128];
  int from, to;
  if (read_iccs(text, &from, &to)) {
    if (!xq_is_legal(pos, XQ_MOVE(from, to))) {
      *why = why_illegal(pos, from, to);
      return GAME_EILLEGAL;
    }
    *move = XQ_MOVE(from, to);
    return GAME_OK;
  }
  token t[MAX_TOKENS];
  int n = tokenize(text, t);
  int side = pos->turn;
  designator d;
  if (n < 3 || !(t[n - 1].type == T_DIGIT) ||
      !(t[n - 2].type == T_SIGN || t[n - 2].type == T_SIDEWAYS ||
        t[n - 2].type == T_FORWARD || t[n - 2].type == T_BACK) ||
      !read_designator(t, n - 2, side, &d)) {
    *why = "not a move in ICCS (h2e2), WXF (C2.5) or Chinese (炮二平五)";
    return GAME_EBADTEXT;
  }
  int act = t[n - 2].type == T_SIDEWAYS ? 0 : t[n - 2].value;
  int number = t[n - 1].value;
  /* Only the moves the text may mean are tried for safety. */
  xq_move pseudo[XQ_MAX_MOVES], found[10];
  int pseudo_count = xq_pseudo_moves(pos, pseudo), matches = 0, middle = -1;
  bool check = xq_in_check(pos);
  int pieces = 0;
  for (int file = 0; file < 9; file++) {
    if (d.file >= 0 && file != d.file) continue;
    int ids[10], c = on_file(pos, side, d.kind, file, ids);
    if (d.file < 0 && c < 2) continue;      /* front and rear need two */
    int only = pick_index(&d, c);
    for (int i = 0; i < c; i++) {
      if (only == -2 || (only >= 0 && i != only)) continue;
      pieces++;
      int at = pos->square[ids[i]];
      int target = target_of(side, d.kind, at, act, number);
      for (int k = 0; target && k < pseudo_count && matches < 10; k++) {
        if (pseudo[k] != XQ_MOVE(at, target) ||
            !xq_move_is_safe((xq_position *)pos, pseudo[k], check))
          continue;
        if (d.pick == PICK_ANY && (c == 3 || c == 5) && i == c / 2)
          middle = matches;
        found[matches++] = pseudo[k];
      }
    }
  }
  const char *kind = kind_names[d.kind];
  if (matches == 1 || (matches > 1 && middle >= 0 && d.kind == XQ_PAWN)) {
    *move = found[matches == 1 ? 0 : middle];
    return GAME_OK;
  }
  if (matches > 1) {
    snprintf(reason, sizeof reason, "ambiguous: %d %ss can make it (say "
             "which, e.g. front or rear)", matches, kind);
  } else if (pieces == 0 && d.file >= 0) {
    snprintf(reason, sizeof reason, "no %s %s on file %d", side_names[side],
             kind, file_number(side, d.file));
  } else if (pieces == 0) {
    snprintf(reason, sizeof reason, "no %s %ss stand on one file as named",
             side_names[side], kind);
  } else {
    snprintf(reason, sizeof reason, "no %s %s can move so", side_names[side],
             kind);
  }
  *why = reason;
  return GAME_EILLEGAL;
}
