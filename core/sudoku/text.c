/*
** text.c: puzzles as people write them.  The symbols are guessed from
** the text when none are given, the side follows from the cells, and
** every refusal is a message that names the cell or byte at fault.
*/
#include <stdio.h>
#include <string.h>

#include "sudoku.h"

static const char *const sizes_allowed = "16, 81, 256 or 625";

static unsigned char fold_case(unsigned char c) {
  return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

bool sudoku_symbols_ok(const char *symbols, size_t len) {
  if (!sudoku_size_ok((int)(len <= SUDOKU_MAX_SIDE ? len : 0))) return false;
  bool seen[256] = {false};
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)symbols[i];
    /* the reader folds case, so 'a' and 'A' would read as one value */
    unsigned char folded = fold_case(c);
    if (c <= 32 || c >= 127 || strchr(".|-+", c) || seen[folded]) return false;
    seen[folded] = true;
  }
  return true;
}

static int count_byte(const char *text, size_t len, char c) {
  int n = 0;
  for (size_t i = 0; i < len; i++) n += text[i] == c;
  return n;
}

static bool has_any(const char *text, size_t len, const char *set) {
  for (size_t i = 0; i < len; i++)
    if (text[i] && strchr(set, text[i])) return true;
  return false;
}

/* 16x16: 0-F when '0' is a value (at most once a row: no more than 16
   of them) and no 'G' appears; 25x25: A-Y when no digit 1-9 appears.
   Only the number of letters, digits and dots counts, so the side is
   known first. */
const char *sudoku_guess_symbols(const char *text, size_t len) {
  int cells = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    cells += (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
             (c >= 'a' && c <= 'z') || c == '.';
  }
  if (cells == 256) {
    int zeros = count_byte(text, len, '0');
    if (zeros > 0 && zeros <= 16 && !has_any(text, len, "Gg") &&
        (zeros == 16 || has_any(text, len, ".")))
      return "0123456789ABCDEF";
  } else if (cells == 625 && !has_any(text, len, "123456789")) {
    return "ABCDEFGHIJKLMNOPQRSTUVWXY";
  }
  return NULL;
}

/* "1-9", "1-9 and A-G", "0-F", or the symbols themselves. */
static void symbol_range(const char *symbols, int size, char *buf,
                         size_t bufsize) {
  if (symbols) snprintf(buf, bufsize, "%s", symbols);
  else if (size <= 9) snprintf(buf, bufsize, "1-%d", size);
  else snprintf(buf, bufsize, "1-9 and A-%c", SUDOKU_SYMBOLS[size - 1]);
}

int sudoku_clash_unit(const sudoku_clash *clash, int size) {
  if (clash->row1 == clash->row2) return clash->row1;
  if (clash->col1 == clash->col2) return size + clash->col1;
  int box = sudoku_box_side(size);
  return 2 * size + clash->row1 / box * box + clash->col1 / box;
}

sudoku_error sudoku_make_puzzle(const sudoku_grid *grid, const char *symbols,
                                sudoku_puzzle *puzzle, char *message,
                                size_t size) {
  int side = grid->size;
  size_t len = symbols ? strlen(symbols) : (size_t)side;
  if (!sudoku_size_ok(side)) {
    snprintf(message, size, "a grid of side %d (the sides are 4, 9, 16 "
             "and 25)", side);
    return SUDOKU_ESIZE;
  }
  if (len != (size_t)side) {
    snprintf(message, size, "symbols '%s' has %zu symbols, but a %dx%d "
             "needs %d", symbols, len, side, side, side);
    return SUDOKU_EALPHABET;
  }
  const char *written = symbols ? symbols : SUDOKU_SYMBOLS;
  sudoku_clash clash;
  sudoku_error e = sudoku_check_givens(grid, &clash);
  if (e == SUDOKU_ERANGE) {
    snprintf(message, size, "r%dc%d is %d, but a %dx%d takes 1 to %d",
             clash.row1 + 1, clash.col1 + 1, clash.value, side, side, side);
    return e;
  }
  if (e == SUDOKU_ECLASH) {
    char unit[32];
    sudoku_unit_name(side, sudoku_clash_unit(&clash, side), unit, sizeof unit);
    snprintf(message, size, "r%dc%d and r%dc%d are both %c (%s)",
             clash.row1 + 1, clash.col1 + 1, clash.row2 + 1, clash.col2 + 1,
             written[clash.value - 1], unit);
    return e;
  }
  puzzle->grid = *grid;
  memset(puzzle->symbols, 0, sizeof puzzle->symbols);
  memcpy(puzzle->symbols, written, (size_t)side);
  if (size) message[0] = '\0';
  return SUDOKU_OK;
}

sudoku_error sudoku_read(const char *text, size_t len, const char *symbols,
                         sudoku_puzzle *puzzle, char *message, size_t size) {
  if (!symbols) symbols = sudoku_guess_symbols(text, len);
  sudoku_grid grid;
  sudoku_parse_error err;
  sudoku_error e = sudoku_parse(text, len, symbols, &grid, &err);
  if (e == SUDOKU_ECOUNT) {
    snprintf(message, size, "%d cells given, expected %s", err.cells,
             sizes_allowed);
    return e;
  }
  if (e == SUDOKU_ESYMBOL) {
    unsigned char c = (unsigned char)text[err.at];
    char shown[16];
    if (c >= 32 && c < 127) snprintf(shown, sizeof shown, "'%c'", c);
    else snprintf(shown, sizeof shown, "byte %d", c);
    snprintf(message, size, "%s at position %d is not a cell (cells are %s, "
             "'.'%s for empty; spaces and | - + are ignored)", shown,
             err.at + 1, symbols ? symbols : "1-9 and A-P",
             symbols && strchr(symbols, '0') ? "" : " or '0'");
    return e;
  }
  /* the side is known now: the symbols must write every value of it */
  int side = e == SUDOKU_ERANGE ? err.size : grid.size;
  if (symbols && strlen(symbols) != (size_t)side) {
    snprintf(message, size, "symbols '%s' has %zu symbols, but a %dx%d "
             "needs %d", symbols, strlen(symbols), side, side, side);
    return SUDOKU_EALPHABET;
  }
  if (e == SUDOKU_ERANGE) {
    char range[SUDOKU_MAX_SIDE + 1];
    symbol_range(symbols, side, range, sizeof range);
    snprintf(message, size, "r%dc%d is '%c' (%d), but a %dx%d takes %s",
             err.cell / side + 1, err.cell % side + 1, text[err.at], err.value,
             side, side, range);
    return e;
  }
  return sudoku_make_puzzle(&grid, symbols, puzzle, message, size);
}

size_t sudoku_write(const sudoku_puzzle *puzzle, char *buf, size_t size) {
  size_t cells = (size_t)puzzle->grid.size * (size_t)puzzle->grid.size;
  for (size_t i = 0; i < cells && i + 1 < size; i++) {
    int v = puzzle->grid.cell[i];
    buf[i] = v ? puzzle->symbols[v - 1] : '.';
  }
  if (size) buf[cells < size ? cells : size - 1] = '\0';
  return cells;
}

/* Adds len bytes to buf as snprintf would: returns the new length. */
static size_t put(char *buf, size_t size, size_t used, const char *bytes,
                  size_t len) {
  for (size_t i = 0; i < len; i++)
    if (used + i + 1 < size) buf[used + i] = bytes[i];
  return used + len;
}

size_t sudoku_draw(const sudoku_puzzle *puzzle, char *buf, size_t size) {
  int side = puzzle->grid.size, box = sudoku_box_side(side);
  char rule[4 * SUDOKU_MAX_SIDE];
  size_t rule_len = 0, used = 0;
  for (int c = 0; c < side; c++) {
    if (c > 0 && c % box == 0) {
      memcpy(rule + rule_len, "-+-", 3);
      rule_len += 3;
    } else if (c > 0) {
      rule[rule_len++] = '-';
    }
    rule[rule_len++] = '-';
  }
  for (int r = 0; r < side; r++) {
    if (r > 0 && r % box == 0) {
      used = put(buf, size, used, rule, rule_len);
      used = put(buf, size, used, "\n", 1);
    }
    for (int c = 0; c < side; c++) {
      if (c > 0) used = put(buf, size, used, c % box == 0 ? " | " : " ",
                            c % box == 0 ? 3 : 1);
      int v = puzzle->grid.cell[r * side + c];
      used = put(buf, size, used, v ? &puzzle->symbols[v - 1] : ".", 1);
    }
    if (r < side - 1) used = put(buf, size, used, "\n", 1);
  }
  if (size) buf[used < size ? used : size - 1] = '\0';
  return used;
}
