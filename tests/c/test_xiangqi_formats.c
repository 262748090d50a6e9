/*
** test_xiangqi_formats.c: the record files of core/xiangqi (pgn.c, epd.c,
** text.c) on the real games of ../shared/data/xiangqi/pgn: every CCPD
** master game (Big5, Chinese moves) and every game of the ICCS file
** replays to its last move, counted on the raw text apart from the
** reader; the CCPD mating exercises end as their [Result] says; games
** written in each notation read back the same; the encodings are found
** by themselves; EPD and FEN lines with their operations (perft.txt's
** counts checked against perft); and bad input gives a clear message
** while the next record still reads.
*/
#include <iconv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/rng.h"
#include "xiangqi/xiangqi.h"

/* ---- helpers ---- */

typedef struct buffer {
  char *bytes;
  size_t size;
} buffer;

static buffer read_data(const char *name) {
  const char *data = getenv("LUDUS_DATA");
  char path[512];
  snprintf(path, sizeof path, "%s/xiangqi/%s", data ? data : "../shared/data",
           name);
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside the "
                   "repository, or run make test DATA=folder)", path);
  buffer t = {NULL, 0};
  size_t capacity = 0, n;
  do {
    if (t.size + 4096 > capacity) {
      capacity = capacity ? 2 * capacity : 65536;
      t.bytes = realloc(t.bytes, capacity);
      assert_non_null(t.bytes);
    }
    n = fread(t.bytes + t.size, 1, 4096, f);
    t.size += n;
  } while (n > 0);
  fclose(f);
  return t;
}

/* The text converted between encodings by iconv (as a user's tool would). */
static buffer convert(const buffer *in, const char *from, const char *to) {
  iconv_t cd = iconv_open(to, from);
  if (cd == (iconv_t)-1) fail_msg("no iconv from %s to %s", from, to);
  buffer out = {malloc(4 * in->size + 16), 0};
  char *src = in->bytes, *dst = out.bytes;
  size_t left = in->size, room = 4 * in->size + 16;
  if (iconv(cd, &src, &left, &dst, &room) == (size_t)-1)
    fail_msg("iconv from %s to %s failed", from, to);
  iconv_close(cd);
  out.size = (size_t)(dst - out.bytes);
  return out;
}

static bool space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The moves of a record counted on its raw bytes, apart from the reader:
   the words of the lines that are not tags, less move numbers ("12.")
   and result tokens.  (Big5 and GBK never use these bytes inside a
   character.) */
static int count_moves(const buffer *t) {
  int moves = 0;
  bool tag_line = false, line_start = true;
  for (size_t at = 0; at < t->size;) {
    if (line_start) tag_line = t->bytes[at] == '[';
    line_start = false;
    if (space(t->bytes[at])) {
      line_start = t->bytes[at] == '\n';
      at++;
      continue;
    }
    size_t start = at;
    while (at < t->size && !space(t->bytes[at])) at++;
    size_t n = at - start;
    const char *w = t->bytes + start;
    bool number = w[n - 1] == '.';
    bool result = (n == 3 && (!memcmp(w, "1-0", 3) || !memcmp(w, "0-1", 3))) ||
                  (n == 7 && !memcmp(w, "1/2-1/2", 7)) || (n == 1 && *w == '*');
    if (!tag_line && !number && !result) moves++;
  }
  return moves;
}

/* The words of t shaped as ICCS moves: a0 to i9 twice. */
static int count_iccs_words(const buffer *t) {
  int n = 0;
  for (size_t at = 0; at + 4 <= t->size; at++) {
    const char *w = t->bytes + at;
    if ((at == 0 || space(w[-1])) && w[0] >= 'a' && w[0] <= 'i' &&
        w[1] >= '0' && w[1] <= '9' && w[2] >= 'a' && w[2] <= 'i' &&
        w[3] >= '0' && w[3] <= '9' && (at + 4 == t->size || space(w[4])))
      n++;
  }
  return n;
}

static void fen_of(const xq_position *pos, char *fen) {
  xq_to_fen(pos, fen, 128);
}

/* Two readings of a game agree: start, moves, result, and the tags of
   a (b's, written from a, may add [Game] and [Format] and has [Result]
   as the result). */
static void same_game(const xq_pgn_game *a, const xq_pgn_game *b,
                      const char *what) {
  char fa[128], fb[128];
  fen_of(&a->start, fa);
  fen_of(&b->start, fb);
  if (strcmp(fa, fb)) fail_msg("%s: start %s became %s", what, fa, fb);
  if (a->plies != b->plies)
    fail_msg("%s: %d plies became %d", what, a->plies, b->plies);
  for (int i = 0; i < a->plies; i++)
    if (a->moves[i] != b->moves[i]) fail_msg("%s: ply %d differs", what, i + 1);
  const char *result = *a->result ? a->result : "*";
  if (strcmp(result, b->result))
    fail_msg("%s: result %s became %s", what, result, b->result);
  for (int i = 0; i < a->tag_count; i++) {
    const char *name = a->tags[i].name;
    if (!strcmp(name, "Result") || !strcmp(name, "Format") || !strcmp(name, "FEN"))
      continue;
    const char *value = xq_pgn_tag(b, name);
    if (!value || strcmp(value, xq_pgn_tag(a, name)))
      fail_msg("%s: tag %s '%s' became '%s'", what, name, a->tags[i].value,
               value ? value : "(none)");
  }
}

/* Reads the one game of a text; fails unless it reads well. */
static void read_one(const buffer *t, xq_encoding encoding, xq_pgn_game *game,
                     const char *what) {
  xq_pgn_reader *r = xq_pgn_open(t->bytes, t->size, encoding);
  assert_non_null(r);
  xq_read_status status = xq_pgn_next(r, game);
  if (status != XQ_READ_OK)
    fail_msg("%s: %s (line %d)", what,
             status == XQ_READ_END ? "no game" : game->message,
             game->error_line);
  xq_pgn_game second;
  if (xq_pgn_next(r, &second) != XQ_READ_END)
    fail_msg("%s: a second game", what);
  game->moves = memcpy(malloc((size_t)game->plies * sizeof *game->moves + 1),
                       game->moves, (size_t)game->plies * sizeof *game->moves);
  /* the tags live in the reader: keep copies */
  for (int i = 0; i < game->tag_count; i++) {
    game->tags[i].name = strdup(game->tags[i].name);
    game->tags[i].value = strdup(game->tags[i].value);
  }
  xq_pgn_close(r);
}

static void free_game(xq_pgn_game *game) {
  free((void *)game->moves);
  for (int i = 0; i < game->tag_count; i++) {
    free((void *)game->tags[i].name);
    free((void *)game->tags[i].value);
  }
}

/* Writes a game in a notation and reads it back: the same game. */
static void round_trip(const xq_pgn_game *game, xq_notation notation,
                       const char *what) {
  size_t size = xq_pgn_write(game, notation, NULL, 0) + 1;
  buffer written = {malloc(size), size - 1};
  assert_int_equal(xq_pgn_write(game, notation, written.bytes, size), size - 1);
  xq_pgn_game back;
  read_one(&written, XQ_ENCODING_AUTO, &back, what);
  assert_int_equal(back.encoding, XQ_ENCODING_UTF8);
  same_game(game, &back, what);
  static const char *const formats[] = {"ICCS", "WXF", "Chinese"};
  assert_string_equal(xq_pgn_tag(&back, "Format"), formats[notation]);
  free_game(&back);
  free(written.bytes);
}

static const char *message_of(const char *pgn, xq_read_status *status,
                              xq_pgn_game *game) {
  static char message[256];
  xq_pgn_reader *r = xq_pgn_open(pgn, strlen(pgn), XQ_ENCODING_AUTO);
  *status = xq_pgn_next(r, game);
  snprintf(message, sizeof message, "%s", game->message);
  xq_pgn_close(r);
  return message;
}

static void assert_contains(const char *haystack, const char *needle) {
  if (!strstr(haystack, needle))
    fail_msg("'%s' does not say '%s'", haystack, needle);
}

/* ---- the real games ---- */

static void test_ccpd_masters(void **unused) {
  (void)unused;
  int plies = 0;
  for (int i = 1; i <= 100; i++) {
    char name[64];
    snprintf(name, sizeof name, "pgn/ccpd-masters/game%03d.pgn", i);
    buffer t = read_data(name);
    xq_pgn_game game;
    read_one(&t, XQ_ENCODING_AUTO, &game, name);
    assert_int_equal(game.encoding, XQ_ENCODING_BIG5);
    if (game.plies != count_moves(&t))
      fail_msg("%s: %d plies read of %d", name, game.plies, count_moves(&t));
    assert_string_equal(xq_pgn_tag(&game, "Game"), "Chinese Chess");
    assert_string_equal(game.result, xq_pgn_tag(&game, "Result"));
    assert_true(game.plies > 0);
    plies += game.plies;
    round_trip(&game, XQ_CHINESE, name);
    round_trip(&game, XQ_WXF, name);
    free_game(&game);
    free(t.bytes);
  }
  assert_int_equal(plies, 9802);
}

/* The exercises whose record stops with the winner to move: the last,
   winning move is not written (mate056: red mates in one). */
static bool winner_to_move(int i) {
  return i == 5 || i == 15 || i == 46 || i == 56;
}

static void test_ccpd_mates(void **unused) {
  (void)unused;
  int mated = 0;
  for (int i = 1; i <= 65; i++) {
    char name[64];
    snprintf(name, sizeof name, "pgn/ccpd-mates/mate%03d.pgn", i);
    buffer t = read_data(name);
    xq_pgn_game game;
    read_one(&t, XQ_ENCODING_AUTO, &game, name);
    if (game.plies != count_moves(&t))
      fail_msg("%s: %d plies read of %d", name, game.plies, count_moves(&t));
    bool red_won = strcmp(game.result, "1-0") == 0;
    if (!red_won && strcmp(game.result, "0-1") != 0)
      fail_msg("%s: result '%s'", name, game.result);
    int loser = red_won ? XQ_BLACK : XQ_RED;
    game_status status;
    xq_ending ending = xq_ending_of(&game.end, &status);
    if (ending == XQ_CHECKMATE || ending == XQ_STALEMATE) {
      assert_int_equal(game.end.turn, loser);
      assert_int_equal(status, red_won ? GAME_WIN_0 : GAME_WIN_1);
      mated++;
    } else if (game.end.turn != loser && !winner_to_move(i)) {
      fail_msg("%s: the winner (%s) is to move and nothing has ended", name,
               red_won ? "red" : "black");
    } else if (winner_to_move(i)) {
      assert_int_not_equal(game.end.turn, loser);
    }
    round_trip(&game, XQ_ICCS, name);
    free_game(&game);
    free(t.bytes);
  }
  assert_int_equal(mated, 17);
}

static void test_iccs_file(void **unused) {
  (void)unused;
  buffer t = read_data("pgn/iccs/Liu_Dahua_1125_UCI_games.pgn");
  xq_pgn_reader *r = xq_pgn_open(t.bytes, t.size, XQ_ENCODING_AUTO);
  xq_pgn_game game;
  int games = 0, plies = 0;
  size_t capacity = 2 * t.size + 65536, used = 0;
  char *written = malloc(capacity);
  xq_read_status status;
  while ((status = xq_pgn_next(r, &game)) != XQ_READ_END) {
    if (status != XQ_READ_OK)
      fail_msg("game %d: %s (line %d)", game.number, game.message,
               game.error_line);
    games++;
    plies += game.plies;
    assert_int_equal(game.number, games);
    assert_non_null(xq_pgn_tag(&game, "Event"));
    assert_non_null(xq_pgn_tag(&game, "Red"));
    assert_non_null(xq_pgn_tag(&game, "Black"));
    assert_string_equal(game.result, "");
    assert_true(xq_is_legal(&game.start, game.moves[0]));
    used += xq_pgn_write(&game, XQ_ICCS, written + used, capacity - used);
    assert_true(used < capacity);
  }
  xq_pgn_close(r);
  assert_int_equal(games, 1125);
  assert_int_equal(plies, count_iccs_words(&t));
  /* the whole file written again reads back game by game */
  xq_pgn_reader *a = xq_pgn_open(t.bytes, t.size, XQ_ENCODING_AUTO);
  xq_pgn_reader *b = xq_pgn_open(written, used, XQ_ENCODING_AUTO);
  xq_pgn_game back;
  for (int i = 0; i < games; i++) {
    assert_int_equal(xq_pgn_next(a, &game), XQ_READ_OK);
    assert_int_equal(xq_pgn_next(b, &back), XQ_READ_OK);
    same_game(&game, &back, "the ICCS file written again");
  }
  assert_int_equal(xq_pgn_next(b, &back), XQ_READ_END);
  xq_pgn_close(a);
  xq_pgn_close(b);
  free(written);
  free(t.bytes);
}

/* ---- encodings ---- */

static void test_encodings(void **unused) {
  (void)unused;
  buffer big5 = read_data("pgn/ccpd-masters/game007.pgn");
  xq_pgn_game game, other;
  read_one(&big5, XQ_ENCODING_AUTO, &game, "Big5");
  assert_int_equal(game.encoding, XQ_ENCODING_BIG5);
  assert_true(game.plies > 20);

  buffer utf8 = convert(&big5, "CP950", "UTF-8");
  read_one(&utf8, XQ_ENCODING_AUTO, &other, "UTF-8");
  assert_int_equal(other.encoding, XQ_ENCODING_UTF8);
  same_game(&game, &other, "UTF-8");
  free_game(&other);

  buffer gbk = convert(&utf8, "UTF-8", "GBK");      /* GBK has 馬 車 進 too */
  read_one(&gbk, XQ_ENCODING_AUTO, &other, "GBK");
  assert_int_equal(other.encoding, XQ_ENCODING_GBK);
  same_game(&game, &other, "GBK");
  free_game(&other);

  /* simplified characters, as mainland software writes them */
  size_t size = xq_pgn_write(&game, XQ_CHINESE, NULL, 0) + 1;
  buffer simplified = {malloc(size), size - 1};
  xq_pgn_write(&game, XQ_CHINESE, simplified.bytes, size);
  assert_non_null(strstr(simplified.bytes, "马８进７"));
  buffer simplified_gbk = convert(&simplified, "UTF-8", "GBK");
  read_one(&simplified_gbk, XQ_ENCODING_AUTO, &other, "GBK, simplified");
  assert_int_equal(other.encoding, XQ_ENCODING_GBK);
  same_game(&game, &other, "GBK, simplified");
  free_game(&other);

  buffer utf16 = convert(&utf8, "UTF-8", "UTF-16");  /* with its mark */
  read_one(&utf16, XQ_ENCODING_AUTO, &other, "UTF-16");
  same_game(&game, &other, "UTF-16");
  free_game(&other);

  /* a byte-order mark, CRLF line ends and blank lines change nothing */
  buffer crlf = {malloc(3 * utf8.size + 8), 0};
  memcpy(crlf.bytes, "\xEF\xBB\xBF\r\n\r\n", 7);
  crlf.size = 7;
  for (size_t i = 0; i < utf8.size; i++) {
    if (utf8.bytes[i] == '\n') {
      memcpy(crlf.bytes + crlf.size, "\r\n\r\n", 4);
      crlf.size += 4;
    } else {
      crlf.bytes[crlf.size++] = utf8.bytes[i];
    }
  }
  read_one(&crlf, XQ_ENCODING_AUTO, &other, "BOM, CRLF, blank lines");
  same_game(&game, &other, "BOM, CRLF, blank lines");
  free_game(&other);

  /* the encoding given is the encoding used: a wrong one says so */
  xq_pgn_reader *r = xq_pgn_open(big5.bytes, big5.size, XQ_ENCODING_GBK);
  assert_int_equal(xq_pgn_next(r, &other), XQ_READ_BAD);
  assert_contains(other.message, "unreadable move");
  assert_contains(other.message, "the line was read as GBK");
  assert_int_equal(other.error_ply, 1);
  xq_pgn_close(r);
  r = xq_pgn_open(big5.bytes, big5.size, XQ_ENCODING_UTF8);
  assert_int_equal(xq_pgn_next(r, &other), XQ_READ_BAD);
  assert_contains(other.message, "the line has bytes that are not UTF-8 text");
  xq_pgn_close(r);
  r = xq_pgn_open(gbk.bytes, gbk.size, XQ_ENCODING_BIG5);
  assert_int_equal(xq_pgn_next(r, &other), XQ_READ_BAD);
  xq_pgn_close(r);
  r = xq_pgn_open(gbk.bytes, gbk.size, XQ_ENCODING_GBK);
  assert_int_equal(xq_pgn_next(r, &other), XQ_READ_OK);
  xq_pgn_close(r);

  free_game(&game);
  free(big5.bytes);
  free(utf8.bytes);
  free(gbk.bytes);
  free(simplified.bytes);
  free(simplified_gbk.bytes);
  free(utf16.bytes);
  free(crlf.bytes);
}

/* ---- what the movetext may hold ---- */

static void test_movetext(void **unused) {
  (void)unused;
  const char *pgn =
    "% an escape line\n"
    "{ a comment before the game }\n"
    "[Event \"Edge \\\"quoted\\\"\"] [Site \"x\"]\n"
    "[Red \"Some \"nick\" here\"]\n"
    "\n"
    "1.h2e2 {a comment\n"
    "[%clk 0:10] over lines} h9g7 $1 2. h0g2 (2. c3c4 (2. b2d2\n"
    "{nested}) g6g5) i9h9!? 3...\n"
    "; a line comment\n"
    "3. i0h0　h9h8 1-0 1. C2.5 马８进７ 2. 馬二進三 *\n"
    "[Event \"no result\"]\n"
    "1. h2e2\n"
    "[Event \"tags only\"]\n";
  xq_pgn_reader *r = xq_pgn_open(pgn, strlen(pgn), XQ_ENCODING_AUTO);
  xq_pgn_game g;
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
  assert_int_equal(g.number, 1);
  assert_int_equal(g.line, 3);
  assert_int_equal(g.plies, 6);
  assert_string_equal(g.result, "1-0");
  assert_int_equal(g.tag_count, 3);
  assert_string_equal(xq_pgn_tag(&g, "Event"), "Edge \"quoted\"");
  assert_string_equal(xq_pgn_tag(&g, "Site"), "x");
  assert_string_equal(xq_pgn_tag(&g, "Red"), "Some \"nick\" here");
  xq_position pos;
  xq_init(&pos);
  const char *moves[] = {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h9h8"};
  for (int i = 0; i < 6; i++) {
    char text[8];
    xq_format_move(&pos, g.moves[i], XQ_ICCS, text, sizeof text);
    assert_string_equal(text, moves[i]);
    xq_undo undo;
    xq_make(&pos, g.moves[i], &undo);
  }
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);   /* after 1-0 */
  assert_int_equal(g.plies, 3);
  assert_string_equal(g.result, "*");
  assert_int_equal(g.tag_count, 0);
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
  assert_int_equal(g.plies, 1);
  assert_string_equal(g.result, "");
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
  assert_int_equal(g.plies, 0);
  assert_string_equal(xq_pgn_tag(&g, "Event"), "tags only");
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_END);
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_END);
  xq_pgn_close(r);

  /* nothing, blank lines, comments alone: no game */
  const char *empty[] = {"", "\n\n  \r\n", "{ just a comment }\n; and one more\n"};
  for (int i = 0; i < 3; i++) {
    r = xq_pgn_open(empty[i], strlen(empty[i]), XQ_ENCODING_AUTO);
    assert_int_equal(xq_pgn_next(r, &g), XQ_READ_END);
    xq_pgn_close(r);
  }

  /* a [FEN], black to move first, the result tag as the result */
  const char *fen = "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1\"]\n"
                    "[Result \"1-0\"]\n1... d9d8 2. e1d1\n";
  r = xq_pgn_open(fen, strlen(fen), XQ_ENCODING_AUTO);
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
  assert_int_equal(g.plies, 2);
  assert_string_equal(g.result, "1-0");
  assert_int_equal(xq_ending_of(&g.end, &(game_status){0}), XQ_CHECKMATE);
  round_trip(&g, XQ_ICCS, "black first");
  round_trip(&g, XQ_CHINESE, "black first");
  size_t size = xq_pgn_write(&g, XQ_ICCS, NULL, 0) + 1;
  char *written = malloc(size);
  xq_pgn_write(&g, XQ_ICCS, written, size);
  assert_string_equal(written,
    "[Game \"Chinese Chess\"]\n"
    "[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1\"]\n"
    "[Result \"1-0\"]\n"
    "[Format \"ICCS\"]\n"
    "\n"
    "1... d9d8 2. e1d1 1-0\n\n");
  free(written);
  xq_pgn_close(r);
}

/* ---- bad input ---- */

static void test_errors(void **unused) {
  (void)unused;
  xq_pgn_game g;
  xq_read_status status;
  const char *two = "[Event \"bad\"]\n\n1. h2e2 h9g7 2. h2e2 h0g2 *\n"
                    "[Event \"good\"]\n\n1. h2e2 *\n";
  xq_pgn_reader *r = xq_pgn_open(two, strlen(two), XQ_ENCODING_AUTO);
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_BAD);
  assert_int_equal(g.number, 1);
  assert_int_equal(g.error_ply, 3);
  assert_int_equal(g.error_line, 3);
  assert_int_equal(g.plies, 2);                    /* what came before */
  assert_string_equal(g.message, "illegal move 'h2e2' at ply 3 (there is no "
                      "piece on h2)");
  assert_string_equal(g.result, "*");
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
  assert_int_equal(g.number, 2);
  assert_string_equal(xq_pgn_tag(&g, "Event"), "good");
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_END);
  xq_pgn_close(r);

  assert_string_equal(message_of("1. h2e2 xyz *", &status, &g),
                      "unreadable move 'xyz' at ply 2 (not a move in ICCS "
                      "(h2e2), WXF (C2.5) or Chinese (炮二平五))");
  assert_int_equal(status, XQ_READ_BAD);
  assert_contains(message_of("1. 炮二平五 马８进７ 2. 炮二平五", &status, &g),
                  "illegal move '炮二平五' at ply 3 (no red cannon on file 2)");
  assert_contains(message_of("[FEN \"3k5/9/9/9/9/9/9/9/4R4/4K4 w\"]\n"
                             "1. e1d1 d9e9", &status, &g),
                  "move 'd9e9' at ply 2 comes after the end of the game "
                  "(checkmate)");
  assert_contains(message_of("[FEN \"xyz\"]\n1. h2e2", &status, &g),
                  "bad FEN 'xyz'");
  assert_contains(message_of("[Event \"cut\n1. h2e2", &status, &g),
                  "bad tag pair '[Event \"cut'");
  /* cut in the middle: in a move, in a comment, in a variation */
  assert_contains(message_of("[Event \"x\"]\n1. 炮二平五 马８进", &status, &g),
                  "unreadable move '马８进' at ply 2");
  assert_contains(message_of("1. h2e2 {cut", &status, &g),
                  "the comment '{' opened on line 1 is not closed at the end");
  assert_contains(message_of("1. h2e2 (1. c3c4\n", &status, &g),
                  "the variation '(' opened on line 1 is not closed");
  assert_contains(message_of("1. h2e2 {cut\n[Event \"next\"]\n", &status, &g),
                  "is not closed before the next game's tags");
  /* a zero byte is no text */
  const char zero[] = "1. h2e2 h9\0g7 *";
  r = xq_pgn_open(zero, sizeof zero - 1, XQ_ENCODING_AUTO);
  assert_int_equal(xq_pgn_next(r, &g), XQ_READ_BAD);
  assert_contains(g.message, "unreadable move 'h9\xEF\xBF\xBDg7'");
  xq_pgn_close(r);
}

/* Garbage between two games: the reader goes on and finds the second. */
static void test_garbage(void **unused) {
  (void)unused;
  rng random;
  rng_seed(&random, 17);
  for (int round = 0; round < 200; round++) {
    char buf[3000];
    size_t n = (size_t)snprintf(buf, sizeof buf,
                                "[Event \"first\"]\n\n1. h2e2 h9g7 *\n\n");
    size_t garbage = rng_below(&random, 1500);
    for (size_t i = 0; i < garbage; i++) buf[n++] = (char)rng_below(&random, 256);
    n += (size_t)snprintf(buf + n, sizeof buf - n,
                          "\n[Event \"last\"]\n\n1. c3c4 *\n");
    xq_pgn_reader *r = xq_pgn_open(buf, n, XQ_ENCODING_AUTO);
    xq_pgn_game g;
    assert_int_equal(xq_pgn_next(r, &g), XQ_READ_OK);
    assert_string_equal(xq_pgn_tag(&g, "Event"), "first");
    xq_read_status status;
    int games = 1;
    bool last = false;
    while ((status = xq_pgn_next(r, &g)) != XQ_READ_END) {
      games++;
      assert_true(games < 2000);
      const char *event = xq_pgn_tag(&g, "Event");
      last = status == XQ_READ_OK && event && !strcmp(event, "last") &&
             g.plies == 1;
    }
    if (!last) fail_msg("round %d: the last game was not read", round);
    xq_pgn_close(r);
  }
}

/* A game with as many tags as a reader keeps writes none of its own
   beyond them ([Game], [Result], [Format]), so that it reads back with
   the same tags in each notation: the fuzzer found a 64th tag lost, the
   writer's [Game] having gone first. */
static void test_tags_at_the_limit(void **unused) {
  (void)unused;
  for (int count = XQ_PGN_MAX_TAGS - 1; count <= XQ_PGN_MAX_TAGS + 1; count++) {
    char text[4096];
    size_t n = 0;
    for (int i = 0; i < count; i++)
      n += (size_t)snprintf(text + n, sizeof text - n, "[Tag%d \"%d\"]\n", i, i);
    n += (size_t)snprintf(text + n, sizeof text - n, "\n1. h2e2 h9g7 1-0\n");
    buffer t = {text, n};
    xq_pgn_game game;
    read_one(&t, XQ_ENCODING_AUTO, &game, "the tags");
    assert_int_equal(game.tag_count, count < XQ_PGN_MAX_TAGS ? count : XQ_PGN_MAX_TAGS);
    for (int notation = XQ_ICCS; notation <= XQ_CHINESE; notation++) {
      size_t size = xq_pgn_write(&game, (xq_notation)notation, NULL, 0) + 1;
      buffer written = {malloc(size), size - 1};
      xq_pgn_write(&game, (xq_notation)notation, written.bytes, size);
      xq_pgn_game back;
      read_one(&written, XQ_ENCODING_AUTO, &back, "written");
      same_game(&game, &back, "written");
      assert_true(back.tag_count <= XQ_PGN_MAX_TAGS);
      free_game(&back);
      free(written.bytes);
    }
    free_game(&game);
  }
}

/* ---- EPD and FEN lines ---- */

static void test_epd(void **unused) {
  (void)unused;
  const char *lines =
    "# a comment\n"
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - "
    "bm h2e2 C8.5; am a3a4; id \"start; the \\\"first\\\"\";\r\n"
    "\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 dm 1; bm R5.6;\n"
    "startpos moves h2e2 h9g7\n"
    "position fen " XQ_START_FEN " moves 1. 炮二平五 马８进７\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w hmvc 10; fmvn 20; acd 12; c0 \"a; comment\";\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w bm d9d8 d9e9; moves e1e2;\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w dm x;\n"
    "xyz w\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w moves e1e2 d9d8 e2f3;\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w c0 \"unclosed;\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w bm h2e2;\n";
  xq_epd_reader *r = xq_epd_open(lines, strlen(lines), XQ_ENCODING_AUTO);
  xq_epd_record e;
  char text[256];

  assert_int_equal(xq_epd_next(r, &e), XQ_READ_OK);
  assert_int_equal(e.line, 2);
  assert_int_equal(e.bm_count, 2);
  xq_format_move(&e.end, e.bm[1], XQ_ICCS, text, sizeof text);
  assert_string_equal(text, "b2e2");
  assert_int_equal(e.am_count, 1);
  assert_string_equal(e.id, "start; the \"first\"");

  assert_int_equal(xq_epd_next(r, &e), XQ_READ_OK);
  assert_int_equal(e.dm, 1);
  xq_format_move(&e.end, e.bm[0], XQ_ICCS, text, sizeof text);
  assert_string_equal(text, "e1d1");
  xq_undo undo;
  xq_make(&e.end, e.bm[0], &undo);
  assert_true(xq_in_check(&e.end) && !xq_has_legal_move(&e.end));

  for (int i = 0; i < 2; i++) {                    /* FEN lines */
    assert_int_equal(xq_epd_next(r, &e), XQ_READ_OK);
    assert_int_equal(e.plies, 2);
    assert_true(xq_is_start(&e.start));
    xq_to_fen(&e.end, text, sizeof text);
    assert_string_equal(text, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/"
                        "1C2C4/9/RNBAKABNR w - - 2 2");
    xq_epd_write(&e, XQ_ICCS, text, sizeof text);
    assert_string_equal(text, XQ_START_FEN " moves h2e2 h9g7\n");
  }

  assert_int_equal(xq_epd_next(r, &e), XQ_READ_OK);
  assert_int_equal(e.start.quiet, 10);
  assert_int_equal(e.start.fullmove, 20);
  assert_int_equal(e.op_count, 2);
  assert_string_equal(e.ops[0].name, "acd");
  assert_string_equal(e.ops[0].value, "12");
  assert_string_equal(e.ops[1].value, "\"a; comment\"");
  xq_epd_write(&e, XQ_ICCS, text, sizeof text);
  assert_string_equal(text, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - hmvc 10; "
                      "fmvn 20; acd 12; c0 \"a; comment\";\n");

  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);  /* bm after moves */
  assert_int_equal(e.plies, 1);
  assert_string_equal(e.message, "illegal move 'd9e9' in bm (it would leave "
                      "the black general in check)");

  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);
  assert_string_equal(e.message, "dm wants a count of moves from 1 to 999 "
                      "(got 'x')");
  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);
  assert_contains(e.message, "bad FEN 'xyz w'");
  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);
  assert_int_equal(e.error_ply, 3);
  assert_string_equal(e.message, "illegal move 'e2f3' in moves at ply 3 (a "
                      "chariot cannot go from e2 to f3)");
  assert_int_equal(e.plies, 2);
  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);
  assert_contains(e.message, "a string of 'c0' is not closed");
  assert_int_equal(xq_epd_next(r, &e), XQ_READ_BAD);
  assert_contains(e.message, "illegal move 'h2e2' in bm");
  assert_int_equal(e.line, 13);
  assert_int_equal(xq_epd_next(r, &e), XQ_READ_END);
  xq_epd_close(r);
}

/* Every record of a text written again in each notation reads back as
   itself. */
static void test_epd_round_trip(void **unused) {
  (void)unused;
  const char *lines =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - "
    "bm h2e2 C8.5; am a3a4; id \"start; the \\\"first\\\"\";\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1 dm 1; bm R5.6;\n"
    "startpos moves h2e2 h9g7 h0g2\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w hmvc 10; fmvn 20; acd 12; c0 \"a; comment\";\n"
    "3k5/9/9/9/9/9/9/9/4R4/4K4 b moves d9d8 e1f1; bm d8d9; id x;\n";
  for (int notation = XQ_ICCS; notation <= XQ_CHINESE; notation++) {
    xq_epd_reader *r = xq_epd_open(lines, strlen(lines), XQ_ENCODING_AUTO);
    xq_epd_record a, b;
    int count = 0;
    while (xq_epd_next(r, &a) == XQ_READ_OK) {
      char written[512];
      xq_epd_write(&a, (xq_notation)notation, written, sizeof written);
      xq_epd_reader *again = xq_epd_open(written, strlen(written),
                                         XQ_ENCODING_AUTO);
      if (xq_epd_next(again, &b) != XQ_READ_OK)
        fail_msg("'%s' does not read back: %s", written, b.message);
      char fa[128], fb[128];
      fen_of(&a.start, fa);
      fen_of(&b.start, fb);
      assert_string_equal(fa, fb);
      assert_int_equal(a.plies, b.plies);
      assert_memory_equal(a.moves, b.moves, (size_t)a.plies * sizeof *a.moves);
      assert_int_equal(a.bm_count, b.bm_count);
      assert_memory_equal(a.bm, b.bm, (size_t)a.bm_count * sizeof *a.bm);
      assert_int_equal(a.am_count, b.am_count);
      assert_int_equal(a.dm, b.dm);
      assert_string_equal(a.id, b.id);
      assert_int_equal(a.op_count, b.op_count);
      for (int i = 0; i < a.op_count; i++) {
        assert_string_equal(a.ops[i].name, b.ops[i].name);
        assert_string_equal(a.ops[i].value, b.ops[i].value);
      }
      xq_epd_close(again);
      count++;
    }
    assert_int_equal(count, 5);
    xq_epd_close(r);
  }
}

/* perft.txt read as EPD: its D1 counts are perft's. */
static void test_perft_file_as_epd(void **unused) {
  (void)unused;
  buffer t = read_data("perft.txt");
  assert_int_equal(xq_guess_format("perft.txt", t.bytes, t.size), XQ_FORMAT_EPD);
  xq_epd_reader *r = xq_epd_open(t.bytes, t.size, XQ_ENCODING_AUTO);
  xq_epd_record e;
  xq_read_status status;
  int good = 0, bad = 0, checked = 0;
  while ((status = xq_epd_next(r, &e)) != XQ_READ_END) {
    if (status != XQ_READ_OK) {
      bad++;                  /* the advisor on d1, which no game reaches */
      assert_contains(e.message, "the red advisor on d1 stands where no "
                      "advisor can go");
      continue;
    }
    good++;
    for (int i = 0; i < e.op_count; i++) {
      if (strcmp(e.ops[i].name, "D1") != 0) continue;
      assert_int_equal(xq_perft(&e.start, 1), strtoull(e.ops[i].value, NULL, 10));
      checked++;
    }
  }
  xq_epd_close(r);
  assert_int_equal(good, 26);
  assert_int_equal(bad, 1);
  assert_true(checked >= 20);
  free(t.bytes);
}

static void test_guess_format(void **unused) {
  (void)unused;
  const char *fen = XQ_START_FEN "\n";
  const char *pgn = "[Event \"x\"]\n1. h2e2\n";
  assert_int_equal(xq_guess_format("a.pgn", fen, strlen(fen)), XQ_FORMAT_PGN);
  assert_int_equal(xq_guess_format("a.EPD", pgn, strlen(pgn)), XQ_FORMAT_EPD);
  assert_int_equal(xq_guess_format("a.fen", pgn, strlen(pgn)), XQ_FORMAT_EPD);
  assert_int_equal(xq_guess_format("a.txt", fen, strlen(fen)), XQ_FORMAT_EPD);
  assert_int_equal(xq_guess_format(NULL, pgn, strlen(pgn)), XQ_FORMAT_PGN);
  assert_int_equal(xq_guess_format(NULL, "1. h2e2", 7), XQ_FORMAT_PGN);
  assert_int_equal(xq_guess_format(NULL, "\xEF\xBB\xBF# x\nstartpos", 17),
                   XQ_FORMAT_EPD);
  assert_int_equal(xq_guess_format(NULL, "", 0), XQ_FORMAT_PGN);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ccpd_masters),
    cmocka_unit_test(test_ccpd_mates),
    cmocka_unit_test(test_iccs_file),
    cmocka_unit_test(test_encodings),
    cmocka_unit_test(test_movetext),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_garbage),
    cmocka_unit_test(test_tags_at_the_limit),
    cmocka_unit_test(test_epd),
    cmocka_unit_test(test_epd_round_trip),
    cmocka_unit_test(test_perft_file_as_epd),
    cmocka_unit_test(test_guess_format),
  };
  return cmocka_run_group_tests_name("xiangqi formats", tests, NULL, NULL);
}
