/*
** common.c: the checks every harness uses (fuzz.h).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

void fuzz_fail(const char *file, int line, const char *format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "%s:%d: check failed: ", file, line);
  vfprintf(stderr, format, args);
  fputc('\n', stderr);
  va_end(args);
  abort();
}

unsigned fuzz_byte(fuzz_input *in) {
  return in->at < in->size ? in->data[in->at++] : 0;
}

const uint8_t *fuzz_line(fuzz_input *in, size_t *len) {
  const uint8_t *start = in->data + in->at;
  size_t n = 0;
  while (in->at + n < in->size && start[n] != '\n') n++;
  *len = n;
  in->at += n < in->size - in->at ? n + 1 : n;
  return start;
}

char *fuzz_copy(const void *bytes, size_t len, bool terminated) {
  char *copy = malloc(len + terminated + (len + terminated == 0));
  FUZZ_CHECK(copy, "out of memory");
  if (len) memcpy(copy, bytes, len);
  if (terminated) copy[len] = '\0';
  return copy;
}

/* Room for the largest state of any game (xiangqi's, with its history). */
enum { STATE_MAX = 8192 };

static void check_picture(const game_class *cls, const void *state) {
  if (!cls->render) return;
  size_t len = cls->render(state, NULL, NULL, 0);
  FUZZ_CHECK(len < 65536, "%s: a picture of %zu bytes", cls->name, len);
  char *picture = malloc(len + 1);
  FUZZ_CHECK(picture, "out of memory");
  FUZZ_CHECK(cls->render(state, NULL, picture, len + 1) == len &&
             strlen(picture) == len,
             "%s: the picture is not as long as render said", cls->name);
  char small[8];
  FUZZ_CHECK(cls->render(state, NULL, small, sizeof small) == len &&
             strlen(small) == (len < sizeof small ? len : sizeof small - 1),
             "%s: a cut picture is not cut as snprintf cuts", cls->name);
  free(picture);
}

/* The move is written and read back as itself, and made and unmade to
   the same bytes and hash. */
static void check_move(const game_class *cls, void *state, game_move move) {
  static unsigned char before[STATE_MAX];
  memcpy(before, state, cls->state_size);
  uint64_t hash = cls->hash(state);
  char text[64];
  size_t len = cls->format_move(state, move, text, sizeof text);
  FUZZ_CHECK(len > 0 && len < sizeof text && strlen(text) == len,
             "%s: move %u written in %zu bytes", cls->name, (unsigned)move,
             len);
  game_move back = GAME_NO_MOVE;
  const char *why = NULL;
  game_error code = cls->parse_move(state, text, &back, &why);
  FUZZ_CHECK(code == GAME_OK && back == move,
             "%s: '%s' reads back as %u (%s), not %u", cls->name, text,
             (unsigned)back, code == GAME_OK ? "ok" : why, (unsigned)move);
  game_undo undo;
  cls->make(state, move, &undo);
  cls->unmake(state, move, &undo);
  FUZZ_CHECK(memcmp(state, before, cls->state_size) == 0,
             "%s: '%s' made and unmade changed the position", cls->name, text);
  FUZZ_CHECK(cls->hash(state) == hash,
             "%s: '%s' made and unmade changed the hash", cls->name, text);
}

void fuzz_check_position(const game_class *cls, void *state) {
  FUZZ_CHECK(cls->state_size <= STATE_MAX, "state too large");
  game_move moves[GAME_MAX_MOVES];
  int n = cls->moves(state, moves);
  game_status status = cls->status(state);
  FUZZ_CHECK(n >= 0 && n <= cls->max_moves, "%s: %d moves", cls->name, n);
  FUZZ_CHECK((n == 0) == (status != GAME_ONGOING),
             "%s: %d moves with status %d", cls->name, n, (int)status);
  FUZZ_CHECK(cls->turn(state) == 0 || cls->turn(state) == 1, "turn");
  if (cls->eval && status == GAME_ONGOING) {
    int value = cls->eval(state);
    FUZZ_CHECK(value > -GAME_SCORE_EVAL_MAX && value < GAME_SCORE_EVAL_MAX,
               "%s: evaluation %d", cls->name, value);
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++)
      FUZZ_CHECK(moves[i] != moves[j], "%s: move %u twice", cls->name,
                 (unsigned)moves[i]);
    check_move(cls, state, moves[i]);
  }
  check_picture(cls, state);
}

int fuzz_walk(const game_class *cls, void *state, fuzz_input *in, int plies) {
  static unsigned char start[STATE_MAX];
  FUZZ_CHECK(cls->state_size <= sizeof start, "state too large");
  memcpy(start, state, cls->state_size);
  uint64_t hash = cls->hash(state);
  game_move played[256];
  game_undo undos[256];
  if (plies > 256) plies = 256;
  int n = 0;
  for (; n < plies && in->at < in->size; n++) {
    game_move moves[GAME_MAX_MOVES];
    int count = cls->moves(state, moves);
    if (!count) break;
    played[n] = moves[fuzz_byte(in) % (unsigned)count];
    check_move(cls, state, played[n]);
    cls->make(state, played[n], &undos[n]);
  }
  fuzz_check_position(cls, state);
  for (int i = n - 1; i >= 0; i--) cls->unmake(state, played[i], &undos[i]);
  FUZZ_CHECK(memcmp(state, start, cls->state_size) == 0 &&
             cls->hash(state) == hash,
             "%s: %d moves made and unmade changed the position", cls->name, n);
  return n;
}

int fuzz_check_replay(const game_class *cls, void *state, const char *text,
                      int cap) {
  static unsigned char start[STATE_MAX], end[STATE_MAX];
  FUZZ_CHECK(cls->state_size <= sizeof start, "state too large");
  FUZZ_CHECK(cap <= 256, "cap too large");
  memcpy(start, state, cls->state_size);
  uint64_t hash = cls->hash(state);
  game_move moves[256], again[256];
  game_undo undos[256];
  game_replay_error err;
  int n = game_replay(cls, state, text, moves, undos, cap, &err);
  if (n < 0) {
    FUZZ_CHECK(memcmp(state, start, cls->state_size) == 0 &&
               cls->hash(state) == hash,
               "%s: a record refused at ply %d left the position changed",
               cls->name, err.ply);
    FUZZ_CHECK(err.ply >= 1 && err.offset + err.length <= strlen(text) &&
               err.code != GAME_OK && err.why && *err.why,
               "%s: a refusal at ply %d, bytes %zu+%zu of %zu", cls->name,
               err.ply, err.offset, err.length, strlen(text));
    return -1;
  }
  FUZZ_CHECK(n <= cap, "%s: %d moves replayed, room for %d", cls->name, n, cap);
  memcpy(end, state, cls->state_size);

  /* The moves written out from the start, one by one, replay the same. */
  memcpy(state, start, cls->state_size);
  size_t size = 64 * (size_t)n + 1, used = 0;
  char *record = malloc(size);
  FUZZ_CHECK(record, "out of memory");
  record[0] = '\0';
  for (int i = 0; i < n; i++) {
    game_undo undo;
    used = game_append(record, size, used, i ? " " : "");
    used += cls->format_move(state, moves[i], record + used, size - used);
    FUZZ_CHECK(used < size, "record overflow");
    cls->make(state, moves[i], &undo);
  }
  FUZZ_CHECK(memcmp(state, end, cls->state_size) == 0,
             "%s: the replayed moves made again differ", cls->name);
  memcpy(state, start, cls->state_size);
  int m = game_replay(cls, state, record, again, undos, cap, &err);
  FUZZ_CHECK(m == n && memcmp(moves, again, sizeof *moves * (size_t)n) == 0,
             "%s: '%s' (written from '%s') replays as %d moves, not %d",
             cls->name, record, text, m, n);
  FUZZ_CHECK(memcmp(state, end, cls->state_size) == 0,
             "%s: '%s' replays to another position", cls->name, record);
  free(record);

  for (int i = n - 1; i >= 0; i--) cls->unmake(state, moves[i], &undos[i]);
  FUZZ_CHECK(memcmp(state, start, cls->state_size) == 0 &&
             cls->hash(state) == hash,
             "%s: a replayed record unmade does not give the start back",
             cls->name);
  memcpy(state, end, cls->state_size);
  return n;
}
