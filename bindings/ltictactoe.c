/*
** ltictactoe.c: `ludus.tictactoe`.  Everything comes from the protocol
** bridge; tic-tac-toe has nothing of its own to add.
*/
#include "lgame.h"
#include "ludus.h"
#include "tictactoe/tictactoe.h"

int luaopen_ludus_tictactoe(lua_State *L) {
  lgame_open(L, &ttt_class, NULL, NULL);
  return 1;
}
