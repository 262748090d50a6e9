/*
** lxqformats.c: xiangqi's record files from Lua.  xiangqi.read yields
** one record at a time from a PGN, EPD or FEN-lines file (or text);
** xiangqi.write and g:pgn write them.  Reading and writing are the
** core's (core/xiangqi/pgn.c, epd.c, text.c); this file checks the
** arguments and converts between records and tables.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lgame.h"
#include "ludus.h"
#include "lxqformats.h"

#define READER_TYPE "ludus.xiangqi.reader"

static const char *const format_names[] = {"pgn", "epd", "fen", NULL};
static const char *const notation_names[] = {"iccs", "wxf", "chinese", NULL};
enum { FORMAT_PGN, FORMAT_EPD, FORMAT_FEN };

/* ---- options ---- */

/* Raises for a key of the options at arg that the function does not
   take (names: space-separated). */
static void check_keys(lua_State *L, int arg, const char *function,
                       const char *names) {
  if (lua_isnoneornil(L, arg)) return;
  luaL_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    size_t len = 0;
    const char *key = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len)
                                                      : NULL;
    if (!key || !lgame_in_word_list(names, key, len))
      luaL_error(L, "xiangqi: %s takes no option '%s' (it takes: %s)",
                 function, luaL_tolstring(L, -1, NULL), names);
  }
}

/* The option key at arg: one of names, def when absent. */
static int opt_choice(lua_State *L, int arg, const char *key, int def,
                      const char *const names[]) {
  if (lua_isnoneornil(L, arg)) return def;
  int type = lua_getfield(L, arg, key);
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    return def;
  }
  const char *value = type == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  for (int i = 0; value && names[i]; i++)
    if (strcmp(value, names[i]) == 0) {
      lua_pop(L, 1);
      return i;
    }
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; names[i]; i++) {
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, names[i]);
  }
  luaL_pushresult(&b);
  const char *list = lua_tostring(L, -1);
  return luaL_error(L, "xiangqi: option '%s' must be one of %s (got %s)",
                    key, list, luaL_tolstring(L, -2, NULL));
}

/* ---- reading ---- */

typedef struct reader {
  xq_pgn_reader *pgn;
  xq_epd_reader *epd;
  FILE *file;                     /* while the file is read */
  uint8_t rules;
  union {
    xq_pgn_game game;
    xq_epd_record record;
  } out;
} reader;

static void reader_close(reader *r) {
  xq_pgn_close(r->pgn);
  xq_epd_close(r->epd);
  if (r->file) fclose(r->file);
  r->pgn = NULL;
  r->epd = NULL;
  r->file = NULL;
}

static int reader_gc(lua_State *L) {
  reader_close(lua_touserdata(L, 1));
  return 0;
}

/* Pushes the game from start after the moves, with the reader's rules. */
static void push_game(lua_State *L, const xq_position *start,
                      const xq_move *moves, int plies, uint8_t rules) {
  xq_position first = *start;
  first.rules = rules;
  lgame *g = lgame_push(L, &xq_class, &first);
  for (int i = 0; i < plies; i++) lgame_push_move(L, g, moves[i]);
}

static void push_moves(lua_State *L, const xq_position *pos,
                       const xq_move *moves, int count) {
  lua_createtable(L, count, 0);
  for (int i = 0; i < count; i++) {
    char text[16];
    xq_format_move(pos, moves[i], XQ_ICCS, text, sizeof text);
    lua_pushstring(L, text);
    lua_rawseti(L, -2, i + 1);
  }
}

static void set_string(lua_State *L, const char *key, const char *value) {
  lua_pushstring(L, value);
  lua_setfield(L, -2, key);
}

static void set_integer(lua_State *L, const char *key, lua_Integer value) {
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

/* {game=, tags=, result=, moves=, id=, line=, encoding=} */
static void push_pgn_record(lua_State *L, reader *r, const char *name) {
  const xq_pgn_game *game = &r->out.game;
  lua_createtable(L, 0, 8);
  push_game(L, &game->start, game->moves, game->plies, r->rules);
  lua_setfield(L, -2, "game");
  lua_createtable(L, 0, game->tag_count);
  for (int i = 0; i < game->tag_count; i++)
    set_string(L, game->tags[i].name, game->tags[i].value);
  lua_setfield(L, -2, "tags");
  if (*game->result) set_string(L, "result", game->result);
  set_integer(L, "moves", game->plies);
  lua_pushfstring(L, "%s#%d", name, game->number);
  lua_setfield(L, -2, "id");
  set_integer(L, "line", game->line);
  set_string(L, "encoding", xq_encoding_names[game->encoding]);
}

/* {game=, bm=, am=, dm=, id=, ops=, moves=, line=} */
static void push_epd_record(lua_State *L, reader *r, const char *name) {
  const xq_epd_record *record = &r->out.record;
  lua_createtable(L, 0, 8);
  push_game(L, &record->start, record->moves, record->plies, r->rules);
  lua_setfield(L, -2, "game");
  if (record->bm_count) {
    push_moves(L, &record->end, record->bm, record->bm_count);
    lua_setfield(L, -2, "bm");
  }
  if (record->am_count) {
    push_moves(L, &record->end, record->am, record->am_count);
    lua_setfield(L, -2, "am");
  }
  if (record->dm) set_integer(L, "dm", record->dm);
  if (*record->id) set_string(L, "id", record->id);
  else {
    lua_pushfstring(L, "%s:%d", name, record->line);
    lua_setfield(L, -2, "id");
  }
  if (record->op_count) {
    lua_createtable(L, 0, record->op_count);
    for (int i = 0; i < record->op_count; i++)
      set_string(L, record->ops[i].name, record->ops[i].value);
    lua_setfield(L, -2, "ops");
  }
  set_integer(L, "moves", record->plies);
  set_integer(L, "line", record->line);
}

/* The iterator: upvalues are the reader, the text and the name.  A
   record that cannot be read gives false, why and what was read of it
   (nil would end a for loop). */
static int reader_next(lua_State *L) {
  reader *r = lua_touserdata(L, lua_upvalueindex(1));
  const char *name = lua_tostring(L, lua_upvalueindex(3));
  xq_read_status status = XQ_READ_END;
  if (r->pgn) status = xq_pgn_next(r->pgn, &r->out.game);
  else if (r->epd) status = xq_epd_next(r->epd, &r->out.record);
  if (status == XQ_READ_END) {
    reader_close(r);                      /* its memory back at once */
    lua_pushnil(L);
    return 1;
  }
  if (r->pgn) push_pgn_record(L, r, name);
  else push_epd_record(L, r, name);
  if (status == XQ_READ_OK) return 1;
  lua_pushboolean(L, false);
  if (r->pgn)
    lua_pushfstring(L, "xiangqi: %s#%d (line %d): %s", name,
                    r->out.game.number, r->out.game.error_line,
                    r->out.game.message);
  else
    lua_pushfstring(L, "xiangqi: %s:%d: %s", name, r->out.record.line,
                    r->out.record.message);
  lua_rotate(L, -3, 2);                   /* false, why, the record */
  return 3;
}

/* Pushes the contents of the file at path; r holds the file meanwhile,
   so that an error leaves it to be closed by the collector. */
static void push_file(lua_State *L, reader *r, const char *path) {
  r->file = fopen(path, "rb");
  if (!r->file)
    luaL_error(L, "xiangqi: cannot open '%s' (%s)", path, strerror(errno));
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t n;
  do {
    char *p = luaL_prepbuffer(&b);
    n = fread(p, 1, LUAL_BUFFERSIZE, r->file);
    luaL_addsize(&b, n);
  } while (n == LUAL_BUFFERSIZE);
  int failed = ferror(r->file) ? errno : 0;
  fclose(r->file);
  r->file = NULL;
  if (failed)
    luaL_error(L, "xiangqi: cannot read '%s' (%s)", path, strerror(failed));
  luaL_pushresult(&b);
}

int lxq_read(lua_State *L) {
  size_t len;
  const char *source = luaL_checklstring(L, 1, &len);
  check_keys(L, 2, "read",
             "format encoding name rules repetition move_limit");
  int format = opt_choice(L, 2, "format", -1, format_names);
  int encoding = opt_choice(L, 2, "encoding", XQ_ENCODING_AUTO,
                            xq_encoding_names);
  xq_position rules;
  xq_init(&rules);
  lxq_check_rules(L, 2, &rules);
  bool text = memchr(source, '\n', len) || memchr(source, '\0', len);
  lua_settop(L, 2);
  if (!lua_isnil(L, 2) && lua_getfield(L, 2, "name") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "xiangqi: option 'name' must be a string (got %s)",
                 luaL_typename(L, -1));
  } else {
    lua_settop(L, 2);
    lua_pushstring(L, text ? "text" : source);
  }                                       /* source, options, name */
  reader *r = lua_newuserdatauv(L, sizeof *r, 0);
  r->pgn = NULL;
  r->epd = NULL;
  r->file = NULL;
  r->rules = rules.rules;
  if (luaL_newmetatable(L, READER_TYPE)) {
    lua_pushcfunction(L, reader_gc);
    lua_setfield(L, -2, "__gc");
    ludus_protect_metatable(L, -1);
  }
  lua_setmetatable(L, -2);
  if (text) lua_pushvalue(L, 1);
  else push_file(L, r, source);           /* reader, contents */
  size_t size;
  const char *contents = lua_tolstring(L, -1, &size);
  if (format < 0)
    format = xq_guess_format(text ? NULL : source, contents, size) ==
             XQ_FORMAT_PGN ? FORMAT_PGN : FORMAT_EPD;
  if (format == FORMAT_PGN)
    r->pgn = xq_pgn_open(contents, size, (xq_encoding)encoding);
  else
    r->epd = xq_epd_open(contents, size, (xq_encoding)encoding);
  if (!r->pgn && !r->epd) return luaL_error(L, "not enough memory");
  lua_pushvalue(L, 3);
  lua_pushcclosure(L, reader_next, 3);
  return 1;
}

/* ---- load's PGN path ---- */

bool lxq_is_pgn(const char *text, size_t len) {
  size_t at = 0;
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) at = 3;
  while (at < len && (text[at] == ' ' || text[at] == '\t' ||
                      text[at] == '\r' || text[at] == '\n'))
    at++;
  if (at < len && (text[at] == '[' || text[at] == '{')) return true;
  if (memchr(text, '{', len) || memchr(text, '(', len) ||
      memchr(text, '$', len))
    return true;
  size_t end = len;
  while (end > 0 && strchr(" \t\r\n", text[end - 1])) end--;
  size_t start = end;
  while (start > 0 && !strchr(" \t\r\n", text[start - 1])) start--;
  static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  for (int i = 0; i < 4; i++)
    if (end - start == strlen(results[i]) &&
        memcmp(text + start, results[i], end - start) == 0)
      return true;
  return false;
}

int lxq_load_pgn(lua_State *L, const char *text, size_t len,
                 const xq_position *rules) {
  reader *r = lua_newuserdatauv(L, sizeof *r, 0);
  memset(r, 0, sizeof *r);
  r->rules = rules->rules;
  if (luaL_newmetatable(L, READER_TYPE)) {
    lua_pushcfunction(L, reader_gc);
    lua_setfield(L, -2, "__gc");
    ludus_protect_metatable(L, -1);
  }
  lua_setmetatable(L, -2);
  r->pgn = xq_pgn_open(text, len, XQ_ENCODING_AUTO);
  if (!r->pgn) return luaL_error(L, "not enough memory");
  xq_pgn_game *game = &r->out.game;
  xq_read_status status = xq_pgn_next(r->pgn, game);
  if (status == XQ_READ_OK) {
    push_game(L, &game->start, game->moves, game->plies, r->rules);
    if (xq_pgn_next(r->pgn, game) == XQ_READ_END) {
      reader_close(r);
      return 1;
    }
    lua_pushnil(L);
    lua_pushliteral(L, "xiangqi: bad record: the text holds more than one "
                    "game (xiangqi.read reads them one by one)");
  } else {
    lua_pushnil(L);
    if (status == XQ_READ_END)
      lua_pushliteral(L, "xiangqi: bad record: no game in the text");
    else
      lua_pushfstring(L, "xiangqi: bad record: line %d: %s",
                      game->error_line, game->message);
  }
  reader_close(r);
  return 2;
}

/* ---- writing ---- */

/* The seven tags of PGN's roster come first, in its order, then the
   others by name. */
static int tag_rank(const char *name) {
  static const char *const roster[] = {
    "Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result", NULL
  };
  for (int i = 0; roster[i]; i++)
    if (strcmp(name, roster[i]) == 0) return i;
  return 100;
}

static int compare_tags(const void *a, const void *b) {
  const xq_tag *x = a, *y = b;
  int rx = tag_rank(x->name), ry = tag_rank(y->name);
  return rx != ry ? rx - ry : strcmp(x->name, y->name);
}

/* Reads the tags table at idx (may be nil) into game, pushing a copy
   of every name and value (they stay on the stack while game is used). */
static void read_tags(lua_State *L, int idx, xq_pgn_game *game) {
  game->tag_count = 0;
  if (lua_isnil(L, idx)) return;
  if (!lua_istable(L, idx))
    luaL_error(L, "xiangqi: tags must be a table of name = value (got %s)",
               luaL_typename(L, idx));
  idx = lua_absindex(L, idx);
  luaL_checkstack(L, 2 * XQ_PGN_MAX_TAGS + 8, "too many tags");
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const char *name = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                       : "";
    bool good = *name != '\0';
    for (const char *c = name; *c; c++)
      good &= (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
              (*c >= '0' && *c <= '9') || *c == '_';
    if (!good)
      luaL_error(L, "xiangqi: tag name '%s' is not a name (letters, digits "
                 "and _)", luaL_tolstring(L, -2, NULL));
    if (lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER)
      luaL_error(L, "xiangqi: tag '%s' must be a string (got %s)", name,
                 luaL_typename(L, -1));
    if (game->tag_count == XQ_PGN_MAX_TAGS)
      luaL_error(L, "xiangqi: more than %d tags", XQ_PGN_MAX_TAGS);
    size_t value_length;                  /* a number becomes a string */
    const char *value = lua_tolstring(L, -1, &value_length);
    if (strlen(value) != value_length)
      luaL_error(L, "xiangqi: tag '%s' contains a zero byte", name);
    if (!xq_is_utf8(value, value_length))   /* the file written is UTF-8 */
      luaL_error(L, "xiangqi: tag '%s' is not UTF-8 text", name);
    game->tags[game->tag_count].name = name;
    game->tags[game->tag_count].value = value;
    game->tag_count++;
    lua_pushvalue(L, -2);         /* the pair stays on the stack; the key
                                     again for lua_next */
  }
  qsort(game->tags, (size_t)game->tag_count, sizeof *game->tags,
        compare_tags);
}

/* Leaves the value on top of the stack just above top, the rest that
   was pushed since gone. */
static void keep_top(lua_State *L, int top) {
  if (lua_gettop(L) == top + 1) return;
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}

/* The result of the game's position, as a result token. */
static const char *result_of(const xq_position *pos) {
  game_status status;
  xq_ending_of(pos, &status);
  return status == GAME_WIN_0 ? "1-0" : status == GAME_WIN_1 ? "0-1"
       : status == GAME_DRAW ? "1/2-1/2" : "*";
}

/* Pushes the moves of g as xq_moves (in a userdata) and returns them. */
static xq_move *push_history(lua_State *L, lgame *g, int *plies) {
  const game_move *moves;
  *plies = lgame_moves(g, &moves);
  xq_move *out = lua_newuserdatauv(L, (size_t)*plies * sizeof *out + 1, 0);
  for (int i = 0; i < *plies; i++) out[i] = (xq_move)moves[i];
  return out;
}

/* Pushes the PGN of game g, with the tags table at tags_idx (0: none)
   and the result at result_idx (0 or nil: the tags' [Result], else the
   game's own: "*" while it goes on). */
static void push_pgn(lua_State *L, lgame *g, int tags_idx, int result_idx,
                     xq_notation notation) {
  int top = lua_gettop(L);
  xq_pgn_game *game = lua_newuserdatauv(L, sizeof *game, 0);
  game->start = *(const xq_position *)lgame_start(g);
  game->moves = push_history(L, g, &game->plies);
  const char *result = result_of(lgame_state(g));
  if (result_idx && !lua_isnil(L, result_idx)) {
    const char *given = lua_tostring(L, result_idx);
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*", NULL};
    int i = 0;
    while (given && results[i] && strcmp(given, results[i]) != 0) i++;
    if (!given || !results[i])
      luaL_error(L, "xiangqi: result must be \"1-0\", \"0-1\", \"1/2-1/2\" "
                 "or \"*\" (got %s)", luaL_tolstring(L, result_idx, NULL));
    result = results[i];
  }
  game->tag_count = 0;
  if (tags_idx) read_tags(L, tags_idx, game);
  if (!result_idx || lua_isnil(L, result_idx)) {      /* then [Result] */
    const char *tag = xq_pgn_tag(game, "Result");
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (int i = 0; tag && i < 4; i++)
      if (strcmp(tag, results[i]) == 0) result = results[i];
  }
  game->result = result;
  size_t size = xq_pgn_write(game, notation, NULL, 0) + 1;
  char *text = lua_newuserdatauv(L, size, 0);
  xq_pgn_write(game, notation, text, size);
  lua_pushlstring(L, text, size - 1);
  keep_top(L, top);
}

/* Reads a list of moves (record field key at idx) in pos. */
static int read_move_list(lua_State *L, int idx, const char *key,
                          const xq_position *pos, xq_move *out) {
  if (lua_getfield(L, idx, key) == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1))
    luaL_error(L, "xiangqi: %s must be a list of moves (got %s)", key,
               luaL_typename(L, -1));
  int count = (int)luaL_len(L, -1);
  if (count > XQ_EPD_MAX_MOVES)
    luaL_error(L, "xiangqi: more than %d moves in %s", XQ_EPD_MAX_MOVES, key);
  for (int i = 0; i < count; i++) {
    lua_geti(L, -1, i + 1);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    const char *why = "not a string";
    game_error code = GAME_EBADTEXT;
    if (text && strlen(text) == len) code = xq_read_move(pos, text, &out[i], &why);
    if (code != GAME_OK)
      luaL_error(L, "xiangqi: %s move %s is not a legal move here (%s)", key,
                 luaL_tolstring(L, -1, NULL), why);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return count;
}

/* Whether operands (len bytes) read back as one operation's: UTF-8 on
   one line, every ';' inside a quoted string (the reader's split_ops ends an
   operation at the first ';' outside one), every string closed. */
static bool operands_fit(const char *operands, size_t len) {
  if (!xq_is_utf8(operands, len) || strpbrk(operands, "\r\n")) return false;
  bool quoted = false;
  for (size_t i = 0; i < len; i++) {
    if (operands[i] == '"') quoted = !quoted;
    else if (operands[i] == '\\' && quoted && i + 1 < len) i++;
    else if (operands[i] == ';' && !quoted) return false;
  }
  return !quoted;
}

/* Pushes the EPD or FEN line of a record: the game g, and the record
   table at idx (0: none) for bm, am, dm, id and ops. */
static void push_epd(lua_State *L, lgame *g, int idx, bool fen_line,
                     xq_notation notation) {
  int top = lua_gettop(L);
  xq_epd_record *record = lua_newuserdatauv(L, sizeof *record, 0);
  memset(record, 0, sizeof *record);
  record->start = *(const xq_position *)lgame_start(g);
  record->moves = push_history(L, g, &record->plies);
  record->id = "";
  const xq_position *end = lgame_state(g);
  if (idx && !fen_line) {
    record->bm_count = read_move_list(L, idx, "bm", end, record->bm);
    record->am_count = read_move_list(L, idx, "am", end, record->am);
    if (lua_getfield(L, idx, "dm") != LUA_TNIL) {
      lua_Integer dm = 0;
      if (!lua_isinteger(L, -1) || (dm = lua_tointeger(L, -1)) < 1 || dm > 999)
        luaL_error(L, "xiangqi: dm must be a count of moves from 1 to 999 "
                   "(got %s)", luaL_tolstring(L, -1, NULL));
      record->dm = (int)dm;
    }
    if (lua_getfield(L, idx, "id") != LUA_TNIL) {
      size_t len;
      record->id = lua_tolstring(L, -1, &len);
      if (!record->id || !xq_is_utf8(record->id, len) ||
          memchr(record->id, '\n', len))
        luaL_error(L, "xiangqi: id must be a line of UTF-8 text (got %s)",
                   luaL_tolstring(L, -1, NULL));
    }
    if (lua_getfield(L, idx, "ops") != LUA_TNIL) {
      if (!lua_istable(L, -1))
        luaL_error(L, "xiangqi: ops must be a table of name = operands");
      int ops = lua_absindex(L, -1);
      luaL_checkstack(L, 2 * XQ_EPD_MAX_OPS + 8, "too many operations");
      lua_pushnil(L);
      while (lua_next(L, ops)) {
        size_t name_length, value_length;
        const char *name = lua_type(L, -2) == LUA_TSTRING
                         ? lua_tolstring(L, -2, &name_length) : NULL;
        bool good = name && strlen(name) == name_length &&
                    ((*name >= 'a' && *name <= 'z') ||
                     (*name >= 'A' && *name <= 'Z')) &&
                    !strpbrk(name, " \t\r\n;\"") &&
                    strcmp(name, "moves") && strcmp(name, "bm") &&
                    strcmp(name, "am") && strcmp(name, "dm") &&
                    strcmp(name, "id") && strcmp(name, "hmvc") &&
                    strcmp(name, "fmvn");
        if (!good)
          luaL_error(L, "xiangqi: %s is not the name of another operation",
                     luaL_tolstring(L, -2, NULL));
        const char *value = lua_type(L, -1) == LUA_TSTRING
                          ? lua_tolstring(L, -1, &value_length) : NULL;
        if (!value || !operands_fit(value, value_length))
          luaL_error(L, "xiangqi: operation '%s' must be UTF-8 text on one "
                     "line, with ';' only in a closed string", name);
        if (record->op_count == XQ_EPD_MAX_OPS)
          luaL_error(L, "xiangqi: more than %d operations", XQ_EPD_MAX_OPS);
        record->ops[record->op_count].name = name;
        record->ops[record->op_count].value = value;
        record->op_count++;
        lua_pushvalue(L, -2);             /* the pair stays; key for next */
      }
    }
  }
  size_t size = xq_epd_write(record, notation, NULL, 0) + 1;
  char *text = lua_newuserdatauv(L, size, 0);
  xq_epd_write(record, notation, text, size);
  lua_pushlstring(L, text, size - 1);
  keep_top(L, top);
}

/* Pushes the text of the record at idx: a game, or a table with game
   (and tags, result; or bm, am, dm, id, ops). */
static void push_record(lua_State *L, int idx, int format,
                        xq_notation notation) {
  idx = lua_absindex(L, idx);
  int top = lua_gettop(L);
  int record = 0;
  lgame *g = luaL_testudata(L, idx, "ludus.xiangqi");
  if (!g && lua_istable(L, idx)) {
    lua_getfield(L, idx, "game");
    g = luaL_testudata(L, -1, "ludus.xiangqi");
    record = idx;
  }
  if (!g)
    luaL_error(L, "xiangqi: a record must be a xiangqi game or a table with "
               "one as its game (got %s)", luaL_typename(L, idx));
  if (format == FORMAT_PGN) {
    int tags = 0, result = 0;
    if (record) {
      lua_getfield(L, record, "tags");
      tags = lua_gettop(L);
      lua_getfield(L, record, "result");
      result = lua_gettop(L);
    }
    push_pgn(L, g, tags, result, notation);
  } else {
    push_epd(L, g, record, format == FORMAT_FEN, notation);
  }
  keep_top(L, top);
}

int lxq_pgn_method(lua_State *L) {
  lgame *g = lgame_check(L, 1, &xq_class);
  check_keys(L, 2, "pgn", "notation tags result");
  int notation = opt_choice(L, 2, "notation", XQ_ICCS, notation_names);
  lua_settop(L, 2);
  if (lua_isnil(L, 2)) {
    push_pgn(L, g, 0, 0, (xq_notation)notation);
    return 1;
  }
  lua_getfield(L, 2, "tags");
  lua_getfield(L, 2, "result");
  push_pgn(L, g, 3, 4, (xq_notation)notation);
  return 1;
}

/* Adds the text of each record of the argument at 2 to b: a game, a
   record, a list of them, or an iterator (read's: false, a bad record,
   is skipped).  Returns how many. */
static lua_Integer add_records(lua_State *L, luaL_Buffer *b, int format,
                               xq_notation notation) {
  lua_Integer count = 0;
  bool one = luaL_testudata(L, 2, "ludus.xiangqi") != NULL;
  if (!one && lua_istable(L, 2)) {
    one = lua_getfield(L, 2, "game") != LUA_TNIL;
    lua_pop(L, 1);
  }
  if (one) {
    push_record(L, 2, format, notation);
    luaL_addvalue(b);
    return 1;
  }
  if (lua_isfunction(L, 2)) {
    for (;;) {
      lua_pushvalue(L, 2);
      lua_call(L, 0, 1);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return count;
      }
      if (lua_toboolean(L, -1)) {
        push_record(L, -1, format, notation);
        lua_remove(L, -2);
        luaL_addvalue(b);
        count++;
      } else {
        lua_pop(L, 1);
      }
    }
  }
  if (!lua_istable(L, 2))
    luaL_typeerror(L, 2, "xiangqi game, record, list of them or iterator");
  lua_Integer n = luaL_len(L, 2);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, 2, i);
    push_record(L, -1, format, notation);
    lua_remove(L, -2);
    luaL_addvalue(b);
    count++;
  }
  return count;
}

int lxq_write(lua_State *L) {
  size_t len;
  const char *path = luaL_checklstring(L, 1, &len);
  luaL_argcheck(L, strlen(path) == len, 1, "a path has no zero byte");
  check_keys(L, 3, "write", "format notation");
  int format = opt_choice(L, 3, "format", -1, format_names);
  int notation = opt_choice(L, 3, "notation", XQ_ICCS, notation_names);
  if (format < 0) {
    size_t k = strlen(path);
    format = k >= 4 && strcmp(path + k - 4, ".epd") == 0 ? FORMAT_EPD
           : k >= 4 && strcmp(path + k - 4, ".fen") == 0 ? FORMAT_FEN
           : FORMAT_PGN;
  }
  lua_settop(L, 2);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  lua_Integer count = add_records(L, &b, format, (xq_notation)notation);
  luaL_pushresult(&b);
  size_t size;
  const char *text = lua_tolstring(L, -1, &size);
  FILE *f = fopen(path, "wb");
  int failed = f ? 0 : errno;
  if (f && fwrite(text, 1, size, f) != size) failed = errno ? errno : EIO;
  if (f && fclose(f) != 0 && !failed) failed = errno;
  if (failed) {
    lua_pushnil(L);
    lua_pushfstring(L, "xiangqi: cannot write '%s' (%s)", path,
                    strerror(failed));
    return 2;
  }
  lua_pushinteger(L, count);
  return 1;
}
