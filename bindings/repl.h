/*
** repl.h: the read-eval-print loop of `ludus` (repl.c), and the protected
** call that main.c runs scripts through.
*/
#ifndef REPL_H
#define REPL_H

#include <lua.h>

/* lua_pcall of the function below its 'narg' arguments, as lua.c's
   docall: a traceback is added to the error message, and Ctrl-C stops the
   call ("interrupted!") and any C search running in it. */
int repl_docall(lua_State *L, int narg, int nres);

/* Reads, runs and prints until the end of input.  With a terminal on
   stdin it also prints a banner and offers line editing, Tab completion
   and a history kept across sessions. */
void repl_run(lua_State *L);

#endif
