/*
** fuzz_mnk.c: tic-tac-toe and m,n,k records through the generic reader
** (game_replay, core/base/game.h) and each class's parse_move
** (ttt_parse_square, mnk_parse_cell).
**
** The input: a byte of choices (the class), for m,n,k three bytes for
** the size and the rule, then a line with a record, then bytes that pick
** the moves of a walk.  A record read is written again and replays the
** same, and every position on the way is checked (fuzz.h); a tic-tac-toe
** record must mean the same as on the 3,3,3 board of mnk.
*/
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "mnk/mnk.h"
#include "tictactoe/tictactoe.h"

enum { RECORD_CAP = 256 };

/* The same record on both boards: the same moves, the same end. */
static void compare_with_mnk(const char *text) {
  ttt_board ttt;
  mnk_board mnk;
  ttt_init(&ttt);
  mnk_init(&mnk, 3, 3, 3, false);
  game_move a[16], b[16];
  game_undo ua[16], ub[16];
  game_replay_error ea, eb;
  int na = game_replay(&ttt_class, &ttt, text, a, ua, 16, &ea);
  int nb = game_replay(&mnk_class, &mnk, text, b, ub, 16, &eb);
  FUZZ_CHECK(na == nb, "'%s': %d moves in tic-tac-toe, %d in m,n,k", text, na,
             nb);
  if (na < 0) {
    FUZZ_CHECK(ea.ply == eb.ply && ea.code == eb.code,
               "'%s': refused at ply %d (%d) and at ply %d (%d)", text, ea.ply,
               (int)ea.code, eb.ply, (int)eb.code);
    return;
  }
  FUZZ_CHECK(memcmp(a, b, sizeof *a * (size_t)na) == 0, "'%s': other moves",
             text);
  FUZZ_CHECK(ttt_class.status(&ttt) == mnk_class.status(&mnk),
             "'%s': another ending", text);
}

static void read_square(const game_class *cls, const void *state,
                        const char *text) {
  if (cls == &ttt_class) {
    int square = ttt_parse_square(text);
    FUZZ_CHECK(square >= -1 && square < TTT_SQUARES, "square %d", square);
    if (square < 0) return;
    char name[3];
    ttt_square_name(square, name);
    FUZZ_CHECK(ttt_parse_square(name) == square, "'%s' is not %d", name, square);
    return;
  }
  const mnk_board *board = state;
  int cell = mnk_parse_cell(board, text);
  FUZZ_CHECK(cell >= -1 && cell < board->m * board->n, "cell %d", cell);
  if (cell < 0) return;
  char name[8];
  mnk_cell_name(board, cell, name);
  FUZZ_CHECK(mnk_parse_cell(board, name) == cell, "'%s' is not %d", name, cell);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in);
  union {
    ttt_board ttt;
    mnk_board mnk;
  } state;
  const game_class *cls;
  if ((choice & 3) == 0) {
    cls = &ttt_class;
    ttt_init(&state.ttt);
  } else {
    cls = (choice & 3) == 1 ? &mnk_class : &gomoku_class;
    int m = 1 + (int)fuzz_byte(&in) % MNK_MAX_SIDE;
    int n = 1 + (int)fuzz_byte(&in) % MNK_MAX_SIDE;
    unsigned rule = fuzz_byte(&in);
    int k = 1 + (int)(rule >> 1) % (m > n ? m : n);
    if ((choice & 3) == 3) {
      m = n = 15;
      k = 5;
    }
    if (!mnk_size_ok(m, n, k)) return 0;
    mnk_init(&state.mnk, m, n, k, rule & 1);
  }
  size_t len;
  const uint8_t *line = fuzz_line(&in, &len);
  char *text = fuzz_copy(line, len, true);
  if (choice & 4) {
    read_square(cls, &state, text);
  } else {
    fuzz_check_position(cls, &state);
    int played = fuzz_check_replay(cls, &state, text, RECORD_CAP);
    if (played > 0) fuzz_check_position(cls, &state);
    if (cls == &ttt_class) compare_with_mnk(text);
    fuzz_walk(cls, &state, &in, 256);
  }
  free(text);
  return 0;
}
