/*
** train_xiangqi_prior.h: the evaluation's weights as they were set by
** hand, where tools/train_xiangqi.c starts from: its searches label the
** games with them and the fit pulls each weight towards its value here,
** so that `make xiangqi-weights` gives the same weights.c however often
** it runs.
*/
static const int16_t prior_weights[XQ_WEIGHTS] = {
  /* material (middlegame) */
  0, 120, 120, 270, 600, 290, 30,
  /* material (endgame) */
  0, 130, 130, 300, 640, 260, 40,
  /* soldier placement */
  0, 0, 0, 0, 0,
  0, 0, 0, 0, 0,
  0, 0, 0, 0, 0,
  0, 0, -2, 0, 4,
  2, 0, 8, 0, 10,
  10, 18, 22, 35, 40,
  20, 27, 40, 50, 55,
  20, 30, 50, 65, 70,
  20, 30, 45, 55, 55,
  0, 3, 6, 10, 15,
  /* horse placement */
  -6, -10, -2, -6, -6,
  -4, -2, 2, 0, -10,
  2, 0, 8, 4, 8,
  0, 2, 8, 8, 8,
  0, 8, 12, 14, 16,
  2, 10, 16, 18, 20,
  4, 18, 14, 24, 16,
  4, 10, 28, 20, 14,
  0, 8, 16, 22, 6,
  0, -4, 0, 2, 0,
  /* chariot placement */
  -6, 6, 4, 12, 0,
  5, 8, 6, 12, 0,
  -2, 8, 4, 12, 12,
  4, 9, 4, 12, 14,
  8, 12, 12, 14, 15,
  8, 11, 11, 14, 15,
  6, 13, 13, 16, 16,
  6, 8, 7, 14, 16,
  6, 12, 9, 16, 30,
  6, 8, 7, 13, 14,
  /* cannon placement */
  0, 0, 2, 6, 6,
  0, 2, 4, 6, 6,
  4, 0, 8, 6, 14,
  0, 0, 0, 2, 4,
  -2, 0, 4, 2, 6,
  0, 0, 0, 2, 8,
  0, 0, -2, 4, 10,
  2, 2, 0, -6, -4,
  2, 2, 0, -4, -10,
  6, 4, 0, -6, -8,
  /* general placement */
  -6, 4,
  -12, -8,
  -24, -20,
  /* advisor and elephant placement */
  0, 0, 0, 0, 0,
  0, 0, 0, 0, 3,
  -2, 0, 0, -2, 3,
  0, 0, 0, 0, 0,
  0, 0, -3, 0, 0,
  /* horse mobility */
  6, 6,
  /* chariot mobility */
  2, 2,
  /* cannon mobility */
  1, 0,
  /* trapped horse */
  -20, -20,
  /* soldier across the river */
  0, 20,
  /* connected soldiers */
  12, 12,
  /* connected chariots */
  14, 7,
  /* empty-headed cannon */
  80, 40,
  /* cannon on the general's file */
  24, 12,
  /* pinning chariot */
  20, 20,
  /* horse on palace points */
  14, 0,
  /* danger (middlegame) */
  0, 0, -6, -14, -24, -36, -50, -66,
  -84, -104, -126, -150, -176, -204, -234, -266,
  -300, -336, -374, -414, -456, -500, -546, -594,
  -644, -696, -750, -806, -864, -924, -986, -1050,
  /* danger (endgame) */
  0, 0, -1, -3, -6, -9, -12, -16,
  -21, -26, -31, -37, -44, -51, -58, -66,
  -75, -84, -93, -103, -114, -125, -136, -148,
  -161, -174, -187, -201, -216, -231, -246, -262,
  /* threat by a cheaper piece (middlegame) */
  0, -30, -30, -60, -150, -60, -10,
  /* threat by a cheaper piece (endgame) */
  0, -30, -30, -60, -150, -60, -10,
  /* hanging piece (middlegame) */
  0, -20, -20, -40, -80, -40, -10,
  /* hanging piece (endgame) */
  0, -20, -20, -40, -80, -40, -10,
  /* tempo */
  10,
};
