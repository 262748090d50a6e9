/*
** uci.h: the xiangqi engine over UCI, as GUIs speak it to Pikafish.
**
** The caller reads the input and hands it over a line at a time; the
** search runs in a thread of its own, so that `stop`, `isready`,
** `ponderhit` and `quit` are answered while it thinks.  The search sees
** `stop` through the atomic flag of its limit (base/limit.h), and a
** third thread keeps the time: it sets that flag at the deadline, which
** `ponderhit` starts.  Lines go out through a function the caller gives,
** one at a time whichever thread writes them.  Moves are in ICCS: files
** a-i from red's left, ranks 0-9 from red's side (h2e2).
**
** Commands: uci, isready, setoption (Hash, Threads, MultiPV, Ponder,
** Move Overhead, Clear Hash), ucinewgame, position startpos|fen ...
** [moves ...], go (searchmoves ponder wtime btime winc binc movestogo
** depth nodes mate movetime infinite, and perft N), stop, ponderhit,
** quit, and d (the board and its FEN, for people).  A line it cannot
** take is answered with an `info string` that says why; a position
** command it refuses leaves the position as it was.
*/
#ifndef XQ_UCI_H
#define XQ_UCI_H

#include <stdbool.h>

typedef struct xq_uci xq_uci;

/* Writes one line of output, given without its newline. */
typedef void xq_uci_output(void *data, const char *line);

/* An engine at the start position that answers `uci` with `id name`
   name; NULL without the memory for it.  Its table is made at the first
   go (and after each Hash). */
xq_uci *xq_uci_new(const char *name, xq_uci_output *output, void *data);

/* Handles one line of input (without its newline); false once it was
   `quit`, which stops the search. */
bool xq_uci_command(xq_uci *uci, const char *line);

/* The end of the input: waits for a search with a limit (depth, nodes,
   time) to end, and stops one without (infinite, ponder). */
void xq_uci_finish(xq_uci *uci);

/* Stops the search, if there is one, and frees the engine. */
void xq_uci_free(xq_uci *uci);

#endif
