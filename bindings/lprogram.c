/*
** lprogram.c: ludus.program, another program spoken to through its
** standard input and output, for players that are other programs (UCI
** engines, scripts/ludus/uci.lua).  (ludus.process, lprocess.c, forks
** ludus itself for the games of a match.)
**
** program.spawn{"prog", "arg", ...} starts prog (found on PATH when the
** name has no '/') with the arguments as given, never through a shell.
** Its input and output are one socket pair, so that writing to a child
** that died returns an error instead of raising SIGPIPE; its standard
** error goes to /dev/null.  It runs in a process group of its own, so
** that Ctrl-C at the terminal stops ludus's wait for it, not the child.
** p:read_line(seconds) waits at most that long, and Ctrl-C stops the
** wait too; p:close() kills the child and collects its status, and so
** do __gc and __close: no child outlives the value that started it.
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "ludus.h"

#define PROGRAM_TYPE "ludus.program"
#define MAX_ARGS 64
#define MAX_LINE (1 << 20)        /* a longer line is an error, not memory */
#define POLL_SLICE_MS 20          /* how often a wait looks at Ctrl-C */
#define WRITE_SECONDS 10.0        /* a child that reads nothing for so long */
#define GRACE_SECONDS 1.0         /* to end by itself before it is killed
                                     (0.1 s was too short for cat on a
                                     loaded machine) */

extern char **environ;

typedef struct program {
  pid_t pid;                  /* 0 once collected */
  int fd;                     /* our end of the socket pair, -1 when closed */
  int status;                 /* waitpid's, once collected */
  char *buffer;               /* what was read past the last line */
  size_t length, capacity;
  bool eof;
} program;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static program *check_program(lua_State *L) {
  return luaL_checkudata(L, 1, PROGRAM_TYPE);
}

/* Collects the child if it has ended (or, with wait, once it has). */
static void reap(program *p, bool wait) {
  if (p->pid <= 0) return;
  pid_t r;
  do r = waitpid(p->pid, &p->status, wait ? 0 : WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == p->pid || (r < 0 && errno == ECHILD)) p->pid = 0;
}

/* Closes the socket, gives the child a moment to end on its own (most
   programs end at the end of their input), then kills it; collects it,
   frees the buffer. */
static void stop(program *p) {
  if (p->fd >= 0) {
    close(p->fd);
    p->fd = -1;
  }
  if (p->pid > 0) {
    double give_up = now() + GRACE_SECONDS;
    for (reap(p, false); p->pid > 0 && now() < give_up; reap(p, false))
      nanosleep(&(struct timespec){.tv_nsec = 2000000}, NULL);
    if (p->pid > 0) {
      kill(p->pid, SIGKILL);
      reap(p, true);
    }
  }
  free(p->buffer);
  p->buffer = NULL;
  p->length = p->capacity = 0;
}

/* Pushes how the child ended: "exit 0", "signal 9", or "running". */
static void push_status(lua_State *L, program *p) {
  reap(p, false);
  if (p->pid > 0)
    lua_pushliteral(L, "running");
  else if (WIFEXITED(p->status))
    lua_pushfstring(L, "exit %d", WEXITSTATUS(p->status));
  else if (WIFSIGNALED(p->status))
    lua_pushfstring(L, "signal %d", WTERMSIG(p->status));
  else
    lua_pushliteral(L, "ended");
}

/* ---- spawning ---- */

/* program.spawn(argv) -> a program, or nil, message when it cannot start. */
static int program_spawn(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer n = luaL_len(L, 1);
  luaL_argcheck(L, n >= 1, 1, "the program name is missing");
  luaL_argcheck(L, n <= MAX_ARGS, 1, "too many arguments");
  const char *argv[MAX_ARGS + 1];
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_geti(L, 1, i) != LUA_TSTRING)
      return luaL_error(L, "bad argument #1 to 'spawn' (element %d: string "
                        "expected, got %s)", (int)i, luaL_typename(L, -1));
    size_t len;
    argv[i - 1] = lua_tolstring(L, -1, &len);
    if (strlen(argv[i - 1]) != len)
      return luaL_error(L, "bad argument #1 to 'spawn' (element %d holds a "
                        "zero byte)", (int)i);
  }
  argv[n] = NULL;
  luaL_argcheck(L, argv[0][0] != '\0', 1, "the program name is empty");

  program *p = lua_newuserdatauv(L, sizeof *p, 0);
  memset(p, 0, sizeof *p);
  p->fd = -1;
  luaL_setmetatable(L, PROGRAM_TYPE);

  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    luaL_pushfail(L);
    lua_pushfstring(L, "program: no socket for '%s' (%s)", argv[0],
                    strerror(errno));
    return 2;
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pair[1], 0);
  posix_spawn_file_actions_adddup2(&actions, pair[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_init(&attributes);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF |
                           POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
  pid_t pid;
  int error = posix_spawnp(&pid, argv[0], &actions, &attributes,
                           (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(pair[1]);
  if (error != 0) {
    close(pair[0]);
    luaL_pushfail(L);
    lua_pushfstring(L, "program: cannot start '%s' (%s)", argv[0],
                    strerror(error));
    return 2;
  }
  p->pid = pid;
  p->fd = pair[0];
  fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) | O_NONBLOCK);
  return 1;
}

/* ---- talking ---- */

/* p:write(text) -> p, or nil, message when the child reads no more. */
static int program_write(lua_State *L) {
  program *p = check_program(L);
  size_t len;
  const char *text = luaL_checklstring(L, 2, &len);
  if (p->fd < 0) {
    luaL_pushfail(L);
    lua_pushliteral(L, "closed");
    return 2;
  }
  double deadline = now() + WRITE_SECONDS;
  while (len > 0) {
    ssize_t sent = send(p->fd, text, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      text += sent;
      len -= (size_t)sent;
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) &&
        now() < deadline) {
      struct pollfd w = {.fd = p->fd, .events = POLLOUT};
      poll(&w, 1, POLL_SLICE_MS);
      continue;
    }
    luaL_pushfail(L);
    lua_pushstring(L, sent < 0 && errno != EAGAIN ? strerror(errno)
                                                  : "the child reads nothing");
    return 2;
  }
  lua_settop(L, 1);
  return 1;
}

/* Pushes the first whole line of the buffer (without its \n or \r\n) and
   drops it from the buffer; false when there is none. */
static bool take_line(lua_State *L, program *p) {
  char *end = p->length ? memchr(p->buffer, '\n', p->length) : NULL;
  if (!end) return false;
  size_t len = (size_t)(end - p->buffer);
  size_t shown = len > 0 && p->buffer[len - 1] == '\r' ? len - 1 : len;
  lua_pushlstring(L, p->buffer, shown);
  p->length -= len + 1;
  memmove(p->buffer, end + 1, p->length);
  return true;
}

/* p:read_line([seconds]) -> the next line, or nil and why: "timeout",
   "closed" (the child closed its output: it ended), "interrupted"
   (Ctrl-C) or "line too long".  Without seconds it waits as long as it
   takes (Ctrl-C still stops it). */
static int program_read_line(lua_State *L) {
  program *p = check_program(L);
  double seconds = luaL_optnumber(L, 2, -1);
  luaL_argcheck(L, seconds == seconds, 2, "not a number");
  double deadline = seconds < 0 ? -1 : now() + seconds;
  for (;;) {
    if (take_line(L, p)) return 1;
    if ((p->eof || p->fd < 0) && p->length > 0) {   /* a last unended line */
      lua_pushlstring(L, p->buffer, p->length);
      p->length = 0;
      return 1;
    }
    const char *why = NULL;
    if (p->length >= MAX_LINE) why = "line too long";
    else if (p->eof || p->fd < 0) why = "closed";
    else if (ludus_interrupted) why = "interrupted";
    else if (deadline >= 0 && now() >= deadline) why = "timeout";
    if (why) {
      luaL_pushfail(L);
      lua_pushstring(L, why);
      return 2;
    }
    if (p->capacity - p->length < 4096) {
      size_t capacity = p->capacity ? 2 * p->capacity : 8192;
      char *grown = realloc(p->buffer, capacity);
      if (!grown) return luaL_error(L, "program: not enough memory");
      p->buffer = grown;
      p->capacity = capacity;
    }
    ssize_t got = recv(p->fd, p->buffer + p->length, p->capacity - p->length,
                       MSG_DONTWAIT);
    if (got > 0) {
      p->length += (size_t)got;
    } else if (got == 0) {
      p->eof = true;
    } else if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
      int wait = POLL_SLICE_MS;
      if (deadline >= 0) {
        double left = (deadline - now()) * 1000;
        if (left < wait) wait = left < 1 ? 1 : (int)left;
      }
      struct pollfd r = {.fd = p->fd, .events = POLLIN};
      poll(&r, 1, wait);
    } else {
      p->eof = true;            /* a reset counts as the end */
    }
  }
}

/* p:status() -> "running", "exit N" or "signal N". */
static int program_status(lua_State *L) {
  push_status(L, check_program(L));
  return 1;
}

/* p:pid() -> the child's process id, nil once collected. */
static int program_pid(lua_State *L) {
  program *p = check_program(L);
  if (p->pid > 0) lua_pushinteger(L, p->pid);
  else luaL_pushfail(L);
  return 1;
}

/* p:close() -> how the child ended ("exit 0", "signal 9"): killed when
   it still ran.  Closing again does nothing more. */
static int program_close(lua_State *L) {
  program *p = check_program(L);
  stop(p);
  push_status(L, p);
  return 1;
}

/* program.clock() -> seconds on a clock that only goes forward, for
   deadlines (os.clock counts processor time, not waiting). */
static int program_clock(lua_State *L) {
  lua_pushnumber(L, now());
  return 1;
}

static int program_gc(lua_State *L) {
  stop(check_program(L));
  return 0;
}

static int program_tostring(lua_State *L) {
  program *p = check_program(L);
  reap(p, false);
  if (p->pid > 0) lua_pushfstring(L, "program %d", (int)p->pid);
  else lua_pushliteral(L, "program (ended)");
  return 1;
}

static const luaL_Reg program_methods[] = {
  {"write", program_write},
  {"read_line", program_read_line},
  {"status", program_status},
  {"pid", program_pid},
  {"close", program_close},
  {NULL, NULL}
};

int luaopen_ludus_program(lua_State *L) {
  if (luaL_newmetatable(L, PROGRAM_TYPE)) {
    luaL_newlib(L, program_methods);
    ludus_strict_methods(L, -1, "program", "");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, program_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, program_gc);
    lua_setfield(L, -2, "__close");
    lua_pushcfunction(L, program_tostring);
    lua_setfield(L, -2, "__tostring");
    ludus_protect_metatable(L, -1);
  }
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushcfunction(L, program_spawn);
  lua_setfield(L, -2, "spawn");
  lua_pushcfunction(L, program_clock);
  lua_setfield(L, -2, "clock");
  return 1;
}
