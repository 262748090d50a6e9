/*
** fuzz.h: what the libFuzzer harnesses share.  A harness reads its
** input, and when the reader accepts it, plays what it read and checks
** that the engine agrees with itself: make and unmake restore every byte
** and the hash, what is written is read back the same.  A check that
** fails aborts, so libFuzzer keeps the input that made it fail.
*/
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Says what went wrong and where, then aborts. */
_Noreturn void fuzz_fail(const char *file, int line, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

#define FUZZ_CHECK(cond, ...) \
  do { \
    if (!(cond)) fuzz_fail(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

/* The input taken from the front: choices first, then text. */
typedef struct fuzz_input {
  const uint8_t *data;
  size_t size, at;
} fuzz_input;

/* The next byte, 0 once the input is used up. */
unsigned fuzz_byte(fuzz_input *in);

/* The bytes up to the next '\n' (or the end), without it: *len of them
   at the returned pointer, which points into the input. */
const uint8_t *fuzz_line(fuzz_input *in, size_t *len);

/* A copy of len bytes in memory of exactly that size, so that reading
   one byte past them is an ASan report; with a zero after them when
   terminated.  The caller frees it. */
char *fuzz_copy(const void *bytes, size_t len, bool terminated);

/* Every legal move of the position is written, read back as the same
   move, made and unmade to the same bytes and hash; the game is over
   exactly when there is none; the picture is drawn as snprintf draws. */
void fuzz_check_position(const game_class *cls, void *state);

/* Plays up to plies moves that the input picks, each written, read back
   and made and unmade first, checks where they lead (fuzz_check_position),
   then takes them back and checks that the start comes back.  Returns
   how many it played. */
int fuzz_walk(const game_class *cls, void *state, fuzz_input *in, int plies);

/* Replays text with game_replay from state and checks what it did: on
   success, that the moves written out again replay to the same moves and
   position, and that unmaking them gives the start back; on failure,
   that the position is the start and the error points into the text.
   Leaves state after the moves when they were read (up to cap of them);
   returns their number or -1. */
int fuzz_check_replay(const game_class *cls, void *state, const char *text,
                      int cap);

#endif
