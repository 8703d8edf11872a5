/* ByteHisto.cpp: a 256-bin histogram of the bytes of a word array, per work-group then summed.
 *
 * Every thread owns one 8-bit counter per bin in dynamically sized shared memory declared with
 * HIP_DYNAMIC_SHARED, laid out [bin][thread] so four neighbouring threads' counters of a bin
 * form one uchar4; the merge reads them four at a time and widens to uint4 before summing.
 * The host reference splits the data over two threads that merge under a lock.
 * Written for hipwb's fieldwork corpus in the style of the older SDK samples.
 */
#include "ByteHisto.hpp"

__global__ void groupHistogram(const unsigned int* data, unsigned int* groupBins)
{
    HIP_DYNAMIC_SHARED(unsigned char, counters);
    const uint t       = hipThreadIdx_x;
    const uint threads = hipBlockDim_x;
    const uint group   = hipBlockIdx_x;

    /* clear the counters four bytes at a time */
    uchar4* words = (uchar4*)counters;
    for(uint i = t; i < BIN_COUNT * threads / 4; i += threads)
        words[i] = make_uchar4(0, 0, 0, 0);
    __syncthreads();

    const uchar4* packed = (const uchar4*)data;
    for(uint i = 0; i < WORDS_PER_THREAD; ++i)
    {
#ifdef LINEAR_MEM_ACCESS
        const uchar4 q = packed[(group * threads + t) * WORDS_PER_THREAD + i];
#else
        const uchar4 q = packed[group * threads * WORDS_PER_THREAD + i * threads + t];
#endif
        counters[q.x * threads + t]++;
        counters[q.y * threads + t]++;
        counters[q.z * threads + t]++;
        counters[q.w * threads + t]++;
    }
    __syncthreads();

    for(uint bin = t; bin < BIN_COUNT; bin += threads)
    {
        uint4 sum = make_uint4(0, 0, 0, 0);
        const uchar4* row = (const uchar4*)(counters + bin * threads);
        for(uint j = 0; j < threads / 4; ++j)
        {
            const uchar4 c = row[j];
            sum.x += c.x;
            sum.y += c.y;
            sum.z += c.z;
            sum.w += c.w;
        }
        groupBins[group * BIN_COUNT + bin] = sum.x + sum.y + sum.z + sum.w;
    }
}

int ByteHisto::initialize()
{
    SampleBase::initialize();
    cmd.add("g", "groups", "number of work-groups", samplekit::OPT_UINT, &groups);
    return SAMPLE_OK;
}

int ByteHisto::setup()
{
    const size_t words = size_t(groups) * BYTES_PER_GROUP / 4;
    hostData           = (unsigned int*)ALIGNED_ALLOC(words * sizeof(unsigned int), 256);
    CHECK_ALLOC(hostData, "hostData");
    for(size_t i = 0; i < words; ++i)
        hostData[i] = (unsigned int)(i * 2654435761u) ^ (unsigned int)(i >> 3);
    hipMalloc((void**)&devData, words * sizeof(unsigned int));
    hipMalloc((void**)&devGroupBins, groups * BIN_COUNT * sizeof(unsigned int));
    hipMemcpy(devData, hostData, words * sizeof(unsigned int), hipMemcpyHostToDevice);
    return SAMPLE_OK;
}

int ByteHisto::run()
{
    hipLaunchKernelGGL(groupHistogram, dim3(groups), dim3(GROUP_THREADS), GROUP_THREADS * BIN_COUNT, 0, devData,
                       devGroupBins);
    std::vector<unsigned int> perGroup(size_t(groups) * BIN_COUNT);
    hipMemcpy(&perGroup[0], devGroupBins, perGroup.size() * sizeof(unsigned int), hipMemcpyDeviceToHost);
    deviceBins.assign(BIN_COUNT, 0);
    for(size_t i = 0; i < perGroup.size(); ++i)
        deviceBins[i % BIN_COUNT] += perGroup[i];
    return SAMPLE_OK;
}

void* ByteHisto::countSlice(void* arg)
{
    Slice*       s = (Slice*)arg;
    unsigned int local[BIN_COUNT] = {0};
    for(size_t i = 0; i < s->count; ++i)
        local[s->begin[i]]++;
    samplekit::Guard hold(*s->lock);
    for(int b = 0; b < BIN_COUNT; ++b)
        s->bins[b] += local[b];
    return NULL;
}

int ByteHisto::verifyResults()
{
    const size_t              bytes = size_t(groups) * BYTES_PER_GROUP;
    std::vector<unsigned int> want(BIN_COUNT, 0);
    samplekit::Lock           lock;
    const unsigned char*      all = (const unsigned char*)hostData;
    Slice                     halves[2] = {{all, bytes / 2, &want[0], &lock}, {all + bytes / 2, bytes - bytes / 2, &want[0], &lock}};
    samplekit::Thread         workers[2];
    for(int i = 0; i < 2; ++i)
        workers[i].start(countSlice, &halves[i]);
    for(int i = 0; i < 2; ++i)
        workers[i].join();
    const bool ok = samplekit::compare(&want[0], &deviceBins[0], BIN_COUNT, 0.0);
    std::cout << (ok ? "Passed!" : "Failed") << std::endl;
    return ok ? SAMPLE_OK : SAMPLE_FAIL;
}

int ByteHisto::cleanup()
{
    hipFree(devData);
    hipFree(devGroupBins);
    ALIGNED_FREE(hostData);
    return SAMPLE_OK;
}

int main(int argc, char* argv[])
{
    ByteHisto sample;
    return sample.main(argc, argv);
}
