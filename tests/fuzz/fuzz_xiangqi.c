/*
** fuzz_xiangqi.c: FEN (xq_from_fen) and the three move notations, ICCS,
** WXF and Chinese (xq_parse_move), one move at a time or as a record
** (game_replay).
**
** The input: a byte of choices, a line with the FEN (empty: the start
** position), then by the choices either one move in any notation, or a
** record, and bytes that pick the moves of a walk.  A position read is
** written again and read back the same; every legal move is written in
** each notation and read back as itself.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xiangqi/xiangqi.h"

/* The history holds 256 plies; lines stay well short of that. */
enum { RECORD_CAP = 150, WALK_PLIES = 24 };

/* The id and square tables agree, and the key is the key of the pieces. */
static void check_tables(const xq_position *pos) {
  for (int id = 16; id < 48; id++) {
    int square = pos->square[id];
    FUZZ_CHECK(!square || (xq_on_board(square) && pos->board[square] == id),
               "piece %d on square %d, where the board has %d", id, square,
               square ? pos->board[square] : -1);
  }
  for (int square = 0; square < 256; square++) {
    int id = pos->board[square];
    if (!xq_on_board(square)) {
      FUZZ_CHECK(id == XQ_OFF, "square %d off the board holds %d", square, id);
      continue;
    }
    FUZZ_CHECK(id == 0 || (id >= 16 && id < 48 && pos->square[id] == square),
               "square %d holds %d", square, id);
  }
  FUZZ_CHECK(pos->square[16] && pos->square[32], "a general is missing");
  xq_position fresh = *pos;
  xq_reset_history(&fresh);
  FUZZ_CHECK(fresh.key == pos->key, "the key is not the pieces' key");
}

/* What attacks a piece (xq_attacked) is what could capture it by the
   rules of the pieces (xq_pseudo_moves), of the kinds that can reach a
   general: not advisors and elephants, which never leave their half, and
   the general by the flying-general rule, along an open file however far
   and not to the side.  (rules.c also asks it whether a chased piece is
   protected, where those differences count: reported, not fixed here.) */
static void check_attacks(const xq_position *pos) {
  for (int by = XQ_RED; by <= XQ_BLACK; by++) {
    xq_position turned = *pos;
    turned.turn = (uint8_t)by;
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_pseudo_moves(&turned, moves);
    int general = pos->square[16 << by];
    int base = 16 << (by ^ 1);            /* the defending side's ids */
    for (int id = base; id < base + 16; id++) {
      int square = pos->square[id];
      if (!square) continue;
      bool captured = false;
      for (int i = 0; i < n; i++) {
        int kind = xq_kind_of(pos->board[XQ_FROM(moves[i])]);
        captured |= XQ_TO(moves[i]) == square && kind != XQ_KING &&
                    kind != XQ_ADVISOR && kind != XQ_ELEPHANT;
      }
      bool open = xq_file(general) == xq_file(square);
      int step = general > square ? 16 : -16;
      for (int s = square + step; open && s != general; s += step)
        open = pos->board[s] == 0;
      char fen[128];
      xq_to_fen(pos, fen, sizeof fen);
      FUZZ_CHECK((captured || open) == xq_attacked(pos, square, by),
                 "'%s': the %c on %c%d: attacked %d, captured %d, open file %d",
                 fen, xq_letter(id), 'a' + xq_file(square), xq_rank(square),
                 xq_attacked(pos, square, by), captured, open);
    }
  }
}

/* The FEN written is read back as the same position, and written the
   same again. */
static void check_fen(const xq_position *pos) {
  char fen[128], again[128];
  size_t len = xq_to_fen(pos, fen, sizeof fen);
  FUZZ_CHECK(len < sizeof fen && strlen(fen) == len, "a FEN of %zu bytes", len);
  xq_position back;
  xq_fen_problem problem;
  xq_fen_error code = xq_from_fen(&back, fen, &problem);
  if (code != XQ_FEN_OK) {
    char message[256];
    xq_fen_message(&problem, message, sizeof message);
    FUZZ_CHECK(code == XQ_FEN_OK, "'%s' is refused: %s", fen, message);
  }
  /* ids are given in the order of the FEN, so pieces compare by kind */
  for (int square = 0; square < 256; square++) {
    int a = pos->board[square], b = back.board[square];
    FUZZ_CHECK(a == b || (a && b && a != XQ_OFF && b != XQ_OFF &&
                          xq_letter(a) == xq_letter(b)),
               "'%s' reads back with another piece on square %d", fen, square);
  }
  FUZZ_CHECK(back.turn == pos->turn && back.key == pos->key &&
             back.quiet == pos->quiet && back.fullmove == pos->fullmove,
             "'%s' reads back as another position", fen);
  xq_to_fen(&back, again, sizeof again);
  FUZZ_CHECK(strcmp(fen, again) == 0, "'%s' reads back as '%s'", fen, again);
}

/* Every legal move, written in each notation, reads back as itself, and
   no move that is not in the list is legal. */
static void check_notations(const xq_position *pos) {
  static const char *const names[] = {"ICCS", "WXF", "Chinese"};
  xq_move legal[XQ_MAX_MOVES], pseudo[XQ_MAX_MOVES];
  int n = xq_legal_moves(pos, legal);
  bool over = xq_status(pos) != GAME_ONGOING;
  for (int i = 0; i < n; i++) {
    FUZZ_CHECK(xq_is_legal(pos, legal[i]), "a listed move is not legal");
    for (int notation = XQ_ICCS; notation <= XQ_CHINESE; notation++) {
      char text[64];
      size_t len = xq_format_move(pos, legal[i], (xq_notation)notation, text,
                                  sizeof text);
      FUZZ_CHECK(len > 0 && len < sizeof text && strlen(text) == len,
                 "%s: a move of %zu bytes", names[notation], len);
      xq_move back = 0;
      const char *why = NULL;
      game_error code = xq_parse_move(pos, text, &back, &why);
      if (over) {
        FUZZ_CHECK(code == GAME_EOVER, "%s '%s' read after the end",
                   names[notation], text);
        continue;
      }
      FUZZ_CHECK(code == GAME_OK && back == legal[i],
                 "%s '%s' (move %04x) reads back as %04x: %s", names[notation],
                 text, legal[i], back, code == GAME_OK ? "ok" : why);
    }
  }
  int m = xq_pseudo_moves(pos, pseudo);
  FUZZ_CHECK(m >= n && m <= XQ_MAX_MOVES, "%d pseudo moves, %d legal", m, n);
  for (int i = 0; i < m; i++) {
    bool listed = false;
    for (int j = 0; j < n; j++) listed |= pseudo[i] == legal[j];
    FUZZ_CHECK(listed == xq_is_legal(pos, pseudo[i]), "legality of %04x",
               pseudo[i]);
  }
}

/* perft's bitboards (bitboard.c) count what the mailbox lists, to depth
   2. */
static void check_perft(xq_position *pos) {
  xq_move moves[XQ_MAX_MOVES], replies[XQ_MAX_MOVES];
  int n = xq_legal_moves(pos, moves);
  uint64_t leaves = 0;
  for (int i = 0; i < n; i++) {
    xq_undo undo;
    xq_make(pos, moves[i], &undo);
    leaves += (uint64_t)xq_legal_moves(pos, replies);
    xq_unmake(pos, moves[i], &undo);
  }
  FUZZ_CHECK(xq_perft(pos, 1) == (uint64_t)n, "perft 1: %llu, %d moves",
             (unsigned long long)xq_perft(pos, 1), n);
  FUZZ_CHECK(xq_perft(pos, 2) == leaves, "perft 2: %llu, the mailbox %llu",
             (unsigned long long)xq_perft(pos, 2), (unsigned long long)leaves);
}

static void check_position(xq_position *pos) {
  check_tables(pos);
  check_attacks(pos);
  check_fen(pos);
  check_notations(pos);
  check_perft(pos);
}

/* One move read from text: a legal move, or a refusal with a reason. */
static void read_one(xq_position *pos, const char *text) {
  xq_move move = 0;
  const char *why = NULL;
  game_error code = xq_parse_move(pos, text, &move, &why);
  if (code != GAME_OK) {
    FUZZ_CHECK(why && *why, "'%s' refused without a reason", text);
    return;
  }
  FUZZ_CHECK(xq_is_legal(pos, move), "'%s' reads as an illegal move", text);
  xq_position before = *pos;
  xq_undo undo;
  xq_make(pos, move, &undo);
  check_tables(pos);
  check_position(pos);
  xq_unmake(pos, move, &undo);
  FUZZ_CHECK(memcmp(pos, &before, sizeof before) == 0,
             "'%s' made and unmade changed the position", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in = {data, size, 0};
  unsigned choice = fuzz_byte(&in);
  size_t len;
  const uint8_t *line = fuzz_line(&in, &len);
  char *fen = fuzz_copy(line, len, true);
  xq_position pos;
  if (len == 0) {
    xq_init(&pos);
  } else {
    xq_fen_problem problem;
    if (xq_from_fen(&pos, fen, &problem) != XQ_FEN_OK) {
      char message[256];
      size_t n = xq_fen_message(&problem, message, sizeof message);
      FUZZ_CHECK(n > 0 && n < sizeof message && strlen(message) == n,
                 "a message of %zu bytes", n);
      FUZZ_CHECK(problem.offset <= len, "a problem at byte %zu of %zu",
                 problem.offset, len);
      free(fen);
      return 0;
    }
  }
  free(fen);
  pos.rules = (uint8_t)(choice >> 4 & XQ_RULES_ALL);
  check_position(&pos);
  fuzz_check_position(&xq_class, &pos);

  char *rest = fuzz_copy(data + in.at, size - in.at, true);
  if (choice & 1) {
    read_one(&pos, rest);
  } else {
    /* the record first, then a walk from where it ends */
    const uint8_t *record = fuzz_line(&in, &len);
    char *text = fuzz_copy(record, len, true);
    int played = fuzz_check_replay(&xq_class, &pos, text, RECORD_CAP);
    free(text);
    if (played > 0) check_position(&pos);
    if (choice & 2) fuzz_walk(&xq_class, &pos, &in, WALK_PLIES);
  }
  free(rest);
  return 0;
}
