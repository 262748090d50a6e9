/*
** wthor.c: the French Othello federation's WTHOR databases: games
** (.wtb) and the names of their players (WTHOR.JOU) and tournaments
** (WTHOR.TRN), as the federation's note "Format_WThor" describes them.
**
** The recorded count is black's discs at the end with the empty squares
** going to the winner (half each in a draw): every finished game of the
** 2001, 2002, 2019 and 2020 files agrees, among them 276 that black won
** and one draw with squares left empty, which no other way of counting
** explains.
*/
#include <math.h>
#include <string.h>

#include "formats.h"

static unsigned get16(const uint8_t *p) { return p[0] | (unsigned)p[1] << 8; }

static uint32_t get32(const uint8_t *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put16(uint8_t *p, unsigned v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v) {
  put16(p, v & 0xffff);
  put16(p + 2, v >> 16);
}

/* ---- the header ---- */

static void read_header(const uint8_t *b, reversi_wthor_header *h) {
  h->century = b[0];
  h->year = b[1];
  h->month = b[2];
  h->day = b[3];
  h->games = get32(b + 4);
  h->records = (uint16_t)get16(b + 8);
  h->game_year = (uint16_t)get16(b + 10);
  h->board_size = b[12];
  h->type = b[13];
  h->depth = b[14];
  h->reserved = b[15];
}

const char *reversi_wthor_read_header(const uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE],
                                      reversi_wthor_header *header) {
  read_header(bytes, header);
  if (header->board_size != 0 && header->board_size != 8) {
    return header->board_size == 10
             ? "a file of 10x10 games: ludus reads the 8x8 ones"
             : "the header's board size is neither 8 nor 0";
  }
  if (header->type != 0)
    return header->type == 1 ? "a file of solitaires, not of games"
                             : "the header's type is not 0 (games)";
  if (header->month > 12 || header->day > 31)
    return "the header's date is not a date";
  if (header->depth > 60) return "the header's depth is more than 60";
  return NULL;
}

void reversi_wthor_write_header(const reversi_wthor_header *header,
                                uint8_t bytes[REVERSI_WTHOR_HEADER_SIZE]) {
  bytes[0] = (uint8_t)header->century;
  bytes[1] = (uint8_t)header->year;
  bytes[2] = (uint8_t)header->month;
  bytes[3] = (uint8_t)header->day;
  put32(bytes + 4, header->games);
  put16(bytes + 8, header->records);
  put16(bytes + 10, header->game_year);
  bytes[12] = header->board_size;
  bytes[13] = header->type;
  bytes[14] = header->depth;
  bytes[15] = header->reserved;
}

/* ---- games ---- */

const char *reversi_wthor_read_game(const uint8_t bytes[REVERSI_WTHOR_GAME_SIZE],
                                    reversi_wthor_game *game, int *move) {
  game->tournament = (uint16_t)get16(bytes);
  game->black = (uint16_t)get16(bytes + 2);
  game->white = (uint16_t)get16(bytes + 4);
  game->black_discs = bytes[6];
  game->theoretical = bytes[7];
  const uint8_t *x = bytes + 8;
  int n = 0;
  while (n < 60 && x[n] != 0) {
    int row = x[n] / 10, column = x[n] % 10;
    if (row < 1 || row > 8 || column < 1 || column > 8) {
      *move = n + 1;
      return "its byte is not a square (11 to 88)";
    }
    game->moves[n++] = (uint8_t)(8 * (row - 1) + column - 1);
  }
  game->count = n;
  for (int i = n; i < 60; i++)
    if (x[i] != 0) {
      *move = i + 1;
      return "a move after the end of the game (a zero byte before it)";
    }
  *move = 0;
  if (game->black_discs > 64) return "black's disc count is more than 64";
  if (game->theoretical > 64) return "black's theoretical count is more than 64";
  return NULL;
}

void reversi_wthor_write_game(const reversi_wthor_game *game,
                              uint8_t bytes[REVERSI_WTHOR_GAME_SIZE]) {
  put16(bytes, game->tournament);
  put16(bytes + 2, game->black);
  put16(bytes + 4, game->white);
  bytes[6] = game->black_discs;
  bytes[7] = game->theoretical;
  for (int i = 0; i < 60; i++)
    bytes[8 + i] = i < game->count
                     ? (uint8_t)(10 * (game->moves[i] / 8 + 1) + game->moves[i] % 8 + 1)
                     : 0;
}

/* ---- replay ----
**
** A move is legal when it turns discs over; when it turns none for the
** side to move, that side passes if it has no move at all, and the move
** is the other side's.  One flip computation a move, and a move
** generation only at a pass or an illegal move.
*/

int reversi_wthor_replay_board(const reversi_wthor_game *game, reversi_board *board) {
  reversi_init(board, 8);
  uint64_t p = board->player, o = board->opponent;
  int turn = REVERSI_BLACK;
  for (int i = 0; i < game->count; i++) {
    int square = game->moves[i];
    uint64_t bit = (uint64_t)1 << square;
    uint64_t flips = (p | o) & bit ? 0 : reversi_flips(p, o, square);
    if (!flips) {
      if ((p | o) & bit || reversi_moves_of(p, o)) return i + 1;
      uint64_t t = p;                    /* a pass */
      p = o;
      o = t;
      turn ^= 1;
      flips = reversi_flips(p, o, square);
      if (!flips) return i + 1;
    }
    uint64_t t = p | flips | bit;
    p = o & ~flips;
    o = t;
    turn ^= 1;
  }
  board->player = p;
  board->opponent = o;
  board->turn = (uint8_t)turn;
  return 0;
}

int reversi_wthor_replay(const reversi_wthor_game *game, reversi_record *rec) {
  for (int i = 0; i < game->count; i++) {
    reversi_board *b = &rec->board;
    int square = game->moves[i];
    uint64_t bit = (uint64_t)1 << square;
    bool empty = !((b->player | b->opponent) & bit);
    if (!empty || !reversi_flips(b->player, b->opponent, square)) {
      if (!empty || reversi_legal(b) || reversi_is_over(b)) return i + 1;
      reversi_record_play(rec, REVERSI_PASS);
      if (!reversi_flips(b->player, b->opponent, square)) return i + 1;
    }
    reversi_record_play(rec, square);
  }
  return 0;
}

int reversi_wthor_black_discs(const reversi_board *board) {
  int black = reversi_count(board, REVERSI_BLACK);
  int white = reversi_count(board, REVERSI_WHITE);
  int empty = board->size * board->size - black - white;
  return black > white ? black + empty : black < white ? black : black + empty / 2;
}

const char *reversi_wthor_from_record(const reversi_record *rec,
                                      reversi_wthor_game *game) {
  reversi_board standard;
  reversi_init(&standard, 8);
  if (memcmp(&rec->start, &standard, sizeof standard) != 0)
    return "WTHOR holds games from the 8x8 start only";
  memset(game, 0, sizeof *game);
  for (int i = 0; i < rec->plies; i++)
    if (rec->moves[i] != REVERSI_PASS) game->moves[game->count++] = rec->moves[i];
  game->tournament = (uint16_t)(rec->tournament_index > 0 ? rec->tournament_index : 0);
  game->black = (uint16_t)(rec->black_index > 0 ? rec->black_index : 0);
  game->white = (uint16_t)(rec->white_index > 0 ? rec->white_index : 0);
  /* a game that ended early (a resignation) has its result, not the board's */
  int discs = rec->black_discs;
  if (discs < 0 && !isnan(rec->result))
    discs = (int)lround(32 + rec->result / 2);
  if (discs < 0 || discs > 64) discs = reversi_wthor_black_discs(&rec->board);
  game->black_discs = (uint8_t)discs;
  game->theoretical = (uint8_t)(rec->theoretical >= 0 ? rec->theoretical : discs);
  return NULL;
}

/* ---- names ---- */

const char *reversi_wthor_names_open(reversi_wthor_names *names, const uint8_t *data,
                                     size_t size, int width) {
  memset(names, 0, sizeof *names);
  if (size < REVERSI_WTHOR_HEADER_SIZE)
    return "shorter than the 16 bytes of a header";
  uint32_t count = get16(data + 8);
  if ((size - REVERSI_WTHOR_HEADER_SIZE) % (size_t)width != 0 ||
      (size - REVERSI_WTHOR_HEADER_SIZE) / (size_t)width != count)
    return width == REVERSI_WTHOR_PLAYER_SIZE
             ? "its size is not that of the header's count of 20-byte names"
             : "its size is not that of the header's count of 26-byte names";
  names->data = data;
  names->size = size;
  names->width = width;
  names->count = count;
  return NULL;
}

const char *reversi_wthor_name(const reversi_wthor_names *names, unsigned index,
                               char *out, size_t cap) {
  if (!names->data || index >= names->count || cap < 2 * (size_t)names->width)
    return NULL;
  const uint8_t *name =
      names->data + REVERSI_WTHOR_HEADER_SIZE + (size_t)index * names->width;
  size_t n = 0;
  for (int i = 0; i < names->width - 1 && name[i]; i++) {
    if (name[i] < 0x80) {
      out[n++] = (char)name[i];
    } else {                            /* ISO-8859-1 to UTF-8 */
      out[n++] = (char)(0xc0 | name[i] >> 6);
      out[n++] = (char)(0x80 | (name[i] & 0x3f));
    }
  }
  while (n > 0 && out[n - 1] == ' ') n--;
  out[n] = '\0';
  return out;
}

void reversi_wthor_write_name(const char *utf8, uint8_t *out, int width) {
  memset(out, 0, (size_t)width);
  const unsigned char *s = (const unsigned char *)utf8;
  int n = 0;
  while (*s && n < width - 1) {
    unsigned c = *s++;
    if (c >= 0x80) {                    /* a character of 2 or more bytes */
      unsigned code = 0;
      if (c >= 0xc0) {
        int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
        code = c & (0x3f >> more);
        for (int i = 0; i < more && (*s & 0xc0) == 0x80; i++)
          code = code << 6 | (*s++ & 0x3f);
      }
      while ((*s & 0xc0) == 0x80) s++;
      c = code >= 0xa0 && code <= 0xff ? code : '?';
    }
    out[n++] = (uint8_t)c;
  }
}
