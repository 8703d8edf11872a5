/* ImageFilters.hpp: declarations of the ImageFilters sample (hipwb fieldwork corpus). */
#ifndef IMAGEFILTERS_H_
#define IMAGEFILTERS_H_

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/SampleKit.hpp"
#include "../include/SampleImage.hpp"
#include "FilterTaps.h"

#define mad(a, b, c) ((a) * (b) + (c))
#define TILE 16
#define COLUMN_GROUP 64

/* coefficients of a causal + anti-causal second-order recursive Gaussian */
struct IirCoeffs
{
    float a0, a1, a2, a3;
    float b1, b2;
    float coefp, coefn;
};

class ImageFilters : public samplekit::SampleBase
{
public:
    ImageFilters();
    int initialize();
    int setup();
    int run();
    int verifyResults();
    int cleanup();

private:
    static IirCoeffs gaussian(float sigma);

    std::string     inputPath;
    float           sigma;
    samplekit::Image image;
    samplekit::Image output;
    uchar4*         devImage;
    uchar4*         devTemp;
    unsigned int*   devGrey;
    float*          devRows;
    unsigned int*   devSeparable;
    unsigned int*   devDirect;
    float*          devMask;
};

#endif
