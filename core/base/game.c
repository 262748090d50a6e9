/*
** game.c: what every game gets from the protocol for free: final scores,
** perft, game counting and replaying a move record.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "game.h"

int game_final_score(const game_class *cls, const void *state) {
  game_status status = cls->status(state);
  if (status == GAME_ONGOING || status == GAME_DRAW) return 0;
  int winner = status == GAME_WIN_0 ? 0 : 1;
  return winner == cls->turn(state) ? GAME_SCORE_WIN : -GAME_SCORE_WIN;
}

uint64_t game_perft(const game_class *cls, void *state, int depth) {
  if (depth == 0) return 1;
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(state, moves);
  if (depth == 1) return (uint64_t)n;
  uint64_t leaves = 0;
  for (int i = 0; i < n; i++) {
    game_undo undo;
    cls->make(state, moves[i], &undo);
    leaves += game_perft(cls, state, depth - 1);
    cls->unmake(state, moves[i], &undo);
  }
  return leaves;
}

uint64_t game_count_games(const game_class *cls, void *state) {
  if (cls->status(state) != GAME_ONGOING) return 1;
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(state, moves);
  uint64_t games = 0;
  for (int i = 0; i < n; i++) {
    game_undo undo;
    cls->make(state, moves[i], &undo);
    games += game_count_games(cls, state);
    cls->unmake(state, moves[i], &undo);
  }
  return games;
}

static int is_separator(char c) {
  return isspace((unsigned char)c) || c == ',' || c == ';';
}

enum { MAX_MOVE_TEXT = 64 };

int game_replay(const game_class *cls, void *state, const char *text,
                game_move *moves, game_undo *undos, int cap,
                game_replay_error *err) {
  int count = 0;
  size_t at = 0;
  game_error code = GAME_OK;
  const char *why = NULL;
  size_t start = 0, length = 0;
  for (;;) {
    while (text[at] && is_separator(text[at])) at++;
    if (!text[at]) break;
    start = at;
    while (text[at] && !is_separator(text[at])) at++;
    length = at - start;
    char token[MAX_MOVE_TEXT];
    game_move move;
    game_undo undo;
    if (length >= sizeof token) {
      code = GAME_EBADTEXT;
      why = "too long for a move";
    } else if (count == cap) {
      code = GAME_EBADTEXT;
      why = "more moves than the record can hold";
    } else {
      memcpy(token, text + start, length);
      token[length] = '\0';
      code = cls->parse_move(state, token, &move, &why);
    }
    if (code != GAME_OK) break;
    cls->make(state, move, &undo);
    moves[count] = move;
    undos[count] = undo;
    count++;
  }
  if (code == GAME_OK) return count;
  err->ply = count + 1;
  err->offset = start;
  err->length = length;
  err->code = code;
  err->why = why;
  while (count > 0) {
    count--;
    cls->unmake(state, moves[count], &undos[count]);
  }
  return -1;
}

size_t game_append(char *buf, size_t size, size_t used, const char *format,
                   ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(used < size ? buf + used : NULL,
                    used < size ? size - used : 0, format, args);
  va_end(args);
  return used + (size_t)(n > 0 ? n : 0);
}
