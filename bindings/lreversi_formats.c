/*
** lreversi_formats.c: reversi.read and reversi.write, the files of games
** and positions of core/reversi/formats.h seen from Lua: a file is an
** iterator of records, a record a table.  The reading and writing are
** core's; this file turns a record into a table and back.
*/
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "lgame.h"
#include "ludus.h"
#include "reversi/formats.h"

#define READER_TYPE "ludus.reversi.reader"
#define WRITER_TYPE "ludus.reversi.writer"
#define GAME_TYPE "ludus.reversi"


/* How a GGF game ended (RE[+4:r]), as a record's result_how says it. */
static const char *const result_hows[] = {"resigned", "time", "agreed"};
static const char result_flags[] = "rts";

/* Option format of the table at arg: UNKNOWN when absent. */
static reversi_format opt_format(lua_State *L, int arg, const char *where) {
  if (lua_isnoneornil(L, arg)) return REVERSI_FORMAT_UNKNOWN;
  reversi_format format = REVERSI_FORMAT_UNKNOWN;
  if (lua_getfield(L, arg, "format") != LUA_TNIL) {
    const char *name = lua_tostring(L, -1);
    format = name && lua_type(L, -1) == LUA_TSTRING ? reversi_format_named(name)
                                                    : REVERSI_FORMAT_UNKNOWN;
    if (format == REVERSI_FORMAT_UNKNOWN)
      luaL_error(L, "%s: option 'format' must be \"wtb\", \"ggf\", \"obf\" or "
                 "\"transcript\" (got %s)", where, luaL_tolstring(L, -1, NULL));
  }
  lua_pop(L, 1);
  return format;
}

/* The file of a Lua file handle at arg, or NULL when arg is not one;
   raises when it is closed. */
static FILE *check_stream(lua_State *L, int arg, const char *where) {
  luaL_Stream *stream = luaL_testudata(L, arg, LUA_FILEHANDLE);
  if (!stream) return NULL;
  if (!stream->closef) luaL_error(L, "%s: the file is closed", where);
  return stream->f;
}

/* ---- reading ---- */

typedef struct lreader {
  reversi_reader reader;
  reversi_record record;
  bool open;
} lreader;

/* User values of a reader: the source it reads (a string or a file
   handle, kept from the collector), and the name its ids start with. */
enum { SOURCE = 1, NAME = 2 };

static int reader_close(lua_State *L) {
  lreader *r = luaL_checkudata(L, 1, READER_TYPE);
  if (r->open) reversi_reader_close(&r->reader);
  r->open = false;
  return 0;
}

/* A string is text to read, rather than a path, when it holds a line
   break, a zero byte or a ';', or starts a GGF game; else when no file
   has that name and it does not look like a path. */
static bool is_text(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  if (len == 0 || (i + 1 < len && s[i] == '(' && s[i + 1] == ';')) return true;
  if (memchr(s, '\n', len) || memchr(s, '\r', len) || memchr(s, '\0', len) ||
      memchr(s, ';', len))
    return true;
  struct stat st;
  if (stat(s, &st) == 0) return false;
  return !strchr(s, '/') && reversi_format_of_path(s) == REVERSI_FORMAT_UNKNOWN;
}

/* The game object of rec: its start, then every move. */
static void push_game(lua_State *L, const reversi_record *rec) {
  lgame *game = lgame_push(L, &reversi_class, &rec->start);
  for (int i = 0; i < rec->plies; i++) lgame_push_move(L, game, rec->moves[i]);
}

static void set_string(lua_State *L, const char *key, const char *value) {
  if (!value) return;
  lua_pushstring(L, value);
  lua_setfield(L, -2, key);
}

static void set_integer(lua_State *L, const char *key, lua_Integer value) {
  if (value < 0) return;
  lua_pushinteger(L, value);
  lua_setfield(L, -2, key);
}

/* A whole number as an integer (a result of -50, not -50.0). */
static void push_number(lua_State *L, double value) {
  if (value == floor(value) && fabs(value) < 1e15)
    lua_pushinteger(L, (lua_Integer)value);
  else lua_pushnumber(L, value);
}

/* {[ply] = value} of the values that are there, or nothing. */
static void set_per_move(lua_State *L, const char *key, const double *values,
                         int plies) {
  bool any = false;
  for (int i = 0; i < plies; i++) {
    if (isnan(values[i])) continue;
    if (!any) lua_createtable(L, 0, 0);
    any = true;
    push_number(L, values[i]);
    lua_rawseti(L, -2, i + 1);
  }
  if (any) lua_setfield(L, -2, key);
}

static void push_record(lua_State *L, lreader *r, int reader) {
  const reversi_record *rec = &r->record;
  lua_createtable(L, 0, 16);
  lua_pushstring(L, reversi_format_name(rec->format));
  lua_setfield(L, -2, "format");
  lua_getiuservalue(L, reader, NAME);
  if (rec->format == REVERSI_FORMAT_WTB || rec->format == REVERSI_FORMAT_GGF)
    lua_pushfstring(L, "%s#%I", lua_tostring(L, -1), (lua_Integer)rec->number);
  else
    lua_pushfstring(L, "%s:%I", lua_tostring(L, -1), (lua_Integer)rec->line);
  lua_setfield(L, -3, "id");
  lua_pop(L, 1);
  lua_pushinteger(L, (lua_Integer)rec->number);
  lua_setfield(L, -2, "number");
  if (rec->line) {
    lua_pushinteger(L, (lua_Integer)rec->line);
    lua_setfield(L, -2, "line");
  }
  push_game(L, rec);
  lua_setfield(L, -2, "game");

  char text[2 * REVERSI_MAX_PLIES + 80];
  size_t n = 0;
  for (int i = 0; i < rec->plies; i++) {      /* the transcript */
    if (rec->moves[i] == REVERSI_PASS) continue;
    reversi_square_name(&rec->start, rec->moves[i], text + n);
    n += 2;
  }
  lua_pushlstring(L, text, n);
  lua_setfield(L, -2, "moves");
  reversi_board standard;
  reversi_init(&standard, 8);
  if (memcmp(&rec->start, &standard, sizeof standard) != 0) {
    n = reversi_format_board(&rec->start, text, sizeof text);
    lua_pushlstring(L, text, n);
    lua_setfield(L, -2, "start");
  }

  set_string(L, "black", rec->black);
  set_string(L, "white", rec->white);
  set_string(L, "tournament", rec->tournament);
  set_integer(L, "year", rec->year);
  set_integer(L, "black_index", rec->black_index);
  set_integer(L, "white_index", rec->white_index);
  set_integer(L, "tournament_index", rec->tournament_index);
  set_integer(L, "black_discs", rec->black_discs);
  set_integer(L, "theoretical", rec->theoretical);
  set_integer(L, "depth", rec->depth);
  set_string(L, "place", rec->place);
  set_string(L, "date", rec->date);
  set_string(L, "clock", rec->clock);
  set_string(L, "type", rec->type);
  set_string(L, "black_rating", rec->black_rating);
  set_string(L, "white_rating", rec->white_rating);
  if (!isnan(rec->result)) {
    push_number(L, rec->result);
    lua_setfield(L, -2, "result");
  }
  if (rec->result_how) {
    const char *flag = strchr(result_flags, rec->result_how);
    lua_pushstring(L, result_hows[flag - result_flags]);
    lua_setfield(L, -2, "result_how");
  }
  if (!isnan(rec->komi)) {
    push_number(L, rec->komi);
    lua_setfield(L, -2, "komi");
  }
  set_per_move(L, "evals", rec->eval, rec->plies);
  set_per_move(L, "seconds", rec->seconds, rec->plies);
  if (rec->format == REVERSI_FORMAT_OBF) {
    lua_createtable(L, 0, rec->answers);
    for (int i = 0; i < rec->answers; i++) {
      char name[5];
      reversi_square_name(&rec->board, rec->answer_square[i], name);
      lua_pushinteger(L, rec->answer_score[i]);
      lua_setfield(L, -2, name);
    }
    lua_setfield(L, -2, "answers");
  }
}

/* The iterator: the next record, or false, the message and the id of a
   bad one; nothing at the end. */
static int reader_next(lua_State *L) {
  int reader = lua_upvalueindex(1);
  lreader *r = lua_touserdata(L, reader);
  if (!r->open) return 0;
  if (r->reader.file && !r->reader.owns_file) {   /* a Lua file: still open? */
    lua_getiuservalue(L, reader, SOURCE);
    check_stream(L, -1, "reversi.read");
    lua_pop(L, 1);
  }
  reversi_status status = reversi_reader_next(&r->reader, &r->record);
  if (status == REVERSI_END) {
    reversi_reader_close(&r->reader);
    r->open = false;
    return 0;
  }
  if (status == REVERSI_BAD_RECORD) {
    lua_pushboolean(L, 0);
    lua_getiuservalue(L, reader, NAME);
    const char *name = lua_tostring(L, -1);
    lua_pushfstring(L, "reversi: %s: %s", name, r->reader.error);
    const reversi_record *rec = &r->record;
    if (r->reader.format == REVERSI_FORMAT_WTB ||
        (r->reader.format == REVERSI_FORMAT_GGF && rec->number))
      lua_pushfstring(L, "%s#%I", name, (lua_Integer)rec->number);
    else
      lua_pushfstring(L, "%s:%I", name, (lua_Integer)rec->line);
    lua_remove(L, -3);
    return 3;
  }
  push_record(L, r, reader);
  return 1;
}

/* reversi.read(source [, {format=, size=, name=}]) -> an iterator of
   records, for a generic for (which closes the file when it ends); an
   error when the source cannot be read, as io.lines raises (nil and a
   message would reach the for loop as "attempt to call a nil value"). */
static int rf_read(lua_State *L) {
  FILE *stream = check_stream(L, 1, "reversi.read");
  size_t len = 0;
  const char *source = NULL;
  if (!stream) {
    if (lua_type(L, 1) != LUA_TSTRING)
      return luaL_typeerror(L, 1, "path, text or file");
    source = lua_tolstring(L, 1, &len);
  }
  lgame_check_options(L, 2, "format size name", "reversi.read");
  reversi_format format = opt_format(L, 2, "reversi.read");
  int size = (int)(lua_isnoneornil(L, 2) ? 8
                   : lgame_opt_integer(L, 2, "size", 8, 4, 8, "reversi.read"));
  if (!reversi_size_ok(size))
    return luaL_error(L, "reversi.read: no %d x %d board (sizes are 4, 6 and 8)", size,
                      size);
  bool text = source && is_text(source, len);
  if (!lua_isnoneornil(L, 2) && lua_getfield(L, 2, "name") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TSTRING)
      return luaL_error(L, "reversi.read: option 'name' must be a string (got %s)",
                        luaL_typename(L, -1));
  } else {
    lua_pushstring(L, stream ? "file" : text ? "text" : source);
  }
  int name = lua_gettop(L);

  lreader *r = lua_newuserdatauv(L, sizeof *r, 2);
  memset(r, 0, sizeof *r);
  luaL_setmetatable(L, READER_TYPE);
  int reader = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, reader, SOURCE);
  lua_pushvalue(L, name);
  lua_setiuservalue(L, reader, NAME);
  bool opened;
  if (stream) opened = reversi_reader_open_file(&r->reader, stream, format, size);
  else if (text)
    opened = reversi_reader_open_memory(&r->reader, source, len, format, size);
  else opened = reversi_reader_open(&r->reader, source, format, size);
  if (!opened)
    return luaL_error(L, "reversi: %s: %s", lua_tostring(L, name), r->reader.error);
  r->open = true;
  lua_pushvalue(L, reader);
  lua_pushcclosure(L, reader_next, 1);
  lua_pushnil(L);
  lua_pushnil(L);
  lua_pushvalue(L, reader);                   /* closed by the for loop */
  return 4;
}

/* ---- writing ---- */

typedef struct lwriter {
  reversi_writer writer;
  bool open;
} lwriter;

/* Whether the writer may still touch its file: a Lua file (its user
   value) that the games' iterator closed may not be. */
static bool stream_open(lua_State *L, int writer) {
  lua_getiuservalue(L, writer, 1);
  luaL_Stream *stream = luaL_testudata(L, -1, LUA_FILEHANDLE);
  lua_pop(L, 1);
  return !stream || stream->closef;
}

static int writer_close(lua_State *L) {
  lwriter *w = luaL_checkudata(L, 1, WRITER_TYPE);
  if (w->open && !stream_open(L, 1)) w->writer.file = NULL;   /* not flushed */
  if (w->open) reversi_writer_close(&w->writer);
  w->open = false;
  return 0;
}

/* Field key of the record at arg, when there: a string (left on the
   stack, which keeps it) or NULL. */
static const char *field_string(lua_State *L, int arg, const char *key, int n) {
  int type = lua_getfield(L, arg, key);
  if (type == LUA_TNIL) return NULL;
  if (type != LUA_TSTRING)
    luaL_error(L, "reversi.write: game %d: field '%s' must be a string (got %s)", n,
               key, luaL_typename(L, -1));
  size_t len;
  const char *s = lua_tolstring(L, -1, &len);
  if (strlen(s) != len)
    luaL_error(L,
               "reversi.write: game %d: field '%s' must be a string without zero bytes",
               n, key);
  return s;
}

static lua_Integer field_integer(lua_State *L, int arg, const char *key, int n,
                                 lua_Integer max) {
  lua_Integer value = -1;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    int ok;
    value = lua_tointegerx(L, -1, &ok);
    if (!ok || lua_type(L, -1) != LUA_TNUMBER || value < 0 || value > max)
      luaL_error(L, "reversi.write: game %d: field '%s' must be a whole number from 0 "
                 "to %I (got %s)", n, key, max, luaL_tolstring(L, -1, NULL));
  }
  lua_pop(L, 1);
  return value;
}

static double field_number(lua_State *L, int arg, const char *key, int n) {
  double value = NAN;
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    value = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(fabs(value) <= 64))
      luaL_error(L,
                 "reversi.write: game %d: field '%s' must be a number from -64 to 64 "
                 "(got %s)",
                 n, key, luaL_tolstring(L, -1, NULL));
  }
  lua_pop(L, 1);
  return value;
}

static void field_per_move(lua_State *L, int arg, const char *key, int n,
                           double *values, int plies) {
  if (lua_getfield(L, arg, key) != LUA_TNIL) {
    if (!lua_istable(L, -1))
      luaL_error(L, "reversi.write: game %d: field '%s' must be a table of a number "
                 "for each move (got %s)", n, key, luaL_typename(L, -1));
    for (int i = 0; i < plies; i++) {
      if (lua_geti(L, -1, i + 1) != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1)) ||
            fabs(lua_tonumber(L, -1)) > 1e8)
          luaL_error(L, "reversi.write: game %d: %s[%d] must be a number (got %s)", n,
                     key, i + 1, luaL_typename(L, -1));
        values[i] = lua_tonumber(L, -1);
      }
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

static void field_answers(lua_State *L, int arg, int n, reversi_record *rec) {
  if (lua_getfield(L, arg, "answers") != LUA_TNIL) {
    if (!lua_istable(L, -1))
      luaL_error(L, "reversi.write: game %d: field 'answers' must be a table {g8 = 18, "
                 "...} (got %s)", n, luaL_typename(L, -1));
    uint64_t listed = 0;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      size_t len;
      const char *move =
          lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &len) : NULL;
      int square = move ? reversi_parse_square(&rec->board, move, len) : -1;
      int ok;
      lua_Integer score = lua_tointegerx(L, -1, &ok);
      if (square < 0 || !ok || score < -64 || score > 64 ||
          (square < 64 && (listed >> square & 1)) || rec->answers == 65)
        luaL_error(L, "reversi.write: game %d: answers must be moves of the board and "
                   "their scores, whole numbers from -64 to 64", n);
      if (square < 64) listed |= (uint64_t)1 << square;
      /* in order: the best score first, then the squares a1 to h8 */
      int at = rec->answers++;
      while (at > 0 &&
             (rec->answer_score[at - 1] < score ||
              (rec->answer_score[at - 1] == score &&
               rec->answer_square[at - 1] > square))) {
        rec->answer_square[at] = rec->answer_square[at - 1];
        rec->answer_score[at] = rec->answer_score[at - 1];
        at--;
      }
      rec->answer_square[at] = (uint8_t)square;
      rec->answer_score[at] = (int8_t)score;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

/* The record of the item at arg (a game, or a record table holding one
   as game), its strings kept on the stack. */
static void check_record(lua_State *L, int arg, int n, reversi_record *rec) {
  bool table = lua_type(L, arg) == LUA_TTABLE;
  int game = arg;
  if (table) {
    lua_getfield(L, arg, "game");
    game = lua_gettop(L);
  }
  lgame *g = luaL_testudata(L, game, GAME_TYPE);
  if (!g) {
    if (table)
      luaL_error(L,
                 "reversi.write: game %d: field 'game' must be a reversi game (got %s)",
                 n, luaL_typename(L, game));
    luaL_error(L, "reversi.write: game %d must be a reversi game or a record with one "
               "(got %s)", n, luaL_typename(L, arg));
  }
  const reversi_board *start = lgame_start(g);
  reversi_record_init(rec, start->size);
  rec->start = *start;
  rec->board = *(const reversi_board *)lgame_state(g);
  const game_move *moves;
  int count = lgame_moves(g, &moves);
  if (count > REVERSI_MAX_PLIES)
    luaL_error(L, "reversi.write: game %d has more moves than a game can", n);
  for (int i = 0; i < count; i++) rec->moves[i] = (uint8_t)moves[i];
  rec->plies = count;
  rec->number = (uint64_t)n;
  if (!table) return;
  luaL_checkstack(L, 20, "reversi.write");
  rec->black = field_string(L, arg, "black", n);
  rec->white = field_string(L, arg, "white", n);
  rec->tournament = field_string(L, arg, "tournament", n);
  rec->place = field_string(L, arg, "place", n);
  rec->date = field_string(L, arg, "date", n);
  rec->clock = field_string(L, arg, "clock", n);
  rec->type = field_string(L, arg, "type", n);
  rec->black_rating = field_string(L, arg, "black_rating", n);
  rec->white_rating = field_string(L, arg, "white_rating", n);
  rec->year = (int)field_integer(L, arg, "year", n, 65535);
  rec->black_index = (int)field_integer(L, arg, "black_index", n, 65535);
  rec->white_index = (int)field_integer(L, arg, "white_index", n, 65535);
  rec->tournament_index = (int)field_integer(L, arg, "tournament_index", n, 65535);
  rec->black_discs = (int)field_integer(L, arg, "black_discs", n, 64);
  rec->theoretical = (int)field_integer(L, arg, "theoretical", n, 64);
  rec->depth = (int)field_integer(L, arg, "depth", n, 60);
  rec->result = field_number(L, arg, "result", n);
  rec->komi = field_number(L, arg, "komi", n);
  const char *how = field_string(L, arg, "result_how", n);
  if (how) {
    for (int i = 0; i < 3; i++)
      if (strcmp(how, result_hows[i]) == 0) rec->result_how = result_flags[i];
    if (!rec->result_how)
      luaL_error(L, "reversi.write: game %d: field 'result_how' must be \"resigned\", "
                 "\"time\" or \"agreed\"", n);
  }
  field_per_move(L, arg, "evals", n, rec->eval, rec->plies);
  field_per_move(L, arg, "seconds", n, rec->seconds, rec->plies);
  field_answers(L, arg, n, rec);
}

/* reversi.write(destination, games [, {format=, year=, depth=}]) ->
   the number of games written, and the messages of those skipped (bad
   records of a reader, games the format cannot hold), when there are
   some; nil and a message when the file cannot be written. games is a
   list, or a function called until it returns nil (reversi.read's
   iterator).  destination is a path or a Lua file.  The games of a list
   are all checked before the file is opened, so a bad one leaves it
   as it was. */
static int rf_write(lua_State *L) {
  FILE *stream = check_stream(L, 1, "reversi.write");
  const char *path = stream ? NULL : luaL_checkstring(L, 1);
  int kind = lua_type(L, 2);
  if (kind != LUA_TTABLE && kind != LUA_TFUNCTION)
    return luaL_typeerror(L, 2, "list of games or iterator");
  lgame_check_options(L, 3, "format year depth", "reversi.write");
  reversi_format format = opt_format(L, 3, "reversi.write");
  if (format == REVERSI_FORMAT_UNKNOWN && path) format = reversi_format_of_path(path);
  if (format == REVERSI_FORMAT_UNKNOWN)
    return luaL_error(L,
                      "reversi.write: which format? (a .wtb, .ggf, .obf or .txt path "
                      "says, or {format = \"ggf\"})");
  lua_Integer year = -1, depth = -1;
  if (!lua_isnoneornil(L, 3)) {
    year = lgame_opt_integer(L, 3, "year", -1, 0, 65535, "reversi.write");
    depth = lgame_opt_integer(L, 3, "depth", -1, 0, 60, "reversi.write");
  }
  lua_settop(L, 3);
  if (kind == LUA_TTABLE) {   /* a bad record raises before the file is touched */
    reversi_record rec;
    for (int n = 1; lua_geti(L, 2, n) != LUA_TNIL; n++) {
      if (lua_toboolean(L, 4)) check_record(L, 4, n, &rec);
      lua_settop(L, 3);
    }
    lua_settop(L, 3);
  }
  lua_newtable(L);                                /* 4: the skipped */
  lwriter *w = lua_newuserdatauv(L, sizeof *w, 1);   /* 5 */
  memset(w, 0, sizeof *w);
  luaL_setmetatable(L, WRITER_TYPE);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, 5, 1);
  lua_toclose(L, 5);
  const char *shown = path ? path : "file";
  bool opened = stream ? reversi_writer_open_file(&w->writer, stream, format, NULL)
                       : reversi_writer_open(&w->writer, path, format, NULL);
  if (!opened) {
    lua_pushnil(L);
    lua_pushfstring(L, "reversi: %s: %s", shown, w->writer.error);
    return 2;
  }
  w->open = true;
  if (year >= 0 || depth >= 0) {
    w->writer.header_set = true;
    if (year >= 0) w->writer.header.game_year = (uint16_t)year;
    if (depth >= 0) w->writer.header.depth = (uint8_t)depth;
  }
  reversi_record rec;
  int skipped = 0;
  for (int n = 1;; n++) {
    int top = lua_gettop(L);
    if (kind == LUA_TTABLE) {
      lua_geti(L, 2, n);
      lua_pushnil(L);
    } else {
      lua_pushvalue(L, 2);
      lua_call(L, 0, 2);
    }
    int item = top + 1;
    if (lua_isnil(L, item)) break;
    if (lua_type(L, item) == LUA_TBOOLEAN && !lua_toboolean(L, item)) {
      if (lua_type(L, item + 1) == LUA_TSTRING) lua_pushvalue(L, item + 1);
      else lua_pushfstring(L, "reversi: game %d was a bad record", n);
      lua_rawseti(L, 4, ++skipped);
      lua_settop(L, top);
      continue;
    }
    if (stream) check_stream(L, 1, "reversi.write");
    check_record(L, item, n, &rec);
    reversi_status status = reversi_writer_add(&w->writer, &rec);
    if (status == REVERSI_BAD_RECORD) {
      lua_pushfstring(L, "reversi: game %d: %s", n, w->writer.error);
      lua_rawseti(L, 4, ++skipped);
    } else if (status == REVERSI_END) {
      lua_pushnil(L);
      lua_pushfstring(L, "reversi: %s: %s", shown, w->writer.error);
      return 2;
    }
    lua_settop(L, top);
  }
  if (stream) check_stream(L, 1, "reversi.write");   /* closed by the iterator? */
  w->open = false;
  if (!reversi_writer_close(&w->writer)) {
    lua_pushnil(L);
    lua_pushfstring(L, "reversi: %s: %s", shown, w->writer.error);
    return 2;
  }
  lua_pushinteger(L, (lua_Integer)w->writer.count);
  if (!skipped) return 1;
  lua_pushvalue(L, 4);
  return 2;
}

void lreversi_open_formats(lua_State *L) {
  luaL_newmetatable(L, READER_TYPE);
  lua_pushcfunction(L, reader_close);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, reader_close);
  lua_setfield(L, -2, "__close");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  luaL_newmetatable(L, WRITER_TYPE);
  lua_pushcfunction(L, writer_close);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, writer_close);
  lua_setfield(L, -2, "__close");
  ludus_protect_metatable(L, -1);
  lua_pop(L, 1);
  lua_pushcfunction(L, rf_read);
  lua_setfield(L, -2, "read");
  lua_pushcfunction(L, rf_write);
  lua_setfield(L, -2, "write");
}
