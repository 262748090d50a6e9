/*
** test_reversi_formats.c: Reversi files (core/reversi/formats.h) on the
** shared data (../shared/data/othello, or $LUDUS_DATA/othello): every
** WTHOR game replays and every finished one ends with black's recorded
** count; the names come from WTHOR.JOU and WTHOR.TRN; the WTHOR files
** written again are the same bytes, through GGF the same games; FFO
** #1-#19 read with their answers, which the solver confirms; GGF with
** passes, another start, 6x6, evaluations and times; transcripts with
** CRLF, a byte-order mark, blank lines and comments; and bad input of
** every kind, each with the error it should give.
*/
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "reversi/formats.h"
#include "reversi/solve.h"

static const char *const wthor_files[] = {"wthor/WTH_2001.wtb", "wthor/WTH_2002.wtb",
                                          "wthor/WTH_2019.wtb", "wthor/WTH_2020.wtb"};
static const int wthor_games[] = {5540, 5386, 1127, 268};

static const char *data_path(const char *name) {
  static char path[1024];
  const char *data = getenv("LUDUS_DATA");
  snprintf(path, sizeof path, "%s/othello/%s", data ? data : "../shared/data", name);
  return path;
}

/* The whole of a file of the shared data. */
static uint8_t *read_data(const char *name, size_t *size) {
  FILE *f = fopen(data_path(name), "rb");
  if (!f) fail_msg("cannot read %s (the reference data: keep shared/ beside the "
                   "repository, or run make test DATA=folder)", data_path(name));
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc((size_t)n + 1);
  assert_non_null(data);
  assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  *size = (size_t)n;
  return data;
}

static void open_data(reversi_reader *r, const char *name) {
  if (!reversi_reader_open(r, data_path(name), REVERSI_FORMAT_UNKNOWN, 8))
    fail_msg("%s: %s", data_path(name), r->error);
}

static bool is_standard(const reversi_board *b) {
  reversi_board standard;
  reversi_init(&standard, 8);
  return memcmp(b, &standard, sizeof standard) == 0;
}

/* ---- WTHOR ---- */

/* Every game replays; a finished one ends with the recorded count
   (empties to the winner), checked here again from the board. */
static void test_wthor_replay(void **unused) {
  (void)unused;
  int total = 0, finished = 0, won_early = 0, drawn_early = 0;
  for (int i = 0; i < 4; i++) {
    reversi_reader r;
    reversi_record rec;
    open_data(&r, wthor_files[i]);
    assert_int_equal(r.format, REVERSI_FORMAT_WTB);
    assert_int_equal(r.header.games, (uint32_t)wthor_games[i]);
    int n = 0;
    reversi_status status;
    while ((status = reversi_reader_next(&r, &rec)) != REVERSI_END) {
      if (status != REVERSI_RECORD) fail_msg("%s: %s", wthor_files[i], r.error);
      n++;
      assert_int_equal(rec.number, (uint64_t)n);
      assert_true(is_standard(&rec.start));
      if (reversi_is_over(&rec.board)) {
        finished++;
        int black = reversi_count(&rec.board, REVERSI_BLACK);
        int white = reversi_count(&rec.board, REVERSI_WHITE);
        int empty = 64 - black - white;
        assert_int_equal(rec.black_discs, black > white   ? black + empty
                                          : black < white ? black
                                                          : black + empty / 2);
        won_early += empty > 0 && black > white;
        drawn_early += empty > 0 && black == white;
      }
    }
    reversi_reader_close(&r);
    assert_int_equal(n, wthor_games[i]);
    total += n;
  }
  assert_int_equal(total, 12321);
  assert_int_equal(finished, 12321 - 17);      /* 17 end early */
  /* the games only empties-to-the-winner explains */
  assert_int_equal(won_early, 276);             /* black won, squares empty */
  assert_int_equal(drawn_early, 1);             /* a draw, squares empty */
}

static void test_wthor_names(void **unused) {
  (void)unused;
  reversi_reader r;
  reversi_record rec;
  open_data(&r, "wthor/WTH_2001.wtb");
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_string_equal(rec.black, "Hubbard Paul");
  assert_string_equal(rec.white, "Sheean Helen");
  assert_string_equal(rec.tournament, "Australian National");
  assert_int_equal(rec.year, 2001);
  assert_int_equal(rec.depth, 24);
  assert_int_equal(rec.black_discs, 42);
  reversi_reader_close(&r);

  /* ISO-8859-1 becomes UTF-8: tournament 17 is "Préqualif de Paris" */
  size_t size;
  uint8_t *trn = read_data("wthor/WTHOR.TRN", &size);
  reversi_wthor_names names;
  assert_null(
      reversi_wthor_names_open(&names, trn, size, REVERSI_WTHOR_TOURNAMENT_SIZE));
  assert_int_equal(names.count, 436);
  char name[64];
  assert_string_equal(reversi_wthor_name(&names, 17, name, sizeof name),
                      "Pr\xc3\xa9qualif de Paris");
  assert_null(reversi_wthor_name(&names, 436, name, sizeof name));
  uint8_t back[REVERSI_WTHOR_TOURNAMENT_SIZE];
  reversi_wthor_write_name(name, back, REVERSI_WTHOR_TOURNAMENT_SIZE);
  assert_memory_equal(
      back, trn + REVERSI_WTHOR_HEADER_SIZE + 17 * REVERSI_WTHOR_TOURNAMENT_SIZE,
      REVERSI_WTHOR_TOURNAMENT_SIZE);
  assert_non_null(
      reversi_wthor_names_open(&names, trn, size - 1, REVERSI_WTHOR_TOURNAMENT_SIZE));
  free(trn);
}

/* Every record of reader r into writer w. */
static int copy_records(reversi_reader *r, reversi_writer *w) {
  reversi_record rec;
  reversi_status status;
  int n = 0;
  while ((status = reversi_reader_next(r, &rec)) != REVERSI_END) {
    if (status != REVERSI_RECORD) fail_msg("%s", r->error);
    if (reversi_writer_add(w, &rec) != REVERSI_RECORD) fail_msg("%s", w->error);
    n++;
  }
  return n;
}

/* The bytes written to a scratch file, whole. */
static uint8_t *file_bytes(FILE *f, size_t *size) {
  fflush(f);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *data = malloc((size_t)n + 1);
  assert_non_null(data);
  assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
  *size = (size_t)n;
  return data;
}

/* Read and written again with its header, each file is the same bytes. */
static void test_wthor_round_trip(void **unused) {
  (void)unused;
  for (int i = 0; i < 4; i++) {
    size_t size, written;
    uint8_t *original = read_data(wthor_files[i], &size);
    reversi_reader r;
    open_data(&r, wthor_files[i]);
    FILE *f = tmpfile();
    assert_non_null(f);
    reversi_writer w;
    assert_true(reversi_writer_open_file(&w, f, REVERSI_FORMAT_WTB, &r.header));
    assert_int_equal(copy_records(&r, &w), wthor_games[i]);
    assert_true(reversi_writer_close(&w));
    reversi_reader_close(&r);
    uint8_t *copy = file_bytes(f, &written);
    assert_int_equal(written, size);
    assert_memory_equal(copy, original, size);
    fclose(f);
    free(copy);
    free(original);
  }
}

/* What reading bytes gives: the records' count and the first error. */
typedef struct outcome {
  int records, bad;
  char first_error[256];
  bool opened;
} outcome;

static outcome read_bytes(const void *data, size_t size, reversi_format format) {
  outcome o = {0};
  reversi_reader r;
  o.opened = reversi_reader_open_memory(&r, data, size, format, 8);
  if (!o.opened) {
    snprintf(o.first_error, sizeof o.first_error, "%s", r.error);
    return o;
  }
  reversi_record rec;
  reversi_status status;
  while ((status = reversi_reader_next(&r, &rec)) != REVERSI_END) {
    if (status == REVERSI_RECORD) {
      o.records++;
    } else if (o.bad++ == 0) {
      snprintf(o.first_error, sizeof o.first_error, "%s", r.error);
    }
  }
  reversi_reader_close(&r);
  return o;
}

#define assert_error(o, text) \
  do { \
    if (!strstr((o).first_error, text)) \
      fail_msg("error '%s' does not say '%s'", (o).first_error, text); \
  } while (0)

static void test_wthor_bad(void **unused) {
  (void)unused;
  size_t size;
  uint8_t *data = read_data("wthor/WTH_2020.wtb", &size);
  uint8_t *copy = malloc(size);
  assert_non_null(copy);

  /* cut in the middle of game 4, or after game 3 */
  outcome o = read_bytes(data, 16 + 3 * 68 + 20, REVERSI_FORMAT_UNKNOWN);
  assert_int_equal(o.records, 3);
  assert_int_equal(o.bad, 1);
  assert_error(o, "game 4 is cut short: 20 of its 68 bytes");
  o = read_bytes(data, 16 + 3 * 68, REVERSI_FORMAT_WTB);
  assert_int_equal(o.records, 3);
  assert_error(o, "the file ends before game 4 (the header counts 268)");

  /* a header that counts fewer games than there are */
  memcpy(copy, data, size);
  copy[4] = 10, copy[5] = 0;
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_int_equal(o.records, 10);
  assert_error(o, "more bytes after the 10 games the header counts");

  /* bad headers */
  o = read_bytes(data, 10, REVERSI_FORMAT_WTB);
  assert_false(o.opened);
  assert_error(o, "fewer than its 16-byte header");
  memcpy(copy, data, size);
  copy[12] = 10;
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_false(o.opened);
  assert_error(o, "10x10");
  copy[12] = 8, copy[13] = 1;
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_error(o, "solitaires");

  /* a move byte that is no square, a zero inside the moves, an illegal
     move, a finished game with another count: each game is reported and
     the others read */
  memcpy(copy, data, size);
  copy[16 + 68 + 8 + 4] = 99;                      /* game 2, move 5 */
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_int_equal(o.records, 267);
  assert_error(o, "game 2: move 5 (byte 99): its byte is not a square");
  memcpy(copy, data, size);
  copy[16 + 8 + 10] = 0;                           /* game 1, move 11 */
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_error(o, "game 1: move 12");
  assert_error(o, "a move after the end of the game");
  memcpy(copy, data, size);
  copy[16 + 8] = 11;                               /* a1 first */
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_int_equal(o.records, 267);
  assert_error(o, "game 1: move 1 'a1' (illegal move)");
  memcpy(copy, data, size);
  copy[16 + 6] = 20;                               /* black had 7 */
  o = read_bytes(copy, size, REVERSI_FORMAT_WTB);
  assert_error(o, "game 1: black's count is 20, the moves give 7");

  /* a file of names of the wrong size */
  reversi_reader r;
  assert_true(reversi_reader_open_memory(&r, data, size, REVERSI_FORMAT_WTB, 8));
  assert_false(reversi_reader_names(&r, data_path("wthor/WTH_2020.wtb"), NULL));
  assert_non_null(strstr(r.error, "the players' names"));
  reversi_reader_close(&r);
  free(copy);
  free(data);
}

/* ---- GGF ---- */

/* A reader of GGF text in memory (which must stay). */
static void open_ggf(reversi_reader *r, const char *text) {
  assert_true(
      reversi_reader_open_memory(r, text, strlen(text), REVERSI_FORMAT_UNKNOWN, 8));
  assert_int_equal(r->format, REVERSI_FORMAT_GGF);
}

/* Written as GGF and read again, rec is the same game. */
static void check_ggf_again(const reversi_record *rec) {
  char buf[4096];
  size_t n = reversi_ggf_write(rec, buf, sizeof buf);
  assert_true(n < sizeof buf);
  reversi_reader r;
  reversi_record back;
  open_ggf(&r, buf);
  assert_int_equal(reversi_reader_next(&r, &back), REVERSI_RECORD);
  assert_int_equal(back.plies, rec->plies);
  assert_memory_equal(back.moves, rec->moves, (size_t)back.plies);
  assert_memory_equal(&back.start, &rec->start, sizeof back.start);
  assert_memory_equal(back.eval, rec->eval, sizeof back.eval);
  assert_memory_equal(back.seconds, rec->seconds, sizeof back.seconds);
  assert_true((!back.black && !rec->black) || strcmp(back.black, rec->black) == 0);
  assert_true((!back.white && !rec->white) || strcmp(back.white, rec->white) == 0);
  if (!isnan(rec->result)) assert_true(back.result == rec->result);
  else if (!reversi_is_over(&rec->board)) assert_true(isnan(back.result));
  assert_true((isnan(back.komi) && isnan(rec->komi)) || back.komi == rec->komi);
  assert_int_equal(back.result_how, rec->result_how);
  assert_int_equal(reversi_reader_next(&r, &back), REVERSI_END);
  reversi_reader_close(&r);
}

/* The 2019 games through GGF: the same moves, players, tournaments (as
   PC) and results; written again, the same text. */
static void test_ggf_round_trip(void **unused) {
  (void)unused;
  reversi_reader r;
  open_data(&r, "wthor/WTH_2019.wtb");
  FILE *f = tmpfile();
  reversi_writer w;
  assert_true(reversi_writer_open_file(&w, f, REVERSI_FORMAT_GGF, NULL));
  assert_int_equal(copy_records(&r, &w), 1127);
  assert_true(reversi_writer_close(&w));
  reversi_reader_close(&r);
  size_t size;
  char *text = (char *)file_bytes(f, &size);
  text[size] = '\0';
  assert_true(size > 4 * 65536);                 /* more than the first window */

  /* read through the FILE, in windows: what memory gives */
  reversi_reader from_file, from_memory;
  rewind(f);
  assert_true(reversi_reader_open_file(&from_file, f, REVERSI_FORMAT_UNKNOWN, 8));
  assert_true(reversi_reader_open_memory(&from_memory, text, size,
                                         REVERSI_FORMAT_UNKNOWN, 8));
  reversi_record x, y;
  reversi_status status;
  int games = 0;
  while ((status = reversi_reader_next(&from_file, &x)) != REVERSI_END) {
    assert_int_equal(status, REVERSI_RECORD);
    assert_int_equal(reversi_reader_next(&from_memory, &y), REVERSI_RECORD);
    assert_int_equal(x.line, y.line);
    assert_memory_equal(x.moves, y.moves, sizeof x.moves);
    assert_string_equal(x.black, y.black);
    games++;
  }
  assert_int_equal(games, 1127);
  assert_int_equal(reversi_reader_next(&from_memory, &y), REVERSI_END);
  reversi_reader_close(&from_file);
  reversi_reader_close(&from_memory);
  fclose(f);

  reversi_reader wtb, ggf;
  open_data(&wtb, "wthor/WTH_2019.wtb");
  assert_true(reversi_reader_open_memory(&ggf, text, size, REVERSI_FORMAT_UNKNOWN, 8));
  assert_int_equal(ggf.format, REVERSI_FORMAT_GGF);
  reversi_record a, b;
  int n = 0;
  f = tmpfile();
  assert_true(reversi_writer_open_file(&w, f, REVERSI_FORMAT_GGF, NULL));
  while (reversi_reader_next(&wtb, &a) == REVERSI_RECORD) {
    assert_int_equal(reversi_reader_next(&ggf, &b), REVERSI_RECORD);
    n++;
    assert_int_equal(a.plies, b.plies);
    assert_memory_equal(a.moves, b.moves, (size_t)a.plies);
    assert_memory_equal(&a.board, &b.board, sizeof a.board);
    assert_string_equal(a.black, b.black);
    assert_string_equal(a.white, b.white);
    assert_string_equal(a.tournament, b.place);
    assert_int_equal(a.year, b.year);
    assert_true(b.result == 2 * a.black_discs - 64);
    assert_int_equal(reversi_writer_add(&w, &b), REVERSI_RECORD);
  }
  assert_int_equal(n, 1127);
  assert_int_equal(reversi_reader_next(&ggf, &b), REVERSI_END);
  assert_true(reversi_writer_close(&w));
  size_t again_size;
  char *again = (char *)file_bytes(f, &again_size);
  assert_int_equal(again_size, size);
  assert_memory_equal(again, text, size);
  fclose(f);
  free(again);
  reversi_reader_close(&wtb);
  reversi_reader_close(&ggf);
  free(text);
}

/* Passes (implicit and PA), a start that is not the standard one,
   evaluations and times, two games on a line, CRLF, a 6x6 game, a komi
   game, results with flags, names in ISO-8859-1; each written and read
   again.  The start: black a1 and h8, white b1 and g8; after c1 white
   has no move and passes, and f8 ends the game. */
static void test_ggf_games(void **unused) {
  (void)unused;
  const char *text =
    "\xef\xbb\xbf(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Ann]PW[Bo\\]b]"
    "RB[2197.01]RW[1500]TI[15:00//02:00]TY[8]RE[+58.000:r]"
    "BO[8 *O------ -------- -------- -------- -------- -------- -------- ------O* *]"
    "B[c1/1.5/0.01]W[PA]B[f8//2];) (;GM[Othello]PB[C\xe9line]BO[8 *O------ --------\r\n"
    "-------- -------- -------- -------- -------- ------O* *]B[C1]B[f8];)\r\n"
    "(;GM[othello]TY[6]B[c2]W[b2]RE[?];)\n"
    "(;GM[Othello]TY[k8]KM[-2.5]KB[f5/+3]W[d6];)\n";
  reversi_reader r;
  reversi_record g;
  open_ggf(&r, text);

  assert_int_equal(reversi_reader_next(&r, &g), REVERSI_RECORD);
  assert_int_equal(g.number, 1);
  assert_false(is_standard(&g.start));
  assert_int_equal(g.plies, 3);
  assert_int_equal(g.moves[1], REVERSI_PASS);
  assert_string_equal(g.black, "Ann");
  assert_string_equal(g.white, "Bo]b");
  assert_string_equal(g.place, "GGS/os");
  assert_string_equal(g.clock, "15:00//02:00");
  assert_string_equal(g.black_rating, "2197.01");
  assert_int_equal(g.year, 2003);
  assert_true(g.result == 58 && g.result_how == 'r');
  assert_true(g.eval[0] == 1.5 && g.seconds[0] == 0.01);
  assert_true(isnan(g.eval[1]) && isnan(g.eval[2]) && g.seconds[2] == 2);
  assert_true(reversi_is_over(&g.board));
  check_ggf_again(&g);

  assert_int_equal(reversi_reader_next(&r, &g), REVERSI_RECORD);
  assert_int_equal(g.line, 1);                    /* on the same line */
  assert_int_equal(g.plies, 3);                   /* the pass implicit */
  assert_int_equal(g.moves[1], REVERSI_PASS);
  assert_string_equal(g.black, "C\xc3\xa9line");  /* from ISO-8859-1 */
  check_ggf_again(&g);

  assert_int_equal(reversi_reader_next(&r, &g), REVERSI_RECORD);
  assert_int_equal(g.line, 3);
  assert_int_equal(g.start.size, 6);
  assert_int_equal(g.plies, 2);
  assert_true(isnan(g.result));
  check_ggf_again(&g);

  assert_int_equal(reversi_reader_next(&r, &g), REVERSI_RECORD);
  assert_true(g.komi == -2.5 && g.eval[0] == 3);
  check_ggf_again(&g);
  assert_int_equal(reversi_reader_next(&r, &g), REVERSI_END);
  reversi_reader_close(&r);
}

/* A game that ended early keeps its result as WTHOR's count. */
static void test_ggf_to_wthor(void **unused) {
  (void)unused;
  reversi_reader r;
  reversi_record rec;
  open_ggf(&r, "(;GM[Othello]PB[a]RE[-20.000:r]B[f5]W[d6];)(;GM[Othello]B[f5];)");
  reversi_wthor_game game;
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_null(reversi_wthor_from_record(&rec, &game));
  assert_int_equal(game.black_discs, 22);
  assert_int_equal(game.theoretical, 22);
  assert_int_equal(game.count, 2);
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_null(reversi_wthor_from_record(&rec, &game));
  assert_int_equal(game.black_discs, 4 + 59);      /* the board: 4 to 1, empties to black */
  reversi_reader_close(&r);
}

static void test_ggf_bad(void **unused) {
  (void)unused;
  static const struct { const char *text, *error; } cases[] = {
    {"(;GM[Chess]B[e4];)", "not Othello"},
    {"(;GM[Othello]TY[10];)", "not 4x4, 6x6 or 8x8"},
    {"(;GM[Othello]TY[8a];)", "anti Othello"},
    {"(;GM[Othello]TY[6]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- "
     "-------- -------- *];)", "not of the size"},
    {"(;GM[Othello]BO[8 ---- *];)", "16, 36 or 64 cells"},
    {"(;GM[Othello]B[f5]W[f5];)", "an illegal move"},
    {"(;GM[Othello]B[f5]B[d6];)", "not to move"},
    {"(;GM[Othello]B[PA];)", "a pass while a move exists"},
    {"(;GM[Othello]B[z9];)", "not a square"},
    {"(;GM[Othello]B[f5/x];)", "evaluation is not a number"},
    {"(;GM[Othello]B[f5//-1];)", "time is not a number"},
    {"(;GM[Othello]RE[+99];)", "not a disc difference"},
    {"(;GM[Othello]RE[+2:x];)", "flag"},
    {"(;GM[Othello]PB[a\\];)", "the file ends before its ';)'"},
    {"(;GM[Othello]PB[a] (;GM[Othello];)", "another game starts before its ';)'"},
    {"(;GM[Othello] 7[x];)", "a property is letters"},
    {"(;GM[Othello]PB x;)", "without its value"},
    {"junk (;GM[Othello];)", "text outside a game: 'junk '"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    outcome o = read_bytes(cases[i].text, strlen(cases[i].text), REVERSI_FORMAT_GGF);
    if (!o.bad) fail_msg("'%s' read without an error", cases[i].text);
    assert_error(o, cases[i].error);
  }
  /* a bad game between two good ones: both read */
  const char *three = "(;GM[Othello]B[f5];)(;GM[Othello]B[a1];)\n(;GM[Othello]B[e6];)";
  outcome o = read_bytes(three, strlen(three), REVERSI_FORMAT_GGF);
  assert_int_equal(o.records, 2);
  assert_int_equal(o.bad, 1);
  assert_error(o, "game 2 (line 1): an illegal move");
  /* a zero byte: binary data near the start, else a bad game */
  static const char zero[] = "(;GM[Othello]PB[a\0b]B[f5];)";
  o = read_bytes(zero, sizeof zero - 1, REVERSI_FORMAT_GGF);
  assert_false(o.opened);
  assert_error(o, "binary data");
  reversi_record rec;
  char strings[128];
  size_t at;
  reversi_record_init(&rec, 8);
  assert_string_equal(reversi_ggf_read(zero, sizeof zero - 1, &rec, strings, &at),
                      "a zero byte in a property's value");
  assert_int_equal(at, 17);
}

/* ---- OBF ---- */

/* FFO #1-#19 with their answers; the solver gives each move the score
   listed; written again, the file is the same bytes. */
static void test_obf_ffo(void **unused) {
  (void)unused;
  reversi_solver *solver = reversi_solver_new(18);
  assert_non_null(solver);
  reversi_reader r;
  open_data(&r, "fforum-1-19.obf");
  assert_int_equal(r.format, REVERSI_FORMAT_OBF);
  FILE *f = tmpfile();
  reversi_writer w;
  assert_true(reversi_writer_open_file(&w, f, REVERSI_FORMAT_OBF, NULL));
  reversi_record rec;
  int n = 0;
  while (reversi_reader_next(&r, &rec) == REVERSI_RECORD) {
    n++;
    assert_int_equal(rec.line, (uint64_t)n);
    assert_int_equal(rec.answers, __builtin_popcountll(reversi_legal(&rec.board)));
    int scores[64];
    assert_true(reversi_solve_all(solver, &rec.board, NULL, scores));
    for (int i = 0; i < rec.answers; i++)
      if (scores[rec.answer_square[i]] != rec.answer_score[i])
        fail_msg("FFO #%d: move %d scores %d, the file says %d", n,
                 rec.answer_square[i], scores[rec.answer_square[i]],
                 rec.answer_score[i]);
    assert_int_equal(reversi_writer_add(&w, &rec), REVERSI_RECORD);
  }
  assert_int_equal(n, 19);
  assert_true(reversi_writer_close(&w));
  reversi_reader_close(&r);
  size_t size, written;
  uint8_t *original = read_data("fforum-1-19.obf", &size);
  uint8_t *copy = file_bytes(f, &written);
  assert_int_equal(written, size);
  assert_memory_equal(copy, original, size);
  fclose(f);
  free(copy);
  free(original);
  reversi_solver_free(solver);
}

static void test_obf_bad(void **unused) {
  (void)unused;
  const char *ffo1 =
      "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
  static const struct { const char *answers, *error; } cases[] = {
    {"; G8:+18; G8:+18;", "two answers"},
    {"; A1:+18;", "not legal"},
    {"; G8:x;", "whole number"},
    {"; G8:+99;", "more than the board's squares"},
    {"; G8 +18;", "a move, ':' and its score"},
    {"; Z8:+1;", "not a square"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char line[256];
    snprintf(line, sizeof line, "%s%s\n", ffo1, cases[i].answers);
    outcome o = read_bytes(line, strlen(line), REVERSI_FORMAT_OBF);
    assert_int_equal(o.bad, 1);
    assert_error(o, cases[i].error);
  }
  char line[256];
  snprintf(line, sizeof line, "%s; G8:+18; %% a comment\n", ffo1);
  outcome o = read_bytes(line, strlen(line), REVERSI_FORMAT_UNKNOWN);
  assert_int_equal(o.records, 1);
  assert_int_equal(o.bad, 0);
}

/* ---- transcripts and text ---- */

static void test_transcripts(void **unused) {
  (void)unused;
  /* a byte-order mark, CRLF, blank lines, comments, a start of its own,
     a bad line among good ones */
  const char *text =
      "\xef\xbb\xbf# games\r\nf5d6c3\r\n\r\n   \n% more\n"
      "f5 d6 c3 x9\n"
      "---------------------------OX------XO--------------------------- O d6\n"
      "f5d6c3d3c6f4e3c5f6e6e7f3c4e2f1d1g4g3d7h4h2g5h5h3d2h1g2h6f2b3b4g1a3e1c2c1g6h7h8b1"
      "f7f8a5b5a6b6g7g8e8d8c8b8c7a7b7a8b2a1a2a4\n";
  reversi_reader r;
  assert_true(
      reversi_reader_open_memory(&r, text, strlen(text), REVERSI_FORMAT_UNKNOWN, 8));
  assert_int_equal(r.format, REVERSI_FORMAT_TRANSCRIPT);
  reversi_record rec;
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_int_equal(rec.line, 2);
  assert_int_equal(rec.number, 1);
  assert_int_equal(rec.plies, 3);
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_BAD_RECORD);
  assert_int_equal(rec.line, 6);
  assert_string_equal(r.error, "line 6: move 4 'x9' (not a square of this board)");
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_int_equal(rec.line, 7);
  assert_false(is_standard(&rec.start));
  assert_int_equal(rec.start.turn, REVERSI_WHITE);
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_int_equal(rec.number, 4);
  reversi_reader_close(&r);

  /* written: the moves, the start before them when it is not the 8x8
     one, a board string alone for a game without moves */
  char buf[256];
  reversi_transcript_write(&rec, buf, sizeof buf);
  assert_string_equal(buf,
                      "f5d6c3d3c6f4e3c5f6e6e7f3c4e2f1d1g4g3d7h4h2g5h5h3d2h1g2h6f2b3b4g1"
                      "a3e1c2c1g6h7h8b1f7f8a5b5a6b6g7g8e8d8c8b8c7a7b7a8b2a1a2a4\n");
  reversi_record_init(&rec, 4);
  reversi_record_play(&rec, 26);                  /* a2 on 4x4: c4 of 8x8 */
  reversi_transcript_write(&rec, buf, sizeof buf);
  assert_string_equal(buf, "-----OX--XO----- X a2\n");
  reversi_record_init(&rec, 8);
  reversi_transcript_write(&rec, buf, sizeof buf);
  assert_string_equal(
      buf, "---------------------------OX------XO--------------------------- X\n");
  outcome o = read_bytes(buf, strlen(buf), REVERSI_FORMAT_UNKNOWN);
  assert_int_equal(o.records, 1);

  /* transcripts of 6x6 games by the reader's size */
  const char *six = "c2b2\n";
  assert_true(
      reversi_reader_open_memory(&r, six, strlen(six), REVERSI_FORMAT_TRANSCRIPT, 6));
  assert_int_equal(reversi_reader_next(&r, &rec), REVERSI_RECORD);
  assert_int_equal(rec.start.size, 6);
  reversi_reader_close(&r);
}

static void test_bad_text(void **unused) {
  (void)unused;
  static const char utf16[] = "\xff\xfe" "f\0" "5\0";
  outcome o = read_bytes(utf16, sizeof utf16 - 1, REVERSI_FORMAT_UNKNOWN);
  assert_false(o.opened);
  assert_error(o, "UTF-16");
  static const char garbage[] = "f5d6\0\x01\x02\x03";
  o = read_bytes(garbage, sizeof garbage - 1, REVERSI_FORMAT_TRANSCRIPT);
  assert_false(o.opened);
  assert_error(o, "binary data");
  static const char binary[] = "\x07\x01\x02\x03\x04";
  o = read_bytes(binary, sizeof binary - 1, REVERSI_FORMAT_UNKNOWN);
  assert_false(o.opened);
  assert_error(o, "not a WTHOR file");
  o = read_bytes("", 0, REVERSI_FORMAT_UNKNOWN);
  assert_true(o.opened);
  assert_int_equal(o.records + o.bad, 0);
  o = read_bytes("f5d6\xe9\n", 6, REVERSI_FORMAT_UNKNOWN);
  assert_int_equal(o.bad, 1);
  assert_error(o, "not a square");

  /* a text file read through a FILE, past the first window: a line
     longer than the window, and a file that ends in the middle of one */
  FILE *f = tmpfile();
  for (int i = 0; i < 5000; i++) fputs("f5d6c3d3c4f4f6f3e6e7\n", f);
  for (int i = 0; i < 20000; i++) fputs("   ", f);
  fputs("f5\nf5d6c3d3c4f4f6f3e6e7d7", f);
  rewind(f);
  reversi_reader r;
  assert_true(reversi_reader_open_file(&r, f, REVERSI_FORMAT_UNKNOWN, 8));
  reversi_record rec;
  int n = 0;
  while (reversi_reader_next(&r, &rec) == REVERSI_RECORD) n++;
  assert_int_equal(n, 5002);
  assert_int_equal(rec.line, 5002);
  reversi_reader_close(&r);
  fclose(f);

  /* a writer refuses what its format cannot hold */
  reversi_writer w;
  f = tmpfile();
  assert_true(reversi_writer_open_file(&w, f, REVERSI_FORMAT_WTB, NULL));
  reversi_record_init(&rec, 6);
  assert_int_equal(reversi_writer_add(&w, &rec), REVERSI_BAD_RECORD);
  assert_non_null(strstr(w.error, "8x8 start"));
  assert_true(reversi_writer_close(&w));
  fclose(f);
  assert_false(
      reversi_reader_open(&r, "/nonexistent/x.wtb", REVERSI_FORMAT_UNKNOWN, 8));
  assert_non_null(strstr(r.error, "cannot open"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_wthor_replay),
    cmocka_unit_test(test_wthor_names),
    cmocka_unit_test(test_wthor_round_trip),
    cmocka_unit_test(test_wthor_bad),
    cmocka_unit_test(test_ggf_round_trip),
    cmocka_unit_test(test_ggf_games),
    cmocka_unit_test(test_ggf_to_wthor),
    cmocka_unit_test(test_ggf_bad),
    cmocka_unit_test(test_obf_ffo),
    cmocka_unit_test(test_obf_bad),
    cmocka_unit_test(test_transcripts),
    cmocka_unit_test(test_bad_text),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
