/*
** fuzz_uci.c: the UCI engine's reading of its commands (core/xiangqi/
** uci.c): position with its FEN and moves, go and its words, setoption,
** and whatever else a GUI, or anything else, might send.
**
** The input: lines, each handed to one engine as a command (a search that
** a go starts runs meanwhile, and the end stops it).  Every line the
** engine writes is short and of a known kind, and the moves it names
** have the shape of ICCS moves; an isready after the input is answered.
** The table is 1 MiB, and a line that names Hash (but not Clear Hash)
** is left out: a table of 4 GiB is no bug, and the fuzzer's memory limit
** is lower.
*/
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz.h"
#include "xiangqi/uci.h"

static bool starts(const char *line, const char *word) {
  return strncmp(line, word, strlen(word)) == 0;
}

/* An ICCS move at m: four characters, whatever follows. */
static bool iccs(const char *m) {
  return m[0] >= 'a' && m[0] <= 'i' && isdigit((unsigned char)m[1]) &&
         m[2] >= 'a' && m[2] <= 'i' && isdigit((unsigned char)m[3]);
}

/* A move and nothing after it but a blank or the end. */
static bool iccs_word(const char *m) {
  return iccs(m) && (m[4] == '\0' || m[4] == ' ');
}

static bool mentions(const char *line, const char *word) {
  for (size_t n = strlen(word); *line; line++)
    if (strncasecmp(line, word, n) == 0) return true;
  return false;
}

static void output(void *data, const char *line) {
  int *readyok = data;
  size_t len = strlen(line);
  FUZZ_CHECK(len < 1024 && !strchr(line, '\n'), "a bad line: %s", line);
  if (strcmp(line, "readyok") == 0) {
    ++*readyok;
  } else if (starts(line, "bestmove ")) {
    const char *move = line + 9, *ponder = strstr(move, " ponder ");
    FUZZ_CHECK(strcmp(move, "(none)") == 0 || iccs_word(move), "%s", line);
    FUZZ_CHECK(!ponder || iccs_word(ponder + 8), "%s", line);
  } else if (starts(line, "info depth ")) {
    const char *pv = strstr(line, " pv ");
    for (const char *m = pv ? pv + 4 : ""; *m; m += m[4] ? 5 : 4)
      FUZZ_CHECK(iccs_word(m), "a pv move: %s", line);
  } else {
    /* uci's answer, info string, perft's lines, the board of d */
    FUZZ_CHECK(len == 0 || starts(line, "info string ") || starts(line, "id ") ||
               starts(line, "option ") || starts(line, "uciok") ||
               starts(line, "Nodes searched: ") || starts(line, "Fen: ") ||
               starts(line, "Key: ") || (iccs(line) && line[4] == ':') ||
               line[0] == ' ' || isdigit((unsigned char)line[0]) ||
               starts(line, "red ") || starts(line, "black "),
               "a line of no known kind: %s", line);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int readyok = 0;
  xq_uci *uci = xq_uci_new("ludus fuzz", output, &readyok);
  char *text = malloc(size + 1);
  if (!uci || !text) {
    xq_uci_free(uci);
    free(text);
    return 0;
  }
  memcpy(text, data, size);
  text[size] = '\0';
  xq_uci_command(uci, "setoption name Hash value 1");
  bool going = true;
  for (char *line = text, *end; going && line; line = end ? end + 1 : NULL) {
    end = strchr(line, '\n');
    if (end) *end = '\0';
    if (mentions(line, "hash") && !mentions(line, "clear")) continue;
    going = xq_uci_command(uci, line);
  }
  if (going) {
    int before = readyok;
    xq_uci_command(uci, "isready");
    FUZZ_CHECK(readyok == before + 1, "no readyok after the input");
  }
  xq_uci_free(uci);
  free(text);
  return 0;
}
