/*
** obf.c: OBF lines, a position and the exact score of its moves, as the
** FFO endgame tests and Edax write them:
**
**   --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;
**
** The board string (cells from a1, then the side to move), then after
** each ';' a move and the final disc difference it leads to with perfect
** play, for the side to move (the empty squares going to the winner).
*/
#include <string.h>

#include "formats.h"

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

const char *reversi_obf_read(const char *text, size_t len, reversi_record *rec,
                             size_t *at) {
  size_t semi = 0;
  while (semi < len && text[semi] != ';') semi++;
  *at = 0;
  reversi_board board;
  const char *why = reversi_parse_board(text, semi, &board);
  if (why) return why;
  rec->start = rec->board = board;
  rec->plies = 0;
  rec->answers = 0;
  uint64_t listed = 0;
  bool pass_listed = false;
  for (size_t i = semi; i < len;) {
    while (i < len && (text[i] == ';' || is_blank(text[i]))) i++;
    if (i == len || text[i] == '%') break;      /* a comment ends the line */
    *at = i;
    size_t move = i;
    while (i < len && text[i] != ':' && text[i] != ';' && !is_blank(text[i])) i++;
    size_t move_len = i - move;
    while (i < len && is_blank(text[i])) i++;
    if (i == len || text[i] != ':')
      return "an answer is a move, ':' and its score (G8:+18)";
    i++;
    while (i < len && is_blank(text[i])) i++;
    int square = reversi_parse_square(&board, text + move, move_len);
    if (square < 0) return "an answer's move is not a square of the board";
    uint64_t legal = reversi_legal(&board);
    if (square == REVERSI_PASS ? legal != 0 || reversi_is_over(&board)
                               : !(legal >> square & 1))
      return "an answer's move is not legal in the position";
    if (square == REVERSI_PASS ? pass_listed : (listed >> square & 1))
      return "a move with two answers";
    if (square == REVERSI_PASS) pass_listed = true;
    else listed |= (uint64_t)1 << square;
    *at = i;
    bool negative = false;
    if (i < len && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    int score = 0, digits = 0;
    while (i < len && text[i] >= '0' && text[i] <= '9' && digits < 3)
      score = score * 10 + (text[i++] - '0'), digits++;
    if (digits == 0 || (i < len && text[i] != ';' && !is_blank(text[i])))
      return "an answer's score is a whole number of discs (+18, -4)";
    int squares = board.size * board.size;
    if (score > squares) return "an answer's score is more than the board's squares";
    rec->answer_square[rec->answers] = (uint8_t)square;
    rec->answer_score[rec->answers] = (int8_t)(negative ? -score : score);
    rec->answers++;
  }
  return NULL;
}

size_t reversi_obf_write(const reversi_record *rec, char *buf, size_t size) {
  size_t used = reversi_format_board(&rec->board, buf, size);
  used = game_append(buf, size, used, ";");
  for (int i = 0; i < rec->answers; i++) {
    char name[5];
    reversi_square_name(&rec->board, rec->answer_square[i], name);
    if (rec->answer_square[i] == REVERSI_PASS) memcpy(name, "PS", 3);
    name[0] = (char)(name[0] >= 'a' && name[0] <= 'z' ? name[0] - 32 : name[0]);
    used = game_append(buf, size, used, " %s:%+d;", name, rec->answer_score[i]);
  }
  return game_append(buf, size, used, "\n");
}
