/* FilterTaps.h: the filter masks of the ImageFilters sample (hipwb fieldwork corpus): a 5x5
 * binomial blur as a full mask and as its separable 1-D factor. */
#ifndef FILTERTAPS_H_
#define FILTERTAPS_H_

#define TAPS 5

static const float blurRow[TAPS] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};
static const float blurCol[TAPS] = {1.0f / 16, 4.0f / 16, 6.0f / 16, 4.0f / 16, 1.0f / 16};

static const float blur2D[TAPS * TAPS] = {
    1.0f / 256, 4.0f / 256,  6.0f / 256,  4.0f / 256,  1.0f / 256,
    4.0f / 256, 16.0f / 256, 24.0f / 256, 16.0f / 256, 4.0f / 256,
    6.0f / 256, 24.0f / 256, 36.0f / 256, 24.0f / 256, 6.0f / 256,
    4.0f / 256, 16.0f / 256, 24.0f / 256, 16.0f / 256, 4.0f / 256,
    1.0f / 256, 4.0f / 256,  6.0f / 256,  4.0f / 256,  1.0f / 256,
};

#endif
