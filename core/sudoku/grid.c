/*
** grid.c: Sudoku grids: sizes, text in and out, givens and candidates.
*/
#include <stdio.h>
#include <string.h>

#include "internal.h"

bool sudoku_default_box(int size, int *rows, int *cols) {
  if (size < SUDOKU_MIN_SIDE || size > SUDOKU_MAX_SIDE) return false;
  for (int r = 8; r >= 2; r--)
    if (r * r <= size && size % r == 0) {
      *rows = r;
      *cols = size / r;
      return true;
    }
  return false;
}

bool sudoku_size_ok(int size) {
  int rows, cols;
  return sudoku_default_box(size, &rows, &cols);
}

bool sudoku_shape_ok(int size, int rows, int cols) {
  return size >= SUDOKU_MIN_SIDE && size <= SUDOKU_MAX_SIDE && rows >= 1 &&
         cols >= 1 && rows * cols == size;
}

bool sudoku_grid_shape(const sudoku_grid *grid, int *rows, int *cols) {
  if (grid->box_rows == 0 && grid->box_cols == 0)
    return sudoku_default_box(grid->size, rows, cols);
  if (!sudoku_shape_ok(grid->size, grid->box_rows, grid->box_cols))
    return false;
  *rows = grid->box_rows;
  *cols = grid->box_cols;
  return true;
}

void sudoku_map_units(int size, int box_rows, int box_cols,
                      uint16_t unit[][SUDOKU_MAX_SIDE], uint8_t unit_of[][3],
                      uint8_t place_in[][3]) {
  for (int cell = 0; cell < size * size; cell++) {
    int r = cell / size, c = cell % size;
    int b = sudoku_box_of(size, box_rows, box_cols, cell);
    int in_box = r % box_rows * box_cols + c % box_cols;
    unit[r][c] = unit[size + c][r] = unit[2 * size + b][in_box] = (uint16_t)cell;
    unit_of[cell][0] = (uint8_t)r;
    unit_of[cell][1] = (uint8_t)(size + c);
    unit_of[cell][2] = (uint8_t)(2 * size + b);
    place_in[cell][0] = (uint8_t)c;
    place_in[cell][1] = (uint8_t)r;
    place_in[cell][2] = (uint8_t)in_box;
  }
}

void sudoku_layout_boxes(sudoku_layout *l, int size, int box_rows,
                         int box_cols) {
  l->size = size;
  l->units = 0;
  l->box_rows = box_rows;
  l->box_cols = box_cols;
  l->boxes = box_rows >= 2 && box_cols >= 2;
  memset(l->count, 0, (size_t)(size * size));
  uint16_t unit[SUDOKU_MAX_SIDE];
  for (int r = 0; r < size; r++) {
    for (int c = 0; c < size; c++) unit[c] = (uint16_t)(r * size + c);
    sudoku_layout_add(l, unit);
  }
  for (int c = 0; c < size; c++) {
    for (int r = 0; r < size; r++) unit[r] = (uint16_t)(r * size + c);
    sudoku_layout_add(l, unit);
  }
  for (int b = 0; b < size; b++) {
    int top = b / box_rows * box_rows, left = b % box_rows * box_cols;
    for (int i = 0; i < size; i++)
      unit[i] = (uint16_t)((top + i / box_cols) * size + left + i % box_cols);
    sudoku_layout_add(l, unit);
  }
}

bool sudoku_layout_add(sudoku_layout *l, const uint16_t *cells) {
  if (l->units == SUDOKU_MAX_UNITS_ALL) return false;
  for (int i = 0; i < l->size; i++)
    if (l->count[cells[i]] == SUDOKU_MAX_CELL_UNITS) return false;
  int k = l->units++;
  for (int i = 0; i < l->size; i++) {
    int cell = cells[i], t = l->count[cell]++;
    l->unit[k][i] = (uint16_t)cell;
    l->unit_of[cell][t] = (uint16_t)k;
    l->place_in[cell][t] = (uint8_t)i;
  }
  return true;
}

/* Only the cells of the side are cleared: a 64x64 is 4 KB, and the 9x9
   solver makes a grid for every solution it reports. */
void sudoku_init_shape(sudoku_grid *grid, int size, int rows, int cols) {
  grid->size = size;
  grid->box_rows = rows;
  grid->box_cols = cols;
  if (size > 0 && size <= SUDOKU_MAX_SIDE)
    memset(grid->cell, 0, (size_t)(size * size));
}

void sudoku_init(sudoku_grid *grid, int size) {
  int rows = 0, cols = 0;
  sudoku_default_box(size, &rows, &cols);
  sudoku_init_shape(grid, size, rows, cols);
}

void sudoku_copy(sudoku_grid *to, const sudoku_grid *from) {
  int size = from->size > 0 && from->size <= SUDOKU_MAX_SIDE ? from->size : 0;
  to->size = from->size;
  to->box_rows = from->box_rows;
  to->box_cols = from->box_cols;
  memcpy(to->cell, from->cell, (size_t)(size * size));
}

bool sudoku_same(const sudoku_grid *a, const sudoku_grid *b) {
  int ar, ac, br, bc;
  if (a->size != b->size || !sudoku_grid_shape(a, &ar, &ac) ||
      !sudoku_grid_shape(b, &br, &bc) || ar != br || ac != bc)
    return false;
  return memcmp(a->cell, b->cell, (size_t)(a->size * a->size)) == 0;
}

/* ---- text ---- */

/* Symbols past Z still get values ('[' and on are not letters, so the
   table stops there), so that 'Z' on a 25x25 is reported as a value out
   of range rather than as a stray byte. */
static const char default_alphabet[] = SUDOKU_SYMBOLS;

static bool is_decoration(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f' || c == '|' || c == '-' || c == '+';
}

/* Between numbers, ',' and ';' separate too. */
static bool is_separator(unsigned char c) {
  return is_decoration(c) || c == ',' || c == ';';
}

static unsigned char fold_case(unsigned char c) {
  return c >= 'a' && c <= 'z' ? (unsigned char)(c - 'a' + 'A') : c;
}

/* The side whose square is cells, 0 when there is none from 4 to 64. */
static int side_of_cells(int cells) {
  for (int s = SUDOKU_MIN_SIDE; s <= SUDOKU_MAX_SIDE; s++)
    if (s * s == cells) return s;
  return 0;
}

/* The cells of text written as numbers, a token each: a run of bytes
   between separators, '.' or a decimal number (0 empty).  -1 with
   err->at on a token that is neither. */
static int count_numbers(const char *text, size_t len, sudoku_parse_error *err) {
  int cells = 0;
  for (size_t i = 0; i < len;) {
    if (is_separator((unsigned char)text[i])) {
      i++;
      continue;
    }
    size_t start = i;
    bool digits = true;
    while (i < len && !is_separator((unsigned char)text[i])) {
      digits = digits && text[i] >= '0' && text[i] <= '9';
      i++;
    }
    if (!digits && !(i - start == 1 && text[start] == '.')) {
      err->at = (int)start;
      return -1;
    }
    cells++;
  }
  return cells;
}

static sudoku_error parse_numbers(const char *text, size_t len,
                                  sudoku_grid *grid, sudoku_parse_error *err) {
  int cells = count_numbers(text, len, err);
  if (cells < 0) {
    err->code = SUDOKU_ESYMBOL;
    return err->code;
  }
  int size = side_of_cells(cells);
  if (!size) {
    err->code = SUDOKU_ECOUNT;
    err->cells = cells;
    return err->code;
  }
  sudoku_init(grid, size);
  int n = 0;
  for (size_t i = 0; i < len;) {
    if (is_separator((unsigned char)text[i])) {
      i++;
      continue;
    }
    size_t start = i;
    int v = 0;
    while (i < len && !is_separator((unsigned char)text[i])) {
      if (text[i] != '.' && v <= 999) v = 10 * v + (text[i] - '0');
      i++;
    }
    if (v > size) {
      err->code = SUDOKU_ERANGE;
      err->at = (int)start;
      err->value = v;
      err->size = size;
      err->cell = n;
      return err->code;
    }
    grid->cell[n++] = (uint8_t)v;
  }
  return SUDOKU_OK;
}

/* The value of each byte in an alphabet: 0 empty, 1.. a value, -1 not
   a cell. */
static void symbol_values(const char *alphabet, int value[256]) {
  for (int c = 0; c < 256; c++) value[c] = -1;
  const char *symbols = alphabet ? alphabet : default_alphabet;
  for (int v = 1; symbols[v - 1] && v <= 255; v++) {
    unsigned char c = fold_case((unsigned char)symbols[v - 1]);
    if (value[c] < 0) value[c] = v;
  }
  value['.'] = 0;
  if (value['0'] < 0) value['0'] = 0;
}

/* The cells of text in symbols; -1 with err->at on a byte that is
   neither a cell nor a decoration. */
static int count_symbols(const char *text, size_t len, const int value[256],
                         sudoku_parse_error *err) {
  int cells = 0;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = fold_case((unsigned char)text[i]);
    if (value[c] >= 0) {
      cells++;
    } else if (!is_decoration(c)) {
      err->at = (int)i;
      return -1;
    }
  }
  return cells;
}

int sudoku_count_cells(const char *text, size_t len, const char *alphabet) {
  sudoku_parse_error err;
  if (alphabet && !alphabet[0]) return count_numbers(text, len, &err);
  int value[256];
  symbol_values(alphabet, value);
  return count_symbols(text, len, value, &err);
}

sudoku_error sudoku_parse(const char *text, size_t len, const char *alphabet,
                          sudoku_grid *grid, sudoku_parse_error *err) {
  sudoku_parse_error scratch;
  if (!err) err = &scratch;
  memset(err, 0, sizeof *err);
  if (alphabet && !alphabet[0]) return parse_numbers(text, len, grid, err);
  int value[256];
  symbol_values(alphabet, value);
  int cells = count_symbols(text, len, value, err);
  if (cells < 0) {
    err->code = SUDOKU_ESYMBOL;
    return err->code;
  }
  int size = side_of_cells(cells);
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
  if (value < 0 || value > SUDOKU_MAX_LETTERED) return '?';
  return SUDOKU_SYMBOLS[value - 1];
}

size_t sudoku_format(const sudoku_grid *grid, char *buf, size_t bufsize) {
  int size = grid->size >= SUDOKU_MIN_SIDE && grid->size <= SUDOKU_MAX_SIDE
                 ? grid->size : 0;
  size_t cells = (size_t)size * (size_t)size, used = 0;
  for (size_t i = 0; i < cells; i++) {
    char word[4];
    int v = grid->cell[i], n;
    if (size <= SUDOKU_MAX_LETTERED) {
      word[0] = sudoku_symbol(v);
      n = 1;
    } else {
      n = v ? snprintf(word, sizeof word, "%d", v < 100 ? v : 99) : 1;
      if (!v) word[0] = '.';
      if (i > 0) {
        if (used + 1 < bufsize) buf[used] = ' ';
        used++;
      }
    }
    for (int k = 0; k < n; k++, used++)
      if (used + 1 < bufsize) buf[used] = word[k];
  }
  if (bufsize > 0) buf[used < bufsize ? used : bufsize - 1] = '\0';
  return used;
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
static int earlier_given(const sudoku_grid *grid, int rows, int cols, int i,
                         int v) {
  int size = grid->size, r = i / size, c = i % size;
  int b = sudoku_box_of(size, rows, cols, i), in_column = -1, in_box = -1;
  for (int j = 0; j < i; j++) {
    if (grid->cell[j] != v) continue;
    int rj = j / size, cj = j % size;
    if (rj == r) return j;
    if (cj == c && in_column < 0) in_column = j;
    if (sudoku_box_of(size, rows, cols, j) == b && in_box < 0) in_box = j;
  }
  return in_column >= 0 ? in_column : in_box;
}

sudoku_error sudoku_check_givens(const sudoku_grid *grid, sudoku_clash *clash) {
  if (clash) memset(clash, 0, sizeof *clash);
  int size = grid->size, rows, cols;
  if (!sudoku_grid_shape(grid, &rows, &cols)) return SUDOKU_ESIZE;
  /* the values seen so far in each row, column and box, as bits: small
     enough to clear for every solve */
  sudoku_mask in_row[SUDOKU_MAX_SIDE] = {0}, in_col[SUDOKU_MAX_SIDE] = {0},
              in_box[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0, r = 0, c = 0; i < size * size; i++) {
    int v = grid->cell[i];
    if (v != 0) {
      if (v > size) {
        set_clash(clash, size, i, i, v);
        return SUDOKU_ERANGE;
      }
      int b = r / rows * rows + c / cols;
      sudoku_mask bit = UINT64_C(1) << (v - 1);
      if ((in_row[r] | in_col[c] | in_box[b]) & bit) {
        set_clash(clash, size, earlier_given(grid, rows, cols, i, v), i, v);
        return SUDOKU_ECLASH;
      }
      in_row[r] |= bit;
      in_col[c] |= bit;
      in_box[b] |= bit;
    }
    if (++c == size) {
      c = 0;
      r++;
    }
  }
  return SUDOKU_OK;
}

bool sudoku_candidates(const sudoku_grid *grid, sudoku_mask *masks) {
  if (sudoku_check_givens(grid, NULL) != SUDOKU_OK) return false;
  int size = grid->size, rows, cols;
  sudoku_grid_shape(grid, &rows, &cols);
  sudoku_mask in_row[SUDOKU_MAX_SIDE] = {0}, in_col[SUDOKU_MAX_SIDE] = {0},
              in_box[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0; i < size * size; i++) {
    if (!grid->cell[i]) continue;
    sudoku_mask bit = UINT64_C(1) << (grid->cell[i] - 1);
    in_row[i / size] |= bit;
    in_col[i % size] |= bit;
    in_box[sudoku_box_of(size, rows, cols, i)] |= bit;
  }
  sudoku_mask all = sudoku_all_values(size);
  for (int i = 0; i < size * size; i++)
    masks[i] = grid->cell[i]
                   ? UINT64_C(1) << (grid->cell[i] - 1)
                   : all & ~(in_row[i / size] | in_col[i % size] |
                             in_box[sudoku_box_of(size, rows, cols, i)]);
  return true;
}

bool sudoku_is_solution(const sudoku_grid *grid, const sudoku_grid *puzzle) {
  int size = grid->size, rows, cols;
  if (!sudoku_grid_shape(grid, &rows, &cols)) return false;
  if (puzzle && puzzle->size != size) return false;
  sudoku_mask in_row[SUDOKU_MAX_SIDE] = {0}, in_col[SUDOKU_MAX_SIDE] = {0},
              in_box[SUDOKU_MAX_SIDE] = {0};
  for (int i = 0; i < size * size; i++) {
    int v = grid->cell[i];
    if (v < 1 || v > size) return false;
    if (puzzle && puzzle->cell[i] && puzzle->cell[i] != v) return false;
    sudoku_mask bit = UINT64_C(1) << (v - 1);
    in_row[i / size] |= bit;
    in_col[i % size] |= bit;
    in_box[sudoku_box_of(size, rows, cols, i)] |= bit;
  }
  sudoku_mask all = sudoku_all_values(size);
  for (int u = 0; u < size; u++)
    if (in_row[u] != all || in_col[u] != all || in_box[u] != all) return false;
  return true;
}
