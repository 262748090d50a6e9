/*
** repl.c: the read-eval-print loop of `ludus`.
**
** It follows lua.c: a line is first tried as `return <line>`, a syntax
** error that ends in <eof> asks for another line, and Ctrl-C becomes a
** hook that raises "interrupted!" in running Lua code.  What it adds:
**
** - locals typed at the prompt stay visible on later lines;
** - results print through ludus.pretty, the first kept in `_`, and an
**   error's traceback stops at the line typed;
** - an expression over several lines shows its values too;
** - Ctrl-C also sets ludus_interrupted, which C searches poll, and at the
**   prompt it drops the line instead of leaving;
** - with a terminal on stdin: a banner, line editing and Tab completion
**   through libedit's readline interface, and a history kept in
**   ~/.ludus_history, or in $LUDUS_HISTORY when that is set (set and
**   empty: no history file).
*/
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include <editline/readline.h>

#include <lauxlib.h>
#include <lua.h>

#include "lgame.h"
#include "ludus.h"
#include "repl.h"

#define PROMPT        "> "
#define PROMPT2       ">> "
#define BANNER        LUDUS_COPYRIGHT "  (help() lists the modules)"
#define HISTORY_FILE  ".ludus_history"
#define HISTORY_SIZE  1000

/* Registry key of the REPL's tables (see "Locals that outlive their
   line"). */
#define REPL_STATE    "ludus.repl"

/* loadline's results besides the status of a compilation */
#define LINE_EOF      (-1)   /* end of input */
#define LINE_DROPPED  (-2)   /* Ctrl-C while typing: nothing to run */

/* The signal handlers and the completion callback run outside any Lua
   call, so they find the state here. */
static lua_State *globalL = NULL;
static volatile sig_atomic_t prompt_interrupted = 0;
static int running = 0;     /* inside protected_call: Ctrl-C stops code */


typedef struct Repl {
  lua_State *L;
  int terminal;          /* stdin is a terminal: readline and history */
  const char *history;   /* the history file, or NULL for none */
  char *buffer;          /* getline's buffer when not on a terminal */
  size_t size;
} Repl;


/*
** {==================================================================
** Ctrl-C and the protected call
** ===================================================================
*/

static void set_signal(int sig, void (*handler)(int)) {
  struct sigaction sa;
  sa.sa_handler = handler;
  sa.sa_flags = 0;  /* no SA_RESTART: a read waiting for input returns */
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, NULL);
}

/* The hook that Ctrl-C installs: the running Lua code stops here. */
static void raise_interrupt(lua_State *L, lua_Debug *ar) {
  (void)ar;
  lua_sethook(L, NULL, 0, 0);
  luaL_error(L, "interrupted!");
}

/*
** Ctrl-C while code runs.  Nothing but a hook and a flag may be set from
** a signal handler: the hook (on every event, so it fires at the next
** step of Lua code) raises the error, and the flag stops C searches,
** which poll it.  The default action comes back at once, so a second
** Ctrl-C ends the process: the way out of C code that never returns.
*/
static void interrupt_running(int sig) {
  set_signal(sig, SIG_DFL);
  ludus_interrupted = 1;
  lua_sethook(globalL, raise_interrupt,
              LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

/* A C job stopped for Ctrl-C and returns what it found: the Lua code
   that called it goes on (no "interrupted!" from the hook), and the next
   Ctrl-C interrupts again rather than ending the process. */
static void interrupt_consumed(lua_State *L) {
  if (lua_gethook(L) == raise_interrupt) lua_sethook(L, NULL, 0, 0);
  if (running) set_signal(SIGINT, interrupt_running);
}

/* Ctrl-C at the prompt: the read returns and the loop drops the line. */
static void interrupt_prompt(int sig) {
  (void)sig;
  prompt_interrupted = 1;
}

/*
** Turns an error into its message with a traceback.  An error value that
** is not a string is shown by its __tostring, or by its type.  The last
** 'hidden' levels of the traceback (upvalue 1) are the REPL's own C
** frames, "[C]: in ?", which say nothing about the code typed: cut.
*/
static int add_traceback(lua_State *L) {
  int hidden = (int)lua_tointeger(L, lua_upvalueindex(1));
  const char *message = lua_tostring(L, 1);
  if (!message) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    message = lua_pushfstring(L, "(error object is a %s value)",
                              luaL_typename(L, 1));
  }
  luaL_traceback(L, L, message, 1);
  size_t len;
  const char *text = lua_tolstring(L, -1, &len);
  int cut = hidden;
  while (cut > 0 && len > 0)
    if (text[--len] == '\n') cut--;
  if (hidden > 0 && cut == 0) lua_pushlstring(L, text, len);
  return 1;
}

/* How many levels the stack has now: a function called from here runs
   above them all, so they are the ones to hide from its traceback. */
static int stack_depth(lua_State *L) {
  lua_Debug ar;
  int level = 0;
  while (lua_getstack(L, level, &ar)) level++;
  return level;
}

/*
** Calls the function under its nargs arguments with a traceback on
** error, and Ctrl-C armed to stop it.  The SIGINT handler in place before
** (none for a script, interrupt_prompt in the REPL) comes back after.
*/
static int protected_call(lua_State *L, int nargs, int nresults, int hidden) {
  int handler = lua_gettop(L) - nargs;
  lua_pushinteger(L, hidden);
  lua_pushcclosure(L, add_traceback, 1);
  lua_insert(L, handler);
  globalL = L;
  ludus_interrupted = 0;
  ludus_on_interrupt_consumed = interrupt_consumed;
  struct sigaction before;
  sigaction(SIGINT, NULL, &before);
  set_signal(SIGINT, interrupt_running);
  int was_running = running;
  running = 1;
  int status = lua_pcall(L, nargs, nresults, handler);
  running = was_running;
  sigaction(SIGINT, &before, NULL);
  /* a Ctrl-C that came as the call returned has nothing left to stop */
  if (lua_gethook(L) == raise_interrupt) lua_sethook(L, NULL, 0, 0);
  lua_remove(L, handler);
  return status;
}

int repl_docall(lua_State *L, int nargs, int nresults) {
  return protected_call(L, nargs, nresults, 0);
}

/* Prints the error message on the top of the stack, if there is one. */
static void report(lua_State *L, int status) {
  if (status == LUA_OK) return;
  const char *message = lua_tostring(L, -1);
  fprintf(stderr, "%s\n", message ? message : "(error object is not a string)");
  fflush(stderr);
  lua_pop(L, 1);
}

/* }================================================================== */


/*
** {==================================================================
** Locals that outlive their line
** ===================================================================
**
** lua.c runs each statement as a chunk of its own, so `local x = 1` is gone
** on the next line.  Here a statement is compiled with EPILOGUE appended:
** a call to save_locals, which every chunk receives as its vararg.
** save_locals reads the active locals of the chunk (lua_getlocal) into the
** REPL's tables, and every chunk runs with a REPL-owned _ENV that finds
** those names before the globals.  The tables, kept in the registry under
** REPL_STATE:
**
**   env       empty, so that every access goes through its metatable:
**             __index = values, __newindex = env_newindex
**   values    the saved locals that are not nil; its __index is _G, or
**             values_index while a saved local holds nil (such a local
**             must still hide the global of the same name)
**   declared  name -> true for every saved local, nil or not
**
** Reads go through tables, not functions, so that functions defined at the
** prompt reach globals almost as fast as in a script.  An assignment to a
** saved name updates it; any other goes to _G, so globals stay globals.
**
** Where this differs from real locals:
** - A saved local is a copy: a function that captured the real local and
**   changes it does not change what later lines see.
** - On later lines a saved local is a name in _ENV: <const> and <close> no
**   longer hold, and compile-time constants (`local n <const> = 3`) are not
**   saved at all, as they have no slot to read.
** - A chunk that stops early (an error, a `return` in the middle) saves
**   nothing, nor does one ending in `return`, which cannot take the
**   epilogue.
** - `...` at the prompt holds save_locals, where lua.c has nothing.
** - A `local _ENV` is not saved.
*/

/* The newline ends a trailing comment; the semicolon keeps the call from
   continuing the statement's last expression. */
#define EPILOGUE "\n;(...)()"

/* Points values' __index at _G, or at values_index while some saved local
   holds nil.  'state' is the state table's index. */
static void update_lookup(lua_State *L, int state) {
  int holds_nil = 0;
  state = lua_absindex(L, state);
  lua_getfield(L, state, "declared");
  lua_getfield(L, state, "values");
  lua_pushnil(L);
  while (lua_next(L, -3)) {  /* declared: name -> true */
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, -3) == LUA_TNIL) holds_nil = 1;
    lua_pop(L, 1);
  }
  lua_getmetatable(L, -1);
  if (holds_nil)
    lua_getfield(L, state, "index");
  else
    lua_pushglobaltable(L);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 3);
}

/* __index of values while a saved local holds nil: (values, key). */
static int values_index(lua_State *L) {
  lua_getfield(L, lua_upvalueindex(1), "declared");
  lua_pushvalue(L, 2);
  if (lua_rawget(L, -2) != LUA_TNIL)
    return 0;  /* a saved local holding nil */
  lua_pushglobaltable(L);
  lua_pushvalue(L, 2);
  lua_gettable(L, -2);
  return 1;
}

/* __newindex of env: (env, key, value). */
static int env_newindex(lua_State *L) {
  int state = lua_upvalueindex(1);
  lua_settop(L, 3);
  lua_getfield(L, state, "declared");
  lua_pushvalue(L, 2);
  if (lua_rawget(L, 4) != LUA_TNIL) {  /* a saved local */
    int was_nil;
    lua_getfield(L, state, "values");
    lua_pushvalue(L, 2);
    was_nil = (lua_rawget(L, -2) == LUA_TNIL);
    lua_pop(L, 1);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_rawset(L, -3);
    if (was_nil != lua_isnil(L, 3)) update_lookup(L, state);
  }
  else {
    lua_pushglobaltable(L);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_settable(L, -3);  /* _G's own metamethods, if any, apply */
  }
  return 0;
}

/* Called by EPILOGUE: saves the active locals of its caller. */
static int save_locals(lua_State *L) {
  int state = lua_upvalueindex(1);
  const char *name;
  lua_Debug ar;
  int i;
  if (!lua_getstack(L, 1, &ar)) return 0;
  lua_getfield(L, state, "declared");
  lua_getfield(L, state, "values");
  for (i = 1; (name = lua_getlocal(L, &ar, i)) != NULL; i++) {
    /* "(temporary)" and the like are not locals the user wrote */
    if (name[0] == '(' || strcmp(name, "_ENV") == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushstring(L, name);
    lua_pushboolean(L, 1);
    lua_rawset(L, -5);  /* declared[name] = true */
    lua_pushstring(L, name);
    lua_insert(L, -2);
    lua_rawset(L, -3);  /* values[name] = value (nil removes it) */
  }
  lua_pop(L, 2);
  update_lookup(L, state);
  return 0;
}

/* Pushes a new function that has the state table as its upvalue and
   stores it as field 'name' of the state table on the top. */
static void set_closure(lua_State *L, const char *name, lua_CFunction f) {
  lua_pushvalue(L, -1);
  lua_pushcclosure(L, f, 1);
  lua_setfield(L, -2, name);
}

static void create_state(lua_State *L) {
  lua_newtable(L);  /* the state */
  lua_newtable(L);
  lua_setfield(L, -2, "declared");
  lua_newtable(L);  /* values */
  lua_newtable(L);  /* its metatable */
  lua_pushglobaltable(L);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "values");
  set_closure(L, "index", values_index);
  set_closure(L, "save", save_locals);
  lua_newtable(L);  /* env */
  lua_newtable(L);  /* its metatable */
  lua_getfield(L, -3, "values");
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, -3);
  lua_pushcclosure(L, env_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
  lua_setfield(L, -2, "env");
  lua_setfield(L, LUA_REGISTRYINDEX, REPL_STATE);
}

/* Pushes field 'name' of the state table. */
static void get_state(lua_State *L, const char *name) {
  lua_getfield(L, LUA_REGISTRYINDEX, REPL_STATE);
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

/* Gives the compiled chunk on the top the REPL's _ENV. */
static void set_env(lua_State *L) {
  get_state(L, "env");
  if (lua_setupvalue(L, -2, 1) == NULL)  /* a main chunk's only upvalue */
    lua_pop(L, 1);
}

/* }================================================================== */


/*
** {==================================================================
** Tab completion
** ===================================================================
**
** The word before the cursor is `name`, `a.b.name` or `a.b:name`.  Its
** prefix is resolved by walking the names from the REPL's environment with
** raw lookups, never by running code.  Candidates for a bare name are the
** keywords, the saved locals and the globals; after a dot, the fields of
** the value and of the __index tables of its metatables (so `t.play`
** works on a game object); after a colon, the functions among those.
*/

static const char *const keywords[] = {
  "and", "break", "do", "else", "elseif", "end", "false", "for",
  "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat",
  "return", "then", "true", "until", "while", NULL
};

/* How far to follow chains of __index tables, which may loop. */
#define MAX_INDEX_CHAIN 8

static int is_keyword(const char *s, size_t len) {
  int i;
  for (i = 0; keywords[i]; i++)
    if (strlen(keywords[i]) == len && memcmp(keywords[i], s, len) == 0)
      return 1;
  return 0;
}

static int is_name(const char *s, size_t len) {
  size_t i;
  if (len == 0 || (s[0] >= '0' && s[0] <= '9')) return 0;
  for (i = 0; i < len; i++) {
    char c = s[i];
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9')))
      return 0;
  }
  return !is_keyword(s, len);
}

/* Replaces the value on the top with its field 'name' (of 'len' bytes),
   found raw in the value or in an __index table of its metatables; nil
   when there is none. */
static void raw_field(lua_State *L, const char *name, size_t len) {
  int i;
  for (i = 0; i < MAX_INDEX_CHAIN; i++) {
    if (lua_istable(L, -1)) {
      lua_pushlstring(L, name, len);
      if (lua_rawget(L, -2) != LUA_TNIL) {
        lua_remove(L, -2);
        return;
      }
      lua_pop(L, 1);
    }
    if (!lua_getmetatable(L, -1)) break;
    lua_pushliteral(L, "__index");
    lua_rawget(L, -2);
    lua_remove(L, -2);  /* the metatable */
    lua_remove(L, -2);  /* the value: its __index takes its place */
    if (!lua_istable(L, -1)) break;
  }
  lua_pop(L, 1);
  lua_pushnil(L);
}

/* Pushes what the name of 'len' bytes means at the prompt: a saved local,
   else a global, both looked up raw. */
static void push_name(lua_State *L, const char *name, size_t len) {
  get_state(L, "declared");
  lua_pushlstring(L, name, len);
  if (lua_rawget(L, -2) != LUA_TNIL)
    get_state(L, "values");
  else
    lua_pushglobaltable(L);
  lua_pushlstring(L, name, len);
  lua_rawget(L, -2);
  lua_replace(L, -4);
  lua_pop(L, 2);
}

/* Adds to the set at 'set' every string key of the table on the top that
   is a name starting with 'partial', as prefix..key; with 'methods', only
   keys of functions.  Names starting with "__" (metamethods) only when
   'partial' does too. */
static void add_keys(lua_State *L, int set, const char *prefix,
                     const char *partial, int methods) {
  size_t plen = strlen(partial);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    size_t len;
    const char *key;
    if (lua_type(L, -2) == LUA_TSTRING &&
        (!methods || lua_type(L, -1) == LUA_TFUNCTION)) {
      key = lua_tolstring(L, -2, &len);
      if (len >= plen && memcmp(key, partial, plen) == 0 && is_name(key, len) &&
          (strncmp(key, "__", 2) != 0 || strncmp(partial, "__", 2) == 0)) {
        lua_pushfstring(L, "%s%s", prefix, key);
        lua_pushboolean(L, 1);
        lua_rawset(L, set);
      }
    }
    lua_pop(L, 1);
  }
}

/* The end of the name that starts at 's': the next '.', or 'limit'. */
static const char *name_end(const char *s, const char *limit) {
  while (s < limit && *s != '.') s++;
  return s;
}

/* candidates(word): the set of the completions of word (a light
   userdata, so that nothing outside a protected call can raise). */
static int candidates(lua_State *L) {
  const char *word = (const char *)lua_touserdata(L, 1);
  const char *dot = strrchr(word, '.');
  const char *colon = strrchr(word, ':');
  const char *sep = (dot > colon) ? dot : colon;  /* the last of them */
  int set;
  lua_newtable(L);
  set = lua_gettop(L);
  if (sep == NULL) {  /* a bare name */
    size_t len = strlen(word);
    int i;
    for (i = 0; keywords[i]; i++)
      if (strncmp(keywords[i], word, len) == 0) {
        lua_pushboolean(L, 1);
        lua_setfield(L, set, keywords[i]);
      }
    get_state(L, "declared");
    add_keys(L, set, "", word, 0);
    lua_pushglobaltable(L);
    add_keys(L, set, "", word, 0);
  }
  else if (colon == NULL || colon == sep) {  /* no ':' but the last */
    const char *partial = sep + 1;
    const char *name = word;
    const char *end = name_end(name, sep);
    int i;
    if (!is_name(name, (size_t)(end - name))) return 1;
    push_name(L, name, (size_t)(end - name));
    while (end < sep) {  /* the names after the dots */
      name = end + 1;
      end = name_end(name, sep);
      if (!is_name(name, (size_t)(end - name))) return 1;
      raw_field(L, name, (size_t)(end - name));
    }
    lua_pushlstring(L, word, (size_t)(partial - word));  /* "a.b." */
    lua_insert(L, -2);
    for (i = 0; i < MAX_INDEX_CHAIN; i++) {  /* the value, then __index */
      if (lua_istable(L, -1))
        add_keys(L, set, lua_tostring(L, -2), partial, *sep == ':');
      if (!lua_getmetatable(L, -1)) break;
      lua_pushliteral(L, "__index");
      lua_rawget(L, -2);
      lua_remove(L, -2);
      lua_remove(L, -2);
      if (!lua_istable(L, -1)) break;
    }
  }
  lua_settop(L, set);
  return 1;
}

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Frees the array and its strings from 'first' to the first NULL. */
static void free_matches(char **matches, size_t first) {
  size_t i;
  for (i = first; matches[i] != NULL; i++) free(matches[i]);
  free(matches);
}

/*
** The matches as readline wants them, from the set on the top: malloc'd,
** [0] the text to put in place of the word (the longest common prefix),
** then the matches sorted, then NULL; a single match is in [0] alone.
*/
static char **to_matches(lua_State *L) {
  size_t n = 0, i = 1, common;
  char **matches;
  lua_pushnil(L);
  while (lua_next(L, -2)) { lua_pop(L, 1); n++; }
  if (n == 0) return NULL;
  matches = calloc(n + 2, sizeof *matches);
  if (matches == NULL) return NULL;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    if ((matches[i++] = strdup(lua_tostring(L, -1))) == NULL) {
      lua_pop(L, 1);
      free_matches(matches, 1);
      return NULL;
    }
  }
  if (n == 1) {
    matches[0] = matches[1];
    matches[1] = NULL;
    return matches;
  }
  qsort(matches + 1, n, sizeof *matches, compare_strings);
  common = strlen(matches[1]);
  for (i = 2; i <= n; i++) {
    size_t k = 0;
    while (k < common && matches[i][k] == matches[1][k]) k++;
    common = k;
  }
  if ((matches[0] = strndup(matches[1], common)) == NULL) {
    free_matches(matches, 1);
    return NULL;
  }
  return matches;
}

/* rl_attempted_completion_function */
static char **complete(const char *text, int start, int end) {
  lua_State *L = globalL;
  int top = lua_gettop(L);
  char **matches = NULL;
  (void)start; (void)end;
  rl_attempted_completion_over = 1;  /* never fall back to file names */
  lua_pushcfunction(L, candidates);
  lua_pushlightuserdata(L, (void *)text);
  if (lua_pcall(L, 1, 1, 0) == LUA_OK)
    matches = to_matches(L);
  lua_settop(L, top);
  return matches;
}

/* }================================================================== */


/*
** {==================================================================
** Typed keys and pasted text
** ===================================================================
**
** libedit reads keys through terminal_getc, so that a paste is pasted:
** when the terminal brackets it (ESC[200~ ... ESC[201~, which it does
** while mode 2004 is on; Debian's libedit has no support of its own),
** its text comes back as if typed, except that a control character in
** it (a Tab) comes after ^V, libedit's quoted insert, so that it is
** inserted rather than completing or editing.  A newline in it ends a
** line as Enter does, and the lines after it are read by the next
** prompts, as if typed there.
*/

#define PASTE_START   "\033[200~"
#define PASTE_END     "\033[201~"
#define PASTE_LIMIT   (1 << 20)    /* bytes of one paste kept, at most */
#define QUOTED_INSERT 0x16         /* ^V */
#define ESCAPE_WAIT   50           /* ms for the rest of an escape sequence */

static struct {
  char *text;            /* the paste still to read, then bytes read ahead */
  size_t size, at, end;
  int quoted;            /* the control character at 'at' had its ^V */
  int in_paste;          /* text[at..end) is pasted text */
} input;

/* One byte from the terminal, or -1 at the end or after a Ctrl-C. */
static int read_byte(int wait_ms) {
  unsigned char byte;
  for (;;) {
    if (wait_ms >= 0) {
      struct pollfd fd = {STDIN_FILENO, POLLIN, 0};
      int ready = poll(&fd, 1, wait_ms);
      if (ready == 0) return -1;
      if (ready < 0 && errno == EINTR && !prompt_interrupted) continue;
      if (ready < 0) return -1;
    }
    ssize_t n = read(STDIN_FILENO, &byte, 1);
    if (n == 1) return byte;
    if (n < 0 && errno == EINTR && !prompt_interrupted) continue;
    return -1;
  }
}

static void keep_byte(int byte) {
  if (input.end == input.size) {
    size_t size = input.size ? 2 * input.size : 256;
    char *text = size <= 2 * PASTE_LIMIT ? realloc(input.text, size) : NULL;
    if (text == NULL) return;  /* too long: the rest is dropped */
    input.text = text;
    input.size = size;
  }
  input.text[input.end++] = (char)byte;
}

/* After an ESC: reads the paste when ESC[200~ starts one (true), else
   keeps what came after the ESC to be read next. */
static int read_paste(void) {
  const char *mark = PASTE_START;
  size_t matched = 1, mark_len = strlen(PASTE_START);
  int byte = 0;
  input.at = input.end = 0;
  input.in_paste = 0;
  while (matched < mark_len && (byte = read_byte(ESCAPE_WAIT)) == (unsigned char)mark[matched])
    matched++;
  if (matched < mark_len) {  /* not a paste: give back what was read */
    for (size_t i = 1; i < matched; i++) keep_byte(mark[i]);
    if (byte >= 0) keep_byte(byte);
    return 0;
  }
  size_t end_len = strlen(PASTE_END);
  while ((byte = read_byte(-1)) >= 0) {
    if (byte == '\n' && input.end > 0 && input.text[input.end - 1] == '\r')
      input.end--;  /* \r\n: one line end */
    keep_byte(byte);
    if (input.end >= end_len &&
        memcmp(input.text + input.end - end_len, PASTE_END, end_len) == 0) {
      input.end -= end_len;
      break;
    }
  }
  input.in_paste = 1;
  input.quoted = 0;
  return 1;
}

/* The next byte typed or pasted; -1 at the end or after a Ctrl-C. */
static int next_byte(void) {
  if (input.at < input.end) return (unsigned char)input.text[input.at++];
  int byte = read_byte(-1);
  if (byte == 0x1b && read_paste()) return -2;  /* a paste to read */
  return byte;
}

/* rl_getc_function: the next character, a whole UTF-8 sequence as one. */
static int terminal_getc(FILE *stream) {
  (void)stream;
  int byte;
  for (;;) {
    if (input.in_paste && input.at < input.end) {
      unsigned char c = (unsigned char)input.text[input.at];
      if (c < 0x20 && c != '\n' && c != '\r' && !input.quoted) {
        input.quoted = 1;
        return QUOTED_INSERT;
      }
      input.quoted = 0;
    }
    if (input.at == input.end) input.in_paste = 0;
    byte = next_byte();
    if (byte != -2) break;
  }
  if (byte < 0x80 || MB_CUR_MAX == 1) return byte;
  mbstate_t state;
  memset(&state, 0, sizeof state);
  for (int n = 0; n < 4; n++) {
    char c = (char)byte;
    wchar_t wide;
    size_t got = mbrtowc(&wide, &c, 1, &state);
    if (got == 1 || got == 0) return (int)wide;
    if (got != (size_t)-2) return 0xFFFD;   /* not a character */
    if ((byte = next_byte()) < 0) return -1;
  }
  return 0xFFFD;
}

/* Drops what is left of a paste (a Ctrl-C at the prompt). */
static void drop_input(void) {
  input.at = input.end = 0;
  input.in_paste = 0;
}

/* Whether standard output is a terminal that knows ANSI escapes: one
   whose TERM is set and not dumb. */
static int ansi_terminal(void) {
  const char *term = getenv("TERM");
  return isatty(STDOUT_FILENO) && term != NULL && term[0] != '\0' &&
         strcmp(term, "dumb") != 0;
}

/* Mode 2004 (bracketed paste) is on while a line is read, on a terminal
   that may know it. */
static int bracketed_paste(void) {
  return ansi_terminal();
}

static void set_paste_mode(int on) {
  fputs(on ? "\033[?2004h" : "\033[?2004l", stdout);
  fflush(stdout);
}

/* }================================================================== */


/*
** {==================================================================
** Reading lines
** ===================================================================
*/

enum { READ_EOF, READ_LINE, READ_INTERRUPTED };

/* The history file: $LUDUS_HISTORY if set (empty: none), else
   ~/.ludus_history; NULL for none, and for a name that exists but is not
   a regular file: reading a FIFO would hang the REPL at its start, and
   libedit writes the history with fchmod 0600, which /dev/null must not
   get.  The name is kept in the state table, which keeps it alive. */
static const char *history_file(lua_State *L) {
  const char *path = getenv("LUDUS_HISTORY");
  const char *home = getenv("HOME");
  struct stat info;
  if (path != NULL)
    path = lua_pushstring(L, path);
  else if (home != NULL && home[0] != '\0')
    path = lua_pushfstring(L, "%s/%s", home, HISTORY_FILE);
  else
    path = lua_pushliteral(L, "");
  lua_getfield(L, LUA_REGISTRYINDEX, REPL_STATE);
  lua_insert(L, -2);
  lua_setfield(L, -2, "history");
  lua_pop(L, 1);
  if (path[0] == '\0') return NULL;
  if (stat(path, &info) == 0 && !S_ISREG(info.st_mode)) return NULL;
  return path;
}

static void start_editing(Repl *r) {
  /* libedit needs the locale's character type to edit UTF-8 text; only
     LC_CTYPE, so that numbers keep their '.' */
  setlocale(LC_CTYPE, "");
  rl_readline_name = "ludus";  /* for "ludus:" lines in ~/.editrc */
  rl_getc_function = terminal_getc;  /* before libedit starts */
  rl_attempted_completion_function = complete;
  rl_completion_append_character = '\0';
  /* libedit takes word breaks from here only; '.' and ':' are not among
     them, so "tictactoe.ne" is one word to complete */
  rl_basic_word_break_characters = " \t\n\"\\'`@$><=;|&{(}[)]+-*/%^~#,";
  stifle_history(HISTORY_SIZE);
  r->history = history_file(r->L);
  if (r->history != NULL) read_history(r->history);  /* silent if absent */
}

/* Keeps a statement in the history, and the history in its file. */
static void save_line(Repl *r, const char *line) {
  if (r->terminal && line[0] != '\0') {
    add_history(line);
    if (r->history != NULL) write_history(r->history);
  }
}

/* Pushes the prompt: the user's _PROMPT or _PROMPT2 when set, as lua5.4
   allows (read raw, so that a strict _G cannot end the REPL). */
static const char *push_prompt(lua_State *L, int first_line) {
  const char *prompt;
  lua_pushglobaltable(L);
  lua_pushstring(L, first_line ? "_PROMPT" : "_PROMPT2");
  lua_rawget(L, -2);
  lua_remove(L, -2);
  prompt = lua_tostring(L, -1);
  if (prompt == NULL) prompt = first_line ? PROMPT : PROMPT2;
  return prompt;
}

/*
** Prompts, reads a line and pushes it (READ_LINE).  Nothing is pushed at
** the end of input (READ_EOF) or after a Ctrl-C (READ_INTERRUPTED), which
** makes a blocked read return: readline then gives NULL, as at the end.
*/
static int read_line(Repl *r, int firstline) {
  lua_State *L = r->L;
  const char *prompt = push_prompt(L, firstline);
  char *line = NULL;
  size_t len = 0;
  prompt_interrupted = 0;
  if (r->terminal) {
    int paste = bracketed_paste();
    if (paste) set_paste_mode(1);
    line = readline(prompt);
    if (paste) set_paste_mode(0);
    if (line != NULL) len = strlen(line);
    if (prompt_interrupted) drop_input();
  }
  else {
    ssize_t n;
    fputs(prompt, stdout);
    fflush(stdout);
    n = getline(&r->buffer, &r->size, stdin);
    if (n >= 0) {
      line = r->buffer;
      len = (size_t)n;
    }
    else clearerr(stdin);  /* after a Ctrl-C, to read on */
  }
  lua_pop(L, 1);  /* the prompt */
  if (prompt_interrupted || line == NULL) {
    if (r->terminal) free(line);
    return prompt_interrupted ? READ_INTERRUPTED : READ_EOF;
  }
  if (len > 0 && line[len - 1] == '\n')
    line[--len] = '\0';
  if (firstline && line[0] == '=')  /* "=x" is "return x", as in lua5.4 */
    lua_pushfstring(L, "return %s", line + 1);
  else
    lua_pushlstring(L, line, len);
  if (r->terminal) free(line);
  return READ_LINE;
}

/* }================================================================== */


/*
** {==================================================================
** Reading and compiling statements
** ===================================================================
*/

/* Whether a compile error only says that the statement goes on: Lua's
   syntax errors at the end of the text end in "<eof>". */
static int needs_more(lua_State *L, int status) {
  static const char mark[] = "<eof>";
  const size_t mark_len = sizeof mark - 1;
  size_t len;
  const char *message;
  if (status != LUA_ERRSYNTAX) return 0;
  message = lua_tolstring(L, -1, &len);
  return len >= mark_len && memcmp(message + len - mark_len, mark, mark_len) == 0;
}

/* Compiles "return <code>", so that an expression prints its values.
   Pushes the function and returns LUA_OK, or pushes the error and returns
   the status. */
static int load_expression(lua_State *L, const char *code) {
  const char *wrapped = lua_pushfstring(L, "return %s", code);
  int status = luaL_loadbuffer(L, wrapped, strlen(wrapped), "=stdin");
  lua_remove(L, -2);
  return status;
}

/* load_expression, pushing nothing when it fails; *unfinished then says
   whether the expression only lacks its end ("{1," or "1 +"). */
static int compile_expression(lua_State *L, const char *code, int *unfinished) {
  int status = load_expression(L, code);
  if (status == LUA_OK) return 1;
  *unfinished = needs_more(L, status);
  lua_pop(L, 1);
  return 0;
}

/* Replaces the function on the top, compiled from 'code', with 'code'
   compiled with EPILOGUE; keeps it when that fails (a statement that ends
   in `return`). */
static void add_epilogue(lua_State *L, const char *code, size_t len) {
  size_t n;
  const char *saving;
  lua_pushlstring(L, code, len);
  lua_pushliteral(L, EPILOGUE);
  lua_concat(L, 2);
  saving = lua_tolstring(L, -1, &n);
  if (luaL_loadbuffer(L, saving, n, "=stdin") == LUA_OK) {
    lua_remove(L, -2);  /* the code */
    lua_remove(L, -2);  /* the function without epilogue */
  }
  else
    lua_pop(L, 2);  /* the error and the code */
}

/*
** Reads one statement, with as many lines as it needs, and compiles it.
** The code so far is tried as an expression first, at every line, so
** that a call written over two lines shows its values as one line does.
** Returns LUA_OK with only the function on the stack, set to run in the
** REPL's _ENV; a compile error with only its message; LINE_EOF at the end
** of input; LINE_DROPPED after a Ctrl-C while typing.
*/
static int read_statement(Repl *r) {
  lua_State *L = r->L;
  int got, status, unfinished = 0;
  lua_settop(L, 0);
  got = read_line(r, 1);
  if (got != READ_LINE) return got == READ_EOF ? LINE_EOF : LINE_DROPPED;
  for (;;) {  /* the code so far is at 1 */
    size_t len;
    const char *code = lua_tolstring(L, 1, &len);
    /* an expression, over as many lines as it took, shows its values */
    if (compile_expression(L, code, &unfinished)) {
      save_line(r, code);
      lua_remove(L, 1);
      set_env(L);
      return LUA_OK;
    }
    status = luaL_loadbuffer(L, code, len, "=stdin");
    if (status == LUA_OK || !(needs_more(L, status) || unfinished)) break;
    lua_pop(L, 1);  /* the <eof> message */
    got = read_line(r, 0);
    if (got == READ_INTERRUPTED) {
      save_line(r, code);
      return LINE_DROPPED;
    }
    if (got == READ_EOF) {  /* the statement stays unfinished: say why */
      status = unfinished ? load_expression(L, code)
                          : luaL_loadbuffer(L, code, len, "=stdin");
      break;
    }
    lua_pushliteral(L, "\n");  /* code, line -> code "\n" line */
    lua_insert(L, -2);
    lua_concat(L, 3);
  }
  save_line(r, lua_tostring(L, 1));
  if (status == LUA_OK) {
    size_t len;
    const char *code = lua_tolstring(L, 1, &len);
    add_epilogue(L, code, len);
    set_env(L);
  }
  lua_remove(L, 1);
  return status;
}

/* }================================================================== */


/*
** {==================================================================
** Running and printing
** ===================================================================
*/

/* Whether results show in colour: on a terminal that knows ANSI escapes,
   unless NO_COLOR is set to something (https://no-color.org). */
static int use_color(void) {
  const char *no_color = getenv("NO_COLOR");
  return ansi_terminal() && (no_color == NULL || no_color[0] == '\0');
}

/* What the printer writes for a value that is not a table: a game in
   colour, its last move marked; anything else as tostring does. */
static int show_in_color(lua_State *L) {
  luaL_checkany(L, 1);
  if (!lgame_push_drawing(L, 1, 1)) luaL_tolstring(L, 1, NULL);
  return 1;
}

/* Writes its arguments through ludus.pretty, separated by tabs, and
   keeps the first in `_` (a saved local `_`, else the global).  A game
   shows in colour when use_color says so; tostring and print stay plain. */
static int print_values(lua_State *L) {
  int n = lua_gettop(L);
  int i;
  luaL_checkstack(L, 2 * n + LUA_MINSTACK, "too many results to print");
  get_state(L, "pretty");  /* at n + 1 */
  if (use_color()) {       /* its options, at n + 2 */
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, show_in_color);
    lua_setfield(L, -2, "tostring");
  }
  else
    lua_pushnil(L);
  for (i = 1; i <= n; i++) {
    if (i > 1) lua_pushliteral(L, "\t");
    if (lua_isfunction(L, n + 1)) {
      lua_pushvalue(L, n + 1);
      lua_pushvalue(L, i);
      lua_pushvalue(L, n + 2);
      /* a failing __tostring is the value's fault: said as lua5.4 says
         it, without a traceback through the printer's own code */
      if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
        const char *message = lua_tostring(L, -1);
        fprintf(stderr, "error calling 'print' (%s)\n",
                message ? message : "error object is not a string");
        fflush(stderr);
        return 0;
      }
      if (lua_type(L, -1) != LUA_TSTRING) {
        luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
      }
    }
    else
      luaL_tolstring(L, i, NULL);
  }
  lua_concat(L, 2 * n - 1);
  lua_writestring(lua_tostring(L, -1), lua_rawlen(L, -1));
  lua_writeline();
  get_state(L, "env");
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "_");
  return 0;
}

/* Prints the values on the stack, in protected mode so that a failing
   __tostring is reported and Ctrl-C stops a long print. */
static void print_results(lua_State *L) {
  int n = lua_gettop(L);
  if (n > 0) {
    lua_pushcfunction(L, print_values);
    lua_insert(L, 1);
    report(L, protected_call(L, n, 0, stack_depth(L)));
  }
}

/* Runs the compiled statement on the stack, results left on the stack. */
static int run(lua_State *L) {
  get_state(L, "save");  /* the chunk's vararg, for EPILOGUE */
  return protected_call(L, 1, LUA_MULTRET, stack_depth(L));
}

/* ludus.pretty, for the results (main.c has made the globals). */
static int load_printer(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, REPL_STATE);
  luaL_requiref(L, "ludus", luaopen_ludus, 0);
  lua_getfield(L, -1, "pretty");
  lua_setfield(L, -3, "pretty");
  return 0;
}

void repl_run(lua_State *L) {
  Repl r;
  int status;
  r.L = L;
  r.terminal = isatty(STDIN_FILENO);
  r.history = NULL;
  r.buffer = NULL;
  r.size = 0;
  globalL = L;  /* for the completion callback */
  create_state(L);
  lua_pushcfunction(L, load_printer);
  report(L, protected_call(L, 0, 0, stack_depth(L)));
  if (r.terminal) {
    lua_writestring(BANNER, strlen(BANNER));
    lua_writeline();
    start_editing(&r);
  }
  set_signal(SIGINT, interrupt_prompt);
  while ((status = read_statement(&r)) != LINE_EOF) {
    if (status == LINE_DROPPED) {  /* Ctrl-C: a fresh prompt */
      lua_writeline();
      continue;
    }
    if (status == LUA_OK) status = run(L);
    if (status == LUA_OK) print_results(L);
    else report(L, status);
  }
  set_signal(SIGINT, SIG_DFL);
  lua_settop(L, 0);  /* clear stack */
  lua_writeline();
  free(r.buffer);
}

/* }================================================================== */
