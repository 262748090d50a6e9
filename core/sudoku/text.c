/*
** text.c: puzzles as people write them.  The symbols are guessed from
** the text when none are given, the side follows from the cells, and
** every refusal is a message that names the cell or byte at fault.
*/
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

static const char *const sizes_allowed =
    "a square, from 16 (4x4) to 4096 (64x64)";

static unsigned char fold_case(unsigned char c) {
  return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

size_t sudoku_puzzle_bytes(int size) {
  if (size < 0 || size > SUDOKU_MAX_SIDE) size = SUDOKU_MAX_SIDE;
  return offsetof(sudoku_puzzle, grid) + offsetof(sudoku_grid, cell) +
         (size_t)(size * size);
}

bool sudoku_symbols_ok(const char *symbols, size_t len) {
  if (len < SUDOKU_MIN_SIDE || len > SUDOKU_MAX_SIDE) return false;
  bool seen[256] = {false};
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)symbols[i];
    /* the reader folds case, so 'a' and 'A' would read as one value */
    unsigned char folded = fold_case(c);
    if (c <= 32 || c >= 127 || strchr(".|-+,;", c) || seen[folded])
      return false;
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

/* Numbers: every token between separators a number or '.', the
   numbers no more than 64 and one of them past 9 (else the digits read
   the same either way), as many tokens as the cells of a side. */
static bool is_numbers(const char *text, size_t len) {
  int tokens = 0;
  bool over_nine = false;
  for (size_t i = 0; i < len;) {
    unsigned char c = (unsigned char)text[i];
    if (isspace(c) || strchr("|-+,;", c)) {
      i++;
      continue;
    }
    size_t start = i;
    int v = 0;
    while (i < len && !isspace((unsigned char)text[i]) &&
           !strchr("|-+,;", text[i])) {
      if (text[i] < '0' || text[i] > '9') {
        if (text[i] != '.' || i > start) return false;
      } else if ((v = 10 * v + text[i] - '0') > SUDOKU_MAX_SIDE) {
        return false;
      }
      i++;
    }
    if (text[start] == '.' && i - start > 1) return false;
    over_nine = over_nine || v > 9;
    tokens++;
  }
  return over_nine && tokens >= 16 && tokens <= SUDOKU_MAX_CELLS;
}

/* 16x16: 0-F when '0' is a value (at most once a row: no more than 16
   of them) and no 'G' appears; 25x25: A-Y when no digit 1-9 appears.
   Only the number of letters, digits and dots counts, so the side is
   known first. */
const char *sudoku_guess_symbols(const char *text, size_t len) {
  if (is_numbers(text, len)) return SUDOKU_NUMBERS;
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
  if (symbols && symbols[0]) snprintf(buf, bufsize, "%s", symbols);
  else if (size <= 9) snprintf(buf, bufsize, "1-%d", size);
  else if (symbols || size > SUDOKU_MAX_LETTERED)
    snprintf(buf, bufsize, "1 to %d", size);
  else snprintf(buf, bufsize, "1-9 and A-%c", SUDOKU_SYMBOLS[size - 1]);
}

int sudoku_clash_unit(const sudoku_clash *clash, int size) {
  if (clash->row1 == clash->row2) return clash->row1;
  if (clash->col1 == clash->col2) return size + clash->col1;
  int rows, cols;
  sudoku_default_box(size, &rows, &cols);
  return 2 * size + clash->row1 / rows * rows + clash->col1 / cols;
}

/* As sudoku_clash_unit, for a grid of any box shape. */
static int clash_unit(const sudoku_clash *clash, const sudoku_grid *grid) {
  int size = grid->size, rows, cols;
  if (clash->row1 == clash->row2) return clash->row1;
  if (clash->col1 == clash->col2) return size + clash->col1;
  sudoku_grid_shape(grid, &rows, &cols);
  return 2 * size + clash->row1 / rows * rows + clash->col1 / cols;
}

/* "2x3 boxes make a 6x6, not a 9x9" and the like. */
static void shape_message(int side, int rows, int cols, char *message,
                          size_t size) {
  if (side < SUDOKU_MIN_SIDE || side > SUDOKU_MAX_SIDE)
    snprintf(message, size, "a grid of side %d (the sides are 4 to 64)", side);
  else if (rows == 0 && cols == 0)
    snprintf(message, size, "a %dx%d has no default boxes (%d is prime): "
             "give box = {1, %d} (a Latin square) or a variant's regions",
             side, side, side, side);
  else
    snprintf(message, size, "boxes of %dx%d do not make a %dx%d (%d x %d "
             "must be %d)", rows, cols, side, side, rows, cols, side);
}

sudoku_error sudoku_make_puzzle(const sudoku_grid *grid, const char *symbols,
                                sudoku_puzzle *puzzle, char *message,
                                size_t size) {
  int side = grid->size, rows, cols;
  if (!sudoku_grid_shape(grid, &rows, &cols)) {
    shape_message(side, grid->box_rows, grid->box_cols, message, size);
    return SUDOKU_ESIZE;
  }
  if (!symbols && side > SUDOKU_MAX_LETTERED) symbols = SUDOKU_NUMBERS;
  size_t len = !symbols ? (size_t)side : !symbols[0] ? (size_t)side
                                                     : strlen(symbols);
  if (len != (size_t)side) {
    snprintf(message, size, "symbols '%s' has %zu symbols, but a %dx%d "
             "needs %d", symbols, len, side, side, side);
    return SUDOKU_EALPHABET;
  }
  bool numbers = symbols && !symbols[0];
  const char *written = symbols ? symbols : SUDOKU_SYMBOLS;
  sudoku_clash clash;
  sudoku_error e = sudoku_check_givens(grid, &clash);
  if (e == SUDOKU_ERANGE) {
    snprintf(message, size, "r%dc%d is %d, but a %dx%d takes 1 to %d",
             clash.row1 + 1, clash.col1 + 1, clash.value, side, side, side);
    return e;
  }
  if (e == SUDOKU_ECLASH) {
    char unit[32], value[8];
    sudoku_unit_name(side, clash_unit(&clash, grid), unit, sizeof unit);
    if (numbers) snprintf(value, sizeof value, "%d", clash.value);
    else snprintf(value, sizeof value, "%c", written[clash.value - 1]);
    snprintf(message, size, "r%dc%d and r%dc%d are both %s (%s)",
             clash.row1 + 1, clash.col1 + 1, clash.row2 + 1, clash.col2 + 1,
             value, unit);
    return e;
  }
  sudoku_copy(&puzzle->grid, grid);
  puzzle->grid.box_rows = rows;
  puzzle->grid.box_cols = cols;
  memset(puzzle->symbols, 0, sizeof puzzle->symbols);
  if (!numbers) memcpy(puzzle->symbols, written, (size_t)side);
  if (size) message[0] = '\0';
  return SUDOKU_OK;
}

sudoku_error sudoku_read(const char *text, size_t len, const char *symbols,
                         int box_rows, int box_cols, sudoku_puzzle *puzzle,
                         char *message, size_t size) {
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
    if (symbols && !symbols[0])
      snprintf(message, size, "%s at position %d is not a cell (cells are "
               "numbers from 1 to 64, '.' or 0 for empty, between spaces)",
               shown, err.at + 1);
    else
      snprintf(message, size, "%s at position %d is not a cell (cells are %s, "
               "'.'%s for empty; spaces and | - + are ignored)", shown,
               err.at + 1, symbols ? symbols : "1-9 and A-Z",
               symbols && strchr(symbols, '0') ? "" : " or '0'");
    return e;
  }
  /* the side is known now: the symbols must write every value of it */
  int side = e == SUDOKU_ERANGE ? err.size : grid.size;
  if (box_rows || box_cols) {
    if (!sudoku_shape_ok(side, box_rows, box_cols)) {
      shape_message(side, box_rows, box_cols, message, size);
      return SUDOKU_ESIZE;
    }
    grid.box_rows = box_rows;
    grid.box_cols = box_cols;
  } else if (!sudoku_size_ok(side)) {
    shape_message(side, 0, 0, message, size);
    return SUDOKU_ESIZE;
  }
  if (symbols && symbols[0] && strlen(symbols) != (size_t)side) {
    snprintf(message, size, "symbols '%s' has %zu symbols, but a %dx%d "
             "needs %d", symbols, strlen(symbols), side, side, side);
    return SUDOKU_EALPHABET;
  }
  if (e == SUDOKU_ERANGE) {
    char range[SUDOKU_MAX_SIDE + 1];
    symbol_range(symbols, side, range, sizeof range);
    if (symbols && !symbols[0])
      snprintf(message, size, "r%dc%d is %d, but a %dx%d takes %s",
               err.cell / side + 1, err.cell % side + 1, err.value, side,
               side, range);
    else
      snprintf(message, size, "r%dc%d is '%c' (%d), but a %dx%d takes %s",
               err.cell / side + 1, err.cell % side + 1, text[err.at],
               err.value, side, side, range);
    return e;
  }
  return sudoku_make_puzzle(&grid, symbols, puzzle, message, size);
}

/* Adds len bytes to buf as snprintf would: returns the new length. */
static size_t put(char *buf, size_t size, size_t used, const char *bytes,
                  size_t len) {
  for (size_t i = 0; i < len; i++)
    if (used + i + 1 < size) buf[used + i] = bytes[i];
  return used + len;
}

/* A value in the puzzle's symbols, or as a number right-aligned to
   width; returns its length. */
static size_t cell_text(const sudoku_puzzle *puzzle, int v, int width,
                        char *out) {
  if (puzzle->symbols[0]) {
    out[0] = v ? puzzle->symbols[v - 1] : '.';
    return 1;
  }
  char number[8];
  if (v) snprintf(number, sizeof number, "%d", v);
  else snprintf(number, sizeof number, ".");
  return (size_t)snprintf(out, 8, "%*s", width, number);
}

size_t sudoku_write(const sudoku_puzzle *puzzle, char *buf, size_t size) {
  int cells = puzzle->grid.size * puzzle->grid.size;
  size_t used = 0;
  for (int i = 0; i < cells; i++) {
    char word[8];
    if (i > 0 && !puzzle->symbols[0]) used = put(buf, size, used, " ", 1);
    used = put(buf, size, used, word,
               cell_text(puzzle, puzzle->grid.cell[i], 0, word));
  }
  if (size) buf[used < size ? used : size - 1] = '\0';
  return used;
}

size_t sudoku_draw(const sudoku_puzzle *puzzle, char *buf, size_t size) {
  int side = puzzle->grid.size, rows, cols;
  if (!sudoku_grid_shape(&puzzle->grid, &rows, &cols)) {
    if (size) buf[0] = '\0';
    return 0;
  }
  int width = puzzle->symbols[0] ? 1 : side >= 10 ? 2 : 1;
  if (rows == 1 || cols == 1) rows = cols = side;   /* no boxes: no lines */
  char rule[4 * SUDOKU_MAX_SIDE];
  size_t rule_len = 0, used = 0;
  for (int c = 0; c < side; c++) {
    if (c > 0 && c % cols == 0) {
      memcpy(rule + rule_len, "-+-", 3);
      rule_len += 3;
    } else if (c > 0) {
      rule[rule_len++] = '-';
    }
    for (int k = 0; k < width; k++) rule[rule_len++] = '-';
  }
  for (int r = 0; r < side; r++) {
    if (r > 0 && r % rows == 0) {
      used = put(buf, size, used, rule, rule_len);
      used = put(buf, size, used, "\n", 1);
    }
    for (int c = 0; c < side; c++) {
      if (c > 0) used = put(buf, size, used, c % cols == 0 ? " | " : " ",
                            c % cols == 0 ? 3 : 1);
      char word[8];
      used = put(buf, size, used, word,
                 cell_text(puzzle, puzzle->grid.cell[r * side + c], width,
                           word));
    }
    if (r < side - 1) used = put(buf, size, used, "\n", 1);
  }
  if (size) buf[used < size ? used : size - 1] = '\0';
  return used;
}
