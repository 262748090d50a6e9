/*
** batch.h: `ludus solve`, `ludus replay` and `ludus annotate` (batch.c).
*/
#ifndef LUDUS_BATCH_H
#define LUDUS_BATCH_H

#include <stdbool.h>

/* Whether word names a batch command ("solve", "replay", "annotate"). */
bool batch_is_command(const char *word);

/* Runs the command of argv[0] with its arguments; returns the exit
   status: 0 when every record was read and agreed, 1 when some did not,
   2 for a command line it cannot take, 130 after Ctrl-C. */
int batch_main(const char *progname, int argc, char **argv);

/* The lines `ludus --help` gives the commands. */
extern const char batch_usage_summary[];

#endif
