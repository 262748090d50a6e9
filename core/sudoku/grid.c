/*
** grid.c: Sudoku grids: sizes, text in and out, givens and candidates.
*/
#include <string.h>

#include "internal.h"

bool sudoku_size_ok(int size) {
  return size == 4 || size == 9 || size == 16 || size == 25;
}

int sudoku_box_side(int size) {
  return size == 4 ? 2 : size == 9 ? 3 : size == 16 ? 4 : 5;
}

void sudoku_map_units(int size, uint16_t unit[][SUDOKU_MAX_SIDE],
                      uint8_t unit_of[][3], uint8_t place_in[][3]) {
  int box = sudoku_box_side(size);
  for (int cell = 0; cell < size * size; cell++) {
    int r = cell / size, c = cell % size;
    int b = r / box * box + c / box, in_box = r % box * box + c % box;
    unit[r][c] = unit[size + c][r] = unit[2 * size + b][in_box] = (uint16_t)cell;
    unit_of[cell][0] = (uint8_t)r;
    unit_of[cell][1] = (uint8_t)(size + c);
    unit_of[cell][2] = (uint8_t)(2 * size + b);
    place_in[cell][0] = (uint8_t)c;
    place_in[cell][1] = (uint8_t)r;
    place_in[cell][2] = (uint8_t)in_box;
  }
}

void sudoku_init(sudoku_grid *grid, int size) {
  memset(grid, 0, sizeof *grid);
  grid->size = size;
}

/* ---- text ---- */

/* Symbols past P still get values, so that 'Z' on a 25x25 is reported
   as a value out of range rather than as a stray byte. */
static const char default_alphabet[] = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

static bool is_decoration(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f' || c == '|' || c == '-' || c == '+';
}

static unsigned char fold_case(unsigned char c) {
  return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

sudoku_error sudoku_parse(const char *text, size_t len, const char *alphabet,
                          sudoku_grid *grid, sudoku_parse_error *err) {
  sudoku_parse_error scratch;
  if (!err) err = &scratch;
  memset(err, 0, sizeof *err);
  /* value of each byte: 0 empty, 1.. a value, -1 not a cell */
  int value[256];
  for (int c = 0; c < 256; c++) value[c] = -1;
  const char *symbols = alphabet ? alphabet : default_alphabet;
  for (int v = 1; symbols[v - 1] && v <= 255; v++) {
    unsigned char c = fold_case((unsigned char)symbols[v - 1]);
    if (value[c] < 0) value[c] = v;
  }
  value['.'] = 0;
  if (value['0'] < 0) value['0'] = 0;

  int cells = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = fold_case((unsigned char)text[i]);
    if (value[c] >= 0) {
      cells++;
    } else if (!is_decoration(c)) {
      err->code = SUDOKU_ESYMBOL;
      err->at = (int)i;
      return err->code;
    }
  }
  int size = 0;
  for (int s = 4; s <= SUDOKU_MAX_SIDE; s++)
    if (sudoku_size_ok(s) && s * s == cells) size = s;
  if (!size) {
    err->code = SUDOKU_ECOUNT;
    err->cells = cells;
    return err->code;
  }
  sudoku_init(grid, size);
  int n = 0;
  for (size_t i = 0; i < len; i++) {
    int v = value[fold_case((unsigned char)text[i])];
    if (v < 0) continue;
    if (v > size) {
      err->code = SUDOKU_ERANGE;
      err->at = (int)i;
      err->value = v;
      err->size = size;
      err->cell = n;
      return err->code;
    }
    grid->cell[n++] = (uint8_t)v;
  }
  return SUDOKU_OK;
}

char sudoku_symbol(int value) {
  if (value == 0) return '.';
  if (value < 0 || value > SUDOKU_MAX_SIDE) return '?';
  return SUDOKU_SYMBOLS[value - 1];
}

size_t sudoku_format(const sudoku_grid *grid, char *buf, size_t bufsize) {
  size_t cells = sudoku_size_ok(grid->size)
                     ? (size_t)grid->size * (size_t)grid->size : 0;
  if (bufsize > 0) {
    size_t n = cells < bufsize - 1 ? cells : bufsize - 1;
    for (size_t i = 0; i < n; i++) buf[i] = sudoku_symbol(grid->cell[i]);
    buf[n] = '\0';
  }
  return cells;
}

/* ---- givens ---- */

static void set_clash(sudoku_clash *clash, int size, int first, int second,
                      int value) {
  if (!clash) return;
  clash->row1 = first / size;
  clash->col1 = first % size;
  clash->row2 = second / size;
  clash->col2 = second % size;
  clash->value = value;
}

/* The given before cell i that v clashes with: in its row if there is
   one, else its column, else its box (each unit holds at most one, as
   the scan stops at the first clash). */
static int earlier_given(const sudoku_grid *grid, int box, int i, int v) {
  int size = grid->size, r = i / size, c = i % size;
  int b = r / box * box + c / box, in_column = -1, in_box = -1;
  for (int j = 0; j < i; j++) {
    if (grid->cell[j] != v) continue;
    int rj = j / size, cj = j % size;
    if (rj == r) return j;
    if (cj == c && in_column < 0) in_column = j;
    if (rj / box * box + cj / box == b && in_box < 0) in_box = j;
  }
  return in_column >= 0 ? in_column : in_box;
}

sudoku_error sudoku_check_givens(const sudoku_grid *grid, sudoku_clash *clash) {
  if (clash) memset(clash, 0, sizeof *clash);
  int size = grid->size;
  if (!sudoku_size_ok(size)) return SUDOKU_ESIZE;
  int box = sudoku_box_side(size);
  /* the values seen so far in each row, column and box, as bits: small
     enough to clear for every solve */
  uint32_t rows[SUDOKU_MAX_SIDE] = {0}, cols[SUDOKU_MAX_SIDE] = {0},
           boxes[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0, r = 0, c = 0; i < size * size; i++) {
    int v = grid->cell[i];
    if (v != 0) {
      if (v > size) {
        set_clash(clash, size, i, i, v);
        return SUDOKU_ERANGE;
      }
      int b = r / box * box + c / box;
      uint32_t bit = UINT32_C(1) << v;
      if ((rows[r] | cols[c] | boxes[b]) & bit) {
        set_clash(clash, size, earlier_given(grid, box, i, v), i, v);
        return SUDOKU_ECLASH;
      }
      rows[r] |= bit;
      cols[c] |= bit;
      boxes[b] |= bit;
    }
    if (++c == size) {
      c = 0;
      r++;
    }
  }
  return SUDOKU_OK;
}

bool sudoku_candidates(const sudoku_grid *grid, uint32_t *masks) {
  if (sudoku_check_givens(grid, NULL) != SUDOKU_OK) return false;
  int size = grid->size, box = sudoku_box_side(size);
  uint32_t rows[SUDOKU_MAX_SIDE] = {0}, cols[SUDOKU_MAX_SIDE] = {0},
           boxes[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0; i < size * size; i++) {
    if (!grid->cell[i]) continue;
    uint32_t bit = UINT32_C(1) << (grid->cell[i] - 1);
    int r = i / size, c = i % size;
    rows[r] |= bit;
    cols[c] |= bit;
    boxes[r / box * box + c / box] |= bit;
  }
  uint32_t all = (UINT32_C(1) << size) - 1;
  for (int i = 0; i < size * size; i++) {
    int r = i / size, c = i % size;
    masks[i] = grid->cell[i]
                   ? UINT32_C(1) << (grid->cell[i] - 1)
                   : all & ~(rows[r] | cols[c] | boxes[r / box * box + c / box]);
  }
  return true;
}

bool sudoku_is_solution(const sudoku_grid *grid, const sudoku_grid *puzzle) {
  int size = grid->size;
  if (!sudoku_size_ok(size)) return false;
  if (puzzle && puzzle->size != size) return false;
  int box = sudoku_box_side(size);
  uint32_t rows[SUDOKU_MAX_SIDE] = {0}, cols[SUDOKU_MAX_SIDE] = {0},
           boxes[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0; i < size * size; i++) {
    int v = grid->cell[i];
    if (v < 1 || v > size) return false;
    if (puzzle && puzzle->cell[i] && puzzle->cell[i] != v) return false;
    uint32_t bit = UINT32_C(1) << (v - 1);
    int r = i / size, c = i % size;
    rows[r] |= bit;
    cols[c] |= bit;
    boxes[r / box * box + c / box] |= bit;
  }
  uint32_t all = (UINT32_C(1) << size) - 1;
  for (int u = 0; u < size; u++)
    if (rows[u] != all || cols[u] != all || boxes[u] != all) return false;
  return true;
}
