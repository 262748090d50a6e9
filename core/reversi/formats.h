/*
** formats.h: Reversi games and positions in files.
**
**   WTHOR    the French federation's binary databases (.wtb), with the
**            names of their players (WTHOR.JOU) and tournaments
**            (WTHOR.TRN): wthor.c
**   GGF      the Generic Game Format of the Othello servers and Edax,
**            (;GM[Othello]...B[f5]W[d6]...;): ggf.c
**   OBF      a board string and the score of each move, as in the FFO
**            endgame tests ("...X; G8:+18; H1:+12;"): obf.c
**   transcripts  "f5d6c3...", or a board string and the moves from it,
**            one game a line: notation.c
**
** Each format has a function that reads one record into a
** reversi_record and one that writes a record, on bytes in memory; the
** reader and the writer of records.c go through a whole file (or text in
** memory) of any of them one record at a time.  A record is a plain
** struct the caller owns: nothing is allocated per move, and the reader
** allocates only its buffers.
*/
#ifndef REVERSI_FORMATS_H
#define REVERSI_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "reversi.h"

/* The moves of a game, passes included: at most 60 discs, and a pass
   before a disc at most. */
#define REVERSI_MAX_PLIES 128

typedef enum reversi_format {
  REVERSI_FORMAT_UNKNOWN,
  REVERSI_FORMAT_WTB,
  REVERSI_FORMAT_GGF,
  REVERSI_FORMAT_OBF,
  REVERSI_FORMAT_TRANSCRIPT
} reversi_format;

/* "wtb", "ggf", "obf", "transcript" (NULL for UNKNOWN). */
const char *reversi_format_name(reversi_format format);
/* The format of that name, or UNKNOWN. */
reversi_format reversi_format_named(const char *name);
/* The format a file name's extension says (.wtb, .ggf, .obf; .txt for
   transcripts), any case; UNKNOWN for another. */
reversi_format reversi_format_of_path(const char *path);

/* One game or position as a file has it.  A field the format lacks is
   NULL (texts), -1 (counts and indexes) or NaN (numbers). */
typedef struct reversi_record {
  reversi_format format;
  uint64_t number;          /* 1-based: the game of a .wtb, the record of a text */
  uint64_t line;            /* the line of a text where it starts; 0 in a .wtb */
  reversi_board start;      /* before the first move */
  reversi_board board;      /* after the last */
  int plies;                /* moves, passes included */
  uint8_t moves[REVERSI_MAX_PLIES];   /* squares, or REVERSI_PASS */

  /* the players and the event, UTF-8 */
  const char *black, *white, *tournament;
  int year;                 /* when the game was played */

  /* WTHOR */
  int black_index, white_index, tournament_index;  /* into .JOU, .TRN */
  int black_discs;          /* black's discs at the end, the empty squares
                               going to the winner (half each in a draw) */
  int theoretical;          /* black's discs with perfect play from depth
                               empty squares on */
  int depth;

  /* GGF */
  const char *place;        /* PC */
  const char *date;         /* DT, as written */
  const char *clock;        /* TI: both players' thinking times */
  const char *type;         /* TY, as written */
  const char *black_rating, *white_rating;    /* RB, RW */
  double result;            /* RE: black's disc difference at the end */
  char result_how;          /* 'r' resigned, 't' time, 's' agreed, or 0 */
  double komi;              /* KM */
  double eval[REVERSI_MAX_PLIES];     /* each move's evaluation, or NaN */
  double seconds[REVERSI_MAX_PLIES];  /* each move's time, or NaN */

  /* OBF: each move's exact score, as listed */
  int answers;
  uint8_t answer_square[65];          /* squares, or REVERSI_PASS */
  int8_t answer_score[65];
} reversi_record;

/* An empty record of a game from the start of a size x size board:
   every field absent. */
void reversi_record_init(reversi_record *rec, int size);

/* Appends square to rec's moves (which must have room) and plays it on
   rec->board. */
void reversi_record_play(reversi_record *rec, int square);

/* ---- WTHOR (wthor.c) ----
**
** A 16-byte header, then 68 bytes a game: the tournament, black and
** white as little-endian 16-bit indexes into WTHOR.TRN and WTHOR.JOU,
** black's final disc count, black's theoretical count, then 60 move
** bytes, 10 * row + column (11 = a1, 88 = h8), 0 after the last move.
** Passes are not written.  Format: the federation's note "Format_WThor".
*/

#define REVERSI_WTHOR_HEADER_SIZE 16
#define REVERSI_WTHOR_GAME_SIZE 68
#define REVERSI_WTHOR_PLAYER_SIZE 20       /* a name in WTHOR.JOU */
#define REVERSI_WTHOR_TOURNAMENT_SIZE 26   /* in WTHOR.TRN */

typedef struct reversi_wthor_header {
  int century, year, month, day;    /* when the file was written */
  uint32_t games;                   /* N1: games in a .wtb */
  uint16_t records;                 /* N2: names in a .JOU or .TRN */
  uint16_t game_year;               /* the year of the games */
  uint8_t board_size;               /* 8 (0 means 8 too) */
  uint8_t type;                     /* 0: games */
  uint8_t depth;                    /* of the theoretical counts */
  uint8_t reserved;
} reversi_wthor_header;

typedef struct reversi_wthor_game {
  uint16_t tournament, black, white;
  uint8_t black_discs, theoretical;
  int count;                        /* moves */
  uint8_t moves[60];                /* squares, a1 = 0 ... h8 = 63 */
} reversi_wthor_game;

/* The header of a .wtb, or NULL and why it is not one. */
const char *reversi_wthor_read_header(const uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE],
                                      reversi_wthor_header *header);
void reversi_wthor_write_header(const reversi_wthor_header *header,
                                uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE]);

/* The 68 bytes of a game; NULL, or why they are not a game with *move
   the 1-based number of the bad move byte. */
const char *reversi_wthor_read_game(const uint8_t bytes[REVERSI_WTHOR_GAME_SIZE],
                                    reversi_wthor_game *game, int *move);
void reversi_wthor_write_game(const reversi_wthor_game *game,
                              uint8_t bytes[REVERSI_WTHOR_GAME_SIZE]);

/* Plays the moves from the 8x8 start into rec (made by
   reversi_record_init), each side passing when it has no move: 0, or the
   1-based number of the first move that is not legal (rec then holds
   the moves before it). */
int reversi_wthor_replay(const reversi_wthor_game *game, reversi_record *rec);

/* The same, board only: the fastest replay. */
int reversi_wthor_replay_board(const reversi_wthor_game *game, reversi_board *board);

/* Black's discs at the end of a game on board, as WTHOR counts them:
   the empty squares go to the winner, half each in a draw. */
int reversi_wthor_black_discs(const reversi_board *board);

/* The WTHOR game of rec: its discs (passes dropped), indexes (0 where
   absent), counts (where absent: from the result, else from the board
   as reversi_wthor_black_discs counts; the theoretical count the same).
   NULL, or why WTHOR cannot hold it (a start that is not the 8x8 one). */
const char *reversi_wthor_from_record(const reversi_record *rec,
                                      reversi_wthor_game *game);

/* The names of WTHOR.JOU (width REVERSI_WTHOR_PLAYER_SIZE) or WTHOR.TRN
   (REVERSI_WTHOR_TOURNAMENT_SIZE): a 16-byte header with their number, then a
   NUL-padded ISO-8859-1 name each. */
typedef struct reversi_wthor_names {
  const uint8_t *data;              /* the file's bytes, the caller's */
  size_t size;
  int width;
  uint32_t count;
} reversi_wthor_names;

/* NULL, or why the bytes are not a file of names of that width. */
const char *reversi_wthor_names_open(reversi_wthor_names *names, const uint8_t *data,
                                     size_t size, int width);
/* Name index in UTF-8 into out (cap bytes, at least 2 * width), NUL
   ended; returns out, or NULL when there is no such name. */
const char *reversi_wthor_name(const reversi_wthor_names *names, unsigned index,
                               char *out, size_t cap);
/* The record of a name for a .JOU or .TRN: UTF-8 turned into ISO-8859-1
   (a character it lacks becomes '?'), cut to width - 1 bytes, NUL-padded. */
void reversi_wthor_write_name(const char *utf8, uint8_t *out, int width);

/* ---- GGF (ggf.c) ---- */

/* Reads the game of text[0..len), from "(;" to ";)", into rec: the
   properties above, the start (BO, or the standard start of the TY
   board), the moves played (B[f5], W[d6], passes PA) with their
   evaluations and times.  A text that is not valid UTF-8 is taken for
   ISO-8859-1.  strings receives the record's texts and must hold
   2 * len + 64 bytes.  Returns NULL, or why not with *at the offset
   where it went wrong. */
const char *reversi_ggf_read(const char *text, size_t len, reversi_record *rec,
                             char *strings, size_t *at);

/* Where the game that starts text[0..len) with "(;" ends: 1 with
   *length through its ";)"; 0 when the text ends first; -1 when another
   game starts first, at *length (brackets skipped, escapes too). */
int reversi_ggf_span(const char *text, size_t len, size_t *length);

/* Writes rec as one GGF game and a newline, as snprintf does. */
size_t reversi_ggf_write(const reversi_record *rec, char *buf, size_t size);

/* ---- OBF (obf.c) ---- */

/* Reads a line "<board string>; G8:+18; H1:+12; ..." into rec: the
   position (as start and board, no moves) and the answers.  NULL, or
   why not with *at where. */
const char *reversi_obf_read(const char *text, size_t len, reversi_record *rec,
                             size_t *at);

/* The position after rec's moves, and its answers when it has some;
   a newline after them. */
size_t reversi_obf_write(const reversi_record *rec, char *buf, size_t size);

/* ---- transcripts (notation.c) ---- */

/* Splits a line into its start and its moves: a board string when the
   line starts with one (anything after a ';' there ignored, as in OBF),
   else the standard start of a size x size board.  Returns NULL with
   *moves_at where the moves begin, or why the board string is wrong
   with *moves_at the end of it. */
const char *reversi_read_start(const char *text, size_t len, int size,
                               reversi_board *start, size_t *moves_at);

/* Reads a transcript line (reversi_read_start, then the moves, passes
   implicit or written) into rec.  NULL, or why not (err says which
   move when it was one; err->move is 0 for the board string). */
const char *reversi_transcript_read(const char *text, size_t len, int size,
                                    reversi_record *rec, reversi_record_error *err);

/* The moves, passes left out but a last one (" pass": no move after it
   says it), after the start's board string and a space when it is not
   the 8x8 start; a newline after them. */
size_t reversi_transcript_write(const reversi_record *rec, char *buf, size_t size);

/* ---- files (records.c) ---- */

typedef enum reversi_status {
  REVERSI_RECORD,           /* a record was read */
  REVERSI_BAD_RECORD,       /* this one was bad (why in the error); go on */
  REVERSI_END               /* nothing more */
} reversi_status;

/* A text record (a line, a GGF game) may be this long. */
#define REVERSI_MAX_RECORD ((size_t)16 << 20)

typedef struct reversi_reader {
  reversi_format format;
  int size;                 /* the board of transcripts */
  FILE *file;               /* NULL when reading memory */
  bool owns_file;
  uint8_t *buffer;          /* the file's bytes from at to end, or the memory */
  size_t capacity, at, end;
  bool eof;
  uint64_t number, line;    /* the last record's */
  reversi_wthor_header header;   /* of a .wtb */
  uint64_t games;           /* the .wtb's games read so far */
  reversi_wthor_names players, tournaments;
  uint8_t *names_data[2];   /* their bytes, when the reader read them */
  char *strings;            /* the texts of the last record */
  size_t strings_capacity;
  bool failed;              /* no more records */
  char error[256];
} reversi_reader;

/* Opens path (format UNKNOWN: its extension, else its first bytes say
   which; size is the board of transcripts, 8 unless the file says).  A
   .wtb takes its names from WTHOR.JOU and WTHOR.TRN beside it when
   they are there.  False with the error when it cannot be read. */
bool reversi_reader_open(reversi_reader *reader, const char *path,
                         reversi_format format, int size);
/* The same on an open file, which stays the caller's. */
bool reversi_reader_open_file(reversi_reader *reader, FILE *file,
                              reversi_format format, int size);
/* The same on bytes in memory, which must live until the reader is
   closed. */
bool reversi_reader_open_memory(reversi_reader *reader, const void *data,
                                size_t len, reversi_format format, int size);

/* The names of a .wtb's players and tournaments from the files at these
   paths (either may be NULL).  False with the error when one cannot be
   read or is not a file of names. */
bool reversi_reader_names(reversi_reader *reader, const char *players,
                          const char *tournaments);

/* The next record into rec, whose texts last until the next call.  On
   REVERSI_BAD_RECORD the error says what was wrong, rec->number and
   rec->line say where, and the next call goes on after it. */
reversi_status reversi_reader_next(reversi_reader *reader,
                                   reversi_record *rec);

void reversi_reader_close(reversi_reader *reader);

typedef struct reversi_writer {
  reversi_format format;
  FILE *file;
  bool owns_file;
  uint64_t count;           /* records written */
  reversi_wthor_header header;   /* of a .wtb: written again on close */
  bool header_set;          /* header given: no year or depth from games */
  char *buffer;
  size_t capacity;
  char error[256];
} reversi_writer;

/* Creates path for records in format (not UNKNOWN).  A .wtb gets
   header (NULL: made today, the year and depth of the first game that
   has them), its count set on close.  False with the error. */
bool reversi_writer_open(reversi_writer *writer, const char *path,
                         reversi_format format, const reversi_wthor_header *header);
/* The same on an open file (seekable for a .wtb), which stays the
   caller's. */
bool reversi_writer_open_file(reversi_writer *writer, FILE *file,
                              reversi_format format,
                              const reversi_wthor_header *header);

/* Appends rec: REVERSI_RECORD, REVERSI_BAD_RECORD when the format cannot
   hold it (the error says why; nothing is written), REVERSI_END when the
   file cannot be written (the error says why). */
reversi_status reversi_writer_add(reversi_writer *writer,
                                  const reversi_record *rec);

/* Finishes the file (a .wtb's count) and closes it: false with the error
   when that fails. */
bool reversi_writer_close(reversi_writer *writer);

/* ---- batch.c: the tasks of the batch tools (core/base/batch.h) ---- */

struct batch_task;
extern const struct batch_task reversi_batch_solve, reversi_batch_replay,
    reversi_batch_annotate;

#endif
