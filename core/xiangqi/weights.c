/*
** weights.c: the evaluation's weights (eval.h names them), as
** tools/train_xiangqi.c writes them: `make xiangqi-weights` fits them
** anew.
*/
#include "eval.h"

const int16_t xq_weights[XQ_WEIGHTS] = {
  /* material (middlegame) */
  0, 133, 113, 219, 613, 286, 43,
  /* material (endgame) */
  0, 111, 130, 326, 668, 314, 83,
  /* soldier placement */
  0, 0, 0, 0, 0,
  0, 0, 0, 0, 0,
  0, 0, 0, 0, 0,
  -26, 0, -12, 0, 12,
  -9, 0, 14, 0, 35,
  -6, 15, 20, 63, 44,
  16, 50, 43, 60, 55,
  22, 22, 48, 68, 70,
  16, 31, 54, 71, 59,
  -1, 2, 8, 9, 15,
  /* horse placement */
  -24, -40, 12, -27, -6,
  -39, -9, -33, -25, -18,
  -18, -31, -19, 12, -6,
  9, -19, 31, 7, -8,
  -1, 10, 17, 23, 51,
  2, 34, 2, 26, 33,
  24, 21, 1, 56, 27,
  15, 16, 9, 32, 31,
  -8, 24, 58, 41, 6,
  12, -10, -6, 1, 2,
  /* chariot placement */
  -35, 9, -10, -10, -1,
  -25, 16, 22, 1, -2,
  -8, 3, -4, 27, 8,
  25, 37, 34, 22, 33,
  13, 34, 36, 15, 17,
  -3, 13, 15, -22, 8,
  17, 21, 30, 12, 9,
  17, -8, 14, -11, 11,
  5, -3, 4, 6, 33,
  21, 17, 14, 29, 16,
  /* cannon placement */
  5, 7, -1, -16, 5,
  2, -15, 25, -8, 21,
  -10, -5, 18, -4, 22,
  19, -31, -6, -32, 12,
  39, 0, 29, -10, -3,
  2, -2, 8, -16, 17,
  -3, -3, -6, 6, 28,
  7, -17, -24, -22, -12,
  15, 26, -22, -10, -11,
  70, 45, 6, -8, -7,
  /* general placement */
  11, 22,
  -15, -14,
  -44, -26,
  /* advisor and elephant placement */
  0, 0, -5, -2, 0,
  0, 0, 0, 0, 15,
  -8, 0, 0, -18, 15,
  0, 0, 0, 0, 0,
  0, 0, -11, 0, 0,
  /* horse mobility */
  6, 13,
  /* chariot mobility */
  2, 8,
  /* cannon mobility */
  -1, 7,
  /* trapped horse */
  -20, -25,
  /* soldier across the river */
  37, 47,
  /* connected soldiers */
  -4, 1,
  /* connected chariots */
  5, 8,
  /* empty-headed cannon */
  76, 27,
  /* cannon on the general's file */
  24, 33,
  /* pinning chariot */
  10, 21,
  /* horse on palace points */
  5, 4,
  /* danger (middlegame) */
  -17, -22, -43, -36, -32, -32, -51, -82,
  -63, -84, -119, -133, -161, -192, -227, -263,
  -294, -331, -369, -413, -456, -500, -546, -594,
  -644, -696, -750, -806, -864, -924, -986, -1050,
  /* danger (endgame) */
  16, 8, -11, -15, -18, -15, -8, -25,
  -30, -21, -25, -44, -38, -46, -57, -64,
  -70, -83, -89, -101, -114, -124, -136, -148,
  -161, -174, -187, -201, -216, -231, -246, -262,
  /* threat by a cheaper piece (middlegame) */
  0, -37, -31, -48, -83, -50, -10,
  /* threat by a cheaper piece (endgame) */
  0, -31, -32, -58, -120, -49, -10,
  /* hanging piece (middlegame) */
  0, -23, -24, -32, -59, -30, -7,
  /* hanging piece (endgame) */
  0, -21, -21, -50, -69, -38, -26,
  /* tempo */
  18,
};
