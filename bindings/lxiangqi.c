/*
** lxiangqi.c: `ludus.xiangqi`.  The protocol comes from lgame.c; this
** file adds FEN, moves in any notation or as two points (the seed's
** 走棋<棋局, 起始位置, 目标位置>), the end-of-game questions, the drawings,
** perft and divide, and the engine's search; lxqformats.c the record
** files (read, write, g:pgn).
*/
#include <ctype.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>

#include "lgame.h"
#include "ludus.h"
#include "lxqformats.h"
#include "xiangqi/search.h"
#include "xiangqi/xiangqi.h"

#define GAME(L) lgame_check(L, 1, &xq_class)
#define MAX_PERFT_DEPTH 8

static const char *const notation_names[] = {"iccs", "wxf", "chinese", NULL};

/* The rule bits of option key of the table at arg, which turns bits on
   (true) or off (false) in rules; rules as it was when key is absent. */
static uint8_t opt_rules(lua_State *L, int arg, const char *key, uint8_t bits,
                         uint8_t rules) {
  if (lua_getfield(L, arg, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return rules;
  }
  lua_pop(L, 1);
  return lgame_opt_boolean(L, arg, key, false, "xiangqi")
             ? (uint8_t)(rules | bits) : (uint8_t)(rules & ~bits);
}

void lxq_check_rules(lua_State *L, int arg, xq_position *pos) {
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  uint8_t rules = opt_rules(L, arg, "rules", XQ_RULES_ALL, pos->rules);
  rules = opt_rules(L, arg, "repetition", XQ_RULE_REPETITION, rules);
  pos->rules = opt_rules(L, arg, "move_limit", XQ_RULE_MOVE_LIMIT, rules);
}

static int xq_new(lua_State *L) {
  xq_position pos;
  xq_init(&pos);
  lgame_check_options(L, 1, "rules repetition move_limit", "xiangqi.new");
  lxq_check_rules(L, 1, &pos);
  lgame_push(L, &xq_class, &pos);
  return 1;
}

/* Pushes text without the move numbers of a written record ("1." or
   "12..."), so that records copied from elsewhere load. */
static void push_moves_only(lua_State *L, const char *text) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  while (*text) {
    size_t len = strcspn(text, " \t\r\n");
    size_t digits = 0;
    while (digits < len && isdigit((unsigned char)text[digits])) digits++;
    bool number = digits > 0 && digits < len &&
                  strspn(text + digits, ".") == len - digits;
    if (!number) luaL_addlstring(&b, text, len);
    luaL_addchar(&b, ' ');
    text += len;
    text += strspn(text, " \t\r\n");
  }
  luaL_pushresult(&b);
}

/* The game from start after the moves at arg, or nil and why.  The moves
   are checked for legality, not for an end by repetition or the move
   limit, as a record's are (xiangqi.read, UCI's position): a record holds
   what was played, a game saved from new{rules = false} say, and the
   game plays on from there under start's rules. */
static int load_moves(lua_State *L, const xq_position *start, int arg) {
  xq_position played = *start;
  played.rules = 0;
  int results = lgame_load(L, &xq_class, &played, arg);
  if (results != 1) return results;
  const game_move *moves;
  int n = lgame_moves(lgame_check(L, -1, &xq_class), &moves);
  lgame *game = lgame_push(L, &xq_class, start);
  for (int i = 0; i < n; i++) lgame_push_move(L, game, moves[i]);
  return 1;
}

/* load(text [, options]): a FEN, a FEN or "startpos" followed by "moves
   ...", or moves from the start in any notation; nil and why on bad
   text. */
static int xq_load(lua_State *L) {
  lgame_load_args(L);
  size_t len;
  const char *text = luaL_checklstring(L, 1, &len);
  xq_position start;
  xq_init(&start);
  lgame_check_options(L, 2, "rules repetition move_limit", "xiangqi.load");
  lxq_check_rules(L, 2, &start);
  if (strlen(text) != len) {
    lua_pushnil(L);
    lua_pushliteral(L, "xiangqi: bad record (it contains a zero byte)");
    return 2;
  }
  if (lxq_is_pgn(text, len)) return lxq_load_pgn(L, text, len, &start);
  text += strspn(text, " \t\r\n");
  if (strncmp(text, "position ", 9) == 0) text += 9;
  text += strspn(text, " ");
  const char *moves = text;
  if (strncmp(text, "startpos", 8) == 0) {
    moves = text + 8;
  } else {
    bool fen = strncmp(text, "fen ", 4) == 0;
    if (fen) text += 4 + strspn(text + 4, " ");
    size_t word = strcspn(text, " ");
    if (fen || memchr(text, '/', word)) {
      const char *end = strstr(text, " moves");
      size_t fen_len = end ? (size_t)(end - text) : strlen(text);
      lua_pushlstring(L, text, fen_len);
      xq_fen_problem problem;
      uint8_t rules = start.rules;
      if (xq_from_fen(&start, lua_tostring(L, -1), &problem) != XQ_FEN_OK) {
        char message[256];
        xq_fen_message(&problem, message, sizeof message);
        lua_pushnil(L);
        lua_pushfstring(L, "xiangqi: bad fen '%s': %s", lua_tostring(L, -2),
                        message);
        return 2;
      }
      start.rules = rules;
      moves = text + fen_len;
    }
  }
  moves += strspn(moves, " ");
  if (strncmp(moves, "moves", 5) == 0 && (moves[5] == ' ' || !moves[5]))
    moves += 5;
  push_moves_only(L, moves);
  return load_moves(L, &start, lua_gettop(L));
}

/* The point named at arg ("h2"), or raises. */
static void check_point(lua_State *L, int arg, char out[3]) {
  size_t len;
  const char *name = luaL_checklstring(L, arg, &len);
  char file = (char)tolower((unsigned char)name[0]);
  if (len != 2 || file < 'a' || file > 'i' || name[1] < '0' || name[1] > '9')
    luaL_argerror(L, arg, "expected a point from a0 to i9");
  out[0] = file;
  out[1] = name[1];
  out[2] = '\0';
}

/* g:move(m) or g:move(from, to): a new game with the move played. */
static int xq_move_method(lua_State *L) {
  GAME(L);
  if (!lua_isnoneornil(L, 3)) {
    char from[3], to[3];
    check_point(L, 2, from);
    check_point(L, 3, to);
    lua_pushfstring(L, "%s%s", from, to);
    lua_replace(L, 2);
  }
  lua_settop(L, 2);
  return lgame_play(L);
}

/* g:red(m), g:black(m): move, naming the side (upvalue 3). */
static int xq_side_move(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  int side = (int)lua_tointeger(L, lua_upvalueindex(3));
  if (xq_status(pos) == GAME_ONGOING && pos->turn != side)
    return luaL_error(L, "xiangqi: it is %s's turn, not %s's",
                      side == XQ_RED ? "black" : "red",
                      side == XQ_RED ? "red" : "black");
  return xq_move_method(L);
}

static int xq_fen(lua_State *L) {
  char fen[128];
  xq_to_fen(lgame_state(GAME(L)), fen, sizeof fen);
  lua_pushstring(L, fen);
  return 1;
}

/* ---- the board, for code that looks at it ---- */

/* The piece names by kind, as the FEN letters K A B N R C P say them, and
   the characters of each side (black's cannon is 砲). */
static const char *const piece_names[XQ_KINDS] = {
  "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"
};
static const char *const piece_chars[2][XQ_KINDS] = {
  {"帅", "仕", "相", "傌", "俥", "炮", "兵"},
  {"将", "士", "象", "马", "车", "砲", "卒"},
};
static const char *const side_names[2] = {"red", "black"};

/* The square of the point named at arg. */
static int check_square(lua_State *L, int arg) {
  char point[3];
  check_point(L, arg, point);
  return xq_square(point[0] - 'a', point[1] - '0');
}

/* The side named at arg: 0 red, 1 black, -1 when absent. */
static int check_side(lua_State *L, int arg) {
  static const char *const names[] = {"red", "black", NULL};
  return lua_isnoneornil(L, arg) ? -1 : luaL_checkoption(L, arg, NULL, names);
}

static void push_point(lua_State *L, int square) {
  char point[3] = {(char)('a' + xq_file(square)), (char)('0' + xq_rank(square)),
                   '\0'};
  lua_pushstring(L, point);
}

/* Pushes {side =, piece =, char =, letter =} for the piece id. */
static void push_piece(lua_State *L, int id) {
  int side = xq_side_of(id);
  xq_kind kind = xq_kind_of(id);
  lua_createtable(L, 0, 4);
  lua_pushstring(L, side_names[side]);
  lua_setfield(L, -2, "side");
  lua_pushstring(L, piece_names[kind]);
  lua_setfield(L, -2, "piece");
  lua_pushstring(L, piece_chars[side][kind]);
  lua_setfield(L, -2, "char");
  char letter[2] = {xq_letter(id), '\0'};
  lua_pushstring(L, letter);
  lua_setfield(L, -2, "letter");
}

/* g:at(point) -> {side = "red", piece = "king", char = "帅", letter = "K"},
   or nil for an empty point. */
static int xq_at(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  int id = pos->board[check_square(L, 2)];
  if (id) push_piece(L, id);
  else lua_pushnil(L);
  return 1;
}

/* The iterator of pieces(): upvalues are the game, the next square and
   the side wanted (-1: both). */
static int next_piece(lua_State *L) {
  const xq_position *pos = lgame_state(lua_touserdata(L, lua_upvalueindex(1)));
  int square = (int)lua_tointeger(L, lua_upvalueindex(2));
  int wanted = (int)lua_tointeger(L, lua_upvalueindex(3));
  for (; square < 256; square++) {
    int id = pos->board[square];
    if (!id || id == XQ_OFF || (wanted >= 0 && xq_side_of(id) != wanted))
      continue;
    lua_pushinteger(L, square + 1);
    lua_replace(L, lua_upvalueindex(2));
    push_point(L, square);
    push_piece(L, id);
    return 2;
  }
  return 0;
}

/* g:pieces([side]) -> for point, piece in g:pieces() do ... end, rank 0
   first and file a to i along a rank. */
static int xq_pieces(lua_State *L) {
  GAME(L);
  int side = check_side(L, 2);
  lua_settop(L, 1);
  lua_pushinteger(L, 0);
  lua_pushinteger(L, side);
  lua_pushcclosure(L, next_piece, 3);
  return 1;
}

/* g:count() -> {red = pieces, black = pieces}. */
static int xq_count(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  lua_createtable(L, 0, 2);
  for (int side = 0; side < 2; side++) {
    int n = 0;
    for (int id = 16 << side; id < (16 << side) + 16; id++) n += pos->square[id] != 0;
    lua_pushinteger(L, n);
    lua_setfield(L, -2, side_names[side]);
  }
  return 1;
}

/* g:attacks(point [, side]) -> the points of the pieces that attack it:
   side's, or without side those of the side not standing there (both
   sides' for an empty point). */
static int xq_attacks(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  int square = check_square(L, 2), side = check_side(L, 3);
  int id = pos->board[square];
  if (side < 0 && id) side = (xq_side_of(id)) ^ 1;
  int found[32], n = 0;
  for (int s = 0; s < 2; s++)
    if (side < 0 || side == s) n += xq_attackers(pos, square, s, found + n);
  for (int i = 1; i < n; i++)                 /* in board order */
    for (int j = i; j > 0 && found[j - 1] > found[j]; j--) {
      int t = found[j];
      found[j] = found[j - 1];
      found[j - 1] = t;
    }
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    push_point(L, found[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* g:in_check([side]) -> whether side's general (the side to move's by
   default) is attacked. */
static int xq_in_check_method(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  int side = check_side(L, 2);
  if (side < 0) side = pos->turn;
  lua_pushboolean(L, xq_attacked(pos, pos->square[16 << side], side ^ 1));
  return 1;
}

static int is_ending(lua_State *L, xq_ending which) {
  game_status status;
  lua_pushboolean(L, xq_ending_of(lgame_state(GAME(L)), &status) == which);
  return 1;
}

static int xq_is_checkmate(lua_State *L) { return is_ending(L, XQ_CHECKMATE); }
static int xq_is_stalemate(lua_State *L) { return is_ending(L, XQ_STALEMATE); }

/* Reads the move at arg in any notation, legal here, or raises as play
   does. */
static xq_move check_move(lua_State *L, int arg) {
  const xq_position *pos = lgame_state(GAME(L));
  size_t len;
  const char *text = luaL_checklstring(L, arg, &len);
  xq_move move = 0;
  const char *why = "it contains a zero byte";
  game_error code = strlen(text) != len ? GAME_EBADTEXT
                  : xq_parse_move(pos, text, &move, &why);
  if (code != GAME_OK)
    luaL_error(L, "xiangqi: %s move '%s' (%s)",
               code == GAME_EILLEGAL ? "illegal" : "bad", text, why);
  return move;
}

static void push_move(lua_State *L, const xq_position *pos, xq_move move,
                      xq_notation notation) {
  char text[64];
  xq_format_move(pos, move, notation, text, sizeof text);
  lua_pushstring(L, text);
}

/* g:notation(m, "wxf" | "chinese" | "iccs"): m, in any notation, as the
   other writes it. */
static int xq_notation_method(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  xq_move move = check_move(L, 2);
  int notation = luaL_checkoption(L, 3, "iccs", notation_names);
  push_move(L, pos, move, (xq_notation)notation);
  return 1;
}

/* g:moves([notation]): the legal moves, ICCS unless told. */
static int xq_moves_method(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  int notation = luaL_checkoption(L, 2, "iccs", notation_names);
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_status(pos) == GAME_ONGOING ? xq_legal_moves(pos, moves) : 0;
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    push_move(L, pos, moves[i], (xq_notation)notation);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* g:result(): nil while playing, else {winner=, draw=, reason=}. */
static int xq_result(lua_State *L) {
  game_status status;
  xq_ending ending = xq_ending_of(lgame_state(GAME(L)), &status);
  if (ending == XQ_PLAYING) {
    lua_pushnil(L);
    return 1;
  }
  static const char *const reasons[] = {
    [XQ_CHECKMATE] = "checkmate", [XQ_STALEMATE] = "stalemate",
    [XQ_PERPETUAL_CHECK] = "perpetual check",
    [XQ_PERPETUAL_CHASE] = "perpetual chase", [XQ_REPETITION] = "repetition",
    [XQ_MOVE_LIMIT] = "move limit",
  };
  lua_createtable(L, 0, 3);
  if (status != GAME_DRAW) {
    lua_pushstring(L, status == GAME_WIN_0 ? "red" : "black");
    lua_setfield(L, -2, "winner");
  }
  lua_pushboolean(L, status == GAME_DRAW);
  lua_setfield(L, -2, "draw");
  lua_pushstring(L, reasons[ending]);
  lua_setfield(L, -2, "reason");
  return 1;
}

/* g:save(): the moves from the start position, or "<fen> moves ...". */
static int xq_save(lua_State *L) {
  lgame *g = GAME(L);
  const xq_position *start = lgame_start(g);
  xq_position initial;
  xq_init(&initial);
  bool standard = start->key == initial.key &&
                  memcmp(start->board, initial.board, sizeof start->board) == 0 &&
                  start->quiet == 0 && start->fullmove == 1;
  lgame_push_history(L, g);
  int n = (int)lua_rawlen(L, -1);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  if (!standard) {
    char fen[128];
    xq_to_fen(start, fen, sizeof fen);
    luaL_addstring(&b, fen);
    if (n) luaL_addstring(&b, " moves");
  }
  for (int i = 1; i <= n; i++) {
    if (i > 1 || !standard) luaL_addchar(&b, ' ');
    lua_rawgeti(L, -2, i);
    luaL_addvalue(&b);
  }
  luaL_pushresult(&b);
  return 1;
}

/* g:draw(["ascii"]): the board with Chinese pieces, or in letters. */
static int xq_draw(lua_State *L) {
  const xq_position *pos = lgame_state(GAME(L));
  static const char *const styles[] = {"chinese", "ascii", NULL};
  bool ascii = luaL_checkoption(L, 2, "chinese", styles) == 1;
  char text[2048];
  size_t n = xq_render(pos, ascii, NULL, text, sizeof text);
  lua_pushlstring(L, text, n < sizeof text ? n : sizeof text - 1);
  return 1;
}

/* ---- perft ---- */

/* The depth at arg, from least to MAX_PERFT_DEPTH. */
static int check_depth(lua_State *L, int arg, int least) {
  lua_Integer depth = luaL_checkinteger(L, arg);
  luaL_argcheck(L, depth >= least && depth <= MAX_PERFT_DEPTH, arg,
                lua_pushfstring(L, "depth must be %d to %d", least,
                                MAX_PERFT_DEPTH));
  return (int)depth;
}

/* xiangqi.perft(g, depth): leaves of the legal move tree, with no
   repetition rules. */
static int xq_perft_function(lua_State *L) {
  xq_position pos = *(const xq_position *)lgame_state(GAME(L));
  int depth = check_depth(L, 2, 0);
  search_limit limit;
  lgame_start_limit(&limit);
  uint64_t leaves = xq_perft_limited(&pos, depth, &limit);
  if (limit.stopped) {                  /* Ctrl-C: nil and why */
    lua_pushnil(L);
    lgame_push_stopped(L, &limit);
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)leaves);
  return 1;
}

/* xiangqi.divide(g, depth): {move = leaves below it, ...}, total. */
static int xq_divide(lua_State *L) {
  xq_position pos = *(const xq_position *)lgame_state(GAME(L));
  int depth = check_depth(L, 2, 1);
  xq_move moves[XQ_MAX_MOVES];
  int n = xq_legal_moves(&pos, moves);
  lua_createtable(L, 0, n);
  uint64_t total = 0;
  search_limit limit;
  lgame_start_limit(&limit);
  for (int i = 0; i < n; i++) {
    push_move(L, &pos, moves[i], XQ_ICCS);
    xq_undo undo;
    xq_make(&pos, moves[i], &undo);
    uint64_t leaves = xq_perft_limited(&pos, depth - 1, &limit);
    xq_unmake(&pos, moves[i], &undo);
    if (limit.stopped) {      /* Ctrl-C: the moves counted so far, nil, why */
      lua_pop(L, 1);
      lua_pushnil(L);
      lgame_push_stopped(L, &limit);
      return 3;
    }
    total += leaves;
    lua_pushinteger(L, (lua_Integer)leaves);
    lua_settable(L, -3);
  }
  lua_pushinteger(L, (lua_Integer)total);
  return 2;
}

/* ---- search ---- */

/* A search that stops when a line arrives on standard input (an engine
   protocol's "stop"): the search runs in a thread of its own while this
   one watches the input and sets the limit's stop flag; it reads
   nothing, so the line is still there for the caller, who must read its
   input unbuffered. */
typedef struct watched_search {
  xq_position *pos;
  const xq_search_options *options;
  search_limit *limit;
  xq_search_result *result;
  atomic_bool done, stop;
} watched_search;

static void *run_search(void *arg) {
  watched_search *w = arg;
  xq_search(w->pos, w->options, w->limit, w->result);
  atomic_store(&w->done, true);
  return NULL;
}

/* Runs the search, in this thread when no watching is asked for or no
   thread can be had. */
static void search_watching(watched_search *w, bool watch) {
  pthread_t thread;
  if (!watch || pthread_create(&thread, NULL, run_search, w) != 0) {
    run_search(w);
    return;
  }
  struct pollfd input = {.fd = 0, .events = POLLIN};
  while (!atomic_load(&w->done)) {
    if (poll(&input, 1, 10) > 0 || ludus_interrupted) atomic_store(&w->stop, true);
  }
  pthread_join(thread, NULL);
}

/* The table searches with keep = true share, as an engine keeps its hash
   between moves: one per Lua state, made at the first such search, in a
   userdata of the registry that frees it. */
#define KEPT_TABLE "ludus.xiangqi.table"
#define KEPT_TABLE_MIB 16

static int kept_table_gc(lua_State *L) {
  tt_table **box = lua_touserdata(L, 1);
  tt_free(*box);
  *box = NULL;
  return 0;
}

/* The kept table, or NULL without the memory for it. */
static tt_table *kept_table(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, KEPT_TABLE) == LUA_TUSERDATA) {
    tt_table *table = *(tt_table **)lua_touserdata(L, -1);
    lua_pop(L, 1);
    return table;
  }
  lua_pop(L, 1);
  tt_table **box = lua_newuserdatauv(L, sizeof *box, 0);
  *box = NULL;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, kept_table_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  *box = tt_new(KEPT_TABLE_MIB);
  lua_setfield(L, LUA_REGISTRYINDEX, KEPT_TABLE);
  return *box;
}

/* g:search{depth=, time=, nodes=, stop_on_input=, keep=} -> {move, score,
   mate, pv, depth, nodes, nps, seconds, stopped}.  Without depth or nodes
   it thinks for a second; Ctrl-C stops it with the best move so far, and
   so does a line of input with stop_on_input. */
static int xq_search_method(lua_State *L) {
  const xq_position *game = lgame_state(GAME(L));
  lua_settop(L, 2);
  if (lua_isnil(L, 2)) {
    lua_newtable(L);
    lua_replace(L, 2);
  }
  lgame_check_options(L, 2, "depth time nodes stop_on_input keep",
                      "xiangqi: search");
  bool watch = lgame_opt_boolean(L, 2, "stop_on_input", false, "xiangqi");
  bool keep = lgame_opt_boolean(L, 2, "keep", false, "xiangqi");
  if (xq_status(game) != GAME_ONGOING)
    return luaL_error(L, "xiangqi: nothing to search, the game is over");
  xq_position *pos = lua_newuserdatauv(L, sizeof *pos, 0);   /* a copy */
  *pos = *game;
  search_limit limit = {0};
  xq_search_options options = {0};
  if (keep) options.tt = kept_table(L);
  lua_Integer depth = lgame_opt_integer(L, 2, "depth", 0, 1, LGAME_MAX_COUNT,
                                        "xiangqi");
  options.max_depth = depth > XQ_MAX_PLY ? XQ_MAX_PLY : (int)depth;
  lgame_read_limits(L, 2, &limit, "xiangqi");
  if (!options.max_depth && !limit.max_nodes && !limit.max_seconds)
    limit.max_seconds = 1.0;
  xq_search_result result;
  watched_search w = {.pos = pos, .options = &options, .limit = &limit,
                      .result = &result};
  atomic_init(&w.done, false);
  atomic_init(&w.stop, false);
  if (watch) limit.stop = &w.stop;
  else limit.interrupt = &ludus_interrupted;
  limit_start(&limit);
  search_watching(&w, watch);

  lua_createtable(L, 0, 10);
  if (result.best) {
    push_move(L, pos, result.best, XQ_ICCS);
    lua_setfield(L, -2, "move");
  }
  lua_pushinteger(L, result.score);
  lua_setfield(L, -2, "score");
  if (search_is_win_score(result.score)) {
    int plies = GAME_SCORE_WIN - (result.score < 0 ? -result.score : result.score);
    lua_pushinteger(L, result.score > 0 ? plies : -plies);
    lua_setfield(L, -2, "mate");
  }
  lua_createtable(L, result.pv_length, 0);
  xq_undo undos[XQ_MAX_PLY];
  int made = 0;
  for (; made < result.pv_length; made++) {
    push_move(L, pos, result.pv[made], XQ_ICCS);
    lua_rawseti(L, -2, made + 1);
    xq_make(pos, result.pv[made], &undos[made]);
  }
  while (made-- > 0) xq_unmake(pos, result.pv[made], &undos[made]);
  lua_setfield(L, -2, "pv");
  lua_pushinteger(L, result.depth);
  lua_setfield(L, -2, "depth");
  lua_pushinteger(L, (lua_Integer)result.nodes);
  lua_setfield(L, -2, "nodes");
  double seconds = limit_elapsed(&limit);
  lua_pushnumber(L, seconds);
  lua_setfield(L, -2, "seconds");
  lua_pushnumber(L, seconds > 0 ? (double)result.nodes / seconds : 0.0);
  lua_setfield(L, -2, "nps");
  const char *reason = lgame_finish_limit(L, &limit);
  if (watch && reason && ludus_interrupted) {   /* Ctrl-C, not a line */
    ludus_interrupt_consumed(L);
    reason = "interrupted";
  }
  if (reason) {
    lua_pushstring(L, reason);
    lua_setfield(L, -2, "stopped");
  }
  return 1;
}

static const luaL_Reg methods[] = {
  {"move", xq_move_method},
  {"moves", xq_moves_method},
  {"fen", xq_fen},
  {"in_check", xq_in_check_method},
  {"at", xq_at},
  {"pieces", xq_pieces},
  {"count", xq_count},
  {"attacks", xq_attacks},
  {"is_checkmate", xq_is_checkmate},
  {"is_stalemate", xq_is_stalemate},
  {"notation", xq_notation_method},
  {"result", xq_result},
  {"save", xq_save},
  {"draw", xq_draw},
  {"pgn", lxq_pgn_method},
  {"search", xq_search_method},
  {NULL, NULL}
};

static const luaL_Reg functions[] = {
  {"new", xq_new},
  {"load", xq_load},
  {"perft", xq_perft_function},
  {"divide", xq_divide},
  {"read", lxq_read},
  {"write", lxq_write},
  {NULL, NULL}
};

int luaopen_ludus_xiangqi(lua_State *L) {
  lgame_open(L, &xq_class, methods, functions);
  /* red and black take two points as move does: replace the generic
     one-argument ones */
  lgame_push_methods(L, &xq_class);
  luaL_getmetatable(L, "ludus.xiangqi");      /* the methods' first upvalue */
  for (int side = XQ_RED; side <= XQ_BLACK; side++) {
    lua_pushvalue(L, -1);
    lua_pushlightuserdata(L, (void *)&xq_class);
    lua_pushinteger(L, side);
    lua_pushcclosure(L, xq_side_move, 3);
    lua_setfield(L, -3, side == XQ_RED ? "red" : "black");
  }
  lua_pop(L, 2);
  return 1;
}
