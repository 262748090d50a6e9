/*
** internal.h: what the xiangqi files share and nobody else needs.
*/
#ifndef XQ_INTERNAL_H
#define XQ_INTERNAL_H

#include <stdint.h>

#include "xiangqi.h"

/* xq_point[square]: what kind of point a square is. */
#define XQ_POINT 1
#define XQ_HALF_RED 2            /* ranks 0-4 */
#define XQ_HALF_BLACK 4
#define XQ_PALACE_RED 8
#define XQ_PALACE_BLACK 16
#define XQ_HALF(side) (XQ_HALF_RED << (side))
#define XQ_PALACE(side) (XQ_PALACE_RED << (side))

extern uint8_t xq_point[256];
/* The kind of the piece id in a board byte; XQ_KINDS for 0 and XQ_OFF. */
extern uint8_t xq_kind_table[XQ_OFF + 1];
/* Keys by side * XQ_KINDS + kind and square. */
extern uint64_t xq_zobrist[2 * XQ_KINDS][256];
extern uint64_t xq_zobrist_turn;

#define XQ_KING_ID(side) (16 << (side))
#define XQ_PIECE_KEY(id, sq) \
  xq_zobrist[xq_side_of(id) * XQ_KINDS + xq_kind_table[id]][sq]

/* Whether the side to move may make the move without leaving its general
   attacked; in_check says whether it is attacked now.  The position is
   changed and put back. */
bool xq_move_is_safe(xq_position *pos, xq_move move, bool in_check);

/* Builds bitboard.c's tables; board.c calls it once. */
void xq_bitboard_init(void);

/* ---- text.c: the lines of a record file, as UTF-8 ---- */

typedef struct xq_lines {
  const unsigned char *data;      /* the text, and how far it is read */
  size_t size, at;
  size_t start;                   /* where the line last read begins */
  int number;                     /* of the line last read, from 1 */
  xq_encoding asked;              /* AUTO, or what the caller said */
  xq_encoding legacy;             /* GBK or Big5 once found */
  /* The line last read: UTF-8 without its line end or byte-order mark,
     what it was read as, and how many bytes were no text in that. */
  const char *text;
  size_t length;
  xq_encoding encoding;
  size_t replaced;
  char *buffer;                   /* for lines that are converted */
  size_t capacity;
  char *converted;                /* the whole text, when it was UTF-16 */
  void *iconv[2];                 /* GBK and Big5 to UTF-8, once needed */
} xq_lines;

/* false when out of memory. */
bool xq_lines_open(xq_lines *lines, const char *data, size_t size,
                   xq_encoding encoding);
/* Reads the next line; false at the end of the text. */
bool xq_lines_next(xq_lines *lines);
void xq_lines_close(xq_lines *lines);

/* How many bytes of the n at s to show in a message: at most max,
   ending on a whole UTF-8 character. */
int xq_shown(const char *s, size_t n, size_t max);

/* The length of the white space at s (ASCII blanks and controls, the
   no-break space, the ideographic space U+3000), 0 if there is none. */
size_t xq_space(const char *s, size_t left);

#endif
