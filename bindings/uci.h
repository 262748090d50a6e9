/*
** uci.h: `ludus uci` (uci.c), the xiangqi engine for GUIs.
*/
#ifndef LUDUS_UCI_H
#define LUDUS_UCI_H

/* Runs `ludus uci` (argv[0] is "uci") until quit or the end of the
   input; returns the exit status: 0, or 2 for a command line it cannot
   take. */
int uci_main(const char *progname, int argc, char **argv);

/* The line `ludus --help` gives the command. */
extern const char uci_usage_summary[];

#endif
