/*
** ltictactoe.c: `ludus.tictactoe`.  The protocol bridge gives everything
** but the solver, which is small enough to be plain negamax to the end.
*/
#include "lgame.h"
#include "ludus.h"
#include "tictactoe/tictactoe.h"

static const luaL_Reg solver[] = {
  {"solve", lgame_solve},
  {NULL, NULL}
};

int luaopen_ludus_tictactoe(lua_State *L) {
  lgame_open(L, &ttt_class, solver, solver);
  return 1;
}
