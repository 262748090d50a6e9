/*
** class.c: xiangqi as a game of the protocol (core/base/game.h).  A move
** is an xq_move; moves are written in ICCS and read in any notation.
*/
#include <string.h>

#include "xiangqi.h"

_Static_assert(sizeof(xq_undo) <= sizeof(game_undo), "undo fits");

static void class_init(void *state) { xq_init(state); }

static int class_turn(const void *state) {
  return ((const xq_position *)state)->turn;
}

static int class_moves(const void *state, game_move *out) {
  if (xq_status(state) != GAME_ONGOING) return 0;
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_legal_moves(state, moves);
  for (int i = 0; i < n; i++) out[i] = moves[i];
  return n;
}

static void class_make(void *state, game_move move, game_undo *undo) {
  xq_undo u;
  xq_make(state, (xq_move)move, &u);
  memset(undo, 0, sizeof *undo);
  memcpy(undo, &u, sizeof u);
}

static void class_unmake(void *state, game_move move, const game_undo *undo) {
  xq_undo u;
  memcpy(&u, undo, sizeof u);
  xq_unmake(state, (xq_move)move, &u);
}

static game_status class_status(const void *state) { return xq_status(state); }

static uint64_t class_hash(const void *state) {
  return ((const xq_position *)state)->key;
}

static int class_eval(const void *state) { return xq_evaluate(state); }

static game_error class_parse_move(const void *state, const char *text,
                                   game_move *move, const char **why) {
  xq_move m;
  game_error code = xq_parse_move(state, text, &m, why);
  if (code == GAME_OK) *move = m;
  return code;
}

static size_t class_format_move(const void *state, game_move move, char *buf,
                                size_t size) {
  return xq_format_move(state, (xq_move)move, XQ_ICCS, buf, size);
}

static size_t class_render(const void *state, const game_style *style,
                           char *buf, size_t size) {
  return xq_render(state, false, style, buf, size);
}

const game_class xq_class = {
  .name = "xiangqi",
  .side = {"red", "black"},
  .state_size = sizeof(xq_position),
  .max_moves = XQ_MAX_MOVES,
  .init = class_init,
  .turn = class_turn,
  .moves = class_moves,
  .make = class_make,
  .unmake = class_unmake,
  .status = class_status,
  .hash = class_hash,
  .eval = class_eval,
  .parse_move = class_parse_move,
  .format_move = class_format_move,
  .render = class_render,
};
