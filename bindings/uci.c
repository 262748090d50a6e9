/*
** uci.c: `ludus uci`, the xiangqi engine over UCI (core/xiangqi/uci.c)
** on standard input and output.  The input is read here, a line at a
** time, while the engine's search thread thinks and writes.
*/
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ludus.h"
#include "uci.h"
#include "xiangqi/uci.h"

const char uci_usage_summary[] =
  "  uci                    the xiangqi engine over UCI, for GUIs\n";

static const char help_text[] =
  "usage: %s uci\n"
  "The xiangqi engine for GUIs that speak UCI (as to Pikafish), on standard\n"
  "input and output.  Moves are ICCS: files a-i from red's left, ranks 0-9\n"
  "from red's side (h2e2).\n"
  "  uci, isready, ucinewgame, stop, ponderhit, quit\n"
  "  setoption name Hash|Threads|MultiPV|Ponder|Move Overhead value V\n"
  "  setoption name Clear Hash\n"
  "  position startpos|fen FEN [moves M...]\n"
  "  go [searchmoves M...] [ponder] [wtime MS] [btime MS] [winc MS]\n"
  "     [binc MS] [movestogo N] [depth N] [nodes N] [mate N] [movetime MS]\n"
  "     [infinite]\n"
  "  go perft N      the moves' leaf counts and their total\n"
  "  d               the board and its FEN\n"
  "Options: Hash 16 (MiB, 1-4096), Threads 1 (one thread only), MultiPV 1\n"
  "(1-128), Ponder false, Move Overhead 10 (ms, 0-5000), Clear Hash.\n"
  "A position command with a bad FEN or move changes nothing and says why\n"
  "in an info string.  At the end of the input a search with a limit\n"
  "finishes; one without (infinite, ponder) is stopped.\n";

static void write_line(void *data, const char *line) {
  FILE *out = data;
  fputs(line, out);
  fputc('\n', out);
  fflush(out);
}

int uci_main(const char *progname, int argc, char **argv) {
  if (argc > 1) {
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
      printf(help_text, progname);
      return 0;
    }
    fprintf(stderr, "%s uci: unknown argument '%s' (it takes none; %s uci "
            "--help)\n", progname, argv[1], progname);
    return 2;
  }
  /* a GUI that goes away ends the engine at the end of its input, not
     with a signal at the next line written */
  signal(SIGPIPE, SIG_IGN);
  xq_uci *uci = xq_uci_new("ludus " LUDUS_VERSION, write_line, stdout);
  if (!uci) {
    fprintf(stderr, "%s uci: not enough memory\n", progname);
    return 1;
  }
  char *line = NULL;
  size_t size = 0;
  bool quit = false;
  while (!quit && getline(&line, &size, stdin) >= 0) {
    line[strcspn(line, "\r\n")] = '\0';
    quit = !xq_uci_command(uci, line);
  }
  if (!quit) xq_uci_finish(uci);
  xq_uci_free(uci);
  free(line);
  return 0;
}
