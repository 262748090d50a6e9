/*
** lprocess.c: ludus.process, what a match needs from the system to play
** its games in processes of their own: fork a Lua function into a child
** that sends lines back, wait for them with a deadline, kill a child that
** hangs and say how it ended; a monotonic clock; JSON lines read back
** (for --resume and --merge); and whether two paths are one file (an
** output that would write over an input).  Internal: scripts/ludus/
** match_runner.lua is its main user.
**
** A child is a fork of the whole Lua state, so the function runs with
** every value its caller could see.  It ignores Ctrl-C (the parent
** stops it), its standard output goes to standard error (a player's
** print must not mix with the results), it dies with its parent (on
** Linux), and it ends with _exit: no atexit handler, no flush of the
** parent's buffers, no collection.
*/
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"
#include "base/json.h"

#define CHILD_TYPE "ludus.process.child"

typedef struct child {
  pid_t pid;
  int fd;                       /* the read end of its pipe, -1 once closed */
  char *buf;                    /* what was read and is not a whole line yet */
  size_t len, cap;
  int status;                   /* waitpid's, once reaped */
  int reaped;
} child;

/* ---- in the child ---- */

static int child_fd = -1;

static int write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, data, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    data += n;
    len -= (size_t)n;
  }
  return 1;
}

/* send(line): the line, with its newline, to the parent. */
static int child_send(lua_State *L) {
  size_t len;
  const char *line = luaL_checklstring(L, 1, &len);
  luaL_argcheck(L, memchr(line, '\n', len) == NULL, 1, "a line has no newline");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addlstring(&b, line, len);
  luaL_addchar(&b, '\n');
  luaL_pushresult(&b);
  size_t total;
  const char *text = lua_tolstring(L, -1, &total);
  if (!write_all(child_fd, text, total)) _exit(3);   /* the parent is gone */
  return 0;
}

static void run_child(lua_State *L, int fd, pid_t parent) {
#ifdef __linux__
  /* a child whose parent is killed (a match stopped, a worker ended)
     goes too, even one hung in a loop */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(3);
#else
  (void)parent;
#endif
  signal(SIGINT, SIG_IGN);
  signal(SIGPIPE, SIG_DFL);
  lua_sethook(L, NULL, 0, 0);    /* the REPL's Ctrl-C hook, if it was set */
  ludus_interrupted = 0;
  dup2(STDERR_FILENO, STDOUT_FILENO);
  child_fd = fd;
  lua_pushvalue(L, 1);
  lua_pushcfunction(L, child_send);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *message = lua_tostring(L, -1);
    message = luaL_gsub(L, message ? message : "(not a string)", "\n", " ");
    lua_pushfstring(L, "error\t%s\n", message);
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    write_all(fd, text, len);
    _exit(1);
  }
  _exit(0);
}

/* ---- in the parent ---- */

static child *check_child(lua_State *L, int arg) {
  return luaL_checkudata(L, arg, CHILD_TYPE);
}

static void close_pipe(child *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
}

static void reap(child *c, int options) {
  if (c->reaped || c->pid <= 0) return;
  pid_t got;
  do got = waitpid(c->pid, &c->status, options); while (got < 0 && errno == EINTR);
  if (got == c->pid || got < 0) c->reaped = 1;
}

/* process.spawn(f) -> a child running f(send), send(line) sending lines
   back; or nil, message when no process can be started. */
static int process_spawn(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 1);
  child *c = lua_newuserdatauv(L, sizeof *c, 0);
  memset(c, 0, sizeof *c);
  c->fd = -1;
  luaL_setmetatable(L, CHILD_TYPE);
  int p[2];
  if (pipe(p) != 0) {
    luaL_pushfail(L);
    lua_pushfstring(L, "cannot make a pipe: %s", strerror(errno));
    return 2;
  }
  fflush(NULL);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(p[0]);
    close(p[1]);
    luaL_pushfail(L);
    lua_pushfstring(L, "cannot start a process: %s", strerror(e));
    return 2;
  }
  if (pid == 0) {
    close(p[0]);
    run_child(L, p[1], parent);
  }
  close(p[1]);
  fcntl(p[0], F_SETFD, FD_CLOEXEC);
  fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
  c->pid = pid;
  c->fd = p[0];
  return 1;
}

/* child:lines() -> the whole lines it has sent since the last call, as a
   list, and true once its output has ended. */
static int child_lines(lua_State *L) {
  child *c = check_child(L, 1);
  int ended = c->fd < 0;
  while (c->fd >= 0) {
    if (c->cap - c->len < 4096) {
      size_t cap = c->cap ? 2 * c->cap : 8192;
      char *more = realloc(c->buf, cap);
      if (!more) return luaL_error(L, "not enough memory for a game's output");
      c->buf = more;
      c->cap = cap;
    }
    ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (n <= 0) {
      close_pipe(c);
      ended = 1;
      break;
    }
    c->len += (size_t)n;
  }
  lua_newtable(L);
  size_t start = 0;
  int count = 0;
  for (;;) {
    char *nl = start < c->len ? memchr(c->buf + start, '\n', c->len - start) : NULL;
    if (!nl) break;
    lua_pushlstring(L, c->buf + start, (size_t)(nl - (c->buf + start)));
    lua_rawseti(L, -2, ++count);
    start = (size_t)(nl - c->buf) + 1;
  }
  memmove(c->buf, c->buf + start, c->len - start);
  c->len -= start;
  lua_pushboolean(L, ended);
  return 2;
}

/* child:kill(): ends it at once (SIGKILL); a child that hangs in C code
   cannot be asked. */
static int child_kill(lua_State *L) {
  child *c = check_child(L, 1);
  if (c->pid > 0 && !c->reaped) kill(c->pid, SIGKILL);
  return 0;
}

/* child:close() -> how it ended: "exit", status or "signal", number,
   name.  Waits for it. */
static int child_close(lua_State *L) {
  child *c = check_child(L, 1);
  close_pipe(c);
  reap(c, 0);
  if (c->reaped && WIFSIGNALED(c->status)) {
    lua_pushliteral(L, "signal");
    lua_pushinteger(L, WTERMSIG(c->status));
    lua_pushstring(L, strsignal(WTERMSIG(c->status)));
    return 3;
  }
  lua_pushliteral(L, "exit");
  lua_pushinteger(L, c->reaped && WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1);
  return 2;
}

static int child_gc(lua_State *L) {
  child *c = check_child(L, 1);
  close_pipe(c);
  if (c->pid > 0 && !c->reaped) {
    kill(c->pid, SIGKILL);
    reap(c, 0);
  }
  free(c->buf);
  c->buf = NULL;
  return 0;
}

/* process.wait(children, seconds) -> until one of the children (a list)
   has something to read or has ended, seconds have passed (nil: no
   limit), or a signal came (Ctrl-C); returns nothing. */
static int process_wait(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  double seconds = luaL_optnumber(L, 2, -1);
  int n = (int)luaL_len(L, 1);
  struct pollfd *fds = lua_newuserdatauv(L, sizeof *fds * (size_t)(n + 1), 0);
  int count = 0;
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(L, 1, i);
    child *c = check_child(L, -1);
    if (c->fd >= 0) {
      fds[count].fd = c->fd;
      fds[count].events = POLLIN;
      fds[count].revents = 0;
      count++;
    }
    lua_pop(L, 1);
  }
  int timeout = -1;
  if (seconds >= 0) timeout = seconds > 1e6 ? 1000000000 : (int)ceil(seconds * 1000);
  if (count > 0 || timeout >= 0) poll(fds, (nfds_t)count, timeout);
  return 0;
}

/* process.now() -> seconds on a monotonic clock. */
static int process_now(lua_State *L) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  lua_pushnumber(L, (double)t.tv_sec + (double)t.tv_nsec * 1e-9);
  return 1;
}

/* process.cores() -> the processors online. */
static int process_cores(lua_State *L) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  lua_pushinteger(L, n < 1 ? 1 : n);
  return 1;
}

/* process.same_file(a, b) -> whether two paths name one file: the same
   text, or one file on the disk when both exist (an output that would
   write over an input). */
static int process_same_file(lua_State *L) {
  const char *a = luaL_checkstring(L, 1), *b = luaL_checkstring(L, 2);
  lua_pushboolean(L, ludus_same_file(a, b));
  return 1;
}

/* ---- JSON lines ---- */

static void push_json(lua_State *L, const json_value *v) {
  switch (v->type) {
  case JSON_NULL: lua_pushnil(L); break;
  case JSON_FALSE: lua_pushboolean(L, 0); break;
  case JSON_TRUE: lua_pushboolean(L, 1); break;
  case JSON_NUMBER:
    if (v->number == floor(v->number) && fabs(v->number) < 9007199254740992.0)
      lua_pushinteger(L, (lua_Integer)v->number);
    else
      lua_pushnumber(L, v->number);
    break;
  case JSON_STRING: lua_pushlstring(L, v->string, v->len); break;
  case JSON_ARRAY: {
    lua_createtable(L, (int)(v->len < 1024 ? v->len : 1024), 0);
    int i = 0;
    for (const json_value *m = v->child; m; m = m->next) {
      push_json(L, m);
      lua_rawseti(L, -2, ++i);
    }
    break;
  }
  case JSON_OBJECT:
    lua_newtable(L);
    for (const json_value *m = v->child; m; m = m->next) {
      push_json(L, m);
      if (lua_isnil(L, -1)) lua_pop(L, 1);
      else lua_setfield(L, -2, m->key);
    }
    break;
  }
}

/* process.json(text) -> the value of a JSON text (null is nil, and so
   is a member that is null), or nil, message. */
static int process_json(lua_State *L) {
  size_t len, at = 0;
  const char *text = luaL_checklstring(L, 1, &len);
  luaL_checkstack(L, 2 * JSON_MAX_DEPTH + 8, "reading JSON");
  json_value *v = json_parse(text, len, &at);
  if (!v) {
    luaL_pushfail(L);
    lua_pushfstring(L, "not JSON (at byte %d)", (int)at + 1);
    return 2;
  }
  push_json(L, v);             /* no error can come between parse and free */
  json_free_value(v);
  return 1;
}

static const luaL_Reg child_methods[] = {
  {"lines", child_lines},
  {"kill", child_kill},
  {"close", child_close},
  {NULL, NULL}
};

static const luaL_Reg process_functions[] = {
  {"spawn", process_spawn},
  {"wait", process_wait},
  {"now", process_now},
  {"cores", process_cores},
  {"same_file", process_same_file},
  {"json", process_json},
  {NULL, NULL}
};

int luaopen_ludus_process(lua_State *L) {
  luaL_newmetatable(L, CHILD_TYPE);
  lua_pushcfunction(L, child_gc);
  lua_setfield(L, -2, "__gc");
  luaL_newlib(L, child_methods);
  lua_setfield(L, -2, "__index");
  ludus_protect_metatable(L, lua_gettop(L));
  lua_pop(L, 1);
  luaL_newlib(L, process_functions);
  return 1;
}
