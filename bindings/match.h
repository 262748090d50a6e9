/*
** match.h: `ludus match` (match.c), players against each other over many
** games, on every core and across machines.
*/
#ifndef LUDUS_MATCH_H
#define LUDUS_MATCH_H

/* Runs `ludus match` with its arguments (argv[0] is "match"); returns
   the exit status: 0 when the games were played, 1 when something went
   wrong on the way, 2 for a command line it cannot take, 130 after
   Ctrl-C. */
int match_main(const char *progname, int argc, char **argv);

/* The line `ludus --help` gives the command. */
extern const char match_usage_summary[];

#endif
