/* ByteHisto.hpp: settings and class of the ByteHisto sample (hipwb fieldwork corpus). */
#ifndef BYTEHISTO_H_
#define BYTEHISTO_H_

#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/SampleKit.hpp"
#include "../include/SampleThread.hpp"

#define BIN_COUNT 256
#define GROUP_THREADS 128
#define WORDS_PER_THREAD 32 /* 4 bytes a word: at most 128 counts per 8-bit counter */
#define BYTES_PER_GROUP (GROUP_THREADS * WORDS_PER_THREAD * 4)

class ByteHisto : public samplekit::SampleBase
{
public:
    ByteHisto() : SampleBase("ByteHisto"), groups(1024), hostData(NULL), devData(NULL), devGroupBins(NULL) {}
    int initialize();
    int setup();
    int run();
    int verifyResults();
    int cleanup();

private:
    struct Slice
    {
        const unsigned char* begin;
        size_t               count;
        unsigned int*        bins;
        samplekit::Lock*     lock;
    };
    static void* countSlice(void* arg);

    unsigned int              groups;
    unsigned int*             hostData;
    unsigned int*             devData;
    unsigned int*             devGroupBins;
    std::vector<unsigned int> deviceBins;
};

#endif
