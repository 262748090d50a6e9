/*
** render.c: the board for a person.  As the seed draws it: red
** 帅仕相傌俥炮兵, black 将士象马车砲卒 (the two cannons told apart as on
** a real set), ＋ for an empty point (full width, as the pieces are; not
** the emoji ➕, whose width terminals disagree on) and the river between
** ranks 4 and 5 with its end marks, ┠ ～ 楚 河 ～ ～ ～ 汉 界 ～ ┨; black's
** file numbers above, red's below, ICCS ranks and files at the side.  The
** ASCII drawing uses FEN letters.  In colour, red's pieces are red,
** black's bold, the empty board dim, and the two points of the last move
** marked.
*/
#include <stdio.h>

#include "xiangqi.h"

static const char *const red_glyphs[XQ_KINDS] = {
  "帅", "仕", "相", "傌", "俥", "炮", "兵"
};
static const char *const black_glyphs[XQ_KINDS] = {
  "将", "士", "象", "马", "车", "砲", "卒"
};
static const char *const red_files[9] = {
  "九", "八", "七", "六", "五", "四", "三", "二", "一"
};
static const char *const black_files[9] = {
  "１", "２", "３", "４", "５", "６", "７", "８", "９"
};

static size_t ending_line(const xq_position *pos, char *buf, size_t size,
                          size_t n) {
  game_status status;
  xq_ending ending = xq_ending_of(pos, &status);
  static const char *const why[] = {
    [XQ_CHECKMATE] = "checkmate", [XQ_STALEMATE] = "no legal move",
    [XQ_PERPETUAL_CHECK] = "perpetual check",
    [XQ_PERPETUAL_CHASE] = "perpetual chase",
    [XQ_REPETITION] = "repetition",
    [XQ_MOVE_LIMIT] = "60 moves without a capture",
  };
  const char *side = pos->turn == XQ_RED ? "red" : "black";
  if (ending == XQ_PLAYING)
    return game_append(buf, size, n, "%s to move%s", side,
                       xq_in_check(pos) ? ", in check" : "");
  if (status == GAME_DRAW)
    return game_append(buf, size, n, "draw (%s)", why[ending]);
  return game_append(buf, size, n, "%s won (%s)",
                     status == GAME_WIN_0 ? "red" : "black", why[ending]);
}

/* A line of file labels: black's numbers above the board, red's below. */
static size_t file_labels(const char *const *names, char *buf, size_t size,
                          size_t n) {
  n = game_append(buf, size, n, " ");
  for (int file = 0; file < 9; file++)
    n = game_append(buf, size, n, " %s", names[file]);
  return game_append(buf, size, n, "\n");
}

/* The escape that starts a point: the last move's mark, a side's colour
   or the dim of the empty board; "" in plain text. */
static const char *point_style(const game_style *style, int square, int id) {
  if (!game_color(style)) return "";
  if (style->last != GAME_NO_MOVE &&
      (square == (int)(style->last & 0xff) || square == (int)(style->last >> 8 & 0xff)))
    return GAME_ANSI_MARK;
  if (!id) return GAME_ANSI_DIM;
  return xq_side_of(id) == XQ_RED ? GAME_ANSI_RED : GAME_ANSI_BOLD;
}

size_t xq_render(const xq_position *pos, bool ascii, const game_style *style,
                 char *buf, size_t size) {
  size_t n = 0;
  const char *reset = game_color(style) ? GAME_ANSI_RESET : "";
  if (ascii)
    n = game_append(buf, size, n, "  a b c d e f g h i\n");
  else
    n = file_labels(black_files, buf, size, n);
  for (int rank = 9; rank >= 0; rank--) {
    n = game_append(buf, size, n, "%d", rank);
    for (int file = 0; file < 9; file++) {
      int square = xq_square(file, rank);
      int id = pos->board[square];
      const char *start = point_style(style, square, id);
      if (ascii)
        n = game_append(buf, size, n, " %s%c%s", start, id ? xq_letter(id) : '.',
                        *start ? reset : "");
      else
        n = game_append(buf, size, n, " %s%s%s", start,
                        !id ? "＋"
                        : (xq_side_of(id) == XQ_RED ? red_glyphs
                                                    : black_glyphs)[xq_kind_of(id)],
                        *start ? reset : "");
    }
    n = game_append(buf, size, n, "\n");
    if (rank == 5)
      n = game_append(buf, size, n, ascii ? "  ~~~~~ river ~~~~~\n"
                                          : "┠ ～ 楚 河 ～ ～ ～ 汉 界 ～ ┨\n");
  }
  if (ascii)
    n = game_append(buf, size, n, "  a b c d e f g h i\n");
  else
    n = game_append(buf, size, file_labels(red_files, buf, size, n),
                    "   a  b  c  d  e  f  g  h  i\n");
  return ending_line(pos, buf, size, n);
}
